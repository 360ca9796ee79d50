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

int cmd_pages(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL, *page = NULL;
    gd_int_list traces = {0};
    double slow = NAN;
    int group = 0;
    const gd_option opts[] = {
        OPT_DOUBLE_(0, "min-ms", &slow, "MS", "only pages whose draw or load time passes MS"),
        OPT_DOUBLE_(0, "slow", &slow, "MS", "the same as --min-ms (the older name)"),
        OPT_STRING_(0, "page", &page, "CLASS", "only this page class"),
        OPT_BOOL_(0, "group", &group, "per-class aggregates: count, p50, p95, max"),
        OPT_LISTING(&format, &traces),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye pages [OPTIONS]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s)))
        return rc;
    gd_pages_query q = {.filter = gd_cli_filter(&traces), .page = page, .slow_ms = slow, .group = group};
    gd_renderer *r = group ? gd_cli_renderer(ctx, s, gd_cli_mode(format), group_columns,
                                             sizeof group_columns / sizeof group_columns[0])
                           : gd_cli_renderer(ctx, s, gd_cli_mode(format), page_columns,
                                             sizeof page_columns / sizeof page_columns[0]);
    gd_error err = {0};
    rc = gd_query_pages(s, &q, gd_cli_render_cb, r, &err);
    int wrc = gd_cli_render_end(ctx, r);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
