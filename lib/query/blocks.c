/* query/blocks.c - the read queries behind traces, blocks and block groups. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/row.h"
#include "derive/states.h"
#include "analysis/stats.h"
#include "analysis/version.h"
#include "query/blocks.h"
#include "store/sql.h"
#include "derive/blocks.h"
#include "core/util.h"

/* ---- traces ------------------------------------------------------------- */

enum { GD_TRACES_COLS(GD_QC_ID, GD_QC_ID) TR_NCOLS };
GD_QCOLS_DEFINE(trace_cols, GD_TRACES_COLS);

_Static_assert(TR_NCOLS <= GD_QCOLS_MAX, "gd_qcols_row reads every field");

static json_t *trace_row(sqlite3_stmt *q)
{
    return gd_qcols_row(&trace_cols, q);
}

int gd_query_traces(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err)
{
    char filt[4096], sql[8192], fields[2048];
    gd_store_filter_sql(f, "t.id", filt, sizeof filt);
    if (gd_qcols_select(&trace_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "traces: the SELECT list is too long");
    snprintf(sql, sizeof sql, "SELECT %s FROM trace t WHERE 1 %s ORDER BY trace", fields, filt);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    return gd_store_stream(s, q, trace_row, fn, ctx, err);
}

enum { GD_TRACE_CLOCK_COLS(GD_QC_ID, GD_QC_ID) K_NCOLS };
GD_QCOLS_DEFINE(clock_cols, GD_TRACE_CLOCK_COLS);

_Static_assert(K_NCOLS <= GD_QCOLS_MAX, "gd_qcols_row reads every field");

static json_t *clock_row(sqlite3_stmt *q)
{
    return gd_qcols_row(&clock_cols, q);
}

int gd_query_trace_clocks(gd_store *s, gd_row_fn fn, void *ctx, gd_error *err)
{
    char sql[512], fields[256];
    if (gd_qcols_select(&clock_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "trace clocks: the SELECT list is too long");
    snprintf(sql, sizeof sql, "SELECT %s FROM trace ORDER BY id", fields);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    return gd_store_stream(s, q, clock_row, fn, ctx, err);
}

/* ---- blocks ------------------------------------------------------------- */

/* Per-query cache of trace configurations (few traces per query). */
typedef struct cfg_list {
    gd_trace_cfg *cfgs;
    size_t n, cap;
} cfg_list;

static const gd_trace_cfg *cfg_get(gd_store *s, cfg_list *l, int64_t id, gd_error *err)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->cfgs[i].id == id)
            return &l->cfgs[i];
    if (gd_grow((void **)&l->cfgs, &l->cap, l->n + 1, sizeof *l->cfgs, NULL))
        return NULL;
    if (gd_trace_cfg_load(s, id, &l->cfgs[l->n], err))
        return NULL;
    return &l->cfgs[l->n++];
}

static void cfg_list_free(cfg_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        gd_trace_cfg_free(&l->cfgs[i]);
    free(l->cfgs);
}

enum { GD_BLOCKS_COLS(GD_QC_ID, GD_QC_ID) B_NCOLS };
GD_QCOLS_DEFINE(block_cols, GD_BLOCKS_COLS);
_Static_assert(B_STACKS == B_NCOLS - 1, "stacks, the field of --stacks only, is last");
_Static_assert(B_D - B_RUNNING == GD_WHY_V_UNINTERRUPTIBLE - GD_WHY_V_RUNNING, "the state classes' fields");
/* The light (group) rows' variant: no message text, no thread name. */
static const char *const light_over[B_NCOLS] = {[B_THREAD] = "NULL", [B_MSG] = "NULL"};

enum { GD_BLOCK_MEMORY_COLS(GD_QC_ID, GD_QC_ID) MM_NCOLS };
GD_QCOLS_DEFINE(memory_cols, GD_BLOCK_MEMORY_COLS);

/* What a block row's query reads besides the fields, after them and the
 * memory snapshot's: the kind's thresholds, whether a block row is stored,
 * the Looper message (for deriving one). */
#define BLOCK_INPUTS(X)                                                                  \
    X(BI_LONG, "t.long_ms") X(BI_ANR, "t.anr_ms") X(BI_HAVE, "b.dispatch IS NOT NULL")    \
    X(BI_MESSAGE, "coalesce(d.message, -1)")
enum { BLOCK_INPUTS(GD_COL_ENUM) BI_NCOLS };

/* The SELECT list of a block row: its fields (the light variant's when
 * `light`), its memory snapshot's, then BLOCK_INPUTS; 0, or -1 when it does
 * not fit in n bytes. */
static int block_fields(char *buf, size_t n, int light)
{
    gd_qread lr[B_NCOLS];
    gd_qcols c = light ? gd_qcols_vary(&block_cols, light_over, lr) : block_cols;
    if (gd_qcols_select(&c, buf, n))
        return -1;
    size_t at = strlen(buf);
    int w = snprintf(buf + at, n - at, ", ");
    if (w < 0 || (size_t)w >= n - at || gd_qcols_select(&memory_cols, buf + at + 2, n - at - 2))
        return -1;
    at += strlen(buf + at);
    w = snprintf(buf + at, n - at, "%s", "" BLOCK_INPUTS(GD_COL_SQL));
    return w < 0 || (size_t)w >= n - at ? -1 : 0;
}

typedef int (*block_fn)(void *ctx, const gd_row *row, double dur);

/* The kind filter over dispatch d (or block b) of trace t: ?3 is the kind's
 * name, NULL for every kind. */
#define KIND_FILTER(d) " AND (?3 IS NULL OR " GD_SQL_BLOCK_KIND(d, "t") " = ?3)"

/* The one column of a SELECT of one aggregate over trace. */
enum { S_VALUE = 0 };

/* The lowest short threshold (min) or the highest (max) over the stored
 * traces; with none, the default. */
static double short_over_traces(gd_store *s, int highest, gd_error *err)
{
    sqlite3_stmt *m = gd_store_prepare(s, highest ? "SELECT max(short_ms) FROM trace"
                                                  : "SELECT min(short_ms) FROM trace", err);
    double v = GD_NONE;
    if (m && sqlite3_step(m) == SQLITE_ROW && sqlite3_column_type(m, S_VALUE) != SQLITE_NULL)
        v = sqlite3_column_double(m, S_VALUE);
    sqlite3_finalize(m);
    return gd_thresholds_resolve(v, GD_NONE, GD_NONE).short_ms;
}

/* The lowest duration a block of kind k can have in any trace: the bound
 * that lets the dur_ms index skip everything shorter. */
static double kind_bound(gd_store *s, gd_block_kind k, double bound)
{
    const char *col = k == GD_KIND_ANR ? "anr_ms" : k == GD_KIND_LONG ? "long_ms" : NULL;
    if (!col)
        return bound;
    char sql[64];
    snprintf(sql, sizeof sql, "SELECT min(%s) FROM trace", col);
    sqlite3_stmt *m = gd_store_prepare(s, sql, NULL);
    if (m && sqlite3_step(m) == SQLITE_ROW && sqlite3_column_type(m, S_VALUE) != SQLITE_NULL &&
        sqlite3_column_double(m, S_VALUE) > bound)
        bound = sqlite3_column_double(m, S_VALUE);
    sqlite3_finalize(m);
    return bound;
}

/* The blocks query: dispatches at or over ?1 (each trace's short threshold
 * when ?2 is 0) with their stored block rows and memory snapshots, by trace
 * and start, of kind ?3 (any when NULL); with a limit (?4) the longest
 * first, then put back in order (by the aliases of GD_BLOCKS_COLS).  0, or
 * -1 when it does not fit in n bytes. */
static int block_sql(char *sql, size_t n, const gd_blocks_query *bq, int light, const char *filt,
                     double bound)
{
    char fields[6144];
    if (block_fields(fields, sizeof fields, light))
        return -1;
    int w = snprintf(sql, n,
                     /* --limit: the longest `limit` blocks, listed in the listing's order */
                     "%sSELECT %s"
                     /* CROSS JOIN keeps dispatch the outer loop, read through its
                      * dur_ms index: a few blocks out of millions of dispatches */
                     " FROM dispatch d CROSS JOIN trace t ON t.id = d.trace"
                     " LEFT JOIN block b ON b.dispatch = d.id"
                     " LEFT JOIN memory mm ON mm.id = b.memory"
                     " WHERE d.dur_ms >= ?1 AND (?2 OR d.dur_ms >= t.short_ms)"
                     " %s%s" KIND_FILTER("d")
                     " ORDER BY %s%s",
                     bq->limit > 0 ? "SELECT * FROM (" : "", fields, filt,
                     /* the dur_ms index holds dispatches from GD_DUR_INDEXED_MS up */
                     bound >= GD_DUR_INDEXED_MS ? GD_SQL_DUR_INDEXED("d") : "",
                     bq->limit > 0 ? "d.dur_ms DESC, d.trace, d.start_ms, d.id LIMIT ?4" : "d.trace, d.start_ms, d.id",
                     bq->limit > 0 ? ") ORDER BY trace, start_ms, id" : "");
    return w < 0 || (size_t)w >= n ? -1 : 0;
}

/* each_block's rows, each filled (from the stored block or derived now)
 * and handed to fn (gd_store_each's callback) */
struct each_ctx {
    gd_store *s;
    const gd_blocks_query *bq;
    int light;
    cfg_list cfgs;
    gd_deriver *dv;
    sqlite3_stmt *mem_q; /* memory of blocks derived on the fly */
    int at_start, at_dur, at_mem, at_in; /* SELECT columns: raw times, memory, BLOCK_INPUTS */
    gd_value v[B_NCOLS];   /* the row being handed on, and what its texts are in: */
    gd_value mem[MM_NCOLS];
    gd_row memrow;
    gd_block_info bi;      /* a block derived now */
    gd_why w;              /* its "why" */
    char why[448];         /* its dominant cause */
    int have_states; /* which "why" data is stored at all (#26) */
    int have_t;      /* ...in the trace have_trace */
    int64_t have_trace;
    block_fn fn;
    void *ctx;
    gd_error *err;
};

/* A C string, null when NULL or empty. */
static void text_or_null(gd_value *v, const char *t)
{
    gd_qv_text(v, t && *t ? t : NULL);
}

/* An id, null when negative (absent). */
static void id_or_null(gd_value *v, int64_t id)
{
    if (id >= 0)
        gd_qv_int(v, id);
    else
        gd_qv_null(v);
}

/* The memory snapshot `id` as the row's memory object, left null when none,
 * through c->mem_q (prepared on first use; its row is the values' until the
 * next call). */
static void memory_by_id(struct each_ctx *c, int64_t id)
{
    if (!c->mem_q) {
        char sql[1024], fields[768];
        if (gd_qcols_select(&memory_cols, fields, sizeof fields))
            return;
        snprintf(sql, sizeof sql, "SELECT %s FROM memory mm WHERE mm.id = ?1", fields);
        if (!(c->mem_q = gd_store_prepare(c->s, sql, NULL)))
            return;
    }
    sqlite3_reset(c->mem_q);
    sqlite3_bind_int64(c->mem_q, 1, id);
    if (sqlite3_step(c->mem_q) != SQLITE_ROW)
        return;
    gd_qcols_read(&memory_cols, c->mem_q, 0, c->mem);
    gd_qv_row(&c->v[B_MEMORY], &c->memrow, &memory_cols, c->mem);
}

/* A stored block: its fields as read, its memory snapshot the one joined
 * (none in the light rows). */
static void block_stored(struct each_ctx *c, sqlite3_stmt *q)
{
    if (c->light || c->v[B_MEMORY].kind == GD_V_NULL) {
        gd_qv_null(&c->v[B_MEMORY]);
        return;
    }
    gd_qcols_read(&memory_cols, q, c->at_mem, c->mem);
    gd_qv_row(&c->v[B_MEMORY], &c->memrow, &memory_cols, c->mem);
}

/* A block below the ingest-time cut (or with stacks wanted): its block
 * fields derived now. */
static int block_derived(struct each_ctx *c, sqlite3_stmt *q, double start, double dur, json_t **stacks)
{
    gd_value *v = c->v;
    gd_block_info *bi = &c->bi;
    const gd_trace_cfg *cfg = cfg_get(c->s, &c->cfgs, v[B_TRACE].u.i, c->err);
    if (!cfg || (!c->dv && !(c->dv = gd_deriver_new(c->s, c->err))))
        return c->err->code ? c->err->code : GD_ERR_IO;
    int rc = gd_deriver_block(c->dv, cfg, v[B_PID].u.i, v[B_TID].u.i, start, start + dur, (int)v[B_UNFINISHED].u.i,
                              sqlite3_column_int64(q, c->at_in + BI_MESSAGE), bi, c->bq->stacks ? stacks : NULL,
                              c->err);
    if (rc)
        return rc;
    if (bi->cpu_busy < 0)
        gd_qv_null(&v[B_CPU_BUSY]);
    else
        gd_qv_bool(&v[B_CPU_BUSY], bi->cpu_busy);
    gd_qv_int(&v[B_SAMPLES], bi->samples);
    text_or_null(&v[B_KEY_FRAME], bi->key_frame);
    text_or_null(&v[B_GROUP], bi->group);
    text_or_null(&v[B_GROUP_RULE], gd_group_rule_name(bi->group_rule));
    text_or_null(&v[B_BLAME], bi->blame);
    gd_qv_null(&v[B_MEMORY]);
    if (!c->light && bi->memory >= 0)
        memory_by_id(c, bi->memory);
    return GD_OK;
}

/* The block's "why" (#26, derive/states.c): the time in each state class,
 * the share with scheduling data, binder and lock waits, the dominant cause
 * as text. */
static int block_why(struct each_ctx *c, int64_t trace, int64_t tid, double start, double dur)
{
    int rc;
    /* the block's own trace's data decides which shares are data */
    if (c->have_states && trace != c->have_trace) {
        if ((rc = gd_why_have_trace(c->s, trace, &c->have_t, c->err)))
            return rc;
        c->have_trace = trace;
    }
    int have = c->have_states ? c->have_t : 0;
    const gd_why *w = &c->w;
    if ((rc = gd_why_in(c->s, have, trace, tid, start, start + dur, &c->w, c->err)))
        return rc;
    double x[GD_WHY_NVALUES];
    gd_why_values(w, have, x); /* which are data: the one rule */
    gd_value *v = c->v;
    for (int i = 0; i <= B_D - B_RUNNING; i++)
        gd_qv_ms(&v[B_RUNNING + i], x[GD_WHY_V_RUNNING + i]);
    gd_qv_real(&v[B_COVERAGE], round(w->states.coverage * 10000.0) / 10000.0);
    gd_qv_ms(&v[B_BINDER_MS], x[GD_WHY_V_BINDER]);
    id_or_null(&v[B_BINDER_PID], w->binder.server_pid);
    text_or_null(&v[B_BINDER_SERVER], w->binder.server_name);
    text_or_null(&v[B_BINDER_AIDL], w->binder.aidl);
    gd_qv_ms(&v[B_LOCK_MS], x[GD_WHY_V_LOCK]);
    id_or_null(&v[B_LOCK_TID], w->lock.owner_tid);
    text_or_null(&v[B_LOCK_OWNER], w->lock.owner);
    text_or_null(&v[B_LOCK_METHOD], w->lock.owner_method);
    gd_why_text(w, dur, c->why, sizeof c->why);
    text_or_null(&v[B_DOMINANT], c->why);
    return GD_OK;
}

static int each_block_row(void *ctx, sqlite3_stmt *q)
{
    struct each_ctx *c = ctx;
    gd_value *v = c->v;
    gd_qcols_read(&block_cols, q, 0, v);
    double start = sqlite3_column_double(q, c->at_start), dur = sqlite3_column_double(q, c->at_dur);
    gd_qv_ms(&v[B_END], start + dur);
    /* the kind filter in the SQL (KIND_FILTER) is the same rule */
    gd_qv_text(&v[B_KIND], gd_block_kind_name(gd_block_kind_at(dur, sqlite3_column_double(q, c->at_in + BI_LONG),
                                                                sqlite3_column_double(q, c->at_in + BI_ANR))));
    json_t *stacks = NULL;
    int rc = GD_OK;
    if (sqlite3_column_int(q, c->at_in + BI_HAVE) && !c->bq->stacks)
        block_stored(c, q);
    else
        rc = block_derived(c, q, start, dur, &stacks);
    if (!rc)
        rc = block_why(c, v[B_TRACE].u.i, v[B_TID].u.i, start, dur);
    gd_qv_json(&v[B_STACKS], stacks); /* the row's own: released with it */
    gd_row row = {block_cols.keys, v, stacks ? B_NCOLS : B_STACKS};
    int stop = rc ? 0 : c->fn(c->ctx, &row, dur);
    gd_qcols_clear(&block_cols, v);
    gd_qcols_clear(&memory_cols, c->mem);
    return rc ? rc : stop ? GD_EACH_STOP : GD_OK;
}

static int each_block(gd_store *s, const gd_blocks_query *bq, block_fn fn, void *ctx, int light,
                      gd_error *err)
{
    char filt[4096], sql[16384], app[512];
    gd_store_filter_sql(&bq->filter, "d.trace", filt, sizeof filt);
    /* --app: the blocks of the app's own processes */
    gd_store_app_sql(&bq->filter, GD_SQL_PROCESS_OF("d", "t"), app, sizeof app);
    strncat(filt, app, sizeof filt - strlen(filt) - 1);
    /* the threshold bound lets SQLite use the dur_ms index */
    double bound = bq->threshold;
    if (!gd_has(bound)) {
        bound = short_over_traces(s, 0, err);
        if (err->code)
            return err->code;
    }
    bound = kind_bound(s, bq->kind, bound);
    if (block_sql(sql, sizeof sql, bq, light, filt, bound))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "blocks: the query is too long");
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    sqlite3_bind_double(q, 1, bound);
    sqlite3_bind_int(q, 2, gd_has(bq->threshold) ? 1 : 0);
    gd_bind_text(q, 3, gd_block_kind_name(bq->kind));
    if (bq->limit > 0)
        sqlite3_bind_int64(q, 4, bq->limit);
    int rc;
    struct each_ctx c = {.s = s, .bq = bq, .light = light, .have_trace = -1, .fn = fn, .ctx = ctx, .err = err};
    c.at_start = gd_qcols_pos(&block_cols, B_START);
    c.at_dur = gd_qcols_pos(&block_cols, B_DUR);
    c.at_mem = gd_qcols_pos(&block_cols, B_NCOLS);
    c.at_in = c.at_mem + gd_qcols_pos(&memory_cols, MM_NCOLS);
    if ((rc = gd_why_have(s, &c.have_states, err)))
        sqlite3_finalize(q);
    else
        rc = gd_store_each(s, q, each_block_row, &c, err);
    sqlite3_finalize(c.mem_q);
    gd_deriver_free(c.dv);
    cfg_list_free(&c.cfgs);
    return rc;
}

/* The caller's callback: rows as JSON (fn) or as plain values (values). */
typedef struct pass_ctx {
    gd_row_fn fn;
    gd_values_fn values;
    void *ctx;
} pass_ctx;

static int pass_row(void *ctx, const gd_row *row, double dur)
{
    pass_ctx *p = ctx;
    if (p->values)
        return p->values(p->ctx, row);
    json_t *j = gd_row_json(row);
    int stop = j ? p->fn(p->ctx, j) : 1;
    json_decref(j);
    return stop;
}

int gd_query_block_values(gd_store *s, const gd_blocks_query *q, gd_values_fn fn, void *ctx,
                          gd_error *err)
{
    pass_ctx p = {NULL, fn, ctx};
    return each_block(s, q, pass_row, &p, 0, err);
}

int gd_query_blocks(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx, gd_error *err)
{
    pass_ctx p = {fn, NULL, ctx};
    return each_block(s, q, pass_row, &p, 0, err);
}

int gd_query_blocks_light(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err)
{
    pass_ctx p = {fn, NULL, ctx};
    return each_block(s, q, pass_row, &p, 1, err);
}

/* ---- block groups ------------------------------------------------------- */

#define GD_GROUP_PROCS 8 /* processes named per group (godeye-blocks(1)) */
typedef struct group_acc {
    char *group, *key_frame, *rule; /* rule: block.grp_rule of its longest block */
    double *durs;
    size_t n, cap;
    double total;
    int64_t *traces;
    size_t ntraces;
    double st[GD_WHY_NVALUES]; /* Σ of its blocks' gd_why_values (#26), NANs as 0 */
    int have;                  /* the OR of its blocks' traces' gd_why_have_trace bits */
    char *procs[GD_GROUP_PROCS]; /* #47: its blocks' processes, the longest block's first */
    size_t nprocs;
    double proc_max;           /* the duration of the block that named procs[0] */
} group_acc;

typedef struct groups {
    group_acc *g;
    size_t n, cap;
    json_t *index; /* group text -> position */
    int oom;
    int have;      /* gd_why_have's bits: which shares have data (#26) */
    json_t *trace_have; /* trace id -> gd_why_have_trace's bits */
} groups;

/* A new, empty group at the end of gs; NULL when out of memory. */
static group_acc *group_new(groups *gs, const char *grp, const char *key_frame, const char *rule)
{
    if (gd_grow((void **)&gs->g, &gs->cap, gs->n + 1, sizeof *gs->g, NULL)) {
        gs->oom = 1;
        return NULL;
    }
    group_acc *g = &gs->g[gs->n++];
    memset(g, 0, sizeof *g);
    g->group = grp ? strdup(grp) : NULL;
    g->key_frame = key_frame ? strdup(key_frame) : NULL;
    g->rule = rule ? strdup(rule) : NULL;
    return g;
}

/* Adds `process` (a block's, NULL unknown) to g's processes: the longest
 * block's first, at most GD_GROUP_PROCS; 0, or 1 when out of memory. */
static int group_process(group_acc *g, const char *process, double dur)
{
    if (!process)
        return 0;
    size_t i = 0;
    while (i < g->nprocs && strcmp(g->procs[i], process) != 0)
        i++;
    if (i == g->nprocs) {
        if (g->nprocs == GD_GROUP_PROCS)
            return 0;
        if (!(g->procs[g->nprocs] = strdup(process)))
            return 1;
        g->nprocs++;
    }
    if (dur > g->proc_max) { /* the longest block's process goes first */
        char *t = g->procs[0];
        g->procs[0] = g->procs[i];
        g->procs[i] = t;
        g->proc_max = dur;
    }
    return 0;
}

/* Adds one block of `dur` ms in `trace` to g; 0, or 1 when out of memory. */
static int group_add(groups *gs, group_acc *g, double dur, int64_t trace, const double *st, int have)
{
    for (int k = 0; st && k < GD_WHY_NVALUES; k++)
        if (!isnan(st[k]))
            g->st[k] += st[k];
    g->have |= have;
    if (gd_grow((void **)&g->durs, &g->cap, g->n + 1, sizeof *g->durs, NULL)) {
        gs->oom = 1;
        return 1;
    }
    g->durs[g->n++] = dur;
    g->total += dur;
    size_t i;
    for (i = 0; i < g->ntraces && g->traces[i] != trace; i++)
        ;
    if (i == g->ntraces) {
        size_t cap = g->ntraces;
        if (gd_grow((void **)&g->traces, &cap, g->ntraces + 1, sizeof *g->traces, NULL)) {
            gs->oom = 1;
            return 1;
        }
        g->traces[g->ntraces++] = trace;
    }
    return 0;
}

static int add_json_to_group(groups *gs, json_t *row, double dur)
{
    const char *grp = json_string_value(json_object_get(row, "group"));
    const char *key = grp ? grp : "";
    json_t *pos = json_object_get(gs->index, key);
    group_acc *g;
    if (pos) {
        g = &gs->g[json_integer_value(pos)];
    } else {
        if (!(g = group_new(gs, grp, json_string_value(json_object_get(row, "key_frame")),
                            json_string_value(json_object_get(row, "group_rule")))))
            return 1;
        json_object_set_new(gs->index, key, json_integer((json_int_t)(gs->n - 1)));
    }
    double st[GD_WHY_NVALUES];
    static const char *const names[4] = {"running_ms", "runnable_ms", "sleeping_ms", "uninterruptible_ms"};
    for (int k = 0; k < 4; k++)
        st[k] = json_number_value(json_object_get(row, names[k]));
    st[GD_WHY_V_COVERED] = json_number_value(json_object_get(row, "states_coverage")) * dur;
    json_t *binder = json_object_get(row, "binder_ms"), *lock = json_object_get(row, "lock_ms");
    st[GD_WHY_V_BINDER] = json_number_value(binder);
    st[GD_WHY_V_LOCK] = json_number_value(lock);
    /* the row's nulls are gd_why_values' (its trace has no such data) */
    int have = (json_is_number(binder) ? GD_WHY_SCHED : 0) | (json_is_number(lock) ? GD_WHY_LOCK : 0);
    if (group_process(g, json_string_value(json_object_get(row, "process")), dur)) {
        gs->oom = 1;
        return 1;
    }
    return group_add(gs, g, dur, json_integer_value(json_object_get(row, "trace")), st, have);
}

static int add_to_group(void *ctx, const gd_row *values, double dur)
{
    json_t *row = gd_row_json(values);
    int rc = !row || add_json_to_group(ctx, row, dur);
    json_decref(row);
    return rc;
}

static int cmp_group_total(const void *a, const void *b)
{
    const group_acc *x = a, *y = b;
    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    if (!x->group || !y->group)
        return x->group ? -1 : (y->group ? 1 : 0);
    return strcmp(x->group, y->group);
}

/* gd_why_have_trace's bits of trace, looked up once per trace. */
static int trace_have(gd_store *s, groups *gs, int64_t trace, int *have, gd_error *err)
{
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)trace);
    json_t *v = json_object_get(gs->trace_have, id);
    if (v) {
        *have = (int)json_integer_value(v);
        return GD_OK;
    }
    int rc = gd_why_have_trace(s, trace, have, err);
    if (!rc && json_object_set_new(gs->trace_have, id, json_integer(*have)))
        rc = gd_error_oom(err);
    return rc;
}

/* The columns of groups_stored's scan, after b.grp (G_GRP); the "%s" are
 * the dispatch's tid and start, NULL without "why" data; and of its key
 * frame lookup.  The process is the block's own pid's (schema 10, #50). */
#define GROUP_COLS(X) X(G_DUR, "b.dur_ms") X(G_TRACE, "b.trace") X(G_TID, "%s") X(G_START, "%s") \
    X(G_PROCESS, GD_SQL_PROCESS_OF("b", "t"))
enum { G_GRP = 0, GROUP_COLS(GD_COL_ENUM) G_NCOLS };
#define KEY_FRAME_COLS(X) X(KF_RULE, "grp_rule")
enum { KF_FRAME = 0, KEY_FRAME_COLS(GD_COL_ENUM) KF_NCOLS };

/* groups_stored's blocks, added to their groups (gd_store_each's
 * callback); kf, the query of a group's key frame */
struct stored_ctx {
    gd_store *s;
    groups *gs;
    sqlite3_stmt *kf;
    group_acc *g; /* the group being filled */
    int have_states;
    gd_error *err;
};

static int stored_row(void *ctx, sqlite3_stmt *st)
{
    struct stored_ctx *c = ctx;
    groups *gs = c->gs;
    const char *grp = (const char *)sqlite3_column_text(st, G_GRP);
    if (!c->g || (grp == NULL) != (c->g->group == NULL) || (grp && strcmp(grp, c->g->group) != 0)) {
        /* the key frame of the group's longest block stands for it */
        if (grp)
            sqlite3_bind_text(c->kf, 1, grp, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(c->kf, 1);
        int found = sqlite3_step(c->kf) == SQLITE_ROW;
        const char *frame = found ? (const char *)sqlite3_column_text(c->kf, KF_FRAME) : NULL;
        const char *rule = found ? (const char *)sqlite3_column_text(c->kf, KF_RULE) : NULL;
        c->g = group_new(gs, grp, frame, rule);
        sqlite3_reset(c->kf);
        if (!c->g)
            return GD_EACH_STOP; /* gs->oom */
    }
    double sh[GD_WHY_NVALUES] = {0};
    int have = 0;
    if (c->have_states) {
        gd_why w;
        double dur = sqlite3_column_double(st, G_DUR), start = sqlite3_column_double(st, G_START);
        int64_t trace = sqlite3_column_int64(st, G_TRACE);
        if (trace_have(c->s, gs, trace, &have, c->err) ||
            gd_why_in(c->s, have, trace, sqlite3_column_int64(st, G_TID), start, start + dur, &w, c->err))
            return c->err->code ? c->err->code : GD_EACH_STOP;
        gd_why_values(&w, have, sh);
    }
    if (group_process(c->g, (const char *)sqlite3_column_text(st, G_PROCESS), sqlite3_column_double(st, G_DUR))) {
        gs->oom = 1;
        return GD_EACH_STOP;
    }
    if (group_add(gs, c->g, sqlite3_column_double(st, G_DUR), sqlite3_column_int64(st, G_TRACE), sh, have))
        return GD_EACH_STOP; /* gs->oom */
    return GD_OK;
}

/* Groups from the stored block rows in one scan ordered by (group,
 * duration): one group's durations in memory at a time.  Used when every
 * selected dispatch has a stored block row (threshold at or above each
 * trace's short threshold). */
static int groups_stored(gd_store *s, const gd_blocks_query *q, double bound, groups *gs,
                         gd_error *err)
{
    char filt[4096], sql[8192], app[512];
    /* the traces of --trace and --app: "+" keeps the ordered scan of
     * block_grp the plan (#50: without statistics SQLite took block_trace
     * for --app and sorted every block, 1.2 s instead of 0.3 s on 10M
     * dispatches) */
    gd_store_filter_sql(&q->filter, "+b.trace", filt, sizeof filt);
    /* --app: the blocks of the app's own processes (their dispatch's pid,
     * kept in block) */
    gd_store_app_sql(&q->filter, GD_SQL_PROCESS_OF("b", "t"), app, sizeof app);
    strncat(filt, app, sizeof filt - strlen(filt) - 1);
    /* block_grp (grp, dur_ms, trace, pid) covers the scan; the kind needs
     * the trace's thresholds (a small table); the dispatch row only for
     * its thread and start, with "why" data (#50: 440k random lookups in
     * a 10M-dispatch table made the scan 19x slower) */
    int have_states = gs->have; /* which "why" data is stored at all (#26) */
    snprintf(sql, sizeof sql,
             "SELECT b.grp" GROUP_COLS(GD_COL_SQL) " FROM block b JOIN trace t ON t.id = b.trace%s"
             " WHERE b.dur_ms >= ?1 AND (?2 OR b.dur_ms >= t.short_ms)"
             " %s" KIND_FILTER("b") " ORDER BY b.grp, b.dur_ms",
             have_states ? "d.tid" : "NULL", have_states ? "d.start_ms" : "NULL",
             have_states ? " JOIN dispatch d ON d.id = b.dispatch" : "", filt);
    sqlite3_stmt *st = gd_store_prepare(s, sql, err);
    if (!st)
        return err->code;
    sqlite3_bind_double(st, 1, bound);
    sqlite3_bind_int(st, 2, gd_has(q->threshold) ? 1 : 0);
    gd_bind_text(st, 3, gd_block_kind_name(q->kind));
    sqlite3_stmt *kf = gd_store_prepare(s, "SELECT key_frame" KEY_FRAME_COLS(GD_COL_SQL) " FROM block WHERE grp IS ?1"
                                           " ORDER BY dur_ms DESC LIMIT 1", err);
    if (!kf) {
        sqlite3_finalize(st);
        return err->code;
    }
    struct stored_ctx c = {s, gs, kf, NULL, have_states, err};
    int rc = gd_store_each(s, st, stored_row, &c, err);
    sqlite3_finalize(kf);
    return rc;
}

/* A trace's app version, by its id, into the object ctx (gd_store_each's
 * callback). */
enum { V_ID, V_NAME }; /* "SELECT id, version_name FROM trace ..." */
static int version_row(void *ctx, sqlite3_stmt *vq)
{
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)sqlite3_column_int64(vq, V_ID));
    json_object_set_new(ctx, id, gd_col_text(vq, V_NAME));
    return GD_OK;
}

/* Releases gs's groups and its indexes. */
static void groups_free(groups *gs)
{
    for (size_t i = 0; i < gs->n; i++) {
        for (size_t k = 0; k < gs->g[i].nprocs; k++)
            free(gs->g[i].procs[k]);
        free(gs->g[i].group);
        free(gs->g[i].key_frame);
        free(gs->g[i].rule);
        free(gs->g[i].durs);
        free(gs->g[i].traces);
    }
    free(gs->g);
    json_decref(gs->index);
    json_decref(gs->trace_have);
}

enum { GD_BLOCK_GROUP_COLS(GD_QC_ID, GD_QC_ID) BG_NCOLS };
GD_QCOLS_DEFINE(group_cols, GD_BLOCK_GROUP_COLS);

/* The first and last app version (gd_version_cmp) of g's traces, by the
 * object versions (trace id -> version); NULL when none is known. */
static void group_versions(const group_acc *g, json_t *versions, const char **first, const char **last)
{
    *first = *last = NULL;
    for (size_t t = 0; t < g->ntraces; t++) {
        char id[32];
        snprintf(id, sizeof id, "%lld", (long long)g->traces[t]);
        const char *v = json_string_value(json_object_get(versions, id));
        if (v && (!*first || gd_version_cmp(v, *first) < 0))
            *first = v;
        if (v && (!*last || gd_version_cmp(v, *last) > 0))
            *last = v;
    }
}

/* A group's row (GD_BLOCK_GROUP_COLS; its durations sorted); NULL when out
 * of memory. */
static json_t *group_row(group_acc *g, json_t *versions)
{
    gd_value v[BG_NCOLS];
    if (g->n > 1)
        gd_stats_sort(g->durs, g->n);
    gd_qv_text(&v[BG_GROUP], g->group);
    gd_qv_text(&v[BG_KEY_FRAME], g->key_frame);
    gd_qv_text(&v[BG_RULE], g->rule);
    gd_qv_int(&v[BG_COUNT], (int64_t)g->n);
    gd_qv_ms(&v[BG_TOTAL], g->total);
    gd_qv_ms(&v[BG_MAX], g->durs[g->n - 1]);
    gd_qv_ms(&v[BG_P50], gd_percentile(g->durs, g->n, 50));
    gd_qv_ms(&v[BG_P95], gd_percentile(g->durs, g->n, 95));
    gd_qv_int(&v[BG_TRACES], (int64_t)g->ntraces);
    /* #47: whose blocks: the longest one's process, and every process of
     * them (at most GD_GROUP_PROCS) */
    gd_qv_text(&v[BG_PROCESS], g->nprocs ? g->procs[0] : NULL);
    json_t *procs = json_array();
    for (size_t k = 0; procs && k < g->nprocs; k++)
        json_array_append_new(procs, json_string(g->procs[k]));
    gd_qv_json(&v[BG_PROCESSES], procs);
    const char *first, *last;
    group_versions(g, versions, &first, &last);
    gd_qv_text(&v[BG_FIRST], first);
    gd_qv_text(&v[BG_LAST], last);
    /* #26: the group's time by state, binder and lock waits, as shares of
     * its total (null where none of its traces has such data): the fields
     * stand in their place, gd_why_shares_json gives their values */
    for (int k = BG_RUNNING; k <= BG_LOCK; k++)
        gd_qv_null(&v[k]);
    json_t *row = gd_qcols_json(&group_cols, v);
    gd_qcols_clear(&group_cols, v);
    if (row && gd_why_shares_json(row, g->st, g->total, g->have)) {
        json_decref(row);
        return NULL;
    }
    return row;
}

int gd_query_block_groups(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err)
{
    groups gs = {0};
    gs.index = json_object();
    gs.trace_have = json_object();
    int rc;
    if ((rc = gd_why_have(s, &gs.have, err))) {
        json_decref(gs.index);
        json_decref(gs.trace_have);
        return rc;
    }
    gd_blocks_query lq = *q;
    lq.stacks = 0;
    lq.limit = 0; /* groups are made of every block; the limit cuts groups */
    /* stored block rows cover the query when the threshold is at or above
     * every trace's short threshold (the ingest-time cut) */
    double max_short = short_over_traces(s, 1, NULL);
    if (!gd_has(q->threshold) || q->threshold >= max_short)
        rc = groups_stored(s, &lq, kind_bound(s, q->kind, gd_has(q->threshold) ? q->threshold : 0),
                           &gs, err);
    else
        rc = each_block(s, &lq, add_to_group, &gs, 1, err);
    if (!rc && gs.oom)
        rc = gd_error_oom(err);
    /* each trace's app version, for the first and last version a group
     * was seen in */
    json_t *versions = json_object();
    if (!rc) {
        sqlite3_stmt *vq = gd_store_prepare(s, "SELECT id, version_name FROM trace"
                                               " WHERE version_name IS NOT NULL", err);
        if (!vq)
            rc = err->code;
        else /* a read error leaves versions unknown (as before) */
            gd_store_each(s, vq, version_row, versions, NULL);
    }
    if (!rc) {
        if (gs.n) /* gd_sort(NULL, 0) is undefined */
            gd_sort(gs.g, gs.n, sizeof *gs.g, cmp_group_total);
        /* --limit: the first groups (the largest totals) */
        size_t n = q->limit > 0 && (uint64_t)q->limit < gs.n ? (size_t)q->limit : gs.n;
        for (size_t i = 0; i < n; i++) {
            json_t *row = group_row(&gs.g[i], versions);
            if (!row) {
                rc = gd_error_oom(err);
                break;
            }
            int stop = fn(ctx, row);
            json_decref(row);
            if (stop)
                break;
        }
    }
    groups_free(&gs);
    json_decref(versions);
    return rc;
}
