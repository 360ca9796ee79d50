/* top.h - what to fix first: one ranked list across ANRs, block groups,
 * startups, frames and lock contention, by the time users lost. */
#ifndef GD_QUERY_TOP_H
#define GD_QUERY_TOP_H

#include <jansson.h>

#include "query/columns.h"
#include "store/store.h"

/* An entry's fields, declared once (query/columns.h), all computed; the
 * one shape of every kind (godeye-top(1) OUTPUT): evidence holds what is
 * the kind's own; anr_rank ({main_deadlock, record, user_perceived,
 * blocked_ms, seq}: how ANRs rank among themselves) only on the ANRs (tier
 * 0), focus only under the default focus (gd_top_build_focus). */
#define GD_TOP_COLS(X, J)                                                          \
    X(TP_KIND, NULL, "kind", "KIND", TEXT, 0)                                      \
    X(TP_TIER, NULL, "tier", "TIER", INT, GD_QC_HIDDEN)                            \
    X(TP_SCORE, NULL, "score_ms_per_min", "MS/MIN", NUM, 0)                        \
    X(TP_CAPTURE, NULL, "capture_min", "CAPTURE MIN", NUM, GD_QC_HIDDEN)           \
    X(TP_TRACE, NULL, "trace", "TRACE", INT, GD_QC_AUTO)                           \
    X(TP_TITLE, NULL, "title", "WHAT", TEXT, GD_QC_WIDE)                           \
    X(TP_EVIDENCE, NULL, "evidence", "EVIDENCE", TEXT, GD_QC_HIDDEN)               \
    X(TP_COMMAND, NULL, "command", "MORE", TEXT, 0)                                \
    X(TP_PROCESS, NULL, "process", "PROCESS", TEXT, GD_QC_HIDDEN)                  \
    J(TP_ANR_RANK, NULL, "anr_rank", NULL, TEXT, 0)                                \
    X(TP_FOCUS, NULL, "focus", "FOCUS", TEXT, GD_QC_HIDDEN)                        \
    X(TP_RANK, NULL, "rank", "#", INT, 0)
/* The table's and csv's order: the rank first; PROCESS and FOCUS last
 * (#47: csv readers count columns). */
#define GD_TOP_TABLE(T)                                                                          \
    T(TP_RANK) T(TP_KIND) T(TP_SCORE) T(TP_TRACE) T(TP_TITLE) T(TP_COMMAND) T(TP_TIER) T(TP_CAPTURE) \
    T(TP_EVIDENCE) T(TP_PROCESS) T(TP_FOCUS)

/* How many entries gd_top_build keeps (the rest are counted in "more"). */
#define GD_TOP_MAX 50

/* Builds the ranked list over the traces of `f` (see godeye-top(1), SCORING):
 * an object {minutes, entries: [GD_TOP_COLS], more}.  ANRs come first (tier 0, the
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
