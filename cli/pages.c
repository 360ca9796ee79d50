/* pages.c - `godeye pages`: page load timelines per page instance. */
#include <math.h>
#include <stdio.h>

#include "builtins.h"
#include "query/views.h"

enum { GD_PAGES_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_PAGES_COLS, GD_PAGES_TABLE);
enum { GD_PAGE_GROUPS_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_PAGE_GROUPS_COLS, GD_PAGE_GROUPS_TABLE);
static const gd_column page_columns[] = {GD_PAGES_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};
static const gd_column group_columns[] = {GD_PAGE_GROUPS_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};

typedef struct pages_opts {
    const char *page;
    double min_ms;
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
    gd_pages_query q = {.filter = l->filter, .page = o->page, .min_ms = o->min_ms, .over_ms = NAN, .group = o->group};
    return gd_query_pages(s, &q, gd_cli_render_cb, r, err);
}

int cmd_pages(int argc, char **argv, gd_ctx *ctx)
{
    pages_opts o = {NULL, NAN, 0};
    const gd_option opts[] = {
        OPT_DOUBLE_(0, "min-ms", &o.min_ms, "MS", "only pages whose draw or load time is at least MS"),
        OPT_DOUBLE_(0, "slow", &o.min_ms, "MS", "the same as --min-ms (the older name)"),
        OPT_STRING_(0, "page", &o.page, "CLASS", "only this page class"),
        OPT_BOOL_(0, "group", &o.group, "per-class aggregates: count, p50, p95, max"),
        OPT_END_(),
    };
    gd_cmd_spec spec = {.usage = "godeye pages [OPTIONS]",
                        .opts = opts,
                        .arg = &o,
                        .check = pages_check,
                        .cols = page_columns,
                        .ncols = sizeof page_columns / sizeof page_columns[0],
                        .query = pages_query,
                        .data_table = "page_event",
                        .data_name = "page events"};
    return gd_cli_run(ctx, argc, argv, &spec);
}
