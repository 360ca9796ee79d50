/* tsv.c - values in ClickHouse's TabSeparated format (see tsv.h). */
#include "tsv.h"
#include "core/row.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gd_tsv_free(gd_tsv *b)
{
    free(b->p);
    *b = (gd_tsv){0};
}

static int reserve(gd_tsv *b, size_t more)
{
    if (b->oom)
        return 0;
    if (b->len + more <= b->cap)
        return 1;
    size_t nc = b->cap ? b->cap : 1 << 16;
    while (nc < b->len + more)
        nc *= 2;
    char *np = realloc(b->p, nc);
    if (!np) {
        b->oom = 1;
        return 0;
    }
    b->p = np;
    b->cap = nc;
    return 1;
}

void gd_tsv_bytes(gd_tsv *b, const char *s, size_t n)
{
    if (reserve(b, n)) {
        memcpy(b->p + b->len, s, n);
        b->len += n;
    }
}

void gd_tsv_char(gd_tsv *b, char c)
{
    if (reserve(b, 1))
        b->p[b->len++] = c;
}

/* Length of the UTF-8 sequence at s (n bytes left) as jansson accepts it
 * (no overlong forms, surrogates or code points over U+10FFFF), 0 if bad. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char u = s[0];
    size_t len = u < 0x80 ? 1 : u < 0xC2 ? 0 : u < 0xE0 ? 2 : u < 0xF0 ? 3 : u < 0xF5 ? 4 : 0;
    if (len <= 1)
        return len;
    if (len > n)
        return 0;
    uint32_t cp = u & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
    for (size_t i = 1; i < len; i++) {
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (len == 3 && cp < 0x800) ||
        (len == 4 && cp < 0x10000))
        return 0;
    return len;
}

/* 1 when s holds only UTF-8 jansson accepts (checked from the first
 * byte over 0x7F on). */
static int valid_utf8(const unsigned char *u, size_t n)
{
    for (size_t i = 0; i < n;) {
        if (u[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = utf8_len(u + i, n - i);
        if (!k)
            return 0;
        i += k;
    }
    return 1;
}

/* Bytes escaped by a backslash: \\ \t \n, and ' inside quotes. */
static const unsigned char special[256] = {['\\'] = 1, ['\t'] = 1, ['\n'] = 1, ['\''] = 1};

#define ONES 0x0101010101010101ull
#define HAS_ZERO(v) (((v) - ONES) & ~(v) & (ONES * 0x80))

/* 1 when none of w's bytes is a tab, newline, backslash or over 0x7F. */
static int plain8(uint64_t w)
{
    return !(w & (ONES * 0x80)) && !HAS_ZERO(w ^ (ONES * '\t')) && !HAS_ZERO(w ^ (ONES * '\n')) &&
           !HAS_ZERO(w ^ (ONES * '\\'));
}

/* s escaped for TabSeparated (quote: 0) or inside a quoted literal ('\''). */
static void escaped(gd_tsv *b, const char *s, size_t n, char quote)
{
    if (!reserve(b, 2 * n + 5))
        return;
    const unsigned char *u = (const unsigned char *)s;
    char *o = b->p + b->len;
    int checked = 0;
    if (quote)
        *o++ = quote;
    for (size_t i = 0; i < n; i++) {
        uint64_t w;
        /* eight plain ASCII bytes at a time */
        while (!quote && i + 8 <= n && (memcpy(&w, u + i, 8), plain8(w))) {
            memcpy(o, &w, 8);
            o += 8;
            i += 8;
        }
        if (i == n)
            break;
        unsigned char c = u[i];
        if (c >= 0x80 && !checked) {
            if (!valid_utf8(u + i, n - i)) { /* as jansson's string: U+FFFD */
                escaped(b, "\xef\xbf\xbd", 3, quote);
                return;
            }
            checked = 1;
        }
        if (special[c] && (c != '\'' || quote)) {
            *o++ = '\\';
            c = c == '\t' ? 't' : c == '\n' ? 'n' : c;
        }
        *o++ = (char)c;
    }
    if (quote)
        *o++ = quote;
    b->len = (size_t)(o - b->p);
}

void gd_tsv_text(gd_tsv *b, const char *s, size_t n)
{
    escaped(b, s, n, 0);
}

/* The decimal digits of v at out; how many. */
static size_t utoa(char *out, unsigned long long v)
{
    char t[24];
    size_t n = 0;
    do
        t[n++] = (char)('0' + v % 10);
    while (v /= 10);
    for (size_t i = 0; i < n; i++)
        out[i] = t[n - 1 - i];
    return n;
}

void gd_tsv_int(gd_tsv *b, long long v)
{
    if (!reserve(b, 24))
        return;
    char *o = b->p + b->len;
    if (v < 0)
        *o++ = '-';
    o += utoa(o, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
    b->len = (size_t)(o - b->p);
}

/* v as %.17g (and jansson) print it, without printf, when v is a multiple
 * of 1/1024 under 2^43 whose exact decimal has at most 17 significant
 * digits (times and durations in ms mostly are); 0 when it is not. */
static int real_exact(gd_tsv *b, double v)
{
    double a = fabs(v), scaled = a * 1024.0; /* exact: a power of two */
    if (!(a < 8796093022208.0) || scaled != floor(scaled))
        return 0;
    uint64_t q = (uint64_t)scaled, ip = q >> 10, fp = q & 1023;
    char frac[10], ib[24];
    size_t nf = 0, ni = utoa(ib, ip);
    if (fp) { /* fp / 1024 = fp * 5^10 / 10^10 */
        uint64_t d = fp * 9765625ull;
        for (int i = 9; i >= 0; i--, d /= 10)
            frac[i] = (char)('0' + d % 10);
        nf = 10;
        while (frac[nf - 1] == '0')
            nf--;
    }
    size_t lead = 0;
    while (!ip && lead < nf && frac[lead] == '0')
        lead++;
    if ((ip ? ni + nf : nf - lead) > 17 || lead > 3) /* %g would round or use e-05 */
        return 0;
    if (!reserve(b, ni + nf + 3))
        return 1;
    char *o = b->p + b->len;
    if (signbit(v))
        *o++ = '-';
    memcpy(o, ib, ni);
    o += ni;
    *o++ = '.';
    if (nf)
        memcpy(o, frac, nf);
    else
        *o = '0';
    o += nf ? nf : 1;
    b->len = (size_t)(o - b->p);
    return 1;
}

int gd_tsv_real(gd_tsv *b, double v)
{
    if (!isfinite(v))
        return 0;
    if (real_exact(b, v))
        return 1;
    char t[40];
    int n = snprintf(t, sizeof t, "%.17g", v);
    char *e = strchr(t, 'e');
    if (!e && !strchr(t, '.')) {
        memcpy(t + n, ".0", 3);
        n += 2;
    } else if (e) {
        /* jansson drops the exponent's '+' and leading zeros */
        char *start = e + 1, *end = start;
        if (*start == '-')
            start++, end++;
        else if (*start == '+')
            end++;
        while (*end == '0' && end[1])
            end++;
        if (end != start) {
            memmove(start, end, strlen(end) + 1);
            n = (int)strlen(t);
        }
    }
    gd_tsv_bytes(b, t, (size_t)n);
    return 1;
}

void gd_tsv_null(gd_tsv *b)
{
    gd_tsv_bytes(b, "\\N", 2);
}

gd_tsv_col gd_tsv_col_of(const char *type)
{
    gd_tsv_col c = {GD_TSV_OTHER, 0};
    if (strncmp(type, "Nullable(", 9) == 0) {
        c.nullable = 1;
        type += 9;
    }
    size_t n = strcspn(type, ")");
    if (n == 6 && strncmp(type, "String", 6) == 0)
        c.kind = GD_TSV_STRING;
    else if (strncmp(type, "Int", 3) == 0 || strncmp(type, "UInt", 4) == 0)
        c.kind = GD_TSV_INT;
    else if (strncmp(type, "Float", 5) == 0)
        c.kind = GD_TSV_FLOAT;
    else if ((n == 4 && strncmp(type, "Date", 4) == 0) ||
             (n == 8 && strncmp(type, "DateTime", 8) == 0))
        c.kind = GD_TSV_DATE;
    else if (!c.nullable && strcmp(type, "Array(String)") == 0)
        c.kind = GD_TSV_ARRAY;
    return c;
}

int gd_tsv_null_in(gd_tsv *b, gd_tsv_col c)
{
    if (c.nullable)
        gd_tsv_null(b);
    else if (c.kind == GD_TSV_INT)
        gd_tsv_char(b, '0');
    else if (c.kind == GD_TSV_FLOAT)
        gd_tsv_bytes(b, "nan", 3);
    else
        return 0;
    return 1;
}

int gd_tsv_json(gd_tsv *b, const json_t *v)
{
    if (!json_is_array(v))
        return 0;
    json_t *x;
    size_t i;
    gd_tsv_char(b, '[');
    json_array_foreach(v, i, x) {
        if (!json_is_string(x))
            return 0;
        if (i)
            gd_tsv_char(b, ',');
        escaped(b, json_string_value(x), json_string_length(x), '\'');
    }
    gd_tsv_char(b, ']');
    return 1;
}

int gd_tsv_json_text(gd_tsv *b, const char *json, size_t n)
{
    json_t *v = gd_json_load_text(json, n, 0);
    int ok = gd_tsv_json(b, v);
    json_decref(v);
    return ok;
}
