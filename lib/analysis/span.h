/* span.h - a trace's dense span: its times less a prefix before the clock was set and lone outliers (#51).
 *
 * A pure streaming tracker (no SQL, no I/O), fed every timed event of a
 * trace by the ingest writer.  Definitions (also in godeye-traces(1)):
 *
 *   - times within GD_SPAN_GAP_MS (1 h) of each other form one cluster
 *     (at most GD_SPAN_MAX_CLUSTERS are kept: past that the two closest
 *     merge, so a long trace with many pauses is one cluster);
 *   - the main cluster holds the most events; when it holds under half of
 *     them the trace has no dense part and nothing is left out;
 *   - else a cluster other than the main one is left out when it lies
 *     before the main one, the main one is on a wall clock (past
 *     2000-01-01, not in the first hour of a 1 January: never a monotonic
 *     clock's time since boot), and it starts before the clock was set (before
 *     2000-01-01, or within the first hour of a 1 January: a phone's clock
 *     before the network set it, "01-01 00:00:54"), or when it is lone and
 *     far: at most GD_SPAN_LONE_MAX (2) events, or under
 *     GD_SPAN_OUTLIER_SHARE (1 %) of them, further from the main cluster
 *     than the main cluster is long (a 1 ms slice at t = 9e6 s beside a
 *     9 s trace);
 *   - the dense span is from the first kept time to the last kept end. */
#ifndef GD_ANALYSIS_SPAN_H
#define GD_ANALYSIS_SPAN_H

#include <stddef.h>

#define GD_SPAN_GAP_MS 3600000.0
#define GD_SPAN_MAX_CLUSTERS 32
#define GD_SPAN_OUTLIER_SHARE 0.01
#define GD_SPAN_LONE_MAX 2

typedef struct gd_span_cluster {
    double lo, hi;  /* first time, last end (ms)  */
    long n;         /* events                     */
} gd_span_cluster;

typedef struct gd_span {
    gd_span_cluster c[GD_SPAN_MAX_CLUSTERS + 1]; /* by lo; one spare while merging */
    size_t nc;
} gd_span;

/* The result: start/end NaN when no time was given; left_clock / left_lone
 * the events left out, by reason. */
typedef struct gd_span_result {
    double start_ms, end_ms;
    long left_clock, left_lone;
} gd_span_result;

void gd_span_init(gd_span *s);
/* One event from ts to end (end >= ts; end = ts for an instant). */
void gd_span_add(gd_span *s, double ts, double end);
/* The dense span of what was added. */
gd_span_result gd_span_finish(const gd_span *s);

#endif
