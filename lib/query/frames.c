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

/* a Matrix Trace_FPS issue's figures, drop columns in gd_drop_level order */
#define FPS_COLS                                                                                   \
    "fps, best_frames, normal_frames, middle_frames, high_frames, frozen_frames, best_dropped,"     \
    " normal_dropped, middle_dropped, high_dropped, frozen_dropped"
_Static_assert(GD_DROP__COUNT == 5, "FPS_COLS has five drop levels");
/* FPS_COLS by position: fps, then the frames of each drop level, then the
 * dropped frames of each. */
enum { FP_FPS = 0, FP_FRAMES = 1, FP_DROPPED = FP_FRAMES + GD_DROP__COUNT };

/* The fields of gd_query_frames' rows and of gd_query_frame_summaries'
 * (query/frames.h); the columns of a group's frames (fq) and of its
 * overlapping blocks (bq). */
enum { GD_FRAMES_COLS(GD_QC_ID, GD_QC_ID) FR_NCOLS };
GD_QCOLS_DEFINE(frames_cols, GD_FRAMES_COLS);
enum { GD_FRAME_SUMMARY_COLS(GD_QC_ID, GD_QC_ID) SM_NCOLS };
GD_QCOLS_DEFINE(summary_cols, GD_FRAME_SUMMARY_COLS);
_Static_assert(SM_NCOLS <= GD_QCOLS_MAX, "gd_qcols_row reads every field");
enum { FT_TS, FT_DUR, FT_VSYNC, FT_JANK, FT_PRESENT, FT_MISSED };
/* a group's frames read in time order (FT_* columns), by duration and by
 * interval (RQ_*: the value, the jank_type) */
enum { FQ_TIME, FQ_DUR, FQ_VSYNC, FQ_N };
enum { RQ_VALUE, RQ_JANK };
enum { BQ_DISPATCH };

/* A frames row being built: its fields and what they borrow (the nested
 * objects, the process's name, the lead's reason). */
typedef struct frames_out {
    gd_value v[FR_NCOLS];
    gd_rowb level, sum, tags, types;
    char proc[256], why[256];
} frames_out;

/* A text field (window, frame source) bound as text or NULL. */
static void bind_value(sqlite3_stmt *q, int i, const gd_value *v)
{
    if (v->kind == GD_V_TEXT)
        sqlite3_bind_text(q, i, v->u.t.s, (int)v->u.t.n, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(q, i);
}

/* A field that is an object of the drop levels' counts (drop_level, drop_sum). */
static void levels_value(gd_rowb *b, const int64_t *n, gd_value *v)
{
    gd_rowb_init(b);
    for (int l = 0; l < GD_DROP__COUNT; l++)
        gd_rowb_int(b, gd_drop_level_name((gd_drop_level)l), n[l]);
    gd_qv_nested(v, &b->row);
}

/* fps rounded to hundredths, null when none */
static void fps_value(gd_value *v, double fps)
{
    gd_qv_num(v, round(fps * 100) / 100);
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

/* The FrameTimeline figures of a window (godeye-frames(1)): its frames,
 * janky .. jank_types; jank_types has the kinds of jank that some frame has. */
static void timeline_fill(const gd_ft_stats *ft, frames_out *o)
{
    gd_qv_int(&o->v[FR_FRAMES], (int64_t)ft->frames); /* the dropped ones too */
    gd_qv_int(&o->v[FR_JANKY], (int64_t)ft->janky);
    if (ft->frames)
        gd_qv_real(&o->v[FR_JANKY_PCT], round(1e4 * (double)ft->janky / (double)ft->frames) / 100);
    gd_qv_int(&o->v[FR_APP_JANKY], (int64_t)ft->app);
    gd_qv_int(&o->v[FR_SF_JANKY], (int64_t)ft->compositor);
    gd_qv_int(&o->v[FR_FT_DROPPED], (int64_t)ft->dropped);
    gd_rowb_init(&o->tags);
    for (int t = 0; t < GD_FT_TAG__COUNT; t++)
        gd_rowb_int(&o->tags, gd_ft_tag_name((gd_ft_tag)t), (int64_t)ft->tag[t]);
    gd_qv_nested(&o->v[FR_JANK_TAGS], &o->tags.row);
    gd_rowb_init(&o->types);
    if (ft->unspecified)
        gd_rowb_int(&o->types, "Unspecified", (int64_t)ft->unspecified);
    for (int b = 0; b < GD_FT_NBITS; b++)
        if (ft->bit[b])
            gd_rowb_int(&o->types, gd_ft_jank_bit_name(b), (int64_t)ft->bit[b]);
    if (ft->other_bits)
        gd_rowb_int(&o->types, "other", (int64_t)ft->other_bits);
    gd_qv_nested(&o->v[FR_JANK_TYPES], &o->types.row);
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
        d->frames = gd_frame_figure_number(v, NULL);
    else if (strcmp(n, "Janky frames") == 0)
        d->janky = gd_frame_figure_number(v, &d->pct);
    for (int i = 0; i < 4; i++)
        if (strcmp(n, pn[i]) == 0)
            d->p[i] = gd_frame_figure_number(v, NULL);
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

/* gd_query_device_leads' GD_SQL_DEVICE_LEADS (gd_store_each's callback) */
static int device_leads_row(void *ctx, sqlite3_stmt *q)
{
    *(int *)ctx = sqlite3_column_int(q, 0);
    return GD_EACH_STOP;
}

int gd_query_device_leads(gd_store *s, int64_t trace, const char *window, int64_t pid, int *leads, gd_error *err)
{
    sqlite3_stmt *q = gd_store_cached(s, "SELECT " GD_SQL_DEVICE_LEADS("?1", "?2", "?3"), err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    if (window)
        sqlite3_bind_text(q, 2, window, -1, SQLITE_TRANSIENT);
    if (pid >= 0)
        sqlite3_bind_int64(q, 3, pid);
    *leads = 0;
    return gd_store_each(s, q, device_leads_row, leads, err); /* releases q */
}

/* #51: the device's own summary beside godeye's figures (the window's
 * "Window:" summary, else its process's), and which of the two leads: the
 * device's when the window's rows cannot give frame times (a legacy table
 * with a placeholder column, reported by the gfxinfo reader). */
static int device_fill(gd_store *s, int have_pid, int64_t pid, frames_out *o, gd_error *err)
{
    sqlite3_stmt *q = gd_store_cached(
        s,
        "SELECT x.name, x.value, f.window, f.id FROM frame_summary f JOIN raw_event e ON e.id = f.id"
        " JOIN frame_figure x ON x.summary = f.id WHERE f.trace = ?1 AND (f.window IS ?2 OR (f.window IS NULL"
        " AND (?3 IS NULL OR e.pid IS ?3))) ORDER BY f.window IS NULL, f.id DESC, x.seq",
        err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, o->v[FR_TRACE].u.i);
    bind_value(q, 2, &o->v[FR_WINDOW]);
    if (have_pid)
        sqlite3_bind_int64(q, 3, pid);
    struct device_ctx d = {NAN, NAN, NAN, {NAN, NAN, NAN, NAN}, NULL, -1};
    int rc = gd_store_each(s, q, device_figure, &d, err); /* releases q */
    if (rc)
        return rc;
    gd_qv_text(&o->v[FR_DEV_SCOPE], d.scope);
    gd_qv_num(&o->v[FR_DEV_FRAMES], d.frames);
    gd_qv_num(&o->v[FR_DEV_JANKY], d.janky);
    gd_qv_num(&o->v[FR_DEV_JANKY_PCT], d.pct);
    for (int i = 0; i < 4; i++)
        gd_qv_num(&o->v[FR_DEV_P50 + i], d.p[i]);
    q = gd_store_cached(s,
                        "SELECT ph.detail, json_extract(ph.content, '$.value'), json_extract(ph.content, '$.rows'),"
                        " json_extract(ph.content, '$.same') FROM " GD_SQL_PLACEHOLDER_ISSUES("ph", "?1")
                        " AND json_extract(ph.content, '$.window') IS ?2 ORDER BY ph.id LIMIT 1",
                        err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, o->v[FR_TRACE].u.i);
    bind_value(q, 2, &o->v[FR_WINDOW]);
    o->why[0] = '\0';
    struct why_ctx w = {o->why, sizeof o->why, d.scope};
    if ((rc = gd_store_each(s, q, placeholder_row, &w, err))) /* releases q */
        return rc;
    int leads = 0;
    const char *win = o->v[FR_WINDOW].kind == GD_V_TEXT ? o->v[FR_WINDOW].u.t.s : NULL;
    if ((rc = gd_query_device_leads(s, o->v[FR_TRACE].u.i, win, have_pid ? pid : -1, &leads, err)))
        return rc;
    gd_qv_text(&o->v[FR_LEAD], leads ? "device" : "godeye");
    gd_qv_text(&o->v[FR_LEAD_WHY], o->why[0] ? o->why : NULL);
    return GD_OK;
}

/* frames_fill's frames, read in time order (gd_store_each_reuse's
 * callback): their statistics into acc, FrameTimeline figures into ft,
 * the blocks under frozen frames into blocks. */
struct frame_ctx {
    gd_store *s;
    sqlite3_stmt *bq;
    gd_frame_acc *acc;
    gd_ft_stats *ft;
    json_t *blocks;
    int64_t trace, pid;
    int have_pid, timeline; /* timeline: 0 none, 1 surface frames, 2 display frames */
    long missed, judged; /* framestats rows that missed / had a deadline */
    gd_error *err;
};

/* 1 when the frame of row q (its jank_type in column jank) counts in a
 * group's statistics: FrameTimeline's dropped frames have no meaningful
 * duration. */
static int counted(int timeline, sqlite3_stmt *q, int jank)
{
    return !timeline || sqlite3_column_type(q, jank) == SQLITE_NULL ||
           !gd_ft_is_dropped(sqlite3_column_int64(q, jank));
}

/* A group's counted frames in order of duration, then of interval, into
 * an accumulator (gd_store_each_reuse's callbacks). */
struct ranks_ctx {
    gd_frame_acc *acc;
    int timeline;
};

static int dur_rank_row(void *ctx, sqlite3_stmt *q)
{
    struct ranks_ctx *c = ctx;
    if (counted(c->timeline, q, RQ_JANK))
        gd_frame_acc_dur(c->acc, sqlite3_column_double(q, RQ_VALUE));
    return GD_OK;
}

static int vsync_rank_row(void *ctx, sqlite3_stmt *q)
{
    struct ranks_ctx *c = ctx;
    double vs = sqlite3_column_type(q, RQ_VALUE) == SQLITE_NULL ? NAN : sqlite3_column_double(q, RQ_VALUE);
    if (counted(c->timeline, q, RQ_JANK) && gd_frame_vsync_known(vs))
        gd_frame_acc_vsync(c->acc, vs);
    return GD_OK;
}

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
        if (!counted(c->timeline, fq, FT_JANK))
            return GD_OK;
    } else if (sqlite3_column_type(fq, FT_MISSED) != SQLITE_NULL) {
        c->judged++;
        c->missed += sqlite3_column_int64(fq, FT_MISSED) != 0;
    }
    if (gd_frame_acc_add(c->acc, dur, vs, c->err))
        return c->err->code;
    if (gd_frame_is_frozen(dur) &&
        overlapping_blocks(c->s, c->bq, c->trace, c->have_pid, c->pid, ts, ts + dur, c->blocks))
        return gd_store_fail(c->s, c->err, "database read");
    return GD_OK;
}

/* matrix_fill's issues, added up (gd_store_each_reuse's callback) */
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

/* gd_query_frames' groups, each built and handed on (gd_store_each's
 * callback) */
struct groups_ctx {
    gd_store *s;
    sqlite3_stmt *fq[FQ_N], *bq, *mq; /* a group's frames in time, duration, interval order */
    gd_row_fn fn;
    void *ctx;
    gd_error *err;
    const char *app; /* --app, or NULL */
};

/* The fields of a group's frame statistics (frames .. fps). */
static void stats_fill(const gd_frame_stats *st, frames_out *o)
{
    gd_value *v = o->v;
    int64_t lv[GD_DROP__COUNT];
    for (int l = 0; l < GD_DROP__COUNT; l++)
        lv[l] = (int64_t)st->level[l];
    gd_qv_int(&v[FR_FRAMES], (int64_t)st->frames);
    gd_qv_int(&v[FR_SLOW], (int64_t)st->slow);
    gd_qv_int(&v[FR_FROZEN], (int64_t)st->frozen);
    gd_qv_int(&v[FR_VITALS_SLOW], (int64_t)st->vitals_slow);
    const double ms[] = {st->p50_ms, st->p90_ms, st->p95_ms, st->p99_ms, st->max_ms, st->vsync_ms};
    for (int i = 0; i < 6; i++)
        gd_qv_ms(&v[FR_P50 + i], ms[i]);
    gd_qv_int(&v[FR_DROPPED], st->dropped);
    levels_value(&o->level, lv, &v[FR_DROP_LEVEL]);
    levels_value(&o->sum, st->level_sum, &v[FR_DROP_SUM]);
    fps_value(&v[FR_FPS], st->fps);
}
_Static_assert(FR_VSYNC - FR_P50 == 5, "the percentiles, max and vsync in a row");

/* The fields of one (trace, window, pid, frame source) group of
 * frame_time: its frames gathered (frame_row), their statistics, the
 * FrameTimeline figures and the device's summary. */
static int frames_fill(struct groups_ctx *g, frames_out *o)
{
    gd_value *v = o->v;
    json_t *blocks = json_array();
    if (!blocks)
        return gd_error_oom(g->err);
    gd_qv_json(&v[FR_BLOCKS], blocks); /* the row's own from here */
    int have_pid = v[FR_PID].kind != GD_V_NULL;
    int64_t trace = v[FR_TRACE].u.i, pid = have_pid ? v[FR_PID].u.i : 0;
    for (int k = 0; k < FQ_N; k++) {
        sqlite3_bind_int64(g->fq[k], 1, trace);
        bind_value(g->fq[k], 2, &v[FR_WINDOW]);
        if (have_pid)
            sqlite3_bind_int64(g->fq[k], 3, pid);
        bind_value(g->fq[k], 4, &v[FR_FRAME_SOURCE]);
    }
    /* FrameTimeline's frames: 1 an app's surface frames, 2 SurfaceFlinger's display frames */
    const char *src = v[FR_FRAME_SOURCE].kind == GD_V_TEXT ? v[FR_FRAME_SOURCE].u.t.s : NULL;
    int timeline = !src ? 0 : strcmp(src, "frametimeline") == 0 ? 1 : strcmp(src, "displayframe") == 0 ? 2 : 0;
    gd_ft_stats ft = {0};
    gd_frame_acc acc;
    gd_frame_acc_init(&acc);
    struct frame_ctx c = {g->s, g->bq, &acc, &ft, blocks, trace, pid, have_pid, timeline, 0, 0, g->err};
    /* three reads of the group's rows, none held (#50): in time order the
     * counts, FrameTimeline's figures and the blocks; then the ranks the
     * percentiles need, by duration and by interval (SQLite's sorter) */
    int rc = gd_store_each_reuse(g->s, g->fq[FQ_TIME], frame_row, &c, g->err);
    gd_frame_acc_ranks(&acc);
    struct ranks_ctx r = {&acc, timeline};
    if (!rc && acc.st.frames)
        rc = gd_store_each_reuse(g->s, g->fq[FQ_DUR], dur_rank_row, &r, g->err);
    if (!rc && acc.nv)
        rc = gd_store_each_reuse(g->s, g->fq[FQ_VSYNC], vsync_rank_row, &r, g->err);
    for (int k = 0; k < FQ_N; k++)
        sqlite3_clear_bindings(g->fq[k]);
    if (rc)
        return rc;
    gd_frame_stats st;
    gd_frame_acc_done(&acc, &st);
    stats_fill(&st, o);
    /* the platform's jank: a frame that missed its deadline (FrameTimeline's
     * jank, or framestats rows judged by JankTracker's rule in the gfxinfo
     * reader; null when no row of the group had a deadline) */
    if (timeline || c.judged)
        gd_qv_int(&v[FR_MISSED], timeline ? (int64_t)ft.janky : (int64_t)c.missed);
    if (timeline)
        timeline_fill(&ft, o);
    return device_fill(g->s, have_pid, pid, o, g->err);
}
_Static_assert(FR_DEV_P99 - FR_DEV_P50 == 3, "the device percentiles in a row");

/* The fields of one (trace, scene) of Matrix Trace_FPS issues: their
 * counts summed. */
static int matrix_fill(struct groups_ctx *g, frames_out *o)
{
    sqlite3_bind_int64(g->mq, 1, o->v[FR_TRACE].u.i);
    bind_value(g->mq, 2, &o->v[FR_WINDOW]);
    struct fps_sum a = {.frames = 0};
    /* the read error is reported after the reset, as it always was */
    int rc = gd_store_each_reuse(g->s, g->mq, fps_row, &a, NULL);
    sqlite3_clear_bindings(g->mq);
    if (rc)
        return gd_store_fail(g->s, g->err, "database read");
    gd_qv_int(&o->v[FR_FRAMES], a.frames);
    gd_qv_int(&o->v[FR_DROPPED], a.dropped);
    levels_value(&o->level, a.lv, &o->v[FR_DROP_LEVEL]);
    levels_value(&o->sum, a.sum, &o->v[FR_DROP_SUM]);
    /* the issues' fps combined as Matrix computes one: frames / rendering time */
    fps_value(&o->v[FR_FPS], a.with_fps == a.issues && a.cost > 0 ? (double)a.frames / a.cost : NAN);
    gd_qv_int(&o->v[FR_ISSUES], a.issues);
    gd_qv_text(&o->v[FR_LEAD], "godeye");
    return GD_OK;
}

static int group_row(void *ctx, sqlite3_stmt *g)
{
    struct groups_ctx *c = ctx;
    frames_out o;
    for (size_t k = 0; k < FR_NCOLS; k++)
        gd_qv_null(&o.v[k]);
    gd_qcols_read(&frames_cols, g, 0, o.v);
    /* #47: whose frames: the process of the pid (the trace's app without
     * one); --app keeps the app's own */
    int64_t pid = o.v[FR_PID].kind == GD_V_NULL ? -1 : o.v[FR_PID].u.i;
    if (gd_query_process_of(c->s, o.v[FR_TRACE].u.i, pid, o.proc, sizeof o.proc, c->err))
        return c->err->code;
    if (c->app && !gd_app_match(o.proc, c->app))
        return GD_OK;
    gd_qv_text(&o.v[FR_PROCESS], o.proc[0] ? o.proc : NULL);
    int matrix = strcmp(o.v[FR_SOURCE].u.t.s, "matrix") == 0;
    int rc = matrix ? matrix_fill(c, &o) : frames_fill(c, &o);
    json_t *row = rc ? NULL : gd_qcols_json(&frames_cols, o.v);
    gd_qcols_clear(&frames_cols, o.v);
    if (rc)
        return rc;
    if (!row)
        return gd_error_oom(c->err);
    int stop = c->fn(c->ctx, row);
    json_decref(row);
    return stop ? GD_EACH_STOP : GD_OK;
}

int gd_query_frames(gd_store *s, const gd_frames_query *q, gd_row_fn fn, void *ctx, gd_error *err)
{
    char filt[4096], sfilt[4096], sql[16384], fields[1024];
    gd_store_filter_sql(q ? &q->filter : NULL, "trace", filt, sizeof filt);
    gd_store_filter_sql(q ? &q->filter : NULL, "f.trace", sfilt, sizeof sfilt);
    if (gd_qcols_select(&frames_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "frames: the SELECT list is too long");
    /* the groups: (trace, window, pid, frame source) of frame_time and of
     * gfxinfo's per-window summaries, (trace, scene) of Matrix's issues;
     * each SELECT of the UNION lists the columns in this order */
    snprintf(sql, sizeof sql,
             "SELECT %s FROM (SELECT trace, " GD_FRAMES_PID_SQL " AS pid, window, 'frames' AS kind,"
             " source AS frame_source FROM frame_time WHERE gd_match(window, ?1) %s AND " GD_FRAMES_SHOWN_SQL "%s"
             " UNION SELECT f.trace, " GD_FRAMES_PID_SQL ", f.window, 'frames', NULL FROM frame_summary f"
             " JOIN raw_event e ON e.id = f.id"
             " WHERE f.window IS NOT NULL AND gd_match(f.window, ?1) %s"
             " UNION SELECT trace, NULL, scene, 'matrix', NULL FROM issue_fps WHERE gd_match(scene, ?1) %s)"
             " ORDER BY trace, window, source, frame_source, pid",
             fields, filt, q && q->app_only ? " AND " GD_SQL_APP_FRAME : "", sfilt, filt);
    sqlite3_stmt *g = gd_store_prepare(s, sql, err);
    sqlite3_stmt *fq[FQ_N] = {NULL};
    static const char *const cols[FQ_N] = {"ts_ms, dur_ms, vsync_ms, jank, present, deadline_missed",
                                           "dur_ms, jank", "vsync_ms, jank"};
    static const char *const order[FQ_N] = {"ts_ms, id", "dur_ms", "vsync_ms"};
    for (int k = 0; k < FQ_N && g; k++) {
        char fsql[1024];
        snprintf(fsql, sizeof fsql,
                 "SELECT %s FROM frame_time WHERE trace = ?1 AND window IS ?2 AND " GD_FRAMES_PID_SQL " IS ?3"
                 " AND source IS ?4 ORDER BY %s",
                 cols[k], order[k]);
        if (!(fq[k] = gd_store_prepare(s, fsql, err)))
            break;
    }
    sqlite3_stmt *bq = fq[FQ_N - 1] ? gd_store_prepare(s,
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
    if (!mq) {
        rc = err->code ? err->code : GD_ERR_IO;
        goto out;
    }
    if (q && q->window)
        sqlite3_bind_text(g, 1, q->window, -1, SQLITE_STATIC);
    struct groups_ctx c = {s, {fq[FQ_TIME], fq[FQ_DUR], fq[FQ_VSYNC]}, bq, mq, fn, ctx, err, q ? q->filter.app : NULL};
    rc = gd_store_each(s, g, group_row, &c, err);
    g = NULL; /* finalized by gd_store_each */
out:
    sqlite3_finalize(g);
    for (int k = 0; k < FQ_N; k++)
        sqlite3_finalize(fq[k]);
    sqlite3_finalize(bq);
    sqlite3_finalize(mq);
    return rc;
}

/* A summary's row (gd_store_stream's builder). */
static json_t *summary_row(sqlite3_stmt *q)
{
    return gd_qcols_row(&summary_cols, q);
}

/* One gfxinfo summary per row, its figures gathered by SQL
 * (GD_FRAME_FIGURES_SQL); a summary without figures is left out. */
int gd_query_frame_summaries(gd_store *s, const gd_frames_query *q, gd_row_fn fn, void *ctx,
                             gd_error *err)
{
    char filt[4096], sql[8192], fields[1024];
    gd_store_filter_sql(q ? &q->filter : NULL, "f.trace", filt, sizeof filt);
    if (gd_qcols_select(&summary_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "frames: the SELECT list is too long");
    snprintf(sql, sizeof sql,
             "SELECT %s FROM frame_summary f JOIN raw_event e ON e.id = f.id"
             " WHERE gd_match(f.window, ?1) %s AND EXISTS (SELECT 1 FROM frame_figure x WHERE x.summary = f.id)"
             " ORDER BY trace, f.id",
             fields, filt);
    sqlite3_stmt *g = gd_store_prepare(s, sql, err);
    if (!g)
        return err->code;
    if (q && q->window)
        sqlite3_bind_text(g, 1, q->window, -1, SQLITE_STATIC);
    return gd_store_stream(s, g, summary_row, fn, ctx, err);
}
