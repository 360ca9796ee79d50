/* jsontext.h - rows of plain values written as compact JSON text, byte for
 * byte what jansson's json_dumpb(JSON_COMPACT | JSON_REAL_PRECISION(16))
 * writes for the same row as a tree (the fast path of large answers). */
#ifndef GD_RENDER_JSONTEXT_H
#define GD_RENDER_JSONTEXT_H

#include <stddef.h>

#include "core/row.h"

/* A growable text buffer. */
typedef struct gd_text {
    char *p;
    size_t n, cap;
} gd_text;

/* Room for `more` bytes past t->n.  0, or -1 when out of memory. */
int gd_text_reserve(gd_text *t, size_t more);
/* Appends n bytes of s.  0, or -1 when out of memory. */
int gd_text_put(gd_text *t, const char *s, size_t n);
/* Appends row r as one JSON object to t.  0, or -1 when out of memory. */
int gd_json_row_text(gd_text *t, const gd_row *r);
/* Appends a string value as a JSON string (invalid UTF-8: "\ufffd" as
 * jansson's rows have it).  0, or -1 when out of memory. */
int gd_json_string_text(gd_text *t, const char *s, size_t n);
/* Appends a real as jansson writes it ("%.16g", ".0" when it would read
 * as an integer).  0, or -1 when out of memory. */
int gd_json_real_text(gd_text *t, double d);

#endif
