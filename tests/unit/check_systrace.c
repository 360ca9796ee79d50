/* check_systrace.c - tests of the systrace/atrace reader (lib/reader/systrace.c):
 * text with and without the TGID and flags columns, "atrace -z" output
 * (zlib after "TRACE:"), the systrace HTML report with several trace-data
 * blocks, and the real files of the corpus. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "testutil.h"

extern const gd_reader gd_reader_systrace;

static const char *jstr(json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }
static double jnum(json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }
static long long jint(json_t *o, const char *k) { return json_integer_value(json_object_get(o, k)); }

static const char TEXT[] =
    "# tracer: nop\n"
    "#\n"
    "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
    "#              | |        |      |   ||||       |         |\n"
    "     com.example-4000  ( 4000) [001] ...1  100.000000: tracing_mark_write: B|4000|Choreographer#doFrame\n"
    "     com.example-4000  ( 4000) [001] ...1  100.001000: tracing_mark_write: B|4000|traversal\n"
    "     com.example-4000  ( 4000) [001] ...1  100.001500: tracing_mark_write: B|4000|draw\n"
    "          <idle>-0     (-----) [000] d..3  100.001600: sched_switch: prev_comm=swapper/0 prev_pid=0\n"
    "     com.example-4000  ( 4000) [001] ...1  100.002000: tracing_mark_write: E|4000\n"
    "     com.example-4000  ( 4000) [001] ...1  100.004000: tracing_mark_write: E|4000\n"
    "     com.example-4000  ( 4000) [001] ...1  100.016000: tracing_mark_write: E|4000\n"
    "    RenderThread-4010  (-----) [002] ...1  100.017000: tracing_mark_write: B|4000|DrawFrame\n"
    "    RenderThread-4010  (-----) [002] ...1  100.017500: tracing_mark_write: C|4000|queue|1\n"
    "    RenderThread-4010  (-----) [002] ...1  100.019000: tracing_mark_write: E\n"
    "    RenderThread-4010  (-----) [002] ...1  100.019500: tracing_mark_write: E\n"
    "     com.example-4000  ( 4000) [001] ...1  100.020000: tracing_mark_write: B|4000|activityStart\n"
    "this line is noise\n";

START_TEST(text_with_tgid)
{
    gd_collected c;
    gd_test_read_mem(&gd_reader_systrace, TEXT, strlen(TEXT), NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 2);
    json_t *d = gd_collected_nth(&c, "dispatch", 0);
    ck_assert_str_eq(jstr(d, "msg"), "Choreographer#doFrame");
    ck_assert_double_eq_tol(jnum(d, "ts"), 100000.0, 1e-6);
    ck_assert_double_eq_tol(jnum(d, "dur"), 16.0, 1e-6);
    ck_assert_str_eq(jstr(d, "thread"), "com.example");
    ck_assert_int_eq(jint(d, "pid"), 4000);
    d = gd_collected_nth(&c, "dispatch", 1);
    ck_assert_str_eq(jstr(d, "msg"), "activityStart");
    ck_assert(json_is_true(json_object_get(d, "unfinished")));

    ck_assert_uint_eq(gd_collected_count(&c, "method"), 3);
    json_t *m = gd_collected_nth(&c, "method", 0);
    ck_assert_str_eq(jstr(m, "method"), "draw");
    ck_assert_int_eq(jint(m, "depth"), 1);
    m = gd_collected_nth(&c, "method", 1);
    ck_assert_str_eq(jstr(m, "method"), "traversal");
    ck_assert_int_eq(jint(m, "depth"), 0);
    ck_assert_double_eq_tol(jnum(m, "end_ts"), 100004.0, 1e-6);
    m = gd_collected_nth(&c, "method", 2);
    ck_assert_str_eq(jstr(m, "method"), "DrawFrame");
    ck_assert_str_eq(jstr(m, "thread"), "RenderThread");
    ck_assert_int_eq(jint(m, "pid"), 4000);

    ck_assert_uint_eq(gd_collected_count(&c, "frame"), 1);
    json_t *f = gd_collected_nth(&c, "frame", 0);
    ck_assert_double_eq_tol(jnum(f, "dur"), 16.0, 1e-6);
    ck_assert_str_eq(jstr(f, "window"), "com.example");

    ck_assert_int_eq(gd_collected_skips(&c, "systrace: slice end without begin"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: systrace: counter marker"), 1);
    /* the cut sched_switch: a scheduling event whose fields do not parse (#26) */
    ck_assert_int_eq(gd_collected_skips(&c, "systrace: sched: sched event unparsable"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: systrace: ftrace event not used"), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "systrace: line not an ftrace event"), 1);
    json_t *meta = json_array_get(c.metas, 0);
    ck_assert_str_eq(jstr(meta, "app"), "com.example");
    ck_assert_int_eq(jint(meta, "pid"), 4000);
    ck_assert_str_eq(jstr(meta, "clock"), "monotonic");
    gd_collected_free(&c);
}
END_TEST

/* Older kernels: no TGID column, no flags column. */
START_TEST(text_without_tgid)
{
    static const char t[] =
        "# tracer: nop\n"
        "#           TASK-PID    CPU#    TIMESTAMP  FUNCTION\n"
        "   my app-thing-321   [000]  50.000000: tracing_mark_write: B|321|bindApplication\n"
        "   my app-thing-321   [000]  50.250000: tracing_mark_write: E\n"
        "   worker-123456[001]  50.300000: tracing_mark_write: B|99|w\n"
        "   worker-123456[001]  50.301000: tracing_mark_write: E\n";
    gd_collected c;
    gd_test_read_mem(&gd_reader_systrace, t, strlen(t), NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    ck_assert_uint_eq(json_array_size(c.events), 2);
    json_t *m = gd_collected_nth(&c, "method", 0);
    ck_assert_int_eq(jint(m, "tid"), 123456);
    ck_assert_str_eq(jstr(m, "thread"), "worker");
    json_t *d = gd_collected_nth(&c, "dispatch", 0);
    ck_assert_str_eq(jstr(d, "msg"), "bindApplication");
    ck_assert_str_eq(jstr(d, "thread"), "my app-thing");
    ck_assert_int_eq(jint(d, "tid"), 321);
    ck_assert_double_eq_tol(jnum(d, "dur"), 250.0, 1e-6);
    gd_collected_free(&c);
}
END_TEST

/* "atrace -z": TRACE: then zlib. */
START_TEST(compressed_atrace)
{
    const char *pre = "capturing trace... done\nTRACE:\n";
    uLongf zn = compressBound(strlen(TEXT));
    size_t pl = strlen(pre);
    unsigned char *buf = malloc(pl + zn);
    memcpy(buf, pre, pl);
    ck_assert_int_eq(compress(buf + pl, &zn, (const unsigned char *)TEXT, strlen(TEXT)), Z_OK);
    ck_assert_int_ge(gd_reader_systrace.probe(buf, pl + zn, 1), 80);
    gd_collected c;
    gd_test_read_mem(&gd_reader_systrace, buf, pl + zn, NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 2);
    ck_assert_uint_eq(gd_collected_count(&c, "method"), 3);
    ck_assert_uint_eq(gd_collected_count(&c, "frame"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: systrace: data after the compressed trace (not read)"), 0);
    gd_collected_free(&c);

    /* after the stream: line ends are nothing; anything else is counted
     * once (catapult's compressed_atrace_data.txt has 17600 such bytes) */
    unsigned char *tail = malloc(pl + zn + 64);
    memcpy(tail, buf, pl + zn);
    memcpy(tail + pl + zn, "\r\n\n", 3);
    gd_test_read_mem(&gd_reader_systrace, tail, pl + zn + 3, NULL, &c);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: systrace: data after the compressed trace (not read)"), 0);
    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 2);
    gd_collected_free(&c);
    memcpy(tail + pl + zn, "\nUM\x87junk", 8);
    gd_test_read_mem(&gd_reader_systrace, tail, pl + zn + 8, NULL, &c);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: systrace: data after the compressed trace (not read)"), 1);
    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 2);
    gd_collected_free(&c);
    free(tail);

    /* cut short: what was inflated stays, the cut is counted */
    gd_test_read_mem(&gd_reader_systrace, buf, pl + zn / 2, NULL, &c);
    ck_assert_int_eq(gd_collected_skips(&c, "systrace: compressed trace cut short"), 1);
    gd_collected_free(&c);
    free(buf);
}
END_TEST

/* "adb shell atrace -z" through an old adb pty: every '\n' of the binary
 * stream became "\r\n" ("\r\r\n" on Windows); undone as systrace does. */
START_TEST(compressed_crlf)
{
    for (int cr = 1; cr <= 2; cr++) {
        size_t cap = 1 << 20, tn = 0;
        char *text = malloc(cap);
        tn += (size_t)snprintf(text, cap, "# tracer: nop\n");
        unsigned x = 12345;
        for (int i = 0; i < 3000; i++) {
            x = x * 1103515245u + 12345u;
            tn += (size_t)snprintf(text + tn, cap - tn,
                                   "  app-900 (  900) [00%u] ...1  %d.%06u: tracing_mark_write: %s\n",
                                   x % 8, 10 + i / 100, x % 1000000,
                                   i % 2 ? "E|900" : "B|900|work");
        }
        uLongf zn = compressBound(tn);
        unsigned char *z = malloc(zn);
        ck_assert_int_eq(compress(z, &zn, (unsigned char *)text, tn), Z_OK);
        const char *pre = cr == 1 ? "capturing trace... done\r\nTRACE:\r\n"
                                  : "capturing trace... done\r\r\nTRACE:\r\r\n";
        size_t pl = strlen(pre), o = pl, nls = 0;
        unsigned char *m = malloc(pl + zn * 3);
        memcpy(m, pre, pl);
        for (uLongf i = 0; i < zn; i++) {
            if (z[i] == '\n') {
                for (int k = 0; k < cr; k++)
                    m[o++] = '\r';
                nls++;
            }
            m[o++] = z[i];
        }
        ck_assert_uint_ge(nls, 4);
        ck_assert_int_ge(gd_reader_systrace.probe(m, o, 1), 80);
        gd_collected c;
        gd_test_read_mem(&gd_reader_systrace, m, o, NULL, &c);
        ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
        ck_assert_int_eq(gd_collected_skips(&c, "ignored: systrace: adb line endings undone in the zlib data"), 1);
        ck_assert_int_eq(gd_collected_skips(&c, "systrace: compressed trace cut short"), 0);
        /* the whole text came out: 1500 B/E pairs on the main thread */
        ck_assert_int_eq(gd_collected_count(&c, "dispatch"), 1500);
        gd_collected_free(&c);
        free(m);
        free(z);
        free(text);
    }
}
END_TEST

START_TEST(html_blocks)
{
    static const char h[] =
        "<!DOCTYPE html>\n<html>\n<head><title>Android System Trace</title></head>\n"
        "<script class=\"trace-data\" type=\"application/text\">not here: viewer code</script>\n"
        "<!-- BEGIN TRACE -->\n"
        "  <script class=\"trace-data\" type=\"application/json\">\n"
        "{\"traceEvents\": []}\n"
        "  </script>\n"
        "  <script class=\"trace-data\" type=\"application/text\">\n"
        "PROCESS DUMP\nUSER PID PPID\n"
        "  </script>\n"
        "  <script class=\"trace-data\" type=\"application/text\">\n"
        "# tracer: nop\n"
        "  app-77    (   77) [000] ...1   1.000000: tracing_mark_write: B|77|Choreographer#doFrame\n"
        "  app-77    (   77) [000] ...1   1.008000: tracing_mark_write: E|77\n"
        "  </script>\n"
        "<!-- END TRACE -->\n"
        "  app-77    (   77) [000] ...1   2.000000: tracing_mark_write: B|77|after the end\n"
        "</html>\n";
    ck_assert_int_ge(gd_reader_systrace.probe((const unsigned char *)h, strlen(h), 1), 80);
    gd_collected c;
    gd_test_read_mem(&gd_reader_systrace, h, strlen(h), NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 1);
    ck_assert_uint_eq(gd_collected_count(&c, "frame"), 1);
    ck_assert_double_eq_tol(jnum(gd_collected_nth(&c, "frame", 0), "dur"), 8.0, 1e-6);
    /* the JSON block; the PROCESS DUMP block is read (#30): its one line
     * is no ps header ("USER PID PPID", 3 fields) nor a row */
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: systrace: trace-data block not ftrace text"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: systrace: process dump line not a ps row"), 1);
    gd_collected_free(&c);
}
END_TEST

/* #30: a PROCESS DUMP block's long form names processes by NAME (Perfetto's
 * 9th field), a main thread whose comm is the name's 15-character tail goes
 * by the name, other threads keep their comm; rows whose pid is no number
 * or past 2^31 - 1 are counted; the short form is read without names. */
START_TEST(html_process_dump)
{
    static const char h[] =
        "<!DOCTYPE html>\n<html>\n<!-- BEGIN TRACE -->\n"
        "  <script class=\"trace-data\" type=\"application/text\">\n"
        "PROCESS DUMP\n"
        "USER PID PPID VSZ RSS WCHAN PC S NAME COMM\n"
        "u0_a1 77 1 10 20 0 0 S com.example.longname.app:remote  name.app:remote   \n"
        "u0_a2 99999999999 1 10 20 0 0 S too.big big\n"
        "u0_a2 88 1 10 20 0 0 S short\n" /* 9 fields: not a row */
        "USER PID TID CMD\n"
        "u0_a1 77 78 Render Thread\n"
        "u0_a1 7x 79 bad\n"
        "  </script>\n"
        "  <script class=\"trace-data\" type=\"application/text\">\n"
        "# tracer: nop\n"
        "  name.app:remote-77    (   77) [000] ...1   1.000000: tracing_mark_write: B|77|Choreographer#doFrame\n"
        "  name.app:remote-77    (   77) [000] ...1   1.008000: tracing_mark_write: E|77\n"
        "  RenderThread-78    (-----) [001] ...1   1.009000: tracing_mark_write: B|77|DrawFrame\n"
        "  RenderThread-78    (-----) [001] ...1   1.010000: tracing_mark_write: E|77\n"
        "  </script>\n"
        "<!-- END TRACE -->\n</html>\n";
    gd_collected c;
    gd_test_read_mem(&gd_reader_systrace, h, strlen(h), NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    json_t *f = gd_collected_nth(&c, "frame", 0);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(jstr(f, "window"), "com.example.longname.app:remote");
    ck_assert_str_eq(jstr(gd_collected_nth(&c, "dispatch", 0), "thread"), "com.example.longname.app:remote");
    ck_assert_str_eq(jstr(gd_collected_nth(&c, "method", 0), "thread"), "RenderThread");
    ck_assert_str_eq(jstr(json_array_get(c.metas, 0), "app"), "com.example.longname.app:remote");
    ck_assert_int_eq(gd_collected_skips(&c, "systrace: process dump row not parsed"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: systrace: process dump line not a ps row"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: systrace: no process dump: process names are the kernel's"
                                            " 15-character comm"), 0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(nothing_usable)
{
    static const char t[] =
        "# tracer: nop\n"
        "  <idle>-0 (-----) [000] d..3 1.000000: sched_switch: prev_comm=swapper\n";
    gd_collected c;
    gd_test_read_mem(&gd_reader_systrace, t, strlen(t), NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_msg(strstr(c.err.msg, "no atrace slices (1 ftrace events, 0 atrace markers)") ||
                      strstr(c.err.msg, "no atrace slices in the trace (1 ftrace events, 0 atrace markers)"),
                  "%s", c.err.msg);
    gd_collected_free(&c);
}
END_TEST

/* The calls a binder server thread serves nest on its stack (the slice
 * tracker's): a callback into thread 510 while it serves call 1 is
 * answered first; a call that fails for its client while a later one is
 * served above it (11 under 12 on 520) leaves the stack without taking
 * the reply of the other; a reply with nothing served is counted. */
#define BL(task, tid, ts, ev) "  " task "-" #tid " ( " #tid ") [000] ...1 " ts ": " ev "\n"
static const char BINDER_NEST[] =
    "# tracer: nop\n"
    BL("app", 1000, "0.500000", "tracing_mark_write: B|1000|work")
    BL("app", 1000, "1.000000", "binder_transaction: transaction=1 dest_proc=500 reply=0 flags=0x10 code=0x1")
    BL("srv", 510, "1.010000", "binder_transaction_received: transaction=1")
    BL("srv", 510, "1.020000", "binder_transaction: transaction=2 dest_proc=600 reply=0 flags=0x10 code=0x2")
    BL("other", 610, "1.030000", "binder_transaction_received: transaction=2")
    BL("other", 610, "1.040000", "binder_transaction: transaction=3 dest_proc=500 reply=0 flags=0x10 code=0x3")
    BL("srv", 510, "1.050000", "binder_transaction_received: transaction=3")
    BL("srv", 510, "1.060000", "binder_transaction: transaction=4 dest_proc=600 reply=1 flags=0x0 code=0x0")
    BL("other", 610, "1.070000", "binder_transaction_received: transaction=4")
    BL("other", 610, "1.080000", "binder_transaction: transaction=5 dest_proc=500 reply=1 flags=0x0 code=0x0")
    BL("srv", 510, "1.090000", "binder_transaction_received: transaction=5")
    BL("srv", 510, "1.100000", "binder_transaction: transaction=6 dest_proc=1000 reply=1 flags=0x0 code=0x0")
    BL("app", 1000, "1.110000", "binder_transaction_received: transaction=6")
    BL("app", 1000, "2.000000", "binder_transaction: transaction=11 dest_proc=500 reply=0 flags=0x10 code=0xb")
    BL("srv2", 520, "2.010000", "binder_transaction_received: transaction=11")
    BL("app2", 1001, "2.015000", "binder_transaction: transaction=12 dest_proc=500 reply=0 flags=0x10 code=0xc")
    BL("srv2", 520, "2.020000", "binder_transaction_received: transaction=12")
    BL("app", 1000, "2.030000", "binder_return: cmd=0x7211 BR_FAILED_REPLY")
    BL("srv2", 520, "2.040000", "binder_transaction: transaction=14 dest_proc=1001 reply=1 flags=0x0 code=0x0")
    BL("app2", 1001, "2.050000", "binder_transaction_received: transaction=14")
    BL("srv2", 520, "2.060000", "binder_transaction: transaction=15 dest_proc=1000 reply=1 flags=0x0 code=0x0")
    BL("app", 1000, "3.000000", "tracing_mark_write: E|1000");

/* binder event i: txn_id, client ts and dur, server tid, ts and dur (ms; -1 none) */
static void check_binder(gd_collected *c, size_t i, long long txn, double ts, double dur,
                         long long server_tid, double server_ts, double server_dur)
{
    json_t *b = gd_collected_nth(c, "binder", i);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(jint(b, "txn_id"), txn);
    ck_assert_double_eq_tol(jnum(b, "ts"), ts, 1e-6);
    ck_assert_double_eq_tol(jnum(b, "dur"), dur, 1e-6);
    ck_assert_int_eq(jint(b, "server_tid"), server_tid);
    ck_assert_double_eq_tol(jnum(b, "server_ts"), server_ts, 1e-6);
    if (server_dur < 0)
        ck_assert_ptr_null(json_object_get(b, "server_dur"));
    else
        ck_assert_double_eq_tol(jnum(b, "server_dur"), server_dur, 1e-6);
}

START_TEST(binder_nested_on_server_stack)
{
    gd_collected c;
    gd_test_read_mem(&gd_reader_systrace, BINDER_NEST, strlen(BINDER_NEST), NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "binder"), 5);
    check_binder(&c, 0, 3, 1040, 30, 510, 1050, 10); /* the callback, answered first */
    check_binder(&c, 1, 2, 1020, 70, 610, 1030, 50);
    check_binder(&c, 2, 1, 1000, 110, 510, 1010, 90);
    check_binder(&c, 3, 11, 2000, 30, 520, 2010, -1); /* failed: ended by binder_return */
    ck_assert_str_eq(jstr(gd_collected_nth(&c, "binder", 3), "reply_status"), "BR_FAILED_REPLY");
    check_binder(&c, 4, 12, 2015, 35, 520, 2020, 20); /* 520's reply answers 12, not 11 */
    ck_assert_int_eq(gd_collected_skips(&c, "systrace: binder: binder reply without its transaction"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(probe_scores)
{
    ck_assert_int_ge(gd_reader_systrace.probe((const unsigned char *)TEXT, strlen(TEXT), 1), 80);
    static const char logcat[] = "03-05 14:22:07.481  1234  1234 I tag: hello\n";
    ck_assert_int_eq(gd_reader_systrace.probe((const unsigned char *)logcat, strlen(logcat), 1), 0);
    static const char html[] = "<!DOCTYPE html><html><title>x</title></html>";
    ck_assert_int_eq(gd_reader_systrace.probe((const unsigned char *)html, strlen(html), 1), 0);
}
END_TEST

START_TEST(corpus_html)
{
    const char *p = gd_test_corpus("systrace_html/gtechoogle_performance_tool_trace.html");
    if (!p)
        return;
    gd_collected c;
    gd_test_read_file(&gd_reader_systrace, p, NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    /* tests/perfetto/systrace_oracle.py: 252 doFrame, 254 main-thread top slices */
    ck_assert_uint_eq(gd_collected_count(&c, "frame"), 252);
    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 254);
    gd_collected_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("systrace");
    TCase *tc = tcase_create("systrace");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, text_with_tgid);
    tcase_add_test(tc, html_process_dump);
    tcase_add_test(tc, text_without_tgid);
    tcase_add_test(tc, compressed_atrace);
    tcase_add_test(tc, compressed_crlf);
    tcase_add_test(tc, html_blocks);
    tcase_add_test(tc, nothing_usable);
    tcase_add_test(tc, binder_nested_on_server_stack);
    tcase_add_test(tc, probe_scores);
    tcase_add_test(tc, corpus_html);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
