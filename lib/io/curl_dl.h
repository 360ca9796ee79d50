/* curl_dl.h - libcurl loaded at run time (dlopen), by the commands that speak http only. */
#ifndef GD_IO_CURL_DL_H
#define GD_IO_CURL_DL_H

/* godeye is not linked with libcurl: binding it and the ~30 libraries it
 * pulls in (TLS, Kerberos, LDAP, SSH, ...) cost every command ~15 M
 * instructions before main() (#50).  The headers still give the types.
 * Every libcurl function godeye calls is one row here; a file that
 * includes this header calls them by their usual names, which the macros
 * below send through the table (a function missing from the list does not
 * link: there is no -lcurl). */
#include <curl/curl.h>

#include "core/error.h"

#define GD_CURL_FUNCTIONS(X)                                                                       \
    X(global_init) X(easy_init) X(easy_duphandle) X(easy_setopt) X(easy_getinfo) X(easy_perform)  \
    X(easy_pause) X(easy_cleanup) X(easy_strerror) X(easy_escape) X(free) X(slist_append)         \
    X(slist_free_all) X(multi_init) X(multi_add_handle) X(multi_remove_handle)                    \
    X(multi_perform) X(multi_poll) X(multi_info_read) X(multi_cleanup)

/* The table: each member has the type of libcurl's own declaration. */
typedef struct gd_curl_fns {
#define GD_CURL_MEMBER(f) __typeof__(curl_##f) *f;
    GD_CURL_FUNCTIONS(GD_CURL_MEMBER)
#undef GD_CURL_MEMBER
} gd_curl_fns;

/* Filled by gd_curl_load; read only after it returned GD_OK. */
extern gd_curl_fns gd_curl_fn;

/* Loads libcurl.so.4 and every function of the list, then runs
 * curl_global_init, once per process (later calls return GD_OK at once).
 * On failure: GD_ERR_IO, err says which library or function is missing,
 * and the table stays empty (a later call tries again). */
int gd_curl_load(gd_error *err);
/* The same from the shared object `soname` (tests); the first success
 * fixes the library for the process. */
int gd_curl_load_from(const char *soname, gd_error *err);

/* libcurl's names, through the table (curl/typecheck-gcc.h's checking
 * macros for setopt and getinfo give way to these). */
#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_global_init gd_curl_fn.global_init
#define curl_easy_init gd_curl_fn.easy_init
#define curl_easy_duphandle gd_curl_fn.easy_duphandle
#define curl_easy_setopt gd_curl_fn.easy_setopt
#define curl_easy_getinfo gd_curl_fn.easy_getinfo
#define curl_easy_perform gd_curl_fn.easy_perform
#define curl_easy_pause gd_curl_fn.easy_pause
#define curl_easy_cleanup gd_curl_fn.easy_cleanup
#define curl_easy_strerror gd_curl_fn.easy_strerror
#define curl_easy_escape gd_curl_fn.easy_escape
#define curl_free gd_curl_fn.free
#define curl_slist_append gd_curl_fn.slist_append
#define curl_slist_free_all gd_curl_fn.slist_free_all
#define curl_multi_init gd_curl_fn.multi_init
#define curl_multi_add_handle gd_curl_fn.multi_add_handle
#define curl_multi_remove_handle gd_curl_fn.multi_remove_handle
#define curl_multi_perform gd_curl_fn.multi_perform
#define curl_multi_poll gd_curl_fn.multi_poll
#define curl_multi_info_read gd_curl_fn.multi_info_read
#define curl_multi_cleanup gd_curl_fn.multi_cleanup

#endif
