/* check_blocks.c - pairing, key frame, group and CPU busy rules. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/blocks.h"
#include "reader/procstat.h"

/* Feeds (phase, ts) pairs to one thread's pairing; collects dispatches. */
static int feed_all(gd_pair *p, const int *phases, const double *ts, int n, gd_paired *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        gd_phase ph = gd_pair_phase(p, (gd_phase)phases[i], NULL);
        if (gd_pair_feed(p, ph, ts[i], GD_NONE, i, &out[k]))
            k++;
    }
    return k;
}

START_TEST(pair_simple_and_thread_time)
{
    gd_pair p;
    gd_paired d;
    gd_pair_init(&p);
    ck_assert_int_eq(gd_pair_feed(&p, GD_PHASE_BEGIN, 1000.0, 50.0, 7, &d), 0);
    ck_assert_int_eq(gd_pair_feed(&p, GD_PHASE_END, 1812.5, 840.0, -1, &d), 1);
    ck_assert_double_eq(d.start, 1000.0);
    ck_assert_double_eq(d.end, 1812.5);
    ck_assert_double_eq(d.thread_ms, 790.0);
    ck_assert_int_eq(d.msg, 7);
    ck_assert_int_eq(d.unfinished, 0);
    ck_assert_int_eq(p.depth, 0);
}
END_TEST

START_TEST(pair_nested_closes_innermost_first)
{
    gd_pair p;
    gd_paired d[4];
    gd_pair_init(&p);
    int ph[] = {GD_PHASE_BEGIN, GD_PHASE_BEGIN, GD_PHASE_END, GD_PHASE_END};
    double ts[] = {200, 250, 400, 900};
    ck_assert_int_eq(feed_all(&p, ph, ts, 4, d), 2);
    ck_assert_double_eq(d[0].start, 250);
    ck_assert_double_eq(d[0].end, 400);
    ck_assert_int_eq(d[0].msg, 1);
    ck_assert_double_eq(d[1].start, 200);
    ck_assert_double_eq(d[1].end, 900);
    ck_assert_int_eq(d[1].msg, 0);
}
END_TEST

START_TEST(pair_end_without_begin_counted)
{
    gd_pair p;
    gd_paired d[4];
    gd_pair_init(&p);
    int ph[] = {GD_PHASE_END, GD_PHASE_BEGIN, GD_PHASE_END, GD_PHASE_END};
    double ts[] = {10, 20, 30, 40};
    ck_assert_int_eq(feed_all(&p, ph, ts, 4, d), 1);
    ck_assert_int_eq(p.ends_without_begin, 2);
    ck_assert_double_eq(d[0].start, 20);
    ck_assert_double_eq(d[0].end, 30);
}
END_TEST

START_TEST(pair_unfinished_at_capture_end)
{
    gd_pair p;
    gd_paired d;
    gd_pair_init(&p);
    gd_pair_feed(&p, GD_PHASE_BEGIN, 3000, 12, 4, &d);
    ck_assert_int_eq(gd_pair_finish(&p, 9000, &d), 1);
    ck_assert_double_eq(d.start, 3000);
    ck_assert_double_eq(d.end, 9000);
    ck_assert(isnan(d.thread_ms));
    ck_assert_int_eq(d.unfinished, 1);
    ck_assert_int_eq(gd_pair_finish(&p, 9000, &d), 0);
}
END_TEST

START_TEST(pair_phase_inference)
{
    gd_pair p;
    gd_paired d;
    gd_pair_init(&p);
    ck_assert_int_eq(gd_pair_phase(&p, GD_PHASE_UNKNOWN, ">>>>> Dispatching to Handler (x) {1} null: 0"),
                     GD_PHASE_BEGIN);
    ck_assert_int_eq(gd_pair_phase(&p, GD_PHASE_UNKNOWN, "<<<<< Finished to Handler (x) {1} null"),
                     GD_PHASE_END);
    /* explicit phase wins over the prefix */
    ck_assert_int_eq(gd_pair_phase(&p, GD_PHASE_END, ">>>>> Dispatching"), GD_PHASE_END);
    /* no prefix: alternate as the Printer does */
    ck_assert_int_eq(gd_pair_phase(&p, GD_PHASE_UNKNOWN, "x"), GD_PHASE_BEGIN);
    gd_pair_feed(&p, GD_PHASE_BEGIN, 1, GD_NONE, -1, &d);
    ck_assert_int_eq(gd_pair_phase(&p, GD_PHASE_UNKNOWN, NULL), GD_PHASE_END);
}
END_TEST

START_TEST(pair_runaway_nesting_bounded)
{
    gd_pair p;
    gd_paired d;
    gd_pair_init(&p);
    for (int i = 0; i < GD_PAIR_MAX_DEPTH + 5; i++)
        gd_pair_feed(&p, GD_PHASE_BEGIN, i, GD_NONE, i, &d);
    ck_assert_int_eq(p.depth, GD_PAIR_MAX_DEPTH);
    ck_assert_int_eq(p.begins_dropped, 5);
    ck_assert_int_eq(gd_pair_feed(&p, GD_PHASE_END, 100, GD_NONE, -1, &d), 1);
    ck_assert_double_eq(d.start, GD_PAIR_MAX_DEPTH + 4);
}
END_TEST

START_TEST(kind_boundaries)
{
    ck_assert_int_eq(gd_block_kind_of(99.999, 100, 500, 5000), GD_KIND_NONE);
    ck_assert_int_eq(gd_block_kind_of(100, 100, 500, 5000), GD_KIND_SHORT);
    ck_assert_int_eq(gd_block_kind_of(500, 100, 500, 5000), GD_KIND_LONG);
    ck_assert_int_eq(gd_block_kind_of(4999.9, 100, 500, 5000), GD_KIND_LONG);
    ck_assert_int_eq(gd_block_kind_of(5000, 100, 500, 5000), GD_KIND_ANR);
    ck_assert_str_eq(gd_block_kind_name(GD_KIND_ANR), "anr");
    ck_assert_int_eq(gd_block_kind_parse("long"), GD_KIND_LONG);
    ck_assert_int_eq(gd_block_kind_parse("huge"), GD_KIND_NONE);
}
END_TEST

START_TEST(thresholds_default_when_absent)
{
    gd_thresholds t = gd_thresholds_resolve(NAN, NAN, NAN);
    ck_assert_double_eq(t.short_ms, 100);
    ck_assert_double_eq(t.long_ms, 500);
    ck_assert_double_eq(t.anr_ms, 5000);
    t = gd_thresholds_resolve(50, 700, NAN);
    ck_assert_double_eq(t.short_ms, 50);
    ck_assert_double_eq(t.long_ms, 700);
    ck_assert_double_eq(t.anr_ms, 5000);
}
END_TEST

START_TEST(looper_printer_lines)
{
    ck_assert_int_eq(gd_looper_prefix(">>>>> Dispatching to x"), GD_PHASE_BEGIN);
    ck_assert_int_eq(gd_looper_prefix("<<<<< Finished to x"), GD_PHASE_END);
    ck_assert_int_eq(gd_looper_prefix(">>>>"), GD_PHASE_UNKNOWN);
    const char *b = ">>>>> Dispatching to Handler (android.app.ActivityThread$H) {3c1e5f0} null: 159";
    ck_assert_int_eq(gd_looper_line(b, strlen(b)), GD_PHASE_BEGIN);
    ck_assert_int_eq(gd_looper_line(b, 12), GD_PHASE_UNKNOWN); /* cut before the words */
    ck_assert_int_eq(gd_looper_line("<<<<< Finished to Handler (a.B) {1} null", 40), GD_PHASE_END);
    ck_assert_int_eq(gd_looper_line(">>>>> Drained", 13), GD_PHASE_UNKNOWN);
    char h[64], c[64], w[64];
    gd_looper_msg_parse(b, h, c, w, sizeof h);
    ck_assert_str_eq(h, "android.app.ActivityThread$H");
    ck_assert_str_eq(c, ""); /* "null" */
    ck_assert_str_eq(w, "159");
    gd_looper_msg_parse(">>>>> Dispatching to Handler (android.view.Choreographer$FrameHandler) {9f}"
                        " android.view.Choreographer$FrameDisplayEventReceiver@9f8e7d6: 0",
                        h, c, w, sizeof h);
    ck_assert_str_eq(h, "android.view.Choreographer$FrameHandler");
    ck_assert_str_eq(c, "android.view.Choreographer$FrameDisplayEventReceiver@9f8e7d6");
    ck_assert_str_eq(w, "0");
    gd_looper_msg_parse("no printer words", h, c, w, sizeof h);
    ck_assert_str_eq(h, "");
    ck_assert_str_eq(c, "");
}
END_TEST

static const char *const concern[] = {"com.example.shop"};

START_TEST(key_frame_most_samples)
{
    const char *s1[] = {"java.lang.Thread.sleep(Native Method)",
                        "com.example.shop.feed.FeedAdapter.bind(FeedAdapter.java:88)",
                        "com.example.shop.feed.FeedAdapter.onBind(FeedAdapter.java:60)",
                        "android.os.Handler.dispatchMessage(Handler.java:106)"};
    const char *s2[] = {"com.example.shop.img.Decoder.decode(Decoder.java:12)",
                        "com.example.shop.feed.FeedAdapter.onBind(FeedAdapter.java:60)",
                        "android.os.Handler.dispatchMessage(Handler.java:106)"};
    gd_sample_frames s[] = {{s1, 4}, {s2, 3}};
    /* onBind:60 is in both samples */
    ck_assert_str_eq(gd_key_frame(s, 2, concern, 1),
                     "com.example.shop.feed.FeedAdapter.onBind(FeedAdapter.java:60)");
}
END_TEST

START_TEST(key_frame_tie_goes_innermost)
{
    const char *s1[] = {"com.example.shop.A.inner(A.java:1)", "com.example.shop.A.outer(A.java:2)"};
    gd_sample_frames s[] = {{s1, 2}};
    ck_assert_str_eq(gd_key_frame(s, 1, concern, 1), "com.example.shop.A.inner(A.java:1)");
    /* the inner frame of one sample ties with a frame that is innermost elsewhere */
    const char *a[] = {"com.example.shop.X.x(X.java:1)", "com.example.shop.Y.y(Y.java:1)"};
    const char *b[] = {"com.example.shop.Z.z(Z.java:1)", "com.example.shop.Y.y(Y.java:1)"};
    gd_sample_frames t[] = {{a, 2}, {b, 2}};
    /* Y is in both: it wins on count even though it is outer */
    ck_assert_str_eq(gd_key_frame(t, 2, concern, 1), "com.example.shop.Y.y(Y.java:1)");
}
END_TEST

START_TEST(key_frame_recursion_counts_once_per_sample)
{
    const char *a[] = {"com.example.shop.R.f(R.java:3)", "com.example.shop.R.f(R.java:3)",
                       "com.example.shop.R.f(R.java:3)", "com.example.shop.M.main(M.java:9)"};
    const char *b[] = {"com.example.shop.Q.g(Q.java:4)", "com.example.shop.M.main(M.java:9)"};
    const char *c[] = {"com.example.shop.Q.g(Q.java:4)", "com.example.shop.M.main(M.java:9)"};
    gd_sample_frames s[] = {{a, 4}, {b, 2}, {c, 2}};
    /* M.main is in all three */
    ck_assert_str_eq(gd_key_frame(s, 3, concern, 1), "com.example.shop.M.main(M.java:9)");
    gd_sample_frames t[] = {{a, 3}, {b, 1}, {c, 1}};
    /* R.f: 1 sample despite 3 occurrences; Q.g: 2 samples */
    ck_assert_str_eq(gd_key_frame(t, 3, concern, 1), "com.example.shop.Q.g(Q.java:4)");
}
END_TEST

START_TEST(key_frame_without_app_frames)
{
    const char *a[] = {"java.lang.Object.wait(Native Method)",
                       "com.squareup.okhttp.Call.execute(Call.java:200)",
                       "android.os.Handler.dispatchMessage(Handler.java:106)"};
    gd_sample_frames s[] = {{a, 3}};
    ck_assert_str_eq(gd_key_frame(s, 1, concern, 1), "com.squareup.okhttp.Call.execute(Call.java:200)");
    const char *b[] = {"java.lang.Object.wait(Native Method)",
                       "android.os.Handler.dispatchMessage(Handler.java:106)"};
    gd_sample_frames t[] = {{b, 2}};
    /* nothing but framework frames: no key frame */
    ck_assert_ptr_null(gd_key_frame(t, 1, concern, 1));
    ck_assert_ptr_null(gd_key_frame(t, 0, concern, 1));
    /* no concern packages at all: non-framework rule */
    ck_assert_str_eq(gd_key_frame(s, 1, NULL, 0), "com.squareup.okhttp.Call.execute(Call.java:200)");
}
END_TEST

/* A profiler's samples (Perfetto, simpleperf) carry the process's outer
 * native frames in every sample: they are no app frame, so the key frame
 * is the app frame of the one sample that has one (before: the innermost
 * native frame held by every sample, libart's invoke stub), and a block of
 * native and framework frames alone has none (before: app_process64's
 * main, a key frame every such block of every app shared). */
START_TEST(key_frame_not_native)
{
    const char *a[] = {"native:libart.so(art_quick_invoke_stub+548)", "android.os.Looper.loop",
                       "native:libart.so(art_quick_invoke_static_stub+640)", "com.android.internal.os.ZygoteInit.main",
                       "native:app_process64(main+1336)"};
    const char *b[] = {"com.other.sdk.Tracker.flush", "native:libart.so(art_quick_invoke_stub+548)",
                       "android.os.Looper.loop", "native:libart.so(art_quick_invoke_static_stub+640)",
                       "com.android.internal.os.ZygoteInit.main", "native:app_process64(main+1336)"};
    gd_sample_frames s[] = {{a, 5}, {a, 5}, {b, 6}};
    ck_assert_str_eq(gd_key_frame(s, 3, concern, 1), "com.other.sdk.Tracker.flush");
    ck_assert_str_eq(gd_key_frame(s, 3, NULL, 0), "com.other.sdk.Tracker.flush");
    ck_assert_ptr_null(gd_key_frame(s, 2, concern, 1));
    ck_assert_int_eq(gd_frame_is_app("native:libapp.so(Java_com_example_shop_Native_run+12)"), 0);
    ck_assert_int_eq(gd_frame_is_app("com.example.shop.Native.run(Native Method)"), 1);
}
END_TEST

/* the rule written out plainly (quadratic), as the reference */
static const char *key_frame_reference(const gd_sample_frames *s, size_t ns, int concern_only)
{
    const char *best = NULL;
    size_t best_count = 0, best_idx = 0;
    for (size_t i = 0; i < ns; i++)
        for (size_t j = 0; j < s[i].n; j++) {
            const char *f = s[i].frames[j];
            int ok = concern_only ? strncmp(f, "com.example.shop", 16) == 0
                                  : !gd_frame_is_framework(f) && strncmp(f, "native:", 7) != 0;
            if (!ok)
                continue;
            size_t count = 0, idx = (size_t)-1;
            for (size_t a = 0; a < ns; a++)
                for (size_t b = 0; b < s[a].n; b++)
                    if (strcmp(s[a].frames[b], f) == 0) {
                        count++;
                        if (b < idx)
                            idx = b;
                        break;
                    }
            if (!best || count > best_count ||
                (count == best_count && (idx < best_idx || (idx == best_idx && strcmp(f, best) < 0)))) {
                best = f;
                best_count = count;
                best_idx = idx;
            }
        }
    return best;
}

START_TEST(key_frame_matches_the_plain_rule)
{
    static const char *const pool[] = {
        "com.example.shop.A.a(A.java:1)", "com.example.shop.A.a(A.java:2)", "com.example.shop.B.b(B.java:3)",
        "com.other.C.c(C.java:4)",        "com.other.D.d(D.java:5)",        "android.os.Looper.loop(Looper.java:1)",
        "java.lang.Thread.run(Thread.java:9)", "native:libc.so(__libc_start_main+64)"};
    const size_t npool = sizeof pool / sizeof pool[0];
    unsigned seed = 12345;
    for (int round = 0; round < 2000; round++) {
        const char *frames[8][6];
        gd_sample_frames s[8];
        size_t ns = (size_t)(rand_r(&seed) % 8);
        for (size_t i = 0; i < ns; i++) {
            s[i].n = (size_t)(rand_r(&seed) % 6);
            for (size_t j = 0; j < s[i].n; j++)
                frames[i][j] = pool[rand_r(&seed) % npool];
            s[i].frames = frames[i];
        }
        const char *want = key_frame_reference(s, ns, 1);
        if (!want)
            want = key_frame_reference(s, ns, 0);
        const char *got = gd_key_frame(s, ns, concern, 1);
        ck_assert_msg((want == NULL) == (got == NULL) && (!want || strcmp(want, got) == 0),
                      "round %d: got %s, want %s", round, got ? got : "(none)", want ? want : "(none)");
    }
}
END_TEST

/* 20,000 samples of 21 distinct frames each in one block: the old scan was
 * quadratic (minutes; Check's 4 s timeout fails it); this one is linear. */
START_TEST(key_frame_linear_in_samples)
{
    enum { NS = 20000, NF = 22 };
    char *text = malloc((size_t)NS * NF * 48);
    const char **frames = malloc((size_t)NS * NF * sizeof *frames);
    gd_sample_frames *s = malloc(NS * sizeof *s);
    ck_assert(text && frames && s);
    for (size_t i = 0; i < NS; i++) {
        for (size_t j = 0; j < NF; j++) {
            char *t = text + (i * NF + j) * 48;
            if (j == NF - 1)
                snprintf(t, 48, "com.example.shop.Main.run(Main.java:%zu)", i % 2 ? (size_t)1 : (size_t)2);
            else
                snprintf(t, 48, "com.example.shop.F%zu.f(F.java:%zu)", j, i);
            frames[i * NF + j] = t;
        }
        s[i].frames = frames + i * NF;
        s[i].n = NF;
    }
    /* Main.run:1 and :2 are in 10,000 samples each; :1 wins on the string */
    ck_assert_str_eq(gd_key_frame(s, NS, concern, 1), "com.example.shop.Main.run(Main.java:1)");
    free(text);
    free(frames);
    free(s);
}
END_TEST

START_TEST(group_strips_line_number)
{
    char buf[256];
    ck_assert_str_eq(gd_group_of("a.B.c(B.java:88)", buf, sizeof buf), "a.B.c(B.java)");
    ck_assert_str_eq(gd_group_of("a.B$1.<init>(B.java:7)", buf, sizeof buf), "a.B$1.<init>(B.java)");
    ck_assert_str_eq(gd_group_of("java.lang.Thread.sleep(Native Method)", buf, sizeof buf),
                     "java.lang.Thread.sleep(Native Method)");
    ck_assert_str_eq(gd_group_of("a.B.c(Unknown Source)", buf, sizeof buf), "a.B.c(Unknown Source)");
    ck_assert_str_eq(gd_group_of("weird:12", buf, sizeof buf), "weird:12");
}
END_TEST

/* godeye-blocks(1), GROUPS: one case per fallback rule */
START_TEST(group_fallback_handler)
{
    char buf[512];
    /* the Looper Printer's begin print: handler and callback class, no @hash */
    ck_assert_int_eq(gd_group_fallback(">>>>> Dispatching to Handler (android.os.Handler) {1c5c7fd} "
                                       "com.example.shop.cart.CartActivity$1@8a1a329: 0",
                                       buf, sizeof buf),
                     GD_GROUP_HANDLER);
    ck_assert_str_eq(buf, "h=android.os.Handler c=com.example.shop.cart.CartActivity$1");
    /* Android's Slow dispatch line: the same form */
    ck_assert_int_eq(gd_group_fallback("Slow dispatch took 135ms main h=android.app.ActivityThread$H "
                                       "c=android.app.LoadedApk$ServiceDispatcher$RunConnection@ce66029 m=0",
                                       buf, sizeof buf),
                     GD_GROUP_HANDLER);
    ck_assert_str_eq(buf, "h=android.app.ActivityThread$H c=android.app.LoadedApk$ServiceDispatcher$RunConnection");
    /* no callback: the what code names the message */
    ck_assert_int_eq(gd_group_fallback("Slow dispatch took 123ms android.ui "
                                       "h=com.android.server.am.ActivityManagerService$UiHandler c=null m=68",
                                       buf, sizeof buf),
                     GD_GROUP_HANDLER);
    ck_assert_str_eq(buf, "h=com.android.server.am.ActivityManagerService$UiHandler m=68");
    ck_assert_int_eq(gd_group_fallback(">>>>> Dispatching to Handler (com.example.SyncHandler) {b2} null: 7",
                                       buf, sizeof buf),
                     GD_GROUP_HANDLER);
    ck_assert_str_eq(buf, "h=com.example.SyncHandler m=7");
    /* a hash inside the callback's text goes too */
    gd_group_fallback(">>>>> Dispatching to Handler (android.os.Handler) {a1} DispatchedContinuation[Dispatchers.Main, "
                      "Continuation at a.B$c$1@9c6a8fc]: 0",
                      buf, sizeof buf);
    ck_assert_str_eq(buf, "h=android.os.Handler c=DispatchedContinuation[Dispatchers.Main, Continuation at a.B$c$1]");
}
END_TEST

START_TEST(group_fallback_slice_and_none)
{
    char buf[512];
    ck_assert_int_eq(gd_group_fallback("DrawFrame 123", buf, sizeof buf), GD_GROUP_SLICE);
    ck_assert_str_eq(buf, "DrawFrame");
    ck_assert_int_eq(gd_group_fallback("Choreographer#doFrame 1234567", buf, sizeof buf), GD_GROUP_SLICE);
    ck_assert_str_eq(buf, "Choreographer#doFrame");
    ck_assert_int_eq(gd_group_fallback("Slow Looper main: doFrame is 351ms late", buf, sizeof buf), GD_GROUP_SLICE);
    ck_assert_str_eq(buf, "Slow Looper main: doFrame is late");
    /* words with letters stay: a hex-looking word without digits, a name with digits inside */
    gd_group_fallback("RV OnBindView face 0x1f 7f3a", buf, sizeof buf);
    ck_assert_str_eq(buf, "RV OnBindView face");
    gd_group_fallback("inflate2 Activity#onCreate", buf, sizeof buf);
    ck_assert_str_eq(buf, "inflate2 Activity#onCreate");
    /* godeye-blocks(1) GROUPS' examples: a sign, @ and 0x in front, a unit and punctuation after */
    gd_group_fallback("sync +5 -5 @1a2b 0xff3 #12 35ms, v2 face", buf, sizeof buf);
    ck_assert_str_eq(buf, "sync v2 face");
    ck_assert_int_eq(gd_group_fallback("12345 678", buf, sizeof buf), GD_GROUP_NONE);
    ck_assert_str_eq(buf, "");
    ck_assert_int_eq(gd_group_fallback(NULL, buf, sizeof buf), GD_GROUP_NONE);
    ck_assert_int_eq(gd_group_fallback("", buf, sizeof buf), GD_GROUP_NONE);
    ck_assert_ptr_null(gd_group_rule_name(GD_GROUP_NONE));
    ck_assert_str_eq(gd_group_rule_name(GD_GROUP_SLICE), "slice");
}
END_TEST

static gd_cpu_point raw(double ts, uint64_t busy, uint64_t total)
{
    gd_cpu_point p = {ts, 1, busy, total, GD_NONE};
    return p;
}

START_TEST(cpu_busy_from_deltas)
{
    gd_cpu_point pts[] = {raw(210, 200, 1000), raw(890, 800, 1700)};
    /* 600 / 700 = 0.857 */
    ck_assert_int_eq(gd_cpu_busy_of(pts, 2, 200, 900, 300), 1);
    gd_cpu_point low[] = {raw(1200, 805, 1785), raw(1250, 815, 1885)};
    /* 10 / 100 */
    ck_assert_int_eq(gd_cpu_busy_of(low, 2, 1000, 1500, 300), 0);
    /* exactly 80 % is busy */
    gd_cpu_point edge[] = {raw(10, 0, 0), raw(20, 80, 100)};
    ck_assert_int_eq(gd_cpu_busy_of(edge, 2, 0, 30, 300), 1);
}
END_TEST

START_TEST(cpu_busy_from_ratios)
{
    /* the first sample's ratio covers time before it: not counted */
    gd_cpu_point pts[] = {{100, 0, 0, 0, 0.1}, {200, 0, 0, 0, 0.9}, {300, 0, 0, 0, 0.8}};
    ck_assert_int_eq(gd_cpu_busy_of(pts, 3, 50, 350, 300), 1); /* (0.9 + 0.8) / 2 */
    /* time-weighted: 100 ms at 0.95, 300 ms at 0.75 -> 0.8 */
    gd_cpu_point w[] = {{0, 0, 0, 0, 0.0}, {100, 0, 0, 0, 0.95}, {400, 0, 0, 0, 0.75}};
    ck_assert_int_eq(gd_cpu_busy_of(w, 3, 0, 400, 300), 1);
    gd_cpu_point q[] = {{100, 0, 0, 0, 0.99}, {200, 0, 0, 0, 0.75}};
    ck_assert_int_eq(gd_cpu_busy_of(q, 2, 50, 250, 300), 0);
}
END_TEST

START_TEST(cpu_busy_starved_sampler)
{
    /* one sample inside; block longer than the interval; samples around the
     * start 450 ms apart > 1.2 x 300 */
    gd_cpu_point pts[] = {raw(2750, 1600, 2800), raw(3200, 1750, 3000)};
    ck_assert_int_eq(gd_cpu_busy_of(pts, 2, 3000, 9000, 300), 1);
    /* 350 ms apart: the rule applies and finds no gap -> not busy (the
     * spec's clarification: false, not unknown) */
    gd_cpu_point q[] = {raw(2800, 1600, 2800), raw(3150, 1750, 3000)};
    ck_assert_int_eq(gd_cpu_busy_of(q, 2, 3000, 9000, 300), 0);
    /* one sample near the start, none inside: the sampler ran, no gap -> 0 */
    ck_assert_int_eq(gd_cpu_busy_of(q, 1, 3000, 9000, 300), 0);
    /* no sample within ±interval of the start: nothing to judge -> unknown */
    gd_cpu_point far[] = {raw(2000, 1600, 2800)};
    ck_assert_int_eq(gd_cpu_busy_of(far, 1, 3000, 9000, 300), -1);
    /* block shorter than the interval: unknown */
    ck_assert_int_eq(gd_cpu_busy_of(pts, 2, 3000, 3250, 300), -1);
    /* no interval known: the second rule is off */
    ck_assert_int_eq(gd_cpu_busy_of(pts, 2, 3000, 9000, NAN), -1);
    ck_assert_int_eq(gd_cpu_busy_of(NULL, 0, 0, 100, 300), -1);
    ck_assert_int_eq(gd_cpu_busy_of(NULL, 0, 0, 1000, 300), -1);
}
END_TEST

START_TEST(cpu_busy_two_inside_without_utilisation)
{
    /* two samples inside whose totals did not grow: the first rule cannot
     * tell and the gap rule (fewer than two inside) does not apply, even
     * with a starved-looking gap at the start -> unknown */
    gd_cpu_point pts[] = {raw(2750, 1000, 2000), raw(3200, 1000, 2000), raw(3250, 1000, 2000)};
    ck_assert_int_eq(gd_cpu_busy_of(pts, 3, 3000, 9000, 300), -1);
    /* ratio samples without ratios: the same */
    gd_cpu_point q[] = {{2750, 0, 0, 0, NAN}, {3200, 0, 0, 0, NAN}, {3250, 0, 0, 0, NAN}};
    ck_assert_int_eq(gd_cpu_busy_of(q, 3, 3000, 9000, 300), -1);
}
END_TEST

START_TEST(procstat_comm_with_spaces_and_parens)
{
    gd_cpu_counters c = {0};
    int64_t pid = 0;
    char comm[64];
    ck_assert_int_eq(gd_procstat_parse_pid_stat(
                         "3238 (d.godeye (x) y) S 1189 1189 0 0 -1 1077952832 20000 0 0 0 "
                         "411 98 7 3 20 0 24 0 123 0 0",
                         &c, &pid, comm, sizeof comm),
                     0);
    ck_assert_int_eq(pid, 3238);
    ck_assert_str_eq(comm, "d.godeye (x) y");
    ck_assert_int_eq(c.utime, 411);
    ck_assert_int_eq(c.stime, 98);
    ck_assert_int_eq(c.cutime, 7);
    ck_assert_int_eq(c.cstime, 3);
    ck_assert_int_eq(gd_cpu_app(&c), 519);
    ck_assert_int_eq(gd_procstat_parse_pid_stat("12 (x) S 1 2", &c, NULL, NULL, 0), -1);
    ck_assert_int_eq(gd_procstat_parse_pid_stat("no parens here", &c, NULL, NULL, 0), -1);
}
END_TEST

START_TEST(procstat_stat_line)
{
    gd_cpu_counters c = {0};
    ck_assert_int_eq(gd_procstat_parse_stat("cpu  4473 1068 4565 21155 559 0 29 0 0 0", &c), 0);
    ck_assert_int_eq(gd_cpu_total(&c), 4473 + 1068 + 4565 + 21155 + 559 + 0 + 29);
    ck_assert_int_eq(gd_cpu_busy(&c), 4473 + 1068 + 4565 + 29);
    ck_assert_int_eq(gd_procstat_parse_stat("cpu0 1 2 3 4", &c), -1);
    ck_assert_int_eq(gd_procstat_parse_stat("cpu 1 2", &c), -1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("blocks");
    /* explicit timeouts: Check's default 4 s is too short on a loaded
     * machine or under the sanitizers (key_frame_linear_in_samples takes
     * about 1 s alone) */
    TCase *t = tcase_create("pairing");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, pair_simple_and_thread_time);
    tcase_add_test(t, pair_nested_closes_innermost_first);
    tcase_add_test(t, pair_end_without_begin_counted);
    tcase_add_test(t, pair_unfinished_at_capture_end);
    tcase_add_test(t, pair_phase_inference);
    tcase_add_test(t, pair_runaway_nesting_bounded);
    tcase_add_test(t, kind_boundaries);
    tcase_add_test(t, thresholds_default_when_absent);
    tcase_add_test(t, looper_printer_lines);
    suite_add_tcase(s, t);
    t = tcase_create("key_frame");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, key_frame_most_samples);
    tcase_add_test(t, key_frame_tie_goes_innermost);
    tcase_add_test(t, key_frame_recursion_counts_once_per_sample);
    tcase_add_test(t, key_frame_without_app_frames);
    tcase_add_test(t, key_frame_not_native);
    tcase_add_test(t, key_frame_matches_the_plain_rule);
    tcase_add_test(t, key_frame_linear_in_samples);
    tcase_add_test(t, group_strips_line_number);
    tcase_add_test(t, group_fallback_handler);
    tcase_add_test(t, group_fallback_slice_and_none);
    suite_add_tcase(s, t);
    t = tcase_create("cpu");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, cpu_busy_from_deltas);
    tcase_add_test(t, cpu_busy_from_ratios);
    tcase_add_test(t, cpu_busy_starved_sampler);
    tcase_add_test(t, cpu_busy_two_inside_without_utilisation);
    tcase_add_test(t, procstat_comm_with_spaces_and_parens);
    tcase_add_test(t, procstat_stat_line);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
