/* query/threads.h - the query behind `godeye threads`: each thread's time by scheduling state. */
#ifndef GD_QUERY_THREADS_H
#define GD_QUERY_THREADS_H

#include "store/store.h"

typedef struct gd_threads_query {
    gd_filter filter;
    int64_t tid;    /* only this thread, or -1 */
    int64_t block;  /* only the states inside this block (its thread, its time), or -1 */
} gd_threads_query;

/* One row per thread with thread states, per trace the main thread first,
 * then by Running time (longest first), then tid.  Fields: godeye-threads(1)
 * OUTPUT.  GD_OK; GD_ERR_DATA when q->block names no block; another error
 * code with err filled (database failure, out of memory). */
int gd_query_threads(gd_store *s, const gd_threads_query *q, gd_row_fn fn, void *ctx, gd_error *err);

#endif
