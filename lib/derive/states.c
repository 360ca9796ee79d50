/* derive/states.c - a thread's scheduling states inside a time range (a block). */
#include "derive/states.h"

#include <stdio.h>
#include <string.h>

/* The state's class: 0 running, 1 runnable, 2 sleeping, 3 uninterruptible, 4 other. */
int gd_state_class(const char *st)
{
    if (!st)
        return 4;
    if (strcmp(st, "Running") == 0)
        return 0;
    if (strcmp(st, "R") == 0 || strcmp(st, "R+") == 0)
        return 1;
    if (strcmp(st, "S") == 0 || strcmp(st, "I") == 0)
        return 2;
    if (st[0] == 'D')
        return 3;
    return 4;
}

typedef struct fn_acc {
    char name[GD_STATES_FN_MAX];
    double ms;
} fn_acc;

int gd_states_in(gd_store *s, int64_t trace, int64_t tid, double start, double end,
                 gd_state_share *out, gd_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(end > start))
        return GD_OK;
    /* per thread the states follow each other: the one that began last at
     * or before `start`, then those beginning inside (thread_state_at) */
    sqlite3_stmt *q = gd_store_cached(
        s,
        "SELECT state, ts_ms, dur_ms, blocked_function FROM thread_state"
        " WHERE trace = ?1 AND tid = ?2 AND ts_ms < ?4 AND ts_ms >= coalesce("
        "(SELECT max(ts_ms) FROM thread_state WHERE trace = ?1 AND tid = ?2 AND ts_ms <= ?3), ?3)",
        err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_int64(q, 2, tid);
    sqlite3_bind_double(q, 3, start);
    sqlite3_bind_double(q, 4, end);
    double cls[5] = {0};
    fn_acc fns[8];
    size_t nf = 0;
    int step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        if (sqlite3_column_type(q, 2) == SQLITE_NULL)
            continue;
        double a = sqlite3_column_double(q, 1), b = a + sqlite3_column_double(q, 2);
        if (a < start)
            a = start;
        if (b > end)
            b = end;
        if (!(b > a))
            continue;
        int k = gd_state_class((const char *)sqlite3_column_text(q, 0));
        cls[k] += b - a;
        const char *fn = (const char *)sqlite3_column_text(q, 3);
        if (k == 3 && fn) {
            size_t i;
            for (i = 0; i < nf && strncmp(fns[i].name, fn, GD_STATES_FN_MAX - 1) != 0; i++)
                ;
            if (i == nf && nf < sizeof fns / sizeof *fns) {
                snprintf(fns[nf].name, sizeof fns[nf].name, "%s", fn);
                fns[nf++].ms = 0;
            }
            if (i < nf)
                fns[i].ms += b - a;
        }
    }
    int rc = step == SQLITE_DONE ? GD_OK : gd_store_fail(s, err, "database read");
    gd_store_release(s, q);
    if (rc)
        return rc;
    static const char *const NAMES[5] = {"Running", "R", "S", "D", "other"};
    out->running = cls[0];
    out->runnable = cls[1];
    out->sleeping = cls[2];
    out->uninterruptible = cls[3];
    out->other = cls[4];
    out->covered = cls[0] + cls[1] + cls[2] + cls[3] + cls[4];
    out->coverage = out->covered / (end - start);
    if (out->covered > 0) {
        int best = 0;
        for (int k = 1; k < 5; k++)
            if (cls[k] > cls[best])
                best = k;
        out->dominant = NAMES[best];
        out->dominant_ms = cls[best];
        if (best == 3 && nf) {
            size_t bi = 0;
            for (size_t i = 1; i < nf; i++)
                if (fns[i].ms > fns[bi].ms)
                    bi = i;
            memcpy(out->function, fns[bi].name, sizeof out->function);
        }
    }
    return GD_OK;
}

void gd_states_text(const gd_state_share *sh, double range_ms, char *buf, size_t n)
{
    if (!sh->dominant || !(range_ms > 0)) {
        if (n)
            buf[0] = 0;
        return;
    }
    int len = snprintf(buf, n, "%.0f%% %s", 100.0 * sh->dominant_ms / range_ms, sh->dominant);
    if (sh->function[0] && len >= 0 && (size_t)len < n) {
        size_t fl = strcspn(sh->function, "+");
        snprintf(buf + len, n - (size_t)len, " in %.*s", (int)fl, sh->function);
    }
}

int gd_binder_in(gd_store *s, int64_t trace, int64_t tid, double start, double end,
                 gd_binder_share *out, gd_error *err)
{
    memset(out, 0, sizeof *out);
    out->server_pid = -1;
    if (!(end > start))
        return GD_OK;
    /* calls are nested at most: those beginning inside, and the one
     * (outermost) running at the start */
    sqlite3_stmt *q = gd_store_cached(
        s,
        "SELECT ts_ms, dur_ms, server_pid FROM binder_txn WHERE trace = ?1 AND client_tid = ?2"
        " AND oneway = 0 AND dur_ms IS NOT NULL AND ts_ms < ?4 AND ts_ms + dur_ms > ?3"
        " ORDER BY ts_ms",
        err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_int64(q, 2, tid);
    sqlite3_bind_double(q, 3, start);
    sqlite3_bind_double(q, 4, end);
    struct {
        int64_t pid;
        double ms;
    } per[8];
    size_t np = 0;
    double covered_to = start;
    int step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        double a = sqlite3_column_double(q, 0), b = a + sqlite3_column_double(q, 1);
        if (a < covered_to)
            a = covered_to; /* a nested call's time is its caller's */
        if (b > end)
            b = end;
        if (!(b > a))
            continue;
        covered_to = b;
        out->ms += b - a;
        int64_t pid = sqlite3_column_type(q, 2) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, 2);
        size_t i;
        for (i = 0; i < np && per[i].pid != pid; i++)
            ;
        if (i == np && np < sizeof per / sizeof *per)
            per[np].pid = pid, per[np++].ms = 0;
        if (i < np)
            per[i].ms += b - a;
    }
    int rc = step == SQLITE_DONE ? GD_OK : gd_store_fail(s, err, "database read");
    gd_store_release(s, q);
    if (rc || !np)
        return rc;
    size_t best = 0;
    for (size_t i = 1; i < np; i++)
        if (per[i].ms > per[best].ms)
            best = i;
    out->server_pid = per[best].pid;
    if (out->server_pid < 0)
        return GD_OK;
    sqlite3_stmt *n = gd_store_cached(s, "SELECT name FROM thread WHERE trace = ?1 AND tid = ?2 AND name IS NOT NULL LIMIT 1", err);
    if (!n)
        return err->code;
    sqlite3_bind_int64(n, 1, trace);
    sqlite3_bind_int64(n, 2, out->server_pid);
    if (sqlite3_step(n) == SQLITE_ROW)
        snprintf(out->server_name, sizeof out->server_name, "%s", (const char *)sqlite3_column_text(n, 0));
    gd_store_release(s, n);
    return GD_OK;
}
