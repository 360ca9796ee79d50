/* overdraw.h - exact overdraw of one view dump: paint counts, overdrawn areas, depth.
 *
 * A pure function over a plain array of views (no SQL, no I/O).  Definition
 * ("Overdraw"): docs/capture-format.md and godeye-capture(5), "Definitions".
 *
 *   - effective rect of a view = its rect ∩ every ancestor's rect ∩ the screen;
 *   - a view with visible == 0 hides itself and its whole subtree;
 *   - paint count of a pixel = Σ layers of the visible views whose effective
 *     rect covers it (layers < 0, "unknown", counts as 0);
 *   - overdraw times = paint count − 1; only pixels painted 2 times or more
 *     are overdrawn.
 *
 * Depth: a root (parent == 0) has depth 1, its children depth 2, and so on.
 *
 * Malformed views are skipped, counted by reason, and the dump is flagged
 * `broken`; everything else is still computed on the valid part.  Cost is
 * O(n log n) for the tree plus O((n + k) log n) for the sweep, where k is the
 * number of uniform overdrawn runs reported (the output size): never
 * quadratic in the number of views for realistic dumps. */
#ifndef GD_ANALYSIS_OVERDRAW_H
#define GD_ANALYSIS_OVERDRAW_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/event.h"

/* AndroidGodEye's viewCanary default (meta.config.max_depth). */
#define GD_OVERDRAW_DEFAULT_MAX_DEPTH 10

/* Why a view was skipped.  A view's own defect wins over an inherited one. */
typedef enum gd_overdraw_skip {
    GD_OVERDRAW_SKIP_DUPLICATE_ID = 0, /* id already used by an earlier view: the
                                        * first one wins, children attach to it */
    GD_OVERDRAW_SKIP_BAD_RECT,         /* rect right < left or bottom < top     */
    GD_OVERDRAW_SKIP_NO_PARENT,        /* parent id (non-zero) not in the dump  */
    GD_OVERDRAW_SKIP_CYCLE,            /* on a cycle of parent links            */
    GD_OVERDRAW_SKIP_ORPHAN,           /* below a skipped view (or a cycle)     */
    GD_OVERDRAW_SKIP__COUNT
} gd_overdraw_skip;

/* Stable short name of a skip reason ("duplicate id", "bad rect",
 * "missing parent", "parent cycle", "under a skipped view"); NULL when out
 * of range. */
const char *gd_overdraw_skip_name(gd_overdraw_skip r);

/* Index of the px[] buckets: overdrawn exactly 1, 2, 3 times, 4 times or more. */
enum { GD_OVERDRAW_1X = 0, GD_OVERDRAW_2X, GD_OVERDRAW_3X, GD_OVERDRAW_4PLUS, GD_OVERDRAW_NBUCKETS };

/* One rectangle of uniformly overdrawn pixels. */
typedef struct gd_overdraw_area {
    int32_t rect[4];   /* l, t, r, b; r/b exclusive; never empty             */
    int64_t times;     /* exact overdraw times (paint count − 1), >= 1       */
} gd_overdraw_area;

typedef struct gd_overdraw_opts {
    int32_t screen_w, screen_h; /* <= 0 (either): unknown, see gd_overdraw.screen */
    int64_t max_depth;          /* <= 0: GD_OVERDRAW_DEFAULT_MAX_DEPTH          */
    size_t max_areas;           /* 0: no limit; else keep at most this many
                                 * areas (areas_truncated = 1); px, ratio stay exact */
} gd_overdraw_opts;

typedef struct gd_overdraw {
    /* The screen rect used: [0, 0, w, h] when known, else the union of the
     * rects of the valid root views ([0,0,0,0] when there are none). */
    int32_t screen[4];
    int screen_known;

    uint64_t px[GD_OVERDRAW_NBUCKETS]; /* overdrawn pixels by times bucket     */
    uint64_t overdrawn_px;             /* Σ px[]                                */
    /* Σ area × times / screen area (0 when the screen is empty). */
    double ratio;

    /* Disjoint rectangles covering exactly the overdrawn pixels, sorted by
     * top then left.  Merged to stay small: within one x-slab (between two
     * consecutive view edges) vertically adjacent cells with the same times
     * form one run, and a run that continues unchanged (same top, bottom and
     * times) across consecutive slabs is one rectangle.  Owned: freed by
     * gd_overdraw_free. */
    gd_overdraw_area *areas;
    size_t nareas;
    int areas_truncated;               /* opts.max_areas was reached            */

    size_t views;                      /* valid views (n − Σ skipped)           */
    int64_t max_depth;                 /* deepest valid view, root = 1; 0 none  */
    int64_t max_depth_limit;           /* the limit used (opts or default)      */
    /* Ids of the valid views deeper than the limit, in input order.  Owned. */
    int64_t *deep_ids;
    size_t ndeep;

    size_t skipped[GD_OVERDRAW_SKIP__COUNT];
    int broken;                        /* any view skipped                      */
    const char *broken_reason;         /* gd_overdraw_skip_name of the first
                                        * reason (enum order) with a count, or NULL */
} gd_overdraw;

/* Computes the overdraw of `n` views (any order; parents need not come
 * before children).  `opts` may be NULL (all defaults, screen unknown).
 * Fills *out (which needs no initialisation) and returns GD_OK; malformed
 * views are not an error (see skipped/broken).  On failure (GD_ERR_IO "out
 * of memory"; GD_ERR_USAGE for views == NULL with n > 0 or out == NULL)
 * fills err and leaves *out empty (safe to gd_overdraw_free). */
int gd_overdraw_compute(const gd_view *views, size_t n, const gd_overdraw_opts *opts,
                        gd_overdraw *out, gd_error *err);

/* Releases what gd_overdraw_compute allocated and empties *o.  Safe on NULL
 * and on an already freed or failed result. */
void gd_overdraw_free(gd_overdraw *o);

#endif
