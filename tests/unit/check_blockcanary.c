/* check_blockcanary.c - tests of the BlockCanary block-log reader. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_blockcanary;

#define FIX GODEYE_FIXTURES "/blockcanary/"
#define LOG1 FIX "looper-2024-01-01_00-00-01.123.log"
#define LOG2 FIX "looper-2024-03-05_14-22-07.481.log"
#define LOG3 FIX "looper-2024-03-05_14-25-40.002.log"

static double num(json_t *o, const char *k)
{
    return json_number_value(json_object_get(o, k));
}
static const char *str(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}
static json_int_t inum(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

/* A collecting sink over gd_input_open_files (a BlockCanary folder). */
static int f_meta(void *ctx, const gd_meta *m, gd_error *err)
{
    json_array_append_new(((gd_collected *)ctx)->metas, gd_meta_to_json(m));
    return 0;
}
static int f_event(void *ctx, const gd_event *ev, gd_error *err)
{
    json_array_append_new(((gd_collected *)ctx)->events, gd_event_to_json(ev));
    return 0;
}
static void f_skip(void *ctx, const char *reason, long line, long col)
{
    gd_collected *c = ctx;
    json_t *v = json_object_get(c->skips, reason);
    json_object_set_new(c->skips, reason, json_integer(v ? json_integer_value(v) + 1 : 1));
}
static void read_files(char *const *paths, size_t n, gd_collected *c)
{
    memset(c, 0, sizeof *c);
    c->events = json_array();
    c->metas = json_array();
    c->skips = json_object();
    gd_input *in = NULL;
    c->rc = gd_input_open_files(&in, paths, n, &c->err);
    if (c->rc == 0) {
        gd_sink sink = {c, f_meta, f_event, f_skip};
        gd_read_opts o = {0};
        c->rc = gd_reader_blockcanary.read(in, &sink, &o, &c->err);
    }
    gd_input_close(in);
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 16];
    *n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return buf;
}

START_TEST(new_year_block)
{
    gd_collected c;
    gd_test_read_file(&gd_reader_blockcanary, LOG1, NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_object_size(c.skips), 0);
    ck_assert_int_eq(json_array_size(c.metas), 1);
    json_t *m = json_array_get(c.metas, 0);
    ck_assert_str_eq(str(m, "app"), "com.example.shop");
    ck_assert_str_eq(str(m, "version_name"), "3.2.0");
    ck_assert_int_eq(inum(m, "version_code"), 320);
    ck_assert_str_eq(str(m, "device"), "Pixel 3");
    ck_assert_int_eq(inum(m, "api_level"), 23);
    ck_assert_int_eq(inum(m, "cpu_cores"), 8);

    ck_assert_int_eq(json_array_size(c.events), 8);
    json_t *e = json_array_get(c.events, 0);
    ck_assert_str_eq(str(e, "type"), "dispatch");
    ck_assert(num(e, "ts") == 1704067199500.0); /* 2023-12-31 23:59:59.500 */
    ck_assert(num(e, "dur") == 1200.0);
    ck_assert(num(e, "thread_dur") == 1150.0);
    ck_assert_ptr_null(json_object_get(e, "tid")); /* main thread */

    e = json_array_get(c.events, 1);
    ck_assert_str_eq(str(e, "type"), "memory");
    ck_assert(num(e, "ts") == 1704067200700.0); /* time-end, 2024-01-01 */
    json_t *ram = json_object_get(e, "ram");
    ck_assert_int_eq(inum(ram, "availMemKb"), 1843204);
    ck_assert_int_eq(inum(ram, "totalMemKb"), 3791752);
    ck_assert_ptr_null(json_object_get(e, "heap"));

    e = json_array_get(c.events, 2);
    ck_assert_str_eq(str(e, "type"), "issue");
    ck_assert_str_eq(str(e, "tool"), "blockcanary");
    ck_assert_str_eq(str(e, "issue_type"), "cpu_busy");
    ck_assert(num(e, "ts") == 1704067199500.0);
    ck_assert(json_is_true(json_object_get(json_object_get(e, "content"), "cpu_busy")));

    static const double cpu_ts[] = {1704067199300.0, 1704067199600.0, 1704067200500.0};
    static const double cpu_total[] = {0.92, 0.97, 0.88}, cpu_app[] = {0.71, 0.80, 0.64};
    for (int i = 0; i < 3; i++) {
        e = json_array_get(c.events, 3 + i);
        ck_assert_str_eq(str(e, "type"), "cpu");
        ck_assert(num(e, "ts") == cpu_ts[i]);
        ck_assert_double_eq_tol(num(e, "total"), cpu_total[i], 1e-12);
        ck_assert_double_eq_tol(num(e, "app"), cpu_app[i], 1e-12);
    }
    e = json_array_get(c.events, 3);
    ck_assert_double_eq_tol(num(e, "user"), 0.60, 1e-12);
    ck_assert_double_eq_tol(num(e, "sys"), 0.28, 1e-12);
    ck_assert_double_eq_tol(num(e, "iowait"), 0.03, 1e-12);

    e = json_array_get(c.events, 6);
    ck_assert_str_eq(str(e, "type"), "stack");
    ck_assert(num(e, "ts") == 1704067199900.0); /* 12-31: still 2023 */
    json_t *fr = json_object_get(e, "frames");
    ck_assert_int_eq(json_array_size(fr), 12);
    ck_assert_str_eq(json_string_value(json_array_get(fr, 0)), "java.lang.Thread.sleep(Native Method)");
    ck_assert_str_eq(json_string_value(json_array_get(fr, 3)),
                     "com.example.shop.feed.FeedAdapter.bind(FeedAdapter.java:88)");
    ck_assert_str_eq(json_string_value(json_array_get(fr, 11)),
                     "com.android.internal.os.ZygoteInit.main(ZygoteInit.java:776)");
    e = json_array_get(c.events, 7);
    ck_assert(num(e, "ts") == 1704067200200.0); /* 01-01: 2024 */
    fr = json_object_get(e, "frames");
    ck_assert_int_eq(json_array_size(fr), 10);
    ck_assert_str_eq(json_string_value(json_array_get(fr, 0)),
                     "com.example.shop.feed.ImageDecoder.decode(ImageDecoder.java:130)");
    gd_collected_free(&c);
}
END_TEST

START_TEST(never_keeps_imei_or_uid)
{
    gd_collected c;
    gd_test_read_file(&gd_reader_blockcanary, LOG1, NULL, &c);
    char *ev = json_dumps(c.events, 0), *me = json_dumps(c.metas, 0);
    ck_assert_ptr_null(strstr(ev, "864212030451234"));
    ck_assert_ptr_null(strstr(me, "864212030451234"));
    ck_assert_ptr_null(strstr(me, "u_7f3a91"));
    ck_assert_ptr_null(strstr(me, "imei"));
    free(ev);
    free(me);
    gd_collected_free(&c);
}
END_TEST

START_TEST(folder_of_logs)
{
    char *paths[] = {LOG1, LOG2, LOG3};
    gd_collected c;
    read_files(paths, 3, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_object_size(c.skips), 0);
    ck_assert_int_eq(json_array_size(c.metas), 3);
    ck_assert_int_eq(json_array_size(c.events), 15);
    ck_assert_int_eq(gd_collected_count(&c, "dispatch"), 3);
    ck_assert_int_eq(gd_collected_count(&c, "memory"), 3);
    ck_assert_int_eq(gd_collected_count(&c, "cpu"), 4);
    ck_assert_int_eq(gd_collected_count(&c, "stack"), 4);
    ck_assert_int_eq(gd_collected_count(&c, "issue"), 1);

    json_t *e = gd_collected_nth(&c, "dispatch", 1);
    ck_assert(num(e, "ts") == 1709648526102.0);
    ck_assert(num(e, "dur") == 812.0);
    ck_assert(num(e, "thread_dur") == 790.0);
    e = gd_collected_nth(&c, "memory", 1);
    ck_assert(num(e, "ts") == 1709648526914.0);
    ck_assert_int_eq(inum(json_object_get(e, "ram"), "availMemKb"), 1722880);
    e = gd_collected_nth(&c, "cpu", 3);
    ck_assert(num(e, "ts") == 1709648526450.0);
    ck_assert_double_eq_tol(num(e, "total"), 0.41, 1e-12);
    e = gd_collected_nth(&c, "stack", 2);
    ck_assert(num(e, "ts") == 1709648526750.0);
    ck_assert_int_eq(json_array_size(json_object_get(e, "frames")), 12);
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(e, "frames"), 0)),
                     "android.graphics.BitmapFactory.nativeDecodeStream(Native Method)");

    /* API 28: empty cpu-rate, a ":push" process */
    e = gd_collected_nth(&c, "dispatch", 2);
    ck_assert(num(e, "ts") == 1709648738420.0);
    ck_assert(num(e, "dur") == 1534.0);
    ck_assert(num(e, "thread_dur") == 1498.0);
    e = gd_collected_nth(&c, "stack", 3);
    ck_assert(num(e, "ts") == 1709648739240.0);
    json_t *fr = json_object_get(e, "frames");
    ck_assert_int_eq(json_array_size(fr), 5);
    ck_assert_str_eq(json_string_value(json_array_get(fr, 0)), "org.json.JSONObject.<init>(JSONObject.java:156)");
    ck_assert_str_eq(json_string_value(json_array_get(fr, 2)),
                     "com.example.shop.push.PushReceiver$Handler.handleMessage(PushReceiver.java:74)");
    json_t *m = json_array_get(c.metas, 2);
    ck_assert_str_eq(str(m, "app"), "com.example.shop");
    ck_assert_str_eq(str(m, "device"), "SM-G9600");
    ck_assert_int_eq(inum(m, "api_level"), 28);
    ck_assert_int_eq(inum(m, "version_code"), 330);
    gd_collected_free(&c);
}
END_TEST

START_TEST(meta_config_and_json)
{
    gd_collected c;
    gd_test_read_file(&gd_reader_blockcanary, LOG3, NULL, &c);
    json_t *m = json_array_get(c.metas, 0);
    char *s = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS);
    /* concern = [app]; qua and network kept as the meta's json */
    ck_assert_ptr_nonnull(strstr(s, "\"com.example.shop\"]"));
    ck_assert_ptr_null(strstr(s, ":push"));
    free(s);
    gd_collected_free(&c);
}
END_TEST

START_TEST(no_header_uses_opts_year)
{
    /* a log cut above its header: stamps take opts->year */
    const char *txt = "time = 300\r\nthread-time = 280\r\ntime-start = 07-04 10:00:00.000\r\n"
                      "time-end = 07-04 10:00:00.300\r\ncpu-busy = false\r\ncpu-rate = \r\n"
                      "stack = 07-04 10:00:00.200\r\n\r\nx.Y.z(Y.java:1)\r\n\r\n\r\n";
    gd_read_opts o = {.year = 2022};
    gd_collected c;
    gd_test_read_mem(&gd_reader_blockcanary, txt, strlen(txt), &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_object_size(c.skips), 0);
    ck_assert_int_eq(json_array_size(c.metas), 1);
    ck_assert_int_eq(json_array_size(c.events), 2);
    ck_assert(num(json_array_get(c.events, 0), "ts") == 1656928800000.0); /* 2022-07-04 10:00 */
    ck_assert(num(json_array_get(c.events, 1), "ts") == 1656928800200.0);
    gd_collected_free(&c);

    const char *stray = "x.Y.z(Y.java:1)\r\n\r\nstray line\r\n";
    gd_test_read_mem(&gd_reader_blockcanary, stray, strlen(stray), &o, &c);
    ck_assert_int_eq(gd_collected_skips(&c, "blockcanary: line outside a block"), 2);
    ck_assert_int_eq(json_array_size(c.events), 0);
    ck_assert_int_eq(json_array_size(c.metas), 0);
    gd_collected_free(&c);

    const char *txt2 = "**********************\r\nqua = x\r\ntime = 300\r\nthread-time = 280\r\n"
                       "time-start = 07-04 10:00:00.000\r\ntime-end = 07-04 10:00:00.300\r\n"
                       "stack = 07-04 10:00:00.200\r\n\r\nx.Y.z(Y.java:1)\r\n";
    gd_test_read_mem(&gd_reader_blockcanary, txt2, strlen(txt2), &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_object_size(c.skips), 0);
    ck_assert_int_eq(json_array_size(c.events), 2);
    ck_assert(num(json_array_get(c.events, 0), "ts") == 1656928800000.0); /* 2022-07-04 10:00 */
    ck_assert(num(json_array_get(c.events, 0), "dur") == 300.0);
    ck_assert(num(json_array_get(c.events, 1), "ts") == 1656928800200.0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(damaged_blocks)
{
    const char *txt = "\r\n**********************\r\n2024-01-01 00:00:01(write log time)\r\n\r\n"
                      "qua = x\r\nfoo = bar\r\nnot a key value\r\n"
                      "time-end = 01-01 00:00:00.700\r\n"
                      "cpu-busy = true\r\n"
                      "cpu-rate = 12-31 23:59:59.300 nothing here\r\n"
                      "99-99 cpu:1%\r\n\r\n"
                      "stack = 13-45 99:00:00.000\r\n\r\nskipped.Frame(A.java:1)\r\n\r\n"
                      "01-01 00:00:00.100\r\n\r\nkept.Frame(B.java:2)\r\n";
    gd_collected c;
    gd_test_read_mem(&gd_reader_blockcanary, txt, strlen(txt), NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(gd_collected_skips(&c, "blockcanary: unknown key"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "blockcanary: unparsable line"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "blockcanary: block without time-start"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "blockcanary: bad cpu-rate entry"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "blockcanary: bad time"), 1);
    /* memory absent (no memory keys), one stack kept */
    ck_assert_int_eq(json_array_size(c.events), 1);
    json_t *e = json_array_get(c.events, 0);
    ck_assert_str_eq(str(e, "type"), "stack");
    ck_assert(num(e, "ts") == 1704067200100.0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(hostile_prefixes)
{
    size_t n;
    const char *buf = slurp(LOG1, &n);
    gd_collected c;
    for (size_t k = 0; k <= n; k += 7) {
        gd_test_read_mem(&gd_reader_blockcanary, buf, k, NULL, &c);
        ck_assert_int_eq(c.rc, GD_OK);
        gd_collected_free(&c);
    }
}
END_TEST

START_TEST(probe_scores)
{
    size_t n;
    const char *buf = slurp(LOG1, &n);
    ck_assert_int_eq(gd_reader_blockcanary.probe((const unsigned char *)buf, n, 1), 95);
    ck_assert_int_eq(gd_reader_blockcanary.probe((const unsigned char *)buf, 80, 0), 95);
    const char *logcat = "05-12 10:31:30.242  2363  2950 D PowerUI : can't show warning\n"
                         "05-12 10:31:30.754  1625  5584 W ProcessStats: Tracking\n";
    ck_assert_int_eq(gd_reader_blockcanary.probe((const unsigned char *)logcat, strlen(logcat), 1), 0);
    const char *js = "{\"godeye_trace\":1,\"meta\":{},\"events\":[]}";
    ck_assert_int_eq(gd_reader_blockcanary.probe((const unsigned char *)js, strlen(js), 1), 0);
    const char *keys = "qua = a\nversionName = 1\nversionCode = 2\napi-level = 23 6.0\n";
    ck_assert_int_eq(gd_reader_blockcanary.probe((const unsigned char *)keys, strlen(keys), 1), 80);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("blockcanary");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, new_year_block);
    tcase_add_test(t, never_keeps_imei_or_uid);
    tcase_add_test(t, folder_of_logs);
    tcase_add_test(t, meta_config_and_json);
    tcase_add_test(t, no_header_uses_opts_year);
    tcase_add_test(t, damaged_blocks);
    tcase_add_test(t, hostile_prefixes);
    tcase_add_test(t, probe_scores);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return gd_test_exit(failed);
}
