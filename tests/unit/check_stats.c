/* check_stats.c - percentiles by linear interpolation (numpy's default) and sorting. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "analysis/stats.h"
#include "testutil.h"

START_TEST(percentile_linear)
{
    const double v[] = {10, 20, 30, 40};
    /* h = 3p/100: p50 -> 1.5 -> 25; p95 -> 2.85 -> 38.5; p25 -> 0.75 -> 17.5 */
    ck_assert_double_eq(gd_percentile(v, 4, 50), 25.0);
    ck_assert_double_eq_tol(gd_percentile(v, 4, 95), 38.5, 1e-12);
    ck_assert_double_eq(gd_percentile(v, 4, 25), 17.5);
    ck_assert_double_eq(gd_percentile(v, 4, 0), 10.0);
    ck_assert_double_eq(gd_percentile(v, 4, 100), 40.0);
    ck_assert_double_eq(gd_percentile(v, 4, -3), 10.0);
    ck_assert_double_eq(gd_percentile(v, 4, 250), 40.0);
    /* odd count: the middle value exactly */
    const double w[] = {1, 2, 100};
    ck_assert_double_eq(gd_percentile(w, 3, 50), 2.0);
    /* p95 of 1..20 (numpy: 19.05) */
    double x[20];
    for (int i = 0; i < 20; i++)
        x[i] = i + 1;
    ck_assert_double_eq_tol(gd_percentile(x, 20, 95), 19.05, 1e-12);
    ck_assert_double_eq_tol(gd_percentile(x, 20, 50), 10.5, 1e-12);
}
END_TEST

START_TEST(percentile_edges)
{
    const double one[] = {7.25};
    ck_assert_double_eq(gd_percentile(one, 1, 95), 7.25);
    ck_assert(isnan(gd_percentile(one, 0, 50)));
    ck_assert(isnan(gd_percentile(NULL, 3, 50)));
    ck_assert(isnan(gd_percentile(one, 1, NAN)));
    const double inf[] = {1, 2, INFINITY};
    ck_assert_double_eq(gd_percentile(inf, 3, 50), 2.0);
}
END_TEST

START_TEST(sort_doubles)
{
    double v[] = {3.5, NAN, -1, 2, 3.5, 0};
    gd_stats_sort(v, 6);
    ck_assert_double_eq(v[0], -1);
    ck_assert_double_eq(v[1], 0);
    ck_assert_double_eq(v[2], 2);
    ck_assert_double_eq(v[3], 3.5);
    ck_assert_double_eq(v[4], 3.5);
    ck_assert(isnan(v[5]));
    gd_stats_sort(NULL, 5);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, percentile_linear);
    tcase_add_test(tc, percentile_edges);
    tcase_add_test(tc, sort_doubles);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
