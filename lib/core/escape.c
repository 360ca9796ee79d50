/* escape.c - control characters made visible (see escape.h). */
#include "escape.h"

#include <stdio.h>
#include <string.h>

static size_t esc_at(const unsigned char *p, char *buf, size_t *skip);

size_t gd_escape_at(const char *p, char *buf, size_t *skip)
{
    return esc_at((const unsigned char *)p, buf, skip);
}

/* Length of the escape for the character at p (0: not escaped); *skip is
 * how many input bytes it covers.  Fills buf (at least 9 bytes). */
static size_t esc_at(const unsigned char *p, char *buf, size_t *skip)
{
    *skip = 1;
    unsigned c = *p;
    if (c == '\n')
        return (size_t)sprintf(buf, "\\n");
    if (c == '\r')
        return (size_t)sprintf(buf, "\\r");
    if (c == '\t')
        return (size_t)sprintf(buf, "\\t");
    if (c == 0x1b)
        return (size_t)sprintf(buf, "\\e");
    if (c < 0x20 || c == 0x7f)
        return (size_t)sprintf(buf, "\\x%02x", c);
    if (c == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) { /* C1 controls (CSI is U+009B) */
        *skip = 2;
        return (size_t)sprintf(buf, "\\u%04x", p[1]);
    }
    /* the bidirectional overrides and isolates (U+202A..U+202E,
     * U+2066..U+2069): they reorder what a terminal or a page shows */
    if (c == 0xe2 && ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) || (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9))) {
        *skip = 3;
        return (size_t)sprintf(buf, "\\u%04x", 0x2000 + ((p[1] & 0x3f) << 6 | (p[2] & 0x3f)));
    }
    return 0;
}

char *gd_escape_ctrl(const char *in, char *out, size_t n)
{
    if (!n)
        return out;
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)(in ? in : "");
    while (*p) {
        char buf[16];
        size_t skip, k = esc_at(p, buf, &skip);
        if (!k) {
            if (o + 1 >= n)
                break;
            out[o++] = (char)*p++;
            continue;
        }
        if (o + k >= n)
            break; /* never half an escape */
        memcpy(out + o, buf, k);
        o += k;
        p += skip;
    }
    out[o] = 0;
    return out;
}

int gd_has_ctrl(const char *in)
{
    char buf[16];
    size_t skip;
    for (const unsigned char *p = (const unsigned char *)in; p && *p; p++)
        if (esc_at(p, buf, &skip))
            return 1;
    return 0;
}

void gd_fputs_escaped(const char *in, FILE *f)
{
    for (const unsigned char *p = (const unsigned char *)(in ? in : ""); *p;) {
        char buf[16];
        size_t skip, k = esc_at(p, buf, &skip);
        if (k) {
            fwrite(buf, 1, k, f);
            p += skip;
        } else {
            fputc(*p++, f);
        }
    }
}
