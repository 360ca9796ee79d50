/* demangle_dl.c - libstdc++'s __cxa_demangle found with dlopen on first use. */
#include "demangle_dl.h"

#include <stdlib.h>
#include <string.h>

#include "io/dl.h"

typedef struct demangle_fns {
    char *(*cxa_demangle)(const char *mangled, char *buf, size_t *len, int *status);
} demangle_fns;

static const gd_dl_sym demangle_syms[] = {{"__cxa_demangle", offsetof(demangle_fns, cxa_demangle)}};

static demangle_fns fns;
static int state; /* 0 not tried, 1 loaded, -1 cannot be loaded */

size_t gd_demangle(const char *mangled, char *out, size_t cap, int *missing)
{
    if (strncmp(mangled, "_Z", 2) != 0)
        return 0;
    if (state == 0) {
        gd_error e = {0};
        state = gd_dl_load("libstdc++.so.6", "libstdc++", "demangling C++ names", demangle_syms, 1, &fns,
                           sizeof fns, &e) == GD_OK
                    ? 1
                    : -1;
    }
    if (state < 0) {
        if (missing)
            *missing = 1;
        return 0;
    }
    int status = -1;
    char *d = fns.cxa_demangle(mangled, NULL, NULL, &status);
    if (!d || status != 0) {
        free(d);
        return 0;
    }
    /* GCC's clone suffix " [clone .llvm.123]" as LLVM's demangler (the one
     * simpleperf and Perfetto use) writes it: " (.llvm.123)" */
    size_t n = 0;
    for (const char *q = d; *q && n + 1 < cap;) {
        const char *e = strncmp(q, " [clone ", 8) == 0 ? strchr(q + 8, ']') : NULL;
        if (e) {
            size_t k = (size_t)(e - (q + 8));
            if (n + k + 3 >= cap)
                break;
            out[n++] = ' ';
            out[n++] = '(';
            memcpy(out + n, q + 8, k);
            n += k;
            out[n++] = ')';
            q = e + 1;
            continue;
        }
        out[n++] = *q++;
    }
    out[n] = 0;
    free(d);
    return n;
}
