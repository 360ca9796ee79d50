/* check_event.c - error records, event kind names, events and meta as
 * capture-format JSON (round trip through the godeye reader). */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "core/skip_reasons.h"
#include "reader/reader.h"

/* #53 item 1: an event's texts are mended once, where they enter; an event
 * whose texts are all UTF-8 is passed as it is (no copy). */
START_TEST(test_event_mend)
{
    gd_mend m = {0};
    gd_event ev;
    gd_event_init(&ev, GD_EV_STACK);
    const char *frames[] = {"a.B.c(B.java:1)", "x\xff\xfe\xc3(y", NULL};
    ev.u.stack.frames = frames;
    ev.u.stack.nframes = 1;
    ev.thread = "main";
    ck_assert_ptr_eq(gd_event_mend(&m, &ev), &ev);
    ev.u.stack.nframes = 2;
    ev.thread = "t\xc3";
    const gd_event *f = gd_event_mend(&m, &ev);
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_ne(f, &ev);
    ck_assert_str_eq(f->thread, "t\xef\xbf\xbd");
    ck_assert_str_eq(f->u.stack.frames[0], "a.B.c(B.java:1)");
    ck_assert_str_eq(f->u.stack.frames[1], "x\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd(y");
    /* the reader's own array and texts are untouched */
    ck_assert_str_eq(frames[1], "x\xff\xfe\xc3(y");
    ck_assert_str_eq(ev.thread, "t\xc3");
    /* a valid multibyte text stays as it is; a cut sequence is mended */
    gd_event_init(&ev, GD_EV_DISPATCH);
    ev.u.dispatch.msg = "caf\xc3\xa9 \xe2\x82\xac";
    ck_assert_ptr_eq(gd_event_mend(&m, &ev), &ev);
    ev.u.dispatch.msg = "caf\xc3";
    f = gd_event_mend(&m, &ev);
    ck_assert_str_eq(f->u.dispatch.msg, "caf\xef\xbf\xbd");
    /* past the first eight-byte words (the ASCII scan's step): a bad byte
     * in the second word, in the tail after the last whole word, a valid
     * character across a word's end, 16 ASCII bytes exactly */
    ev.u.dispatch.msg = "0123456789\xff" "bcdefghij";
    ck_assert_str_eq(gd_event_mend(&m, &ev)->u.dispatch.msg, "0123456789\xef\xbf\xbd" "bcdefghij");
    ev.u.dispatch.msg = "0123456789abcdefgh\xc3";
    ck_assert_str_eq(gd_event_mend(&m, &ev)->u.dispatch.msg, "0123456789abcdefgh\xef\xbf\xbd");
    ev.u.dispatch.msg = "0123456\xc3\xa9" "89abcdef";
    ck_assert_ptr_eq(gd_event_mend(&m, &ev), &ev);
    ev.u.dispatch.msg = "0123456789abcdef";
    ck_assert_ptr_eq(gd_event_mend(&m, &ev), &ev);
    gd_meta meta;
    gd_meta_init(&meta);
    meta.app = "com.x";
    ck_assert_ptr_eq(gd_meta_mend(&m, &meta), &meta);
    meta.device = "\xff";
    const gd_meta *mm = gd_meta_mend(&m, &meta);
    ck_assert_str_eq(mm->device, "\xef\xbf\xbd");
    ck_assert_str_eq(mm->app, "com.x");
    gd_mend_free(&m);
}
END_TEST

START_TEST(test_error_format)
{
    gd_error e;
    char buf[256];
    gd_error_clear(&e);
    ck_assert_int_eq(e.code, GD_OK);
    ck_assert_str_eq(e.msg, "");
    ck_assert_int_eq(gd_error_set(&e, GD_ERR_DATA, 3, 14, "expected %s", "','"), GD_ERR_DATA);
    ck_assert_int_eq(e.code, GD_ERR_DATA);
    /* no source: the message alone, even with a position */
    ck_assert_str_eq(gd_error_format(&e, buf, sizeof buf), "expected ','");
    strcpy(e.source, "trace.json");
    ck_assert_str_eq(gd_error_format(&e, buf, sizeof buf), "'trace.json':3:14: expected ','");
    e.col = 0;
    ck_assert_str_eq(gd_error_format(&e, buf, sizeof buf), "'trace.json':3: expected ','");
    e.line = 0;
    e.col = 7; /* a column without a line is not shown */
    ck_assert_str_eq(gd_error_format(&e, buf, sizeof buf), "'trace.json': expected ','");
    /* truncated to the buffer */
    ck_assert_str_eq(gd_error_format(&e, buf, 8), "'trace.");
    /* set keeps the source, NULL is safe */
    gd_error_set(&e, GD_ERR_IO, 1, 2, "x");
    ck_assert_str_eq(e.source, "trace.json");
    ck_assert_int_eq(gd_error_set(NULL, GD_ERR_USAGE, 0, 0, "ignored"), GD_ERR_USAGE);
    gd_error_clear(NULL);
    /* long messages are cut, not overflowed */
    char big[1000];
    memset(big, 'm', sizeof big - 1);
    big[sizeof big - 1] = 0;
    gd_error_set(&e, GD_ERR_DATA, 0, 0, "%s", big);
    ck_assert_uint_eq(strlen(e.msg), sizeof e.msg - 1);
}
END_TEST

START_TEST(test_kind_names)
{
    static const char *const names[GD_EV__COUNT] = {
        "looper", "dispatch", "stack", "cpu", "memory", "lifecycle", "view_dump",
        "image", "method", "frame", "mark", "frame_summary", "issue", "startup",
        "thread_state", "binder", "log", "process",
    };
    for (int k = 0; k < GD_EV__COUNT; k++) {
        ck_assert_str_eq(gd_event_kind_name((gd_event_kind)k), names[k]);
        ck_assert_int_eq(gd_event_kind_from_name(names[k]), k);
    }
    ck_assert_str_eq(gd_event_kind_name(GD_EV__COUNT), "unknown");
    ck_assert_str_eq(gd_event_kind_name((gd_event_kind)-1), "unknown");
    ck_assert_int_eq(gd_event_kind_from_name("unknown"), -1);
    ck_assert_int_eq(gd_event_kind_from_name("Looper"), -1);
    ck_assert_int_eq(gd_event_kind_from_name(""), -1);
    ck_assert_int_eq(gd_event_kind_from_name(NULL), -1);
}
END_TEST

static void expect_json(json_t *j, const char *want)
{
    ck_assert_ptr_nonnull(j);
    char *got = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(16));
    ck_assert_str_eq(got, want);
    free(got);
    json_decref(j);
}

START_TEST(test_init_is_all_absent)
{
    /* a fresh event of each kind has only its type (and the containers
     * some kinds always carry) */
    static const char *const want[GD_EV__COUNT] = {
        "{\"type\":\"looper\"}",
        "{\"type\":\"dispatch\"}",
        "{\"frames\":[],\"type\":\"stack\"}",
        "{\"type\":\"cpu\"}",
        "{\"type\":\"memory\"}",
        "{\"page\":{},\"type\":\"lifecycle\"}",
        "{\"page\":{},\"type\":\"view_dump\",\"views\":[]}",
        "{\"bitmap\":{\"h\":0,\"w\":0},\"page\":{},\"type\":\"image\",\"view\":{\"h\":0,\"visible\":true,\"w\":0}}",
        "{\"type\":\"method\"}",
        "{\"type\":\"frame\"}",
        "{\"type\":\"mark\"}",
        "{\"figures\":{},\"type\":\"frame_summary\"}",
        "{\"type\":\"issue\"}",
        "{\"type\":\"startup\"}",
        "{\"type\":\"thread_state\"}",
        "{\"type\":\"binder\"}",
        "{\"type\":\"log\"}",
        "{\"type\":\"process\"}",
    };
    for (int k = 0; k < GD_EV__COUNT; k++) {
        gd_event ev;
        gd_event_init(&ev, (gd_event_kind)k);
        ck_assert_int_eq(ev.pid, GD_PID_APP);
        ck_assert_int_eq(ev.tid, GD_TID_MAIN);
        ck_assert(!gd_has(ev.ts));
        expect_json(gd_event_to_json(&ev), want[k]);
    }
    gd_meta m;
    gd_meta_init(&m);
    expect_json(gd_meta_to_json(&m), "{}");
}
END_TEST

START_TEST(test_kinds_outside_the_capture_format)
{
    /* frame_summary, issue, cpu counters and method calls have no reader of
     * the capture format: their JSON is checked field by field */
    gd_event ev;
    static const char *const keys[] = {"Total frames rendered", "Janky frames"};
    static const char *const vals[] = {"120", "7 (5.83%)"};
    gd_event_init(&ev, GD_EV_FRAME_SUMMARY);
    ev.u.frame_summary.window = "com.example/.Main";
    ev.u.frame_summary.keys = keys;
    ev.u.frame_summary.values = vals;
    ev.u.frame_summary.n = 2;
    expect_json(gd_event_to_json(&ev),
                "{\"figures\":{\"Janky frames\":\"7 (5.83%)\",\"Total frames rendered\":\"120\"},"
                "\"type\":\"frame_summary\",\"window\":\"com.example/.Main\"}");

    gd_event_init(&ev, GD_EV_ISSUE);
    ev.ts = 1700000000000.5;
    ev.pid = 42;
    ev.tid = 43;
    ev.thread = "main";
    ev.u.issue.tool = "matrix";
    ev.u.issue.type = "Trace_EvilMethod";
    ev.u.issue.detail = "NORMAL";
    ev.u.issue.cost_ms = 812;
    ev.u.issue.json = "{\"stack\":\"1,2\",\"cost\":812}";
    expect_json(gd_event_to_json(&ev),
                "{\"content\":{\"cost\":812,\"stack\":\"1,2\"},\"cost\":812,\"detail\":\"NORMAL\","
                "\"issue_type\":\"Trace_EvilMethod\",\"pid\":42,\"thread\":\"main\",\"tid\":43,"
                "\"tool\":\"matrix\",\"ts\":1700000000000.5,\"type\":\"issue\"}");
    /* issue JSON that does not parse is left out */
    ev.u.issue.json = "{oops";
    ev.u.issue.detail = NULL;
    ev.u.issue.cost_ms = GD_NONE;
    expect_json(gd_event_to_json(&ev),
                "{\"issue_type\":\"Trace_EvilMethod\",\"pid\":42,\"thread\":\"main\",\"tid\":43,"
                "\"tool\":\"matrix\",\"ts\":1700000000000.5,\"type\":\"issue\"}");

    gd_event_init(&ev, GD_EV_CPU);
    ev.ts = 5;
    ev.u.cpu.raw = (gd_cpu_counters){.user = 1, .nice = 2, .system = 3, .idle = 4, .iowait = 5,
                                     .irq = 6, .softirq = 7, .steal = 8, .has_stat = 1,
                                     .utime = 9, .stime = 10, .cutime = 11, .cstime = 12,
                                     .has_pid_stat = 1};
    expect_json(gd_event_to_json(&ev),
                "{\"pid_counters\":{\"cstime\":12,\"cutime\":11,\"stime\":10,\"utime\":9},"
                "\"stat_counters\":{\"idle\":4,\"iowait\":5,\"irq\":6,\"nice\":2,\"softirq\":7,"
                "\"steal\":8,\"system\":3,\"user\":1},\"ts\":5,\"type\":\"cpu\"}");

    gd_event_init(&ev, GD_EV_METHOD);
    ev.ts = 10;
    ev.u.method.cls = "a.B";
    ev.u.method.method = "run";
    ev.u.method.end_ts = 12.5;
    ev.u.method.depth = 0;
    expect_json(gd_event_to_json(&ev),
                "{\"class\":\"a.B\",\"depth\":0,\"end_ts\":12.5,\"method\":\"run\",\"ts\":10,\"type\":\"method\"}");

    gd_event_init(&ev, GD_EV_FRAME);
    ev.ts = 1;
    ev.u.frame.dur = 33.3;
    ev.u.frame.flags = 1;
    ev.u.frame.vsync_ms = 16.6;
    expect_json(gd_event_to_json(&ev),
                "{\"dur\":33.3,\"flags\":1,\"ts\":1,\"type\":\"frame\",\"vsync_ms\":16.6}");

    /* numbers: integral values as integers, others and huge ones as reals */
    gd_event_init(&ev, GD_EV_MARK);
    ev.ts = 1e300;
    expect_json(gd_event_to_json(&ev), "{\"ts\":1e300,\"type\":\"mark\"}");
    ev.ts = -3;
    expect_json(gd_event_to_json(&ev), "{\"ts\":-3,\"type\":\"mark\"}");
}
END_TEST

START_TEST(test_invalid_utf8)
{
    gd_event ev;
    gd_event_init(&ev, GD_EV_LOOPER);
    ev.ts = 1;
    ev.u.looper.msg = ">>>>> Dispatching \xff to \xc3(bad) \xe2\x82 ok \xc3\xa9 \xed\xa0\x80 \xc0\xaf";
    ev.thread = "\xf5";
    expect_json(gd_event_to_json(&ev),
                "{\"msg\":\">>>>> Dispatching \xef\xbf\xbd to \xef\xbf\xbd(bad) \xef\xbf\xbd\xef\xbf\xbd ok"
                " \xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\","
                "\"thread\":\"\xef\xbf\xbd\",\"ts\":1,\"type\":\"looper\"}");

    /* a bad frame is kept in its place, not dropped */
    static const char *const frames[] = {"a.B.c(B.java:1)", "x\x80y", "d.E.f(E.java:2)"};
    gd_event_init(&ev, GD_EV_STACK);
    ev.ts = 2;
    ev.u.stack.frames = frames;
    ev.u.stack.nframes = 3;
    expect_json(gd_event_to_json(&ev),
                "{\"frames\":[\"a.B.c(B.java:1)\",\"x\xef\xbf\xbdy\",\"d.E.f(E.java:2)\"],"
                "\"ts\":2,\"type\":\"stack\"}");

    static const char *const keys[] = {"k\xfe"};
    static const char *const vals[] = {"v\xff"};
    gd_event_init(&ev, GD_EV_FRAME_SUMMARY);
    ev.u.frame_summary.keys = keys;
    ev.u.frame_summary.values = vals;
    ev.u.frame_summary.n = 1;
    expect_json(gd_event_to_json(&ev),
                "{\"figures\":{\"k\xef\xbf\xbd\":\"v\xef\xbf\xbd\"},\"type\":\"frame_summary\"}");

    gd_meta m;
    gd_meta_init(&m);
    m.app = "com.\xff";
    m.concern[0] = "com.ok";
    m.concern[1] = "com.\xc3";
    m.nconcern = 2;
    expect_json(gd_meta_to_json(&m),
                "{\"app\":\"com.\xef\xbf\xbd\",\"config\":{\"concern_packages\":[\"com.ok\",\"com.\xef\xbf\xbd\"]}}");
}
END_TEST

/* Capture-format events, one per line, every field the reader knows. */
static const char *const capture[] = {
    "{\"type\":\"meta\",\"app\":\"com.example.shop\",\"version_name\":\"1.2\",\"version_code\":12,"
    "\"device\":\"Pixel 7\",\"api_level\":34,\"cpu_cores\":8,\"pid\":3238,\"main_tid\":3238,"
    "\"session\":\"s-1\",\"clk_tck\":100,\"config\":{\"long_block_ms\":500,\"short_block_ms\":100,"
    "\"dump_interval_ms\":52.5,\"sample_delay_ms\":80,\"max_depth\":64,"
    "\"concern_packages\":[\"com.example\",\"com.lib\"]}}",
    "{\"type\":\"looper\",\"ts\":1700000000123.4,\"thread_ts\":5120,\"phase\":\"begin\","
    "\"msg\":\">>>>> Dispatching to Handler (android.view.Choreographer$FrameHandler) {3c2b1a0} null: 0\"}",
    "{\"type\":\"looper\",\"ts\":1700000000200,\"phase\":\"end\",\"tid\":77,\"pid\":3000,\"thread\":\"worker\"}",
    "{\"type\":\"dispatch\",\"ts\":1700000000300,\"dur\":812.5,\"thread_dur\":790,\"msg\":\"m\",\"unfinished\":true}",
    "{\"type\":\"dispatch\",\"ts\":1700000000400,\"dur\":0}",
    "{\"type\":\"stack\",\"ts\":1700000000500,\"tid\":1234,\"thread\":\"main\",\"state\":\"Blocked\","
    "\"frames\":[\"java.lang.Thread.sleep(Native Method)\",\"com.example.A.<init>(A.java:88)\",\"a.B$1.run(B.java:3)\"]}",
    "{\"type\":\"stack\",\"ts\":1700000000501,\"frames\":[]}",
    "{\"type\":\"cpu\",\"ts\":1700000000600,\"total\":0.62,\"app\":0.31,\"user\":0.4,\"sys\":0.2,\"iowait\":0.02}",
    "{\"type\":\"memory\",\"ts\":1700000000700,\"heap\":{\"freeMemKb\":100,\"maxMemKb\":524288,\"allocatedKb\":2048},"
    "\"pss\":{\"totalPssKb\":90000,\"dalvikPssKb\":20000,\"nativePssKb\":30000,\"otherPssKb\":40000},"
    "\"ram\":{\"availMemKb\":1000000,\"totalMemKb\":8000000,\"lowMemThresholdKb\":200000,\"isLowMemory\":false}}",
    "{\"type\":\"memory\",\"ts\":1700000000701,\"ram\":{\"isLowMemory\":true}}",
    "{\"type\":\"lifecycle\",\"ts\":1700000000800,\"end_ts\":1700000000812.5,"
    "\"page\":{\"type\":\"fragment\",\"class\":\"com.example.F\",\"hash\":81234567,\"parent\":7},\"event\":\"ON_ATTACH\"}",
    "{\"type\":\"lifecycle\",\"ts\":1700000000801,\"page\":{\"type\":\"activity\",\"class\":\"com.example.M\",\"hash\":1},"
    "\"event\":\"ON_CREATE\"}",
    "{\"type\":\"view_dump\",\"ts\":1700000000900,\"page\":{\"type\":\"activity\",\"class\":\"com.example.M\",\"hash\":1},"
    "\"screen\":{\"w\":1080,\"h\":2340},\"window\":\"Main\",\"views\":["
    "{\"id\":1,\"parent\":0,\"class\":\"android.widget.FrameLayout\",\"rect\":[0,0,1080,2340],\"layers\":1,"
    "\"visible\":true,\"res_id\":\"content\"},"
    "{\"id\":2,\"parent\":1,\"class\":\"android.widget.TextView\",\"rect\":[-5,10,100,200],\"layers\":0,"
    "\"visible\":false,\"text\":\"hello\"}]}",
    "{\"type\":\"view_dump\",\"ts\":1700000000901,\"page\":{},\"has_paint\":false,\"views\":["
    "{\"id\":1,\"parent\":0,\"rect\":[0,0,10,10],\"visible\":true}]}",
    "{\"type\":\"image\",\"ts\":1700000001000,\"page\":{\"type\":\"activity\",\"class\":\"com.example.M\",\"hash\":1},"
    "\"view\":{\"hash\":4411,\"class\":\"android.widget.ImageView\",\"w\":200,\"h\":200,\"visible\":true},"
    "\"bitmap\":{\"w\":1080,\"h\":1080,\"config\":\"ARGB_8888\"},\"source\":\"src\"}",
    "{\"type\":\"image\",\"ts\":1700000001001,\"page\":{},\"view\":{\"w\":0,\"h\":0,\"visible\":false},"
    "\"bitmap\":{\"w\":1,\"h\":2}}",
    "{\"type\":\"method\",\"ts\":1700000001100,\"tid\":1234,\"phase\":\"enter\",\"class\":\"com/example/feed/FeedAdapter\","
    "\"method\":\"bind\",\"desc\":\"(I)V\"}",
    "{\"type\":\"method\",\"ts\":1700000001101.25,\"tid\":1234,\"phase\":\"exit\",\"class\":\"com/example/feed/FeedAdapter\","
    "\"method\":\"bind\"}",
    "{\"type\":\"frame\",\"ts\":1700000001200,\"dur\":16.7,\"window\":\"Main\"}",
    "{\"type\":\"mark\",\"ts\":1700000001300,\"name\":\"scroll feed \\u00e9\\u4e2d\"}",
    "{\"type\":\"mark\",\"ts\":1.5}",
    "{\"type\":\"startup\",\"ts\":1700000001400,\"app\":\"com.example\",\"activity\":\"com.example.Main\","
    "\"startup_kind\":\"cold\",\"total_ms\":5000,\"wait_ms\":5012.5,\"source\":\"am_start\"}",
    "{\"type\":\"startup\",\"ts\":1700000001500,\"total_ms\":0.5}",
};
#define NCAPTURE (sizeof capture / sizeof capture[0])

START_TEST(test_round_trip_through_the_godeye_reader)
{
    size_t len = 0;
    for (size_t i = 0; i < NCAPTURE; i++)
        len += strlen(capture[i]) + 1;
    char *doc = malloc(len + 1), *p = doc;
    for (size_t i = 0; i < NCAPTURE; i++)
        p += sprintf(p, "%s\n", capture[i]);
    const gd_reader *r = gd_reader_find("godeye");
    ck_assert_ptr_nonnull(r);
    gd_collected c;
    gd_test_read_mem(r, doc, len, NULL, &c);
    ck_assert_msg(c.rc == 0, "read failed: %s", c.err.msg);
    ck_assert_uint_eq(json_object_size(c.skips), 0);
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    ck_assert_uint_eq(json_array_size(c.events), NCAPTURE - 1);
    /* every kind of the capture format is covered */
    for (int k = 0; k < GD_EV__COUNT; k++)
        if (k != GD_EV_FRAME_SUMMARY && k != GD_EV_ISSUE && k != GD_EV_THREAD_STATE &&
            k != GD_EV_BINDER && k != GD_EV_LOG && k != GD_EV_PROCESS)
            ck_assert_uint_ge(gd_collected_count(&c, gd_event_kind_name((gd_event_kind)k)), 1);
    for (size_t i = 0; i < NCAPTURE; i++) {
        json_t *want = json_loads(capture[i], 0, NULL);
        ck_assert_ptr_nonnull(want);
        json_t *got = i == 0 ? json_array_get(c.metas, 0) : json_array_get(c.events, i - 1);
        if (i == 0)
            json_object_del(want, "type");
        if (!json_equal(want, got)) {
            char *a = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS);
            char *b = json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS);
            ck_abort_msg("line %zu:\nwant %s\ngot  %s", i + 1, a, b);
        }
        json_decref(want);
    }
    gd_collected_free(&c);
    free(doc);
}
END_TEST

/* The skip-reason table (#24 item 6): every row has a text and a reader,
 * no text twice, and the texts named elsewhere are rows of it. */
START_TEST(test_skip_reason_table)
{
    ck_assert_int_gt(GD_SR_N, 200);
    for (int i = 0; i < GD_SR_N; i++) {
        ck_assert_msg(gd_skip_reasons[i].text && gd_skip_reasons[i].text[0], "row %d", i);
        ck_assert_msg(gd_skip_reasons[i].readers && gd_skip_reasons[i].readers[0], "row %d", i);
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcmp(gd_skip_reasons[i].text, gd_skip_reasons[j].text) != 0, "%s twice",
                          gd_skip_reasons[i].text);
    }
    ck_assert_str_eq(GD_SKIP(TRUNCATED_INPUT), "truncated input");
    ck_assert_str_eq(GD_SKIP(TEXT_CUT), "text cut at its bound (at a character boundary)");
    ck_assert_str_eq(GD_SKIP(RETRACE_AMBIGUOUS), "retrace: ambiguous");
    ck_assert_str_eq(GD_SKIP(PERFETTO_X), "perfetto: %s");
    ck_assert_str_eq(GD_SKIP(ANR_LINE_OUTSIDE_A_DUMP), "anr: line outside a dump");
    ck_assert_str_eq(gd_skip_reasons[GD_SR_ANR_LINE_OUTSIDE_A_DUMP].readers, "anr");
}
END_TEST

/* gd_event_shift moves every time on the event's clock, nothing else;
 * gd_event_out_of_range judges a frame summary's until as a time */
START_TEST(test_event_shift)
{
    /* kind, its second time, ts and that time before and after +1000 */
    static const struct {
        gd_event_kind kind;
        size_t at;
        double ts, t2, want_ts, want_t2;
    } c[] = {
        {GD_EV_METHOD, offsetof(gd_event, u.method.end_ts), 10, 25, 1010, 1025},
        /* a reader's "time unknown" (0) stays so */
        {GD_EV_FRAME_SUMMARY, offsetof(gd_event, u.frame_summary.until), 0, 40, 0, 1040},
        /* thread CPU time: another clock */
        {GD_EV_LOOPER, offsetof(gd_event, u.looper.thread_ts), 5, 3, 1005, 3},
        /* absent stays absent */
        {GD_EV_BINDER, offsetof(gd_event, u.binder.server_ts), 7, NAN, 1007, NAN},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        gd_event e;
        gd_event_init(&e, c[i].kind);
        double *t2 = (double *)((char *)&e + c[i].at);
        e.ts = c[i].ts;
        *t2 = c[i].t2;
        gd_event_shift(&e, 1000);
        ck_assert_double_eq(e.ts, c[i].want_ts);
        ck_assert(isnan(c[i].want_t2) ? isnan(*t2) : *t2 == c[i].want_t2);
    }
    gd_event f;
    gd_event_init(&f, GD_EV_FRAME_SUMMARY);
    f.ts = 1;
    f.u.frame_summary.until = 1e300;
    ck_assert_str_eq(gd_event_out_of_range(&f), "until");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("event");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_error_format);
    tcase_add_test(tc, test_kind_names);
    tcase_add_test(tc, test_init_is_all_absent);
    tcase_add_test(tc, test_kinds_outside_the_capture_format);
    tcase_add_test(tc, test_invalid_utf8);
    tcase_add_test(tc, test_event_mend);
    tcase_add_test(tc, test_round_trip_through_the_godeye_reader);
    tcase_add_test(tc, test_skip_reason_table);
    tcase_add_test(tc, test_event_shift);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
