/* methods.c - `godeye methods`: slow methods, call trees and Matrix's evil methods from method traces. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "derive/methods.h"
#include "query/methods.h"

static const gd_column method_columns[] = {
    {"self_ms", "SELF MS", GD_COL_MS, 0, 0},  {"total_ms", "TOTAL MS", GD_COL_MS, 0, 0},
    {"count", "COUNT", GD_COL_INT, 0, 0},     {"max_ms", "MAX", GD_COL_MS, 0, 0},
    {"p95_ms", "P95", GD_COL_MS, 0, 0},       {"open", "OPEN", GD_COL_INT, 0, 0},
    {"tid", "TID", GD_COL_INT, 0, 0},         {"sampled", "SAMPLED", GD_COL_BOOL, 0, 0},
    {"method", "METHOD", GD_COL_TEXT, 1, 0},  {"desc", "DESC", GD_COL_TEXT, 0, 1},
};

/* CALL: a node's signature, indented by its depth in the tree. */
static const char *call_text(const json_t *node, char *buf, size_t n)
{
    snprintf(buf, n, "%*s%s", (int)json_integer_value(json_object_get(node, "depth")) * 2, "",
             json_string_value(json_object_get(node, "signature")));
    return buf;
}

/* The tree in tables and csv: one row per node (gd_render_nodes). */
static const gd_column tree_columns[] = {
    {"total_ms", "TOTAL MS", GD_COL_MS, 0, 0}, {"self_ms", "SELF MS", GD_COL_MS, 0, 0},
    {"count", "COUNT", GD_COL_INT, 0, 0},      {"open", "OPEN", GD_COL_INT, 0, 0},
    {"tid", "TID", GD_COL_INT, 0, 0},          {"depth", "DEPTH", GD_COL_INT, 0, 1},
    {"call", "CALL", GD_COL_TEXT, 1, 0, .text = call_text},
};

static const gd_column evil_columns[] = {
    {"id", "ID", GD_COL_INT, 0, 0},
    {"trace", "TRACE", GD_COL_INT, 0, 0},
    {"tid", "TID", GD_COL_INT, 0, 1},
    {"start_ms", "START", GD_COL_TIME, 0, 0},
    {"end_ms", "END", GD_COL_TIME, 0, 1},
    {"duration_ms", "MS", GD_COL_MS, 0, 0},
    {"cost_ms", "COST MS", GD_COL_MS, 0, 0},
    {"stack_key_cost_ms", "KEY MS", GD_COL_MS, 0, 0},
    {"stack_key_depth", "KEY DEPTH", GD_COL_INT, 0, 1},
    {"stack_key", "STACK KEY", GD_COL_TEXT, 1, 0},
    {"stack_key_desc", "KEY DESC", GD_COL_TEXT, 0, 1},
};

int cmd_methods(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL, *thread = NULL;
    gd_int_list traces = {0};
    double min_ms = NAN, evil_ms = 700;
    long block = LONG_MIN; /* not given */
    int tree = 0, evil = 0;
    const gd_option opts[] = {
        OPT_STRING_(0, "thread", &thread, "T", "only this thread (tid or thread name)"),
        OPT_DOUBLE_(0, "min-ms", &min_ms, "N", "only methods whose total time is at least N ms"),
        OPT_INT_(0, "block", &block, "ID", "only the calls inside this block (its id in godeye blocks)"),
        OPT_BOOL_(0, "tree", &tree, "print the call tree (merged by call path) instead"),
        OPT_BOOL_(0, "evil", &evil, "list Matrix evil methods: dispatches whose methods cost >= --evil-ms"),
        OPT_DOUBLE_(0, "evil-ms", &evil_ms, "MS", "evil-method threshold (default 700, Matrix's)"),
        OPT_LISTING(&format, &traces),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye methods [OPTIONS]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    if ((!isnan(min_ms) && min_ms < 0) || evil_ms < 0) {
        gd_cli_say(ctx, "--min-ms and --evil-ms must be 0 or more");
        return GD_EXIT_USAGE;
    }
    if (block != LONG_MIN && block < 1) {
        gd_cli_say(ctx, "--block wants a block id (1 or more), not '%ld'", block);
        return GD_EXIT_USAGE;
    }
    if (block == LONG_MIN)
        block = -1;
    if (evil && (tree || block >= 0)) {
        gd_cli_say(ctx, "--evil goes with neither --tree nor --block");
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s)))
        return rc;
    gd_methods_query q = {.filter = gd_cli_filter(&traces), .thread = thread, .min_ms = min_ms,
                          .block = block, .evil_ms = evil_ms};
    gd_out_mode mode = gd_cli_mode(format);
    gd_error err = {0};
    gd_renderer *r;
    if (tree) {
        r = gd_render_new(stdout, mode, tree_columns, sizeof tree_columns / sizeof tree_columns[0],
                          gd_cli_width(ctx));
        gd_render_nodes(r, "children");
        rc = gd_query_method_tree(s, &q, gd_cli_render_cb, r, &err);
    } else if (evil) {
        r = gd_cli_renderer(ctx, s, mode, evil_columns, sizeof evil_columns / sizeof evil_columns[0]);
        rc = gd_query_evil_methods(s, &q, gd_cli_render_cb, r, &err);
    } else {
        r = gd_render_new(stdout, mode, method_columns, sizeof method_columns / sizeof method_columns[0],
                          gd_cli_width(ctx));
        rc = gd_query_methods(s, &q, gd_cli_render_cb, r, &err);
    }
    int wrc = gd_cli_render_end(ctx, r);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
