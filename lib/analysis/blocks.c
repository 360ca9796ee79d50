/* blocks.c - pairing, key frame, group and CPU busy rules for blocks. */
#include "analysis/blocks.h"

#include <stdio.h>
#include <string.h>

gd_block_kind gd_block_kind_of(double dur, double short_ms, double long_ms, double anr_ms)
{
    if (dur >= anr_ms)
        return GD_KIND_ANR;
    if (dur >= long_ms)
        return GD_KIND_LONG;
    if (dur >= short_ms)
        return GD_KIND_SHORT;
    return GD_KIND_NONE;
}

gd_block_kind gd_block_kind_at(double dur, double long_ms, double anr_ms)
{
    return dur >= anr_ms ? GD_KIND_ANR : dur >= long_ms ? GD_KIND_LONG : GD_KIND_SHORT;
}

const char *gd_block_kind_name(gd_block_kind k)
{
    switch (k) {
    case GD_KIND_SHORT: return "short";
    case GD_KIND_LONG: return "long";
    case GD_KIND_ANR: return "anr";
    default: return NULL;
    }
}

gd_block_kind gd_block_kind_parse(const char *s)
{
    if (!s)
        return GD_KIND_NONE;
    if (strcmp(s, "short") == 0)
        return GD_KIND_SHORT;
    if (strcmp(s, "long") == 0)
        return GD_KIND_LONG;
    if (strcmp(s, "anr") == 0)
        return GD_KIND_ANR;
    return GD_KIND_NONE;
}

void gd_pair_init(gd_pair *p) { memset(p, 0, sizeof *p); }

gd_phase gd_pair_phase(const gd_pair *p, gd_phase given, const char *msg)
{
    if (given != GD_PHASE_UNKNOWN)
        return given;
    if (msg) {
        if (strncmp(msg, ">>>>>", 5) == 0)
            return GD_PHASE_BEGIN;
        if (strncmp(msg, "<<<<<", 5) == 0)
            return GD_PHASE_END;
    }
    return p->depth > 0 ? GD_PHASE_END : GD_PHASE_BEGIN;
}

int gd_pair_feed(gd_pair *p, gd_phase phase, double ts, double thread_ts, int64_t msg,
                 gd_paired *out)
{
    if (phase == GD_PHASE_BEGIN) {
        if (p->depth == GD_PAIR_MAX_DEPTH) {
            /* runaway nesting: forget the oldest open begin */
            memmove(p->open, p->open + 1, sizeof p->open[0] * (GD_PAIR_MAX_DEPTH - 1));
            p->depth--;
            p->begins_dropped++;
        }
        p->open[p->depth].ts = ts;
        p->open[p->depth].thread_ts = thread_ts;
        p->open[p->depth].msg = msg;
        p->depth++;
        return 0;
    }
    if (p->depth == 0) {
        p->ends_without_begin++;
        return 0;
    }
    gd_pair_open *b = &p->open[--p->depth];
    out->start = b->ts;
    out->end = ts;
    out->thread_ms = (gd_has(b->thread_ts) && gd_has(thread_ts)) ? thread_ts - b->thread_ts : GD_NONE;
    out->msg = b->msg;
    out->unfinished = 0;
    return 1;
}

int gd_pair_finish(gd_pair *p, double capture_end, gd_paired *out)
{
    if (p->depth == 0)
        return 0;
    gd_pair_open *b = &p->open[--p->depth];
    out->start = b->ts;
    out->end = capture_end > b->ts ? capture_end : b->ts;
    out->thread_ms = GD_NONE;
    out->msg = b->msg;
    out->unfinished = 1;
    return 1;
}

static const char *const framework_prefixes[] = {
    "java.", "javax.", "android.", "androidx.", "com.android.", "dalvik.",
    "libcore.", "sun.", "kotlin.", "kotlinx.", "com.google.android.", NULL,
};

int gd_frame_is_framework(const char *f)
{
    for (const char *const *p = framework_prefixes; *p; p++)
        if (strncmp(f, *p, strlen(*p)) == 0)
            return 1;
    return 0;
}

static int is_concern(const char *f, const char *const *concern, size_t ncon)
{
    for (size_t i = 0; i < ncon; i++) {
        size_t k = strlen(concern[i]);
        if (k && strncmp(f, concern[i], k) == 0)
            return 1;
    }
    return 0;
}

enum { FILTER_CONCERN, FILTER_APP };

static int passes(const char *f, int filter, const char *const *concern, size_t ncon)
{
    switch (filter) {
    case FILTER_CONCERN: return is_concern(f, concern, ncon);
    default: return !gd_frame_is_framework(f);
    }
}

/* Candidate scan without allocation: for each distinct frame (first seen
 * position), count the samples containing it.  O(S^2 F^2) in the worst case
 * but blocks hold tens of samples of tens of frames. */
static const char *pick(const gd_sample_frames *s, size_t ns, int filter,
                        const char *const *concern, size_t ncon)
{
    const char *best = NULL;
    size_t best_count = 0, best_idx = 0;
    for (size_t i = 0; i < ns; i++) {
        for (size_t j = 0; j < s[i].n; j++) {
            const char *f = s[i].frames[j];
            if (!f || !passes(f, filter, concern, ncon))
                continue;
            /* skip if the same frame was already considered earlier */
            int seen = 0;
            for (size_t a = 0; a <= i && !seen; a++) {
                size_t lim = a == i ? j : s[a].n;
                for (size_t b = 0; b < lim; b++)
                    if (strcmp(s[a].frames[b], f) == 0) {
                        seen = 1;
                        break;
                    }
            }
            if (seen)
                continue;
            size_t count = 0, idx = (size_t)-1;
            for (size_t a = 0; a < ns; a++) {
                for (size_t b = 0; b < s[a].n; b++)
                    if (strcmp(s[a].frames[b], f) == 0) {
                        count++;
                        if (b < idx)
                            idx = b;
                        break;
                    }
            }
            if (!best || count > best_count ||
                (count == best_count && (idx < best_idx || (idx == best_idx && strcmp(f, best) < 0)))) {
                best = f;
                best_count = count;
                best_idx = idx;
            }
        }
    }
    return best;
}

const char *gd_key_frame(const gd_sample_frames *samples, size_t ns,
                         const char *const *concern, size_t ncon)
{
    const char *k = NULL;
    if (ns == 0)
        return NULL;
    if (ncon)
        k = pick(samples, ns, FILTER_CONCERN, concern, ncon);
    if (!k)
        k = pick(samples, ns, FILTER_APP, concern, ncon);
    return k; /* framework frames only: none (the spec defines no fallback) */
}

char *gd_group_of(const char *kf, char *buf, size_t n)
{
    snprintf(buf, n, "%s", kf);
    size_t len = strlen(buf);
    if (len && buf[len - 1] == ')') {
        char *colon = strrchr(buf, ':');
        char *open = strrchr(buf, '(');
        if (colon && open && colon > open) {
            char *d = colon + 1;
            while (*d >= '0' && *d <= '9')
                d++;
            if (*d == ')' && d > colon + 1)
                memmove(colon, d, strlen(d) + 1);
        }
    }
    return buf;
}

int gd_cpu_busy_of(const gd_cpu_point *pts, size_t n, double start, double end, double interval)
{
    size_t first = (size_t)-1, last = 0, inside = 0;
    int all_raw = 1;
    for (size_t i = 0; i < n; i++) {
        if (pts[i].ts < start || pts[i].ts > end)
            continue;
        if (first == (size_t)-1)
            first = i;
        last = i;
        inside++;
        if (!pts[i].has_raw)
            all_raw = 0;
    }
    if (inside >= 2) {
        if (all_raw) {
            const gd_cpu_point *a = &pts[first], *b = &pts[last];
            if (b->total > a->total) {
                double r = (double)(b->busy - a->busy) / (double)(b->total - a->total);
                return r >= 0.8;
            }
        }
        /* ratios: each describes the interval ending at its sample, so the
         * utilisation from the first to the last sample is the time-weighted
         * mean of the ratios after the first */
        double wsum = 0, rsum = 0;
        for (size_t i = first + 1; i <= last; i++) {
            if (pts[i].ts < start || pts[i].ts > end || !gd_has(pts[i].ratio))
                continue;
            double w = pts[i].ts - pts[i - 1].ts;
            if (w <= 0)
                continue;
            wsum += w;
            rsum += w * pts[i].ratio;
        }
        if (wsum > 0)
            return rsum / wsum >= 0.8;
        return -1; /* two samples inside but no utilisation between them */
    }
    if (gd_has(interval) && interval > 0 && end - start > interval) {
        /* BlockCanary's rule: busy when the sampler was starved around the
         * start, not busy when it ran there without a gap; no sample there
         * at all (a capture without CPU samples) says nothing */
        double lo = start - interval, hi = start + interval, prev = GD_NONE;
        for (size_t i = 0; i < n; i++) {
            double t = pts[i].ts;
            if (!(t > lo && t < hi))
                continue;
            if (gd_has(prev) && t - prev > 1.2 * interval)
                return 1;
            prev = t;
        }
        if (gd_has(prev))
            return 0;
    }
    return -1;
}
