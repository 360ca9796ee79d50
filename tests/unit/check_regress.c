/* check_regress.c - replays the inputs the fuzzers crashed on
 * (tests/fixtures/regress/<reader>-<what>.<ext>) and asserts what godeye
 * makes of them now.  Every file there must have a row in `expected`. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "testutil.h"
#include "query/sql.h"

#define REGRESS GODEYE_FIXTURES "/regress/"

/* What ingesting each regression input gives: exit code, trace rows. */
static const struct {
    const char *file;
    int rc;
    int traces;
    const char *msg;     /* error message when rc != 0 */
    const char *format;  /* --format, when detection would not pick it */
} expected[] = {
    /* a time past year 9999 is refused with its position (ingest ranges) */
    {"godeye-huge-ts.jsonl", GD_ERR_DATA, 0,
     .msg = "field 'ts' is out of range (a time is ms from 0 to the end of year 9999)"},
    {"godeye-huge-int.jsonl", GD_OK, 1, .msg = NULL},
    /* its only events are of kinds the chrome reader does not use: recognised,
     * nothing usable, so refused (no silent success) */
    {"chrome-huge-id.json", GD_ERR_DATA, 0,
     .msg = "read as chrome but nothing usable was found (ignored: chrome event not used: 2);"
     " --keep-going passes over it"},
    {"logcat-long-what.txt", GD_OK, 1, .msg = NULL},
    /* a seed of fuzz_mapping (scripts/fuzz-corpus.sh copies mapping-*): a
     * mapping whose member spans 2^31 lines once looped over the whole span
     * after the alternatives cap (a libFuzzer timeout); as a capture it is
     * no known format */
    {"mapping-wide-span-timeout.txt", GD_ERR_DATA, 0, .msg = NULL},
    /* UBSan (fuzz_systrace): a 20-digit pid or launch id in an async
     * marker (S/F/G/H) overflowed int64; digits past 2^40 are no longer
     * added, the two launches still become startups */
    {"systrace-huge-pid.txt", GD_OK, 1, .msg = NULL},
    {"uiautomator-empty-tag.xml", GD_OK, 1, NULL, "uiautomator"},
    /* UBSan (fuzz_perfetto): a 0-byte first packet made a cursor from a
     * NULL buffer; now an empty packet, then a bad key is refused */
    {"perfetto-empty-packet.bin", GD_ERR_DATA, 0, "not a Perfetto trace: bad field key at byte 2",
     "perfetto"},
    /* UBSan (fuzz_gfxinfo): a framestats row whose FrameDeadline is near
     * 2^63 ns overflowed the deadline's sum (#51's JankTracker rule); times
     * past 2^60 ns are no longer judged */
    {"gfxinfo-huge-deadline.txt", GD_OK, 1, .msg = NULL},
};

static int keep_first(void *ctx, json_t *row)
{
    json_t **out = ctx;
    if (!*out)
        *out = json_incref(row);
    return 0;
}

/* First row of a query over the store, owned by the caller. */
static json_t *query(gd_store *s, const char *sql)
{
    json_t *row = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_query_sql(s, sql, 0, keep_first, &row, &err), GD_OK);
    ck_assert_ptr_nonnull(row);
    return row;
}

static gd_store *ingest_as(const char *path, const char *format, int *rc, gd_error *err)
{
    gd_store *s;
    gd_error e = {0};
    ck_assert_int_eq(gd_store_open(&s, ":memory:", GD_STORE_RW, &e), GD_OK);
    char *inputs[] = {(char *)path};
    gd_ingest_opts opts = {.year = 2024, .format = format};
    *rc = gd_ingest(s, inputs, 1, &opts, NULL, NULL, err);
    return s;
}

static gd_store *ingest(const char *path, int *rc, gd_error *err)
{
    return ingest_as(path, NULL, rc, err);
}

/* UBSan (fuzz_uiautomator): an empty first tag ("<>", only reachable with
 * --format uiautomator) wrote its terminator through a NULL buffer.  It is
 * now an empty tag, passed over; the hierarchy after it is read. */
START_TEST(test_uiautomator_empty_tag)
{
    gd_collected c;
    gd_test_read_file(gd_reader_find("uiautomator"), REGRESS "uiautomator-empty-tag.xml", NULL, &c);
    ck_assert_msg(c.rc == GD_OK, "%s", c.err.msg);
    ck_assert_uint_eq(gd_collected_count(&c, "view_dump"), 1);
    json_t *views = json_object_get(gd_collected_nth(&c, "view_dump", 0), "views");
    ck_assert_uint_eq(json_array_size(views), 1);
    gd_collected_free(&c);
}
END_TEST

/* ASan/UBSan (fuzz_godeye): a ts beyond int64 was cast to int64 while
 * turning the event into JSON. */
START_TEST(test_godeye_huge_ts)
{
    gd_collected c;
    gd_test_read_file(gd_reader_find("godeye"), REGRESS "godeye-huge-ts.jsonl", NULL, &c);
    /* now out of the time range: refused at its position, nothing cast */
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_int_eq(c.err.line, 2);
    ck_assert_int_eq(c.err.col, 1);
    ck_assert_uint_eq(gd_collected_count(&c, "mark"), 0);
    gd_collected_free(&c);
}
END_TEST

/* UBSan (fuzz_godeye, CI): an integer field written as a real beyond
 * int64 (1.7e205) was cast to int64.  Now it is a field of the wrong
 * type: counted, ignored, the rest of the line kept. */
START_TEST(test_godeye_huge_int)
{
    gd_collected c;
    gd_test_read_file(gd_reader_find("godeye"), REGRESS "godeye-huge-int.jsonl", NULL, &c);
    ck_assert_int_eq(c.rc, GD_OK);
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    ck_assert_uint_eq(gd_collected_count(&c, "mark"), 1);
    json_t *m = json_array_get(c.metas, 0);
    ck_assert_ptr_null(json_object_get(m, "version_code"));
    ck_assert_ptr_null(json_object_get(m, "api_level"));
    ck_assert_int_eq(json_integer_value(json_object_get(m, "pid")), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: field of wrong type"), 2);
    gd_collected_free(&c);
}
END_TEST

/* ASan (fuzz_ingest): the Looper message's "what" part over 63 bytes
 * overflowed a 64-byte stack buffer in the store writer. */
START_TEST(test_logcat_long_what)
{
    int rc;
    gd_error err = {0};
    gd_store *s = ingest(REGRESS "logcat-long-what.txt", &rc, &err);
    ck_assert_msg(rc == GD_OK, "%s", err.msg);
    json_t *row = query(s, "SELECT handler, callback, length(what) AS n, substr(what, 1, 3) AS w,"
                           " (SELECT count(*) FROM dispatch) AS d FROM message");
    ck_assert_str_eq(json_string_value(json_object_get(row, "handler")), "android.os.Handler");
    ck_assert_str_eq(json_string_value(json_object_get(row, "callback")), "com.x.Cb@1");
    ck_assert_int_eq(json_integer_value(json_object_get(row, "n")), 255);
    ck_assert_str_eq(json_string_value(json_object_get(row, "w")), "www");
    ck_assert_int_eq(json_integer_value(json_object_get(row, "d")), 1);
    json_decref(row);
    gd_store_close(s);
}
END_TEST

START_TEST(test_every_input_listed)
{
    DIR *d = opendir(REGRESS);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    size_t seen = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        size_t i, n = sizeof expected / sizeof expected[0];
        for (i = 0; i < n && strcmp(expected[i].file, e->d_name) != 0; i++)
            ;
        ck_assert_msg(i < n, "%s: add it to `expected` in check_regress.c", e->d_name);
        seen++;
        char path[1024];
        snprintf(path, sizeof path, "%s%s", REGRESS, e->d_name);
        int rc;
        gd_error err = {0};
        gd_store *s = ingest_as(path, expected[i].format, &rc, &err);
        ck_assert_msg(rc == expected[i].rc, "%s: rc %d (%s)", e->d_name, rc, err.msg);
        if (expected[i].msg)
            ck_assert_str_eq(err.msg, expected[i].msg);
        json_t *row = query(s, "SELECT count(*) AS n FROM trace");
        ck_assert_int_eq(json_integer_value(json_object_get(row, "n")), expected[i].traces);
        json_decref(row);
        gd_store_close(s);
    }
    closedir(d);
    ck_assert_uint_eq(seen, sizeof expected / sizeof expected[0]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("regress");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_godeye_huge_ts);
    tcase_add_test(tc, test_godeye_huge_int);
    tcase_add_test(tc, test_uiautomator_empty_tag);
    tcase_add_test(tc, test_logcat_long_what);
    tcase_add_test(tc, test_every_input_listed);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
