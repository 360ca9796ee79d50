/* check_row.c - the row builder's text rule: bytes that are not UTF-8 (#25 item 15). */
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

int main(void)
{
    Suite *s = suite_create("row");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, text_not_utf8_kept);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
