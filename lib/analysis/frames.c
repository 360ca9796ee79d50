/* frames.c - slow/frozen frames, frame-time percentiles and Matrix drop levels. */
#include "analysis/frames.h"

#include <math.h>
#include <stdlib.h>

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

double gd_frame_interval(double vsync_ms)
{
    return !isnan(vsync_ms) && vsync_ms > 0 ? vsync_ms : GD_FRAME_VSYNC_MS;
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

static void clear(gd_frame_stats *o)
{
    *o = (gd_frame_stats){0};
    o->p50_ms = o->p90_ms = o->p95_ms = o->p99_ms = o->max_ms = o->vsync_ms = o->fps = NAN;
}

int gd_frame_stats_compute(const gd_frame_in *f, size_t n, gd_frame_stats *out, gd_error *err)
{
    clear(out);
    if (n == 0)
        return GD_OK;
    for (size_t i = 0; i < n; i++)
        if (isnan(f[i].dur_ms) || f[i].dur_ms < 0)
            return gd_error_set(err, GD_ERR_USAGE, 0, 0, "frame %zu: bad duration", i);
    double *dur = malloc(n * sizeof *dur), *vs = malloc(n * sizeof *vs);
    if (!dur || !vs) {
        free(dur);
        free(vs);
        return gd_error_oom(err);
    }
    size_t nv = 0;
    double cost = 0;
    for (size_t i = 0; i < n; i++) {
        double d = f[i].dur_ms, iv = gd_frame_interval(f[i].vsync_ms);
        dur[i] = d;
        if (!isnan(f[i].vsync_ms) && f[i].vsync_ms > 0)
            vs[nv++] = f[i].vsync_ms;
        out->slow += gd_frame_is_slow(d, f[i].vsync_ms) ? 1 : 0;
        out->frozen += gd_frame_is_frozen(d) ? 1 : 0;
        out->vitals_slow += gd_frame_is_vitals_slow(d) ? 1 : 0;
        int64_t dr = gd_frame_dropped(d, f[i].vsync_ms);
        gd_drop_level l = gd_drop_level_of(dr);
        out->dropped += dr;
        out->level[l]++;
        out->level_sum[l] += dr;
        cost += (double)(dr + 1) * iv;
    }
    out->frames = n;
    gd_stats_sort(dur, n);
    out->p50_ms = gd_percentile(dur, n, 50);
    out->p90_ms = gd_percentile(dur, n, 90);
    out->p95_ms = gd_percentile(dur, n, 95);
    out->p99_ms = gd_percentile(dur, n, 99);
    out->max_ms = dur[n - 1];
    if (nv) {
        gd_stats_sort(vs, nv);
        out->vsync_ms = gd_percentile(vs, nv, 50);
    }
    out->fps = cost > 0 ? 1000.0 * (double)n / cost : NAN;
    free(dur);
    free(vs);
    return GD_OK;
}
