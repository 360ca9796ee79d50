/* query/views.h - page instances, view dumps and image issues
 * (`godeye pages`, `godeye overdraw`, `godeye images`; query/views.c). */
#ifndef GD_QUERY_VIEWS_H
#define GD_QUERY_VIEWS_H

#include <stdint.h>

#include "query/columns.h"
#include "store/store.h"

typedef struct gd_pages_query {
    gd_filter filter;
    const char *page;       /* only this class, or NULL                   */
    double min_ms;          /* NAN: all; else draw or load time at least it
                             * (--min-ms, every command's "at least MS")  */
    double over_ms;         /* NAN: all; else draw or load time above it
                             * (the report's slow pages: over the ok bar) */
    int group;              /* per-class aggregates instead of instances  */
} gd_pages_query;

/* A page instance's fields, declared once (query/columns.h): events
 * [{event, ts_ms}], steps [{event, callback_ms, to_next_ms}]. */
#define GD_PAGES_COLS(X, J)                                             \
    X(PG_TRACE, NULL, "trace", "TRACE", INT, 0)                         \
    X(PG_PAGE, NULL, "page", "PAGE", TEXT, GD_QC_WIDE)                  \
    X(PG_HASH, NULL, "hash", "HASH", INT, 0)                            \
    X(PG_TYPE, NULL, "type", "TYPE", TEXT, 0)                           \
    X(PG_PARENT, NULL, "parent", "PARENT", INT, GD_QC_HIDDEN)           \
    X(PG_START, NULL, "start_ms", "START", TIME, 0)                     \
    X(PG_DRAW, NULL, "draw_ms", "DRAW MS", MS, 0)                       \
    X(PG_LOAD, NULL, "load_ms", "LOAD MS", MS, 0)                       \
    X(PG_EVENTS, NULL, "events", "EVENTS", TEXT, GD_QC_HIDDEN)          \
    J(PG_STEPS, NULL, "steps", NULL, TEXT, 0)
#define GD_PAGES_TABLE(T)                                                                         \
    T(PG_TRACE) T(PG_TYPE) T(PG_PAGE) T(PG_HASH) T(PG_PARENT) T(PG_START) T(PG_DRAW) T(PG_LOAD) \
    T(PG_EVENTS)
/* A page class's fields with --group: draw and load times of its instances. */
#define GD_PAGE_GROUPS_COLS(X, J)                                       \
    X(PGG_PAGE, NULL, "page", "PAGE", TEXT, GD_QC_WIDE)                 \
    X(PGG_TYPE, NULL, "type", "TYPE", TEXT, 0)                          \
    X(PGG_COUNT, NULL, "count", "COUNT", INT, 0)                        \
    X(PGG_DRAWN, NULL, "draw_count", "DRAWN", INT, GD_QC_HIDDEN)        \
    X(PGG_DRAW_P50, NULL, "draw_p50_ms", "DRAW P50", MS, 0)             \
    X(PGG_DRAW_P95, NULL, "draw_p95_ms", "DRAW P95", MS, 0)             \
    X(PGG_DRAW_MAX, NULL, "draw_max_ms", "DRAW MAX", MS, 0)             \
    X(PGG_LOADED, NULL, "load_count", "LOADED", INT, GD_QC_HIDDEN)      \
    X(PGG_LOAD_P50, NULL, "load_p50_ms", "LOAD P50", MS, 0)             \
    X(PGG_LOAD_P95, NULL, "load_p95_ms", "LOAD P95", MS, 0)             \
    X(PGG_LOAD_MAX, NULL, "load_max_ms", "LOAD MAX", MS, 0)
#define GD_PAGE_GROUPS_TABLE(T)                                                                   \
    T(PGG_PAGE) T(PGG_TYPE) T(PGG_COUNT) T(PGG_DRAW_P50) T(PGG_DRAW_P95) T(PGG_DRAW_MAX)         \
    T(PGG_LOAD_P50) T(PGG_LOAD_P95) T(PGG_LOAD_MAX) T(PGG_DRAWN) T(PGG_LOADED)

/* Page instances with their timelines (`godeye pages`), or per-class
 * aggregates with q->group. */
int gd_query_pages(gd_store *s, const gd_pages_query *q, gd_row_fn fn, void *ctx, gd_error *err);

/* A view dump's fields (`godeye overdraw`), declared once
 * (query/columns.h); described in godeye-overdraw(1).  screen [w, h];
 * deep_views [] when none; overdraw_px {"1", "2", "3", "4+"} (pixels drawn
 * that many times, GD_OVERDRAW_PX_COLS), overdraw_ratio and areas null
 * without paint data (areas [] when none); view_list (last) only with
 * --views, the dump's views [{id, parent, class, rect, layers, visible,
 * res_id}]. */
#define GD_OVERDRAW_COLS(X, J)                                                      \
    X(OD_TRACE, "trace", "trace", "TRACE", INT, 0)                                  \
    X(OD_DUMP, "id", "dump", "DUMP", INT, GD_QC_HIDDEN)                             \
    X(OD_PAGE, "page_class", "page", "PAGE", TEXT, GD_QC_WIDE) /* table: else the window */ \
    J(OD_PAGE_HASH, "page_hash", "page_hash", NULL, NUM, 0)                         \
    J(OD_WINDOW, "window", "window", NULL, TEXT, 0)                                 \
    J(OD_TS, "ts_ms", "ts_ms", NULL, MS, 0)                                         \
    J(OD_SCREEN, NULL, "screen", NULL, TEXT, 0)                                     \
    X(OD_VIEWS, "views", "views", "VIEWS", INT, 0)                                  \
    X(OD_DEPTH, "max_depth", "max_depth", "DEPTH", INT, 0)                          \
    J(OD_DEPTH_LIMIT, "depth_limit", "depth_limit", NULL, INT, 0)                   \
    J(OD_DEEP, "deep_views", "deep_views", NULL, TEXT, GD_QC_PARSE)                 \
    J(OD_HAS_PAINT, "has_paint", "has_paint", NULL, BOOL, 0)                        \
    J(OD_PX, NULL, "overdraw_px", NULL, TEXT, 0)                                    \
    J(OD_RATIO, NULL, "overdraw_ratio", NULL, NUM, 0)                               \
    J(OD_AREAS, "areas", "areas", NULL, TEXT, GD_QC_PARSE)                          \
    J(OD_TRUNCATED, "areas_truncated", "areas_truncated", NULL, BOOL, 0)            \
    J(OD_BROKEN, "broken", "broken", NULL, TEXT, 0)                                 \
    J(OD_VIEW_LIST, NULL, "view_list", NULL, TEXT, 0)
/* A view of view_list (--views), read from view. */
#define GD_OVERDRAW_VIEW_COLS(X, J)                               \
    J(ODV_ID, "id", "id", NULL, INT, 0)                           \
    J(ODV_PARENT, "parent", "parent", NULL, INT, 0)               \
    J(ODV_CLASS, "class", "class", NULL, TEXT, 0)                 \
    J(ODV_RECT, NULL, "rect", NULL, TEXT, 0) /* [l, t, r, b] */   \
    J(ODV_LAYERS, "layers", "layers", NULL, NUM, 0)               \
    J(ODV_VISIBLE, "visible", "visible", NULL, BOOL, 0)           \
    J(ODV_RES_ID, "res_id", "res_id", NULL, TEXT, 0)
/* overdraw_px's fields. */
#define GD_OVERDRAW_PX_COLS(X, J)              \
    J(ODP_1, NULL, "1", NULL, INT, 0)          \
    J(ODP_2, NULL, "2", NULL, INT, 0)          \
    J(ODP_3, NULL, "3", NULL, INT, 0)          \
    J(ODP_4, NULL, "4+", NULL, INT, 0)
/* The table's and csv's order, with the columns that are no field of the
 * row (query/columns.h's P kind): overdraw_px's counts (csv px_1..px_4,
 * cli-contract.md), the ratio to two decimals and a note (why a dump has no
 * figures, or how many views are too deep), the last two made by
 * cli/overdraw.c. */
#define GD_OVERDRAW_TABLE(T, P)                                 \
    T(OD_TRACE) T(OD_DUMP) T(OD_PAGE) T(OD_VIEWS) T(OD_DEPTH)   \
    P(ODT_PX1, "overdraw_px.1", "px_1", "1X", INT, 0)           \
    P(ODT_PX2, "overdraw_px.2", "px_2", "2X", INT, 0)           \
    P(ODT_PX3, "overdraw_px.3", "px_3", "3X", INT, 0)           \
    P(ODT_PX4, "overdraw_px.4+", "px_4", "4X+", INT, 0)         \
    P(ODT_RATIO, NULL, "ratio", "RATIO", TEXT, 0)               \
    P(ODT_NOTE, NULL, "note", "NOTE", TEXT, 0)

/* One row per view dump with its overdraw (`godeye overdraw`): the fields
 * of GD_OVERDRAW_COLS, view_list only with with_views; by trace, time. */
int gd_query_overdraw(gd_store *s, const gd_filter *f, int with_views, gd_row_fn fn, void *ctx,
                      gd_error *err);

/* `godeye images`' fields, declared once (query/columns.h): the image
 * rows of one group (GROUP BY all but ts_ms) and its check. */
#define GD_IMAGES_COLS(X, J)                                                    \
    X(IMG_TRACE, "trace", "trace", "TRACE", INT, 0)                             \
    X(IMG_PAGE, "page_class", "page", "PAGE", TEXT, GD_QC_WIDE)                 \
    J(IMG_PAGE_HASH, "page_hash", "page_hash", NULL, NUM, 0)                    \
    X(IMG_VIEW_HASH, "view_hash", "view_hash", "VIEW HASH", INT, GD_QC_HIDDEN)  \
    J(IMG_VIEW_CLASS, "view_class", "view_class", NULL, TEXT, 0)                \
    X(IMG_SOURCE, "source", "source", "SOURCE", TEXT, GD_QC_HIDDEN)             \
    X(IMG_BITMAP, NULL, "bitmap", "BITMAP", TEXT, 0) /* [w, h] */               \
    X(IMG_VIEW, NULL, "view", "VIEW", TEXT, 0)       /* [w, h] */               \
    J(IMG_CONFIG, "config", "config", NULL, TEXT, 0)                            \
    J(IMG_VISIBLE, "visible", "visible", NULL, BOOL, 0)                         \
    X(IMG_ISSUE, NULL, "issue", "ISSUE", TEXT, 0)                               \
    X(IMG_WASTED, NULL, "wasted_bytes", "WASTED", BYTES, 0)                     \
    X(IMG_COUNT, "count(*)", "count", "SEEN", INT, 0)                           \
    J(IMG_FIRST, "min(ts_ms)", "first_ms", NULL, MS, 0)
/* The table's and csv's order. */
#define GD_IMAGES_TABLE(T)                                                                      \
    T(IMG_TRACE) T(IMG_ISSUE) T(IMG_WASTED) T(IMG_BITMAP) T(IMG_VIEW) T(IMG_COUNT) T(IMG_PAGE) \
    T(IMG_VIEW_HASH) T(IMG_SOURCE)

typedef struct gd_images_query {
    gd_filter filter;
    const char *issue;      /* only this issue name, or NULL              */
    double high, low;       /* thresholds (NAN: 1.5 and 0.5)              */
} gd_images_query;

/* Image issues, de-duplicated by (trace, page instance, view, bitmap size,
 * issue) with a count, by wasted bytes descending (`godeye images`). */
int gd_query_images(gd_store *s, const gd_images_query *q, gd_row_fn fn, void *ctx, gd_error *err);

#endif
