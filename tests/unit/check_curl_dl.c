/* check_curl_dl.c - libcurl loaded on first use (io/curl_dl.h, #50): a
 * missing library or function is one error, the real one works. */
#include <check.h>
#include <string.h>

#include "io/curl_dl.h"
#include "testutil.h"

/* No such library: GD_ERR_IO naming it, nothing loaded. */
START_TEST(missing_library)
{
    gd_error err;
    gd_error_clear(&err);
    ck_assert_int_eq(gd_curl_load_from("libgodeye-no-such-curl.so.4", &err), GD_ERR_IO);
    ck_assert_int_eq(err.code, GD_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.msg, "cannot load libcurl ("));
    ck_assert_ptr_nonnull(strstr(err.msg, "libgodeye-no-such-curl.so.4"));
    ck_assert_ptr_null(gd_curl_fn.easy_init);
}
END_TEST

/* A library that is not libcurl (zlib, which godeye links anyway): the
 * first function of the list is named missing, and the table stays empty. */
START_TEST(missing_function)
{
    gd_error err;
    gd_error_clear(&err);
    ck_assert_int_eq(gd_curl_load_from("libz.so.1", &err), GD_ERR_IO);
    ck_assert_str_eq(err.msg, "cannot load libcurl: 'libz.so.1' has no curl_global_init");
    ck_assert_ptr_null(gd_curl_fn.global_init);
}
END_TEST

/* The real one: every function found, calls through libcurl's names work,
 * and a second load is the same table. */
START_TEST(loads_libcurl)
{
    gd_error err;
    gd_error_clear(&err);
    ck_assert_int_eq(gd_curl_load(&err), GD_OK);
    ck_assert_int_eq(err.code, GD_OK);
    CURL *e = curl_easy_init();
    ck_assert_ptr_nonnull(e);
    char *s = curl_easy_escape(e, "a b/ü", 0);
    ck_assert_str_eq(s, "a%20b%2F%C3%BC");
    curl_free(s);
    ck_assert_str_eq(curl_easy_strerror(CURLE_OK), "No error");
    ck_assert_int_eq(curl_easy_setopt(e, CURLOPT_URL, "http://127.0.0.1:9/"), CURLE_OK);
    curl_easy_cleanup(e);
    void *first = (void *)gd_curl_fn.easy_init;
    ck_assert_int_eq(gd_curl_load_from("libgodeye-no-such-curl.so.4", &err), GD_OK);
    ck_assert_ptr_eq((void *)gd_curl_fn.easy_init, first);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("curl_dl");
    TCase *tc = tcase_create("core");
    /* in this order: with CK_FORK=no the failures run before the load */
    tcase_add_test(tc, missing_library);
    tcase_add_test(tc, missing_function);
    tcase_add_test(tc, loads_libcurl);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
