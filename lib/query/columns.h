/* query/columns.h - a query's output columns declared once (#45 item 1).
 *
 * A query lists its columns in its header as an X-macro of two kinds of
 * rows, in the order of its rows' fields (the JSON keys' order):
 *
 *   X(ID, expr, key, header, TYPE, flags)   a column of every output
 *   J(ID, expr, key, header, TYPE, flags)   a field of JSON rows only
 *                                           (header NULL: no table or csv column)
 *
 *   ID      the field's name in the query's enum: its value's index in a row
 *   expr    the SQL expression it is read from, in the order of the SELECT
 *           (gd_qcols_select writes "expr AS key, ..."), or NULL when the
 *           query computes the value
 *   key     the JSON key, the SQL alias (ORDER BY names it), the csv header
 *   header  the table header
 *   TYPE    TEXT, INT, MS, TIME, BOOL, BYTES, NUM, WINDOW: how a table shows
 *           it (cli pastes GD_COL_##TYPE) and how a read value is kept
 *           (gd_qcols_read: MS and TIME rounded to microseconds)
 *   flags   GD_QC_HIDDEN, GD_QC_WIDE, GD_QC_AUTO, GD_QC_CUT (tables), GD_QC_ASIS,
 *           GD_QC_PARSE (reads), or 0
 *
 * The query's .c makes its enum (GD_QC_ID), its keys (GD_QC_KEY) and its
 * reads (GD_QC_READ) of the list and builds each row with gd_qcols_json;
 * cli/ makes the command's column spec of the same list (GD_CLI_COL in
 * cli/common.h).  When a table shows the columns in another order than the
 * JSON rows (a column added last for csv readers), the header gives that
 * order as a list of IDs, T(ID) each, that cli/ places them by.
 */
#ifndef GD_QUERY_COLUMNS_H
#define GD_QUERY_COLUMNS_H

#include <stddef.h>

#include "core/row.h"

/* flags of a column (tables only: csv and JSON have every column) */
#define GD_QC_HIDDEN 1u /* not shown */
#define GD_QC_WIDE 2u   /* shrinks to fit the terminal; --wide shows it whole */
#define GD_QC_AUTO 4u   /* not shown when every value is null */
#define GD_QC_CUT 8u    /* a path too wide is cut in its middle, the file name kept */
/* flags of a read (the TYPE is how tables show it) */
#define GD_QC_ASIS 16u  /* the value as SQLite holds it (GD_QT_NUM's rule) */
#define GD_QC_PARSE 32u /* a JSON text, parsed (gd_json_load_text), null when NULL or no JSON */

/* how a value read from SQL is kept (the TYPE of a row) */
typedef enum {
    GD_QT_TEXT = 0, /* text (a number as its text), null when NULL */
    GD_QT_INT,      /* integer, null when NULL */
    GD_QT_MS,       /* real rounded to microseconds, null when NULL */
    GD_QT_TIME,     /* as GD_QT_MS */
    GD_QT_BOOL,     /* true/false, null when NULL */
    GD_QT_BYTES,    /* as GD_QT_INT */
    GD_QT_NUM,      /* the value as SQLite has it */
    GD_QT_WINDOW    /* as GD_QT_TEXT */
} gd_qtype;

/* One read: the SQL expression (NULL: computed by the query), its type, its flags. */
typedef struct gd_qread {
    const char *expr;
    gd_qtype type;
    unsigned flags;
} gd_qread;

#define GD_QC_ID(id, expr, key, header, type, flags) id,
#define GD_QC_KEY(id, expr, key, header, type, flags) key,
#define GD_QC_READ(id, expr, key, header, type, flags) {expr, GD_QT_##type, flags},

/* A query's columns: keys[k] and reads[k] of field k, n fields. */
typedef struct gd_qcols {
    const char *const *keys;
    const gd_qread *reads;
    size_t n;
} gd_qcols;

/* Defines `static const gd_qcols name` of a column list LIST(X, J). */
#define GD_QCOLS_DEFINE(name, LIST)                                               \
    static const char *const name##_keys[] = {LIST(GD_QC_KEY, GD_QC_KEY)};        \
    static const gd_qread name##_reads[] = {LIST(GD_QC_READ, GD_QC_READ)};        \
    static const gd_qcols name = {name##_keys, name##_reads, sizeof name##_keys / sizeof name##_keys[0]}

typedef struct sqlite3_stmt sqlite3_stmt;

/* The SELECT list of the columns read from SQL: "expr AS key, ..." in
 * buf (NUL-terminated); 0, or -1 when it does not fit in n bytes. */
int gd_qcols_select(const gd_qcols *c, char *buf, size_t n);
/* Reads the current row of st (whose columns are gd_qcols_select's, from
 * column `first` on) into v[k] of every field with an expression, as its
 * type and flags say; the other fields are left as they are.  Texts are
 * valid until st's next step; a parsed JSON value is the row's own
 * reference (gd_qcols_clear). */
void gd_qcols_read(const gd_qcols *c, sqlite3_stmt *st, int first, gd_value *v);
/* The SELECT column (from 0) of field k (which has an expression) in
 * gd_qcols_select's list; the number of columns that list has when k is
 * c->n.  For a value the row does not keep as read (a raw double). */
int gd_qcols_pos(const gd_qcols *c, size_t k);
/* The one row builder: the fields' values v[0..n) as a JSON object under
 * their keys (new reference; NULL when out of memory); a real that is not
 * finite is left out, as jansson does. */
json_t *gd_qcols_json(const gd_qcols *c, const gd_value *v);
/* Releases the JSON values of v[0..n) (GD_V_JSON: the row's own) and
 * makes them null. */
void gd_qcols_clear(const gd_qcols *c, gd_value *v);

/* Setters of a computed field. */
void gd_qv_null(gd_value *v);
void gd_qv_int(gd_value *v, int64_t i);
void gd_qv_real(gd_value *v, double d);
/* a duration or time in ms rounded to microseconds (gd_ms_round); NAN: null */
void gd_qv_ms(gd_value *v, double ms);
void gd_qv_bool(gd_value *v, int yes);
/* a C string, null when NULL (invalid UTF-8 mended by gd_json_text) */
void gd_qv_text(gd_value *v, const char *s);
/* a JSON value, the row's own reference (released by gd_qcols_clear);
 * NULL: null */
void gd_qv_json(gd_value *v, json_t *j);

/* Rows that are documents (#45 item 1): a field only some rows have, a
 * nested object of a list of its own, a row of part of a list. */
/* The field is left out of its row (a key only some rows have): gd_row_json
 * leaves out a non-finite real. */
void gd_qv_absent(gd_value *v);
/* A real, null when it is not finite (NAN: no data). */
void gd_qv_num(gd_value *v, double d);
/* A nested object of the fields f[0..c->n) of list c (GD_V_ROW): r is
 * filled here and, with f, must live until the row is built; f's JSON
 * values are cleared by gd_qcols_clear(c, f), not by the outer row's. */
void gd_qv_row(gd_value *v, gd_row *r, const gd_qcols *c, const gd_value *f);
/* The fields [from, to) of list c as a list of their own (to <= c->n):
 * a row with only some of the fields (a prefix: the fields without an
 * option; a suffix: a nested node without its parent's first fields),
 * its values v[0..to - from). */
gd_qcols gd_qcols_sub(const gd_qcols *c, size_t from, size_t to);

/* A table's and csv's column that is no field of the row (a field of a
 * nested object, or text a command makes of the row), declared in the
 * query's header as a list of its own:
 *   P(ID, key, header, TYPE, flags, path)
 * key the csv header; path where the value is in the JSON row ("a.b":
 * field b of object a; NULL: the command's cell function makes its text);
 * TYPE and flags as X's.  cli/ makes it with GD_CLI_PATH_AT; the table
 * order (T(ID)) places it among the X columns. */

#endif
