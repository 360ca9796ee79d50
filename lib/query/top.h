/* top.h - what to fix first: one ranked list across ANRs, block groups,
 * startups, frames and lock contention, by the time users lost. */
#ifndef GD_QUERY_TOP_H
#define GD_QUERY_TOP_H

#include <jansson.h>

#include "store/store.h"

/* How many entries gd_top_build keeps (the rest are counted in "more"). */
#define GD_TOP_MAX 50

/* Builds the ranked list over the traces of `f` (see godeye-top(1), SCORING):
 * an object {minutes, entries: [{rank, kind, tier, score_ms_per_min,
 * capture_min, trace, title, evidence{...}, command}], more}.  ANRs come first (tier 0, the
 * longest first), then everything else (tier 1) by milliseconds lost per
 * minute of capture.  At most `max` entries (0: GD_TOP_MAX).  On failure
 * returns an error code with err set and *out NULL. */
int gd_top_build(gd_store *s, const gd_filter *f, int max, json_t **out, gd_error *err);
/* The same with the default focus (#47) said: focus 1 (gd_top_build's)
 * when no --app is given and the traces name apps (trace.app, system
 * processes never): every entry gets "focus" ("anr": tier 0, ANRs and
 * deadlocks of any process; "app": the traces' apps' processes, or no
 * process named; "other": another app's; "system": gd_app_is_system) and
 * they rank in that order, by_rank within; focus 0 (--all-processes):
 * by rank alone, no "focus" field. */
int gd_top_build_focus(gd_store *s, const gd_filter *f, int max, int focus, json_t **out, gd_error *err);

#endif
