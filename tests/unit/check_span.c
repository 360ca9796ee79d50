/* check_span.c - a trace's dense span: clock-unset prefixes and lone outliers left out (#51). */
#include <check.h>
#include <math.h>

#include "analysis/span.h"
#include "testutil.h"

#define T0 1565817720000.0 /* 2019-08-14 21:22:00 */

START_TEST(lone_slice_far_away_is_left_out)
{
    gd_span s;
    gd_span_init(&s);
    for (int k = 0; k < 9; k++)
        gd_span_add(&s, T0 + k * 1000, T0 + k * 1000 + 50);
    gd_span_add(&s, T0 + 9e9, T0 + 9e9 + 1); /* one 1 ms slice at t = 9e6 s */
    gd_span_result r = gd_span_finish(&s);
    ck_assert(r.start_ms == T0 && r.end_ms == T0 + 8050);
    ck_assert_int_eq(r.left_lone, 1);
    ck_assert_int_eq(r.left_clock, 0);
}
END_TEST

START_TEST(prefix_before_the_clock_was_set_is_left_out)
{
    gd_span s;
    gd_span_init(&s);
    double jan1 = 1546300854000.0; /* 2019-01-01 00:00:54 */
    for (int k = 0; k < 32; k++)
        gd_span_add(&s, jan1 + k * 100, jan1 + k * 100);
    for (int k = 0; k < 400; k++)
        gd_span_add(&s, T0 + k * 3000, T0 + k * 3000);
    gd_span_result r = gd_span_finish(&s);
    ck_assert_int_eq(r.left_clock, 32);
    ck_assert(r.start_ms == T0 && r.end_ms == T0 + 399 * 3000);
    /* 1970 too: before 2000-01-01 */
    gd_span_init(&s);
    for (int k = 0; k < 5; k++)
        gd_span_add(&s, 54000.0 + k, 54000.0 + k);
    for (int k = 0; k < 10; k++)
        gd_span_add(&s, T0 + k, T0 + k);
    r = gd_span_finish(&s);
    ck_assert_int_eq(r.left_clock, 5);
    ck_assert(r.start_ms == T0);
    /* a monotonic clock (time since boot, gfxinfo): never "unset" */
    gd_span_init(&s);
    for (int k = 0; k < 34; k++)
        gd_span_add(&s, 1e6 + k, 1e6 + k);
    for (int k = 0; k < 700; k++)
        gd_span_add(&s, 2.6e7 + k, 2.6e7 + k);
    r = gd_span_finish(&s);
    ck_assert_int_eq(r.left_clock + r.left_lone, 0);
    ck_assert(r.start_ms == 1e6);
}
END_TEST

START_TEST(no_dense_part_keeps_everything)
{
    /* a memory sample every 2 h: every cluster holds one event, the main
     * one not half of them: nothing is left out */
    gd_span s;
    gd_span_init(&s);
    for (int k = 0; k < 6; k++)
        gd_span_add(&s, T0 + k * 7200000.0, T0 + k * 7200000.0);
    gd_span_result r = gd_span_finish(&s);
    ck_assert(r.start_ms == T0 && r.end_ms == T0 + 5 * 7200000.0);
    ck_assert_int_eq(r.left_lone + r.left_clock, 0);
    /* nothing added: no span */
    gd_span_init(&s);
    r = gd_span_finish(&s);
    ck_assert(isnan(r.start_ms) && isnan(r.end_ms));
}
END_TEST

START_TEST(sparse_samples_past_the_cap_are_kept)
{
    /* 100 single samples 2 h apart: past 32 clusters the closest merge, so
     * one cluster grows past half of them; the singles beside it are near
     * it (2 h, less than its length): kept */
    gd_span s;
    gd_span_init(&s);
    for (int k = 0; k < 100; k++)
        gd_span_add(&s, T0 + k * 7200000.0, T0 + k * 7200000.0);
    gd_span_result r = gd_span_finish(&s);
    ck_assert(r.start_ms == T0 && r.end_ms == T0 + 99 * 7200000.0);
    ck_assert_int_eq(r.left_lone, 0);
}
END_TEST

START_TEST(many_pauses_merge_and_order_does_not_matter)
{
    /* 100 bursts 2 h apart, added backwards: at most 32 clusters kept, the
     * closest merged; a burst of 3 events is not lone: all kept */
    gd_span s;
    gd_span_init(&s);
    for (int k = 99; k >= 0; k--)
        for (int j = 0; j < 3; j++)
            gd_span_add(&s, T0 + k * 7200000.0 + j, T0 + k * 7200000.0 + j);
    ck_assert_uint_le(s.nc, GD_SPAN_MAX_CLUSTERS);
    gd_span_result r = gd_span_finish(&s);
    ck_assert(r.start_ms == T0 && r.end_ms == T0 + 99 * 7200000.0 + 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("span");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, lone_slice_far_away_is_left_out);
    tcase_add_test(tc, prefix_before_the_clock_was_set_is_left_out);
    tcase_add_test(tc, no_dense_part_keeps_everything);
    tcase_add_test(tc, sparse_samples_past_the_cap_are_kept);
    tcase_add_test(tc, many_pauses_merge_and_order_does_not_matter);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
