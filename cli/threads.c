/* threads.c - `godeye threads`: each thread's time by scheduling state (Perfetto's thread_state). */
#include <stdio.h>

#include "builtins.h"
#include "query/threads.h"

static const gd_column columns[] = {
    {"trace", "TRACE", GD_COL_INT, 0, 0},
    {"pid", "PID", GD_COL_INT, 0, 1},
    {"tid", "TID", GD_COL_INT, 0, 0},
    {"thread", "THREAD", GD_COL_TEXT, 0, 0}, /* a name: cut at its end */
    {"main", "MAIN", GD_COL_BOOL, 0, 1},
    {"running_ms", "RUNNING", GD_COL_MS, 0, 0},
    {"runnable_ms", "RUNNABLE", GD_COL_MS, 0, 0},
    {"sleeping_ms", "SLEEPING", GD_COL_MS, 0, 0},
    {"uninterruptible_ms", "D", GD_COL_MS, 0, 0},
    {"other_ms", "OTHER", GD_COL_MS, 0, 1},
    {"longest_runnable_ms", "MAX R", GD_COL_MS, 0, 0},
    {"longest_runnable_ts_ms", "MAX R AT", GD_COL_TIME, 0, 1},
    {"longest_uninterruptible_ms", "MAX D", GD_COL_MS, 0, 0},
    {"longest_uninterruptible_ts_ms", "MAX D AT", GD_COL_TIME, 0, 1},
    {"longest_uninterruptible_function", "MAX D IN", GD_COL_TEXT, 1, 0, 1},
    {"binder_calls", "BINDER OUT", GD_COL_INT, 0, 0},
    {"binder_served", "BINDER IN", GD_COL_INT, 0, 0},
};

int cmd_threads(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL;
    gd_int_list traces = {0};
    long tid = -1, block = -1;
    const gd_option opts[] = {
        OPT_INT_(0, "tid", &tid, "TID", "only this thread"),
        OPT_INT_(0, "block", &block, "ID", "only the states inside this block (its thread, its time)"),
        OPT_LISTING(&format, &traces),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye threads [OPTIONS]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s)))
        return rc;
    gd_renderer *r = gd_cli_renderer(ctx, s, gd_cli_mode(format), columns, sizeof columns / sizeof columns[0]);
    gd_threads_query q = {gd_cli_filter(&traces), tid, block};
    gd_error err = {0};
    rc = gd_query_threads(s, &q, gd_cli_render_cb, r, &err);
    int wrc = gd_cli_render_end(ctx, r);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
