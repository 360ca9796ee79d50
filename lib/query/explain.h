/* query/explain.h - one item of `godeye top` explained from what the
 * database holds: what it is, its figures, the evidence rows, the
 * definitions used and the commands that show more (`godeye explain`;
 * query/explain.c). */
#ifndef GD_QUERY_EXPLAIN_H
#define GD_QUERY_EXPLAIN_H

#include <stdint.h>

#include "store/store.h"

/* Which item: the `top`-th entry of `godeye top` (the same filter and
 * focus), or an item named by a selector (gd_explain_parse). */
typedef struct gd_explain_query {
    gd_filter filter;   /* --trace and --app, as top takes them            */
    int focus;          /* 1: top's default focus; 0: --all-processes      */
    long top;           /* > 0: the entry of this rank                     */
    int64_t anr_id;     /* > 0: the ANR dump of this id (`anr --id`)        */
    const char *group;  /* non-NULL: the block group of this name          */
} gd_explain_query;

/* Reads a selector into q: "anr:ID" (an ANR dump's id, as `godeye anr
 * --id` takes it) or "group:NAME" (a block group, as `godeye blocks
 * --group` names it).  GD_OK, or GD_ERR_USAGE with err saying what the
 * selector should be. */
int gd_explain_parse(const char *sel, gd_explain_query *q, gd_error *err);

/* The account of the item, one row per fact, in order: {section, name,
 * value, source}.  section: "item" (what it is: kind, title, rank,
 * selector, process, trace), "figure" (a number or state the database
 * holds), "evidence" (stack frames, the lock holder, the binder chain,
 * the log lines before an ANR, the launches or blocks behind a group),
 * "definition" (the rule a figure follows: value its text, source the
 * doc or platform page it comes from) or "more" (a godeye command that
 * shows more: value the command).  source: the godeye command whose
 * output holds the value (figures and evidence), null for "item" rows
 * of top's own.  Nothing is inferred that no stored row says.  An item
 * that does not exist: GD_ERR_DATA ("no item 12: top lists 10 entries",
 * "no ANR dump with id 9", "no block group 'x'"). */
int gd_query_explain(gd_store *s, const gd_explain_query *q, gd_row_fn fn, void *ctx, gd_error *err);

#endif
