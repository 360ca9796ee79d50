/* traces.c - `godeye traces`: the ingested traces. */
#include <stdio.h>

#include "builtins.h"
#include "query/blocks.h"

enum { GD_TRACES_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_TRACES_COLS, GD_TRACES_TABLE);
static const gd_column columns[] = {GD_TRACES_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};

static int traces_query(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err)
{
    (void)arg;
    return gd_query_traces(s, &l->filter, gd_cli_render_cb, r, err);
}

int cmd_traces(int argc, char **argv, gd_ctx *ctx)
{
    const gd_option opts[] = {OPT_END_()};
    gd_cmd_spec spec = {.usage = "godeye traces [OPTIONS]",
                        .opts = opts,
                        .cols = columns,
                        .ncols = sizeof columns / sizeof columns[0],
                        .query = traces_query,
                        .data_table = "trace",
                        .data_name = "a trace"};
    return gd_cli_run(ctx, argc, argv, &spec);
}
