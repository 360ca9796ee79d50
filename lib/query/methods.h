/* query/methods.h - per-method statistics, call trees and Matrix's evil-method rule
 * (`godeye methods`; query/methods.c, method_tree.c, evil_methods.c). */
#ifndef GD_QUERY_METHODS_H
#define GD_QUERY_METHODS_H

#include <stdint.h>

#include "query/columns.h"
#include "store/store.h"

typedef struct gd_methods_query {
    gd_filter filter;
    const char *thread;  /* a tid or a thread name; NULL = all threads     */
    double min_ms;       /* only methods with total_ms >= min_ms; NAN none */
    int64_t block;       /* dispatch id: clip to its interval and thread; -1 */
    double evil_ms;      /* evil-method threshold (Matrix: 700)            */
} gd_methods_query;

/* A (method, tid)'s fields, declared once (query/columns.h): sampled (#counts
 * and times of a sampled trace are estimates). */
#define GD_METHODS_COLS(X, J)                                             \
    X(MT_METHOD, NULL, "method", "METHOD", TEXT, GD_QC_WIDE)              \
    X(MT_DESC, NULL, "desc", "DESC", TEXT, GD_QC_HIDDEN)                  \
    X(MT_TID, NULL, "tid", "TID", INT, 0)                                 \
    X(MT_COUNT, NULL, "count", "COUNT", INT, 0)                           \
    X(MT_TOTAL, NULL, "total_ms", "TOTAL MS", MS, 0)                      \
    X(MT_SELF, NULL, "self_ms", "SELF MS", MS, 0)                         \
    X(MT_MAX, NULL, "max_ms", "MAX", MS, 0)                               \
    X(MT_P95, NULL, "p95_ms", "P95", MS, 0)                               \
    X(MT_OPEN, NULL, "open", "OPEN", INT, 0)                              \
    X(MT_SAMPLED, NULL, "sampled", "SAMPLED", BOOL, 0)
#define GD_METHODS_TABLE(T)                                                                      \
    T(MT_SELF) T(MT_TOTAL) T(MT_COUNT) T(MT_MAX) T(MT_P95) T(MT_OPEN) T(MT_TID) T(MT_SAMPLED)   \
    T(MT_METHOD) T(MT_DESC)
/* An evil method's fields (Matrix's evil-method rule). */
#define GD_EVIL_COLS(X, J)                                                         \
    X(EVM_TRACE, NULL, "trace", "TRACE", INT, 0)                                   \
    X(EVM_ID, NULL, "id", "ID", INT, 0)                                            \
    J(EVM_PID, NULL, "pid", NULL, INT, 0)                                          \
    X(EVM_TID, NULL, "tid", "TID", INT, GD_QC_HIDDEN)                              \
    X(EVM_START, NULL, "start_ms", "START", TIME, 0)                               \
    X(EVM_END, NULL, "end_ms", "END", TIME, GD_QC_HIDDEN)                          \
    X(EVM_DUR, NULL, "duration_ms", "MS", MS, 0)                                   \
    X(EVM_COST, NULL, "cost_ms", "COST MS", MS, 0)                                 \
    X(EVM_KEY, NULL, "stack_key", "STACK KEY", TEXT, GD_QC_WIDE)                   \
    X(EVM_KEY_DESC, NULL, "stack_key_desc", "KEY DESC", TEXT, GD_QC_HIDDEN)        \
    X(EVM_KEY_DEPTH, NULL, "stack_key_depth", "KEY DEPTH", INT, GD_QC_HIDDEN)      \
    X(EVM_KEY_COST, NULL, "stack_key_cost_ms", "KEY MS", MS, 0)
#define GD_EVIL_TABLE(T)                                                                         \
    T(EVM_ID) T(EVM_TRACE) T(EVM_TID) T(EVM_START) T(EVM_END) T(EVM_DUR) T(EVM_COST)            \
    T(EVM_KEY_COST) T(EVM_KEY_DEPTH) T(EVM_KEY) T(EVM_KEY_DESC)

/* Per (method, tid): the fields of GD_METHODS_COLS; by self_ms descending.  With q->block, over the calls of
 * that block's thread clipped to its interval.  GD_ERR_DATA when the
 * block does not exist. */
int gd_query_methods(gd_store *s, const gd_methods_query *q, gd_row_fn fn, void *ctx,
                     gd_error *err);
/* A call tree node's fields, declared once (query/columns.h): trace and
 * tid (the first two) only in a top-level node's row; children the nodes
 * under it (of the fields from MTR_METHOD on).  All computed.  Tables show
 * the tree a node a row (gd_render_nodes) with two columns of their own
 * (the P kind): its depth and CALL, its signature indented by its depth. */
#define GD_METHOD_TREE_COLS(X, J)                                   \
    J(MTR_TRACE, NULL, "trace", NULL, INT, 0)                       \
    X(MTR_TID, NULL, "tid", "TID", INT, 0)                          \
    J(MTR_METHOD, NULL, "method", NULL, TEXT, 0)                    \
    J(MTR_DESC, NULL, "desc", NULL, TEXT, 0)                        \
    J(MTR_SIGNATURE, NULL, "signature", NULL, TEXT, 0)              \
    X(MTR_COUNT, NULL, "count", "COUNT", INT, 0)                    \
    X(MTR_OPEN, NULL, "open", "OPEN", INT, 0)                       \
    X(MTR_TOTAL, NULL, "total_ms", "TOTAL MS", MS, 0)               \
    X(MTR_SELF, NULL, "self_ms", "SELF MS", MS, 0)                  \
    J(MTR_CHILDREN, NULL, "children", NULL, TEXT, 0)
#define GD_METHOD_TREE_TABLE(T, P)                                              \
    T(MTR_TOTAL) T(MTR_SELF) T(MTR_COUNT) T(MTR_OPEN) T(MTR_TID)                \
    P(MTR_DEPTH, NULL, "depth", "DEPTH", INT, GD_QC_HIDDEN)                     \
    P(MTR_CALL, NULL, "call", "CALL", TEXT, GD_QC_WIDE)

/* The call tree merged by path: one row per top-level node, the fields of
 * GD_METHOD_TREE_COLS. */
int gd_query_method_tree(gd_store *s, const gd_methods_query *q, gd_row_fn fn, void *ctx,
                         gd_error *err);
/* Matrix's evil-method rule: dispatches whose traced methods cost >=
 * q->evil_ms, with the stack key recomputed as TraceDataUtils.getTreeKey
 * does.  Rows: the fields of GD_EVIL_COLS. */
int gd_query_evil_methods(gd_store *s, const gd_methods_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err);

#endif
