/* check_frames.c - frame statistics: slow, frozen, percentiles, Matrix drop levels. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "analysis/frames.h"
#include "analysis/stats.h"
#include "testutil.h"

typedef struct frame_in {
    double dur_ms, vsync_ms; /* vsync NaN: unknown */
} frame_in;

/* The statistics of n frames (any order) as the frames query makes them:
 * gd_frame_acc fed the frames, then their durations and known intervals
 * sorted.  On a bad duration, out keeps zero counts and NaN figures. */
static int stats_of(const frame_in *f, size_t n, gd_frame_stats *out, gd_error *err)
{
    gd_frame_acc a;
    gd_frame_acc_init(&a);
    gd_frame_acc_done(&a, out);
    double dur[16], vs[16];
    size_t nv = 0;
    ck_assert_uint_le(n, 16);
    for (size_t i = 0; i < n; i++) {
        if (gd_frame_acc_add(&a, f[i].dur_ms, f[i].vsync_ms, err))
            return err->code;
        dur[i] = f[i].dur_ms;
        if (gd_frame_vsync_known(f[i].vsync_ms))
            vs[nv++] = f[i].vsync_ms;
    }
    gd_stats_sort(dur, n);
    gd_stats_sort(vs, nv);
    gd_frame_acc_ranks(&a);
    for (size_t i = 0; i < n; i++)
        gd_frame_acc_dur(&a, dur[i]);
    for (size_t i = 0; i < nv; i++)
        gd_frame_acc_vsync(&a, vs[i]);
    gd_frame_acc_done(&a, out);
    return GD_OK;
}

START_TEST(drop_levels_follow_matrix_thresholds)
{
    static const struct { int64_t dropped; gd_drop_level l; } t[] = {
        {-1, GD_DROP_BEST}, {0, GD_DROP_BEST}, {2, GD_DROP_BEST}, {3, GD_DROP_NORMAL},
        {8, GD_DROP_NORMAL}, {9, GD_DROP_MIDDLE}, {23, GD_DROP_MIDDLE}, {24, GD_DROP_HIGH},
        {41, GD_DROP_HIGH}, {42, GD_DROP_FROZEN}, {1000, GD_DROP_FROZEN},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        ck_assert_int_eq(gd_drop_level_of(t[i].dropped), t[i].l);
    ck_assert_str_eq(gd_drop_level_name(GD_DROP_MIDDLE), "middle");
    ck_assert_str_eq(gd_drop_level_matrix_key(GD_DROP_FROZEN), "DROPPED_FROZEN");
    ck_assert_ptr_null(gd_drop_level_name(GD_DROP__COUNT));
}
END_TEST

START_TEST(dropped_is_floor_of_whole_nanoseconds)
{
    /* 60 Hz default: interval 16666667 ns */
    ck_assert_int_eq(gd_frame_dropped(16.666666, NAN), 0);
    ck_assert_int_eq(gd_frame_dropped(16.666667, NAN), 1);
    ck_assert_int_eq(gd_frame_dropped(50.0, NAN), 2);        /* 2.99999994 */
    ck_assert_int_eq(gd_frame_dropped(50.000001, NAN), 3);   /* 3 × 16666667 */
    ck_assert_int_eq(gd_frame_dropped(800.0, NAN), 47);
    /* past int64 nanoseconds: counted in double, capped, never undefined */
    ck_assert_int_eq(gd_frame_dropped(1e10, 10.0), 1000000000);
    ck_assert(gd_frame_dropped(1e300, NAN) == (int64_t)9e18);
    /* a known 120 Hz interval scales it */
    ck_assert_int_eq(gd_frame_dropped(25.0, 8.333333), 3);
    ck_assert_int_eq(gd_frame_dropped(25.0, NAN), 1);
    ck_assert_int_eq(gd_frame_dropped(25.0, 0), 1);          /* 0: unknown */
    ck_assert_int_eq(gd_frame_dropped(NAN, NAN), 0);
    ck_assert_int_eq(gd_frame_dropped(-5, NAN), 0);
}
END_TEST

START_TEST(slow_scales_with_the_interval_frozen_does_not)
{
    ck_assert(!gd_frame_is_slow(16.6, NAN));
    ck_assert(gd_frame_is_slow(16.7, NAN));
    ck_assert(gd_frame_is_slow(9.0, 8.333333));
    ck_assert(!gd_frame_is_slow(8.3, 8.333333));
    ck_assert(!gd_frame_is_slow(16.7, 33.333333));  /* 30 Hz */
    ck_assert(!gd_frame_is_frozen(700.0));
    ck_assert(gd_frame_is_frozen(700.001));
    ck_assert_double_eq_tol(gd_frame_interval(NAN), 1000.0 / 60.0, 1e-12);
    ck_assert_double_eq(gd_frame_interval(8.5), 8.5);
}
END_TEST

START_TEST(stats_of_five_frames)
{
    frame_in f[] = {{800, NAN}, {20, NAN}, {10, NAN}, {40, NAN}, {30, NAN}};
    gd_frame_stats s;
    gd_error err = {0};
    ck_assert_int_eq(stats_of(f, 5, &s, &err), GD_OK);
    ck_assert_uint_eq(s.frames, 5);
    ck_assert_uint_eq(s.slow, 4);
    ck_assert_uint_eq(s.frozen, 1);
    ck_assert_int_eq(s.dropped, 0 + 1 + 1 + 2 + 47);
    ck_assert_uint_eq(s.level[GD_DROP_BEST], 4);
    ck_assert_int_eq(s.level_sum[GD_DROP_BEST], 4);
    ck_assert_uint_eq(s.level[GD_DROP_FROZEN], 1);
    ck_assert_int_eq(s.level_sum[GD_DROP_FROZEN], 47);
    ck_assert_uint_eq(s.level[GD_DROP_NORMAL] + s.level[GD_DROP_MIDDLE] + s.level[GD_DROP_HIGH], 0);
    ck_assert_double_eq(s.p50_ms, 30);
    ck_assert_double_eq_tol(s.p90_ms, 496, 1e-9);
    ck_assert_double_eq_tol(s.p95_ms, 648, 1e-9);
    ck_assert_double_eq_tol(s.p99_ms, 769.6, 1e-9);
    ck_assert_double_eq(s.max_ms, 800);
    ck_assert(isnan(s.vsync_ms));
    /* 1000 × 5 / ((1 + 2 + 2 + 3 + 48) × 1000/60) */
    ck_assert_double_eq_tol(s.fps, 5000.0 / (56 * 1000.0 / 60.0), 1e-9);
}
END_TEST

START_TEST(stats_with_known_intervals)
{
    frame_in f[] = {{8.0, 8.333333}, {9.0, 8.333333}, {30.0, NAN}, {12.0, 8.4}};
    gd_frame_stats s;
    gd_error err = {0};
    ck_assert_int_eq(stats_of(f, 4, &s, &err), GD_OK);
    ck_assert_uint_eq(s.slow, 3);      /* 9 > 8.33, 30 > 16.67, 12 > 8.4 */
    ck_assert_uint_eq(s.frozen, 0);
    ck_assert_int_eq(s.dropped, 0 + 1 + 1 + 1);
    ck_assert_double_eq_tol(s.vsync_ms, 8.333333, 1e-12);  /* median of 3 known */
    ck_assert_double_eq_tol(s.p50_ms, 10.5, 1e-12);
}
END_TEST

/* The accumulator as the frames query feeds it (#50): the frames in time
 * order, then their durations and known intervals each in ascending
 * order, as a store's sorted reads give them; nothing held. */
START_TEST(stats_streamed_as_the_store_reads_them)
{
    gd_frame_acc a;
    gd_error err = {0};
    gd_frame_acc_init(&a);
    const double dur[] = {8.0, 9.0, 30.0, 12.0}, vs[] = {8.333333, 8.333333, NAN, 8.4};
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(gd_frame_acc_add(&a, dur[i], vs[i], &err), GD_OK);
    ck_assert(!gd_frame_vsync_known(vs[2]) && !gd_frame_vsync_known(0) && gd_frame_vsync_known(vs[3]));
    gd_frame_acc_ranks(&a);
    const double by_dur[] = {8.0, 9.0, 12.0, 30.0}, by_vs[] = {8.333333, 8.333333, 8.4};
    for (int i = 0; i < 4; i++)
        gd_frame_acc_dur(&a, by_dur[i]);
    for (int i = 0; i < 3; i++)
        gd_frame_acc_vsync(&a, by_vs[i]);
    gd_frame_stats s;
    gd_frame_acc_done(&a, &s);
    ck_assert_uint_eq(s.frames, 4);
    ck_assert_uint_eq(s.slow, 3);
    ck_assert_int_eq(s.dropped, 3);
    ck_assert_double_eq_tol(s.vsync_ms, 8.333333, 1e-12);
    ck_assert_double_eq_tol(s.p50_ms, 10.5, 1e-12);
    ck_assert_double_eq_tol(s.p95_ms, 12.0 + 0.85 * 18.0, 1e-12); /* h = 2.85 */
    ck_assert_double_eq(s.max_ms, 30.0);
    ck_assert_int_eq(gd_frame_acc_add(&a, NAN, 8, &err), GD_ERR_USAGE);
    ck_assert_str_eq(err.msg, "frame 4: bad duration");
}
END_TEST

START_TEST(no_frames_and_bad_input)
{
    gd_frame_stats s;
    gd_error err = {0};
    ck_assert_int_eq(stats_of(NULL, 0, &s, &err), GD_OK);
    ck_assert_uint_eq(s.frames, 0);
    ck_assert(isnan(s.p50_ms) && isnan(s.max_ms) && isnan(s.fps));
    frame_in bad[] = {{5, NAN}, {-1, NAN}};
    ck_assert_int_eq(stats_of(bad, 2, &s, &err), GD_ERR_USAGE);
    ck_assert_str_eq(err.msg, "frame 1: bad duration");
    ck_assert_uint_eq(s.frames, 0);
}
END_TEST

/* #51: the device's HISTOGRAM in top's terms: each bucket's printed time
 * stands for its frames'; slow is over 1000/60 ms, frozen over 700 ms */
START_TEST(histogram_in_tops_terms)
{
    gd_frame_hist h;
    ck_assert_int_eq(gd_frame_histogram("5ms=85 16ms=2 17ms=4 48ms=1 750ms=1 4950ms=0", &h), 0);
    ck_assert_int_eq(h.frames, 93);
    ck_assert_int_eq(h.slow, 6);
    ck_assert_int_eq(h.frozen, 1);
    /* 4 x (17 - 16.667) + (48 - 16.667) + (750 - 16.667) */
    ck_assert_double_eq_tol(h.lost_ms, 4 * (17 - 1000.0 / 60) + (48 - 1000.0 / 60) + (750 - 1000.0 / 60), 1e-9);
    ck_assert_int_eq(gd_frame_histogram("", &h), -1);
    ck_assert_int_eq(gd_frame_histogram(NULL, &h), -1);
    ck_assert_int_eq(gd_frame_histogram("5ms=85 6ms", &h), -1);
    ck_assert_int_eq(gd_frame_histogram("5ms=85 6ms=x", &h), -1);
    ck_assert_int_eq(gd_frame_histogram("5ms=-1", &h), -1);
    ck_assert_int_eq(gd_frame_histogram("5s=1", &h), -1);
}
END_TEST

START_TEST(figures_as_printed)
{
    double pct;
    ck_assert_double_eq(gd_frame_figure_number("772 (26.59%)", &pct), 772);
    ck_assert_double_eq_tol(pct, 26.59, 1e-9);
    ck_assert_double_eq(gd_frame_figure_number("9ms", &pct), 9);
    ck_assert(isnan(pct));
    ck_assert(isnan(gd_frame_figure_number("n/a", &pct)));
    ck_assert(isnan(pct));
    ck_assert(isnan(gd_frame_figure_number(NULL, NULL)));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("frames");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, drop_levels_follow_matrix_thresholds);
    tcase_add_test(tc, dropped_is_floor_of_whole_nanoseconds);
    tcase_add_test(tc, slow_scales_with_the_interval_frozen_does_not);
    tcase_add_test(tc, stats_of_five_frames);
    tcase_add_test(tc, stats_with_known_intervals);
    tcase_add_test(tc, stats_streamed_as_the_store_reads_them);
    tcase_add_test(tc, no_frames_and_bad_input);
    tcase_add_test(tc, histogram_in_tops_terms);
    tcase_add_test(tc, figures_as_printed);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
