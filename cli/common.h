/* common.h - what every command shares: the context, opening the store,
 * reporting errors git-style, rendering rows. */
#ifndef GD_CLI_COMMON_H
#define GD_CLI_COMMON_H

#include <jansson.h>

#include "opts.h"
#include "render/render.h"
#include "store.h"

/* Exit codes: never renumbered (godeye(1) EXIT STATUS). */
enum { GD_EXIT_OK = 0, GD_EXIT_FAIL = 1, GD_EXIT_USAGE = 2 };

typedef struct gd_ctx {
    const char *db_path;   /* --db, $GODEYE_DB or ./godeye.db */
    const char *argv0;
} gd_ctx;

typedef int (*gd_cmd_fn)(int argc, char **argv, gd_ctx *ctx);

/* Prints "godeye CMD: <formatted error>" (and the source line with a caret
 * when the error names a position in a readable file); returns the exit
 * code for the error (2 for usage errors, else 1). */
int gd_cli_fail(const char *cmd, const gd_error *err);
/* Opens the store or reports why not (returns 0 or an exit code). */
int gd_cli_open_store(const gd_ctx *ctx, const char *cmd, int mode, gd_store **out);
/* A trace filter over a --trace list. */
gd_filter gd_cli_filter(const gd_int_list *traces);

/* Row sink that feeds a renderer (ctx = gd_renderer*). */
int gd_cli_render_cb(void *ctx, json_t *row);
/* Mode from a --format choice (NULL = table). */
gd_out_mode gd_cli_mode(const char *format);
/* Terminal width for tables (COLUMNS, else 100). */
int gd_cli_width(void);

#endif
