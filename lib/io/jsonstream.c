/* jsonstream.c - a position-tracking pull scanner over JSON documents. */
#include "jsonstream.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK (64 * 1024)
#define MAX_OPEN 64

struct gd_jstream {
    gd_input *in;
    unsigned char buf[CHUNK];
    size_t pos, len;
    int eof;
    long line, col;          /* position of buf[pos] */
    /* containers entered with gd_jstream_enter */
    char open_type[MAX_OPEN];
    char open_first[MAX_OPEN];
    int nopen;
    /* capture buffer for values and keys */
    char *cap;
    size_t cap_len, cap_size;
    long raw_line, raw_col;  /* start of the value last scanned by gd_jstream_raw */
    char *key;
    size_t key_size;
};

gd_jstream *gd_jstream_new(gd_input *in)
{
    gd_jstream *js = calloc(1, sizeof *js);
    if (!js)
        return NULL;
    js->in = in;
    js->line = 1;
    js->col = 1;
    return js;
}

void gd_jstream_free(gd_jstream *js)
{
    if (!js)
        return;
    free(js->cap);
    free(js->key);
    free(js);
}

long gd_jstream_line(const gd_jstream *js) { return js->line; }
long gd_jstream_col(const gd_jstream *js) { return js->col; }

/* -2 = error, -1 = eof, else byte */
static int peekc(gd_jstream *js, gd_error *err)
{
    if (js->pos < js->len)
        return js->buf[js->pos];
    if (js->eof)
        return -1;
    ssize_t n = gd_input_read(js->in, js->buf, CHUNK, err);
    if (n < 0) {
        if (err && err->line == 0) {
            err->line = js->line;
            err->col = js->col;
        }
        return -2;
    }
    js->pos = 0;
    js->len = (size_t)n;
    if (n == 0) {
        js->eof = 1;
        return -1;
    }
    return js->buf[0];
}

static inline void advance(gd_jstream *js)
{
    if (js->buf[js->pos++] == '\n') {
        js->line++;
        js->col = 1;
    } else {
        js->col++;
    }
}

static int skip_ws(gd_jstream *js, gd_error *err)
{
    for (;;) {
        int c = peekc(js, err);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            advance(js);
        else
            return c;
    }
}

static int fail(gd_jstream *js, gd_error *err, const char *what, int c)
{
    if (c == -2)
        return -1;
    if (c == -1)
        gd_error_set(err, GD_ERR_DATA, js->line, js->col, "unexpected end of input, %s", what);
    else if (c >= 0x20 && c < 0x7f)
        gd_error_set(err, GD_ERR_DATA, js->line, js->col, "%s, found '%c'", what, c);
    else
        gd_error_set(err, GD_ERR_DATA, js->line, js->col, "%s, found byte 0x%02x", what, c);
    return -1;
}

static int cap_put(gd_jstream *js, char c, gd_error *err)
{
    if (js->cap_len + 1 >= js->cap_size) {
        if (js->cap_size >= GD_JSON_MAX_VALUE) {
            gd_error_set(err, GD_ERR_DATA, js->line, js->col, "value larger than %zu MiB",
                         GD_JSON_MAX_VALUE >> 20);
            return -1;
        }
        size_t ns = js->cap_size ? js->cap_size * 2 : 4096;
        char *nb = realloc(js->cap, ns);
        if (!nb) {
            gd_error_oom_at(err, js->line, js->col);
            return -1;
        }
        js->cap = nb;
        js->cap_size = ns;
    }
    js->cap[js->cap_len++] = c;
    return 0;
}

/* Scans one value; copies its bytes into cap when `capture`. */
static int scan_value(gd_jstream *js, int capture, gd_error *err)
{
    int c = skip_ws(js, err);
    int depth = 0;
    js->cap_len = 0;
    if (c != '{' && c != '[' && c != '"' && c != '-' && !(c >= '0' && c <= '9') &&
        c != 't' && c != 'f' && c != 'n')
        return fail(js, err, "expected a JSON value", c);
    if (c != '{' && c != '[' && c != '"') {
        /* scalar literal or number: up to a delimiter */
        for (;;) {
            c = peekc(js, err);
            if (c == -2)
                return -1;
            if (c == -1 || c == ',' || c == ']' || c == '}' || c == ' ' || c == '\n' ||
                c == '\t' || c == '\r')
                break;
            if (capture && cap_put(js, (char)c, err))
                return -1;
            advance(js);
            if (js->cap_len > 64 && capture)
                return fail(js, err, "invalid literal", c);
        }
        return 0;
    }
    int in_str = 0, esc = 0;
    for (;;) {
        c = peekc(js, err);
        if (c < 0)
            return fail(js, err, in_str ? "unterminated string" : "unterminated value", c);
        if (capture && cap_put(js, (char)c, err))
            return -1;
        advance(js);
        if (in_str) {
            if (esc)
                esc = 0;
            else if (c == '\\')
                esc = 1;
            else if (c == '"') {
                in_str = 0;
                if (depth == 0)
                    return 0;
            }
            continue;
        }
        if (c == '"')
            in_str = 1;
        else if (c == '{' || c == '[') {
            if (++depth > GD_JSON_MAX_DEPTH) {
                gd_error_set(err, GD_ERR_DATA, js->line, js->col - 1,
                             "nesting deeper than %d levels", GD_JSON_MAX_DEPTH);
                return -1;
            }
        } else if (c == '}' || c == ']') {
            if (--depth == 0)
                return 0;
        }
    }
}

int gd_jstream_peek(gd_jstream *js, gd_error *err)
{
    int c = skip_ws(js, err);
    if (c == -2)
        return -1;
    if (c == -1)
        return 0;
    if (c == '-' || (c >= '0' && c <= '9'))
        return '0';
    return c;
}

int gd_jstream_enter(gd_jstream *js, gd_error *err)
{
    int c = skip_ws(js, err);
    if (c != '{' && c != '[')
        return fail(js, err, "expected '{' or '['", c);
    if (js->nopen >= MAX_OPEN) {
        gd_error_set(err, GD_ERR_DATA, js->line, js->col, "too deeply nested");
        return -1;
    }
    js->open_type[js->nopen] = (char)c;
    js->open_first[js->nopen] = 1;
    js->nopen++;
    advance(js);
    return 0;
}

/* Common part of next_key/next_elem: the separator or the closer. */
static int next_member(gd_jstream *js, char type, gd_error *err)
{
    if (js->nopen == 0 || js->open_type[js->nopen - 1] != type) {
        gd_error_set(err, GD_ERR_USAGE, js->line, js->col, "not inside a JSON %s",
                     type == '{' ? "object" : "array");
        return -1;
    }
    char closer = type == '{' ? '}' : ']';
    int c = skip_ws(js, err);
    if (c == closer) {
        advance(js);
        js->nopen--;
        return 0;
    }
    if (js->open_first[js->nopen - 1]) {
        js->open_first[js->nopen - 1] = 0;
        return 1;
    }
    if (c != ',')
        return fail(js, err, type == '{' ? "expected ',' or '}'" : "expected ',' or ']'", c);
    advance(js);
    skip_ws(js, err);
    return 1;
}

int gd_jstream_next_key(gd_jstream *js, const char **key, gd_error *err)
{
    int r = next_member(js, '{', err);
    if (r <= 0)
        return r;
    int c = skip_ws(js, err);
    if (c != '"')
        return fail(js, err, "expected a string key", c);
    long l = js->line, col = js->col;
    if (scan_value(js, 1, err))
        return -1;
    if (cap_put(js, 0, err))
        return -1;
    json_error_t je;
    json_t *s = json_loadb(js->cap, js->cap_len - 1, JSON_DECODE_ANY, &je);
    if (!s || !json_is_string(s)) {
        json_decref(s);
        gd_error_set(err, GD_ERR_DATA, l, col, "invalid object key");
        return -1;
    }
    size_t n = json_string_length(s);
    if (n + 1 > js->key_size) {
        char *nk = realloc(js->key, n + 1);
        if (!nk) {
            json_decref(s);
            gd_error_oom_at(err, l, col);
            return -1;
        }
        js->key = nk;
        js->key_size = n + 1;
    }
    memcpy(js->key, json_string_value(s), n + 1);
    json_decref(s);
    c = skip_ws(js, err);
    if (c != ':')
        return fail(js, err, "expected ':'", c);
    advance(js);
    skip_ws(js, err);
    *key = js->key;
    return 1;
}

int gd_jstream_next_elem(gd_jstream *js, gd_error *err)
{
    return next_member(js, '[', err);
}

int gd_jstream_raw(gd_jstream *js, const char **text, size_t *len, long *line, long *col,
                   gd_error *err)
{
    skip_ws(js, err);
    js->raw_line = js->line;
    js->raw_col = js->col;
    if (line)
        *line = js->line;
    if (col)
        *col = js->col;
    if (scan_value(js, 1, err))
        return -1;
    *text = js->cap;
    *len = js->cap_len;
    return 0;
}

json_t *gd_jstream_value(gd_jstream *js, long *line, long *col, gd_error *err)
{
    const char *text;
    size_t len;
    if (gd_jstream_raw(js, &text, &len, line, col, err))
        return NULL;
    return gd_jstream_parse_raw(js, err);
}

json_t *gd_jstream_parse_raw(gd_jstream *js, gd_error *err)
{
    long l = js->raw_line, c = js->raw_col;
    json_error_t je;
    json_t *v = json_loadb(js->cap, js->cap_len, JSON_DECODE_ANY, &je);
    if (!v) {
        /* je.column counts code points; our columns count bytes, so the
         * position is recomputed from je.position (bytes read, 1-based) */
        size_t at = je.position > 0 ? (size_t)je.position - 1 : 0;
        if (at >= js->cap_len)
            at = js->cap_len ? js->cap_len - 1 : 0;
        long el = l, ec = c;
        for (size_t i = 0; i < at; i++) {
            if (js->cap[i] == '\n') {
                el++;
                ec = 1;
            } else {
                ec++;
            }
        }
        gd_error_set(err, GD_ERR_DATA, el, ec, "%s", je.text);
        return NULL;
    }
    return v;
}

int gd_jstream_skip(gd_jstream *js, gd_error *err)
{
    return scan_value(js, 0, err);
}

int gd_jstream_expect_end(gd_jstream *js, gd_error *err)
{
    int c = skip_ws(js, err);
    if (c == -1)
        return 0;
    return fail(js, err, "expected end of input", c);
}

int gd_jstream_each_object(gd_input *in, int (*fn)(void *ctx, json_t *o, gd_error *err), void *ctx,
                           long *line, long *col, gd_error *err)
{
    gd_jstream *js = gd_jstream_new(in);
    if (!js)
        return gd_error_oom(err);
    int rc = 0, t, r;
    while (rc == 0 && (t = gd_jstream_peek(js, err)) != 0) {
        if (t < 0) {
            rc = err->code ? err->code : GD_ERR_DATA;
            break;
        }
        if (t == '[') {
            if (gd_jstream_enter(js, err)) {
                rc = GD_ERR_DATA;
                break;
            }
            while (rc == 0 && (r = gd_jstream_next_elem(js, err)) == 1) {
                json_t *o = gd_jstream_value(js, line, col, err);
                if (!o) {
                    rc = GD_ERR_DATA;
                    break;
                }
                rc = fn(ctx, o, err);
                json_decref(o);
            }
            if (rc == 0 && r < 0)
                rc = GD_ERR_DATA;
        } else if (t == '{') {
            json_t *o = gd_jstream_value(js, line, col, err);
            if (!o) {
                rc = GD_ERR_DATA;
                break;
            }
            rc = fn(ctx, o, err);
            json_decref(o);
        } else {
            rc = gd_error_set(err, GD_ERR_DATA, js->line, js->col, "expected a JSON object or array");
        }
    }
    if (rc && err->code == 0)
        err->code = rc;
    gd_jstream_free(js);
    return rc;
}
