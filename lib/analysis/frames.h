/* frames.h - frame-time statistics of one window: slow, frozen, percentiles, Matrix drop levels.
 *
 * A pure function over plain values (no SQL, no I/O).  Definitions (also in
 * godeye-frames(1)):
 *
 *   - interval of a frame = its vsync_ms when known and > 0, else
 *     GD_FRAME_VSYNC_MS (1000 / 60 ms, a 60 Hz display);
 *   - slow: duration > interval (at 60 Hz: > 16.67 ms; at 120 Hz: > 8.33 ms):
 *     a frame that took more than its display's refresh interval;
 *   - vitals_slow (#51): duration > GD_FRAME_VITALS_SLOW_MS (16 ms, Android
 *     vitals' slow rendering, whatever the display's rate);
 *   - frozen: duration > GD_FRAME_FROZEN_MS (700 ms, Android vitals);
 *   - dropped frames of a frame: ⌊duration / interval⌋, both taken in whole
 *     nanoseconds (Matrix FrameTracer: (int) (jitter / frameIntervalNs) with
 *     jitter = end − intended vsync, which is our duration);
 *   - drop level (Matrix DropStatus): frozen when dropped ≥ 42, high ≥ 24,
 *     middle ≥ 9, normal ≥ 3, else best;
 *   - fps (Matrix FrameCollectItem): 1000 × frames / Σ (dropped + 1) × interval,
 *     without Matrix's cap at 60. */
#ifndef GD_ANALYSIS_FRAMES_H
#define GD_ANALYSIS_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/stats.h"
#include "core/error.h"

#define GD_FRAME_VSYNC_MS (1000.0 / 60.0)
#define GD_FRAME_FROZEN_MS 700.0
#define GD_FRAME_VITALS_SLOW_MS 16.0

/* Matrix DropStatus, from the best to the worst. */
typedef enum gd_drop_level {
    GD_DROP_BEST = 0,
    GD_DROP_NORMAL,   /* dropped >= 3  */
    GD_DROP_MIDDLE,   /* dropped >= 9  */
    GD_DROP_HIGH,     /* dropped >= 24 */
    GD_DROP_FROZEN,   /* dropped >= 42 */
    GD_DROP__COUNT
} gd_drop_level;

/* "best", "normal", "middle", "high", "frozen"; NULL when out of range. */
const char *gd_drop_level_name(gd_drop_level l);
/* Matrix's report key: "DROPPED_BEST" ... "DROPPED_FROZEN"; NULL when out of range. */
const char *gd_drop_level_matrix_key(gd_drop_level l);
/* The level of a frame that dropped `dropped` frames (negative: best). */
gd_drop_level gd_drop_level_of(int64_t dropped);

/* 1 when vsync_ms is a known interval: > 0, not NaN. */
int gd_frame_vsync_known(double vsync_ms);
/* The interval used for a frame: vsync_ms when known
 * (gd_frame_vsync_known), else GD_FRAME_VSYNC_MS. */
double gd_frame_interval(double vsync_ms);
/* ⌊dur / interval⌋ on whole nanoseconds; 0 when dur is NaN or < interval. */
int64_t gd_frame_dropped(double dur_ms, double vsync_ms);
/* dur > interval. */
int gd_frame_is_slow(double dur_ms, double vsync_ms);
/* dur > GD_FRAME_VITALS_SLOW_MS (16 ms: Android vitals' slow frame). */
int gd_frame_is_vitals_slow(double dur_ms);
/* dur > GD_FRAME_FROZEN_MS. */
int gd_frame_is_frozen(double dur_ms);

/* A figure of the device's gfxinfo summary as printed: "772 (26.59%)" ->
 * 772 and, when pct is given, 26.59; "9ms" -> 9; NaN (and pct NaN) for
 * what does not read so. */
double gd_frame_figure_number(const char *v, double *pct);

/* The device's HISTOGRAM figure ("5ms=85 6ms=144 ... 4950ms=0": frames by
 * time, each bucket's printed time standing for its frames') in the terms
 * godeye ranks frames by (godeye-top(1)): frames, slow (> GD_FRAME_VSYNC_MS),
 * frozen (> GD_FRAME_FROZEN_MS) and the time lost past the 60 Hz interval,
 * Σ count × max(ms − GD_FRAME_VSYNC_MS, 0). */
typedef struct gd_frame_hist {
    int64_t frames, slow, frozen;
    double lost_ms;
} gd_frame_hist;
/* 0 with out filled; -1 when v is not such a list (a bucket that does not
 * read "<ms>ms=<count>", or none at all). */
int gd_frame_histogram(const char *v, gd_frame_hist *out);

typedef struct gd_frame_stats {
    size_t frames, slow, frozen;
    size_t vitals_slow;                 /* #51: over GD_FRAME_VITALS_SLOW_MS   */
    int64_t dropped;                    /* Σ dropped frames                  */
    size_t level[GD_DROP__COUNT];       /* frames per drop level (dropLevel) */
    int64_t level_sum[GD_DROP__COUNT];  /* dropped frames per level (dropSum) */
    /* frame time percentiles (gd_percentile, linear), max; NaN when no frames */
    double p50_ms, p90_ms, p95_ms, p99_ms, max_ms;
    double vsync_ms;  /* median of the known intervals; NaN when none known */
    double fps;       /* NaN when no frames                                 */
} gd_frame_stats;

/* gd_frame_stats of frames given one at a time (#50: a window's frames
 * are not held, however many): every frame to gd_frame_acc_add (any
 * order: the counts, drops and fps), then gd_frame_acc_ranks, then the
 * same frames' durations in ascending order to gd_frame_acc_dur (the
 * percentiles and max) and their known intervals (gd_frame_vsync_known)
 * in ascending order to gd_frame_acc_vsync (the median interval), then
 * gd_frame_acc_done. */
typedef struct gd_frame_acc {
    gd_frame_stats st;
    double cost;          /* Σ (dropped + 1) × interval, ms */
    size_t nv, di, vi;    /* known intervals added; durations, intervals given in order */
    gd_pct_stream p[4], v; /* p50, p90, p95, p99 of the durations; p50 of the intervals */
} gd_frame_acc;

void gd_frame_acc_init(gd_frame_acc *a);
/* One frame; GD_ERR_USAGE (err filled: "frame N: bad duration") when
 * dur_ms is NaN or negative. */
int gd_frame_acc_add(gd_frame_acc *a, double dur_ms, double vsync_ms, gd_error *err);
void gd_frame_acc_ranks(gd_frame_acc *a);
void gd_frame_acc_dur(gd_frame_acc *a, double dur_ms);
void gd_frame_acc_vsync(gd_frame_acc *a, double vsync_ms);
void gd_frame_acc_done(const gd_frame_acc *a, gd_frame_stats *out);

#endif
