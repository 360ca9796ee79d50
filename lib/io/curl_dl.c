/* curl_dl.c - libcurl's functions found with dlopen/dlsym on first use. */
#include "curl_dl.h"

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

gd_curl_fns gd_curl_fn;

/* The library's name on Debian (package libcurl4; libcurl4-openssl-dev
 * gives the headers): the ABI godeye is built against. */
#define GD_CURL_SONAME "libcurl.so.4"

/* Each function's symbol and its place in the table. */
static const struct {
    const char *name;
    size_t off;
} curl_syms[] = {
#define GD_CURL_ROW(f) {"curl_" #f, offsetof(gd_curl_fns, f)},
    GD_CURL_FUNCTIONS(GD_CURL_ROW)
#undef GD_CURL_ROW
};

static int loaded; /* godeye calls libcurl from one thread */

int gd_curl_load_from(const char *soname, gd_error *err)
{
    if (loaded)
        return GD_OK;
    /* lazy: libcurl's own calls bound as they are first made (RTLD_NOW
     * costs 2.6 M instructions more, #50); ours are the dlsym below */
    void *h = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot load libcurl (%s), which http(s) needs",
                            why ? why : soname);
    }
    gd_curl_fns t;
    for (size_t i = 0; i < sizeof curl_syms / sizeof *curl_syms; i++) {
        void *p = dlsym(h, curl_syms[i].name);
        if (!p) {
            dlclose(h);
            return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot load libcurl: '%s' has no %s", soname,
                                curl_syms[i].name);
        }
        memcpy((char *)&t + curl_syms[i].off, &p, sizeof p);
    }
    gd_curl_fn = t;
    /* libcurl counts these calls and initialises once: godeye makes the
     * one call here */
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot start libcurl");
    loaded = 1;
    return GD_OK;
}

int gd_curl_load(gd_error *err)
{
    return gd_curl_load_from(GD_CURL_SONAME, err);
}
