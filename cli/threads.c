/* threads.c - `godeye threads`: each thread's time by scheduling state (Perfetto's thread_state). */
#include <stdio.h>

#include "builtins.h"
#include "query/threads.h"

enum { GD_THREADS_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_THREADS_COLS, GD_THREADS_TABLE);
static const gd_column columns[] = {GD_THREADS_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};

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
    gd_cmd_spec spec = {.usage = "godeye threads [OPTIONS]", .opts = opts, .arg = &o, .cols = columns,
                        .ncols = sizeof columns / sizeof columns[0], .query = threads_query,
                        .data_table = "thread_state", .data_name = "scheduling data (thread states)"};
    return gd_cli_run(ctx, argc, argv, &spec);
}
