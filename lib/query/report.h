/* query/report.h - the report document: every number `godeye report` shows, gathered from the store. */
#ifndef GD_QUERY_REPORT_H
#define GD_QUERY_REPORT_H

#include <jansson.h>

#include "query/columns.h"
#include "store/store.h"

/* Page draw/load ratings: "ok" up to OK_MS, "warn" up to SLOW_MS, else "slow". */
#define GD_REPORT_PAGE_OK_MS 1000.0
#define GD_REPORT_PAGE_SLOW_MS 2000.0

typedef struct gd_report_opts {
    gd_filter filter;
    int full;           /* also timelines, flame graphs, block samples, view trees */
} gd_report_opts;

/* The report document's keys in order, declared once (query/columns.h):
 * a document, not a row, so no table; every value computed (the lists of
 * the listing queries, capped, with their totals).  timelines,
 * timelines_total and flames only with `full`; report_focus.c adds the
 * focus keys after these. */
#define GD_REPORT_DOC_COLS(X, J)                                              \
    J(RP_VERSION, NULL, "report_version", NULL, INT, 0)                       \
    J(RP_SUMMARY, NULL, "summary", NULL, TEXT, 0)                             \
    J(RP_THRESHOLDS, NULL, "thresholds", NULL, TEXT, 0)                       \
    J(RP_TRACES, NULL, "traces", NULL, TEXT, 0)                               \
    J(RP_TOP, NULL, "top", NULL, TEXT, 0)                                     \
    J(RP_TOP_MORE, NULL, "top_more", NULL, INT, 0)                            \
    J(RP_WORST, NULL, "worst_blocks", NULL, TEXT, 0)                          \
    J(RP_TIMELINES, NULL, "timelines", NULL, TEXT, 0)                         \
    J(RP_TIMELINES_TOTAL, NULL, "timelines_total", NULL, INT, 0)              \
    J(RP_FLAMES, NULL, "flames", NULL, TEXT, 0)                               \
    J(RP_GROUPS, NULL, "groups", NULL, TEXT, 0)                               \
    J(RP_GROUPS_TOTAL, NULL, "groups_total", NULL, INT, 0)                    \
    J(RP_PAGES, NULL, "pages", NULL, TEXT, 0)                                 \
    J(RP_PAGES_TOTAL, NULL, "pages_total", NULL, INT, 0)                      \
    J(RP_SLOW_PAGES, NULL, "slow_pages", NULL, TEXT, 0)                       \
    J(RP_SLOW_PAGES_TOTAL, NULL, "slow_pages_total", NULL, INT, 0)            \
    J(RP_OVERDRAW, NULL, "overdraw", NULL, TEXT, 0)                           \
    J(RP_OVERDRAW_TOTAL, NULL, "overdraw_total", NULL, INT, 0)                \
    J(RP_IMAGES, NULL, "images", NULL, TEXT, 0)                               \
    J(RP_IMAGES_TOTAL, NULL, "images_total", NULL, INT, 0)                    \
    J(RP_FRAMES, NULL, "frames", NULL, TEXT, 0)                               \
    J(RP_STARTUPS, NULL, "startups", NULL, TEXT, 0)                           \
    J(RP_STARTUPS_TOTAL, NULL, "startups_total", NULL, INT, 0)                \
    J(RP_ANRS, NULL, "anrs", NULL, TEXT, 0)                                   \
    J(RP_ANRS_TOTAL, NULL, "anrs_total", NULL, INT, 0)                        \
    J(RP_ANRS_QUIET, NULL, "anrs_quiet", NULL, INT, 0)                        \
    J(RP_ANR_GROUPS, NULL, "anr_groups", NULL, TEXT, 0)                       \
    J(RP_ANR_GROUPS_TOTAL, NULL, "anr_groups_total", NULL, INT, 0)            \
    J(RP_ISSUES, NULL, "issues", NULL, TEXT, 0)                               \
    J(RP_LOCKS, NULL, "locks", NULL, TEXT, 0)                                 \
    J(RP_ISSUES_TOTAL, NULL, "issues_total", NULL, INT, 0)                    \
    J(RP_LOCKS_TOTAL, NULL, "locks_total", NULL, INT, 0)                      \
    J(RP_VERSIONS, NULL, "versions", NULL, TEXT, 0)
/* doc.versions: the oldest and the newest version compared (`godeye diff
 * version=OLD version=NEW`): the changed rows (capped) and their total,
 * the unchanged counted; flame (#52, the differential flame graph) only
 * when either side has stacks. */
#define GD_REPORT_VERSIONS_COLS(X, J)                             \
    J(RV_BASE, NULL, "base", NULL, TEXT, 0)                       \
    J(RV_HEAD, NULL, "head", NULL, TEXT, 0)                       \
    J(RV_COUNT, NULL, "count", NULL, INT, 0)                      \
    J(RV_CHANGED, NULL, "changed", NULL, TEXT, 0)                 \
    J(RV_CHANGED_TOTAL, NULL, "changed_total", NULL, INT, 0)      \
    J(RV_SAME, NULL, "same", NULL, INT, 0)                        \
    J(RV_INCONCLUSIVE, NULL, "inconclusive", NULL, INT, 0)        \
    J(RV_FLAME, NULL, "flame", NULL, TEXT, 0)
/* The ANR counts the summary gains (#28: gd_query_anr_count's). */
#define GD_REPORT_ANR_COLS(X, J)                                  \
    J(RA_ANR, NULL, "anr", NULL, INT, 0)                          \
    J(RA_DUMPS, NULL, "anr_dumps", NULL, INT, 0)                  \
    J(RA_BLOCKS, NULL, "anr_blocks", NULL, INT, 0)                \
    J(RA_SNAPSHOTS, NULL, "snapshot_dumps", NULL, INT, 0)
/* The bars the report rates by (thresholds). */
#define GD_REPORT_BAR_COLS(X, J)                                  \
    J(RBAR_PAGE_OK, NULL, "page_ok_ms", NULL, MS, 0)                \
    J(RBAR_PAGE_SLOW, NULL, "page_slow_ms", NULL, MS, 0)            \
    J(RBAR_COLD, NULL, "startup_cold_ms", NULL, MS, 0)              \
    J(RBAR_WARM, NULL, "startup_warm_ms", NULL, MS, 0)              \
    J(RBAR_HOT, NULL, "startup_hot_ms", NULL, MS, 0)

/* Builds the report document (a new object of GD_REPORT_DOC_COLS; see
 * godeye-report(1) OUTPUT for its fields).  Bounded: series are binned and lists capped, whatever
 * the capture size, and the timelines share a page-wide budget, however
 * many traces the store holds.  On failure returns an error code with err
 * set and *out NULL. */
int gd_report_build(gd_store *s, const gd_report_opts *o, json_t **out, gd_error *err);

#endif
