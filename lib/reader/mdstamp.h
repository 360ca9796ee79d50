/* mdstamp.h - the calendar of every reader (gd_mdstamp_days), and year-less
 * "MM-dd HH:mm:ss.SSS" stamps (logcat, BlockCanary) to epoch ms.
 *
 * Header-only (static inline) so that readers share it without a new
 * library symbol.  Device local time is treated as UTC: neither logcat nor
 * BlockCanary writes a zone, and every godeye reader makes the same choice,
 * so times from different sources stay comparable. */
#ifndef GD_MDSTAMP_H
#define GD_MDSTAMP_H

#include <stddef.h>
#include <stdint.h>

typedef struct gd_mdstamp {
    int year; /* 0 when the text has none */
    int mon, day, hour, min, sec;
    double frac_ms;
} gd_mdstamp;

/* Days since 1970-01-01 of a proleptic Gregorian date.  Out-of-range days
 * (02-30) roll into the next month arithmetically, never fail. */
static inline int64_t gd_mdstamp_days(int64_t y, int m, int d)
{
    if (m <= 2)
        y -= 1;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t mp = m > 2 ? m - 3 : m + 9;
    int64_t doy = (153 * mp + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* Epoch ms of `s` in `year` (s->year is ignored). */
static inline double gd_mdstamp_ms(int year, const gd_mdstamp *s)
{
    int64_t days = gd_mdstamp_days(year, s->mon, s->day);
    int64_t secs = days * 86400 + s->hour * 3600 + s->min * 60 + s->sec;
    return (double)secs * 1000.0 + s->frac_ms;
}

static inline int gd_mdstamp_2d(const char *p)
{
    if (p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9')
        return -1;
    return (p[0] - '0') * 10 + (p[1] - '0');
}

/* Parses "[YYYY-]MM-DD HH:MM:SS" then, when `frac` is set, "." and 3, 6 or 9
 * digits, at the start of p[0..n).  Returns the bytes used, 0 when the text
 * is not such a stamp or a field is out of range (st then undefined). */
static inline size_t gd_mdstamp_parse(const char *p, size_t n, int frac, gd_mdstamp *st)
{
    size_t i = 0;
    st->year = 0;
    st->frac_ms = 0;
    if (n >= 5 && p[4] == '-') {
        int hi = gd_mdstamp_2d(p), lo = gd_mdstamp_2d(p + 2);
        if (hi < 0 || lo < 0)
            return 0;
        st->year = hi * 100 + lo;
        i = 5;
    }
    if (n - i < 14)
        return 0;
    const char *q = p + i;
    if (q[2] != '-' || q[5] != ' ' || q[8] != ':' || q[11] != ':')
        return 0;
    st->mon = gd_mdstamp_2d(q);
    st->day = gd_mdstamp_2d(q + 3);
    st->hour = gd_mdstamp_2d(q + 6);
    st->min = gd_mdstamp_2d(q + 9);
    st->sec = gd_mdstamp_2d(q + 12);
    if (st->mon < 1 || st->mon > 12 || st->day < 1 || st->day > 31 || st->hour < 0 ||
        st->hour > 23 || st->min < 0 || st->min > 59 || st->sec < 0 || st->sec > 60)
        return 0;
    i += 14;
    if (!frac)
        return i;
    if (i >= n || p[i] != '.')
        return 0;
    i++;
    size_t nd = 0;
    double f = 0, scale = 100.0; /* the first digit counts 100 ms */
    while (i < n && p[i] >= '0' && p[i] <= '9' && nd < 9) {
        f += (p[i] - '0') * scale;
        scale /= 10.0;
        i++;
        nd++;
    }
    if (nd != 3 && nd != 6 && nd != 9)
        return 0;
    st->frac_ms = f;
    return i;
}

#endif
