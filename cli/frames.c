/* frames.c - `godeye frames`: frame times per window (slow, frozen, percentiles,
 * Matrix drop levels, blocks under frozen frames); --summary: gfxinfo figures. */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "query/frames.h"

enum { GD_FRAMES_TABLE(GD_CLI_TAB, GD_CLI_TAB_P) };
GD_CLI_TABLE_P_CHECK(GD_FRAMES_COLS, GD_FRAMES_TABLE);
static const gd_column frame_columns[] = {
    GD_FRAMES_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)
    GD_FRAMES_TABLE(GD_CLI_NO_T, GD_CLI_PATH_AT)
};

/* WINDOW of a summary: figures of the whole process have none. */
static const char *summary_window(const json_t *row, char *buf, size_t n)
{
    json_t *w = json_object_get(row, "window");
    (void)buf, (void)n;
    return json_is_null(w) ? "(process)" : json_string_value(w);
}

/* the gfxinfo figures as printed, under the names the header gives them */
enum { GD_FRAME_SUMMARY_TABLE(GD_CLI_TAB, GD_CLI_TAB_P) };
GD_CLI_TABLE_P_CHECK(GD_FRAME_SUMMARY_COLS, GD_FRAME_SUMMARY_TABLE);
static const gd_column summary_columns[] = {
    GD_FRAME_SUMMARY_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)
    GD_FRAME_SUMMARY_TABLE(GD_CLI_NO_T, GD_CLI_PATH_AT)
    [GD_TAB_SM_WINDOW].text = summary_window,
};

typedef struct frames_opts {
    const char *window;
    int summary;
} frames_opts;

static int frames_check(gd_ctx *ctx, gd_cmd_spec *spec, gd_listing *l)
{
    (void)ctx, (void)l;
    if (((frames_opts *)spec->arg)->summary) {
        spec->cols = summary_columns;
        spec->ncols = sizeof summary_columns / sizeof summary_columns[0];
        spec->data_table = "frame_summary";
        spec->data_name = "gfxinfo summaries";
    }
    return 0;
}

static int frames_query(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err)
{
    const frames_opts *o = arg;
    gd_frames_query q = {.filter = l->filter, .window = o->window};
    return o->summary ? gd_query_frame_summaries(s, &q, gd_cli_render_cb, r, err)
                      : gd_query_frames(s, &q, gd_cli_render_cb, r, err);
}

int cmd_frames(int argc, char **argv, gd_ctx *ctx)
{
    frames_opts o = {0};
    const gd_option opts[] = {
        OPT_STRING_(0, "window", &o.window, "W", "only windows or pages whose name contains W"),
        OPT_BOOL_(0, "summary", &o.summary, "gfxinfo summary figures as printed (since app start)"),
        OPT_END_(),
    };
    gd_cli_describe_variant(ctx, "summary", GD_COLS(summary_columns), 0);
    gd_cmd_spec spec = {.usage = "godeye frames [OPTIONS]",
                        .opts = opts,
                        .arg = &o,
                        .check = frames_check,
                        .cols = frame_columns,
                        .ncols = sizeof frame_columns / sizeof frame_columns[0],
                        .query = frames_query,
                        .data_table = "frame_time",
                        .data_name = "frame times"};
    return gd_cli_run(ctx, argc, argv, &spec);
}
