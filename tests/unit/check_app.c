/* check_app.c - the --app package rule and the system-process rule (#47). */
#include <check.h>
#include <stdlib.h>

#include "analysis/app.h"
#include "testutil.h"

START_TEST(app_match_package_and_services)
{
    ck_assert_int_eq(gd_app_match("com.example", "com.example"), 1);
    ck_assert_int_eq(gd_app_match("com.example:push", "com.example"), 1);
    /* a longer package is another app, a part of the name is not the app */
    ck_assert_int_eq(gd_app_match("com.example.other", "com.example"), 0);
    ck_assert_int_eq(gd_app_match("com.examplex", "com.example"), 0);
    ck_assert_int_eq(gd_app_match("com.ex", "com.example"), 0);
    ck_assert_int_eq(gd_app_match("system_server", "system_server"), 1);
    ck_assert_int_eq(gd_app_match(NULL, "com.example"), 0);
    ck_assert_int_eq(gd_app_match("com.example", NULL), 0);
    ck_assert_int_eq(gd_app_match("com.example", ""), 0);
}
END_TEST

START_TEST(system_processes)
{
    static const char *const sys[] = {"system_server", "surfaceflinger", "/system/bin/audioserver",
                                      "/vendor/bin/hw/android.hardware.audio@2.0-service", "com.android.systemui",
                                      "android.process.acore", "zygote64", "kworker/0:1", "[kthreadd]", "logd",
                                      "android.hardware.power-service.pixel", "ndroid.systemui", "binder:843_2",
                                      "/data/app/~~4sU==/com.topjohnwu.magisk-Eg==/lib/arm64/libbusybox.so",
                                      "110f0000.drmdp", ".ShannonImsService", NULL};
    for (int i = 0; sys[i]; i++)
        ck_assert_msg(gd_app_is_system(sys[i]) == 1, "%s is a system process", sys[i]);
    static const char *const apps[] = {"com.example.shop", "com.google.android.youtube", "tutu.ABenchMark",
                                       "com.jeanboy.app.training", "org.newstand.datamigration", NULL};
    for (int i = 0; apps[i]; i++)
        ck_assert_msg(gd_app_is_system(apps[i]) == 0, "%s is an app", apps[i]);
    ck_assert_int_eq(gd_app_is_system(NULL), 1);
}
END_TEST

/* #47: a process's package: "PKG:svc" is PKG's (the names of the corpus's
 * Pixel 9 trace) */
START_TEST(process_packages)
{
    char b[64];
    ck_assert_int_eq(gd_app_package("com.google.android.googlequicksearchbox:interactor", b, sizeof b), 1);
    ck_assert_str_eq(b, "com.google.android.googlequicksearchbox");
    ck_assert_int_eq(gd_app_package("com.sonymobile.chkbugreport.testapp:ext2", b, sizeof b), 1);
    ck_assert_str_eq(b, "com.sonymobile.chkbugreport.testapp");
    ck_assert_int_eq(gd_app_package("com.google.android.youtube", b, sizeof b), 1);
    ck_assert_str_eq(b, "com.google.android.youtube");
    ck_assert_int_eq(gd_app_package(":svc", b, sizeof b), 1);
    ck_assert_str_eq(b, ":svc");
    ck_assert_int_eq(gd_app_package("", b, sizeof b), 0);
    ck_assert_int_eq(gd_app_package(NULL, b, sizeof b), 0);
    /* longer than the buffer: none, never cut */
    ck_assert_int_eq(gd_app_package("com.example.long:x", b, 8), 0);
    ck_assert_int_eq(gd_app_package("com.ex:longservice", b, 8), 1);
    ck_assert_str_eq(b, "com.ex");
}
END_TEST

/* #47: whose frames a window is (the windows of the corpus's gfxinfo and
 * Perfetto FrameTimeline captures) */
START_TEST(window_packages_and_system_layers)
{
    char b[64];
    ck_assert_int_eq(gd_app_of_window("com.jeanboy.app.training/com.jeanboy.app.training.ui.activity.MainActivity/"
                                      "android.view.ViewRootImpl@452543d (visibility=8)", b, sizeof b), 1);
    ck_assert_str_eq(b, "com.jeanboy.app.training");
    ck_assert_int_eq(gd_app_of_window("TX - com.google.samples.apps.nowinandroid.demo/"
                                      "com.google.samples.apps.nowinandroid.MainActivity#50010", b, sizeof b), 1);
    ck_assert_str_eq(b, "com.google.samples.apps.nowinandroid.demo");
    /* system layers name no package */
    ck_assert_int_eq(gd_app_of_window("StatusBar/android.view.ViewRootImpl@fff6b30 (visibility=0)", b, sizeof b), 0);
    ck_assert_int_eq(gd_app_of_window("TX - StatusBar#38004", b, sizeof b), 0);
    ck_assert_int_eq(gd_app_of_window("TX - Surface(name=8d1f382 com.google.samples.apps.nowinandroid.demo/"
                                      "com.google.samples.apps.nowinandroid.MainActivity)/@0x42c2fdf - "
                                      "animation-leash of starting_reveal#50014", b, sizeof b), 0);
    ck_assert_int_eq(gd_app_of_window(NULL, b, sizeof b), 0);
    /* a package longer than the buffer is none, never cut */
    ck_assert_int_eq(gd_app_of_window("com.example.a.very.long.package.name.indeed/X", b, 8), 0);
    ck_assert_int_eq(gd_app_is_system_layer("TX - Surface(name=Task=16090)/@0x9b71fa2 - animation-leash of "
                                            "app_transition#50005"), 1);
    ck_assert_int_eq(gd_app_is_system_layer("TX - com.google.samples.apps.nowinandroid.demo/X#1"), 0);
    ck_assert_int_eq(gd_app_is_system_layer(NULL), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("app");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, app_match_package_and_services);
    tcase_add_test(tc, system_processes);
    tcase_add_test(tc, process_packages);
    tcase_add_test(tc, window_packages_and_system_layers);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
