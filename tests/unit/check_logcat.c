/* check_logcat.c - tests of the logcat reader (threadtime, time, brief; corpus capture). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_logcat;

#define FIX GODEYE_FIXTURES "/logcat/"

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

static int probe_text(const char *s)
{
    return gd_reader_logcat.probe((const unsigned char *)s, strlen(s), 1);
}

static int probe_file(const char *path)
{
    static unsigned char buf[65536];
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, sizeof buf, f);
    int eof = feof(f);
    fclose(f);
    return gd_reader_logcat.probe(buf, n, eof);
}

START_TEST(threadtime_new_year)
{
    gd_read_opts o = {.year = 2023};
    gd_collected c;
    gd_test_read_file(&gd_reader_logcat, FIX "threadtime_newyear.txt", &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.events), 10);
    ck_assert_int_eq(gd_collected_count(&c, "looper"), 5);
    ck_assert_int_eq(gd_collected_count(&c, "dispatch"), 1);
    ck_assert_int_eq(gd_collected_count(&c, "issue"), 4);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: other line"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: unparsable line"), 1);
    ck_assert_int_eq(json_object_size(c.skips), 2);

    json_t *e = json_array_get(c.events, 0);
    ck_assert_str_eq(str(e, "type"), "looper");
    ck_assert_str_eq(str(e, "phase"), "begin");
    ck_assert(num(e, "ts") == 1704067199100.0);
    ck_assert_int_eq(inum(e, "pid"), 4321);
    ck_assert_int_eq(inum(e, "tid"), 4321);
    ck_assert_str_eq(str(e, "msg"),
                     ">>>>> Dispatching to Handler (android.view.Choreographer$FrameHandler) "
                     "{3c2b1a0} android.view.Choreographer$FrameDisplayEventReceiver@9f8e7d6: 0");
    e = json_array_get(c.events, 1);
    ck_assert_str_eq(str(e, "phase"), "end");
    ck_assert(num(e, "ts") == 1704067199950.0);
    ck_assert_str_eq(str(e, "msg"),
                     "<<<<< Finished to Handler (android.view.Choreographer$FrameHandler) "
                     "{3c2b1a0} android.view.Choreographer$FrameDisplayEventReceiver@9f8e7d6");
    /* crossed midnight of New Year: 2024 */
    e = json_array_get(c.events, 2);
    ck_assert_str_eq(str(e, "phase"), "begin");
    ck_assert(num(e, "ts") == 1704067200010.0);
    /* a late 12-31 line after 01-01 keeps 2023 */
    e = json_array_get(c.events, 3);
    ck_assert_str_eq(str(e, "type"), "issue");
    ck_assert_str_eq(str(e, "issue_type"), "skipped_frames");
    ck_assert(num(e, "ts") == 1704067199990.0);
    ck_assert_int_eq(inum(e, "pid"), 1625);
    ck_assert_int_eq(inum(json_object_get(e, "content"), "frames"), 2);
    e = json_array_get(c.events, 4);
    ck_assert_str_eq(str(e, "phase"), "end");
    ck_assert(num(e, "ts") == 1704067200912.0);

    e = json_array_get(c.events, 5);
    ck_assert_str_eq(str(e, "type"), "dispatch");
    ck_assert(num(e, "ts") == 1704067200011.0); /* 00:00:00.913 - 902 ms */
    ck_assert(num(e, "dur") == 902.0);
    ck_assert_ptr_null(json_object_get(e, "thread_dur"));
    ck_assert_str_eq(str(e, "thread"), "main");
    ck_assert_int_eq(inum(e, "tid"), 4321);
    ck_assert_str_eq(str(e, "msg"),
                     "Slow dispatch took 902ms main h=android.app.ActivityThread$H c=null m=159");

    e = json_array_get(c.events, 6);
    ck_assert_str_eq(str(e, "tool"), "android");
    ck_assert_str_eq(str(e, "issue_type"), "slow_delivery");
    ck_assert(num(e, "ts") == 1704067200914.0);
    ck_assert(num(e, "cost") == 870.0);
    json_t *ct = json_object_get(e, "content");
    ck_assert_int_eq(inum(ct, "delay_ms"), 870);
    ck_assert_str_eq(str(ct, "thread"), "main");
    ck_assert(strncmp(str(ct, "msg"), "Slow delivery took 870ms main h=", 32) == 0);

    e = json_array_get(c.events, 7);
    ck_assert_str_eq(str(e, "issue_type"), "skipped_frames");
    ck_assert(num(e, "ts") == 1704067200930.0);
    ck_assert_ptr_null(json_object_get(e, "cost"));
    ck_assert_int_eq(inum(json_object_get(e, "content"), "frames"), 54);

    e = json_array_get(c.events, 8);
    ck_assert_str_eq(str(e, "issue_type"), "slow_delivery_drained");
    ck_assert(num(e, "ts") == 1704067201002.0);

    e = json_array_get(c.events, 9);
    ck_assert_str_eq(str(e, "phase"), "begin");
    ck_assert(num(e, "ts") == 1704067201100.0);
    ck_assert_int_eq(inum(e, "tid"), 4398);
    gd_collected_free(&c);
}
END_TEST

START_TEST(time_format_and_brief)
{
    gd_read_opts o = {.year = 2023};
    gd_collected c;
    gd_test_read_file(&gd_reader_logcat, FIX "time_format.txt", &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.events), 4);
    json_t *e = json_array_get(c.events, 0);
    ck_assert_str_eq(str(e, "phase"), "begin");
    ck_assert(num(e, "ts") == 1683891765100.0);
    ck_assert_int_eq(inum(e, "pid"), 4321);
    ck_assert_int_eq(inum(e, "tid"), 4321); /* no tid in "time": the main thread */
    ck_assert_str_eq(str(e, "msg"),
                     ">>>>> Dispatching to Handler (android.app.ActivityThread$H) {e1f2a3b} null: 110");
    e = json_array_get(c.events, 1);
    ck_assert_str_eq(str(e, "phase"), "end");
    ck_assert(num(e, "ts") == 1683891765420.0);
    e = json_array_get(c.events, 2); /* ActivityManager: Displayed ... +812ms */
    ck_assert_str_eq(str(e, "type"), "startup");
    ck_assert(num(e, "ts") == 1683891765421.0);
    ck_assert_str_eq(str(e, "app"), "com.example.shop");
    ck_assert_str_eq(str(e, "activity"), "com.example.shop.MainActivity");
    ck_assert(num(e, "total_ms") == 812.0);
    ck_assert_ptr_null(json_object_get(e, "startup_kind"));
    ck_assert_ptr_null(json_object_get(e, "wait_ms"));
    ck_assert_str_eq(str(e, "source"), "logcat");
    ck_assert_int_eq(inum(e, "pid"), 1625);
    e = json_array_get(c.events, 3);
    ck_assert_str_eq(str(e, "type"), "dispatch");
    ck_assert(num(e, "ts") == 1683891765370.0);
    ck_assert(num(e, "dur") == 130.0);
    ck_assert_str_eq(str(e, "thread"), "android.fg");
    ck_assert_int_eq(inum(e, "pid"), 1625);
    ck_assert_int_eq(inum(e, "tid"), 1625);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: other line"), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: brief line without time"), 1);
    gd_collected_free(&c);

    gd_test_read_file(&gd_reader_logcat, FIX "brief_only.txt", &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.events), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: brief line without time"), 4);
    gd_collected_free(&c);
}
END_TEST

START_TEST(stamp_variants)
{
    /* -v year, -v usec, leap day, empty message */
    const char *txt =
        "2024-02-29 23:59:59.123456  300  301 D Tag: >>>>> Dispatching to Handler (x) {1} null: 1\n"
        "02-29 23:59:59.123  300  301 D Tag: <<<<< Finished to Handler (x) {1} null\n"
        "02-29 23:59:59.123  300  301 D Tag: \n"
        "13-01 00:00:00.000  300  301 D Tag: bad month\n"
        "02-29 23:59:59.12  300  301 D Tag: two fraction digits\n"
        "02-29 23:59:59.123  300 D Tag: no tid\n";
    gd_read_opts o = {.year = 2024};
    gd_collected c;
    gd_test_read_mem(&gd_reader_logcat, txt, strlen(txt), &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.events), 2);
    ck_assert(num(json_array_get(c.events, 0), "ts") == 1709251199123.456);
    ck_assert(num(json_array_get(c.events, 1), "ts") == 1709251199123.0);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: other line"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: unparsable line"), 3);
    gd_collected_free(&c);
}
END_TEST

START_TEST(years_keep_increasing)
{
    /* two New Years in one capture (December -> January), months advancing in steps */
    const char *txt = "12-31 23:59:59.000  1  1 W Looper  : Drained\n"
                      "01-02 12:00:00.000  1  1 W Looper  : Drained\n"
                      "06-30 12:00:00.000  1  1 W Looper  : Drained\n"
                      "09-30 12:00:00.000  1  1 W Looper  : Drained\n"
                      "12-31 23:59:59.000  1  1 W Looper  : Drained\n"
                      "01-01 00:00:00.000  1  1 W Looper  : Drained\n"
                      "12-31 23:59:59.500  1  1 W Looper  : Drained\n"
                      "01-01 00:00:01.000  1  1 W Looper  : Drained\n";
    gd_read_opts o = {.year = 2022};
    gd_collected c;
    gd_test_read_mem(&gd_reader_logcat, txt, strlen(txt), &o, &c);
    ck_assert_int_eq(json_array_size(c.events), 8);
    ck_assert(num(json_array_get(c.events, 0), "ts") == 1672531199000.0); /* 2022-12-31 */
    ck_assert(num(json_array_get(c.events, 1), "ts") == 1672660800000.0); /* 2023-01-02 */
    ck_assert(num(json_array_get(c.events, 2), "ts") == 1688126400000.0); /* 2023-06-30 */
    ck_assert(num(json_array_get(c.events, 3), "ts") == 1696075200000.0); /* 2023-09-30 */
    ck_assert(num(json_array_get(c.events, 4), "ts") == 1704067199000.0); /* 2023-12-31 */
    ck_assert(num(json_array_get(c.events, 5), "ts") == 1704067200000.0); /* 2024-01-01 */
    ck_assert(num(json_array_get(c.events, 6), "ts") == 1704067199500.0); /* late: 2023 */
    ck_assert(num(json_array_get(c.events, 7), "ts") == 1704067201000.0); /* 2024 again */
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: logcat: clock reset (went back, year kept)"), 0);
    gd_collected_free(&c);
}
END_TEST

/* A backwards jump that is no New Year (the boot clock not yet set: 09-05
 * then 03-30) keeps the year and is counted as a clock reset; before, every
 * later line moved one year ahead.  Values from Python's datetime (UTC). */
START_TEST(clock_reset_keeps_year)
{
    const char *txt = "09-05 10:00:00.000  1  1 W Looper  : Drained\n"
                      "03-30 08:00:00.000  1  1 W Looper  : Drained\n"
                      "03-30 08:00:01.000  1  1 W Looper  : Drained\n"
                      "09-05 10:05:00.000  1  1 W Looper  : Drained\n";
    gd_read_opts o = {.year = 2024};
    gd_collected c;
    gd_test_read_mem(&gd_reader_logcat, txt, strlen(txt), &o, &c);
    ck_assert_int_eq(json_array_size(c.events), 4);
    ck_assert(num(json_array_get(c.events, 0), "ts") == 1725530400000.0); /* 2024-09-05 */
    ck_assert(num(json_array_get(c.events, 1), "ts") == 1711785600000.0); /* 2024-03-30, not 2025 */
    ck_assert(num(json_array_get(c.events, 2), "ts") == 1711785601000.0);
    ck_assert(num(json_array_get(c.events, 3), "ts") == 1725530700000.0); /* 2024-09-05 again */
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: logcat: clock reset (went back, year kept)"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(probe_scores)
{
    ck_assert_int_ge(probe_file(FIX "threadtime_newyear.txt"), 90);
    ck_assert_int_ge(probe_file(FIX "time_format.txt"), 90);
    ck_assert_int_eq(probe_file(FIX "brief_only.txt"), 25);
    ck_assert_int_eq(probe_text("{\"godeye_trace\":1,\"meta\":{},\"events\":[]}"), 0);
    ck_assert_int_eq(probe_text("\r\n**********************\r\n2024-01-01 00:00:01(write log time)\r\n"
                                "\r\nqua = beta\r\nversionName = 1.0\r\n"), 0);
    ck_assert_int_eq(probe_text("----- pid 4321 at 2024-01-01 00:00:01 -----\nCmd line: x\n"), 0);
    ck_assert_int_eq(probe_text(""), 0);
    /* a head cut inside the third line still needs three whole lines */
    const char *cut = "05-12 10:31:30.242  2363  2950 D PowerUI : a\n"
                      "05-12 10:31:30.243  2363  2950 D PowerUI : b\n"
                      "05-12 10:31:30.244  2363  29";
    ck_assert_int_eq(gd_reader_logcat.probe((const unsigned char *)cut, strlen(cut), 0), 0);
}
END_TEST

START_TEST(corpus_eggonlea)
{
    const char *p = gd_test_corpus("logcat/eggonlea_logcat.log.gz");
    if (!p) {
        fprintf(stderr, "check_logcat: corpus capture absent, skipped\n");
        return;
    }
    gd_read_opts o = {.year = 2023};
    gd_collected c;
    gd_test_read_file(&gd_reader_logcat, p, &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    /* 7 Slow dispatch, 3 Slow delivery, 3 Drained (Looper tag), 7 Displayed,
     * 3 Fully drawn (their launches' time to full display) */
    ck_assert_int_eq(json_array_size(c.events), 23);
    ck_assert_int_eq(gd_collected_count(&c, "dispatch"), 7);
    ck_assert_int_eq(gd_collected_count(&c, "issue"), 6);
    ck_assert_int_eq(gd_collected_count(&c, "startup"), 10);
    ck_assert_int_eq(gd_collected_count(&c, "looper"), 0);
    /* 25557 lines: 3 "beginning of", 23 used, the rest ordinary logcat */
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: other line"), 25531);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: unparsable line"), 0);
    ck_assert_int_eq(json_object_size(c.skips), 1);
    /* the capture's clock: the device's wall clock, no zone */
    ck_assert_int_eq(json_array_size(c.metas), 1);
    ck_assert_str_eq(str(json_array_get(c.metas, 0), "clock"), "local");

    /* "Displayed <pkg>/<full class> for user 0: +Nms" (Android 13/14):
     * grep 'ActivityTaskManager: Displayed' gives 290 737 404 454 422 574 754 */
    static const double shown[] = {290, 737, 404, 454, 422, 574, 754};
    /* and "Fully drawn" after 737, 404, 454: +737ms, +415ms, +487ms */
    static const double drawn[] = {737, 415, 487};
    double shown_sum = 0;
    size_t nshown = 0, ndrawn = 0;
    for (size_t i = 0; i < 10; i++) {
        json_t *s = gd_collected_nth(&c, "startup", i);
        ck_assert_str_eq(str(s, "source"), "logcat");
        if (json_object_get(s, "ttfd_ms")) {
            ck_assert(ndrawn < 3 && num(s, "ttfd_ms") == drawn[ndrawn]);
            ndrawn++;
            continue;
        }
        ck_assert(nshown < 7 && num(s, "total_ms") == shown[nshown]);
        nshown++;
        shown_sum += num(s, "total_ms");
    }
    ck_assert(nshown == 7 && ndrawn == 3);
    ck_assert(shown_sum == 3635);
    json_t *st = gd_collected_nth(&c, "startup", 1);
    ck_assert(num(st, "ts") == 1683891796376.0); /* 2023-05-12 11:43:16.376 */
    ck_assert_str_eq(str(st, "app"), "com.google.android.youtube");
    ck_assert_str_eq(str(st, "activity"),
                     "com.google.android.apps.youtube.app.watchwhile.WatchWhileActivity");
    ck_assert_int_eq(inum(st, "pid"), 1625);
    ck_assert_int_eq(inum(st, "tid"), 1707);

    json_t *e = gd_collected_nth(&c, "dispatch", 0);
    ck_assert(num(e, "ts") == 1683891764872.0); /* 2023-05-12 11:42:45.207 - 335 */
    ck_assert(num(e, "dur") == 335.0);
    ck_assert_int_eq(inum(e, "pid"), 1625);
    ck_assert_int_eq(inum(e, "tid"), 1707);
    ck_assert_str_eq(str(e, "thread"), "android.fg");
    e = gd_collected_nth(&c, "dispatch", 2);
    ck_assert(num(e, "dur") == 528.0);
    ck_assert_int_eq(inum(e, "tid"), 1625);
    ck_assert_str_eq(str(e, "thread"), "main");
    e = gd_collected_nth(&c, "dispatch", 6);
    ck_assert(num(e, "ts") == 1683891799774.0); /* 11:43:19.804 - 30 */
    ck_assert_str_eq(str(e, "thread"), "wmshell.main");
    ck_assert_int_eq(inum(e, "pid"), 2363);
    ck_assert_int_eq(inum(e, "tid"), 2403);

    double dur_sum = 0;
    for (size_t i = 0; i < 7; i++)
        dur_sum += num(gd_collected_nth(&c, "dispatch", i), "dur");
    ck_assert(dur_sum == 335 + 112 + 528 + 112 + 130 + 142 + 30);

    size_t delivery = 0, drained = 0;
    double delay_sum = 0;
    for (size_t i = 0; i < 6; i++) {
        e = gd_collected_nth(&c, "issue", i);
        if (strcmp(str(e, "issue_type"), "slow_delivery") == 0) {
            delivery++;
            delay_sum += num(e, "cost");
        } else if (strcmp(str(e, "issue_type"), "slow_delivery_drained") == 0) {
            drained++;
        }
    }
    ck_assert_int_eq(delivery, 3);
    ck_assert_int_eq(drained, 3);
    ck_assert(delay_sum == 333 + 201 + 529);
    gd_collected_free(&c);
}
END_TEST

START_TEST(corpus_probe)
{
    const char *p = gd_test_corpus("logcat/eggonlea_logcat.log.gz");
    if (!p)
        return;
    gd_input *in = NULL;
    gd_error err;
    ck_assert_int_eq(gd_input_open_file(&in, p, &err), GD_OK);
    size_t n;
    int eof;
    const unsigned char *h = gd_input_peek(in, &n, &eof, &err);
    ck_assert_ptr_nonnull(h);
    ck_assert_int_eq(gd_reader_logcat.probe(h, n, eof), 95);
    gd_input_close(in);
}
END_TEST

START_TEST(hostile_input)
{
    /* never crash: truncated prefixes of a valid line, binary noise, huge numbers */
    const char *line = "12-31 23:59:59.100  4321  4321 W Looper  : Slow dispatch took 902ms main h=x c=y m=1";
    gd_collected c;
    for (size_t k = 0; k <= strlen(line); k++) {
        gd_test_read_mem(&gd_reader_logcat, line, k, NULL, &c);
        ck_assert_int_eq(c.rc, GD_OK);
        gd_collected_free(&c);
    }
    const char *odd = "12-31 23:59:59.100 99999999999 1 W Looper  : Drained\n"
                      "12-31 23:59:59.100  1  1 W Looper  : Slow dispatch took 99999999999ms\n"
                      "12-31 23:59:59.100  1  1 W Looper  : Slow dispatch took 5ms\n"
                      "W/(1): x\n\x01\x02\xff\n";
    gd_test_read_mem(&gd_reader_logcat, odd, strlen(odd), NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.events), 1); /* "took 5ms" without thread */
    ck_assert_ptr_null(json_object_get(json_array_get(c.events, 0), "thread"));
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: unparsable line"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: other line"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: brief line without time"), 1);
    gd_collected_free(&c);
}
END_TEST


START_TEST(uid_columns_and_launches)
{
    /* -v uid (bugreports): a uid column, as a number or a name; the time
     * layout with "(uid: pid)"; a launch seen in the main buffer
     * (Displayed) and in the events buffer (am_activity_launch_time): both
     * read, the writer keeps one (cli/startup_merge) */
    gd_read_opts o = {.year = 2019};
    gd_collected c;
    gd_test_read_file(&gd_reader_logcat, FIX "uid_bugreport.txt", &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(gd_collected_count(&c, "dispatch"), 3);
    ck_assert_int_eq(gd_collected_count(&c, "issue"), 3);
    ck_assert_int_eq(gd_collected_count(&c, "startup"), 4);
    ck_assert_int_eq(json_array_size(c.events), 10);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: other line"), 3);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: unparsable line"), 0);

    json_t *e = gd_collected_nth(&c, "dispatch", 0); /* uid 1000 */
    ck_assert(num(e, "ts") == 1565817747020.0 - 139);
    ck_assert(num(e, "dur") == 139.0);
    ck_assert_int_eq(inum(e, "pid"), 1867);
    ck_assert_int_eq(inum(e, "tid"), 1882);
    ck_assert_str_eq(str(e, "thread"), "android.ui");
    e = gd_collected_nth(&c, "dispatch", 1); /* uid u0_a8 */
    ck_assert_int_eq(inum(e, "pid"), 2478);
    ck_assert_int_eq(inum(e, "tid"), 2478);
    ck_assert(num(e, "dur") == 120.0);
    e = gd_collected_nth(&c, "dispatch", 2); /* "W/Looper  ( 1000: 1867):" */
    ck_assert_int_eq(inum(e, "pid"), 1867);
    ck_assert_int_eq(inum(e, "tid"), 1867);
    ck_assert(num(e, "dur") == 101.0);
    e = gd_collected_nth(&c, "issue", 0);
    ck_assert_str_eq(str(e, "issue_type"), "slow_delivery");
    ck_assert(num(e, "cost") == 1365.0);
    e = gd_collected_nth(&c, "issue", 2);
    ck_assert_str_eq(str(e, "issue_type"), "skipped_frames");
    ck_assert_int_eq(inum(e, "pid"), 1999);

    e = gd_collected_nth(&c, "startup", 0); /* Displayed: +729ms */
    ck_assert(num(e, "ts") == 1565881735763.0);
    ck_assert_str_eq(str(e, "app"), "com.jeanboy.app.training");
    ck_assert_str_eq(str(e, "activity"), "com.jeanboy.app.training.ui.activity.TestActivity");
    ck_assert(num(e, "total_ms") == 729.0);
    e = gd_collected_nth(&c, "startup", 1); /* events only: [...,2335,2335] */
    ck_assert(num(e, "ts") == 1565817750849.0);
    ck_assert_str_eq(str(e, "activity"), "com.android.settings.FallbackHome");
    ck_assert(num(e, "total_ms") == 2335.0);
    e = gd_collected_nth(&c, "startup", 2); /* the same launch, events buffer: [...,729,729] */
    ck_assert_str_eq(str(e, "activity"), "com.jeanboy.app.training.ui.activity.TestActivity");
    ck_assert(num(e, "total_ms") == 729.0);
    e = gd_collected_nth(&c, "startup", 3); /* wm_activity_launch_time, 4 fields */
    ck_assert_str_eq(str(e, "app"), "com.example");
    ck_assert_str_eq(str(e, "activity"), "com.example.ui.Main");
    ck_assert(num(e, "total_ms") == 501.0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(android_studio_layouts)
{
    gd_collected c;
    gd_test_read_file(&gd_reader_logcat, FIX "studio.txt", NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.events), 4);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: other line"), 5);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: continuation line"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: unparsable line"), 0);
    /* before Dolphin: "2020-03-19 20:46:00.002 788-865/system_process W/Looper: ..." */
    json_t *e = gd_collected_nth(&c, "dispatch", 0);
    ck_assert(num(e, "ts") == 1584650760002.0 - 250);
    ck_assert_int_eq(inum(e, "pid"), 788);
    ck_assert_int_eq(inum(e, "tid"), 865);
    ck_assert_str_eq(str(e, "thread"), "android.fg");
    /* Dolphin+: "...  774-795   ActivityManager  system_process  I  Displayed ..." */
    e = gd_collected_nth(&c, "startup", 0);
    ck_assert(num(e, "ts") == 1686665227443.0);
    ck_assert_str_eq(str(e, "app"), "com.tencent.wx.app");
    ck_assert_str_eq(str(e, "activity"), "com.tencent.wx.app.MainActivity");
    ck_assert(num(e, "total_ms") == 649.0);
    ck_assert_int_eq(inum(e, "pid"), 774);
    ck_assert_int_eq(inum(e, "tid"), 795);
    e = gd_collected_nth(&c, "dispatch", 1);
    ck_assert(num(e, "dur") == 310.0);
    ck_assert_int_eq(inum(e, "tid"), 2628);
    ck_assert_str_eq(str(e, "thread"), "main");
    ck_assert_str_eq(str(e, "msg"), "Slow dispatch took 310ms main h=android.app.ActivityThread$H c=null m=159");
    e = gd_collected_nth(&c, "issue", 0);
    ck_assert_str_eq(str(e, "issue_type"), "slow_delivery_drained");
    gd_collected_free(&c);

    /* the tag column may hold spaces; the package is the last word */
    const char *one = "2024-01-02 03:04:05.702   567-890   Looper                  pid-567      "
                      "                        W  Drained\n"
                      "2024-01-02 03:04:05.703   567-890   My Looper Tag           com.x  W  Drained\n";
    gd_test_read_mem(&gd_reader_logcat, one, strlen(one), NULL, &c);
    ck_assert_int_eq(json_array_size(c.events), 1);
    ck_assert_int_eq(inum(json_array_get(c.events, 0), "pid"), 567);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: other line"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(miui_and_modern_looper)
{
    gd_read_opts o = {.year = 2024};
    gd_collected c;
    gd_test_read_file(&gd_reader_logcat, FIX "miui.txt", &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(gd_collected_count(&c, "dispatch"), 5);
    ck_assert_int_eq(gd_collected_count(&c, "issue"), 4);
    ck_assert_int_eq(gd_collected_count(&c, "startup"), 4); /* 3 Displayed, 1 Fully drawn */
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: other line"), 3);

    /* "Activity ... is 708ms late (wall=0ms ...) because of 2 msg, msg 1
     * took 108ms (...), msg 2 took 627ms (...)" at 22:41:49.791: the delay is
     * an issue; the two messages run back to back and end at the line */
    const double t = 1716331309791.0;
    json_t *e = gd_collected_nth(&c, "issue", 0);
    ck_assert_str_eq(str(e, "issue_type"), "slow_delivery");
    ck_assert(num(e, "ts") == t);
    ck_assert(num(e, "cost") == 708.0);
    json_t *ct = json_object_get(e, "content");
    ck_assert_int_eq(inum(ct, "delay_ms"), 708);
    ck_assert_str_eq(str(ct, "thread"), "main");
    ck_assert_str_eq(str(ct, "late"), "Activity co.realfit.agdkwinitwgpu/.MainActivity");
    e = gd_collected_nth(&c, "dispatch", 0);
    ck_assert(num(e, "ts") == t - 627 - 108);
    ck_assert(num(e, "dur") == 108.0);
    ck_assert_str_eq(str(e, "thread"), "main");
    ck_assert_str_eq(str(e, "msg"),
                     "msg 1 took 108ms (seq=2 late=8ms h=android.app.ActivityThread$H w=110)");
    e = gd_collected_nth(&c, "dispatch", 1);
    ck_assert(num(e, "ts") == t - 627);
    ck_assert(num(e, "dur") == 627.0);
    ck_assert_str_eq(str(e, "msg"),
                     "msg 2 took 627ms (seq=3 late=82ms h=android.app.ActivityThread$H w=159)");
    e = gd_collected_nth(&c, "startup", 0); /* "+1s4ms" */
    ck_assert(num(e, "total_ms") == 1004.0);

    /* "Long Msg: ... late=3475ms wall=3836ms" at 22:42:00.000 is the late
     * doFrame itself; the "doFrame is 3475ms late ... msg 1 took 2190ms"
     * that follows places msg 1 before it */
    const double u = 1716331320000.0;
    e = gd_collected_nth(&c, "dispatch", 2);
    ck_assert(num(e, "ts") == u - 3836);
    ck_assert(num(e, "dur") == 3836.0);
    ck_assert_int_eq(inum(e, "tid"), 25328);
    e = gd_collected_nth(&c, "dispatch", 3);
    ck_assert(num(e, "dur") == 2190.0);
    ck_assert(num(e, "ts") == u + 1 - 3836 - 2190);
    e = gd_collected_nth(&c, "issue", 1);
    ck_assert(num(e, "cost") == 3475.0);
    ck_assert_str_eq(str(json_object_get(e, "content"), "late"), "doFrame");
    e = gd_collected_nth(&c, "issue", 2); /* "doFrame is 413ms late because of 1 msg" */
    ck_assert(num(e, "cost") == 413.0);

    /* "Slow dispatch took 49415ms main app=system_server main=true group=..." */
    e = gd_collected_nth(&c, "dispatch", 4);
    ck_assert(num(e, "dur") == 49415.0);
    ck_assert_str_eq(str(e, "thread"), "main");
    e = gd_collected_nth(&c, "issue", 3);
    ck_assert(num(e, "cost") == 300.0);
    ck_assert_str_eq(str(json_object_get(e, "content"), "thread"), "main");

    /* "+850ms (total +1s2ms)": the launch is the total, from the intent to
     * the first frame (#51), the first figure the drawn activity's own;
     * "+1m2s3ms" */
    e = gd_collected_nth(&c, "startup", 1);
    ck_assert_str_eq(str(e, "activity"), "com.example.Trampoline");
    ck_assert(num(e, "total_ms") == 1002.0);
    ck_assert(num(e, "activity_ms") == 850.0);
    e = gd_collected_nth(&c, "startup", 2); /* "Fully drawn com.example/.Main: +2s3ms" */
    ck_assert_str_eq(str(e, "activity"), "com.example.Main");
    ck_assert(num(e, "ttfd_ms") == 2003.0);
    e = gd_collected_nth(&c, "startup", 3);
    ck_assert_str_eq(str(e, "activity"), "com.example.Main");
    ck_assert(num(e, "total_ms") == 62003.0);
    ck_assert_ptr_null(json_object_get(e, "activity_ms")); /* one figure only */
    gd_collected_free(&c);
}
END_TEST

START_TEST(bom_and_utf16)
{
    const char u8[] = "\xef\xbb\xbf"
                      "02-28 00:12:16.507  3290  3290 W Looper  : Slow dispatch took 120ms main h=x\n"
                      "02-28 00:12:16.600  3290  3290 W Looper  : Drained\n"
                      "02-28 00:12:16.700  3290  3290 W Looper  : Drained\n";
    gd_read_opts o = {.year = 2017};
    gd_collected c;
    ck_assert_int_ge(gd_reader_logcat.probe((const unsigned char *)u8, sizeof u8 - 1, 1), 90);
    gd_test_read_mem(&gd_reader_logcat, u8, sizeof u8 - 1, &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.events), 3);
    ck_assert(num(json_array_get(c.events, 0), "dur") == 120.0);
    ck_assert(num(json_array_get(c.events, 0), "ts") == 1488240736507.0 - 120);
    ck_assert_int_eq(json_object_size(c.skips), 0);
    gd_collected_free(&c);

    /* the same text as UTF-16LE with a BOM (PowerShell "adb logcat > f") */
    unsigned char u16[2 * sizeof u8];
    size_t k = 0;
    u16[k++] = 0xFF;
    u16[k++] = 0xFE;
    for (size_t i = 3; i < sizeof u8 - 1; i++) {
        u16[k++] = (unsigned char)u8[i];
        u16[k++] = 0;
    }
    /* probes see what the input peeks, as ingest does: already UTF-8 (the
     * raw UTF-16 bytes never reach a probe or a line reader) */
    gd_input *in;
    gd_error err;
    size_t hn;
    int eof;
    ck_assert_int_eq(gd_input_open_mem(&in, u16, k, &err), 0);
    const unsigned char *head = gd_input_peek(in, &hn, &eof, &err);
    ck_assert_ptr_nonnull(head);
    ck_assert_str_eq(gd_input_encoding(in), "UTF-16LE");
    ck_assert_uint_eq(hn, sizeof u8 - 1 - 3);
    ck_assert_int_eq(memcmp(head, u8 + 3, hn), 0);
    ck_assert_int_ge(gd_reader_logcat.probe(head, hn, eof), 90);
    gd_input_close(in);
    gd_test_read_mem(&gd_reader_logcat, u16, k, &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.events), 3);
    ck_assert(num(json_array_get(c.events, 0), "dur") == 120.0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(corpus_small_files)
{
    /* Android Studio copy: 5 lines, none of use, all read */
    char p[4096], q[4096];
    const char *pp = gd_test_corpus("logcat/tinycap_android_studio_logcat.log");
    snprintf(p, sizeof p, "%s", pp ? pp : "");
    const char *qq = gd_test_corpus("logcat/gitzhaochen_logtool_logcat_bom.log");
    snprintf(q, sizeof q, "%s", qq ? qq : "");
    if (!pp || !qq) {
        fprintf(stderr, "check_logcat: corpus capture absent, skipped\n");
        return;
    }
    ck_assert_int_ge(probe_file(p), 90);
    gd_collected c;
    gd_test_read_file(&gd_reader_logcat, p, NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.events), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: other line"), 5);
    ck_assert_int_eq(json_object_size(c.skips), 1);
    gd_collected_free(&c);
    /* BOM then 720 threadtime lines (wc -l), the first one read too */
    ck_assert_int_ge(probe_file(q), 90);
    gd_test_read_file(&gd_reader_logcat, q, NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: other line"), 720);
    ck_assert_int_eq(json_object_size(c.skips), 1);
    gd_collected_free(&c);
}
END_TEST

/* A sink whose store is corrupt: every event fails with GD_ERR_DATA (1),
 * the number "not mine" used to have too (issue #25 item 10). */
static int corrupt_event(void *ctx, const gd_event *ev, gd_error *err)
{
    (void)ev;
    ++*(int *)ctx;
    return gd_error_set(err, GD_ERR_DATA, 0, 0, "database disk image is malformed");
}
static void count_skip(void *ctx, const char *reason, long line, long col)
{
    (void)reason, (void)line, (void)col;
    ((int *)ctx)[1]++;
}

/* #28: every timed line is also a log event (a log_line row): level, tag
 * and message as read, the "ANR in" block and am_anr as android issues */
START_TEST(log_lines_and_anr_report)
{
    static const char text[] =
        "03-09 10:15:12.480  1511  1580 E ActivityManager: ANR in com.example.notes (com.example.notes/.Main)\n"
        "03-09 10:15:12.480  1511  1580 E ActivityManager: PID: 4321\n"
        "03-09 10:15:12.480  1511  1580 E ActivityManager: Reason: executing service com.example.notes/.S\n"
        "03-09 10:15:12.480  1511  1580 E ActivityManager: CPU usage from 0ms to 9655ms later:\n"
        "03-09 10:15:12.480  1511  1580 E ActivityManager:   12.5% 4321/com.example.notes: 10% user + 2.5% kernel\n"
        "03-09 10:15:12.480  1511  1580 E ActivityManager: 40% TOTAL: 30% user + 10% kernel\n"
        "03-09 10:15:13.000  1511  1580 I am_anr  : [0,4321,com.example.notes,13155908,a, b]\n";
    gd_read_opts o = {.year = 2025};
    gd_collected c;
    gd_test_read_mem(&gd_reader_logcat, text, sizeof text - 1, &o, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_int_eq(json_array_size(c.logs), 7);
    json_t *l = json_array_get(c.logs, 4);
    ck_assert_str_eq(str(l, "level"), "E");
    ck_assert_str_eq(str(l, "tag"), "ActivityManager");
    ck_assert_str_eq(str(l, "msg"), "  12.5% 4321/com.example.notes: 10% user + 2.5% kernel");
    ck_assert_int_eq(inum(l, "pid"), 1511);
    ck_assert_int_eq(json_array_size(c.events), 2);
    json_t *r = json_array_get(c.events, 0), *a = json_array_get(c.events, 1);
    ck_assert_str_eq(str(r, "issue_type"), "anr_report");
    ck_assert_int_eq(inum(r, "pid"), 4321);
    json_t *rj = json_incref(json_object_get(r, "content"));
    ck_assert(json_real_value(json_object_get(rj, "cpu_app_pct")) == 12.5);
    ck_assert(json_real_value(json_object_get(rj, "cpu_total_pct")) == 40.0);
    ck_assert_str_eq(json_string_value(json_object_get(rj, "component")), "com.example.notes/.Main");
    json_decref(rj);
    ck_assert_str_eq(str(a, "issue_type"), "am_anr");
    ck_assert_int_eq(inum(a, "pid"), 4321);
    json_t *aj = json_incref(json_object_get(a, "content"));
    ck_assert_str_eq(json_string_value(json_object_get(aj, "reason")), "a, b");
    json_decref(aj);
    gd_collected_free(&c);
}
END_TEST

START_TEST(sink_error_is_not_a_skip)
{
    const char *text = "12-31 23:59:59.100  4321  4321 W Looper  : Slow dispatch took 902ms main h=x c=y m=1\n"
                       "12-31 23:59:59.200  4321  4321 W Looper  : Slow dispatch took 903ms main h=x c=y m=1\n";
    int counts[2] = {0, 0}; /* events tried, skips */
    gd_sink sink = {counts, NULL, corrupt_event, count_skip};
    gd_input *in = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_input_open_mem(&in, text, strlen(text), &err), GD_OK);
    int rc = gd_reader_logcat.read(in, &sink, NULL, &err);
    gd_input_close(in);
    /* the first event's error ends the read: before, it was counted as
     * "logcat: other line" and the second line was read too */
    ck_assert_int_eq(rc, GD_ERR_DATA);
    ck_assert_str_eq(err.msg, "database disk image is malformed");
    ck_assert_int_eq(counts[0], 1);
    ck_assert_int_eq(counts[1], 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("logcat");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, threadtime_new_year);
    tcase_add_test(t, time_format_and_brief);
    tcase_add_test(t, stamp_variants);
    tcase_add_test(t, years_keep_increasing);
    tcase_add_test(t, clock_reset_keeps_year);
    tcase_add_test(t, probe_scores);
    tcase_add_test(t, corpus_eggonlea);
    tcase_add_test(t, corpus_probe);
    tcase_add_test(t, hostile_input);
    tcase_add_test(t, uid_columns_and_launches);
    tcase_add_test(t, android_studio_layouts);
    tcase_add_test(t, miui_and_modern_looper);
    tcase_add_test(t, bom_and_utf16);
    tcase_add_test(t, corpus_small_files);
    tcase_add_test(t, sink_error_is_not_a_skip);
    tcase_add_test(t, log_lines_and_anr_report);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return gd_test_exit(failed);
}
