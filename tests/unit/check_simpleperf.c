/* check_simpleperf.c - the simpleperf text reader (report_sample.py, report-sample) and the perf.data refusal. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_simpleperf;
#define R (&gd_reader_simpleperf)

static double num(json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }
static const char *sval(json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }
static long long ival(json_t *o, const char *k) { return json_integer_value(json_object_get(o, k)); }
static const char *frame(json_t *e, size_t i)
{
    return json_string_value(json_array_get(json_object_get(e, "frames"), i));
}

START_TEST(test_report_sample_py)
{
    gd_collected c;
    gd_test_read_file(R, GODEYE_FIXTURES "/simpleperf/report_sample.txt", NULL, &c);
    ck_assert_msg(c.rc == 0, "%s", c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 3);
    json_t *m = json_array_get(c.metas, 0);
    ck_assert_str_eq(sval(m, "app"), "com.example.shop");
    ck_assert_str_eq(sval(m, "clock"), "monotonic");
    /* the main thread: the first sample whose tid is its pid */
    int found = 0;
    size_t i;
    json_t *x;
    json_array_foreach(c.metas, i, x)
        if (ival(x, "main_tid") == 4100 && ival(x, "pid") == 4100)
            found = 1;
    ck_assert(found);

    json_t *s = gd_collected_nth(&c, "stack", 0);
    ck_assert_double_eq_tol(num(s, "ts"), 1000250.0, 1e-6);
    ck_assert_int_eq(ival(s, "pid"), 4100);
    ck_assert_int_eq(ival(s, "tid"), 4100);
    ck_assert_str_eq(sval(s, "thread"), "com.example.shop");
    ck_assert_uint_eq(json_array_size(json_object_get(s, "frames")), 6);
    ck_assert_str_eq(frame(s, 0), "native:[kernel.kallsyms](do_page_fault.cfi)");
    ck_assert_str_eq(frame(s, 1), "native:libGLESv2_adreno.so(pc 29c3f0)");
    ck_assert_str_eq(frame(s, 2), "native:libhwui.so(android::uirenderer::RenderProxy::syncAndDrawFrame())");
    ck_assert_str_eq(frame(s, 3), "com.example.shop.FeedAdapter.bind");
    ck_assert_str_eq(frame(s, 4), "android.os.Looper.loop");
    ck_assert_str_eq(frame(s, 5), "java.lang.Thread.run");

    json_t *a = gd_collected_nth(&c, "stack", 1);
    ck_assert_str_eq(sval(a, "thread"), "AsyncTask #1");
    ck_assert_int_eq(ival(a, "tid"), 4123);
    ck_assert_double_eq_tol(num(a, "ts"), 1000250.25, 1e-6);
    ck_assert_str_eq(frame(a, 0), "com.example.shop.Net.fetch");
    ck_assert_str_eq(frame(a, 1), "native:libc.so(__start_thread)");
    ck_assert_uint_eq(json_object_size(c.skips), 0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_report_sample_cmd)
{
    gd_collected c;
    gd_test_read_file(R, GODEYE_FIXTURES "/simpleperf/report-sample.txt", NULL, &c);
    ck_assert_msg(c.rc == 0, "%s", c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 2);
    json_t *s = gd_collected_nth(&c, "stack", 0);
    ck_assert_double_eq_tol(num(s, "ts"), 1000250.0, 1e-6); /* ns -> ms */
    ck_assert_int_eq(ival(s, "tid"), 4123);
    ck_assert_ptr_null(json_object_get(s, "pid"));
    ck_assert_str_eq(sval(s, "thread"), "AsyncTask #1");
    ck_assert_uint_eq(json_array_size(json_object_get(s, "frames")), 3);
    ck_assert_str_eq(frame(s, 0), "native:libGLESv2_adreno.so(pc 29c3f0)");
    ck_assert_str_eq(frame(s, 1), "com.example.shop.Net.fetch");
    ck_assert_str_eq(frame(s, 2), "native:libc.so(__start_thread)");
    json_t *t = gd_collected_nth(&c, "stack", 1);
    ck_assert_str_eq(frame(t, 0), "android.os.Looper.loop");
    /* main thread by name: the tail of the app's name, as the kernel keeps it */
    int found = 0;
    size_t i;
    json_t *x;
    json_array_foreach(c.metas, i, x) {
        if (ival(x, "main_tid") == 4100)
            found = 1;
        ck_assert_str_eq(sval(x, "app"), "com.example.shop");
    }
    ck_assert(found);
    ck_assert_int_eq(gd_collected_skips(&c, "simpleperf: record other than a sample"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_perf_data_refused)
{
    const char d[] = "PERFILE2h\0\0\0\0\0\0\0";
    ck_assert_int_gt(R->probe((const unsigned char *)d, sizeof d - 1, 1), 0);
    gd_collected c;
    gd_test_read_mem(R, d, sizeof d - 1, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_ptr_nonnull(strstr(c.err.msg, "binary perf.data"));
    ck_assert_ptr_nonnull(strstr(c.err.msg, "report_sample.py"));
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_odd_lines)
{
    const char *t = "main\t1/1 [000] 5.000001: 1 cpu-clock:\n"
                    "\tnot an address line\n"
                    "\t      abc sym_without_file\n"
                    "\t      abc (weird) name (/system/lib64/libx.so)\n"
                    "\n"
                    "\t      abc orphan (/system/lib64/liby.so)\n"
                    "garbage line\n"
                    "t 9 [000] 6.5: 1 cpu-clock:\n"
                    "\t      abc f (/system/lib64/liby.so)\n";
    gd_collected c;
    gd_test_read_mem(R, t, strlen(t), NULL, &c);
    ck_assert_msg(c.rc == 0, "%s", c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 2);
    json_t *s = gd_collected_nth(&c, "stack", 0);
    ck_assert_uint_eq(json_array_size(json_object_get(s, "frames")), 1);
    ck_assert_str_eq(frame(s, 0), "native:libx.so((weird) name)");
    ck_assert_int_eq(gd_collected_skips(&c, "simpleperf: call chain line unparsable"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "simpleperf: call chain line outside a sample"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "simpleperf: line unparsable"), 1);
    /* "tid" only, no pid */
    json_t *u = gd_collected_nth(&c, "stack", 1);
    ck_assert_int_eq(ival(u, "tid"), 9);
    ck_assert_ptr_null(json_object_get(u, "pid"));
    ck_assert_double_eq_tol(num(u, "ts"), 6500.0, 1e-6);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_probe)
{
    const char *py = "RenderThread\t31850/31881 [001] 684943.449406: 250000 cpu-clock:\n"
                     "\t      74938fb3f0 libGLESv2_adreno.so[+29c3f0] (/vendor/lib64/egl/libGLESv2_adreno.so)\n";
    ck_assert_int_eq(R->probe((const unsigned char *)py, strlen(py), 1), 80);
    const char *rs = "sample:\n  event_type: cpu-clock\n  time: 1\n  thread_id: 2\n";
    ck_assert_int_eq(R->probe((const unsigned char *)rs, strlen(rs), 1), 90);
    /* Linux perf script: no [cpu], a tid only, padded period */
    const char *lx = "firefox  8256 124136.622540:     250000 cpu-clock:\n"
                     "\t    7fff810b2a28 finish_task_switch ([kernel.kallsyms])\n";
    ck_assert_int_eq(R->probe((const unsigned char *)lx, strlen(lx), 1), 80);
    gd_collected c;
    gd_test_read_mem(R, lx, strlen(lx), NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    json_t *e = gd_collected_nth(&c, "stack", 0);
    ck_assert_int_eq(ival(e, "tid"), 8256);
    ck_assert_str_eq(sval(e, "thread"), "firefox");
    ck_assert_double_eq_tol(num(e, "ts"), 124136622.54, 1e-6);
    ck_assert_str_eq(frame(e, 0), "native:[kernel.kallsyms](finish_task_switch)");
    gd_collected_free(&c);
    /* --trace-offcpu output opens with a context switch; a sample whose
     * leaf is the first callchain entry */
    const char *cs = "context_switch:\n  switch_on: true\n  time: 1000000\n  thread_id: 7\n"
                     "sample:\n  event_type: sched:sched_switch\n  time: 11000000\n  thread_id: 7\n"
                     "  callchain:\n    vaddr_in_file: 1\n    file: [kernel.kallsyms]\n"
                     "    symbol: [kernel.kallsyms][+ffffffe5a1e3c094]\n    vaddr_in_file: 2\n"
                     "    file: /apex/com.android.runtime/lib64/bionic/libc.so\n    symbol: syscall\n";
    ck_assert_int_eq(R->probe((const unsigned char *)cs, strlen(cs), 1), 90);
    gd_test_read_mem(R, cs, strlen(cs), NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    e = gd_collected_nth(&c, "stack", 0);
    ck_assert_double_eq_tol(num(e, "ts"), 11.0, 1e-9);
    ck_assert_uint_eq(json_array_size(json_object_get(e, "frames")), 2);
    ck_assert_str_eq(frame(e, 0), "native:[kernel.kallsyms](pc ffffffe5a1e3c094)");
    ck_assert_str_eq(frame(e, 1), "native:libc.so(syscall)");
    ck_assert_int_eq(gd_collected_skips(&c, "simpleperf: record other than a sample"), 1);
    gd_collected_free(&c);
    const char *no = "hello world\nthis is text\n";
    ck_assert_int_eq(R->probe((const unsigned char *)no, strlen(no), 1), 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("simpleperf");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_report_sample_py);
    tcase_add_test(tc, test_report_sample_cmd);
    tcase_add_test(tc, test_perf_data_refused);
    tcase_add_test(tc, test_odd_lines);
    tcase_add_test(tc, test_probe);
    suite_add_tcase(s, tc);
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
