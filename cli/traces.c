/* traces.c - `godeye traces`: the ingested traces. */
#include <stdio.h>

#include "builtins.h"
#include "query/blocks.h"

static const gd_column columns[] = {
    {"trace", "TRACE", GD_COL_INT, 0, 0},        {"source", "SOURCE", GD_COL_TEXT, 1, 0},
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

int cmd_traces(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL;
    gd_int_list traces = {0};
    const gd_option opts[] = {OPT_LISTING(&format, &traces), OPT_END_()};
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye traces [OPTIONS]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s)))
        return rc;
    gd_renderer *r = gd_cli_renderer(ctx, s, gd_cli_mode(format), columns,
                                     sizeof columns / sizeof columns[0]);
    gd_filter f = gd_cli_filter(&traces);
    gd_error err = {0};
    rc = gd_query_traces(s, &f, gd_cli_render_cb, r, &err);
    int wrc = gd_cli_render_end(ctx, r);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
