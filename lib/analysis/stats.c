/* stats.c - percentiles by linear interpolation between closest ranks. */
#include "analysis/stats.h"

#include <math.h>

double gd_percentile(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return NAN;
    if (p <= 0)
        return sorted[0];
    if (p >= 100)
        return sorted[n - 1];
    double rank = (double)(n - 1) * p / 100.0;
    size_t lo = (size_t)floor(rank);
    double frac = rank - (double)lo;
    if (lo + 1 >= n)
        return sorted[n - 1];
    return sorted[lo] + (sorted[lo + 1] - sorted[lo]) * frac;
}
