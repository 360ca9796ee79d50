/* query/threads.h - the query behind `godeye threads`: each thread's time by scheduling state. */
#ifndef GD_QUERY_THREADS_H
#define GD_QUERY_THREADS_H

#include "query/columns.h"
#include "store/store.h"

typedef struct gd_threads_query {
    gd_filter filter;
    int64_t tid;    /* only this thread, or -1 */
    int64_t block;  /* only the states inside this block (its thread, its time), or -1 */
} gd_threads_query;

/* The rows' fields, declared once (query/columns.h); described in
 * godeye-threads(1) OUTPUT.  All computed from the thread states. */
#define GD_THREADS_COLS(X, J)                                                                          \
    X(TH_TRACE, NULL, "trace", "TRACE", INT, 0)                                                        \
    X(TH_PID, NULL, "pid", "PID", INT, GD_QC_HIDDEN)                                                   \
    X(TH_TID, NULL, "tid", "TID", INT, 0)                                                              \
    X(TH_THREAD, NULL, "thread", "THREAD", TEXT, 0) /* a name: cut at its end */                      \
    X(TH_PROCESS, NULL, "process", "PROCESS", TEXT, 0) /* #47: godeye-blocks(1) PROCESS's rule */     \
    X(TH_MAIN, NULL, "main", "MAIN", BOOL, GD_QC_HIDDEN)                                               \
    X(TH_RUNNING, NULL, "running_ms", "RUNNING", MS, 0)                                                \
    X(TH_RUNNABLE, NULL, "runnable_ms", "RUNNABLE", MS, 0)                                             \
    X(TH_SLEEPING, NULL, "sleeping_ms", "SLEEPING", MS, 0)                                             \
    X(TH_D, NULL, "uninterruptible_ms", "D", MS, 0)                                                    \
    X(TH_OTHER, NULL, "other_ms", "OTHER", MS, GD_QC_HIDDEN)                                           \
    X(TH_MAX_R, NULL, "longest_runnable_ms", "MAX R", MS, 0)                                           \
    X(TH_MAX_R_AT, NULL, "longest_runnable_ts_ms", "MAX R AT", TIME, GD_QC_HIDDEN)                     \
    X(TH_MAX_D, NULL, "longest_uninterruptible_ms", "MAX D", MS, 0)                                    \
    X(TH_MAX_D_AT, NULL, "longest_uninterruptible_ts_ms", "MAX D AT", TIME, GD_QC_HIDDEN)              \
    X(TH_MAX_D_IN, NULL, "longest_uninterruptible_function", "MAX D IN", TEXT, GD_QC_WIDE | GD_QC_AUTO) \
    X(TH_BINDER_OUT, NULL, "binder_calls", "BINDER OUT", INT, 0)                                       \
    X(TH_BINDER_IN, NULL, "binder_served", "BINDER IN", INT, 0)
/* The table's and csv's order: PROCESS last (#47: csv readers count columns). */
#define GD_THREADS_TABLE(T)                                                                         \
    T(TH_TRACE) T(TH_PID) T(TH_TID) T(TH_THREAD) T(TH_MAIN) T(TH_RUNNING) T(TH_RUNNABLE)            \
    T(TH_SLEEPING) T(TH_D) T(TH_OTHER) T(TH_MAX_R) T(TH_MAX_R_AT) T(TH_MAX_D) T(TH_MAX_D_AT)         \
    T(TH_MAX_D_IN) T(TH_BINDER_OUT) T(TH_BINDER_IN) T(TH_PROCESS)

/* One row per thread with thread states, per trace the main thread first,
 * then by Running time (longest first), then tid.  Fields: godeye-threads(1)
 * OUTPUT.  GD_OK; GD_ERR_DATA when q->block names no block; another error
 * code with err filled (database failure, out of memory). */
int gd_query_threads(gd_store *s, const gd_threads_query *q, gd_row_fn fn, void *ctx, gd_error *err);

#endif
