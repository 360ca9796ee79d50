/* builtins.h - the commands built into the godeye driver. */
#ifndef GD_CLI_BUILTINS_H
#define GD_CLI_BUILTINS_H

#include "common.h"
#include "query/diff.h"

int cmd_ingest(int argc, char **argv, gd_ctx *ctx);
int cmd_traces(int argc, char **argv, gd_ctx *ctx);
int cmd_blocks(int argc, char **argv, gd_ctx *ctx);
int cmd_sql(int argc, char **argv, gd_ctx *ctx);
int cmd_anr(int argc, char **argv, gd_ctx *ctx);
int cmd_issues(int argc, char **argv, gd_ctx *ctx);
int cmd_pages(int argc, char **argv, gd_ctx *ctx);
int cmd_overdraw(int argc, char **argv, gd_ctx *ctx);
int cmd_images(int argc, char **argv, gd_ctx *ctx);
int cmd_push(int argc, char **argv, gd_ctx *ctx);
int cmd_methods(int argc, char **argv, gd_ctx *ctx);
int cmd_frames(int argc, char **argv, gd_ctx *ctx);
int cmd_report(int argc, char **argv, gd_ctx *ctx);
int cmd_export(int argc, char **argv, gd_ctx *ctx);
int cmd_startup(int argc, char **argv, gd_ctx *ctx);
int cmd_threads(int argc, char **argv, gd_ctx *ctx);
int cmd_capture(int argc, char **argv, gd_ctx *ctx);
int cmd_rm(int argc, char **argv, gd_ctx *ctx);
int cmd_diff(int argc, char **argv, gd_ctx *ctx);
int cmd_diff_stacks(int argc, char **argv, gd_ctx *ctx); /* diff --stacks (#52) */
int cmd_check(int argc, char **argv, gd_ctx *ctx);
int cmd_retrace(int argc, char **argv, gd_ctx *ctx);
int cmd_top(int argc, char **argv, gd_ctx *ctx);
int cmd_explain(int argc, char **argv, gd_ctx *ctx);
int cmd_mcp(int argc, char **argv, gd_ctx *ctx);

/* diff's two sides (cli/diff.c): the store opened, selectors argv[0] and
 * argv[1] chosen (gd_query_select), both limited to --app `app` (NULL or
 * empty: every process); 0, or the exit code with the problem said.
 * gd_cli_diff_close frees both and closes the store. */
int gd_cli_diff_open(gd_ctx *ctx, char **argv, const char *app, gd_store **s, gd_selection *base,
                     gd_selection *head);
void gd_cli_diff_close(gd_store *s, gd_selection *base, gd_selection *head);

#endif
