/* check_art_trace.c - the ART/Dalvik method trace reader (classic and streaming .trace files). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_art_trace;
#define R (&gd_reader_art_trace)

/* A trace built byte by byte (testutil.h). */
typedef gd_tbuf buf;
#define put gd_tbuf_put
#define u1 gd_tbuf_u8
#define u2 gd_tbuf_u16
#define u4 gd_tbuf_u32
#define u8 gd_tbuf_u64
static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

/* "SLOW" header of 32 bytes. */
static void slow(buf *b, unsigned version, uint64_t start_us, unsigned recsize)
{
    size_t at = b->n;
    puts_(b, "SLOW");
    u2(b, version);
    u2(b, 32);
    u8(b, start_us);
    if ((version & 0x0f) >= 3)
        u2(b, recsize);
    while (b->n < at + 32)
        u1(b, 0);
}

/* streaming special record: a new method */
static void newmethod(buf *b, const char *line)
{
    u2(b, 0);
    u1(b, 1);
    u2(b, (unsigned)strlen(line));
    puts_(b, line);
}

/* dual-clock record */
static void rec(buf *b, unsigned tid, uint32_t method, unsigned action, uint32_t cpu, uint32_t wall)
{
    u2(b, tid);
    u4(b, method | action);
    u4(b, cpu);
    u4(b, wall);
}

static double num(json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }
static const char *sval(json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }
static int is_open(json_t *o) { return json_is_true(json_object_get(o, "open")); }

/* the collected method event of `method` (the n-th one) */
static json_t *call(const gd_collected *c, const char *method, int nth)
{
    size_t i;
    json_t *e;
    json_array_foreach(c->events, i, e)
        if (sval(e, "method") && strcmp(sval(e, "method"), method) == 0 && nth-- == 0)
            return e;
    return NULL;
}

static const char *HEADER =
    "*version\n3\ndata-file-overflow=false\nclock=dual\nelapsed-time-usec=5000\n"
    "num-method-calls=9\nclock-call-overhead-nsec=791\nvm=art\npid=100\n"
    "*threads\n100\tmain\n101\tWorker thread\n"
    "*methods\n"
    "0x4\tandroid.os.Handler\tdispatchMessage\t(Landroid/os/Message;)V\tHandler.java\n"
    "0x8\tcom.example.Feed\tbind\t(I)V\tFeed.java\n"
    "0xc\tjava.lang.String\tcharAt\t(I)C\tString.java\n"
    "0x10\tjava.lang.Object\twait\t()V\tObject.java\n"
    "*end\n";

START_TEST(test_classic_dual)
{
    buf b = {0};
    puts_(&b, HEADER);
    slow(&b, 3, 1000000, 14);
    /* main: dispatchMessage was running at the start; bind called twice,
     * charAt inside the first bind; an exception unwinds the second */
    rec(&b, 100, 0x8, 0, 0, 100);  /* enter bind       t=100us  */
    rec(&b, 100, 0xc, 0, 5, 150);  /* enter charAt     t=150    */
    rec(&b, 100, 0xc, 1, 6, 160);  /* exit charAt      t=160    */
    rec(&b, 100, 0x8, 1, 9, 400);  /* exit bind        t=400    */
    rec(&b, 100, 0x8, 0, 9, 500);  /* enter bind       t=500    */
    rec(&b, 100, 0x8, 2, 9, 700);  /* unwind bind      t=700    */
    rec(&b, 100, 0x4, 1, 9, 900);  /* exit dispatch    t=900: running since the start */
    rec(&b, 101, 0x10, 0, 0, 200); /* worker: wait, never returns */
    rec(&b, 100, 0x4, 0, 9, 950);  /* enter dispatch, never returns */
    gd_collected c;
    gd_test_read_mem(R, b.d, b.n, NULL, &c);
    ck_assert_msg(c.rc == 0, "%s", c.err.msg);
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    json_t *m = json_array_get(c.metas, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(m, "pid")), 100);
    ck_assert_int_eq(json_integer_value(json_object_get(m, "main_tid")), 100);
    ck_assert_str_eq(sval(m, "clock"), "monotonic");
    ck_assert_uint_eq(gd_collected_count(&c, "method"), 6);

    json_t *e = call(&c, "bind", 0);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(sval(e, "class"), "com.example.Feed");
    ck_assert_str_eq(sval(e, "desc"), "(I)V");
    ck_assert_str_eq(sval(e, "thread"), "main");
    ck_assert_int_eq(json_integer_value(json_object_get(e, "tid")), 100);
    ck_assert_int_eq(json_integer_value(json_object_get(e, "pid")), 100);
    ck_assert_double_eq_tol(num(e, "ts"), 1000.1, 1e-9);
    ck_assert_double_eq_tol(num(e, "end_ts"), 1000.4, 1e-9);
    ck_assert(!is_open(e));
    json_t *ch = call(&c, "charAt", 0);
    ck_assert_double_eq_tol(num(ch, "ts"), 1000.15, 1e-9);
    ck_assert_double_eq_tol(num(ch, "end_ts"), 1000.16, 1e-9);
    /* nested one deeper than its caller */
    ck_assert_int_eq(json_integer_value(json_object_get(ch, "depth")),
                     json_integer_value(json_object_get(e, "depth")) + 1);
    json_t *e2 = call(&c, "bind", 1);
    ck_assert_double_eq_tol(num(e2, "end_ts"), 1000.7, 1e-9); /* unwound = an exit */
    ck_assert(!is_open(e2));
    /* the call already running: open, from the trace start, below bind */
    json_t *d = call(&c, "dispatchMessage", 0);
    ck_assert(is_open(d));
    ck_assert_double_eq_tol(num(d, "ts"), 1000.0, 1e-9);
    ck_assert_double_eq_tol(num(d, "end_ts"), 1000.9, 1e-9);
    ck_assert_int_lt(json_integer_value(json_object_get(d, "depth")),
                     json_integer_value(json_object_get(e, "depth")));
    /* still running at the end: open, ending at start + elapsed */
    json_t *w = call(&c, "wait", 0);
    ck_assert(is_open(w));
    ck_assert_str_eq(sval(w, "thread"), "Worker thread");
    ck_assert_double_eq_tol(num(w, "ts"), 1000.2, 1e-9);
    ck_assert_double_eq_tol(num(w, "end_ts"), 1005.0, 1e-9);
    json_t *d2 = call(&c, "dispatchMessage", 1);
    ck_assert(is_open(d2));
    ck_assert_double_eq_tol(num(d2, "ts"), 1000.95, 1e-9);
    ck_assert_uint_eq(json_object_size(c.skips), 0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_streaming)
{
    buf b = {0};
    slow(&b, 0xf3, 2000000, 14);
    /* new method, new thread, records, then the summary */
    newmethod(&b, "0\tcom.example.App\tonCreate\t()V\tA.java\n");
    u2(&b, 0); u1(&b, 2); u2(&b, 300); u2(&b, 4); puts_(&b, "main");
    rec(&b, 300, 0x0, 0, 0, 10);
    newmethod(&b, "0x4\tcom.example.App\tinit\t()V\tA.java\n");
    rec(&b, 300, 0x4, 0, 1, 20);
    rec(&b, 300, 0x4, 1, 2, 30);
    rec(&b, 300, 0x0, 1, 3, 40);
    rec(&b, 300, 0x8, 0, 3, 50); /* method 0x8 never defined */
    rec(&b, 300, 0x8, 1, 3, 60);
    const char *sum = "*version\n3\ndata-file-overflow=false\nclock=dual\nelapsed-time-usec=100\n"
                      "vm=art\npid=300\n*threads\n300\tmain\n*methods\n*end\n";
    u2(&b, 0); u1(&b, 3); u4(&b, (uint32_t)strlen(sum)); puts_(&b, sum);
    gd_collected c;
    gd_test_read_mem(R, b.d, b.n, NULL, &c);
    ck_assert_msg(c.rc == 0, "%s", c.err.msg);
    /* the undefined method is kept, named by its id (issue 32) */
    ck_assert_uint_eq(gd_collected_count(&c, "method"), 3);
    json_t *uk = call(&c, "<unknown method 0x8>", 0);
    ck_assert_ptr_nonnull(uk);
    ck_assert_double_eq_tol(num(uk, "ts"), 2000.05, 1e-9);
    ck_assert_double_eq_tol(num(uk, "end_ts"), 2000.06, 1e-9);
    json_t *oc = call(&c, "onCreate", 0);
    ck_assert_double_eq_tol(num(oc, "ts"), 2000.01, 1e-9);
    ck_assert_double_eq_tol(num(oc, "end_ts"), 2000.04, 1e-9);
    ck_assert_str_eq(sval(oc, "thread"), "main");
    json_t *in = call(&c, "init", 0);
    ck_assert_double_eq_tol(num(in, "ts"), 2000.02, 1e-9);
    ck_assert_int_eq(
        gd_collected_skips(&c, "ignored: art: method id not in the method table, kept as <unknown method>"), 1);
    ck_assert_uint_ge(json_array_size(c.metas), 1);
    json_t *m = json_array_get(c.metas, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(m, "pid")), 300);
    ck_assert_int_eq(json_integer_value(json_object_get(m, "main_tid")), 300);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_v1_wall_epoch)
{
    /* Dalvik version 1: 9-byte records with a 1-byte thread id, start time
     * from gettimeofday (an epoch) */
    buf b = {0};
    puts_(&b, "*version\n1\nclock=wall\n*threads\n1\tmain\n*methods\n"
              "0x10\tcom.example.A\trun\t()V\tA.java\n*end\n");
    slow(&b, 1, 1700000000000000ULL, 0);
    u1(&b, 1); u4(&b, 0x10); u4(&b, 1000);
    u1(&b, 1); u4(&b, 0x11); u4(&b, 3000);
    gd_collected c;
    gd_test_read_mem(R, b.d, b.n, NULL, &c);
    ck_assert_msg(c.rc == 0, "%s", c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "method"), 1);
    json_t *e = call(&c, "run", 0);
    ck_assert_double_eq_tol(num(e, "ts"), 1700000000001.0, 1e-6);
    ck_assert_double_eq_tol(num(e, "end_ts"), 1700000000003.0, 1e-6);
    ck_assert_str_eq(sval(json_array_get(c.metas, 0), "clock"), "utc");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(c.metas, 0), "main_tid")), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_thread_cpu_default)
{
    /* version 2 without a clock= line: thread-cpu times, no wall clock */
    buf b = {0};
    puts_(&b, "*version\n2\n*threads\n7\tmain\n*methods\n"
              "0x10\tcom.example.A\trun\t()V\tA.java\n*end\n");
    slow(&b, 2, 3000000, 0);
    u2(&b, 7); u4(&b, 0x10); u4(&b, 500);
    u2(&b, 7); u4(&b, 0x11); u4(&b, 2500);
    gd_collected c;
    gd_test_read_mem(R, b.d, b.n, NULL, &c);
    ck_assert_msg(c.rc == 0, "%s", c.err.msg);
    json_t *e = call(&c, "run", 0);
    ck_assert_double_eq_tol(num(e, "ts"), 3000.5, 1e-9);
    ck_assert_double_eq_tol(num(e, "end_ts"), 3002.5, 1e-9);
    ck_assert_ptr_null(json_object_get(json_array_get(c.metas, 0), "clock"));
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_bad_input)
{
    gd_collected c;
    /* header without *end */
    const char *h = "*version\n3\nclock=dual\n*threads\n";
    gd_test_read_mem(R, h, strlen(h), NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_ptr_nonnull(strstr(c.err.msg, "*end"));
    gd_collected_free(&c);
    /* unknown special record in a streaming trace */
    buf b = {0};
    slow(&b, 0xf3, 1, 14);
    u2(&b, 0); u1(&b, 9);
    gd_test_read_mem(R, b.d, b.n, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_ptr_nonnull(strstr(c.err.msg, "unknown special record 9 at byte 32"));
    gd_collected_free(&c);
    /* a record cut short at the end is skipped, not fatal */
    buf t = {0};
    puts_(&t, HEADER);
    slow(&t, 3, 1000000, 14);
    rec(&t, 100, 0x8, 0, 0, 100);
    rec(&t, 100, 0x8, 1, 0, 200);
    t.n -= 3;
    gd_test_read_mem(R, t.d, t.n, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_int_eq(gd_collected_skips(&c, "art: record cut short at the end"), 1);
    /* bind still open at the end */
    ck_assert(is_open(call(&c, "bind", 0)));
    gd_collected_free(&c);
    /* version 4 data */
    buf v = {0};
    slow(&v, 0xf4, 1, 14);
    gd_test_read_mem(R, v.d, v.n, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_ptr_nonnull(strstr(c.err.msg, "unsupported data version 0xf4"));
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_probe)
{
    ck_assert_int_eq(R->probe((const unsigned char *)HEADER, strlen(HEADER), 1), 95);
    buf b = {0};
    slow(&b, 0xf3, 1, 14);
    ck_assert_int_eq(R->probe(b.d, b.n, 1), 95);
    ck_assert_int_eq(R->probe((const unsigned char *)"SLOWLY", 6, 1), 0);
    /* a section of a tool's own before *version */
    buf x = {0};
    puts_(&x, "*extra-info\ncurrent-page=Main\ntime=1700000000000\n*extra-info-end\n");
    puts_(&x, HEADER);
    slow(&x, 3, 1000000, 14);
    rec(&x, 100, 0x8, 0, 0, 100);
    rec(&x, 100, 0x8, 1, 0, 300);
    ck_assert_int_eq(R->probe(x.d, x.n, 1), 90);
    gd_collected xc;
    gd_test_read_mem(R, x.d, x.n, NULL, &xc);
    ck_assert_msg(xc.rc == 0, "%s", xc.err.msg);
    ck_assert_uint_eq(gd_collected_count(&xc, "method"), 1);
    ck_assert_double_eq_tol(num(call(&xc, "bind", 0), "end_ts"), 1000.3, 1e-9);
    gd_collected_free(&xc);
    /* a newer layout is recognised, then refused by name */
    const char *v5 = "*version\n5\nclock=dual\n*threads\n*methods\n*end\n";
    ck_assert_int_eq(R->probe((const unsigned char *)v5, strlen(v5), 1), 95);
    gd_collected c;
    gd_test_read_mem(R, v5, strlen(v5), NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_str_eq(c.err.msg, "art method trace: unsupported version 5 (versions 1 to 3 are read)");
    ck_assert_int_eq(c.err.line, 2);
    gd_collected_free(&c);
    ck_assert_int_eq(R->probe((const unsigned char *)"*version\nx", 10, 1), 0);
}
END_TEST

/* The real files, when the corpus is present: figures checked with a
 * python walk of the records (see tests/corpus/art_method_trace/). */
START_TEST(test_corpus)
{
    const char *p = gd_test_corpus("art_method_trace/easternhong_methodtrace_test.trace");
    if (!p)
        return;
    gd_collected c;
    gd_test_read_file(R, p, NULL, &c);
    ck_assert_msg(c.rc == 0, "%s", c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "method"), 31452);
    size_t i, open = 0;
    json_t *e;
    json_array_foreach(c.events, i, e)
        open += is_open(e) && json_integer_value(json_object_get(e, "tid")) == 25555;
    ck_assert_uint_eq(open, 20);
    gd_collected_free(&c);
}
END_TEST

/* A sink that only remembers whether any meta said "sampled". */
static int sm_meta(void *ctx, const gd_meta *m, gd_error *err)
{
    (void)err;
    if (m->sampled)
        *(int *)ctx = 1;
    return 0;
}
static int sm_event(void *ctx, const gd_event *ev, gd_error *err)
{
    (void)ctx, (void)ev, (void)err;
    return 0;
}
static void sm_skip(void *ctx, const char *reason, long line, long col)
{
    (void)ctx, (void)reason, (void)line, (void)col;
}

/* A streaming trace of `n` samples 1500 us apart; each sample writes its
 * stack changes at one time when `clumped` (exit and re-enter onCreate and
 * draw: 4 records at one time), else each record at its own microsecond. */
static int read_sampled(int n, int clumped)
{
    buf b = {0};
    slow(&b, 0xf3, 3000000, 14);
    newmethod(&b, "0x4\tcom.example.App\tonCreate\t()V\tA.java\n");
    newmethod(&b, "0x8\tcom.example.View\tdraw\t()V\tV.java\n");
    u2(&b, 0); u1(&b, 2); u2(&b, 300); u2(&b, 4); puts_(&b, "main");
    for (int k = 0; k < n; k++) {
        uint32_t t = (uint32_t)k * 1500;
        rec(&b, 300, 0x4, 0, t, t);
        rec(&b, 300, 0x8, 0, t, clumped ? t : t + 1);
        rec(&b, 300, 0x8, 1, t, clumped ? t : t + 2);
        rec(&b, 300, 0x4, 1, t, clumped ? t : t + 3);
    }
    const char *sum = "*version\n3\ndata-file-overflow=false\nclock=dual\nelapsed-time-usec=100000\n"
                      "vm=art\npid=300\n*threads\n300\tmain\n*methods\n*end\n";
    u2(&b, 0); u1(&b, 3); u4(&b, (uint32_t)strlen(sum)); puts_(&b, sum);
    int sampled = 0;
    gd_sink sink = {&sampled, sm_meta, sm_event, sm_skip};
    gd_input *in = NULL;
    gd_error err = {0};
    gd_read_opts o = {0};
    ck_assert_int_eq(gd_input_open_mem(&in, b.d, b.n, &err), 0);
    ck_assert_int_eq(R->read(in, &sink, &o, &err), 0);
    gd_input_close(in);
    return sampled;
}

/* Recorded by sampling (Debug.startMethodTracingSampling, Android Studio's
 * "sample Java methods"): call starts come in clumps at the sampling
 * interval, so the trace is marked sampled (its figures are estimates). */
START_TEST(test_sampled_by_clumping)
{
    ck_assert_int_eq(read_sampled(60, 1), 1);  /* 240 records, 180 clumped   */
    ck_assert_int_eq(read_sampled(60, 0), 0);  /* each at its own microsecond */
    ck_assert_int_eq(read_sampled(20, 1), 0);  /* 80 records: too few to tell */
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("art_trace");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_classic_dual);
    tcase_add_test(tc, test_streaming);
    tcase_add_test(tc, test_v1_wall_epoch);
    tcase_add_test(tc, test_thread_cpu_default);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_probe);
    tcase_add_test(tc, test_corpus);
    tcase_add_test(tc, test_sampled_by_clumping);
    tcase_set_timeout(tc, 60);
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
