/* query/diff.h - the questions behind `godeye diff` and `godeye check`:
 * traces picked by selectors, two selections compared per block group,
 * page class, frame window, launch kind and ANR count, budgets checked. */
#ifndef GD_QUERY_DIFF_H
#define GD_QUERY_DIFF_H

#include "query/columns.h"
#include "store/store.h"

/* Traces picked by a selector, pooled. */
typedef struct gd_selection {
    int64_t *ids;
    size_t n;
    double minutes;   /* Σ trace.exposure_ms / 60000 (GD_SQL_TRACE_EXPOSURE) */
    size_t unexposed; /* #52: traces whose span is no capture time (issue
                         logs, GD_SQL_EXPOSURE_REAL): no rate test then */
    char *where;      /* a fleet's selection: its condition on the fleet's
                         traces (ids NULL, n the traces matched); NULL here */
    const char *app;  /* --app (#47): only rows of this package's processes
                         (gd_app_match); NULL = every process.  Borrowed:
                         gd_selection_free leaves it.  A fleet's too (#47:
                         the rows' pushed process, fleet/gate.c). */
} gd_selection;

/* What a side of a diff or check is read from when it is not the store
 * (a fleet, fleet/gate.h): rows calls fn with every row of `what` over
 * the selection, shaped as the store's listing rows are:
 *   "blocks"   group, kind, duration_ms (one per block; a bounded sample
 *              per group may stand for the rest, see "group_stats")
 *   "group_stats" group, count, total_ms (a group's exact figures when
 *              "blocks" gave only a sample of it)
 *   "pages"    page, draw_ms, load_ms
 *   "frames"   source ("frames"), window, frames, slow, frozen, max_ms
 *   "startups" app, kind, total_ms
 *   "anr"      total (the ANR count, gd_query_anr_count's rule)
 * and returns GD_OK or an error code with err set. */
typedef struct gd_side_source {
    int (*rows)(void *ctx, const gd_selection *sel, const char *what, gd_row_fn fn, void *fn_ctx,
                gd_error *err);
    void *ctx;
} gd_side_source;

/* Resolves a selector: a trace id ("3"), a comma list ("1,2,5") or
 * key=value on the traces' metadata, key one of version (version_name),
 * app, device, api (api_level), source; the value matches exactly.
 * GD_ERR_USAGE for a malformed selector (unknown key, empty value, a list
 * with something not a positive integer); GD_ERR_DATA when it matches no
 * trace (or names an id that is not a trace) or more than 400 traces;
 * GD_ERR_IO for the database.
 * On success free with gd_selection_free. */
int gd_query_select(gd_store *s, const char *selector, gd_selection *out, gd_error *err);
/* The traces of the newest version_name (gd_version_cmp); every trace when
 * none has a version; GD_ERR_DATA when the store has no trace. */
int gd_query_select_newest(gd_store *s, gd_selection *out, gd_error *err);
void gd_selection_free(gd_selection *sel);
/* The oldest and newest version_name in the store (gd_version_cmp order;
 * both NULL when no trace has one) and how many distinct there are.  The
 * strings are the caller's to free. */
int gd_query_version_span(gd_store *s, char **oldest, char **newest, size_t *n, gd_error *err);

typedef struct gd_diff_query {
    const gd_selection *base, *head;
    double alpha;          /* significance level (NAN: 0.01)               */
    long min_samples;      /* per side for the duration tests (<0: 5)      */
    const gd_side_source *src; /* NULL: the store; else the store is unused */
    struct gd_diff_summary *summary; /* #52: filled before the rows, or NULL */
} gd_diff_query;

/* The headline of a diff (#52): rows by status; `regressions` counts the
 * rows whose "regression" is true (regressed, or new and an ANR group,
 * the ANR count or a block group with a block over its long bar);
 * new_groups the new rows of kind group or anr_group, what `check`'s
 * new_groups rule counts (gd_diff_summarize, the one home of both). */
typedef struct gd_diff_summary {
    long regressions, regressed, new_rows, gone, improved, inconclusive, same, new_groups;
} gd_diff_summary;

/* A side's figures in a diff row (its "base" and "head" objects),
 * declared once (query/columns.h): p50_ms, p95_ms and total_ms null in
 * frames rows; slow, frozen, slow_pct, frozen_pct (the last four) only in
 * frames rows.  All computed.  Tables show a field of both sides side by
 * side: "BASE " and "HEAD " before the header, "base." and "head." before
 * the key (the path of the value in the row). */
#define GD_DIFF_SIDE_COLS(X, J)                                    \
    X(DS_COUNT, NULL, "count", "N", INT, 0)                        \
    X(DS_PER_MIN, NULL, "per_min", "/MIN", NUM, 0)                 \
    X(DS_P50, NULL, "p50_ms", "P50", MS, 0)                        \
    X(DS_P95, NULL, "p95_ms", "P95", MS, 0)                        \
    X(DS_MAX, NULL, "max_ms", "MAX", MS, GD_QC_HIDDEN)             \
    X(DS_TOTAL, NULL, "total_ms", "TOTAL", MS, GD_QC_HIDDEN)       \
    J(DS_SLOW, NULL, "slow", NULL, INT, 0)                         \
    J(DS_FROZEN, NULL, "frozen", NULL, INT, 0)                     \
    X(DS_SLOW_PCT, NULL, "slow_pct", "SLOW%", NUM, GD_QC_AUTO)     \
    J(DS_FROZEN_PCT, NULL, "frozen_pct", NULL, NUM, 0)
/* A row of `godeye diff` (godeye-diff(1) OUTPUT), declared once: base and
 * head are objects of GD_DIFF_SIDE_COLS; frozen_p_value only in frames
 * rows.  All computed. */
#define GD_DIFF_COLS(X, J)                                                      \
    X(DF_KIND, NULL, "kind", "KIND", TEXT, 0)                                   \
    X(DF_NAME, NULL, "name", "NAME", TEXT, GD_QC_WIDE)                          \
    X(DF_METRIC, NULL, "metric", "METRIC", TEXT, GD_QC_AUTO)                    \
    X(DF_STATUS, NULL, "status", "STATUS", TEXT, 0)                             \
    X(DF_NOTE, NULL, "note", "NOTE", TEXT, GD_QC_AUTO)                          \
    J(DF_BASE, NULL, "base", NULL, TEXT, 0)                                     \
    J(DF_HEAD, NULL, "head", NULL, TEXT, 0)                                     \
    X(DF_P, NULL, "p_value", "P", NUM, 0)                                       \
    X(DF_RATE_P, NULL, "rate_p_value", "RATE P", NUM, 0)                        \
    J(DF_FROZEN_P, NULL, "frozen_p_value", NULL, NUM, 0)                        \
    X(DF_SHIFT, NULL, "shift_ms", "SHIFT", MS, 0)                               \
    X(DF_SHIFT_LO, NULL, "shift_ci_low_ms", "CI95 LOW", MS, 0)                  \
    X(DF_SHIFT_HI, NULL, "shift_ci_high_ms", "CI95 HIGH", MS, 0)                \
    X(DF_CHANGE, NULL, "change_pct", "P50 CHANGE%", NUM, 0)                     \
    X(DF_CHANGE95, NULL, "p95_change_pct", "P95 CHANGE%", NUM, GD_QC_HIDDEN)    \
    X(DF_RATE_CHANGE, NULL, "per_min_change", "RATE CHANGE", NUM, GD_QC_HIDDEN) \
    X(DF_IMPACT, NULL, "impact_ms_per_min", "MS/MIN CHANGE", NUM, 0)            \
    X(DF_DECIDED, NULL, "decided_by", "DECIDED BY", TEXT, GD_QC_HIDDEN)         \
    X(DF_TEST, NULL, "test_text", "TEST", TEXT, 0)                              \
    X(DF_REGRESSION, NULL, "regression", "REGRESSION", BOOL, GD_QC_HIDDEN)
/* The table's and csv's order: T(ID) a field of the row, S(ID) a field
 * of GD_DIFF_SIDE_COLS, base then head. */
#define GD_DIFF_TABLE(T, S)                                                                        \
    T(DF_STATUS) T(DF_KIND) S(DS_COUNT) S(DS_PER_MIN) S(DS_P50) S(DS_P95) S(DS_MAX) S(DS_TOTAL)    \
    S(DS_SLOW_PCT) T(DF_SHIFT) T(DF_SHIFT_LO) T(DF_SHIFT_HI) T(DF_CHANGE) T(DF_CHANGE95)           \
    T(DF_RATE_CHANGE) T(DF_IMPACT) T(DF_P) T(DF_RATE_P) T(DF_METRIC) T(DF_NAME) T(DF_NOTE)         \
    T(DF_DECIDED) T(DF_TEST) T(DF_REGRESSION)

/* Rows of `godeye diff`: the fields of GD_DIFF_COLS; by status (regressed,
 * new, gone, improved, inconclusive, same), then by impact.  GD_OK or an error code with err filled. */
int gd_query_diff(gd_store *s, const gd_diff_query *q, gd_row_fn fn, void *ctx, gd_error *err);

/* Checks that a budget (the parsed JSON of godeye-check(1)) is well formed:
 * GD_ERR_USAGE naming unknown keys or a value of the wrong type. */
int gd_budget_validate(const json_t *budget, gd_error *err);

typedef struct gd_check_query {
    const json_t *budget;          /* validated with gd_budget_validate     */
    const gd_selection *head;      /* the traces checked                   */
    const gd_selection *base;      /* for new_groups/regressed_groups, or NULL */
    int allow_missing;             /* every rule optional (--allow-missing)  */
    const gd_side_source *src;     /* NULL: the store; else the store is unused */
} gd_check_query;

/* A rule's row of `godeye check`, declared once (query/columns.h): value
 * null when no data; status "pass", "fail", "no data" (no value, and the
 * rule is not optional) or "skipped" (no value, optional); broken: fail
 * or no data.  All computed. */
#define GD_CHECK_COLS(X, J)                                   \
    X(CK_RULE, NULL, "rule", "RULE", TEXT, 0)                 \
    X(CK_VALUE, NULL, "value", "VALUE", NUM, 0)               \
    X(CK_LIMIT, NULL, "limit", "LIMIT", NUM, 0)               \
    X(CK_STATUS, NULL, "status", "STATUS", TEXT, 0)           \
    X(CK_UNIT, NULL, "unit", "UNIT", TEXT, 0)                 \
    X(CK_BROKEN, NULL, "broken", "BROKEN", BOOL, GD_QC_HIDDEN)
/* The table's and csv's order: the status first. */
#define GD_CHECK_TABLE(T) T(CK_STATUS) T(CK_RULE) T(CK_VALUE) T(CK_LIMIT) T(CK_UNIT) T(CK_BROKEN)

/* One row per rule of the budget, in the rule table's order: the fields
 * of GD_CHECK_COLS.  *broken receives the number of broken rules.  A rule that needs base
 * without one is GD_ERR_USAGE. */
int gd_query_check(gd_store *s, const gd_check_query *q, gd_row_fn fn, void *ctx, int *broken,
                   gd_error *err);

#endif
