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

/* The streamed percentile is gd_percentile's, bit for bit, whatever n and
 * p: values given in order, only two kept (#50: frames not held). */
START_TEST(percentile_streamed)
{
    const double ps[] = {-3, 0, 1, 25, 50, 90, 95, 99, 99.9, 100, 250};
    double v[40];
    for (size_t n = 0; n <= 40; n++) {
        for (size_t i = 0; i < n; i++)
            v[i] = (double)(i * i % 17) / 3.0 + (double)i; /* ascending, uneven steps */
        for (size_t k = 0; k < sizeof ps / sizeof *ps; k++) {
            gd_pct_stream st;
            gd_pct_stream_init(&st, n, ps[k]);
            for (size_t i = 0; i < n; i++)
                gd_pct_stream_add(&st, i, v[i]);
            double want = gd_percentile(v, n, ps[k]), got = gd_pct_stream_value(&st);
            if (n == 0)
                ck_assert(isnan(got) && isnan(want));
            else
                ck_assert_msg(got == want, "n %zu p %g: %.17g, gd_percentile %.17g", n, ps[k], got, want);
        }
    }
    gd_pct_stream st;
    gd_pct_stream_init(&st, 3, NAN);
    gd_pct_stream_add(&st, 0, 1);
    ck_assert(isnan(gd_pct_stream_value(&st)));
    /* p95 of 1..20 streamed (numpy: 19.05) */
    gd_pct_stream_init(&st, 20, 95);
    for (size_t i = 0; i < 20; i++)
        gd_pct_stream_add(&st, i, (double)i + 1);
    ck_assert_double_eq_tol(gd_pct_stream_value(&st), 19.05, 1e-12);
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
    tcase_add_test(tc, percentile_streamed);
    tcase_add_test(tc, sort_doubles);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
