/* images.c - `godeye images`: mis-sized and hidden bitmaps by wasted bytes. */
#include <math.h>
#include <stdio.h>

#include "builtins.h"
#include "query/views.h"

static const gd_column columns[] = {
    {"trace", "TRACE", GD_COL_INT, 0, 0},
    {"issue", "ISSUE", GD_COL_TEXT, 0, 0},
    {"wasted_bytes", "WASTED", GD_COL_BYTES, 0, 0},
    {"bitmap", "BITMAP", GD_COL_TEXT, 0, 0},
    {"view", "VIEW", GD_COL_TEXT, 0, 0},
    {"count", "SEEN", GD_COL_INT, 0, 0},
    {"page", "PAGE", GD_COL_TEXT, 1, 0},
    {"view_hash", "VIEW HASH", GD_COL_INT, 0, 1},
    {"source", "SOURCE", GD_COL_TEXT, 0, 1},
};

int cmd_images(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL, *issue = NULL;
    gd_int_list traces = {0};
    double high = NAN, low = NAN;
    static const char *const issues[] = {"INVISIBLE_BUT_MEMORY_OCCUPIED", "BITMAP_QUALITY_TOO_HIGH",
                                         "BITMAP_QUALITY_TOO_LOW", NULL};
    const gd_option opts[] = {
        OPT_CHOICE_(0, "issue", &issue, "TYPE", "only this issue type", issues),
        OPT_DOUBLE_(0, "high", &high, "RATIO", "bitmap/view area above this is too high (1.5)"),
        OPT_DOUBLE_(0, "low", &low, "RATIO", "bitmap/view area below this is too low (0.5)"),
        OPT_LISTING(&format, &traces),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye images [OPTIONS]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    if ((!isnan(high) && high <= 0) || (!isnan(low) && low <= 0)) {
        gd_cli_say(ctx, "--high and --low must be above 0");
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s)))
        return rc;
    gd_images_query q = {.filter = gd_cli_filter(&traces), .issue = issue, .high = high, .low = low};
    gd_renderer *r = gd_render_new(stdout, gd_cli_mode(format), columns,
                                   sizeof columns / sizeof columns[0], gd_cli_width(ctx));
    gd_error err = {0};
    rc = gd_query_images(s, &q, gd_cli_render_cb, r, &err);
    int wrc = gd_cli_render_end(ctx, r);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
