/* profname.c - the naming rule of profiler frames (profname.h). */
#include "profname.h"

#include <stdio.h>
#include <string.h>

int gd_prof_java_file(const char *f)
{
    static const char *const ext[] = {".oat", ".odex", ".vdex", ".dex", ".jar", ".apk", ".art"};
    size_t n = strlen(f);
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
        size_t k = strlen(ext[i]);
        if (n >= k && strcmp(f + n - k, ext[i]) == 0)
            return 1;
    }
    return strncmp(f, "[JIT", 4) == 0 || strstr(f, "dalvik-jit-code-cache") || strstr(f, "jit-cache") ||
           strstr(f, ".apk!/") || strstr(f, ".jar!/");
}

size_t gd_prof_frame(char *out, size_t cap, const char *sym, size_t nsym, const char *file,
                     const char *pc, size_t npc)
{
    if (nsym && !pc && gd_prof_java_file(file)) {
        /* "void a.B.c(int)" in older versions: keep "a.B.c" */
        size_t b = 0, e = nsym;
        for (size_t i = 0; i < nsym; i++)
            if (sym[i] == '(') {
                e = i;
                break;
            }
        for (size_t i = 0; i < e; i++)
            if (sym[i] == ' ')
                b = i + 1;
        if (e > b && memchr(sym + b, '.', e - b)) {
            size_t n = e - b < cap - 1 ? e - b : cap - 1;
            memcpy(out, sym + b, n);
            out[n] = 0;
            return n;
        }
    }
    const char *base = strrchr(file, '/');
    base = base && base[1] ? base + 1 : file;
    int n;
    if (pc)
        n = snprintf(out, cap, "native:%s(pc %.*s)", base, (int)(npc > 40 ? 40 : npc), pc);
    else if (nsym == 0)
        n = snprintf(out, cap, "native:%s(?)", base);
    else
        n = snprintf(out, cap, "native:%s(%.*s)", base, (int)(nsym > 65536 ? 65536 : nsym), sym);
    if (n < 0) {
        out[0] = 0;
        return 0;
    }
    return (size_t)n >= cap ? cap - 1 : (size_t)n;
}
