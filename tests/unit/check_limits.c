/* check_limits.c - ingest at the edges: numbers out of range (times,
 * durations, bitmap sides) refused or counted, never stored as broken rows;
 * the analysis phase reports its progress; text in UTF-16 or with a BOM. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/event.h"
#include "io/input.h"
#include "ingest/ingest.h"
#include "query/views.h"
#include "reader/godeye_fast.h"
#include "store/store.h"
#include "fleet/export.h"

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/godeye-check-limits-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static gd_store *open_db(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/t.db", dir);
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, path, GD_STORE_RW, &err), 0);
    return s;
}

/* writes `text` to dir/name; returns the path (static buffer) */
static const char *put(const char *name, const char *text, size_t n)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(text, 1, n, f), n);
    fclose(f);
    return path;
}

typedef struct last_report {
    gd_ingest_result res;
    json_t *stats;
    int n;
} last_report;

static void on_report(void *ctx, const gd_ingest_report *r)
{
    last_report *l = ctx;
    l->res = r->res;
    json_decref(l->stats);
    l->stats = r->stats ? json_deep_copy(r->stats) : NULL;
    l->n++;
}

static int ingest_text(gd_store *s, const char *name, const char *text, size_t n, last_report *l,
                       gd_error *err)
{
    char *inputs[] = {(char *)put(name, text, n)};
    return gd_ingest(s, inputs, 1, NULL, on_report, l, err);
}

#define META                                                                                     \
    "{\"type\":\"meta\",\"app\":\"com.x\",\"pid\":100,\"main_tid\":100,\"session\":\"s\","      \
    "\"config\":{\"long_block_ms\":500,\"short_block_ms\":100}}\n"

/* ---- numbers out of range -------------------------------------------------- */

static const struct {
    const char *line2;   /* the second line of a godeye capture           */
    const char *field;   /* named in the message                          */
} bad_numbers[] = {
    /* a looper line the fast path reads: it must agree with the general one */
    {"{\"type\":\"looper\",\"ts\":1e308,\"msg\":\">>>>> Dispatching to Handler (h) {1} c: 0\"}",
     "'ts'"},
    {"{\"type\":\"looper\",\"ts\":1e308,\"msg\":\">>>>> Dispatching to Handler (h) {1} c: 0\","
     "\"extra\":[1]}",
     "'ts'"},
    {"{\"type\":\"looper\",\"ts\":1700000000000,\"thread_ts\":1e300,\"msg\":\">>>>> D\"}",
     "'thread_ts'"},
    {"{\"type\":\"stack\",\"ts\":-1700000000000,\"frames\":[\"a.B.c(B.java:1)\"]}", "'ts'"},
    {"{\"type\":\"dispatch\",\"ts\":1700000000000,\"dur\":1e16,\"msg\":\"x\"}", "'dur'"},
    {"{\"type\":\"frame\",\"ts\":1700000000000,\"dur\":1e300}", "'dur'"},
    {"{\"type\":\"lifecycle\",\"ts\":1700000000000,\"page\":{\"type\":\"activity\",\"class\":\"A\","
     "\"hash\":1},\"event\":\"ON_CREATE\",\"end_ts\":1e20}",
     "'end_ts'"},
    {"{\"type\":\"image\",\"ts\":1700000000000,\"page\":{\"type\":\"activity\",\"class\":\"A\","
     "\"hash\":22},\"view\":{\"hash\":4,\"class\":\"V\",\"w\":1,\"h\":1,\"visible\":true},"
     "\"bitmap\":{\"w\":2147483647,\"h\":2147483647,\"config\":\"RGBA_F16\"}}",
     "'bitmap.w'"},
    /* 2^32 + 1 once wrapped to 1 px */
    {"{\"type\":\"image\",\"ts\":1700000000000,\"page\":{\"type\":\"activity\",\"class\":\"A\","
     "\"hash\":22},\"view\":{\"hash\":4,\"class\":\"V\",\"w\":4294967297,\"h\":1,\"visible\":true},"
     "\"bitmap\":{\"w\":10,\"h\":10,\"config\":\"RGBA_F16\"}}",
     "'view.w'"},
};

START_TEST(godeye_refuses_numbers_out_of_range)
{
    char text[1024];
    snprintf(text, sizeof text, "%s%s\n", META, bad_numbers[_i].line2);
    gd_store *s = open_db();
    last_report l = {0};
    gd_error err = {0};
    ck_assert_int_eq(ingest_text(s, "bad.jsonl", text, strlen(text), &l, &err), GD_ERR_DATA);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 1);
    ck_assert_msg(strstr(err.msg, bad_numbers[_i].field) && strstr(err.msg, "out of range"), "%s",
                  err.msg);
    ck_assert_int_eq(l.n, 0);
    json_decref(l.stats);
    gd_store_close(s);
}
END_TEST

START_TEST(fast_path_leaves_out_of_range_to_the_general_path)
{
    const char *t = "{\"type\":\"looper\",\"ts\":1e308,\"msg\":\">>>>> D\"}";
    gd_fast_scratch sc = {0};
    gd_event ev;
    /* the fast parser takes the syntax; the range rule sends it back */
    ck_assert_int_eq(gd_fast_event(t, strlen(t), &sc, &ev), 1);
    ck_assert_str_eq(gd_event_out_of_range(&ev), "ts");
    gd_fast_scratch_free(&sc);
}
END_TEST

START_TEST(edges_of_the_ranges)
{
    gd_event ev;
    gd_event_init(&ev, GD_EV_DISPATCH);
    ev.ts = 253402300799999.0; /* 9999-12-31T23:59:59.999Z */
    ev.u.dispatch.dur = GD_DUR_MAX_MS;
    ck_assert_ptr_null(gd_event_out_of_range(&ev));
    ev.ts = 253402300800000.0;
    ck_assert_str_eq(gd_event_out_of_range(&ev), "ts");
    ev.ts = 0;
    ev.u.dispatch.dur = 9223372036855.0; /* past int64 nanoseconds */
    ck_assert_str_eq(gd_event_out_of_range(&ev), "dur");
    ev.u.dispatch.dur = INFINITY;
    ck_assert_str_eq(gd_event_out_of_range(&ev), "dur");
    ev.u.dispatch.dur = -5; /* in range: the writer counts it as negative */
    ck_assert_ptr_null(gd_event_out_of_range(&ev));
    gd_event_init(&ev, GD_EV_IMAGE);
    ev.ts = 1;
    ev.u.image.bitmap_w = ev.u.image.bitmap_h = GD_SIDE_MAX;
    ck_assert_ptr_null(gd_event_out_of_range(&ev));
    ev.u.image.bitmap_h = GD_SIDE_MAX + 1;
    ck_assert_str_eq(gd_event_out_of_range(&ev), "bitmap.h");
}
END_TEST

static int count_rows(void *ctx, json_t *row)
{
    json_array_append(ctx, row);
    return 0;
}

/* Other readers (AndroidGodEye here): the writer counts the event
 * "number out of range" and stores no broken row. */
START_TEST(writer_counts_numbers_out_of_range)
{
    const char *text =
        "{\"code\":1,\"data\":{\"moduleName\":\"pageLifecycle\",\"payload\":{\"pageType\":\"ACTIVITY\","
        "\"pageClassName\":\"a.Main\",\"pageHashCode\":1,\"lifecycleEvent\":\"ON_CREATE\","
        "\"startTimeMillis\":1699999990000,\"endTimeMillis\":1699999990042}}}\n"
        "{\"code\":1,\"data\":{\"moduleName\":\"pageLifecycle\",\"payload\":{\"pageType\":\"ACTIVITY\","
        "\"pageClassName\":\"a.Main\",\"pageHashCode\":1,\"lifecycleEvent\":\"ON_START\","
        "\"startTimeMillis\":1e308}}}\n"
        "{\"code\":1,\"data\":{\"moduleName\":\"imageIssue\",\"payload\":{\"timestamp\":1700000010000,"
        "\"activityClassName\":\"a.Main\",\"activityHashCode\":1,\"imageViewHashCode\":4411,"
        "\"bitmapWidth\":2147483647,\"bitmapHeight\":2147483647,\"imageViewWidth\":200,"
        "\"imageViewHeight\":200,\"issueType\":\"BITMAP_QUALITY_TOO_HIGH\"}}}\n";
    gd_store *s = open_db();
    last_report l = {0};
    gd_error err = {0};
    ck_assert_int_eq(ingest_text(s, "agd.jsonl", text, strlen(text), &l, &err), 0);
    ck_assert_int_eq(l.res.events, 1);
    ck_assert_int_eq(json_integer_value(json_object_get(l.stats, "number out of range")), 2);
    json_t *rows = json_array();
    gd_images_query q = {0};
    ck_assert_int_eq(gd_query_images(s, &q, count_rows, rows, &err), 0);
    ck_assert_int_eq(json_array_size(rows), 0);
    json_decref(rows);
    json_decref(l.stats);
    gd_store_close(s);
}
END_TEST

/* ClickHouse's Date ends on 2149-06-06: a row after it takes the day of
 * the ingest (its trace is as late), never a day ClickHouse would mangle. */
START_TEST(clickhouse_day_within_its_range)
{
    const char *text = META "{\"type\":\"dispatch\",\"ts\":10000000000000,\"dur\":700,\"msg\":\"x\"}\n"
                            "{\"type\":\"dispatch\",\"ts\":10000000001000,\"dur\":20,\"msg\":\"y\"}\n";
    gd_store *s = open_db();
    last_report l = {0};
    gd_error err = {0};
    ck_assert_int_eq(ingest_text(s, "late.jsonl", text, strlen(text), &l, &err), 0);
    const char *tables[] = {"dispatches", "blocks", "traces"};
    for (size_t t = 0; t < 3; t++) {
        json_t *rows = json_array();
        ck_assert_int_eq(gd_fleet_export(s, tables[t], l.res.trace, count_rows, rows, &err), 0);
        ck_assert_int_gt(json_array_size(rows), 0);
        size_t i;
        json_t *r;
        json_array_foreach(rows, i, r)
        {
            char today[16];
            time_t now = time(NULL);
            strftime(today, sizeof today, "%Y-%m-%d", gmtime(&now));
            ck_assert_str_eq(json_string_value(json_object_get(r, "day")), today);
        }
        json_decref(rows);
    }
    json_decref(l.stats);
    gd_store_close(s);
}
END_TEST

/* ---- analysis progress ----------------------------------------------------- */

typedef struct calls {
    uint64_t done[64];
    int64_t total[64];
    int n;
    const char *source;
} calls;

static void on_analysis(void *ctx, const char *source, uint64_t done, int64_t total)
{
    calls *c = ctx;
    c->source = source;
    if (c->n < 64) {
        c->done[c->n] = done;
        c->total[c->n] = total;
    }
    c->n++;
}

START_TEST(analysis_reports_increasing_progress)
{
    /* 3000 dispatches of 150 ms (blocks) and 3000 of 20 ms (not analysed) */
    size_t cap = 6000 * 160 + 400, n = 0;
    char *text = malloc(cap);
    n += (size_t)snprintf(text + n, cap - n, "%s", META);
    double t = 1700000000000.0;
    for (int i = 0; i < 6000; i++) {
        n += (size_t)snprintf(text + n, cap - n,
                              "{\"type\":\"dispatch\",\"ts\":%.0f,\"dur\":%d,\"msg\":\"m%d\"}\n", t,
                              i % 2 ? 20 : 150, i % 7);
        t += 200;
    }
    gd_store *s = open_db();
    calls c = {0};
    gd_ingest_opts o = {.analysis_progress = on_analysis, .progress_ctx = &c};
    last_report l = {0};
    gd_error err = {0};
    char *inputs[] = {(char *)put("many.jsonl", text, n)};
    free(text);
    ck_assert_int_eq(gd_ingest(s, inputs, 1, &o, on_report, &l, &err), 0);
    ck_assert_int_eq(l.res.blocks, 3000);
    /* 0 of 3000 first, every 1024 blocks, 3000 of 3000 last */
    ck_assert_int_eq(c.n, 4);
    ck_assert_uint_eq(c.done[0], 0);
    ck_assert_uint_eq(c.done[1], 1024);
    ck_assert_uint_eq(c.done[2], 2048);
    ck_assert_uint_eq(c.done[3], 3000);
    for (int i = 0; i < c.n; i++)
        ck_assert_int_eq(c.total[i], 3000);
    ck_assert_ptr_eq(c.source, inputs[0]);
    json_decref(l.stats);
    gd_store_close(s);
}
END_TEST

/* ---- encodings ------------------------------------------------------------- */

static char *slurp_fixture(const char *rel, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", GODEYE_FIXTURES, rel);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "missing fixture %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    ck_assert_uint_eq(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    b[len] = 0;
    *n = (size_t)len;
    return b;
}

enum { E_UTF8BOM, E_LE_BOM_CRLF, E_LE, E_BE_BOM, E_BE, E__N };
static const char *const enc_names[E__N] = {"UTF-8 BOM", "UTF-16LE BOM CRLF", "UTF-16LE",
                                             "UTF-16BE BOM", "UTF-16BE"};

/* ASCII text in encoding e (a new buffer) */
static unsigned char *encode(const char *a, size_t n, int e, size_t *out_n)
{
    unsigned char *o = malloc(n * 4 + 4), *p = o;
    if (e == E_UTF8BOM) {
        memcpy(p, "\xef\xbb\xbf", 3);
        memcpy(p + 3, a, n);
        *out_n = n + 3;
        return o;
    }
    int le = e == E_LE_BOM_CRLF || e == E_LE;
    if (e == E_LE_BOM_CRLF || e == E_BE_BOM) {
        *p++ = le ? 0xff : 0xfe;
        *p++ = le ? 0xfe : 0xff;
    }
    for (size_t i = 0; i < n; i++) {
        if (a[i] == '\n' && e == E_LE_BOM_CRLF && (i == 0 || a[i - 1] != '\r')) {
            *p++ = '\r';
            *p++ = 0;
        }
        *p++ = le ? (unsigned char)a[i] : 0;
        *p++ = le ? 0 : (unsigned char)a[i];
    }
    *out_n = (size_t)(p - o);
    return o;
}

static const char *const enc_fixtures[][2] = {
    {"godeye/pairing.jsonl", "godeye"},
    {"chrome/nested.json", "chrome"},
    {"androidgodeye/monitor.jsonl", "androidgodeye"},
    {"blockcanary/looper-2024-03-05_14-22-07.481.log", "blockcanary"},
};

/* every encoding of a capture is detected as the same format and gives
 * the same trace as its UTF-8 original */
START_TEST(every_encoding_reads_the_same)
{
    size_t n;
    char *plain = slurp_fixture(enc_fixtures[_i][0], &n);
    gd_store *s = open_db();
    last_report base = {0};
    gd_error err = {0};
    ck_assert_int_eq(ingest_text(s, "plain", plain, n, &base, &err), 0);
    for (int e = 0; e < E__N; e++) {
        size_t m;
        unsigned char *t = encode(plain, n, e, &m);
        gd_input *in;
        ck_assert_int_eq(gd_input_open_mem(&in, t, m, &err), 0);
        const gd_reader *r = NULL;
        ck_assert_msg(gd_ingest_detect(in, NULL, &r, &err) == 0, "%s %s: %s", enc_fixtures[_i][0],
                      enc_names[e], err.msg);
        ck_assert_str_eq(r->name, enc_fixtures[_i][1]);
        gd_input_close(in);
        last_report l = {0};
        char name[32];
        snprintf(name, sizeof name, "enc%d", e);
        ck_assert_msg(ingest_text(s, name, (const char *)t, m, &l, &err) == 0, "%s %s: %s",
                      enc_fixtures[_i][0], enc_names[e], err.msg);
        ck_assert_int_eq(l.res.duplicate, 0); /* the hash is of the bytes as they were */
        ck_assert_msg(l.res.events == base.res.events, "%s %s: %ld events, not %ld",
                      enc_fixtures[_i][0], enc_names[e], l.res.events, base.res.events);
        ck_assert_int_eq(l.res.skipped, base.res.skipped);
        ck_assert_int_eq(l.res.dispatches, base.res.dispatches);
        ck_assert_int_eq(l.res.blocks, base.res.blocks);
        json_decref(l.stats);
        free(t);
    }
    json_decref(base.stats);
    free(plain);
    gd_store_close(s);
}
END_TEST

/* errors in transcoded input: the line number of the original text, the
 * column in bytes of the line as UTF-8 */
START_TEST(positions_in_utf16_input)
{
    const char *a = META "{\"type\":\"looper\",\"ts\":1}\n{\"type\":\"looper\",\"ts\":2,,}\n";
    size_t m;
    unsigned char *t = encode(a, strlen(a), E_LE_BOM_CRLF, &m);
    gd_store *s = open_db();
    last_report l = {0};
    gd_error err = {0};
    ck_assert_int_eq(ingest_text(s, "bad16.jsonl", (const char *)t, m, &l, &err), GD_ERR_DATA);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 25);
    free(t);
    gd_store_close(s);
}
END_TEST

static const char *enc_of(const void *data, size_t n)
{
    gd_input *in;
    gd_error err = {0};
    ck_assert_int_eq(gd_input_open_mem(&in, data, n, &err), 0);
    size_t k;
    int eof;
    ck_assert_ptr_nonnull(gd_input_peek(in, &k, &eof, &err));
    const char *e = gd_input_encoding(in);
    gd_input_close(in);
    return e;
}

/* binary heads are never taken for UTF-16, nor text too short to tell */
START_TEST(binary_is_never_transcoded)
{
    unsigned char b[600];
    static const char *const heads[] = {"PK\x03\x04", "\x0a\x80\x01", "SLOW", "PERFILE2",
                                        "*version\n"};
    for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
        memset(b, 0, sizeof b);
        memcpy(b, heads[h], strlen(heads[h]));
        for (size_t i = 16; i < sizeof b; i += 4) /* sparse fields, NUL padding */
            b[i] = (unsigned char)('A' + i % 26);
        ck_assert_msg(enc_of(b, sizeof b) == NULL, "head %zu", h);
    }
    /* all zeros */
    memset(b, 0, sizeof b);
    ck_assert_ptr_null(enc_of(b, sizeof b));
    /* 15 ASCII characters of UTF-16LE without a BOM: too short to tell */
    size_t m;
    unsigned char *t = encode("abcdefghijklmno", 15, E_LE, &m);
    ck_assert_ptr_null(enc_of(t, m));
    free(t);
    t = encode("abcdefghijklmnop", 16, E_LE, &m);
    ck_assert_str_eq(enc_of(t, m), "UTF-16LE");
    free(t);
    /* a character other than ASCII at the start: not guessed without a BOM,
     * and the message says what it may be */
    unsigned char *u = encode("{\"type\":\"meta\",\"app\":\"caf?\",\"pid\":1}\n", 38, E_LE, &m);
    u[2 * 26] = 0xe9; /* the ? becomes U+00E9 */
    ck_assert_ptr_null(enc_of(u, m));
    gd_input *in;
    gd_error err = {0};
    ck_assert_int_eq(gd_input_open_mem(&in, u, m, &err), 0);
    const gd_reader *r;
    ck_assert_int_eq(gd_ingest_detect(in, NULL, &r, &err), GD_ERR_DATA);
    ck_assert_msg(strstr(err.msg, "UTF-16 input?") != NULL, "%s", err.msg);
    gd_input_close(in);
    free(u);
}
END_TEST

/* a BlockCanary folder is read as one stream: the BOM of each UTF-16 file
 * after the first is dropped too */
START_TEST(utf16_blockcanary_folder)
{
    static const char *const logs[] = {"looper-2024-03-05_14-22-07.481.log",
                                       "looper-2024-03-05_14-25-40.002.log"};
    char sub[512], rel[300], name[400];
    gd_error err = {0};
    gd_store *s = open_db();
    last_report l[2];
    memset(l, 0, sizeof l);
    for (int e = 0; e < 2; e++) {
        snprintf(sub, sizeof sub, "%s/bc%d", dir, e);
        ck_assert_int_eq(mkdir(sub, 0755), 0);
        for (int i = 0; i < 2; i++) {
            size_t n, m;
            snprintf(rel, sizeof rel, "blockcanary/%s", logs[i]);
            char *plain = slurp_fixture(rel, &n);
            unsigned char *t = e ? encode(plain, n, E_LE_BOM_CRLF, &m) : (unsigned char *)plain;
            snprintf(name, sizeof name, "bc%d/%s", e, logs[i]);
            put(name, (const char *)t, e ? m : n);
            if (e)
                free(t);
            free(plain);
        }
        char *inputs[] = {sub};
        ck_assert_msg(gd_ingest(s, inputs, 1, NULL, on_report, &l[e], &err) == 0, "%s", err.msg);
    }
    ck_assert_int_eq(l[1].res.events, l[0].res.events);
    ck_assert_int_eq(l[1].res.skipped, 0);
    ck_assert_int_eq(l[1].res.dispatches, 2);
    json_decref(l[0].stats);
    json_decref(l[1].stats);
    gd_store_close(s);
}
END_TEST

Suite *limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *t = tcase_create("ranges");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_loop_test(t, godeye_refuses_numbers_out_of_range, 0,
                        (int)(sizeof bad_numbers / sizeof bad_numbers[0]));
    tcase_add_test(t, fast_path_leaves_out_of_range_to_the_general_path);
    tcase_add_test(t, edges_of_the_ranges);
    tcase_add_test(t, writer_counts_numbers_out_of_range);
    tcase_add_test(t, clickhouse_day_within_its_range);
    suite_add_tcase(s, t);
    TCase *p = tcase_create("progress");
    tcase_add_checked_fixture(p, setup, teardown);
    tcase_add_test(p, analysis_reports_increasing_progress);
    suite_add_tcase(s, p);
    TCase *e = tcase_create("encodings");
    tcase_add_checked_fixture(e, setup, teardown);
    tcase_add_loop_test(e, every_encoding_reads_the_same, 0,
                        (int)(sizeof enc_fixtures / sizeof enc_fixtures[0]));
    tcase_add_test(e, positions_in_utf16_input);
    tcase_add_test(e, binary_is_never_transcoded);
    tcase_add_test(e, utf16_blockcanary_folder);
    suite_add_tcase(s, e);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(limits_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
