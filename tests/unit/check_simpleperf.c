/* check_simpleperf.c - the simpleperf reader: its text forms (report_sample.py, report-sample) and a binary perf.data. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_simpleperf;
#define R (&gd_reader_simpleperf)

static double num(json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }
static const char *sval(json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }
static long long ival(json_t *o, const char *k) { return json_integer_value(json_object_get(o, k)); }
static const char *frame(json_t *e, size_t i)
{
    return json_string_value(json_array_get(json_object_get(e, "frames"), i));
}

START_TEST(test_report_sample_py)
{
    gd_collected c;
    gd_test_read_file(R, GODEYE_FIXTURES "/simpleperf/report_sample.txt", NULL, &c);
    ck_assert_msg(c.rc == 0, "%s", c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 3);
    json_t *m = json_array_get(c.metas, 0);
    ck_assert_str_eq(sval(m, "app"), "com.example.shop");
    ck_assert_str_eq(sval(m, "clock"), "monotonic");
    /* the main thread: the first sample whose tid is its pid */
    int found = 0;
    size_t i;
    json_t *x;
    json_array_foreach(c.metas, i, x)
        if (ival(x, "main_tid") == 4100 && ival(x, "pid") == 4100)
            found = 1;
    ck_assert(found);

    json_t *s = gd_collected_nth(&c, "stack", 0);
    ck_assert_double_eq_tol(num(s, "ts"), 1000250.0, 1e-6);
    ck_assert_int_eq(ival(s, "pid"), 4100);
    ck_assert_int_eq(ival(s, "tid"), 4100);
    ck_assert_str_eq(sval(s, "thread"), "com.example.shop");
    ck_assert_uint_eq(json_array_size(json_object_get(s, "frames")), 6);
    ck_assert_str_eq(frame(s, 0), "native:[kernel.kallsyms](do_page_fault.cfi)");
    ck_assert_str_eq(frame(s, 1), "native:libGLESv2_adreno.so(pc 29c3f0)");
    ck_assert_str_eq(frame(s, 2), "native:libhwui.so(android::uirenderer::RenderProxy::syncAndDrawFrame())");
    ck_assert_str_eq(frame(s, 3), "com.example.shop.FeedAdapter.bind");
    ck_assert_str_eq(frame(s, 4), "android.os.Looper.loop");
    ck_assert_str_eq(frame(s, 5), "java.lang.Thread.run");

    json_t *a = gd_collected_nth(&c, "stack", 1);
    ck_assert_str_eq(sval(a, "thread"), "AsyncTask #1");
    ck_assert_int_eq(ival(a, "tid"), 4123);
    ck_assert_double_eq_tol(num(a, "ts"), 1000250.25, 1e-6);
    ck_assert_str_eq(frame(a, 0), "com.example.shop.Net.fetch");
    ck_assert_str_eq(frame(a, 1), "native:libc.so(__start_thread)");
    ck_assert_uint_eq(json_object_size(c.skips), 0);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_report_sample_cmd)
{
    gd_collected c;
    gd_test_read_file(R, GODEYE_FIXTURES "/simpleperf/report-sample.txt", NULL, &c);
    ck_assert_msg(c.rc == 0, "%s", c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 2);
    json_t *s = gd_collected_nth(&c, "stack", 0);
    ck_assert_double_eq_tol(num(s, "ts"), 1000250.0, 1e-6); /* ns -> ms */
    ck_assert_int_eq(ival(s, "tid"), 4123);
    ck_assert_ptr_null(json_object_get(s, "pid"));
    ck_assert_str_eq(sval(s, "thread"), "AsyncTask #1");
    ck_assert_uint_eq(json_array_size(json_object_get(s, "frames")), 3);
    ck_assert_str_eq(frame(s, 0), "native:libGLESv2_adreno.so(pc 29c3f0)");
    ck_assert_str_eq(frame(s, 1), "com.example.shop.Net.fetch");
    ck_assert_str_eq(frame(s, 2), "native:libc.so(__start_thread)");
    json_t *t = gd_collected_nth(&c, "stack", 1);
    ck_assert_str_eq(frame(t, 0), "android.os.Looper.loop");
    /* main thread by name: the tail of the app's name, as the kernel keeps it */
    int found = 0;
    size_t i;
    json_t *x;
    json_array_foreach(c.metas, i, x) {
        if (ival(x, "main_tid") == 4100)
            found = 1;
        ck_assert_str_eq(sval(x, "app"), "com.example.shop");
    }
    ck_assert(found);
    ck_assert_int_eq(gd_collected_skips(&c, "simpleperf: record other than a sample"), 1);
    gd_collected_free(&c);
}
END_TEST

/* ---- a perf.data built here (the layout of lib/reader/perfdata.c's head
 * comment): header, one attr, records, the FILE and META_INFO features ---- */

typedef gd_tbuf buf; /* testutil.h */
#define put gd_tbuf_put
#define u16 gd_tbuf_u16
#define u32 gd_tbuf_u32
#define u64 gd_tbuf_u64
static void cstr(buf *o, const char *t) { put(o, t, strlen(t) + 1); }
static void pad8(buf *o)
{
    while (o->n % 8)
        o->d[o->n++] = 0;
}

/* a record: type, misc, then the body the caller writes; returns its start */
static size_t rec(buf *o, uint32_t type, uint16_t misc)
{
    size_t at = o->n;
    u32(o, type);
    u16(o, misc);
    u16(o, 0);
    return at;
}
static void rec_end(buf *o, size_t at)
{
    pad8(o);
    uint16_t size = (uint16_t)(o->n - at);
    memcpy(o->d + at + 6, &size, 2);
}

static void mmap2(buf *o, uint32_t pid, uint64_t addr, uint64_t len, const char *file)
{
    size_t at = rec(o, 10, 2);
    u32(o, pid), u32(o, pid), u64(o, addr), u64(o, len), u64(o, 0);
    for (int i = 0; i < 3; i++)
        u64(o, 0); /* maj, min, ino, ino_generation */
    u32(o, 5), u32(o, 2), cstr(o, file);
    rec_end(o, at);
}

static void comm(buf *o, uint32_t pid, uint32_t tid, const char *name)
{
    size_t at = rec(o, 3, 0);
    u32(o, pid), u32(o, tid), cstr(o, name);
    rec_end(o, at);
}

/* sample_type IP|TID|TIME|CALLCHAIN */
static void sample(buf *o, uint32_t pid, uint32_t tid, uint64_t ns, const uint64_t *chain, size_t n)
{
    size_t at = rec(o, 9, 2);
    u64(o, chain[1]), u32(o, pid), u32(o, tid), u64(o, ns), u64(o, n);
    for (size_t i = 0; i < n; i++)
        u64(o, chain[i]);
    rec_end(o, at);
}

/* one FILE entry: path, type, one symbol (none when sym is NULL), then the
 * type's tail */
static void file_entry(buf *o, const char *path, uint32_t type, uint64_t addr, uint32_t len, const char *sym)
{
    size_t at = o->n;
    u32(o, 0);
    cstr(o, path);
    u32(o, type), u64(o, 0), u32(o, sym != NULL);
    if (sym)
        u64(o, addr), u32(o, len), cstr(o, sym);
    if (type == 3)
        u32(o, 1), u64(o, 0); /* dex_file_offsets */
    else
        u64(o, 0); /* file_offset_of_min_vaddr */
    uint32_t size = (uint32_t)(o->n - at - 4);
    memcpy(o->d + at, &size, 4);
}

#define USER ((uint64_t)-512)

/* The whole file; `cut` > 0 writes the data section's size that much larger. */
static size_t perf_data(buf *o, uint64_t cut)
{
    memset(o, 0, sizeof *o);
    put(o, "PERFILE2", 8);
    u64(o, 104), u64(o, 136);
    u64(o, 104), u64(o, 136); /* attrs */
    u64(o, 0), u64(o, 0);     /* data, filled below */
    u64(o, 0), u64(o, 0);     /* event types */
    unsigned char bits[32] = {0};
    bits[128 / 8] |= 1 | 2; /* FILE, META_INFO */
    put(o, bits, 32);
    /* the attr: type, size, config, period, sample_type, read_format, flags */
    size_t a = o->n;
    u32(o, 1), u32(o, 120), u64(o, 0), u64(o, 4000), u64(o, 0x27), u64(o, 0), u64(o, 0);
    while (o->n < a + 120)
        o->d[o->n++] = 0;
    u64(o, 0), u64(o, 0); /* ids */
    size_t d = o->n;
    mmap2(o, 100, 0x1000, 0x1000, "/system/lib64/libfoo.so");
    mmap2(o, 100, 0x4000, 0x1000, "/system/framework/framework.jar");
    mmap2(o, 100, 0x8000, 0x1000, "/apex/com.android.art/lib64/libart.so");
    comm(o, 100, 100, "com.example.app");
    comm(o, 100, 101, "RenderThread");
    /* foo::bar(), ART's invoke stub (hidden: next to a Java frame), a dex
     * method, an address of libfoo without a symbol */
    const uint64_t c1[] = {USER, 0x1010, 0x8010, 0x4020, 0x1100};
    sample(o, 100, 100, 5000000123ULL, c1, 5);
    const uint64_t c2[] = {USER, 0x9999999};
    sample(o, 100, 101, 5001000000ULL, c2, 2);
    size_t at = rec(o, 4, 0); /* EXIT: not used */
    u32(o, 100), u32(o, 100), u32(o, 100), u32(o, 100), u64(o, 0);
    rec_end(o, at);
    uint64_t dsize = o->n - d + cut;
    memcpy(o->d + 40, &(uint64_t){d}, 8);
    memcpy(o->d + 48, &dsize, 8);
    /* the features: two (offset, size), then their bytes */
    size_t desc = o->n;
    for (int i = 0; i < 4; i++)
        u64(o, 0);
    size_t f0 = o->n;
    /* first a file without symbols (fuzz_simpleperf, UBSan: the table was
     * still NULL when its empty run was sorted) */
    file_entry(o, "[vdso]", 2, 0, 0, NULL);
    file_entry(o, "/system/lib64/libfoo.so", 2, 0x0, 0x20, "_ZN3foo3barEv");
    file_entry(o, "/system/framework/framework.jar", 3, 0x0, 0x100, "android.os.Looper.loop");
    file_entry(o, "/apex/com.android.art/lib64/libart.so", 2, 0x0, 0x100, "art_quick_invoke_stub");
    size_t f1 = o->n;
    cstr(o, "app_package_name"), cstr(o, "com.example.app"), cstr(o, "clockid"), cstr(o, "monotonic");
    uint64_t v[4] = {f0, f1 - f0, f1, o->n - f1};
    memcpy(o->d + desc, v, sizeof v);
    return o->n;
}

START_TEST(test_perf_data)
{
    static buf o;
    size_t n = perf_data(&o, 0);
    ck_assert_int_gt(gd_test_probe_mem(R, o.d, n), 0);
    gd_collected c;
    gd_test_read_mem(R, o.d, n, NULL, &c);
    ck_assert_msg(c.rc == 0, "%s", c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 2);
    json_t *m = json_array_get(c.metas, 0);
    ck_assert_str_eq(sval(m, "app"), "com.example.app");
    ck_assert_str_eq(sval(m, "clock"), "monotonic");
    /* the app's main thread, from its COMM record */
    json_t *x = json_array_get(c.metas, json_array_size(c.metas) - 1);
    ck_assert_int_eq(ival(x, "pid"), 100);
    ck_assert_int_eq(ival(x, "main_tid"), 100);

    json_t *s = gd_collected_nth(&c, "stack", 0);
    ck_assert_double_eq_tol(num(s, "ts"), 5000.000123, 1e-9);
    ck_assert_int_eq(ival(s, "pid"), 100);
    ck_assert_int_eq(ival(s, "tid"), 100);
    ck_assert_str_eq(sval(s, "thread"), "com.example.app");
    ck_assert_uint_eq(json_array_size(json_object_get(s, "frames")), 3);
    ck_assert_str_eq(frame(s, 0), "native:libfoo.so(foo::bar())");
    ck_assert_str_eq(frame(s, 1), "android.os.Looper.loop");
    ck_assert_str_eq(frame(s, 2), "native:libfoo.so(pc 100)");

    json_t *t = gd_collected_nth(&c, "stack", 1);
    ck_assert_str_eq(sval(t, "thread"), "RenderThread");
    ck_assert_str_eq(frame(t, 0), "native:[unknown](pc 9999999)");
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: simpleperf: frame outside every mapping, kept as [unknown]"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: simpleperf: binary record not used"), 1);
    gd_collected_free(&c);
}
END_TEST

/* A data section said to run past the file, a record cut short: one error
 * naming the byte, no sample */
START_TEST(test_perf_data_bad)
{
    static buf o;
    size_t n = perf_data(&o, 0);
    gd_collected c;
    gd_test_read_mem(R, o.d, 50, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_str_eq(c.err.msg, "perf.data: the file (50 bytes) is shorter than its header (104 bytes)");
    gd_collected_free(&c);

    n = perf_data(&o, 4096);
    gd_test_read_mem(R, o.d, n, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_ptr_nonnull(strstr(c.err.msg, "is past the end of the file"));
    gd_collected_free(&c);

    /* the first record's size made 4: smaller than its own header */
    n = perf_data(&o, 0);
    uint16_t four = 4;
    memcpy(o.d + 240 + 6, &four, 2);
    gd_test_read_mem(R, o.d, n, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_str_eq(c.err.msg, "perf.data: record smaller than its header at byte 240");
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 0);
    gd_collected_free(&c);

    /* a sample whose call chain claims more entries than its record holds */
    n = perf_data(&o, 0);
    size_t i = 240;
    for (int k = 0; k < 5; k++) { /* 3 mmap2 + 2 comm */
        uint16_t sz;
        memcpy(&sz, o.d + i + 6, 2);
        i += sz;
    }
    uint64_t big = 1000;
    memcpy(o.d + i + 8 + 24, &big, 8); /* after ip, pid/tid, time */
    gd_test_read_mem(R, o.d, n, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_ptr_nonnull(strstr(c.err.msg, "call chain past its record at byte"));
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_odd_lines)
{
    const char *t = "main\t1/1 [000] 5.000001: 1 cpu-clock:\n"
                    "\tnot an address line\n"
                    "\t      abc sym_without_file\n"
                    "\t      abc (weird) name (/system/lib64/libx.so)\n"
                    "\n"
                    "\t      abc orphan (/system/lib64/liby.so)\n"
                    "garbage line\n"
                    "t 9 [000] 6.5: 1 cpu-clock:\n"
                    "\t      abc f (/system/lib64/liby.so)\n";
    gd_collected c;
    gd_test_read_mem(R, t, strlen(t), NULL, &c);
    ck_assert_msg(c.rc == 0, "%s", c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 2);
    json_t *s = gd_collected_nth(&c, "stack", 0);
    ck_assert_uint_eq(json_array_size(json_object_get(s, "frames")), 1);
    ck_assert_str_eq(frame(s, 0), "native:libx.so((weird) name)");
    ck_assert_int_eq(gd_collected_skips(&c, "simpleperf: call chain line unparsable"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "simpleperf: call chain line outside a sample"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "simpleperf: line unparsable"), 1);
    /* "tid" only, no pid */
    json_t *u = gd_collected_nth(&c, "stack", 1);
    ck_assert_int_eq(ival(u, "tid"), 9);
    ck_assert_ptr_null(json_object_get(u, "pid"));
    ck_assert_double_eq_tol(num(u, "ts"), 6500.0, 1e-6);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_probe)
{
    const char *py = "RenderThread\t31850/31881 [001] 684943.449406: 250000 cpu-clock:\n"
                     "\t      74938fb3f0 libGLESv2_adreno.so[+29c3f0] (/vendor/lib64/egl/libGLESv2_adreno.so)\n";
    ck_assert_int_eq(R->probe((const unsigned char *)py, strlen(py), 1), 80);
    const char *rs = "sample:\n  event_type: cpu-clock\n  time: 1\n  thread_id: 2\n";
    ck_assert_int_eq(R->probe((const unsigned char *)rs, strlen(rs), 1), 90);
    /* Linux perf script: no [cpu], a tid only, padded period */
    const char *lx = "firefox  8256 124136.622540:     250000 cpu-clock:\n"
                     "\t    7fff810b2a28 finish_task_switch ([kernel.kallsyms])\n";
    ck_assert_int_eq(R->probe((const unsigned char *)lx, strlen(lx), 1), 80);
    gd_collected c;
    gd_test_read_mem(R, lx, strlen(lx), NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    json_t *e = gd_collected_nth(&c, "stack", 0);
    ck_assert_int_eq(ival(e, "tid"), 8256);
    ck_assert_str_eq(sval(e, "thread"), "firefox");
    ck_assert_double_eq_tol(num(e, "ts"), 124136622.54, 1e-6);
    ck_assert_str_eq(frame(e, 0), "native:[kernel.kallsyms](finish_task_switch)");
    gd_collected_free(&c);
    /* --trace-offcpu output opens with a context switch; a sample whose
     * leaf is the first callchain entry */
    const char *cs = "context_switch:\n  switch_on: true\n  time: 1000000\n  thread_id: 7\n"
                     "sample:\n  event_type: sched:sched_switch\n  time: 11000000\n  thread_id: 7\n"
                     "  callchain:\n    vaddr_in_file: 1\n    file: [kernel.kallsyms]\n"
                     "    symbol: [kernel.kallsyms][+ffffffe5a1e3c094]\n    vaddr_in_file: 2\n"
                     "    file: /apex/com.android.runtime/lib64/bionic/libc.so\n    symbol: syscall\n";
    ck_assert_int_eq(R->probe((const unsigned char *)cs, strlen(cs), 1), 90);
    gd_test_read_mem(R, cs, strlen(cs), NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    e = gd_collected_nth(&c, "stack", 0);
    ck_assert_double_eq_tol(num(e, "ts"), 11.0, 1e-9);
    ck_assert_uint_eq(json_array_size(json_object_get(e, "frames")), 2);
    ck_assert_str_eq(frame(e, 0), "native:[kernel.kallsyms](pc ffffffe5a1e3c094)");
    ck_assert_str_eq(frame(e, 1), "native:libc.so(syscall)");
    ck_assert_int_eq(gd_collected_skips(&c, "simpleperf: record other than a sample"), 1);
    gd_collected_free(&c);
    const char *no = "hello world\nthis is text\n";
    ck_assert_int_eq(R->probe((const unsigned char *)no, strlen(no), 1), 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("simpleperf");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_report_sample_py);
    tcase_add_test(tc, test_report_sample_cmd);
    tcase_add_test(tc, test_perf_data);
    tcase_add_test(tc, test_perf_data_bad);
    tcase_add_test(tc, test_odd_lines);
    tcase_add_test(tc, test_probe);
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
