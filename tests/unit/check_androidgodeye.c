/* check_androidgodeye.c - tests of the AndroidGodEye monitor output reader. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_androidgodeye;

#define FIX(f) GODEYE_FIXTURES "/androidgodeye/" f

static double num(json_t *o, const char *path)
{
    /* "a.b" walks nested objects */
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    char *save = NULL;
    json_t *v = o;
    for (char *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
        v = json_object_get(v, k);
    ck_assert_msg(json_is_number(v), "no number at '%s'", path);
    return json_number_value(v);
}

static const char *str(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static void read_fix(const char *path, gd_collected *c)
{
    gd_test_read_file(&gd_reader_androidgodeye, path, NULL, c);
    ck_assert_int_eq(c->rc, GD_OK);
}

START_TEST(test_monitor_counts)
{
    gd_collected c;
    read_fix(FIX("monitor.jsonl"), &c);
    ck_assert_int_eq(json_array_size(c.events), 23);
    ck_assert_int_eq(gd_collected_count(&c, "dispatch"), 2);
    ck_assert_int_eq(gd_collected_count(&c, "stack"), 2);
    ck_assert_int_eq(gd_collected_count(&c, "cpu"), 3);
    ck_assert_int_eq(gd_collected_count(&c, "memory"), 4);
    ck_assert_int_eq(gd_collected_count(&c, "lifecycle"), 3);
    ck_assert_int_eq(gd_collected_count(&c, "image"), 1);
    ck_assert_int_eq(gd_collected_count(&c, "view_dump"), 1);
    ck_assert_int_eq(gd_collected_count(&c, "issue"), 3);
    ck_assert_int_eq(gd_collected_count(&c, "method"), 4);
    ck_assert_int_eq(gd_collected_skips(&c, "cpuInfo: no timestamp"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "pssInfo: no timestamp"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "godeye: unsupported module"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "godeye: failed message"), 1);
    ck_assert_int_eq(json_object_size(c.skips), 4);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_block_long)
{
    gd_collected c;
    read_fix(FIX("monitor.jsonl"), &c);
    json_t *d = gd_collected_nth(&c, "dispatch", 0);
    ck_assert_double_eq(num(d, "ts"), 1700000000123.0);
    ck_assert_double_eq(num(d, "dur"), 810.0);
    ck_assert_double_eq(num(d, "thread_dur"), 790.0);
    ck_assert_ptr_null(json_object_get(d, "tid"));

    /* "11-15 06:13:20.423" local (UTC+8) inside a block starting
     * 2023-11-14T22:13:20.123Z: the zone offset is inferred and removed */
    json_t *s0 = gd_collected_nth(&c, "stack", 0), *s1 = gd_collected_nth(&c, "stack", 1);
    ck_assert_double_eq(num(s0, "ts"), 1700000000423.0);
    ck_assert_double_eq(num(s1, "ts"), 1700000000723.0);
    json_t *f = json_object_get(s0, "frames");
    ck_assert_int_eq(json_array_size(f), 10);
    ck_assert_str_eq(json_string_value(json_array_get(f, 0)), "java.lang.Thread.sleep(Native Method)");
    ck_assert_str_eq(json_string_value(json_array_get(f, 3)),
                     "cn.hikyson.android.godeye.sample.BlockFragment.block(BlockFragment.java:53)");
    ck_assert_str_eq(json_string_value(json_array_get(f, 9)),
                     "android.app.ActivityThread.main(ActivityThread.java:7037)");
    f = json_object_get(s1, "frames");
    ck_assert_int_eq(json_array_size(f), 6);
    ck_assert_str_eq(json_string_value(json_array_get(f, 0)),
                     "java.io.FileInputStream.read(FileInputStream.java:254)");

    /* cpuRateInfos: percents -> ratios, spread at 1/3 and 2/3 of the block */
    json_t *c0 = gd_collected_nth(&c, "cpu", 0), *c1 = gd_collected_nth(&c, "cpu", 1);
    ck_assert_double_eq(num(c0, "ts"), 1700000000393.0);
    ck_assert_double_eq(num(c1, "ts"), 1700000000663.0);
    ck_assert_double_eq(num(c0, "total"), 0.625);
    ck_assert_double_eq(num(c0, "app"), 0.3125);
    ck_assert_double_eq(num(c0, "user"), 0.4);
    ck_assert_double_eq(num(c0, "sys"), 0.2);
    ck_assert_double_eq(num(c0, "iowait"), 0.025);
    ck_assert_double_eq(num(c1, "total"), 0.5);
    ck_assert_double_eq(num(c1, "iowait"), 0.05);

    json_t *m = gd_collected_nth(&c, "memory", 0);
    ck_assert_double_eq(num(m, "ts"), 1700000000933.0);
    ck_assert_double_eq(num(m, "heap.freeMemKb"), 10240);
    ck_assert_double_eq(num(m, "heap.maxMemKb"), 524288);
    ck_assert_double_eq(num(m, "heap.allocatedKb"), 30720);
    ck_assert_double_eq(num(m, "pss.totalPssKb"), 150000);
    ck_assert_double_eq(num(m, "pss.dalvikPssKb"), 30000);
    ck_assert_double_eq(num(m, "pss.nativePssKb"), 50000);
    ck_assert_double_eq(num(m, "pss.otherPssKb"), 70000);
    ck_assert_double_eq(num(m, "ram.availMemKb"), 2097152);
    ck_assert_double_eq(num(m, "ram.totalMemKb"), 5872025);
    ck_assert_double_eq(num(m, "ram.lowMemThresholdKb"), 221184);
    ck_assert(json_is_false(json_object_get(json_object_get(m, "ram"), "isLowMemory")));
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_block_short)
{
    gd_collected c;
    read_fix(FIX("monitor.jsonl"), &c);
    json_t *d = gd_collected_nth(&c, "dispatch", 1);
    ck_assert_double_eq(num(d, "ts"), 1700000005000.0);
    ck_assert_double_eq(num(d, "dur"), 150.0);
    ck_assert_double_eq(num(d, "thread_dur"), 140.0);
    json_t *m = gd_collected_nth(&c, "memory", 1);
    ck_assert_double_eq(num(m, "ts"), 1700000005150.0);
    ck_assert_double_eq(num(m, "heap.allocatedKb"), 31744);
    ck_assert_ptr_null(json_object_get(m, "pss"));
    ck_assert_ptr_null(json_object_get(m, "ram"));
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_stamp_year_option)
{
    /* with opts->year the stamp's year is given; the offset to the block
     * start is still rounded to a zone (here 0: a UTC device) */
    const char *msg =
        "{\"code\":1,\"data\":{\"moduleName\":\"blockInfo\",\"payload\":{\"blockTime\":600,"
        "\"blockBaseinfo\":\"{\\\"timeStart\\\":1704067199800,\\\"timeEnd\\\":1704067200400,"
        "\\\"threadStackEntriesForExport\\\":{\\\"01-01 00:00:00.100\\\":[\\\"a.B.c(B.java:1)\\\"],"
        "\\\"13-01 00:00:00.100\\\":[]}}\"}}}\n";
    gd_collected c;
    gd_read_opts o = {.year = 2024};
    gd_test_read_mem(&gd_reader_androidgodeye, msg, strlen(msg), &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(gd_collected_count(&c, "stack"), 1);
    /* 2024-01-01T00:00:00.100Z */
    ck_assert_double_eq(num(gd_collected_nth(&c, "stack", 0), "ts"), 1704067200100.0);
    ck_assert_int_eq(gd_collected_skips(&c, "blockInfo: bad stack stamp"), 1);
    gd_collected_free(&c);
    /* without: the year comes from the block start (2023-12-31), the
     * nearest year to it for a January stamp is 2024 */
    gd_test_read_mem(&gd_reader_androidgodeye, msg, strlen(msg), NULL, &c);
    ck_assert_double_eq(num(gd_collected_nth(&c, "stack", 0), "ts"), 1704067200100.0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_pages)
{
    gd_collected c;
    read_fix(FIX("monitor.jsonl"), &c);
    json_t *l = gd_collected_nth(&c, "lifecycle", 0);
    ck_assert_double_eq(num(l, "ts"), 1699999990000.0);
    ck_assert_double_eq(num(l, "end_ts"), 1699999990042.0);
    ck_assert_str_eq(str(l, "event"), "ON_CREATE");
    json_t *p = json_object_get(l, "page");
    ck_assert_str_eq(str(p, "type"), "activity");
    ck_assert_str_eq(str(p, "class"), "cn.hikyson.android.godeye.sample.MainActivity");
    ck_assert_double_eq(num(p, "hash"), 81234567);
    ck_assert_ptr_null(json_object_get(p, "parent"));
    l = gd_collected_nth(&c, "lifecycle", 1);
    ck_assert_str_eq(str(l, "event"), "ON_ATTACH");
    ck_assert_str_eq(str(json_object_get(l, "page"), "type"), "fragment");
    ck_assert_double_eq(num(l, "ts"), 1699999990100.0);
    ck_assert_ptr_null(json_object_get(l, "end_ts")); /* endTimeMillis 0 */
    l = gd_collected_nth(&c, "lifecycle", 2);
    ck_assert_str_eq(str(l, "event"), "ON_DRAW");
    ck_assert_double_eq(num(l, "end_ts"), 1699999990350.0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_image)
{
    gd_collected c;
    read_fix(FIX("monitor.jsonl"), &c);
    json_t *i = gd_collected_nth(&c, "image", 0);
    ck_assert_double_eq(num(i, "ts"), 1700000010000.0);
    ck_assert_double_eq(num(i, "bitmap.w"), 1080);
    ck_assert_double_eq(num(i, "bitmap.h"), 1080);
    ck_assert_double_eq(num(i, "view.w"), 200);
    ck_assert_double_eq(num(i, "view.h"), 200);
    ck_assert_double_eq(num(i, "view.hash"), 4411);
    ck_assert(json_is_true(json_object_get(json_object_get(i, "view"), "visible")));
    ck_assert_str_eq(str(json_object_get(i, "page"), "class"),
                     "cn.hikyson.android.godeye.sample.ImageActivity");
    ck_assert_str_eq(str(json_object_get(i, "page"), "type"), "activity");
    ck_assert_double_eq(num(i, "page.hash"), 99887766);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_view_issue)
{
    gd_collected c;
    read_fix(FIX("monitor.jsonl"), &c);
    json_t *d = gd_collected_nth(&c, "view_dump", 0);
    ck_assert_double_eq(num(d, "ts"), 1700000020000.0);
    ck_assert_double_eq(num(d, "screen.w"), 1080);
    ck_assert_double_eq(num(d, "screen.h"), 2340);
    ck_assert_str_eq(str(json_object_get(d, "page"), "class"),
                     "cn.hikyson.android.godeye.sample.MainActivity");
    json_t *vs = json_object_get(d, "views");
    ck_assert_int_eq(json_array_size(vs), 6);
    /* id, parent (inferred by containment + depth), layers */
    static const int want[6][3] = {{1, 4, 1}, {2, 4, 1}, {3, 6, 0}, {4, 0, 1}, {5, 0, 1}, {6, 0, 1}};
    for (int k = 0; k < 6; k++) {
        json_t *v = json_array_get(vs, k);
        ck_assert_double_eq(num(v, "id"), want[k][0]);
        ck_assert_double_eq(num(v, "parent"), want[k][1]);
        ck_assert_double_eq(num(v, "layers"), want[k][2]);
        ck_assert(json_is_true(json_object_get(v, "visible")));
    }
    json_t *v0 = json_array_get(vs, 0), *v2 = json_array_get(vs, 2), *v3 = json_array_get(vs, 3);
    ck_assert_str_eq(str(v0, "class"), "android.widget.TextView");
    ck_assert_str_eq(str(v0, "res_id"), "2131230746");
    ck_assert_str_eq(str(v0, "text"), "Welcome back");
    json_t *r = json_object_get(v2, "rect");
    ck_assert_int_eq(json_integer_value(json_array_get(r, 0)), 33);
    ck_assert_int_eq(json_integer_value(json_array_get(r, 1)), 118);
    ck_assert_int_eq(json_integer_value(json_array_get(r, 2)), 121);
    ck_assert_int_eq(json_integer_value(json_array_get(r, 3)), 206);
    ck_assert_ptr_null(json_object_get(v3, "res_id")); /* id "-1" */
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_samplers_and_issues)
{
    gd_collected c;
    read_fix(FIX("monitor.jsonl"), &c);
    json_t *cpu = gd_collected_nth(&c, "cpu", 2);
    ck_assert_double_eq(num(cpu, "ts"), 1700000030000.0);
    ck_assert_double_eq(num(cpu, "total"), 0.45);
    ck_assert_double_eq(num(cpu, "app"), 0.2);
    ck_assert_double_eq(num(cpu, "user"), 0.25);
    ck_assert_double_eq(num(cpu, "sys"), 0.15);
    ck_assert_double_eq(num(cpu, "iowait"), 0.05);
    json_t *h = gd_collected_nth(&c, "memory", 2);
    ck_assert_double_eq(num(h, "ts"), 1700000030000.0);
    ck_assert_double_eq(num(h, "heap.freeMemKb"), 532480);
    ck_assert_double_eq(num(h, "heap.maxMemKb"), 6144000);
    ck_assert_double_eq(num(h, "heap.allocatedKb"), 1556480);
    json_t *r = gd_collected_nth(&c, "memory", 3);
    ck_assert_double_eq(num(r, "ram.availMemKb"), 1572864);
    ck_assert_double_eq(num(r, "ram.totalMemKb"), 3145728);
    ck_assert_ptr_null(json_object_get(r, "heap"));

    json_t *i = gd_collected_nth(&c, "issue", 0);
    ck_assert_str_eq(str(i, "tool"), "godeye");
    ck_assert_str_eq(str(i, "issue_type"), "fps");
    ck_assert_double_eq(num(i, "ts"), 1700000031000.0);
    ck_assert_double_eq(num(i, "content.currentFps"), 57);
    ck_assert_double_eq(num(i, "content.systemFps"), 60);
    i = gd_collected_nth(&c, "issue", 1);
    ck_assert_str_eq(str(i, "issue_type"), "startup");
    ck_assert_str_eq(str(i, "detail"), "cold");
    ck_assert_double_eq(num(i, "cost"), 1003);
    ck_assert_double_eq(num(i, "ts"), 1700000001500.0);
    i = gd_collected_nth(&c, "issue", 2);
    ck_assert_str_eq(str(i, "issue_type"), "thread");
    ck_assert_int_eq(json_array_size(json_object_get(i, "content")), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_method_canary)
{
    gd_collected c;
    read_fix(FIX("monitor.jsonl"), &c);
    json_t *m = gd_collected_nth(&c, "method", 0);
    /* startMillis 0: already running when recording started */
    ck_assert_double_eq(num(m, "ts"), 1700000040000.0);
    ck_assert_double_eq(num(m, "end_ts"), 1700000040500.0);
    ck_assert_str_eq(str(m, "class"), "cn/hikyson/android/godeye/sample/MainActivity");
    ck_assert_str_eq(str(m, "method"), "onCreate");
    ck_assert_str_eq(str(m, "desc"), "(Landroid/os/Bundle;)V");
    ck_assert_double_eq(num(m, "depth"), 0);
    ck_assert_str_eq(str(m, "thread"), "main");
    ck_assert_ptr_null(json_object_get(m, "tid")); /* "main" -> the main thread */
    ck_assert_ptr_null(json_object_get(m, "phase"));
    m = gd_collected_nth(&c, "method", 1);
    ck_assert_double_eq(num(m, "ts"), 1700000040100.0);
    ck_assert_double_eq(num(m, "end_ts"), 1700000040300.0);
    ck_assert_double_eq(num(m, "depth"), 1);
    m = gd_collected_nth(&c, "method", 2);
    /* endMillis 0: still running when recording stopped */
    ck_assert_double_eq(num(m, "end_ts"), 1700000041000.0);
    ck_assert(json_is_true(json_object_get(m, "open")));
    ck_assert_ptr_null(json_object_get(gd_collected_nth(&c, "method", 1), "open"));
    m = gd_collected_nth(&c, "method", 3);
    ck_assert_double_eq(num(m, "tid"), 4711);
    ck_assert_str_eq(str(m, "thread"), "pool-1-thread-1");
    ck_assert_double_eq(num(m, "ts"), 1700000040200.0);
    ck_assert_double_eq(num(m, "end_ts"), 1700000040250.0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_array_container)
{
    gd_collected c;
    read_fix(FIX("monitor-array.json"), &c);
    ck_assert_int_eq(json_array_size(c.events), 3);
    json_t *l = gd_collected_nth(&c, "lifecycle", 0);
    ck_assert_str_eq(str(l, "event"), "ON_RESUME");
    ck_assert_double_eq(num(l, "ts"), 1699999980000.0);
    ck_assert_double_eq(num(l, "end_ts"), 1699999980015.0);
    ck_assert_double_eq(num(gd_collected_nth(&c, "dispatch", 0), "ts"), 1700000005000.0);
    ck_assert_int_eq(gd_collected_skips(&c, "cpuInfo: no timestamp"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_bare_payloads)
{
    gd_collected c;
    read_fix(FIX("payloads.json"), &c);
    ck_assert_int_eq(json_array_size(c.events), 4);
    json_t *d = gd_collected_nth(&c, "dispatch", 0);
    ck_assert_double_eq(num(d, "ts"), 1700000005000.0);
    ck_assert_double_eq(num(d, "dur"), 150.0);
    json_t *l = gd_collected_nth(&c, "lifecycle", 0);
    ck_assert_str_eq(str(l, "event"), "ON_VIEW_CREATE");
    ck_assert_double_eq(num(l, "ts"), 1699999990200.0);
    ck_assert_str_eq(str(json_object_get(l, "page"), "type"), "fragment");
    ck_assert_double_eq(num(l, "page.hash"), 5550001);
    json_t *i = gd_collected_nth(&c, "image", 0);
    ck_assert_double_eq(num(i, "bitmap.w"), 100);
    ck_assert_double_eq(num(i, "view.w"), 400);
    ck_assert_double_eq(num(i, "ts"), 1700000011000.0);
    ck_assert_int_eq(gd_collected_skips(&c, "cpuInfo: no timestamp"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "methodCanary: nano-time record"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "godeye: unrecognised payload"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_malformed)
{
    static const char *const bad[] = {
        "{\"code\":1,\"data\":{\"moduleName\":\"blockInfo\",\"payload\":{\"blockBaseinfo\":\"{not json\"}}}\n"
        "{\"code\":1,\"data\":{\"moduleName\":\"blockInfo\",\"payload\":{\"blockBaseinfo\":\"{}\"}}}\n"
        "{\"code\":1,\"data\":{\"moduleName\":\"viewIssueInfo\",\"payload\":{\"timestamp\":5,"
        "\"views\":[{\"rect\":[1,2]},7]}}}\n"
        "{\"code\":1,\"data\":{\"moduleName\":\"pageLifecycle\",\"payload\":{\"pageType\":3}}}\n"
        "[1, {\"code\":1,\"data\":{\"moduleName\":\"imageIssue\",\"payload\":{\"timestamp\":9}}}]\n",
    };
    gd_collected c;
    gd_test_read_mem(&gd_reader_androidgodeye, bad[0], strlen(bad[0]), NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(gd_collected_skips(&c, "blockInfo: blockBaseinfo is not JSON"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "blockInfo: no timeStart"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "viewIssueInfo: view without rect"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "pageLifecycle: no lifecycleEvent"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "godeye: record is not an object"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "imageIssue: no bitmap size"), 1);
    ck_assert_int_eq(json_array_size(c.events), 1); /* the empty view dump */
    ck_assert_int_eq(json_array_size(json_object_get(gd_collected_nth(&c, "view_dump", 0), "views")), 0);
    gd_collected_free(&c);

    const char *trunc = "{\"code\":1,\"data\":{\"moduleName\":\"cpuInfo\"";
    gd_test_read_mem(&gd_reader_androidgodeye, trunc, strlen(trunc), NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_int_eq(c.err.line, 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_probe)
{
    const gd_reader *r = &gd_reader_androidgodeye;
    const char *msg = "{\"code\":1,\"message\":\"success\",\"data\":{\"moduleName\":\"cpuInfo\",\"payload\":{}}}\n";
    const char *arr = "[\n  {\"code\":1,\"data\":{\"moduleName\":\"heapInfo\",\"payload\":{\"freeMemKb\":1}}}\n]";
    const char *bare = "{\"totalUseRatio\":0.3,\"appCpuRatio\":0.1}\n";
    const char *ours = "{\"type\":\"cpu\",\"ts\":1,\"total\":0.3}\n";
    const char *matrix = "{\"tag\":\"Trace_FPS\",\"time\":1,\"fps\":50}\n";
    ck_assert_int_eq(r->probe((const unsigned char *)msg, strlen(msg), 1), 95);
    ck_assert_int_eq(r->probe((const unsigned char *)arr, strlen(arr), 1), 95);
    ck_assert_int_eq(r->probe((const unsigned char *)bare, strlen(bare), 1), 70);
    ck_assert_int_eq(r->probe((const unsigned char *)ours, strlen(ours), 1), 0);
    ck_assert_int_eq(r->probe((const unsigned char *)matrix, strlen(matrix), 1), 0);
    ck_assert_int_eq(r->probe((const unsigned char *)"", 0, 1), 0);
    /* a first message cut by the head */
    ck_assert_int_eq(r->probe((const unsigned char *)msg, strlen(msg) - 4, 0), 80);

    char tried[256];
    const gd_reader *d = gd_reader_detect((const unsigned char *)msg, strlen(msg), 1, tried, sizeof tried);
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(d->name, "androidgodeye");
}
END_TEST

/* AndroidGodEye's install configs (XML) are not captures: not claimed. */
START_TEST(test_corpus_configs_not_claimed)
{
    static const char *const files[] = {"androidgodeye/install.config", "androidgodeye/install2.config"};
    for (int i = 0; i < 2; i++) {
        const char *p = gd_test_corpus(files[i]);
        if (!p)
            continue;
        FILE *f = fopen(p, "rb");
        ck_assert_ptr_nonnull(f);
        unsigned char buf[65536];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        ck_assert(n > 1000);
        ck_assert_int_eq(gd_reader_androidgodeye.probe(buf, n, 1), 0);
        gd_collected c;
        gd_test_read_file(&gd_reader_androidgodeye, p, NULL, &c);
        ck_assert_int_eq(c.rc, GD_ERR_DATA);
        ck_assert_int_eq(json_array_size(c.events), 0);
        gd_collected_free(&c);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("androidgodeye");
    TCase *t = tcase_create("core");
    tcase_add_test(t, test_monitor_counts);
    tcase_add_test(t, test_block_long);
    tcase_add_test(t, test_block_short);
    tcase_add_test(t, test_stamp_year_option);
    tcase_add_test(t, test_pages);
    tcase_add_test(t, test_image);
    tcase_add_test(t, test_view_issue);
    tcase_add_test(t, test_samplers_and_issues);
    tcase_add_test(t, test_method_canary);
    tcase_add_test(t, test_array_container);
    tcase_add_test(t, test_bare_payloads);
    tcase_add_test(t, test_malformed);
    tcase_add_test(t, test_probe);
    tcase_add_test(t, test_corpus_configs_not_claimed);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return gd_test_exit(failed);
}
