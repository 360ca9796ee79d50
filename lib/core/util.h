/* util.h - tiny helpers shared across libgodeye. */
#ifndef GD_CORE_UTIL_H
#define GD_CORE_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

/* The DEVICE part of an Android build fingerprint
 * (BRAND/PRODUCT/DEVICE:RELEASE/ID/INCREMENTAL:TYPE/TAGS, as bugreports and
 * ANR dumps print it) into out; 1, or 0 (out empty) when fp has no such part. */
static inline int gd_fingerprint_device(const char *fp, char *out, size_t n)
{
    const char *s2 = strchr(fp, '/');
    const char *s3 = s2 ? strchr(s2 + 1, '/') : NULL;
    const char *c = s3 ? strchr(s3 + 1, ':') : NULL;
    if (n)
        out[0] = 0;
    if (!s3 || !c || c == s3 + 1 || n == 0)
        return 0;
    snprintf(out, n, "%.*s", (int)(c - s3 - 1), s3 + 1);
    return 1;
}

/* FNV-1a over n bytes: the hash of every string table in libgodeye. */
static inline uint64_t gd_fnv1a(const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 1099511628211ULL;
    return h;
}

/* qsort that accepts an empty or NULL array (qsort(NULL, 0) is undefined). */
static inline void gd_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (base && n > 1)
        qsort(base, n, size, cmp);
}

/* Grows *arr (elements of `elem` bytes, capacity *cap) to hold `need`,
 * doubling; 0, or GD_ERR_IO with err filled when out of memory. */
static inline int gd_grow(void **arr, size_t *cap, size_t need, size_t elem, gd_error *err)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    void *n = realloc(*arr, nc * elem);
    if (!n)
        return gd_error_oom(err);
    *arr = n;
    *cap = nc;
    return 0;
}

/* d as int64 in *out when it is a number inside int64's range (casting a
 * NaN or an out-of-range double is undefined); 1 on success, else 0. */
static inline int gd_d2i64(double d, int64_t *out)
{
    if (!(d > -9.2e18 && d < 9.2e18))
        return 0;
    *out = (int64_t)d;
    return 1;
}

#endif
