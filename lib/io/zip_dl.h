/* zip_dl.h - libzip loaded at run time (dlopen), by the zip paths only. */
#ifndef GD_IO_ZIP_DL_H
#define GD_IO_ZIP_DL_H

/* godeye is not linked with libzip: Debian's libzip4 pulls in libcrypto
 * and libbz2, whose binding cost every command ~3 M instructions before
 * main() (#50).  The headers still give the types.  Every libzip function
 * godeye calls is one row here; a file that includes this header calls
 * them by their usual names, which the macros below send through the
 * table (a function missing from the list does not link: there is no
 * -lzip). */
#include <zip.h>

#include "core/error.h"

#define GD_ZIP_FUNCTIONS(X)                                                                        \
    X(open) X(open_from_source) X(discard) X(get_error) X(get_num_entries) X(get_name)            \
    X(stat_index) X(stat_init) X(compression_method_supported) X(fopen_index) X(fread) X(fclose) \
    X(file_get_error) X(error_init) X(error_init_with_code) X(error_fini) X(error_set)            \
    X(error_strerror) X(error_to_data) X(source_function_create) X(source_buffer_create)         \
    X(source_filep_create) X(source_free) X(source_seek_compute_offset)                          \
    X(source_make_command_bitmap)

/* The table: each member has the type of libzip's own declaration. */
typedef struct gd_zip_fns {
#define GD_ZIP_MEMBER(f) __typeof__(zip_##f) *f;
    GD_ZIP_FUNCTIONS(GD_ZIP_MEMBER)
#undef GD_ZIP_MEMBER
} gd_zip_fns;

/* Filled by gd_zip_load; read only after it returned GD_OK. */
extern gd_zip_fns gd_zip_fn;

/* Loads libzip.so.4 and every function of the list, once per process
 * (later calls return GD_OK at once).  On failure: GD_ERR_IO, err says
 * which library or function is missing ("cannot load libzip (...), which
 * reading a zip needs"), and the table stays empty (a later call tries
 * again). */
int gd_zip_load(gd_error *err);
/* The same from the shared object `soname` (tests); the first success
 * fixes the library for the process. */
int gd_zip_load_from(const char *soname, gd_error *err);

/* libzip's names, through the table. */
#define zip_open gd_zip_fn.open
#define zip_open_from_source gd_zip_fn.open_from_source
#define zip_discard gd_zip_fn.discard
#define zip_get_error gd_zip_fn.get_error
#define zip_get_num_entries gd_zip_fn.get_num_entries
#define zip_get_name gd_zip_fn.get_name
#define zip_stat_index gd_zip_fn.stat_index
#define zip_stat_init gd_zip_fn.stat_init
#define zip_compression_method_supported gd_zip_fn.compression_method_supported
#define zip_fopen_index gd_zip_fn.fopen_index
#define zip_fread gd_zip_fn.fread
#define zip_fclose gd_zip_fn.fclose
#define zip_file_get_error gd_zip_fn.file_get_error
#define zip_error_init gd_zip_fn.error_init
#define zip_error_init_with_code gd_zip_fn.error_init_with_code
#define zip_error_fini gd_zip_fn.error_fini
#define zip_error_set gd_zip_fn.error_set
#define zip_error_strerror gd_zip_fn.error_strerror
#define zip_error_to_data gd_zip_fn.error_to_data
#define zip_source_function_create gd_zip_fn.source_function_create
#define zip_source_buffer_create gd_zip_fn.source_buffer_create
#define zip_source_filep_create gd_zip_fn.source_filep_create
#define zip_source_free gd_zip_fn.source_free
#define zip_source_seek_compute_offset gd_zip_fn.source_seek_compute_offset
#define zip_source_make_command_bitmap gd_zip_fn.source_make_command_bitmap

#endif
