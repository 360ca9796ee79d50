/* check_pages.c - page load timeline: order, draw/load times, absent values, step durations. */
#include <check.h>
#include <stdlib.h>

#include "analysis/pages.h"
#include "testutil.h"

#define T0 1700000000000.0

static gd_page_event E(const char *ev, double rel_ts, double rel_end)
{
    gd_page_event e = {ev, T0 + rel_ts, gd_has(rel_end) ? T0 + rel_end : GD_NONE};
    return e;
}

static void build(const gd_page_event *e, size_t n, gd_page_kind k, gd_page_timeline *t)
{
    gd_error err;
    ck_assert_int_eq(gd_pages_timeline(e, n, k, t, &err), GD_OK);
}

START_TEST(activity_shuffled)
{
    gd_page_event e[] = {
        E("ON_RESUME", 180.5, 182.0), E("ON_LOAD", 900.25, GD_NONE), E("ON_CREATE", 0, 120.0),
        E("ON_DRAW", 350.0, GD_NONE), E("ON_START", 150.0, 151.5),
    };
    gd_page_timeline t;
    build(e, 5, GD_PAGE_ACTIVITY, &t);
    ck_assert_int_eq(t.kind, GD_PAGE_ACTIVITY);
    ck_assert_str_eq(t.start_event, "ON_CREATE");
    ck_assert_double_eq(t.start_ts, T0);
    ck_assert_double_eq(t.draw_ms, 350.0);
    ck_assert_double_eq(t.load_ms, 900.25);
    ck_assert_uint_eq(t.nsteps, 5);
    const char *order[] = {"ON_CREATE", "ON_START", "ON_RESUME", "ON_DRAW", "ON_LOAD"};
    const size_t index[] = {2, 4, 0, 3, 1};
    const double to_next[] = {150.0, 30.5, 169.5, 550.25};
    for (size_t i = 0; i < 5; i++) {
        ck_assert_str_eq(t.steps[i].event, order[i]);
        ck_assert_uint_eq(t.steps[i].index, index[i]);
        if (i < 4)
            ck_assert_double_eq(t.steps[i].to_next_ms, to_next[i]);
    }
    ck_assert(!gd_has(t.steps[4].to_next_ms));
    ck_assert_double_eq(t.steps[0].callback_ms, 120.0);
    ck_assert_double_eq(t.steps[1].callback_ms, 1.5);
    ck_assert_double_eq(t.steps[2].callback_ms, 1.5);
    ck_assert(!gd_has(t.steps[3].callback_ms));
    ck_assert(!gd_has(t.steps[3].end_ts));
    gd_page_timeline_free(&t);
}
END_TEST

START_TEST(fragment_starts_at_attach)
{
    /* a fragment hosted by an activity: ON_ATTACH is the start, its
     * ON_CREATE is not */
    gd_page_event e[] = {
        E("ON_CREATE", 10, GD_NONE), E("ON_ATTACH", 4, GD_NONE), E("ON_VIEW_CREATE", 30, 55),
        E("ON_DRAW", 80, GD_NONE), E("ON_LOAD", 120, GD_NONE),
    };
    gd_page_timeline t;
    build(e, 5, gd_page_kind_parse("fragment"), &t);
    ck_assert_int_eq(t.kind, GD_PAGE_FRAGMENT);
    ck_assert_str_eq(t.start_event, "ON_ATTACH");
    ck_assert_double_eq(t.start_ts, T0 + 4);
    ck_assert_double_eq(t.draw_ms, 76.0);
    ck_assert_double_eq(t.load_ms, 116.0);
    ck_assert_str_eq(t.steps[0].event, "ON_ATTACH");
    ck_assert_double_eq(t.steps[2].callback_ms, 25.0);
    gd_page_timeline_free(&t);

    /* the same events with an unknown type: inferred fragment */
    build(e, 5, GD_PAGE_UNKNOWN, &t);
    ck_assert_int_eq(t.kind, GD_PAGE_FRAGMENT);
    ck_assert_double_eq(t.draw_ms, 76.0);
    gd_page_timeline_free(&t);
}
END_TEST

START_TEST(missing_draw_is_absent)
{
    gd_page_event e[] = {E("ON_CREATE", 0, GD_NONE), E("ON_RESUME", 40, GD_NONE),
                         E("ON_LOAD", 75.5, GD_NONE)};
    gd_page_timeline t;
    build(e, 3, GD_PAGE_ACTIVITY, &t);
    ck_assert(!gd_has(t.draw_ms));
    ck_assert_double_eq(t.load_ms, 75.5);
    gd_page_timeline_free(&t);

    /* no start event: both absent, the steps are still there */
    gd_page_event f[] = {E("ON_RESUME", 40, GD_NONE), E("ON_DRAW", 60, GD_NONE)};
    build(f, 2, GD_PAGE_ACTIVITY, &t);
    ck_assert(!gd_has(t.start_ts));
    ck_assert(!gd_has(t.draw_ms));
    ck_assert(!gd_has(t.load_ms));
    ck_assert_uint_eq(t.nsteps, 2);
    ck_assert_double_eq(t.steps[0].to_next_ms, 20.0);
    gd_page_timeline_free(&t);
}
END_TEST

START_TEST(double_draw_and_double_start)
{
    gd_page_event e[] = {
        E("ON_DRAW", 500, GD_NONE), E("ON_CREATE", 0, GD_NONE), E("ON_DRAW", 210, GD_NONE),
        E("ON_CREATE", 1000, GD_NONE), E("ON_DRAW", 1100, GD_NONE), E("ON_LOAD", 600, GD_NONE),
        E("ON_LOAD", 300, GD_NONE),
    };
    gd_page_timeline t;
    build(e, 7, GD_PAGE_ACTIVITY, &t);
    ck_assert_double_eq(t.start_ts, T0);
    ck_assert_double_eq(t.draw_ms, 210.0);
    ck_assert_double_eq(t.load_ms, 300.0);
    ck_assert_uint_eq(t.nsteps, 7);
    gd_page_timeline_free(&t);
}
END_TEST

START_TEST(draw_before_start_ignored)
{
    /* an ON_DRAW before the start is not the page's draw; one at the same
     * ts (listed first) is: 0 ms; equal ts keep input order */
    gd_page_event e[] = {E("ON_DRAW", -5, GD_NONE), E("ON_CREATE", 0, GD_NONE),
                         E("ON_DRAW", 40, GD_NONE)};
    gd_page_timeline t;
    build(e, 3, GD_PAGE_ACTIVITY, &t);
    ck_assert_double_eq(t.draw_ms, 40.0);
    gd_page_timeline_free(&t);

    gd_page_event f[] = {E("ON_LOAD", 0, GD_NONE), E("ON_DRAW", 0, GD_NONE),
                         E("ON_CREATE", 0, GD_NONE)};
    build(f, 3, GD_PAGE_ACTIVITY, &t);
    ck_assert_double_eq(t.draw_ms, 0.0);
    ck_assert_double_eq(t.load_ms, 0.0);
    ck_assert_str_eq(t.steps[0].event, "ON_LOAD");
    ck_assert_str_eq(t.steps[1].event, "ON_DRAW");
    ck_assert_str_eq(t.steps[2].event, "ON_CREATE");
    ck_assert_double_eq(t.steps[0].to_next_ms, 0.0);
    gd_page_timeline_free(&t);
}
END_TEST

START_TEST(stable_and_dropped)
{
    gd_page_event e[] = {
        E("ON_CREATE", 0, GD_NONE), {"ON_START", GD_NONE, GD_NONE}, E("ON_RESUME", 7, GD_NONE),
        E("ON_START", 7, GD_NONE), {NULL, T0 + 3, GD_NONE},
    };
    gd_page_timeline t;
    build(e, 5, GD_PAGE_UNKNOWN, &t);
    ck_assert_int_eq(t.kind, GD_PAGE_ACTIVITY);
    ck_assert_uint_eq(t.dropped, 1);
    ck_assert_uint_eq(t.nsteps, 4);
    ck_assert_ptr_null(t.steps[1].event);
    ck_assert_str_eq(t.steps[2].event, "ON_RESUME");
    ck_assert_str_eq(t.steps[3].event, "ON_START");
    ck_assert_uint_eq(t.steps[3].index, 3);
    gd_page_timeline_free(&t);
}
END_TEST

START_TEST(empty_and_usage)
{
    gd_page_timeline t;
    gd_error err;
    ck_assert_int_eq(gd_pages_timeline(NULL, 0, GD_PAGE_ACTIVITY, &t, &err), GD_OK);
    ck_assert_uint_eq(t.nsteps, 0);
    ck_assert(!gd_has(t.draw_ms));
    gd_page_timeline_free(&t);
    gd_page_timeline_free(&t);
    ck_assert_int_eq(gd_pages_timeline(NULL, 2, GD_PAGE_ACTIVITY, &t, &err), GD_ERR_USAGE);
    ck_assert_int_eq(gd_page_kind_parse("activity"), GD_PAGE_ACTIVITY);
    ck_assert_int_eq(gd_page_kind_parse("Fragment"), GD_PAGE_FRAGMENT);
    ck_assert_int_eq(gd_page_kind_parse(NULL), GD_PAGE_UNKNOWN);
    ck_assert_int_eq(gd_page_kind_parse("dialog"), GD_PAGE_UNKNOWN);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pages");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, activity_shuffled);
    tcase_add_test(tc, fragment_starts_at_attach);
    tcase_add_test(tc, missing_draw_is_absent);
    tcase_add_test(tc, double_draw_and_double_start);
    tcase_add_test(tc, draw_before_start_ignored);
    tcase_add_test(tc, stable_and_dropped);
    tcase_add_test(tc, empty_and_usage);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
