/* textin.c - UTF-8 / UTF-16 (BOM) text lines over a gd_input. */
#include "textin.h"

#include <stdlib.h>
#include <string.h>

#define RAW_CAP 65536

struct gd_textin {
    gd_input *in;
    gd_text_enc enc;
    long lineno;
    int first;            /* no line returned yet (UTF-8 BOM check)       */
    /* UTF-16 only */
    unsigned char *raw;
    size_t raw_pos, raw_len;
    int raw_eof;
    char *line;
    size_t line_len, line_cap;
};

gd_text_enc gd_text_detect(const unsigned char *h, size_t n)
{
    if (n >= 2 && h[0] == 0xFF && h[1] == 0xFE)
        return GD_TEXT_UTF16LE;
    if (n >= 2 && h[0] == 0xFE && h[1] == 0xFF)
        return GD_TEXT_UTF16BE;
    return GD_TEXT_UTF8;
}

/* Appends code point cp as UTF-8 to out (room for 4 bytes assumed). */
static size_t put_utf8(char *out, unsigned cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static unsigned unit_at(const unsigned char *p, gd_text_enc enc)
{
    return enc == GD_TEXT_UTF16LE ? (unsigned)(p[0] | (p[1] << 8)) : (unsigned)((p[0] << 8) | p[1]);
}

/* Decodes one code point from p[0..n) (n >= 2); returns bytes used, 0 when a
 * surrogate pair is cut by the end of the buffer and more may come. */
static size_t decode16(const unsigned char *p, size_t n, gd_text_enc enc, int more, unsigned *cp)
{
    unsigned u = unit_at(p, enc);
    if (u >= 0xD800 && u <= 0xDBFF) {
        if (n < 4) {
            if (more)
                return 0;
            *cp = 0xFFFD;
            return 2;
        }
        unsigned lo = unit_at(p + 2, enc);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            *cp = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            return 4;
        }
        *cp = 0xFFFD;
        return 2;
    }
    *cp = (u >= 0xDC00 && u <= 0xDFFF) ? 0xFFFD : u;
    return 2;
}

char *gd_text_head(const unsigned char *h, size_t n, size_t *out_n)
{
    gd_text_enc enc = gd_text_detect(h, n);
    char *out;
    size_t k = 0;
    if (enc == GD_TEXT_UTF8) {
        size_t skip = (n >= 3 && h[0] == 0xEF && h[1] == 0xBB && h[2] == 0xBF) ? 3 : 0;
        out = malloc(n - skip + 1);
        if (!out)
            return NULL;
        memcpy(out, h + skip, n - skip);
        k = n - skip;
    } else {
        /* each 2-byte unit gives at most 3 bytes; a pair (4 bytes) gives 4 */
        out = malloc(n / 2 * 3 + 1);
        if (!out)
            return NULL;
        size_t i = 2;
        while (i + 2 <= n) {
            unsigned cp;
            size_t used = decode16(h + i, n - i, enc, 1, &cp);
            if (!used)
                break;
            k += put_utf8(out + k, cp);
            i += used;
        }
    }
    out[k] = 0;
    if (out_n)
        *out_n = k;
    return out;
}

int gd_textin_open(gd_textin **out, gd_input *in, gd_error *err)
{
    *out = NULL;
    size_t n;
    int eof;
    const unsigned char *h = gd_input_peek(in, &n, &eof, err);
    if (!h)
        return err && err->code ? err->code : GD_ERR_IO;
    gd_textin *t = calloc(1, sizeof *t);
    if (!t)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    t->in = in;
    t->first = 1;
    t->enc = gd_text_detect(h, n);
    if (t->enc != GD_TEXT_UTF8) {
        t->raw = malloc(RAW_CAP);
        if (!t->raw) {
            free(t);
            return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
        }
        /* consume the BOM */
        unsigned char bom[2];
        size_t got = 0;
        while (got < 2) {
            ssize_t r = gd_input_read(in, bom + got, 2 - got, err);
            if (r < 0) {
                gd_textin_close(t);
                return err && err->code ? err->code : GD_ERR_IO;
            }
            if (r == 0)
                break;
            got += (size_t)r;
        }
    }
    *out = t;
    return GD_OK;
}

void gd_textin_close(gd_textin *t)
{
    if (!t)
        return;
    free(t->raw);
    free(t->line);
    free(t);
}

gd_text_enc gd_textin_encoding(const gd_textin *t) { return t->enc; }
long gd_textin_lineno(const gd_textin *t) { return t->lineno; }

static int refill(gd_textin *t, gd_error *err)
{
    size_t keep = t->raw_len - t->raw_pos;
    memmove(t->raw, t->raw + t->raw_pos, keep);
    t->raw_pos = 0;
    t->raw_len = keep;
    while (!t->raw_eof && t->raw_len < RAW_CAP) {
        ssize_t r = gd_input_read(t->in, t->raw + t->raw_len, RAW_CAP - t->raw_len, err);
        if (r < 0)
            return -1;
        if (r == 0)
            t->raw_eof = 1;
        else
            t->raw_len += (size_t)r;
        if (t->raw_len - t->raw_pos >= 4)
            break;
    }
    return 0;
}

static int line_room(gd_textin *t, size_t extra, gd_error *err)
{
    if (t->line_len + extra + 1 <= t->line_cap)
        return 0;
    if (t->line_len + extra + 1 > GD_INPUT_MAX_LINE)
        return gd_error_set(err, GD_ERR_DATA, t->lineno + 1, 0, "line too long (over %zu bytes)",
                            (size_t)GD_INPUT_MAX_LINE);
    size_t nc = t->line_cap ? t->line_cap * 2 : 256;
    while (nc < t->line_len + extra + 1)
        nc *= 2;
    char *p = realloc(t->line, nc);
    if (!p)
        return gd_error_set(err, GD_ERR_NOMEM, t->lineno + 1, 0, "out of memory");
    t->line = p;
    t->line_cap = nc;
    return 0;
}

static int getline16(gd_textin *t, char **line, size_t *len, gd_error *err)
{
    t->line_len = 0;
    int any = 0;
    for (;;) {
        if (t->raw_len - t->raw_pos < 4 && !t->raw_eof && refill(t, err) < 0)
            return -1;
        size_t avail = t->raw_len - t->raw_pos;
        if (avail < 2) {
            /* end of input (a stray odd byte is dropped) */
            if (!any)
                return 0;
            break;
        }
        unsigned cp;
        size_t used = decode16(t->raw + t->raw_pos, avail, t->enc, !t->raw_eof, &cp);
        if (!used) {
            if (refill(t, err) < 0)
                return -1;
            continue;
        }
        t->raw_pos += used;
        any = 1;
        if (cp == '\n')
            break;
        if (line_room(t, 4, err))
            return -1;
        t->line_len += put_utf8(t->line + t->line_len, cp);
    }
    if (line_room(t, 0, err))
        return -1;
    if (t->line_len && t->line[t->line_len - 1] == '\r')
        t->line_len--;
    t->line[t->line_len] = 0;
    *line = t->line;
    *len = t->line_len;
    return 1;
}

int gd_textin_getline(gd_textin *t, char **line, size_t *len, gd_error *err)
{
    int r;
    if (t->enc == GD_TEXT_UTF8) {
        r = gd_input_getline(t->in, line, len, err);
        if (r == 1 && t->first && *len >= 3 && (unsigned char)(*line)[0] == 0xEF &&
            (unsigned char)(*line)[1] == 0xBB && (unsigned char)(*line)[2] == 0xBF) {
            *line += 3;
            *len -= 3;
        }
    } else {
        r = getline16(t, line, len, err);
    }
    if (r == 1) {
        t->first = 0;
        t->lineno++;
    }
    return r;
}
