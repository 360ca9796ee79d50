/* derive/startups.h - a trace launch's phases (Perfetto's startup breakdown) into startup_phase at ingest. */
#ifndef GD_DERIVE_STARTUPS_H
#define GD_DERIVE_STARTUPS_H

#include <stdint.h>

#include "store/sql.h"

/* For every launch of `trace` read from its slices (source perfetto or
 * systrace), writes its startup_phase rows from the trace's slices
 * (dispatch and call rows) and thread_state, and fills its ttfd_ms from
 * reportFullyDrawn when no other source gave one.  GD_OK or the store's
 * error in `err` (the caller's transaction is then to be rolled back). */
int gd_derive_startup_phases(gd_store *s, int64_t trace, gd_error *err);

#endif
