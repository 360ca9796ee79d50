/* query/report.h - the report document: every number `godeye report` shows, gathered from the store. */
#ifndef GD_QUERY_REPORT_H
#define GD_QUERY_REPORT_H

#include <jansson.h>

#include "store/store.h"

/* Page draw/load ratings: "ok" up to OK_MS, "warn" up to SLOW_MS, else "slow". */
#define GD_REPORT_PAGE_OK_MS 1000.0
#define GD_REPORT_PAGE_SLOW_MS 2000.0

typedef struct gd_report_opts {
    gd_filter filter;
    int full;           /* also timelines, flame graphs, block samples, view trees */
} gd_report_opts;

/* Builds the report document (a new object; see godeye-report(1) OUTPUT
 * for its fields).  Bounded: series are binned and lists capped, whatever
 * the capture size, and the timelines share a page-wide budget, however
 * many traces the store holds.  On failure returns an error code with err
 * set and *out NULL. */
int gd_report_build(gd_store *s, const gd_report_opts *o, json_t **out, gd_error *err);

#endif
