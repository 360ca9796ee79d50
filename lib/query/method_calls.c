/* query/method_calls.c - what the method queries share: method names, the calls of a window, the query filter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltree.h"
#include "core/util.h"
#include "derive/methods.h"
#include "query/methods_int.h"
#include "store/store_int.h"

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

void gd_mq_call_at(sqlite3_stmt *q, int col, gd_call *c)
{
    memset(c, 0, sizeof *c);
    c->id = sqlite3_column_int64(q, col);
    c->parent = sqlite3_column_type(q, col + 1) == SQLITE_NULL ? 0 : sqlite3_column_int64(q, col + 1);
    c->method = sqlite3_column_int64(q, col + 2);
    c->start = sqlite3_column_double(q, col + 3);
    c->end = sqlite3_column_double(q, col + 4);
    c->depth = sqlite3_column_int(q, col + 5);
    c->open = sqlite3_column_int(q, col + 6);
}

json_t *gd_mq_ms(double v) { return isnan(v) ? json_null() : json_real(gd_ms_round(v)); }

/* Names of a method id (owned copies in *out); GD_ERR_DATA when missing. */
int gd_mq_name(gd_store *s, sqlite3_stmt **q, int64_t id, gd_mname *out, gd_error *err)
{
    memset(out, 0, sizeof *out);
    if (!*q && !(*q = gd_store_prepare(s, "SELECT class, name, desc FROM method WHERE id = ?", err)))
        return err->code ? err->code : GD_ERR_IO;
    sqlite3_bind_int64(*q, 1, id);
    int rc = GD_OK;
    if (sqlite3_step(*q) == SQLITE_ROW) {
        out->cls = strdup((const char *)sqlite3_column_text(*q, 0));
        out->name = strdup((const char *)sqlite3_column_text(*q, 1));
        const unsigned char *d = sqlite3_column_text(*q, 2);
        out->desc = d ? strdup((const char *)d) : NULL;
        if (!out->cls || !out->name)
            rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    } else {
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "database: method %lld missing", (long long)id);
    }
    sqlite3_reset(*q);
    return rc;
}

void gd_mq_name_free(gd_mname *m)
{
    free(m->cls);
    free(m->name);
    free(m->desc);
    memset(m, 0, sizeof *m);
}

char *gd_mq_dotted(const gd_mname *m, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s", m->cls, m->cls[0] ? "." : "", m->name);
    return buf;
}

/* Feeds the calls of one thread that overlap [a, b] to fn, in pre-order:
 * the calls running at `a` (the ancestors of the last call started by
 * then) and the calls started inside (a, b). */
int gd_mq_window_calls(gd_store *s, int64_t trace, int64_t pid, int64_t tid, double a, double b,
                       gd_call_fn fn, void *ctx, gd_error *err)
{
    sqlite3_stmt *q = gd_store_cached(
        s,
        "WITH RECURSIVE anc(id) AS ("
        " SELECT id FROM (SELECT id FROM call WHERE trace = ?1 AND pid = ?2 AND tid = ?3"
        "  AND start_ms = (SELECT max(start_ms) FROM call WHERE trace = ?1 AND pid = ?2"
        "  AND tid = ?3 AND start_ms <= ?4) ORDER BY depth DESC, id DESC LIMIT 1)"
        " UNION ALL SELECT c.parent FROM call c JOIN anc ON c.id = anc.id WHERE c.parent IS NOT NULL)"
        " SELECT id, parent, method, start_ms, end_ms, depth, open FROM call"
        "  WHERE id IN (SELECT id FROM anc) AND end_ms > ?4"
        " UNION ALL"
        " SELECT id, parent, method, start_ms, end_ms, depth, open FROM call"
        "  WHERE trace = ?1 AND pid = ?2 AND tid = ?3 AND start_ms > ?4 AND start_ms < ?5"
        " ORDER BY 4, 6, 1",
        err);
    if (!q)
        return err->code ? err->code : GD_ERR_IO;
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_int64(q, 2, pid);
    sqlite3_bind_int64(q, 3, tid);
    sqlite3_bind_double(q, 4, a);
    sqlite3_bind_double(q, 5, b);
    int rc = GD_OK, step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        gd_call c;
        gd_mq_call_at(q, 0, &c);
        if ((rc = fn(ctx, &c)))
            break;
    }
    if (!rc && step != SQLITE_DONE)
        rc = gd_store_fail(s, err, "database read");
    gd_store_release(s, q);
    return rc;
}

/* The block of an id (a dispatch of the block table, as godeye blocks
 * lists them): its trace, thread and interval. */
int gd_mq_block(gd_store *s, int64_t id, int64_t *trace, int64_t *pid, int64_t *tid, double *a,
                double *b, gd_error *err)
{
    sqlite3_stmt *q = gd_store_cached(
        s, "SELECT d.trace, d.pid, d.tid, d.start_ms, d.start_ms + d.dur_ms FROM dispatch d"
           " JOIN block b ON b.dispatch = d.id WHERE d.id = ?", err);
    if (!q)
        return err->code ? err->code : GD_ERR_IO;
    sqlite3_bind_int64(q, 1, id);
    int rc = GD_OK;
    if (sqlite3_step(q) == SQLITE_ROW) {
        *trace = sqlite3_column_int64(q, 0);
        *pid = sqlite3_column_int64(q, 1);
        *tid = sqlite3_column_int64(q, 2);
        *a = sqlite3_column_double(q, 3);
        *b = sqlite3_column_double(q, 4);
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

/* Window calls into a walker (fn for gd_mq_window_calls). */
static int feed_walker(void *ctx, const gd_call *c) { return gd_ctw_add(ctx, c); }

int gd_mq_walk(gd_store *s, int64_t trace, int64_t pid, int64_t tid, double a, double b, gd_call_fn out,
               void *ctx, gd_error *err)
{
    gd_ctw w;
    gd_ctw_init(&w, a, b, out, ctx);
    int rc = gd_mq_window_calls(s, trace, pid, tid, a, b, feed_walker, &w, err);
    if (!rc)
        rc = gd_ctw_finish(&w);
    gd_ctw_free(&w);
    return rc;
}
