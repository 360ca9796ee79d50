/* timefmt.c - the one rule for showing a time to people (see timefmt.h). */
#include "render/timefmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Past about ±950 years around 1970 a calendar time is not a time. */
#define GD_TIME_RANGE_MS 3e13

gd_clock_kind gd_clock_kind_parse(const char *s)
{
    if (!s)
        return GD_CLOCK_UNKNOWN;
    if (strcmp(s, "utc") == 0)
        return GD_CLOCK_UTC;
    if (strcmp(s, "local") == 0)
        return GD_CLOCK_LOCAL;
    if (strcmp(s, "monotonic") == 0)
        return GD_CLOCK_MONOTONIC;
    return GD_CLOCK_UNKNOWN;
}

gd_clock gd_clock_unknown(void)
{
    gd_clock c = {GD_CLOCK_UNKNOWN, NAN, INT64_MIN};
    return c;
}

static int digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

int gd_tz_parse(const char *s, int *out_min)
{
    if (!s)
        return -1;
    if (strcmp(s, "UTC") == 0 || strcmp(s, "utc") == 0 || strcmp(s, "Z") == 0 ||
        strcmp(s, "GMT") == 0) {
        *out_min = 0;
        return 0;
    }
    if (s[0] != '+' && s[0] != '-')
        return -1;
    int sign = s[0] == '-' ? -1 : 1, h, m = 0;
    const char *p = s + 1;
    size_t len = strlen(p);
    if (len == 2 && digits(p, 2)) {                                   /* +HH    */
        h = (p[0] - '0') * 10 + (p[1] - '0');
    } else if (len == 4 && digits(p, 4)) {                            /* +HHMM  */
        h = (p[0] - '0') * 10 + (p[1] - '0');
        m = (p[2] - '0') * 10 + (p[3] - '0');
    } else if (len == 5 && digits(p, 2) && p[2] == ':' && digits(p + 3, 2)) { /* +HH:MM */
        h = (p[0] - '0') * 10 + (p[1] - '0');
        m = (p[3] - '0') * 10 + (p[4] - '0');
    } else {
        return -1;
    }
    if (m > 59 || h * 60 + m > 18 * 60)
        return -1;
    *out_min = sign * (h * 60 + m);
    return 0;
}

static void zone_of(int64_t off_min, char zone[GD_ZONE_MAX])
{
    if (off_min == 0) {
        snprintf(zone, GD_ZONE_MAX, "UTC");
        return;
    }
    int64_t a = off_min < 0 ? -off_min : off_min;
    snprintf(zone, GD_ZONE_MAX, "%c%02d:%02d", off_min < 0 ? '-' : '+', (int)(a / 60 % 100),
             (int)(a % 60));
}

/* "MM-DD HH:MM:SS.mmm" of ms read as UTC; NULL when out of range. */
static const char *calendar(double ms, char *buf, size_t n)
{
    if (!(fabs(ms) < GD_TIME_RANGE_MS))
        return NULL;
    time_t secs = (time_t)floor(ms / 1000.0);
    struct tm tm;
    if (!gmtime_r(&secs, &tm))
        return NULL;
    int milli = (int)floor(ms - (double)secs * 1000.0);
    if (milli > 999) /* rounding of huge values */
        milli = 999;
    snprintf(buf, n, "%02d-%02d %02d:%02d:%02d.%03d", tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
             tm.tm_min, tm.tm_sec, milli);
    return buf;
}

const char *gd_time_text(double ms, const gd_clock *c, int tz_min, char *buf, size_t n,
                         char zone[GD_ZONE_MAX])
{
    zone[0] = 0;
    if (isnan(ms) || n == 0)
        return NULL;
    gd_clock_kind kind = c ? c->kind : GD_CLOCK_UNKNOWN;
    int64_t own = c ? c->utc_offset_min : INT64_MIN;
    /* an own zone outside ±18 h is not a zone */
    if (own != INT64_MIN && (own > 18 * 60 || own < -18 * 60))
        own = INT64_MIN;

    if (kind == GD_CLOCK_MONOTONIC) {
        double d = ms - (c && !isnan(c->origin_ms) ? c->origin_ms : 0.0);
        if (!(fabs(d) < GD_TIME_RANGE_MS))
            return NULL;
        double a = fabs(d), secs = floor(a / 1000.0);
        int milli = (int)floor(a - secs * 1000.0);
        if (milli > 999)
            milli = 999;
        snprintf(buf, n, "%c%.0f.%03ds", d < 0 && (secs > 0 || milli > 0) ? '-' : '+', secs, milli);
        return buf;
    }

    double instant; /* a real UTC instant, when one is known */
    if (kind == GD_CLOCK_UTC)
        instant = ms;
    else if (kind == GD_CLOCK_LOCAL && own != INT64_MIN)
        instant = ms - (double)own * 60000.0;
    else /* a wall clock of unknown zone: as recorded, no label */
        return calendar(ms, buf, n);

    int64_t show = tz_min != GD_TZ_NONE ? tz_min : own != INT64_MIN ? own : 0;
    if (!calendar(instant + (double)show * 60000.0, buf, n))
        return NULL;
    zone_of(show, zone);
    return buf;
}

const char *gd_time_label(double ms, const gd_clock *c, int tz_min, char *buf, size_t n)
{
    char zone[GD_ZONE_MAX], text[64];
    if (!gd_time_text(ms, c, tz_min, text, sizeof text, zone))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%s%s%s", text, zone[0] ? " " : "", zone);
    return buf;
}
