/* query/startup.h - app launches (`godeye startup`; query/startup.c). */
#ifndef GD_QUERY_STARTUP_H
#define GD_QUERY_STARTUP_H

#include <stdint.h>

#include "store/store.h"

typedef struct gd_startup_query {
    gd_filter filter;
    const char *app;        /* only this package, or NULL                 */
    const char *kind;       /* "cold", "warm", "hot" or NULL: any         */
    int breakdown;          /* 1: each row has "phases" (#27)             */
} gd_startup_query;

/* App launches (`godeye startup`), by trace then time: trace, app (the
 * trace's app when the tool named none), activity, kind, total_ms,
 * wait_ms, source, ts_ms, slow (at or over gd_startup_bar_ms; null when
 * the kind is unknown), graded_as, ttid_ms, ttfd_ms, activity_ms (#51:
 * the drawn activity's own time, or null); with `breakdown`,
 * "phases": its startup_phase rows as an object by phase name ({ts_ms,
 * dur_ms, slices, running_ms, runnable_ms, sleeping_ms, blocked_ms}; {}
 * for a launch not read from a trace's slices). */
int gd_query_startups(gd_store *s, const gd_startup_query *q, gd_row_fn fn, void *ctx,
                      gd_error *err);

#endif
