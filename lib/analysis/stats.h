/* stats.h - small statistics shared by the analyses (percentiles). */
#ifndef GD_STATS_H
#define GD_STATS_H

#include <stddef.h>

/* The p-th percentile (0..100) of `sorted` (ascending, n > 0) by linear
 * interpolation between the closest ranks (numpy's default): rank
 * (n - 1) * p / 100.  NAN when n == 0. */
double gd_percentile(const double *sorted, size_t n, double p);

#endif
