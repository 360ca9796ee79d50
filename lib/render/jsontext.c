/* jsontext.c - compact JSON text of plain-value rows, as jansson writes it. */
#include "render/jsontext.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#define JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(16))

int gd_text_reserve(gd_text *t, size_t more)
{
    if (t->n + more <= t->cap)
        return 0;
    size_t cap = t->cap ? t->cap : 1024;
    while (cap < t->n + more)
        cap *= 2;
    char *p = realloc(t->p, cap);
    if (!p)
        return -1;
    t->p = p;
    t->cap = cap;
    return 0;
}

int gd_text_put(gd_text *t, const char *s, size_t n)
{
    if (gd_text_reserve(t, n))
        return -1;
    memcpy(t->p + t->n, s, n);
    t->n += n;
    return 0;
}

int gd_json_string_text(gd_text *t, const char *s, size_t n)
{
    if (!gd_utf8_valid(s, n)) { /* the one rule: gd_utf8_mend (as gd_json_text) */
        size_t m;
        char *fixed = gd_utf8_mend(s, n, &m);
        int rc = fixed ? gd_json_string_text(t, fixed, m) : -1;
        free(fixed);
        return rc;
    }
    /* at most 6 bytes per input byte ("\u001F") and the quotes */
    if (gd_text_reserve(t, n * 6 + 2))
        return -1;
    char *o = t->p + t->n;
    *o++ = '"';
    for (size_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c >= 0x20 && c != '"' && c != '\\') {
            *o++ = (char)c;
            continue;
        }
        *o++ = '\\';
        switch (c) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '\b': *o++ = 'b'; break;
        case '\f': *o++ = 'f'; break;
        case '\n': *o++ = 'n'; break;
        case '\r': *o++ = 'r'; break;
        case '\t': *o++ = 't'; break;
        default:
            o += sprintf(o, "u%04X", c);
        }
    }
    *o++ = '"';
    t->n = (size_t)(o - t->p);
    return 0;
}

int gd_json_real_text(gd_text *t, double d)
{
    char b[64];
    int len = snprintf(b, sizeof b - 3, "%.16g", d);
    if (len < 0 || (size_t)len >= sizeof b - 3)
        return -1;
    if (!strchr(b, '.') && !strchr(b, 'e')) {
        memcpy(b + len, ".0", 3);
        len += 2;
    }
    /* no '+' and no leading zeros in the exponent ("1e+20" -> "1e20") */
    char *e = strchr(b, 'e');
    if (e) {
        char *start = e + 1, *end = e + 2;
        if (*start == '-')
            start++;
        while (*end == '0')
            end++;
        if (end != start) {
            memmove(start, end, (size_t)(b + len - end) + 1);
            len -= (int)(end - start);
        }
    }
    return gd_text_put(t, b, (size_t)len);
}

/* A JSON value of the row (borrowed tree) as jansson dumps it. */
static int tree_text(gd_text *t, json_t *j)
{
    size_t n = json_dumpb(j, NULL, 0, JSON_FLAGS | JSON_ENCODE_ANY);
    if (n == 0 || gd_text_reserve(t, n))
        return -1;
    if (json_dumpb(j, t->p + t->n, n, JSON_FLAGS | JSON_ENCODE_ANY) != n)
        return -1;
    t->n += n;
    return 0;
}

/* 1 when v is written (jansson leaves out a field whose real is not finite). */
static int present(const gd_value *v)
{
    return v->kind != GD_V_REAL || isfinite(v->u.d);
}

static int value_text(gd_text *t, const gd_value *v)
{
    char b[32];
    switch (v->kind) {
    case GD_V_INT:
        return gd_text_put(t, b, (size_t)snprintf(b, sizeof b, "%" PRId64, v->u.i));
    case GD_V_REAL:
        return gd_json_real_text(t, v->u.d);
    case GD_V_BOOL:
        return v->u.i ? gd_text_put(t, "true", 4) : gd_text_put(t, "false", 5);
    case GD_V_TEXT:
        return gd_json_string_text(t, v->u.t.s, v->u.t.n);
    case GD_V_ROW:
        return gd_json_row_text(t, v->u.row);
    case GD_V_JSON:
        return v->u.json ? tree_text(t, v->u.json) : gd_text_put(t, "null", 4);
    default:
        return gd_text_put(t, "null", 4);
    }
}

int gd_json_row_text(gd_text *t, const gd_row *r)
{
    int first = 1;
    if (gd_text_put(t, "{", 1))
        return -1;
    for (size_t k = 0; k < r->n; k++) {
        if (!present(&r->v[k]))
            continue;
        if ((!first && gd_text_put(t, ",", 1)) || gd_json_string_text(t, r->names[k], strlen(r->names[k])) ||
            gd_text_put(t, ":", 1) || value_text(t, &r->v[k]))
            return -1;
        first = 0;
    }
    return gd_text_put(t, "}", 1);
}
