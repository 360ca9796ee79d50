/* core/bigmem.c - large zeroed tables on huge pages (Linux's
 * MADV_HUGEPAGE), plain calloc elsewhere.  A 16 MiB table touched at
 * random costs 4,096 faults on 4 KiB pages (about 75 ms on the project's
 * VM for the JSONL bench's 80k message texts) and 8 on 2 MiB pages. */
#define _DEFAULT_SOURCE
#include "core/bigmem.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HUGE_PAGE ((size_t)2 << 20)

void *gd_big_calloc(size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (n >= HUGE_PAGE && n % HUGE_PAGE == 0) {
        /* map one huge page more, then trim to a 2 MiB-aligned n bytes */
        size_t span = n + HUGE_PAGE;
        char *m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m != MAP_FAILED) {
            char *p = (char *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
            if (p > m)
                munmap(m, (size_t)(p - m));
            if (m + span > p + n)
                munmap(p + n, (size_t)(m + span - (p + n)));
            madvise(p, n, MADV_HUGEPAGE); /* advice only: refused, it stays 4 KiB pages */
            return p;
        }
    }
#endif
    return calloc(1, n);
}

void gd_big_free(void *p, size_t n)
{
    if (!p)
        return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (n >= HUGE_PAGE && n % HUGE_PAGE == 0) {
        munmap(p, n);
        return;
    }
#endif
    free(p);
}
