/* query/evil_methods.c - Matrix's evil methods: slow dispatches and the stack key of each. */
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

typedef struct items {
    gd_ct_item *v;
    long *seq;
    size_t n, cap;
    double root_cost;
    int oom;
} items;

static int item_call(void *ctx, const gd_call *c)
{
    items *it = ctx;
    if (it->n == it->cap) {
        size_t nc = it->cap ? it->cap * 2 : 64;
        gd_ct_item *nv = realloc(it->v, nc * sizeof *nv);
        if (nv)
            it->v = nv;
        long *ns = realloc(it->seq, nc * sizeof *ns);
        if (ns)
            it->seq = ns;
        if (!nv || !ns) {
            it->oom = 1;
            return -1;
        }
        it->cap = nc;
    }
    /* post-order in, pre-order position kept: place by seq afterwards */
    it->v[it->n] = (gd_ct_item){c->method, c->depth, c->total};
    it->seq[it->n] = c->seq;
    it->n++;
    if (c->depth == 0)
        it->root_cost += c->total;
    return 0;
}

/* Reorders the items into pre-order (their seq is a permutation of 0..n-1). */
static int items_preorder(items *it)
{
    gd_ct_item *v = malloc((it->n ? it->n : 1) * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < it->n; i++)
        v[it->seq[i]] = it->v[i];
    free(it->v);
    it->v = v;
    it->cap = it->n;
    return 0;
}

/* The first row's id into the int64_t ctx (gd_store_each's callback). */
enum { MD_ID }; /* "SELECT id FROM method ..." */
static int first_id(void *ctx, sqlite3_stmt *q)
{
    *(int64_t *)ctx = sqlite3_column_int64(q, MD_ID);
    return GD_EACH_STOP;
}

static int64_t matrix_dispatch_id(gd_store *s)
{
    sqlite3_stmt *q = gd_store_prepare(
        s, "SELECT id FROM method WHERE class = 'matrix' AND name = 'dispatch' AND desc IS NULL", NULL);
    int64_t id = -1;
    if (q)
        gd_store_each(s, q, first_id, &id, NULL);
    return id;
}

/* gd_query_evil_methods' dispatches: each one's calls walked, the evil
 * ones (their methods cost >= evil_ms) handed on (gd_store_each's
 * callback); nq, the method-name query, prepared on first use */
enum { GD_EVIL_COLS(GD_QC_ID, GD_QC_ID) EVM_NCOLS };
GD_QCOLS_DEFINE(evil_cols, GD_EVIL_COLS);

enum { EV_ID, EV_TRACE, EV_PID, EV_TID, EV_START, EV_DUR }; /* the SELECT's columns, in order */
struct evil_ctx {
    gd_store *s;
    const gd_methods_query *q;
    int64_t dispatch_method;
    sqlite3_stmt *nq;
    gd_row_fn fn;
    void *ctx;
    gd_error *err;
};

static int evil_row(void *ctx, sqlite3_stmt *st)
{
    struct evil_ctx *c = ctx;
    gd_store *s = c->s;
    gd_error *err = c->err;
    int64_t trace = sqlite3_column_int64(st, EV_TRACE), pid = sqlite3_column_int64(st, EV_PID),
            tid = sqlite3_column_int64(st, EV_TID);
    double a = sqlite3_column_double(st, EV_START), dur = sqlite3_column_double(st, EV_DUR);
    items it = {0};
    int rc = gd_calls_walk(s, trace, pid, tid, a, a + dur, item_call, &it, err);
    if (!rc && items_preorder(&it))
        rc = -1;
    if (rc == -1 || it.oom)
        rc = gd_error_oom(err);
    if (rc || it.n == 0 || !(it.root_cost >= c->q->evil_ms)) {
        free(it.v);
        free(it.seq);
        return rc;
    }
    double stack_cost = dur > it.root_cost ? dur : it.root_cost;
    long k = gd_ct_stack_key(it.v, it.n, stack_cost, c->dispatch_method);
    gd_mname m;
    if ((rc = gd_calls_name(s, &c->nq, it.v[k].method, &m, err))) {
        free(it.v);
        free(it.seq);
        return rc;
    }
    char full[2048];
    gd_value v[EVM_NCOLS];
    gd_qv_int(&v[EVM_TRACE], trace);
    gd_qv_int(&v[EVM_ID], sqlite3_column_int64(st, EV_ID));
    gd_qv_int(&v[EVM_PID], pid);
    gd_qv_int(&v[EVM_TID], tid);
    gd_qv_ms(&v[EVM_START], a);
    gd_qv_ms(&v[EVM_END], a + dur);
    gd_qv_ms(&v[EVM_DUR], dur);
    gd_qv_ms(&v[EVM_COST], it.root_cost);
    gd_qv_text(&v[EVM_KEY], gd_calls_dotted(&m, full, sizeof full));
    gd_qv_text(&v[EVM_KEY_DESC], m.desc);
    gd_qv_int(&v[EVM_KEY_DEPTH], it.v[k].depth);
    gd_qv_ms(&v[EVM_KEY_COST], it.v[k].cost);
    json_t *row = gd_qcols_json(&evil_cols, v);
    gd_calls_name_free(&m);
    free(it.v);
    free(it.seq);
    int stop = c->fn(c->ctx, row);
    json_decref(row);
    return stop ? GD_EACH_STOP : GD_OK;
}

int gd_query_evil_methods(gd_store *s, const gd_methods_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err)
{
    sqlite3_stmt *st = gd_mq_prepare(
        s, q,
        "SELECT c.id, c.trace, c.pid, c.tid, c.start_ms, c.dur_ms FROM dispatch c"
        " JOIN trace t ON t.id = c.trace WHERE c.dur_ms >= ?1%s%s"
        " ORDER BY c.trace, c.start_ms, c.id",
        2, err);
    if (!st)
        return err->code ? err->code : GD_ERR_IO;
    sqlite3_bind_double(st, 1, q->evil_ms);
    struct evil_ctx c = {s, q, matrix_dispatch_id(s), NULL, fn, ctx, err};
    int rc = gd_store_each(s, st, evil_row, &c, err);
    sqlite3_finalize(c.nq);
    return rc;
}
