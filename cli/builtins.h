/* builtins.h - the commands built into the godeye driver. */
#ifndef GD_CLI_BUILTINS_H
#define GD_CLI_BUILTINS_H

#include "common.h"

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

#endif
