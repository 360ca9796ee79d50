/* frames.c - slow/frozen frames, frame-time percentiles and Matrix drop levels. */
#include "analysis/frames.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"

static const char *const level_names[GD_DROP__COUNT] = {"best", "normal", "middle", "high", "frozen"};
static const char *const level_keys[GD_DROP__COUNT] = {"DROPPED_BEST", "DROPPED_NORMAL", "DROPPED_MIDDLE",
                                                       "DROPPED_HIGH", "DROPPED_FROZEN"};

const char *gd_drop_level_name(gd_drop_level l)
{
    return l >= 0 && l < GD_DROP__COUNT ? level_names[l] : NULL;
}

const char *gd_drop_level_matrix_key(gd_drop_level l)
{
    return l >= 0 && l < GD_DROP__COUNT ? level_keys[l] : NULL;
}

gd_drop_level gd_drop_level_of(int64_t dropped)
{
    if (dropped >= 42)
        return GD_DROP_FROZEN;
    if (dropped >= 24)
        return GD_DROP_HIGH;
    if (dropped >= 9)
        return GD_DROP_MIDDLE;
    if (dropped >= 3)
        return GD_DROP_NORMAL;
    return GD_DROP_BEST;
}

int gd_frame_vsync_known(double vsync_ms)
{
    return !isnan(vsync_ms) && vsync_ms > 0;
}

double gd_frame_interval(double vsync_ms)
{
    return gd_frame_vsync_known(vsync_ms) ? vsync_ms : GD_FRAME_VSYNC_MS;
}

int64_t gd_frame_dropped(double dur_ms, double vsync_ms)
{
    if (isnan(dur_ms) || dur_ms <= 0)
        return 0;
    if (dur_ms > 9e9) /* beyond int64 nanoseconds: count in double */
        return (int64_t)fmin(floor(dur_ms / gd_frame_interval(vsync_ms)), 9e18);
    int64_t d = llround(dur_ms * 1e6), v = llround(gd_frame_interval(vsync_ms) * 1e6);
    return v > 0 ? d / v : 0;
}

int gd_frame_is_slow(double dur_ms, double vsync_ms)
{
    return dur_ms > gd_frame_interval(vsync_ms);
}

int gd_frame_is_vitals_slow(double dur_ms)
{
    return dur_ms > GD_FRAME_VITALS_SLOW_MS;
}

int gd_frame_is_frozen(double dur_ms)
{
    return dur_ms > GD_FRAME_FROZEN_MS;
}

double gd_frame_figure_number(const char *v, double *pct)
{
    char *e;
    double x = v ? strtod(v, &e) : NAN;
    if (pct)
        *pct = NAN;
    if (!v || e == v)
        return NAN;
    if (pct) {
        const char *o = strchr(e, '(');
        *pct = o ? strtod(o + 1, NULL) : NAN;
    }
    return x;
}

int gd_frame_histogram(const char *v, gd_frame_hist *out)
{
    *out = (gd_frame_hist){0, 0, 0, 0.0};
    int buckets = 0;
    const char *p = v ? v : "";
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char *e;
        double ms = strtod(p, &e);
        if (e == p || !isfinite(ms) || ms < 0 || strncmp(e, "ms=", 3) != 0)
            return -1;
        p = e + 3;
        long long n = strtoll(p, &e, 10);
        if (e == p || n < 0 || (*e && *e != ' '))
            return -1;
        p = e;
        buckets++;
        out->frames += n;
        if (gd_frame_is_slow(ms, NAN)) {
            out->slow += n;
            out->lost_ms += (double)n * (ms - GD_FRAME_VSYNC_MS);
        }
        if (gd_frame_is_frozen(ms))
            out->frozen += n;
    }
    return buckets ? 0 : -1;
}

static void clear(gd_frame_stats *o)
{
    *o = (gd_frame_stats){0};
    o->p50_ms = o->p90_ms = o->p95_ms = o->p99_ms = o->max_ms = o->vsync_ms = o->fps = NAN;
}

void gd_frame_acc_init(gd_frame_acc *a)
{
    *a = (gd_frame_acc){.cost = 0};
    clear(&a->st);
}

int gd_frame_acc_add(gd_frame_acc *a, double dur_ms, double vsync_ms, gd_error *err)
{
    gd_frame_stats *o = &a->st;
    if (isnan(dur_ms) || dur_ms < 0)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "frame %zu: bad duration", o->frames);
    a->nv += gd_frame_vsync_known(vsync_ms) ? 1 : 0;
    o->slow += gd_frame_is_slow(dur_ms, vsync_ms) ? 1 : 0;
    o->frozen += gd_frame_is_frozen(dur_ms) ? 1 : 0;
    o->vitals_slow += gd_frame_is_vitals_slow(dur_ms) ? 1 : 0;
    int64_t dr = gd_frame_dropped(dur_ms, vsync_ms);
    gd_drop_level l = gd_drop_level_of(dr);
    o->dropped += dr;
    o->level[l]++;
    o->level_sum[l] += dr;
    a->cost += (double)(dr + 1) * gd_frame_interval(vsync_ms);
    o->frames++;
    return GD_OK;
}

static const double frame_pcts[4] = {50, 90, 95, 99};

void gd_frame_acc_ranks(gd_frame_acc *a)
{
    for (int k = 0; k < 4; k++)
        gd_pct_stream_init(&a->p[k], a->st.frames, frame_pcts[k]);
    gd_pct_stream_init(&a->v, a->nv, 50);
    a->di = a->vi = 0;
}

void gd_frame_acc_dur(gd_frame_acc *a, double dur_ms)
{
    for (int k = 0; k < 4; k++)
        gd_pct_stream_add(&a->p[k], a->di, dur_ms);
    a->di++;
    a->st.max_ms = dur_ms;
}

void gd_frame_acc_vsync(gd_frame_acc *a, double vsync_ms)
{
    gd_pct_stream_add(&a->v, a->vi++, vsync_ms);
}

void gd_frame_acc_done(const gd_frame_acc *a, gd_frame_stats *out)
{
    *out = a->st;
    if (!a->st.frames)
        return;
    double *p[4] = {&out->p50_ms, &out->p90_ms, &out->p95_ms, &out->p99_ms};
    for (int k = 0; k < 4; k++)
        *p[k] = gd_pct_stream_value(&a->p[k]);
    out->vsync_ms = gd_pct_stream_value(&a->v);
    out->fps = a->cost > 0 ? 1000.0 * (double)a->st.frames / a->cost : NAN;
}
