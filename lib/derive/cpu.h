/* derive/cpu.h - what the CPU samples of a trace give at ingest: ratios from raw counters, the sampler's interval. */
#ifndef GD_DERIVE_CPU_H
#define GD_DERIVE_CPU_H

#include <stdint.h>

#include "store/sql.h"

/* Fills the total and app ratios that a stored CPU sample of `trace` lacks
 * from the delta of its raw counters to the previous sample's. */
int gd_derive_cpu_ratios(gd_store *s, int64_t trace, gd_error *err);
/* The median gap between consecutive CPU samples of `trace` (the
 * sampler's interval); GD_NONE when there are fewer than two. */
double gd_derive_cpu_interval(gd_store *s, int64_t trace);

#endif
