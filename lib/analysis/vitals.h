/* analysis/vitals.h - Android vitals' bars: when a launch is slow. */
#ifndef GD_ANALYSIS_VITALS_H
#define GD_ANALYSIS_VITALS_H

/* Android vitals' bar for a launch of `kind` ("cold" 5000 ms, "warm" 2000,
 * "hot" 1500); NAN for an unknown kind.  A launch at or over it is slow. */
double gd_startup_bar_ms(const char *kind);

/* #27: the kind a launch is graded as: its own when cold, warm or hot;
 * "cold" when unknown (the cold bar is the only one no launch can be
 * unfairly slow against: a warm or hot launch is shorter than a cold one). */
const char *gd_startup_graded_kind(const char *kind);

/* #27: a launch time no launch has: NULL when `ms` is a time in [0,
 * GD_STARTUP_MAX_MS], else the reason ("negative launch time", "absurd
 * launch time (over 1 h)", "launch time not a number"). */
#define GD_STARTUP_MAX_MS 3600000.0
const char *gd_startup_time_bad(double ms);

#endif
