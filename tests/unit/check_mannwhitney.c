/* check_mannwhitney.c - the two-sample tests of `godeye diff`, against
 * values worked out by hand (ranks, U, the tie-corrected variance, the
 * normal tail; exact binomial sums). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "analysis/mannwhitney.h"
#include "testutil.h"

START_TEST(mw_no_ties)
{
    /* a = 1,2,3 takes ranks 1..3: R1 = 6, U1 = 0; mean 4.5, var 9/12·7 =
     * 5.25; z = (4.5 − 0.5)/√5.25 = 1.745743; p = 2(1 − Φ(z)) = 0.080856 */
    const double a[] = {3, 1, 2}, b[] = {6, 4, 5};
    gd_mw_result r;
    ck_assert_int_eq(gd_mannwhitney(a, 3, b, 3, &r), 0);
    ck_assert_double_eq(r.u1, 0);
    ck_assert_double_eq_tol(r.z, 1.7457431218879391, 1e-12);
    ck_assert_double_eq_tol(r.p, 0.0808555983700523, 1e-12);
    ck_assert_int_eq(r.direction, 1); /* b larger */
    /* swapped: the same p, the other direction, U1 = 9 */
    ck_assert_int_eq(gd_mannwhitney(b, 3, a, 3, &r), 0);
    ck_assert_double_eq(r.u1, 9);
    ck_assert_double_eq_tol(r.p, 0.0808555983700523, 1e-12);
    ck_assert_int_eq(r.direction, -1);
}
END_TEST

START_TEST(mw_ties)
{
    /* pooled: 1a 2a 2a 2b 3a 3b 4b 4b 5b; the 2s share rank 3, the 3s 5.5,
     * the 4s 7.5: R1 = 1 + 3 + 3 + 5.5 = 12.5, U1 = 2.5; mean 10; ties
     * Σ(t³ − t) = 24 + 6 + 6 = 36; var = 20/12 · (10 − 36/72) = 15.8333;
     * z = (7.5 − 0.5)/√15.8333 = 1.759186; p = 0.078546 */
    const double a[] = {1, 2, 2, 3}, b[] = {2, 3, 4, 4, 5};
    gd_mw_result r;
    ck_assert_int_eq(gd_mannwhitney(a, 4, b, 5, &r), 0);
    ck_assert_double_eq(r.u1, 2.5);
    ck_assert_double_eq_tol(r.z, 1.759186414825121, 1e-12);
    ck_assert_double_eq_tol(r.p, 0.0785458509511907, 1e-12);
    ck_assert_int_eq(r.direction, 1);
}
END_TEST

START_TEST(mw_edges)
{
    const double a[] = {5, 5, 5}, b[] = {5, 5};
    gd_mw_result r;
    /* all tied: no variance, p = 1 */
    ck_assert_int_eq(gd_mannwhitney(a, 3, b, 2, &r), 0);
    ck_assert_double_eq(r.p, 1);
    ck_assert_int_eq(r.direction, 0);
    /* an empty side */
    ck_assert_int_eq(gd_mannwhitney(a, 3, NULL, 0, &r), 0);
    ck_assert_double_eq(r.p, 1);
    /* identical samples: |U1 − mean| = 0 < 0.5: z = 0, p = 1 */
    const double c[] = {1, 2, 3, 4};
    ck_assert_int_eq(gd_mannwhitney(c, 4, c, 4, &r), 0);
    ck_assert_double_eq(r.p, 1);
    /* far apart and large: tiny p */
    double x[200], y[200];
    for (int i = 0; i < 200; i++) {
        x[i] = i;
        y[i] = 1000 + i;
    }
    ck_assert_int_eq(gd_mannwhitney(x, 200, y, 200, &r), 0);
    ck_assert(r.p < 1e-60);
    ck_assert_int_eq(r.direction, 1);
}
END_TEST

START_TEST(rate_test)
{
    /* 10 against 20 events in equal time: binomial(30, 1/2), p =
     * 2·Σ_{i<=10} C(30,i)/2^30 = 0.098737 */
    ck_assert_double_eq_tol(gd_rate_test(10, 10, 20, 10), 0.09873714670538902, 1e-10);
    ck_assert_double_eq_tol(gd_rate_test(20, 10, 10, 10), 0.09873714670538902, 1e-10);
    /* 3 in 1 minute against 0 in 2: k2 ~ binomial(3, 2/3); only k2 = 0 is
     * as unlikely as what was seen: (1/3)^3 = 0.037037 */
    ck_assert_double_eq_tol(gd_rate_test(3, 1, 0, 2), 1.0 / 27, 1e-12);
    /* equal rates in unequal time: p = 1 */
    ck_assert_double_eq_tol(gd_rate_test(10, 5, 20, 10), 1.0, 1e-9);
    /* nothing to compare */
    ck_assert_double_eq(gd_rate_test(0, 5, 0, 5), 1);
    ck_assert_double_eq(gd_rate_test(3, 0, 5, 5), 1);
    /* a clear change */
    ck_assert(gd_rate_test(100, 10, 200, 10) < 1e-8);
}
END_TEST

START_TEST(prop_test)
{
    /* 10/100 against 20/100: pooled 0.15, se = √(0.15·0.85·0.02) =
     * 0.050498, z = 1.980295, p = 0.047670 */
    ck_assert_double_eq_tol(gd_prop_test(10, 100, 20, 100), 0.04767038065616144, 1e-12);
    ck_assert_double_eq(gd_prop_test(0, 100, 0, 50), 1);
    ck_assert_double_eq(gd_prop_test(5, 0, 5, 10), 1);
    ck_assert_double_eq_tol(gd_prop_test(5, 50, 10, 100), 1, 1e-12);
    ck_assert_double_eq_tol(gd_norm_sf(0), 0.5, 1e-15);
    ck_assert_double_eq_tol(gd_norm_sf(1.959963984540054), 0.025, 1e-12);
}
END_TEST

/* Hodges–Lehmann by hand: b − a for a = {1,2,3}, b = {2,4,6} gives
 * -1 0 1 1 2 3 3 4 5 (median 2); C = ⌊4.5 − 1.96·√(63/12)⌋ = 0, so no 95%
 * interval.  a = 1..5, b = a + 10: the 25 differences 10 + (j − i) are
 * 6 7 7 8 8 8 ... 14, median 10, C = ⌊12.5 − 1.96·√(275/12)⌋ = 3:
 * [D(3), D(23)] = [7, 13]. */
START_TEST(hodges_lehmann)
{
    gd_hl_result r;
    double a[] = {1, 2, 3}, b[] = {2, 4, 6};
    gd_hodges_lehmann(a, 3, b, 3, &r);
    ck_assert_double_eq(r.shift, 2);
    ck_assert(isnan(r.lo) && isnan(r.hi));
    double a5[] = {1, 2, 3, 4, 5}, b5[] = {11, 12, 13, 14, 15};
    gd_hodges_lehmann(a5, 5, b5, 5, &r);
    ck_assert_double_eq(r.shift, 10);
    ck_assert_double_eq(r.lo, 7);
    ck_assert_double_eq(r.hi, 13);
    /* the other way round: the shift and interval change sign */
    gd_hodges_lehmann(b5, 5, a5, 5, &r);
    ck_assert_double_eq(r.shift, -10);
    ck_assert_double_eq(r.lo, -13);
    ck_assert_double_eq(r.hi, -7);
    /* one value each: the difference itself, no interval; even N: the mean of the middle two */
    gd_hodges_lehmann(a, 1, b + 2, 1, &r);
    ck_assert_double_eq(r.shift, 5);
    gd_hodges_lehmann(a, 1, b, 2, &r); /* 1, 3 */
    ck_assert_double_eq(r.shift, 2);
    gd_hodges_lehmann(a, 0, b, 2, &r);
    ck_assert(isnan(r.shift));
    /* ties and a constant sample */
    double c[] = {5, 5, 5, 5, 5, 5};
    gd_hodges_lehmann(c, 6, c, 6, &r);
    ck_assert_double_eq(r.shift, 0);
    ck_assert_double_eq(r.lo, 0);
    ck_assert_double_eq(r.hi, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mannwhitney");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, mw_no_ties);
    tcase_add_test(tc, mw_ties);
    tcase_add_test(tc, mw_edges);
    tcase_add_test(tc, rate_test);
    tcase_add_test(tc, prop_test);
    tcase_add_test(tc, hodges_lehmann);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
