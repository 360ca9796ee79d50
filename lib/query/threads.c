/* query/threads.c - each thread's time by scheduling state (`godeye threads`). */
#include "core/row.h"
#include "query/threads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/app.h"
#include "core/util.h"
#include "derive/states.h"
#include "store/sql.h"

typedef struct tacc {
    int64_t trace, pid, tid;
    int main;
    char *name;
    char *process;   /* GD_SQL_PROCESS_OF its pid, or NULL */
    double ms[5];
    double long_r, long_r_ts, long_d, long_d_ts;
    char *long_d_fn;
    int64_t calls, served; /* binder transactions made and served */
} tacc;

static int cmp_threads(const void *a, const void *b)
{
    const tacc *x = a, *y = b;
    if (x->trace != y->trace)
        return x->trace < y->trace ? -1 : 1;
    if (x->main != y->main)
        return x->main ? -1 : 1;
    if (x->ms[0] != y->ms[0])
        return x->ms[0] > y->ms[0] ? -1 : 1;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

enum { GD_THREADS_COLS(GD_QC_ID, GD_QC_ID) TH_NCOLS };
GD_QCOLS_DEFINE(thread_cols, GD_THREADS_COLS);

/* v a time in ms when `have`, else null */
static void ms_or_null(gd_value *v, double ms, int have)
{
    if (have)
        gd_qv_ms(v, ms);
    else
        gd_qv_null(v);
}

static json_t *thread_row(const tacc *t)
{
    gd_value v[TH_NCOLS];
    gd_qv_int(&v[TH_TRACE], t->trace);
    if (t->pid >= 0)
        gd_qv_int(&v[TH_PID], t->pid);
    else
        gd_qv_null(&v[TH_PID]);
    gd_qv_int(&v[TH_TID], t->tid);
    gd_qv_text(&v[TH_THREAD], t->name);
    gd_qv_text(&v[TH_PROCESS], t->process);
    gd_qv_bool(&v[TH_MAIN], t->main);
    for (int k = 0; k < 5; k++) /* TH_RUNNING .. TH_OTHER: the classes of gd_state_class */
        gd_qv_ms(&v[TH_RUNNING + k], t->ms[k]);
    ms_or_null(&v[TH_MAX_R], t->long_r, t->long_r > 0);
    ms_or_null(&v[TH_MAX_R_AT], t->long_r_ts, t->long_r > 0);
    ms_or_null(&v[TH_MAX_D], t->long_d, t->long_d > 0);
    ms_or_null(&v[TH_MAX_D_AT], t->long_d_ts, t->long_d > 0);
    gd_qv_text(&v[TH_MAX_D_IN], t->long_d > 0 ? t->long_d_fn : NULL);
    gd_qv_int(&v[TH_BINDER_OUT], t->calls);
    gd_qv_int(&v[TH_BINDER_IN], t->served);
    return gd_qcols_json(&thread_cols, v);
}

/* The block's trace, thread and time; 1 found, 0 not, -1 error. */
static int block_range(gd_store *s, int64_t id, int64_t *trace, int64_t *tid, double *start,
                       double *end, gd_error *err)
{
    enum { BR_TRACE, BR_TID, BR_START, BR_DUR }; /* the SELECT's columns, in order */
    sqlite3_stmt *q = gd_store_prepare(s, "SELECT trace, tid, start_ms, dur_ms FROM dispatch WHERE id = ?1", err);
    if (!q)
        return -1;
    sqlite3_bind_int64(q, 1, id);
    int found = sqlite3_step(q) == SQLITE_ROW;
    if (found) {
        *trace = sqlite3_column_int64(q, BR_TRACE);
        *tid = sqlite3_column_int64(q, BR_TID);
        *start = sqlite3_column_double(q, BR_START);
        *end = *start + sqlite3_column_double(q, BR_DUR);
    }
    sqlite3_finalize(q);
    return found;
}

/* The columns of the thread_state rows read, after s.trace (TS_TRACE). */
#define STATE_COLS(X)                                                                   \
    X(TS_TID, "s.tid")                                                                  \
    X(TS_PID, "s.pid")                                                                  \
    X(TS_TS, "s.ts_ms")                                                                 \
    X(TS_DUR, "s.dur_ms")                                                               \
    X(TS_STATE, "s.state")                                                              \
    X(TS_BLOCKED_FN, "s.blocked_function")
enum { TS_TRACE = 0, STATE_COLS(GD_COL_ENUM) TS_NCOLS };

/* gd_query_threads' states, added up per thread, clipped to [start, end)
 * (gd_store_each's callback) */
struct threads_ctx {
    gd_store *s;
    sqlite3_stmt *nameq;    /* a thread's name, asked once per thread (not per row) */
    sqlite3_stmt *mainq;    /* a trace's main thread, asked once per trace (not joined per row) */
    int64_t main_trace;     /* the trace main_tid is of (-1: none asked yet) */
    int64_t main_tid;       /* its main_tid, -1 when NULL */
    tacc *ts;
    size_t n, cap;
    double start, end;
    gd_error *err;
};

/* 1 when thread td is trace tr's main thread (tr's main_tid, asked once
 * per trace), 0 when not, or a GD_ERR_* code (negated) */
static int is_main(struct threads_ctx *c, int64_t tr, int64_t td)
{
    if (c->main_trace != tr) {
        sqlite3_bind_int64(c->mainq, 1, tr);
        int r = sqlite3_step(c->mainq);
        if (r != SQLITE_ROW && r != SQLITE_DONE)
            return -gd_store_fail(c->s, c->err, "database read");
        c->main_tid = r == SQLITE_ROW && sqlite3_column_type(c->mainq, 0) != SQLITE_NULL
                          ? sqlite3_column_int64(c->mainq, 0) : -1;
        c->main_trace = tr;
        sqlite3_reset(c->mainq);
    }
    return c->main_tid >= 0 && td == c->main_tid;
}

static int state_row(void *ctx, sqlite3_stmt *st)
{
    struct threads_ctx *c = ctx;
    int64_t tr = sqlite3_column_int64(st, TS_TRACE), td = sqlite3_column_int64(st, TS_TID);
    if (!c->n || c->ts[c->n - 1].trace != tr || c->ts[c->n - 1].tid != td) {
        if (gd_grow((void **)&c->ts, &c->cap, c->n + 1, sizeof *c->ts, NULL))
            return gd_error_oom(c->err);
        tacc *t = &c->ts[c->n++];
        memset(t, 0, sizeof *t);
        t->trace = tr;
        t->tid = td;
        t->pid = -1;
        t->main = is_main(c, tr, td);
        if (t->main < 0)
            return -t->main;
        sqlite3_bind_int64(c->nameq, 1, tr);
        sqlite3_bind_int64(c->nameq, 2, td);
        int r = sqlite3_step(c->nameq), rc = GD_OK;
        const char *nm = r == SQLITE_ROW ? (const char *)sqlite3_column_text(c->nameq, 0) : NULL;
        if (r != SQLITE_ROW && r != SQLITE_DONE)
            rc = gd_store_fail(c->s, c->err, "database read");
        else if (nm && !(t->name = strdup(nm)))
            rc = gd_error_oom(c->err);
        sqlite3_reset(c->nameq);
        if (rc)
            return rc;
    }
    tacc *t = &c->ts[c->n - 1];
    if (sqlite3_column_type(st, TS_PID) != SQLITE_NULL)
        t->pid = sqlite3_column_int64(st, TS_PID);
    double a = sqlite3_column_double(st, TS_TS), b = a + sqlite3_column_double(st, TS_DUR);
    double ca = a < c->start ? c->start : a, cb = b > c->end ? c->end : b;
    if (!(cb >= ca))
        return GD_OK;
    int k = gd_state_class((const char *)sqlite3_column_text(st, TS_STATE));
    t->ms[k] += cb - ca;
    if (k == 1 && cb - ca > t->long_r)
        t->long_r = cb - ca, t->long_r_ts = ca;
    if (k == 3 && cb - ca > t->long_d) {
        t->long_d = cb - ca, t->long_d_ts = ca;
        free(t->long_d_fn);
        const char *fnm = (const char *)sqlite3_column_text(st, TS_BLOCKED_FN);
        t->long_d_fn = fnm ? strdup(fnm) : NULL;
    }
    return GD_OK;
}

int gd_query_threads(gd_store *s, const gd_threads_query *q, gd_row_fn fn, void *ctx, gd_error *err)
{
    int64_t btrace = -1, tid = q->tid;
    double start = -INFINITY, end = INFINITY;
    if (q->block >= 0) {
        int f = block_range(s, q->block, &btrace, &tid, &start, &end, err);
        if (f < 0)
            return err->code;
        if (!f)
            return gd_error_set(err, GD_ERR_DATA, 0, 0, "no block %lld", (long long)q->block);
    }
    char filt[4096], sql[8192];
    gd_store_filter_sql(&q->filter, "s.trace", filt, sizeof filt);
    /* the states are looked up by their key (trace, tid, ts_ms, #50): per
     * trace, and per thread when one is asked for, never a whole-table scan;
     * every row of a trace is read, so each row costs only what it must
     * (#50 item 3): no join to trace (its main thread is asked once per
     * trace, is_main) and no time test without a block's range */
    snprintf(sql, sizeof sql,
             "SELECT s.trace" STATE_COLS(GD_COL_SQL)
             " FROM thread_state s"
             " WHERE %s%s AND s.dur_ms IS NOT NULL%s %s"
             " ORDER BY s.trace, s.tid, s.ts_ms",
             btrace >= 0 ? "s.trace = ?2" : "s.trace IN (SELECT id FROM trace)", tid >= 0 ? " AND s.tid = ?1" : "",
             btrace >= 0 ? " AND s.ts_ms < ?4 AND s.ts_ms + s.dur_ms > ?3" : "", filt);
    sqlite3_stmt *nameq =
        gd_store_cached(s, "SELECT name FROM thread WHERE trace = ?1 AND tid = ?2 LIMIT 1", err);
    sqlite3_stmt *mainq = nameq ? gd_store_prepare(s, "SELECT main_tid FROM trace WHERE id = ?1", err) : NULL;
    sqlite3_stmt *st = mainq ? gd_store_prepare(s, sql, err) : NULL;
    if (!st) {
        gd_store_release(s, nameq);
        sqlite3_finalize(mainq);
        return err->code;
    }
    sqlite3_bind_int64(st, 1, tid);
    sqlite3_bind_int64(st, 2, btrace);
    sqlite3_bind_double(st, 3, isinf(start) ? -1e300 : start);
    sqlite3_bind_double(st, 4, isinf(end) ? 1e300 : end);
    struct threads_ctx c = {s, nameq, mainq, -1, -1, NULL, 0, 0, start, end, err};
    int rc = gd_store_each(s, st, state_row, &c, err);
    gd_store_release(s, nameq);
    sqlite3_finalize(mainq);
    tacc *ts = c.ts;
    size_t n = c.n;
    /* binder transactions each thread made (as the client) and served,
     * starting in the range */
    enum { BQ_CALLS, BQ_SERVED }; /* the SELECT's two counts */
    sqlite3_stmt *bq = rc ? NULL
                          : gd_store_prepare(s,
                                             "SELECT (SELECT count(*) FROM binder_txn WHERE trace = ?1"
                                             " AND client_tid = ?2 AND ts_ms >= ?3 AND ts_ms < ?4),"
                                             " (SELECT count(*) FROM binder_txn WHERE trace = ?1"
                                             " AND server_tid = ?2 AND server_ts_ms >= ?3 AND server_ts_ms < ?4)",
                                             err);
    if (!rc && !bq)
        rc = err->code;
    for (size_t i = 0; !rc && i < n; i++) {
        sqlite3_bind_int64(bq, 1, ts[i].trace);
        sqlite3_bind_int64(bq, 2, ts[i].tid);
        sqlite3_bind_double(bq, 3, isinf(start) ? -1e300 : start);
        sqlite3_bind_double(bq, 4, isinf(end) ? 1e300 : end);
        if (sqlite3_step(bq) == SQLITE_ROW) {
            ts[i].calls = sqlite3_column_int64(bq, BQ_CALLS);
            ts[i].served = sqlite3_column_int64(bq, BQ_SERVED);
        } else {
            rc = gd_store_fail(s, err, "database read");
        }
        sqlite3_reset(bq);
    }
    sqlite3_finalize(bq);
    /* each thread's process (#47), once per thread: the rule of
     * GD_SQL_PROCESS_OF; --app keeps the app's own processes */
    sqlite3_stmt *pq = rc ? NULL
                          : gd_store_prepare(s,
                                             "SELECT " GD_SQL_PROCESS_OF("d", "t") " FROM (SELECT ?1 AS trace, ?2 AS pid) d"
                                             " JOIN trace t ON t.id = d.trace",
                                             err);
    if (!rc && !pq)
        rc = err->code;
    for (size_t i = 0; !rc && i < n; i++) {
        if (ts[i].pid < 0)
            continue;
        sqlite3_bind_int64(pq, 1, ts[i].trace);
        sqlite3_bind_int64(pq, 2, ts[i].pid);
        int r = sqlite3_step(pq);
        const char *p = r == SQLITE_ROW ? (const char *)sqlite3_column_text(pq, 0) : NULL;
        if (r != SQLITE_ROW && r != SQLITE_DONE)
            rc = gd_store_fail(s, err, "database read");
        else if (p && !(ts[i].process = strdup(p)))
            rc = gd_error_oom(err);
        sqlite3_reset(pq);
    }
    sqlite3_finalize(pq);
    if (!rc && n)
        qsort(ts, n, sizeof *ts, cmp_threads);
    for (size_t i = 0; !rc && i < n; i++) {
        if (q->filter.app && !gd_app_match(ts[i].process, q->filter.app))
            continue;
        json_t *row = thread_row(&ts[i]);
        int stop = fn(ctx, row);
        json_decref(row);
        if (stop)
            break;
    }
    for (size_t i = 0; i < n; i++) {
        free(ts[i].name);
        free(ts[i].process);
        free(ts[i].long_d_fn);
    }
    free(ts);
    return rc;
}
