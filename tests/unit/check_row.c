/* check_row.c - the row builder's text rule: bytes that are not UTF-8 (#25 item 15);
 * a bounded copy cuts at a character boundary (#25 item 16). */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/row.h"
#include "testutil.h"

/* a name with a stray byte keeps its field, the stray byte as U+FFFD and
 * the valid characters as they were (jansson's json_string gives NULL) */
START_TEST(text_not_utf8_kept)
{
    json_t *j = gd_json_text("com.x\xff.M\xc3\xa9thod\xe2\x82", 16);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(j), "com.x\xef\xbf\xbd.M\xc3\xa9thod\xef\xbf\xbd\xef\xbf\xbd");
    json_decref(j);
    j = gd_json_text("plain", 5);
    ck_assert_str_eq(json_string_value(j), "plain");
    json_decref(j);

    gd_rowb b;
    gd_rowb_init(&b);
    gd_rowb_text(&b, "method", "a\xc0\xaf" "b"); /* an overlong '/' */
    json_t *row = gd_row_json(&b.row);
    ck_assert_ptr_nonnull(row);
    ck_assert_ptr_nonnull(json_object_get(row, "method"));
    ck_assert_str_eq(json_string_value(json_object_get(row, "method")), "a\xef\xbf\xbd\xef\xbf\xbd" "b");
    json_decref(row);
    gd_rowb_clear(&b);
}
END_TEST

/* "a" then U+00E9 (2 bytes), U+20AC (3), U+1F600 (4): each cut that
 * would split one ends before it; bytes that are no character are cut
 * where they fall */
START_TEST(cut_at_char_boundary)
{
    const char *s = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z"; /* 11 bytes */
    ck_assert_uint_eq(gd_utf8_cut(s, 11, 11), 11);
    ck_assert_uint_eq(gd_utf8_cut(s, 11, 20), 11);
    ck_assert_uint_eq(gd_utf8_cut(s, 11, 1), 1);
    ck_assert_uint_eq(gd_utf8_cut(s, 11, 2), 1);  /* inside U+00E9 */
    ck_assert_uint_eq(gd_utf8_cut(s, 11, 3), 3);
    ck_assert_uint_eq(gd_utf8_cut(s, 11, 4), 3);  /* inside U+20AC */
    ck_assert_uint_eq(gd_utf8_cut(s, 11, 5), 3);
    ck_assert_uint_eq(gd_utf8_cut(s, 11, 6), 6);
    ck_assert_uint_eq(gd_utf8_cut(s, 11, 7), 6);  /* inside U+1F600 */
    ck_assert_uint_eq(gd_utf8_cut(s, 11, 9), 6);
    ck_assert_uint_eq(gd_utf8_cut(s, 11, 10), 10);
    ck_assert_uint_eq(gd_utf8_cut(s, 11, 0), 0);
    /* stray continuation bytes: no character to keep whole */
    ck_assert_uint_eq(gd_utf8_cut("\x80\x80\x80\x80\x80", 5, 3), 3);
    /* a 1,023-byte bound over a run of U+00E9: 511 whole characters */
    char big[2048];
    for (int i = 0; i < 1024; i++)
        big[2 * i] = (char)0xc3, big[2 * i + 1] = (char)0xa9;
    size_t n = gd_utf8_cut(big, sizeof big, 1023);
    ck_assert_uint_eq(n, 1022);
    ck_assert_int_eq(gd_utf8_valid(big, n), 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("row");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, text_not_utf8_kept);
    tcase_add_test(tc, cut_at_char_boundary);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
