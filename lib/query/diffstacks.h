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
/* Feeds one row of gd_query_trace_stacks (or the fleet's stack_paths) to
 * the capture being fed: its stack split at ';' (root first), its ms added
 * there, or its count counted unweighted when ms is null; a row whose
 * process is not app's (gd_app_match; app NULL: every process) is passed
 * over.  GD_OK or an error code with err set. */
int gd_ds_feed(gd_diffstacks *d, const json_t *row, const char *app, gd_error *err);
/* Counts a capture's samples that carry no time (no sampling interval). */
void gd_ds_unweighted(gd_diffstacks *d, int side, long n);
/* The key a frame is merged by: its text without the line number
 * ("a.B.c(B.java:88)" -> "a.B.c(B.java)", gd_group_of), ';' as ','. */
char *gd_ds_frame_key(const char *frame, char *buf, size_t n);

/* One trace's stacks folded (#52 item 4), the one rule of what a capture
 * gives a diff, used by the local diff and by `godeye push` (the fleet's
 * stack_paths): its method calls when it has any (self ms summed per call
 * path), else its stack samples, each weighing the trace's sampling
 * interval (trace.dump_interval_ms, else the median gap between a
 * thread's consecutive samples over the whole trace).  fn gets one row per
 * (process, path) in the order the trace first reached it: process
 * (GD_SQL_PROCESS_OF, '' unknown), source ("calls" or "samples"), stack
 * (frame keys, gd_ds_frame_key, root first, ';'-joined), ms (null: samples
 * without an interval), count (calls or samples right at that path).
 * GD_OK, GD_ERR_ABORT when fn stopped, or an error code with err set. */
int gd_query_trace_stacks(gd_store *s, int64_t trace, gd_row_fn fn, void *ctx, gd_error *err);

/* Reads both selections from the store into a new diff (*out, free with
 * gd_ds_free).  A trace with method calls gives its calls (self ms under
 * their call path: exact), else its stack samples, each weighing the
 * trace's sampling interval (trace.dump_interval_ms, else the median gap
 * between a thread's consecutive samples); a trace whose samples have no
 * interval (one dump per thread, as an ANR's) is counted as unweighted.
 * Both sides' traces are fed by content hash (gd_query_trace_stacks'
 * rows through gd_ds_feed), the order of the fleet's form.
 * GD_OK, or an error code with err set (GD_ERR_DATA past GD_DT_MAX_NODES
 * frames). */
int gd_query_diffstacks(gd_store *s, const gd_diffstacks_query *q, gd_diffstacks **out, gd_error *err);

/* Ends the feeding: normalises head to base (by capture time: × base
 * minutes / head minutes; by sample count: × base ms / head ms) and tests
 * each frame over the captures.  GD_OK or GD_ERR_DATA (time asked for a
 * side without capture time) / GD_ERR_NOMEM. */
int gd_ds_finish(gd_diffstacks *d, const gd_diffstacks_query *q, gd_error *err);

/* A frame's fields, declared once (query/columns.h): a row of gd_ds_rows
 * and a node of the summary's tree (without stack, the last: the ';'
 * joined path).  Times normalised, rounded; p_value null with too few
 * captures.  All computed. */
#define GD_DS_FRAME_COLS(X, J)                                                 \
    X(DSF_FRAME, NULL, "frame", "FRAME", TEXT, GD_QC_WIDE)                     \
    X(DSF_DEPTH, NULL, "depth", "DEPTH", INT, GD_QC_HIDDEN)                    \
    X(DSF_BASE, NULL, "base_ms", "BASE", MS, 0)                                \
    X(DSF_HEAD, NULL, "head_ms", "HEAD", MS, 0)                                \
    X(DSF_DELTA, NULL, "delta_ms", "DELTA", MS, 0)                             \
    X(DSF_BASE_SELF, NULL, "base_self_ms", "BASE SELF", MS, GD_QC_HIDDEN)      \
    X(DSF_HEAD_SELF, NULL, "head_self_ms", "HEAD SELF", MS, GD_QC_HIDDEN)      \
    X(DSF_SELF_DELTA, NULL, "self_delta_ms", "SELF DELTA", MS, 0)              \
    X(DSF_P, NULL, "p_value", "P", NUM, GD_QC_AUTO)                            \
    X(DSF_STACK, NULL, "stack", "STACK", TEXT, GD_QC_HIDDEN)
/* The table's and csv's order. */
#define GD_DS_FRAME_TABLE(T)                                                                      \
    T(DSF_DELTA) T(DSF_BASE) T(DSF_HEAD) T(DSF_SELF_DELTA) T(DSF_BASE_SELF) T(DSF_HEAD_SELF)     \
    T(DSF_P) T(DSF_DEPTH) T(DSF_FRAME) T(DSF_STACK)
/* The answer's head (godeye-diff(1), STACKS), a document (no table), its
 * keys declared once: normalised "capture time" or "sample count"; test
 * null when a side has fewer than min_captures captures; base and head
 * objects of GD_DS_SIDE_COLS; tree the top regressed paths in pre-order,
 * nodes of GD_DS_FRAME_COLS. */
#define GD_DS_SUMMARY_COLS(X, J)                                   \
    J(DSS_NORMALISED, NULL, "normalised", NULL, TEXT, 0)           \
    J(DSS_HEAD_SCALE, NULL, "head_scale", NULL, NUM, 0)            \
    J(DSS_TEST, NULL, "test", NULL, TEXT, 0)                       \
    J(DSS_ALPHA, NULL, "alpha", NULL, NUM, 0)                      \
    J(DSS_MIN_CAPTURES, NULL, "min_captures", NULL, INT, 0)        \
    J(DSS_BASE, NULL, "base", NULL, TEXT, 0)                       \
    J(DSS_HEAD, NULL, "head", NULL, TEXT, 0)                       \
    J(DSS_TREE, NULL, "tree", NULL, TEXT, 0)
/* A side of the summary: its captures, their calls, minutes of capture
 * time and ms of stacks, samples without a weight. */
#define GD_DS_SIDE_COLS(X, J)                                      \
    J(DSD_CAPTURES, NULL, "captures", NULL, INT, 0)                \
    J(DSD_CALLS, NULL, "calls", NULL, INT, 0)                      \
    J(DSD_MINUTES, NULL, "minutes", NULL, NUM, 0)                  \
    J(DSD_MS, NULL, "ms", NULL, NUM, 0)                            \
    J(DSD_UNWEIGHTED, NULL, "unweighted_samples", NULL, INT, 0)
/* The summary, the fields of GD_DS_SUMMARY_COLS.  NULL when out of
 * memory. */
json_t *gd_ds_summary(const gd_diffstacks *d);
/* One row per frame (the fields of GD_DS_FRAME_COLS; delta_ms inclusive),
 * by self delta (head − base) descending.  folded: only frames with self
 * time, in tree order. */
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
/* The end of a reading of both sides into d: when rc is GD_OK, d finished
 * (gd_ds_finish) and handed to *out; else (or when that fails) d freed.
 * Returns the outcome. */
int gd_ds_conclude(gd_diffstacks *d, const gd_diffstacks_query *q, int rc, gd_diffstacks **out, gd_error *err);

#endif
