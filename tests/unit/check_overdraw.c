/* check_overdraw.c - exact overdraw: hand-made dumps and seeded random trees vs per-pixel brute force. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/overdraw.h"

/* A view: id, parent, l, t, r, b, layers, visible. */
static gd_view V(int64_t id, int64_t parent, int32_t l, int32_t t, int32_t r, int32_t b,
                 int32_t layers, int visible)
{
    gd_view v = {0};
    v.id = id;
    v.parent = parent;
    v.rect[0] = l;
    v.rect[1] = t;
    v.rect[2] = r;
    v.rect[3] = b;
    v.layers = layers;
    v.visible = visible;
    return v;
}

static void run(const gd_view *v, size_t n, int32_t w, int32_t h, gd_overdraw *o)
{
    gd_overdraw_opts opts = {w, h, 0, 0};
    gd_error err;
    ck_assert_int_eq(gd_overdraw_compute(v, n, &opts, o, &err), GD_OK);
}

static void assert_area(const gd_overdraw *o, size_t i, int32_t l, int32_t t, int32_t r, int32_t b,
                        int64_t times)
{
    ck_assert_uint_lt(i, o->nareas);
    const gd_overdraw_area *a = &o->areas[i];
    ck_assert_int_eq(a->rect[0], l);
    ck_assert_int_eq(a->rect[1], t);
    ck_assert_int_eq(a->rect[2], r);
    ck_assert_int_eq(a->rect[3], b);
    ck_assert_int_eq(a->times, times);
}

static void assert_px(const gd_overdraw *o, uint64_t p1, uint64_t p2, uint64_t p3, uint64_t p4)
{
    ck_assert_uint_eq(o->px[GD_OVERDRAW_1X], p1);
    ck_assert_uint_eq(o->px[GD_OVERDRAW_2X], p2);
    ck_assert_uint_eq(o->px[GD_OVERDRAW_3X], p3);
    ck_assert_uint_eq(o->px[GD_OVERDRAW_4PLUS], p4);
    ck_assert_uint_eq(o->overdrawn_px, p1 + p2 + p3 + p4);
}

START_TEST(two_stacked_full_screen)
{
    gd_view v[] = {V(1, 0, 0, 0, 100, 50, 1, 1), V(2, 1, 0, 0, 100, 50, 1, 1)};
    gd_overdraw o;
    run(v, 2, 100, 50, &o);
    assert_px(&o, 5000, 0, 0, 0);
    ck_assert_uint_eq(o.nareas, 1);
    assert_area(&o, 0, 0, 0, 100, 50, 1);
    ck_assert_double_eq(o.ratio, 1.0);
    ck_assert_uint_eq(o.views, 2);
    ck_assert_int_eq(o.max_depth, 2);
    ck_assert_int_eq(o.broken, 0);
    ck_assert_ptr_null(o.broken_reason);
    ck_assert_int_eq(o.screen_known, 1);
    ck_assert_int_eq(o.screen[2], 100);
    ck_assert_int_eq(o.screen[3], 50);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(three_stacked)
{
    gd_view v[] = {V(1, 0, 0, 0, 100, 50, 1, 1), V(2, 1, 0, 0, 100, 50, 1, 1),
                   V(3, 2, 0, 0, 100, 50, 1, 1)};
    gd_overdraw o;
    run(v, 3, 100, 50, &o);
    assert_px(&o, 0, 5000, 0, 0);
    ck_assert_uint_eq(o.nareas, 1);
    assert_area(&o, 0, 0, 0, 100, 50, 2);
    ck_assert_double_eq(o.ratio, 2.0);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(hidden_parent_hides_child)
{
    /* root, an invisible full-screen view with a visible full-screen child,
     * and a visible 10x10 sibling: only the sibling overdraws */
    gd_view v[] = {V(1, 0, 0, 0, 100, 50, 1, 1), V(2, 1, 0, 0, 100, 50, 1, 0),
                   V(3, 2, 0, 0, 100, 50, 1, 1), V(4, 1, 10, 10, 20, 20, 1, 1)};
    gd_overdraw o;
    run(v, 4, 100, 50, &o);
    assert_px(&o, 100, 0, 0, 0);
    ck_assert_uint_eq(o.nareas, 1);
    assert_area(&o, 0, 10, 10, 20, 20, 1);
    ck_assert_double_eq_tol(o.ratio, 100.0 / 5000.0, 1e-12);
    ck_assert_uint_eq(o.views, 4);
    ck_assert_int_eq(o.max_depth, 3);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(clipped_by_parent)
{
    /* child [25,25,75,75] of A [0,0,50,50] paints only [25,25,50,50] */
    gd_view v[] = {V(1, 0, 0, 0, 100, 100, 1, 1), V(2, 1, 0, 0, 50, 50, 1, 1),
                   V(3, 2, 25, 25, 75, 75, 1, 1)};
    gd_overdraw o;
    run(v, 3, 100, 100, &o);
    assert_px(&o, 1875, 625, 0, 0);
    ck_assert_uint_eq(o.nareas, 3);
    assert_area(&o, 0, 0, 0, 25, 50, 1);
    assert_area(&o, 1, 25, 0, 50, 25, 1);
    assert_area(&o, 2, 25, 25, 50, 50, 2);
    ck_assert_double_eq_tol(o.ratio, (1875.0 + 2 * 625.0) / 10000.0, 1e-12);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(past_the_screen)
{
    gd_view v[] = {V(1, 0, -10, -10, 200, 200, 1, 1), V(2, 1, 50, 0, 300, 50, 1, 1),
                   V(3, 1, 150, 0, 190, 40, 3, 1)};
    gd_overdraw o;
    run(v, 3, 100, 50, &o);
    assert_px(&o, 2500, 0, 0, 0);
    ck_assert_uint_eq(o.nareas, 1);
    assert_area(&o, 0, 50, 0, 100, 50, 1);
    ck_assert_double_eq(o.ratio, 0.5);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(zero_size_views)
{
    gd_view v[] = {V(1, 0, 0, 0, 100, 50, 1, 1), V(2, 1, 10, 10, 10, 30, 5, 1),
                   V(3, 1, 10, 10, 30, 10, 5, 1), V(4, 2, 0, 0, 100, 50, 5, 1)};
    gd_overdraw o;
    run(v, 4, 100, 50, &o);
    assert_px(&o, 0, 0, 0, 0);
    ck_assert_uint_eq(o.nareas, 0);
    ck_assert_double_eq(o.ratio, 0.0);
    ck_assert_int_eq(o.broken, 0);
    ck_assert_uint_eq(o.views, 4);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(two_layers_over_one)
{
    gd_view v[] = {V(1, 0, 0, 0, 100, 100, 1, 1), V(2, 1, 0, 0, 10, 10, 2, 1)};
    gd_overdraw o;
    run(v, 2, 100, 100, &o);
    assert_px(&o, 0, 100, 0, 0);
    ck_assert_uint_eq(o.nareas, 1);
    assert_area(&o, 0, 0, 0, 10, 10, 2);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(buckets_and_exact_times)
{
    /* a 1-layer root under a 2-layer and a 3-layer view overlapping on
     * [20,0,30,10]: counts 3 (2x), 6 (5x: the 4+ bucket) and 4 (3x) */
    gd_view v[] = {V(1, 0, 0, 0, 40, 10, 1, 1), V(2, 1, 0, 0, 30, 10, 2, 1),
                   V(3, 1, 20, 0, 40, 10, 3, 1)};
    gd_overdraw o;
    run(v, 3, 40, 10, &o);
    assert_px(&o, 0, 200, 100, 100);
    ck_assert_uint_eq(o.nareas, 3);
    assert_area(&o, 0, 0, 0, 20, 10, 2);
    assert_area(&o, 1, 20, 0, 30, 10, 5);
    assert_area(&o, 2, 30, 0, 40, 10, 3);
    ck_assert_double_eq_tol(o.ratio, (200 * 2 + 100 * 5 + 100 * 3) / 400.0, 1e-12);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(merged_areas)
{
    /* a band [0,10,100,30] and a square [40,0,60,40] over a root: the
     * crossing is 2x, the rest of both 1x; five rectangles (the square's
     * three x-slab runs and the band's parts left and right of it) */
    gd_view v[] = {V(1, 0, 0, 0, 100, 100, 1, 1), V(2, 1, 0, 10, 100, 30, 1, 1),
                   V(3, 1, 40, 0, 60, 40, 1, 1)};
    gd_overdraw o;
    run(v, 3, 100, 100, &o);
    /* 1x: band minus the crossing (2000 − 400) + square minus the crossing
     * (800 − 400); 2x: the crossing 400 */
    assert_px(&o, 2000, 400, 0, 0);
    ck_assert_uint_eq(o.nareas, 5);
    assert_area(&o, 0, 40, 0, 60, 10, 1);
    assert_area(&o, 1, 0, 10, 40, 30, 1);
    assert_area(&o, 2, 40, 10, 60, 30, 2);
    assert_area(&o, 3, 60, 10, 100, 30, 1);
    assert_area(&o, 4, 40, 30, 60, 40, 1);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(unknown_screen_uses_roots_union)
{
    gd_view v[] = {V(1, 0, 0, 0, 10, 10, 1, 1), V(2, 0, 20, 5, 30, 15, 1, 1),
                   V(3, 2, 20, 5, 30, 15, 1, 1), V(4, 0, 50, 50, 50, 60, 1, 1)};
    gd_overdraw o;
    run(v, 4, 0, 0, &o);
    ck_assert_int_eq(o.screen_known, 0);
    ck_assert_int_eq(o.screen[0], 0);
    ck_assert_int_eq(o.screen[1], 0);
    ck_assert_int_eq(o.screen[2], 30);
    ck_assert_int_eq(o.screen[3], 15);
    assert_px(&o, 100, 0, 0, 0);
    ck_assert_double_eq_tol(o.ratio, 100.0 / 450.0, 1e-12);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(depth_and_deep_ids)
{
    /* a chain of 12 views (ids 101..112), given children first */
    gd_view v[12];
    for (int i = 0; i < 12; i++)
        v[11 - i] = V(101 + i, i ? 100 + i : 0, 0, 0, 10, 10, 0, 1);
    gd_overdraw o;
    run(v, 12, 10, 10, &o);
    ck_assert_int_eq(o.max_depth, 12);
    ck_assert_int_eq(o.max_depth_limit, GD_OVERDRAW_DEFAULT_MAX_DEPTH);
    ck_assert_uint_eq(o.ndeep, 2);
    ck_assert_int_eq(o.deep_ids[0], 112); /* input order */
    ck_assert_int_eq(o.deep_ids[1], 111);
    assert_px(&o, 0, 0, 0, 0);
    gd_overdraw_free(&o);

    gd_overdraw_opts opts = {10, 10, 3, 0};
    gd_error err;
    ck_assert_int_eq(gd_overdraw_compute(v, 12, &opts, &o, &err), GD_OK);
    ck_assert_int_eq(o.max_depth_limit, 3);
    ck_assert_uint_eq(o.ndeep, 9);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(malformed_trees)
{
    gd_view v[] = {
        V(1, 0, 0, 0, 100, 100, 1, 1),    /* root                            */
        V(2, 1, 0, 0, 50, 50, 1, 1),      /* ok: 2500 px 1x                  */
        V(2, 1, 0, 0, 100, 100, 1, 1),    /* duplicate id: skipped           */
        V(3, 2, 0, 0, 10, 10, 1, 1),      /* child of the first id 2: 2x     */
        V(4, 1, 60, 60, 50, 70, 1, 1),    /* bad rect (r < l)                */
        V(5, 4, 60, 60, 70, 70, 1, 1),    /* under the bad rect: orphan      */
        V(6, 99, 0, 0, 100, 100, 1, 1),   /* missing parent                  */
        V(7, 6, 0, 0, 100, 100, 1, 1),    /* under it: orphan                */
        V(8, 9, 0, 0, 100, 100, 1, 1),    /* cycle 8 -> 9 -> 8               */
        V(9, 8, 0, 0, 100, 100, 1, 1),
        V(10, 9, 0, 0, 100, 100, 1, 1),   /* hangs below the cycle: orphan   */
        V(11, 11, 0, 0, 100, 100, 1, 1),  /* its own parent: cycle           */
        V(12, 1, 70, 70, 70, 70, 1, 1),   /* zero size: fine                 */
        V(13, 1, 80, 90, 90, 80, 1, 1),   /* bad rect (b < t)                */
    };
    size_t n = sizeof v / sizeof v[0];
    gd_overdraw o;
    run(v, n, 100, 100, &o);
    ck_assert_uint_eq(o.skipped[GD_OVERDRAW_SKIP_DUPLICATE_ID], 1);
    ck_assert_uint_eq(o.skipped[GD_OVERDRAW_SKIP_BAD_RECT], 2);
    ck_assert_uint_eq(o.skipped[GD_OVERDRAW_SKIP_NO_PARENT], 1);
    ck_assert_uint_eq(o.skipped[GD_OVERDRAW_SKIP_CYCLE], 3);
    ck_assert_uint_eq(o.skipped[GD_OVERDRAW_SKIP_ORPHAN], 3);
    ck_assert_uint_eq(o.views, 4);
    ck_assert_int_eq(o.broken, 1);
    ck_assert_str_eq(o.broken_reason, "duplicate id");
    ck_assert_int_eq(o.max_depth, 3);
    assert_px(&o, 2400, 100, 0, 0);
    gd_overdraw_free(&o);
    ck_assert_str_eq(gd_overdraw_skip_name(GD_OVERDRAW_SKIP_ORPHAN), "under a skipped view");
    ck_assert_ptr_null(gd_overdraw_skip_name(GD_OVERDRAW_SKIP__COUNT));
}
END_TEST

START_TEST(cycle_only_reason)
{
    gd_view v[] = {V(1, 0, 0, 0, 10, 10, 1, 1), V(2, 3, 0, 0, 10, 10, 1, 1),
                   V(3, 2, 0, 0, 10, 10, 1, 1)};
    gd_overdraw o;
    run(v, 3, 10, 10, &o);
    ck_assert_int_eq(o.broken, 1);
    ck_assert_str_eq(o.broken_reason, "parent cycle");
    ck_assert_uint_eq(o.skipped[GD_OVERDRAW_SKIP_CYCLE], 2);
    ck_assert_uint_eq(o.views, 1);
    assert_px(&o, 0, 0, 0, 0);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(unknown_layers_paint_nothing)
{
    gd_view v[] = {V(1, 0, 0, 0, 10, 10, -1, 1), V(2, 1, 0, 0, 10, 10, 1, 1),
                   V(3, 1, 0, 0, 10, 10, 1, 1)};
    gd_overdraw o;
    run(v, 3, 10, 10, &o);
    assert_px(&o, 100, 0, 0, 0);
    gd_overdraw_free(&o);
}
END_TEST

START_TEST(empty_and_usage)
{
    gd_overdraw o;
    gd_error err;
    ck_assert_int_eq(gd_overdraw_compute(NULL, 0, NULL, &o, &err), GD_OK);
    ck_assert_uint_eq(o.views, 0);
    ck_assert_uint_eq(o.nareas, 0);
    ck_assert_int_eq(o.max_depth, 0);
    ck_assert_int_eq(o.screen[2], 0);
    gd_overdraw_free(&o);
    gd_overdraw_free(&o);
    ck_assert_int_eq(gd_overdraw_compute(NULL, 3, NULL, &o, &err), GD_ERR_USAGE);
    ck_assert_int_eq(gd_overdraw_compute(NULL, 0, NULL, NULL, &err), GD_ERR_USAGE);
}
END_TEST

START_TEST(deep_chain_no_recursion)
{
    /* 200,000 nested views: the tree pass is iterative */
    size_t n = 200000;
    gd_view *v = malloc(n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (size_t i = 0; i < n; i++)
        v[i] = V((int64_t)i + 1, (int64_t)i, 0, 0, 100, 100, i < 3 ? 1 : 0, 1);
    gd_overdraw o;
    run(v, n, 100, 100, &o);
    ck_assert_int_eq(o.max_depth, 200000);
    ck_assert_uint_eq(o.ndeep, n - 10);
    assert_px(&o, 0, 10000, 0, 0);
    gd_overdraw_free(&o);
    free(v);
}
END_TEST

START_TEST(max_areas_truncates_list_only)
{
    gd_view v[] = {V(1, 0, 0, 0, 100, 100, 1, 1), V(2, 1, 0, 10, 100, 30, 1, 1),
                   V(3, 1, 40, 0, 60, 40, 1, 1)};
    gd_overdraw_opts opts = {100, 100, 0, 2};
    gd_overdraw o;
    gd_error err;
    ck_assert_int_eq(gd_overdraw_compute(v, 3, &opts, &o, &err), GD_OK);
    ck_assert_uint_eq(o.nareas, 2);
    ck_assert_int_eq(o.areas_truncated, 1);
    assert_px(&o, 2000, 400, 0, 0);
    gd_overdraw_free(&o);
}
END_TEST

/* ---- randomized trees vs brute force -------------------------------------- */

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}
static int32_t between(int32_t lo, int32_t hi)
{
    return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1));
}

/* the brute-force grid covers every random rect: x in [-13, 110], y in [-13, 84] */
#define GX0 (-16)
#define GY0 (-16)
#define GW 128
#define GH 104

/* First view with `id` or -1. */
static long lookup(const gd_view *v, size_t n, int64_t id)
{
    for (size_t j = 0; j < n; j++)
        if (v[j].id == id)
            return (long)j;
    return -1;
}

static int rect_ok(const gd_view *x)
{
    return x->rect[2] >= x->rect[0] && x->rect[3] >= x->rect[1];
}

/* The naive model: per view, walk the parent chain. */
typedef struct ref {
    int valid, vis;
    int64_t depth;
    int32_t eff[4];
} ref;

static void brute_view(const gd_view *v, size_t n, size_t i, const int32_t *screen, ref *r)
{
    memset(r, 0, sizeof *r);
    if (lookup(v, n, v[i].id) != (long)i || !rect_ok(&v[i]))
        return;
    int32_t e[4] = {v[i].rect[0], v[i].rect[1], v[i].rect[2], v[i].rect[3]};
    int vis = v[i].visible != 0;
    size_t k = i, steps = 0;
    while (v[k].parent != 0) {
        long p = lookup(v, n, v[k].parent);
        if (p < 0 || !rect_ok(&v[p]) || ++steps > n)
            return;
        k = (size_t)p;
        if (v[k].rect[0] > e[0]) e[0] = v[k].rect[0];
        if (v[k].rect[1] > e[1]) e[1] = v[k].rect[1];
        if (v[k].rect[2] < e[2]) e[2] = v[k].rect[2];
        if (v[k].rect[3] < e[3]) e[3] = v[k].rect[3];
        vis = vis && v[k].visible;
    }
    if (screen[0] > e[0]) e[0] = screen[0];
    if (screen[1] > e[1]) e[1] = screen[1];
    if (screen[2] < e[2]) e[2] = screen[2];
    if (screen[3] < e[3]) e[3] = screen[3];
    r->valid = 1;
    r->vis = vis;
    r->depth = (int64_t)steps + 1;
    memcpy(r->eff, e, sizeof e);
}

static void random_dump(gd_view *v, size_t n, int wild)
{
    for (size_t i = 0; i < n; i++) {
        gd_view x = {0};
        x.id = wild && rnd() % 8 == 0 ? between(1, (int32_t)n) : (int64_t)i + 1;
        if (i == 0 || rnd() % 10 == 0)
            x.parent = 0;
        else if (wild && rnd() % 10 == 0)
            x.parent = between(1, (int32_t)n + 3); /* forward, missing, cycles */
        else /* half the time the previous view: deep chains */
            x.parent = rnd() % 2 ? v[i - 1].id : v[rnd() % i].id;
        x.rect[0] = between(-10, 70);
        x.rect[1] = between(-10, 54);
        x.rect[2] = x.rect[0] + between(wild ? -3 : 0, 40);
        x.rect[3] = x.rect[1] + between(wild ? -3 : 0, 30);
        x.layers = between(-1, 3);
        x.visible = rnd() % 5 != 0;
        v[i] = x;
    }
}

/* What the random dumps exercised, summed over seeds. */
static size_t seen_skips[GD_OVERDRAW_SKIP__COUNT], seen_deep, seen_px[4], seen_unknown;

static void check_random(unsigned seed, int wild)
{
    rng_state = 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed * 2654435761u);
    size_t n = (size_t)between(1, 40);
    gd_view v[40];
    random_dump(v, n, wild);
    int known = rnd() % 2;
    gd_overdraw o;
    run(v, n, known ? 64 : 0, known ? 48 : 0, &o);

    int32_t screen[4] = {0, 0, 64, 48};
    if (!known) {
        int any = 0;
        memset(screen, 0, sizeof screen);
        for (size_t i = 0; i < n; i++) {
            if (v[i].parent != 0 || lookup(v, n, v[i].id) != (long)i || !rect_ok(&v[i]) ||
                v[i].rect[2] == v[i].rect[0] || v[i].rect[3] == v[i].rect[1])
                continue;
            if (!any || v[i].rect[0] < screen[0]) screen[0] = v[i].rect[0];
            if (!any || v[i].rect[1] < screen[1]) screen[1] = v[i].rect[1];
            if (!any || v[i].rect[2] > screen[2]) screen[2] = v[i].rect[2];
            if (!any || v[i].rect[3] > screen[3]) screen[3] = v[i].rect[3];
            any = 1;
        }
    }
    for (int k = 0; k < 4; k++)
        ck_assert_int_eq(o.screen[k], screen[k]);

    static int64_t count[GH][GW];
    static int64_t painted[GH][GW];
    memset(count, 0, sizeof count);
    memset(painted, 0, sizeof painted);
    size_t valid = 0, ndeep = 0;
    int64_t maxd = 0;
    for (size_t i = 0; i < n; i++) {
        ref r;
        brute_view(v, n, i, screen, &r);
        if (!r.valid)
            continue;
        valid++;
        if (r.depth > maxd)
            maxd = r.depth;
        if (r.depth > GD_OVERDRAW_DEFAULT_MAX_DEPTH) {
            ck_assert_uint_lt(ndeep, o.ndeep);
            ck_assert_int_eq(o.deep_ids[ndeep], v[i].id);
            ndeep++;
        }
        if (!r.vis || v[i].layers <= 0 || r.eff[2] <= r.eff[0] || r.eff[3] <= r.eff[1])
            continue;
        ck_assert(r.eff[0] >= GX0 && r.eff[2] <= GX0 + GW && r.eff[1] >= GY0 && r.eff[3] <= GY0 + GH);
        for (int32_t y = r.eff[1]; y < r.eff[3]; y++)
            for (int32_t x = r.eff[0]; x < r.eff[2]; x++)
                count[y - GY0][x - GX0] += v[i].layers;
    }
    ck_assert_uint_eq(o.views, valid);
    ck_assert_uint_eq(o.ndeep, ndeep);
    ck_assert_int_eq(o.max_depth, maxd);
    size_t skipped = 0;
    for (int k = 0; k < GD_OVERDRAW_SKIP__COUNT; k++)
        skipped += o.skipped[k];
    ck_assert_uint_eq(skipped, n - valid);
    ck_assert_int_eq(o.broken, valid != n);

    /* areas: inside the screen, disjoint, covering exactly the overdraw */
    for (size_t a = 0; a < o.nareas; a++) {
        const gd_overdraw_area *ar = &o.areas[a];
        ck_assert_int_lt(ar->rect[0], ar->rect[2]);
        ck_assert_int_lt(ar->rect[1], ar->rect[3]);
        ck_assert_int_ge(ar->rect[0], screen[0]);
        ck_assert_int_ge(ar->rect[1], screen[1]);
        ck_assert_int_le(ar->rect[2], screen[2]);
        ck_assert_int_le(ar->rect[3], screen[3]);
        ck_assert_int_ge(ar->times, 1);
        for (int32_t y = ar->rect[1]; y < ar->rect[3]; y++)
            for (int32_t x = ar->rect[0]; x < ar->rect[2]; x++) {
                /* (no ck_assert on the happy path in pixel loops: each one
                 * costs Check a write to its message pipe) */
                if (painted[y - GY0][x - GX0] != 0)
                    ck_abort_msg("seed %u: areas overlap at (%d,%d)", seed, x, y);
                painted[y - GY0][x - GX0] = ar->times;
            }
    }
    uint64_t px[4] = {0};
    double weighted = 0;
    for (int y = 0; y < GH; y++)
        for (int x = 0; x < GW; x++) {
            int64_t c = count[y][x], times = c >= 2 ? c - 1 : 0;
            if (painted[y][x] != times)
                ck_abort_msg("seed %u wild %d px (%d,%d): areas say %lld, pixels %lld",
                          seed, wild, x + GX0, y + GY0, (long long)painted[y][x], (long long)times);
            if (times) {
                px[times >= 4 ? 3 : times - 1]++;
                weighted += (double)times;
            }
        }
    assert_px(&o, px[0], px[1], px[2], px[3]);
    double sa = (double)(screen[2] - screen[0]) * (screen[3] - screen[1]);
    ck_assert_double_eq_tol(o.ratio, sa > 0 ? weighted / sa : 0, 1e-9);
    for (int k = 0; k < GD_OVERDRAW_SKIP__COUNT; k++)
        seen_skips[k] += o.skipped[k];
    for (int k = 0; k < 4; k++)
        seen_px[k] += px[k] != 0;
    seen_deep += o.ndeep;
    seen_unknown += !known;
    gd_overdraw_free(&o);
}

START_TEST(random_well_formed)
{
    for (unsigned seed = 1; seed <= 400; seed++)
        check_random(seed, 0);
}
END_TEST

START_TEST(random_malformed)
{
    for (unsigned seed = 1; seed <= 400; seed++)
        check_random(seed, 1);
    /* the seeds reach every skip reason, deep views, every bucket */
    for (int k = 0; k < GD_OVERDRAW_SKIP__COUNT; k++)
        ck_assert_uint_gt(seen_skips[k], 0);
    ck_assert_uint_gt(seen_deep, 0);
    for (int k = 0; k < 4; k++)
        ck_assert_uint_gt(seen_px[k], 0);
    ck_assert_uint_gt(seen_unknown, 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("overdraw");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, two_stacked_full_screen);
    tcase_add_test(tc, three_stacked);
    tcase_add_test(tc, hidden_parent_hides_child);
    tcase_add_test(tc, clipped_by_parent);
    tcase_add_test(tc, past_the_screen);
    tcase_add_test(tc, zero_size_views);
    tcase_add_test(tc, two_layers_over_one);
    tcase_add_test(tc, buckets_and_exact_times);
    tcase_add_test(tc, merged_areas);
    tcase_add_test(tc, unknown_screen_uses_roots_union);
    tcase_add_test(tc, depth_and_deep_ids);
    tcase_add_test(tc, malformed_trees);
    tcase_add_test(tc, cycle_only_reason);
    tcase_add_test(tc, unknown_layers_paint_nothing);
    tcase_add_test(tc, empty_and_usage);
    tcase_add_test(tc, deep_chain_no_recursion);
    tcase_add_test(tc, max_areas_truncates_list_only);
    tcase_add_test(tc, random_well_formed);
    tcase_add_test(tc, random_malformed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
