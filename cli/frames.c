/* frames.c - `godeye frames`: frame times per window (slow, frozen, percentiles,
 * Matrix drop levels, blocks under frozen frames); --summary: gfxinfo figures. */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "query/frames.h"

static const gd_column frame_columns[] = {
    {"trace", "TRACE", GD_COL_INT, 0, 0},
    {"pid", "PID", GD_COL_INT, 0, 1},
    {"window", "WINDOW", GD_COL_TEXT, 1, 0},
    {"source", "SOURCE", GD_COL_TEXT, 0, 1},
    {"frames", "FRAMES", GD_COL_INT, 0, 0},
    {"slow", "SLOW", GD_COL_INT, 0, 0},
    {"frozen", "FROZEN", GD_COL_INT, 0, 0},
    {"p50_ms", "P50", GD_COL_MS, 0, 0},
    {"p90_ms", "P90", GD_COL_MS, 0, 0},
    {"p95_ms", "P95", GD_COL_MS, 0, 0},
    {"p99_ms", "P99", GD_COL_MS, 0, 0},
    {"max_ms", "MAX", GD_COL_MS, 0, 1},
    {"vsync_ms", "VSYNC", GD_COL_MS, 0, 1},
    {"drop_normal", "D3", GD_COL_INT, 0, 0},
    {"drop_middle", "D9", GD_COL_INT, 0, 0},
    {"drop_high", "D24", GD_COL_INT, 0, 0},
    {"drop_frozen", "D42", GD_COL_INT, 0, 0},
    {"fps", "FPS", GD_COL_TEXT, 0, 1},
    {"frozen_blocks", "BLOCKS", GD_COL_TEXT, 0, 0},
};

static const gd_column summary_columns[] = {
    {"trace", "TRACE", GD_COL_INT, 0, 0},
    {"pid", "PID", GD_COL_INT, 0, 0},
    {"window", "WINDOW", GD_COL_TEXT, 1, 0},
    {"total", "FRAMES SINCE START", GD_COL_TEXT, 0, 0},
    {"janky", "JANKY", GD_COL_TEXT, 0, 0},
    {"p50", "P50", GD_COL_TEXT, 0, 0},
    {"p90", "P90", GD_COL_TEXT, 0, 0},
    {"p95", "P95", GD_COL_TEXT, 0, 0},
    {"p99", "P99", GD_COL_TEXT, 0, 0},
};

typedef struct out {
    gd_out_mode mode;
    gd_renderer *r;
} out;

/* Column modes flatten the nested objects; json/jsonl keep the documented shape. */
static int on_frames(void *ctx, json_t *row)
{
    out *o = ctx;
    if (o->mode == GD_OUT_JSON || o->mode == GD_OUT_JSONL)
        return gd_render_row(o->r, row) ? 1 : 0;
    json_t *t = json_deep_copy(row);
    static const char *const lv[] = {"normal", "middle", "high", "frozen"};
    static const char *const col[] = {"drop_normal", "drop_middle", "drop_high", "drop_frozen"};
    for (int i = 0; i < 4; i++)
        json_object_set(t, col[i], json_object_get(json_object_get(row, "drop_level"), lv[i]));
    /* table: "pkg/Activity/android.view.ViewRootImpl@hash (visibility=N)" reads
     * as "pkg/Activity@hash" (cells are cut from the left) */
    const char *w = json_string_value(json_object_get(row, "window"));
    const char *vr = w && o->mode == GD_OUT_TABLE ? strstr(w, "/android.view.ViewRootImpl@") : NULL;
    if (vr) {
        char buf[1024];
        const char *at = vr + strlen("/android.view.ViewRootImpl"), *vis = strstr(at, " (visibility=");
        snprintf(buf, sizeof buf, "%.*s%.*s", (int)(vr - w), w, (int)(vis ? (size_t)(vis - at) : strlen(at)), at);
        json_object_set_new(t, "window", json_string(buf));
    }
    int rc = gd_render_row(o->r, t) ? 1 : 0;
    json_decref(t);
    return rc;
}

static int on_summary(void *ctx, json_t *row)
{
    out *o = ctx;
    if (o->mode == GD_OUT_JSON || o->mode == GD_OUT_JSONL)
        return gd_render_row(o->r, row) ? 1 : 0;
    json_t *t = json_deep_copy(row), *f = json_object_get(row, "figures");
    static const char *const key[] = {"Total frames rendered", "Janky frames", "50th percentile",
                                      "90th percentile", "95th percentile", "99th percentile"};
    static const char *const col[] = {"total", "janky", "p50", "p90", "p95", "p99"};
    for (int i = 0; i < 6; i++) {
        json_t *v = json_object_get(f, key[i]);
        json_object_set(t, col[i], v ? v : json_null());
    }
    if (json_is_null(json_object_get(row, "window")))
        json_object_set_new(t, "window", json_string("(process)"));
    int rc = gd_render_row(o->r, t) ? 1 : 0;
    json_decref(t);
    return rc;
}

int cmd_frames(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL, *window = NULL;
    gd_int_list traces = {0};
    int summary = 0;
    const gd_option opts[] = {
        OPT_STRING_(0, "window", &window, "W", "only windows or pages whose name contains W"),
        OPT_BOOL_(0, "summary", &summary, "gfxinfo summary figures as printed (since app start)"),
        OPT_LISTING(&format, &traces),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye frames [OPTIONS]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        fprintf(stderr, "godeye frames: unexpected argument '%s'\n", argv[0]);
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, "frames", &traces, &s)))
        return rc;
    out o = {gd_cli_mode(format), NULL};
    o.r = summary ? gd_render_new(stdout, o.mode, summary_columns,
                                  sizeof summary_columns / sizeof summary_columns[0], gd_cli_width())
                  : gd_render_new(stdout, o.mode, frame_columns,
                                  sizeof frame_columns / sizeof frame_columns[0], gd_cli_width());
    gd_frames_query q = {.filter = gd_cli_filter(&traces), .window = window};
    gd_error err = {0};
    rc = summary ? gd_store_frame_summaries(s, &q, on_summary, &o, &err)
                 : gd_store_frames(s, &q, on_frames, &o, &err);
    int wrc = gd_render_end(o.r);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail("frames", &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
