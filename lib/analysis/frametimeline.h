/* frametimeline.h - Perfetto FrameTimeline jank: the names of the jank_type
 * bits, the jank tag of a surface or display frame, and the counts of one
 * window.
 *
 * Pure functions over plain values.  Definitions, as Perfetto's trace
 * processor has them (frame_timeline_event_parser.cc, FrameTimelineEvent in
 * frameworks_native_trace_packet.proto; also in godeye-frames(1)):
 *
 *   - jank_type is a bitmask: 1 JANK_NONE, 2 SurfaceFlinger Scheduling,
 *     4 Prediction Error, 8 Display HAL, 16 SurfaceFlinger CPU Deadline
 *     Missed, 32 SurfaceFlinger GPU Deadline Missed, 64 App Deadline Missed,
 *     128 Buffer Stuffing, 256 Unknown Jank, 512 SurfaceFlinger Stuffing,
 *     1024 Dropped Frame, 2048 Non Animating, 4096 App Resynced Jitter,
 *     8192 Display not ON, 16384 ModeChange in progress, 32768
 *     PowerModeChange in progress; 0 is JANK_UNSPECIFIED;
 *   - the jank tag (Perfetto's "Jank tag" arg), first match wins:
 *     Unspecified (0); Self Jank (App Deadline Missed, App Resynced Jitter
 *     or Unknown); Other Jank (SurfaceFlinger Scheduling / CPU / GPU,
 *     Prediction Error, Display HAL); Buffer Stuffing (exactly 128);
 *     SurfaceFlinger Stuffing (exactly 512); Dropped Frame (present type
 *     dropped); Non-perceivable Jank (exactly 2048, 8192 or 32768); else
 *     No Jank;
 *   - janky (Perfetto's android_frame_timeline_metric "missed frame"): an
 *     app bit (App Deadline Missed, App Resynced Jitter), a compositor bit
 *     (SurfaceFlinger Scheduling / CPU / GPU Deadline Missed, Prediction
 *     Error, Display HAL) or Dropped Frame; so Buffer Stuffing or
 *     SurfaceFlinger Stuffing alone, None and the non-perceivable bits
 *     (Non Animating, Display not ON, ModeChange / PowerModeChange in
 *     progress) are not jank;
 *   - app-caused ("missed_app_frames"): an app bit; compositor-caused
 *     ("missed_sf_frames"): a compositor bit (SurfaceFlinger stuffing alone
 *     is neither, and never the app's);
 *   - dropped: the Dropped Frame bit; a dropped frame's duration means
 *     nothing (the metric leaves it out of the duration figures). */
#ifndef GD_ANALYSIS_FRAMETIMELINE_H
#define GD_ANALYSIS_FRAMETIMELINE_H

#include <stddef.h>
#include <stdint.h>

#define GD_FT_JANK_NONE 1
#define GD_FT_PRESENT_DROPPED 4
/* jank_type's Dropped Frame bit: the frame never reached the screen, its
 * duration means nothing (gd_ft_is_dropped; GD_SQL_FRAME_TIMED, query/frames.h) */
#define GD_FT_JANK_DROPPED 1024
#define GD_FT_NBITS 16 /* named bits 0..15 (bit 0 is JANK_NONE) */

typedef enum gd_ft_tag {
    GD_FT_TAG_UNSPECIFIED = 0,
    GD_FT_TAG_NONE,
    GD_FT_TAG_SELF,
    GD_FT_TAG_OTHER,
    GD_FT_TAG_BUFFER_STUFFING,
    GD_FT_TAG_SF_STUFFING,
    GD_FT_TAG_DROPPED,
    GD_FT_TAG_NON_PERCEIVABLE,
    GD_FT_TAG__COUNT
} gd_ft_tag;

/* Perfetto's name of jank bit `bit` (0..GD_FT_NBITS-1: "None",
 * "SurfaceFlinger Scheduling", ...); NULL for a bit Perfetto has no name for. */
const char *gd_ft_jank_bit_name(int bit);
/* Perfetto's name of a tag ("Self Jank", ...); NULL when out of range. */
const char *gd_ft_tag_name(gd_ft_tag t);
/* The tag of a surface frame of jank_type `jank` and present type `present`
 * (-1: not given). */
gd_ft_tag gd_ft_tag_of(int64_t jank, int64_t present);
/* The tag of a display frame (SurfaceFlinger's own) of jank_type `jank`, as
 * Perfetto tags one: Unspecified (0); Self Jank (a SurfaceFlinger
 * Scheduling / CPU / GPU Deadline Missed, Prediction Error or Display HAL
 * bit, unless exactly None, Non Animating or Display not ON); SurfaceFlinger
 * Stuffing (exactly 512); Dropped Frame (exactly 1024); Non-perceivable Jank
 * (exactly 2048, 8192 or 32768); else No Jank. */
gd_ft_tag gd_ft_display_tag_of(int64_t jank);
/* 1 when a frame of jank_type `jank` is janky, app-caused,
 * compositor-caused, dropped (see above). */
int gd_ft_is_janky(int64_t jank);
int gd_ft_is_app(int64_t jank);
int gd_ft_is_compositor(int64_t jank);
int gd_ft_is_dropped(int64_t jank);

/* The counts of one window's FrameTimeline frames. */
typedef struct gd_ft_stats {
    size_t frames, janky, app, compositor;
    size_t dropped;                 /* gd_ft_is_dropped frames                */
    size_t unspecified;             /* frames of jank_type 0 (Unspecified)     */
    size_t tag[GD_FT_TAG__COUNT];   /* frames per tag                         */
    size_t bit[GD_FT_NBITS];        /* frames with each named bit (bit 0: none) */
    size_t other_bits;              /* frames with a bit Perfetto does not name */
} gd_ft_stats;

/* Adds one surface frame to s. */
void gd_ft_stats_add(gd_ft_stats *s, int64_t jank, int64_t present);
/* Adds one display frame to s (its tag: gd_ft_display_tag_of; janky,
 * compositor-caused and dropped as a surface frame's). */
void gd_ft_stats_add_display(gd_ft_stats *s, int64_t jank);

#endif
