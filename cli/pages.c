/* pages.c - `godeye pages`: page load timelines per page instance. */
#include <math.h>
#include <stdio.h>

#include "builtins.h"
#include "query/views.h"

static const gd_column page_columns[] = {
    {"trace", "TRACE", GD_COL_INT, 0, 0},
    {"type", "TYPE", GD_COL_TEXT, 0, 0},
    {"page", "PAGE", GD_COL_TEXT, 1, 0},
    {"hash", "HASH", GD_COL_INT, 0, 0},
    {"parent", "PARENT", GD_COL_INT, 0, 1},
    {"start_ms", "START", GD_COL_TIME, 0, 0},
    {"draw_ms", "DRAW MS", GD_COL_MS, 0, 0},
    {"load_ms", "LOAD MS", GD_COL_MS, 0, 0},
    {"events", "EVENTS", GD_COL_TEXT, 0, 1},
};

static const gd_column group_columns[] = {
    {"page", "PAGE", GD_COL_TEXT, 1, 0},
    {"type", "TYPE", GD_COL_TEXT, 0, 0},
    {"count", "COUNT", GD_COL_INT, 0, 0},
    {"draw_p50_ms", "DRAW P50", GD_COL_MS, 0, 0},
    {"draw_p95_ms", "DRAW P95", GD_COL_MS, 0, 0},
    {"draw_max_ms", "DRAW MAX", GD_COL_MS, 0, 0},
    {"load_p50_ms", "LOAD P50", GD_COL_MS, 0, 0},
    {"load_p95_ms", "LOAD P95", GD_COL_MS, 0, 0},
    {"load_max_ms", "LOAD MAX", GD_COL_MS, 0, 0},
    {"draw_count", "DRAWN", GD_COL_INT, 0, 1},
    {"load_count", "LOADED", GD_COL_INT, 0, 1},
};

typedef struct pages_opts {
    const char *page;
    double slow;
    int group;
} pages_opts;

static int pages_check(gd_ctx *ctx, gd_cmd_spec *spec, gd_listing *l)
{
    (void)ctx, (void)l;
    if (((pages_opts *)spec->arg)->group) {
        spec->cols = group_columns;
        spec->ncols = sizeof group_columns / sizeof group_columns[0];
    }
    return 0;
}

static int pages_query(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err)
{
    const pages_opts *o = arg;
    gd_pages_query q = {.filter = l->filter, .page = o->page, .slow_ms = o->slow, .group = o->group};
    return gd_query_pages(s, &q, gd_cli_render_cb, r, err);
}

int cmd_pages(int argc, char **argv, gd_ctx *ctx)
{
    pages_opts o = {NULL, NAN, 0};
    const gd_option opts[] = {
        OPT_DOUBLE_(0, "min-ms", &o.slow, "MS", "only pages whose draw or load time passes MS"),
        OPT_DOUBLE_(0, "slow", &o.slow, "MS", "the same as --min-ms (the older name)"),
        OPT_STRING_(0, "page", &o.page, "CLASS", "only this page class"),
        OPT_BOOL_(0, "group", &o.group, "per-class aggregates: count, p50, p95, max"),
        OPT_END_(),
    };
    gd_cmd_spec spec = {"godeye pages [OPTIONS]", opts, &o, pages_check, GD_COLS(page_columns), pages_query,
                        "page_event", "page events"};
    return gd_cli_run(ctx, argc, argv, &spec);
}
