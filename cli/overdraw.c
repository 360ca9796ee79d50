/* overdraw.c - `godeye overdraw`: exact overdraw and depth of each view dump. */
#include <stdio.h>

#include "builtins.h"

static const gd_column columns[] = {
    {"trace", "TRACE", GD_COL_INT, 0, 0},
    {"dump", "DUMP", GD_COL_INT, 0, 1},
    {"page", "PAGE", GD_COL_TEXT, 1, 0},
    {"views", "VIEWS", GD_COL_INT, 0, 0},
    {"max_depth", "DEPTH", GD_COL_INT, 0, 0},
    {"px_1", "1X", GD_COL_INT, 0, 0},
    {"px_2", "2X", GD_COL_INT, 0, 0},
    {"px_3", "3X", GD_COL_INT, 0, 0},
    {"px_4", "4X+", GD_COL_INT, 0, 0},
    {"ratio", "RATIO", GD_COL_TEXT, 0, 0},
    {"note", "NOTE", GD_COL_TEXT, 0, 0},
};

typedef struct out {
    gd_out_mode mode;
    gd_renderer *r;
} out;

/* Table and CSV rows flatten overdraw_px (both show every column); JSON
 * keeps the contract shape. */
static int on_row(void *ctx, json_t *row)
{
    out *o = ctx;
    if (o->mode != GD_OUT_TABLE && o->mode != GD_OUT_CSV)
        return gd_render_row(o->r, row) ? 1 : 0;
    json_t *t = json_deep_copy(row);
    json_t *px = json_object_get(row, "overdraw_px");
    static const char *const keys[] = {"1", "2", "3", "4+"}, *const cols[] = {"px_1", "px_2", "px_3", "px_4"};
    for (int i = 0; i < 4; i++)
        json_object_set(t, cols[i], json_object_get(px, keys[i]) ? json_object_get(px, keys[i]) : json_null());
    json_t *ratio = json_object_get(row, "overdraw_ratio");
    char buf[64];
    if (json_is_number(ratio)) {
        snprintf(buf, sizeof buf, "%.2f", json_number_value(ratio));
        json_object_set_new(t, "ratio", json_string(buf));
    }
    size_t deep = json_array_size(json_object_get(row, "deep_views"));
    json_t *broken = json_object_get(row, "broken");
    if (json_is_false(json_object_get(row, "has_paint")))
        json_object_set_new(t, "note", json_string("no paint data"));
    else if (json_is_string(broken)) {
        snprintf(buf, sizeof buf, "broken: %s", json_string_value(broken));
        json_object_set_new(t, "note", json_string(buf));
    } else if (deep) {
        snprintf(buf, sizeof buf, "%zu views > depth %lld", deep,
                 (long long)json_integer_value(json_object_get(row, "depth_limit")));
        json_object_set_new(t, "note", json_string(buf));
    }
    if (json_is_null(json_object_get(row, "page")))
        json_object_set(t, "page", json_object_get(row, "window"));
    int rc = gd_render_row(o->r, t) ? 1 : 0;
    json_decref(t);
    return rc;
}

int cmd_overdraw(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL;
    gd_int_list traces = {0};
    int views = 0;
    const gd_option opts[] = {
        OPT_BOOL_(0, "views", &views, "include each dump's view tree (view_list)"),
        OPT_LISTING(&format, &traces),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye overdraw [OPTIONS]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        fprintf(stderr, "godeye overdraw: unexpected argument '%s'\n", argv[0]);
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, "overdraw", &traces, &s)))
        return rc;
    out o = {gd_cli_mode(format), NULL};
    o.r = gd_render_new(stdout, o.mode, columns, sizeof columns / sizeof columns[0], gd_cli_width());
    gd_filter f = gd_cli_filter(&traces);
    gd_error err = {0};
    rc = gd_store_overdraw(s, &f, views, on_row, &o, &err);
    int wrc = gd_render_end(o.r);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail("overdraw", &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
