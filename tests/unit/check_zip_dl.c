/* check_zip_dl.c - libzip loaded on first use (io/zip_dl.h, #50): a
 * missing library or function is one error, the real one works. */
#include <check.h>
#include <string.h>

#include "io/zip_dl.h"
#include "testutil.h"

/* No such library: GD_ERR_IO naming it, nothing loaded. */
START_TEST(missing_library)
{
    gd_error err;
    gd_error_clear(&err);
    ck_assert_int_eq(gd_zip_load_from("libgodeye-no-such-zip.so.4", &err), GD_ERR_IO);
    ck_assert_int_eq(err.code, GD_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.msg, "cannot load libzip ("));
    ck_assert_ptr_nonnull(strstr(err.msg, "libgodeye-no-such-zip.so.4"));
    ck_assert_ptr_nonnull(strstr(err.msg, "), which reading a zip needs"));
    ck_assert_ptr_null(strchr(err.msg, '\n'));
    ck_assert_ptr_null(gd_zip_fn.open);
}
END_TEST

/* A library that is not libzip (zlib, which godeye links anyway): the
 * first function of the list is named missing, and the table stays empty. */
START_TEST(missing_function)
{
    gd_error err;
    gd_error_clear(&err);
    ck_assert_int_eq(gd_zip_load_from("libz.so.1", &err), GD_ERR_IO);
    ck_assert_str_eq(err.msg, "cannot load libzip: 'libz.so.1' has no zip_open");
    ck_assert_ptr_null(gd_zip_fn.open);
    ck_assert_ptr_null(gd_zip_fn.source_make_command_bitmap);
}
END_TEST

/* The real one: every function found, calls through libzip's names work
 * (an archive of one stored member, built by hand, read back), and a
 * second load is the same table. */
START_TEST(loads_libzip)
{
    /* local header, the member "a.txt" = "hi\n" stored, central directory, end */
    static const unsigned char z[] = {
        'P', 'K', 3, 4, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x7a, 0x7a, 0x6f, 0xed, 3, 0, 0, 0, 3, 0, 0, 0, 5, 0, 0, 0,
        'a', '.', 't', 'x', 't', 'h', 'i', '\n',
        'P', 'K', 1, 2, 20, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x7a, 0x7a, 0x6f, 0xed, 3, 0, 0, 0, 3, 0, 0, 0, 5, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'a', '.', 't', 'x', 't',
        'P', 'K', 5, 6, 0, 0, 0, 0, 1, 0, 1, 0, 51, 0, 0, 0, 38, 0, 0, 0, 0, 0,
    };
    gd_error err;
    gd_error_clear(&err);
    ck_assert_int_eq(gd_zip_load(&err), GD_OK);
    ck_assert_int_eq(err.code, GD_OK);
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(z, sizeof z, 0, &ze);
    ck_assert_ptr_nonnull(src);
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY, &ze);
    ck_assert_msg(za != NULL, "%s", zip_error_strerror(&ze));
    zip_error_fini(&ze);
    ck_assert_int_eq(zip_get_num_entries(za, 0), 1);
    ck_assert_str_eq(zip_get_name(za, 0, ZIP_FL_ENC_RAW), "a.txt");
    zip_stat_t st;
    ck_assert_int_eq(zip_stat_index(za, 0, 0, &st), 0);
    ck_assert_uint_eq(st.size, 3);
    zip_file_t *zf = zip_fopen_index(za, 0, 0);
    ck_assert_ptr_nonnull(zf);
    char buf[8] = {0};
    ck_assert_int_eq(zip_fread(zf, buf, sizeof buf - 1), 3);
    ck_assert_str_eq(buf, "hi\n");
    zip_fclose(zf);
    zip_discard(za);
    zip_error_init_with_code(&ze, ZIP_ER_NOZIP);
    ck_assert_str_eq(zip_error_strerror(&ze), "Not a zip archive");
    zip_error_fini(&ze);
    void *first = (void *)gd_zip_fn.open;
    ck_assert_int_eq(gd_zip_load_from("libgodeye-no-such-zip.so.4", &err), GD_OK);
    ck_assert_ptr_eq((void *)gd_zip_fn.open, first);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("zip_dl");
    TCase *tc = tcase_create("core");
    /* in this order: with CK_FORK=no the failures run before the load */
    tcase_add_test(tc, missing_library);
    tcase_add_test(tc, missing_function);
    tcase_add_test(tc, loads_libzip);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
