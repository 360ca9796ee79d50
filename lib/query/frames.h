/* query/frames.h - the queries behind `godeye frames`: per-window frame
 * statistics, gfxinfo summaries as printed, Matrix FPS issues. */
#ifndef GD_QUERY_FRAMES_H
#define GD_QUERY_FRAMES_H

#include "analysis/frametimeline.h"
#include "query/columns.h"
#include "store/sql.h"
#include "store/store.h"

/* The frames shown (the one home of that rule): a trace with FrameTimeline
 * frames shows those, not its Choreographer#doFrame slices.  `trace` names the trace column and `table`
 * the frames table (plain SQL: the store's, and the fleet's in ClickHouse,
 * fleet/gate.c). */
#define GD_SQL_FRAMES_SHOWN(trace, table)                                                          \
    "NOT (coalesce(source, '') = 'doframe' AND " trace " IN"                                        \
    " (SELECT " trace " FROM " table " WHERE source = 'frametimeline'))"
#define GD_FRAMES_SHOWN_SQL GD_SQL_FRAMES_SHOWN("trace", "frame_time")
/* An app's frames (the one rule): SurfaceFlinger's display frames (source
 * 'displayframe', FrameTimeline's actual display frames) are the
 * compositor's, not an app's, so the figures about the app's frames (the
 * report, top, the fleet's gate) leave them out; `godeye frames` lists
 * them on their own row. */
#define GD_SQL_APP_FRAME "coalesce(source, '') <> 'displayframe'"
#define GD_SQL_APP_FRAMES_SHOWN(trace, table) GD_SQL_FRAMES_SHOWN(trace, table) " AND " GD_SQL_APP_FRAME
#define GD_APP_FRAMES_SHOWN_SQL GD_SQL_APP_FRAMES_SHOWN("trace", "frame_time")
/* A frame whose duration counts (the one rule, gd_ft_is_dropped's in
 * SQL): FrameTimeline's dropped frames (jank_type with Dropped Frame)
 * never reached the screen, so every figure of durations (slow, janky,
 * frozen, percentiles, histogram, time lost) leaves them out; the frame
 * counts keep them (godeye frames: frames, dropped_frames).  Other frames
 * have no jank_type (NULL) and count. */
#define GD_SQL_FRAME_TIMED "NOT (coalesce(jank, 0) > 0 AND (jank & " GD_STR(GD_FT_JANK_DROPPED) ") <> 0)"

/* #51: whose figures lead a window's frames (the one rule: godeye frames'
 * `lead`, top's frames entries): the device's printed summary when the
 * window's rows cannot give frame times (the gfxinfo reader reported a
 * placeholder column of the window's legacy table, an issue of tool
 * 'gfxinfo', type 'legacy_table_constant_column') and the device printed a
 * summary with figures for it (the window's "Window:" summary, else its
 * process's; `pid` NULL: any process's); else godeye's.  The arguments are
 * SQL expressions. */
#define GD_SQL_PLACEHOLDER_ISSUES(alias, trace)                                                     \
    "issue " alias " WHERE " alias ".trace = " trace " AND " alias ".tool = 'gfxinfo' AND " alias       \
    ".type = 'legacy_table_constant_column'"
#define GD_SQL_FRAMES_PLACEHOLDER(trace, window)                                                    \
    "EXISTS (SELECT 1 FROM " GD_SQL_PLACEHOLDER_ISSUES("ph", trace) " AND json_extract(ph.content, '$.window') IS " window ")"
/* whether a trace has such a table at all (a constant where trace is) */
#define GD_SQL_TRACE_HAS_PLACEHOLDER(trace) "EXISTS (SELECT 1 FROM " GD_SQL_PLACEHOLDER_ISSUES("pt", trace) ")"
#define GD_SQL_DEVICE_SUMMARY_OF(trace, window, pid)                                                \
    "EXISTS (SELECT 1 FROM frame_summary ds JOIN raw_event de ON de.id = ds.id WHERE ds.trace = " trace \
    " AND (ds.window IS " window " OR (ds.window IS NULL AND (" pid " IS NULL OR de.pid IS " pid ")))"  \
    " AND EXISTS (SELECT 1 FROM frame_figure df WHERE df.summary = ds.id))"
#define GD_SQL_DEVICE_LEADS(trace, window, pid)                                                     \
    "(" GD_SQL_FRAMES_PLACEHOLDER(trace, window) " AND " GD_SQL_DEVICE_SUMMARY_OF(trace, window, pid) ")"

typedef struct gd_frames_query {
    gd_filter filter;
    const char *window;     /* only windows/scenes whose name contains this, or NULL */
    int app_only;           /* 1: an app's frames only (GD_SQL_APP_FRAME: no display frames) */
} gd_frames_query;

/* pid as reported: a positive pid, else NULL (unknown) */
#define GD_FRAMES_PID_SQL "CASE WHEN pid > 0 THEN pid END"

/* A frames row's fields, declared once (query/columns.h); described in
 * godeye-frames(1) OUTPUT.  Read of the groups (gd_query_frames' UNION:
 * trace, pid, window, kind 'frames' or 'matrix', frame_source), the rest
 * computed of the group's frames (null for a Matrix scene) or of its
 * Matrix issues: drop_level and drop_sum objects by drop level,
 * FrameTimeline's figures (janky .. jank_types, null for other frames),
 * the device's printed summary (device_scope .. lead_why). */
#define GD_FRAMES_COLS(X, J)                                                                      \
    X(FR_TRACE, "trace", "trace", "TRACE", INT, 0)                                                \
    X(FR_PID, "pid", "pid", "PID", INT, GD_QC_HIDDEN)                                              \
    X(FR_PROCESS, NULL, "process", "PROCESS", TEXT, 0) /* #47: whose frames */                    \
    X(FR_WINDOW, "window", "window", "WINDOW", WINDOW, GD_QC_WIDE)                                 \
    X(FR_SOURCE, "kind", "source", "SOURCE", TEXT, GD_QC_HIDDEN)                                   \
    X(FR_FRAMES, NULL, "frames", "FRAMES", INT, 0)                                                 \
    /* #51: the definitions by name: SLOW>VSYNC over the display's interval,                    \
     * FROZEN>700 vitals' frozen, VITALS>16 Android vitals' slow frame,                         \
     * MISSED the platform's jank (FrameTimeline: deadline missed) */                           \
    X(FR_SLOW, NULL, "slow", "SLOW>VSYNC", INT, 0)                                                 \
    X(FR_FROZEN, NULL, "frozen", "FROZEN>700", INT, 0)                                             \
    X(FR_VITALS_SLOW, NULL, "vitals_slow", "VITALS>16", INT, 0)                                    \
    X(FR_MISSED, NULL, "deadline_missed", "MISSED", INT, GD_QC_AUTO)                               \
    X(FR_P50, NULL, "p50_ms", "P50", MS, 0)                                                        \
    X(FR_P90, NULL, "p90_ms", "P90", MS, 0)                                                        \
    X(FR_P95, NULL, "p95_ms", "P95", MS, 0)                                                        \
    X(FR_P99, NULL, "p99_ms", "P99", MS, 0)                                                        \
    X(FR_MAX, NULL, "max_ms", "MAX", MS, GD_QC_HIDDEN)                                             \
    X(FR_VSYNC, NULL, "vsync_ms", "VSYNC", MS, GD_QC_HIDDEN)                                       \
    J(FR_DROPPED, NULL, "dropped", NULL, INT, 0)                                                   \
    J(FR_DROP_LEVEL, NULL, "drop_level", NULL, TEXT, 0)                                            \
    J(FR_DROP_SUM, NULL, "drop_sum", NULL, TEXT, 0)                                                \
    X(FR_FPS, NULL, "fps", "FPS", TEXT, GD_QC_HIDDEN)                                              \
    J(FR_ISSUES, NULL, "issues", NULL, INT, 0)                                                     \
    X(FR_BLOCKS, NULL, "frozen_blocks", "BLOCKS", TEXT, 0)                                         \
    /* #27: FrameTimeline figures (null for other frames) */                                      \
    X(FR_FRAME_SOURCE, "frame_source", "frame_source", "FROM", TEXT, GD_QC_AUTO)                   \
    X(FR_JANKY, NULL, "janky", "JANKY", INT, GD_QC_AUTO)                                           \
    X(FR_JANKY_PCT, NULL, "janky_pct", "JANK%", NUM, GD_QC_AUTO)                                   \
    X(FR_APP_JANKY, NULL, "app_janky", "APP", INT, GD_QC_AUTO)                                     \
    X(FR_SF_JANKY, NULL, "compositor_janky", "SF", INT, GD_QC_AUTO)                                \
    X(FR_FT_DROPPED, NULL, "dropped_frames", "FT_DROPPED", INT, GD_QC_HIDDEN)                      \
    X(FR_JANK_TAGS, NULL, "jank_tags", "JANK_TAGS", TEXT, GD_QC_HIDDEN)                            \
    X(FR_JANK_TYPES, NULL, "jank_types", "JANK_TYPES", TEXT, GD_QC_HIDDEN)                         \
    /* #51: the device's printed summary beside (the window's, else its                         \
     * process's), and which leads, and why */                                                    \
    X(FR_DEV_SCOPE, NULL, "device_scope", "DEVICE OF", TEXT, GD_QC_HIDDEN)                         \
    X(FR_DEV_FRAMES, NULL, "device_frames", "DEV FRAMES", NUM, GD_QC_HIDDEN)                       \
    X(FR_DEV_JANKY, NULL, "device_janky", "DEV JANKY", NUM, GD_QC_HIDDEN)                          \
    X(FR_DEV_JANKY_PCT, NULL, "device_janky_pct", "DEV JANK%", NUM, GD_QC_AUTO)                    \
    X(FR_DEV_P50, NULL, "device_p50_ms", "DEV P50", NUM, GD_QC_AUTO)                               \
    X(FR_DEV_P90, NULL, "device_p90_ms", "DEV P90", NUM, GD_QC_HIDDEN)                             \
    X(FR_DEV_P95, NULL, "device_p95_ms", "DEV P95", NUM, GD_QC_HIDDEN)                             \
    X(FR_DEV_P99, NULL, "device_p99_ms", "DEV P99", NUM, GD_QC_HIDDEN)                             \
    X(FR_LEAD, NULL, "lead", "LEAD", TEXT, GD_QC_HIDDEN)                                           \
    X(FR_LEAD_WHY, NULL, "lead_why", "WHY", TEXT, GD_QC_AUTO)
/* The table's and csv's order: Matrix's drop levels D3..D42 (frames of
 * each, table-only, of drop_level) after the percentiles; #51's columns
 * and then PROCESS (#47) last (csv readers count columns). */
#define GD_FRAMES_TABLE(T, P)                                                                      \
    T(FR_TRACE) T(FR_PID) T(FR_WINDOW) T(FR_SOURCE) T(FR_FRAMES) T(FR_SLOW) T(FR_FROZEN)          \
    T(FR_P50) T(FR_P90) T(FR_P95) T(FR_P99) T(FR_MAX) T(FR_VSYNC)                                 \
    P(FR_D3, "drop_level.normal", "drop_normal", "D3", INT, 0)                                    \
    P(FR_D9, "drop_level.middle", "drop_middle", "D9", INT, 0)                                    \
    P(FR_D24, "drop_level.high", "drop_high", "D24", INT, 0)                                      \
    P(FR_D42, "drop_level.frozen", "drop_frozen", "D42", INT, 0)                                  \
    T(FR_FPS) T(FR_BLOCKS) T(FR_FRAME_SOURCE) T(FR_JANKY) T(FR_JANKY_PCT) T(FR_APP_JANKY)         \
    T(FR_SF_JANKY) T(FR_FT_DROPPED) T(FR_JANK_TAGS) T(FR_JANK_TYPES) T(FR_VITALS_SLOW)             \
    T(FR_MISSED) T(FR_DEV_SCOPE) T(FR_DEV_FRAMES) T(FR_DEV_JANKY) T(FR_DEV_JANKY_PCT)             \
    T(FR_DEV_P50) T(FR_DEV_P90) T(FR_DEV_P95) T(FR_DEV_P99) T(FR_LEAD) T(FR_LEAD_WHY)             \
    T(FR_PROCESS)

/* A gfxinfo summary's fields (gd_query_frame_summaries): figures the
 * object of its "Key: value" lines as printed, in file order. */
#define GD_FRAME_SUMMARY_COLS(X, J)                                                               \
    X(SM_TRACE, "f.trace", "trace", "TRACE", INT, 0)                                              \
    X(SM_PID, GD_FRAMES_PID_SQL, "pid", "PID", INT, 0)                                            \
    X(SM_WINDOW, "f.window", "window", "WINDOW", TEXT, GD_QC_WIDE)                                \
    J(SM_PERIOD, "'since app start'", "period", NULL, TEXT, 0)                                    \
    J(SM_FIGURES, GD_FRAME_FIGURES_SQL, "figures", NULL, TEXT, GD_QC_PARSE)
/* A summary's figures as one JSON object, in the printed order. */
#define GD_FRAME_FIGURES_SQL                                                                      \
    "(SELECT json_group_object(x.name, x.value) FROM (SELECT name, value FROM frame_figure"       \
    " WHERE summary = f.id ORDER BY seq) x)"
/* The table's and csv's order: the figures by the names the header
 * gives them, table-only. */
#define GD_FRAME_SUMMARY_TABLE(T, P)                                                              \
    T(SM_TRACE) T(SM_PID) T(SM_WINDOW)                                                            \
    P(SM_TOTAL, "figures.Total frames rendered", "total", "FRAMES SINCE START", TEXT, 0)          \
    P(SM_JANKY, "figures.Janky frames", "janky", "JANKY", TEXT, 0)                                \
    P(SM_P50, "figures.50th percentile", "p50", "P50", TEXT, 0)                                   \
    P(SM_P90, "figures.90th percentile", "p90", "P90", TEXT, 0)                                   \
    P(SM_P95, "figures.95th percentile", "p95", "P95", TEXT, 0)                                   \
    P(SM_P99, "figures.99th percentile", "p99", "P99", TEXT, 0)

/* One row per (trace, window, pid) with frames or a gfxinfo per-window
 * summary ("source": "frames"), and per (trace, Matrix scene) with Trace_FPS
 * issues ("source": "matrix"), ordered by trace, window (null first),
 * source, pid.  Fields: godeye-frames(1) OUTPUT.  GD_OK, or an error code
 * with err filled (database failure, out of memory). */
int gd_query_frames(gd_store *s, const gd_frames_query *q, gd_row_fn fn, void *ctx, gd_error *err);

/* GD_SQL_DEVICE_LEADS for one window (NULL: the frames without one) of
 * trace, of process pid (-1: any): *leads 1 when the device's summary
 * leads its figures, else 0. */
int gd_query_device_leads(gd_store *s, int64_t trace, const char *window, int64_t pid, int *leads, gd_error *err);

/* One row per gfxinfo summary block, in ingest order: trace, pid, window
 * (null: process-wide), period, figures (object of the block's "Key: value"
 * lines as printed, in file order).  GD_OK or an error code. */
int gd_query_frame_summaries(gd_store *s, const gd_frames_query *q, gd_row_fn fn, void *ctx,
                             gd_error *err);

#endif
