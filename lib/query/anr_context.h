/* query/anr_context.h - what the database holds around one ANR
 * (`godeye anr --context`; query/anr_context.c). */
#ifndef GD_QUERY_ANR_CONTEXT_H
#define GD_QUERY_ANR_CONTEXT_H

#include <stdint.h>

#include "query/columns.h"
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
/* The rows' fields, declared once (query/columns.h): expr is the block
 * rows' own (the first SELECT of the union names the columns); LOG_START
 * and LOG_END only on the no_log row; the ANR's fields are the query's.
 * (The expressions use store/sql.h's GD_SQL_BLOCK_KIND: expanded only where
 * the query reads them, never in cli/.) */
#define GD_ANR_CONTEXT_COLS(X, J)                                                      \
    X(CX_TRACE, "d.trace", "trace", "TRACE", INT, 0)                                   \
    X(CX_TS, "d.start_ms", "ts_ms", "TIME", TIME, 0)                                   \
    X(CX_KIND, "'block'", "kind", "KIND", TEXT, 0)                                     \
    X(CX_TID, "d.tid", "tid", "TID", INT, 0)                                           \
    X(CX_DUR, "d.dur_ms", "dur_ms", "MS", MS, 0)                                       \
    X(CX_WHAT, "m.text", "what", "WHAT", TEXT, GD_QC_WIDE)                             \
    X(CX_BLOCK, GD_SQL_BLOCK_KIND("d", "t"), "block", "BLOCK", TEXT, GD_QC_AUTO)      \
    J(CX_LOG_START, NULL, "log_start_ms", NULL, TIME, 0)                               \
    J(CX_LOG_END, NULL, "log_end_ms", NULL, TIME, 0)                                   \
    X(CX_ANR_TRACE, NULL, "anr_trace", "ANR TRACE", INT, GD_QC_HIDDEN)                 \
    X(CX_ANR_PID, NULL, "anr_pid", "PID", INT, 0)                                      \
    J(CX_ANR_TS, NULL, "anr_ts_ms", NULL, TIME, 0)                                     \
    X(CX_PROCESS, NULL, "process", "APP", TEXT, GD_QC_WIDE)                            \
    X(CX_BEFORE, NULL, "before_ms", "BEFORE MS", MS, 0)
/* The table's and csv's order: the ANR first, the row's place, then what. */
#define GD_ANR_CONTEXT_TABLE(T)                                                                  \
    T(CX_ANR_TRACE) T(CX_ANR_PID) T(CX_PROCESS) T(CX_TRACE) T(CX_TS) T(CX_BEFORE) T(CX_KIND) T(CX_TID) \
    T(CX_DUR) T(CX_BLOCK) T(CX_WHAT)

int gd_query_anr_context(gd_store *s, const gd_anr_context_query *q, gd_row_fn fn, void *ctx, gd_error *err);

#endif
