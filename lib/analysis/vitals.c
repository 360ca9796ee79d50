/* analysis/vitals.c - Android vitals' bars: when a launch is slow. */
#include "analysis/vitals.h"

#include <math.h>
#include <string.h>

double gd_startup_bar_ms(const char *kind)
{
    /* developer.android.com/topic/performance/vitals/launch-time: excessive
     * when cold >= 5 s, warm >= 2 s, hot >= 1.5 s */
    if (!kind)
        return NAN;
    if (strcmp(kind, "cold") == 0)
        return 5000;
    if (strcmp(kind, "warm") == 0)
        return 2000;
    if (strcmp(kind, "hot") == 0)
        return 1500;
    return NAN;
}

const char *gd_startup_graded_kind(const char *kind)
{
    return isnan(gd_startup_bar_ms(kind)) ? "cold" : kind;
}

const char *gd_startup_time_bad(double ms)
{
    if (isnan(ms))
        return "launch time not a number";
    if (ms < 0)
        return "negative launch time";
    if (ms > GD_STARTUP_MAX_MS)
        return "absurd launch time (over 1 h)";
    return NULL;
}
