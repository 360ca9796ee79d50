/* images.h - AndroidGodEye's image rules: oversized, undersized and invisible bitmaps.
 *
 * Pure functions over plain values (no SQL, no I/O).  Definition ("Image
 * issue"): docs/capture-format.md and godeye-capture(5), "Definitions".
 * The rules, in this order (areas in pixels, 64-bit exact):
 *
 *   view not visible                 -> INVISIBLE_BUT_MEMORY_OCCUPIED
 *   bitmap area > high × view area   -> BITMAP_QUALITY_TOO_HIGH  (high 1.5)
 *   bitmap area < low × view area    -> BITMAP_QUALITY_TOO_LOW   (low 0.5,
 *                                       i.e. 2 × bitmap area < view area)
 *   otherwise                        -> no issue
 *
 * Both comparisons are strict: exactly 1.5× or exactly 0.5× is no issue.
 * Wasted bytes = bytes per pixel × (bitmap area − view area) for TOO_HIGH
 * (0 if not positive, with a custom high below 1), bytes per pixel × bitmap
 * area for INVISIBLE, 0 for TOO_LOW and no issue. */
#ifndef GD_ANALYSIS_IMAGES_H
#define GD_ANALYSIS_IMAGES_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

#define GD_IMAGE_HIGH 1.5
#define GD_IMAGE_LOW 0.5

typedef enum gd_image_issue {
    GD_IMAGE_NONE = 0,                     /* the bitmap fits its view        */
    GD_IMAGE_INVISIBLE_BUT_MEMORY_OCCUPIED,
    GD_IMAGE_BITMAP_QUALITY_TOO_HIGH,
    GD_IMAGE_BITMAP_QUALITY_TOO_LOW,
    GD_IMAGE_MALFORMED                     /* sizes unusable: the caller skips
                                            * and counts the record          */
} gd_image_issue;

/* AndroidGodEye's name of an issue ("INVISIBLE_BUT_MEMORY_OCCUPIED",
 * "BITMAP_QUALITY_TOO_HIGH", "BITMAP_QUALITY_TOO_LOW"); NULL for
 * GD_IMAGE_NONE, GD_IMAGE_MALFORMED and out-of-range values. */
const char *gd_image_issue_name(gd_image_issue i);
/* Inverse of gd_image_issue_name; GD_IMAGE_NONE when unknown or NULL. */
gd_image_issue gd_image_issue_parse(const char *name);

/* Bytes per pixel of an android.graphics.Bitmap.Config name: ALPHA_8 1,
 * RGB_565 2, ARGB_4444 2, ARGB_8888 4, RGBA_1010102 4, RGBA_F16 8; 4 for
 * NULL, "HARDWARE" and unknown names.  Case-insensitive. */
int gd_image_bytes_per_pixel(const char *config);

/* Thresholds; NULL, or a field that is NaN or <= 0, means its default. */
typedef struct gd_image_rules {
    double high;  /* GD_IMAGE_HIGH */
    double low;   /* GD_IMAGE_LOW  */
} gd_image_rules;

typedef struct gd_image_result {
    gd_image_issue issue;
    uint64_t bitmap_area, view_area;  /* pixels (0 when malformed)         */
    int bytes_per_pixel;
    uint64_t wasted_bytes;            /* saturates at INT64_MAX (stored)   */
} gd_image_result;

/* Applies the rules to one bitmap shown by one view.  `view_visible` == 0
 * means not visible (any other value: visible).  GD_IMAGE_MALFORMED (areas
 * and wasted_bytes 0; the caller skips and counts it) when bitmap_w or
 * bitmap_h <= 0, view_w or view_h < 0, or a visible view has view_w or
 * view_h == 0 (not laid out: no ratio exists).  An invisible view may be
 * 0 × 0 (a GONE view still holds its bitmap).  Fills *out when non-NULL;
 * returns the issue. */
gd_image_issue gd_image_check(int32_t view_w, int32_t view_h, int view_visible, int32_t bitmap_w,
                              int32_t bitmap_h, const char *config, const gd_image_rules *rules,
                              gd_image_result *out);

/* gd_image_check over an image event's fields. */
gd_image_issue gd_image_check_event(const gd_image_ev *ev, const gd_image_rules *rules,
                                    gd_image_result *out);

/* De-duplication key: the same page instance, view, bitmap size and issue
 * reported again (AndroidGodEye re-reports on every layout pass) is one
 * finding.  Compare with gd_image_key_cmp, never memcmp (padding). */
typedef struct gd_image_key {
    int64_t page_hash;    /* page instance hash, -1 absent                 */
    int64_t view_hash;
    int32_t bitmap_w, bitmap_h;
    gd_image_issue issue;
} gd_image_key;

/* The key of an image event and its issue. */
gd_image_key gd_image_key_of(const gd_image_ev *ev, gd_image_issue issue);
/* Total order over keys (page_hash, view_hash, bitmap_w, bitmap_h, issue),
 * qsort/bsearch compatible (arguments are const gd_image_key *); 0 means
 * the same finding. */
int gd_image_key_cmp(const void *a, const void *b);

#endif
