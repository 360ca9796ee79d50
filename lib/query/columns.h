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
 *           (gd_qcols_select writes "expr AS \"key\", ..."), or NULL when the
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

/* ---- variants and nested objects (#45 item 1, the blocks family) ----
 *
 * A variant of a query reads some fields otherwise (e.g. "NULL" for a
 * text it does not need): the list declares the column once, the query
 * keeps a table over[ID] of its variant's expressions (NULL: the
 * declared one), and gd_qcols_vary makes the variant's columns, whose
 * SELECT, reads and rows come from the declaration as any list's.
 *
 * A nested object (a field whose value is an object of fields of its
 * own, e.g. a block's "memory") is a field of the outer list (its
 * expression, if any, says whether there is one) and a column list of
 * its own (GD_QCOLS_DEFINE), read in the same SELECT after the outer
 * list's columns (gd_qcols_select of each, joined by ", ";
 * gd_qcols_read from gd_qcols_pos(outer, outer->n)) or by a query of its
 * own; gd_qv_row makes the outer field that object. */

/* c's columns with field k read from over[k] where over[k] is not NULL
 * (over: c->n entries); reads: room for c->n, the variant's. */
gd_qcols gd_qcols_vary(const gd_qcols *c, const char *const *over, gd_qread *reads);
/* v the object of c's fields' values fields[0..c->n) (r: its row,
 * kept by the caller while v is used; the values stay the caller's). */
void gd_qv_row(gd_value *v, gd_row *r, const gd_qcols *c, const gd_value *fields);

/* One more kind (#45 item 1, frames), for rows with nested objects:
 *
 *   P(ID, path, key, header, TYPE, flags)   a table-only column: a table and
 *                                           csv column `key` that shows the
 *                                           value at `path` in the row ("a.b":
 *                                           field b of nested object a), no
 *                                           field of its own
 *
 * P rows stand in a table order list, which then takes (T, P) and gives
 * the table's every column in order (cli/common.h: GD_CLI_TAB_P,
 * GD_CLI_PATH_AT, GD_CLI_TABLE_P_CHECK).  path NULL: the command's cell
 * function makes the text (overdraw's ratio and note, anr's MAIN STATE).  A nested object is a field whose
 * value is a row of its own (gd_qv_nested), e.g. one built by core/row.h's
 * gd_rowb when its keys are known only at run time. */

/* a nested object: the row r (borrowed: it must outlive gd_qcols_json) */
void gd_qv_nested(gd_value *v, const gd_row *r);

/* The row of st's current row when every field of c is read from SQL
 * (gd_qcols_read from column 0, then gd_qcols_json): a query's whole row
 * builder.  NULL when out of memory or c has more than GD_QCOLS_MAX fields. */
#define GD_QCOLS_MAX 64
json_t *gd_qcols_row(const gd_qcols *c, sqlite3_stmt *st);

/* A row whose shape varies by its kind (a key only
 * some rows have, e.g. `anr --context`'s log_start_ms on its no_log row):
 * the field is left out of the JSON row (gd_qcols_json), not null; tables
 * and csv show it as null. */
void gd_qv_absent(gd_value *v);

/* A real, null when it is not finite (NAN: no data). */
void gd_qv_num(gd_value *v, double d);
/* The fields [from, to) of list c as a list of their own (to <= c->n):
 * a row with only some of the fields (a prefix: the fields without an
 * option; a suffix: a nested node without its parent's first fields),
 * its values v[0..to - from). */
gd_qcols gd_qcols_sub(const gd_qcols *c, size_t from, size_t to);

#endif
