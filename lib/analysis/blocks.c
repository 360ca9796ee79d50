/* blocks.c - pairing, key frame, group and CPU busy rules for blocks. */
#include "analysis/blocks.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/scan.h"

gd_thresholds gd_thresholds_resolve(double short_ms, double long_ms, double anr_ms)
{
    gd_thresholds t = {gd_has(short_ms) ? short_ms : GD_SHORT_MS, gd_has(long_ms) ? long_ms : GD_LONG_MS,
                       gd_has(anr_ms) ? anr_ms : GD_ANR_MS};
    return t;
}

gd_block_kind gd_block_kind_of(double dur, double short_ms, double long_ms, double anr_ms)
{
    if (dur < short_ms && dur < long_ms && dur < anr_ms)
        return GD_KIND_NONE;
    return gd_block_kind_at(dur, long_ms, anr_ms);
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

/* The Looper's printer lines: ">>>>> Dispatching to TARGET CALLBACK: WHAT"
 * and "<<<<< Finished to TARGET CALLBACK". */
#define LOOPER_BEGIN_MARK ">>>>>"
#define LOOPER_END_MARK "<<<<<"
#define LOOPER_BEGIN_WORDS "Dispatching to "
#define LOOPER_END_WORDS "Finished to "

gd_phase gd_looper_prefix(const char *msg)
{
    if (strncmp(msg, LOOPER_BEGIN_MARK, 5) == 0)
        return GD_PHASE_BEGIN;
    if (strncmp(msg, LOOPER_END_MARK, 5) == 0)
        return GD_PHASE_END;
    return GD_PHASE_UNKNOWN;
}

gd_phase gd_looper_line(const char *m, size_t n)
{
    if (gd_starts_n(m, n, LOOPER_BEGIN_MARK " " LOOPER_BEGIN_WORDS))
        return GD_PHASE_BEGIN;
    if (gd_starts_n(m, n, LOOPER_END_MARK " " LOOPER_END_WORDS))
        return GD_PHASE_END;
    return GD_PHASE_UNKNOWN;
}

void gd_looper_msg_parse(const char *msg, char *handler, char *callback, char *what, size_t n)
{
    handler[0] = callback[0] = what[0] = 0;
    const char *p = strstr(msg, LOOPER_BEGIN_WORDS);
    if (!p)
        p = strstr(msg, LOOPER_END_WORDS);
    if (!p)
        return;
    p = strchr(p, ' ');
    p = p ? strchr(p + 1, ' ') : NULL;
    if (!p)
        return;
    p++;
    const char *rest = p;
    if (strncmp(p, "Handler (", 9) == 0) {
        const char *close = strchr(p + 9, ')');
        if (close) {
            snprintf(handler, n, "%.*s", (int)(close - (p + 9)), p + 9);
            const char *brace = strstr(close, "} ");
            rest = brace ? brace + 2 : close + 1;
            while (*rest == ' ')
                rest++;
        }
    }
    const char *colon = strrchr(rest, ':');
    if (colon && colon[1] == ' ') {
        snprintf(callback, n, "%.*s", (int)(colon - rest), rest);
        snprintf(what, n, "%s", colon + 2);
    } else {
        snprintf(callback, n, "%s", rest);
    }
    if (strcmp(callback, "null") == 0)
        callback[0] = 0;
}

void gd_pair_init(gd_pair *p) { memset(p, 0, sizeof *p); }

gd_phase gd_pair_phase(const gd_pair *p, gd_phase given, const char *msg)
{
    if (given != GD_PHASE_UNKNOWN)
        return given;
    gd_phase ph = msg ? gd_looper_prefix(msg) : GD_PHASE_UNKNOWN;
    if (ph != GD_PHASE_UNKNOWN)
        return ph;
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

int gd_frame_is_native(const char *f) { return strncmp(f, "native:", 7) == 0; }

int gd_frame_is_app(const char *f) { return f && *f && !gd_frame_is_native(f) && !gd_frame_is_framework(f); }

int gd_frame_is_concern(const char *f, const char *const *concern, size_t ncon)
{
    for (size_t i = 0; i < ncon; i++) {
        size_t k = strlen(concern[i]);
        if (k && strncmp(f, concern[i], k) == 0)
            return 1;
    }
    return 0;
}

/* One distinct frame of a block's samples: how many samples hold it and
 * the smallest position (from the innermost) at which one of them does. */
typedef struct kf_ent {
    char *f;             /* own copy; NULL: free slot                      */
    uint64_t h;
    size_t count, idx;
    size_t last;         /* 1 + the sample that counted it last            */
    unsigned char concern, app;
} kf_ent;

struct gd_kf_acc {
    kf_ent *t;
    size_t cap, used, nsamples;
    const char *const *concern;
    size_t ncon;
    int oom;
};

static uint64_t kf_hash(const char *s) { return gd_fnv1a(s, strlen(s)); }

gd_kf_acc *gd_kf_new(const char *const *concern, size_t ncon)
{
    gd_kf_acc *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->concern = concern;
    a->ncon = ncon;
    return a;
}

static int kf_rehash(gd_kf_acc *a)
{
    size_t cap = a->cap ? a->cap * 2 : 64;
    kf_ent *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < a->cap; i++) {
        if (!a->t[i].f)
            continue;
        size_t k = (size_t)a->t[i].h & (cap - 1);
        while (t[k].f)
            k = (k + 1) & (cap - 1);
        t[k] = a->t[i];
    }
    free(a->t);
    a->t = t;
    a->cap = cap;
    return 0;
}

void gd_kf_next_sample(gd_kf_acc *a) { a->nsamples++; }

int gd_kf_add_frame(gd_kf_acc *a, const char *f, size_t j)
{
    if (a->oom)
        return -1;
    if (!f)
        return 0;
    if (2 * (a->used + 1) > a->cap && kf_rehash(a)) {
        a->oom = 1;
        return -1;
    }
    uint64_t h = kf_hash(f);
    size_t k = (size_t)h & (a->cap - 1);
    while (a->t[k].f && (a->t[k].h != h || strcmp(a->t[k].f, f) != 0))
        k = (k + 1) & (a->cap - 1);
    kf_ent *e = &a->t[k];
    if (!e->f) {
        if (!(e->f = strdup(f))) {
            a->oom = 1;
            return -1;
        }
        e->h = h;
        e->idx = j;
        e->concern = (unsigned char)gd_frame_is_concern(f, a->concern, a->ncon);
        e->app = (unsigned char)gd_frame_is_app(f);
        a->used++;
    }
    if (e->last == a->nsamples)
        return 0; /* a frame counts once per sample */
    e->last = a->nsamples;
    e->count++;
    if (j < e->idx)
        e->idx = j;
    return 0;
}

int gd_kf_add(gd_kf_acc *a, const char *const *frames, size_t n)
{
    gd_kf_next_sample(a);
    for (size_t j = 0; j < n && !a->oom; j++)
        gd_kf_add_frame(a, frames[j], j);
    return a->oom ? -1 : 0;
}

static const kf_ent *kf_best(const gd_kf_acc *a, int concern)
{
    const kf_ent *best = NULL;
    for (size_t k = 0; k < a->cap; k++) {
        const kf_ent *e = &a->t[k];
        if (!e->f || !(concern ? e->concern : e->app))
            continue;
        if (!best || e->count > best->count ||
            (e->count == best->count &&
             (e->idx < best->idx || (e->idx == best->idx && strcmp(e->f, best->f) < 0))))
            best = e;
    }
    return best;
}

const char *gd_kf_result(const gd_kf_acc *a)
{
    if (a->oom)
        return NULL;
    const kf_ent *e = a->ncon ? kf_best(a, 1) : NULL;
    if (!e)
        e = kf_best(a, 0);
    return e ? e->f : NULL; /* framework and native frames only: none */
}

void gd_kf_free(gd_kf_acc *a)
{
    if (!a)
        return;
    for (size_t k = 0; k < a->cap; k++)
        free(a->t[k].f);
    free(a->t);
    free(a);
}

const char *gd_key_frame(const gd_sample_frames *samples, size_t ns,
                         const char *const *concern, size_t ncon)
{
    gd_kf_acc *a = gd_kf_new(concern, ncon);
    if (!a)
        return NULL;
    for (size_t i = 0; i < ns; i++)
        gd_kf_add(a, samples[i].frames, samples[i].n);
    const char *k = gd_kf_result(a), *r = NULL;
    /* hand back the caller's own pointer */
    for (size_t i = 0; k && i < ns && !r; i++)
        for (size_t j = 0; j < samples[i].n && !r; j++)
            if (samples[i].frames[j] && strcmp(samples[i].frames[j], k) == 0)
                r = samples[i].frames[j];
    gd_kf_free(a);
    return r;
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

const char *gd_group_rule_name(gd_group_rule r)
{
    switch (r) {
    case GD_GROUP_KEY_FRAME:
        return "key_frame";
    case GD_GROUP_HANDLER:
        return "handler";
    case GD_GROUP_SLICE:
        return "slice";
    default:
        return NULL;
    }
}

/* A class name without its objects' "@1a2b3c" (an @ and one or more hex digits up to
 * the end or to punctuation: "Continuation at X$1@9c6a8fc]" too). */
static void strip_hash(char *c)
{
    char *o = c;
    for (const char *p = c; *p;) {
        if (*p == '@') {
            const char *q = p + 1;
            while (isxdigit((unsigned char)*q))
                q++;
            if (q - p >= 2 && !isalnum((unsigned char)*q) && *q != '_' && *q != '$') {
                p = q;
                continue;
            }
        }
        *o++ = *p++;
    }
    *o = 0;
}

/* The value of " KEY=" in msg (up to the next space) into out; 1 found. */
static int token_value(const char *msg, const char *key, char *out, size_t n)
{
    size_t kl = strlen(key);
    for (const char *p = msg; (p = strstr(p, key)); p += kl)
        if (p > msg && p[-1] == ' ') {
            const char *v = p + kl;
            size_t len = strcspn(v, " ");
            snprintf(out, n, "%.*s", (int)len, v);
            return 1;
        }
    return 0;
}

/* A word made of digits (with hex letters, a 0x or # in front, a time
 * unit or punctuation after): a frame number, an id, a duration. */
static int volatile_word(const char *w, size_t len)
{
    size_t i = 0, digits = 0;
    if (i < len && (w[i] == '#' || w[i] == '@' || w[i] == '+' || w[i] == '-'))
        i++;
    if (i + 1 < len && w[i] == '0' && (w[i + 1] == 'x' || w[i + 1] == 'X'))
        i += 2;
    for (; i < len && isxdigit((unsigned char)w[i]); i++)
        digits += isdigit((unsigned char)w[i]) != 0;
    if (!digits)
        return 0;
    static const char *const units[] = {"ms", "us", "ns", "s", NULL};
    for (const char *const *u = units; *u; u++)
        if (len - i >= strlen(*u) && strncmp(w + i, *u, strlen(*u)) == 0) {
            i += strlen(*u);
            break;
        }
    for (; i < len; i++)
        if (!strchr(",;:.)]}", w[i]))
            return 0;
    return 1;
}

gd_group_rule gd_group_fallback(const char *msg, char *buf, size_t n)
{
    buf[0] = 0;
    if (!msg || !*msg || n < 2)
        return GD_GROUP_NONE;
    char h[512], c[512], w[512];
    if (gd_looper_prefix(msg) != GD_PHASE_UNKNOWN) {
        gd_looper_msg_parse(msg, h, c, w, sizeof h);
    } else if (token_value(msg, "h=", h, sizeof h)) {
        if (!token_value(msg, "c=", c, sizeof c) || strcmp(c, "null") == 0)
            c[0] = 0;
        if (!token_value(msg, "m=", w, sizeof w) && token_value(msg, "w=", w, sizeof w)) {
            size_t wl = strlen(w); /* "(... h=H w=159)": Slow Looper's form */
            if (wl && w[wl - 1] == ')')
                w[wl - 1] = 0;
        } else if (!token_value(msg, "m=", w, sizeof w)) {
            w[0] = 0;
        }
    } else {
        h[0] = c[0] = 0;
    }
    if (h[0] || c[0]) {
        strip_hash(c);
        if (!h[0])
            snprintf(buf, n, "c=%s", c);
        else if (c[0])
            snprintf(buf, n, "h=%s c=%s", h, c);
        else if (w[0])
            snprintf(buf, n, "h=%s m=%s", h, w);
        else
            snprintf(buf, n, "h=%s", h);
        return GD_GROUP_HANDLER;
    }
    /* the name, its number-only words left out, spaces folded */
    size_t o = 0;
    for (const char *p = msg; *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t len = strcspn(p, " \t");
        if (!len)
            break;
        if (!volatile_word(p, len) && o + len + 2 < n) {
            if (o)
                buf[o++] = ' ';
            memcpy(buf + o, p, len);
            o += len;
        }
        p += len;
    }
    buf[o] = 0;
    return o ? GD_GROUP_SLICE : GD_GROUP_NONE;
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
