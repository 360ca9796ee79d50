/* check_render.c - table, csv, json, jsonl output and cell formats. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/report.h"
#include "testutil.h"

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
    {"a", "A", GD_COL_TEXT, .flex = 0, .hidden = 0},
    {"b", "B", GD_COL_INT, .flex = 0, .hidden = 0},
    {"c", "C", GD_COL_MS, .flex = 0, .hidden = 0},
};

START_TEST(test_mode_parse)
{
    ck_assert_int_eq(gd_out_mode_parse("table"), GD_OUT_TABLE);
    ck_assert_int_eq(gd_out_mode_parse("csv"), GD_OUT_CSV);
    ck_assert_int_eq(gd_out_mode_parse("json"), GD_OUT_JSON);
    ck_assert_int_eq(gd_out_mode_parse("jsonl"), GD_OUT_JSONL);
    ck_assert_int_eq(gd_out_mode_parse("md"), GD_OUT_MD);
    ck_assert_int_eq(gd_out_mode_parse("JSON"), -1);
    ck_assert_int_eq(gd_out_mode_parse(""), -1);
}
END_TEST

/* Markdown: a pipe table of the visible columns; nested keys ("a.b");
 * capture text can neither break a cell nor become markup or HTML (ESC is
 * first shown as \e like in every table, whose backslash Markdown then
 * escapes, so the page reads \e). */
START_TEST(test_md_and_nested)
{
    static const gd_column cols[] = {
        {"name", "NAME", GD_COL_TEXT, .flex = 1, .hidden = 0},
        {"base.count", "BASE N", GD_COL_INT, .flex = 0, .hidden = 0},
        {"base.p50_ms", "P50", GD_COL_MS, .flex = 0, .hidden = 0},
        {"p", "P", GD_COL_NUM, .flex = 0, .hidden = 0},
        {"gone", "GONE", GD_COL_TEXT, .flex = 0, .hidden = 0, .auto_hide = 1},
        {"secret", "SECRET", GD_COL_TEXT, .flex = 0, .hidden = 1},
    };
    int rc;
    char *t = render(GD_OUT_MD, cols, 6, 0,
                     "[{\"name\": \"a|b<i>c</i>_*\\u001b[2J\", \"base\": {\"count\": 3, \"p50_ms\": 12.25},"
                     "  \"p\": 0.000123456, \"gone\": null, \"secret\": \"x\"},"
                     " {\"name\": \"plain\", \"base\": null, \"p\": 1234.5}]",
                     &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(t, "| NAME | BASE N | P50 | P |\n"
                        "| :-- | --: | --: | --: |\n"
                        "| a\\|b&lt;i&gt;c&lt;/i&gt;\\_\\*\\\\e\\[2J | 3 | 12.2 | 0.000123 |\n"
                        "| plain | - | - | 1234 |\n");
    free(t);
    /* csv and table read nested keys too */
    t = render(GD_OUT_CSV, cols, 3, 0, "[{\"name\": \"n\", \"base\": {\"count\": 7, \"p50_ms\": 1}}]", &rc);
    ck_assert_str_eq(t, "name,base.count,base.p50_ms\nn,7,1\n");
    free(t);
    /* no rows: nothing */
    t = render(GD_OUT_MD, cols, 6, 0, "[]", &rc);
    ck_assert_str_eq(t, "");
    free(t);
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


/* #25 items 13, 14: ESC, BEL, C1 and U+202E from a capture become visible
 * escapes in CSV (quoting keeps newlines) and in the Markdown report, as
 * in table cells */
START_TEST(test_csv_md_escaped)
{
    expect_render(GD_OUT_CSV, basic, 3, 0,
                  "[{\"a\":\"\\u001b]0;owned\\u0007x\\u202eyz\",\"b\":1},"
                  " {\"a\":\"=\\u001b[2J\\u009b\"},"
                  " {\"a\":\"two\\nlines,\\u2066i\"}]",
                  "a,b,c\n"
                  "\\e]0;owned\\x07x\\u202eyz,1,\n"
                  "\"'=\\e[2J\\u009b\",,\n"
                  "\"two\nlines,\\u2066i\",,\n");
    json_error_t je;
    json_t *doc = json_loads("{\"traces\":[{\"trace\":1,\"app\":\"com.x\\u001b]2;t\\u0007\\u202e\","
                             "\"device\":\"d\\u001b[2J\"}],\"summary\":{}}", 0, &je);
    ck_assert_ptr_nonnull(doc);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gd_render_md(f, doc, 0);
    fclose(f);
    ck_assert_ptr_null(strchr(text, 0x1b));
    ck_assert_ptr_null(strchr(text, 0x07));
    ck_assert_ptr_null(strstr(text, "\xe2\x80\xae"));
    ck_assert_ptr_nonnull(strstr(text, "`com.x\\e]2;t\\x07\\u202e` on `d\\e[2J`"));
    free(text);
    json_decref(doc);
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
    {"frame", "frame", GD_COL_TEXT, .flex = 1, .hidden = 0},
    {"n", "count", GD_COL_INT, .flex = 0, .hidden = 0},
    {"secret", "secret", GD_COL_TEXT, .flex = 0, .hidden = 1},
    {"dur", "dur", GD_COL_MS, .flex = 0, .hidden = 0},
};
static const char frame_rows[] = "[{\"frame\":\"a.b.C.m(C.java:1)\",\"n\":3,\"dur\":812.5,\"secret\":\"zzz\"},"
                                 " {\"frame\":\"x\",\"n\":12345,\"dur\":12340}]";

START_TEST(test_table_sizing)
{
    expect_render(GD_OUT_TABLE, frames, 4, 0, frame_rows,
                  "frame              count      dur\n"
                  "a.b.C.m(C.java:1)      3    812.5\n"
                  "x                  12345  12340.0\n");
    /* no rows: nothing at all (no header, no "[]") */
    expect_render(GD_OUT_TABLE, frames, 4, 0, "[]", "");
    /* an empty list in a cell is nothing ("-"), not "[]" */
    static const gd_column lst[] = {{"n", "n", GD_COL_INT, .flex = 0, .hidden = 0}, {"l", "blocks", GD_COL_TEXT, .flex = 0, .hidden = 0}};
    expect_render(GD_OUT_TABLE, lst, 2, 0, "[{\"n\":1,\"l\":[]},{\"n\":2,\"l\":[7,9]}]",
                  "n  blocks\n"
                  "1  -\n"
                  "2  [7,9]\n");
    /* a last text column is not padded; multibyte text counts characters,
     * and control characters in a cell become visible escapes (one line
     * per row, nothing a terminal obeys) */
    static const gd_column two[] = {
        {"n", "n", GD_COL_INT, .flex = 0, .hidden = 0},
        {"name", "name", GD_COL_TEXT, .flex = 0, .hidden = 0},
    };
    expect_render(GD_OUT_TABLE, two, 2, 0, "[{\"n\":1,\"name\":\"na\\u00efve\"},{\"n\":22,\"name\":\"a\\nb\"}]",
                  " n  name\n"
                  " 1  na\xc3\xafve\n"
                  "22  a\\nb\n");
}
END_TEST

START_TEST(test_table_fit_width)
{
    /* 32 columns wide in 20: the flexible column shrinks to its widest
     * short frame, "C.m:1" (a cut from the left would leave "…m(C.java:1)",
     * without the class); the other columns cannot shrink */
    expect_render(GD_OUT_TABLE, frames, 4, 20, frame_rows,
                  "frame  count      dur\n"
                  "C.m:1      3    812.5\n"
                  "x      12345  12340.0\n");
    /* then plain text columns are cut at their end, down to 12 at most,
     * the cut marked with "…" */
    static const gd_column cols[] = {
        {"frame", "frame", GD_COL_TEXT, .flex = 1, .hidden = 0},
        {"msg", "message", GD_COL_TEXT, .flex = 0, .hidden = 0},
        {"n", "count", GD_COL_INT, .flex = 0, .hidden = 0},
    };
    expect_render(GD_OUT_TABLE, cols, 3, 30,
                  "[{\"frame\":\"a.b.C.m(C.java:1)\",\"msg\":\"0123456789abcdefghij\",\"n\":3}]",
                  "frame  message           count\n"
                  "C.m:1  0123456789abcde\xe2\x80\xa6      3\n");
    /* a cut that keeps Class.method( keeps the frame whole from there; a
     * short frame still too wide is cut from the left in turn */
    static const gd_column fc[] = {
        {"frame", "frame", GD_COL_TEXT, .flex = 1, .hidden = 0},
        {"n", "count", GD_COL_INT, .flex = 0, .hidden = 0},
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
    /* text that is no frame, even in a flexible column, is cut at its end,
     * keeping whole characters */
    static const gd_column one[] = {{"f", "f", GD_COL_TEXT, .flex = 1, .hidden = 0}};
    expect_render(GD_OUT_TABLE, one, 1, 12, "[{\"f\":\"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9abcdefghij\"}]",
                  "f\n"
                  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9""abcde\xe2\x80\xa6\n");
    expect_render(GD_OUT_TABLE, one, 1, 12, "[{\"f\":\"Slow dispatch took 412ms main\"}]",
                  "f\n"
                  "Slow dispat\xe2\x80\xa6\n");
    /* a method with a parameter list is a frame too */
    expect_render(GD_OUT_TABLE, one, 1, 24, "[{\"f\":\"  com.x.feed.FeedAdapter.onBind(com.x.Holder, int)\"}]",
                  "f\n"
                  "  FeedAdapter.onBind\n");
    /* JSON text is no frame, however many dots it has */
    expect_render(GD_OUT_TABLE, one, 1, 16, "[{\"f\":\"{\\\"lock\\\":\\\"com.example.shop.Cart\\\"}\"}]",
                  "f\n"
                  "{\"lock\":\"com.ex\xe2\x80\xa6\n");
    /* an indented tree keeps its indentation; the frame after it is cut */
    expect_render(GD_OUT_TABLE, one, 1, 20, "[{\"f\":\"      com.example.shop.img.Decoder.decode\"}]",
                  "f\n"
                  "      Decoder.decode\n");
}
END_TEST

static const char *cell(gd_col_type t, const char *json, char *buf, size_t n)
{
    gd_column c = {"k", "K", t, .flex = 0};
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
    /* a column keeps its unit: ms however large (the header says MS) */
    ck_assert_str_eq(cell(GD_COL_MS, "10000", b, sizeof b), "10000.0");
    ck_assert_str_eq(cell(GD_COL_MS, "82330", b, sizeof b), "82330.0");
    ck_assert_str_eq(cell(GD_COL_MS, "null", b, sizeof b), "-");
    ck_assert_str_eq(cell(GD_COL_MS, NULL, b, sizeof b), "-");
    ck_assert_str_eq(cell(GD_COL_MS, "\"n/a\"", b, sizeof b), "n/a");
    /* times without a trace's clock: as recorded, no zone */
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
    ck_assert_str_eq(cell(GD_COL_TEXT, "\"a\\tb\\r\\nc\"", b, sizeof b), "a\\tb\\r\\nc");
    /* ESC, BEL, an OSC title sequence and CSI as U+009B: all shown, none sent */
    ck_assert_str_eq(cell(GD_COL_TEXT, "\"\\u001b]0;pwned\\u0007\\u001b[2J\\u009b1m\"", b, sizeof b),
                     "\\e]0;pwned\\x07\\e[2J\\u009b1m");
    /* an escape is never cut in half */
    ck_assert_str_eq(cell(GD_COL_TEXT, "\"ab\\u001bc\"", b, 4), "ab");
    ck_assert_str_eq(cell(GD_COL_TEXT, "{\"k\":[1,2.5]}", b, sizeof b), "{\"k\":[1,2.5]}");
    ck_assert_str_eq(cell(GD_COL_TEXT, "true", b, sizeof b), "true");
    ck_assert_str_eq(cell(GD_COL_INT, "-42", b, sizeof b), "-42");
    ck_assert_str_eq(cell(GD_COL_INT, "\"\"", b, sizeof b), "");
    /* a small buffer truncates, NUL-terminated */
    ck_assert_str_eq(cell(GD_COL_TEXT, "\"abcdefgh\"", b, 4), "abc");
    ck_assert_str_eq(cell(GD_COL_MS, "12340", b, 4), "123");
}
END_TEST

/* ---- the time rule (render/timefmt.h) ---------------------------------- */

static const char *tt(double ms, gd_clock_kind kind, double origin, int64_t own, int tz, char *zone)
{
    static char buf[64];
    gd_clock c = {kind, origin, own};
    return gd_time_text(ms, &c, tz, buf, sizeof buf, zone);
}

#define T0 1700000000123.0 /* 2023-11-14 22:13:20.123 UTC */
#define NO_OWN INT64_MIN

START_TEST(test_tz_parse)
{
    int m = 1;
    ck_assert_int_eq(gd_tz_parse("UTC", &m), 0);
    ck_assert_int_eq(m, 0);
    m = 1;
    ck_assert_int_eq(gd_tz_parse("Z", &m), 0);
    ck_assert_int_eq(m, 0);
    ck_assert_int_eq(gd_tz_parse("+02:00", &m), 0);
    ck_assert_int_eq(m, 120);
    ck_assert_int_eq(gd_tz_parse("-0530", &m), 0);
    ck_assert_int_eq(m, -330);
    ck_assert_int_eq(gd_tz_parse("+05", &m), 0);
    ck_assert_int_eq(m, 300);
    ck_assert_int_eq(gd_tz_parse("+14:00", &m), 0);
    ck_assert_int_eq(m, 840);
    const char *bad[] = {"", "+2", "02:00", "+19:00", "+02:60", "+02:0", "local", "utc+1", "+0200x",
                         "Europe/Paris", NULL};
    for (const char **b = bad; *b; b++)
        ck_assert_msg(gd_tz_parse(*b, &m) == -1, "accepted '%s'", *b);
    ck_assert_int_eq(gd_tz_parse(NULL, &m), -1);
    ck_assert_int_eq(gd_clock_kind_parse("utc"), GD_CLOCK_UTC);
    ck_assert_int_eq(gd_clock_kind_parse("local"), GD_CLOCK_LOCAL);
    ck_assert_int_eq(gd_clock_kind_parse("monotonic"), GD_CLOCK_MONOTONIC);
    ck_assert_int_eq(gd_clock_kind_parse("UTC"), GD_CLOCK_UNKNOWN);
    ck_assert_int_eq(gd_clock_kind_parse(NULL), GD_CLOCK_UNKNOWN);
}
END_TEST

START_TEST(test_time_monotonic)
{
    char z[GD_ZONE_MAX];
    /* an offset from the trace's start, never a 1970 date, never a zone */
    ck_assert_str_eq(tt(13345.6, GD_CLOCK_MONOTONIC, 1000, NO_OWN, GD_TZ_NONE, z), "+12.345s");
    ck_assert_str_eq(z, "");
    ck_assert_str_eq(tt(1000, GD_CLOCK_MONOTONIC, 1000, NO_OWN, GD_TZ_NONE, z), "+0.000s");
    /* --tz and an own zone change nothing */
    ck_assert_str_eq(tt(13345, GD_CLOCK_MONOTONIC, 1000, 120, 60, z), "+12.345s");
    ck_assert_str_eq(z, "");
    /* before the start (a sample read before the first event) */
    ck_assert_str_eq(tt(500, GD_CLOCK_MONOTONIC, 1000, NO_OWN, GD_TZ_NONE, z), "-0.500s");
    /* start unknown: since boot */
    ck_assert_str_eq(tt(823836.5, GD_CLOCK_MONOTONIC, NAN, NO_OWN, GD_TZ_NONE, z), "+823.836s");
    ck_assert_ptr_null(tt(NAN, GD_CLOCK_MONOTONIC, 0, NO_OWN, GD_TZ_NONE, z));
    ck_assert_ptr_null(tt(1e300, GD_CLOCK_MONOTONIC, 0, NO_OWN, GD_TZ_NONE, z));
}
END_TEST

START_TEST(test_time_utc)
{
    char z[GD_ZONE_MAX];
    ck_assert_str_eq(tt(T0, GD_CLOCK_UTC, 0, NO_OWN, GD_TZ_NONE, z), "11-14 22:13:20.123");
    ck_assert_str_eq(z, "UTC");
    /* --tz converts */
    ck_assert_str_eq(tt(T0, GD_CLOCK_UTC, 0, NO_OWN, 120, z), "11-15 00:13:20.123");
    ck_assert_str_eq(z, "+02:00");
    ck_assert_str_eq(tt(T0, GD_CLOCK_UTC, 0, NO_OWN, -330, z), "11-14 16:43:20.123");
    ck_assert_str_eq(z, "-05:30");
    /* the capture's own zone when no --tz; --tz wins over it */
    ck_assert_str_eq(tt(T0, GD_CLOCK_UTC, 0, 180, GD_TZ_NONE, z), "11-15 01:13:20.123");
    ck_assert_str_eq(z, "+03:00");
    ck_assert_str_eq(tt(T0, GD_CLOCK_UTC, 0, 180, 0, z), "11-14 22:13:20.123");
    ck_assert_str_eq(z, "UTC");
    /* an own zone past ±18 h is not one */
    ck_assert_str_eq(tt(T0, GD_CLOCK_UTC, 0, 5000, GD_TZ_NONE, z), "11-14 22:13:20.123");
    ck_assert_str_eq(z, "UTC");
    ck_assert_ptr_null(tt(1.7e205, GD_CLOCK_UTC, 0, NO_OWN, GD_TZ_NONE, z));
    ck_assert_str_eq(z, "");
}
END_TEST

START_TEST(test_time_local)
{
    char z[GD_ZONE_MAX];
    /* a wall clock of unknown zone: as recorded, no false zone, --tz cannot
     * convert it */
    ck_assert_str_eq(tt(T0, GD_CLOCK_LOCAL, 0, NO_OWN, GD_TZ_NONE, z), "11-14 22:13:20.123");
    ck_assert_str_eq(z, "");
    ck_assert_str_eq(tt(T0, GD_CLOCK_LOCAL, 0, NO_OWN, 120, z), "11-14 22:13:20.123");
    ck_assert_str_eq(z, "");
    /* with its zone known (+02:00: 22:13 there is 20:13 UTC) it is an instant */
    ck_assert_str_eq(tt(T0, GD_CLOCK_LOCAL, 0, 120, GD_TZ_NONE, z), "11-14 22:13:20.123");
    ck_assert_str_eq(z, "+02:00");
    ck_assert_str_eq(tt(T0, GD_CLOCK_LOCAL, 0, 120, 0, z), "11-14 20:13:20.123");
    ck_assert_str_eq(z, "UTC");
    ck_assert_str_eq(tt(T0, GD_CLOCK_LOCAL, 0, 120, -300, z), "11-14 15:13:20.123");
    ck_assert_str_eq(z, "-05:00");
    /* unknown clock (NULL): like a wall clock of unknown zone */
    char buf[64];
    ck_assert_str_eq(gd_time_text(T0, NULL, 120, buf, sizeof buf, z), "11-14 22:13:20.123");
    ck_assert_str_eq(z, "");
    gd_clock u = gd_clock_unknown();
    ck_assert_str_eq(gd_time_text(-1, &u, GD_TZ_NONE, buf, sizeof buf, z), "12-31 23:59:59.999");
    /* the label form, for lines without a header */
    gd_clock utc = {GD_CLOCK_UTC, NAN, INT64_MIN}, mono = {GD_CLOCK_MONOTONIC, 1000, INT64_MIN};
    ck_assert_str_eq(gd_time_label(T0, &utc, GD_TZ_NONE, buf, sizeof buf), "11-14 22:13:20.123 UTC");
    ck_assert_str_eq(gd_time_label(T0, &utc, 60, buf, sizeof buf), "11-14 23:13:20.123 +01:00");
    ck_assert_str_eq(gd_time_label(2500, &mono, GD_TZ_NONE, buf, sizeof buf), "+1.500s");
    ck_assert_str_eq(gd_time_label(T0, NULL, GD_TZ_NONE, buf, sizeof buf), "11-14 22:13:20.123");
    ck_assert_str_eq(gd_time_label(NAN, &utc, GD_TZ_NONE, buf, sizeof buf), "-");
}
END_TEST

/* A table of time rows with each trace's clock set. */
static char *render_clocked(const char *rows_json, int tz)
{
    static const gd_column cols[] = {{"trace", "T", GD_COL_INT, .flex = 0, .hidden = 0}, {"t", "START", GD_COL_TIME, .flex = 0, .hidden = 0}};
    out_buf o = {0};
    o.f = open_memstream(&o.text, &o.len);
    gd_renderer *r = gd_render_new(o.f, GD_OUT_TABLE, cols, 2, 0);
    gd_clock utc = {GD_CLOCK_UTC, NAN, INT64_MIN}, mono = {GD_CLOCK_MONOTONIC, 1000, INT64_MIN},
             local = {GD_CLOCK_LOCAL, NAN, INT64_MIN};
    ck_assert_int_eq(gd_render_clock(r, 1, &utc), 0);
    ck_assert_int_eq(gd_render_clock(r, 2, &mono), 0);
    ck_assert_int_eq(gd_render_clock(r, 3, &local), 0);
    gd_render_tz(r, tz);
    json_t *rows = json_loads(rows_json, 0, NULL);
    ck_assert_ptr_nonnull(rows);
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
        ck_assert_int_eq(gd_render_row(r, row), 0);
    ck_assert_int_eq(gd_render_end(r), 0);
    json_decref(rows);
    fclose(o.f);
    return o.text;
}

START_TEST(test_table_times)
{
    /* one zone for the whole column: in the header */
    char *got = render_clocked("[{\"trace\":1,\"t\":1700000000123},{\"trace\":1,\"t\":null}]", GD_TZ_NONE);
    ck_assert_str_eq(got, "T         START (UTC)\n"
                          "1  11-14 22:13:20.123\n"
                          "1                   -\n");
    free(got);
    got = render_clocked("[{\"trace\":1,\"t\":1700000000123}]", 120);
    ck_assert_str_eq(got, "T      START (+02:00)\n"
                          "1  11-15 00:13:20.123\n");
    free(got);
    /* monotonic and local: no zone anywhere */
    got = render_clocked("[{\"trace\":2,\"t\":13345},{\"trace\":3,\"t\":1700000000123}]", 120);
    ck_assert_str_eq(got, "T               START\n"
                          "2            +12.345s\n"
                          "3  11-14 22:13:20.123\n");
    free(got);
    /* zones differ between rows: each cell carries its own */
    got = render_clocked("[{\"trace\":1,\"t\":1700000000123},{\"trace\":2,\"t\":2500},"
                         "{\"trace\":3,\"t\":1700000000123},{\"trace\":9,\"t\":0}]", GD_TZ_NONE);
    ck_assert_str_eq(got, "T                   START\n"
                          "1  11-14 22:13:20.123 UTC\n"
                          "2                 +1.500s\n"
                          "3      11-14 22:13:20.123\n"
                          "9      01-01 00:00:00.000\n");
    free(got);
}
END_TEST

/* A table of more rows than the renderer keeps in memory (they go to a
 * temporary file and are read back): laid out from all of them, as a
 * short one is.  The widest name, the only value of an auto-hidden
 * column and the row whose zone differs all come after the first 2048. */
START_TEST(test_table_spooled)
{
    static const gd_column cols[] = {
        {"trace", "T", GD_COL_INT, .flex = 0, .hidden = 0},
        {"t", "START", GD_COL_TIME, .flex = 0, .hidden = 0},
        {"name", "NAME", GD_COL_TEXT, .flex = 0, .hidden = 0},
        {"x", "X", GD_COL_TEXT, .flex = 0, .hidden = 0, .auto_hide = 1},
    };
    out_buf o = {0};
    o.f = open_memstream(&o.text, &o.len);
    gd_renderer *r = gd_render_new(o.f, GD_OUT_TABLE, cols, 4, 0);
    gd_clock utc = {GD_CLOCK_UTC, NAN, INT64_MIN}, mono = {GD_CLOCK_MONOTONIC, 1000, INT64_MIN};
    ck_assert_int_eq(gd_render_clock(r, 1, &utc), 0);
    ck_assert_int_eq(gd_render_clock(r, 2, &mono), 0);
    for (int i = 0; i < 5000; i++) {
        json_t *row = json_pack("{s:i, s:f, s:s, s:o}", "trace", i == 4500 ? 2 : 1, "t",
                                i == 4500 ? 2500.0 : 1700000000123.0 + i, "name",
                                i == 4000 ? "a-much-longer-name" : "a\tb", "x",
                                i == 4500 ? json_string("only") : json_null());
        ck_assert_int_eq(gd_render_row(r, row), 0);
        json_decref(row);
    }
    ck_assert_int_eq(gd_render_end(r), 0);
    fclose(o.f);
    size_t lines = 0;
    for (const char *p = o.text; *p; p++)
        lines += *p == '\n';
    ck_assert_uint_eq(lines, 5001);
    const char *want[] = {
        "T                   START  NAME                X\n"
        "1  11-14 22:13:20.123 UTC  a\\tb                -\n",
        "\n1  11-14 22:13:24.123 UTC  a-much-longer-name  -\n",
        "\n2                 +1.500s  a\\tb                only\n",
        "\n1  11-14 22:13:25.122 UTC  a\\tb                -\n",
    };
    ck_assert_msg(strncmp(o.text, want[0], strlen(want[0])) == 0, "got: %.200s", o.text);
    for (int k = 1; k < 4; k++)
        ck_assert_msg(strstr(o.text, want[k]) != NULL, "no line %s", want[k] + 1);
    ck_assert_str_eq(o.text + o.len - strlen(want[3]) + 1, want[3] + 1);
    free(o.text);
    /* the layout is gathered as rows come: a clock given after them lays
     * the rows out again, as if it had come first */
    o.f = open_memstream(&o.text, &o.len);
    r = gd_render_new(o.f, GD_OUT_TABLE, cols, 2, 0);
    json_t *row = json_pack("{s:i, s:f}", "trace", 1, "t", 1700000000123.0);
    ck_assert_int_eq(gd_render_row(r, row), 0);
    json_decref(row);
    ck_assert_int_eq(gd_render_clock(r, 1, &utc), 0);
    ck_assert_int_eq(gd_render_end(r), 0);
    fclose(o.f);
    ck_assert_str_eq(o.text, "T         START (UTC)\n"
                             "1  11-14 22:13:20.123\n");
    free(o.text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("render");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_mode_parse);
    tcase_add_test(tc, test_csv_quoting);
    tcase_add_test(tc, test_csv_md_escaped);
    tcase_add_test(tc, test_json_and_jsonl);
    tcase_add_test(tc, test_table_sizing);
    tcase_add_test(tc, test_table_fit_width);
    tcase_add_test(tc, test_cells);
    tcase_add_test(tc, test_tz_parse);
    tcase_add_test(tc, test_time_monotonic);
    tcase_add_test(tc, test_time_utc);
    tcase_add_test(tc, test_time_local);
    tcase_add_test(tc, test_table_times);
    tcase_add_test(tc, test_table_spooled);
    tcase_add_test(tc, test_md_and_nested);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
