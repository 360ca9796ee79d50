/* startup.c - `godeye startup`: app launches with Android vitals' bars. */
#include <stdio.h>

#include "builtins.h"
#include "query/startup.h"

enum { GD_STARTUP_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_STARTUP_COLS, GD_STARTUP_TABLE);
static const gd_column columns[] = {
    GD_STARTUP_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)
    /* at or over its Android vitals bar (SLOW), under it (ok), unknown (-) */
    [GD_TAB_ST_SLOW].words = "SLOW|ok",
};

/* --breakdown (#27): a launch read from a trace's slices, phase by phase
 * (startup_phase; man godeye-startup) and the main thread's states over
 * the whole launch; json has every phase under "phases" */
#define PHASE_MS(name, header) {"phases." name ".dur_ms", header, GD_COL_MS, 0, 0, .auto_hide = 1, .path = "phases." name ".dur_ms"}
static const gd_column breakdown_columns[] = {
    {"trace", "TRACE", GD_COL_INT, .flex = 0},
    {"ts_ms", "TIME", GD_COL_TIME, .flex = 0},
    {"app", "APP", GD_COL_TEXT, .flex = 1},
    {"kind", "KIND", GD_COL_TEXT, .flex = 0},
    {"ttid_ms", "TTID MS", GD_COL_MS, .flex = 0},
    {"ttfd_ms", "TTFD MS", GD_COL_MS, .flex = 0, .hidden = 0, .auto_hide = 1},
    PHASE_MS("before_process_start", "BEFORE PROC"),
    PHASE_MS("start_process", "START PROC"),
    PHASE_MS("bind_application", "BIND APP"),
    PHASE_MS("activity_start", "ACT START"),
    PHASE_MS("activity_resume", "ACT RESUME"),
    PHASE_MS("first_frame", "1ST FRAME"),
    PHASE_MS("fully_drawn", "FULLY DRAWN"),
    {"phases.launch.running_ms", "MAIN RUN MS", GD_COL_MS, .flex = 0, .hidden = 0, .auto_hide = 1, .path = "phases.launch.running_ms"},
    {"phases.launch.runnable_ms", "MAIN RUNNABLE", GD_COL_MS, .flex = 0, .hidden = 0, .auto_hide = 1, .path = "phases.launch.runnable_ms"},
    {"phases.launch.blocked_ms", "MAIN D MS", GD_COL_MS, .flex = 0, .hidden = 0, .auto_hide = 1, .path = "phases.launch.blocked_ms"},
    PHASE_MS("dex2oat", "DEX2OAT MS"),
    PHASE_MS("installd", "INSTALLD MS"),
    {"phases.broadcast_dispatched.slices", "BCAST SENT", GD_COL_INT, .flex = 0, .hidden = 0, .auto_hide = 1, .path = "phases.broadcast_dispatched.slices"},
    {"phases.broadcast_received.slices", "BCAST RECV", GD_COL_INT, .flex = 0, .hidden = 0, .auto_hide = 1, .path = "phases.broadcast_received.slices"},
};

static const char *const kind_choices[] = {"cold", "warm", "hot", NULL};

typedef struct startup_opts {
    const char *kind;
    int breakdown;
} startup_opts;

static int startup_check(gd_ctx *ctx, gd_cmd_spec *spec, gd_listing *l)
{
    (void)ctx, (void)l;
    if (((startup_opts *)spec->arg)->breakdown) {
        spec->cols = breakdown_columns;
        spec->ncols = sizeof breakdown_columns / sizeof breakdown_columns[0];
    }
    return 0;
}

static int startup_query(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err)
{
    const startup_opts *o = arg;
    gd_startup_query q = {l->filter, l->filter.app, o->kind, o->breakdown};
    return gd_query_startups(s, &q, gd_cli_render_cb, r, err);
}

int cmd_startup(int argc, char **argv, gd_ctx *ctx)
{
    startup_opts o = {0};
    const gd_option opts[] = {
        OPT_CHOICE_(0, "kind", &o.kind, "KIND", "only cold, warm or hot launches", kind_choices),
        OPT_BOOL_(0, "breakdown", &o.breakdown, "each trace launch phase by phase"),
        OPT_END_(),
    };
    gd_cli_describe_variant(ctx, "breakdown", GD_COLS(breakdown_columns), 0);
    gd_cmd_spec spec = {.usage = "godeye startup [OPTIONS]",
                        .opts = opts,
                        .arg = &o,
                        .check = startup_check,
                        .cols = columns,
                        .ncols = sizeof columns / sizeof columns[0],
                        .query = startup_query,
                        .data_table = "startup",
                        .data_name = "app launches"};
    return gd_cli_run(ctx, argc, argv, &spec);
}
