/* issues.c - `godeye issues`: the tools' own findings, one by one or in groups. */
#include <stdio.h>

#include "builtins.h"
#include "query/issue_groups.h"
#include "query/issues.h"

static const gd_column issue_columns[] = {GD_ISSUES_COLS(GD_CLI_COL, GD_CLI_JSON_ONLY)};

enum { GD_ISSUE_GROUPS_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_ISSUE_GROUPS_COLS, GD_ISSUE_GROUPS_TABLE);
static const gd_column group_columns[] = {GD_ISSUE_GROUPS_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};

typedef struct issues_opts {
    const char *tool;
    int group;
} issues_opts;

static int issues_check(gd_ctx *ctx, gd_cmd_spec *spec, gd_listing *l)
{
    (void)ctx, (void)l;
    if (((issues_opts *)spec->arg)->group) {
        spec->cols = group_columns;
        spec->ncols = sizeof group_columns / sizeof group_columns[0];
    }
    return 0;
}

static int issues_query(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err)
{
    const issues_opts *o = arg;
    return o->group ? gd_query_issue_groups(s, &l->filter, o->tool, gd_cli_render_cb, r, err)
                    : gd_query_issues(s, &l->filter, o->tool, gd_cli_render_cb, r, err);
}

int cmd_issues(int argc, char **argv, gd_ctx *ctx)
{
    issues_opts o = {0};
    /* the tools the readers name (lib/reader: issue.tool) */
    static const char *const tools[] = {"android", "anr", "blockcanary", "bugreport", "godeye", "matrix", NULL};
    const gd_option opts[] = {
        OPT_CHOICE_(0, "tool", &o.tool, "NAME", "only this tool's findings: android, anr, blockcanary, bugreport, godeye or matrix", tools),
        OPT_BOOL_(0, "group", &o.group, "aggregate: locks by owner and methods, jank by layer and type, ..."),
        OPT_END_(),
    };
    gd_cli_describe_variant(ctx, "group", GD_COLS(group_columns), 0);
    gd_cmd_spec spec = {.usage = "godeye issues [OPTIONS]",
                        .opts = opts,
                        .arg = &o,
                        .check = issues_check,
                        .cols = issue_columns,
                        .ncols = sizeof issue_columns / sizeof issue_columns[0],
                        .query = issues_query,
                        .data_table = "issue",
                        .data_name = "findings of a tool"};
    return gd_cli_run(ctx, argc, argv, &spec);
}
