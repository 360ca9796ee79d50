/* query/frames.h - the queries behind `godeye frames`: per-window frame
 * statistics, gfxinfo summaries as printed, Matrix FPS issues. */
#ifndef GD_QUERY_FRAMES_H
#define GD_QUERY_FRAMES_H

#include "store/store.h"

/* The frame_time rows that count: a trace with FrameTimeline frames shows
 * those, not its Choreographer#doFrame ones (the one home of that rule). */
/* The frames shown (the one rule): a trace's doFrame slices give way to
 * its FrameTimeline frames.  `trace` names the trace column and `table`
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

typedef struct gd_frames_query {
    gd_filter filter;
    const char *window;     /* only windows/scenes whose name contains this, or NULL */
    int app_only;           /* 1: an app's frames only (GD_SQL_APP_FRAME: no display frames) */
} gd_frames_query;

/* One row per (trace, window, pid) with frames or a gfxinfo per-window
 * summary ("source": "frames"), and per (trace, Matrix scene) with Trace_FPS
 * issues ("source": "matrix"), ordered by trace, window (null first),
 * source, pid.  Fields: godeye-frames(1) OUTPUT.  GD_OK, or an error code
 * with err filled (database failure, out of memory). */
int gd_query_frames(gd_store *s, const gd_frames_query *q, gd_row_fn fn, void *ctx, gd_error *err);

/* One row per gfxinfo summary block, in ingest order: trace, pid, window
 * (null: process-wide), period, figures (object of the block's "Key: value"
 * lines as printed, in file order).  GD_OK or an error code. */
int gd_query_frame_summaries(gd_store *s, const gd_frames_query *q, gd_row_fn fn, void *ctx,
                             gd_error *err);

#endif
