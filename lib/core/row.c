/* row.c - result rows as plain values: path look-up, conversion to JSON. */
#include "core/row.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The length of the first path segment (up to '.' or the end). */
static size_t segment(const char *p)
{
    return strcspn(p, ".");
}

const gd_value *gd_row_get(const gd_row *r, const char *path, const char **rest)
{
    *rest = NULL;
    /* a name with a '.' of its own ("t.tid", an SQL expression) is itself
     * before it is a path */
    for (size_t k = 0; r && strchr(path, '.') && k < r->n; k++)
        if (strcmp(r->names[k], path) == 0)
            return &r->v[k];
    while (r) {
        size_t n = segment(path);
        const gd_value *v = NULL;
        for (size_t k = 0; k < r->n && !v; k++)
            if (strncmp(r->names[k], path, n) == 0 && r->names[k][n] == '\0')
                v = &r->v[k];
        if (!v || !path[n])
            return v;
        path += n + 1;
        if (v->kind == GD_V_JSON) {
            *rest = path;
            return v;
        }
        r = v->kind == GD_V_ROW ? v->u.row : NULL;
    }
    return NULL;
}

/* Length of the UTF-8 character at p (at most `avail` bytes) by jansson's
 * rule (utf.c): no overlong forms, no surrogates, at most U+10FFFF; 0 when
 * the bytes there are not one. */
size_t gd_utf8_char_len(const unsigned char *p, size_t avail)
{
    unsigned c = *p;
    size_t len;
    unsigned cp;
    if (c < 0x80)
        return 1;
    else if (c >= 0xC2 && c <= 0xDF)
        len = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, cp = c & 0x07;
    else
        return 0;
    if (avail < len)
        return 0;
    for (size_t k = 1; k < len; k++) {
        if ((p[k] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[k] & 0x3F);
    }
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (len == 3 && cp < 0x800) ||
        (len == 4 && cp < 0x10000))
        return 0;
    return len;
}

size_t gd_utf8_cut(const char *s, size_t len, size_t max)
{
    if (len <= max)
        return len;
    const unsigned char *p = (const unsigned char *)s;
    size_t b = max;
    /* back over at most 3 continuation bytes to the lead byte at or before the cut */
    while (b > 0 && max - b < 3 && (p[b] & 0xC0) == 0x80)
        b--;
    size_t k = gd_utf8_char_len(p + b, len - b);
    return k && b + k > max ? b : max;
}

int gd_utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    for (size_t k; p < end; p += k)
        if (!(k = gd_utf8_char_len(p, (size_t)(end - p))))
            return 0;
    return 1;
}

char *gd_utf8_mend(const char *s, size_t n, size_t *out_n)
{
    char *buf = malloc(3 * n + 1);
    if (!buf)
        return NULL;
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    size_t o = 0;
    while (p < end) {
        size_t k = gd_utf8_char_len(p, (size_t)(end - p));
        if (k) {
            memcpy(buf + o, p, k);
            o += k;
            p += k;
        } else { /* one byte that starts no character: U+FFFD */
            memcpy(buf + o, "\xef\xbf\xbd", 3);
            o += 3;
            p++;
        }
    }
    buf[o] = 0;
    *out_n = o;
    return buf;
}

json_t *gd_json_text(const char *s, size_t n)
{
    if (gd_utf8_valid(s, n))
        return json_stringn(s, n);
    size_t m;
    char *buf = gd_utf8_mend(s, n, &m);
    json_t *j = buf ? json_stringn(buf, m) : NULL;
    free(buf);
    return j;
}

json_t *gd_json_str(const char *s)
{
    return s ? gd_json_text(s, strlen(s)) : json_null();
}

json_t *gd_json_load_text(const char *s, size_t n, size_t flags)
{
    if (!s)
        return NULL;
    json_t *j = json_loadb(s, n, flags, NULL);
    if (j || gd_utf8_valid(s, n))
        return j;
    size_t m;
    char *buf = gd_utf8_mend(s, n, &m);
    j = buf ? json_loadb(buf, m, flags, NULL) : NULL;
    free(buf);
    return j;
}

json_t *gd_value_json(const gd_value *v)
{
    switch (v->kind) {
    case GD_V_INT:
        return json_integer(v->u.i);
    case GD_V_REAL:
        return json_real(v->u.d);
    case GD_V_BOOL:
        return json_boolean(v->u.i);
    case GD_V_TEXT: {
        return gd_json_text(v->u.t.s, v->u.t.n);
    }
    case GD_V_ROW:
        return gd_row_json(v->u.row);
    case GD_V_JSON:
        return json_incref(v->u.json);
    default:
        return json_null();
    }
}

json_t *gd_row_json(const gd_row *r)
{
    json_t *o = json_object();
    for (size_t k = 0; o && k < r->n; k++)
        json_object_set_new(o, r->names[k], gd_value_json(&r->v[k]));
    return o;
}

void gd_rowb_init(gd_rowb *b)
{
    b->row.names = b->names;
    b->row.v = b->v;
    b->row.n = 0;
}

gd_value *gd_rowb_add(gd_rowb *b, const char *name)
{
    static const gd_value null_value = {GD_V_NULL, {0}};
    size_t k = b->row.n < GD_ROWB_MAX ? b->row.n++ : GD_ROWB_MAX - 1;
    b->names[k] = name;
    b->v[k] = null_value;
    return &b->v[k];
}

void gd_rowb_int(gd_rowb *b, const char *name, int64_t i)
{
    gd_value *v = gd_rowb_add(b, name);
    v->kind = GD_V_INT;
    v->u.i = i;
}

void gd_rowb_text(gd_rowb *b, const char *name, const char *t)
{
    size_t n = t ? strlen(t) : 0;
    gd_value *v = gd_rowb_add(b, name);
    if (n) {
        v->kind = GD_V_TEXT;
        v->u.t.s = t;
        v->u.t.n = n;
    }
}

void gd_rowb_clear(gd_rowb *b)
{
    for (size_t i = 0; i < b->row.n; i++)
        if (b->v[i].kind == GD_V_JSON)
            json_decref(b->v[i].u.json);
    b->row.n = 0;
}
