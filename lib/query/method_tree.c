/* query/method_tree.c - call trees of method calls (`godeye methods --tree`), per thread or per block. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltree.h"
#include "core/util.h"
#include "derive/methods.h"
#include "query/methods.h"
#include "query/methods_int.h"
#include "store/sql.h"

static json_t *node_json(gd_store *s, sqlite3_stmt **nq, const gd_ct_node *n, gd_error *err)
{
    gd_mname m;
    if (gd_calls_name(s, nq, n->method, &m, err))
        return NULL;
    char full[2048], sig[2048];
    json_t *o = json_object();
    json_object_set_new(o, "method", json_string(gd_calls_dotted(&m, full, sizeof full)));
    json_object_set_new(o, "desc", m.desc ? json_string(m.desc) : json_null());
    json_object_set_new(o, "signature", json_string(gd_ct_java_name(m.cls, m.name, m.desc, sig, sizeof sig)));
    json_object_set_new(o, "count", json_integer(n->count));
    json_object_set_new(o, "open", json_integer(n->open));
    json_object_set_new(o, "total_ms", gd_mq_ms(n->total));
    json_object_set_new(o, "self_ms", gd_mq_ms(n->self));
    gd_calls_name_free(&m);
    json_t *kids = json_array();
    for (const gd_ct_node *c = n->child; c; c = c->next) {
        json_t *k = node_json(s, nq, c, err);
        if (!k) {
            json_decref(kids);
            json_decref(o);
            return NULL;
        }
        json_array_append_new(kids, k);
    }
    json_object_set_new(o, "children", kids);
    return o;
}

/* Emits the top-level nodes of a finished tree; 1 when fn asked to stop. */
static int emit_tree(gd_store *s, gd_ctt *t, int64_t trace, int64_t tid, gd_row_fn fn, void *ctx,
                     gd_error *err)
{
    const gd_ct_node *root = gd_ctt_finish(t);
    sqlite3_stmt *nq = NULL;
    int rc = GD_OK;
    for (const gd_ct_node *c = root->child; c; c = c->next) {
        json_t *o = node_json(s, &nq, c, err);
        if (!o) {
            rc = err->code ? err->code : GD_ERR_IO;
            break;
        }
        json_t *row = json_object();
        json_object_set_new(row, "trace", json_integer(trace));
        json_object_set_new(row, "tid", json_integer(tid));
        json_object_update(row, o);
        json_decref(o);
        int stop = fn(ctx, row);
        json_decref(row);
        if (stop) {
            rc = 1;
            break;
        }
    }
    sqlite3_finalize(nq);
    return rc;
}

static int feed_tree(void *ctx, const gd_call *c) { return gd_ctt_add(ctx, c); }

int gd_query_method_tree(gd_store *s, const gd_methods_query *q, gd_row_fn fn, void *ctx,
                         gd_error *err)
{
    int rc;
    if (q->block >= 0) {
        int64_t trace, pid, tid;
        double a, b;
        if ((rc = gd_mq_block(s, q->block, &trace, &pid, &tid, &a, &b, err)))
            return rc;
        gd_ctt *t = gd_ctt_new(a, b);
        if (!t)
            return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
        rc = gd_calls_window(s, trace, pid, tid, a, b, feed_tree, t, err);
        if (rc == -1)
            rc = gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
        if (!rc)
            rc = emit_tree(s, t, trace, tid, fn, ctx, err);
        gd_ctt_free(t);
        return rc == 1 ? GD_OK : rc;
    }
    sqlite3_stmt *st = gd_mq_prepare(
        s, q,
        "SELECT c.trace, c.pid, c.tid, c.id, c.parent, c.method, c.start_ms, c.end_ms, c.depth,"
        " c.open FROM call c JOIN trace t ON t.id = c.trace WHERE 1%s%s"
        " ORDER BY c.trace, c.pid, c.tid, c.start_ms, c.depth, c.id",
        1, err);
    if (!st)
        return err->code ? err->code : GD_ERR_IO;
    gd_ctt *t = NULL;
    /* the SELECT's columns: the thread, then the call's own (gd_calls_at) */
    enum { CT_TRACE, CT_PID, CT_TID, CT_CALL };
    int64_t trace = 0, pid = 0, tid = 0;
    int step;
    rc = GD_OK;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t tr = sqlite3_column_int64(st, CT_TRACE), p = sqlite3_column_int64(st, CT_PID),
                ti = sqlite3_column_int64(st, CT_TID);
        if (!t || tr != trace || p != pid || ti != tid) {
            if (t && (rc = emit_tree(s, t, trace, tid, fn, ctx, err)))
                break;
            gd_ctt_free(t);
            if (!(t = gd_ctt_new(-INFINITY, INFINITY))) {
                rc = gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
                break;
            }
            trace = tr;
            pid = p;
            tid = ti;
        }
        gd_call c;
        gd_calls_at(st, CT_CALL, &c);
        if (gd_ctt_add(t, &c)) {
            rc = gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
            break;
        }
    }
    if (!rc && step != SQLITE_DONE)
        rc = gd_store_fail(s, err, "database read");
    if (!rc && t)
        rc = emit_tree(s, t, trace, tid, fn, ctx, err);
    gd_ctt_free(t);
    sqlite3_finalize(st);
    return rc == 1 ? GD_OK : rc;
}
