/* mdstamp.h - the readers' calendar: dates to epoch ms, the current year, year-less stamps.
 *
 * Every reader turns a wall-clock date into epoch ms here (gd_mdstamp_civil_ms,
 * gd_mdstamp_ms) and takes the year of a stamp without one from the rules
 * below: the current year (gd_mdstamp_now_year) when nothing else tells it,
 * the running year of a log (gd_mdstamp_run_ms: logcat), the year of a later
 * dated moment (gd_mdstamp_before_ms: BlockCanary), the year nearest an
 * epoch anchor (gd_mdstamp_nearest_ms: AndroidGodEye).  No reader reads the
 * clock or does calendar arithmetic of its own.
 *
 * Header-only (static inline) so that readers share it without a new
 * library symbol.  Device local time is treated as UTC: neither logcat nor
 * BlockCanary writes a zone, and every godeye reader makes the same choice,
 * so times from different sources stay comparable. */
#ifndef GD_READER_MDSTAMP_H
#define GD_READER_MDSTAMP_H

#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <time.h>

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

/* The year of day `z` since 1970-01-01 (the inverse of gd_mdstamp_days). */
static inline int gd_mdstamp_year_of_day(int64_t z)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int m = (int)(mp < 10 ? mp + 3 : mp - 9);
    return (int)(yoe + era * 400 + (m <= 2));
}

/* Epoch ms of the wall time y-mo-d h:mi:s (whole seconds) read as UTC. */
static inline double gd_mdstamp_civil_ms(int64_t y, int mo, int d, int h, int mi, int s)
{
    int64_t secs = gd_mdstamp_days(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
    return (double)secs * 1000.0;
}

/* Epoch ms of `s` in `year` (s->year is ignored). */
static inline double gd_mdstamp_ms(int year, const gd_mdstamp *s)
{
    return gd_mdstamp_civil_ms(year, s->mon, s->day, s->hour, s->min, s->sec) + s->frac_ms;
}

/* The current UTC year, 1970 when the clock cannot be read: the year of
 * stamps without one when neither the input nor --year tells it. */
static inline int gd_mdstamp_now_year(void)
{
    time_t t = time(NULL);
    struct tm tm;
    if (!gmtime_r(&t, &tm))
        return 1970;
    return tm.tm_year + 1900;
}

/* `year` when set (non-zero: --year), else the current year. */
static inline int gd_mdstamp_year_or_now(int year)
{
    return year ? year : gd_mdstamp_now_year();
}

/* The running year of a log of year-less stamps in time order (logcat):
 * starts at `year`.  A new year is only a step from December to January of
 * at most GD_MDSTAMP_NEW_YEAR_MS (a few weeks: 12-31 -> 01-01); then the
 * year is incremented.  A late December line right after such a step (from
 * another buffer, within the same window) is given the previous year
 * without moving the running year.  Any other step back by more than
 * GD_MDSTAMP_RESET_MS (09-05 -> 03-30: the boot clock not yet set) keeps
 * the year and is counted in `resets` (the reader reports it); smaller steps
 * back are buffers merged out of order. */
#define GD_MDSTAMP_NEW_YEAR_MS (31.0 * 86400000.0)
#define GD_MDSTAMP_RESET_MS 86400000.0
typedef struct gd_mdstamp_run {
    int year;       /* running year */
    int last_mon;   /* month of the last stamp without a year; 0 none */
    double last_ms; /* its epoch ms */
    long resets;    /* backwards jumps that were no New Year */
} gd_mdstamp_run;

/* Epoch ms of `st`: its own year when it has one, else the running year. */
static inline double gd_mdstamp_run_ms(gd_mdstamp_run *r, const gd_mdstamp *st)
{
    if (st->year)
        return gd_mdstamp_ms(st->year, st);
    double t = gd_mdstamp_ms(r->year, st);
    if (r->last_mon == 12 && st->mon == 1) {
        double next = gd_mdstamp_ms(r->year + 1, st);
        if (next - r->last_ms <= GD_MDSTAMP_NEW_YEAR_MS) {
            r->year++;
            r->last_mon = st->mon;
            r->last_ms = next;
            return next;
        }
    } else if (r->last_mon == 1 && st->mon == 12) {
        double prev = gd_mdstamp_ms(r->year - 1, st);
        if (r->last_ms - prev <= GD_MDSTAMP_NEW_YEAR_MS)
            return prev; /* a late line from before the New Year */
    }
    if (r->last_mon && t < r->last_ms - GD_MDSTAMP_RESET_MS)
        r->resets++;
    r->last_mon = st->mon;
    r->last_ms = t;
    return t;
}

/* Epoch ms of a year-less `st` taken before the dated moment `at_ms` of
 * year `at_year` (BlockCanary: a block's samples and its write time): in
 * at_year, or in the year before when at_year would put it more than a day
 * after at_ms (a block started on Dec 31 and written on Jan 1). */
static inline double gd_mdstamp_before_ms(int at_year, double at_ms, const gd_mdstamp *st)
{
    double t = gd_mdstamp_ms(at_year, st);
    if (t > at_ms + 86400000.0)
        t = gd_mdstamp_ms(at_year - 1, st);
    return t;
}

/* Epoch ms of a year-less `st` in the year, of the UTC year of epoch ms
 * `anchor` and its two neighbours, that puts it nearest the anchor (the
 * anchor's year on a tie).  `anchor` must be within +-1e15 ms. */
static inline double gd_mdstamp_nearest_ms(double anchor, const gd_mdstamp *st)
{
    int y0 = gd_mdstamp_year_of_day((int64_t)(anchor / 86400000.0));
    double t = gd_mdstamp_ms(y0, st);
    for (int dy = -1; dy <= 1; dy += 2) {
        double u = gd_mdstamp_ms(y0 + dy, st);
        if (fabs(u - anchor) < fabs(t - anchor))
            t = u;
    }
    return t;
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
