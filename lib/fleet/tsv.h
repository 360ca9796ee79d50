/* tsv.h - values written in ClickHouse's TabSeparated format, the body of
 * `godeye push` inserts: each value as ClickHouse reads back exactly what a
 * JSONEachRow insert of the same jansson value gives. */
#ifndef GD_FLEET_TSV_H
#define GD_FLEET_TSV_H

#include <jansson.h>
#include <stddef.h>

/* A growing byte buffer; `oom` is set (and the text stops growing) when
 * memory runs out. */
typedef struct gd_tsv {
    char *p;
    size_t len, cap;
    int oom;
} gd_tsv;

void gd_tsv_free(gd_tsv *b);
void gd_tsv_bytes(gd_tsv *b, const char *s, size_t n);
void gd_tsv_char(gd_tsv *b, char c);

/* A String value: backslash, tab and newline escaped, other bytes as they
 * are; text that is not valid UTF-8 becomes U+FFFD, as jansson's string. */
void gd_tsv_text(gd_tsv *b, const char *s, size_t n);
void gd_tsv_int(gd_tsv *b, long long v);
/* A double as jansson prints it (%.17g, ".0" when integral, exponent without
 * '+' and leading zeros); 0 and nothing written when not finite (jansson
 * has no such real: the JSON row omits the key). */
int gd_tsv_real(gd_tsv *b, double v);
void gd_tsv_null(gd_tsv *b);

/* What a ClickHouse column takes, from its type ("Nullable(Int32)", ...). */
typedef enum {
    GD_TSV_OTHER,
    GD_TSV_STRING,
    GD_TSV_INT,
    GD_TSV_FLOAT,
    GD_TSV_DATE,
    GD_TSV_ARRAY
} gd_tsv_kind;
typedef struct gd_tsv_col {
    gd_tsv_kind kind;
    int nullable;
} gd_tsv_col;

gd_tsv_col gd_tsv_col_of(const char *type);

/* The value a JSON null gives in such a column (\N when Nullable, 0 in an
 * integer, nan in a float); 0 when a JSON null is refused there. */
int gd_tsv_null_in(gd_tsv *b, gd_tsv_col c);

/* A JSON array of strings as an Array(String) literal; 0 otherwise. */
int gd_tsv_json(gd_tsv *b, const json_t *v);

/* JSON text holding an array of strings, as an Array(String) literal
 * (parsed with jansson, as the JSONEachRow push does); 0 otherwise. */
int gd_tsv_json_text(gd_tsv *b, const char *json, size_t n);

#endif
