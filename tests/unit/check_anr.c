/* check_anr.c - tests of the ANR traces.txt reader (lib/reader/anr.c). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_anr;
extern const gd_reader gd_reader_godeye;

#define FIX(name) GODEYE_FIXTURES "/anr/" name

static void read_fix(const char *path, gd_collected *c)
{
    gd_test_read_file(&gd_reader_anr, path, NULL, c);
    ck_assert_msg(c->rc == 0, "rc %d: %s", c->rc, c->err.msg);
}

static const char *str(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}
static json_int_t num(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

/* The n-th collected event of `type` whose "thread" is `thread`. */
static json_t *by_thread(const gd_collected *c, const char *type, const char *thread, size_t n)
{
    size_t i;
    json_t *e;
    json_array_foreach(c->events, i, e)
        if (strcmp(str(e, "type"), type) == 0 && str(e, "thread") &&
            strcmp(str(e, "thread"), thread) == 0 && n-- == 0)
            return e;
    return NULL;
}

static size_t count_state(const gd_collected *c, const char *state)
{
    size_t i, n = 0;
    json_t *e;
    json_array_foreach(c->events, i, e) {
        if (strcmp(str(e, "type"), "stack") != 0)
            continue;
        const char *s = str(e, "state");
        if ((state == NULL && s == NULL) || (state && s && strcmp(s, state) == 0))
            n++;
    }
    return n;
}

static size_t count_issues(const gd_collected *c, const char *type)
{
    size_t i, n = 0;
    json_t *e;
    json_array_foreach(c->events, i, e)
        if (strcmp(str(e, "type"), "issue") == 0 && strcmp(str(e, "issue_type"), type) == 0)
            n++;
    return n;
}

static json_t *nth_issue(const gd_collected *c, const char *type, size_t n)
{
    size_t i;
    json_t *e;
    json_array_foreach(c->events, i, e)
        if (strcmp(str(e, "type"), "issue") == 0 && strcmp(str(e, "issue_type"), type) == 0 &&
            n-- == 0)
            return e;
    return NULL;
}

static size_t total_frames(const gd_collected *c)
{
    size_t i, n = 0;
    json_t *e;
    json_array_foreach(c->events, i, e)
        if (strcmp(str(e, "type"), "stack") == 0)
            n += json_array_size(json_object_get(e, "frames"));
    return n;
}

/* Frames of every stack that contain `needle` (prefix: start with it). */
static size_t frames_with(const gd_collected *c, const char *needle, int prefix)
{
    size_t i, j, n = 0;
    json_t *e, *f;
    json_array_foreach(c->events, i, e) {
        if (strcmp(str(e, "type"), "stack") != 0)
            continue;
        json_array_foreach(json_object_get(e, "frames"), j, f) {
            const char *t = json_string_value(json_object_get(f, "text"));
            if (!t)
                t = json_string_value(f);
            if (t && (prefix ? strncmp(t, needle, strlen(needle)) == 0 : strstr(t, needle) != NULL))
                n++;
        }
    }
    return n;
}

/* The device in the metas below is the DEVICE part of the dump's "Build
 * fingerprint:" line (BRAND/PRODUCT/DEVICE:...), read off the files:
 * deadlock2.txt google/sargo/sargo:9, sentry_thread_dump.txt
 * google/sdk_gphone64_arm64/emu64a:13, tornaco_traces.txt ZUK/ham/Z1:7.1.1. */
static void assert_json(json_t *got, const char *want)
{
    json_error_t je;
    json_t *w = json_loads(want, 0, &je);
    ck_assert_msg(w != NULL, "bad expected json: %s", je.text);
    char *g = json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS);
    ck_assert_msg(json_equal(got, w), "got %s", g);
    free(g);
    json_decref(w);
}

static const char *frame(json_t *stack, size_t i)
{
    return json_string_value(json_array_get(json_object_get(stack, "frames"), i));
}

START_TEST(two_thread_deadlock)
{
    gd_collected c;
    read_fix(FIX("deadlock2.txt"), &c);
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    assert_json(json_array_get(c.metas, 0),
                "{\"app\":\"com.example.shop\",\"pid\":4321,\"main_tid\":4321,\"device\":\"sargo\"}");
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 4);
    ck_assert_uint_eq(json_object_size(c.skips), 0);

    json_t *m = by_thread(&c, "stack", "main", 0);
    ck_assert_ptr_nonnull(m);
    /* 2024-03-05 10:11:12, no zone: taken as UTC */
    ck_assert(json_real_value(json_object_get(m, "ts")) == 1709633472000.0 ||
              num(m, "ts") == 1709633472000LL);
    ck_assert_int_eq(num(m, "pid"), 4321);
    ck_assert_int_eq(num(m, "tid"), 4321);
    ck_assert_str_eq(str(m, "state"), "Blocked");
    ck_assert_uint_eq(json_array_size(json_object_get(m, "frames")), 10);
    ck_assert_str_eq(frame(m, 0), "com.example.shop.Cart.addItem(Cart.java:57)");
    ck_assert_str_eq(frame(m, 7), "java.lang.reflect.Method.invoke(Native method)");
    ck_assert_str_eq(frame(m, 9), "com.android.internal.os.ZygoteInit.main(ZygoteInit.java:858)");

    json_t *sc = by_thread(&c, "stack", "Signal Catcher", 0);
    ck_assert_int_eq(num(sc, "tid"), 4327);
    ck_assert_str_eq(str(sc, "state"), "Runnable");
    ck_assert_uint_eq(json_array_size(json_object_get(sc, "frames")), 3);
    ck_assert_str_eq(frame(sc, 2), "native:libc.so(__pthread_start(void*)+36)");
    ck_assert_str_eq(frame(sc, 1),
                     "native:libart.so(art::Thread::DumpStack(std::__1::basic_ostream<char, "
                     "std::__1::char_traits<char> >&, bool, BacktraceMap*, bool) const+360)");

    json_t *b = by_thread(&c, "stack", "Binder:4321_2", 0);
    ck_assert_int_eq(num(b, "tid"), 4331);
    ck_assert_ptr_null(json_object_get(b, "state")); /* (not attached) */
    ck_assert_str_eq(frame(b, 3), "native:libutils.so(pc 0000000000012a64)");

    ck_assert_uint_eq(count_issues(&c, "anr_main_state"), 1);
    json_t *ms = nth_issue(&c, "anr_main_state", 0);
    ck_assert_str_eq(str(ms, "tool"), "anr");
    ck_assert_str_eq(str(ms, "detail"), "Blocked");
    assert_json(json_object_get(ms, "content"),
                "{\"name\":\"main\",\"tid\":4321,\"state\":\"Blocked\",\"waiting_on\":\"0x0a1b2c3d\","
                "\"lock\":\"com.example.shop.Inventory\",\"held_by\":4350,\"held_by_name\":\"StockSync\","
                "\"locks_held\":[\"0x0e5f6a7b\"],\"holder_state\":\"Blocked\","
                "\"holder_locks_held\":[\"0x0a1b2c3d\"],\"holder_waiting_on\":\"0x0e5f6a7b\"}");

    ck_assert_uint_eq(count_issues(&c, "deadlock"), 1);
    json_t *d = nth_issue(&c, "deadlock", 0);
    ck_assert_str_eq(str(d, "tool"), "anr");
    ck_assert_int_eq(num(d, "pid"), 4321);
    ck_assert_int_eq(num(d, "tid"), 4321);
    assert_json(json_object_get(d, "content"),
                "{\"threads\":["
                "{\"name\":\"main\",\"tid\":4321,\"dalvik_tid\":1,\"waiting_on\":\"0x0a1b2c3d\","
                "\"lock\":\"com.example.shop.Inventory\",\"held_by\":4350,\"held_by_dalvik_tid\":14},"
                "{\"name\":\"StockSync\",\"tid\":4350,\"dalvik_tid\":14,\"waiting_on\":\"0x0e5f6a7b\","
                "\"lock\":\"com.example.shop.Cart\",\"held_by\":4321,\"held_by_dalvik_tid\":1}]}");
    gd_collected_free(&c);
}
END_TEST

START_TEST(three_thread_deadlock)
{
    gd_collected c;
    read_fix(FIX("deadlock3.txt"), &c);
    ck_assert_uint_eq(json_array_size(c.metas), 2);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 5);
    /* #48: the Waiting Channels section before pid 7000's first dump is
     * that dump's evidence (kept, not skipped): main's wait channel */
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: anr waiting channels section"), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "anr: dump without end line"), 1);
    ck_assert_uint_eq(json_object_size(c.skips), 1);
    assert_json(json_object_get(json_object_get(nth_issue(&c, "anr_dump", 0), "content"), "wchan"),
                "{\"threads\":2,\"main\":{\"tid\":7000,\"state\":null,\"wchan\":\"futex_wait_queue_me\"},"
                "\"d_count\":0,\"d_threads\":[],\"d_more\":false}");

    json_t *m = by_thread(&c, "stack", "main", 0);
    /* 08:30:00.2505 -0500 = 13:30:00.2505 UTC */
    ck_assert(json_real_value(json_object_get(m, "ts")) == 1700487000250.5);
    ck_assert_uint_eq(json_array_size(json_object_get(m, "frames")), 5);
    ck_assert_str_eq(frame(m, 0), "native:libc.so(syscall+28)");
    ck_assert_str_eq(frame(m, 1), "native:base.odex(com.example.feed.FeedRepository.refresh+420)");
    ck_assert_str_eq(frame(m, 2), "com.example.feed.FeedRepository.refresh(FeedRepository.java:130)");

    /* exactly one cycle: thread-3 only waits into it and is not part of it */
    ck_assert_uint_eq(count_issues(&c, "deadlock"), 1);
    json_t *d = nth_issue(&c, "deadlock", 0);
    ck_assert_int_eq(num(d, "tid"), 7022);
    ck_assert_str_eq(str(d, "thread"), "pool-1-thread-2");
    assert_json(json_object_get(d, "content"),
                "{\"threads\":["
                "{\"name\":\"pool-1-thread-2\",\"tid\":7022,\"dalvik_tid\":21,\"waiting_on\":\"0x0bad5eed\","
                "\"lock\":\"com.example.feed.FeedRepository\",\"held_by\":7000,\"held_by_dalvik_tid\":1},"
                "{\"name\":\"main\",\"tid\":7000,\"dalvik_tid\":1,\"waiting_on\":\"0x0c0ffee1\","
                "\"lock\":\"com.example.feed.Cache\",\"held_by\":7021,\"held_by_dalvik_tid\":20},"
                "{\"name\":\"pool-1-thread-1\",\"tid\":7021,\"dalvik_tid\":20,\"waiting_on\":\"0x0d15ea5e\","
                "\"lock\":\"com.example.feed.Store\",\"held_by\":7022,\"held_by_dalvik_tid\":21}]}");

    /* second dump: main idle in the looper, no deadlock */
    ck_assert_uint_eq(count_issues(&c, "anr_main_state"), 2);
    json_t *ms = nth_issue(&c, "anr_main_state", 1);
    ck_assert_str_eq(str(ms, "detail"), "Native");
    ck_assert_int_eq(num(ms, "ts"), 1700487005000LL);
    json_t *m2 = by_thread(&c, "stack", "main", 1);
    ck_assert_str_eq(frame(m2, 1), "native:libutils.so(android::Looper::pollOnce(int, int*, int*, void**)+184)");
    gd_collected_free(&c);
}
END_TEST

/* Android 2.3 (Dalvik): "held by threadid=N (name)", N the VM tid= of the
 * thread header.  Cut from the VM TRACES of a real bugreport (pid 622): a
 * lock cycle between an app thread and a binder thread serving a call. */
START_TEST(dalvik_threadid_deadlock)
{
    gd_collected c;
    read_fix(FIX("dalvik_threadid_deadlock.txt"), &c);
    ck_assert_uint_eq(json_object_size(c.skips), 0);
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    assert_json(json_array_get(c.metas, 0),
                "{\"app\":\"com.sonymobile.chkbugreport.testapp:ext2\",\"pid\":622,\"main_tid\":622}");
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 9);
    ck_assert_uint_eq(count_state(&c, "MONITOR"), 2);
    ck_assert_uint_eq(count_state(&c, "VMWAIT"), 4);
    json_t *t = by_thread(&c, "stack", "Thread-10", 0);
    ck_assert_int_eq(num(t, "tid"), 630);
    ck_assert_uint_eq(count_issues(&c, "deadlock"), 1);
    assert_json(json_object_get(nth_issue(&c, "deadlock", 0), "content"),
                "{\"threads\":[{\"name\":\"Thread-10\",\"tid\":630,\"dalvik_tid\":9,\"waiting_on\":\"0x406a29e8\","
                "\"lock\":\"java.lang.Object\",\"held_by\":628,\"held_by_dalvik_tid\":7},"
                "{\"name\":\"Binder Thread #1\",\"tid\":628,\"dalvik_tid\":7,\"waiting_on\":\"0x406a29f8\","
                "\"lock\":\"java.lang.Object\",\"held_by\":630,\"held_by_dalvik_tid\":9}]}");
    assert_json(json_object_get(nth_issue(&c, "anr_main_state", 0), "content"),
                "{\"name\":\"main\",\"tid\":622,\"state\":\"NATIVE\"}");
    ck_assert_uint_eq(count_issues(&c, "binder_wait"), 0);
    gd_collected_free(&c);
}
END_TEST

/* The other half of that hybrid deadlock (pid 800): main waits for a lock
 * held by a binder thread that is itself in an outgoing binder call; the
 * process it calls is not in the dump, so no cycle can be shown: a
 * binder_wait, not a deadlock. */
START_TEST(dalvik_binder_wait)
{
    gd_collected c;
    read_fix(FIX("dalvik_binder_wait.txt"), &c);
    ck_assert_uint_eq(json_object_size(c.skips), 0);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 9);
    ck_assert_uint_eq(count_issues(&c, "deadlock"), 0);
    assert_json(json_object_get(nth_issue(&c, "anr_main_state", 0), "content"),
                "{\"name\":\"main\",\"tid\":800,\"state\":\"MONITOR\",\"waiting_on\":\"0x406baf80\","
                "\"lock\":\"java.lang.Object\",\"held_by\":807,\"held_by_name\":\"Binder Thread #2\","
                "\"holder_state\":\"NATIVE\",\"holder_locks_held\":[]}");
    ck_assert_uint_eq(count_issues(&c, "binder_wait"), 1);
    json_t *b = nth_issue(&c, "binder_wait", 0);
    ck_assert_int_eq(num(b, "tid"), 807);
    assert_json(json_object_get(b, "content"),
                "{\"holder\":{\"name\":\"Binder Thread #2\",\"tid\":807,\"dalvik_tid\":8,"
                "\"call\":\"android.os.BinderProxy.transact(Native Method)\"},"
                "\"waiters\":[{\"name\":\"main\",\"tid\":800,\"dalvik_tid\":1,\"waiting_on\":\"0x406baf80\","
                "\"lock\":\"java.lang.Object\"}]}");
    gd_collected_free(&c);
}
END_TEST

/* ART (Android 7 system_server watchdog dump): "held by thread 12", the
 * holder (android.ui) in a native binder transaction; then a kernel stacks
 * section, which is not a thread dump.  Cut from a real traces.txt. */
START_TEST(art_binder_wait_and_kernel_stacks)
{
    gd_collected c;
    read_fix(FIX("art_binder_wait.txt"), &c);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: anr kernel stacks section"), 1);
    ck_assert_uint_eq(json_object_size(c.skips), 1);
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 3);
    ck_assert_uint_eq(count_issues(&c, "deadlock"), 0);
    ck_assert_uint_eq(count_issues(&c, "binder_wait"), 1);
    assert_json(json_object_get(nth_issue(&c, "binder_wait", 0), "content"),
                "{\"holder\":{\"name\":\"android.ui\",\"tid\":1590,\"dalvik_tid\":12,"
                "\"call\":\"native:libbinder.so(_ZN7android14IPCThreadState15waitForResponseEPNS_6ParcelEPi+370)\"},"
                "\"waiters\":[{\"name\":\"Binder:1556_1\",\"tid\":1567,\"dalvik_tid\":8,"
                "\"waiting_on\":\"0x00f7fc8a\",\"lock\":\"java.util.HashMap\"}]}");
    gd_collected_free(&c);
}
END_TEST

/* Android 4.4 (Dalvik): "- waiting on <..> held by tid=58 (name)" names the
 * waiting thread itself (Object.wait): not a lock wait.  The second dump
 * lost its "----- pid" line: recovered from "----- end 863 -----" with time
 * unknown (0); a thread after it with no end line cannot be. */
START_TEST(dalvik44_headerless_dump)
{
    gd_collected c;
    read_fix(FIX("dalvik44_headerless.txt"), &c);
    ck_assert_int_eq(gd_collected_skips(&c, "anr: dump without header, pid from its end line"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "anr: thread of a dump without header or end line"), 1);
    ck_assert_uint_eq(json_object_size(c.skips), 2);
    ck_assert_uint_eq(json_array_size(c.metas), 2);
    assert_json(json_array_get(c.metas, 0), "{\"app\":\"system_server\",\"pid\":529,\"main_tid\":529}");
    assert_json(json_array_get(c.metas, 1), "{\"pid\":863,\"main_tid\":863}");
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 13);
    ck_assert_str_eq(str(by_thread(&c, "stack", "OkHttp ConnectionPool", 0), "state"), "TIMED_WAIT");
    ck_assert_uint_eq(count_issues(&c, "deadlock"), 0);
    json_t *m = by_thread(&c, "stack", "main", 1);
    ck_assert_int_eq(num(m, "pid"), 863);
    ck_assert_int_eq(num(m, "tid"), 863);
    ck_assert(json_number_value(json_object_get(m, "ts")) == 0);
    ck_assert_str_eq(str(m, "state"), "NATIVE");
    json_t *t = by_thread(&c, "stack", "Thread-41", 0);
    ck_assert_int_eq(num(t, "pid"), 863);
    ck_assert_int_eq(num(t, "tid"), 1216);
    ck_assert_uint_eq(json_array_size(json_object_get(t, "frames")), 5);
    ck_assert_str_eq(frame(t, 3), "com.adtv.poweronoff.PowerOffDetectService.run(PowerOffDetectService.java:675)");
    ck_assert_ptr_null(by_thread(&c, "stack", "Thread-41", 1));
    ck_assert_uint_eq(count_issues(&c, "anr_main_state"), 2);
    gd_collected_free(&c);
}
END_TEST

/* Android 4.4's spelling of a lock wait, "held by tid=N (name)": a cycle. */
START_TEST(dalvik44_tid_deadlock)
{
    static const char txt[] =
        "----- pid 863 at 2018-09-03 08:00:47 -----\n"
        "Cmd line: com.adtv\n"
        "DALVIK THREADS:\n"
        "\"main\" prio=5 tid=1 MONITOR\n"
        "  | sysTid=863 nice=0 sched=0/0 cgrp=apps handle=1074123092\n"
        "  at com.adtv.A.run(A.java:10)\n"
        "  - waiting to lock <0x41b06770> (a java.lang.Object) held by tid=11 (Thread-41)\n"
        "\n"
        "\"Thread-41\" prio=5 tid=11 MONITOR\n"
        "  | sysTid=1216 nice=0 sched=0/0 cgrp=apps handle=1769066792\n"
        "  at com.adtv.B.run(B.java:20)\n"
        "  - waiting to lock <0x41937910> (a java.lang.Object) held by tid=1 (main)\n"
        "----- end 863 -----\n";
    gd_collected c;
    gd_test_read_mem(&gd_reader_anr, txt, sizeof txt - 1, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(count_issues(&c, "deadlock"), 1);
    json_t *th = json_object_get(json_object_get(nth_issue(&c, "deadlock", 0), "content"), "threads");
    ck_assert_uint_eq(json_array_size(th), 2);
    ck_assert_int_eq(num(json_array_get(th, 0), "held_by"), 1216);
    ck_assert_int_eq(num(json_array_get(th, 1), "held_by"), 863);
    gd_collected_free(&c);
}
END_TEST

/* The VM TRACES sections of a real Android 2.3 bugreport (read by the
 * bugreport reader elsewhere): cut out here, they read as a traces.txt.
 * "JUST NOW" holds the lock cycle of pid 622, "AT LAST ANR" pid 800's main
 * waiting for a binder thread in an outgoing call. */
START_TEST(corpus_bugreport_vm_traces)
{
    const char *p = gd_test_corpus("bugreport/chkbugreport_bugreport_hybriddeadlock.txt");
    if (!p)
        return;
    FILE *in = fopen(p, "rb");
    ck_assert_ptr_nonnull(in);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    char line[8192];
    int on = 0;
    while (fgets(line, sizeof line, in)) {
        if (strncmp(line, "------ VM TRACES ", 17) == 0)
            on = 1;
        else if (strncmp(line, "------ ", 7) == 0)
            on = 0;
        if (on)
            fputs(line, out);
    }
    fclose(in);
    fclose(out);
    gd_collected c;
    gd_test_read_mem(&gd_reader_anr, buf, len, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    /* the two "------ VM TRACES" title lines */
    ck_assert_int_eq(gd_collected_skips(&c, "anr: line outside a dump"), 2);
    ck_assert_uint_eq(json_object_size(c.skips), 1);
    ck_assert_uint_eq(count_issues(&c, "deadlock"), 1);
    json_t *d = nth_issue(&c, "deadlock", 0);
    ck_assert_int_eq(num(d, "pid"), 622);
    json_t *th = json_object_get(json_object_get(d, "content"), "threads");
    ck_assert_uint_eq(json_array_size(th), 2);
    ck_assert_str_eq(str(json_array_get(th, 0), "name"), "Thread-10");
    ck_assert_str_eq(str(json_array_get(th, 1), "name"), "Binder Thread #1");
    ck_assert_uint_eq(count_issues(&c, "binder_wait"), 1);
    json_t *b = nth_issue(&c, "binder_wait", 0);
    ck_assert_int_eq(num(b, "pid"), 800);
    ck_assert_str_eq(str(json_object_get(json_object_get(b, "content"), "holder"), "name"), "Binder Thread #2");
    gd_collected_free(&c);
    free(buf);
}
END_TEST

START_TEST(malformed_input_is_counted)
{
    static const char txt[] =
        "stray text before any dump\n"
        "----- pid 12 at yesterday -----\n"
        "\"main\" prio=5 tid=1 Native\n"
        "----- end 12 -----\n"
        "----- pid 13 at 2020-01-01 00:00:00 -----\n"
        "\"no closing quote prio=5 tid=1 Native\n"
        "\"t\" prio=5 tid=7 Waiting\n"
        "  native: #00 pc\n"
        "  #01 pc 00ab  \n"
        "  native: #02 zz\n"
        "  at \n"
        "  - waiting to lock <0x1 (a\n"
        "  - waiting to lock <0x2> (a X) held by thread 7\n"
        "\"anon\" prio=5 (not attached)\n"
        "----- end 13 -----\n"
        "----- end 13 -----\n";
    gd_collected c;
    gd_test_read_mem(&gd_reader_anr, txt, sizeof txt - 1, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_int_eq(gd_collected_skips(&c, "anr: line outside a dump"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "anr: dump header unparsable"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "anr: thread header unparsable"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "anr: frame unparsable"), 3);
    ck_assert_int_eq(gd_collected_skips(&c, "anr: thread without tid"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "anr: end line outside a dump"), 1);
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 1);
    json_t *t = gd_collected_nth(&c, "stack", 0);
    ck_assert_int_eq(num(t, "tid"), 7); /* dalvik tid: no sysTid line */
    ck_assert_uint_eq(json_array_size(json_object_get(t, "frames")), 1);
    ck_assert_str_eq(frame(t, 0), "native:(pc 00ab)");
    /* a thread waiting on itself is a (degenerate) cycle of one */
    ck_assert_uint_eq(count_issues(&c, "deadlock"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(frames_are_bounded)
{
    size_t cap = 1200 * 48 + 512, n = 0;
    char *txt = malloc(cap);
    n += (size_t)snprintf(txt + n, cap - n,
                          "----- pid 5 at 2021-06-01 12:00:00.5 -----\n"
                          "\"main\" prio=5 tid=1 Runnable\n  | sysTid=5 nice=0\n");
    for (int i = 0; i < 1100; i++)
        n += (size_t)snprintf(txt + n, cap - n, "  at com.example.Deep.f%d(Deep.java:%d)\n", i, i + 1);
    n += (size_t)snprintf(txt + n, cap - n, "----- end 5 -----\n");
    gd_collected c;
    gd_test_read_mem(&gd_reader_anr, txt, n, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    json_t *m = gd_collected_nth(&c, "stack", 0);
    ck_assert_uint_eq(json_array_size(json_object_get(m, "frames")), 1024);
    ck_assert_str_eq(frame(m, 1023), "com.example.Deep.f1023(Deep.java:1024)");
    ck_assert(json_number_value(json_object_get(m, "ts")) == 1622548800500.0);
    ck_assert_int_eq(gd_collected_skips(&c, "anr: frames over the per-thread limit"), 1);
    gd_collected_free(&c);
    free(txt);
}
END_TEST

START_TEST(probe_scores)
{
    static const char anr[] = "\n----- pid 28941 at 2023-04-04 22:06:31.064728684+0200 -----\nCmd line: x\n";
    static const char wc[] = "----- Waiting Channels: pid 9955 at 2023-07-04 14:51:13.302627725+0200 -----\n";
    static const char logcat[] = "04-04 22:06:31.064  1234  1234 I art: ----- pid 28941 at 2023-04-04 22:06:31 -----\n";
    static const char json[] = "{\"godeye_trace\":1,\"events\":[]}";
    ck_assert_int_eq(gd_reader_anr.probe((const unsigned char *)anr, sizeof anr - 1, 1), 95);
    ck_assert_int_eq(gd_reader_anr.probe((const unsigned char *)wc, sizeof wc - 1, 1), 90);
    ck_assert_int_eq(gd_reader_anr.probe((const unsigned char *)logcat, sizeof logcat - 1, 1), 0);
    ck_assert_int_eq(gd_reader_anr.probe((const unsigned char *)json, sizeof json - 1, 1), 0);
    ck_assert_int_eq(gd_reader_godeye.probe((const unsigned char *)anr, sizeof anr - 1, 1), 0);
    ck_assert_ptr_eq(gd_reader_detect((const unsigned char *)anr, sizeof anr - 1, 1, NULL, 0),
                     &gd_reader_anr);
}
END_TEST

START_TEST(corpus_sentry)
{
    const char *p = gd_test_corpus("anr_traces/sentry_thread_dump.txt");
    if (!p)
        return;
    gd_collected c;
    read_fix(p, &c);
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    assert_json(json_array_get(c.metas, 0),
                "{\"app\":\"io.sentry.samples.android\",\"pid\":28941,\"main_tid\":28941,"
                "\"clock\":\"utc\",\"utc_offset_min\":120,\"device\":\"emu64a\"}");
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 30);
    ck_assert_uint_eq(total_frames(&c), 219);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: anr waiting channels section"), 1);
    ck_assert_uint_eq(json_object_size(c.skips), 1);
    ck_assert_uint_eq(count_state(&c, "Blocked"), 1);
    ck_assert_uint_eq(count_state(&c, "Native"), 15);
    ck_assert_uint_eq(count_state(&c, "Waiting"), 5);
    ck_assert_uint_eq(count_state(&c, "TimedWaiting"), 3);
    ck_assert_uint_eq(count_state(&c, "Sleeping"), 2);
    ck_assert_uint_eq(count_state(&c, "Runnable"), 1);
    ck_assert_uint_eq(count_state(&c, NULL), 1);
    json_t *m = by_thread(&c, "stack", "main", 0);
    ck_assert_int_eq(num(m, "tid"), 28941);
    ck_assert_str_eq(str(m, "state"), "Blocked");
    ck_assert_uint_eq(json_array_size(json_object_get(m, "frames")), 9);
    ck_assert_str_eq(frame(m, 0), "io.sentry.samples.android.MainActivity$2.run(MainActivity.java:177)");
    ck_assert_str_eq(frame(m, 8), "com.android.internal.os.ZygoteInit.main(ZygoteInit.java:936)");
    ck_assert_uint_eq(count_issues(&c, "deadlock"), 0);
    ck_assert_uint_eq(count_issues(&c, "anr_main_state"), 1);
    assert_json(json_object_get(nth_issue(&c, "anr_main_state", 0), "content"),
                "{\"name\":\"main\",\"tid\":28941,\"state\":\"Blocked\",\"waiting_on\":\"0x0d3a2f0a\","
                "\"lock\":\"java.lang.Object\",\"held_by\":29157,\"held_by_name\":\"Thread-9\","
                /* grep: Thread-9 (tid=5) 'Sleeping', '- locked <0x09228c2d>' then '<0x0d3a2f0a>' */
                "\"holder_state\":\"Sleeping\",\"holder_locks_held\":[\"0x09228c2d\",\"0x0d3a2f0a\"]}");
    gd_collected_free(&c);
}
END_TEST

START_TEST(corpus_sentry_native_only)
{
    const char *p = gd_test_corpus("anr_traces/sentry_thread_dump_native_only.txt");
    if (!p)
        return;
    gd_collected c;
    read_fix(p, &c);
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    assert_json(json_array_get(c.metas, 0),
                "{\"app\":\"io.sentry.samples.android\",\"pid\":9955,\"main_tid\":9955,"
                "\"clock\":\"utc\",\"utc_offset_min\":120}");
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 57);
    ck_assert_uint_eq(total_frames(&c), 981);
    ck_assert_uint_eq(count_state(&c, NULL), 57);
    /* #48: the first Waiting Channels section (line 2, before the dump of
     * pid 9955) is the dump's; the second (line 1201, after it) is skipped */
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: anr waiting channels section"), 1);
    ck_assert_uint_eq(json_object_size(c.skips), 1);
    /* #28: one anr_dump issue, and the main state of the thread whose
     * sysTid is the pid ("samples.android" sysTid=9955, no state word) */
    ck_assert_uint_eq(gd_collected_count(&c, "issue"), 2);
    json_t *d = nth_issue(&c, "anr_dump", 0);
    ck_assert_str_eq(str(json_object_get(d, "content"), "process"), "io.sentry.samples.android");
    ck_assert_str_eq(str(json_object_get(d, "content"), "section"), "traces_file");
    assert_json(json_object_get(nth_issue(&c, "anr_main_state", 0), "content"),
                "{\"name\":\"samples.android\",\"tid\":9955,\"kernel_state\":null,"
                "\"wchan\":\"futex_wait_queue_me\"}");
    json_t *m = by_thread(&c, "stack", "samples.android", 0);
    ck_assert_int_eq(num(m, "tid"), 9955);
    ck_assert_uint_eq(json_array_size(json_object_get(m, "frames")), 179);
    ck_assert_str_eq(frame(m, 0), "native:libc.so(syscall+28)");
    ck_assert_str_eq(frame(m, 178), "native:libart.so(pc 000000000022258c)");
    /* anonymous dex mappings, `[anon:dalvik-classes16.dex extracted in memory
     * from /data/app/.../base.apk!classes16.dex]`: named by the file after
     * the last '/', without the bracket (grep -o '\[anon:dalvik-[^]]*\]':
     * 27 such frames, 1 of classes16.dex at pc 306f0, 12 of classes21.dex) */
    ck_assert_uint_eq(frames_with(&c, "](", 0), 0);
    ck_assert_uint_eq(frames_with(&c, "native:base.apk!classes16.dex(pc 00000000000306f0)", 1), 1);
    ck_assert_uint_eq(frames_with(&c, "native:base.apk!classes21.dex(pc ", 1), 12);
    ck_assert_uint_eq(frames_with(&c, "native:base.apk(pc ", 1), 3);
    ck_assert_uint_eq(frames_with(&c, "native:core-oj.jar-transformed(pc ", 1), 5);
    ck_assert_uint_eq(frames_with(&c, "native:layoutinspector-view-inspection.jar(pc ", 1), 6);
    gd_collected_free(&c);
}
END_TEST

START_TEST(corpus_tornaco)
{
    const char *p = gd_test_corpus("anr_traces/tornaco_traces.txt");
    if (!p)
        return;
    gd_collected c;
    read_fix(p, &c);
    ck_assert_uint_eq(json_array_size(c.metas), 13);
    assert_json(json_array_get(c.metas, 0),
                "{\"app\":\"org.newstand.datamigration\",\"pid\":17902,\"main_tid\":17902,\"device\":\"Z1\"}");
    assert_json(json_array_get(c.metas, 5),
                "{\"app\":\"/system/bin/surfaceflinger\",\"pid\":338,\"main_tid\":338}");
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 334);
    ck_assert_uint_eq(total_frames(&c), 2810);
    ck_assert_uint_eq(json_object_size(c.skips), 0);
    ck_assert_uint_eq(count_state(&c, "Native"), 168);
    ck_assert_uint_eq(count_state(&c, "Waiting"), 36);
    ck_assert_uint_eq(count_state(&c, "TimedWaiting"), 16);
    ck_assert_uint_eq(count_state(&c, "Runnable"), 6);
    ck_assert_uint_eq(count_state(&c, "Blocked"), 5);
    ck_assert_uint_eq(count_state(&c, "WaitingInMainDebuggerLoop"), 5);
    ck_assert_uint_eq(count_state(&c, NULL), 98);
    json_t *m = by_thread(&c, "stack", "main", 0);
    ck_assert_int_eq(num(m, "pid"), 17902);
    ck_assert_int_eq(num(m, "ts"), 1492598107000LL);
    ck_assert_str_eq(str(m, "state"), "Runnable");
    ck_assert_uint_eq(json_array_size(json_object_get(m, "frames")), 18);
    ck_assert_str_eq(frame(m, 0), "java.lang.System.arraycopy(System.java:450)");
    ck_assert_str_eq(frame(m, 17), "java.lang.ThreadGroup.uncaughtException(ThreadGroup.java:1063)");
    json_t *sf = by_thread(&c, "stack", "surfaceflinger", 0);
    ck_assert_uint_eq(json_array_size(json_object_get(sf, "frames")), 10);
    ck_assert_str_eq(frame(sf, 5), "native:libsurfaceflinger.so(pc 0002261d)");
    /* 5 dumps with a "main", 8 native ones whose main is the thread with
     * sysTid = pid (awk: every one of the 13 dumps has one) */
    ck_assert_uint_eq(count_issues(&c, "anr_main_state"), 13);
    ck_assert_uint_eq(count_issues(&c, "anr_dump"), 13);
    ck_assert_uint_eq(count_issues(&c, "deadlock"), 0);
    gd_collected_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("anr");
    TCase *tc = tcase_create("anr");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, two_thread_deadlock);
    tcase_add_test(tc, three_thread_deadlock);
    tcase_add_test(tc, dalvik_threadid_deadlock);
    tcase_add_test(tc, dalvik_binder_wait);
    tcase_add_test(tc, art_binder_wait_and_kernel_stacks);
    tcase_add_test(tc, dalvik44_headerless_dump);
    tcase_add_test(tc, dalvik44_tid_deadlock);
    tcase_add_test(tc, corpus_bugreport_vm_traces);
    tcase_add_test(tc, malformed_input_is_counted);
    tcase_add_test(tc, frames_are_bounded);
    tcase_add_test(tc, probe_scores);
    tcase_add_test(tc, corpus_sentry);
    tcase_add_test(tc, corpus_sentry_native_only);
    tcase_add_test(tc, corpus_tornaco);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
