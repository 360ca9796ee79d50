/* mannwhitney.c - Mann–Whitney U, the conditional binomial rate test and
 * the two-proportion z test (see mannwhitney.h for the exact rules). */
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
