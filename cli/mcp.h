/* mcp.h - `godeye mcp` (#49): its tools, made from the command table and
 * each command's declared options and columns (mcp_tools.c), and the
 * running of one call as a child godeye, capped (mcp_exec.c); the
 * protocol itself is cli/mcp.c. */
#ifndef GD_CLI_MCP_H
#define GD_CLI_MCP_H

#include <jansson.h>
#include <stddef.h>

#include "common.h"

/* An argument of a tool that is a positional argument of its command
 * (from the usage line: "BASE", "[SELECTOR]", "FILE..."). */
typedef struct gd_mcp_positional {
    char name[32]; /* lower case: "base" */
    int required, repeated;
} gd_mcp_positional;

/* One tool: a command of the table (or one of its variants) described
 * without running it. */
typedef struct gd_mcp_tool {
    char name[64];
    const gd_command *cmd;
    const char *flag;           /* the variant's flag ("group"), else NULL */
    gd_cmd_desc desc;           /* options, usage, columns */
    const gd_column *cols;      /* the tool's rows (the variant's) */
    size_t ncols;
    gd_mcp_positional pos[4];
    size_t npos;
    const char *format;         /* what the child is asked for: "jsonl" or "json" */
} gd_mcp_tool;

typedef struct gd_mcp_tools {
    gd_mcp_tool *v;
    size_t n;
} gd_mcp_tools;

/* Describes every command of ctx's table that reads the database and
 * does not write it (GD_CMD_STORE without GD_CMD_WRITES): each one that
 * answers describe mode with rows of declared columns and a JSON --format
 * becomes a tool, each of its variants another.  A command that does not
 * know describe mode runs with a database that cannot be opened and its
 * output thrown away, so it is passed over.  0, or -1 out of memory. */
int gd_mcp_tools_build(const gd_ctx *ctx, gd_mcp_tools *out);
void gd_mcp_tools_free(gd_mcp_tools *t);
const gd_mcp_tool *gd_mcp_tool_find(const gd_mcp_tools *t, const char *name);
/* The tool's entry in tools/list: name, title, description, inputSchema
 * (its options and positional arguments), outputSchema (its columns). */
json_t *gd_mcp_tool_def(const gd_mcp_tool *t);
/* 1 when option o of the tool is an argument of the tool (not --format,
 * --wide, a ClickHouse option, an alias, a variant's own flag). */
int gd_mcp_tool_takes(const gd_mcp_tool *t, const gd_option *o);
/* The child's argv for a call (argv[0..]: "--db", PATH, [--tz Z], the
 * command, its options from `args`, --format, "--", positionals; NULL
 * ended), or NULL with the reason in msg (an unknown argument, a wrong
 * type).  Free with gd_mcp_argv_free. */
char **gd_mcp_tool_argv(const gd_ctx *ctx, const gd_mcp_tool *t, json_t *args, char *msg, size_t n);
void gd_mcp_argv_free(char **argv);
/* The tool's arguments that narrow an answer, for "N more rows: narrow
 * with ..." ("trace, app or limit"); buf. */
const char *gd_mcp_tool_narrowing(const gd_mcp_tool *t, char *buf, size_t n);

/* What one child run gave. */
typedef struct gd_mcp_answer {
    int status;          /* the child's exit status; -1 when it was killed */
    int timed_out;
    json_t *rows;        /* the rows kept (rows mode) */
    size_t total;        /* every row the child printed (past `offset`) */
    size_t bytes;        /* the kept rows' size as printed */
    char *out;           /* text mode: stdout (at most max_bytes) */
    char err[4096];      /* stderr, its start */
} gd_mcp_answer;

typedef struct gd_mcp_limits {
    size_t max_rows, max_bytes, offset;
    double timeout_s;
} gd_mcp_limits;

/* Runs godeye (`self`) with argv (argv[0] is its name), standard input
 * /dev/null, and reads its output as `format` says: "jsonl" one row a
 * line, "json" one array, NULL text.  Keeps the first rows past
 * lim->offset while they fit lim (a prefix), counts them all; kills the
 * child after lim->timeout_s.  0, or -1 when the child could not be run
 * (err says why). */
int gd_mcp_exec(const char *self, char **argv, const char *format, const gd_mcp_limits *lim, gd_mcp_answer *a);
void gd_mcp_answer_free(gd_mcp_answer *a);

#endif
