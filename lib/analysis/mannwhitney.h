/* mannwhitney.h - two-sample tests behind `godeye diff`: Mann–Whitney U on
 * durations, a conditional binomial test on event rates, a two-proportion
 * z test on frame shares.  Pure functions, no I/O. */
#ifndef GD_ANALYSIS_MANNWHITNEY_H
#define GD_ANALYSIS_MANNWHITNEY_H

#include <stddef.h>

typedef struct gd_mw_result {
    double u1;      /* U of the first sample (pairs where a > b, ties 1/2)     */
    double z;       /* standardised statistic, continuity corrected (>= 0)     */
    double p;       /* two-sided p-value, normal approximation, in [0, 1]       */
    int direction;  /* +1: b tends to be larger than a, -1: smaller, 0: equal   */
} gd_mw_result;

/* Mann–Whitney U test of samples a (na values) and b (nb values): ranks of
 * the pooled sample (ties get their average rank), U1 = R1 − na(na+1)/2,
 * mean na·nb/2, variance na·nb/12 · ((n+1) − Σ(t³−t)/(n(n−1))) with t the
 * size of each tie group, z = (|U1 − mean| − 0.5)/σ, p = 2·(1 − Φ(z))
 * clipped to 1 — scipy.stats.mannwhitneyu(a, b, method="asymptotic"),
 * use_continuity=True, two-sided.  p is 1 when a side is empty or every
 * value is tied (σ = 0).  The inputs are not modified.  Returns 0, or -1
 * when out of memory (res untouched).  The values must not hold NaN. */
int gd_mannwhitney(const double *a, size_t na, const double *b, size_t nb, gd_mw_result *res);

/* Two-sided p-value that two Poisson rates are equal: k1 events in
 * exposure t1 against k2 in t2 (t in any unit, both > 0).  Given
 * n = k1 + k2, k2 is binomial(n, t2/(t1+t2)) under the null; the p-value
 * sums the probabilities of every outcome no more likely than k2 (exact,
 * as scipy.stats.binomtest(k2, n, t2/(t1+t2)) does).  1 when n is 0 or an
 * exposure is not positive. */
double gd_rate_test(long k1, double t1, long k2, double t2);

/* Two-sided p-value of the pooled two-proportion z test: x1 of n1 against
 * x2 of n2.  1 when a side is empty or the pooled share is 0 or 1. */
double gd_prop_test(long x1, long n1, long x2, long n2);

/* The Hodges–Lehmann shift of b against a with its distribution-free
 * interval (Hollander & Wolfe, Nonparametric Statistical Methods, §4.3):
 * over the N = na·nb differences b_j − a_i, shift is their median (the
 * mean of the two middle ones when N is even); with
 * C = ⌊N/2 − z·√(na·nb·(na+nb+1)/12)⌋, z = 1.959964 (95%), the interval is
 * [D(C), D(N+1−C)], D(k) the k-th smallest difference (1-based).  When
 * C < 1 the samples are too small for a 95% interval: lo and hi are NAN.
 * No tie correction.  a and b must be sorted ascending and hold no NaN;
 * shift, lo and hi are NAN when a side is empty.  Time O((na+nb)·log),
 * memory O(1): the differences are never stored. */
typedef struct gd_hl_result {
    double shift, lo, hi;
} gd_hl_result;
void gd_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb, gd_hl_result *res);

/* 1 − Φ(z), the standard normal upper tail. */
double gd_norm_sf(double z);

#endif
