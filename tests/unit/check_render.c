/* check_render.c - table, csv, json, jsonl output and cell formats. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"

typedef struct out_buf {
    FILE *f;
    char *text;
    size_t len;
} out_buf;

/* Renders rows (a JSON array text) with cols in mode; returns the output
 * (malloc'ed) and the status of gd_render_end in *rc. */
static char *render(gd_out_mode mode, const gd_column *cols, size_t ncols, int width,
                    const char *rows_json, int *rc)
{
    out_buf o = {0};
    o.f = open_memstream(&o.text, &o.len);
    ck_assert_ptr_nonnull(o.f);
    json_error_t je;
    json_t *rows = json_loads(rows_json, 0, &je);
    ck_assert_msg(rows != NULL, "bad test rows: %s", je.text);
    gd_renderer *r = gd_render_new(o.f, mode, cols, ncols, width);
    ck_assert_ptr_nonnull(r);
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
        ck_assert_int_eq(gd_render_row(r, row), 0);
    *rc = gd_render_end(r);
    json_decref(rows);
    fclose(o.f);
    return o.text;
}

static void expect_render(gd_out_mode mode, const gd_column *cols, size_t ncols, int width,
                          const char *rows_json, const char *want)
{
    int rc;
    char *got = render(mode, cols, ncols, width, rows_json, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(got, want);
    free(got);
}

static const gd_column basic[] = {
    {"a", "A", GD_COL_TEXT, 0, 0},
    {"b", "B", GD_COL_INT, 0, 0},
    {"c", "C", GD_COL_MS, 0, 0},
};

START_TEST(test_mode_parse)
{
    ck_assert_int_eq(gd_out_mode_parse("table"), GD_OUT_TABLE);
    ck_assert_int_eq(gd_out_mode_parse("csv"), GD_OUT_CSV);
    ck_assert_int_eq(gd_out_mode_parse("json"), GD_OUT_JSON);
    ck_assert_int_eq(gd_out_mode_parse("jsonl"), GD_OUT_JSONL);
    ck_assert_int_eq(gd_out_mode_parse("JSON"), -1);
    ck_assert_int_eq(gd_out_mode_parse(""), -1);
}
END_TEST

START_TEST(test_csv_quoting)
{
    expect_render(GD_OUT_CSV, basic, 3, 0,
                  "[{\"a\":\"x,y\",\"b\":1,\"c\":812.5},"
                  " {\"a\":\"say \\\"hi\\\"\",\"b\":null,\"c\":1.0},"
                  " {\"a\":\"two\\nlines\"},"
                  " {\"a\":\"cr\\r\",\"b\":2.5,\"c\":{\"k\":[1,\"v\"]}},"
                  " {\"a\":true,\"b\":false,\"c\":\"plain text\"}]",
                  "a,b,c\n"
                  "\"x,y\",1,812.5\n"
                  "\"say \"\"hi\"\"\",,1.0\n"
                  "\"two\nlines\",,\n"
                  "\"cr\r\",2.5,\"{\"\"k\"\":[1,\"\"v\"\"]}\"\n"
                  "true,false,plain text\n");
    /* no rows: the header only */
    expect_render(GD_OUT_CSV, basic, 3, 0, "[]", "a,b,c\n");
}
END_TEST

START_TEST(test_json_and_jsonl)
{
    static const char rows[] = "[{\"a\":\"x\",\"b\":1},{\"b\":2.25,\"a\":null},{}]";
    expect_render(GD_OUT_JSON, basic, 3, 0, rows,
                  "[\n{\"a\":\"x\",\"b\":1},\n{\"b\":2.25,\"a\":null},\n{}\n]\n");
    expect_render(GD_OUT_JSON, basic, 3, 0, "[]", "[]\n");
    expect_render(GD_OUT_JSON, basic, 3, 0, "[{\"a\":\"\\u00e9\\\"\"}]", "[\n{\"a\":\"\xc3\xa9\\\"\"}\n]\n");
    expect_render(GD_OUT_JSONL, basic, 3, 0, rows, "{\"a\":\"x\",\"b\":1}\n{\"b\":2.25,\"a\":null}\n{}\n");
    expect_render(GD_OUT_JSONL, basic, 3, 0, "[]", "");
    /* reals keep 16 significant digits: epoch ms with a fraction */
    expect_render(GD_OUT_JSONL, basic, 3, 0, "[{\"ts\":1700000000123.25}]", "{\"ts\":1700000000123.25}\n");
}
END_TEST

static const gd_column frames[] = {
    {"frame", "frame", GD_COL_TEXT, 1, 0},
    {"n", "count", GD_COL_INT, 0, 0},
    {"secret", "secret", GD_COL_TEXT, 0, 1},
    {"dur", "dur", GD_COL_MS, 0, 0},
};
static const char frame_rows[] = "[{\"frame\":\"a.b.C.m(C.java:1)\",\"n\":3,\"dur\":812.5,\"secret\":\"zzz\"},"
                                 " {\"frame\":\"x\",\"n\":12345,\"dur\":12340}]";

START_TEST(test_table_sizing)
{
    expect_render(GD_OUT_TABLE, frames, 4, 0, frame_rows,
                  "frame              count     dur\n"
                  "a.b.C.m(C.java:1)      3   812.5\n"
                  "x                  12345  12.34s\n");
    /* no rows: header only */
    expect_render(GD_OUT_TABLE, frames, 4, 0, "[]", "frame  count  dur\n");
    /* a last text column is not padded; multibyte text counts characters,
     * and newlines in a cell become spaces */
    static const gd_column two[] = {
        {"n", "n", GD_COL_INT, 0, 0},
        {"name", "name", GD_COL_TEXT, 0, 0},
    };
    expect_render(GD_OUT_TABLE, two, 2, 0, "[{\"n\":1,\"name\":\"na\\u00efve\"},{\"n\":22,\"name\":\"a\\nb\"}]",
                  " n  name\n"
                  " 1  na\xc3\xafve\n"
                  "22  a b\n");
}
END_TEST

START_TEST(test_table_fit_width)
{
    /* 32 columns wide in 20: the flexible column shrinks to its widest
     * short frame, "C.m:1" (a cut from the left would leave "…m(C.java:1)",
     * without the class); the other columns cannot shrink */
    expect_render(GD_OUT_TABLE, frames, 4, 20, frame_rows,
                  "frame  count     dur\n"
                  "C.m:1      3   812.5\n"
                  "x      12345  12.34s\n");
    /* then plain text columns are cut at their end, down to 12 at most */
    static const gd_column cols[] = {
        {"frame", "frame", GD_COL_TEXT, 1, 0},
        {"msg", "message", GD_COL_TEXT, 0, 0},
        {"n", "count", GD_COL_INT, 0, 0},
    };
    expect_render(GD_OUT_TABLE, cols, 3, 30,
                  "[{\"frame\":\"a.b.C.m(C.java:1)\",\"msg\":\"0123456789abcdefghij\",\"n\":3}]",
                  "frame  message           count\n"
                  "C.m:1  0123456789abcdef      3\n");
    /* a cut that keeps Class.method( keeps the frame whole from there; a
     * short frame still too wide is cut from the left in turn */
    static const gd_column fc[] = {
        {"frame", "frame", GD_COL_TEXT, 1, 0},
        {"n", "count", GD_COL_INT, 0, 0},
    };
    expect_render(GD_OUT_TABLE, fc, 2, 40,
                  "[{\"frame\":\"com.example.shop.img.Decoder.decode(Decoder.java:12)\",\"n\":3}]",
                  "frame                              count\n"
                  "\xe2\x80\xa6" "Decoder.decode(Decoder.java:12)       3\n");
    expect_render(GD_OUT_TABLE, fc, 2, 20,
                  "[{\"frame\":\"com.example.shop.img.Decoder.decode(Decoder.java:12)\",\"n\":3}]",
                  "frame          count\n"
                  "\xe2\x80\xa6" "decode:12         3\n");
    /* enough room: nothing is cut */
    expect_render(GD_OUT_TABLE, cols, 3, 46,
                  "[{\"frame\":\"a.b.C.m(C.java:1)\",\"msg\":\"0123456789abcdefghij\",\"n\":3}]",
                  "frame              message               count\n"
                  "a.b.C.m(C.java:1)  0123456789abcdefghij      3\n");
    /* multibyte text cut from the left keeps whole characters */
    static const gd_column one[] = {{"f", "f", GD_COL_TEXT, 1, 0}};
    expect_render(GD_OUT_TABLE, one, 1, 12, "[{\"f\":\"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9abcdefghij\"}]",
                  "f\n"
                  "\xe2\x80\xa6\xc3\xa9""abcdefghij\n");
}
END_TEST

static const char *cell(gd_col_type t, const char *json, char *buf, size_t n)
{
    gd_column c = {"k", "K", t, 0, 0};
    json_t *v = json ? json_loads(json, JSON_DECODE_ANY, NULL) : NULL;
    if (json)
        ck_assert_ptr_nonnull(v);
    const char *s = gd_render_cell(&c, v, buf, n);
    ck_assert_ptr_eq(s, buf);
    json_decref(v);
    return s;
}

START_TEST(test_cells)
{
    char b[64];
    /* durations */
    ck_assert_str_eq(cell(GD_COL_MS, "812.5", b, sizeof b), "812.5");
    ck_assert_str_eq(cell(GD_COL_MS, "5", b, sizeof b), "5.0");
    ck_assert_str_eq(cell(GD_COL_MS, "9999.9", b, sizeof b), "9999.9");
    ck_assert_str_eq(cell(GD_COL_MS, "10000", b, sizeof b), "10.00s");
    ck_assert_str_eq(cell(GD_COL_MS, "12340", b, sizeof b), "12.34s");
    ck_assert_str_eq(cell(GD_COL_MS, "null", b, sizeof b), "-");
    ck_assert_str_eq(cell(GD_COL_MS, NULL, b, sizeof b), "-");
    ck_assert_str_eq(cell(GD_COL_MS, "\"n/a\"", b, sizeof b), "n/a");
    /* times, UTC */
    ck_assert_str_eq(cell(GD_COL_TIME, "1700000000123", b, sizeof b), "11-14 22:13:20.123");
    ck_assert_str_eq(cell(GD_COL_TIME, "1700000000123.9", b, sizeof b), "11-14 22:13:20.123");
    ck_assert_str_eq(cell(GD_COL_TIME, "0", b, sizeof b), "01-01 00:00:00.000");
    ck_assert_str_eq(cell(GD_COL_TIME, "-1", b, sizeof b), "12-31 23:59:59.999");
    ck_assert_str_eq(cell(GD_COL_TIME, "null", b, sizeof b), "-");
    /* outside ±950 years the value is printed as it is, not cast to time_t */
    ck_assert_str_eq(cell(GD_COL_TIME, "1.7e205", b, sizeof b), "1.7e205");
    /* booleans */
    ck_assert_str_eq(cell(GD_COL_BOOL, "true", b, sizeof b), "yes");
    ck_assert_str_eq(cell(GD_COL_BOOL, "false", b, sizeof b), "no");
    ck_assert_str_eq(cell(GD_COL_BOOL, "null", b, sizeof b), "-");
    ck_assert_str_eq(cell(GD_COL_BOOL, "1", b, sizeof b), "-");
    /* bytes */
    ck_assert_str_eq(cell(GD_COL_BYTES, "0", b, sizeof b), "0 B");
    ck_assert_str_eq(cell(GD_COL_BYTES, "1023", b, sizeof b), "1023 B");
    ck_assert_str_eq(cell(GD_COL_BYTES, "1024", b, sizeof b), "1.0 KB");
    ck_assert_str_eq(cell(GD_COL_BYTES, "1536", b, sizeof b), "1.5 KB");
    ck_assert_str_eq(cell(GD_COL_BYTES, "1048576", b, sizeof b), "1.0 MB");
    ck_assert_str_eq(cell(GD_COL_BYTES, "3670016", b, sizeof b), "3.5 MB");
    ck_assert_str_eq(cell(GD_COL_BYTES, "4294967296", b, sizeof b), "4096.0 MB");
    /* text and ints */
    ck_assert_str_eq(cell(GD_COL_TEXT, "\"a\\tb\\r\\nc\"", b, sizeof b), "a b  c");
    ck_assert_str_eq(cell(GD_COL_TEXT, "{\"k\":[1,2.5]}", b, sizeof b), "{\"k\":[1,2.5]}");
    ck_assert_str_eq(cell(GD_COL_TEXT, "true", b, sizeof b), "true");
    ck_assert_str_eq(cell(GD_COL_INT, "-42", b, sizeof b), "-42");
    ck_assert_str_eq(cell(GD_COL_INT, "\"\"", b, sizeof b), "");
    /* a small buffer truncates, NUL-terminated */
    ck_assert_str_eq(cell(GD_COL_TEXT, "\"abcdefgh\"", b, 4), "abc");
    ck_assert_str_eq(cell(GD_COL_MS, "12340", b, 4), "12.");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("render");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_mode_parse);
    tcase_add_test(tc, test_csv_quoting);
    tcase_add_test(tc, test_json_and_jsonl);
    tcase_add_test(tc, test_table_sizing);
    tcase_add_test(tc, test_table_fit_width);
    tcase_add_test(tc, test_cells);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
