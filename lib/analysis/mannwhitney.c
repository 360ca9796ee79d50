/* mannwhitney.c - Mann–Whitney U, the conditional binomial rate test and
 * the two-proportion z test, the Hodges–Lehmann shift (see mannwhitney.h for the exact rules). */
#include "analysis/mannwhitney.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>

double gd_norm_sf(double z)
{
    return 0.5 * erfc(z / sqrt(2.0));
}

typedef struct tagged {
    double v;
    int first; /* 1: from sample a */
} tagged;

static int cmp_tagged(const void *x, const void *y)
{
    double a = ((const tagged *)x)->v, b = ((const tagged *)y)->v;
    return a < b ? -1 : a > b;
}

int gd_mannwhitney(const double *a, size_t na, const double *b, size_t nb, gd_mw_result *res)
{
    gd_mw_result r = {0, 0, 1, 0};
    if (na == 0 || nb == 0) {
        *res = r;
        return 0;
    }
    size_t n = na + nb;
    tagged *t = malloc(n * sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < na; i++)
        t[i] = (tagged){a[i], 1};
    for (size_t i = 0; i < nb; i++)
        t[na + i] = (tagged){b[i], 0};
    gd_sort(t, n, sizeof *t, cmp_tagged);
    double r1 = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && t[j].v == t[i].v)
            j++;
        double rank = ((double)i + 1 + (double)j) / 2.0; /* average of ranks i+1..j */
        double cnt = (double)(j - i);
        ties += cnt * cnt * cnt - cnt;
        for (size_t k = i; k < j; k++)
            if (t[k].first)
                r1 += rank;
        i = j;
    }
    free(t);
    double dna = (double)na, dnb = (double)nb, dn = (double)n;
    r.u1 = r1 - dna * (dna + 1) / 2.0;
    double mean = dna * dnb / 2.0;
    double var = dna * dnb / 12.0 * ((dn + 1) - (n > 1 ? ties / (dn * (dn - 1)) : 0));
    r.direction = r.u1 < mean ? 1 : r.u1 > mean ? -1 : 0;
    if (var > 0) {
        double d = fabs(r.u1 - mean) - 0.5;
        r.z = d > 0 ? d / sqrt(var) : 0;
        r.p = 2.0 * gd_norm_sf(r.z);
        if (r.p > 1)
            r.p = 1;
    }
    *res = r;
    return 0;
}

/* log of the binomial probability of k in n at p (0 < p < 1) */
static double log_binom(long k, long n, double p)
{
    return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) +
           (double)k * log(p) + (double)(n - k) * log1p(-p);
}

double gd_rate_test(long k1, double t1, long k2, double t2)
{
    if (k1 < 0 || k2 < 0 || !(t1 > 0) || !(t2 > 0) || k1 + k2 == 0)
        return 1;
    long n = k1 + k2;
    double p = t2 / (t1 + t2);
    double obs = log_binom(k2, n, p);
    /* scipy's relative tolerance for "no more likely" */
    double lim = obs + log1p(1e-7);
    double sum = 0;
    for (long i = 0; i <= n; i++) {
        double l = log_binom(i, n, p);
        if (l <= lim)
            sum += exp(l);
    }
    return sum > 1 ? 1 : sum;
}

double gd_prop_test(long x1, long n1, long x2, long n2)
{
    if (n1 <= 0 || n2 <= 0 || x1 < 0 || x2 < 0 || x1 > n1 || x2 > n2)
        return 1;
    double p = (double)(x1 + x2) / (double)(n1 + n2);
    if (p <= 0 || p >= 1)
        return 1;
    double se = sqrt(p * (1 - p) * (1.0 / (double)n1 + 1.0 / (double)n2));
    double z = fabs((double)x1 / (double)n1 - (double)x2 / (double)n2) / se;
    double pv = 2.0 * gd_norm_sf(z);
    return pv > 1 ? 1 : pv;
}

/* ---- Hodges–Lehmann: order statistics of b_j − a_i without storing them */

/* How many differences b_j − a_i are <= d (a, b sorted ascending: for
 * each i the qualifying j form a prefix that grows as a_i grows). */
static double count_le(const double *a, size_t na, const double *b, size_t nb, double d)
{
    double c = 0;
    size_t j = 0;
    for (size_t i = 0; i < na; i++) {
        while (j < nb && b[j] - a[i] <= d)
            j++;
        c += (double)j;
    }
    return c;
}

/* The smallest difference b_j − a_i greater than d (INFINITY when none). */
static double next_above(const double *a, size_t na, const double *b, size_t nb, double d)
{
    double best = INFINITY;
    size_t j = 0;
    for (size_t i = 0; i < na; i++) {
        /* as a_i grows, the first j with b_j − a_i > d moves right */
        while (j < nb && b[j] - a[i] <= d)
            j++;
        if (j == nb)
            break;
        if (b[j] - a[i] < best)
            best = b[j] - a[i];
    }
    return best;
}

/* The k-th smallest difference, k in 1..na·nb: bisection on the value,
 * then a walk over the differences left between the bounds. */
static double kth_diff(const double *a, size_t na, const double *b, size_t nb, double k)
{
    double lo = b[0] - a[na - 1], hi = b[nb - 1] - a[0];
    if (count_le(a, na, b, nb, lo) >= k)
        return lo;
    /* count_le(lo) < k <= count_le(hi) */
    for (int it = 0; it < 200; it++) {
        double mid = lo + (hi - lo) / 2;
        if (!(mid > lo && mid < hi))
            break;
        if (count_le(a, na, b, nb, mid) >= k)
            hi = mid;
        else
            lo = mid;
    }
    for (;;) { /* a difference lies in (lo, hi]: w <= hi, and the loop ends there */
        double w = next_above(a, na, b, nb, lo);
        if (!(w < hi) || count_le(a, na, b, nb, w) >= k)
            return w < hi ? w : hi;
        lo = w;
    }
}

void gd_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb, gd_hl_result *res)
{
    res->shift = res->lo = res->hi = NAN;
    if (!a || !b || na == 0 || nb == 0)
        return;
    double n = (double)na * (double)nb;
    if (fmod(n, 2) == 1)
        res->shift = kth_diff(a, na, b, nb, (n + 1) / 2);
    else
        res->shift = (kth_diff(a, na, b, nb, n / 2) + kth_diff(a, na, b, nb, n / 2 + 1)) / 2;
    double c = floor(n / 2 - 1.959963984540054 * sqrt(n * ((double)na + (double)nb + 1) / 12));
    if (c >= 1) {
        res->lo = kth_diff(a, na, b, nb, c);
        res->hi = kth_diff(a, na, b, nb, n + 1 - c);
    }
}
