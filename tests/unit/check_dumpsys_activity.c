/* check_dumpsys_activity.c - the `dumpsys activity top` reader. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_dumpsys_activity;
#define R (&gd_reader_dumpsys_activity)

static json_int_t ival(json_t *o, const char *k) { return json_integer_value(json_object_get(o, k)); }
static const char *sval(json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

static json_t *view(json_t *dump, size_t id)
{
    json_t *v = json_array_get(json_object_get(dump, "views"), id - 1);
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(ival(v, "id"), (json_int_t)id);
    return v;
}

static void assert_rect(json_t *v, int l, int t, int r, int b)
{
    json_t *rc = json_object_get(v, "rect");
    ck_assert_int_eq(json_integer_value(json_array_get(rc, 0)), l);
    ck_assert_int_eq(json_integer_value(json_array_get(rc, 1)), t);
    ck_assert_int_eq(json_integer_value(json_array_get(rc, 2)), r);
    ck_assert_int_eq(json_integer_value(json_array_get(rc, 3)), b);
}

static void assert_view(json_t *d, size_t id, int parent, int l, int t, int r, int b, int layers,
                        int visible)
{
    json_t *v = view(d, id);
    ck_assert_int_eq(ival(v, "parent"), parent);
    assert_rect(v, l, t, r, b);
    ck_assert_int_eq(ival(v, "layers"), layers);
    ck_assert_int_eq(json_is_true(json_object_get(v, "visible")), visible);
}

static size_t painting(json_t *d)
{
    size_t i, n = 0;
    json_t *v;
    json_array_foreach(json_object_get(d, "views"), i, v)
        if (ival(v, "layers") == 1)
            n++;
    return n;
}

/* the first view of a dump with that res_id */
static json_t *by_res(json_t *d, const char *res)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(d, "views"), i, v)
        if (sval(v, "res_id") && strcmp(sval(v, "res_id"), res) == 0)
            return v;
    ck_abort_msg("no view %s", res);
    return NULL;
}

START_TEST(test_fixture)
{
    gd_collected c;
    gd_test_read_file(R, GODEYE_FIXTURES "/dumpsys_activity/two_tasks.txt", NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "view_dump"), 1);
    json_t *d = gd_collected_nth(&c, "view_dump", 0);
    /* 2024-01-02 03:04:05.678 GMT+02:00 */
    ck_assert_int_eq((json_int_t)json_number_value(json_object_get(d, "ts")), 1704157445678LL);
    ck_assert_int_eq(ival(d, "pid"), 1234);
    json_t *pg = json_object_get(d, "page");
    ck_assert_str_eq(sval(pg, "class"), "com.example.shop/.MainActivity");
    ck_assert_str_eq(sval(pg, "type"), "activity");
    ck_assert_int_eq(ival(pg, "hash"), 0x1a2b3c);
    ck_assert_str_eq(sval(d, "window"), "MainActivity");
    ck_assert_int_eq(ival(json_object_get(d, "screen"), "w"), 1080);
    ck_assert_int_eq(ival(json_object_get(d, "screen"), "h"), 2400);
    ck_assert_ptr_null(json_object_get(d, "has_paint")); /* paint data present */
    ck_assert_uint_eq(json_array_size(json_object_get(d, "views")), 11);
    /* flagless DecorView: union of its children, one layer */
    assert_view(d, 1, 0, 0, 0, 1080, 2400, 1, 1);
    ck_assert_str_eq(sval(view(d, 1), "class"), "DecorView");
    assert_view(d, 2, 1, 0, 0, 1080, 2340, 0, 1);          /* no D: draws nothing */
    assert_view(d, 3, 2, 0, 0, 0, 0, 0, 0);                /* G */
    ck_assert_str_eq(sval(view(d, 3), "res_id"), "android:id/action_mode_bar_stub");
    assert_view(d, 4, 2, 0, 100, 1080, 2340, 1, 1);
    assert_view(d, 5, 4, 44, 84, 77, 117, 1, 1);           /* negative relative top */
    assert_view(d, 6, 4, 0, 300, 1080, 500, 0, 0);         /* I: hides its subtree */
    assert_view(d, 7, 6, 10, 320, 110, 360, 1, 1);
    /* a line at a view's place that is not a view line: a view with its own
     * toString(), paint unknown, its parent's box; its child keeps its place */
    json_t *cv = view(d, 8);
    ck_assert_int_eq(ival(cv, "parent"), 4);
    assert_rect(cv, 0, 100, 1080, 2340);
    ck_assert_ptr_null(json_object_get(cv, "layers"));
    ck_assert_ptr_null(json_object_get(cv, "class"));
    assert_view(d, 9, 8, 1, 101, 2, 102, 1, 1);
    assert_view(d, 10, 4, 100, 400, 300, 500, 1, 1);
    ck_assert_str_eq(sval(view(d, 10), "res_id"), "app:id/buy");
    ck_assert_str_eq(sval(view(d, 10), "class"), "android.widget.Button");
    assert_view(d, 11, 1, 0, 2340, 1080, 2400, 1, 1);
    ck_assert_uint_eq(painting(d), 7);
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: view line without flags (paint unknown)"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: non-view line in hierarchy"), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: activity without view hierarchy"), 1);
    /* the Dump time's zone: a UTC clock, +02:00 */
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    ck_assert_str_eq(sval(json_array_get(c.metas, 0), "clock"), "utc");
    ck_assert_int_eq(ival(json_array_get(c.metas, 0), "utc_offset_min"), 120);
    gd_collected_free(&c);
}
END_TEST

/* UTF-8 text to UTF-16LE with a BOM (new buffer). */
static unsigned char *to_utf16le(const char *s, size_t *n)
{
    size_t len = strlen(s);
    unsigned char *o = malloc(2 + len * 4), *p = o;
    *p++ = 0xFF;
    *p++ = 0xFE;
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        unsigned cp;
        if (*u < 0x80)
            cp = *u++;
        else if ((*u & 0xE0) == 0xC0) {
            cp = ((u[0] & 0x1Fu) << 6) | (u[1] & 0x3Fu);
            u += 2;
        } else if ((*u & 0xF0) == 0xE0) {
            cp = ((u[0] & 0x0Fu) << 12) | ((u[1] & 0x3Fu) << 6) | (u[2] & 0x3Fu);
            u += 3;
        } else {
            cp = ((u[0] & 0x07u) << 18) | ((u[1] & 0x3Fu) << 12) | ((u[2] & 0x3Fu) << 6) | (u[3] & 0x3Fu);
            u += 4;
        }
        if (cp >= 0x10000) {
            unsigned hi = 0xD800 + ((cp - 0x10000) >> 10), lo = 0xDC00 + ((cp - 0x10000) & 0x3FF);
            *p++ = hi & 0xFF;
            *p++ = hi >> 8;
            cp = lo;
        }
        *p++ = cp & 0xFF;
        *p++ = cp >> 8;
    }
    *n = (size_t)(p - o);
    return o;
}

START_TEST(test_utf16_decor_with_flags)
{
    const char *text =
        "TASK null id=5 userId=0\r\n"
        "  ACTIVITY com.example.emoji/.Main 413005e pid=77\r\n"
        "    View Hierarchy:\r\n"
        "      com.android.internal.policy.DecorView{d48758f V.ED..... R.....ID 0,0-720,1280}[Caf\xc3\xa9 \xf0\x9f\x98\x80]\r\n"
        "        android.widget.FrameLayout{745d01c V.E...... .......D 0,0-720,1280}\r\n";
    size_t n;
    unsigned char *buf = to_utf16le(text, &n);
    ck_assert_int_eq(gd_test_probe_mem(R, buf, n), 95);
    gd_collected c;
    gd_test_read_mem(R, buf, n, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "view_dump"), 1);
    json_t *d = gd_collected_nth(&c, "view_dump", 0);
    ck_assert_str_eq(sval(d, "window"), "Caf\xc3\xa9 \xf0\x9f\x98\x80");
    ck_assert_int_eq(ival(d, "pid"), 77);
    ck_assert_int_eq((json_int_t)json_number_value(json_object_get(d, "ts")), 0); /* no Dump time */
    ck_assert_uint_eq(json_array_size(json_object_get(d, "views")), 2);
    assert_view(d, 1, 0, 0, 0, 720, 1280, 1, 1); /* flags present: they decide */
    ck_assert_str_eq(sval(view(d, 1), "class"), "com.android.internal.policy.DecorView");
    assert_view(d, 2, 1, 0, 0, 720, 1280, 0, 1);
    gd_collected_free(&c);
    free(buf);
}
END_TEST

/* Recent Android prints the root as `DecorView{hash V.E...... R....... l,t-r,b
 * aid=N}`: without the 'D' flag, yet the DecorView paints the window
 * background (as the old `DecorView@hash[Title]` form is read): one layer,
 * so a full-screen child that draws makes the screen 2x over 1080 x 2400 =
 * 2,592,000 px.  Recognised by its class in either spelling. */
START_TEST(test_decor_brace_aid)
{
    const char *text =
        "TASK null id=9 userId=0\n"
        "  ACTIVITY com.example.app/.Main 1a2b3c4 pid=4242\n"
        "    View Hierarchy:\n"
        "      DecorView{5e9b2a1 V.E...... R....... 0,0-1080,2400 aid=1073741824}\n"
        "        android.widget.LinearLayout{1d2e3f4 V.ED..... ........ 0,0-1080,2400}\n"
        "  ACTIVITY com.example.app/.Other 5a6b7c8 pid=4242\n"
        "    View Hierarchy:\n"
        "      com.android.internal.policy.DecorView{6e9b2a2 V.E...... R....... 0,0-1080,2400 aid=1073741825}\n"
        "        android.widget.FrameLayout{2d2e3f5 V.E...... ........ 0,0-1080,2400}\n"
        ;
    gd_collected c;
    gd_test_read_mem(R, text, strlen(text), NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "view_dump"), 2);
    json_t *d = gd_collected_nth(&c, "view_dump", 0);
    ck_assert_str_eq(sval(view(d, 1), "class"), "DecorView");
    assert_view(d, 1, 0, 0, 0, 1080, 2400, 1, 1); /* the window background */
    assert_view(d, 2, 1, 0, 0, 1080, 2400, 1, 1);
    ck_assert_uint_eq(painting(d), 2);
    d = gd_collected_nth(&c, "view_dump", 1);
    ck_assert_str_eq(sval(view(d, 1), "class"), "com.android.internal.policy.DecorView");
    assert_view(d, 1, 0, 0, 0, 1080, 2400, 1, 1);
    /* only the root is the window's DecorView: a FrameLayout without 'D' paints nothing */
    assert_view(d, 2, 1, 0, 0, 1080, 2400, 0, 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_probe)
{
    const char *logcat = "01-02 03:04:05.678  1234  1234 I ActivityManager: ACTIVITY com.a/.B 1 pid=2\n";
    ck_assert_int_eq(R->probe((const unsigned char *)logcat, strlen(logcat), 1), 0);
    const char *json = "{\"godeye_trace\":1,\"events\":[]}";
    ck_assert_int_eq(R->probe((const unsigned char *)json, strlen(json), 1), 0);
    const char *top = "TASK 1:com.a id=1 userId=0\n  ACTIVITY com.a/.Main 1a pid=2\n";
    ck_assert_int_eq(R->probe((const unsigned char *)top, strlen(top), 1), 80);
}
END_TEST

START_TEST(test_garbage_never_crashes)
{
    const char *bad = "    View Hierarchy:\n      DecorView@1[\n        a{\n        b{1 V 1,2-}\n"
                      "          c{1 VVVVVVVVV x 1,2-3,4\n          x(5,5,1,1)\n          (1,2,3\n"
                      "   \n      View Hierarchy:\n";
    gd_collected c;
    gd_test_read_mem(R, bad, strlen(bad), NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    /* the DecorView line parses (no title end); the broken lines are views
     * with their own text (no bounds: their parent's box) */
    ck_assert_uint_eq(gd_collected_count(&c, "view_dump"), 1);
    json_t *d = gd_collected_nth(&c, "view_dump", 0);
    ck_assert_uint_eq(json_array_size(json_object_get(d, "views")), 6);
    ck_assert_str_eq(sval(view(d, 2), "class"), "a");
    ck_assert_int_eq(ival(view(d, 3), "parent"), 1);
    ck_assert_int_eq(ival(view(d, 4), "parent"), 3);
    ck_assert_int_eq(ival(view(d, 5), "parent"), 3);
    ck_assert_int_eq(ival(view(d, 6), "parent"), 3);
    assert_rect(view(d, 5), 0, 0, 0, 0); /* (5,5,1,1) is no box */
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: view line without flags (paint unknown)"), 5);
    ck_assert_ptr_null(c.metas ? json_array_get(c.metas, 0) : NULL); /* no Dump time */
    gd_collected_free(&c);
}
END_TEST

/* YouTube's player prints an obfuscated view as "35536449(0,0,1080,608)":
 * kept with its bounds and unknown paint, its three children below it. */
START_TEST(test_custom_view_with_bounds)
{
    gd_collected c;
    gd_test_read_file(R, GODEYE_FIXTURES "/dumpsys_activity/youtube_custom_view.txt", NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "view_dump"), 1);
    json_t *d = gd_collected_nth(&c, "view_dump", 0);
    ck_assert_uint_eq(json_array_size(json_object_get(d, "views")), 10);
    assert_view(d, 1, 0, 0, 104, 1080, 2400, 1, 1);  /* DecorView: union of its children */
    assert_view(d, 2, 1, 0, 104, 1080, 712, 0, 1);   /* watch_player */
    assert_view(d, 5, 4, 0, 104, 1080, 712, 0, 1);   /* player_view */
    json_t *cv = view(d, 6);
    ck_assert_int_eq(ival(cv, "parent"), 5);
    assert_rect(cv, 0, 104, 1080, 712);
    ck_assert_ptr_null(json_object_get(cv, "layers"));
    ck_assert_ptr_null(json_object_get(cv, "class"));
    ck_assert_str_eq(sval(view(d, 7), "class"), "algn");
    assert_view(d, 7, 6, 0, 104, 1080, 712, 0, 1);
    assert_view(d, 8, 7, 0, 104, 1080, 712, 0, 1);   /* SurfaceView */
    assert_view(d, 9, 7, 0, 104, 1080, 712, 1, 1);
    assert_view(d, 10, 1, 0, 2356, 1080, 2400, 1, 1);
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: view line without flags (paint unknown)"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: non-view line in hierarchy"), 0);
    /* 22:33:00.150 GMT+03:00 = 19:33:00.150 UTC */
    ck_assert_int_eq((json_int_t)json_number_value(json_object_get(d, "ts")), 1774207980150LL);
    ck_assert_str_eq(sval(json_array_get(c.metas, 0), "clock"), "utc");
    ck_assert_int_eq(ival(json_array_get(c.metas, 0), "utc_offset_min"), 180);
    gd_collected_free(&c);
}
END_TEST

/* MIUI's CellScreen child prints a multi-line toString(): a table at column
 * 0, a blank line, tab-indented grid rows; the tree then goes on. */
START_TEST(test_miui_multiline_tostring)
{
    gd_collected c;
    gd_test_read_file(R, GODEYE_FIXTURES "/dumpsys_activity/miui_cellscreen.txt", NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "view_dump"), 1);
    json_t *d = gd_collected_nth(&c, "view_dump", 0);
    ck_assert_uint_eq(json_array_size(json_object_get(d, "views")), 25);
    assert_view(d, 3, 2, 0, 80, 1080, 2356, 0, 1);   /* CellScreen */
    json_t *cv = view(d, 4);                          /* "[ mHCells = 4 ..." */
    ck_assert_int_eq(ival(cv, "parent"), 3);
    assert_rect(cv, 0, 80, 1080, 2356);
    ck_assert_ptr_null(json_object_get(cv, "layers"));
    assert_view(d, 5, 4, 33, 1719, 287, 2019, 0, 1); /* FolderIcon1x1 at the CellScreen's origin */
    ck_assert_str_eq(sval(view(d, 5), "class"), "com.miui.home.launcher.folder.FolderIcon1x1");
    assert_view(d, 8, 7, 78, 1735, 241, 1898, 1, 1); /* icon_icon */
    assert_view(d, 11, 10, 99, 1756, 139, 1796, 1, 1);
    assert_view(d, 24, 5, 33, 1898, 287, 2019, 0, 1); /* icon_title_container */
    assert_view(d, 25, 2, 1080, 80, 2160, 2356, 0, 1); /* the next CellScreen */
    /* 12 table rows, a blank line, "OccupiedCells:", 6 grid rows, " ]" */
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: non-view line in hierarchy"), 21);
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: view line without flags (paint unknown)"), 1);
    /* the Looper text after the hierarchy is not swallowed, its Dump time read */
    ck_assert_int_eq((json_int_t)json_number_value(json_object_get(d, "ts")), 1774207980195LL);
    gd_collected_free(&c);
}
END_TEST

/* Blank lines inside a hierarchy, a view deeper than its parent's child
 * level, stray text deeper than the tree; the text after the hierarchy
 * (even indented, even with braces) stays out of it. */
START_TEST(test_recovery_shapes)
{
    const char *text =
        "TASK 1:com.a id=1 userId=0\n"
        "  ACTIVITY com.a/.Main 1a pid=2\n"
        "    View Hierarchy:\n"
        "      DecorView@1[Main]\n"
        "        android.widget.FrameLayout{1 V.E...... ........ 0,0-100,200}\n"
        "          android.view.View{2 V.ED..... ........ 10,10-20,20}\n"
        "\n"
        "          android.view.View{3 V.ED..... ........ 30,30-40,40}\n"
        "                a stray line of a view's own text\n"
        "              android.view.View{4 V.ED..... ........ 1,1-2,2}\n"
        "                android.view.View{5 V.ED..... ........ 1,1-2,2}\n"
        "             android.view.View{6 V.ED..... ........ 3,3-4,4}\n"
        "        android.view.View{7 V.ED..... ........ 0,190-100,200}\n"
        "    Looper (main, tid 2) {fcc85d5}\n"
        "      Message 0: { when=+18s69ms what=1 target=miuix.animation.Folme$2 }\n"
        "        android.view.View{8 V.ED..... ........ 0,0-1,1}\n"
        "      Dump time: 2026-03-22 22:33:00.132\n";
    gd_collected c;
    gd_test_read_mem(R, text, strlen(text), NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "view_dump"), 1);
    json_t *d = gd_collected_nth(&c, "view_dump", 0);
    ck_assert_uint_eq(json_array_size(json_object_get(d, "views")), 8);
    assert_view(d, 4, 2, 30, 30, 40, 40, 1, 1);  /* after the blank line */
    assert_view(d, 5, 4, 31, 31, 32, 32, 1, 1);  /* two levels deeper: under view 4 */
    assert_view(d, 6, 5, 32, 32, 33, 33, 1, 1);
    assert_view(d, 7, 4, 33, 33, 34, 34, 1, 1);  /* odd indentation: under view 4 */
    assert_view(d, 8, 1, 0, 190, 100, 200, 1, 1);
    /* the blank line and the stray text */
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: non-view line in hierarchy"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: view off its parent's child indentation"), 2);
    /* no zone: the wall clock read as UTC, a local clock */
    ck_assert_int_eq((json_int_t)json_number_value(json_object_get(d, "ts")), 1774218780132LL);
    ck_assert_str_eq(sval(json_array_get(c.metas, 0), "clock"), "local");
    ck_assert_ptr_null(json_object_get(json_array_get(c.metas, 0), "utc_offset_min"));
    gd_collected_free(&c);
}
END_TEST

/* offsets that add up past 32 bits are held at 2^30, no overflow */
START_TEST(test_huge_offsets)
{
    const char *text = "    View Hierarchy:\n"
                       "      a{1 V.ED..... ........ 1000000000,0-1000000000,1}\n"
                       "        b{2 V.ED..... ........ 1000000000,0-1000000000,1}\n"
                       "          c{3 V.ED..... ........ 1000000000,0-1000000000,1}\n"
                       "            d(1000000000,0,1000000000,1)\n";
    gd_collected c;
    gd_test_read_mem(R, text, strlen(text), NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    json_t *d = gd_collected_nth(&c, "view_dump", 0);
    ck_assert_uint_eq(json_array_size(json_object_get(d, "views")), 4);
    assert_rect(view(d, 2), 1 << 30, 0, 1 << 30, 1);
    assert_rect(view(d, 4), 1 << 30, 0, 1 << 30, 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_corpus_lumisky)
{
    const char *p = gd_test_corpus("dumpsys_activity/lumisky_activity_top.txt");
    if (!p)
        return;
    gd_collected c;
    gd_test_read_file(R, p, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "view_dump"), 4);
    /* view lines per hierarchy (regex count, see the corpus expectation) */
    static const size_t nviews[4] = {82, 687, 494, 801}, npaint[4] = {40, 231, 88, 306};
    static const char *const cls[4] = {"com.miui.notes/.ui.activity.EditActivity",
                                       "com.google.android.youtube/.app.honeycomb.Shell$HomeActivity",
                                       "com.whatsapp/.Conversation", "com.miui.home/.launcher.Launcher"};
    static const json_int_t pid[4] = {20834, 14403, 18842, 2876};
    /* Dump time lines, 22:33:00.xxx GMT+03:00 */
    static const json_int_t ts[4] = {1774207980132LL, 1774207980150LL, 1774207980169LL, 1774207980195LL};
    for (size_t i = 0; i < 4; i++) {
        json_t *d = gd_collected_nth(&c, "view_dump", i);
        ck_assert_uint_eq(json_array_size(json_object_get(d, "views")), nviews[i]);
        ck_assert_uint_eq(painting(d), npaint[i]);
        ck_assert_str_eq(sval(json_object_get(d, "page"), "class"), cls[i]);
        ck_assert_int_eq(ival(d, "pid"), pid[i]);
        ck_assert_int_eq((json_int_t)json_number_value(json_object_get(d, "ts")), ts[i]);
        ck_assert_int_eq(ival(json_object_get(d, "screen"), "w"), 1080);
        ck_assert_int_eq(ival(json_object_get(d, "screen"), "h"), 2400);
        assert_view(d, 1, 0, 0, 0, 1080, 2400, 1, 1);
    }
    json_t *d0 = gd_collected_nth(&c, "view_dump", 0);
    ck_assert_int_eq(ival(json_object_get(d0, "page"), "hash"), 0xe61182e);
    ck_assert_str_eq(sval(d0, "window"), "EditActivity");
    assert_rect(by_res(d0, "app:id/folder_icon"), 108, 241, 141, 274);
    assert_rect(by_res(gd_collected_nth(&c, "view_dump", 1), "app:id/toolbar"), 0, -28, 1080, 104);
    assert_rect(by_res(gd_collected_nth(&c, "view_dump", 2), "android:id/statusBarBackground"), 0, 0, 1080, 104);
    assert_rect(by_res(gd_collected_nth(&c, "view_dump", 3), "app:id/hotseat"), 0, 2110, 1080, 2356);
    /* MIUI / YouTube views printing their own (multi-line) text: 1 + 4
     * view lines without flags, 21 + 26 + 12 + 18 lines of MIUI tables */
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: view line without flags (paint unknown)"), 5);
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: non-view line in hierarchy"), 77);
    ck_assert_int_eq(json_object_size(c.skips), 2);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_corpus_flylogics_utf16)
{
    const char *p = gd_test_corpus("dumpsys_activity/flylogics_activity_top_utf16.txt");
    if (!p)
        return;
    gd_collected c;
    gd_test_read_file(R, p, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "view_dump"), 1);
    json_t *d = gd_collected_nth(&c, "view_dump", 0);
    ck_assert_uint_eq(json_array_size(json_object_get(d, "views")), 83);
    ck_assert_uint_eq(painting(d), 39);
    ck_assert_str_eq(sval(json_object_get(d, "page"), "class"),
                     "com.google.android.apps.nexuslauncher/.NexusLauncherActivity");
    ck_assert_str_eq(sval(d, "window"), "NexusLauncherActivity");
    ck_assert_int_eq(ival(d, "pid"), 1198);
    ck_assert_int_eq(ival(json_object_get(d, "screen"), "h"), 2160);
    /* the launcher's DecorView is invisible (I): flags respected */
    assert_view(d, 1, 0, 0, 0, 1080, 2160, 0, 0);
    assert_view(d, 9, 8, 33, 60, 1047, 1567, 1, 1); /* CellLayout */
    assert_rect(by_res(d, "app:id/search_container_workspace"), 60, 80, 1020, 340);
    ck_assert_int_eq(gd_collected_skips(&c, "dumpsys activity: activity without view hierarchy"), 1);
    gd_collected_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dumpsys_activity");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fixture);
    tcase_add_test(tc, test_utf16_decor_with_flags);
    tcase_add_test(tc, test_probe);
    tcase_add_test(tc, test_decor_brace_aid);
    tcase_add_test(tc, test_garbage_never_crashes);
    tcase_add_test(tc, test_custom_view_with_bounds);
    tcase_add_test(tc, test_miui_multiline_tostring);
    tcase_add_test(tc, test_recovery_shapes);
    tcase_add_test(tc, test_huge_offsets);
    tcase_add_test(tc, test_corpus_lumisky);
    tcase_add_test(tc, test_corpus_flylogics_utf16);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
