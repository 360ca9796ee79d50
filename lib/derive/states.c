/* derive/states.c - a thread's scheduling states inside a time range (a block). */
#include "derive/states.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "binder_aidl_name_sql.h" /* GD_SQL_BINDER_AIDL_NAME: lib/sql/binder-aidl-name.sql */
#include "binder_outermost_sql.h" /* GD_SQL_BINDER_OUTERMOST: lib/sql/binder-outermost.sql */

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

/* A thread_state row, read by name: STATE_COLS for gd_states_lane,
 * SHARE_COLS (its D time's function too) for gd_states_in. */
#define STATE_COLS(X) X(S_TS, "ts_ms") X(S_DUR, "dur_ms")
#define SHARE_COLS(X) STATE_COLS(X) X(S_FN, "blocked_function")
enum { S_STATE = 0, SHARE_COLS(GD_COL_ENUM) S_NCOLS };

/* gd_states_in's rows, added up (gd_store_each's callback) */
typedef struct {
    double start, end;
    double cls[5];
    fn_acc fns[8];
    size_t nf;
} states_acc;

static int states_row(void *ctx, sqlite3_stmt *q)
{
    states_acc *c = ctx;
    if (sqlite3_column_type(q, S_DUR) == SQLITE_NULL)
        return GD_OK;
    double a = sqlite3_column_double(q, S_TS), b = a + sqlite3_column_double(q, S_DUR);
    if (a < c->start)
        a = c->start;
    if (b > c->end)
        b = c->end;
    if (!(b > a))
        return GD_OK;
    int k = gd_state_class((const char *)sqlite3_column_text(q, S_STATE));
    c->cls[k] += b - a;
    const char *fn = (const char *)sqlite3_column_text(q, S_FN);
    if (k == 3 && fn) {
        size_t i;
        for (i = 0; i < c->nf && strncmp(c->fns[i].name, fn, GD_STATES_FN_MAX - 1) != 0; i++)
            ;
        if (i == c->nf && c->nf < sizeof c->fns / sizeof *c->fns) {
            snprintf(c->fns[c->nf].name, sizeof c->fns[c->nf].name, "%s", fn);
            c->fns[c->nf++].ms = 0;
        }
        if (i < c->nf)
            c->fns[i].ms += b - a;
    }
    return GD_OK;
}

int gd_states_in(gd_store *s, int64_t trace, int64_t tid, double start, double end,
                 gd_state_share *out, gd_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(end > start))
        return GD_OK;
    /* per thread the states follow each other: the one that began last at
     * or before `start`, then those beginning inside (thread_state's key) */
    sqlite3_stmt *q = gd_store_cached(
        s,
        "SELECT state" SHARE_COLS(GD_COL_SQL) " FROM thread_state"
        " WHERE trace = ?1 AND tid = ?2 AND ts_ms < ?4 AND ts_ms >= coalesce("
        "(SELECT max(ts_ms) FROM thread_state WHERE trace = ?1 AND tid = ?2 AND ts_ms <= ?3), ?3)",
        err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_int64(q, 2, tid);
    sqlite3_bind_double(q, 3, start);
    sqlite3_bind_double(q, 4, end);
    states_acc a = {.start = start, .end = end};
    int rc = gd_store_each(s, q, states_row, &a, err);
    if (rc)
        return rc;
    double *cls = a.cls;
    fn_acc *fns = a.fns;
    size_t nf = a.nf;
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

/* A binder call of the thread, read by name. */
#define BINDER_COLS(X)                                                                             \
    X(BI_DUR, "dur_ms") X(BI_SERVER_PID, "server_pid") X(BI_AIDL, "aidl_name")                     \
    X(BI_SERVER_PROCESS, "server_process")
enum { BI_TS = 0, BINDER_COLS(GD_COL_ENUM) BI_NCOLS };
enum { TN_NAME = 0 }; /* the server's thread name, one column */

/* gd_binder_in's calls, added up per server process (gd_store_each's
 * callback) */
typedef struct {
    int64_t pid;
    double ms, longest;
    char aidl[128];
    char name[64]; /* the trace's name of the process, "" unknown */
} binder_per;

typedef struct {
    double end, covered_to;
    gd_binder_share *out;
    binder_per per[8];
    size_t np;
} binder_acc;

static int binder_row(void *ctx, sqlite3_stmt *q)
{
    binder_acc *c = ctx;
    double a = sqlite3_column_double(q, BI_TS), b = a + sqlite3_column_double(q, BI_DUR);
    if (a < c->covered_to)
        a = c->covered_to; /* a nested call's time is its caller's */
    if (b > c->end)
        b = c->end;
    if (!(b > a))
        return GD_OK;
    c->covered_to = b;
    c->out->ms += b - a;
    int64_t pid = sqlite3_column_type(q, BI_SERVER_PID) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, BI_SERVER_PID);
    binder_per *per = c->per;
    size_t i;
    for (i = 0; i < c->np && per[i].pid != pid; i++)
        ;
    if (i == c->np && c->np < sizeof c->per / sizeof *c->per) {
        per[c->np].pid = pid, per[c->np].ms = per[c->np].longest = 0;
        per[c->np].name[0] = 0;
        per[c->np++].aidl[0] = 0;
    }
    if (i < c->np) {
        per[i].ms += b - a;
        const char *pn = (const char *)sqlite3_column_text(q, BI_SERVER_PROCESS);
        if (pn && *pn && !per[i].name[0])
            snprintf(per[i].name, sizeof per[i].name, "%s", pn);
        const char *an = (const char *)sqlite3_column_text(q, BI_AIDL);
        if (an && b - a > per[i].longest) {
            per[i].longest = b - a;
            gd_aidl_short(an, per[i].aidl, sizeof per[i].aidl);
        }
    }
    return GD_OK;
}

int gd_binder_in(gd_store *s, int64_t trace, int64_t tid, double start, double end,
                 gd_binder_share *out, gd_error *err)
{
    memset(out, 0, sizeof *out);
    out->server_pid = -1;
    if (!(end > start))
        return GD_OK;
    /* The calls running in the range, in time order: the accumulator
     * counts each instant once, for the first call covering it.  Of those
     * begun before the start only the outermost ones (binder_txn.outermost:
     * each ends after every earlier call of the thread) can add time, those
     * ending after the start: a suffix of the outermost calls, walked back
     * from the start (binder_txn_outermost) to the last that ended by then.
     * Then the calls begun inside (binder_txn_client).  So a block reads
     * the calls that can count, not every earlier call of its thread (#53;
     * nested calls add nothing: their time is their caller's). */
    static const char *const sql[2] = {
        "SELECT ts_ms" BINDER_COLS(GD_COL_SQL) " FROM binder_txn"
        " WHERE trace = ?1 AND client_tid = ?2 AND outermost = 1 AND ts_ms < ?3"
        " AND ts_ms >= coalesce((SELECT ts_ms FROM binder_txn WHERE trace = ?1 AND client_tid = ?2"
        " AND outermost = 1 AND ts_ms < ?3 AND ts_ms + dur_ms <= ?3 ORDER BY ts_ms DESC LIMIT 1), -1e308)"
        " AND ts_ms + dur_ms > ?3 ORDER BY ts_ms",
        "SELECT ts_ms" BINDER_COLS(GD_COL_SQL) " FROM binder_txn"
        " WHERE trace = ?1 AND client_tid = ?2 AND ts_ms >= ?3 AND ts_ms < ?4"
        " AND oneway = 0 AND dur_ms IS NOT NULL AND ts_ms + dur_ms > ?3 ORDER BY ts_ms",
    };
    binder_acc c = {.end = end, .covered_to = start, .out = out};
    int rc = GD_OK;
    for (int i = 0; i < 2 && !rc; i++) {
        sqlite3_stmt *q = gd_store_cached(s, sql[i], err);
        if (!q)
            return err->code;
        sqlite3_bind_int64(q, 1, trace);
        sqlite3_bind_int64(q, 2, tid);
        sqlite3_bind_double(q, 3, start);
        sqlite3_bind_double(q, 4, end);
        rc = gd_store_each(s, q, binder_row, &c, err);
    }
    size_t np = c.np;
    binder_per *per = c.per;
    if (rc || !np)
        return rc;
    size_t best = 0;
    for (size_t i = 1; i < np; i++)
        if (per[i].ms > per[best].ms)
            best = i;
    out->server_pid = per[best].pid;
    memcpy(out->aidl, per[best].aidl, sizeof out->aidl);
    /* the process's name: the one the trace gave it (server_process), else
     * its main thread's (a systrace line of that thread) */
    memcpy(out->server_name, per[best].name, sizeof out->server_name);
    if (out->server_pid < 0 || out->server_name[0])
        return GD_OK;
    sqlite3_stmt *n = gd_store_cached(s, "SELECT name FROM thread WHERE trace = ?1 AND tid = ?2 AND name IS NOT NULL LIMIT 1", err);
    if (!n)
        return err->code;
    sqlite3_bind_int64(n, 1, trace);
    sqlite3_bind_int64(n, 2, out->server_pid);
    if (sqlite3_step(n) == SQLITE_ROW)
        snprintf(out->server_name, sizeof out->server_name, "%s", (const char *)sqlite3_column_text(n, TN_NAME));
    gd_store_release(s, n);
    return GD_OK;
}

/* A lock contention of the thread, read by name. */
#define LOCK_COLS(X)                                                                               \
    X(LK_DUR, "i.cost_ms AS dur") X(LK_OWNER_TID, "json_extract(i.content, '$.owner_tid') AS otid") \
    X(LK_OWNER, "json_extract(i.content, '$.owner') AS owner")                                     \
    X(LK_METHOD, "json_extract(i.content, '$.owner_method') AS om")
enum { LK_TS = 0, LOCK_COLS(GD_COL_ENUM) LK_NCOLS };

/* gd_lock_in's contentions, added up per owner thread (gd_store_each's
 * callback) */
typedef struct {
    int64_t tid;
    double ms, longest;
    char name[64], method[256];
} lock_per;

typedef struct {
    double end, covered_to;
    gd_lock_share *out;
    lock_per per[8];
    size_t np;
} lock_acc;

static int lock_row(void *ctx, sqlite3_stmt *q)
{
    lock_acc *c = ctx;
    double a = sqlite3_column_double(q, LK_TS), b = a + sqlite3_column_double(q, LK_DUR);
    if (a < c->covered_to)
        a = c->covered_to;
    if (b > c->end)
        b = c->end;
    if (!(b > a))
        return GD_OK;
    c->covered_to = b;
    c->out->ms += b - a;
    int64_t otid = sqlite3_column_type(q, LK_OWNER_TID) == SQLITE_INTEGER ? sqlite3_column_int64(q, LK_OWNER_TID) : -1;
    const char *name = (const char *)sqlite3_column_text(q, LK_OWNER);
    lock_per *per = c->per;
    size_t i;
    for (i = 0; i < c->np && per[i].tid != otid; i++)
        ;
    if (i == c->np && c->np < sizeof c->per / sizeof *c->per) {
        per[c->np].tid = otid;
        per[c->np].ms = per[c->np].longest = 0;
        snprintf(per[c->np].name, sizeof per[c->np].name, "%s", name ? name : "");
        per[c->np++].method[0] = 0;
    }
    if (i < c->np) {
        per[i].ms += b - a;
        const char *m = (const char *)sqlite3_column_text(q, LK_METHOD);
        if (m && b - a > per[i].longest) {
            per[i].longest = b - a;
            snprintf(per[i].method, sizeof per[i].method, "%s", m);
        }
    }
    return GD_OK;
}

int gd_lock_in(gd_store *s, int64_t trace, int64_t tid, double start, double end,
               gd_lock_share *out, gd_error *err)
{
    memset(out, 0, sizeof *out);
    out->owner_tid = -1;
    if (!(end > start))
        return GD_OK;
    /* contentions of one thread follow each other (ART's nested "Lock
     * contention on a monitor lock" is not stored twice); those beginning
     * inside, and the last one begun at or before the start (found walking
     * the time index back from it: a bound by the trace's longest
     * contention read every contention of the trace for each range) */
    sqlite3_stmt *q = gd_store_cached(
        s,
        "SELECT e.ts_ms AS ts" LOCK_COLS(GD_COL_SQL)
        " FROM raw_event e JOIN issue i ON i.id = e.id WHERE e.trace = ?1 AND e.kind = 'issue'"
        " AND e.tid = ?2 AND i.tool = 'android' AND i.type = 'lock_contention' AND i.cost_ms > 0"
        " AND e.ts_ms < ?4 AND e.ts_ms >= coalesce((SELECT e2.ts_ms FROM raw_event e2 JOIN issue i2"
        " ON i2.id = e2.id WHERE e2.trace = ?1 AND e2.kind = 'issue' AND e2.ts_ms <= ?3 AND e2.tid = ?2"
        " AND i2.tool = 'android' AND i2.type = 'lock_contention' AND i2.cost_ms > 0"
        " ORDER BY e2.ts_ms DESC LIMIT 1), ?3)"
        " AND e.ts_ms + i.cost_ms > ?3 ORDER BY e.ts_ms",
        err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_int64(q, 2, tid);
    sqlite3_bind_double(q, 3, start);
    sqlite3_bind_double(q, 4, end);
    lock_acc c = {.end = end, .covered_to = start, .out = out};
    int rc = gd_store_each(s, q, lock_row, &c, err);
    size_t np = c.np;
    lock_per *per = c.per;
    if (rc || !np)
        return rc;
    size_t best = 0;
    for (size_t i = 1; i < np; i++)
        if (per[i].ms > per[best].ms)
            best = i;
    out->owner_tid = per[best].tid;
    memcpy(out->owner, per[best].name, sizeof out->owner);
    memcpy(out->owner_method, per[best].method, sizeof out->owner_method);
    return GD_OK;
}

/* Which shares have data, over every trace and over one (?1): each column
 * as X(ID, every trace, one trace), after W_SCHED's written out. */
#define WHY_COLS(X)                                                                                \
    X(W_LOCK, "EXISTS (SELECT 1 FROM issue WHERE type = 'lock_contention' AND tool = 'android') AS lock", \
      "EXISTS (SELECT 1 FROM issue WHERE trace = ?1 AND tool = 'android' AND type = 'lock_contention') AS lock")
#define WHY_ENUM(id, all, one) id,
#define WHY_ALL(id, all, one) ", " all
#define WHY_ONE(id, all, one) ", " one
enum { W_SCHED = 0, WHY_COLS(WHY_ENUM) W_NCOLS };

/* Steps the one row of a WHY_COLS query into *have and releases q. */
static int why_read(gd_store *s, sqlite3_stmt *q, int *have, gd_error *err)
{
    int step = sqlite3_step(q);
    if (step == SQLITE_ROW)
        *have = (sqlite3_column_int(q, W_SCHED) ? GD_WHY_SCHED : 0) |
                (sqlite3_column_int(q, W_LOCK) ? GD_WHY_LOCK : 0);
    int rc = step == SQLITE_ROW ? GD_OK : gd_store_fail(s, err, "database read");
    gd_store_release(s, q);
    return rc;
}

int gd_why_have(gd_store *s, int *have, gd_error *err)
{
    *have = 0;
    sqlite3_stmt *q = gd_store_cached(
        s,
        "SELECT (EXISTS (SELECT 1 FROM thread_state) OR EXISTS (SELECT 1 FROM binder_txn)) AS sched"
        WHY_COLS(WHY_ALL),
        err);
    if (!q)
        return err->code;
    return why_read(s, q, have, err);
}

int gd_why_have_trace(gd_store *s, int64_t trace, int *have, gd_error *err)
{
    *have = 0;
    sqlite3_stmt *q = gd_store_cached(
        s,
        "SELECT (EXISTS (SELECT 1 FROM thread_state WHERE trace = ?1)"
        " OR EXISTS (SELECT 1 FROM binder_txn WHERE trace = ?1)) AS sched" WHY_COLS(WHY_ONE),
        err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    return why_read(s, q, have, err);
}

void gd_why_values(const gd_why *w, int have, double v[GD_WHY_NVALUES])
{
    const gd_state_share *sh = &w->states;
    int states = sh->covered > 0;
    v[GD_WHY_V_RUNNING] = states ? sh->running : NAN;
    v[GD_WHY_V_RUNNABLE] = states ? sh->runnable : NAN;
    v[GD_WHY_V_SLEEPING] = states ? sh->sleeping : NAN;
    v[GD_WHY_V_UNINTERRUPTIBLE] = states ? sh->uninterruptible : NAN;
    v[GD_WHY_V_COVERED] = sh->covered;
    v[GD_WHY_V_BINDER] = (have & GD_WHY_SCHED) ? w->binder.ms : NAN;
    v[GD_WHY_V_LOCK] = have ? w->lock.ms : NAN;
}

static json_t *share_json(double part, double total)
{
    return json_real(round((isnan(part) ? 0 : part) / total * 10000.0) / 10000.0);
}

int gd_why_shares_json(json_t *row, const double sums[GD_WHY_NVALUES], double total, int have)
{
    static const char *const names[4] = {"running_share", "runnable_share", "sleeping_share",
                                         "uninterruptible_share"};
    int ok = 1, pos = total > 0;
    for (int k = 0; k < 4; k++)
        ok &= !json_object_set_new(row, names[k],
                                   sums[GD_WHY_V_COVERED] > 0 && pos ? share_json(sums[k], total) : json_null());
    ok &= !json_object_set_new(row, "states_coverage",
                               pos ? share_json(sums[GD_WHY_V_COVERED], total) : json_real(0));
    ok &= !json_object_set_new(row, "binder_share",
                               (have & GD_WHY_SCHED) && pos ? share_json(sums[GD_WHY_V_BINDER], total)
                                                            : json_null());
    ok &= !json_object_set_new(row, "lock_share",
                               have && pos ? share_json(sums[GD_WHY_V_LOCK], total) : json_null());
    return ok ? 0 : -1;
}

int gd_why_in(gd_store *s, int have, int64_t trace, int64_t tid, double start, double end,
              gd_why *out, gd_error *err)
{
    memset(out, 0, sizeof *out);
    out->binder.server_pid = -1;
    out->lock.owner_tid = -1;
    int rc = GD_OK;
    if (have & GD_WHY_SCHED) {
        rc = gd_states_in(s, trace, tid, start, end, &out->states, err);
        if (!rc)
            rc = gd_binder_in(s, trace, tid, start, end, &out->binder, err);
    }
    if (!rc && (have & GD_WHY_LOCK))
        rc = gd_lock_in(s, trace, tid, start, end, &out->lock, err);
    return rc;
}

void gd_why_text(const gd_why *w, double range_ms, char *buf, size_t n)
{
    if (n)
        buf[0] = 0;
    if (!(range_ms > 0) || !n)
        return;
    const gd_state_share *sh = &w->states;
    double st = sh->dominant ? sh->dominant_ms : 0;
    if (sh->dominant && (strcmp(sh->dominant, "S") == 0 || strcmp(sh->dominant, "R") == 0))
        st -= w->lock.ms + w->binder.ms; /* the waits explain that sleep */
    if (w->lock.ms > 0 && w->lock.ms >= w->binder.ms && w->lock.ms >= st) {
        int len = snprintf(buf, n, "%.0f%% lock held by %s", 100.0 * w->lock.ms / range_ms,
                           w->lock.owner[0] ? w->lock.owner : "thread");
        if (w->lock.owner_tid >= 0 && len >= 0 && (size_t)len < n)
            snprintf(buf + len, n - (size_t)len, " (%lld)", (long long)w->lock.owner_tid);
        return;
    }
    if (w->binder.ms > 0 && w->binder.ms >= st) {
        int len;
        if (w->binder.server_name[0])
            len = snprintf(buf, n, "%.0f%% binder to %s", 100.0 * w->binder.ms / range_ms, w->binder.server_name);
        else if (w->binder.server_pid >= 0)
            len = snprintf(buf, n, "%.0f%% binder to pid %lld", 100.0 * w->binder.ms / range_ms,
                           (long long)w->binder.server_pid);
        else
            len = snprintf(buf, n, "%.0f%% binder", 100.0 * w->binder.ms / range_ms);
        if (w->binder.aidl[0] && len >= 0 && (size_t)len < n)
            snprintf(buf + len, n - (size_t)len, " (%s)", w->binder.aidl);
        return;
    }
    gd_states_text(sh, range_ms, buf, n);
}

void gd_aidl_short(const char *aidl, char *buf, size_t n)
{
    /* parts: 0 AIDL, 1 java/cpp, 2 interface, 3 method, 4 server */
    const char *p = aidl, *from = NULL, *to = NULL;
    for (int part = 0; p && part < 4; part++) {
        if (part == 2)
            from = p;
        const char *sep = strstr(p, "::");
        if (part == 3)
            to = sep ? sep : p + strlen(p);
        p = sep ? sep + 2 : NULL;
    }
    if (from && to && to > from)
        snprintf(buf, n, "%.*s", (int)(to - from), from);
    else
        snprintf(buf, n, "%s", aidl);
}

enum { AN_ANY = 0 }; /* gd_binder_name_aidl's look first, one column */
int gd_binder_name_aidl(gd_store *s, int64_t trace, gd_error *err)
{
    /* most traces have no slices on binder threads: nothing to look up */
    sqlite3_stmt *h = gd_store_cached(s, "SELECT EXISTS (SELECT 1 FROM binder_txn WHERE trace = ?1)"
                                         " AND EXISTS (SELECT 1 FROM call WHERE trace = ?1)", err);
    if (!h)
        return err->code;
    sqlite3_bind_int64(h, 1, trace);
    int step = sqlite3_step(h), any = step == SQLITE_ROW && sqlite3_column_int(h, AN_ANY);
    int rc = step == SQLITE_ROW ? GD_OK : gd_store_fail(s, err, "database read");
    gd_store_release(s, h);
    if (rc || !any)
        return rc;
    sqlite3_stmt *u = gd_store_cached(s, GD_SQL_BINDER_AIDL_NAME, err);
    if (!u)
        return err->code;
    sqlite3_bind_int64(u, 1, trace);
    rc = sqlite3_step(u) == SQLITE_DONE ? GD_OK : gd_store_fail(s, err, "database write");
    gd_store_release(s, u);
    return rc;
}

static const char *const LANE_CLASS[5] = {"Running", "R", "S", "D", "other"};

static int lane_put(json_t *out, size_t *n, size_t max_n, double a, double b, int k, double min_ms)
{
    if (k < 0 || !(b - a >= min_ms) || *n >= max_n)
        return 0;
    json_t *r = json_pack("[ffs]", gd_ms_round(a), gd_ms_round(b - a), LANE_CLASS[k]);
    if (!r || json_array_append_new(out, r))
        return -1;
    (*n)++;
    return 0;
}

/* The lane's loop: the run of one class being merged, [a, b) of class k
 * (-1 none yet), and the intervals put so far. */
typedef struct lane_ctx {
    json_t *out;
    size_t n, max_n;
    double min_ms, a, b;
    int k;
    gd_error *err;
} lane_ctx;

static int lane_row(void *ctx, sqlite3_stmt *q)
{
    lane_ctx *c = ctx;
    int k = gd_state_class((const char *)sqlite3_column_text(q, S_STATE));
    double t = sqlite3_column_double(q, S_TS), e = t + sqlite3_column_double(q, S_DUR);
    if (k == c->k && t <= c->b) {
        if (e > c->b)
            c->b = e;
        return GD_OK;
    }
    if (lane_put(c->out, &c->n, c->max_n, c->a, c->b, c->k, c->min_ms))
        return gd_error_oom(c->err);
    c->k = k, c->a = t, c->b = e;
    return c->n < c->max_n ? GD_OK : GD_EACH_STOP;
}

int gd_states_lane(gd_store *s, int64_t trace, double min_ms, size_t max_n, json_t *out, gd_error *err)
{
    lane_ctx c = {.out = out, .max_n = max_n, .min_ms = min_ms, .k = -1, .err = err};
    /* one thread's intervals follow each other (thread_state's key) */
    sqlite3_stmt *q = gd_store_prepare(
        s,
        "SELECT state" STATE_COLS(GD_COL_SQL) " FROM thread_state WHERE trace = ?1"
        " AND tid = (SELECT main_tid FROM trace WHERE id = ?1) AND dur_ms IS NOT NULL ORDER BY ts_ms",
        err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    int rc = gd_store_each(s, q, lane_row, &c, err);
    if (!rc && c.n < max_n && lane_put(out, &c.n, max_n, c.a, c.b, c.k, min_ms))
        rc = gd_error_oom(err);
    return rc;
}

int gd_binder_outermost(gd_store *s, int64_t trace, gd_error *err)
{
    sqlite3_stmt *u = gd_store_cached(s, GD_SQL_BINDER_OUTERMOST, err);
    if (!u)
        return err->code;
    sqlite3_bind_int64(u, 1, trace);
    int rc = sqlite3_step(u) == SQLITE_DONE ? GD_OK : gd_store_fail(s, err, "database write");
    gd_store_release(s, u);
    return rc;
}

int gd_binder_from_slices(gd_store *s, int64_t trace, gd_error *err)
{
    /* CROSS JOIN keeps the two binder methods outside (method_key, then
     * call_method): without statistics SQLite would walk every call of the
     * trace by call_at and look each method up */
    sqlite3_stmt *u = gd_store_cached(
        s,
        "INSERT INTO binder_txn(trace, client_pid, client_tid, ts_ms, dur_ms, oneway)"
        " SELECT c.trace, CASE WHEN c.pid >= 0 THEN c.pid END, c.tid, c.start_ms,"
        " CASE WHEN m.name = 'binder transaction async' THEN 0 WHEN c.open THEN NULL"
        " ELSE c.end_ms - c.start_ms END, m.name = 'binder transaction async'"
        " FROM method m CROSS JOIN call c ON c.method = m.id WHERE m.class = ''"
        " AND m.name IN ('binder transaction', 'binder transaction async') AND c.trace = ?1"
        " AND NOT EXISTS (SELECT 1 FROM binder_txn WHERE trace = ?1) ORDER BY c.start_ms, c.id",
        err);
    if (!u)
        return err->code;
    sqlite3_bind_int64(u, 1, trace);
    int rc = sqlite3_step(u) == SQLITE_DONE ? GD_OK : gd_store_fail(s, err, "database write");
    gd_store_release(s, u);
    return rc;
}
