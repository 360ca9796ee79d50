/* query/frames.c - frame queries: per-window statistics with the blocks under
 * frozen frames, gfxinfo summaries as printed, Matrix FPS issues per scene. */
#include "query/frames.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/app.h"
#include "analysis/frames.h"
#include "analysis/frametimeline.h"
#include "query/apps.h"
#include "store/sql.h"
#include "core/util.h"

/* pid as reported: a positive pid, else NULL (unknown) */
#define PID_SQL "CASE WHEN pid > 0 THEN pid END"

/* a Matrix Trace_FPS issue's figures, drop columns in gd_drop_level order */
#define FPS_COLS                                                                                   \
    "fps, best_frames, normal_frames, middle_frames, high_frames, frozen_frames, best_dropped,"     \
    " normal_dropped, middle_dropped, high_dropped, frozen_dropped"
_Static_assert(GD_DROP__COUNT == 5, "FPS_COLS has five drop levels");
/* FPS_COLS by position: fps, then the frames of each drop level, then the
 * dropped frames of each. */
enum { FP_FPS = 0, FP_FRAMES = 1, FP_DROPPED = FP_FRAMES + GD_DROP__COUNT };

/* The columns of gd_query_frames' groups (the three SELECTs of its UNION
 * list them in this order), of a group's frames (fq), of its overlapping
 * blocks (bq), and of gd_query_frame_summaries' rows. */
enum { GR_TRACE, GR_PID, GR_WINDOW, GR_MATRIX, GR_SOURCE };
enum { FT_TS, FT_DUR, FT_VSYNC, FT_JANK, FT_PRESENT, FT_MISSED };
enum { BQ_DISPATCH };
enum { SM_TRACE, SM_PID, SM_WINDOW, SM_ID, SM_NAME, SM_VALUE };

static void bind_text_or_null(sqlite3_stmt *q, int i, sqlite3_stmt *from, int col)
{
    if (sqlite3_column_type(from, col) == SQLITE_NULL)
        sqlite3_bind_null(q, i);
    else
        sqlite3_bind_text(q, i, (const char *)sqlite3_column_text(from, col), -1, SQLITE_TRANSIENT);
}

static json_t *levels_json(const int64_t *v)
{
    json_t *o = json_object();
    for (int l = 0; l < GD_DROP__COUNT; l++)
        json_object_set_new(o, gd_drop_level_name((gd_drop_level)l), json_integer(v[l]));
    return o;
}

/* A block's id added to the array ctx once (gd_store_each_reuse's callback). */
static int block_id_row(void *ctx, sqlite3_stmt *bq)
{
    json_t *arr = ctx;
    int64_t id = sqlite3_column_int64(bq, BQ_DISPATCH);
    size_t i, n = json_array_size(arr);
    for (i = 0; i < n; i++)
        if (json_integer_value(json_array_get(arr, i)) == id)
            break;
    if (i == n)
        json_array_append_new(arr, json_integer(id));
    return GD_OK;
}

/* Adds the ids of the blocks overlapping [start, end) of trace/pid to arr, once each. */
static int overlapping_blocks(gd_store *s, sqlite3_stmt *bq, int64_t trace, int have_pid, int64_t pid,
                              double start, double end, json_t *arr)
{
    sqlite3_bind_int64(bq, 1, trace);
    if (have_pid)
        sqlite3_bind_int64(bq, 2, pid);
    else
        sqlite3_bind_null(bq, 2);
    sqlite3_bind_double(bq, 3, start);
    sqlite3_bind_double(bq, 4, end);
    /* the caller reports a read error (gd_store_fail, after the reset) */
    int rc = gd_store_each_reuse(s, bq, block_id_row, arr, NULL);
    sqlite3_clear_bindings(bq);
    return rc ? -1 : 0;
}

typedef struct frame_buf {
    gd_frame_in *f;
    size_t n, cap;
} frame_buf;

static int buf_push(frame_buf *b, double dur, double vsync)
{
    if (gd_grow((void **)&b->f, &b->cap, b->n + 1, sizeof *b->f, NULL))
        return -1;
    b->f[b->n].dur_ms = dur;
    b->f[b->n].vsync_ms = vsync;
    b->n++;
    return 0;
}

static const char *const TIMELINE_FIELDS[] = {"janky", "janky_pct", "app_janky", "compositor_janky",
                                              "dropped_frames", "jank_tags", "jank_types"};

static void timeline_null(json_t *row)
{
    for (size_t i = 0; i < sizeof TIMELINE_FIELDS / sizeof *TIMELINE_FIELDS; i++)
        json_object_set_new(row, TIMELINE_FIELDS[i], json_null());
}

/* The FrameTimeline figures of a window (godeye-frames(1)). */
static void timeline_json(const gd_ft_stats *ft, json_t *row)
{
    json_object_set_new(row, "janky", json_integer((json_int_t)ft->janky));
    json_object_set_new(row, "janky_pct",
                        ft->frames ? json_real(round(1e4 * (double)ft->janky / (double)ft->frames) / 100)
                                   : json_null());
    json_object_set_new(row, "app_janky", json_integer((json_int_t)ft->app));
    json_object_set_new(row, "compositor_janky", json_integer((json_int_t)ft->compositor));
    json_object_set_new(row, "dropped_frames", json_integer((json_int_t)ft->dropped));
    json_t *tags = json_object(), *types = json_object();
    for (int t = 0; t < GD_FT_TAG__COUNT; t++)
        json_object_set_new(tags, gd_ft_tag_name((gd_ft_tag)t), json_integer((json_int_t)ft->tag[t]));
    if (ft->unspecified)
        json_object_set_new(types, "Unspecified", json_integer((json_int_t)ft->unspecified));
    for (int b = 0; b < GD_FT_NBITS; b++)
        if (ft->bit[b])
            json_object_set_new(types, gd_ft_jank_bit_name(b), json_integer((json_int_t)ft->bit[b]));
    if (ft->other_bits)
        json_object_set_new(types, "other", json_integer((json_int_t)ft->other_bits));
    json_object_set_new(row, "jank_tags", tags);
    json_object_set_new(row, "jank_types", types);
}

/* "772 (26.59%)" -> 772 and 26.59, "9ms" -> 9 (the figures as gfxinfo
 * prints them); NaN for what does not read so. */
static double figure_number(const char *v, double *pct)
{
    char *e;
    double x = v ? strtod(v, &e) : NAN;
    if (!v || e == v)
        return NAN;
    if (pct) {
        const char *o = strchr(e, '(');
        *pct = o ? strtod(o + 1, NULL) : NAN;
    }
    return x;
}

static void set_figure(json_t *row, const char *key, double x)
{
    json_object_set_new(row, key, isnan(x) ? json_null() : json_real(x));
}

/* device_json's figures of the first summary (gd_store_each's callback) */
enum { DV_NAME, DV_VALUE, DV_WINDOW, DV_ID };
struct device_ctx {
    double frames, janky, pct, p[4];
    const char *scope;
    int64_t id;
};

static int device_figure(void *ctx, sqlite3_stmt *q)
{
    struct device_ctx *d = ctx;
    if (d->id >= 0 && sqlite3_column_int64(q, DV_ID) != d->id)
        return GD_EACH_STOP; /* one summary: the first */
    d->id = sqlite3_column_int64(q, DV_ID);
    d->scope = sqlite3_column_type(q, DV_WINDOW) == SQLITE_NULL ? "process" : "window";
    const char *n = (const char *)sqlite3_column_text(q, DV_NAME);
    const char *v = (const char *)sqlite3_column_text(q, DV_VALUE);
    static const char *const pn[4] = {"50th percentile", "90th percentile", "95th percentile",
                                      "99th percentile"};
    if (strcmp(n, "Total frames rendered") == 0)
        d->frames = figure_number(v, NULL);
    else if (strcmp(n, "Janky frames") == 0)
        d->janky = figure_number(v, &d->pct);
    for (int i = 0; i < 4; i++)
        if (strcmp(n, pn[i]) == 0)
            d->p[i] = figure_number(v, NULL);
    return GD_OK;
}

/* device_json's placeholder column, said as why the device leads */
enum { BAD_DETAIL, BAD_VALUE, BAD_ROWS, BAD_SAME };
struct why_ctx {
    char *why;
    size_t n;
    const char *scope;
};

static int placeholder_row(void *ctx, sqlite3_stmt *q)
{
    struct why_ctx *w = ctx;
    snprintf(w->why, w->n, "legacy table: %s is %.2f in %lld of %lld rows, a placeholder, not frame times; %s",
             (const char *)sqlite3_column_text(q, BAD_DETAIL), sqlite3_column_double(q, BAD_VALUE),
             (long long)sqlite3_column_int64(q, BAD_SAME), (long long)sqlite3_column_int64(q, BAD_ROWS),
             w->scope ? "the device's summary leads" : "no device summary to lead");
    return GD_EACH_STOP;
}

/* #51: the device's own summary beside godeye's figures (the window's
 * "Window:" summary, else its process's), and which of the two leads: the
 * device's when the window's rows cannot give frame times (a legacy table
 * with a placeholder column, reported by the gfxinfo reader). */
static int device_json(gd_store *s, sqlite3_stmt *g, int have_pid, int64_t pid, json_t *row, gd_error *err)
{
    sqlite3_stmt *q = gd_store_cached(
        s,
        "SELECT x.name, x.value, f.window, f.id FROM frame_summary f JOIN raw_event e ON e.id = f.id"
        " JOIN frame_figure x ON x.summary = f.id WHERE f.trace = ?1 AND (f.window IS ?2 OR (f.window IS NULL"
        " AND (?3 IS NULL OR e.pid IS ?3))) ORDER BY f.window IS NULL, f.id DESC, x.seq",
        err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, sqlite3_column_int64(g, GR_TRACE));
    bind_text_or_null(q, 2, g, GR_WINDOW);
    if (have_pid)
        sqlite3_bind_int64(q, 3, pid);
    struct device_ctx d = {NAN, NAN, NAN, {NAN, NAN, NAN, NAN}, NULL, -1};
    int rc = gd_store_each(s, q, device_figure, &d, err); /* releases q */
    if (rc)
        return rc;
    json_object_set_new(row, "device_scope", d.scope ? json_string(d.scope) : json_null());
    set_figure(row, "device_frames", d.frames);
    set_figure(row, "device_janky", d.janky);
    set_figure(row, "device_janky_pct", d.pct);
    set_figure(row, "device_p50_ms", d.p[0]);
    set_figure(row, "device_p90_ms", d.p[1]);
    set_figure(row, "device_p95_ms", d.p[2]);
    set_figure(row, "device_p99_ms", d.p[3]);
    q = gd_store_cached(s,
                        "SELECT detail, json_extract(content, '$.value'), json_extract(content, '$.rows'),"
                        " json_extract(content, '$.same') FROM issue WHERE trace = ?1 AND tool = 'gfxinfo'"
                        " AND type = 'legacy_table_constant_column'"
                        " AND json_extract(content, '$.window') IS ?2 ORDER BY id LIMIT 1",
                        err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, sqlite3_column_int64(g, GR_TRACE));
    bind_text_or_null(q, 2, g, GR_WINDOW);
    char why[256] = "";
    struct why_ctx w = {why, sizeof why, d.scope};
    if ((rc = gd_store_each(s, q, placeholder_row, &w, err))) /* releases q */
        return rc;
    json_object_set_new(row, "lead", json_string(why[0] && d.scope ? "device" : "godeye"));
    json_object_set_new(row, "lead_why", why[0] ? json_string(why) : json_null());
    return GD_OK;
}

static void device_null(json_t *row)
{
    static const char *const keys[] = {"device_scope", "device_frames", "device_janky", "device_janky_pct",
                                       "device_p50_ms", "device_p90_ms", "device_p95_ms", "device_p99_ms",
                                       "lead_why"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        json_object_set_new(row, keys[i], json_null());
    json_object_set_new(row, "lead", json_string("godeye"));
}

/* frames_row's frames, gathered (gd_store_each_reuse's callback): their
 * durations into buf, FrameTimeline figures into ft, the blocks under
 * frozen frames into blocks. */
struct frame_ctx {
    gd_store *s;
    sqlite3_stmt *bq;
    frame_buf *buf;
    gd_ft_stats *ft;
    json_t *blocks;
    int64_t trace, pid;
    int have_pid, timeline; /* timeline: 0 none, 1 surface frames, 2 display frames */
    long missed, judged; /* framestats rows that missed / had a deadline */
    gd_error *err;
};

static int frame_row(void *ctx, sqlite3_stmt *fq)
{
    struct frame_ctx *c = ctx;
    double ts = sqlite3_column_double(fq, FT_TS), dur = sqlite3_column_double(fq, FT_DUR);
    double vs = sqlite3_column_type(fq, FT_VSYNC) == SQLITE_NULL ? NAN : sqlite3_column_double(fq, FT_VSYNC);
    if (c->timeline) {
        int64_t jank = sqlite3_column_type(fq, FT_JANK) == SQLITE_NULL ? 0 : sqlite3_column_int64(fq, FT_JANK);
        int64_t present = sqlite3_column_type(fq, FT_PRESENT) == SQLITE_NULL ? -1 : sqlite3_column_int64(fq, FT_PRESENT);
        if (c->timeline == 2)
            gd_ft_stats_add_display(c->ft, jank);
        else
            gd_ft_stats_add(c->ft, jank, present);
        if (gd_ft_is_dropped(jank))
            return GD_OK; /* no meaningful duration */
    } else if (sqlite3_column_type(fq, FT_MISSED) != SQLITE_NULL) {
        c->judged++;
        c->missed += sqlite3_column_int64(fq, FT_MISSED) != 0;
    }
    if (buf_push(c->buf, dur, vs))
        return gd_error_oom(c->err);
    if (gd_frame_is_frozen(dur) &&
        overlapping_blocks(c->s, c->bq, c->trace, c->have_pid, c->pid, ts, ts + dur, c->blocks))
        return gd_store_fail(c->s, c->err, "database read");
    return GD_OK;
}

/* The row of one (trace, window, pid, frame source) group of frame_time. */
static int frames_row(gd_store *s, sqlite3_stmt *fq, sqlite3_stmt *bq, sqlite3_stmt *g, frame_buf *buf,
                      json_t *row, gd_error *err)
{
    int64_t trace = sqlite3_column_int64(g, GR_TRACE);
    int have_pid = sqlite3_column_type(g, GR_PID) != SQLITE_NULL;
    int64_t pid = sqlite3_column_int64(g, GR_PID);
    sqlite3_bind_int64(fq, 1, trace);
    bind_text_or_null(fq, 2, g, GR_WINDOW);
    if (have_pid)
        sqlite3_bind_int64(fq, 3, pid);
    bind_text_or_null(fq, 4, g, GR_SOURCE);
    /* FrameTimeline's frames: 1 an app's surface frames, 2 SurfaceFlinger's display frames */
    const char *src = (const char *)sqlite3_column_text(g, GR_SOURCE);
    int timeline = !src ? 0 : strcmp(src, "frametimeline") == 0 ? 1 : strcmp(src, "displayframe") == 0 ? 2 : 0;
    gd_ft_stats ft = {0};
    json_t *blocks = json_array();
    buf->n = 0;
    struct frame_ctx c = {s, bq, buf, &ft, blocks, trace, pid, have_pid, timeline, 0, 0, err};
    int rc = gd_store_each_reuse(s, fq, frame_row, &c, err);
    sqlite3_clear_bindings(fq);
    gd_frame_stats st;
    if (!rc)
        rc = gd_frame_stats_compute(buf->f, buf->n, &st, err);
    if (rc) {
        json_decref(blocks);
        return rc;
    }
    int64_t lv[GD_DROP__COUNT];
    for (int l = 0; l < GD_DROP__COUNT; l++)
        lv[l] = (int64_t)st.level[l];
    json_object_set_new(row, "frames", json_integer((json_int_t)(timeline ? ft.frames : st.frames)));
    json_object_set_new(row, "slow", json_integer((json_int_t)st.slow));
    json_object_set_new(row, "frozen", json_integer((json_int_t)st.frozen));
    json_object_set_new(row, "vitals_slow", json_integer((json_int_t)st.vitals_slow));
    /* the platform's jank: a frame that missed its deadline (FrameTimeline's
     * jank, or framestats rows judged by JankTracker's rule in the gfxinfo
     * reader; NULL when no row of the group had a deadline) */
    json_object_set_new(row, "deadline_missed", timeline   ? json_integer((json_int_t)ft.janky)
                                                : c.judged ? json_integer((json_int_t)c.missed)
                                                           : json_null());
    json_object_set_new(row, "p50_ms", gd_ms_json(st.p50_ms));
    json_object_set_new(row, "p90_ms", gd_ms_json(st.p90_ms));
    json_object_set_new(row, "p95_ms", gd_ms_json(st.p95_ms));
    json_object_set_new(row, "p99_ms", gd_ms_json(st.p99_ms));
    json_object_set_new(row, "max_ms", gd_ms_json(st.max_ms));
    json_object_set_new(row, "vsync_ms", gd_ms_json(st.vsync_ms));
    json_object_set_new(row, "dropped", json_integer(st.dropped));
    json_object_set_new(row, "drop_level", levels_json(lv));
    json_object_set_new(row, "drop_sum", levels_json(st.level_sum));
    json_object_set_new(row, "fps", isnan(st.fps) ? json_null() : json_real(round(st.fps * 100) / 100));
    json_object_set_new(row, "issues", json_null());
    json_object_set_new(row, "frozen_blocks", blocks);
    json_object_set_new(row, "frame_source", gd_col_text(g, GR_SOURCE));
    if (timeline)
        timeline_json(&ft, row);
    else
        timeline_null(row);
    return device_json(s, g, have_pid, pid, row, err);
}

/* matrix_row's issues, added up (gd_store_each_reuse's callback) */
struct fps_sum {
    int64_t lv[GD_DROP__COUNT], sum[GD_DROP__COUNT], frames, dropped;
    double cost; /* Σ frames_i / fps_i: the issues' rendering time in s */
    long issues, with_fps;
};

static int fps_row(void *ctx, sqlite3_stmt *mq)
{
    struct fps_sum *a = ctx;
    int64_t fi = 0;
    for (int l = 0; l < GD_DROP__COUNT; l++) {
        if (sqlite3_column_type(mq, FP_FRAMES + l) != SQLITE_NULL) {
            int64_t v = sqlite3_column_int64(mq, FP_FRAMES + l);
            a->lv[l] += v, fi += v;
        }
        if (sqlite3_column_type(mq, FP_DROPPED + l) != SQLITE_NULL) {
            int64_t v = sqlite3_column_int64(mq, FP_DROPPED + l);
            a->sum[l] += v, a->dropped += v;
        }
    }
    a->frames += fi;
    double fps = sqlite3_column_type(mq, FP_FPS) == SQLITE_NULL ? 0 : sqlite3_column_double(mq, FP_FPS);
    if (fps > 0 && fi > 0) {
        a->cost += (double)fi / fps;
        a->with_fps++;
    }
    a->issues++;
    return GD_OK;
}

/* The row of one (trace, scene) of Matrix Trace_FPS issues: their counts summed. */
static int matrix_row(gd_store *s, sqlite3_stmt *mq, sqlite3_stmt *g, json_t *row, gd_error *err)
{
    sqlite3_bind_int64(mq, 1, sqlite3_column_int64(g, GR_TRACE));
    bind_text_or_null(mq, 2, g, GR_WINDOW);
    struct fps_sum a = {.frames = 0};
    /* the read error is reported after the reset, as it always was */
    int rc = gd_store_each_reuse(s, mq, fps_row, &a, NULL);
    sqlite3_clear_bindings(mq);
    if (rc)
        return gd_store_fail(s, err, "database read");
    int64_t *lv = a.lv, *sum = a.sum, frames = a.frames, dropped = a.dropped;
    double cost = a.cost;
    long issues = a.issues, with_fps = a.with_fps;
    json_object_set_new(row, "frames", json_integer(frames));
    static const char *const absent[] = {"slow", "frozen", "vitals_slow", "deadline_missed", "p50_ms",
                                         "p90_ms", "p95_ms", "p99_ms", "max_ms", "vsync_ms"};
    for (size_t i = 0; i < sizeof absent / sizeof *absent; i++)
        json_object_set_new(row, absent[i], json_null());
    json_object_set_new(row, "dropped", json_integer(dropped));
    json_object_set_new(row, "drop_level", levels_json(lv));
    json_object_set_new(row, "drop_sum", levels_json(sum));
    /* the issues' fps combined as Matrix computes one: frames / rendering time */
    double fps = with_fps == issues && cost > 0 ? (double)frames / cost : NAN;
    json_object_set_new(row, "fps", isnan(fps) ? json_null() : json_real(round(fps * 100) / 100));
    json_object_set_new(row, "issues", json_integer(issues));
    json_object_set_new(row, "frozen_blocks", json_null());
    json_object_set_new(row, "frame_source", json_null());
    timeline_null(row);
    device_null(row);
    return GD_OK;
}

/* gd_query_frames' groups, each built and handed on (gd_store_each's
 * callback) */
struct groups_ctx {
    gd_store *s;
    sqlite3_stmt *fq, *bq, *mq;
    frame_buf *buf;
    gd_row_fn fn;
    void *ctx;
    gd_error *err;
    const char *app; /* --app, or NULL */
};

static int group_row(void *ctx, sqlite3_stmt *g)
{
    struct groups_ctx *c = ctx;
    int matrix = sqlite3_column_int(g, GR_MATRIX);
    json_t *row = json_object();
    json_object_set_new(row, "trace", json_integer(sqlite3_column_int64(g, GR_TRACE)));
    json_object_set_new(row, "pid", sqlite3_column_type(g, GR_PID) == SQLITE_NULL
                                        ? json_null()
                                        : json_integer(sqlite3_column_int64(g, GR_PID)));
    /* #47: whose frames: the process of the pid (the trace's app without
     * one); --app keeps the app's own */
    char proc[256];
    if (gd_query_process_of(c->s, sqlite3_column_int64(g, GR_TRACE),
                            sqlite3_column_type(g, GR_PID) == SQLITE_NULL ? -1 : sqlite3_column_int64(g, GR_PID),
                            proc, sizeof proc, c->err)) {
        json_decref(row);
        return c->err->code;
    }
    if (c->app && !gd_app_match(proc, c->app)) {
        json_decref(row);
        return GD_OK;
    }
    json_object_set_new(row, "process", proc[0] ? json_string(proc) : json_null());
    json_object_set_new(row, "window", gd_col_text(g, GR_WINDOW));
    json_object_set_new(row, "source", json_string(matrix ? "matrix" : "frames"));
    int rc = matrix ? matrix_row(c->s, c->mq, g, row, c->err) : frames_row(c->s, c->fq, c->bq, g, c->buf, row, c->err);
    int stop = rc ? 1 : c->fn(c->ctx, row);
    json_decref(row);
    return rc ? rc : stop ? GD_EACH_STOP : GD_OK;
}

int gd_query_frames(gd_store *s, const gd_frames_query *q, gd_row_fn fn, void *ctx, gd_error *err)
{
    char filt[4096], sfilt[4096], sql[16384];
    gd_store_filter_sql(q ? &q->filter : NULL, "trace", filt, sizeof filt);
    gd_store_filter_sql(q ? &q->filter : NULL, "f.trace", sfilt, sizeof sfilt);
    snprintf(sql, sizeof sql,
             "SELECT trace, " PID_SQL " AS pid, window, 0 AS is_fps, source FROM frame_time"
             " WHERE gd_match(window, ?1) %s AND " GD_FRAMES_SHOWN_SQL "%s"
             " UNION SELECT f.trace, " PID_SQL ", f.window, 0, NULL FROM frame_summary f"
             " JOIN raw_event e ON e.id = f.id"
             " WHERE f.window IS NOT NULL AND gd_match(f.window, ?1) %s"
             " UNION SELECT trace, NULL, scene, 1, NULL FROM issue_fps WHERE gd_match(scene, ?1) %s"
             " ORDER BY trace, window, is_fps, source, pid",
             filt, q && q->app_only ? " AND " GD_SQL_APP_FRAME : "", sfilt, filt);
    sqlite3_stmt *g = gd_store_prepare(s, sql, err);
    sqlite3_stmt *fq = g ? gd_store_prepare(s,
                                            "SELECT ts_ms, dur_ms, vsync_ms, jank, present, deadline_missed FROM frame_time"
                                            " WHERE trace = ?1 AND window IS ?2 AND " PID_SQL " IS ?3"
                                            " AND source IS ?4 ORDER BY ts_ms, id",
                                            err)
                         : NULL;
    sqlite3_stmt *bq = fq ? gd_store_prepare(s,
                                             "SELECT b.dispatch FROM block b JOIN dispatch d ON d.id = b.dispatch"
                                             " WHERE b.trace = ?1 AND (?2 IS NULL OR d.pid = ?2)"
                                             " AND d.start_ms < ?4 AND d.start_ms + d.dur_ms > ?3"
                                             " ORDER BY d.start_ms, d.id",
                                             err)
                          : NULL;
    sqlite3_stmt *mq = bq ? gd_store_prepare(s,
                                             "SELECT " FPS_COLS " FROM issue_fps"
                                             " WHERE trace = ?1 AND scene IS ?2 ORDER BY id",
                                             err)
                          : NULL;
    int rc = GD_OK;
    frame_buf buf = {0};
    if (!mq) {
        rc = err->code ? err->code : GD_ERR_IO;
        goto out;
    }
    if (q && q->window)
        sqlite3_bind_text(g, 1, q->window, -1, SQLITE_STATIC);
    struct groups_ctx c = {s, fq, bq, mq, &buf, fn, ctx, err, q ? q->filter.app : NULL};
    rc = gd_store_each(s, g, group_row, &c, err);
    g = NULL; /* finalized by gd_store_each */
out:
    free(buf.f);
    sqlite3_finalize(g);
    sqlite3_finalize(fq);
    sqlite3_finalize(bq);
    sqlite3_finalize(mq);
    return rc;
}

/* gd_query_frame_summaries' rows gathered into summaries (gd_store_each's
 * callback): `row`, the summary being built, is handed on when the next
 * one starts. */
struct summary_ctx {
    json_t *row, *figures;
    int64_t cur;
    gd_row_fn fn;
    void *ctx;
};

static int summary_row(void *ctx, sqlite3_stmt *g)
{
    struct summary_ctx *c = ctx;
    int64_t id = sqlite3_column_int64(g, SM_ID);
    if (c->row && id != c->cur) {
        int stop = c->fn(c->ctx, c->row);
        json_decref(c->row);
        c->row = NULL;
        if (stop)
            return GD_EACH_STOP;
    }
    if (!c->row) {
        c->cur = id;
        c->row = json_pack("{s:I s:o s:o s:s s:o}", "trace", (json_int_t)sqlite3_column_int64(g, SM_TRACE), "pid",
                           gd_col_json(g, SM_PID), "window", gd_col_text(g, SM_WINDOW), "period", "since app start",
                           "figures", json_object());
        c->figures = json_object_get(c->row, "figures");
    }
    if (sqlite3_column_type(g, SM_NAME) != SQLITE_NULL)
        json_object_set_new(c->figures, (const char *)sqlite3_column_text(g, SM_NAME), gd_col_text(g, SM_VALUE));
    return GD_OK;
}

/* One frame summary with its figures: the rows of one summary, one figure
 * per row (in the printed order), come together. */
int gd_query_frame_summaries(gd_store *s, const gd_frames_query *q, gd_row_fn fn, void *ctx,
                             gd_error *err)
{
    char filt[4096], sql[8192];
    gd_store_filter_sql(q ? &q->filter : NULL, "f.trace", filt, sizeof filt);
    snprintf(sql, sizeof sql,
             "SELECT f.trace, " PID_SQL ", f.window, f.id, g.name, g.value FROM frame_summary f"
             " JOIN raw_event e ON e.id = f.id JOIN frame_figure g ON g.summary = f.id"
             " WHERE gd_match(f.window, ?1) %s ORDER BY f.trace, f.id, g.seq",
             filt);
    sqlite3_stmt *g = gd_store_prepare(s, sql, err);
    if (!g)
        return err->code;
    if (q && q->window)
        sqlite3_bind_text(g, 1, q->window, -1, SQLITE_STATIC);
    struct summary_ctx c = {NULL, NULL, 0, fn, ctx};
    int rc = gd_store_each(s, g, summary_row, &c, err);
    if (c.row && !rc)
        fn(ctx, c.row);
    json_decref(c.row);
    return rc;
}
