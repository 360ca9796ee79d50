/* check_capture.c - godeye capture's adb plan and parsers (lib/capture/capture.c). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"

START_TEST(test_package_names)
{
    ck_assert(gd_capture_valid_package("com.example.app"));
    ck_assert(gd_capture_valid_package("com.example_2.App_x"));
    ck_assert(gd_capture_valid_package("_a._b"));
    ck_assert(!gd_capture_valid_package("app"));             /* one part */
    ck_assert(!gd_capture_valid_package("com.1example"));     /* digit first */
    ck_assert(!gd_capture_valid_package("com..x"));
    ck_assert(!gd_capture_valid_package("com.x."));
    ck_assert(!gd_capture_valid_package(".com.x"));
    ck_assert(!gd_capture_valid_package("com.x;reboot"));
    ck_assert(!gd_capture_valid_package("com.x y"));
    ck_assert(!gd_capture_valid_package("com.x'"));
    ck_assert(!gd_capture_valid_package("com.$x"));
    ck_assert(!gd_capture_valid_package(""));
    char big[300];
    memset(big, 'a', sizeof big);
    big[1] = '.';
    big[299] = 0;
    ck_assert(!gd_capture_valid_package(big));
    ck_assert(gd_capture_valid_activity(".MainActivity"));
    ck_assert(gd_capture_valid_activity("com.x.ui.Main$Inner"));
    ck_assert(!gd_capture_valid_activity(".Main Activity"));
    ck_assert(!gd_capture_valid_activity("../x"));
}
END_TEST

START_TEST(test_quote)
{
    char b[64] = "pidof ";
    ck_assert_int_eq(gd_capture_quote(b, sizeof b, "com.x"), 0);
    ck_assert_str_eq(b, "pidof 'com.x'");
    char c[64] = "";
    ck_assert_int_eq(gd_capture_quote(c, sizeof c, "it's $(x)"), 0);
    ck_assert_str_eq(c, "'it'\\''s $(x)'");
    char d[64] = "setprop p ";
    ck_assert_int_eq(gd_capture_quote(d, sizeof d, ""), 0);
    ck_assert_str_eq(d, "setprop p ''");
    char e[8] = "";
    ck_assert_int_eq(gd_capture_quote(e, sizeof e, "abcdefgh"), -1);
}
END_TEST

START_TEST(test_devices)
{
    char s[64];
    gd_error err = {0};
    const char *one = "List of devices attached\nemulator-5554  device product:x model:y transport_id:1\n\n";
    ck_assert_int_eq(gd_capture_pick_device(one, NULL, s, sizeof s, &err), GD_DEV_OK);
    ck_assert_str_eq(s, "emulator-5554");
    const char *none = "* daemon not running; starting now at tcp:5037\n* daemon started successfully\n"
                       "List of devices attached\n\n";
    ck_assert_int_eq(gd_capture_pick_device(none, NULL, s, sizeof s, &err), GD_DEV_NONE);
    const char *two = "List of devices attached\nA\tdevice\nB\tdevice\n";
    ck_assert_int_eq(gd_capture_pick_device(two, NULL, s, sizeof s, &err), GD_DEV_MANY);
    ck_assert_str_eq(err.msg, "2 devices attached: choose one with -s SERIAL");
    ck_assert_int_eq(gd_capture_pick_device(two, "B", s, sizeof s, &err), GD_DEV_OK);
    ck_assert_str_eq(s, "B");
    ck_assert_int_eq(gd_capture_pick_device(two, "C", s, sizeof s, &err), GD_DEV_NOT_FOUND);
    const char *unauth = "List of devices attached\nR58M  unauthorized usb:1-1 transport_id:3\n";
    ck_assert_int_eq(gd_capture_pick_device(unauth, NULL, s, sizeof s, &err), GD_DEV_UNAUTHORIZED);
    const char *off = "List of devices attached\nA\tdevice\nB\toffline\n";
    ck_assert_int_eq(gd_capture_pick_device(off, "B", s, sizeof s, &err), GD_DEV_OFFLINE);
}
END_TEST

START_TEST(test_package_dump)
{
    const char *d = "Packages:\n  Package [com.other] (1):\n    userId=10001\n    versionCode=1 minSdk=1\n"
                    "    versionName=0.1\n  Package [com.x] (2):\n    userId=10123\n"
                    "    versionCode=42 minSdk=24 targetSdk=34\n    versionName=1.2.3 beta\n";
    gd_capture_pkg p;
    gd_capture_parse_package(d, "com.x", &p);
    ck_assert_int_eq(p.uid, 10123);
    ck_assert_int_eq(p.version_code, 42);
    ck_assert_str_eq(p.version_name, "1.2.3");
    gd_capture_parse_package(d, "com.y", &p);
    ck_assert_int_eq(p.uid, -1);
    ck_assert_int_eq(p.version_code, -1);
    /* Android 4.x: "userId=10045 gids=[...]" */
    gd_capture_parse_package("  Package [a.b] (4):\n    userId=10045 gids=[3003]\n", "a.b", &p);
    ck_assert_int_eq(p.uid, 10045);
}
END_TEST

START_TEST(test_getprop_clock_loop)
{
    char v[64];
    const char *g = "[log.looper.10123.main.slow]: [7]\n[ro.build.version.sdk]: [34]\n[x.sdk]: [1]\n";
    ck_assert_int_eq(gd_capture_getprop(g, "ro.build.version.sdk", v, sizeof v), 1);
    ck_assert_str_eq(v, "34");
    ck_assert_int_eq(gd_capture_getprop(g, "sdk", v, sizeof v), 0);
    ck_assert_int_eq(gd_capture_getprop(g, "log.looper.10123.main.slow", v, sizeof v), 1);
    ck_assert_str_eq(v, "7");
    double w, u;
    ck_assert_int_eq(gd_capture_parse_clock("1700000000.250000000\n12345.67 40000.00\n", &w, &u), 0);
    ck_assert_double_eq(w, 1700000000250.0);
    ck_assert_double_eq_tol(u, 12345670.0, 1e-6);
    ck_assert_int_eq(gd_capture_parse_clock("date: bad format\n", &w, &u), -1);
    char p[64];
    gd_capture_looper_prop(p, sizeof p, 10123);
    ck_assert_str_eq(p, "log.looper.10123.main.slow");
    char l[256];
    ck_assert_int_eq(gd_capture_procstat_loop(l, sizeof l, 4292, 1000, 61), 0);
    ck_assert_str_eq(l, "i=0; while [ $i -lt 61 ]; do cat /proc/stat /proc/4292/stat /proc/uptime; "
                        "i=$((i+1)); sleep 1.000; done");
    ck_assert_int_eq(gd_capture_procstat_loop(l, sizeof l, -1, 250, 0), 0);
    ck_assert_str_eq(l, "while :; do cat /proc/stat /proc/uptime; sleep 0.250; done");
    double ms;
    ck_assert_int_eq(gd_capture_parse_duration("60s", &ms), 0);
    ck_assert_double_eq(ms, 60000);
    ck_assert_int_eq(gd_capture_parse_duration("1.5", &ms), 0);
    ck_assert_double_eq(ms, 1500);
    ck_assert_int_eq(gd_capture_parse_duration("500ms", &ms), 0);
    ck_assert_double_eq(ms, 500);
    ck_assert_int_eq(gd_capture_parse_duration("2m", &ms), 0);
    ck_assert_double_eq(ms, 120000);
    ck_assert_int_eq(gd_capture_parse_duration("-1s", &ms), -1);
    ck_assert_int_eq(gd_capture_parse_duration("10 s", &ms), -1);
    ck_assert_int_eq(gd_capture_parse_duration("nan", &ms), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("capture");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_package_names);
    tcase_add_test(tc, test_quote);
    tcase_add_test(tc, test_devices);
    tcase_add_test(tc, test_package_dump);
    tcase_add_test(tc, test_getprop_clock_loop);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
