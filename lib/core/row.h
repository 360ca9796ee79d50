/* row.h - a result row as plain values (names and typed values in order):
 * what a query hands the renderer when no JSON tree is needed. */
#ifndef GD_CORE_ROW_H
#define GD_CORE_ROW_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    GD_V_NULL = 0,
    GD_V_INT,
    GD_V_REAL, /* a non-finite real is left out of the row (as jansson does) */
    GD_V_BOOL,
    GD_V_TEXT, /* UTF-8 of n bytes; invalid UTF-8 reads as U+FFFD */
    GD_V_ROW,  /* a nested object */
    GD_V_JSON  /* any JSON value (borrowed) */
} gd_vkind;

typedef struct gd_row gd_row;

typedef struct gd_value {
    gd_vkind kind;
    union {
        int64_t i;
        double d;
        struct {
            const char *s;
            size_t n;
        } t;
        const gd_row *row;
        json_t *json;
    } u;
} gd_value;

/* n fields: names[k] is the name of v[k]; both borrowed. */
struct gd_row {
    const char *const *names;
    const gd_value *v;
    size_t n;
};

/* A row being built field by field (names borrowed; GD_V_JSON values are
 * its own references, released by gd_rowb_clear). */
#define GD_ROWB_MAX 48 /* a row whose keys are known only at run time (frames' jank tags) */
typedef struct gd_rowb {
    const char *names[GD_ROWB_MAX];
    gd_value v[GD_ROWB_MAX];
    gd_row row;
} gd_rowb;

void gd_rowb_init(gd_rowb *b);
/* The next field's value, null until set (past GD_ROWB_MAX fields: a slot
 * that is not in the row). */
gd_value *gd_rowb_add(gd_rowb *b, const char *name);
void gd_rowb_int(gd_rowb *b, const char *name, int64_t i);
/* A C string (NULL or "": null); bytes that are not UTF-8 become U+FFFD
 * in JSON (gd_json_text), never a field left out. */
void gd_rowb_text(gd_rowb *b, const char *name, const char *t);
/* Releases the row's JSON values and empties it. */
void gd_rowb_clear(gd_rowb *b);

/* The value a path names in a row ("a", "a.b": field b of nested row a);
 * NULL when absent.  When the path goes on into a GD_V_JSON value, that
 * value is returned and *rest is the remaining path (else *rest = NULL). */
const gd_value *gd_row_get(const gd_row *r, const char *path, const char **rest);
/* The row as a JSON object (new reference); NULL when out of memory. */
json_t *gd_row_json(const gd_row *r);
/* One value as JSON (new reference; NULL for a non-finite real). */
json_t *gd_value_json(const gd_value *v);

/* 1 when s[0..n) is UTF-8 that jansson accepts. */
/* Length of the UTF-8 character at p (at most `avail` bytes) by jansson's
 * rule: no overlong forms, no surrogates, at most U+10FFFF; 0 when the
 * bytes there are not one.  The one UTF-8 decoder of core/. */
size_t gd_utf8_char_len(const unsigned char *p, size_t avail);
int gd_utf8_valid(const char *s, size_t n);
/* The length of s[0..len) cut to at most `max` bytes without splitting a
 * UTF-8 character: len when it fits, else max less the bytes of a
 * character that the cut would split (bytes that are no character are cut
 * where they fall).  The one rule of every bounded copy of a text. */
size_t gd_utf8_cut(const char *s, size_t len, size_t max);
/* s[0..n) with every byte that starts no UTF-8 character replaced by
 * U+FFFD (malloc'ed, NUL-terminated, its length in *out_n; NULL when out of
 * memory). */
char *gd_utf8_mend(const char *s, size_t n, size_t *out_n);
/* s[0..n) as a JSON string, mended as gd_utf8_mend does, the rest kept: the one rule of every output
 * for text that is not UTF-8.  NULL only when out of memory. */
json_t *gd_json_text(const char *s, size_t n);
/* A C string as JSON: null when s is NULL, else gd_json_text (#53 item 1:
 * a text read back from a database or built from one is mended, never
 * refused); NULL only when out of memory. */
json_t *gd_json_str(const char *s);
/* A JSON text read back from a database (jansson's flags): parsed as it is,
 * else, when it is not UTF-8 (stored by a godeye that did not mend texts at
 * ingest, #53 item 1), parsed mended as gd_utf8_mend does, so an older
 * database's stacks and contents read with U+FFFD, never as missing.  NULL
 * when s is NULL, is no JSON, or out of memory.  The one rule of every JSON
 * column a query, a deriver or the fleet export parses. */
json_t *gd_json_load_text(const char *s, size_t n, size_t flags);

#endif
