/* query/report_series.c - bounded queries for the report and the exports (counts, series, streams). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/blocks.h"
#include "analysis/app.h"
#include "analysis/frames.h"
#include "analysis/stats.h"
#include "query/apps.h"
#include "query/frames.h"
#include "store/sql.h"
#include "query/report_int.h"
#include "query/report_series.h"
#include "derive/states.h"
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

/* The one column of a one-number query. */
enum { S_VALUE = 0 };

/* One number from a query with one %s (the trace set); -1 on failure. */
static int64_t count_of(gd_store *s, const char *fmt, const char *set, gd_error *err)
{
    char sql[8192];
    snprintf(sql, sizeof sql, fmt, set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return -1;
    int64_t v = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, S_VALUE) : -1;
    if (v < 0)
        gd_store_fail(s, err, "database read");
    sqlite3_finalize(q);
    return v;
}

#define BLOCKS_FROM "FROM block b JOIN dispatch d ON d.id = b.dispatch JOIN trace t ON t.id = d.trace"
#define BLOCKS_IN_SET " WHERE d.dur_ms >= t.short_ms AND b.trace IN %s"
#define BLOCKS_OF_SET BLOCKS_FROM BLOCKS_IN_SET

/* ---- counts and worst blocks -------------------------------------------- */

int gd_query_report_counts(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err)
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
        {"frames", "SELECT count(*) FROM frame_time WHERE trace IN %s AND " GD_APP_FRAMES_SHOWN_SQL},
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
    enum { SPAN_START, SPAN_END };
    snprintf(sql, sizeof sql, "SELECT min(start_ms), max(end_ms) FROM trace WHERE id IN %s", set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q) {
        json_decref(row);
        return err->code;
    }
    if (sqlite3_step(q) == SQLITE_ROW) {
        json_object_set_new(row, "start_ms", gd_col_ms(q, SPAN_START));
        json_object_set_new(row, "end_ms", gd_col_ms(q, SPAN_END));
    }
    sqlite3_finalize(q);
    fn(ctx, row);
    json_decref(row);
    return GD_OK;
}

enum { GD_REPORT_BLOCK_COLS(GD_QC_ID, GD_QC_ID) RBF_NCOLS };
GD_QCOLS_DEFINE(report_block_cols, GD_REPORT_BLOCK_COLS);

int gd_report_block_select(char *buf, size_t n)
{
    int w = snprintf(buf, n, "%s, ", BLOCK_CORE);
    if (w < 0 || (size_t)w >= n)
        return -1;
    return gd_qcols_select(&report_block_cols, buf + w, n - (size_t)w);
}

json_t *gd_report_block_row(sqlite3_stmt *q)
{
    gd_value v[RBF_NCOLS];
    gd_qcols_read(&report_block_cols, q, RB_NCORE, v);
    gd_qv_text(&v[RBF_KIND], kind_name(sqlite3_column_double(q, RB_DUR), sqlite3_column_double(q, RB_LONG),
                                       sqlite3_column_double(q, RB_ANR)));
    return gd_qcols_json(&report_block_cols, v);
}

int gd_query_worst_blocks(gd_store *s, const gd_filter *f, int n, gd_row_fn fn, void *ctx,
                          gd_error *err)
{
    char set[4200], sql[12288], fields[4096];
    trace_set(f, set, sizeof set);
    if (gd_report_block_select(fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "report: the SELECT list of a block is too long");
    snprintf(sql, sizeof sql,
             "SELECT %s " BLOCKS_FROM BLOCK_MSG BLOCKS_IN_SET " ORDER BY d.dur_ms DESC, d.id LIMIT %d", fields,
             set, n);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    return q ? gd_store_stream(s, q, gd_report_block_row, fn, ctx, err) : err->code;
}

/* ---- timelines ---------------------------------------------------------- */

/* A binned query's first column, the bin (its values follow). */
enum { BIN_I = 0 };

/* A binned query's row as [i, v1, v2], appended to the array ctx
 * (gd_store_each's callback). */
static int binned_row(void *ctx, sqlite3_stmt *q)
{
    int64_t i = sqlite3_column_int64(q, BIN_I);
    json_t *r = json_pack("[I]", (json_int_t)i);
    for (int c = BIN_I + 1; c < sqlite3_column_count(q); c++)
        json_array_append_new(r, gd_col_json(q, c));
    json_array_append_new(ctx, r);
    return GD_OK;
}

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
    return gd_store_each(s, q, binned_row, out, err);
}

/* The dispatch series, [i, longest, count] for each bin that has any (as
 * the binned queries give them): binned here in one pass over the trace's
 * dispatches, where a GROUP BY would sort them all first. */
enum { DB_START = 0, DB_DUR };
struct dispatch_bins {
    double start, bin_ms;
    int bins;
    double *longest;
    int64_t *count;
};

/* gd_store_each's callback: one dispatch into its bin; times outside the
 * span go to the edge bins. */
static int dispatch_bin(void *ctx, sqlite3_stmt *q)
{
    struct dispatch_bins *c = ctx;
    double x = (sqlite3_column_double(q, DB_START) - c->start) / c->bin_ms;
    double dur = sqlite3_column_double(q, DB_DUR);
    int i = x >= c->bins - 1 ? c->bins - 1 : x > 0 ? (int)x : 0;
    if (!c->count[i]++ || dur > c->longest[i])
        c->longest[i] = dur;
    return GD_OK;
}

static int dispatch_bins(gd_store *s, int64_t trace, double start, double bin_ms, int bins, json_t *out,
                         gd_error *err)
{
    struct dispatch_bins c = {start, bin_ms, bins, malloc((size_t)bins * sizeof(double)),
                              calloc((size_t)bins, sizeof(int64_t))};
    sqlite3_stmt *q = c.longest && c.count
                          ? gd_store_prepare(s, "SELECT start_ms, dur_ms FROM dispatch WHERE trace = ?1", err)
                          : NULL;
    int rc;
    if (!c.longest || !c.count)
        rc = gd_error_oom(err);
    else if (!q)
        rc = err->code;
    else {
        sqlite3_bind_int64(q, 1, trace);
        rc = gd_store_each(s, q, dispatch_bin, &c, err);
    }
    for (int i = 0; !rc && i < bins; i++)
        if (c.count[i])
            json_array_append_new(out, json_pack("[i f I]", i, c.longest[i], (json_int_t)c.count[i]));
    free(c.longest);
    free(c.count);
    return rc;
}

/* The columns of a timeline's trace row, after t.id (TL_ID). */
#define TIMELINE_COLS(X)                                                                     \
    X(TL_START, "coalesce(t.start_ms, (SELECT min(start_ms) FROM dispatch WHERE trace = t.id))") \
    X(TL_END, "coalesce(t.end_ms, (SELECT max(start_ms + dur_ms) FROM dispatch WHERE trace = t.id))") \
    X(TL_APP, "t.app") X(TL_DEVICE, "t.device") X(TL_SHORT, "t.short_ms") X(TL_LONG, "t.long_ms") \
    X(TL_ANR, "t.anr_ms")
enum { TL_ID = 0, TIMELINE_COLS(GD_COL_ENUM) TL_NCOLS };
/* A timeline's block's fields, declared once (query/columns.h), read after
 * TL_BLOCK_INPUTS (what its kind is of); kind computed. */
#define TL_BLOCK_COLS(X, J)                                                  \
    J(TB_ID, "d.id", "id", NULL, INT, 0)                                     \
    J(TB_TID, "d.tid", "tid", NULL, INT, 0)                                  \
    J(TB_START, "d.start_ms", "start_ms", NULL, TIME, 0)                     \
    J(TB_DUR, "d.dur_ms", "duration_ms", NULL, MS, 0)                        \
    J(TB_KIND, NULL, "kind", NULL, TEXT, 0)                                  \
    J(TB_KEY_FRAME, "b.key_frame", "key_frame", NULL, TEXT, 0)               \
    J(TB_THREAD, GD_SQL_THREAD_OF("d", "t"), "thread", NULL, TEXT, 0)
enum { TL_BLOCK_COLS(GD_QC_ID, GD_QC_ID) TB_NCOLS };
GD_QCOLS_DEFINE(tl_block_cols, TL_BLOCK_COLS);
#define TL_BLOCK_INPUTS(X) X(TBI_LONG, "t.long_ms") X(TBI_ANR, "t.anr_ms")
enum { TBI_DUR = 0, TL_BLOCK_INPUTS(GD_COL_ENUM) TBI_NCOLS };

/* A timeline's block (TL_BLOCK_COLS), appended to the array ctx
 * (gd_store_each's callback). */
static int timeline_block_row(void *ctx, sqlite3_stmt *q)
{
    gd_value v[TB_NCOLS];
    gd_qcols_read(&tl_block_cols, q, TBI_NCOLS, v);
    gd_qv_text(&v[TB_KIND], kind_name(sqlite3_column_double(q, TBI_DUR), sqlite3_column_double(q, TBI_LONG),
                                      sqlite3_column_double(q, TBI_ANR)));
    json_array_append_new(ctx, gd_qcols_json(&tl_block_cols, v));
    return GD_OK;
}

/* The query of a timeline's blocks (?1 its trace): the longest ?2, in time
 * order (by TL_BLOCK_COLS' aliases); NULL with err set on failure. */
static sqlite3_stmt *timeline_blocks_query(gd_store *s, gd_error *err)
{
    char sql[4096], fields[2048];
    if (gd_qcols_select(&tl_block_cols, fields, sizeof fields)) {
        gd_error_set(err, GD_ERR_IO, 0, 0, "timeline: the SELECT list of a block is too long");
        return NULL;
    }
    snprintf(sql, sizeof sql,
             "SELECT * FROM (SELECT d.dur_ms" TL_BLOCK_INPUTS(GD_COL_SQL) ", %s"
             " FROM block b JOIN dispatch d ON d.id = b.dispatch JOIN trace t ON t.id = d.trace"
             " WHERE b.trace = ?1 AND d.dur_ms >= t.short_ms ORDER BY d.dur_ms DESC, d.id LIMIT ?2)"
             " ORDER BY start_ms, id",
             fields);
    return gd_store_prepare(s, sql, err);
}


enum { GD_TIMELINE_COLS(GD_QC_ID, GD_QC_ID) TLR_NCOLS };
GD_QCOLS_DEFINE(timeline_cols, GD_TIMELINE_COLS);
enum { GD_TIMELINE_EVENT_COLS(GD_QC_ID, GD_QC_ID) TLE_NCOLS };
GD_QCOLS_DEFINE(event_cols, GD_TIMELINE_EVENT_COLS);

/* A timeline's page event (GD_TIMELINE_EVENT_COLS), appended to the array
 * ctx (gd_store_each's callback). */
_Static_assert(TLE_NCOLS <= GD_QCOLS_MAX, "gd_qcols_row reads every field");

static int timeline_event_row(void *ctx, sqlite3_stmt *q)
{
    json_array_append_new(ctx, gd_qcols_row(&event_cols, q));
    return GD_OK;
}

/* Fills v[id] with a new array and returns it (v holds the reference). */
static json_t *array_at(gd_value *v, int id)
{
    json_t *a = json_array();
    gd_qv_json(&v[id], a);
    return a;
}

/* The timeline of trace row t (GD_TIMELINE_COLS) in v (its JSON values
 * v's own: gd_qcols_clear); GD_OK or an error code with err set. */
static int timeline_of(gd_store *s, sqlite3_stmt *t, int bins, int max_blocks, int max_events,
                       gd_value *v, gd_error *err)
{
    int64_t id = sqlite3_column_int64(t, TL_ID);
    double start = sqlite3_column_double(t, TL_START), end = sqlite3_column_double(t, TL_END);
    if (!(end > start))
        end = start + 1;
    double bin_ms = (end - start) / bins;
    gd_qv_int(&v[TLR_TRACE], id);
    gd_qv_text(&v[TLR_APP], (const char *)sqlite3_column_text(t, TL_APP));
    gd_qv_text(&v[TLR_DEVICE], (const char *)sqlite3_column_text(t, TL_DEVICE));
    gd_qv_real(&v[TLR_START], gd_ms_round(start));
    gd_qv_real(&v[TLR_END], gd_ms_round(end));
    gd_qv_real(&v[TLR_SHORT], sqlite3_column_double(t, TL_SHORT));
    gd_qv_real(&v[TLR_LONG], sqlite3_column_double(t, TL_LONG));
    gd_qv_real(&v[TLR_ANR], sqlite3_column_double(t, TL_ANR));
    gd_qv_int(&v[TLR_BINS], bins);
    gd_qv_real(&v[TLR_BIN_MS], bin_ms);
    json_t *db = array_at(v, TLR_DISPATCH_BINS), *cpu = array_at(v, TLR_CPU), *mem = array_at(v, TLR_MEMORY);
    int rc;
    /* ?1 start, ?2 bin width, ?3 trace, ?4 last bin: times outside the span go to the edge bins */
#define BIN(col) "SELECT min(max(CAST((" col " - ?1) / ?2 AS INTEGER), 0), ?4) AS i, "
    if ((rc = dispatch_bins(s, id, start, bin_ms, bins, db, err)))
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
    sqlite3_stmt *q = timeline_blocks_query(s, err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int(q, 2, max_blocks);
    /* a read error of these two lists is not reported (as before) */
    gd_store_each(s, q, timeline_block_row, array_at(v, TLR_BLOCKS), NULL);
    char set[64];
    snprintf(set, sizeof set, "(%lld)", (long long)id);
    int64_t nb = count_of(s, "SELECT count(*) " BLOCKS_OF_SET, set, err);
    int64_t ne = count_of(s, "SELECT count(*) FROM page_event WHERE trace IN %s", set, err);
    if (nb < 0 || ne < 0)
        return err->code ? err->code : GD_ERR_IO;
    gd_qv_int(&v[TLR_BLOCKS_TOTAL], nb);
    char fields[256], sql[512];
    if (gd_qcols_select(&event_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "timeline: the SELECT list is too long");
    snprintf(sql, sizeof sql, "SELECT %s FROM page_event WHERE trace = ?1 ORDER BY ts_ms, id LIMIT ?2", fields);
    if (!(q = gd_store_prepare(s, sql, err)))
        return err->code;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int(q, 2, max_events);
    gd_store_each(s, q, timeline_event_row, array_at(v, TLR_PAGE_EVENTS), NULL);
    gd_qv_int(&v[TLR_PAGE_EVENTS_TOTAL], ne);
    /* #26: the main thread's states under its blocks, merged and bounded
     * to what the lane shows (intervals of half a bin or more) */
    return gd_states_lane(s, id, bin_ms / 2, (size_t)bins * 2 + 2, array_at(v, TLR_MAIN_STATES), err);
}

/* gd_query_timelines' traces, each built and handed on (gd_store_each's
 * callback) */
struct timelines_ctx {
    gd_store *s;
    int bins, max_blocks, max_events;
    gd_row_fn fn;
    void *ctx;
    gd_error *err;
};

static int timeline_row(void *ctx, sqlite3_stmt *t)
{
    struct timelines_ctx *c = ctx;
    gd_value v[TLR_NCOLS];
    for (size_t k = 0; k < TLR_NCOLS; k++)
        gd_qv_null(&v[k]);
    int rc = timeline_of(c->s, t, c->bins, c->max_blocks, c->max_events, v, c->err);
    json_t *row = rc ? NULL : gd_qcols_json(&timeline_cols, v);
    gd_qcols_clear(&timeline_cols, v);
    if (!rc && !row)
        rc = gd_error_oom(c->err);
    int stop = rc ? 1 : c->fn(c->ctx, row);
    json_decref(row);
    return rc ? rc : stop ? GD_EACH_STOP : GD_OK;
}

int gd_query_timelines(gd_store *s, const gd_filter *f, int bins, int max_blocks, int max_events,
                       gd_row_fn fn, void *ctx, gd_error *err)
{
    if (bins < 1)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "timeline bins must be 1 or more");
    char set[4200], sql[8192];
    trace_set(f, set, sizeof set);
    snprintf(sql, sizeof sql,
             "SELECT t.id" TIMELINE_COLS(GD_COL_SQL) " FROM trace t WHERE t.id IN %s ORDER BY t.id",
             set);
    sqlite3_stmt *t = gd_store_prepare(s, sql, err);
    if (!t)
        return err->code;
    struct timelines_ctx c = {s, bins, max_blocks, max_events, fn, ctx, err};
    return gd_store_each(s, t, timeline_row, &c, err);
}

/* ---- streams for the exports -------------------------------------------- */

/* An exported dispatch's fields, declared once (query/columns.h). */
#define DISPATCH_COLS(X, J)                                           \
    J(X_TRACE, "d.trace", "trace", NULL, INT, 0)                      \
    J(X_PID, "d.pid", "pid", NULL, INT, 0)                            \
    J(X_TID, "d.tid", "tid", NULL, INT, 0)                            \
    J(X_THREAD, "th.name", "thread", NULL, TEXT, 0)                   \
    J(X_START, "d.start_ms", "start_ms", NULL, TIME, 0)               \
    J(X_DUR, "d.dur_ms", "dur_ms", NULL, MS, 0)                       \
    J(X_THREAD_MS, "d.thread_ms", "thread_ms", NULL, MS, 0)           \
    J(X_MSG, "m.text", "msg", NULL, TEXT, 0)
enum { DISPATCH_COLS(GD_QC_ID, GD_QC_ID) X_NCOLS };
GD_QCOLS_DEFINE(dispatch_cols, DISPATCH_COLS);

_Static_assert(X_NCOLS <= GD_QCOLS_MAX, "gd_qcols_row reads every field");

static json_t *dispatch_row(sqlite3_stmt *q)
{
    return gd_qcols_row(&dispatch_cols, q);
}

int gd_query_dispatches(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err)
{
    char set[4200], sql[8192], fields[1024];
    trace_set(f, set, sizeof set);
    if (gd_qcols_select(&dispatch_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "dispatches: the SELECT list is too long");
    snprintf(sql, sizeof sql,
             "SELECT %s"
             " FROM dispatch d LEFT JOIN thread th ON th.trace = d.trace AND th.pid = d.pid AND th.tid = d.tid"
             " LEFT JOIN message m ON m.id = d.message WHERE d.trace IN %s"
             " ORDER BY d.trace, d.pid, d.tid, d.start_ms",
             fields, set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    return q ? gd_store_stream(s, q, dispatch_row, fn, ctx, err) : err->code;
}

enum { GD_CPU_SERIES_COLS(GD_QC_ID, GD_QC_ID) CPU_NCOLS };
GD_QCOLS_DEFINE(cpu_cols, GD_CPU_SERIES_COLS);
_Static_assert(CPU_NCOLS <= GD_QCOLS_MAX, "gd_qcols_row reads every field");

/* An exported CPU sample (gd_store_stream's builder). */
static json_t *cpu_row(sqlite3_stmt *q)
{
    return gd_qcols_row(&cpu_cols, q);
}

int gd_query_cpu_series(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err)
{
    char set[4200], sql[8192], fields[512];
    trace_set(f, set, sizeof set);
    if (gd_qcols_select(&cpu_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "cpu series: the SELECT list is too long");
    snprintf(sql, sizeof sql,
             "SELECT %s FROM cpu c JOIN trace t"
             " ON t.id = c.trace WHERE c.trace IN %s AND (c.total_ratio IS NOT NULL OR"
             " c.app_ratio IS NOT NULL) ORDER BY trace, ts_ms, c.id",
             fields, set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    return q ? gd_store_stream(s, q, cpu_row, fn, ctx, err) : err->code;
}

/* Upper bounds of the frame-time histogram's bins (ms), shown rounded to
 * microseconds (16.667, 33.333); past the last, frozen frames. */
enum { FH_BINS = 8 };
static const double frame_hist_upper[FH_BINS - 1] = {8, GD_FRAME_VSYNC_MS, 2 * GD_FRAME_VSYNC_MS, 50, 100, 200,
                                                     GD_FRAME_FROZEN_MS};

/* The percentiles of a window's frame durations the report shows (as
 * gd_percentile): p50, p95. */
enum { FP_50, FP_95, FP_N };
static const double frame_pct_at[FP_N] = {50, 95};

/* What a window's frames give, read in order of duration (#50 item 3: one
 * sorted read of them, where a GROUP BY of eleven sums and a LIMIT 2
 * OFFSET statement per percentile read them three times, sorting twice). */
typedef struct frame_scan {
    gd_pct_stream p[FP_N];
    int64_t janky, frozen, hist[FH_BINS];
    double max;
} frame_scan;

/* The i-th shortest frame, of d ms, into fs. */
static void frame_scan_add(frame_scan *fs, int64_t i, double d)
{
    for (int k = 0; k < FP_N; k++)
        gd_pct_stream_add(&fs->p[k], (size_t)i, d);
    /* janky and frozen are analysis/frames.h's vitals_slow (over 16 ms,
     * Android vitals' slow frame, whatever the display's rate: #51) and frozen */
    fs->janky += gd_frame_is_vitals_slow(d);
    fs->frozen += gd_frame_is_frozen(d);
    int bin = 0;
    while (bin < FH_BINS - 1 && d > frame_hist_upper[bin])
        bin++;
    fs->hist[bin]++;
    fs->max = d;
}

/* The window's n frames read in order into fs; GD_OK, or GD_ERR_* with
 * err set. */
static int frame_scan_read(gd_store *s, sqlite3_stmt *q, int64_t trace, const char *win, int64_t n, frame_scan *fs,
                           gd_error *err)
{
    memset(fs, 0, sizeof *fs);
    fs->max = NAN;
    for (int k = 0; k < FP_N; k++)
        gd_pct_stream_init(&fs->p[k], n > 0 ? (size_t)n : 0, frame_pct_at[k]);
    sqlite3_bind_int64(q, 1, trace);
    if (win)
        sqlite3_bind_text(q, 2, win, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(q, 2);
    int r;
    for (int64_t i = 0; (r = sqlite3_step(q)) == SQLITE_ROW; i++)
        frame_scan_add(fs, i, sqlite3_column_double(q, S_VALUE));
    sqlite3_reset(q);
    return r == SQLITE_DONE ? GD_OK : gd_store_fail(s, err, "database read");
}

/* the pid the window's frames are of, and how many have a duration that
 * counts (GD_SQL_FRAME_TIMED), before the fields */
enum { F_PID = 0, F_TIMED, F_FIELDS };
enum { GD_FRAME_STATS_COLS(GD_QC_ID, GD_QC_ID) FS_NCOLS };
GD_QCOLS_DEFINE(fstats_cols, GD_FRAME_STATS_COLS);

/* the frame-time histogram: [upper bound ms (null: none), count] */
static json_t *frame_hist(const frame_scan *fs)
{
    json_t *h = json_array();
    for (int i = 0; i < FH_BINS; i++)
        json_array_append_new(h, json_pack("[o I]", i < FH_BINS - 1 ? json_real(round(frame_hist_upper[i] * 1000) / 1000)
                                                                     : json_null(),
                                           (json_int_t)fs->hist[i]));
    return h;
}

/* gd_query_frame_stats' windows, each built and handed on
 * (gd_store_each's callback); p is the percentile query */
struct frame_stats_ctx {
    sqlite3_stmt *p;
    gd_row_fn fn;
    void *ctx;
    gd_store *s;
    const char *app; /* --app, or NULL */
    gd_error *err;
};

static int frame_stats_row(void *ctx, sqlite3_stmt *q)
{
    struct frame_stats_ctx *c = ctx;
    gd_value v[FS_NCOLS];
    gd_qcols_read(&fstats_cols, q, F_FIELDS, v);
    /* the count keeps FrameTimeline's dropped frames (as godeye frames'
     * does); the figures of durations are of the others */
    int64_t trace = v[FS_TRACE].u.i, n = sqlite3_column_int64(q, F_TIMED);
    const char *win = v[FS_WINDOW].kind == GD_V_TEXT ? v[FS_WINDOW].u.t.s : NULL;
    /* #47: whose frames (the frames command's rule); --app keeps its own */
    char proc[256];
    if (gd_query_process_of(c->s, trace, sqlite3_column_type(q, F_PID) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, F_PID),
                            proc, sizeof proc, c->err))
        return c->err->code;
    if (c->app && !gd_app_match(proc, c->app))
        return GD_OK;
    frame_scan fs;
    if (frame_scan_read(c->s, c->p, trace, win, n, &fs, c->err))
        return c->err->code;
    gd_qv_text(&v[FS_PROCESS], proc[0] ? proc : NULL);
    gd_qv_int(&v[FS_JANKY], fs.janky);
    gd_qv_int(&v[FS_FROZEN], fs.frozen);
    gd_qv_real(&v[FS_P50], gd_ms_round(gd_pct_stream_value(&fs.p[FP_50])));
    gd_qv_real(&v[FS_P95], gd_ms_round(gd_pct_stream_value(&fs.p[FP_95])));
    gd_qv_ms(&v[FS_MAX], fs.max);
    gd_qv_json(&v[FS_HIST], frame_hist(&fs));
    /* #51: whose figures lead (godeye frames' rule): the device's summary
     * where the rows are a placeholder */
    int leads = 0;
    if (gd_query_device_leads(c->s, trace, win,
                              sqlite3_column_type(q, F_PID) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, F_PID), &leads,
                              c->err)) {
        gd_qcols_clear(&fstats_cols, v);
        return c->err->code;
    }
    gd_qv_text(&v[FS_LEAD], leads ? "device" : "godeye");
    json_t *r = gd_qcols_json(&fstats_cols, v);
    gd_qcols_clear(&fstats_cols, v);
    if (!r)
        return gd_error_oom(c->err);
    int stop = c->fn(c->ctx, r);
    json_decref(r);
    return stop ? GD_EACH_STOP : GD_OK;
}

int gd_query_frame_stats(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err)
{
    char set[4200], sql[8192], fields[1024];
    trace_set(f, set, sizeof set);
    if (gd_qcols_select(&fstats_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "frame stats: the SELECT list is too long");
    snprintf(sql, sizeof sql,
             "SELECT max(" GD_FRAMES_PID_SQL "), sum(" GD_SQL_FRAME_TIMED "), %s FROM frame_time"
             " WHERE trace IN %s AND " GD_APP_FRAMES_SHOWN_SQL " GROUP BY trace, window ORDER BY trace, window",
             fields, set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    sqlite3_stmt *p = q ? gd_store_prepare(s, "SELECT dur_ms FROM frame_time WHERE trace = ?1 AND window IS ?2 AND " GD_APP_FRAMES_SHOWN_SQL
                                              " AND " GD_SQL_FRAME_TIMED " ORDER BY dur_ms", err)
                        : NULL;
    if (!p) {
        sqlite3_finalize(q);
        return err->code;
    }
    struct frame_stats_ctx c = {p, fn, ctx, s, f ? f->app : NULL, err};
    int rc = gd_store_each(s, q, frame_stats_row, &c, err);
    sqlite3_finalize(p);
    return rc;
}
