/* query/methods.h - per-method statistics, call trees and Matrix's evil-method rule
 * (`godeye methods`; query/methods.c, method_tree.c, evil_methods.c). */
#ifndef GD_QUERY_METHODS_H
#define GD_QUERY_METHODS_H

#include <stdint.h>

#include "store/store.h"

typedef struct gd_methods_query {
    gd_filter filter;
    const char *thread;  /* a tid or a thread name; NULL = all threads     */
    double min_ms;       /* only methods with total_ms >= min_ms; NAN none */
    int64_t block;       /* dispatch id: clip to its interval and thread; -1 */
    double evil_ms;      /* evil-method threshold (Matrix: 700)            */
} gd_methods_query;

/* Per (method, tid): method, desc, tid, count, total_ms, self_ms, max_ms,
 * p95_ms, open; by self_ms descending.  With q->block, over the calls of
 * that block's thread clipped to its interval.  GD_ERR_DATA when the
 * block does not exist. */
int gd_query_methods(gd_store *s, const gd_methods_query *q, gd_row_fn fn, void *ctx,
                     gd_error *err);
/* The call tree merged by path: one row per top-level node, nested
 * {method, desc, signature, count, open, total_ms, self_ms, children[]},
 * top-level nodes also carrying trace and tid. */
int gd_query_method_tree(gd_store *s, const gd_methods_query *q, gd_row_fn fn, void *ctx,
                         gd_error *err);
/* Matrix's evil-method rule: dispatches whose traced methods cost >=
 * q->evil_ms, with the stack key recomputed as TraceDataUtils.getTreeKey
 * does.  Rows: trace, id, pid, tid, start_ms, end_ms, duration_ms, cost_ms,
 * stack_key, stack_key_desc, stack_key_depth, stack_key_cost_ms. */
int gd_query_evil_methods(gd_store *s, const gd_methods_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err);

#endif
