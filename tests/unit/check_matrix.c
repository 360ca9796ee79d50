/* check_matrix.c - tests of the Tencent Matrix trace-canary issue reader. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_matrix;

#define FIX(f) GODEYE_FIXTURES "/matrix/" f

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    ck_assert_msg(json_is_number(v), "no number at '%s'", k);
    return json_number_value(v);
}

static const char *str(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static void read_fix(const char *path, const char *mapping, gd_collected *c)
{
    gd_read_opts o = {.method_mapping = mapping};
    gd_test_read_file(&gd_reader_matrix, path, &o, c);
    ck_assert_int_eq(c->rc, GD_OK);
}

/* expected layout of the NORMAL evil method (time 1700000100000, cost 1012) */
static const struct {
    double ts, end;
    int depth;
    const char *cls, *method, *desc;
} evil_calls[7] = {
    {1700000098988, 1700000100000, 0, "matrix", "dispatch", NULL},
    {1700000098988, 1700000100000, 1, "sample.tencent.matrix.trace.TestTraceMainActivity", "testJankiess",
     "(Landroid/view/View;)V"},
    {1700000098988, 1700000099496, 2, "sample.tencent.matrix.trace.TestTraceMainActivity", "A", "()V"},
    {1700000098988, 1700000099496, 3, "sample.tencent.matrix.trace.TestTraceMainActivity", "tryHeavyMethod",
     "()V"},
    {1700000099496, 1700000099896, 2, "sample.tencent.matrix.trace.TestTraceMainActivity", "B", "()V"},
    {1700000099496, 1700000099646, 3, "unknown", "99", NULL},
    {1700000099896, 1700000099996, 2, "sample.tencent.matrix.trace.TestTraceMainActivity", "C", "()V"},
};

START_TEST(test_issues_counts)
{
    gd_collected c;
    read_fix(FIX("issues.jsonl"), FIX("methodMapping.txt"), &c);
    ck_assert_int_eq(json_array_size(c.events), 17);
    ck_assert_int_eq(gd_collected_count(&c, "issue"), 4);
    ck_assert_int_eq(gd_collected_count(&c, "startup"), 1);
    ck_assert_int_eq(gd_collected_count(&c, "dispatch"), 2);
    ck_assert_int_eq(gd_collected_count(&c, "method"), 9);
    ck_assert_int_eq(gd_collected_count(&c, "stack"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "matrix: issue without time"), 1);
    ck_assert_int_eq(json_object_size(c.skips), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_evil_method)
{
    gd_collected c;
    read_fix(FIX("issues.jsonl"), FIX("methodMapping.txt"), &c);
    json_t *i = gd_collected_nth(&c, "issue", 0);
    ck_assert_str_eq(str(i, "tool"), "matrix");
    ck_assert_str_eq(str(i, "issue_type"), "Trace_EvilMethod");
    ck_assert_str_eq(str(i, "detail"), "NORMAL");
    ck_assert_double_eq(num(i, "cost"), 1012);
    ck_assert_double_eq(num(i, "ts"), 1700000100000.0);
    json_t *content = json_object_get(i, "content");
    ck_assert_str_eq(str(content, "stackKey"), "3|");
    ck_assert_str_eq(str(content, "usage"), "98.81%");
    ck_assert_str_eq(str(content, "machine"), "MIDDLE");

    json_t *d = gd_collected_nth(&c, "dispatch", 0);
    ck_assert_double_eq(num(d, "ts"), 1700000098988.0);
    ck_assert_double_eq(num(d, "dur"), 1012);
    ck_assert_str_eq(str(d, "msg"), "sample.tencent.matrix.trace.TestTraceMainActivity");
    ck_assert_ptr_null(json_object_get(d, "unfinished"));

    for (int k = 0; k < 7; k++) {
        json_t *m = gd_collected_nth(&c, "method", k);
        ck_assert_double_eq(num(m, "ts"), evil_calls[k].ts);
        ck_assert_double_eq(num(m, "end_ts"), evil_calls[k].end);
        ck_assert_double_eq(num(m, "depth"), evil_calls[k].depth);
        ck_assert_str_eq(str(m, "class"), evil_calls[k].cls);
        ck_assert_str_eq(str(m, "method"), evil_calls[k].method);
        if (evil_calls[k].desc)
            ck_assert_str_eq(str(m, "desc"), evil_calls[k].desc);
        else
            ck_assert_ptr_null(json_object_get(m, "desc"));
        ck_assert_ptr_null(json_object_get(m, "phase"));
    }
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_anr)
{
    gd_collected c;
    read_fix(FIX("issues.jsonl"), FIX("methodMapping.txt"), &c);
    json_t *i = gd_collected_nth(&c, "issue", 1);
    ck_assert_str_eq(str(i, "detail"), "ANR");
    ck_assert_double_eq(num(i, "cost"), 5006);
    json_t *d = gd_collected_nth(&c, "dispatch", 1);
    ck_assert_double_eq(num(d, "ts"), 1700000194994.0);
    ck_assert_double_eq(num(d, "dur"), 5006);
    ck_assert(json_is_true(json_object_get(d, "unfinished")));
    json_t *m = gd_collected_nth(&c, "method", 8);
    ck_assert_str_eq(str(m, "method"), "B");
    ck_assert_double_eq(num(m, "ts"), 1700000194994.0);
    ck_assert_double_eq(num(m, "end_ts"), 1700000200000.0);
    json_t *s = gd_collected_nth(&c, "stack", 0);
    ck_assert_double_eq(num(s, "ts"), 1700000200000.0);
    json_t *f = json_object_get(s, "frames");
    ck_assert_int_eq(json_array_size(f), 4);
    ck_assert_str_eq(json_string_value(json_array_get(f, 0)), "java.lang.Thread.sleep(-2)");
    ck_assert_str_eq(json_string_value(json_array_get(f, 1)), "java.lang.Thread.sleep(440)");
    ck_assert_str_eq(json_string_value(json_array_get(f, 2)),
                     "sample.tencent.matrix.trace.TestTraceMainActivity.B(101)");
    ck_assert_str_eq(json_string_value(json_array_get(f, 3)), "android.os.Handler.dispatchMessage(99)");
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_fps_and_startup)
{
    gd_collected c;
    read_fix(FIX("issues.jsonl"), NULL, &c);
    json_t *i = gd_collected_nth(&c, "issue", 2);
    ck_assert_str_eq(str(i, "issue_type"), "Trace_FPS");
    ck_assert_str_eq(str(i, "detail"), "sample.tencent.matrix.trace.TestFpsActivity");
    ck_assert_double_eq(num(i, "ts"), 1700000300000.0);
    ck_assert_ptr_null(json_object_get(i, "cost"));
    json_t *content = json_object_get(i, "content");
    ck_assert_double_eq(num(content, "fps"), 52.3);
    ck_assert_double_eq(num(json_object_get(content, "dropLevel"), "DROPPED_HIGH"), 3);
    ck_assert_double_eq(num(json_object_get(content, "dropSum"), "DROPPED_MIDDLE"), 48);
    i = gd_collected_nth(&c, "issue", 3);
    ck_assert_str_eq(str(i, "issue_type"), "Trace_StartUp");
    ck_assert_str_eq(str(i, "detail"), "cold");
    ck_assert_double_eq(num(i, "cost"), 1645);
    ck_assert_double_eq(num(i, "ts"), 1700000400000.0);
    ck_assert_double_eq(num(json_object_get(i, "content"), "first_activity_create"), 1230);
    json_t *st = gd_collected_nth(&c, "startup", 0);
    ck_assert_str_eq(str(st, "startup_kind"), "cold");
    ck_assert_double_eq(num(st, "total_ms"), 1645);
    ck_assert_double_eq(num(st, "ts"), 1700000400000.0);
    ck_assert_str_eq(str(st, "app"), "sample.tencent.matrix");
    ck_assert_str_eq(str(st, "source"), "matrix");
    ck_assert_ptr_null(json_object_get(st, "activity"));
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_no_mapping)
{
    gd_collected c;
    read_fix(FIX("issues.jsonl"), NULL, &c);
    json_t *m = gd_collected_nth(&c, "method", 1);
    ck_assert_str_eq(str(m, "class"), "unknown");
    ck_assert_str_eq(str(m, "method"), "2");
    ck_assert_str_eq(str(gd_collected_nth(&c, "method", 0), "method"), "dispatch");
    gd_collected_free(&c);

    gd_read_opts o = {.method_mapping = FIX("no-such-mapping.txt")};
    gd_test_read_file(&gd_reader_matrix, FIX("issues.jsonl"), &o, &c);
    ck_assert_int_eq(c.rc, GD_ERR_IO);
    ck_assert_ptr_nonnull(strstr(c.err.msg, "method mapping"));
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_array_and_inferred_tag)
{
    gd_collected c;
    read_fix(FIX("issues-array.json"), NULL, &c);
    ck_assert_int_eq(json_array_size(c.events), 1);
    json_t *i = gd_collected_nth(&c, "issue", 0);
    ck_assert_str_eq(str(i, "issue_type"), "Trace_FPS");
    ck_assert_double_eq(num(i, "ts"), 1700000310000.0);
    ck_assert_double_eq(num(json_object_get(i, "content"), "fps"), 44.0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_logcat)
{
    gd_collected c;
    read_fix(FIX("logcat.txt"), FIX("methodMapping.txt"), &c);
    ck_assert_int_eq(json_array_size(c.events), 9);
    ck_assert_int_eq(gd_collected_count(&c, "issue"), 1);
    ck_assert_int_eq(gd_collected_count(&c, "dispatch"), 1);
    ck_assert_int_eq(gd_collected_count(&c, "method"), 7);
    json_t *d = gd_collected_nth(&c, "dispatch", 0);
    ck_assert_double_eq(num(d, "ts"), 1700000098988.0);
    ck_assert_double_eq(num(d, "dur"), 1012);
    json_t *m = gd_collected_nth(&c, "method", 3);
    ck_assert_str_eq(str(m, "method"), "tryHeavyMethod");
    ck_assert_int_eq(gd_collected_skips(&c, "line: not a matrix issue"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "matrix: content is not JSON"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_malformed)
{
    const char *in =
        "{\"tag\":\"Trace_EvilMethod\",\"time\":1000,\"cost\":100,\"detail\":\"NORMAL\","
        "\"stack\":\"0,1048574,1,100\\nx,y\\n1,5,1,-3\\n\\n1,7,2,60\\n\"}\n"
        "{\"tag\":\"Trace_EvilMethod\",\"time\":1000,\"detail\":\"NORMAL\"}\n"
        "{\"hello\":1}\n"
        "[\"str\"]\n";
    gd_collected c;
    gd_test_read_mem(&gd_reader_matrix, in, strlen(in), NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(gd_collected_skips(&c, "matrix: malformed stack line"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "matrix: evil method without cost"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "matrix: not a trace issue"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "matrix: issue is not an object"), 1);
    ck_assert_int_eq(gd_collected_count(&c, "method"), 2);
    json_t *m = gd_collected_nth(&c, "method", 1);
    ck_assert_double_eq(num(m, "ts"), 900);
    ck_assert_double_eq(num(m, "end_ts"), 960);
    gd_collected_free(&c);

    const char *bad = "{\"tag\":\"Trace_FPS\",";
    gd_test_read_mem(&gd_reader_matrix, bad, strlen(bad), NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_probe)
{
    const gd_reader *r = &gd_reader_matrix;
    const char *json = "{\"tag\":\"Trace_EvilMethod\",\"time\":1,\"detail\":\"NORMAL\"}\n";
    const char *arr = "[\n {\"scene\":\"a\",\"dropLevel\":{},\"time\":1}\n]";
    const char *logcat = "11-14 22:15:00.123  4321  4400 I Matrix.DefaultPluginListener: report issue content: "
                         "tag[Trace_FPS]type[0];key[null];content[{\"time\":1}]\n";
    const char *plain = "11-14 22:15:00.123  4321  4400 I ActivityManager: Start proc\n";
    const char *godeye = "{\"code\":1,\"data\":{\"moduleName\":\"cpuInfo\",\"payload\":{}}}\n";
    ck_assert_int_eq(r->probe((const unsigned char *)json, strlen(json), 1), 95);
    ck_assert_int_eq(r->probe((const unsigned char *)arr, strlen(arr), 1), 80);
    ck_assert_int_eq(r->probe((const unsigned char *)logcat, strlen(logcat), 1), 85);
    ck_assert_int_eq(r->probe((const unsigned char *)plain, strlen(plain), 1), 0);
    ck_assert_int_eq(r->probe((const unsigned char *)godeye, strlen(godeye), 1), 0);
    char tried[256];
    const gd_reader *d = gd_reader_detect((const unsigned char *)json, strlen(json), 1, tried, sizeof tried);
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(d->name, "matrix");
    /* the AndroidGodEye config XML in the corpus is nobody's matrix */
    const char *p = gd_test_corpus("androidgodeye/install.config");
    if (p) {
        FILE *f = fopen(p, "rb");
        unsigned char buf[65536];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        ck_assert_int_eq(r->probe(buf, n, 1), 0);
    }
}
END_TEST


/* Issue objects as Matrix stores them: {"type":0,"tag":..,"key":..,
 * "content":{..}} where the content repeats the tag (hero0812's file) */
START_TEST(test_wrapped_issues)
{
    const char *in =
        "{\"type\":0,\"tag\":\"Trace_EvilMethod\",\"content\":{\"machine\":\"MIDDLE\",\"detail\":\"LAG\","
        "\"scene\":\"a.Home\",\"threadStack\":\"java.lang.Object.wait(Native Method)\\n"
        "a.b.C.run(C.java:12)\\n\",\"tag\":\"Trace_EvilMethod\",\"process\":\"com.x\",\"time\":1000000}}\n"
        "{\"type\":0,\"tag\":\"Trace_EvilMethod\",\"key\":\"1\",\"content\":{\"detail\":\"ANR\",\"cost\":5003,"
        "\"stack\":\"0,1048574,1,5003\\n1,7,1,5000\\n\",\"threadStack\":\" \\nat a.b.C:run(12)\\n\","
        "\"tag\":\"Trace_EvilMethod\",\"process\":\"com.x\",\"time\":1003000}}\n"
        "{\"type\":0,\"tag\":\"Trace_EvilMethod\",\"content\":{\"detail\":\"SIGNAL_ANR\","
        "\"threadStack\":\"\\tat a.b.D.m(D.java:3)\\n\\t- waiting on <0x1> (a java.lang.Object)\\n\","
        "\"process\":\"com.x\",\"time\":1010000}}\n"
        "{\"type\":0,\"tag\":\"Trace_EvilMethod\",\"content\":{\"detail\":\"LAG_IDLE_HANDLER\","
        "\"cost\":900,\"process\":\"com.x\",\"time\":1020000}}\n"
        "{\"tag\":\"Trace_EvilMethod\",\"detail\":\"ENTER\",\"cost\":800,\"time\":1030000}\n";
    gd_collected c;
    gd_test_read_mem(&gd_reader_matrix, in, strlen(in), NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_uint_eq(json_object_size(c.skips), 0);
    ck_assert_int_eq(gd_collected_count(&c, "issue"), 5);
    /* the ANR and the (older Matrix's) ENTER evil method are dispatches:
     * LAG, SIGNAL_ANR, LAG_IDLE_HANDLER are findings */
    ck_assert_int_eq(gd_collected_count(&c, "dispatch"), 2);
    ck_assert_double_eq(num(gd_collected_nth(&c, "dispatch", 1), "dur"), 800);
    ck_assert_int_eq(gd_collected_count(&c, "method"), 2);
    ck_assert_int_eq(gd_collected_count(&c, "stack"), 3);
    json_t *d = gd_collected_nth(&c, "dispatch", 0);
    ck_assert_double_eq(num(d, "ts"), 997997);
    ck_assert_double_eq(num(d, "dur"), 5003);
    ck_assert(json_is_true(json_object_get(d, "unfinished")));
    json_t *i = gd_collected_nth(&c, "issue", 2);
    ck_assert_str_eq(str(i, "issue_type"), "Trace_EvilMethod"); /* the wrapper's tag */
    ck_assert_str_eq(str(i, "detail"), "SIGNAL_ANR");
    ck_assert_ptr_null(json_object_get(i, "cost"));
    json_t *f = json_object_get(gd_collected_nth(&c, "stack", 0), "frames");
    ck_assert_int_eq(json_array_size(f), 2);
    ck_assert_str_eq(json_string_value(json_array_get(f, 0)), "java.lang.Object.wait(Native Method)");
    ck_assert_str_eq(json_string_value(json_array_get(f, 1)), "a.b.C.run(C.java:12)");
    f = json_object_get(gd_collected_nth(&c, "stack", 1), "frames");
    ck_assert_str_eq(json_string_value(json_array_get(f, 0)), "a.b.C.run(12)");
    json_t *s2 = gd_collected_nth(&c, "stack", 2);
    ck_assert_double_eq(num(s2, "ts"), 1010000);
    f = json_object_get(s2, "frames");
    ck_assert_int_eq(json_array_size(f), 1);
    ck_assert_str_eq(json_string_value(json_array_get(f, 0)), "a.b.D.m(D.java:3)");
    /* the app and the device tier from the first issue */
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    json_t *m = json_array_get(c.metas, 0);
    ck_assert_str_eq(str(m, "app"), "com.x");
    gd_collected_free(&c);
}
END_TEST

/* STARTUP evil issues (subType 1 cold / 2 warm, cost = the launch) are
 * launches, never main-thread blocks; Matrix's second report of a launch
 * (Trace_StartUp then the STARTUP issue) is one launch */
START_TEST(test_startup_issues)
{
    const char *in =
        "{\"tag\":\"Trace_StartUp\",\"application_create\":900,\"first_activity_create\":2000,"
        "\"startup_duration\":26012,\"is_warm_start_up\":false,\"scene\":\"a.Splash\",\"process\":\"com.x\","
        "\"time\":2000000}\n"
        "{\"tag\":\"Trace_EvilMethod\",\"detail\":\"STARTUP\",\"cost\":26012,\"subType\":1,"
        "\"stack\":\"0,1048574,1,26012\\n\",\"stackKey\":\"1048574|\",\"process\":\"com.x\",\"time\":2000050}\n"
        "{\"tag\":\"Trace_EvilMethod\",\"detail\":\"STARTUP\",\"cost\":70001,\"subType\":2,"
        "\"process\":\"com.x\",\"time\":3000000}\n"
        "{\"tag\":\"Trace_EvilMethod\",\"detail\":\"STARTUP\",\"subType\":2,\"time\":3100000}\n"
        /* Matrix's documented example of an older Trace_StartUp: no startup_duration, empty scene */
        "{\"machine\":4,\"application_create\":415,\"first_activity_create\":240,"
        "\"stage_between_app_and_activity\":0,\"scene\":\"\",\"is_warm_start_up\":false,"
        "\"tag\":\"Trace_StartUp\",\"process\":\"\",\"time\":1528278018147}\n"
        "{\"tag\":\"Trace_StartUp\",\"startup_duration\":3580,\"scene\":\"\",\"is_warm_start_up\":false,"
        "\"process\":\"\",\"time\":1550157191369}\n";
    gd_collected c;
    gd_test_read_mem(&gd_reader_matrix, in, strlen(in), NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(gd_collected_count(&c, "issue"), 6);
    ck_assert_int_eq(gd_collected_count(&c, "dispatch"), 0);
    ck_assert_int_eq(gd_collected_count(&c, "startup"), 3);
    ck_assert_int_eq(gd_collected_count(&c, "method"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: matrix: launch reported twice"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "matrix: startup without duration"), 2);
    /* "" is no app and no activity */
    json_t *last = gd_collected_nth(&c, "startup", 2);
    ck_assert_double_eq(num(last, "total_ms"), 3580);
    ck_assert_ptr_null(json_object_get(last, "app"));
    ck_assert_ptr_null(json_object_get(last, "activity"));
    json_t *s = gd_collected_nth(&c, "startup", 0);
    ck_assert_str_eq(str(s, "startup_kind"), "cold");
    ck_assert_double_eq(num(s, "total_ms"), 26012);
    ck_assert_str_eq(str(s, "activity"), "a.Splash");
    s = gd_collected_nth(&c, "startup", 1);
    ck_assert_str_eq(str(s, "startup_kind"), "warm");
    ck_assert_double_eq(num(s, "total_ms"), 70001);
    ck_assert_double_eq(num(s, "ts"), 3000000);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_method_mapping_is_not_a_capture)
{
    const gd_reader *r = &gd_reader_matrix;
    const char *map = "1,1,a.b.C onCreate (Landroid/os/Bundle;)V\n2,0,a.b.C$1 <init> ()V\n";
    const char *issue = "{\"tag\":\"Trace_EvilMethod\",\"time\":1}\n";
    const char *csv = "1,2,3\n4,5,6\n";
    ck_assert_int_eq(r->probe((const unsigned char *)map, strlen(map), 1), 0);
    ck_assert_ptr_nonnull(r->not_capture((const unsigned char *)map, strlen(map), 1));
    ck_assert_ptr_nonnull(strstr(gd_reader_not_capture((const unsigned char *)map, strlen(map), 1),
                                 "--method-mapping"));
    ck_assert_ptr_null(r->not_capture((const unsigned char *)issue, strlen(issue), 1));
    ck_assert_ptr_null(r->not_capture((const unsigned char *)csv, strlen(csv), 1));
    const char *p = gd_test_corpus("matrix/linxiaotao_demo_methodMapping.txt");
    if (p) {
        FILE *f = fopen(p, "rb");
        unsigned char buf[4096];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        ck_assert_ptr_null(gd_reader_detect(buf, n, 0, NULL, 0));
        ck_assert_ptr_nonnull(r->not_capture(buf, n, 0));
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("matrix");
    TCase *t = tcase_create("core");
    tcase_add_test(t, test_issues_counts);
    tcase_add_test(t, test_wrapped_issues);
    tcase_add_test(t, test_startup_issues);
    tcase_add_test(t, test_method_mapping_is_not_a_capture);
    tcase_add_test(t, test_evil_method);
    tcase_add_test(t, test_anr);
    tcase_add_test(t, test_fps_and_startup);
    tcase_add_test(t, test_no_mapping);
    tcase_add_test(t, test_array_and_inferred_tag);
    tcase_add_test(t, test_logcat);
    tcase_add_test(t, test_malformed);
    tcase_add_test(t, test_probe);
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
