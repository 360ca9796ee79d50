/* stats.h - small statistics shared by the analyses (percentiles for blocks, pages). */
#ifndef GD_ANALYSIS_STATS_H
#define GD_ANALYSIS_STATS_H

#include <stddef.h>

/* The p-th percentile (p in 0..100) of `n` values sorted ascending, by
 * linear interpolation between the closest ranks (numpy's default,
 * method="linear"): with h = (n − 1) × p / 100, the result is
 * sorted[⌊h⌋] + (h − ⌊h⌋) × (sorted[⌊h⌋ + 1] − sorted[⌊h⌋]).  So p50 of an
 * even count is the mean of the two middle values, p0 the minimum, p100
 * the maximum.  p below 0 or above 100 is clamped.  Returns NAN when n is 0,
 * sorted is NULL or p is NaN.  The values must not hold NaN. */
double gd_percentile(const double *sorted, size_t n, double p);

/* The same percentile of `n` values given one at a time in ascending
 * order (#50: a window's millions of frames read sorted from the store,
 * not held): only the one or two values it needs are kept.  Equal to
 * gd_percentile over the same values. */
typedef struct gd_pct_stream {
    size_t n, lo;  /* the values to come; the rank of the lower one needed */
    double frac;   /* h - lo */
    double a, b;   /* the values of rank lo and lo + 1 (NaN until given) */
} gd_pct_stream;

void gd_pct_stream_init(gd_pct_stream *s, size_t n, double p);
/* Gives the value of rank i (0: the smallest; i counts up from 0). */
static inline void gd_pct_stream_add(gd_pct_stream *s, size_t i, double v)
{
    if (i == s->lo)
        s->a = v;
    else if (i == s->lo + 1)
        s->b = v;
}
/* The percentile, once every value was given; NAN when n was 0 or p NaN. */
double gd_pct_stream_value(const gd_pct_stream *s);

/* Sorts `n` doubles ascending in place (NaN values go last). */
void gd_stats_sort(double *v, size_t n);

#endif
