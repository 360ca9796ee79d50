/* overdraw.c - `godeye overdraw`: exact overdraw and depth of each view dump. */
#include <stdio.h>

#include "builtins.h"
#include "query/views.h"

/* PAGE: the page, else the window (uiautomator dumps have no page). */
static const char *page_text(const json_t *row, char *buf, size_t n)
{
    json_t *p = json_object_get(row, "page");
    (void)buf, (void)n;
    return json_string_value(json_is_null(p) || !p ? json_object_get(row, "window") : p);
}

static const char *ratio_text(const json_t *row, char *buf, size_t n)
{
    json_t *ratio = json_object_get(row, "overdraw_ratio");
    if (!json_is_number(ratio))
        return NULL;
    snprintf(buf, n, "%.2f", json_number_value(ratio));
    return buf;
}

/* NOTE: why a dump has no figures, or how many views are too deep. */
static const char *note_text(const json_t *row, char *buf, size_t n)
{
    size_t deep = json_array_size(json_object_get(row, "deep_views"));
    json_t *broken = json_object_get(row, "broken");
    if (json_is_false(json_object_get(row, "has_paint")))
        snprintf(buf, n, "no paint data");
    else if (json_is_string(broken))
        snprintf(buf, n < 64 ? n : 64, "broken: %s", json_string_value(broken));
    else if (deep)
        snprintf(buf, n, "%zu views > depth %lld", deep,
                 (long long)json_integer_value(json_object_get(row, "depth_limit")));
    else
        return NULL;
    return buf;
}

enum { GD_OVERDRAW_TABLE(GD_CLI_TAB, GD_CLI_TAB_P) };
GD_CLI_TABLE_P_CHECK(GD_OVERDRAW_COLS, GD_OVERDRAW_TABLE);
static const gd_column columns[] = {
    GD_OVERDRAW_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY) GD_OVERDRAW_TABLE(GD_CLI_NO_T, GD_CLI_PATH_AT)
    [GD_TAB_OD_PAGE].text = page_text,
    [GD_TAB_ODT_RATIO].text = ratio_text,
    [GD_TAB_ODT_NOTE].text = note_text,
};

static int overdraw_query(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err)
{
    return gd_query_overdraw(s, &l->filter, *(int *)arg, gd_cli_render_cb, r, err);
}

int cmd_overdraw(int argc, char **argv, gd_ctx *ctx)
{
    int views = 0;
    const gd_option opts[] = {
        OPT_BOOL_(0, "views", &views, "include each dump's view tree (view_list)"),
        OPT_END_(),
    };
    gd_cmd_spec spec = {.usage = "godeye overdraw [OPTIONS]",
                        .opts = opts,
                        .arg = &views,
                        .cols = columns,
                        .ncols = sizeof columns / sizeof columns[0],
                        .query = overdraw_query,
                        .data_table = "view_dump",
                        .data_name = "view dumps"};
    return gd_cli_run(ctx, argc, argv, &spec);
}
