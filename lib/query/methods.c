/* query/methods.c - per-method statistics (`godeye methods`). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltree.h"
#include "analysis/stats.h"
#include "core/util.h"
#include "derive/methods.h"
#include "query/methods.h"
#include "query/methods_int.h"
#include "store/sql.h"

/* ---- per-method statistics ------------------------------------------------------ */

typedef struct mrow {
    int64_t method, tid;
    long count, open;
    int sampled;         /* a trace it comes from was recorded by sampling  */
    double total, self, max, p95;
    size_t lo, hi;       /* percentile ranks (streamed mode)                */
    double vlo, vhi;
} mrow;

typedef struct mrows {
    mrow *v;
    size_t n, cap;
} mrows;

static mrow *mrows_add(mrows *r)
{
    if (gd_grow((void **)&r->v, &r->cap, r->n + 1, sizeof *r->v, NULL))
        return NULL;
    mrow *m = &r->v[r->n++];
    memset(m, 0, sizeof *m);
    m->max = m->p95 = NAN;
    return m;
}

static int cmp_mrow(const void *a, const void *b)
{
    const mrow *x = a, *y = b;
    if (x->self != y->self)
        return x->self > y->self ? -1 : 1;
    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    if (x->method != y->method)
        return x->method < y->method ? -1 : 1;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* stats_sql's two queries, their columns by name: the sums per method and
 * thread, then each closed call's duration in order */
#define STATS_COLS(X)                                                                              \
    X(MS_TID, "c.tid") X(MS_COUNT, "sum(c.open = 0)")                                                \
    X(MS_TOTAL, "sum(CASE WHEN c.rec = 0 THEN c.end_ms - c.start_ms ELSE 0 END)")                    \
    X(MS_SELF, "sum(c.self_ms)") X(MS_MAX, "max(CASE WHEN c.open = 0 THEN c.end_ms - c.start_ms END)") \
    X(MS_OPEN, "sum(c.open)") X(MS_SAMPLED, "max(t.sampled)")
enum { MS_METHOD = 0, STATS_COLS(GD_COL_ENUM) MS_NCOLS };
enum { MD_METHOD, MD_TID, MD_DUR }; /* "SELECT c.method, c.tid, c.end_ms - c.start_ms ..." */

/* stats_sql's (method, thread) sums, one row each (gd_store_each's
 * callback) */
struct stats_ctx {
    mrows *r;
    gd_error *err;
};

static int stats_row(void *ctx, sqlite3_stmt *st)
{
    struct stats_ctx *c = ctx;
    mrow *m = mrows_add(c->r);
    if (!m)
        return gd_error_oom(c->err);
    m->method = sqlite3_column_int64(st, MS_METHOD);
    m->tid = sqlite3_column_int64(st, MS_TID);
    m->count = (long)sqlite3_column_int64(st, MS_COUNT);
    m->total = sqlite3_column_double(st, MS_TOTAL);
    m->self = sqlite3_column_double(st, MS_SELF);
    if (sqlite3_column_type(st, MS_MAX) != SQLITE_NULL)
        m->max = sqlite3_column_double(st, MS_MAX);
    m->open = (long)sqlite3_column_int64(st, MS_OPEN);
    m->sampled = sqlite3_column_int(st, MS_SAMPLED) != 0;
    gd_ct_pct_ranks((size_t)m->count, 95, &m->lo, &m->hi);
    return GD_OK;
}

/* stats_sql's durations in (method, thread, duration) order: the two
 * around each row's p95 rank kept (gd_store_each's callback); g is the
 * row of the current (method, thread), pos the rank in it */
struct p95_ctx {
    mrows *r;
    size_t g, pos;
};

static int p95_row(void *ctx, sqlite3_stmt *st)
{
    struct p95_ctx *c = ctx;
    mrows *r = c->r;
    int64_t method = sqlite3_column_int64(st, MD_METHOD), tid = sqlite3_column_int64(st, MD_TID);
    if (c->g < r->n && (r->v[c->g].method != method || r->v[c->g].tid != tid)) {
        while (c->g < r->n && (r->v[c->g].method != method || r->v[c->g].tid != tid))
            c->g++;
        c->pos = 0;
    }
    if (c->g >= r->n)
        return GD_EACH_STOP;
    double v = sqlite3_column_double(st, MD_DUR);
    if (c->pos == r->v[c->g].lo)
        r->v[c->g].vlo = v;
    if (c->pos == r->v[c->g].hi)
        r->v[c->g].vhi = v;
    c->pos++;
    return GD_OK;
}

/* Whole-trace statistics: sums in SQL, p95 from a second, ordered pass
 * (memory in the number of methods, not of calls). */
static int stats_sql(gd_store *s, const gd_methods_query *q, mrows *r, gd_error *err)
{
    sqlite3_stmt *st = gd_mq_prepare(
        s, q,
        "SELECT c.method" STATS_COLS(GD_COL_SQL) " FROM call c JOIN trace t ON t.id = c.trace WHERE 1%s%s"
        " GROUP BY c.method, c.tid ORDER BY c.method, c.tid",
        1, err);
    if (!st)
        return err->code ? err->code : GD_ERR_IO;
    struct stats_ctx sc = {r, err};
    int rc = gd_store_each(s, st, stats_row, &sc, err);
    if (rc)
        return rc;
    st = gd_mq_prepare(s, q,
                       "SELECT c.method, c.tid, c.end_ms - c.start_ms AS dur FROM call c JOIN trace t"
                       " ON t.id = c.trace WHERE c.open = 0%s%s"
                       " ORDER BY c.method, c.tid, dur",
                       1, err);
    if (!st)
        return err->code ? err->code : GD_ERR_IO;
    struct p95_ctx pc = {r, 0, 0};
    rc = gd_store_each(s, st, p95_row, &pc, err);
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].count > 0)
            r->v[i].p95 = gd_ct_pct_mix((size_t)r->v[i].count, 95, r->v[i].vlo, r->v[i].vhi);
    return rc;
}

/* One block's statistics, clipped to its interval. */
static int stats_block(gd_store *s, const gd_methods_query *q, mrows *r, gd_error *err)
{
    int64_t trace, pid, tid;
    double a, b;
    int rc = gd_mq_block(s, q->block, &trace, &pid, &tid, &a, &b, err);
    if (rc)
        return rc;
    int sampled = 0;
    sqlite3_stmt *sq = gd_store_prepare(s, "SELECT sampled FROM trace WHERE id = ?", err);
    if (!sq)
        return err->code ? err->code : GD_ERR_IO;
    sqlite3_bind_int64(sq, 1, trace);
    if (sqlite3_step(sq) == SQLITE_ROW)
        sampled = sqlite3_column_int(sq, 0) != 0;
    sqlite3_finalize(sq);
    gd_calls_accs as = {0};
    rc = gd_calls_walk(s, trace, pid, tid, a, b, gd_calls_acc_call, &as, err);
    if (rc == -1 || as.oom)
        rc = gd_error_oom(err);
    for (size_t i = 0; !rc && i < as.n; i++) {
        gd_calls_acc *e = &as.v[i];
        mrow *m = mrows_add(r);
        if (!m) {
            rc = gd_error_oom(err);
            break;
        }
        m->method = e->method;
        m->tid = tid;
        m->sampled = sampled;
        m->count = e->count;
        m->open = e->open;
        m->total = e->total;
        m->self = e->self;
        m->max = e->max;
        if (e->n) {
            gd_stats_sort(e->durs, e->n);
            m->p95 = gd_percentile(e->durs, e->n, 95);
        }
    }
    gd_calls_accs_free(&as);
    return rc;
}

enum { GD_METHODS_COLS(GD_QC_ID, GD_QC_ID) MT_NCOLS };
GD_QCOLS_DEFINE(method_cols, GD_METHODS_COLS);

int gd_query_methods(gd_store *s, const gd_methods_query *q, gd_row_fn fn, void *ctx, gd_error *err)
{
    mrows r = {0};
    int rc = q->block >= 0 ? stats_block(s, q, &r, err) : stats_sql(s, q, &r, err);
    if (!rc)
        gd_sort(r.v, r.n, sizeof *r.v, cmp_mrow);
    sqlite3_stmt *nq = NULL;
    for (size_t i = 0; !rc && i < r.n; i++) {
        mrow *m = &r.v[i];
        if (!isnan(q->min_ms) && !(m->total >= q->min_ms))
            continue;
        gd_mname nm;
        if ((rc = gd_calls_name(s, &nq, m->method, &nm, err)))
            break;
        char full[2048];
        gd_value v[MT_NCOLS];
        gd_calls_dotted(&nm, full, sizeof full);
        gd_qv_text(&v[MT_METHOD], full);
        gd_qv_text(&v[MT_DESC], nm.desc);
        gd_qv_int(&v[MT_TID], m->tid);
        gd_qv_int(&v[MT_COUNT], m->count);
        gd_qv_ms(&v[MT_TOTAL], m->total);
        gd_qv_ms(&v[MT_SELF], m->self);
        gd_qv_ms(&v[MT_MAX], m->max);
        gd_qv_ms(&v[MT_P95], m->p95);
        gd_qv_int(&v[MT_OPEN], m->open);
        gd_qv_bool(&v[MT_SAMPLED], m->sampled);
        json_t *row = gd_qcols_json(&method_cols, v);
        gd_calls_name_free(&nm);
        int stop = fn(ctx, row);
        json_decref(row);
        if (stop)
            break;
    }
    sqlite3_finalize(nq);
    free(r.v);
    return rc;
}
