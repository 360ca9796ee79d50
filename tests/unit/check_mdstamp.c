/* check_mdstamp.c - the readers' calendar: dates to epoch ms, day to year, the year of year-less stamps. */
#include <check.h>
#include <time.h>

#include "testutil.h"
#include "reader/mdstamp.h"

/* Expected values computed with Python's datetime (UTC), not with godeye. */

START_TEST(test_civil_and_year_of_day)
{
    ck_assert_int_eq(gd_mdstamp_days(2000, 1, 1), 10957);
    ck_assert(gd_mdstamp_civil_ms(2000, 1, 1, 0, 0, 0) == 946684800000.0);
    ck_assert(gd_mdstamp_civil_ms(2024, 2, 29, 13, 5, 7) == 1709211907000.0);
    ck_assert_int_eq(gd_mdstamp_year_of_day(0), 1970);
    ck_assert_int_eq(gd_mdstamp_year_of_day(-1), 1969);
    ck_assert_int_eq(gd_mdstamp_year_of_day(10957), 2000);
    ck_assert_int_eq(gd_mdstamp_year_of_day(10956), 1999);
    ck_assert_int_eq(gd_mdstamp_year_of_day(-25508), 1900); /* 1900-03-01 */
    gd_mdstamp st = {.mon = 2, .day = 29, .hour = 13, .min = 5, .sec = 7, .frac_ms = 250};
    ck_assert(gd_mdstamp_ms(2024, &st) == 1709211907250.0);
}
END_TEST

START_TEST(test_now_year)
{
    ck_assert_int_eq(gd_mdstamp_year_or_now(2019), 2019);
    int y = gd_mdstamp_now_year();
    ck_assert_int_eq(gd_mdstamp_year_or_now(0), y);
    ck_assert_int_ge(y, 2024);
}
END_TEST

START_TEST(test_year_rules)
{
    gd_mdstamp dec31 = {.mon = 12, .day = 31, .hour = 23, .min = 59, .sec = 59};
    gd_mdstamp jan1 = {.mon = 1, .day = 1, .hour = 0, .min = 0, .sec = 5};
    /* nearest: 2024-01-01 00:00:10 makes 12-31 23:59:59 the day before */
    ck_assert(gd_mdstamp_nearest_ms(1704067210000.0, &dec31) == 1704067199000.0);
    /* before: written 2025-01-01 00:00:05, a Dec 31 sample is of 2024 */
    ck_assert(gd_mdstamp_before_ms(2025, 1735689605000.0, &dec31) == 1735689599000.0);
    ck_assert(gd_mdstamp_before_ms(2025, 1735689605000.0, &jan1) == 1735689605000.0);
    /* running year: 12-31, 01-01 (new year), a late 12-31 line, then 01-01 again */
    gd_mdstamp_run r = {.year = 2024};
    ck_assert(gd_mdstamp_run_ms(&r, &dec31) == 1735689599000.0);
    ck_assert(gd_mdstamp_run_ms(&r, &jan1) == 1735689605000.0);
    ck_assert_int_eq(r.year, 2025);
    ck_assert(gd_mdstamp_run_ms(&r, &dec31) == 1735689599000.0);
    ck_assert_int_eq(r.year, 2025);
    ck_assert(gd_mdstamp_run_ms(&r, &jan1) == 1735689605000.0);
    /* a stamp with its own year keeps it */
    gd_mdstamp y2023 = dec31;
    y2023.year = 2023;
    ck_assert(gd_mdstamp_run_ms(&r, &y2023) == 1704067199000.0);
}
END_TEST

/* A backwards jump that is no New Year (a logcat whose boot clock was not
 * yet set: 09-05 then 03-30) keeps the year and is counted as a clock
 * reset; a new year is only a December -> January step of a few weeks.
 * Values from Python: datetime(2024,9,5,10,0,0,tzinfo=utc).timestamp(). */
START_TEST(test_clock_reset_is_no_new_year)
{
    gd_mdstamp sep5 = {.mon = 9, .day = 5, .hour = 10, .min = 0, .sec = 0};
    gd_mdstamp mar30 = {.mon = 3, .day = 30, .hour = 8, .min = 0, .sec = 0};
    gd_mdstamp sep6 = {.mon = 9, .day = 6, .hour = 9, .min = 0, .sec = 0};
    gd_mdstamp_run r = {.year = 2024};
    ck_assert(gd_mdstamp_run_ms(&r, &sep5) == 1725530400000.0);
    ck_assert(gd_mdstamp_run_ms(&r, &mar30) == 1711785600000.0); /* 2024-03-30, not 2025 */
    ck_assert_int_eq(r.year, 2024);
    ck_assert_int_eq(r.resets, 1);
    /* the clock set again: forward to 09-06 of the same year, no late line */
    ck_assert(gd_mdstamp_run_ms(&r, &sep6) == 1725613200000.0);
    ck_assert_int_eq(r.year, 2024);
    ck_assert_int_eq(r.resets, 1);
    /* seconds out of order (two buffers merged) are no reset */
    gd_mdstamp sep6b = {.mon = 9, .day = 6, .hour = 8, .min = 59, .sec = 0};
    ck_assert(gd_mdstamp_run_ms(&r, &sep6b) == 1725613140000.0);
    ck_assert_int_eq(r.resets, 1);
    /* December -> January more than a few weeks apart (12-01 -> 01-30):
     * no New Year, a reset of this year's January */
    gd_mdstamp dec1 = {.mon = 12, .day = 1, .hour = 0, .min = 0, .sec = 0};
    gd_mdstamp jan30 = {.mon = 1, .day = 30, .hour = 0, .min = 0, .sec = 0};
    gd_mdstamp_run q = {.year = 2024};
    ck_assert(gd_mdstamp_run_ms(&q, &dec1) == 1733011200000.0);
    ck_assert(gd_mdstamp_run_ms(&q, &jan30) == 1706572800000.0); /* 2024-01-30 */
    ck_assert_int_eq(q.year, 2024);
    ck_assert_int_eq(q.resets, 1);
    /* 12-31 -> 01-01 is still the New Year, no reset */
    gd_mdstamp dec31 = {.mon = 12, .day = 31, .hour = 23, .min = 59, .sec = 59};
    gd_mdstamp jan1 = {.mon = 1, .day = 1, .hour = 0, .min = 0, .sec = 5};
    gd_mdstamp_run y = {.year = 2024};
    gd_mdstamp_run_ms(&y, &dec31);
    ck_assert(gd_mdstamp_run_ms(&y, &jan1) == 1735689605000.0);
    ck_assert_int_eq(y.year, 2025);
    ck_assert_int_eq(y.resets, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mdstamp");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_civil_and_year_of_day);
    tcase_add_test(tc, test_now_year);
    tcase_add_test(tc, test_year_rules);
    tcase_add_test(tc, test_clock_reset_is_no_new_year);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
