/* traces.c - `godeye traces`: the ingested traces. */
#include <stdio.h>

#include "builtins.h"
#include "query/blocks.h"

static const gd_column columns[] = {
    {"trace", "TRACE", GD_COL_INT, 0, 0},        {"source", "SOURCE", GD_COL_TEXT, 1, 0, .cut_middle = 1},
    {"format", "FORMAT", GD_COL_TEXT, 0, 0},     {"app", "APP", GD_COL_TEXT, 0, 0},
    {"device", "DEVICE", GD_COL_TEXT, 0, 0, 1},  {"start_ms", "START", GD_COL_TIME, 0, 0},
    {"end_ms", "END", GD_COL_TIME, 0, 1},        {"events", "EVENTS", GD_COL_INT, 0, 0},
    {"dispatches", "DISPATCHES", GD_COL_INT, 0, 0}, {"blocks", "BLOCKS", GD_COL_INT, 0, 0},
    {"skipped", "SKIPPED", GD_COL_INT, 0, 1},
    /* what the times are (new columns go last: csv readers count columns) */
    {"clock", "CLOCK", GD_COL_TEXT, 0, 0},
    /* the tags diff and check select by (godeye ingest --set) */
    {"version_name", "VERSION", GD_COL_TEXT, 0, 0, 1},
    {"build", "BUILD", GD_COL_TEXT, 0, 0, 1},
    /* #51: the span used (the exposure: per-minute figures divide by it)
     * and what the trace's dense span left out */
    {"exposure_ms", "SPAN USED", GD_COL_MS, 0, 0},
    {"left_out", "LEFT OUT", GD_COL_TEXT, 0, 0, .auto_hide = 1},
};

static int traces_query(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err)
{
    (void)arg;
    return gd_query_traces(s, &l->filter, gd_cli_render_cb, r, err);
}

int cmd_traces(int argc, char **argv, gd_ctx *ctx)
{
    const gd_option opts[] = {OPT_END_()};
    gd_cmd_spec spec = {"godeye traces [OPTIONS]", opts, NULL, NULL, GD_COLS(columns), traces_query, "trace", "a trace"};
    return gd_cli_run(ctx, argc, argv, &spec);
}
