/* issue_groups.h - the tools' findings aggregated (`godeye issues --group`). */
#ifndef GD_QUERY_ISSUE_GROUPS_H
#define GD_QUERY_ISSUE_GROUPS_H

#include "query/columns.h"
#include "store/store.h"

/* A group's fields, declared once (query/columns.h), all computed: key an
 * object of the fields that make the group; total_ms and max_ms null when
 * no finding of it has a cost; traces how many. */
#define GD_ISSUE_GROUPS_COLS(X, J)                                    \
    X(IG_TOOL, NULL, "tool", "TOOL", TEXT, 0)                         \
    X(IG_TYPE, NULL, "type", "TYPE", TEXT, 0)                         \
    X(IG_KEY, NULL, "key", "KEY", TEXT, GD_QC_HIDDEN)                 \
    X(IG_LABEL, NULL, "label", "GROUP", TEXT, GD_QC_WIDE)             \
    X(IG_COUNT, NULL, "count", "COUNT", INT, 0)                       \
    X(IG_TOTAL, NULL, "total_ms", "TOTAL MS", MS, 0)                  \
    X(IG_MAX, NULL, "max_ms", "MAX MS", MS, 0)                        \
    X(IG_FIRST, NULL, "first_ms", "FIRST", TIME, GD_QC_HIDDEN)        \
    X(IG_LAST, NULL, "last_ms", "LAST", TIME, GD_QC_HIDDEN)           \
    X(IG_TRACES, NULL, "traces", "TRACES", INT, GD_QC_HIDDEN)
/* The table's and csv's order: the figures before the group's label. */
#define GD_ISSUE_GROUPS_TABLE(T)                                                                   \
    T(IG_TOOL) T(IG_TYPE) T(IG_COUNT) T(IG_TOTAL) T(IG_MAX) T(IG_TRACES) T(IG_FIRST) T(IG_LAST) \
    T(IG_LABEL) T(IG_KEY)

/* The findings of gd_query_issues (of `tool` only, or all) in groups, the
 * largest total cost first: lock_contention by owner thread, owner's
 * method, blocked method and whether main waited; frame_jank by layer and
 * jank types; a finding with a Looper message (slow_delivery, ...) by its
 * handler and callback (gd_group_fallback); skipped_frames by pid; any
 * other by its detail.  Rows: tool, type, key (the fields above), label
 * (one line), count, total_ms and max_ms (over the findings with a cost;
 * null when none has one), first_ms, last_ms, traces (how many).  Memory
 * grows with the number of groups.  On failure returns an error code with
 * err set. */
int gd_query_issue_groups(gd_store *s, const gd_filter *f, const char *tool, gd_row_fn fn, void *ctx,
                          gd_error *err);

#endif
