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

enum { GD_METHOD_TREE_COLS(GD_QC_ID, GD_QC_ID) MTR_NCOLS };
GD_QCOLS_DEFINE(tree_cols, GD_METHOD_TREE_COLS);

/* A node of the tree as JSON (GD_METHOD_TREE_COLS): with its trace and
 * tid when top (a row), else from MTR_METHOD on; NULL with err set. */
static json_t *node_json(gd_store *s, sqlite3_stmt **nq, const gd_ct_node *n, int top, int64_t trace, int64_t tid,
                         gd_error *err)
{
    gd_mname m;
    if (gd_calls_name(s, nq, n->method, &m, err))
        return NULL;
    char full[2048], sig[2048];
    gd_value f[MTR_NCOLS];
    gd_qv_int(&f[MTR_TRACE], trace);
    gd_qv_int(&f[MTR_TID], tid);
    gd_qv_text(&f[MTR_METHOD], gd_calls_dotted(&m, full, sizeof full));
    gd_qv_text(&f[MTR_DESC], m.desc);
    gd_qv_text(&f[MTR_SIGNATURE], gd_ct_java_name(m.cls, m.name, m.desc, sig, sizeof sig));
    gd_qv_int(&f[MTR_COUNT], n->count);
    gd_qv_int(&f[MTR_OPEN], n->open);
    gd_qv_ms(&f[MTR_TOTAL], n->total);
    gd_qv_ms(&f[MTR_SELF], n->self);
    json_t *kids = json_array(), *o = NULL;
    for (const gd_ct_node *c = n->child; c; c = c->next) {
        json_t *k = node_json(s, nq, c, 0, trace, tid, err);
        if (!k)
            goto out;
        json_array_append_new(kids, k);
    }
    gd_qv_json(&f[MTR_CHILDREN], kids);
    gd_qcols sub = gd_qcols_sub(&tree_cols, top ? 0 : MTR_METHOD, MTR_NCOLS);
    o = gd_qcols_json(&sub, top ? f : f + MTR_METHOD);
out:
    json_decref(kids);
    gd_calls_name_free(&m);
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
        json_t *row = node_json(s, &nq, c, 1, trace, tid, err);
        if (!row) {
            rc = err->code ? err->code : GD_ERR_IO;
            break;
        }
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

/* The SELECT's columns: the thread, then the call's own (gd_calls_at). */
enum { CT_TRACE, CT_PID, CT_TID, CT_CALL };

/* The calls of every thread in (thread, start) order, one thread's tree
 * built at a time and emitted when the next thread starts (gd_store_each's
 * callback; emit_tree's 1, "stop", is returned as such) */
struct tree_ctx {
    gd_store *s;
    gd_ctt *t;
    int64_t trace, pid, tid;
    gd_row_fn fn;
    void *ctx;
    gd_error *err;
};

static int tree_call_row(void *ctx, sqlite3_stmt *st)
{
    struct tree_ctx *c = ctx;
    int64_t tr = sqlite3_column_int64(st, CT_TRACE), p = sqlite3_column_int64(st, CT_PID),
            ti = sqlite3_column_int64(st, CT_TID);
    if (!c->t || tr != c->trace || p != c->pid || ti != c->tid) {
        int rc;
        if (c->t && (rc = emit_tree(c->s, c->t, c->trace, c->tid, c->fn, c->ctx, c->err)))
            return rc;
        gd_ctt_free(c->t);
        if (!(c->t = gd_ctt_new(-INFINITY, INFINITY)))
            return gd_error_oom(c->err);
        c->trace = tr;
        c->pid = p;
        c->tid = ti;
    }
    gd_call call;
    gd_calls_at(st, CT_CALL, &call);
    if (gd_ctt_add(c->t, &call))
        return gd_error_oom(c->err);
    return GD_OK;
}

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
            return gd_error_oom(err);
        rc = gd_calls_window(s, trace, pid, tid, a, b, feed_tree, t, err);
        if (rc == -1)
            rc = gd_error_oom(err);
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
    struct tree_ctx c = {s, NULL, 0, 0, 0, fn, ctx, err};
    rc = gd_store_each(s, st, tree_call_row, &c, err);
    if (!rc && c.t)
        rc = emit_tree(s, c.t, c.trace, c.tid, fn, ctx, err);
    gd_ctt_free(c.t);
    return rc == 1 ? GD_OK : rc;
}
