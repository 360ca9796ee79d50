/* check_ingest.c - the reader registry and detection by content. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ingest/ingest.h"
#include "testutil.h"

#define KNOWN "godeye, androidgodeye, matrix, blockcanary, bugreport, logcat, anr, chrome, " \
              "dumpsys_activity, gfxinfo, procstat, uiautomator, am_start, art_trace, simpleperf, systrace, perfetto"

static const struct {
    const char *file;   /* under GODEYE_FIXTURES */
    const char *reader; /* what it is detected as */
} samples[] = {
    {"godeye/pairing.json", "godeye"},
    {"godeye/pairing.jsonl", "godeye"},
    {"godeye/views.jsonl", "godeye"},
    {"androidgodeye/monitor.jsonl", "androidgodeye"},
    {"androidgodeye/monitor-array.json", "androidgodeye"},
    {"androidgodeye/payloads.json", "androidgodeye"},
    {"matrix/issues-array.json", "matrix"},
    {"matrix/issues.jsonl", "matrix"},
    /* a logcat with Matrix issue lines scores higher as logcat (90) than as
     * Matrix text (85): read as logcat unless --format matrix */
    {"matrix/logcat.txt", "logcat"},
    {"blockcanary/looper-2024-01-01_00-00-01.123.log", "blockcanary"},
    {"blockcanary/looper-2024-03-05_14-25-40.002.log", "blockcanary"},
    {"logcat/threadtime_newyear.txt", "logcat"},
    {"logcat/time_format.txt", "logcat"},
    {"logcat/brief_only.txt", "logcat"},
    {"logcat/uid_bugreport.txt", "logcat"},
    {"logcat/studio.txt", "logcat"},
    {"logcat/miui.txt", "logcat"},
    {"am_start/android9_repeat.txt", "am_start"},
    {"am_start/android10_mixed.txt", "am_start"},
    {"anr/deadlock2.txt", "anr"},
    {"anr/deadlock3.txt", "anr"},
    {"chrome/nested.json", "chrome"},
    {"dumpsys_activity/two_tasks.txt", "dumpsys_activity"},
    {"gfxinfo/two_windows.txt", "gfxinfo"},
    {"procstat/two_samples.txt", "procstat"},
    {"uiautomator/variants.xml", "uiautomator"},
    {"bugreport/small.txt", "bugreport"},
    {"simpleperf/report_sample.txt", "simpleperf"},
    {"simpleperf/report-sample.txt", "simpleperf"},
    {"systrace/app_atrace.txt", "systrace"},
};
#define NSAMPLES (sizeof samples / sizeof samples[0])

static char *read_all(const char *rel, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", GODEYE_FIXTURES, rel);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "missing fixture %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *d = malloc((size_t)len + 1);
    ck_assert_uint_eq(fread(d, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    d[len] = 0;
    *n = (size_t)len;
    return d;
}

START_TEST(test_registry)
{
    const gd_reader *const *all = gd_readers();
    static const char *const names[] = {"godeye", "androidgodeye", "matrix", "blockcanary",
                                        "bugreport", "logcat", "anr", "chrome", "dumpsys_activity",
                                        "gfxinfo", "procstat", "uiautomator", "am_start",
                                        "art_trace", "simpleperf", "systrace", "perfetto"};
    size_t n = 0;
    while (all[n])
        n++;
    ck_assert_uint_eq(n, sizeof names / sizeof names[0]);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(all[i]->name, names[i]);
        ck_assert_ptr_eq(gd_reader_find(names[i]), all[i]);
        ck_assert_ptr_nonnull(all[i]->probe);
        ck_assert_ptr_nonnull(all[i]->read);
        ck_assert_ptr_nonnull(all[i]->description);
    }
    ck_assert_ptr_null(gd_reader_find("nope"));
    ck_assert_ptr_null(gd_reader_find(""));
    ck_assert_ptr_null(gd_reader_find("Godeye"));
}
END_TEST

START_TEST(test_detect_each_fixture)
{
    for (size_t i = 0; i < NSAMPLES; i++) {
        size_t n;
        char *d = read_all(samples[i].file, &n);
        /* the whole (small) file as the head */
        char tried[512];
        const gd_reader *r = gd_reader_detect((const unsigned char *)d, n, 1, tried, sizeof tried);
        ck_assert_msg(r != NULL, "%s: not detected", samples[i].file);
        ck_assert_msg(strcmp(r->name, samples[i].reader) == 0, "%s: detected as %s, not %s",
                      samples[i].file, r->name, samples[i].reader);
        ck_assert_str_eq(tried, KNOWN);
        /* through an input, plain and gzip */
        gd_input *in;
        gd_error err;
        gd_error_clear(&err);
        ck_assert_int_eq(gd_input_open_mem(&in, d, n, &err), 0);
        r = NULL;
        ck_assert_int_eq(gd_ingest_detect(in, NULL, &r, &err), 0);
        ck_assert_str_eq(r->name, samples[i].reader);
        gd_input_close(in);

        uLongf zn = compressBound(n) + 32;
        unsigned char *z = malloc(zn);
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        ck_assert_int_eq(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
        zs.next_in = (unsigned char *)d;
        zs.avail_in = (uInt)n;
        zs.next_out = z;
        zs.avail_out = (uInt)zn;
        ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
        size_t zlen = zn - zs.avail_out;
        deflateEnd(&zs);
        ck_assert_int_eq(gd_input_open_mem(&in, z, zlen, &err), 0);
        r = NULL;
        ck_assert_int_eq(gd_ingest_detect(in, NULL, &r, &err), 0);
        ck_assert_str_eq(r->name, samples[i].reader);
        gd_input_close(in);
        free(z);
        free(d);
    }
}
END_TEST

START_TEST(test_detect_garbage)
{
    static const char *const garbage[] = {
        "hello world\n", "\x01\x02\x03\x04", "{\"just\":\"json\"}\n", "[1,2,3]", "   \n\n  ",
        "<html><body>nope</body></html>\n",
    };
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        char tried[512];
        const char *g = garbage[i];
        ck_assert_msg(gd_reader_detect((const unsigned char *)g, strlen(g), 1, tried, sizeof tried) == NULL,
                      "garbage %zu detected", i);
        ck_assert_str_eq(tried, KNOWN);
        gd_input *in;
        gd_error err;
        gd_error_clear(&err);
        ck_assert_int_eq(gd_input_open_mem(&in, g, strlen(g), &err), 0);
        const gd_reader *r = (const gd_reader *)&err; /* must be overwritten */
        ck_assert_int_eq(gd_ingest_detect(in, NULL, &r, &err), GD_ERR_DATA);
        ck_assert_ptr_null(r);
        ck_assert_str_eq(err.msg, "unrecognised format (tried: " KNOWN ")");
        ck_assert_int_eq(err.line, 1);
        ck_assert_int_eq(err.col, 1);
        gd_input_close(in);
    }
    /* a short tried buffer is cut, never overflowed */
    char small[16];
    memset(small, 'x', sizeof small);
    ck_assert_ptr_null(gd_reader_detect((const unsigned char *)"zz", 2, 1, small, 10));
    ck_assert_str_eq(small, "godeye, a");
    ck_assert_int_eq(small[10], 'x');
    /* no tried buffer at all */
    ck_assert_ptr_null(gd_reader_detect((const unsigned char *)"zz", 2, 1, NULL, 0));
}
END_TEST

START_TEST(test_ingest_detect_forced_and_empty)
{
    gd_input *in;
    gd_error err;
    const gd_reader *r = NULL;
    gd_error_clear(&err);
    ck_assert_int_eq(gd_input_open_mem(&in, "", 0, &err), 0);
    /* forced: no peeking, even on an empty input */
    ck_assert_int_eq(gd_ingest_detect(in, "logcat", &r, &err), 0);
    ck_assert_str_eq(r->name, "logcat");
    ck_assert_int_eq(gd_ingest_detect(in, "nope", &r, &err), GD_ERR_USAGE);
    ck_assert_ptr_null(r);
    ck_assert_str_eq(err.msg, "unknown format 'nope' (known: " KNOWN ")");
    ck_assert_int_eq(err.line, 0);
    /* detection on an empty input */
    gd_error_clear(&err);
    ck_assert_int_eq(gd_ingest_detect(in, NULL, &r, &err), GD_ERR_DATA);
    ck_assert_str_eq(err.msg, "empty input");
    ck_assert_int_eq(err.line, 0);
    gd_input_close(in);
    /* an empty gzip member is an empty input too */
    static const unsigned char empty_gz[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3,
                                             3, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    gd_error_clear(&err);
    ck_assert_int_eq(gd_input_open_mem(&in, empty_gz, sizeof empty_gz, &err), 0);
    ck_assert_int_eq(gd_ingest_detect(in, NULL, &r, &err), GD_ERR_DATA);
    ck_assert_str_eq(err.msg, "empty input");
    gd_input_close(in);
    /* a truncated gzip fails with the input's error */
    gd_error_clear(&err);
    ck_assert_int_eq(gd_input_open_mem(&in, empty_gz, 12, &err), 0);
    ck_assert_int_eq(gd_ingest_detect(in, NULL, &r, &err), GD_ERR_DATA);
    ck_assert_str_eq(err.msg, "truncated gzip stream");
    gd_input_close(in);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ingest");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_registry);
    tcase_add_test(tc, test_detect_each_fixture);
    tcase_add_test(tc, test_detect_garbage);
    tcase_add_test(tc, test_ingest_detect_forced_and_empty);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
