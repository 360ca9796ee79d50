/* issue_groups.h - the tools' findings aggregated (`godeye issues --group`). */
#ifndef GD_QUERY_ISSUE_GROUPS_H
#define GD_QUERY_ISSUE_GROUPS_H

#include "store/store.h"

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
