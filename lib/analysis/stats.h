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

/* Sorts `n` doubles ascending in place (NaN values go last). */
void gd_stats_sort(double *v, size_t n);

#endif
