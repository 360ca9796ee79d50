/* zip_dl.c - libzip's functions found with dlopen/dlsym on first use. */
#include "zip_dl.h"

#include "io/dl.h"

gd_zip_fns gd_zip_fn;

/* The library's name on Debian (package libzip4; libzip-dev gives the
 * headers): the ABI godeye is built against. */
#define GD_ZIP_SONAME "libzip.so.4"

/* Each function's symbol and its place in the table. */
static const gd_dl_sym zip_syms[] = {
#define GD_ZIP_ROW(f) {"zip_" #f, offsetof(gd_zip_fns, f)},
    GD_ZIP_FUNCTIONS(GD_ZIP_ROW)
#undef GD_ZIP_ROW
};

static int loaded; /* set once, before any zip is read */

int gd_zip_load_from(const char *soname, gd_error *err)
{
    if (loaded)
        return GD_OK;
    int rc = gd_dl_load(soname, "libzip", "reading a zip", zip_syms, sizeof zip_syms / sizeof *zip_syms, &gd_zip_fn,
                        sizeof gd_zip_fn, err);
    loaded = rc == GD_OK;
    return rc;
}

int gd_zip_load(gd_error *err)
{
    return gd_zip_load_from(GD_ZIP_SONAME, err);
}
