/* textin.h - the head of a text input, as text probes see it.
 *
 * The encoding is settled below every reader, in the input itself
 * (io/input.h): a UTF-8 BOM is dropped and UTF-16LE/BE (with a BOM, or a
 * PowerShell redirect without one) is transcoded to UTF-8 before any byte
 * reaches a probe or a line reader.  So the one text path is
 * gd_input_getline (CRLF and LF endings both work) with gd_input_lineno,
 * the line numbers of the original text; memory is bounded by the longest
 * line (GD_INPUT_MAX_LINE). */
#ifndef GD_IO_TEXTIN_H
#define GD_IO_TEXTIN_H

#include <stddef.h>

#include "input.h"

/* A copy of a probe head for text probes, past a UTF-8 BOM (the input has
 * already transcoded UTF-16).  New NUL-terminated buffer the caller frees;
 * NULL only when out of memory. */
char *gd_text_head(const unsigned char *head, size_t n, size_t *out_n);

#endif
