/* check_chrome.c - tests of the Chrome trace-event JSON reader (lib/reader/chrome.c). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_chrome;
extern const gd_reader gd_reader_godeye;

static const char *str(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}
static double dbl(json_t *o, const char *k)
{
    return json_number_value(json_object_get(o, k));
}

static size_t count_phase(const gd_collected *c, const char *phase)
{
    size_t i, n = 0;
    json_t *e;
    json_array_foreach(c->events, i, e)
        if (strcmp(str(e, "type"), "looper") == 0 && strcmp(str(e, "phase"), phase) == 0)
            n++;
    return n;
}

START_TEST(nested_fixture)
{
    gd_collected c;
    gd_test_read_file(&gd_reader_chrome, GODEYE_FIXTURES "/chrome/nested.json", NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    ck_assert_uint_eq(json_array_size(c.events), 8);
    ck_assert_uint_eq(json_array_size(c.metas), 0);
    ck_assert_uint_eq(count_phase(&c, "begin"), 3);
    ck_assert_uint_eq(count_phase(&c, "end"), 3);
    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 2);

    /* B on the main thread, its nested doFrame B/E and RunTask X ignored */
    json_t *e = json_array_get(c.events, 0);
    ck_assert_str_eq(str(e, "type"), "looper");
    ck_assert_str_eq(str(e, "phase"), "begin");
    ck_assert(dbl(e, "ts") == 1000.0);
    ck_assert(dbl(e, "thread_ts") == 500.0);
    ck_assert_int_eq(json_integer_value(json_object_get(e, "pid")), 4000);
    ck_assert_int_eq(json_integer_value(json_object_get(e, "tid")), 4000);
    ck_assert_str_eq(str(e, "thread"), "CrBrowserMain");
    ck_assert_str_eq(str(e, "msg"), "Looper.dispatchMessage");

    /* the nameless E that closes the dispatch (the one before closed doFrame) */
    e = json_array_get(c.events, 1);
    ck_assert_str_eq(str(e, "phase"), "end");
    ck_assert(dbl(e, "ts") == 1001.25);
    ck_assert(dbl(e, "thread_ts") == 500.9);
    ck_assert_ptr_null(json_object_get(e, "msg"));

    e = json_array_get(c.events, 2);
    ck_assert_str_eq(str(e, "type"), "dispatch");
    ck_assert(dbl(e, "ts") == 1002.0);
    ck_assert(dbl(e, "dur") == 1.5005);
    ck_assert(dbl(e, "thread_dur") == 1.2);
    ck_assert_str_eq(str(e, "msg"), "Looper.dispatch: android.os.Handler(org.chromium.base.task.PostTask$1)");

    e = json_array_get(c.events, 3);
    ck_assert_str_eq(str(e, "type"), "dispatch");
    ck_assert(dbl(e, "dur") == 16.0);
    ck_assert_ptr_null(json_object_get(e, "thread_dur"));
    ck_assert_str_eq(str(e, "msg"),
                     "{\"line\":\">>>>> Dispatching to Handler (android.view.Choreographer$FrameHandler) "
                     "{3c2b1a0} android.view.Choreographer$FrameDisplayEventReceiver@9f8e7d6: 0\"}");

    /* other thread: its name arrives later in the file, so none yet */
    e = json_array_get(c.events, 4);
    ck_assert_int_eq(json_integer_value(json_object_get(e, "tid")), 4010);
    ck_assert_ptr_null(json_object_get(e, "thread"));
    ck_assert_ptr_null(json_object_get(e, "thread_ts"));
    e = json_array_get(c.events, 5);
    ck_assert_str_eq(str(e, "phase"), "end");
    ck_assert(dbl(e, "ts") == 1005.5);

    /* a named dispatch E with nothing open is still reported (pairing drops it) */
    e = json_array_get(c.events, 6);
    ck_assert_str_eq(str(e, "phase"), "end");
    ck_assert(dbl(e, "ts") == 1006.0);
    e = json_array_get(c.events, 7);
    ck_assert_str_eq(str(e, "phase"), "begin");
    ck_assert(dbl(e, "thread_ts") == 502.0);

    ck_assert_int_eq(gd_collected_skips(&c, "ignored: chrome event not used"), 6);
    ck_assert_int_eq(gd_collected_skips(&c, "chrome: end without begin"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "chrome: complete event without dur"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "chrome: event without ts"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "chrome: event not an object"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "chrome: event without ph"), 1);
    ck_assert_uint_eq(json_object_size(c.skips), 6);
    gd_collected_free(&c);
}
END_TEST

START_TEST(array_format_unterminated)
{
    static const char txt[] =
        "[{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":7,\"tid\":9,\"args\":{\"name\":\"main\"}},\n"
        " {\"name\":\"Looper.dispatchMessage\",\"ph\":\"X\",\"pid\":7,\"tid\":9,\"ts\":2500,\"dur\":750,\"tdur\":500},\n";
    gd_collected c;
    gd_test_read_mem(&gd_reader_chrome, txt, sizeof txt - 1, NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    ck_assert_uint_eq(json_array_size(c.events), 1);
    json_t *e = json_array_get(c.events, 0);
    ck_assert_str_eq(str(e, "type"), "dispatch");
    ck_assert(dbl(e, "ts") == 2.5);
    ck_assert(dbl(e, "dur") == 0.75);
    ck_assert(dbl(e, "thread_dur") == 0.5);
    ck_assert_str_eq(str(e, "thread"), "main");
    gd_collected_free(&c);

    static const char closed[] = "[{\"ph\":\"B\",\"name\":\"Looper.dispatchMessage\",\"pid\":1,\"tid\":\"1\",\"ts\":1}]";
    gd_test_read_mem(&gd_reader_chrome, closed, sizeof closed - 1, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(json_array_size(c.events), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(c.events, 0), "tid")), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(nesting_is_bounded)
{
    size_t cap = 700 * 64, n = 0;
    char *txt = malloc(cap);
    n += (size_t)snprintf(txt + n, cap - n, "[");
    for (int i = 0; i < 300; i++)
        n += (size_t)snprintf(txt + n, cap - n, "{\"ph\":\"B\",\"name\":\"f\",\"pid\":1,\"tid\":1,\"ts\":%d},", i);
    for (int i = 0; i < 300; i++)
        n += (size_t)snprintf(txt + n, cap - n, "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":%d},", 400 + i);
    n += (size_t)snprintf(txt + n, cap - n,
                          "{\"ph\":\"B\",\"name\":\"Looper.dispatchMessage\",\"pid\":1,\"tid\":1,\"ts\":800},"
                          "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":900}]");
    gd_collected c;
    gd_test_read_mem(&gd_reader_chrome, txt, n, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_int_eq(gd_collected_skips(&c, "chrome: slices nested too deep"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: chrome event not used"), 600);
    /* the stack is balanced again: the dispatch after it pairs exactly */
    ck_assert_uint_eq(json_array_size(c.events), 2);
    ck_assert_str_eq(str(json_array_get(c.events, 1), "phase"), "end");
    ck_assert(dbl(json_array_get(c.events, 1), "ts") == 0.9);
    gd_collected_free(&c);
    free(txt);
}
END_TEST

START_TEST(errors)
{
    static const char noev[] = "{\"metadata\":{}}";
    gd_collected c;
    gd_test_read_mem(&gd_reader_chrome, noev, sizeof noev - 1, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_str_eq(c.err.msg, "no 'traceEvents' array (nor 'systemTraceEvents') in the trace object");
    gd_collected_free(&c);

    static const char notarr[] = "{\"traceEvents\":{}}";
    gd_test_read_mem(&gd_reader_chrome, notarr, sizeof notarr - 1, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_str_eq(c.err.msg, "field 'traceEvents' must be an array");
    ck_assert_int_eq(c.err.line, 1);
    ck_assert_int_eq(c.err.col, 16);
    gd_collected_free(&c);

    static const char broken[] = "{\"traceEvents\":[{\"ph\":\"X\",}]}";
    gd_test_read_mem(&gd_reader_chrome, broken, sizeof broken - 1, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_int_eq(c.err.line, 1);
    gd_collected_free(&c);

    static const char scalar[] = "42";
    gd_test_read_mem(&gd_reader_chrome, scalar, sizeof scalar - 1, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    gd_collected_free(&c);
}
END_TEST

START_TEST(probe_scores)
{
#define P(r, s) (r).probe((const unsigned char *)(s), strlen(s), 1)
    ck_assert_int_eq(P(gd_reader_chrome, "[{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"pid\":2}]"), 90);
    ck_assert_int_eq(P(gd_reader_chrome, "  [ \n{\"pid\": 2, \"ph\" : \"B\"}"), 90);
    ck_assert_int_eq(P(gd_reader_chrome, "{\"metadata\":{},\n\"traceEvents\" :[]}"), 90);
    ck_assert_int_eq(P(gd_reader_chrome, "[{\"code\":1,\"data\":{}}]"), 0);
    ck_assert_int_eq(P(gd_reader_chrome, "[1,2]"), 0);
    ck_assert_int_eq(P(gd_reader_chrome, "{\"godeye_trace\":1,\"events\":[]}"), 0);
    ck_assert_int_eq(P(gd_reader_chrome, "{\"note\":\"traceEvents\"}"), 0);
    ck_assert_int_eq(P(gd_reader_chrome, "----- pid 1 at 2020-01-01 00:00:00 -----\n"), 0);
    ck_assert_int_eq(P(gd_reader_godeye, "{\"traceEvents\":[]}"), 0);
#undef P
}
END_TEST

START_TEST(corpus_perf_sampling)
{
    const char *p = gd_test_corpus("chrome_json/catapult_perf_sampling_trace_with_trace_events.json.gz");
    if (!p)
        return;
    gd_collected c;
    gd_test_read_file(&gd_reader_chrome, p, NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    /* 45530 events: 1035 Looper.dispatchMessage B/E pairs, 13 thread names */
    ck_assert_uint_eq(json_array_size(c.events), 2070);
    ck_assert_uint_eq(count_phase(&c, "begin"), 1035);
    ck_assert_uint_eq(count_phase(&c, "end"), 1035);
    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: chrome event not used"), 43447);
    ck_assert_uint_eq(json_object_size(c.skips), 1);
    json_t *e = json_array_get(c.events, 0);
    ck_assert(dbl(e, "ts") == 519980166.36);
    ck_assert(dbl(e, "thread_ts") == 5462.758);
    ck_assert_int_eq(json_integer_value(json_object_get(e, "tid")), 16822);
    e = json_array_get(c.events, 2069);
    ck_assert_str_eq(str(e, "phase"), "end");
    gd_collected_free(&c);
}
END_TEST

START_TEST(corpus_webview)
{
    const char *p = gd_test_corpus("chrome_json/catapult_webview.json.gz");
    if (!p)
        return;
    gd_collected c;
    gd_test_read_file(&gd_reader_chrome, p, NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    /* 9334 events: 559 Looper.dispatchMessage B/E pairs, 38 thread names */
    ck_assert_uint_eq(count_phase(&c, "begin"), 559);
    ck_assert_uint_eq(count_phase(&c, "end"), 559);
    ck_assert_uint_eq(json_array_size(c.events), 1118);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: chrome event not used"), 8178);
    ck_assert_uint_eq(json_object_size(c.skips), 1);
    json_t *e = json_array_get(c.events, 0);
    ck_assert(dbl(e, "ts") == 823836.76);
    ck_assert(dbl(e, "thread_ts") == 171.109);
    ck_assert_int_eq(json_integer_value(json_object_get(e, "pid")), 11736);
    gd_collected_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chrome");
    TCase *tc = tcase_create("chrome");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, nested_fixture);
    tcase_add_test(tc, array_format_unterminated);
    tcase_add_test(tc, nesting_is_bounded);
    tcase_add_test(tc, errors);
    tcase_add_test(tc, probe_scores);
    tcase_add_test(tc, corpus_perf_sampling);
    tcase_add_test(tc, corpus_webview);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
