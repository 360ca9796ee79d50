/* curl_dl.c - libcurl's functions found with dlopen/dlsym on first use. */
#include "curl_dl.h"

#include "io/dl.h"

gd_curl_fns gd_curl_fn;

/* The library's name on Debian (package libcurl4; libcurl4-openssl-dev
 * gives the headers): the ABI godeye is built against. */
#define GD_CURL_SONAME "libcurl.so.4"

/* Each function's symbol and its place in the table. */
static const gd_dl_sym curl_syms[] = {
#define GD_CURL_ROW(f) {"curl_" #f, offsetof(gd_curl_fns, f)},
    GD_CURL_FUNCTIONS(GD_CURL_ROW)
#undef GD_CURL_ROW
};

static int loaded; /* godeye calls libcurl from one thread */

int gd_curl_load_from(const char *soname, gd_error *err)
{
    if (loaded)
        return GD_OK;
    int rc = gd_dl_load(soname, "libcurl", "http(s)", curl_syms, sizeof curl_syms / sizeof *curl_syms, &gd_curl_fn,
                        sizeof gd_curl_fn, err);
    if (rc)
        return rc;
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
