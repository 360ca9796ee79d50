/* query/startup.h - app launches (`godeye startup`; query/startup.c). */
#ifndef GD_QUERY_STARTUP_H
#define GD_QUERY_STARTUP_H

#include <stdint.h>

#include "query/columns.h"
#include "store/store.h"

typedef struct gd_startup_query {
    gd_filter filter;
    const char *app;        /* only this package, or NULL                 */
    const char *kind;       /* "cold", "warm", "hot" or NULL: any         */
    int breakdown;          /* 1: each row has "phases" (#27)             */
} gd_startup_query;

/* A launch's fields, declared once (query/columns.h): app the trace's app
 * when the tool named none; slow at or over gd_startup_bar_ms (null when
 * the kind is unknown) and graded_as the kind that bar is of (#27: cold for
 * an unknown kind); ttid_ms = total_ms; activity_ms (#51) the drawn
 * activity's own time, or null; phases (`breakdown` only, last): its
 * startup_phase rows as an object by phase name ({ts_ms, dur_ms, slices,
 * running_ms, runnable_ms, sleeping_ms, blocked_ms}; {} for a launch not
 * read from a trace's slices). */
#define GD_STARTUP_COLS(X, J)                                                          \
    X(ST_TRACE, "st.trace", "trace", "TRACE", INT, 0)                                  \
    X(ST_APP, "coalesce(st.app, t.app)", "app", "APP", TEXT, 0)                        \
    X(ST_ACTIVITY, "st.activity", "activity", "ACTIVITY", TEXT, GD_QC_WIDE)            \
    X(ST_KIND, "st.kind", "kind", "KIND", TEXT, 0)                                     \
    X(ST_TOTAL, "st.total_ms", "total_ms", "TOTAL MS", MS, 0)                          \
    X(ST_WAIT, "st.wait_ms", "wait_ms", "WAIT MS", MS, GD_QC_AUTO)                     \
    X(ST_SOURCE, "st.source", "source", "SOURCE", TEXT, 0)                             \
    X(ST_TS, "st.ts_ms", "ts_ms", "TIME", TIME, 0)                                     \
    X(ST_SLOW, NULL, "slow", "VITALS", TEXT, 0)                                        \
    X(ST_GRADED, NULL, "graded_as", "GRADED AS", TEXT, 0)                              \
    X(ST_TTID, "st.total_ms", "ttid_ms", "TTID MS", MS, GD_QC_HIDDEN)                  \
    X(ST_TTFD, "st.ttfd_ms", "ttfd_ms", "TTFD MS", MS, GD_QC_AUTO)                     \
    X(ST_OWN, "st.activity_ms", "activity_ms", "ACTIVITY MS", MS, GD_QC_AUTO)          \
    J(ST_PHASES, GD_STARTUP_PHASES_SQL, "phases", NULL, TEXT, GD_QC_PARSE)
/* A launch's startup_phase rows as one JSON object by phase name. */
#define GD_STARTUP_PHASES_SQL                                                                      \
    "(SELECT json_group_object(p.phase, json_object('ts_ms', round(p.ts_ms, 3),"                   \
    " 'dur_ms', round(p.dur_ms, 3), 'slices', p.slices, 'running_ms', round(p.running_ms, 3),"     \
    " 'runnable_ms', round(p.runnable_ms, 3), 'sleeping_ms', round(p.sleeping_ms, 3),"            \
    " 'blocked_ms', round(p.blocked_ms, 3))) FROM (SELECT * FROM startup_phase"                    \
    " WHERE startup = st.id ORDER BY ts_ms, id) p)"
/* The table's and csv's order. */
#define GD_STARTUP_TABLE(T)                                                                     \
    T(ST_TRACE) T(ST_TS) T(ST_APP) T(ST_KIND) T(ST_TOTAL) T(ST_SLOW) T(ST_WAIT) T(ST_SOURCE)   \
    T(ST_ACTIVITY) T(ST_GRADED) T(ST_TTID) T(ST_TTFD) T(ST_OWN)

/* App launches (`godeye startup`), by trace then time: the fields of
 * GD_STARTUP_COLS, phases only with `breakdown`. */
int gd_query_startups(gd_store *s, const gd_startup_query *q, gd_row_fn fn, void *ctx,
                      gd_error *err);

#endif
