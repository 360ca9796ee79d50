/* matrix.h - Matrix issue lines met inside other text (a logcat with the
 * trace plugin's Issue lines), read by the Matrix reader's own rules. */
#ifndef GD_READER_MATRIX_H
#define GD_READER_MATRIX_H

#include <stddef.h>

#include "reader.h"

typedef struct gd_matrix_lines gd_matrix_lines;

/* A line handler sending to `sink`; loads opts->method_mapping when set.
 * NULL with err filled on failure. */
gd_matrix_lines *gd_matrix_lines_new(const gd_sink *sink, const gd_read_opts *opts, gd_error *err);
/* Reads one line: 0 when it was a Matrix issue line (events sent, or a
 * counted skip), GD_OTHER_RULE when it is not one, else an error code. */
int gd_matrix_lines_feed(gd_matrix_lines *m, char *line, size_t len, long lineno, gd_error *err);
void gd_matrix_lines_free(gd_matrix_lines *m);

#endif
