/* render_int.h - the renderer's state, shared by its output modes (render.c,
 * table.c, values.c); not for callers. */
#ifndef GD_RENDER_RENDER_INT_H
#define GD_RENDER_RENDER_INT_H

#include "render/jsontext.h"
#include "render/render.h"

#define JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(16))

struct gd_renderer {
    FILE *out;
    gd_out_mode mode;
    const gd_column *cols;
    size_t ncols;
    int width;
    size_t nrows;
    json_t *buffered; /* table mode */
    int failed;
    gd_text text;     /* json/jsonl: rows' text not yet written */
    struct trace_clock { int64_t trace; gd_clock c; } *clocks; /* table mode */
    size_t nclocks, clocks_cap;
    int tz_min;
    const char *children; /* rows are trees: their nodes' array field */
    gd_lines_fn lines;    /* table mode: rows written as lines by this   */
    void *lines_ctx;
};

/* A text cell that a spreadsheet would run as a formula gets a leading '. */
void gd_render_csv_field(FILE *out, const char *s, int text);

/* The value of column c in a row (NULL when absent). */
json_t *gd_render_col_value(const gd_column *c, const json_t *row);
/* The clock of a row's trace (NULL: unknown). */
const gd_clock *gd_render_row_clock(const gd_renderer *r, json_t *row);
/* Writes the json/jsonl text still held.  0, or -1. */
int gd_render_values_flush(gd_renderer *r);
/* The same once the text held is a block's worth. */
void gd_render_values_flush_at(gd_renderer *r);
/* Table and Markdown modes: the buffered rows, printed. */
void gd_render_flush_table(gd_renderer *r);
void gd_render_flush_md(gd_renderer *r);

#endif
