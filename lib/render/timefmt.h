/* timefmt.h - how a time is shown to people: the one rule used by tables,
 * Markdown and the HTML report.
 *
 * Stored times are epoch-like milliseconds whatever the capture's clock
 * (the JSON output keeps them as they are).  What they mean depends on the
 * trace's clock (gd_meta.clock, the trace table's `clock` column):
 *
 *   monotonic  time since boot (Chrome JSON, gfxinfo, systrace): shown as an
 *              offset from the trace's start, "+12.345s"; no zone.
 *   utc        real instants (epoch ms): "MM-DD HH:MM:SS.mmm" in the display
 *              zone — --tz when given, else the capture's own zone when
 *              known, else UTC — labelled "UTC" or "+02:00".
 *   local      the device's wall clock read without a zone (logcat, ANR
 *              dump times), stored as if it were UTC.  With the capture's
 *              own zone known (utc_offset_min) it is an instant and is shown
 *              like utc; otherwise it is shown as recorded, without a zone
 *              label, and --tz does not change it (its zone is unknown).
 *   unknown    (NULL: the reader could not tell) shown like local without
 *              a zone.
 */
#ifndef GD_RENDER_TIMEFMT_H
#define GD_RENDER_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    GD_CLOCK_UNKNOWN = 0,
    GD_CLOCK_UTC,
    GD_CLOCK_LOCAL,
    GD_CLOCK_MONOTONIC
} gd_clock_kind;

/* "utc", "local", "monotonic" -> the kind; anything else (NULL too) -> UNKNOWN. */
gd_clock_kind gd_clock_kind_parse(const char *s);

/* What a trace's times are. */
typedef struct gd_clock {
    gd_clock_kind kind;
    double origin_ms;        /* the trace's start: monotonic offsets count  *
                              * from it (NaN: from 0, i.e. since boot)      */
    int64_t utc_offset_min;  /* the capture's own zone, INT64_MIN unknown   */
} gd_clock;

/* A clock of unknown kind (times shown as recorded, no zone). */
gd_clock gd_clock_unknown(void);

/* No display zone given (no --tz): GD_TZ_NONE. */
#define GD_TZ_NONE INT32_MIN

/* Parses a display zone: "UTC", "Z" or "GMT" (0), "+HH:MM", "-HH:MM",
 * "+HHMM", "+HH" (minutes east of UTC, at most 18 hours).  0 and *out_min
 * set, or -1 when `s` is none of these. */
int gd_tz_parse(const char *s, int *out_min);

/* Longest zone label plus its NUL ("UTC", "+05:30", "-10:00"). */
#define GD_ZONE_MAX 8

/* The rule.  Writes the text of time `ms` of a trace with clock `c`
 * (NULL = unknown) shown in display zone `tz_min` (GD_TZ_NONE when not
 * given) to buf, and its zone label to `zone` ("" when it has none:
 * monotonic offsets, wall clocks of unknown zone).  Returns buf, or NULL
 * (buf untouched, zone "") when ms is not a number this rule can show
 * (NaN, or more than about 950 years from 1970 for calendar times). */
const char *gd_time_text(double ms, const gd_clock *c, int tz_min, char *buf, size_t n,
                         char zone[GD_ZONE_MAX]);

/* The same text with its zone label after a space, for places without a
 * column header to carry it ("05-12 10:11:12.345 UTC", "+1.500s").
 * "-" when gd_time_text cannot show ms. */
const char *gd_time_label(double ms, const gd_clock *c, int tz_min, char *buf, size_t n);

#endif
