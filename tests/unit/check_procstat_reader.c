/* check_procstat_reader.c - the "procstat" reader (lib/reader/procfile.c). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_procstat;
#define R (&gd_reader_procstat)

static json_int_t cnt(json_t *ev, const char *group, const char *k)
{
    json_t *g = json_object_get(ev, group);
    ck_assert_ptr_nonnull(g);
    return json_integer_value(json_object_get(g, k));
}

static void assert_stat(json_t *e, json_int_t user, json_int_t nice, json_int_t system, json_int_t idle,
                        json_int_t iowait, json_int_t irq, json_int_t softirq, json_int_t steal)
{
    ck_assert_int_eq(cnt(e, "stat_counters", "user"), user);
    ck_assert_int_eq(cnt(e, "stat_counters", "nice"), nice);
    ck_assert_int_eq(cnt(e, "stat_counters", "system"), system);
    ck_assert_int_eq(cnt(e, "stat_counters", "idle"), idle);
    ck_assert_int_eq(cnt(e, "stat_counters", "iowait"), iowait);
    ck_assert_int_eq(cnt(e, "stat_counters", "irq"), irq);
    ck_assert_int_eq(cnt(e, "stat_counters", "softirq"), softirq);
    ck_assert_int_eq(cnt(e, "stat_counters", "steal"), steal);
}

static void assert_pid(json_t *e, json_int_t pid, json_int_t ut, json_int_t st, json_int_t cut, json_int_t cst)
{
    ck_assert_int_eq(json_integer_value(json_object_get(e, "pid")), pid);
    ck_assert_int_eq(cnt(e, "pid_counters", "utime"), ut);
    ck_assert_int_eq(cnt(e, "pid_counters", "stime"), st);
    ck_assert_int_eq(cnt(e, "pid_counters", "cutime"), cut);
    ck_assert_int_eq(cnt(e, "pid_counters", "cstime"), cst);
}

static double ts(json_t *e) { return json_number_value(json_object_get(e, "ts")); }

START_TEST(test_fixture_repeated_blocks)
{
    gd_collected c;
    gd_test_read_file(R, GODEYE_FIXTURES "/procstat/two_samples.txt", NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "cpu"), 2);
    json_t *a = gd_collected_nth(&c, "cpu", 0), *b = gd_collected_nth(&c, "cpu", 1);
    assert_stat(a, 4473, 1068, 4565, 21155, 559, 0, 29, 0);
    assert_pid(a, 3238, 312, 97, 5, 2); /* comm "d.godeye (sample) app" */
    ck_assert_double_eq(ts(a), 1700000000000.0); /* btime stand-in */
    assert_stat(b, 4573, 1068, 4665, 21255, 559, 0, 30, 0);
    assert_pid(b, 3238, 340, 101, 5, 2);
    ck_assert_int_eq(gd_collected_skips(&c, "procstat: no capture time"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "procstat: per-cpu line not kept"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "procstat: unknown line"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_uptime_series)
{
    /* what `godeye capture` writes: per sample /proc/stat, /proc/<pid>/stat,
     * /proc/uptime; each sample dated btime + uptime */
    const char *in = "cpu  100 0 50 1000 0 0 0 0 0 0\n"
                     "btime 1700000000\n"
                     "4321 (com.example) S 1 2 3 4 5 6 7 8 9 10 30 20 0 0 20 0 12 0 500\n"
                     "12345.50 40000.25\n"
                     "cpu  110 0 55 1090 0 0 0 0 0 0\n"
                     "btime 1700000000\n"
                     "4321 (com.example) S 1 2 3 4 5 6 7 8 9 10 36 22 0 0 20 0 12 0 500\n"
                     "12346.00 40000.70\n"
                     "12347.00 40000.90\n"
                     "cpu  120 0 60 1180 0 0 0 0 0 0\n";
    gd_collected c;
    gd_test_read_mem(R, in, strlen(in), NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "cpu"), 3);
    json_t *a = gd_collected_nth(&c, "cpu", 0), *b = gd_collected_nth(&c, "cpu", 1);
    ck_assert_double_eq(ts(a), 1700000000000.0 + 12345500.0);
    ck_assert_double_eq(ts(b), 1700000000000.0 + 12347000.0); /* the later uptime line wins */
    assert_pid(a, 4321, 30, 20, 0, 0);
    assert_pid(b, 4321, 36, 22, 0, 0);
    /* the third sample has no uptime line: dated by btime and counted */
    ck_assert_double_eq(ts(gd_collected_nth(&c, "cpu", 2)), 1700000000000.0);
    ck_assert_int_eq(gd_collected_skips(&c, "procstat: no capture time"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "procstat: unknown line"), 0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_uptime_outside)
{
    const char *in = "12345.50 40000.25\n";
    gd_collected c;
    gd_test_read_mem(R, in, strlen(in), NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "cpu"), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "procstat: uptime outside a sample"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_probe)
{
    const char *stat = "cpu  1 2 3 4 5 6 7 0 0 0\ncpu0 1 2 3 4 5 6 7 0 0 0\n";
    ck_assert_int_eq(R->probe((const unsigned char *)stat, strlen(stat), 1), 90);
    const char *pid = "1 (init) S 0 1 1 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 9\n";
    ck_assert_int_eq(R->probe((const unsigned char *)pid, strlen(pid), 1), 70);
    const char *logcat = "01-02 03:04:05.678  1234  1234 I cpu : 1 2 3 4\n";
    ck_assert_int_eq(R->probe((const unsigned char *)logcat, strlen(logcat), 1), 0);
    const char *bc = "cpu = 12%\n";
    ck_assert_int_eq(R->probe((const unsigned char *)bc, strlen(bc), 1), 0);
    const char *json = "{\"type\":\"cpu\",\"ts\":1,\"stat\":\"cpu  1 2 3 4\"}\n";
    ck_assert_int_eq(R->probe((const unsigned char *)json, strlen(json), 1), 0);
}
END_TEST

START_TEST(test_corpus)
{
    const char *p;
    gd_collected c;
    if ((p = gd_test_corpus("procstat/i5_info_proc_stat"))) {
        gd_test_read_file(R, p, NULL, &c);
        ck_assert_int_eq(c.rc, 0);
        ck_assert_uint_eq(gd_collected_count(&c, "cpu"), 1);
        json_t *e = gd_collected_nth(&c, "cpu", 0);
        assert_stat(e, 19107, 1599, 7697, 432212, 4369, 1, 37, 0);
        ck_assert_ptr_null(json_object_get(e, "pid_counters"));
        ck_assert_double_eq(ts(e), 1400167199000.0);
        ck_assert_int_eq(gd_collected_skips(&c, "procstat: per-cpu line not kept"), 1);
        ck_assert_int_eq(gd_collected_skips(&c, "procstat: unknown line"), 0);
        gd_collected_free(&c);
    }
    if ((p = gd_test_corpus("procstat/unidbg_rootfs_proc_stat"))) {
        gd_test_read_file(R, p, NULL, &c);
        ck_assert_int_eq(c.rc, 0);
        ck_assert_uint_eq(gd_collected_count(&c, "cpu"), 1);
        json_t *e = gd_collected_nth(&c, "cpu", 0);
        assert_stat(e, 220763, 20135, 475136, 128605333, 35582, 81690, 42205, 0);
        ck_assert_double_eq(ts(e), 1742277321000.0);
        ck_assert_int_eq(gd_collected_skips(&c, "procstat: per-cpu line not kept"), 8);
        ck_assert_int_eq(gd_collected_skips(&c, "procstat: unknown line"), 0);
        gd_collected_free(&c);
    }
    if ((p = gd_test_corpus("procstat/unidbg_rootfs_proc_pid_stat"))) {
        gd_test_read_file(R, p, NULL, &c);
        ck_assert_int_eq(c.rc, 0);
        ck_assert_uint_eq(gd_collected_count(&c, "cpu"), 1);
        json_t *e = gd_collected_nth(&c, "cpu", 0);
        assert_pid(e, 4292, 404, 40, 0, 0);
        ck_assert_ptr_null(json_object_get(e, "stat_counters"));
        ck_assert_double_eq(ts(e), 0.0); /* no btime at all */
        gd_collected_free(&c);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("procstat_reader");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fixture_repeated_blocks);
    tcase_add_test(tc, test_probe);
    tcase_add_test(tc, test_uptime_series);
    tcase_add_test(tc, test_uptime_outside);
    tcase_add_test(tc, test_corpus);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
