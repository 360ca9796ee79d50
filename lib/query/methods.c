/* query/methods.c - reading method calls: per-method statistics, call trees, block blame, evil methods. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/blocks.h"
#include "analysis/calltree.h"
#include "analysis/stats.h"
#include "store/store_int.h"
#include "derive/methods.h"
#include "core/util.h"

/* ---- shared helpers ------------------------------------------------------- */

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

static json_t *ms(double v) { return isnan(v) ? json_null() : json_real(gd_ms_round(v)); }

typedef struct mname {
    char *cls, *name, *desc;
} mname;

/* Names of a method id (owned copies in *out); GD_ERR_DATA when missing. */
static int method_name(gd_store *s, sqlite3_stmt **q, int64_t id, mname *out, gd_error *err)
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

static void mname_free(mname *m)
{
    free(m->cls);
    free(m->name);
    free(m->desc);
    memset(m, 0, sizeof *m);
}

static char *dotted_method(const mname *m, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s", m->cls, m->cls[0] ? "." : "", m->name);
    return buf;
}

/* Feeds the calls of one thread that overlap [a, b] to fn, in pre-order:
 * the calls running at `a` (the ancestors of the last call started by
 * then) and the calls started inside (a, b). */
static int each_window_call(gd_store *s, int64_t trace, int64_t pid, int64_t tid, double a, double b,
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
        gd_call c = {0};
        c.id = sqlite3_column_int64(q, 0);
        c.parent = sqlite3_column_type(q, 1) == SQLITE_NULL ? 0 : sqlite3_column_int64(q, 1);
        c.method = sqlite3_column_int64(q, 2);
        c.start = sqlite3_column_double(q, 3);
        c.end = sqlite3_column_double(q, 4);
        c.depth = sqlite3_column_int(q, 5);
        c.open = sqlite3_column_int(q, 6);
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
static int load_block(gd_store *s, int64_t id, int64_t *trace, int64_t *pid, int64_t *tid, double *a,
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

/* ---- walker adapters -------------------------------------------------------- */

typedef struct acc {
    int64_t method;
    long count, open;
    double total, self, max;
    double *durs;        /* completed calls' clipped totals (block mode)     */
    size_t n, cap;
} acc;

typedef struct acc_set {
    acc *v;
    size_t n, cap;
    int oom;
} acc_set;

static acc *acc_get(acc_set *a, int64_t method)
{
    for (size_t i = 0; i < a->n; i++)
        if (a->v[i].method == method)
            return &a->v[i];
    if (gd_grow((void **)&a->v, &a->cap, a->n + 1, sizeof *a->v, NULL))
        return NULL;
    acc *e = &a->v[a->n++];
    memset(e, 0, sizeof *e);
    e->method = method;
    e->max = NAN;
    return e;
}

static void acc_set_free(acc_set *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i].durs);
    free(a->v);
}

/* Walker output: per-method sums of clipped times. */
static int acc_call(void *ctx, const gd_call *c)
{
    acc_set *a = ctx;
    acc *e = acc_get(a, c->method);
    if (!e) {
        a->oom = 1;
        return -1;
    }
    e->self += c->self;
    if (!c->rec)
        e->total += c->total;
    if (c->open) {
        e->open++;
        return 0;
    }
    e->count++;
    if (isnan(e->max) || c->total > e->max)
        e->max = c->total;
    if (gd_grow((void **)&e->durs, &e->cap, e->n + 1, sizeof *e->durs, NULL)) {
        a->oom = 1;
        return -1;
    }
    e->durs[e->n++] = c->total;
    return 0;
}

/* Window calls into a walker (fn for each_window_call). */
static int feed_walker(void *ctx, const gd_call *c) { return gd_ctw_add(ctx, c); }

/* ---- blame ------------------------------------------------------------------ */

static int prefixed(const char *s, const char *const *con, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(con[i]);
        if (k && strncmp(s, con[i], k) == 0)
            return 1;
    }
    return 0;
}

int gd_methods_blame(gd_store *s, int64_t trace, const char *const *concern, size_t ncon,
                     int64_t pid, int64_t tid, double start, double end, char *out, size_t n,
                     gd_error *err)
{
    out[0] = 0;
    acc_set a = {0};
    gd_ctw w;
    gd_ctw_init(&w, start, end, acc_call, &a);
    int rc = each_window_call(s, trace, pid, tid, start, end, feed_walker, &w, err);
    if (!rc)
        rc = gd_ctw_finish(&w);
    gd_ctw_free(&w);
    if (rc == -1 || a.oom)
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    /* best concern candidate, else best non-framework one: larger self,
     * then the smaller name */
    sqlite3_stmt *nq = NULL;
    double best_self[2] = {0, 0};
    char best[2][1024] = {"", ""};
    for (size_t i = 0; !rc && i < a.n; i++) {
        if (!(a.v[i].self > 0))
            continue;
        mname m;
        if ((rc = method_name(s, &nq, a.v[i].method, &m, err)))
            break;
        char full[1024];
        dotted_method(&m, full, sizeof full);
        mname_free(&m);
        int k = prefixed(full, concern, ncon) ? 0 : !gd_frame_is_framework(full) ? 1 : -1;
        if (k < 0)
            continue;
        if (!best[k][0] || a.v[i].self > best_self[k] ||
            (a.v[i].self == best_self[k] && strcmp(full, best[k]) < 0)) {
            best_self[k] = a.v[i].self;
            snprintf(best[k], sizeof best[k], "%s", full);
        }
    }
    sqlite3_finalize(nq);
    acc_set_free(&a);
    if (!rc)
        snprintf(out, n, "%s", best[0][0] ? best[0] : best[1]);
    return rc;
}

/* ---- per-method statistics ------------------------------------------------------ */

typedef struct mrow {
    int64_t method, tid;
    long count, open;
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

/* Prepares `select` (which holds the trace-filter and thread clauses as its
 * two %s, after its own WHERE) for the query's traces and thread; the
 * thread name or id is bound as parameter `param`.  NULL with err set. */
static sqlite3_stmt *prepare_for(gd_store *s, const gd_methods_query *q, const char *select,
                                 int param, gd_error *err)
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

/* Whole-trace statistics: sums in SQL, p95 from a second, ordered pass
 * (memory in the number of methods, not of calls). */
static int stats_sql(gd_store *s, const gd_methods_query *q, mrows *r, gd_error *err)
{
    sqlite3_stmt *st = prepare_for(
        s, q,
        "SELECT c.method, c.tid, sum(c.open = 0),"
        " sum(CASE WHEN c.rec = 0 THEN c.end_ms - c.start_ms ELSE 0 END), sum(c.self_ms),"
        " max(CASE WHEN c.open = 0 THEN c.end_ms - c.start_ms END), sum(c.open)"
        " FROM call c JOIN trace t ON t.id = c.trace WHERE 1%s%s"
        " GROUP BY c.method, c.tid ORDER BY c.method, c.tid",
        1, err);
    if (!st)
        return err->code ? err->code : GD_ERR_IO;
    int rc = GD_OK, step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        mrow *m = mrows_add(r);
        if (!m) {
            rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
            break;
        }
        m->method = sqlite3_column_int64(st, 0);
        m->tid = sqlite3_column_int64(st, 1);
        m->count = (long)sqlite3_column_int64(st, 2);
        m->total = sqlite3_column_double(st, 3);
        m->self = sqlite3_column_double(st, 4);
        if (sqlite3_column_type(st, 5) != SQLITE_NULL)
            m->max = sqlite3_column_double(st, 5);
        m->open = (long)sqlite3_column_int64(st, 6);
        gd_ct_pct_ranks((size_t)m->count, 95, &m->lo, &m->hi);
    }
    if (!rc && step != SQLITE_DONE)
        rc = gd_store_fail(s, err, "database read");
    sqlite3_finalize(st);
    if (rc)
        return rc;
    st = prepare_for(s, q,
                     "SELECT c.method, c.tid, c.end_ms - c.start_ms FROM call c JOIN trace t"
                     " ON t.id = c.trace WHERE c.open = 0%s%s"
                     " ORDER BY c.method, c.tid, 3",
                     1, err);
    if (!st)
        return err->code ? err->code : GD_ERR_IO;
    size_t g = 0, pos = 0;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t method = sqlite3_column_int64(st, 0), tid = sqlite3_column_int64(st, 1);
        if (g < r->n && (r->v[g].method != method || r->v[g].tid != tid)) {
            while (g < r->n && (r->v[g].method != method || r->v[g].tid != tid))
                g++;
            pos = 0;
        }
        if (g >= r->n)
            break;
        double v = sqlite3_column_double(st, 2);
        if (pos == r->v[g].lo)
            r->v[g].vlo = v;
        if (pos == r->v[g].hi)
            r->v[g].vhi = v;
        pos++;
    }
    if (step != SQLITE_DONE && step != SQLITE_ROW)
        rc = gd_store_fail(s, err, "database read");
    sqlite3_finalize(st);
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
    int rc = load_block(s, q->block, &trace, &pid, &tid, &a, &b, err);
    if (rc)
        return rc;
    acc_set as = {0};
    gd_ctw w;
    gd_ctw_init(&w, a, b, acc_call, &as);
    rc = each_window_call(s, trace, pid, tid, a, b, feed_walker, &w, err);
    if (!rc)
        rc = gd_ctw_finish(&w);
    gd_ctw_free(&w);
    if (rc == -1 || as.oom)
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    for (size_t i = 0; !rc && i < as.n; i++) {
        acc *e = &as.v[i];
        mrow *m = mrows_add(r);
        if (!m) {
            rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
            break;
        }
        m->method = e->method;
        m->tid = tid;
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
    acc_set_free(&as);
    return rc;
}

int gd_store_methods(gd_store *s, const gd_methods_query *q, gd_row_fn fn, void *ctx, gd_error *err)
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
        mname nm;
        if ((rc = method_name(s, &nq, m->method, &nm, err)))
            break;
        char full[2048];
        json_t *row = json_object();
        json_object_set_new(row, "method", json_string(dotted_method(&nm, full, sizeof full)));
        json_object_set_new(row, "desc", nm.desc ? json_string(nm.desc) : json_null());
        json_object_set_new(row, "tid", json_integer(m->tid));
        json_object_set_new(row, "count", json_integer(m->count));
        json_object_set_new(row, "total_ms", ms(m->total));
        json_object_set_new(row, "self_ms", ms(m->self));
        json_object_set_new(row, "max_ms", ms(m->max));
        json_object_set_new(row, "p95_ms", ms(m->p95));
        json_object_set_new(row, "open", json_integer(m->open));
        mname_free(&nm);
        int stop = fn(ctx, row);
        json_decref(row);
        if (stop)
            break;
    }
    sqlite3_finalize(nq);
    free(r.v);
    return rc;
}

/* ---- call trees --------------------------------------------------------------- */

static json_t *node_json(gd_store *s, sqlite3_stmt **nq, const gd_ct_node *n, gd_error *err)
{
    mname m;
    if (method_name(s, nq, n->method, &m, err))
        return NULL;
    char full[2048], sig[2048];
    json_t *o = json_object();
    json_object_set_new(o, "method", json_string(dotted_method(&m, full, sizeof full)));
    json_object_set_new(o, "desc", m.desc ? json_string(m.desc) : json_null());
    json_object_set_new(o, "signature", json_string(gd_ct_java_name(m.cls, m.name, m.desc, sig, sizeof sig)));
    json_object_set_new(o, "count", json_integer(n->count));
    json_object_set_new(o, "open", json_integer(n->open));
    json_object_set_new(o, "total_ms", ms(n->total));
    json_object_set_new(o, "self_ms", ms(n->self));
    mname_free(&m);
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

int gd_store_method_tree(gd_store *s, const gd_methods_query *q, gd_row_fn fn, void *ctx,
                         gd_error *err)
{
    int rc;
    if (q->block >= 0) {
        int64_t trace, pid, tid;
        double a, b;
        if ((rc = load_block(s, q->block, &trace, &pid, &tid, &a, &b, err)))
            return rc;
        gd_ctt *t = gd_ctt_new(a, b);
        if (!t)
            return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
        rc = each_window_call(s, trace, pid, tid, a, b, feed_tree, t, err);
        if (rc == -1)
            rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
        if (!rc)
            rc = emit_tree(s, t, trace, tid, fn, ctx, err);
        gd_ctt_free(t);
        return rc == 1 ? GD_OK : rc;
    }
    sqlite3_stmt *st = prepare_for(
        s, q,
        "SELECT c.trace, c.pid, c.tid, c.id, c.parent, c.method, c.start_ms, c.end_ms, c.depth,"
        " c.open FROM call c JOIN trace t ON t.id = c.trace WHERE 1%s%s"
        " ORDER BY c.trace, c.pid, c.tid, c.start_ms, c.depth, c.id",
        1, err);
    if (!st)
        return err->code ? err->code : GD_ERR_IO;
    gd_ctt *t = NULL;
    int64_t trace = 0, pid = 0, tid = 0;
    int step;
    rc = GD_OK;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t tr = sqlite3_column_int64(st, 0), p = sqlite3_column_int64(st, 1),
                ti = sqlite3_column_int64(st, 2);
        if (!t || tr != trace || p != pid || ti != tid) {
            if (t && (rc = emit_tree(s, t, trace, tid, fn, ctx, err)))
                break;
            gd_ctt_free(t);
            if (!(t = gd_ctt_new(-INFINITY, INFINITY))) {
                rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
                break;
            }
            trace = tr;
            pid = p;
            tid = ti;
        }
        gd_call c = {0};
        c.id = sqlite3_column_int64(st, 3);
        c.parent = sqlite3_column_type(st, 4) == SQLITE_NULL ? 0 : sqlite3_column_int64(st, 4);
        c.method = sqlite3_column_int64(st, 5);
        c.start = sqlite3_column_double(st, 6);
        c.end = sqlite3_column_double(st, 7);
        c.depth = sqlite3_column_int(st, 8);
        c.open = sqlite3_column_int(st, 9);
        if (gd_ctt_add(t, &c)) {
            rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
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

/* ---- Matrix's evil methods ------------------------------------------------------ */

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

static int64_t matrix_dispatch_id(gd_store *s)
{
    sqlite3_stmt *q = gd_store_prepare(
        s, "SELECT id FROM method WHERE class = 'matrix' AND name = 'dispatch' AND desc IS NULL", NULL);
    int64_t id = -1;
    if (q && sqlite3_step(q) == SQLITE_ROW)
        id = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return id;
}

int gd_store_evil_methods(gd_store *s, const gd_methods_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err)
{
    sqlite3_stmt *st = prepare_for(
        s, q,
        "SELECT c.id, c.trace, c.pid, c.tid, c.start_ms, c.dur_ms FROM dispatch c"
        " JOIN trace t ON t.id = c.trace WHERE c.dur_ms >= ?1%s%s"
        " ORDER BY c.trace, c.start_ms, c.id",
        2, err);
    if (!st)
        return err->code ? err->code : GD_ERR_IO;
    sqlite3_bind_double(st, 1, q->evil_ms);
    int64_t dispatch_method = matrix_dispatch_id(s);
    sqlite3_stmt *nq = NULL;
    int rc = GD_OK, step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t trace = sqlite3_column_int64(st, 1), pid = sqlite3_column_int64(st, 2),
                tid = sqlite3_column_int64(st, 3);
        double a = sqlite3_column_double(st, 4), dur = sqlite3_column_double(st, 5);
        items it = {0};
        gd_ctw w;
        gd_ctw_init(&w, a, a + dur, item_call, &it);
        rc = each_window_call(s, trace, pid, tid, a, a + dur, feed_walker, &w, err);
        if (!rc)
            rc = gd_ctw_finish(&w);
        gd_ctw_free(&w);
        if (!rc && items_preorder(&it))
            rc = -1;
        if (rc == -1 || it.oom)
            rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
        if (rc || it.n == 0 || !(it.root_cost >= q->evil_ms)) {
            free(it.v);
            free(it.seq);
            if (rc)
                break;
            continue;
        }
        double stack_cost = dur > it.root_cost ? dur : it.root_cost;
        long k = gd_ct_stack_key(it.v, it.n, stack_cost, dispatch_method);
        mname m;
        if ((rc = method_name(s, &nq, it.v[k].method, &m, err))) {
            free(it.v);
            free(it.seq);
            break;
        }
        char full[2048];
        json_t *row = json_object();
        json_object_set_new(row, "trace", json_integer(trace));
        json_object_set_new(row, "id", json_integer(sqlite3_column_int64(st, 0)));
        json_object_set_new(row, "pid", json_integer(pid));
        json_object_set_new(row, "tid", json_integer(tid));
        json_object_set_new(row, "start_ms", ms(a));
        json_object_set_new(row, "end_ms", ms(a + dur));
        json_object_set_new(row, "duration_ms", ms(dur));
        json_object_set_new(row, "cost_ms", ms(it.root_cost));
        json_object_set_new(row, "stack_key", json_string(dotted_method(&m, full, sizeof full)));
        json_object_set_new(row, "stack_key_desc", m.desc ? json_string(m.desc) : json_null());
        json_object_set_new(row, "stack_key_depth", json_integer(it.v[k].depth));
        json_object_set_new(row, "stack_key_cost_ms", ms(it.v[k].cost));
        mname_free(&m);
        free(it.v);
        free(it.seq);
        int stop = fn(ctx, row);
        json_decref(row);
        if (stop)
            break;
    }
    if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
        rc = gd_store_fail(s, err, "database read");
    sqlite3_finalize(nq);
    sqlite3_finalize(st);
    return rc;
}
