/* query/views.h - page instances, view dumps and image issues
 * (`godeye pages`, `godeye overdraw`, `godeye images`; query/views.c). */
#ifndef GD_QUERY_VIEWS_H
#define GD_QUERY_VIEWS_H

#include <stdint.h>

#include "store/store.h"

typedef struct gd_pages_query {
    gd_filter filter;
    const char *page;       /* only this class, or NULL                   */
    double slow_ms;         /* NAN: all; else draw or load time above it  */
    int group;              /* per-class aggregates instead of instances  */
} gd_pages_query;

/* Page instances with their timelines (`godeye pages`), or per-class
 * aggregates with q->group. */
int gd_query_pages(gd_store *s, const gd_pages_query *q, gd_row_fn fn, void *ctx, gd_error *err);

/* One row per view dump with its overdraw (`godeye overdraw`); with_views
 * adds "view_list" (the tree). */
int gd_query_overdraw(gd_store *s, const gd_filter *f, int with_views, gd_row_fn fn, void *ctx,
                      gd_error *err);

typedef struct gd_images_query {
    gd_filter filter;
    const char *issue;      /* only this issue name, or NULL              */
    double high, low;       /* thresholds (NAN: 1.5 and 0.5)              */
} gd_images_query;

/* Image issues, de-duplicated by (trace, page instance, view, bitmap size,
 * issue) with a count, by wasted bytes descending (`godeye images`). */
int gd_query_images(gd_store *s, const gd_images_query *q, gd_row_fn fn, void *ctx, gd_error *err);

#endif
