/* query/anr_context.h - what the database holds around one ANR
 * (`godeye anr --context`; query/anr_context.c). */
#ifndef GD_QUERY_ANR_CONTEXT_H
#define GD_QUERY_ANR_CONTEXT_H

#include <stdint.h>

#include "store/store.h"

/* One ANR whose context is asked for (`godeye anr --context`). */
typedef struct gd_anr_context_query {
    gd_filter filter;     /* the traces searched                           */
    int64_t trace, pid;   /* the ANR dump's trace and pid                  */
    double ts_ms;         /* the dump's time                               */
    double window_ms;     /* how far back                                  */
    const char *process;  /* the dump's process (matches launches) or NULL */
} gd_anr_context_query;

/* What the database holds for the ANR's process in [ts_ms - window_ms,
 * ts_ms], by time (at most 500 rows): blocks of its threads (dispatches at
 * or over the trace's short threshold) overlapping the window (block: their
 * kind), its outermost calls, its frames (one row per trace and window:
 * count, the longest as dur_ms), the tools' findings about it, launches of
 * its app.  Rows: trace, ts_ms, kind ("block", "call", "frames", "issue",
 * "startup"), tid, dur_ms, what, block, anr_trace, anr_pid, anr_ts_ms,
 * process, before_ms.  When no log row (dispatch, frame, finding, launch) of
 * the traces searched reaches into the window, a last row of kind "no_log"
 * (ts_ms: the dump's) with log_start_ms / log_end_ms (null: no log at
 * all).  #28: the log_line rows of its pid are rows of kind "log" (what:
 * "LEVEL TAG: message") and count as log. */
int gd_query_anr_context(gd_store *s, const gd_anr_context_query *q, gd_row_fn fn, void *ctx, gd_error *err);

#endif
