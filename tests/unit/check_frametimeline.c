/* check_frametimeline.c - Perfetto FrameTimeline jank: bit names, jank tags,
 * janky / app / compositor / dropped as Perfetto's trace processor defines
 * them (frame_timeline_event_parser.cc, android_frame_timeline_metric.sql). */
#include <check.h>

#include "analysis/frametimeline.h"
#include "testutil.h"

START_TEST(bit_names_are_perfettos)
{
    ck_assert_str_eq(gd_ft_jank_bit_name(0), "None");
    ck_assert_str_eq(gd_ft_jank_bit_name(6), "App Deadline Missed");
    ck_assert_str_eq(gd_ft_jank_bit_name(7), "Buffer Stuffing");
    ck_assert_str_eq(gd_ft_jank_bit_name(9), "SurfaceFlinger Stuffing");
    ck_assert_str_eq(gd_ft_jank_bit_name(12), "App Resynced Jitter");
    ck_assert_str_eq(gd_ft_jank_bit_name(15), "PowerModeChange in progress"); /* 32768 */
    ck_assert_ptr_null(gd_ft_jank_bit_name(16));
    ck_assert_ptr_null(gd_ft_jank_bit_name(-1));
}
END_TEST

START_TEST(tags_follow_perfettos_order)
{
    static const struct { int64_t jank, present; gd_ft_tag t; } c[] = {
        {0, 1, GD_FT_TAG_UNSPECIFIED},
        {1, 1, GD_FT_TAG_NONE},
        {64, 2, GD_FT_TAG_SELF},
        {64 | 128, 2, GD_FT_TAG_SELF},
        /* Unknown Jank is the app's tag: Perfetto's diff test
         * test/trace_processor/diff_tests/parser/graphics/tests.py,
         * test_actual_frame_timeline_events, expects the Layer1 frame at
         * ts 80 ("Unknown Jank", "Unknown Present") to have jank_tag
         * "Self Jank" (#51 item 1c) */
        {256, 1, GD_FT_TAG_SELF},
        {16, 2, GD_FT_TAG_OTHER},
        {2 | 512, 4, GD_FT_TAG_OTHER},
        {128, 1, GD_FT_TAG_BUFFER_STUFFING},
        {512, 4, GD_FT_TAG_SF_STUFFING},
        {1024, 4, GD_FT_TAG_DROPPED},
        {2048, 1, GD_FT_TAG_NON_PERCEIVABLE},
        {8192, 1, GD_FT_TAG_NON_PERCEIVABLE},
        {32768, 1, GD_FT_TAG_NON_PERCEIVABLE},
        {16384, 1, GD_FT_TAG_NONE},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++)
        ck_assert_msg(gd_ft_tag_of(c[i].jank, c[i].present) == c[i].t, "jank %lld", (long long)c[i].jank);
    ck_assert_str_eq(gd_ft_tag_name(GD_FT_TAG_NON_PERCEIVABLE), "Non-perceivable Jank");
    ck_assert_ptr_null(gd_ft_tag_name(GD_FT_TAG__COUNT));
}
END_TEST

START_TEST(janky_is_the_metrics_missed_frame)
{
    ck_assert(gd_ft_is_janky(64) && gd_ft_is_app(64) && !gd_ft_is_compositor(64));
    ck_assert(gd_ft_is_janky(4096) && gd_ft_is_app(4096));
    ck_assert(gd_ft_is_janky(16) && gd_ft_is_compositor(16) && !gd_ft_is_app(16));
    ck_assert(gd_ft_is_janky(1024) && gd_ft_is_dropped(1024) && !gd_ft_is_app(1024));
    /* stuffing alone, None, Unspecified, the non-perceivable bits: not jank;
     * nor Unknown Jank alone (256): Perfetto's stdlib
     * src/trace_processor/perfetto_sql/stdlib/android/frames/jank_type.sql,
     * android_is_missed_frame_type, is the sf types, App Deadline Missed,
     * App Resynced Jitter or Dropped Frame -- not Unknown Jank (#51 item 1c:
     * its tag is Self Jank, above, but it is no missed frame) */
    static const int64_t quiet[] = {0, 1, 128, 512, 2048, 8192, 16384, 32768, 256};
    for (size_t i = 0; i < sizeof quiet / sizeof *quiet; i++)
        ck_assert_msg(!gd_ft_is_janky(quiet[i]), "jank %lld", (long long)quiet[i]);
    ck_assert(gd_ft_is_compositor(2 | 512) && !gd_ft_is_app(2 | 512));
}
END_TEST

START_TEST(stats_count_bits_and_unnamed_ones)
{
    gd_ft_stats s = {0};
    gd_ft_stats_add(&s, 1, 1);
    gd_ft_stats_add(&s, 64 | 128, 2);
    gd_ft_stats_add(&s, 32768, 1);
    gd_ft_stats_add(&s, 0, -1);
    gd_ft_stats_add(&s, 65536 | 64, 2);  /* a bit Perfetto does not name */
    gd_ft_stats_add(&s, 1024, 4);
    ck_assert_uint_eq(s.frames, 6);
    ck_assert_uint_eq(s.janky, 3);
    ck_assert_uint_eq(s.app, 2);
    ck_assert_uint_eq(s.compositor, 0);
    ck_assert_uint_eq(s.dropped, 1);
    ck_assert_uint_eq(s.unspecified, 1);
    ck_assert_uint_eq(s.bit[0], 1);
    ck_assert_uint_eq(s.bit[6], 2);
    ck_assert_uint_eq(s.bit[7], 1);
    ck_assert_uint_eq(s.bit[15], 1);
    ck_assert_uint_eq(s.other_bits, 1);
    ck_assert_uint_eq(s.tag[GD_FT_TAG_SELF], 2);
    ck_assert_uint_eq(s.tag[GD_FT_TAG_NON_PERCEIVABLE], 1);
    ck_assert_uint_eq(s.tag[GD_FT_TAG_DROPPED], 1);
}
END_TEST

START_TEST(display_frame_tags_are_perfettos)
{
    /* Perfetto's display-frame tags (test_actual_frame_timeline_events,
     * rows of pid 666 and test_display_power_mode_change): SF jank is the
     * display frame's Self Jank (a surface frame's Other Jank), exactly
     * 512 SurfaceFlinger Stuffing, exactly 1024 Dropped Frame (whatever
     * the present type), the quiet types Non-perceivable */
    static const struct {
        int64_t jank;
        gd_ft_tag t;
    } c[] = {
        {0, GD_FT_TAG_UNSPECIFIED},   {1, GD_FT_TAG_NONE},
        {2, GD_FT_TAG_SELF},          {2 | 16, GD_FT_TAG_SELF},
        {8, GD_FT_TAG_SELF},          {2 | 512, GD_FT_TAG_SELF},
        {512, GD_FT_TAG_SF_STUFFING}, {1024, GD_FT_TAG_DROPPED},
        {2048, GD_FT_TAG_NON_PERCEIVABLE}, {8192, GD_FT_TAG_NON_PERCEIVABLE},
        {32768, GD_FT_TAG_NON_PERCEIVABLE}, {64, GD_FT_TAG_NONE},
        {128, GD_FT_TAG_NONE},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++)
        ck_assert_msg(gd_ft_display_tag_of(c[i].jank) == c[i].t, "jank %lld", (long long)c[i].jank);
    gd_ft_stats s = {0};
    gd_ft_stats_add_display(&s, 2);
    gd_ft_stats_add_display(&s, 1024);
    gd_ft_stats_add_display(&s, 512);
    ck_assert_uint_eq(s.frames, 3);
    ck_assert_uint_eq(s.janky, 2);
    ck_assert_uint_eq(s.compositor, 1);
    ck_assert_uint_eq(s.tag[GD_FT_TAG_SELF], 1);
    ck_assert_uint_eq(s.tag[GD_FT_TAG_OTHER], 0);
    ck_assert_uint_eq(s.tag[GD_FT_TAG_DROPPED], 1);
    ck_assert_uint_eq(s.tag[GD_FT_TAG_SF_STUFFING], 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("frametimeline");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, bit_names_are_perfettos);
    tcase_add_test(tc, tags_follow_perfettos_order);
    tcase_add_test(tc, janky_is_the_metrics_missed_frame);
    tcase_add_test(tc, stats_count_bits_and_unnamed_ones);
    tcase_add_test(tc, display_frame_tags_are_perfettos);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
