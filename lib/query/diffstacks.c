/* query/diffstacks.c - `godeye diff --stacks` (#52): two selections' stacks
 * merged into one tree, normalised, each frame tested over the captures. */
#include "query/diffstacks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/app.h"
#include "analysis/blocks.h"
#include "analysis/difftree.h"
#include "analysis/mannwhitney.h"
#include "analysis/stats.h"
#include "core/util.h"
#include "query/diff_int.h"
#include "store/sql.h"

typedef struct ds_side {
    double *minutes, *ms;   /* per capture                                  */
    size_t n, cap;
    long calls;             /* captures that gave method calls              */
    long unweighted;        /* samples without a sampling interval          */
    double minutes_sum, ms_sum;
} ds_side;

struct gd_diffstacks {
    gd_dt *t;
    ds_side side[2];
    int cur;                /* side being fed                               */
    int by_time;            /* normalised by capture time (else by samples) */
    double scale, alpha;
    long min_caps, top;
    double *p;              /* per node (NAN: not tested)                   */
};

char *gd_ds_frame_key(const char *frame, char *buf, size_t n)
{
    gd_group_of(frame, buf, n);
    for (char *c = buf; *c; c++)
        if (*c == ';')
            *c = ',';
    return buf;
}

gd_diffstacks *gd_ds_new(void)
{
    gd_diffstacks *d = calloc(1, sizeof *d);
    if (d && !(d->t = gd_dt_new())) {
        free(d);
        return NULL;
    }
    return d;
}

void gd_ds_free(gd_diffstacks *d)
{
    if (!d)
        return;
    gd_dt_free(d->t);
    for (int i = 0; i < 2; i++) {
        free(d->side[i].minutes);
        free(d->side[i].ms);
    }
    free(d->p);
    free(d);
}

int gd_ds_begin(gd_diffstacks *d, int side, double minutes, int calls)
{
    ds_side *s = &d->side[side ? 1 : 0];
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 16;
        double *m = realloc(s->minutes, nc * sizeof *m);
        if (m)
            s->minutes = m;
        double *x = m ? realloc(s->ms, nc * sizeof *x) : NULL;
        if (!x)
            return GD_ERR_NOMEM;
        s->ms = x;
        s->cap = nc;
    }
    d->cur = side ? 1 : 0;
    s->minutes[s->n] = minutes;
    s->ms[s->n] = 0;
    s->calls += calls != 0;
    s->minutes_sum += minutes;
    gd_dt_begin(d->t, d->cur, (unsigned)s->n++);
    return GD_OK;
}

void gd_ds_unweighted(gd_diffstacks *d, int side, long n) { d->side[side ? 1 : 0].unweighted += n; }

static int dt_fail(int rc, gd_error *err)
{
    if (rc == -2)
        return gd_error_set(err, GD_ERR_DATA, 0, 0, "more than %d distinct stack frames: narrow the selection",
                            GD_DT_MAX_NODES);
    return gd_error_oom(err);
}

static void ds_add_at(gd_diffstacks *d, size_t node, double ms)
{
    ds_side *s = &d->side[d->cur];
    s->ms[s->n - 1] += ms;
    s->ms_sum += ms;
    gd_dt_add_at(d->t, node, ms);
}

int gd_ds_add(gd_diffstacks *d, const char *const *frames, size_t n, double ms, gd_error *err)
{
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        int rc = gd_dt_child(d->t, at, frames[i], &at);
        if (rc)
            return dt_fail(rc, err);
    }
    ds_add_at(d, at, ms);
    return GD_OK;
}

int gd_ds_end(gd_diffstacks *d, gd_error *err) { return gd_dt_end(d->t) ? dt_fail(-1, err) : GD_OK; }

/* ---- one trace's stacks, folded (#52 item 4) ------------------------------
 * The one rule of what a capture gives a diff: its method calls (self ms
 * under their call path) when it has any, else its stack samples, each
 * weighing the trace's sampling interval (trace.dump_interval_ms, else the
 * median gap between a thread's consecutive samples over the whole trace).
 * The paths are folded per process in a tree of this trace alone (the
 * process at depth 1, frames below), so that `push` can send them and the
 * fleet feed exactly what the local form feeds. */

typedef struct cs_memo {
    int64_t *id;            /* callsite id (0 empty)                        */
    size_t *node;
    size_t n, cap;
} cs_memo;

static size_t memo_slot(const cs_memo *m, int64_t id)
{
    size_t i = (size_t)((uint64_t)id * 0x9E3779B97F4A7C15ull >> 17) & (m->cap - 1);
    while (m->id[i] && m->id[i] != id)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static int memo_grow(cs_memo *m)
{
    if (m->cap && m->n * 2 < m->cap)
        return 0;
    cs_memo o = *m;
    m->cap = o.cap ? o.cap * 2 : 1024;
    m->id = calloc(m->cap, sizeof *m->id);
    m->node = calloc(m->cap, sizeof *m->node);
    if (!m->id || !m->node) {
        free(m->id);
        free(m->node);
        *m = o;
        return -1;
    }
    for (size_t i = 0; i < o.cap; i++)
        if (o.id[i]) {
            size_t k = memo_slot(m, o.id[i]);
            m->id[k] = o.id[i];
            m->node[k] = o.node[i];
        }
    free(o.id);
    free(o.node);
    return 0;
}

typedef struct fold {
    gd_store *s;
    gd_dt *t;               /* this trace's paths: process, then frames     */
    long *count;            /* per node: calls or samples right there       */
    size_t ncount;
    cs_memo memo;           /* callsite -> node, of the current process     */
    sqlite3_stmt *cs, *fr, *proc;
    int64_t trace, pid;
    size_t pnode;           /* the current process's node                   */
    int have_pid;
    double *gaps;           /* this trace's gaps between a thread's samples */
    size_t ngaps;
    int64_t tid;
    double last;
    long samples;
    gd_error *err;
} fold;

#define DS_MAX_GAPS 65536

static int fold_count(fold *f, size_t node, long k)
{
    size_t had = f->ncount;
    if (gd_grow((void **)&f->count, &f->ncount, node + 1, sizeof *f->count, f->err))
        return f->err->code;
    memset(f->count + had, 0, (f->ncount - had) * sizeof *f->count);
    f->count[node] += k;
    return GD_OK;
}

/* The node of process pid (GD_SQL_PROCESS_OF, '' when unknown): a new pid
 * starts a new callsite memo. */
static int fold_process(fold *f, int64_t pid)
{
    if (f->have_pid && pid == f->pid)
        return GD_OK;
    sqlite3_bind_int64(f->proc, 1, f->trace);
    sqlite3_bind_int64(f->proc, 2, pid);
    char name[512] = "";
    if (sqlite3_step(f->proc) == SQLITE_ROW && sqlite3_column_text(f->proc, 0))
        snprintf(name, sizeof name, "%s", (const char *)sqlite3_column_text(f->proc, 0));
    sqlite3_reset(f->proc);
    int rc = gd_dt_child(f->t, 0, name, &f->pnode);
    if (rc)
        return dt_fail(rc, f->err);
    if (f->memo.cap)
        memset(f->memo.id, 0, f->memo.cap * sizeof *f->memo.id);
    f->memo.n = 0;
    f->pid = pid;
    f->have_pid = 1;
    return GD_OK;
}

/* The node of callsite id: its chain up to a known callsite resolved. */
static int callsite_node(fold *r, int64_t id, size_t *out)
{
    int64_t chain[512];
    size_t n = 0, at = r->pnode;
    while (id) {
        size_t k = memo_slot(&r->memo, id);
        if (r->memo.id[k]) {
            at = r->memo.node[k];
            break;
        }
        sqlite3_bind_int64(r->cs, 1, id);
        if (sqlite3_step(r->cs) != SQLITE_ROW) {
            sqlite3_reset(r->cs);
            return gd_error_set(r->err, GD_ERR_DATA, 0, 0, "database: callsite %lld missing", (long long)id);
        }
        int64_t parent = sqlite3_column_int64(r->cs, 0);
        sqlite3_reset(r->cs);
        if (n == sizeof chain / sizeof chain[0]) { /* resolve the rest first */
            int rc = callsite_node(r, id, &at);
            if (rc)
                return rc;
            break;
        }
        chain[n++] = id;
        id = parent;
    }
    while (n > 0) {
        int64_t c = chain[--n];
        sqlite3_bind_int64(r->fr, 1, c);
        char key[2048] = "?";
        if (sqlite3_step(r->fr) == SQLITE_ROW && sqlite3_column_text(r->fr, 0))
            gd_ds_frame_key((const char *)sqlite3_column_text(r->fr, 0), key, sizeof key);
        sqlite3_reset(r->fr);
        int rc = gd_dt_child(r->t, at, key, &at);
        if (rc || memo_grow(&r->memo))
            return dt_fail(rc ? rc : -1, r->err);
        size_t k = memo_slot(&r->memo, c);
        r->memo.id[k] = c;
        r->memo.node[k] = at;
        r->memo.n++;
    }
    *out = at;
    return GD_OK;
}

enum { SA_CALLSITE, SA_PID, SA_TID, SA_TS };

static int sample_row(void *ctx, sqlite3_stmt *q)
{
    fold *r = ctx;
    int64_t pid = sqlite3_column_int64(q, SA_PID), tid = sqlite3_column_int64(q, SA_TID);
    double ts = sqlite3_column_double(q, SA_TS);
    int same = r->samples > 0 && r->have_pid && pid == r->pid && tid == r->tid;
    size_t node;
    int rc = fold_process(r, pid);
    if (!rc)
        rc = callsite_node(r, sqlite3_column_int64(q, SA_CALLSITE), &node);
    if (!rc)
        rc = fold_count(r, node, 1);
    if (rc)
        return rc;
    r->samples++;
    if (same && ts > r->last && r->ngaps < DS_MAX_GAPS)
        r->gaps[r->ngaps++] = ts - r->last;
    r->tid = tid;
    r->last = ts;
    return GD_OK;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The trace's samples counted per path; *interval: the sampling interval
 * when the trace gives none (the median gap), else as given. */
static int read_samples(fold *r, double *interval)
{
    sqlite3_stmt *q = gd_store_prepare(r->s,
                                       "SELECT s.callsite, s.pid, s.tid, s.ts_ms FROM sample s"
                                       " WHERE s.trace = ?1 ORDER BY s.pid, s.tid, s.ts_ms, s.id",
                                       r->err);
    if (!q)
        return r->err->code ? r->err->code : GD_ERR_IO;
    sqlite3_bind_int64(q, 1, r->trace);
    int rc = gd_store_each(r->s, q, sample_row, r, r->err);
    if (!(*interval > 0) && r->ngaps) {
        gd_sort(r->gaps, r->ngaps, sizeof *r->gaps, cmp_double);
        *interval = gd_percentile(r->gaps, r->ngaps, 50);
    }
    return rc;
}

/* The trace's method calls, each its self ms under its call path. */
typedef struct call_walk {
    fold *r;
    size_t *stk;
    size_t n, cap;
} call_walk;

enum { CA_DEPTH, CA_SELF, CA_CLASS, CA_NAME, CA_PID };

static int call_row(void *ctx, sqlite3_stmt *q)
{
    call_walk *w = ctx;
    int64_t pid = sqlite3_column_int64(q, CA_PID);
    if (!(w->r->have_pid && pid == w->r->pid))
        w->n = 0; /* a new process: its own stacks */
    int rc = fold_process(w->r, pid);
    if (rc)
        return rc;
    int depth = sqlite3_column_int(q, CA_DEPTH);
    size_t d = depth < 0 ? 0 : (size_t)depth;
    if (d > w->n)
        d = w->n; /* a parent not stored: under the deepest open call */
    if (gd_grow((void **)&w->stk, &w->cap, d + 1, sizeof *w->stk, w->r->err))
        return w->r->err->code;
    char name[2048], key[2048];
    snprintf(name, sizeof name, "%s.%s", (const char *)sqlite3_column_text(q, CA_CLASS),
             (const char *)sqlite3_column_text(q, CA_NAME));
    size_t node;
    rc = gd_dt_child(w->r->t, d ? w->stk[d - 1] : w->r->pnode, gd_ds_frame_key(name, key, sizeof key), &node);
    if (rc)
        return dt_fail(rc, w->r->err);
    w->stk[d] = node;
    w->n = d + 1;
    gd_dt_add_at(w->r->t, node, sqlite3_column_double(q, CA_SELF));
    return fold_count(w->r, node, 1);
}

static int read_calls(fold *r)
{
    sqlite3_stmt *q = gd_store_prepare(r->s,
                                       "SELECT c.depth, c.self_ms, m.class, m.name, c.pid FROM call c"
                                       " JOIN method m ON m.id = c.method WHERE c.trace = ?1"
                                       " ORDER BY c.pid, c.tid, c.start_ms, c.depth, c.id",
                                       r->err);
    if (!q)
        return r->err->code ? r->err->code : GD_ERR_IO;
    sqlite3_bind_int64(q, 1, r->trace);
    call_walk w = {r, NULL, 0, 0};
    int rc = gd_store_each(r->s, q, call_row, &w, r->err);
    free(w.stk);
    return rc;
}

/* The ';'-joined frames of node i from depth `top` down (malloc'd; NULL
 * out of memory). */
static char *path_text(const gd_dt *t, size_t i, int top)
{
    size_t len = 0;
    for (size_t k = i; k && gd_dt_node_at(t, k)->depth >= top; k = gd_dt_node_at(t, k)->parent)
        len += strlen(gd_dt_node_at(t, k)->frame) + 1;
    char *buf = malloc(len + 1);
    if (!buf)
        return NULL;
    size_t at = len;
    buf[len] = 0;
    for (size_t k = i; k && gd_dt_node_at(t, k)->depth >= top; k = gd_dt_node_at(t, k)->parent) {
        const char *f = gd_dt_node_at(t, k)->frame;
        size_t fl = strlen(f);
        at -= fl;
        memcpy(buf + at, f, fl);
        if (gd_dt_node_at(t, k)->depth > top)
            buf[--at] = ';';
    }
    if (at) /* the loop leaves one byte: the string starts after it */
        memmove(buf, buf + at, len - at + 1);
    return buf;
}

/* Each folded path of the trace, in the order the trace first reached it. */
static int fold_rows(fold *f, int calls, double interval, gd_row_fn fn, void *ctx)
{
    for (size_t i = 1; i < gd_dt_count(f->t); i++) {
        const gd_dt_node *x = gd_dt_node_at(f->t, i);
        if (x->depth < 2 || i >= f->ncount || !f->count[i])
            continue;
        size_t p = i;
        while (gd_dt_node_at(f->t, p)->depth > 1)
            p = gd_dt_node_at(f->t, p)->parent;
        char *st = path_text(f->t, i, 2);
        double ms = calls ? x->self[0] : (double)f->count[i] * interval;
        json_t *row = st ? json_pack("{s:o s:s s:o s:o s:I}", "process", gd_json_str(gd_dt_node_at(f->t, p)->frame), "source",
                                     calls ? "calls" : "samples", "stack", gd_json_str(st), "ms",
                                     calls || interval > 0 ? json_real(ms) : json_null(), "count",
                                     (json_int_t)f->count[i])
                             : NULL;
        free(st);
        if (!row)
            return dt_fail(-1, f->err);
        int stop = fn(ctx, row);
        json_decref(row);
        if (stop)
            return GD_ERR_ABORT;
    }
    return GD_OK;
}

enum { TR_INTERVAL, TR_CALLS };

static int fold_trace(fold *f, gd_row_fn fn, void *ctx)
{
    sqlite3_stmt *q = gd_store_prepare(
        f->s, "SELECT dump_interval_ms, EXISTS (SELECT 1 FROM call c WHERE c.trace = t.id) FROM trace t WHERE t.id = ?1",
        f->err);
    if (!q)
        return f->err->code ? f->err->code : GD_ERR_IO;
    sqlite3_bind_int64(q, 1, f->trace);
    int ok = sqlite3_step(q) == SQLITE_ROW;
    double interval = ok && sqlite3_column_type(q, TR_INTERVAL) != SQLITE_NULL ? sqlite3_column_double(q, TR_INTERVAL)
                                                                             : NAN;
    int calls = ok && sqlite3_column_int(q, TR_CALLS);
    sqlite3_finalize(q);
    if (!ok)
        return gd_error_set(f->err, GD_ERR_DATA, 0, 0, "trace %lld is gone", (long long)f->trace);
    gd_dt_begin(f->t, 0, 0);
    int rc = calls ? read_calls(f) : read_samples(f, &interval);
    return rc ? rc : fold_rows(f, calls, interval, fn, ctx);
}

int gd_query_trace_stacks(gd_store *s, int64_t trace, gd_row_fn fn, void *ctx, gd_error *err)
{
    fold f = {.s = s, .trace = trace, .err = err};
    int rc = GD_OK;
    if (!(f.t = gd_dt_new()) || memo_grow(&f.memo) || !(f.gaps = malloc(DS_MAX_GAPS * sizeof *f.gaps)))
        rc = dt_fail(-1, err);
    if (!rc && (!(f.cs = gd_store_prepare(s, "SELECT parent FROM callsite WHERE id = ?1", err)) ||
                !(f.fr = gd_store_prepare(s, "SELECT f.text FROM callsite c JOIN frame f ON f.id = c.frame"
                                             " WHERE c.id = ?1", err)) ||
                !(f.proc = gd_store_prepare(s, "SELECT " GD_SQL_PROCESS_OF("d", "t") " FROM (SELECT ?1 AS trace,"
                                               " ?2 AS pid) d JOIN trace t ON t.id = d.trace", err))))
        rc = err->code ? err->code : GD_ERR_IO;
    if (!rc)
        rc = fold_trace(&f, fn, ctx);
    sqlite3_finalize(f.cs);
    sqlite3_finalize(f.fr);
    sqlite3_finalize(f.proc);
    free(f.memo.id);
    free(f.memo.node);
    free(f.gaps);
    free(f.count);
    gd_dt_free(f.t);
    return rc;
}

/* ---- feeding a diff --------------------------------------------------------- */

int gd_ds_feed(gd_diffstacks *d, const json_t *row, const char *app, gd_error *err)
{
    const char *proc = json_string_value(json_object_get(row, "process"));
    const char *stack = json_string_value(json_object_get(row, "stack"));
    if ((app && !gd_app_match(proc, app)) || !stack)
        return GD_OK;
    char *buf = strdup(stack);
    if (!buf)
        return dt_fail(-1, err);
    size_t at = 0;
    int rc = 0;
    for (char *p = buf, *e; p && !rc; p = e ? e + 1 : NULL) {
        if ((e = strchr(p, ';')))
            *e = 0;
        rc = gd_dt_child(d->t, at, p, &at);
    }
    free(buf);
    if (rc)
        return dt_fail(rc, err);
    json_t *ms = json_object_get(row, "ms");
    if (json_is_number(ms))
        ds_add_at(d, at, json_number_value(ms));
    else
        gd_ds_unweighted(d, d->cur, (long)json_integer_value(json_object_get(row, "count")));
    return GD_OK;
}

/* ---- the store's captures ----------------------------------------------- */

typedef struct feed {
    gd_diffstacks *d;
    const char *app;
    gd_error *err;
} feed;

static int on_path(void *ctx, json_t *row)
{
    feed *f = ctx;
    return gd_ds_feed(f->d, row, f->app, f->err) ? 1 : 0;
}

enum { TM_MIN, TM_CALLS };

static int read_trace(gd_store *s, feed *f, int side, int64_t trace)
{
    sqlite3_stmt *q = gd_store_prepare(
        s, "SELECT exposure_ms / 60000.0, EXISTS (SELECT 1 FROM call c WHERE c.trace = t.id) FROM trace t WHERE t.id = ?1",
        f->err);
    if (!q)
        return f->err->code ? f->err->code : GD_ERR_IO;
    sqlite3_bind_int64(q, 1, trace);
    int ok = sqlite3_step(q) == SQLITE_ROW;
    double minutes = ok ? sqlite3_column_double(q, TM_MIN) : 0;
    int calls = ok && sqlite3_column_int(q, TM_CALLS);
    sqlite3_finalize(q);
    if (!ok)
        return gd_error_set(f->err, GD_ERR_DATA, 0, 0, "trace %lld is gone", (long long)trace);
    if (gd_ds_begin(f->d, side, minutes, calls))
        return dt_fail(-1, f->err);
    int rc = gd_query_trace_stacks(s, trace, on_path, f, f->err);
    if (rc == GD_ERR_ABORT)
        rc = f->err->code ? f->err->code : dt_fail(-1, f->err);
    return rc ? rc : gd_ds_end(f->d, f->err);
}

typedef struct id_list {
    int64_t *id;
    size_t n, cap;
} id_list;

static int on_id(void *ctx, sqlite3_stmt *q)
{
    id_list *l = ctx;
    if (l->n < l->cap)
        l->id[l->n++] = sqlite3_column_int64(q, 0);
    return GD_OK;
}

/* The selection's ids as a JSON array's text (NULL: out of memory). */
static char *ids_text(const gd_selection *sel)
{
    json_t *ids = json_array();
    for (size_t i = 0; ids && i < sel->n; i++)
        json_array_append_new(ids, json_integer(sel->ids[i]));
    char *txt = ids ? json_dumps(ids, JSON_COMPACT) : NULL;
    json_decref(ids);
    return txt;
}

/* The selection's traces in the order every form feeds them: by content
 * hash (the fleet's trace_uid), so that a fleet's diff equals this one. */
static int by_hash(gd_store *s, const gd_selection *sel, int64_t **out, gd_error *err)
{
    id_list l = {malloc((sel->n ? sel->n : 1) * sizeof *l.id), 0, sel->n};
    char *txt = ids_text(sel);
    *out = l.id;
    sqlite3_stmt *q = l.id && txt ? gd_store_prepare(s, "SELECT id FROM trace WHERE id IN (SELECT value FROM"
                                                        " json_each(?1)) ORDER BY hash, id", err)
                                  : NULL;
    int rc = !l.id || !txt ? dt_fail(-1, err) : !q ? (err->code ? err->code : GD_ERR_IO) : GD_OK;
    if (!rc) {
        sqlite3_bind_text(q, 1, txt, -1, SQLITE_STATIC);
        rc = gd_store_each(s, q, on_id, &l, err);
    }
    if (!rc && l.n != sel->n)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "a trace of the selection is gone");
    free(txt);
    return rc;
}

static int read_side(gd_store *s, gd_diffstacks *d, int side, const gd_selection *sel, gd_error *err)
{
    int64_t *ids;
    int rc = by_hash(s, sel, &ids, err);
    feed f = {d, sel->app, err};
    for (size_t i = 0; i < sel->n && !rc; i++)
        rc = read_trace(s, &f, side, ids[i]);
    free(ids);
    return rc;
}

int gd_query_diffstacks(gd_store *s, const gd_diffstacks_query *q, gd_diffstacks **out, gd_error *err)
{
    *out = NULL;
    gd_diffstacks *d = gd_ds_new();
    if (!d)
        return dt_fail(-1, err);
    int rc = read_side(s, d, 0, q->base, err);
    if (!rc)
        rc = read_side(s, d, 1, q->head, err);
    return gd_ds_conclude(d, q, rc, out, err);
}

int gd_ds_conclude(gd_diffstacks *d, const gd_diffstacks_query *q, int rc, gd_diffstacks **out, gd_error *err)
{
    if (!rc)
        rc = gd_ds_finish(d, q, err);
    if (rc)
        gd_ds_free(d);
    else
        *out = d;
    return rc;
}

/* ---- normalising, testing ----------------------------------------------- */

/* The capture's value of node x on a side, normalised (per minute or share). */
static double cap_norm(const gd_diffstacks *d, int side, size_t cap, double ms)
{
    const ds_side *s = &d->side[side];
    double den = d->by_time ? s->minutes[cap] : s->ms[cap];
    return den > 0 ? ms / den : 0;
}

static int test_node(gd_diffstacks *d, const gd_dt_node *x, double *a, double *b, double *p)
{
    size_t n[2] = {d->side[0].n, d->side[1].n};
    double *v[2] = {a, b};
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < n[s]; i++)
            v[s][i] = 0;
        for (size_t i = 0; i < x->ncaps[s]; i++)
            v[s][x->caps[s][i].cap] = cap_norm(d, s, x->caps[s][i].cap, x->caps[s][i].ms);
    }
    gd_mw_result res;
    if (gd_mannwhitney(a, n[0], b, n[1], &res))
        return -1;
    *p = res.p;
    return 0;
}

static int pick_norm(gd_diffstacks *d, gd_ds_norm norm, gd_error *err)
{
    int timed = d->side[0].n && d->side[1].n;
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < d->side[s].n; i++)
            timed = timed && d->side[s].minutes[i] > 0;
    if (norm == GD_DS_NORM_TIME && !timed)
        return gd_error_set(err, GD_ERR_DATA, 0, 0,
                            "--norm time: a trace of the selection has no capture time (try --norm samples)");
    d->by_time = norm == GD_DS_NORM_TIME || (norm == GD_DS_NORM_AUTO && timed);
    double b = d->by_time ? d->side[0].minutes_sum : d->side[0].ms_sum;
    double h = d->by_time ? d->side[1].minutes_sum : d->side[1].ms_sum;
    d->scale = b > 0 && h > 0 ? b / h : 1;
    return GD_OK;
}

int gd_ds_finish(gd_diffstacks *d, const gd_diffstacks_query *q, gd_error *err)
{
    gd_diff_resolve(&d->alpha, &d->min_caps, q->alpha, q->min_samples);
    d->top = q->top > 0 ? q->top : 10;
    int rc = pick_norm(d, q->norm, err);
    if (rc)
        return rc;
    gd_dt_scale_head(d->t, d->scale);
    size_t nn = gd_dt_count(d->t);
    if (!(d->p = malloc(nn * sizeof *d->p)))
        return dt_fail(-1, err);
    for (size_t i = 0; i < nn; i++)
        d->p[i] = NAN;
    if (d->side[0].n < (size_t)d->min_caps || d->side[1].n < (size_t)d->min_caps)
        return GD_OK;
    double *a = malloc((d->side[0].n + d->side[1].n) * sizeof *a);
    if (!a)
        return dt_fail(-1, err);
    for (size_t i = 1; i < nn && !rc; i++)
        if (test_node(d, gd_dt_node_at(d->t, i), a, a + d->side[0].n, &d->p[i]))
            rc = dt_fail(-1, err);
    free(a);
    return rc;
}

/* ---- the answer ----------------------------------------------------------- */

static const gd_diffstacks *sort_d;

static double self_delta(const gd_dt_node *x) { return x->self[1] - x->self[0]; }
static double delta(const gd_dt_node *x) { return x->total[1] - x->total[0]; }

static int cmp_regressed(const void *p, const void *q)
{
    size_t i = *(const size_t *)p, j = *(const size_t *)q;
    const gd_dt_node *a = gd_dt_node_at(sort_d->t, i), *b = gd_dt_node_at(sort_d->t, j);
    double x = self_delta(a), y = self_delta(b);
    if (x != y)
        return x > y ? -1 : 1;
    if (delta(a) != delta(b))
        return delta(a) > delta(b) ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* Node indices 1.. by self delta descending (NULL when out of memory). */
static size_t *ranked(const gd_diffstacks *d, size_t *n)
{
    *n = gd_dt_count(d->t) - 1;
    size_t *o = malloc((*n + 1) * sizeof *o);
    if (!o)
        return NULL;
    for (size_t i = 0; i < *n; i++)
        o[i] = i + 1;
    sort_d = d;
    qsort(o, *n, sizeof *o, cmp_regressed);
    return o;
}

static json_t *ms_json(double v) { return gd_diff_num_json(gd_diff_r6(v)); }

enum { GD_DS_FRAME_COLS(GD_QC_ID, GD_QC_ID) DSF_NCOLS };
GD_QCOLS_DEFINE(frame_cols, GD_DS_FRAME_COLS);
enum { GD_DS_SUMMARY_COLS(GD_QC_ID, GD_QC_ID) DSS_NCOLS };
GD_QCOLS_DEFINE(summary_cols, GD_DS_SUMMARY_COLS);
enum { GD_DS_SIDE_COLS(GD_QC_ID, GD_QC_ID) DSD_NCOLS };
GD_QCOLS_DEFINE(ds_side_cols, GD_DS_SIDE_COLS);

/* a time or share rounded to 1e-6, null when not finite */
static void qv_r6(gd_value *v, double d) { gd_qv_num(v, gd_diff_r6(d)); }

/* Frame i as JSON (GD_DS_FRAME_COLS), with its stack st (a row), or
 * without (st NULL: a node of the summary's tree). */
static json_t *frame_row(const gd_diffstacks *d, size_t i, const char *st)
{
    const gd_dt_node *x = gd_dt_node_at(d->t, i);
    gd_value f[DSF_NCOLS];
    gd_qv_text(&f[DSF_FRAME], x->frame);
    gd_qv_int(&f[DSF_DEPTH], x->depth);
    qv_r6(&f[DSF_BASE], x->total[0]);
    qv_r6(&f[DSF_HEAD], x->total[1]);
    qv_r6(&f[DSF_DELTA], delta(x));
    qv_r6(&f[DSF_BASE_SELF], x->self[0]);
    qv_r6(&f[DSF_HEAD_SELF], x->self[1]);
    qv_r6(&f[DSF_SELF_DELTA], self_delta(x));
    qv_r6(&f[DSF_P], d->p[i]);
    gd_qv_text(&f[DSF_STACK], st);
    gd_qcols c = gd_qcols_sub(&frame_cols, 0, st ? DSF_NCOLS : DSF_STACK);
    return gd_qcols_json(&c, f);
}

/* A side's figures (GD_DS_SIDE_COLS) in f, their object in *v (r filled). */
static void side_fields(gd_value *v, gd_row *r, const ds_side *s, gd_value *f)
{
    gd_qv_int(&f[DSD_CAPTURES], (int64_t)s->n);
    gd_qv_int(&f[DSD_CALLS], (int64_t)s->calls);
    qv_r6(&f[DSD_MINUTES], s->minutes_sum);
    qv_r6(&f[DSD_MS], s->ms_sum);
    gd_qv_int(&f[DSD_UNWEIGHTED], (int64_t)s->unweighted);
    gd_qv_row(v, r, &ds_side_cols, f);
}

static int cmp_by_delta(const void *p, const void *q)
{
    size_t i = *(const size_t *)p, j = *(const size_t *)q;
    double x = delta(gd_dt_node_at(sort_d->t, i)), y = delta(gd_dt_node_at(sort_d->t, j));
    if (x != y)
        return x > y ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* The top regressed frames and their ancestors, pre-order, siblings by delta. */
static json_t *tree_json(const gd_diffstacks *d)
{
    size_t n, nn = gd_dt_count(d->t);
    size_t *o = ranked(d, &n);
    char *mark = calloc(nn, 1);
    size_t *stk = malloc((nn + 1) * sizeof *stk);
    json_t *tree = json_array();
    if (!o || !mark || !stk || !tree) {
        free(o), free(mark), free(stk);
        json_decref(tree);
        return NULL;
    }
    for (size_t k = 0; k < n && k < (size_t)d->top && self_delta(gd_dt_node_at(d->t, o[k])) > 0; k++)
        for (size_t i = o[k]; i && !mark[i]; i = gd_dt_node_at(d->t, i)->parent)
            mark[i] = 1;
    size_t sp = 0;
    stk[sp++] = 0;
    while (sp) {
        size_t i = stk[--sp];
        if (i)
            json_array_append_new(tree, frame_row(d, i, NULL));
        size_t first = sp;
        for (size_t c = gd_dt_node_at(d->t, i)->child; c; c = gd_dt_node_at(d->t, c)->next)
            if (mark[c])
                stk[sp++] = c;
        sort_d = d;
        qsort(stk + first, sp - first, sizeof *stk, cmp_by_delta);
        for (size_t a = first, b = sp; a + 1 < b; a++, b--) { /* largest on top */
            size_t t = stk[a];
            stk[a] = stk[b - 1];
            stk[b - 1] = t;
        }
    }
    free(o), free(mark), free(stk);
    return tree;
}

json_t *gd_ds_summary(const gd_diffstacks *d)
{
    json_t *tree = tree_json(d);
    if (!tree)
        return NULL;
    gd_value f[DSS_NCOLS], fb[DSD_NCOLS], fh[DSD_NCOLS];
    gd_row rb, rh;
    int tested = d->side[0].n >= (size_t)d->min_caps && d->side[1].n >= (size_t)d->min_caps;
    gd_qv_text(&f[DSS_NORMALISED], d->by_time ? "capture time" : "sample count");
    qv_r6(&f[DSS_HEAD_SCALE], d->scale);
    gd_qv_text(&f[DSS_TEST], tested ? "Mann-Whitney over captures" : NULL);
    gd_qv_real(&f[DSS_ALPHA], d->alpha);
    gd_qv_int(&f[DSS_MIN_CAPTURES], d->min_caps);
    side_fields(&f[DSS_BASE], &rb, &d->side[0], fb);
    side_fields(&f[DSS_HEAD], &rh, &d->side[1], fh);
    gd_qv_json(&f[DSS_TREE], tree);
    json_t *o = gd_qcols_json(&summary_cols, f);
    gd_qcols_clear(&summary_cols, f);
    return o;
}

int gd_ds_rows(const gd_diffstacks *d, int folded, gd_row_fn fn, void *ctx, gd_error *err)
{
    size_t n;
    size_t *o = ranked(d, &n);
    if (!o)
        return dt_fail(-1, err);
    if (folded)
        for (size_t i = 0; i < n; i++)
            o[i] = i + 1;
    int rc = GD_OK;
    for (size_t k = 0; k < n && !rc; k++) {
        const gd_dt_node *x = gd_dt_node_at(d->t, o[k]);
        if (folded && !(x->self[0] > 0 || x->self[1] > 0))
            continue;
        char *st = path_text(d->t, o[k], 1);
        json_t *row = st ? frame_row(d, o[k], st) : NULL;
        free(st);
        if (!row) {
            rc = dt_fail(-1, err);
            break;
        }
        if (fn(ctx, row))
            k = n;
        json_decref(row);
    }
    free(o);
    return rc;
}

/* ---- the report's drawing ------------------------------------------------ */

json_t *gd_ds_flame(const gd_diffstacks *d, double prune, int max_depth)
{
    size_t nn = gd_dt_count(d->t);
    const gd_dt_node *root = gd_dt_node_at(d->t, 0);
    double big = root->total[0] > root->total[1] ? root->total[0] : root->total[1];
    json_t **obj = calloc(nn, sizeof *obj);
    if (!obj)
        return NULL;
    long cut = 0;
    obj[0] = json_pack("{s:s s:o s:o s:[]}", "name", "all", "base", ms_json(root->total[0]), "head",
                       ms_json(root->total[1]), "children");
    for (size_t i = 1; i < nn && obj[0]; i++) { /* a parent comes before its children */
        const gd_dt_node *x = gd_dt_node_at(d->t, i);
        double v = x->total[0] > x->total[1] ? x->total[0] : x->total[1];
        if (!obj[x->parent] || v < prune * big || x->depth > max_depth) {
            cut += obj[x->parent] != NULL;
            continue;
        }
        obj[i] = json_pack("{s:s s:o s:o s:[]}", "name", x->frame, "base", ms_json(x->total[0]), "head",
                           ms_json(x->total[1]), "children");
        json_array_append(json_object_get(obj[x->parent], "children"), obj[i]);
    }
    json_t *out = obj[0];
    for (size_t i = 1; i < nn; i++)
        json_decref(obj[i]);
    free(obj);
    if (out && cut)
        json_object_set_new(out, "cut", json_integer(cut));
    return out;
}

int gd_query_diffstacks_flame(gd_store *s, const gd_selection *base, const gd_selection *head, json_t **out,
                              gd_error *err)
{
    *out = NULL;
    gd_diffstacks_query q = {base, head, NAN, -1, GD_DS_NORM_AUTO, 0};
    gd_diffstacks *d;
    int rc = gd_query_diffstacks(s, &q, &d, err);
    if (rc)
        return rc;
    if (d->side[0].ms_sum > 0 || d->side[1].ms_sum > 0) {
        *out = gd_ds_flame(d, 0.005, 64);
        if (*out)
            json_object_set_new(*out, "normalised", json_string(d->by_time ? "capture time" : "sample count"));
        else
            rc = dt_fail(-1, err);
    }
    gd_ds_free(d);
    return rc;
}
