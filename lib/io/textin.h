/* textin.h - numbered UTF-8 text lines over a gd_input.
 *
 * The encoding is settled below every reader, in the input itself
 * (io/input.h): a UTF-8 BOM is dropped and UTF-16LE/BE (with a BOM, or a
 * PowerShell redirect without one) is transcoded to UTF-8 before any byte
 * reaches a probe or a line reader.  So this is the one text path: lines
 * as gd_input_getline gives them (CRLF and LF endings both work), a line
 * count, and a stray UTF-8 BOM on the first line skipped.
 *
 * Memory is bounded by the longest line (GD_INPUT_MAX_LINE). */
#ifndef GD_IO_TEXTIN_H
#define GD_IO_TEXTIN_H

#include <stddef.h>

#include "input.h"

typedef struct gd_textin gd_textin;

/* A line reader over `in` (its first bytes are peeked).  An error code with
 * err set on a read failure, GD_ERR_NOMEM when out of memory (then *out is
 * NULL).  `in` stays owned by the caller. */
int gd_textin_open(gd_textin **out, gd_input *in, gd_error *err);
void gd_textin_close(gd_textin *t);

/* Next line as UTF-8 without its "\n" or "\r\n" (NUL-terminated, valid until
 * the next call).  1 = a line, 0 = end, -1 = error (read failure, a line over
 * GD_INPUT_MAX_LINE) with err set. */
int gd_textin_getline(gd_textin *t, char **line, size_t *len, gd_error *err);
/* 1-based number of the line last returned. */
long gd_textin_lineno(const gd_textin *t);

/* A copy of a probe head for text probes, past a UTF-8 BOM (the input has
 * already transcoded UTF-16).  New NUL-terminated buffer the caller frees;
 * NULL only when out of memory. */
char *gd_text_head(const unsigned char *head, size_t n, size_t *out_n);

#endif
