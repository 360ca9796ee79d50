/* span.c - a trace's dense span: clusters of times, the prefix before the clock was set and lone outliers left out. */
#include "analysis/span.h"

#include <math.h>
#include <string.h>
#include <time.h>

void gd_span_init(gd_span *s)
{
    memset(s, 0, sizeof *s);
}

/* Merges cluster i+1 into cluster i. */
static void merge_next(gd_span *s, size_t i)
{
    gd_span_cluster *a = &s->c[i], *b = &s->c[i + 1];
    a->hi = fmax(a->hi, b->hi);
    a->lo = fmin(a->lo, b->lo);
    a->n += b->n;
    memmove(b, b + 1, (s->nc - i - 2) * sizeof *b);
    s->nc--;
}

void gd_span_add(gd_span *s, double ts, double end)
{
    if (isnan(ts))
        return;
    if (isnan(end) || end < ts)
        end = ts;
    size_t i = 0;
    while (i < s->nc && s->c[i].hi + GD_SPAN_GAP_MS < ts)
        i++;
    if (i < s->nc && s->c[i].lo - GD_SPAN_GAP_MS <= end) { /* joins cluster i */
        gd_span_cluster *c = &s->c[i];
        /* fmin and fmax of numbers, without their calls (#50: every event's) */
        c->lo = c->lo < ts ? c->lo : ts;
        c->hi = c->hi > end ? c->hi : end;
        c->n++;
        while (i + 1 < s->nc && s->c[i + 1].lo - GD_SPAN_GAP_MS <= s->c[i].hi)
            merge_next(s, i);
        return;
    }
    memmove(&s->c[i + 1], &s->c[i], (s->nc - i) * sizeof s->c[0]);
    s->c[i] = (gd_span_cluster){ts, end, 1};
    s->nc++;
    if (s->nc > GD_SPAN_MAX_CLUSTERS) { /* the two closest become one */
        size_t best = 0;
        for (size_t k = 1; k + 1 < s->nc; k++)
            if (s->c[k + 1].lo - s->c[k].hi < s->c[best + 1].lo - s->c[best].hi)
                best = k;
        merge_next(s, best);
    }
}

/* Before the clock was set: before 2000-01-01, or in the first hour of a
 * 1 January (the times are the wall clock's, read as UTC). */
static int clock_unset(double ms)
{
    if (ms < 946684800000.0)
        return 1;
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    if (!gmtime_r(&t, &tm))
        return 0;
    return tm.tm_mon == 0 && tm.tm_mday == 1 && tm.tm_hour == 0;
}

gd_span_result gd_span_finish(const gd_span *s)
{
    gd_span_result r = {NAN, NAN, 0, 0};
    long total = 0;
    size_t main = 0;
    for (size_t i = 0; i < s->nc; i++) {
        total += s->c[i].n;
        if (s->c[i].n > s->c[main].n)
            main = i;
    }
    int dense = s->nc && 2 * s->c[main].n >= total; /* a dense part to keep */
    /* a wall clock, that can be unset: the main cluster is past 2000 (a
     * monotonic clock, time since boot, never is) */
    int wall = s->nc && !clock_unset(s->c[main].lo) && s->c[main].lo >= 946684800000.0;
    int why[GD_SPAN_MAX_CLUSTERS + 1]; /* 0 kept, 1 clock unset, 2 lone */
    for (size_t i = 0; i < s->nc; i++) {
        const gd_span_cluster *c = &s->c[i], *m = &s->c[main];
        double far = c->lo > m->hi ? c->lo - m->hi : m->lo - c->hi; /* from the main cluster */
        why[i] = 0;
        if (dense && wall && i < main && clock_unset(c->lo))
            why[i] = 1;
        else if (dense && i != main && far > m->hi - m->lo &&
                 (c->n <= GD_SPAN_LONE_MAX || (double)c->n < GD_SPAN_OUTLIER_SHARE * (double)total))
            why[i] = 2;
        if (why[i])
            continue;
        if (isnan(r.start_ms) || c->lo < r.start_ms)
            r.start_ms = c->lo;
        if (isnan(r.end_ms) || c->hi > r.end_ms)
            r.end_ms = c->hi;
    }
    /* only what lies outside the kept span is left out: a lone cluster
     * between kept ones is inside it all the same */
    for (size_t i = 0; i < s->nc; i++) {
        const gd_span_cluster *c = &s->c[i];
        if (!why[i] || (c->lo >= r.start_ms && c->hi <= r.end_ms))
            continue;
        if (why[i] == 1)
            r.left_clock += c->n;
        else
            r.left_lone += c->n;
    }
    return r;
}
