/* stats.c - percentiles by linear interpolation, sorting of doubles. */
#include "analysis/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

double gd_percentile(const double *sorted, size_t n, double p)
{
    /* the ranks and the interpolation are gd_pct_stream's: one rule */
    gd_pct_stream st;
    gd_pct_stream_init(&st, sorted ? n : 0, p);
    if (st.lo == SIZE_MAX)
        return NAN;
    gd_pct_stream_add(&st, st.lo, sorted[st.lo]);
    if (st.lo + 1 < n)
        gd_pct_stream_add(&st, st.lo + 1, sorted[st.lo + 1]);
    return gd_pct_stream_value(&st);
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
