/* issues.c - `godeye issues`: the tools' own findings, one by one or in groups. */
#include <stdio.h>

#include "builtins.h"
#include "query/issue_groups.h"
#include "query/issues.h"

static const gd_column issue_columns[] = {
    {"trace", "TRACE", GD_COL_INT, 0, 0},  {"ts_ms", "TIME", GD_COL_TIME, 0, 0},
    {"tool", "TOOL", GD_COL_TEXT, 0, 0},   {"type", "TYPE", GD_COL_TEXT, 0, 0},
    {"detail", "DETAIL", GD_COL_TEXT, 0, 0}, {"cost_ms", "COST MS", GD_COL_MS, 0, 0},
    {"content", "CONTENT", GD_COL_TEXT, 1, 0},
};

static const gd_column group_columns[] = {
    {"tool", "TOOL", GD_COL_TEXT, 0, 0},     {"type", "TYPE", GD_COL_TEXT, 0, 0},
    {"count", "COUNT", GD_COL_INT, 0, 0},    {"total_ms", "TOTAL MS", GD_COL_MS, 0, 0},
    {"max_ms", "MAX MS", GD_COL_MS, 0, 0},   {"traces", "TRACES", GD_COL_INT, 0, 1},
    {"first_ms", "FIRST", GD_COL_TIME, 0, 1}, {"last_ms", "LAST", GD_COL_TIME, 0, 1},
    {"label", "GROUP", GD_COL_TEXT, 1, 0},   {"key", "KEY", GD_COL_TEXT, 0, 1},
};

int cmd_issues(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL, *tool = NULL;
    int group = 0;
    gd_int_list traces = {0};
    /* the tools the readers name (lib/reader: issue.tool) */
    static const char *const tools[] = {"android", "anr", "blockcanary", "bugreport", "godeye", "matrix", NULL};
    const gd_option opts[] = {
        OPT_CHOICE_(0, "tool", &tool, "NAME", "only this tool's findings: android, anr, blockcanary, bugreport, godeye or matrix", tools),
        OPT_BOOL_(0, "group", &group, "aggregate: locks by owner and methods, jank by layer and type, ..."),
        OPT_LISTING(&format, &traces),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye issues [OPTIONS]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s)))
        return rc;
    gd_renderer *r = group ? gd_cli_renderer(ctx, s, gd_cli_mode(format), group_columns,
                                             sizeof group_columns / sizeof group_columns[0])
                           : gd_cli_renderer(ctx, s, gd_cli_mode(format), issue_columns,
                                             sizeof issue_columns / sizeof issue_columns[0]);
    gd_filter f = gd_cli_filter(&traces);
    gd_error err = {0};
    rc = group ? gd_query_issue_groups(s, &f, tool, gd_cli_render_cb, r, &err)
               : gd_query_issues(s, &f, tool, gd_cli_render_cb, r, &err);
    int wrc = gd_cli_render_end(ctx, r);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
