/* frames.c - `godeye frames`: frame times per window (slow, frozen, percentiles,
 * Matrix drop levels, blocks under frozen frames); --summary: gfxinfo figures. */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "query/frames.h"

static const gd_column frame_columns[] = {
    {"trace", "TRACE", GD_COL_INT, .flex = 0, .hidden = 0},
    {"pid", "PID", GD_COL_INT, .flex = 0, .hidden = 1},
    {"window", "WINDOW", GD_COL_WINDOW, .flex = 1, .hidden = 0},
    {"source", "SOURCE", GD_COL_TEXT, .flex = 0, .hidden = 1},
    {"frames", "FRAMES", GD_COL_INT, .flex = 0, .hidden = 0},
    /* #51: the definitions by name: SLOW>VSYNC over the display's interval,
     * FROZEN>700 vitals' frozen (VITALS>16 and MISSED below) */
    {"slow", "SLOW>VSYNC", GD_COL_INT, .flex = 0, .hidden = 0},
    {"frozen", "FROZEN>700", GD_COL_INT, .flex = 0, .hidden = 0},
    {"p50_ms", "P50", GD_COL_MS, .flex = 0, .hidden = 0},
    {"p90_ms", "P90", GD_COL_MS, .flex = 0, .hidden = 0},
    {"p95_ms", "P95", GD_COL_MS, .flex = 0, .hidden = 0},
    {"p99_ms", "P99", GD_COL_MS, .flex = 0, .hidden = 0},
    {"max_ms", "MAX", GD_COL_MS, .flex = 0, .hidden = 1},
    {"vsync_ms", "VSYNC", GD_COL_MS, .flex = 0, .hidden = 1},
    {"drop_normal", "D3", GD_COL_INT, .flex = 0, .hidden = 0, .path = "drop_level.normal"},
    {"drop_middle", "D9", GD_COL_INT, .flex = 0, .hidden = 0, .path = "drop_level.middle"},
    {"drop_high", "D24", GD_COL_INT, .flex = 0, .hidden = 0, .path = "drop_level.high"},
    {"drop_frozen", "D42", GD_COL_INT, .flex = 0, .hidden = 0, .path = "drop_level.frozen"},
    {"fps", "FPS", GD_COL_TEXT, .flex = 0, .hidden = 1},
    {"frozen_blocks", "BLOCKS", GD_COL_TEXT, .flex = 0, .hidden = 0},
    /* #27: FrameTimeline figures (null for other frames) */
    {"frame_source", "FROM", GD_COL_TEXT, .flex = 0, .hidden = 0, .auto_hide = 1},
    {"janky", "JANKY", GD_COL_INT, .flex = 0, .hidden = 0, .auto_hide = 1},
    {"janky_pct", "JANK%", GD_COL_NUM, .flex = 0, .hidden = 0, .auto_hide = 1},
    {"app_janky", "APP", GD_COL_INT, .flex = 0, .hidden = 0, .auto_hide = 1},
    {"compositor_janky", "SF", GD_COL_INT, .flex = 0, .hidden = 0, .auto_hide = 1},
    {"dropped_frames", "FT_DROPPED", GD_COL_INT, .flex = 0, .hidden = 1},
    {"jank_tags", "JANK_TAGS", GD_COL_TEXT, .flex = 0, .hidden = 1},
    {"jank_types", "JANK_TYPES", GD_COL_TEXT, .flex = 0, .hidden = 1},
    /* #51 (new columns go last: csv readers count columns): VITALS>16
     * Android vitals' slow frame, MISSED the platform's jank (FrameTimeline:
     * deadline missed); the device's printed summary beside (the window's,
     * else its process's), and which leads, and why */
    {"vitals_slow", "VITALS>16", GD_COL_INT, .flex = 0, .hidden = 0},
    {"deadline_missed", "MISSED", GD_COL_INT, .flex = 0, .hidden = 0, .auto_hide = 1},
    {"device_scope", "DEVICE OF", GD_COL_TEXT, .flex = 0, .hidden = 1},
    {"device_frames", "DEV FRAMES", GD_COL_NUM, .flex = 0, .hidden = 1},
    {"device_janky", "DEV JANKY", GD_COL_NUM, .flex = 0, .hidden = 1},
    {"device_janky_pct", "DEV JANK%", GD_COL_NUM, .flex = 0, .hidden = 0, .auto_hide = 1},
    {"device_p50_ms", "DEV P50", GD_COL_NUM, .flex = 0, .hidden = 0, .auto_hide = 1},
    {"device_p90_ms", "DEV P90", GD_COL_NUM, .flex = 0, .hidden = 1},
    {"device_p95_ms", "DEV P95", GD_COL_NUM, .flex = 0, .hidden = 1},
    {"device_p99_ms", "DEV P99", GD_COL_NUM, .flex = 0, .hidden = 1},
    {"lead", "LEAD", GD_COL_TEXT, .flex = 0, .hidden = 1},
    {"lead_why", "WHY", GD_COL_TEXT, .flex = 0, .hidden = 0, .auto_hide = 1},
    /* #47 (last: csv readers count columns): whose frames */
    {"process", "PROCESS", GD_COL_TEXT, .flex = 0, .hidden = 0},
};

/* WINDOW of a summary: figures of the whole process have none. */
static const char *summary_window(const json_t *row, char *buf, size_t n)
{
    json_t *w = json_object_get(row, "window");
    (void)buf, (void)n;
    return json_is_null(w) ? "(process)" : json_string_value(w);
}

/* the gfxinfo figures as printed, under the names the header gives them */
static const gd_column summary_columns[] = {
    {"trace", "TRACE", GD_COL_INT, .flex = 0, .hidden = 0},
    {"pid", "PID", GD_COL_INT, .flex = 0, .hidden = 0},
    {"window", "WINDOW", GD_COL_TEXT, .flex = 1, .hidden = 0, .text = summary_window},
    {"total", "FRAMES SINCE START", GD_COL_TEXT, .flex = 0, .hidden = 0, .path = "figures.Total frames rendered"},
    {"janky", "JANKY", GD_COL_TEXT, .flex = 0, .hidden = 0, .path = "figures.Janky frames"},
    {"p50", "P50", GD_COL_TEXT, .flex = 0, .hidden = 0, .path = "figures.50th percentile"},
    {"p90", "P90", GD_COL_TEXT, .flex = 0, .hidden = 0, .path = "figures.90th percentile"},
    {"p95", "P95", GD_COL_TEXT, .flex = 0, .hidden = 0, .path = "figures.95th percentile"},
    {"p99", "P99", GD_COL_TEXT, .flex = 0, .hidden = 0, .path = "figures.99th percentile"},
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
