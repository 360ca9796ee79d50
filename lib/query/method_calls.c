/* query/method_calls.c - what the method queries share beyond derive/calls.h: ms values, a block's window, the query filter. */
#include <math.h>
#include <stdio.h>

#include "core/util.h"
#include "derive/methods.h"
#include "query/methods.h"
#include "query/methods_int.h"
#include "store/sql.h"

/* " AND (c.tid = ?N OR c.tid IN (threads whose name matches ?N))" when a thread
 * is given (gd_match: =NAME exact, else a part of the name). */
static void thread_sql(const char *thread, int param, char *buf, size_t n)
{
    buf[0] = 0;
    if (thread)
        snprintf(buf, n,
                 " AND (c.tid = ?%d OR c.tid IN (SELECT th.tid FROM thread th WHERE th.trace = c.trace"
                 " AND th.pid = c.pid AND gd_match(th.name, ?%d)))",
                 param, param);
}

json_t *gd_mq_ms(double v) { return isnan(v) ? json_null() : json_real(gd_ms_round(v)); }

/* The block of an id (a dispatch of the block table, as godeye blocks
 * lists them): its trace, thread and interval. */
int gd_mq_block(gd_store *s, int64_t id, int64_t *trace, int64_t *pid, int64_t *tid, double *a,
                double *b, gd_error *err)
{
    enum { BR_TRACE, BR_PID, BR_TID, BR_START, BR_END }; /* the SELECT's columns, in order */
    sqlite3_stmt *q = gd_store_cached(
        s, "SELECT d.trace, d.pid, d.tid, d.start_ms, d.start_ms + d.dur_ms FROM dispatch d"
           " JOIN block b ON b.dispatch = d.id WHERE d.id = ?", err);
    if (!q)
        return err->code ? err->code : GD_ERR_IO;
    sqlite3_bind_int64(q, 1, id);
    int rc = GD_OK;
    if (sqlite3_step(q) == SQLITE_ROW) {
        *trace = sqlite3_column_int64(q, BR_TRACE);
        *pid = sqlite3_column_int64(q, BR_PID);
        *tid = sqlite3_column_int64(q, BR_TID);
        *a = sqlite3_column_double(q, BR_START);
        *b = sqlite3_column_double(q, BR_END);
    } else {
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "no block %lld", (long long)id);
    }
    gd_store_release(s, q);
    return rc;
}

/* Prepares `select` (which holds the trace-filter and thread clauses as its
 * two %s, after its own WHERE) for the query's traces and thread; the
 * thread name or id is bound as parameter `param`.  NULL with err set. */
sqlite3_stmt *gd_mq_prepare(gd_store *s, const gd_methods_query *q, const char *select, int param,
                            gd_error *err)
{
    char filt[4096], thr[512], sql[8192];
    gd_store_filter_sql(&q->filter, "c.trace", filt, sizeof filt);
    thread_sql(q->thread, param, thr, sizeof thr);
    snprintf(sql, sizeof sql, select, filt, thr);
    sqlite3_stmt *st = gd_store_prepare(s, sql, err);
    if (st && q->thread)
        sqlite3_bind_text(st, param, q->thread, -1, SQLITE_STATIC);
    return st;
}

