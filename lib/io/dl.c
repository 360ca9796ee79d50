/* dl.c - dlopen a library and resolve a list of symbols, with a one-line error. */
#include "dl.h"

#include <dlfcn.h>
#include <string.h>

int gd_dl_load(const char *soname, const char *lib, const char *needed_by, const gd_dl_sym *syms, size_t n,
               void *table, size_t size, gd_error *err)
{
    /* lazy: RTLD_NOW would bind all the library's calls at once (2.6 M
     * instructions more for libcurl, #50); ours are the dlsym below */
    void *h = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot load %s (%s), which %s needs", lib, why ? why : soname,
                            needed_by);
    }
    for (size_t i = 0; i < n; i++) {
        void *p = dlsym(h, syms[i].name);
        if (!p) {
            dlclose(h);
            memset(table, 0, size);
            return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot load %s: '%s' has no %s", lib, soname, syms[i].name);
        }
        memcpy((char *)table + syms[i].off, &p, sizeof p);
    }
    return GD_OK;
}
