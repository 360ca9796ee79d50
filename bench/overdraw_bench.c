/* overdraw_bench.c - times gd_overdraw_compute on random view trees of 1k and 10k views.
 *
 * Not a test: a standalone timing program, built as build/bench/overdraw-bench
 * (CMake option GODEYE_BENCH) and run by bench/run.sh:
 *
 *   build/bench/overdraw-bench [seed]
 *
 * Trees: a full-screen root (1080 × 2340); each further view picks a random
 * earlier view as parent (depth grows like ln n) and a random rect mostly
 * inside it (10% spill past it); layers 0, 1 or 2; 5% invisible.  Prints
 * the best of 5 runs in ms for each size. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/overdraw.h"

static uint64_t rng;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}
static int32_t between(int32_t lo, int32_t hi) /* [lo, hi] */
{
    return hi <= lo ? lo : lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1));
}

static void make_tree(gd_view *v, size_t n, int32_t w, int32_t h)
{
    for (size_t i = 0; i < n; i++) {
        gd_view x = {0};
        x.id = (int64_t)i + 1;
        x.visible = rnd() % 20 != 0;
        x.layers = (int32_t)(rnd() % 10 < 3 ? 0 : rnd() % 10 < 7 ? 1 : 2);
        if (i == 0) {
            x.parent = 0;
            x.rect[2] = w;
            x.rect[3] = h;
            x.layers = 1;
            x.visible = 1;
        } else {
            const gd_view *p = &v[rnd() % i];
            x.parent = p->id;
            int32_t pw = p->rect[2] - p->rect[0], ph = p->rect[3] - p->rect[1];
            int32_t spill = rnd() % 10 == 0 ? 40 : 0;
            int32_t cw = between(0, pw), ch = between(0, ph / 2);
            x.rect[0] = between(p->rect[0] - spill, p->rect[2] - cw);
            x.rect[1] = between(p->rect[1] - spill, p->rect[3] - ch);
            x.rect[2] = x.rect[0] + cw;
            x.rect[3] = x.rect[1] + ch;
        }
        v[i] = x;
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    rng = argc > 1 ? strtoull(argv[1], NULL, 10) : 88172645463325252ull;
    if (!rng)
        rng = 1;
    static const size_t sizes[] = {1000, 10000};
    for (size_t s = 0; s < 2; s++) {
        size_t n = sizes[s];
        gd_view *v = malloc(n * sizeof *v);
        if (!v)
            return 1;
        make_tree(v, n, 1080, 2340);
        gd_overdraw_opts opts = {1080, 2340, 10, 0};
        double best = 1e300;
        gd_overdraw o = {0};
        for (int run = 0; run < 5; run++) {
            gd_overdraw_free(&o);
            gd_error err;
            double t0 = now_ms();
            if (gd_overdraw_compute(v, n, &opts, &o, &err) != GD_OK) {
                fprintf(stderr, "overdraw_bench: %s\n", err.msg);
                return 1;
            }
            double t = now_ms() - t0;
            if (t < best)
                best = t;
        }
        printf("%6zu views: %8.3f ms  (areas %zu, max depth %lld, overdrawn px %llu, ratio %.3f)\n",
               n, best, o.nareas, (long long)o.max_depth, (unsigned long long)o.overdrawn_px,
               o.ratio);
        gd_overdraw_free(&o);
        free(v);
    }
    return 0;
}
