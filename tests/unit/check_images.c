/* check_images.c - AndroidGodEye's image rules: order, strict boundaries, wasted bytes, keys. */
#include <check.h>
#include <stdlib.h>

#include "analysis/images.h"
#include "testutil.h"

static gd_image_result chk(int32_t vw, int32_t vh, int vis, int32_t bw, int32_t bh,
                           const char *cfg)
{
    gd_image_result r;
    gd_image_issue i = gd_image_check(vw, vh, vis, bw, bh, cfg, NULL, &r);
    ck_assert_int_eq(i, r.issue);
    return r;
}

START_TEST(too_high)
{
    /* the spec's example: 1080x1080 ARGB_8888 in a 200x200 view */
    gd_image_result r = chk(200, 200, 1, 1080, 1080, "ARGB_8888");
    ck_assert_int_eq(r.issue, GD_IMAGE_BITMAP_QUALITY_TOO_HIGH);
    ck_assert_uint_eq(r.bitmap_area, 1166400);
    ck_assert_uint_eq(r.view_area, 40000);
    ck_assert_int_eq(r.bytes_per_pixel, 4);
    ck_assert_uint_eq(r.wasted_bytes, (1166400 - 40000) * 4);
    ck_assert_str_eq(gd_image_issue_name(r.issue), "BITMAP_QUALITY_TOO_HIGH");
}
END_TEST

START_TEST(boundaries_are_strict)
{
    /* view 100x100 = 10000 px; bitmap 15000 px is exactly 1.5x: no issue */
    ck_assert_int_eq(chk(100, 100, 1, 150, 100, NULL).issue, GD_IMAGE_NONE);
    ck_assert_uint_eq(chk(100, 100, 1, 150, 100, NULL).wasted_bytes, 0);
    /* 15001 px: too high, wasted 5001 px */
    gd_image_result r = chk(100, 100, 1, 15001, 1, "RGB_565");
    ck_assert_int_eq(r.issue, GD_IMAGE_BITMAP_QUALITY_TOO_HIGH);
    ck_assert_uint_eq(r.wasted_bytes, 5001 * 2);
    /* exactly 0.5x (5000 px): no issue; 4999 px: too low, nothing wasted */
    ck_assert_int_eq(chk(100, 100, 1, 50, 100, NULL).issue, GD_IMAGE_NONE);
    r = chk(100, 100, 1, 4999, 1, "ARGB_8888");
    ck_assert_int_eq(r.issue, GD_IMAGE_BITMAP_QUALITY_TOO_LOW);
    ck_assert_uint_eq(r.wasted_bytes, 0);
    ck_assert_str_eq(gd_image_issue_name(r.issue), "BITMAP_QUALITY_TOO_LOW");
    /* same size: fine */
    ck_assert_int_eq(chk(300, 200, 1, 300, 200, "ARGB_8888").issue, GD_IMAGE_NONE);
    /* odd view area: 3x3 = 9, 1.5x = 13.5: 13 fine, 14 too high */
    ck_assert_int_eq(chk(3, 3, 1, 13, 1, NULL).issue, GD_IMAGE_NONE);
    ck_assert_int_eq(chk(3, 3, 1, 14, 1, NULL).issue, GD_IMAGE_BITMAP_QUALITY_TOO_HIGH);
    ck_assert_uint_eq(chk(3, 3, 1, 14, 1, NULL).wasted_bytes, 20);
    /* 0.5x = 4.5: 5 fine, 4 too low */
    ck_assert_int_eq(chk(3, 3, 1, 5, 1, NULL).issue, GD_IMAGE_NONE);
    ck_assert_int_eq(chk(3, 3, 1, 4, 1, NULL).issue, GD_IMAGE_BITMAP_QUALITY_TOO_LOW);
}
END_TEST

START_TEST(invisible_first)
{
    /* invisible wins over too high; the whole bitmap is wasted */
    gd_image_result r = chk(200, 200, 0, 1080, 1080, "RGBA_F16");
    ck_assert_int_eq(r.issue, GD_IMAGE_INVISIBLE_BUT_MEMORY_OCCUPIED);
    ck_assert_uint_eq(r.wasted_bytes, 1166400ull * 8);
    ck_assert_str_eq(gd_image_issue_name(r.issue), "INVISIBLE_BUT_MEMORY_OCCUPIED");
    /* and over too low / fine sizes; a GONE view is 0x0 */
    ck_assert_uint_eq(chk(0, 0, 0, 10, 10, "ALPHA_8").wasted_bytes, 100);
    ck_assert_int_eq(chk(100, 100, 0, 100, 100, NULL).issue,
                     GD_IMAGE_INVISIBLE_BUT_MEMORY_OCCUPIED);
    ck_assert_uint_eq(chk(100, 100, 0, 100, 100, NULL).wasted_bytes, 40000);
}
END_TEST

START_TEST(malformed)
{
    ck_assert_int_eq(chk(100, 100, 1, 0, 10, NULL).issue, GD_IMAGE_MALFORMED);
    ck_assert_int_eq(chk(100, 100, 1, 10, -1, NULL).issue, GD_IMAGE_MALFORMED);
    ck_assert_int_eq(chk(0, 100, 1, 10, 10, NULL).issue, GD_IMAGE_MALFORMED);
    ck_assert_int_eq(chk(100, -5, 0, 10, 10, NULL).issue, GD_IMAGE_MALFORMED);
    ck_assert_int_eq(chk(0, 0, 0, 0, 0, NULL).issue, GD_IMAGE_MALFORMED);
    ck_assert_uint_eq(chk(100, 0, 1, 10, 10, NULL).wasted_bytes, 0);
    ck_assert_ptr_null(gd_image_issue_name(GD_IMAGE_MALFORMED));
    ck_assert_ptr_null(gd_image_issue_name(GD_IMAGE_NONE));
    ck_assert_int_eq(gd_image_check(1, 1, 1, 0, 0, NULL, NULL, NULL), GD_IMAGE_MALFORMED);
}
END_TEST

START_TEST(sixty_four_bit)
{
    /* INT32_MAX squared does not overflow; x4 and x8 saturate at INT64_MAX
     * (stored as int64: UINT64_MAX read back as -1) */
    gd_image_result r = chk(1, 1, 1, INT32_MAX, INT32_MAX, "ARGB_8888");
    ck_assert_uint_eq(r.bitmap_area, 4611686014132420609ull);
    ck_assert_uint_eq(r.wasted_bytes, (uint64_t)INT64_MAX);
    r = chk(1, 1, 1, INT32_MAX, INT32_MAX, "ALPHA_8");
    ck_assert_uint_eq(r.wasted_bytes, 4611686014132420609ull - 1);
    r = chk(1, 1, 0, INT32_MAX, INT32_MAX, "RGBA_F16");
    ck_assert_uint_eq(r.wasted_bytes, (uint64_t)INT64_MAX);
    /* 100000 x 100000 in a 60000 x 100000 view: 1e10 > 1.5 x 6e9 */
    r = chk(60000, 100000, 1, 100000, 100000, "RGB_565");
    ck_assert_int_eq(r.issue, GD_IMAGE_BITMAP_QUALITY_TOO_HIGH);
    ck_assert_uint_eq(r.wasted_bytes, 8000000000ull);
    /* exactly 1.5x at large sizes: 3 x 2^30 vs 2 x 2^30 */
    ck_assert_int_eq(chk(65536, 32768, 1, 98304, 32768, NULL).issue, GD_IMAGE_NONE);
    ck_assert_int_eq(chk(65536, 32768, 1, 98304, 32769, NULL).issue,
                     GD_IMAGE_BITMAP_QUALITY_TOO_HIGH);
}
END_TEST

START_TEST(bytes_per_pixel)
{
    ck_assert_int_eq(gd_image_bytes_per_pixel("ARGB_8888"), 4);
    ck_assert_int_eq(gd_image_bytes_per_pixel("RGB_565"), 2);
    ck_assert_int_eq(gd_image_bytes_per_pixel("ALPHA_8"), 1);
    ck_assert_int_eq(gd_image_bytes_per_pixel("RGBA_F16"), 8);
    ck_assert_int_eq(gd_image_bytes_per_pixel("ARGB_4444"), 2);
    ck_assert_int_eq(gd_image_bytes_per_pixel("rgb_565"), 2);
    ck_assert_int_eq(gd_image_bytes_per_pixel("HARDWARE"), 4);
    ck_assert_int_eq(gd_image_bytes_per_pixel("whatever"), 4);
    ck_assert_int_eq(gd_image_bytes_per_pixel(NULL), 4);
}
END_TEST

START_TEST(custom_rules)
{
    gd_image_rules rules = {2.0, 0.25};
    gd_image_result r;
    /* 1.6x: too high by default, fine with high 2 */
    ck_assert_int_eq(gd_image_check(100, 100, 1, 160, 100, NULL, NULL, &r),
                     GD_IMAGE_BITMAP_QUALITY_TOO_HIGH);
    ck_assert_int_eq(gd_image_check(100, 100, 1, 160, 100, NULL, &rules, &r), GD_IMAGE_NONE);
    ck_assert_int_eq(gd_image_check(100, 100, 1, 201, 100, NULL, &rules, &r),
                     GD_IMAGE_BITMAP_QUALITY_TOO_HIGH);
    ck_assert_uint_eq(r.wasted_bytes, 10100 * 4);
    /* 0.3x: too low by default, fine with low 0.25 */
    ck_assert_int_eq(gd_image_check(100, 100, 1, 30, 100, NULL, &rules, &r), GD_IMAGE_NONE);
    ck_assert_int_eq(gd_image_check(100, 100, 1, 24, 100, NULL, &rules, &r),
                     GD_IMAGE_BITMAP_QUALITY_TOO_LOW);
    /* zero / NaN thresholds fall back to the defaults */
    gd_image_rules bad = {0, NAN};
    ck_assert_int_eq(gd_image_check(100, 100, 1, 160, 100, NULL, &bad, &r),
                     GD_IMAGE_BITMAP_QUALITY_TOO_HIGH);
    ck_assert_int_eq(gd_image_check(100, 100, 1, 49, 100, NULL, &bad, &r),
                     GD_IMAGE_BITMAP_QUALITY_TOO_LOW);
}
END_TEST

START_TEST(from_event)
{
    gd_event ev;
    gd_event_init(&ev, GD_EV_IMAGE);
    gd_image_ev *im = &ev.u.image;
    im->page.hash = 81234567;
    im->view_hash = 4411;
    im->view_w = 200;
    im->view_h = 200;
    im->view_visible = 1;
    im->bitmap_w = 1080;
    im->bitmap_h = 1080;
    im->config = "ARGB_8888";
    gd_image_result r;
    ck_assert_int_eq(gd_image_check_event(im, NULL, &r), GD_IMAGE_BITMAP_QUALITY_TOO_HIGH);
    ck_assert_uint_eq(r.wasted_bytes, 4505600);
    gd_image_key k = gd_image_key_of(im, r.issue);
    ck_assert_int_eq(k.page_hash, 81234567);
    ck_assert_int_eq(k.view_hash, 4411);
    ck_assert_int_eq(k.bitmap_w, 1080);
    ck_assert_int_eq(k.issue, GD_IMAGE_BITMAP_QUALITY_TOO_HIGH);
}
END_TEST

START_TEST(dedup_keys)
{
    gd_image_key keys[] = {
        {2, 10, 100, 100, GD_IMAGE_BITMAP_QUALITY_TOO_HIGH},
        {1, 10, 100, 100, GD_IMAGE_BITMAP_QUALITY_TOO_HIGH},
        {2, 10, 100, 100, GD_IMAGE_BITMAP_QUALITY_TOO_HIGH}, /* repeat */
        {2, 10, 100, 100, GD_IMAGE_INVISIBLE_BUT_MEMORY_OCCUPIED},
        {2, 10, 100, 99, GD_IMAGE_BITMAP_QUALITY_TOO_HIGH},
        {-1, 10, 100, 100, GD_IMAGE_BITMAP_QUALITY_TOO_HIGH},
    };
    size_t n = sizeof keys / sizeof keys[0];
    ck_assert_int_eq(gd_image_key_cmp(&keys[0], &keys[2]), 0);
    ck_assert_int_lt(gd_image_key_cmp(&keys[1], &keys[0]), 0);
    ck_assert_int_gt(gd_image_key_cmp(&keys[0], &keys[4]), 0);
    ck_assert_int_ne(gd_image_key_cmp(&keys[0], &keys[3]), 0);
    qsort(keys, n, sizeof keys[0], gd_image_key_cmp);
    size_t distinct = 1;
    for (size_t i = 1; i < n; i++)
        distinct += gd_image_key_cmp(&keys[i - 1], &keys[i]) != 0;
    ck_assert_uint_eq(distinct, 5);
    ck_assert_int_eq(keys[0].page_hash, -1);
    ck_assert_int_eq(gd_image_issue_parse("BITMAP_QUALITY_TOO_LOW"), GD_IMAGE_BITMAP_QUALITY_TOO_LOW);
    ck_assert_int_eq(gd_image_issue_parse("nope"), GD_IMAGE_NONE);
    ck_assert_int_eq(gd_image_issue_parse(NULL), GD_IMAGE_NONE);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("images");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, too_high);
    tcase_add_test(tc, boundaries_are_strict);
    tcase_add_test(tc, invisible_first);
    tcase_add_test(tc, malformed);
    tcase_add_test(tc, sixty_four_bit);
    tcase_add_test(tc, bytes_per_pixel);
    tcase_add_test(tc, custom_rules);
    tcase_add_test(tc, from_event);
    tcase_add_test(tc, dedup_keys);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
