/* check_gfxinfo.c - the `dumpsys gfxinfo` reader. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_gfxinfo;
#define R (&gd_reader_gfxinfo)

static double num(json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }
static const char *sval(json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }
static const char *fig(json_t *summary, const char *k)
{
    return json_string_value(json_object_get(json_object_get(summary, "figures"), k));
}

static size_t frames_of(const gd_collected *c, const char *window)
{
    size_t i, n = 0;
    json_t *e;
    json_array_foreach(c->events, i, e)
        if (strcmp(sval(e, "type"), "frame") == 0 && sval(e, "window") &&
            strcmp(sval(e, "window"), window) == 0)
            n++;
    return n;
}

START_TEST(test_fixture)
{
    gd_collected c;
    gd_test_read_file(R, GODEYE_FIXTURES "/gfxinfo/two_windows.txt", NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    json_t *m = json_array_get(c.metas, 0);
    ck_assert_str_eq(sval(m, "app"), "com.example.shop");
    ck_assert_int_eq(json_integer_value(json_object_get(m, "pid")), 3238);

    ck_assert_uint_eq(gd_collected_count(&c, "frame_summary"), 2);
    json_t *s = gd_collected_nth(&c, "frame_summary", 0);
    ck_assert_ptr_null(json_object_get(s, "window"));
    ck_assert_double_eq(num(s, "ts"), 1000000.0);   /* Stats since, monotonic ms */
    ck_assert_uint_eq(json_object_size(json_object_get(s, "figures")), 14);
    ck_assert_str_eq(fig(s, "Total frames rendered"), "516");
    ck_assert_str_eq(fig(s, "Janky frames"), "37 (7.17%)");
    ck_assert_str_eq(fig(s, "50th percentile"), "5ms");
    ck_assert_str_eq(fig(s, "99th percentile"), "48ms");
    ck_assert_str_eq(fig(s, "Number Slow bitmap uploads"), "1");
    ck_assert_str_eq(fig(s, "HISTOGRAM"), "5ms=100 6ms=2 7ms=0");
    ck_assert_str_eq(fig(s, "Stats since"), "1000000000000ns");
    ck_assert_ptr_null(fig(s, "Pipeline=Skia (OpenGL)"));
    json_t *w = gd_collected_nth(&c, "frame_summary", 1);
    const char *main_win = "com.example.shop/com.example.shop.MainActivity/android.view.ViewRootImpl@1a2b3c (visibility=0)";
    ck_assert_str_eq(sval(w, "window"), main_win);
    ck_assert_str_eq(fig(w, "Total frames rendered"), "4");
    ck_assert_str_eq(fig(w, "Janky frames"), "1 (25.00%)");
    ck_assert_double_eq(num(w, "ts"), 1000000.5);

    /* #51: the Flags 1 row is a frame too (JankTracker counts it) */
    ck_assert_uint_eq(gd_collected_count(&c, "frame"), 4);
    json_t *f = gd_collected_nth(&c, "frame", 0);
    ck_assert_double_eq(num(f, "ts"), 2000000.0);
    ck_assert_double_eq(num(f, "dur"), 12.5);
    /* FrameInterval's header and data are swapped on Android 12+ */
    ck_assert_double_eq_tol(num(f, "vsync_ms"), 16.666667, 1e-9);
    ck_assert_int_eq(json_integer_value(json_object_get(f, "pid")), 3238);
    ck_assert_str_eq(sval(f, "window"), main_win);
    f = gd_collected_nth(&c, "frame", 1);
    ck_assert_double_eq_tol(num(f, "ts"), 2000016.666667, 1e-6);
    ck_assert_double_eq_tol(num(f, "dur"), 23.333333, 1e-9);
    f = gd_collected_nth(&c, "frame", 2);
    ck_assert_double_eq_tol(num(f, "ts"), 2000033.333334, 1e-6);
    ck_assert_double_eq_tol(num(f, "dur"), 27.0, 1e-9);
    /* an older header: no FrameInterval, columns found by name */
    f = gd_collected_nth(&c, "frame", 3);
    ck_assert_double_eq(num(f, "ts"), 3000000.0);
    ck_assert_double_eq(num(f, "dur"), 8.25);
    ck_assert_ptr_null(json_object_get(f, "vsync_ms"));
    ck_assert_str_eq(sval(f, "window"),
                     "com.example.shop/com.example.shop.SettingsActivity/android.view.ViewRootImpl@4d5e6f (visibility=8)");

    ck_assert_int_eq(gd_collected_skips(&c, "gfxinfo: outlier frame (Flags 1: window visibility changed)"), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "gfxinfo: frame not completed (FrameCompleted 0)"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "gfxinfo: unparsable frame row"), 1);
    ck_assert_uint_eq(json_object_size(c.skips), 2);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_probe)
{
    const char *a = "\n** Graphics info for pid 1 [a.b] **\n";
    ck_assert_int_eq(R->probe((const unsigned char *)a, strlen(a), 1), 95);
    const char *logcat = "01-02 03:04:05.678  1234  1234 I Choreographer: Skipped 30 frames!\n";
    ck_assert_int_eq(R->probe((const unsigned char *)logcat, strlen(logcat), 1), 0);
    const char *stat = "cpu  1 2 3 4 5 6 7 0 0 0\n";
    ck_assert_int_eq(R->probe((const unsigned char *)stat, strlen(stat), 1), 0);
}
END_TEST

START_TEST(test_corpus_anavmode)
{
    const char *p = gd_test_corpus("gfxinfo/anavmode_gfxinfo.txt");
    if (!p)
        return;
    gd_collected c;
    gd_test_read_file(R, p, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_str_eq(sval(json_array_get(c.metas, 0), "app"), "de.codevoid.aNavMode");
    /* 1091 rows: 768 with Flags 0, 304 Flags 2, 18 Flags 1, 1 Flags 10;
     * #51: all but the Flags 8 (skipped frame) one are frames, less 2 not
     * completed, 6 completed before their vsync and 3 "completed" 2 to 9
     * years later (awk per PROFILEDATA block: 1075) */
    ck_assert_uint_eq(gd_collected_count(&c, "frame"), 1075);
    static const struct { const char *win; size_t n; } per[] = {
        {"de.codevoid.andronavibar/de.codevoid.andronavibar.MainActivity/android.view.ViewRootImpl@4db95cb (visibility=8)", 120},
        {"com.android.settings/com.android.settings.homepage.SettingsHomepageActivity/android.view.ViewRootImpl@1634b91 (visibility=8)", 65},
        {"com.android.settings/com.android.settings.SubSettings/android.view.ViewRootImpl@b738af6 (visibility=8)", 79},
        {"com.android.settings/com.android.settings.spa.SpaActivity/android.view.ViewRootImpl@4cd4ef7 (visibility=8)", 117},
        {"Taskbar/android.view.ViewRootImpl@2788925 (visibility=0)", 120},
        {"com.android.launcher3/com.android.quickstep.RecentsActivity/android.view.ViewRootImpl@eb9dafa (visibility=8)", 116},
        {"InputMethod/android.view.ViewRootImpl@dee77ce (visibility=8)", 86},
        {"com.google.android.apps.docs/com.google.android.apps.docs.drive.app.navigation.NavigationActivity/android.view.ViewRootImpl@f9c1103 (visibility=8)", 116},
        {"ShellDropTarget/android.view.ViewRootImpl@abaffae (visibility=4)", 0},
        {"ScreenDecorOverlay/android.view.ViewRootImpl@a1a114f (visibility=4)", 19},
        {"ScreenDecorOverlayBottom/android.view.ViewRootImpl@79a0dc (visibility=4)", 0},
        {"NotificationShade/android.view.ViewRootImpl@8f4b5e5 (visibility=4)", 117},
        {"StatusBar/android.view.ViewRootImpl@3bb68ba (visibility=0)", 120},
    };
    for (size_t i = 0; i < sizeof per / sizeof *per; i++)
        ck_assert_uint_eq(frames_of(&c, per[i].win), per[i].n);
    /* awk -F, '$1 ~ /^[0-9]+$/ && $1 != 0' by Flags: 304 x 2, 18 x 1, 1 x 10;
     * #51: only the Flags 10 row (8: skipped frame) is skipped; of the
     * others 3 more are not completed and 1 more completed before its vsync */
    ck_assert_int_eq(gd_collected_skips(&c, "gfxinfo: outlier frame (Flags 2: render-thread animation)"), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "gfxinfo: outlier frame (Flags 1: window visibility changed)"), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "gfxinfo: outlier frame (Flags 8: skipped frame)"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "gfxinfo: frame not completed (FrameCompleted 0)"), 5);
    ck_assert_int_eq(gd_collected_skips(&c, "gfxinfo: frame completed before its IntendedVsync (stale value)"), 7);
    ck_assert_int_eq(gd_collected_skips(&c, "gfxinfo: frame over 10 s (ANR or garbage FrameCompleted)"), 3);
    ck_assert_uint_eq(json_object_size(c.skips), 4);
    /* 10 process-wide + 13 per-window summaries, and one without figures for
     * pid 28907's window, whose legacy table (lines 5-8) is empty (#27) */
    ck_assert_uint_eq(gd_collected_count(&c, "frame_summary"), 24);
    json_t *s = gd_collected_nth(&c, "frame_summary", 0); /* the empty table's window */
    ck_assert_int_eq(json_integer_value(json_object_get(s, "pid")), 28907);
    ck_assert_str_eq(json_string_value(json_object_get(s, "window")),
                     "de.codevoid.aNavMode/de.codevoid.aNavMode.MainActivity/android.view.ViewRootImpl@1720d3b "
                     "(visibility=0)");
    ck_assert_uint_eq(json_object_size(json_object_get(s, "figures")), 0);
    s = gd_collected_nth(&c, "frame_summary", 1);
    ck_assert_int_eq(json_integer_value(json_object_get(s, "pid")), 17477);
    ck_assert_ptr_null(json_object_get(s, "window"));
    ck_assert_str_eq(fig(s, "Total frames rendered"), "3370");
    ck_assert_str_eq(fig(s, "Janky frames"), "363 (10.77%)");
    ck_assert_str_eq(fig(s, "Janky frames (legacy)"), "1614 (47.89%)");
    ck_assert_str_eq(fig(s, "50th percentile"), "18ms");
    ck_assert_str_eq(fig(s, "90th percentile"), "32ms");
    ck_assert_str_eq(fig(s, "95th percentile"), "46ms");
    ck_assert_str_eq(fig(s, "99th percentile"), "150ms");
    ck_assert_str_eq(fig(s, "Number Missed Vsync"), "63");
    ck_assert_str_eq(fig(s, "99th gpu percentile"), "9ms");
    json_t *f = gd_collected_nth(&c, "frame", 0);
    ck_assert_double_eq_tol(num(f, "ts"), 25622425.131009, 1e-6);
    ck_assert_double_eq_tol(num(f, "dur"), 54.812517, 1e-9);
    ck_assert_double_eq_tol(num(f, "vsync_ms"), 16.666667, 1e-9);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_corpus_choi890_bom)
{
    const char *p = gd_test_corpus("gfxinfo/choi890_framestats.txt");
    if (!p)
        return;
    gd_collected c;
    gd_test_read_file(R, p, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    json_t *m = json_array_get(c.metas, 0);
    ck_assert_str_eq(sval(m, "app"), "com.soundvisualization.accessibility");
    ck_assert_int_eq(json_integer_value(json_object_get(m, "pid")), 31667);
    ck_assert_uint_eq(gd_collected_count(&c, "frame"), 120);
    ck_assert_uint_eq(json_object_size(c.skips), 0);
    ck_assert_uint_eq(gd_collected_count(&c, "frame_summary"), 2);
    for (size_t i = 0; i < 2; i++) {
        json_t *s = gd_collected_nth(&c, "frame_summary", i);
        ck_assert_str_eq(fig(s, "Total frames rendered"), "516");
        ck_assert_str_eq(fig(s, "Janky frames"), "113 (21.90%)");
        ck_assert_str_eq(fig(s, "50th percentile"), "11ms");
        ck_assert_str_eq(fig(s, "90th percentile"), "31ms");
        ck_assert_str_eq(fig(s, "95th percentile"), "65ms");
        ck_assert_str_eq(fig(s, "99th percentile"), "101ms");
    }
    json_t *f = gd_collected_nth(&c, "frame", 0);
    ck_assert_double_eq_tol(num(f, "ts"), 314856675.367713, 1e-6);
    ck_assert_double_eq_tol(num(f, "dur"), 11.561237, 1e-9);
    ck_assert_double_eq_tol(num(f, "vsync_ms"), 8.31178, 1e-9);
    gd_collected_free(&c);
}
END_TEST

/* Legacy "Profile data in ms" table (no framestats): one frame per row
 * lasting the sum of its columns, time unknown (0), window from the line
 * above the header.  Cut from a real dump (nuviotv), plus an Android 4.x
 * style three-column table and bad rows. */
START_TEST(test_legacy_profile)
{
    static const char txt[] =
        "** Graphics info for pid 2062 [com.nuvio.tv] **\n"
        "\n"
        "Stats since: 89732159635559ns\n"
        "Total frames rendered: 2903\n"
        "\n"
        "Pipeline=Skia (OpenGL)\n"
        "Profile data in ms:\n"
        "\n"
        "\tcom.nuvio.tv/com.nuvio.tv.MainActivity/android.view.ViewRootImpl@6e5075b (visibility=0)\n"
        "\tDraw\tPrepare\tProcess\tExecute\n"
        "\t50.00\t0.31\t4.26\t0.70\n"
        "\t45.05\t0.33\t3.14\t0.73\n"
        "\t2.12\t0.22\t2.60\t0.97\n"
        "\t1.00\tx\t2.00\t3.00\n"
        "\t1.00\t2.00\t3.00\n"
        "\n"
        "\tcom.example/com.example.Old/android.view.ViewRootImpl@41f9a498\n"
        "\tDraw\tProcess\tExecute\n"
        "\t1.50\t2.25\t0.75\n"
        "\n"
        "View hierarchy:\n"
        "\n"
        "  com.nuvio.tv/com.nuvio.tv.MainActivity/android.view.ViewRootImpl@6e5075b\n"
        "\t9.00\t9.00\t9.00\t9.00\n";
    gd_collected c;
    gd_test_read_mem(R, txt, sizeof txt - 1, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "frame"), 4);
    const char *w1 = "com.nuvio.tv/com.nuvio.tv.MainActivity/android.view.ViewRootImpl@6e5075b (visibility=0)";
    ck_assert_uint_eq(frames_of(&c, w1), 3);
    json_t *f = gd_collected_nth(&c, "frame", 0);
    ck_assert_double_eq_tol(num(f, "dur"), 55.27, 1e-9);
    ck_assert_double_eq(num(f, "ts"), 0);
    ck_assert_ptr_null(json_object_get(f, "vsync_ms"));
    ck_assert_int_eq(json_integer_value(json_object_get(f, "pid")), 2062);
    ck_assert_double_eq_tol(num(gd_collected_nth(&c, "frame", 2), "dur"), 5.91, 1e-9);
    f = gd_collected_nth(&c, "frame", 3);
    ck_assert_str_eq(sval(f, "window"), "com.example/com.example.Old/android.view.ViewRootImpl@41f9a498");
    ck_assert_double_eq_tol(num(f, "dur"), 4.5, 1e-9);
    ck_assert_int_eq(gd_collected_skips(&c, "gfxinfo: unparsable legacy profile row"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "gfxinfo: legacy profile row with a wrong column count"), 1);
    ck_assert_uint_eq(json_object_size(c.skips), 2);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_corpus_nuviotv_legacy)
{
    const char *p = gd_test_corpus("gfxinfo/nuviotv_gfxinfo_summary.txt");
    if (!p)
        return;
    gd_collected c;
    gd_test_read_file(R, p, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(json_object_size(c.skips), 0);
    /* awk -F'\t' '/^\t[0-9]/' : 120 rows, column sums 5571.66 + 57.02 +
     * 607.74 + 112.26 = 6348.68 ms, longest row 101.14 ms */
    ck_assert_uint_eq(gd_collected_count(&c, "frame"), 120);
    ck_assert_uint_eq(frames_of(&c, "com.nuvio.tv/com.nuvio.tv.MainActivity/android.view.ViewRootImpl@6e5075b (visibility=0)"), 120);
    double sum = 0, max = 0;
    for (size_t i = 0; i < 120; i++) {
        double d = num(gd_collected_nth(&c, "frame", i), "dur");
        sum += d;
        max = d > max ? d : max;
    }
    ck_assert_double_eq_tol(sum, 6348.68, 1e-6);
    ck_assert_double_eq_tol(max, 101.14, 1e-9);
    ck_assert_uint_eq(gd_collected_count(&c, "frame_summary"), 1);
    gd_collected_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gfxinfo");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fixture);
    tcase_add_test(tc, test_probe);
    tcase_add_test(tc, test_corpus_anavmode);
    tcase_add_test(tc, test_corpus_choi890_bom);
    tcase_add_test(tc, test_legacy_profile);
    tcase_add_test(tc, test_corpus_nuviotv_legacy);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
