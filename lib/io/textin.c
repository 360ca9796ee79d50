/* textin.c - numbered UTF-8 text lines over a gd_input (which has already transcoded UTF-16). */
#include "textin.h"

#include <stdlib.h>
#include <string.h>

struct gd_textin {
    gd_input *in;
    long lineno;
    int first; /* no line returned yet (UTF-8 BOM check) */
};

static size_t bom_len(const unsigned char *h, size_t n)
{
    return (n >= 3 && h[0] == 0xEF && h[1] == 0xBB && h[2] == 0xBF) ? 3 : 0;
}

char *gd_text_head(const unsigned char *h, size_t n, size_t *out_n)
{
    size_t skip = bom_len(h, n);
    char *out = malloc(n - skip + 1);
    if (!out)
        return NULL;
    memcpy(out, h + skip, n - skip);
    out[n - skip] = 0;
    if (out_n)
        *out_n = n - skip;
    return out;
}

int gd_textin_open(gd_textin **out, gd_input *in, gd_error *err)
{
    *out = NULL;
    size_t n;
    int eof;
    if (!gd_input_peek(in, &n, &eof, err)) /* a read failure shows at open, as before */
        return err && err->code ? err->code : GD_ERR_IO;
    gd_textin *t = calloc(1, sizeof *t);
    if (!t)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    t->in = in;
    t->first = 1;
    *out = t;
    return GD_OK;
}

void gd_textin_close(gd_textin *t)
{
    free(t);
}

long gd_textin_lineno(const gd_textin *t) { return t->lineno; }

int gd_textin_getline(gd_textin *t, char **line, size_t *len, gd_error *err)
{
    int r = gd_input_getline(t->in, line, len, err);
    if (r != 1)
        return r;
    if (t->first) {
        size_t skip = bom_len((const unsigned char *)*line, *len);
        *line += skip;
        *len -= skip;
    }
    t->first = 0;
    t->lineno++;
    return 1;
}
