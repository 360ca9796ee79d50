/* diff_answer.h - `godeye diff`'s default terminal output (#52): a headline
 * of counts, then one block per changed row, worst first, every line
 * fitted to the terminal by wrapping, never by cutting a name. */
#ifndef GD_CLI_DIFF_ANSWER_H
#define GD_CLI_DIFF_ANSWER_H

#include <stdio.h>

#include "common.h"
#include "query/diff.h"

typedef struct gd_diff_answer {
    gd_diff_summary sum; /* filled by gd_query_diff before the rows */
    int width;           /* the terminal's (gd_cli_width)             */
    int headed;          /* the headline is out                       */
} gd_diff_answer;

/* A gd_lines_fn (render.h) over gd_query_diff's rows, ctx a
 * gd_diff_answer: the headline before the first row, then a block for a
 * row that is regressed, new, gone or improved.  0, or -1 on a write error. */
int gd_diff_answer_row(FILE *out, const gd_renderer *r, json_t *row, void *ctx);
/* After the rows: the headline when no row came, and what was not shown.
 * 0, or -1 on a write error. */
int gd_diff_answer_end(FILE *out, gd_diff_answer *a);

#endif
