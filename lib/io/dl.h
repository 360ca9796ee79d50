/* dl.h - a shared library loaded at run time: dlopen, then a list of symbols into a table (#50). */
#ifndef GD_IO_DL_H
#define GD_IO_DL_H

#include <stddef.h>

#include "core/error.h"

/* One function of the list: its symbol and its place in the table. */
typedef struct gd_dl_sym {
    const char *name;
    size_t off;
} gd_dl_sym;

/* Opens `soname` (RTLD_LAZY: the library's own calls bound as they are
 * first made) and copies each symbol's address into `table` (of `size`
 * bytes) at its offset.  On failure: GD_ERR_IO, one line, "cannot load
 * LIB (dlerror's text), which NEEDED_BY needs" or "cannot load LIB:
 * 'SONAME' has no SYMBOL"; the library is closed and `table` all zero. */
int gd_dl_load(const char *soname, const char *lib, const char *needed_by, const gd_dl_sym *syms, size_t n,
               void *table, size_t size, gd_error *err);

#endif
