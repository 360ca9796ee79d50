/* scan.h - the one home of the readers' small scanning tests: a prefix or a
 * suffix of a NUL-terminated string or of a byte span, blanks skipped or
 * trimmed.  Every span function reads only s[0..n). */
#ifndef GD_CORE_SCAN_H
#define GD_CORE_SCAN_H

#include <stddef.h>
#include <string.h>

/* 1 when the NUL-terminated s starts with p. */
static inline int gd_starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* 1 when the n bytes at s (not NUL-terminated) start with the string p. */
static inline int gd_starts_n(const char *s, size_t n, const char *p)
{
    size_t k = strlen(p);
    return n >= k && memcmp(s, p, k) == 0;
}

/* 1 when the n bytes at s end with the string p. */
static inline int gd_ends_n(const char *s, size_t n, const char *p)
{
    size_t k = strlen(p);
    return n >= k && memcmp(s + n - k, p, k) == 0;
}

/* The first index from i that is not a blank (space, tab, CR, LF), at most n. */
static inline size_t gd_skip_ws(const unsigned char *h, size_t n, size_t i)
{
    while (i < n && (h[i] == ' ' || h[i] == '\n' || h[i] == '\r' || h[i] == '\t'))
        i++;
    return i;
}

/* n less the trailing spaces and tabs of s[0..n). */
static inline size_t gd_trim_right(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return n;
}

#endif
