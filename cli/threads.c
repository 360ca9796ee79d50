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
    /* #47 (last: csv readers count columns): whose thread (godeye-blocks(1) PROCESS's rule) */
    {"process", "PROCESS", GD_COL_TEXT, 0, 0},
};

typedef struct threads_opts {
    long tid, block;
} threads_opts;

static int threads_query(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err)
{
    const threads_opts *o = arg;
    gd_threads_query q = {l->filter, o->tid, o->block};
    return gd_query_threads(s, &q, gd_cli_render_cb, r, err);
}

int cmd_threads(int argc, char **argv, gd_ctx *ctx)
{
    threads_opts o = {-1, -1};
    const gd_option opts[] = {
        OPT_INT_(0, "tid", &o.tid, "TID", "only this thread"),
        OPT_INT_(0, "block", &o.block, "ID", "only the states inside this block (its thread, its time)"),
        OPT_END_(),
    };
    gd_cmd_spec spec = {"godeye threads [OPTIONS]", opts, &o, NULL, GD_COLS(columns), threads_query,
                        "thread_state", "scheduling data (thread states)"};
    return gd_cli_run(ctx, argc, argv, &spec);
}
