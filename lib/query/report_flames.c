/* query/report_flames.c - stack samples aggregated by callsite: group flames and folded stacks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query/blocks.h"
#include "store/sql.h"
#include "query/report_int.h"
#include "query/report_series.h"
#include "core/util.h"

/* ---- callsite aggregation (flames, folded stacks) ----------------------- */

typedef struct cs_ent {
    int64_t id;         /* 0 = empty slot */
    int64_t parent, frame;
    int depth;
    long self, total;
    json_t *node;       /* flame node while building */
} cs_ent;

typedef struct cs_agg {
    gd_store *s;
    cs_ent *e;
    size_t cap, n;
    sqlite3_stmt *samples, *callsite, *frame;
    long nsamples;
} cs_agg;

/* The columns of the three lookups: a block's samples, a callsite, a frame. */
enum { SA_CALLSITE, SA_TS };
enum { CS_PARENT, CS_FRAME, CS_DEPTH };
enum { FR_TEXT };

static int agg_init(cs_agg *a, gd_store *s, gd_error *err)
{
    memset(a, 0, sizeof *a);
    a->s = s;
    a->samples = gd_store_prepare(s, "SELECT callsite, ts_ms FROM sample WHERE trace = ?1 AND pid = ?2"
                                     " AND tid = ?3 AND ts_ms > ?4 AND (ts_ms < ?5 OR (?6 AND ts_ms = ?5))"
                                     " ORDER BY ts_ms, id", err);
    a->callsite = gd_store_prepare(s, "SELECT parent, frame, depth FROM callsite WHERE id = ?", err);
    a->frame = gd_store_prepare(s, "SELECT text FROM frame WHERE id = ?", err);
    return a->samples && a->callsite && a->frame ? GD_OK : (err->code ? err->code : GD_ERR_IO);
}

static void agg_reset(cs_agg *a)
{
    for (size_t i = 0; i < a->cap; i++)
        json_decref(a->e[i].node);
    free(a->e);
    a->e = NULL;
    a->cap = a->n = 0;
    a->nsamples = 0;
}

static void agg_free(cs_agg *a)
{
    agg_reset(a);
    sqlite3_finalize(a->samples);
    sqlite3_finalize(a->callsite);
    sqlite3_finalize(a->frame);
}

static cs_ent *agg_slot(cs_agg *a, int64_t id)
{
    size_t h = (size_t)((uint64_t)id * 0x9E3779B97F4A7C15ull >> 20);
    for (size_t i = h & (a->cap - 1);; i = (i + 1) & (a->cap - 1))
        if (a->e[i].id == id || a->e[i].id == 0)
            return &a->e[i];
}

/* The entry of callsite `id`, loaded on first use; NULL on failure. */
static cs_ent *agg_get(cs_agg *a, int64_t id, gd_error *err)
{
    if (a->cap) {
        cs_ent *e = agg_slot(a, id);
        if (e->id)
            return e;
    }
    if (a->n * 2 >= a->cap) {
        size_t oc = a->cap, nc = oc ? oc * 2 : 1024;
        cs_ent *old = a->e;
        a->e = calloc(nc, sizeof *a->e);
        if (!a->e) {
            a->e = old;
            gd_error_oom(err);
            return NULL;
        }
        a->cap = nc;
        for (size_t i = 0; i < oc; i++)
            if (old[i].id)
                *agg_slot(a, old[i].id) = old[i];
        free(old);
    }
    cs_ent *e = agg_slot(a, id);
    if (e->id)
        return e;
    sqlite3_bind_int64(a->callsite, 1, id);
    if (sqlite3_step(a->callsite) != SQLITE_ROW) {
        sqlite3_reset(a->callsite);
        gd_error_set(err, GD_ERR_DATA, 0, 0, "database: callsite %lld missing", (long long)id);
        return NULL;
    }
    e->id = id;
    e->parent = sqlite3_column_int64(a->callsite, CS_PARENT);
    e->frame = sqlite3_column_int64(a->callsite, CS_FRAME);
    e->depth = sqlite3_column_int(a->callsite, CS_DEPTH);
    sqlite3_reset(a->callsite);
    a->n++;
    return e;
}

/* The text of frame `id` into a new json string (NULL when missing). */
static json_t *frame_text(cs_agg *a, int64_t id)
{
    sqlite3_bind_int64(a->frame, 1, id);
    json_t *j = sqlite3_step(a->frame) == SQLITE_ROW ? gd_col_text(a->frame, FR_TEXT) : json_string("?");
    sqlite3_reset(a->frame);
    return j;
}

/* agg_block's samples, counted (gd_store_each_reuse's callback) */
struct samples_ctx {
    cs_agg *a;
    void (*on_sample)(void *, int64_t cs, double ts);
    void *sctx;
    gd_error *err;
};

static int sample_row(void *ctx, sqlite3_stmt *q)
{
    struct samples_ctx *c = ctx;
    int64_t cs = sqlite3_column_int64(q, SA_CALLSITE);
    cs_ent *e = agg_get(c->a, cs, c->err);
    if (!e)
        return c->err->code;
    e->self++;
    c->a->nsamples++;
    if (c->on_sample)
        c->on_sample(c->sctx, cs, sqlite3_column_double(q, SA_TS));
    return GD_OK;
}

/* Counts the samples of one block; calls on_sample for each (may be NULL). */
static int agg_block(cs_agg *a, int64_t trace, int64_t pid, int64_t tid, double start, double end,
                     int unfinished, void (*on_sample)(void *, int64_t cs, double ts), void *sctx,
                     gd_error *err)
{
    sqlite3_stmt *q = a->samples;
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_int64(q, 2, pid);
    sqlite3_bind_int64(q, 3, tid);
    sqlite3_bind_double(q, 4, start);
    sqlite3_bind_double(q, 5, end);
    sqlite3_bind_int(q, 6, unfinished ? 1 : 0);
    struct samples_ctx c = {a, on_sample, sctx, err};
    return gd_store_each_reuse(a->s, q, sample_row, &c, err);
}

/* Propagates self counts to every ancestor (totals). */
static int agg_totals(cs_agg *a, gd_error *err)
{
    size_t cap = a->cap;
    int64_t *ids = malloc((a->n + 1) * sizeof *ids);
    if (!ids)
        return gd_error_oom(err);
    size_t n = 0;
    for (size_t i = 0; i < cap; i++)
        if (a->e[i].id && a->e[i].self)
            ids[n++] = a->e[i].id;
    int rc = GD_OK;
    for (size_t k = 0; k < n && !rc; k++) {
        long self = agg_slot(a, ids[k])->self;
        int64_t id = ids[k];
        int guard = 0;
        while (id && guard++ < 100000) {
            cs_ent *e = agg_get(a, id, err); /* may grow the table */
            if (!e) {
                rc = err->code;
                break;
            }
            e->total += self;
            id = e->parent;
        }
    }
    free(ids);
    return rc;
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

static int cmp_ent(const void *x, const void *y)
{
    const cs_ent *a = *(cs_ent *const *)x, *b = *(cs_ent *const *)y;
    if (a->depth != b->depth)
        return a->depth - b->depth;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* The icicle tree of the aggregated samples, nodes under `min` dropped, and
 * those FLAME_MAX_DEPTH and more below the root cut (a stack can be as
 * deep as the input; a tree that deep would cost a recursion per level to
 * write and free).  The root's "cut" counts the nodes cut at that depth. */
#define FLAME_MAX_DEPTH 1024
static json_t *agg_flame(cs_agg *a, long min)
{
    json_t *root = json_pack("{s:s s:I s:[]}", "name", "all", "value", (json_int_t)a->nsamples,
                             "children");
    cs_ent **kept = malloc((a->n + 1) * sizeof *kept);
    if (!kept)
        return root;
    size_t n = 0;
    for (size_t i = 0; i < a->cap; i++)
        if (a->e[i].id && a->e[i].total >= min && a->e[i].total > 0)
            kept[n++] = &a->e[i];
    gd_sort(kept, n, sizeof *kept, cmp_ent);
    long cut = 0;
    for (size_t i = 0; i < n; i++) {
        cs_ent *e = kept[i];
        if (e->depth >= FLAME_MAX_DEPTH) {
            cut += e->depth == FLAME_MAX_DEPTH;
            continue;
        }
        e->node = json_pack("{s:o s:I s:[]}", "name", frame_text(a, e->frame), "value",
                            (json_int_t)e->total, "children");
        json_t *parent = root;
        if (e->parent) {
            cs_ent *p = agg_slot(a, e->parent);
            parent = p->id && p->node ? p->node : NULL;
        }
        if (parent)
            json_array_append(json_object_get(parent, "children"), e->node);
    }
    free(kept);
    if (cut)
        json_object_set_new(root, "cut", json_integer(cut));
    return root;
}

/* ---- group flames ------------------------------------------------------- */

typedef struct flame_ctx {
    gd_store *s;
    const gd_flame_query *q;
    cs_agg agg;
    json_t *rows; /* group rows collected from gd_query_block_groups */
} flame_ctx;

static int collect_row(void *ctx, json_t *row)
{
    json_array_append(ctx, row);
    return 0;
}

typedef struct stack_rec {
    json_t *stacks;   /* of the current block, or NULL when not recorded */
    int max;
} stack_rec;

static void record_sample(void *ctx, int64_t cs, double ts)
{
    stack_rec *r = ctx;
    if (r->stacks && json_array_size(r->stacks) < (size_t)r->max)
        json_array_append_new(r->stacks, json_pack("{s:f s:I}", "ts_ms", gd_ms_round(ts), "cs", (json_int_t)cs));
}

/* Turns {ts_ms, cs} into {ts_ms, frames: [indexes into the frame table]}. */
static int resolve_stacks(cs_agg *a, json_t *stacks, json_t *table, json_t *index, gd_error *err)
{
    size_t i;
    json_t *st;
    json_array_foreach(stacks, i, st) {
        int64_t id = json_integer_value(json_object_get(st, "cs"));
        json_t *fr = json_array();
        int guard = 0;
        while (id && guard++ < 100000) {
            cs_ent *e = agg_get(a, id, err);
            if (!e) {
                json_decref(fr);
                return err->code;
            }
            char key[32];
            snprintf(key, sizeof key, "%lld", (long long)e->frame);
            json_t *pos = json_object_get(index, key);
            if (!pos) {
                pos = json_integer((json_int_t)json_array_size(table));
                json_object_set_new(index, key, pos);
                json_array_append_new(table, frame_text(a, e->frame));
            }
            json_array_append(fr, pos);
            id = e->parent;
        }
        json_object_del(st, "cs");
        json_object_set_new(st, "frames", fr);
    }
    return GD_OK;
}

/* flame_group's blocks: the first max_blocks listed with their stacks,
 * every one's samples counted (gd_store_each's callback) */
struct flame_blocks {
    flame_ctx *fc;
    json_t *blocks;
    int nb;
    gd_error *err;
};

static int flame_block_row(void *ctx, sqlite3_stmt *q)
{
    struct flame_blocks *c = ctx;
    const gd_flame_query *fq = c->fc->q;
    stack_rec rec = {NULL, fq->max_samples};
    if (c->nb < fq->max_blocks) {
        json_t *b = gd_report_block_row(q);
        rec.stacks = json_array();
        json_object_set_new(b, "stacks", rec.stacks);
        json_array_append_new(c->blocks, b);
        c->nb++;
    }
    double start = sqlite3_column_double(q, RB_START);
    return agg_block(&c->fc->agg, sqlite3_column_int64(q, RB_TRACE), sqlite3_column_int64(q, RB_PID),
                     sqlite3_column_int64(q, RB_TID), start, start + sqlite3_column_double(q, RB_DUR),
                     sqlite3_column_int(q, RB_UNFINISHED), record_sample, &rec, c->err);
}

/* What a group's flame adds to its row (gd_query_group_flames), declared
 * once (query/columns.h): its samples, its flame graph, the frame table
 * its blocks' stacks index, its blocks (gd_report_block_row's, with their
 * stacks).  All computed. */
#define FLAME_COLS(X, J)                                 \
    J(FL_SAMPLES, NULL, "samples", NULL, INT, 0)          \
    J(FL_FLAME, NULL, "flame", NULL, TEXT, 0)             \
    J(FL_FRAMES, NULL, "frames", NULL, TEXT, 0)           \
    J(FL_BLOCKS, NULL, "blocks", NULL, TEXT, 0)
enum { FLAME_COLS(GD_QC_ID, GD_QC_ID) FL_NCOLS };
GD_QCOLS_DEFINE(flame_cols, FLAME_COLS);

/* The group row's flame fields added (FLAME_COLS, new references taken);
 * 0, or -1 when out of memory. */
static int flame_fields(json_t *row, long samples, json_t *flame, json_t *frames, json_t *blocks)
{
    gd_value v[FL_NCOLS];
    gd_qv_int(&v[FL_SAMPLES], samples);
    gd_qv_json(&v[FL_FLAME], flame);
    gd_qv_json(&v[FL_FRAMES], json_incref(frames));
    gd_qv_json(&v[FL_BLOCKS], json_incref(blocks));
    json_t *add = gd_qcols_json(&flame_cols, v);
    gd_qcols_clear(&flame_cols, v);
    int rc = !add || json_object_update(row, add) ? -1 : 0;
    json_decref(add);
    return rc;
}

static int flame_group(flame_ctx *fc, json_t *row, gd_error *err)
{
    const gd_flame_query *fq = fc->q;
    char fl[4096], sql[12288], fields[4096];
    gd_store_filter_sql(&fq->filter, "d.trace", fl, sizeof fl);
    if (gd_report_block_select(fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "flames: the SELECT list of a block is too long");
    snprintf(sql, sizeof sql,
             "SELECT %s FROM block b JOIN dispatch d ON d.id = b.dispatch"
             " JOIN trace t ON t.id = d.trace" BLOCK_MSG " WHERE b.grp IS ?1 AND d.dur_ms >= t.short_ms"
             " %s ORDER BY d.dur_ms DESC, d.id",
             fields, fl);
    sqlite3_stmt *q = gd_store_prepare(fc->s, sql, err);
    if (!q)
        return err->code;
    json_t *grp = json_object_get(row, "group");
    if (json_is_string(grp))
        sqlite3_bind_text(q, 1, json_string_value(grp), -1, SQLITE_TRANSIENT);
    agg_reset(&fc->agg);
    json_t *blocks = json_array(), *table = json_array(), *index = json_object();
    struct flame_blocks c = {fc, blocks, 0, err};
    int rc = gd_store_each(fc->s, q, flame_block_row, &c, err);
    if (!rc)
        rc = agg_totals(&fc->agg, err);
    size_t i;
    json_t *b;
    json_array_foreach(blocks, i, b) {
        if (rc)
            break;
        rc = resolve_stacks(&fc->agg, json_object_get(b, "stacks"), table, index, err);
    }
    if (!rc) {
        long min = (long)ceil(fq->prune * (double)fc->agg.nsamples);
        if (flame_fields(row, fc->agg.nsamples, agg_flame(&fc->agg, min < 1 ? 1 : min), table, blocks))
            rc = gd_error_oom(err);
    }
    json_decref(blocks);
    json_decref(table);
    json_decref(index);
    agg_reset(&fc->agg);
    return rc;
}

int gd_query_group_flames(gd_store *s, const gd_flame_query *fq, gd_row_fn fn, void *ctx,
                          gd_error *err)
{
    flame_ctx fc = {s, fq, {0}, json_array()};
    gd_blocks_query bq = {.filter = fq->filter, .threshold = NAN, .kind = GD_KIND_NONE};
    int rc = gd_query_block_groups(s, &bq, collect_row, fc.rows, err);
    if (!rc)
        rc = agg_init(&fc.agg, s, err);
    size_t i;
    json_t *row;
    json_array_foreach(fc.rows, i, row) {
        if (rc || (fq->max_groups > 0 && i >= (size_t)fq->max_groups))
            break;
        if ((rc = flame_group(&fc, row, err)))
            break;
        if (fn(ctx, row))
            break;
    }
    agg_free(&fc.agg);
    json_decref(fc.rows);
    return rc;
}

/* ---- folded stacks ------------------------------------------------------ */

/* Appends the chain of `id`, root first, to buf (';'-separated).  A loop,
 * not a recursion: a chain is as deep as the input's stack (300k frames
 * and more). */
/* Appends one part of a folded line to buf (length *len, capacity *bcap):
 * ';' before it unless buf is empty, a ';' inside it as ','.  The text
 * grows geometrically: one realloc per frame would copy the whole chain at
 * every frame (quadratic where realloc cannot grow in place, as under
 * ASan). */
static int folded_part(char **buf, size_t *len, size_t *bcap, const char *txt, gd_error *err)
{
    size_t tl = strlen(txt);
    if (*len + tl + 2 > *bcap) {
        size_t nc = *bcap * 2 > *len + tl + 2 ? *bcap * 2 : *len + tl + 2 + 256;
        char *nb = realloc(*buf, nc);
        if (!nb)
            return gd_error_oom(err);
        *buf = nb;
        *bcap = nc;
    }
    char *nb = *buf;
    if (*len)
        nb[(*len)++] = ';';
    for (size_t i = 0; i < tl; i++)
        nb[(*len)++] = txt[i] == ';' ? ',' : txt[i];
    nb[*len] = 0;
    return GD_OK;
}

static int chain_text(cs_agg *a, int64_t id, char **buf, size_t *len, size_t *bcap, gd_error *err)
{
    int64_t *frames = NULL;
    size_t n = 0, cap = 0;
    int rc = GD_OK;
    while (id) {
        cs_ent *e = agg_get(a, id, err);
        if (!e) {
            rc = err->code;
            break;
        }
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            int64_t *nf = realloc(frames, nc * sizeof *nf);
            if (!nf) {
                rc = gd_error_oom(err);
                break;
            }
            frames = nf;
            cap = nc;
        }
        frames[n++] = e->frame;
        id = e->parent;
    }
    while (!rc && n > 0) {
        json_t *t = frame_text(a, frames[--n]);
        rc = folded_part(buf, len, bcap, json_string_value(t) ? json_string_value(t) : "?", err);
        json_decref(t);
    }
    free(frames);
    return rc;
}

/* gd_query_folded's blocks, their samples counted (gd_store_each's callback) */
struct folded_ctx {
    cs_agg *a;
    gd_error *err;
};

static int folded_block_row(void *ctx, sqlite3_stmt *q)
{
    struct folded_ctx *c = ctx;
    double start = sqlite3_column_double(q, RB_START);
    return agg_block(c->a, sqlite3_column_int64(q, RB_TRACE), sqlite3_column_int64(q, RB_PID),
                     sqlite3_column_int64(q, RB_TID), start, start + sqlite3_column_double(q, RB_DUR),
                     sqlite3_column_int(q, RB_UNFINISHED), NULL, NULL, c->err);
}

/* An aggregation and the query that feeds it; NULL (nothing left open)
 * with err set when either cannot be made. */
static sqlite3_stmt *agg_open(cs_agg *a, gd_store *s, const char *sql, gd_error *err)
{
    sqlite3_stmt *q = agg_init(a, s, err) ? NULL : gd_store_prepare(s, sql, err);
    if (!q)
        agg_free(a);
    return q;
}

/* The callsites aggregated in `a` with samples, in id order (stable), as
 * rows {stack: "[prefix;]root;...;leaf", count}: the one way folded lines
 * are made. */
static int folded_rows(cs_agg *a, const char *prefix, gd_row_fn fn, void *ctx, int *stopped, gd_error *err)
{
    size_t n = 0;
    int rc = GD_OK;
    int64_t *ids = malloc((a->n + 1) * sizeof *ids);
    if (!ids)
        return gd_error_oom(err);
    for (size_t i = 0; i < a->cap; i++)
        if (a->e[i].id && a->e[i].self)
            ids[n++] = a->e[i].id;
    gd_sort(ids, n, sizeof *ids, cmp_i64);
    for (size_t i = 0; !rc && i < n && !*stopped; i++) {
        char *buf = NULL;
        size_t len = 0, bcap = 0;
        long self = agg_slot(a, ids[i])->self;
        if ((prefix && (rc = folded_part(&buf, &len, &bcap, prefix, err))) ||
            (rc = chain_text(a, ids[i], &buf, &len, &bcap, err))) {
            free(buf);
            break;
        }
        json_t *row = json_pack("{s:s s:I}", "stack", buf ? buf : "", "count", (json_int_t)self);
        free(buf);
        *stopped = fn(ctx, row);
        json_decref(row);
    }
    free(ids);
    return rc;
}

int gd_query_folded(gd_store *s, const gd_filter *f, const char *group, gd_row_fn fn, void *ctx,
                    gd_error *err)
{
    char fl[4096], sql[8192];
    gd_store_filter_sql(f, "d.trace", fl, sizeof fl);
    snprintf(sql, sizeof sql,
             "SELECT " BLOCK_CORE " FROM block b JOIN dispatch d ON d.id = b.dispatch"
             " JOIN trace t ON t.id = d.trace WHERE (?1 IS NULL OR b.grp = ?1) AND d.dur_ms >= t.short_ms"
             " %s ORDER BY d.trace, d.start_ms, d.id",
             fl);
    cs_agg a;
    sqlite3_stmt *q = agg_open(&a, s, sql, err);
    if (!q)
        return err->code ? err->code : GD_ERR_IO;
    if (group)
        sqlite3_bind_text(q, 1, group, -1, SQLITE_TRANSIENT);
    struct folded_ctx c = {&a, err};
    int rc = gd_store_each(s, q, folded_block_row, &c, err);
    int stopped = 0;
    if (!rc)
        rc = folded_rows(&a, NULL, fn, ctx, &stopped, err);
    agg_free(&a);
    return rc;
}

/* Every stack sample, one thread at a time: its callsites aggregated, then
 * its folded rows under its name. */
enum { FS_TRACE, FS_PID, FS_TID, FS_FIRST, FS_LAST, FS_NAME };

struct folded_thread_ctx {
    cs_agg *a;
    gd_row_fn fn;
    void *ctx;
    int stopped;
    gd_error *err;
};

static int folded_thread_row(void *ctx, sqlite3_stmt *q)
{
    struct folded_thread_ctx *c = ctx;
    int rc = agg_block(c->a, sqlite3_column_int64(q, FS_TRACE), sqlite3_column_int64(q, FS_PID),
                       sqlite3_column_int64(q, FS_TID), sqlite3_column_double(q, FS_FIRST) - 1.0,
                       sqlite3_column_double(q, FS_LAST), 1, NULL, NULL, c->err);
    if (!rc)
        rc = folded_rows(c->a, (const char *)sqlite3_column_text(q, FS_NAME), c->fn, c->ctx, &c->stopped, c->err);
    agg_reset(c->a);
    return rc ? rc : c->stopped ? GD_EACH_STOP : GD_OK;
}

int gd_query_folded_samples(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err)
{
    char fl[4096], app[4096], sql[12288];
    gd_store_filter_sql(f, "trace", fl, sizeof fl);
    gd_store_app_sql(f, GD_SQL_PROCESS_OF("d", "t"), app, sizeof app);
    snprintf(sql, sizeof sql,
             "WITH th AS (SELECT trace, pid, tid, min(ts_ms) AS first, max(ts_ms) AS last FROM sample"
             " WHERE 1 %s GROUP BY trace, pid, tid)"
             " SELECT d.trace, d.pid, d.tid, d.first, d.last, coalesce(nullif(n.name, ''), CAST(d.tid AS TEXT))"
             " FROM th d JOIN trace t ON t.id = d.trace"
             " LEFT JOIN thread n ON n.trace = d.trace AND n.pid = d.pid AND n.tid = d.tid WHERE 1 %s"
             " ORDER BY d.trace, d.pid, d.tid",
             fl, app);
    cs_agg a;
    sqlite3_stmt *q = agg_open(&a, s, sql, err);
    if (!q)
        return err->code ? err->code : GD_ERR_IO;
    struct folded_thread_ctx c = {&a, fn, ctx, 0, err};
    int rc = gd_store_each(s, q, folded_thread_row, &c, err);
    agg_free(&a);
    return rc;
}
