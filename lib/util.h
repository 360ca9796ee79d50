/* util.h - tiny helpers shared across libgodeye. */
#ifndef GD_UTIL_H
#define GD_UTIL_H

#include <stdlib.h>

/* qsort that accepts an empty or NULL array (qsort(NULL, 0) is undefined). */
static inline void gd_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (base && n > 1)
        qsort(base, n, size, cmp);
}

#endif
