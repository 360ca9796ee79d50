/* textin.h - text lines over a gd_input whatever the encoding a capture was
 * saved in: UTF-8 (a leading BOM is dropped) or UTF-16LE/BE with a BOM
 * (files saved by Windows tools, PowerShell redirection), transcoded to
 * UTF-8 on the fly.  CRLF and LF endings both work.
 *
 * Memory is bounded by the longest line (GD_INPUT_MAX_LINE). */
#ifndef GD_TEXTIN_H
#define GD_TEXTIN_H

#include <stddef.h>

#include "input.h"

typedef enum { GD_TEXT_UTF8 = 0, GD_TEXT_UTF16LE, GD_TEXT_UTF16BE } gd_text_enc;

typedef struct gd_textin gd_textin;

/* Detects the encoding from the first bytes of `in` (peeked) and returns a
 * line reader over it.  GD_ERR_IO with err set on a read failure or when out
 * of memory (then *out is NULL).  `in` stays owned by the caller. */
int gd_textin_open(gd_textin **out, gd_input *in, gd_error *err);
void gd_textin_close(gd_textin *t);
gd_text_enc gd_textin_encoding(const gd_textin *t);

/* Next line as UTF-8 without its "\n" or "\r\n" (NUL-terminated, valid until
 * the next call).  1 = a line, 0 = end, -1 = error (read failure, a line over
 * GD_INPUT_MAX_LINE) with err set.  Invalid UTF-16 (a lone surrogate) becomes
 * U+FFFD. */
int gd_textin_getline(gd_textin *t, char **line, size_t *len, gd_error *err);
/* 1-based number of the line last returned. */
long gd_textin_lineno(const gd_textin *t);

/* Encoding of a head by its BOM (UTF-16 only with a BOM). */
gd_text_enc gd_text_detect(const unsigned char *head, size_t n);

/* A UTF-8 copy of a probe head for text probes: past a UTF-8 BOM, or
 * transcoded from UTF-16 with a BOM (an incomplete last character is
 * dropped).  New NUL-terminated buffer the caller frees; NULL only when out
 * of memory. */
char *gd_text_head(const unsigned char *head, size_t n, size_t *out_n);

#endif
