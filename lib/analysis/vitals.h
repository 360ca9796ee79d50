/* analysis/vitals.h - Android vitals' bars: when a launch is slow. */
#ifndef GD_VITALS_H
#define GD_VITALS_H

/* Android vitals' bar for a launch of `kind` ("cold" 5000 ms, "warm" 2000,
 * "hot" 1500); NAN for an unknown kind.  A launch at or over it is slow. */
double gd_startup_bar_ms(const char *kind);

#endif
