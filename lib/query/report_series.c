/* query/report_series.c - bounded queries for the report and the exports (binned series, flames). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/frames.h"
#include "store/store_int.h"
#include "query/report_series.h"
#include "core/util.h"

/* ---- helpers ------------------------------------------------------------ */

static const char *kind_name(double dur, double long_ms, double anr_ms)
{
    return gd_block_kind_name(gd_block_kind_at(dur, long_ms, anr_ms));
}

/* "(SELECT id FROM trace WHERE <live> <filter>)" into buf. */
static void trace_set(const gd_filter *f, char *buf, size_t n)
{
    char fl[4096];
    gd_store_filter_sql(f, "id", fl, sizeof fl);
    snprintf(buf, n, "(SELECT id FROM trace WHERE 1 %s)", fl);
}

/* One number from a query with one %s (the trace set); -1 on failure. */
static int64_t count_of(gd_store *s, const char *fmt, const char *set, gd_error *err)
{
    char sql[8192];
    snprintf(sql, sizeof sql, fmt, set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return -1;
    int64_t v = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
    if (v < 0)
        gd_store_fail(s, err, "database read");
    sqlite3_finalize(q);
    return v;
}

#define BLOCKS_FROM "FROM block b JOIN dispatch d ON d.id = b.dispatch JOIN trace t ON t.id = d.trace"
#define BLOCKS_IN_SET " WHERE d.dur_ms >= t.short_ms AND b.trace IN %s"
#define BLOCKS_OF_SET BLOCKS_FROM BLOCKS_IN_SET

/* ---- counts and worst blocks -------------------------------------------- */

int gd_store_report_counts(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err)
{
    static const struct {
        const char *key, *sql;
    } counts[] = {
        {"traces", "SELECT count(*) FROM trace WHERE id IN %s"},
        {"dispatches", "SELECT count(*) FROM dispatch WHERE trace IN %s"},
        {"blocks", "SELECT count(*) " BLOCKS_OF_SET},
        {"short", "SELECT count(*) " BLOCKS_OF_SET " AND " GD_SQL_BLOCK_KIND("d", "t") " = 'short'"},
        {"long", "SELECT count(*) " BLOCKS_OF_SET " AND " GD_SQL_BLOCK_KIND("d", "t") " = 'long'"},
        {"anr", "SELECT count(*) " BLOCKS_OF_SET " AND " GD_SQL_BLOCK_KIND("d", "t") " = 'anr'"},
        {"samples", "SELECT count(*) FROM sample WHERE trace IN %s"},
        {"pages", "SELECT count(*) FROM (SELECT DISTINCT trace, page_class, page_hash FROM page_event"
                  " WHERE trace IN %s)"},
        {"dumps", "SELECT count(*) FROM view_dump WHERE trace IN %s"},
        {"images", "SELECT count(*) FROM image WHERE trace IN %s"},
        {"frames", "SELECT count(*) FROM frame_time WHERE trace IN %s"},
    };
    char set[4200];
    trace_set(f, set, sizeof set);
    json_t *row = json_object();
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        int64_t v = count_of(s, counts[i].sql, set, err);
        if (v < 0) {
            json_decref(row);
            return err->code ? err->code : GD_ERR_IO;
        }
        json_object_set_new(row, counts[i].key, json_integer(v));
    }
    char sql[8192];
    snprintf(sql, sizeof sql, "SELECT min(start_ms), max(end_ms) FROM trace WHERE id IN %s", set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q) {
        json_decref(row);
        return err->code;
    }
    if (sqlite3_step(q) == SQLITE_ROW) {
        json_object_set_new(row, "start_ms", gd_col_ms(q, 0));
        json_object_set_new(row, "end_ms", gd_col_ms(q, 1));
    }
    sqlite3_finalize(q);
    fn(ctx, row);
    json_decref(row);
    return GD_OK;
}

static json_t *worst_row(sqlite3_stmt *q)
{
    double start = sqlite3_column_double(q, 3), dur = sqlite3_column_double(q, 4);
    json_t *r = json_object();
    json_object_set_new(r, "trace", json_integer(sqlite3_column_int64(q, 0)));
    json_object_set_new(r, "id", json_integer(sqlite3_column_int64(q, 1)));
    json_object_set_new(r, "tid", json_integer(sqlite3_column_int64(q, 2)));
    json_object_set_new(r, "start_ms", json_real(gd_ms_round(start)));
    json_object_set_new(r, "duration_ms", json_real(gd_ms_round(dur)));
    json_object_set_new(r, "kind", json_string(kind_name(dur, sqlite3_column_double(q, 5),
                                                         sqlite3_column_double(q, 6))));
    json_object_set_new(r, "samples", json_integer(sqlite3_column_int64(q, 7)));
    json_object_set_new(r, "key_frame", gd_col_text(q, 8));
    json_object_set_new(r, "group", gd_col_text(q, 9));
    json_object_set_new(r, "cpu_busy", sqlite3_column_type(q, 10) == SQLITE_NULL
                                           ? json_null()
                                           : json_boolean(sqlite3_column_int(q, 10)));
    json_object_set_new(r, "unfinished", json_boolean(sqlite3_column_int(q, 11)));
    json_object_set_new(r, "thread", gd_col_text(q, 13));
    json_object_set_new(r, "blame", gd_col_text(q, 14));
    json_object_set_new(r, "handler", gd_col_text(q, 15));
    json_object_set_new(r, "callback", gd_col_text(q, 16));
    json_object_set_new(r, "what", gd_col_text(q, 17));
    return r;
}

/* Columns 0-12 of a block (all folded stacks need), then what worst_row
 * shows: thread, blame and the Looper message (BLOCK_MSG joins it once). */
#define BLOCK_CORE                                                                          \
    "d.trace, d.id, d.tid, d.start_ms, d.dur_ms, t.long_ms, t.anr_ms, b.samples, b.key_frame," \
    " b.grp, b.cpu_busy, d.unfinished, d.pid"
#define BLOCK_COLS BLOCK_CORE ", " GD_SQL_THREAD_OF("d", "t") ", b.blame, m.handler, m.callback, m.what"
#define BLOCK_MSG " LEFT JOIN message m ON m.id = d.message"

int gd_store_worst_blocks(gd_store *s, const gd_filter *f, int n, gd_row_fn fn, void *ctx,
                          gd_error *err)
{
    char set[4200], sql[8192];
    trace_set(f, set, sizeof set);
    snprintf(sql, sizeof sql,
             "SELECT " BLOCK_COLS " " BLOCKS_FROM BLOCK_MSG BLOCKS_IN_SET " ORDER BY d.dur_ms DESC, d.id LIMIT %d",
             set, n);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    return q ? gd_store_stream(s, q, worst_row, fn, ctx, err) : err->code;
}

/* ---- timelines ---------------------------------------------------------- */

/* Appends [i, v1, v2] rows of a binned query (?1 start, ?2 bin_ms, ?3 trace). */
static int binned(gd_store *s, const char *sql, int64_t trace, double start, double bin_ms, int bins,
                  json_t *out, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    sqlite3_bind_double(q, 1, start);
    sqlite3_bind_double(q, 2, bin_ms);
    sqlite3_bind_int64(q, 3, trace);
    sqlite3_bind_int(q, 4, bins - 1);
    int step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t i = sqlite3_column_int64(q, 0);
        json_t *r = json_pack("[I]", (json_int_t)i);
        for (int c = 1; c < sqlite3_column_count(q); c++)
            json_array_append_new(r, gd_col_json(q, c));
        json_array_append_new(out, r);
    }
    sqlite3_finalize(q);
    if (step != SQLITE_DONE)
        return gd_store_fail(s, err, "database read");
    return GD_OK;
}

static int timeline_of(gd_store *s, sqlite3_stmt *t, int bins, int max_blocks, int max_events,
                       json_t *row, gd_error *err)
{
    int64_t id = sqlite3_column_int64(t, 0);
    double start = sqlite3_column_double(t, 1), end = sqlite3_column_double(t, 2);
    if (!(end > start))
        end = start + 1;
    double bin_ms = (end - start) / bins;
    json_object_set_new(row, "trace", json_integer(id));
    json_object_set_new(row, "app", gd_col_text(t, 3));
    json_object_set_new(row, "device", gd_col_text(t, 4));
    json_object_set_new(row, "start_ms", json_real(gd_ms_round(start)));
    json_object_set_new(row, "end_ms", json_real(gd_ms_round(end)));
    json_object_set_new(row, "short_ms", json_real(sqlite3_column_double(t, 5)));
    json_object_set_new(row, "long_ms", json_real(sqlite3_column_double(t, 6)));
    json_object_set_new(row, "anr_ms", json_real(sqlite3_column_double(t, 7)));
    json_object_set_new(row, "bins", json_integer(bins));
    json_object_set_new(row, "bin_ms", json_real(bin_ms));
    json_t *db = json_array(), *cpu = json_array(), *mem = json_array();
    json_object_set_new(row, "dispatch_bins", db);
    json_object_set_new(row, "cpu", cpu);
    json_object_set_new(row, "memory", mem);
    int rc;
    /* ?1 start, ?2 bin width, ?3 trace, ?4 last bin: times outside the span go to the edge bins */
#define BIN(col) "SELECT min(max(CAST((" col " - ?1) / ?2 AS INTEGER), 0), ?4) AS i, "
    if ((rc = binned(s, BIN("start_ms") "max(dur_ms), count(*)"
                        " FROM dispatch WHERE trace = ?3 GROUP BY i ORDER BY i",
                     id, start, bin_ms, bins, db, err)))
        return rc;
    if ((rc = binned(s, BIN("ts_ms") "avg(total_ratio), avg(app_ratio)"
                        " FROM cpu WHERE trace = ?3 AND (total_ratio IS NOT NULL OR app_ratio IS NOT NULL)"
                        " GROUP BY i ORDER BY i",
                     id, start, bin_ms, bins, cpu, err)))
        return rc;
    if ((rc = binned(s, BIN("ts_ms") "max(heap_alloc_kb), max(pss_total_kb)"
                        " FROM memory WHERE trace = ?3 GROUP BY i ORDER BY i",
                     id, start, bin_ms, bins, mem, err)))
        return rc;
#undef BIN
    /* blocks: the longest max_blocks, in time order */
    sqlite3_stmt *q = gd_store_prepare(
        s, "SELECT * FROM (SELECT d.id, d.tid, d.start_ms, d.dur_ms, t.long_ms, t.anr_ms, b.key_frame, "
           GD_SQL_THREAD_OF("d", "t")
           " FROM block b JOIN dispatch d ON d.id = b.dispatch JOIN trace t ON t.id = d.trace"
           " WHERE b.trace = ?1 AND d.dur_ms >= t.short_ms ORDER BY d.dur_ms DESC, d.id LIMIT ?2)"
           " ORDER BY start_ms, id",
        err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int(q, 2, max_blocks);
    json_t *blocks = json_array();
    json_object_set_new(row, "blocks", blocks);
    while (sqlite3_step(q) == SQLITE_ROW) {
        double dur = sqlite3_column_double(q, 3);
        json_t *b = json_object();
        json_object_set_new(b, "id", json_integer(sqlite3_column_int64(q, 0)));
        json_object_set_new(b, "tid", json_integer(sqlite3_column_int64(q, 1)));
        json_object_set_new(b, "start_ms", gd_col_ms(q, 2));
        json_object_set_new(b, "duration_ms", json_real(gd_ms_round(dur)));
        json_object_set_new(b, "kind", json_string(kind_name(dur, sqlite3_column_double(q, 4),
                                                             sqlite3_column_double(q, 5))));
        json_object_set_new(b, "key_frame", gd_col_text(q, 6));
        json_object_set_new(b, "thread", gd_col_text(q, 7));
        json_array_append_new(blocks, b);
    }
    sqlite3_finalize(q);
    char set[64];
    snprintf(set, sizeof set, "(%lld)", (long long)id);
    int64_t nb = count_of(s, "SELECT count(*) " BLOCKS_OF_SET, set, err);
    int64_t ne = count_of(s, "SELECT count(*) FROM page_event WHERE trace IN %s", set, err);
    if (nb < 0 || ne < 0)
        return err->code ? err->code : GD_ERR_IO;
    json_object_set_new(row, "blocks_total", json_integer(nb));
    q = gd_store_prepare(s, "SELECT ts_ms, event, page_class, page_hash FROM page_event WHERE trace = ?1"
                            " ORDER BY ts_ms, id LIMIT ?2", err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int(q, 2, max_events);
    json_t *ev = json_array();
    json_object_set_new(row, "page_events", ev);
    while (sqlite3_step(q) == SQLITE_ROW) {
        json_t *e = json_object();
        json_object_set_new(e, "ts_ms", gd_col_ms(q, 0));
        json_object_set_new(e, "event", gd_col_text(q, 1));
        json_object_set_new(e, "page", gd_col_text(q, 2));
        json_object_set_new(e, "hash", gd_col_json(q, 3));
        json_array_append_new(ev, e);
    }
    sqlite3_finalize(q);
    json_object_set_new(row, "page_events_total", json_integer(ne));
    return GD_OK;
}

int gd_store_timelines(gd_store *s, const gd_filter *f, int bins, int max_blocks, int max_events,
                       gd_row_fn fn, void *ctx, gd_error *err)
{
    if (bins < 1)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "timeline bins must be 1 or more");
    char set[4200], sql[8192];
    trace_set(f, set, sizeof set);
    snprintf(sql, sizeof sql,
             "SELECT t.id, coalesce(t.start_ms, (SELECT min(start_ms) FROM dispatch WHERE trace = t.id)),"
             " coalesce(t.end_ms, (SELECT max(start_ms + dur_ms) FROM dispatch WHERE trace = t.id)),"
             " t.app, t.device, t.short_ms, t.long_ms, t.anr_ms FROM trace t WHERE t.id IN %s ORDER BY t.id",
             set);
    sqlite3_stmt *t = gd_store_prepare(s, sql, err);
    if (!t)
        return err->code;
    int rc = GD_OK, step;
    while ((step = sqlite3_step(t)) == SQLITE_ROW) {
        json_t *row = json_object();
        rc = timeline_of(s, t, bins, max_blocks, max_events, row, err);
        int stop = rc ? 1 : fn(ctx, row);
        json_decref(row);
        if (stop)
            break;
    }
    if (!rc && step != SQLITE_ROW && step != SQLITE_DONE)
        rc = gd_store_fail(s, err, "database read");
    sqlite3_finalize(t);
    return rc;
}

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
    int oom;
} cs_agg;

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
            gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
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
    e->parent = sqlite3_column_int64(a->callsite, 0);
    e->frame = sqlite3_column_int64(a->callsite, 1);
    e->depth = sqlite3_column_int(a->callsite, 2);
    sqlite3_reset(a->callsite);
    a->n++;
    return e;
}

/* The text of frame `id` into a new json string (NULL when missing). */
static json_t *frame_text(cs_agg *a, int64_t id)
{
    sqlite3_bind_int64(a->frame, 1, id);
    json_t *j = sqlite3_step(a->frame) == SQLITE_ROW ? gd_col_text(a->frame, 0) : json_string("?");
    sqlite3_reset(a->frame);
    return j;
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
    int rc = GD_OK, step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t cs = sqlite3_column_int64(q, 0);
        cs_ent *e = agg_get(a, cs, err);
        if (!e) {
            rc = err->code;
            break;
        }
        e->self++;
        a->nsamples++;
        if (on_sample)
            on_sample(sctx, cs, sqlite3_column_double(q, 1));
    }
    if (!rc && step != SQLITE_DONE)
        rc = gd_store_fail(a->s, err, "database read");
    sqlite3_reset(q);
    return rc;
}

/* Propagates self counts to every ancestor (totals). */
static int agg_totals(cs_agg *a, gd_error *err)
{
    size_t cap = a->cap;
    int64_t *ids = malloc((a->n + 1) * sizeof *ids);
    if (!ids)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
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

/* The icicle tree of the aggregated samples, nodes under `min` dropped. */
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
    for (size_t i = 0; i < n; i++) {
        cs_ent *e = kept[i];
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
    return root;
}

/* ---- group flames ------------------------------------------------------- */

typedef struct flame_ctx {
    gd_store *s;
    const gd_flame_query *q;
    cs_agg agg;
    json_t *rows; /* group rows collected from gd_store_block_groups */
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

static int flame_group(flame_ctx *fc, json_t *row, gd_error *err)
{
    const gd_flame_query *fq = fc->q;
    char fl[4096], sql[8192];
    gd_store_filter_sql(&fq->filter, "d.trace", fl, sizeof fl);
    snprintf(sql, sizeof sql,
             "SELECT " BLOCK_COLS " FROM block b JOIN dispatch d ON d.id = b.dispatch"
             " JOIN trace t ON t.id = d.trace" BLOCK_MSG " WHERE b.grp IS ?1 AND d.dur_ms >= t.short_ms"
             " %s ORDER BY d.dur_ms DESC, d.id",
             fl);
    sqlite3_stmt *q = gd_store_prepare(fc->s, sql, err);
    if (!q)
        return err->code;
    json_t *grp = json_object_get(row, "group");
    if (json_is_string(grp))
        sqlite3_bind_text(q, 1, json_string_value(grp), -1, SQLITE_TRANSIENT);
    agg_reset(&fc->agg);
    json_t *blocks = json_array(), *table = json_array(), *index = json_object();
    int rc = GD_OK, step, nb = 0;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        stack_rec rec = {NULL, fq->max_samples};
        if (nb < fq->max_blocks) {
            json_t *b = worst_row(q);
            rec.stacks = json_array();
            json_object_set_new(b, "stacks", rec.stacks);
            json_array_append_new(blocks, b);
            nb++;
        }
        double start = sqlite3_column_double(q, 3);
        rc = agg_block(&fc->agg, sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 12),
                       sqlite3_column_int64(q, 2), start, start + sqlite3_column_double(q, 4),
                       sqlite3_column_int(q, 11), record_sample, &rec, err);
        if (rc)
            break;
    }
    if (!rc && step != SQLITE_DONE)
        rc = gd_store_fail(fc->s, err, "database read");
    sqlite3_finalize(q);
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
        json_object_set_new(row, "samples", json_integer(fc->agg.nsamples));
        json_object_set_new(row, "flame", agg_flame(&fc->agg, min < 1 ? 1 : min));
        json_object_set_new(row, "frames", json_incref(table));
        json_object_set(row, "blocks", blocks);
    }
    json_decref(blocks);
    json_decref(table);
    json_decref(index);
    agg_reset(&fc->agg);
    return rc;
}

int gd_store_group_flames(gd_store *s, const gd_flame_query *fq, gd_row_fn fn, void *ctx,
                          gd_error *err)
{
    flame_ctx fc = {s, fq, {0}, json_array()};
    gd_blocks_query bq = {.filter = fq->filter, .threshold = NAN, .kind = GD_KIND_NONE};
    int rc = gd_store_block_groups(s, &bq, collect_row, fc.rows, err);
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

/* Appends the chain of `id`, root first, to buf (';'-separated). */
static int chain_text(cs_agg *a, int64_t id, char **buf, size_t *len, gd_error *err)
{
    if (!id)
        return GD_OK;
    cs_ent *e = agg_get(a, id, err);
    if (!e)
        return err->code;
    int64_t frame = e->frame, parent = e->parent;
    int rc = chain_text(a, parent, buf, len, err);
    if (rc)
        return rc;
    json_t *t = frame_text(a, frame);
    const char *txt = json_string_value(t) ? json_string_value(t) : "?";
    size_t tl = strlen(txt);
    char *nb = realloc(*buf, *len + tl + 2);
    if (!nb) {
        json_decref(t);
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    }
    *buf = nb;
    if (*len)
        nb[(*len)++] = ';';
    for (size_t i = 0; i < tl; i++)
        nb[(*len)++] = txt[i] == ';' ? ',' : txt[i];
    nb[*len] = 0;
    json_decref(t);
    return GD_OK;
}

int gd_store_folded(gd_store *s, const gd_filter *f, const char *group, gd_row_fn fn, void *ctx,
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
    int rc = agg_init(&a, s, err);
    sqlite3_stmt *q = rc ? NULL : gd_store_prepare(s, sql, err);
    if (!q) {
        agg_free(&a);
        return err->code ? err->code : GD_ERR_IO;
    }
    if (group)
        sqlite3_bind_text(q, 1, group, -1, SQLITE_TRANSIENT);
    int step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        double start = sqlite3_column_double(q, 3);
        if ((rc = agg_block(&a, sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 12),
                            sqlite3_column_int64(q, 2), start, start + sqlite3_column_double(q, 4),
                            sqlite3_column_int(q, 11), NULL, NULL, err)))
            break;
    }
    if (!rc && step != SQLITE_DONE)
        rc = gd_store_fail(s, err, "database read");
    sqlite3_finalize(q);
    /* callsites with samples, in id order for a stable output */
    size_t n = 0;
    int64_t *ids = rc ? NULL : malloc((a.n + 1) * sizeof *ids);
    if (!rc && !ids)
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    for (size_t i = 0; !rc && i < a.cap; i++)
        if (a.e[i].id && a.e[i].self)
            ids[n++] = a.e[i].id;
    if (!rc)
        gd_sort(ids, n, sizeof *ids, cmp_i64);
    for (size_t i = 0; !rc && i < n; i++) {
        char *buf = NULL;
        size_t len = 0;
        long self = agg_slot(&a, ids[i])->self;
        if ((rc = chain_text(&a, ids[i], &buf, &len, err))) {
            free(buf);
            break;
        }
        json_t *row = json_pack("{s:s s:I}", "stack", buf ? buf : "", "count", (json_int_t)self);
        free(buf);
        int stop = fn(ctx, row);
        json_decref(row);
        if (stop)
            break;
    }
    free(ids);
    agg_free(&a);
    return rc;
}

/* ---- streams for the exports -------------------------------------------- */

static json_t *dispatch_row(sqlite3_stmt *q)
{
    json_t *r = json_object();
    json_object_set_new(r, "trace", json_integer(sqlite3_column_int64(q, 0)));
    json_object_set_new(r, "pid", json_integer(sqlite3_column_int64(q, 1)));
    json_object_set_new(r, "tid", json_integer(sqlite3_column_int64(q, 2)));
    json_object_set_new(r, "thread", gd_col_text(q, 3));
    json_object_set_new(r, "start_ms", gd_col_ms(q, 4));
    json_object_set_new(r, "dur_ms", gd_col_ms(q, 5));
    json_object_set_new(r, "thread_ms", gd_col_ms(q, 6));
    json_object_set_new(r, "msg", gd_col_text(q, 7));
    return r;
}

int gd_store_dispatches(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err)
{
    char set[4200], sql[8192];
    trace_set(f, set, sizeof set);
    snprintf(sql, sizeof sql,
             "SELECT d.trace, d.pid, d.tid, th.name, d.start_ms, d.dur_ms, d.thread_ms, m.text"
             " FROM dispatch d LEFT JOIN thread th ON th.trace = d.trace AND th.pid = d.pid AND th.tid = d.tid"
             " LEFT JOIN message m ON m.id = d.message WHERE d.trace IN %s"
             " ORDER BY d.trace, d.pid, d.tid, d.start_ms",
             set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    return q ? gd_store_stream(s, q, dispatch_row, fn, ctx, err) : err->code;
}

static json_t *cpu_row(sqlite3_stmt *q)
{
    json_t *r = json_object();
    json_object_set_new(r, "trace", json_integer(sqlite3_column_int64(q, 0)));
    json_object_set_new(r, "pid", gd_col_json(q, 1));
    json_object_set_new(r, "ts_ms", gd_col_ms(q, 2));
    json_object_set_new(r, "total_ratio", gd_col_json(q, 3));
    json_object_set_new(r, "app_ratio", gd_col_json(q, 4));
    return r;
}

int gd_store_cpu_series(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err)
{
    char set[4200], sql[8192];
    trace_set(f, set, sizeof set);
    snprintf(sql, sizeof sql,
             "SELECT c.trace, t.pid, c.ts_ms, c.total_ratio, c.app_ratio FROM cpu c JOIN trace t"
             " ON t.id = c.trace WHERE c.trace IN %s AND (c.total_ratio IS NOT NULL OR"
             " c.app_ratio IS NOT NULL) ORDER BY c.trace, c.ts_ms, c.id",
             set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    return q ? gd_store_stream(s, q, cpu_row, fn, ctx, err) : err->code;
}

/* The p-th percentile of a window's frame durations (as gd_percentile). */
static double frame_pct(sqlite3_stmt *q, int64_t trace, const char *win, int64_t n, double p)
{
    double h = (double)(n - 1) * p / 100.0;
    int64_t lo = (int64_t)floor(h);
    sqlite3_bind_int64(q, 1, trace);
    if (win)
        sqlite3_bind_text(q, 2, win, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(q, 2);
    sqlite3_bind_int64(q, 3, lo);
    double a = NAN, b = NAN;
    if (sqlite3_step(q) == SQLITE_ROW)
        a = sqlite3_column_double(q, 0);
    if (sqlite3_step(q) == SQLITE_ROW)
        b = sqlite3_column_double(q, 0);
    sqlite3_reset(q);
    double frac = h - (double)lo;
    return frac == 0 || isnan(b) ? a : a + frac * (b - a);
}

/* Upper bounds of the frame-time histogram's bins (ms), shown rounded to
 * microseconds (16.667, 33.333); past the last, frozen frames. */
static const double frame_hist_upper[7] = {8, GD_FRAME_VSYNC_MS, 2 * GD_FRAME_VSYNC_MS, 50, 100, 200,
                                           GD_FRAME_FROZEN_MS};

int gd_store_frame_stats(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err)
{
    char set[4200], sql[8192];
    trace_set(f, set, sizeof set);
    snprintf(sql, sizeof sql,
             "SELECT trace, window, count(*), sum(dur_ms > ?1), sum(dur_ms > ?2), max(dur_ms),"
             " sum(dur_ms <= ?3), sum(dur_ms > ?3 AND dur_ms <= ?4), sum(dur_ms > ?4 AND dur_ms <= ?5),"
             " sum(dur_ms > ?5 AND dur_ms <= ?6), sum(dur_ms > ?6 AND dur_ms <= ?7),"
             " sum(dur_ms > ?7 AND dur_ms <= ?8), sum(dur_ms > ?8 AND dur_ms <= ?9), sum(dur_ms > ?9)"
             " FROM frame_time WHERE trace IN %s GROUP BY trace, window ORDER BY trace, window",
             set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    sqlite3_stmt *p = q ? gd_store_prepare(s, "SELECT dur_ms FROM frame_time WHERE trace = ?1 AND window IS ?2"
                                              " ORDER BY dur_ms LIMIT 2 OFFSET ?3", err)
                        : NULL;
    if (!p) {
        sqlite3_finalize(q);
        return err->code;
    }
    /* janky and frozen are analysis/frames.h's slow (at 60 Hz) and frozen */
    sqlite3_bind_double(q, 1, GD_FRAME_VSYNC_MS);
    sqlite3_bind_double(q, 2, GD_FRAME_FROZEN_MS);
    for (int i = 0; i < 7; i++)
        sqlite3_bind_double(q, 3 + i, frame_hist_upper[i]);
    int rc = GD_OK, step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t trace = sqlite3_column_int64(q, 0), n = sqlite3_column_int64(q, 2);
        const char *win = (const char *)sqlite3_column_text(q, 1);
        json_t *r = json_object();
        json_object_set_new(r, "trace", json_integer(trace));
        json_object_set_new(r, "window", gd_col_text(q, 1));
        json_object_set_new(r, "count", json_integer(n));
        json_object_set_new(r, "janky", json_integer(sqlite3_column_int64(q, 3)));
        json_object_set_new(r, "frozen", json_integer(sqlite3_column_int64(q, 4)));
        json_object_set_new(r, "p50_ms", json_real(gd_ms_round(frame_pct(p, trace, win, n, 50))));
        json_object_set_new(r, "p95_ms", json_real(gd_ms_round(frame_pct(p, trace, win, n, 95))));
        json_object_set_new(r, "max_ms", gd_col_ms(q, 5));
        /* the frame-time histogram: [upper bound ms (null: none), count] */
        json_t *h = json_array();
        for (int i = 0; i < 8; i++)
            json_array_append_new(h, json_pack("[o I]", i < 7 ? json_real(round(frame_hist_upper[i] * 1000) / 1000)
                                                              : json_null(),
                                               (json_int_t)sqlite3_column_int64(q, 6 + i)));
        json_object_set_new(r, "hist", h);
        int stop = fn(ctx, r);
        json_decref(r);
        if (stop)
            break;
    }
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        rc = gd_store_fail(s, err, "database read");
    sqlite3_finalize(q);
    sqlite3_finalize(p);
    return rc;
}
