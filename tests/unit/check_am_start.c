/* check_am_start.c - tests of the `am start -W` output reader. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_am_start;
extern const gd_reader gd_reader_logcat;

#define FIX GODEYE_FIXTURES "/am_start/"

static double num(json_t *o, const char *k)
{
    return json_number_value(json_object_get(o, k));
}
static const char *str(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static int probe_text(const gd_reader *r, const char *s)
{
    return r->probe((const unsigned char *)s, strlen(s), 1);
}

START_TEST(android9_repeat)
{
    /* -S -R 2, Android <= 9: ThisTime/TotalTime/WaitTime, no LaunchState */
    gd_collected c;
    gd_test_read_file(&gd_reader_am_start, FIX "android9_repeat.txt", NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.events), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "am_start: other line"), 1); /* the "$ adb" line */
    ck_assert_int_eq(json_object_size(c.skips), 1);
    json_t *e = json_array_get(c.events, 0);
    ck_assert_str_eq(str(e, "type"), "startup");
    ck_assert_ptr_null(json_object_get(e, "ts"));
    ck_assert_str_eq(str(e, "app"), "com.media.painter");
    ck_assert_str_eq(str(e, "activity"), "com.media.painter.PainterMainActivity");
    ck_assert_ptr_null(json_object_get(e, "startup_kind"));
    ck_assert(num(e, "total_ms") == 355.0);
    ck_assert(num(e, "activity_ms") == 355.0); /* #51: ThisTime */
    ck_assert(num(e, "wait_ms") == 365.0);
    ck_assert_str_eq(str(e, "source"), "am_start");
    e = json_array_get(c.events, 1);
    ck_assert(num(e, "total_ms") == 2144.0);
    ck_assert(num(e, "wait_ms") == 2262.0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(android10_states)
{
    gd_collected c;
    gd_test_read_file(&gd_reader_am_start, FIX "android10_mixed.txt", NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.events), 3);
    ck_assert_int_eq(gd_collected_skips(&c, "am_start: warning line"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "am_start: launch without TotalTime"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "am_start: launch failed"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "am_start: other line"), 1);
    /* the Activity line names what was drawn, not the cmp= asked for */
    json_t *e = json_array_get(c.events, 0);
    ck_assert_str_eq(str(e, "app"), "com.facebook.alohaapps.launcher");
    ck_assert_str_eq(str(e, "activity"), "com.facebook.aloha.app.home.touch.HomeActivity");
    ck_assert_str_eq(str(e, "startup_kind"), "cold");
    ck_assert(num(e, "total_ms") == 1479.0);
    ck_assert_ptr_null(json_object_get(e, "activity_ms")); /* Android 10+: no ThisTime */
    ck_assert(num(e, "wait_ms") == 1482.0);
    e = json_array_get(c.events, 1); /* brought to front, still measured */
    ck_assert_str_eq(str(e, "startup_kind"), "hot");
    ck_assert(num(e, "total_ms") == 88.0);
    e = json_array_get(c.events, 2); /* no Activity line: the intent's cmp= */
    ck_assert_str_eq(str(e, "startup_kind"), "warm");
    ck_assert_str_eq(str(e, "app"), "com.example");
    ck_assert_str_eq(str(e, "activity"), "com.example.MainActivity");
    ck_assert(num(e, "total_ms") == 421.0);
    ck_assert(num(e, "wait_ms") == 425.0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(bare_and_cut)
{
    /* no Starting line, no Activity; a block cut before Complete; CRLF */
    const char *txt = "Status: ok\r\nLaunchState: COLD\r\nTotalTime: 842\r\nComplete\r\n"
                      "Starting: Intent { cmp=a.b/c.D }\r\nStatus: ok\r\nLaunchState: RELAUNCH\r\n"
                      "Activity: a.b/c.D\r\nTotalTime: 77\r\n";
    gd_collected c;
    gd_test_read_mem(&gd_reader_am_start, txt, strlen(txt), NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.events), 2);
    json_t *e = json_array_get(c.events, 0);
    ck_assert_ptr_null(json_object_get(e, "app"));
    ck_assert_str_eq(str(e, "startup_kind"), "cold");
    ck_assert(num(e, "total_ms") == 842.0);
    ck_assert_ptr_null(json_object_get(e, "wait_ms"));
    e = json_array_get(c.events, 1);
    ck_assert_ptr_null(json_object_get(e, "startup_kind")); /* RELAUNCH: not cold/warm/hot */
    ck_assert_str_eq(str(e, "activity"), "c.D");
    ck_assert(num(e, "total_ms") == 77.0);
    ck_assert_int_eq(json_object_size(c.skips), 0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(probe_scores)
{
    const char *full = "Starting: Intent { cmp=a.b/.M }\nStatus: ok\nActivity: a.b/.M\n"
                       "TotalTime: 5\nWaitTime: 6\nComplete\n";
    ck_assert_int_eq(probe_text(&gd_reader_am_start, full), 85);
    ck_assert_int_eq(probe_text(&gd_reader_am_start, "Status: ok\nTotalTime: 842\n"), 60);
    /* the logcat reader does not claim it, nor am_start a logcat */
    ck_assert_int_eq(probe_text(&gd_reader_logcat, full), 0);
    ck_assert_int_eq(
        probe_text(&gd_reader_am_start,
                   "05-12 10:31:30.242  2363  2950 D PowerUI : a\n05-12 10:31:30.243  2363  2950 D "
                   "PowerUI : Status: ok\n"),
        0);
    /* a page that only quotes the output among much prose */
    ck_assert_int_eq(probe_text(&gd_reader_am_start,
                                "# notes\nsome text\nmore text\nyet more\nStatus: ok\nTotalTime: 5\n"
                                "and a line\nand another\n"),
                     0);
    ck_assert_int_eq(probe_text(&gd_reader_am_start, "Starting: Intent { cmp=a.b/.M }\n"), 0);
    ck_assert_int_eq(probe_text(&gd_reader_am_start, ""), 0);
}
END_TEST

START_TEST(hostile_input)
{
    const char *txt = "Starting: Intent { cmp=a.b/.M }\nStatus: ok\nActivity: /\nTotalTime: -5\n"
                      "TotalTime: 99999999999999999\nWaitTime: 1x\nComplete\nComplete\n"
                      "Activity: \nTotalTime: 3\nError: x\n\x01\xff\n";
    gd_collected c;
    for (size_t k = 0; k <= strlen(txt); k++) {
        gd_test_read_mem(&gd_reader_am_start, txt, k, NULL, &c);
        ck_assert_int_eq(c.rc, GD_OK);
        gd_collected_free(&c);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("am_start");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, android9_repeat);
    tcase_add_test(t, android10_states);
    tcase_add_test(t, bare_and_cut);
    tcase_add_test(t, probe_scores);
    tcase_add_test(t, hostile_input);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return gd_test_exit(failed);
}
