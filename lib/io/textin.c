/* textin.c - the head of a text input for text probes (the input has already transcoded UTF-16). */
#include "textin.h"

#include <stdlib.h>
#include <string.h>

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
