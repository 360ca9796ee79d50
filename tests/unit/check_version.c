/* check_version.c - app versions compared as versions. */
#include <check.h>
#include <stdlib.h>

#include "analysis/version.h"
#include "testutil.h"

#define LT(a, b) ck_assert_msg(gd_version_cmp(a, b) < 0 && gd_version_cmp(b, a) > 0, "%s < %s", #a, #b)

START_TEST(numeric_runs)
{
    LT("3.9.2", "3.10.0");
    LT("3.1.0", "3.2.0");
    LT("1.9", "1.10");
    LT("2", "10");
    LT("3.1", "3.1.0");
    LT("3.1.0", "3.1.0-rc1");
    LT("1.0.9", "1.0.10-beta");
    LT("99999999999999999999", "100000000000000000000"); /* longer than any integer */
    ck_assert_int_eq(gd_version_cmp("3.01.0", "3.1.0"), 0);
    ck_assert_int_eq(gd_version_cmp("3.10.0", "3.10.0"), 0);
    ck_assert_int_eq(gd_version_cmp("0", "000"), 0);
}
END_TEST

START_TEST(text_and_null)
{
    LT("1.0a", "1.0b");
    LT(NULL, "0");
    ck_assert_int_eq(gd_version_cmp(NULL, NULL), 0);
    ck_assert_int_eq(gd_version_cmp("", ""), 0);
    LT("", "1");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("version");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, numeric_runs);
    tcase_add_test(tc, text_and_null);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
