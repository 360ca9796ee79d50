/* images.c - `godeye images`: mis-sized and hidden bitmaps by wasted bytes. */
#include <math.h>
#include <stdio.h>

#include "builtins.h"
#include "query/views.h"

enum { GD_IMAGES_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_IMAGES_COLS, GD_IMAGES_TABLE);
static const gd_column columns[] = {GD_IMAGES_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};

typedef struct images_opts {
    const char *issue;
    double high, low;
} images_opts;

static int images_check(gd_ctx *ctx, gd_cmd_spec *spec, gd_listing *l)
{
    const images_opts *o = spec->arg;
    (void)l;
    if ((!isnan(o->high) && o->high <= 0) || (!isnan(o->low) && o->low <= 0)) {
        gd_cli_say(ctx, "--high and --low must be above 0");
        return GD_EXIT_USAGE;
    }
    return 0;
}

static int images_query(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err)
{
    const images_opts *o = arg;
    gd_images_query q = {.filter = l->filter, .issue = o->issue, .high = o->high, .low = o->low};
    return gd_query_images(s, &q, gd_cli_render_cb, r, err);
}

int cmd_images(int argc, char **argv, gd_ctx *ctx)
{
    images_opts o = {NULL, NAN, NAN};
    static const char *const issues[] = {"INVISIBLE_BUT_MEMORY_OCCUPIED", "BITMAP_QUALITY_TOO_HIGH",
                                         "BITMAP_QUALITY_TOO_LOW", NULL};
    const gd_option opts[] = {
        OPT_CHOICE_(0, "issue", &o.issue, "TYPE", "only this issue type", issues),
        OPT_DOUBLE_(0, "high", &o.high, "RATIO", "bitmap/view area above this is too high (1.5)"),
        OPT_DOUBLE_(0, "low", &o.low, "RATIO", "bitmap/view area below this is too low (0.5)"),
        OPT_END_(),
    };
    gd_cmd_spec spec = {.usage = "godeye images [OPTIONS]",
                        .opts = opts,
                        .arg = &o,
                        .check = images_check,
                        .cols = columns,
                        .ncols = sizeof columns / sizeof columns[0],
                        .query = images_query,
                        .data_table = "image",
                        .data_name = "bitmap data"};
    return gd_cli_run(ctx, argc, argv, &spec);
}
