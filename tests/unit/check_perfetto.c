/* check_perfetto.c - tests of the Perfetto protobuf reader (lib/reader/perfetto.c).
 *
 * The traces are built here by a small protobuf encoder (field numbers from
 * Perfetto's .proto files), so every field path the reader walks is covered:
 * ftrace print markers in per-CPU bundles out of time order, ProcessTree,
 * TrackDescriptor with process and thread descriptors, TrackEvent slices
 * with interned names, incremental-state clearing and packet defaults,
 * frame-timeline jank, compressed packets, padded (non-minimal) varints and
 * a truncated last packet. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "testutil.h"

extern const gd_reader gd_reader_perfetto;

/* ---- a protobuf encoder ---- */

typedef struct pb {
    unsigned char *b;
    size_t n, cap;
} pb;

static void put(pb *p, const void *d, size_t n)
{
    if (p->n + n > p->cap) {
        p->cap = (p->n + n) * 2 + 64;
        p->b = realloc(p->b, p->cap);
        ck_assert_ptr_nonnull(p->b);
    }
    memcpy(p->b + p->n, d, n);
    p->n += n;
}

/* Varint, padded with `pad` extra 0x80 continuation bytes (non-minimal). */
static void varint_pad(pb *p, uint64_t v, int pad)
{
    unsigned char c[20];
    size_t k = 0;
    do {
        c[k] = v & 0x7F;
        v >>= 7;
        if (v || pad)
            c[k] |= 0x80;
        k++;
    } while (v);
    for (int i = 0; i < pad; i++)
        c[k++] = (unsigned char)(i == pad - 1 ? 0x00 : 0x80);
    put(p, c, k);
}
static void varint(pb *p, uint64_t v) { varint_pad(p, v, 0); }
static void key(pb *p, uint32_t f, int wt) { varint(p, (uint64_t)f << 3 | (uint64_t)wt); }
static void u(pb *p, uint32_t f, uint64_t v)
{
    key(p, f, 0);
    varint(p, v);
}
static void u_pad(pb *p, uint32_t f, uint64_t v)
{
    key(p, f, 0);
    varint_pad(p, v, 3);
}
static void bytes(pb *p, uint32_t f, const void *d, size_t n)
{
    key(p, f, 2);
    varint(p, n);
    put(p, d, n);
}
static void str(pb *p, uint32_t f, const char *s) { bytes(p, f, s, strlen(s)); }
/* Appends message m as field f and frees m. */
static void msg(pb *p, uint32_t f, pb *m)
{
    bytes(p, f, m->b ? m->b : (unsigned char *)"", m->n);
    free(m->b);
    memset(m, 0, sizeof *m);
}
static void fixed64(pb *p, uint32_t f, uint64_t v)
{
    key(p, f, 1);
    unsigned char c[8];
    for (int i = 0; i < 8; i++)
        c[i] = (unsigned char)(v >> (8 * i));
    put(p, c, 8);
}

/* FtraceEvent {timestamp 1, pid 2, print 3 {buf 2}} into bundle b. */
static void print_ev(pb *bundle, uint64_t ts, uint32_t tid, const char *buf)
{
    pb ev = {0}, pr = {0};
    u(&ev, 1, ts);
    u(&ev, 2, tid);
    fixed64(&pr, 1, 0xdeadbeef);  /* ip: an I64 field to step over */
    str(&pr, 2, buf);
    msg(&ev, 3, &pr);
    msg(bundle, 2, &ev);
}

/* The same with a padded timestamp and a padded (non-minimal) length of
 * the print message. */
static void print_ev_pad(pb *bundle, uint64_t ts, uint32_t tid, const char *buf)
{
    pb ev = {0}, pr = {0};
    u_pad(&ev, 1, ts);
    u(&ev, 2, tid);
    str(&pr, 2, buf);
    key(&ev, 3, 2);
    varint_pad(&ev, pr.n, 2);
    put(&ev, pr.b, pr.n);
    free(pr.b);
    msg(bundle, 2, &ev);
}

/* A non-print ftrace event (sched_switch = 4). */
static void other_ev(pb *bundle, uint64_t ts, uint32_t tid)
{
    pb ev = {0}, sw = {0};
    u(&ev, 1, ts);
    u(&ev, 2, tid);
    str(&sw, 1, "prev");
    msg(&ev, 4, &sw);
    msg(bundle, 2, &ev);
}

/* Trace.packet (field 1) holding packet pk. */
static void packet(pb *trace, pb *pk) { msg(trace, 1, pk); }

static const char *jstr(json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }
static double jnum(json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }
static long long jint(json_t *o, const char *k) { return json_integer_value(json_object_get(o, k)); }

#define MS 1000000ull /* ns */

/* The ftrace trace: process tree, two CPU bundles out of order. */
static void build_ftrace(pb *t)
{
    pb pk = {0}, tree = {0}, e = {0};
    /* a config packet: not used, counted */
    pb cfg = {0};
    u(&cfg, 1, 42);
    msg(&pk, 33, &cfg);
    u(&pk, 10, 1);
    packet(t, &pk);

    u(&e, 1, 100);
    u(&e, 2, 1);
    str(&e, 3, "com.example.app");
    str(&e, 3, "--flag");
    msg(&tree, 1, &e);
    u(&e, 1, 101);
    str(&e, 2, "RenderThread");
    u(&e, 3, 100);
    msg(&tree, 2, &e);
    msg(&pk, 2, &tree);
    u(&pk, 8, 900 * MS);
    packet(t, &pk);

    /* CPU 1's bundle comes first but holds the later events */
    pb b = {0};
    u(&b, 1, 1);
    print_ev(&b, 1005 * MS, 100, "E|100\n");
    print_ev(&b, 1010 * MS, 100, "E|100\n");
    print_ev(&b, 1012 * MS, 101, "E|100");
    other_ev(&b, 1013 * MS, 101);
    msg(&pk, 1, &b);
    u_pad(&pk, 10, 2);   /* padded varint */
    packet(t, &pk);

    u(&b, 1, 0);
    print_ev_pad(&b, 1000 * MS, 100, "B|100|Choreographer#doFrame 123\n");
    print_ev(&b, 1002 * MS, 100, "B|100|android.view.View#draw\n");
    print_ev(&b, 1003 * MS, 101, "B|100|DrawFrame\n");
    print_ev(&b, 1004 * MS, 101, "C|100|queue|5\n");
    print_ev(&b, 1004 * MS, 101, "S|100|launching|7\n");
    print_ev(&b, 1006 * MS, 102, "E|100\n"); /* no begin on 102 */
    msg(&pk, 1, &b);
    packet(t, &pk);

    /* a slice still open at the end, on the main thread */
    u(&b, 1, 0);
    print_ev(&b, 1020 * MS, 100, "B|100|activityStart\n");
    print_ev(&b, 1030 * MS, 100, "B|100|inflate\n");
    print_ev(&b, 1040 * MS, 101, "B|100|monitor contention with owner main (100) at void a.B.c()(B.java:1) waiters=2 blocking from void d.E.f()(E.java:2)\n");
    print_ev(&b, 1041 * MS, 101, "E|100\n");
    msg(&pk, 1, &b);
    packet(t, &pk);
}

START_TEST(ftrace_markers)
{
    pb t = {0};
    build_ftrace(&t);
    gd_collected c;
    gd_test_read_mem(&gd_reader_perfetto, t.b, t.n, NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);

    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 2);
    json_t *d = gd_collected_nth(&c, "dispatch", 0);
    ck_assert_str_eq(jstr(d, "msg"), "Choreographer#doFrame");
    ck_assert(jnum(d, "ts") == 1000.0);
    ck_assert(jnum(d, "dur") == 10.0);
    ck_assert_int_eq(jint(d, "pid"), 100);
    ck_assert_int_eq(jint(d, "tid"), 100);
    ck_assert_ptr_null(json_object_get(d, "unfinished"));
    d = gd_collected_nth(&c, "dispatch", 1);
    ck_assert_str_eq(jstr(d, "msg"), "activityStart");
    ck_assert(json_is_true(json_object_get(d, "unfinished")));
    ck_assert(jnum(d, "dur") == 21.0);   /* to the last time seen, 1041 ms */

    ck_assert_uint_eq(gd_collected_count(&c, "frame"), 1);
    json_t *f = gd_collected_nth(&c, "frame", 0);
    ck_assert(jnum(f, "ts") == 1000.0);
    ck_assert(jnum(f, "dur") == 10.0);
    ck_assert_str_eq(jstr(f, "window"), "com.example.app");

    ck_assert_uint_eq(gd_collected_count(&c, "method"), 4);
    json_t *m = gd_collected_nth(&c, "method", 0);  /* ends first: draw at 1005 */
    ck_assert_str_eq(jstr(m, "class"), "android.view.View");
    ck_assert_str_eq(jstr(m, "method"), "draw");
    ck_assert_int_eq(jint(m, "depth"), 0);
    ck_assert(jnum(m, "ts") == 1002.0);
    ck_assert(jnum(m, "end_ts") == 1005.0);
    m = gd_collected_nth(&c, "method", 1);          /* DrawFrame on RenderThread */
    ck_assert_str_eq(jstr(m, "method"), "DrawFrame");
    ck_assert_ptr_null(json_object_get(m, "class"));
    ck_assert_str_eq(jstr(m, "thread"), "RenderThread");
    ck_assert_int_eq(jint(m, "tid"), 101);
    ck_assert_int_eq(jint(m, "depth"), 0);
    ck_assert(jnum(m, "end_ts") == 1012.0);
    m = gd_collected_nth(&c, "method", 3);          /* inflate, open at the end */
    ck_assert_str_eq(jstr(m, "method"), "inflate");
    ck_assert(json_is_true(json_object_get(m, "open")));

    ck_assert_uint_eq(gd_collected_count(&c, "issue"), 1);
    json_t *is = gd_collected_nth(&c, "issue", 0);
    ck_assert_str_eq(jstr(is, "issue_type"), "lock_contention");
    json_t *ct = json_object_get(is, "content");
    ck_assert_str_eq(jstr(ct, "owner"), "main");
    ck_assert_int_eq(jint(ct, "owner_tid"), 100);
    ck_assert_int_eq(jint(ct, "waiters"), 2);
    ck_assert_str_eq(jstr(ct, "owner_method"), "void a.B.c()(B.java:1)");
    ck_assert_str_eq(jstr(ct, "blocked_method"), "void d.E.f()(E.java:2)");
    ck_assert(json_is_false(json_object_get(ct, "main")));
    ck_assert(jnum(ct, "dur_ms") == 1.0);

    ck_assert_int_eq(gd_collected_skips(&c, "perfetto: slice end without begin"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: perfetto: counter marker"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: perfetto: async slice marker"), 1);
    /* the sched_switch without its pids: a scheduling event, malformed (#26) */
    ck_assert_int_eq(gd_collected_skips(&c, "perfetto: sched_switch without its pids"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: perfetto: ftrace event not used"), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: perfetto: packet not used (trace_config)"), 1);

    ck_assert_uint_eq(json_array_size(c.metas), 1);
    json_t *meta = json_array_get(c.metas, 0);
    ck_assert_str_eq(jstr(meta, "app"), "com.example.app");
    ck_assert_int_eq(jint(meta, "pid"), 100);
    ck_assert_int_eq(jint(meta, "main_tid"), 100);
    ck_assert_str_eq(jstr(meta, "clock"), "monotonic");
    gd_collected_free(&c);

    /* the same trace cut in its last packet keeps the complete ones */
    gd_test_read_mem(&gd_reader_perfetto, t.b, t.n - 7, NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    ck_assert_int_eq(gd_collected_skips(&c, "perfetto: trace cut mid-packet"), 1);
    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 1);
    ck_assert_uint_eq(gd_collected_count(&c, "frame"), 1);
    ck_assert_uint_eq(gd_collected_count(&c, "issue"), 0);
    gd_collected_free(&c);
    free(t.b);
}
END_TEST

/* TrackEvent slices: descriptors, interning, clearing, defaults. */
START_TEST(track_events)
{
    pb t = {0}, pk = {0}, td = {0}, d = {0}, in = {0}, en = {0}, te = {0};
    /* thread track 7 (pid 200 tid 200 "main"), process track 8 */
    u(&td, 1, 7);
    u(&d, 1, 200);
    u(&d, 2, 200);
    str(&d, 5, "main");
    msg(&td, 4, &d);
    msg(&pk, 60, &td);
    packet(&t, &pk);
    u(&td, 1, 8);
    u(&d, 1, 200);
    str(&d, 2, "/system/bin/app_process");
    str(&d, 6, "com.ex.te");
    msg(&td, 3, &d);
    msg(&pk, 60, &td);
    packet(&t, &pk);
    /* thread track 9: a worker of 200 */
    u(&td, 1, 9);
    u(&d, 1, 200);
    u(&d, 2, 205);
    str(&d, 5, "worker");
    msg(&td, 4, &d);
    msg(&pk, 60, &td);
    packet(&t, &pk);

    /* sequence 5: cleared state, interned names 1 inflate, 2 activityStart */
    u(&pk, 10, 5);
    u(&pk, 13, 1);
    u(&en, 1, 1);
    str(&en, 2, "inflate");
    msg(&in, 2, &en);
    u(&en, 1, 2);
    str(&en, 2, "activityStart");
    msg(&in, 2, &en);
    msg(&pk, 12, &in);
    u(&te, 9, 1);
    u(&te, 11, 7);
    u(&te, 10, 2);
    msg(&pk, 11, &te);
    u(&pk, 8, 2000 * MS);
    packet(&t, &pk);

    u(&pk, 10, 5);
    u(&pk, 8, 2001 * MS);
    u(&te, 9, 1);
    u(&te, 11, 7);
    u(&te, 10, 1);
    msg(&pk, 11, &te);
    packet(&t, &pk);

    u(&pk, 10, 5);
    u(&pk, 8, 2004 * MS);
    u(&te, 9, 2);
    u(&te, 11, 7);
    msg(&pk, 11, &te);
    packet(&t, &pk);

    /* an instant and a slice on the process track: ignored */
    u(&pk, 10, 5);
    u(&pk, 8, 2005 * MS);
    u(&te, 9, 3);
    u(&te, 11, 7);
    str(&te, 23, "instant");
    msg(&pk, 11, &te);
    packet(&t, &pk);
    u(&pk, 10, 5);
    u(&pk, 8, 2005 * MS);
    u(&te, 9, 1);
    u(&te, 11, 8);
    str(&te, 23, "async");
    msg(&pk, 11, &te);
    packet(&t, &pk);

    u(&pk, 10, 5);
    u(&pk, 8, 2010 * MS);
    u(&te, 9, 2);
    u(&te, 11, 7);
    msg(&pk, 11, &te);
    packet(&t, &pk);

    /* incremental state cleared (field 41): iid 1 now names bindApplication;
     * defaults put events without track_uuid on track 9 */
    pb def = {0}, ted = {0};
    u(&pk, 10, 5);
    u(&pk, 41, 1);
    u(&en, 1, 1);
    str(&en, 2, "bindApplication");
    msg(&in, 2, &en);
    msg(&pk, 12, &in);
    u(&ted, 11, 9);
    msg(&def, 11, &ted);
    msg(&pk, 59, &def);
    u(&te, 9, 1);
    u(&te, 10, 1);
    msg(&pk, 11, &te);
    u(&pk, 8, 2020 * MS);
    packet(&t, &pk);
    u(&pk, 10, 5);
    u(&pk, 8, 2023 * MS);
    u(&te, 9, 1);
    u(&te, 10, 2);   /* iid 2 dropped by the clearing */
    msg(&pk, 11, &te);
    packet(&t, &pk);
    u(&pk, 10, 5);
    u(&pk, 8, 2024 * MS);
    u(&te, 9, 2);
    msg(&pk, 11, &te);
    packet(&t, &pk);
    u(&pk, 10, 5);
    u(&pk, 8, 2025 * MS);
    u(&te, 9, 2);
    msg(&pk, 11, &te);
    packet(&t, &pk);
    /* a slice on an undescribed track */
    u(&pk, 10, 5);
    u(&pk, 8, 2026 * MS);
    u(&te, 9, 1);
    u(&te, 11, 99);
    str(&te, 23, "lost");
    msg(&pk, 11, &te);
    packet(&t, &pk);

    gd_collected c;
    gd_test_read_mem(&gd_reader_perfetto, t.b, t.n, NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 1);
    json_t *e = gd_collected_nth(&c, "dispatch", 0);
    ck_assert_str_eq(jstr(e, "msg"), "activityStart");
    ck_assert(jnum(e, "ts") == 2000.0);
    ck_assert(jnum(e, "dur") == 10.0);
    ck_assert_str_eq(jstr(e, "thread"), "main");
    ck_assert_uint_eq(gd_collected_count(&c, "method"), 3);
    e = gd_collected_nth(&c, "method", 0);
    ck_assert_str_eq(jstr(e, "method"), "inflate");
    ck_assert(jnum(e, "end_ts") == 2004.0);
    ck_assert_int_eq(jint(e, "depth"), 0);
    e = gd_collected_nth(&c, "method", 1);
    ck_assert_str_eq(jstr(e, "method"), "(unknown name)");
    ck_assert_int_eq(jint(e, "tid"), 205);
    ck_assert_int_eq(jint(e, "depth"), 1);
    e = gd_collected_nth(&c, "method", 2);
    ck_assert_str_eq(jstr(e, "method"), "bindApplication");
    ck_assert_str_eq(jstr(e, "thread"), "worker");
    ck_assert(jnum(e, "ts") == 2020.0);
    ck_assert(jnum(e, "end_ts") == 2025.0);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: perfetto: track event not a slice"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: perfetto: slice not on a thread track"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "perfetto: slice name not interned"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "perfetto: track event on an undescribed track"), 1);
    json_t *meta = json_array_get(c.metas, 0);
    ck_assert_str_eq(jstr(meta, "app"), "com.ex.te");
    ck_assert_int_eq(jint(meta, "pid"), 200);
    gd_collected_free(&c);
    free(t.b);
}
END_TEST

/* The Perfetto SDK's incremental clock (id 64, deltas per packet) and a
 * builtin clock (MONOTONIC = 3) mapped to BOOTTIME by clock snapshots. */
/* #47: a thread's full name from its thread descriptor ("ExoPlayer:Playback")
 * is not replaced by the kernel's 15-byte comm a later process tree gives
 * ("ExoPlayer:Playb"); a comm that is no cut of it ("Other") still renames. */
START_TEST(thread_full_name)
{
    pb t = {0}, pk = {0}, td = {0}, d = {0}, te = {0}, tree = {0}, e = {0};
    u(&td, 1, 9);
    u(&d, 1, 200);
    u(&d, 2, 205);
    str(&d, 5, "ExoPlayer:Playback");
    msg(&td, 4, &d);
    msg(&pk, 60, &td);
    packet(&t, &pk);
    u(&td, 1, 10);
    u(&d, 1, 200);
    u(&d, 2, 206);
    str(&d, 5, "OkHttp Dispatcher");
    msg(&td, 4, &d);
    msg(&pk, 60, &td);
    packet(&t, &pk);
    /* the process tree after them: comms */
    u(&e, 1, 205);
    str(&e, 2, "ExoPlayer:Playb");
    u(&e, 3, 200);
    msg(&tree, 2, &e);
    u(&e, 1, 206);
    str(&e, 2, "Other");
    u(&e, 3, 200);
    msg(&tree, 2, &e);
    msg(&pk, 2, &tree);
    u(&pk, 8, 900 * MS);
    packet(&t, &pk);
    for (int k = 0; k < 2; k++) {
        u(&pk, 10, 5);
        u(&pk, 8, (uint64_t)(1000 + 10 * k) * MS);
        u(&te, 9, 1);
        u(&te, 11, (uint64_t)(9 + k));
        str(&te, 23, "work");
        msg(&pk, 11, &te);
        packet(&t, &pk);
        u(&pk, 10, 5);
        u(&pk, 8, (uint64_t)(1005 + 10 * k) * MS);
        u(&te, 9, 2);
        u(&te, 11, (uint64_t)(9 + k));
        msg(&pk, 11, &te);
        packet(&t, &pk);
    }
    gd_collected c;
    gd_test_read_mem(&gd_reader_perfetto, t.b, t.n, NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "method"), 2);
    json_t *m = gd_collected_nth(&c, "method", 0);
    ck_assert_int_eq(jint(m, "tid"), 205);
    ck_assert_str_eq(jstr(m, "thread"), "ExoPlayer:Playback");
    m = gd_collected_nth(&c, "method", 1);
    ck_assert_int_eq(jint(m, "tid"), 206);
    ck_assert_str_eq(jstr(m, "thread"), "Other");
    gd_collected_free(&c);
    free(t.b);
}
END_TEST

START_TEST(clocks)
{
    pb t = {0}, pk = {0}, td = {0}, d = {0}, te = {0}, cs = {0}, ck = {0}, def = {0}, ted = {0};
    u(&td, 1, 7);
    u(&d, 1, 300);
    u(&d, 2, 300);
    str(&d, 5, "app");
    msg(&td, 4, &d);
    msg(&pk, 60, &td);
    packet(&t, &pk);

    /* global snapshot: BOOTTIME 5000 ms = MONOTONIC 4000 ms */
    u(&ck, 1, 6);
    u(&ck, 2, 5000 * MS);
    msg(&cs, 1, &ck);
    u(&ck, 1, 3);
    u(&ck, 2, 4000 * MS);
    msg(&cs, 1, &ck);
    msg(&pk, 6, &cs);
    packet(&t, &pk);

    /* sequence 9: defaults clock 64 + track 7; its snapshot: clock 64 is
     * incremental, in units of 1000 ns, at BOOTTIME 6000 ms */
    u(&pk, 10, 9);
    u(&pk, 13, 1);
    u(&ted, 11, 7);
    u(&def, 58, 64);
    msg(&def, 11, &ted);
    msg(&pk, 59, &def);
    u(&ck, 1, 6);
    u(&ck, 2, 6000 * MS);
    msg(&cs, 1, &ck);
    u(&ck, 1, 64);
    u(&ck, 2, 6000000);
    u(&ck, 3, 1);
    u(&ck, 4, 1000);
    msg(&cs, 1, &ck);
    msg(&pk, 6, &cs);
    u(&pk, 58, 6);
    u(&pk, 8, 6000 * MS);
    packet(&t, &pk);
    u(&pk, 10, 9);
    u(&pk, 8, 1000);          /* +1 ms */
    u(&te, 9, 1);
    str(&te, 23, "sdkSlice");
    msg(&pk, 11, &te);
    packet(&t, &pk);
    u(&pk, 10, 9);
    u(&pk, 8, 2500);          /* +2.5 ms */
    u(&te, 9, 2);
    msg(&pk, 11, &te);
    packet(&t, &pk);

    /* on MONOTONIC: 4100 ms -> BOOTTIME 5100 ms, on the same thread track */
    u(&pk, 58, 3);
    u(&pk, 8, 4100 * MS);
    u(&te, 9, 1);
    u(&te, 11, 7);
    str(&te, 23, "mono");
    msg(&pk, 11, &te);
    packet(&t, &pk);
    u(&pk, 58, 3);
    u(&pk, 8, 4104 * MS);
    u(&te, 9, 2);
    u(&te, 11, 7);
    msg(&pk, 11, &te);
    packet(&t, &pk);
    /* on REALTIME, never snapshotted: skipped, counted */
    u(&pk, 58, 1);
    u(&pk, 8, 1);
    u(&te, 9, 3);
    u(&te, 11, 7);
    msg(&pk, 11, &te);
    packet(&t, &pk);

    gd_collected c;
    gd_test_read_mem(&gd_reader_perfetto, t.b, t.n, NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 2);
    json_t *e = gd_collected_nth(&c, "dispatch", 0);
    ck_assert_str_eq(jstr(e, "msg"), "mono");
    ck_assert(jnum(e, "ts") == 5100.0);
    ck_assert(jnum(e, "dur") == 4.0);
    e = gd_collected_nth(&c, "dispatch", 1);
    ck_assert_str_eq(jstr(e, "msg"), "sdkSlice");
    ck_assert(jnum(e, "ts") == 6001.0);
    ck_assert(jnum(e, "dur") == 2.5);
    ck_assert_int_eq(gd_collected_skips(&c, "perfetto: track event on a clock without a snapshot"), 1);
    gd_collected_free(&c);
    free(t.b);
}
END_TEST

START_TEST(frame_timeline_and_compressed)
{
    pb inner = {0}, pk = {0}, ft = {0}, s = {0};
    /* surface frame cookie 5: app deadline missed (64) + buffer stuffing (128) */
    u(&s, 1, 5);
    u(&s, 2, 77);
    u(&s, 4, 300);
    str(&s, 5, "com.j/com.j.Main#0");
    u(&s, 6, 2);
    u(&s, 9, 64 | 128);
    msg(&ft, 4, &s);
    msg(&pk, 76, &ft);
    u(&pk, 8, 3000 * MS);
    packet(&inner, &pk);
    /* an on-time one, cookie 6 */
    u(&s, 1, 6);
    u(&s, 2, 78);
    u(&s, 4, 300);
    u(&s, 9, 1);
    msg(&ft, 4, &s);
    msg(&pk, 76, &ft);
    u(&pk, 8, 3001 * MS);
    packet(&inner, &pk);
    u(&s, 1, 6);
    msg(&ft, 5, &s);
    msg(&pk, 76, &ft);
    u(&pk, 8, 3010 * MS);
    packet(&inner, &pk);
    u(&s, 1, 5);
    msg(&ft, 5, &s);
    msg(&pk, 76, &ft);
    u(&pk, 8, 3020 * MS);
    packet(&inner, &pk);

    /* all four inside one compressed_packets (50) */
    uLongf zn = compressBound(inner.n);
    unsigned char *z = malloc(zn);
    ck_assert_int_eq(compress(z, &zn, inner.b, inner.n), Z_OK);
    pb t = {0};
    bytes(&pk, 50, z, zn);
    packet(&t, &pk);
    free(z);
    free(inner.b);

    gd_collected c;
    gd_test_read_mem(&gd_reader_perfetto, t.b, t.n, NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    /* both surface frames are frames (cookie 6 ends first), the janky one an issue too */
    ck_assert_uint_eq(json_array_size(c.events), 3);
    json_t *fr = gd_collected_nth(&c, "frame", 0);
    ck_assert_ptr_nonnull(fr);
    ck_assert(jnum(fr, "ts") == 3001.0);
    ck_assert(jnum(fr, "dur") == 9.0);
    fr = gd_collected_nth(&c, "frame", 1);
    ck_assert_ptr_nonnull(fr);
    ck_assert(jnum(fr, "ts") == 3000.0);
    ck_assert(jnum(fr, "dur") == 20.0);
    ck_assert_str_eq(jstr(fr, "window"), "com.j/com.j.Main#0");
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: perfetto: frame timeline: surface frame without its "
                                            "expected timeline (kept)"),
                     2);
    json_t *e = gd_collected_nth(&c, "issue", 0);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(jstr(e, "issue_type"), "frame_jank");
    ck_assert_str_eq(jstr(e, "detail"), "com.j/com.j.Main#0");
    ck_assert(jnum(e, "cost") == 20.0);
    ck_assert(jnum(e, "ts") == 3000.0);
    ck_assert_int_eq(jint(e, "pid"), 300);
    json_t *j = json_object_get(json_object_get(e, "content"), "jank");
    ck_assert_uint_eq(json_array_size(j), 2);
    ck_assert_str_eq(json_string_value(json_array_get(j, 0)), "App Deadline Missed");
    ck_assert_str_eq(json_string_value(json_array_get(j, 1)), "Buffer Stuffing");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(e, "content"), "jank_tag")),
                     "Self Jank");
    gd_collected_free(&c);
    free(t.b);
}
END_TEST

/* One interned frame {iid, function name iid, mapping iid} into InternedData d. */
static void frame_ent(pb *d, uint64_t iid, uint64_t fn, uint64_t map)
{
    pb f = {0};
    u(&f, 1, iid);
    if (fn)
        u(&f, 2, fn);
    u(&f, 3, map);
    u(&f, 4, 0x10);
    msg(d, 6, &f);
}
static void istr(pb *d, uint32_t field, uint64_t iid, const char *text)
{
    pb e = {0};
    u(&e, 1, iid);
    str(&e, 2, text);
    msg(d, field, &e);
}
/* A packet on sequence 7 at BOOTTIME ts_ns holding PerfSample {pid, tid,
 * callstack (0: none), kernel_records_lost}. */
static void perf_pkt(pb *t, uint64_t ts_ns, uint32_t tid, uint64_t cs, uint64_t lost)
{
    pb pk = {0}, ps = {0};
    u(&pk, 10, 7);
    u(&pk, 8, ts_ns);
    u(&ps, 2, 300);
    u(&ps, 3, tid);
    if (cs)
        u(&ps, 4, cs);
    if (lost)
        u(&ps, 17, lost);
    msg(&pk, 66, &ps);
    packet(t, &pk);
}

START_TEST(perf_samples)
{
    pb t = {0}, pk = {0}, d = {0}, m = {0}, cs = {0}, ids = {0};
    /* sequence 7 cleared, interned: a libc mapping, an oat mapping, two
     * frames, a callstack with packed frame_ids (outermost first) */
    u(&pk, 10, 7);
    u(&pk, 13, 1);
    istr(&d, 17, 1, "apex");
    istr(&d, 17, 2, "libc.so");
    istr(&d, 17, 3, "boot.oat");
    u(&m, 1, 1);
    u(&m, 7, 1);
    u(&m, 7, 2);
    msg(&d, 19, &m);
    u(&m, 1, 2);
    u(&m, 7, 3);
    msg(&d, 19, &m);
    istr(&d, 5, 1, "read");
    istr(&d, 5, 2, "void android.os.Looper.loop()");
    frame_ent(&d, 1, 1, 1);
    frame_ent(&d, 2, 2, 2);
    frame_ent(&d, 3, 0, 1); /* unnamed: its rel_pc */
    u(&cs, 1, 5);
    varint(&ids, 2);
    varint(&ids, 3);
    varint(&ids, 1);
    bytes(&cs, 2, ids.b, ids.n);
    free(ids.b);
    memset(&ids, 0, sizeof ids);
    msg(&d, 7, &cs);
    u(&cs, 1, 6);
    u(&cs, 2, 9); /* frame 9 was never interned */
    msg(&d, 7, &cs);
    msg(&pk, 12, &d);
    packet(&t, &pk);
    perf_pkt(&t, 2000000000, 301, 5, 0);
    perf_pkt(&t, 2010000000, 301, 6, 0);  /* a frame not interned */
    perf_pkt(&t, 2020000000, 0, 0, 12);   /* records lost: not a sample */
    perf_pkt(&t, 2030000000, 301, 77, 0); /* a callstack not interned */
    /* re-interning function name 1 on the same sequence replaces it */
    u(&pk, 10, 7);
    istr(&d, 5, 1, "write");
    msg(&pk, 12, &d);
    packet(&t, &pk);
    perf_pkt(&t, 2040000000, 302, 5, 0);
    /* a tracepoint timebase: not a CPU profile */
    pb def = {0}, psd = {0}, tb = {0}, tp = {0};
    u(&pk, 10, 7);
    str(&tp, 1, "sched/sched_switch");
    msg(&tb, 3, &tp);
    msg(&psd, 1, &tb);
    msg(&def, 12, &psd);
    msg(&pk, 59, &def);
    packet(&t, &pk);
    perf_pkt(&t, 2050000000, 301, 5, 0);
    /* sequence 8: packets dropped (previous_packet_dropped), then a sample
     * that needs incremental state: skipped until the sequence clears */
    u(&pk, 10, 8);
    u(&pk, 42, 1);
    packet(&t, &pk);
    pb ps = {0};
    u(&pk, 10, 8);
    u(&pk, 13, 2);
    u(&pk, 8, 2060000000);
    u(&ps, 3, 303);
    u(&ps, 4, 5);
    msg(&pk, 66, &ps);
    packet(&t, &pk);

    gd_collected c;
    gd_test_read_mem(&gd_reader_perfetto, t.b, t.n, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 2);
    json_t *e = gd_collected_nth(&c, "stack", 0);
    ck_assert(jnum(e, "ts") == 2000.0);
    ck_assert_int_eq(jint(e, "tid"), 301);
    ck_assert_int_eq(jint(e, "pid"), 300);
    json_t *fr = json_object_get(e, "frames");
    ck_assert_uint_eq(json_array_size(fr), 3);
    ck_assert_str_eq(json_string_value(json_array_get(fr, 0)), "native:libc.so(read)");
    ck_assert_str_eq(json_string_value(json_array_get(fr, 1)), "native:libc.so(pc 10)");
    ck_assert_str_eq(json_string_value(json_array_get(fr, 2)), "android.os.Looper.loop");
    e = gd_collected_nth(&c, "stack", 1);
    ck_assert_int_eq(jint(e, "tid"), 302);
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(e, "frames"), 0)),
                     "native:libc.so(write)");
    ck_assert_int_eq(gd_collected_skips(&c, "perfetto: profile sample of a frame not interned"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "perfetto: profile sample of a callstack not interned"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: perfetto: perf records lost by the kernel"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: perfetto: perf sample not on the cpu-clock (not a CPU profile)"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: perfetto: profile sample after lost packets (incremental state not valid)"), 1);
    gd_collected_free(&c);
    free(t.b);
}
END_TEST

/* #53: a sink keeping each stack event's key and innermost frame */
typedef struct {
    uint64_t key[16];
    char inner[16][64];
    size_t n;
} key_sink;
static int ks_meta(void *ctx, const gd_meta *m, gd_error *err)
{
    (void)ctx, (void)m, (void)err;
    return 0;
}
static int ks_event(void *ctx, const gd_event *ev, gd_error *err)
{
    (void)err;
    key_sink *k = ctx;
    if (ev->kind == GD_EV_STACK && k->n < 16) {
        k->key[k->n] = ev->u.stack.key;
        snprintf(k->inner[k->n++], sizeof k->inner[0], "%s", ev->u.stack.frames[0]);
    }
    return 0;
}
static void ks_skip(void *ctx, const char *reason, long line, long col)
{
    (void)ctx, (void)reason, (void)line, (void)col;
}

/* A packet on sequence 7 interning function name iid -> text. */
static void name_pkt(pb *t, uint64_t iid, const char *text)
{
    pb pk = {0}, d = {0};
    u(&pk, 10, 7);
    u(&pk, 13, 2);
    istr(&d, 5, iid, text);
    msg(&pk, 12, &d);
    packet(t, &pk);
}

/* #53: a callstack's frames are named once and given one key while what
 * they name stands; named again (a new key) when an entry they named is
 * replaced, or, for frames that named an entry not interned, when the
 * sequence interns more. */
START_TEST(callstack_named_once)
{
    pb t = {0}, pk = {0}, d = {0}, m = {0}, cs = {0};
    u(&pk, 10, 7);
    u(&pk, 13, 1);
    istr(&d, 17, 1, "libc.so");
    u(&m, 1, 1);
    u(&m, 7, 1);
    msg(&d, 19, &m);
    istr(&d, 5, 1, "read");
    frame_ent(&d, 1, 1, 1);
    frame_ent(&d, 2, 9, 1); /* function name 9: not interned yet */
    u(&cs, 1, 5);
    u(&cs, 2, 1);
    msg(&d, 7, &cs);
    u(&cs, 1, 6);
    u(&cs, 2, 1);
    u(&cs, 2, 2);
    msg(&d, 7, &cs);
    msg(&pk, 12, &d);
    packet(&t, &pk);
    perf_pkt(&t, 2000000000, 301, 5, 0);
    perf_pkt(&t, 2001000000, 301, 5, 0);
    perf_pkt(&t, 2002000000, 301, 6, 0);
    perf_pkt(&t, 2003000000, 301, 6, 0);
    name_pkt(&t, 9, "poll"); /* a new entry */
    perf_pkt(&t, 2004000000, 301, 5, 0);
    perf_pkt(&t, 2005000000, 301, 6, 0);
    name_pkt(&t, 1, "write"); /* a replaced entry */
    perf_pkt(&t, 2006000000, 301, 5, 0);
    perf_pkt(&t, 2007000000, 301, 5, 0);

    key_sink k = {0};
    gd_sink sink = {&k, ks_meta, ks_event, ks_skip};
    gd_read_opts opts = {0};
    gd_input *in = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_input_open_mem(&in, t.b, t.n, &err), 0);
    ck_assert_int_eq(gd_reader_perfetto.read(in, &sink, &opts, &err), 0);
    gd_input_close(in);
    ck_assert_uint_eq(k.n, 8);
    ck_assert(k.key[0] != 0);
    ck_assert(k.key[1] == k.key[0]); /* the same frames: named once */
    ck_assert_str_eq(k.inner[0], "native:libc.so(read)");
    ck_assert(k.key[2] != 0 && k.key[2] != k.key[0]);
    ck_assert(k.key[3] == k.key[2]);
    ck_assert_str_eq(k.inner[2], "native:libc.so(pc 10)");
    ck_assert(k.key[4] == k.key[0]); /* named nothing missing: kept */
    ck_assert(k.key[5] != k.key[2]); /* named function 9, missing then */
    ck_assert_str_eq(k.inner[5], "native:libc.so(poll)");
    ck_assert(k.key[6] != k.key[0]); /* function 1 replaced */
    ck_assert_str_eq(k.inner[6], "native:libc.so(write)");
    ck_assert(k.key[7] == k.key[6]);
    free(t.b);
}
END_TEST

START_TEST(nothing_usable_and_bad_input)
{
    pb t = {0}, pk = {0}, cfg = {0};
    u(&cfg, 1, 1);
    msg(&pk, 33, &cfg);
    packet(&t, &pk);
    gd_collected c;
    gd_test_read_mem(&gd_reader_perfetto, t.b, t.n, NULL, &c);
    /* read as empty, counted: the ingest's nothing-usable rule decides */
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(json_array_size(c.events), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "perfetto: no app slices, thread states, stack samples or log lines"), 1);
    gd_collected_free(&c);
    free(t.b);

    /* a group wire type at the top: not a trace */
    static const unsigned char junk[] = {0x0b, 0x01, 0x02};
    gd_test_read_mem(&gd_reader_perfetto, junk, sizeof junk, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_msg(strstr(c.err.msg, "bad field key") != NULL, "%s", c.err.msg);
    gd_collected_free(&c);

    /* an empty first packet is a packet with nothing in it */
    static const unsigned char empty[] = {0x0a, 0x00};
    gd_test_read_mem(&gd_reader_perfetto, empty, sizeof empty, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(json_array_size(c.events), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "perfetto: no app slices, thread states, stack samples or log lines"), 1);
    gd_collected_free(&c);

    /* a malformed packet body is skipped, counted */
    static const unsigned char bad[] = {0x0a, 0x02, 0x0a, 0x05};
    gd_test_read_mem(&gd_reader_perfetto, bad, sizeof bad, NULL, &c);
    ck_assert_int_eq(gd_collected_skips(&c, "perfetto: malformed trace packet"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(probe_scores)
{
    pb t = {0};
    build_ftrace(&t);
    ck_assert_int_ge(gd_reader_perfetto.probe(t.b, t.n, 1), 90);
    ck_assert_int_eq(gd_reader_perfetto.probe((const unsigned char *)"\nhello world\n", 13, 1), 0);
    ck_assert_int_eq(gd_reader_perfetto.probe((const unsigned char *)"{\"a\":1}", 7, 1), 0);
    ck_assert_int_eq(gd_reader_perfetto.probe(t.b, 1, 0), 0);
    free(t.b);
}
END_TEST

START_TEST(corpus_jsbridge)
{
    const char *p = gd_test_corpus("perfetto_proto/lumenvestige_rnjsbridge_trace_file.perfetto-trace");
    if (!p)
        return;
    gd_collected c;
    gd_test_read_file(&gd_reader_perfetto, p, NULL, &c);
    ck_assert_msg(c.rc == 0, "rc %d: %s", c.rc, c.err.msg);
    /* tests/perfetto/pfwalk.py: 5139 paired + 3 open slices, 16 top-level on
     * the main thread of com.sanyinchen.jsbridge (pid 16951); + the
     * processes its process tree names (a process event each) */
    ck_assert_uint_eq(json_array_size(c.events) - gd_collected_count(&c, "process"), 5142);
    ck_assert_uint_eq(gd_collected_count(&c, "process"), 1); /* pfwalk.py: process_names 1 */
    ck_assert_uint_eq(gd_collected_count(&c, "dispatch"), 16);
    json_t *meta = json_array_get(c.metas, 0);
    ck_assert_str_eq(jstr(meta, "app"), "com.sanyinchen.jsbridge");
    ck_assert_int_eq(jint(meta, "pid"), 16951);
    gd_collected_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("perfetto");
    TCase *tc = tcase_create("perfetto");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, ftrace_markers);
    tcase_add_test(tc, track_events);
    tcase_add_test(tc, thread_full_name);
    tcase_add_test(tc, clocks);
    tcase_add_test(tc, frame_timeline_and_compressed);
    tcase_add_test(tc, perf_samples);
    tcase_add_test(tc, callstack_named_once);
    tcase_add_test(tc, nothing_usable_and_bad_input);
    tcase_add_test(tc, probe_scores);
    tcase_add_test(tc, corpus_jsbridge);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
