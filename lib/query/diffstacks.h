/* query/diffstacks.h - `godeye diff --stacks` (#52): the stack samples and
 * method calls of two selections merged into one tree, frame by frame. */
#ifndef GD_QUERY_DIFFSTACKS_H
#define GD_QUERY_DIFFSTACKS_H

#include "query/diff.h"

typedef enum { GD_DS_NORM_AUTO = 0, GD_DS_NORM_TIME, GD_DS_NORM_SAMPLES } gd_ds_norm;

typedef struct gd_diffstacks_query {
    const gd_selection *base, *head; /* from gd_query_select (app honoured) */
    double alpha;        /* significance level (NAN: 0.01)                  */
    long min_samples;    /* fewest captures per side for the test (<0: 5)   */
    gd_ds_norm norm;     /* AUTO: capture time when every trace of both     *
                          * sides has one, else sample count               */
    long top;            /* frames in the tree of regressed paths (<1: 10)  */
} gd_diffstacks_query;

typedef struct gd_diffstacks gd_diffstacks;

/* One capture's stacks fed to a diff (a source other than the store, e.g.
 * a fleet): gd_ds_begin, then each stack's self ms under its frames (root
 * first, keys as gd_ds_frame_key makes them), then gd_ds_end. */
gd_diffstacks *gd_ds_new(void);
int gd_ds_begin(gd_diffstacks *d, int side, double minutes, int calls);
int gd_ds_add(gd_diffstacks *d, const char *const *frames, size_t n, double ms, gd_error *err);
int gd_ds_end(gd_diffstacks *d, gd_error *err);
/* Counts a capture's samples that carry no time (no sampling interval). */
void gd_ds_unweighted(gd_diffstacks *d, int side, long n);
/* The key a frame is merged by: its text without the line number
 * ("a.B.c(B.java:88)" -> "a.B.c(B.java)", gd_group_of), ';' as ','. */
char *gd_ds_frame_key(const char *frame, char *buf, size_t n);

/* Reads both selections from the store into a new diff (*out, free with
 * gd_ds_free).  A trace with method calls gives its calls (self ms under
 * their call path: exact), else its stack samples, each weighing the
 * trace's sampling interval (trace.dump_interval_ms, else the median gap
 * between a thread's consecutive samples); a trace whose samples have no
 * interval (one dump per thread, as an ANR's) is counted as unweighted.
 * GD_OK, or an error code with err set (GD_ERR_DATA past GD_DT_MAX_NODES
 * frames). */
int gd_query_diffstacks(gd_store *s, const gd_diffstacks_query *q, gd_diffstacks **out, gd_error *err);

/* Ends the feeding: normalises head to base (by capture time: × base
 * minutes / head minutes; by sample count: × base ms / head ms) and tests
 * each frame over the captures.  GD_OK or GD_ERR_DATA (time asked for a
 * side without capture time) / GD_ERR_NOMEM. */
int gd_ds_finish(gd_diffstacks *d, const gd_diffstacks_query *q, gd_error *err);

/* The answer's head (godeye-diff(1), STACKS): normalised ("capture time" or
 * "sample count"), head_scale, test, alpha, min_captures, base and head
 * {captures, calls, minutes, ms, unweighted_samples}, and tree: the top
 * regressed paths in pre-order, each {depth, frame, base_ms, head_ms,
 * delta_ms, self_delta_ms, p_value}.  NULL when out of memory. */
json_t *gd_ds_summary(const gd_diffstacks *d);
/* One row per frame, by self delta (head − base) descending: stack (';'
 * joined), frame, depth, base_ms, head_ms, delta_ms (inclusive),
 * base_self_ms, head_self_ms, self_delta_ms, p_value (null: too few
 * captures).  folded: only frames with self time, in tree order. */
int gd_ds_rows(const gd_diffstacks *d, int folded, gd_row_fn fn, void *ctx, gd_error *err);
/* The merged tree for a drawing (the report's differential flame graph):
 * nested {name, base, head (ms, normalised), children}, the root named
 * "all"; frames under `prune` of the larger side's total and those deeper
 * than max_depth left out (the root's "cut" counts the frames left out).
 * NULL when out of memory. */
json_t *gd_ds_flame(const gd_diffstacks *d, double prune, int max_depth);
/* The report's comparison of two selections (all processes): the flame of
 * gd_ds_flame(0.005, 64) with "normalised"; *out NULL when neither side
 * has stacks.  GD_OK or an error code with err set. */
int gd_query_diffstacks_flame(gd_store *s, const gd_selection *base, const gd_selection *head, json_t **out,
                              gd_error *err);
void gd_ds_free(gd_diffstacks *d);

#endif
