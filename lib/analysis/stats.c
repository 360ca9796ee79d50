/* stats.c - percentiles by linear interpolation, sorting of doubles. */
#include "analysis/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

double gd_percentile(const double *sorted, size_t n, double p)
{
    if (!sorted || n == 0 || isnan(p))
        return NAN;
    if (p <= 0)
        return sorted[0];
    if (p >= 100)
        return sorted[n - 1];
    double h = (double)(n - 1) * p / 100.0;
    size_t lo = (size_t)floor(h);
    if (lo >= n - 1)
        return sorted[n - 1];
    double frac = h - (double)lo;
    if (frac == 0)
        return sorted[lo];
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    if (isnan(x) || isnan(y))
        return isnan(x) - isnan(y);
    return x < y ? -1 : x > y;
}

void gd_stats_sort(double *v, size_t n)
{
    if (v && n > 1)
        gd_sort(v, n, sizeof *v, cmp_double);
}

void gd_pct_stream_init(gd_pct_stream *s, size_t n, double p)
{
    *s = (gd_pct_stream){n, SIZE_MAX, 0, NAN, NAN};
    if (n == 0 || isnan(p))
        return;
    /* gd_percentile's ranks: p0 the first, p100 and past the last the last */
    double h = p <= 0 ? 0 : p >= 100 ? (double)(n - 1) : (double)(n - 1) * p / 100.0;
    s->lo = (size_t)floor(h);
    if (s->lo >= n - 1)
        s->lo = n - 1;
    else
        s->frac = h - (double)s->lo;
}

double gd_pct_stream_value(const gd_pct_stream *s)
{
    if (s->lo == SIZE_MAX)
        return NAN;
    return s->frac == 0 ? s->a : s->a + s->frac * (s->b - s->a);
}
