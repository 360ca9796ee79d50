/* blocks.h - block intervals: Looper print pairing, key frames, groups, CPU busy.
 *
 * Pure functions over plain values (no SQL, no I/O): the store feeds them
 * rows and saves what they return.  Definitions: docs/capture-format.md
 * ("Definitions the analyses share") and godeye-capture(5). */
#ifndef GD_ANALYSIS_BLOCKS_H
#define GD_ANALYSIS_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

/* Default thresholds (ms): AndroidGodEye's long default, Android's ANR limit. */
#define GD_SHORT_MS 100.0
#define GD_LONG_MS 500.0
#define GD_ANR_MS 5000.0

/* A trace's block thresholds. */
typedef struct gd_thresholds {
    double short_ms, long_ms, anr_ms;
} gd_thresholds;

/* The one home of the defaults: each threshold as given (a capture's own),
 * or its default when NaN. */
gd_thresholds gd_thresholds_resolve(double short_ms, double long_ms, double anr_ms);

typedef enum { GD_KIND_NONE = 0, GD_KIND_SHORT, GD_KIND_LONG, GD_KIND_ANR } gd_block_kind;

/* Kind of a dispatch of `dur_ms`: ANR at or past anr_ms, long at or past
 * long_ms, short at or past short_ms, else NONE. */
gd_block_kind gd_block_kind_of(double dur_ms, double short_ms, double long_ms, double anr_ms);
const char *gd_block_kind_name(gd_block_kind k); /* "short", "long", "anr", NULL */
/* Kind of a dispatch already taken as a block (any threshold): ANR at or
 * past anr_ms, long at or past long_ms, short otherwise. */
gd_block_kind gd_block_kind_at(double dur_ms, double long_ms, double anr_ms);
/* Parses "short"/"long"/"anr"; GD_KIND_NONE when unknown. */
gd_block_kind gd_block_kind_parse(const char *s);

/* ---- the Looper's printer lines ------------------------------------------ */

/* The phase a printer line's prefix gives: ">>>>>" BEGIN, "<<<<<" END,
 * anything else UNKNOWN. */
gd_phase gd_looper_prefix(const char *msg);
/* The same for a line of n bytes that must carry the printer's words too
 * (">>>>> Dispatching to ", "<<<<< Finished to "): how logcat knows a
 * printer line under any tag. */
gd_phase gd_looper_line(const char *msg, size_t n);
/* Splits ">>>>> Dispatching to Handler (H) {hash} CALLBACK: WHAT" (or its
 * "<<<<< Finished to" twin) into handler "H", callback and what, each
 * written into an n-byte buffer (empty when absent; a "null" callback is
 * empty). */
void gd_looper_msg_parse(const char *msg, char *handler, char *callback, char *what, size_t n);

/* ---- pairing of Looper prints, one thread at a time ---------------------- */

#define GD_PAIR_MAX_DEPTH 32

typedef struct gd_pair_open {
    double ts, thread_ts;
    int64_t msg;        /* caller's handle for the begin print's text, -1 none */
} gd_pair_open;

/* Pairing state of one thread.  Prints must be fed in time order.  Begins
 * nest (a nested Looper.loop()): an end closes the most recent open begin. */
typedef struct gd_pair {
    gd_pair_open open[GD_PAIR_MAX_DEPTH];
    int depth;
    long ends_without_begin;   /* counted and dropped                     */
    long begins_dropped;       /* nesting past GD_PAIR_MAX_DEPTH          */
} gd_pair;

typedef struct gd_paired {
    double start, end, thread_ms; /* thread_ms NONE when unknown          */
    int64_t msg;
    int unfinished;
} gd_paired;

void gd_pair_init(gd_pair *p);
/* The phase of a print: explicit, else from the ">>>>>"/"<<<<<" prefix of
 * msg (gd_looper_prefix), else alternating (END when a begin is open, BEGIN otherwise). */
gd_phase gd_pair_phase(const gd_pair *p, gd_phase given, const char *msg);
/* Feeds one print.  Returns 1 and fills *out when it completed a dispatch,
 * 0 otherwise (a begin, or an end without begin, which is counted). */
int gd_pair_feed(gd_pair *p, gd_phase phase, double ts, double thread_ts, int64_t msg,
                 gd_paired *out);
/* Pops one still-open begin as an unfinished dispatch ending at `capture_end`.
 * Returns 0 when none is left. */
int gd_pair_finish(gd_pair *p, double capture_end, gd_paired *out);

/* ---- key frame and group ------------------------------------------------ */

/* One stack sample: frames innermost first. */
typedef struct gd_sample_frames {
    const char *const *frames;
    size_t n;
} gd_sample_frames;

/* 1 when `frame` ("pkg.Class.method(File:line)") belongs to a framework
 * package (java., javax., android., androidx., com.android., dalvik.,
 * libcore., sun., kotlin., kotlinx., com.google.android.). */
int gd_frame_is_framework(const char *frame);
/* 1 when `frame` is a native frame ("native:<library>(<symbol>)", as the
 * ANR and profiler readers name them). */
int gd_frame_is_native(const char *frame);
/* 1 when `frame` is the app's: neither native nor of a framework package
 * (the one definition of an app frame: key frames, ANR types and
 * signatures). */
int gd_frame_is_app(const char *frame);
/* 1 when `frame` starts with one of the ncon non-empty prefixes `concern`
 * (the concern packages of a trace). */
int gd_frame_is_concern(const char *frame, const char *const *concern, size_t ncon);

/* The key frame of a block: the frame appearing in the most samples,
 * counting only frames starting with one of `concern` (a frame counts once
 * per sample); ties go to the innermost (smallest index from the innermost
 * frame over all samples), then the lexicographically smaller.  With no
 * concern frame, the same rule over app frames (gd_frame_is_app); with only
 * framework and native frames, or no samples, NULL.  Returns a pointer into `samples` (borrowed).  `ncon` == 0 means no concern packages. */
const char *gd_key_frame(const gd_sample_frames *samples, size_t nsamples,
                         const char *const *concern, size_t ncon);

/* The same rule over samples fed one at a time (memory grows with the
 * distinct frames, not with the samples): gd_kf_add copies what it keeps;
 * gd_kf_result is valid until gd_kf_free and is NULL when out of memory
 * (gd_kf_add then returned -1). */
typedef struct gd_kf_acc gd_kf_acc;
gd_kf_acc *gd_kf_new(const char *const *concern, size_t ncon);
int gd_kf_add(gd_kf_acc *a, const char *const *frames, size_t n);
/* The same, a frame at a time: gd_kf_next_sample opens a sample, then each
 * of its frames with its position j from the innermost (gd_kf_add is these
 * two in a loop). */
void gd_kf_next_sample(gd_kf_acc *a);
int gd_kf_add_frame(gd_kf_acc *a, const char *frame, size_t j);
const char *gd_kf_result(const gd_kf_acc *a);
void gd_kf_free(gd_kf_acc *a);

/* The group of a key frame: the frame with its line number removed
 * ("a.B.c(B.java:88)" -> "a.B.c(B.java)").  Writes into buf; returns buf. */
char *gd_group_of(const char *key_frame, char *buf, size_t n);

/* Which rule named a block's group (block.grp_rule): the key frame (the
 * dominant sampled app frame), the Looper message's handler and callback,
 * the slice or message name without its volatile numbers, or none. */
typedef enum {
    GD_GROUP_NONE = 0,
    GD_GROUP_KEY_FRAME,
    GD_GROUP_HANDLER,
    GD_GROUP_SLICE
} gd_group_rule;

/* "key_frame", "handler", "slice"; NULL for GD_GROUP_NONE. */
const char *gd_group_rule_name(gd_group_rule r);

/* The group of a block without a key frame, from its Looper message or
 * slice name `msg` (NULL: none), in this order:
 *  - the handler and callback class of a Looper message, without the
 *    object's @hash: ">>>>> Dispatching to Handler (H) {..} C@1a2b: 0" and
 *    "Slow dispatch took 135ms main h=H c=C@1a2b m=0" both give "h=H c=C";
 *    a message without callback gives "h=H m=WHAT" (the what code tells an
 *    ActivityThread$H message from another; Slow Looper's "w=WHAT)" too);
 *  - else the name with every number-only word left out ("DrawFrame 123"
 *    -> "DrawFrame", "Slow Looper main: doFrame is 351ms late" -> "Slow
 *    Looper main: doFrame is late"): GD_GROUP_SLICE;
 *  - else nothing (GD_GROUP_NONE, buf empty). */
gd_group_rule gd_group_fallback(const char *msg, char *buf, size_t n);

/* ---- CPU busy ----------------------------------------------------------- */

/* One CPU sample: raw counters (has_raw) or a utilisation ratio 0..1. */
typedef struct gd_cpu_point {
    double ts;
    int has_raw;
    uint64_t busy, total;  /* cumulative jiffies (raw)                     */
    double ratio;          /* device utilisation ratio, NONE when unknown  */
} gd_cpu_point;

/* CPU busy of a block [start, end] (docs/capture-format.md).  `pts` sorted by ts: the
 * capture's samples from start − interval to end (the caller may pass more).
 * With >= 2 samples inside [start, end]: Δbusy/Δtotal between the first and
 * the last (raw), or for ratio samples (each the utilisation of the interval
 * ending at it) the time-weighted mean of the ratios after the first;
 * >= 0.8 -> 1, else 0; no utilisation between them (raw totals that did not
 * grow, no ratios) -> -1.  With fewer than two samples inside and
 * end − start > interval, BlockCanary's rule: two consecutive samples both
 * within (start − interval, start + interval) more than 1.2 × interval apart
 * -> 1 (the sampler was starved), no such pair but a sample in that window
 * -> 0 (a window without any sample, as in a capture without CPU samples,
 * says nothing).  Otherwise -1 (unknown).  interval <= 0 or NaN disables
 * the second rule. */
int gd_cpu_busy_of(const gd_cpu_point *pts, size_t n, double start, double end, double interval);

#endif
