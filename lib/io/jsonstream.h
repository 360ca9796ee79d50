/* jsonstream.h - element-by-element reading of large JSON documents.
 *
 * Walks the containers of a document without building it: a reader enters
 * the top-level object, finds the key it wants, enters an array and pulls
 * each element as a small jansson tree.  Memory is bounded by the largest
 * single value pulled, never by the document.  Positions (line, column) are
 * tracked so that errors name the place in the file. */
#ifndef GD_IO_JSONSTREAM_H
#define GD_IO_JSONSTREAM_H

#include <jansson.h>

#include "core/error.h"
#include "input.h"

#define GD_JSON_MAX_VALUE ((size_t)8 << 20) /* one element: bounds memory (jansson ~6x) */
#define GD_JSON_MAX_DEPTH 1000

typedef struct gd_jstream gd_jstream;

gd_jstream *gd_jstream_new(gd_input *in);
void gd_jstream_free(gd_jstream *js);

/* Type of the next value without consuming it: '{', '[', '"', 'n', 't',
 * 'f', '0' (number), 0 at end of input, -1 error (err set). Skips
 * whitespace and, inside containers, the ',' and ':' separators are handled
 * by the calls below. */
int gd_jstream_peek(gd_jstream *js, gd_error *err);

/* Consumes the '{' or '[' of the next value. 0 ok, -1 error. */
int gd_jstream_enter(gd_jstream *js, gd_error *err);

/* Inside an object: 1 and the key (valid until the next call) when another
 * member follows (positioned at its value), 0 after consuming '}', -1 error. */
int gd_jstream_next_key(gd_jstream *js, const char **key, gd_error *err);

/* Inside an array: 1 when another element follows (positioned at it), 0 after
 * consuming ']', -1 error. */
int gd_jstream_next_elem(gd_jstream *js, gd_error *err);

/* Parses the next value into a new jansson tree (caller json_decref's it);
 * NULL with err set on malformed JSON.  line and col receive its start. */
json_t *gd_jstream_value(gd_jstream *js, long *line, long *col, gd_error *err);

/* Scans the next value without parsing it: its text (valid until the next
 * call) in text and len, its start in line and col.  0 ok, -1 error (err set). */
int gd_jstream_raw(gd_jstream *js, const char **text, size_t *len, long *line, long *col,
                   gd_error *err);

/* Parses the value last returned by gd_jstream_raw, as gd_jstream_value
 * would have (same errors and positions). */
json_t *gd_jstream_parse_raw(gd_jstream *js, gd_error *err);

/* Skips the next value entirely (any size, bounded memory). 0 ok, -1 error. */
int gd_jstream_skip(gd_jstream *js, gd_error *err);

/* 0 when only whitespace remains, -1 (err set) otherwise. */
int gd_jstream_expect_end(gd_jstream *js, gd_error *err);

/* Calls fn for every top-level value of a stream of JSON objects and arrays
 * of objects (JSON Lines, one array, pretty-printed objects one after the
 * other): arrays are flattened one level.  line and col receive each value's
 * start before fn runs; fn returns 0 to go on or an error code.  Returns 0,
 * fn's code, or GD_ERR_DATA (err set) on malformed input. */
int gd_jstream_each_object(gd_input *in, int (*fn)(void *ctx, json_t *o, gd_error *err), void *ctx,
                           long *line, long *col, gd_error *err);

/* Current position (1-based). */
long gd_jstream_line(const gd_jstream *js);
long gd_jstream_col(const gd_jstream *js);

#endif
