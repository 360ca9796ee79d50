/* version.c - version comparison with numeric runs compared as numbers. */
#include "analysis/version.h"

#include <string.h>

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int gd_version_cmp(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    while (*a && *b) {
        if (is_digit(*a) && is_digit(*b)) {
            while (*a == '0' && is_digit(a[1]))
                a++;
            while (*b == '0' && is_digit(b[1]))
                b++;
            size_t la = 0, lb = 0;
            while (is_digit(a[la]))
                la++;
            while (is_digit(b[lb]))
                lb++;
            if (la != lb)
                return la < lb ? -1 : 1;
            int c = memcmp(a, b, la);
            if (c)
                return c < 0 ? -1 : 1;
            a += la;
            b += lb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return (*a != 0) - (*b != 0);
}
