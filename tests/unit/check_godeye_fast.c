/* check_godeye_fast.c - the tokenizer for hot event kinds (lib/reader/godeye_fast.c):
 * exact fields, refusal of anything unusual, and equivalence with the jansson path. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/godeye_fast.h"
#include "testutil.h"

extern const gd_reader gd_reader_godeye;

static int fast(const char *text, gd_fast_scratch *sc, gd_event *ev)
{
    return gd_fast_event(text, strlen(text), sc, ev);
}

START_TEST(looper_fields)
{
    gd_fast_scratch sc = {0};
    gd_event ev;
    ck_assert_int_eq(fast("{\"type\":\"looper\",\"ts\":1700000000123.5,\"tid\":77,\"thread_ts\":5120,"
                          "\"phase\":\"begin\",\"msg\":\">>>>> a\\\"b\\\\c\\/d\\te\",\"pid\":9,"
                          "\"extra\":[1],\"more\":true} \r\n", &sc, &ev), 0); /* array under an unknown key */
    ck_assert_int_eq(fast(" {\"type\":\"looper\", \"ts\" : 1700000000123.5 ,\"tid\":77,\"thread_ts\":5120,"
                          "\"phase\":\"begin\",\"msg\":\">>>>> a\\\"b\\\\c\\/d\\te\",\"pid\":9,"
                          "\"more\":true,\"none\":null,\"n\":-1.5e3} \r\n", &sc, &ev), 1);
    ck_assert_int_eq(ev.kind, GD_EV_LOOPER);
    ck_assert_double_eq(ev.ts, 1700000000123.5);
    ck_assert_int_eq(ev.tid, 77);
    ck_assert_int_eq(ev.pid, 9);
    ck_assert_ptr_null(ev.thread);
    ck_assert_int_eq(ev.u.looper.phase, GD_PHASE_BEGIN);
    ck_assert_double_eq(ev.u.looper.thread_ts, 5120.0);
    ck_assert_str_eq(ev.u.looper.msg, ">>>>> a\"b\\c/d\te");
    /* absent fields: main thread, no phase, no thread time */
    ck_assert_int_eq(fast("{\"ts\":-0.25,\"type\":\"looper\",\"thread\":\"main\",\"pid\":\"x\"}", &sc, &ev), 1);
    ck_assert_double_eq(ev.ts, -0.25);
    ck_assert_int_eq(ev.tid, GD_TID_MAIN);
    ck_assert_int_eq(ev.pid, GD_PID_APP);
    ck_assert_str_eq(ev.thread, "main");
    ck_assert_int_eq(ev.u.looper.phase, GD_PHASE_UNKNOWN);
    ck_assert(!gd_has(ev.u.looper.thread_ts));
    ck_assert_ptr_null(ev.u.looper.msg);
    gd_fast_scratch_free(&sc);
}
END_TEST

START_TEST(stack_and_cpu_fields)
{
    gd_fast_scratch sc = {0};
    gd_event ev;
    ck_assert_int_eq(fast("{\"type\":\"stack\",\"ts\":5,\"tid\":3,\"frames\":[\"a.B.c(B.java:1)\", "
                          "\"java.lang.Thread.sleep(Native Method)\",\"x$y.<init>(Y.java:2)\"],"
                          "\"state\":\"Sleeping\"}", &sc, &ev), 1);
    ck_assert_int_eq(ev.kind, GD_EV_STACK);
    ck_assert_uint_eq(ev.u.stack.nframes, 3);
    ck_assert_str_eq(ev.u.stack.frames[0], "a.B.c(B.java:1)");
    ck_assert_str_eq(ev.u.stack.frames[1], "java.lang.Thread.sleep(Native Method)");
    ck_assert_str_eq(ev.u.stack.frames[2], "x$y.<init>(Y.java:2)");
    ck_assert_str_eq(ev.u.stack.state, "Sleeping");
    ck_assert_int_eq(fast("{\"type\":\"stack\",\"ts\":5,\"frames\":[ ]}", &sc, &ev), 1);
    ck_assert_uint_eq(ev.u.stack.nframes, 0);
    ck_assert_int_eq(fast("{\"type\":\"cpu\",\"ts\":10,\"stat\":\"cpu  4473 1068 4565 21155 559 0 29 0 0 0\","
                          "\"pid_stat\":\"3238 (d.godeye (x) y) S 1189 1 0 0 -1 0 0 0 0 0 40 12 3 4 20\"}",
                          &sc, &ev), 1);
    ck_assert_int_eq(ev.kind, GD_EV_CPU);
    ck_assert_int_eq(ev.u.cpu.raw.has_stat, 1);
    ck_assert_uint_eq(ev.u.cpu.raw.user, 4473);
    ck_assert_uint_eq(ev.u.cpu.raw.idle, 21155);
    ck_assert_uint_eq(ev.u.cpu.raw.softirq, 29);
    ck_assert_int_eq(ev.u.cpu.raw.has_pid_stat, 1);
    ck_assert_uint_eq(ev.u.cpu.raw.utime, 40);
    ck_assert_uint_eq(ev.u.cpu.raw.cstime, 4);
    ck_assert(!gd_has(ev.u.cpu.total));
    ck_assert_int_eq(fast("{\"type\":\"cpu\",\"ts\":10,\"total\":0.62,\"app\":0.31}", &sc, &ev), 1);
    ck_assert_double_eq(ev.u.cpu.total, 0.62);
    ck_assert_double_eq(ev.u.cpu.app, 0.31);
    ck_assert_int_eq(ev.u.cpu.raw.has_stat, 0);
    gd_fast_scratch_free(&sc);
}
END_TEST

START_TEST(refuses_the_unusual)
{
    static const char *const lines[] = {
        "{\"type\":\"meta\",\"app\":\"x\"}",
        "{\"type\":\"memory\",\"ts\":1,\"heap\":{\"allocatedKb\":1}}",
        "{\"type\":\"dispatch\",\"ts\":1,\"dur\":3}",
        "{\"type\":\"looper\",\"ts\":1,\"msg\":\"caf\\u00e9\"}",
        "{\"type\":\"looper\",\"ts\":1,\"msg\":\"caf\xc3\xa9\"}",
        "{\"type\":\"looper\",\"ts\":1,\"msg\":\"a\tb\"}",
        "{\"type\":\"looper\",\"ts\":1,\"tid\":1.5}",
        "{\"type\":\"looper\",\"ts\":1,\"tid\":\"12\"}",
        "{\"type\":\"looper\",\"ts\":1,\"phase\":\"middle\"}",
        "{\"type\":\"looper\",\"ts\":1,\"thread\":5}",
        "{\"type\":\"looper\",\"ts\":1,\"thread_ts\":\"5\"}",
        "{\"type\":\"looper\",\"ts\":01}",
        "{\"type\":\"looper\",\"ts\":1.}",
        "{\"type\":\"looper\",\"ts\":1e999}",
        "{\"type\":\"looper\",\"ts\":1234567890123456789}",
        "{\"type\":\"looper\",\"ts\":\"1\"}",
        "{\"type\":\"looper\"}",
        "{\"type\":\"looper\",\"ts\":1} x",
        "{\"type\":\"looper\",\"ts\":1,}",
        "{\"type\":\"looper\",\"ts\":1,\"x\":{\"y\":1}}",
        "{\"type\":\"looper\",\"ts\":1",
        "{\"type\":\"stack\",\"ts\":1,\"frames\":[\"a\",null]}",
        "{\"type\":\"stack\",\"ts\":1,\"frames\":\"a\"}",
        "{\"type\":\"stack\",\"ts\":1}",
        "{\"type\":\"cpu\",\"ts\":1}",
        "{\"type\":\"cpu\",\"ts\":1,\"stat\":\"not a cpu line\"}",
        "{\"type\":5,\"ts\":1}",
        "[]",
        "{}",
    };
    gd_fast_scratch sc = {0};
    gd_event ev;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        ck_assert_msg(fast(lines[i], &sc, &ev) == 0, "accepted: %s", lines[i]);
    gd_fast_scratch_free(&sc);
}
END_TEST

/* Numbers are read in place; every value is the one strtod gives. */
START_TEST(numbers_as_strtod)
{
    static const char *const fixed[] = {"0.1", "-0.0", "1700000000123.456", "1e22", "1e23", "9007199254740993.5",
                                        "123456789012345.6", "0.000001", "5e-324", "1.7976931348623157e308",
                                        "4.9406564584124654e-324", "2.2250738585072011e-308", "0.30000000000000004",
                                        "1E+2", "12e-3", "0.0000000000000000000000000001"};
    gd_fast_scratch sc = {0};
    gd_event ev;
    char line[256], num[64];
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < 20000; i++) {
        if (i < (int)(sizeof fixed / sizeof fixed[0])) {
            snprintf(num, sizeof num, "%s", fixed[i]);
        } else {
            /* xorshift: digits, a point somewhere, sometimes an exponent */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            int nd = 1 + (int)(x % 19), pt = (int)((x >> 8) % (uint64_t)nd), k = 0;
            num[k++] = '1' + (char)((x >> 16) % 9);
            for (int d = 1; d < nd; d++) {
                if (d == pt)
                    num[k++] = '.';
                num[k++] = '0' + (char)((x >> (d * 3)) % 10);
            }
            if (!pt)
                num[k++] = '.', num[k++] = '5';
            if ((x >> 40) % 3 == 0)
                k += snprintf(num + k, sizeof num - (size_t)k, "e%d", (int)((x >> 44) % 60) - 30);
            num[k] = 0;
        }
        snprintf(line, sizeof line, "{\"type\":\"looper\",\"ts\":1,\"thread_ts\":%s}", num);
        if (fast(line, &sc, &ev) != 1)
            continue; /* out of range: the general path reads it */
        ck_assert_msg(ev.u.looper.thread_ts == strtod(num, NULL), "%s: %.17g", num, ev.u.looper.thread_ts);
        ck_assert_int_eq(signbit(ev.u.looper.thread_ts), signbit(strtod(num, NULL)));
    }
    gd_fast_scratch_free(&sc);
}
END_TEST

/* The same lines through the reader: once on the fast path, once forced
 * onto the jansson path by a nested object under an unknown key. */
START_TEST(same_events_as_jansson)
{
    static const char *const lines[] = {
        "{\"type\":\"looper\",\"ts\":1700000000000.125,\"thread_ts\":10,\"phase\":\"begin\",\"msg\":\">>>>> Dispatching to Handler (a.B) {1} c.D@2: 0\"",
        "{\"type\":\"stack\",\"ts\":1700000000240,\"tid\":4,\"thread\":\"main\",\"frames\":[\"a.b.C.d(C.java:3)\",\"android.os.Looper.loop(Looper.java:288)\"]",
        "{\"type\":\"cpu\",\"ts\":1700000000300,\"stat\":\"cpu  1 2 3 4 5 6 7 8 0 0\",\"pid_stat\":\"9 (x) S 1 1 0 0 -1 0 0 0 0 0 11 12 13 14 20\"",
        "{\"type\":\"looper\",\"tid\":8,\"ts\":1700000000400.5,\"msg\":\"<<<<< Finished to Handler (a.B) {1} c.D@2\",\"pid\":3",
        "{\"type\":\"cpu\",\"ts\":1700000000600,\"total\":0.5,\"app\":0.25,\"user\":0.125,\"sys\":0.0625,\"iowait\":0",
    };
    size_t n = sizeof lines / sizeof lines[0];
    char a[4096] = "", b[4096] = "";
    for (size_t i = 0; i < n; i++) {
        strcat(a, lines[i]);
        strcat(a, "}\n");
        strcat(b, lines[i]);
        strcat(b, ",\"x\":{\"y\":[1]}}\n");
    }
    gd_collected ca, cb;
    gd_read_opts o = {0};
    gd_test_read_mem(&gd_reader_godeye, a, strlen(a), &o, &ca);
    gd_test_read_mem(&gd_reader_godeye, b, strlen(b), &o, &cb);
    ck_assert_int_eq(ca.rc, 0);
    ck_assert_int_eq(cb.rc, 0);
    ck_assert_uint_eq(json_array_size(ca.events), n);
    char *ja = json_dumps(ca.events, JSON_SORT_KEYS | JSON_COMPACT);
    char *jb = json_dumps(cb.events, JSON_SORT_KEYS | JSON_COMPACT);
    ck_assert_str_eq(ja, jb);
    free(ja);
    free(jb);
    gd_collected_free(&ca);
    gd_collected_free(&cb);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("godeye_fast");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, looper_fields);
    tcase_add_test(tc, stack_and_cpu_fields);
    tcase_add_test(tc, refuses_the_unusual);
    tcase_add_test(tc, same_events_as_jansson);
    tcase_add_test(tc, numbers_as_strtod);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
