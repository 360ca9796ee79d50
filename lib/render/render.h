/* render.h - one column spec, many output modes (table, csv, json, jsonl).
 *
 * Commands describe their rows once (gd_column[], whose columns name paths
 * into the row) and push the query's rows as they are, JSON objects or rows
 * of plain values (core/row.h); the renderer decides how they look.
 * Renderers never compute: they format what the analyses produced. */
#ifndef GD_RENDER_RENDER_H
#define GD_RENDER_RENDER_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/row.h"
#include "render/timefmt.h"

/* GD_OUT_MD: a Markdown pipe table for pull-request comments (times of
 * unknown clock; cells escaped so capture text never becomes markup).
 * GD_OUT_JUNIT: `godeye check`'s rules as a JUnit XML suite (junit.h). */
typedef enum { GD_OUT_TABLE = 0, GD_OUT_CSV, GD_OUT_JSON, GD_OUT_JSONL, GD_OUT_MD, GD_OUT_JUNIT } gd_out_mode;

/* Parses "table", "csv", "json", "jsonl", "md", "junit"; -1 when unknown. */
int gd_out_mode_parse(const char *s);

typedef enum {
    GD_COL_TEXT = 0,  /* string (or any value, printed as JSON text)        */
    GD_COL_INT,
    GD_COL_MS,        /* a duration in ms, printed in ms with one decimal   */
    GD_COL_TIME,      /* a time: shown by gd_time_text with the clock of the *
                       * row's trace (key "trace"); the zone label goes in  *
                       * the header when all rows share it, else in cells   */
    GD_COL_BOOL,      /* true/false/null as yes/no/-                         */
    GD_COL_BYTES,     /* a byte count, printed with a unit                   */
    GD_COL_NUM,       /* any number: 3 significant digits, whole from 100 on */
    GD_COL_WINDOW     /* a window name: a ViewRootImpl's long one           *
                       * ("pkg/Act/android.view.ViewRootImpl@h (visibility=8)")*
                       * reads "pkg/Act@h" in tables                        */
} gd_col_type;

/* A cell's text made from its whole row (for columns that summarize
 * nested fields): buf, or NULL when the row has none. */
typedef const char *(*gd_cell_fn)(const json_t *row, char *buf, size_t n);

typedef struct gd_column {
    const char *key;      /* the column's name: csv header; its path too     */
    const char *header;   /* table header                                    */
    gd_col_type type;
    int flex;             /* table: this column shrinks to fit the terminal  */
    int hidden;           /* table: not shown (csv/json still have it)       */
    int auto_hide;        /* table: not shown when every value is null       */
    const char *path;     /* where the value is in the row when not at key:  *
                           * "a.b" field b of object a, "a.0" the first     *
                           * element of array a ("overdraw_px.4+")          */
    gd_cell_fn text;      /* table and csv: the cell's text from the row     */
    const char *words;    /* tables: "YES|NO", the words for true and false  */
    int cut_middle;       /* table (flex): a path or URL too wide is cut in  *
                           * its middle, the file name kept (#47)            */
} gd_column;

typedef struct gd_renderer gd_renderer;

/* A renderer writing to `out`.  Table mode holds the rows to size columns
 * (past 2048 of them, in a temporary file: its memory does not grow with
 * the rows) and fits `width` characters (0 = 100). */
gd_renderer *gd_render_new(FILE *out, gd_out_mode mode, const gd_column *cols, size_t ncols,
                           int width);
/* The clock described by a trace row (`godeye traces`' "clock",
 * "utc_offset_min" and "start_ms"; absent fields: unknown). */
gd_clock gd_clock_of_trace_row(const json_t *row);
/* 1 when the output shows times by their trace's clock (a table with a
 * time column): the caller then gives the clocks (gd_render_clock). */
int gd_render_wants_clocks(const gd_renderer *r);
/* Table mode: time columns of rows whose "trace" is `trace` follow clock
 * `c` (copied); rows of traces never named here are of unknown clock.
 * 0, or -1 when out of memory. */
int gd_render_clock(gd_renderer *r, int64_t trace, const gd_clock *c);
/* Table mode: the display zone of times (--tz), GD_TZ_NONE by default. */
void gd_render_tz(gd_renderer *r, int tz_min);
/* A time `v` of `row` (its "trace" names the clock) as text with its zone
 * label, for lines outside a table ("05-12 10:11:12.345 UTC", "+1.500s");
 * "-" when v is no time. */
const char *gd_render_time(const gd_renderer *r, json_t *row, json_t *v, char *buf, size_t n);
/* The value a path names in a row: "a.b" is field b of the object in
 * field a, "a.2" the third element of the array in field a (NULL when
 * absent). */
json_t *gd_render_get(const json_t *row, const char *path);
/* Rows are trees whose nodes hold their children in the array field
 * `children` (a literal or kept by the caller): json and jsonl write each
 * tree as it is; the other modes show one row per node, in pre-order, with
 * the node's fields, "depth" (0 for the root) and its root's fields the node
 * has not. */
void gd_render_nodes(gd_renderer *r, const char *children);
/* Writes one row for humans as lines of text to out (r: for its times,
 * gd_render_time).  0, or -1 on a write error. */
typedef int (*gd_lines_fn)(FILE *out, const gd_renderer *r, json_t *row, void *ctx);
/* Table mode: each row is written by fn as it comes (a report of lines,
 * not a table); the other modes are unchanged. */
void gd_render_lines(gd_renderer *r, gd_lines_fn fn, void *ctx);
/* Adds one row (borrowed). 0 ok, -1 on a write error or out of memory. */
int gd_render_row(gd_renderer *r, json_t *row);
/* Adds one row of plain values (borrowed): json, jsonl and csv are written
 * from the values as they come, with the same text as gd_render_row would
 * write for gd_row_json(row).  0 ok, -1 on a write error or out of memory. */
int gd_render_values(gd_renderer *r, const gd_row *row);
/* The rows given so far (gd_render_row and gd_render_values): 0 tells an
 * empty answer. */
size_t gd_render_rows(const gd_renderer *r);
/* Finishes the output (closing bracket, table flush) and frees r.  A table
 * with no rows prints nothing (csv still has its header, json is []).
 * Returns -1 when writing failed. */
int gd_render_end(gd_renderer *r);
/* gd_render_end, and when the rows could not be kept (a table's temporary
 * file, core/tmpfile.h, could not be made or written, or memory ran out)
 * err filled with the one-line reason, naming the folder (#53 item 2); err
 * is left as it was on an error writing the output itself. */
int gd_render_end_err(gd_renderer *r, gd_error *err);

/* Formats a value of a column for humans into buf (table cells, reports);
 * times of unknown clock (as recorded, no zone); an empty array is "-". */
const char *gd_render_cell(const gd_column *c, json_t *v, char *buf, size_t n);

#endif
