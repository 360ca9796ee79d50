/* methods.c - `godeye methods`: slow methods, call trees and Matrix's evil methods from method traces. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "derive/methods.h"
#include "query/methods.h"

enum { GD_METHODS_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_METHODS_COLS, GD_METHODS_TABLE);
static const gd_column method_columns[] = {GD_METHODS_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};

/* CALL: a node's signature, indented by its depth in the tree. */
static const char *call_text(const json_t *node, char *buf, size_t n)
{
    snprintf(buf, n, "%*s%s", (int)json_integer_value(json_object_get(node, "depth")) * 2, "",
             json_string_value(json_object_get(node, "signature")));
    return buf;
}

/* The tree in tables and csv: one row per node (gd_render_nodes). */
enum { GD_METHOD_TREE_TABLE(GD_CLI_TAB, GD_CLI_TAB_P) };
GD_CLI_TABLE_P_CHECK(GD_METHOD_TREE_COLS, GD_METHOD_TREE_TABLE);
static const gd_column tree_columns[] = {
    GD_METHOD_TREE_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY) GD_METHOD_TREE_TABLE(GD_CLI_NO_T, GD_CLI_PATH_AT)
    [GD_TAB_MTR_CALL].text = call_text,
};

enum { GD_EVIL_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_EVIL_COLS, GD_EVIL_TABLE);
static const gd_column evil_columns[] = {GD_EVIL_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};

typedef struct methods_opts {
    const char *thread;
    double min_ms, evil_ms;
    long block;
    int tree, evil;
} methods_opts;

static int methods_check(gd_ctx *ctx, gd_cmd_spec *spec, gd_listing *l)
{
    methods_opts *o = spec->arg;
    (void)l;
    if ((!isnan(o->min_ms) && o->min_ms < 0) || o->evil_ms < 0) {
        gd_cli_say(ctx, "--min-ms and --evil-ms must be 0 or more");
        return GD_EXIT_USAGE;
    }
    if (o->block != LONG_MIN && o->block < 1) {
        gd_cli_say(ctx, "--block wants a block id (1 or more), not '%ld'", o->block);
        return GD_EXIT_USAGE;
    }
    if (o->block == LONG_MIN)
        o->block = -1;
    if (o->evil && (o->tree || o->block >= 0)) {
        gd_cli_say(ctx, "--evil goes with neither --tree nor --block");
        return GD_EXIT_USAGE;
    }
    if (o->tree) {
        spec->cols = tree_columns;
        spec->ncols = sizeof tree_columns / sizeof tree_columns[0];
    } else if (o->evil) {
        spec->cols = evil_columns;
        spec->ncols = sizeof evil_columns / sizeof evil_columns[0];
    }
    return 0;
}

static int methods_query(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err)
{
    const methods_opts *o = arg;
    gd_methods_query q = {.filter = l->filter, .thread = o->thread, .min_ms = o->min_ms,
                          .block = o->block, .evil_ms = o->evil_ms};
    if (o->tree) {
        gd_render_nodes(r, "children");
        return gd_query_method_tree(s, &q, gd_cli_render_cb, r, err);
    }
    if (o->evil)
        return gd_query_evil_methods(s, &q, gd_cli_render_cb, r, err);
    return gd_query_methods(s, &q, gd_cli_render_cb, r, err);
}

int cmd_methods(int argc, char **argv, gd_ctx *ctx)
{
    methods_opts o = {NULL, NAN, 700, LONG_MIN, 0, 0};
    const gd_option opts[] = {
        OPT_STRING_(0, "thread", &o.thread, "T", "only this thread (tid or thread name)"),
        OPT_DOUBLE_(0, "min-ms", &o.min_ms, "N", "only methods whose total time is at least N ms"),
        OPT_INT_(0, "block", &o.block, "ID", "only the calls inside this block (its id in godeye blocks)"),
        OPT_BOOL_(0, "tree", &o.tree, "print the call tree (merged by call path) instead"),
        OPT_BOOL_(0, "evil", &o.evil, "list Matrix evil methods: dispatches whose methods cost >= --evil-ms"),
        OPT_DOUBLE_(0, "evil-ms", &o.evil_ms, "MS", "evil-method threshold (default 700, Matrix's)"),
        OPT_END_(),
    };
    gd_cli_describe_variant(ctx, "tree", GD_COLS(tree_columns), 0);
    gd_cli_describe_variant(ctx, "evil", GD_COLS(evil_columns), 0);
    gd_cmd_spec spec = {.usage = "godeye methods [OPTIONS]",
                        .opts = opts,
                        .arg = &o,
                        .check = methods_check,
                        .cols = method_columns,
                        .ncols = sizeof method_columns / sizeof method_columns[0],
                        .query = methods_query,
                        .data_table = "call",
                        .data_name = "method traces"};
    return gd_cli_run(ctx, argc, argv, &spec);
}
