/* check_jsonstream.c - the pull scanner: iteration, values with positions,
 * skipping, error positions, depth limits, chunk boundaries. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "io/jsonstream.h"
#include "testutil.h"

typedef struct js_fixture {
    gd_input *in;
    gd_jstream *js;
    gd_error err;
} js_fixture;

static void js_open(js_fixture *f, const char *doc, size_t n)
{
    gd_error_clear(&f->err);
    ck_assert_int_eq(gd_input_open_mem(&f->in, doc, n, &f->err), 0);
    f->js = gd_jstream_new(f->in);
    ck_assert_ptr_nonnull(f->js);
}

static void js_close(js_fixture *f)
{
    gd_jstream_free(f->js);
    gd_input_close(f->in);
}

/* Pulls the next value, checks its compact JSON text and start position. */
static void expect_value(js_fixture *f, const char *json, long line, long col)
{
    long l = -1, c = -1;
    json_t *v = gd_jstream_value(f->js, &l, &c, &f->err);
    ck_assert_msg(v != NULL, "value failed: %s", f->err.msg);
    char *txt = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
    ck_assert_str_eq(txt, json);
    ck_assert_int_eq(l, line);
    ck_assert_int_eq(c, col);
    free(txt);
    json_decref(v);
}

static void expect_error(js_fixture *f, long line, long col, const char *msg)
{
    ck_assert_int_eq(f->err.code, GD_ERR_DATA);
    ck_assert_str_eq(f->err.msg, msg);
    ck_assert_int_eq(f->err.line, line);
    ck_assert_int_eq(f->err.col, col);
}

static const char doc[] =
    "{\"godeye_trace\": 1,\n"
    " \"meta\": {\"app\": \"x\"},\n"
    " \"events\": [\n"
    "  {\"type\":\"mark\",\"ts\":1},\n"
    "  [1, 2],\n"
    "  \"s\",\n"
    "  -3.5e2,\n"
    "  true, null\n"
    " ],\n"
    " \"tail\": {\"deep\": [[[{\"a\": \"]}\"}]]]},\n"
    " \"k\\\"e\\u00e9y\" :\t\"v\"\n"
    "}\n";

START_TEST(test_iterate_document)
{
    js_fixture f;
    const char *key;
    js_open(&f, doc, strlen(doc));
    ck_assert_int_eq(gd_jstream_peek(f.js, &f.err), '{');
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_line(f.js), 1);
    ck_assert_int_eq(gd_jstream_col(f.js), 2);

    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 1);
    ck_assert_str_eq(key, "godeye_trace");
    ck_assert_int_eq(gd_jstream_peek(f.js, &f.err), '0');
    expect_value(&f, "1", 1, 18);

    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 1);
    ck_assert_str_eq(key, "meta");
    expect_value(&f, "{\"app\":\"x\"}", 2, 10);

    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 1);
    ck_assert_str_eq(key, "events");
    ck_assert_int_eq(gd_jstream_peek(f.js, &f.err), '[');
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    /* next_key inside an array is a usage error */
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), -1);
    ck_assert_int_eq(f.err.code, GD_ERR_USAGE);
    ck_assert_str_eq(f.err.msg, "not inside a JSON object");

    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    expect_value(&f, "{\"ts\":1,\"type\":\"mark\"}", 4, 3);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    expect_value(&f, "[1,2]", 5, 3);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    ck_assert_int_eq(gd_jstream_peek(f.js, &f.err), '"');
    expect_value(&f, "\"s\"", 6, 3);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    ck_assert_int_eq(gd_jstream_peek(f.js, &f.err), '0');
    expect_value(&f, "-350.0", 7, 3);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    ck_assert_int_eq(gd_jstream_peek(f.js, &f.err), 't');
    expect_value(&f, "true", 8, 3);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    ck_assert_int_eq(gd_jstream_peek(f.js, &f.err), 'n');
    expect_value(&f, "null", 8, 9);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_line(f.js), 9);
    ck_assert_int_eq(gd_jstream_col(f.js), 3);

    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 1);
    ck_assert_str_eq(key, "tail");
    ck_assert_int_eq(gd_jstream_skip(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_line(f.js), 10);
    ck_assert_int_eq(gd_jstream_col(f.js), 37);

    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 1);
    ck_assert_str_eq(key, "k\"e\xc3\xa9y");
    expect_value(&f, "\"v\"", 11, 18);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 0);
    /* after the closer nothing is open */
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), -1);
    ck_assert_int_eq(f.err.code, GD_ERR_USAGE);
    ck_assert_str_eq(f.err.msg, "not inside a JSON array");
    ck_assert_int_eq(gd_jstream_expect_end(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_peek(f.js, &f.err), 0);
    js_close(&f);
}
END_TEST

START_TEST(test_empty_containers_and_strings_with_brackets)
{
    static const char d[] = "[ [], {}, \"a]\\\"}[{\", {\"k]\":\"\\\\\"}, \"\\\\\\\"]\" ]";
    js_fixture f;
    js_open(&f, d, strlen(d));
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 0); /* [] */
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    const char *key;
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 0); /* {} */
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    expect_value(&f, "\"a]\\\"}[{\"", 1, 11);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    expect_value(&f, "{\"k]\":\"\\\\\"}", 1, 22);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    expect_value(&f, "\"\\\\\\\"]\"", 1, 35);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_expect_end(f.js, &f.err), 0);
    js_close(&f);
}
END_TEST

START_TEST(test_skip_big_nested)
{
    /* {"big": [ 100000 x {"a":[1,2,{"b":"x]}"}]} ], "after": 7} */
    static const char item[] = "{\"a\":[1,2,{\"b\":\"x]}\"}]},\n";
    size_t ni = 100000, il = strlen(item);
    size_t n = 16 + ni * il + 32;
    char *d = malloc(n), *p = d;
    p += sprintf(p, "{\"big\": [");
    for (size_t i = 0; i < ni; i++) {
        memcpy(p, item, il);
        p += il;
    }
    p[-2] = ' '; /* drop the last comma */
    p += sprintf(p, "], \"after\": 7}");
    js_fixture f;
    const char *key;
    js_open(&f, d, (size_t)(p - d));
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 1);
    ck_assert_str_eq(key, "big");
    ck_assert_int_eq(gd_jstream_skip(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 1);
    ck_assert_str_eq(key, "after");
    expect_value(&f, "7", 100001, 13);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 0);
    ck_assert_int_eq(gd_jstream_expect_end(f.js, &f.err), 0);
    js_close(&f);
    free(d);
}
END_TEST

START_TEST(test_error_missing_comma)
{
    js_fixture f;
    js_open(&f, "[1 2]", 5);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    expect_value(&f, "1", 1, 2);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), -1);
    expect_error(&f, 1, 4, "expected ',' or ']', found '2'");
    js_close(&f);

    static const char o[] = "{\"a\": 1,\n \"b\": 2\n \"c\": 3}";
    const char *key;
    js_open(&f, o, strlen(o));
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 1);
    ck_assert_int_eq(gd_jstream_skip(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 1);
    ck_assert_int_eq(gd_jstream_skip(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), -1);
    expect_error(&f, 3, 2, "expected ',' or '}', found '\"'");
    js_close(&f);

    /* a trailing comma */
    js_open(&f, "[1,]", 4);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    ck_assert_int_eq(gd_jstream_skip(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    ck_assert_int_eq(gd_jstream_skip(f.js, &f.err), -1);
    expect_error(&f, 1, 4, "expected a JSON value, found ']'");
    js_close(&f);
}
END_TEST

START_TEST(test_error_bad_key)
{
    js_fixture f;
    const char *key;
    js_open(&f, "{a:1}", 5);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), -1);
    expect_error(&f, 1, 2, "expected a string key, found 'a'");
    js_close(&f);

    js_open(&f, "{\n  \"a\\x\": 1}", 13);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), -1);
    expect_error(&f, 2, 3, "invalid object key");
    js_close(&f);

    js_open(&f, "{\"a\" 1}", 7);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), -1);
    expect_error(&f, 1, 6, "expected ':', found '1'");
    js_close(&f);

    /* a control byte is named by its value */
    js_open(&f, "{\x01}", 3);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), -1);
    expect_error(&f, 1, 2, "expected a string key, found byte 0x01");
    js_close(&f);
}
END_TEST

START_TEST(test_error_truncated)
{
    static const char d[] = "{\"events\":[{\"a\":1},{\"b\":";
    js_fixture f;
    const char *key;
    js_open(&f, d, strlen(d));
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 1);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    expect_value(&f, "{\"a\":1}", 1, 12);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    ck_assert_ptr_null(gd_jstream_value(f.js, NULL, NULL, &f.err));
    expect_error(&f, 1, 25, "unexpected end of input, unterminated value");
    js_close(&f);

    js_open(&f, "[\n\"abc", 6);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    ck_assert_int_eq(gd_jstream_skip(f.js, &f.err), -1);
    expect_error(&f, 2, 5, "unexpected end of input, unterminated string");
    js_close(&f);

    /* the array never closes */
    js_open(&f, "[1", 2);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    expect_value(&f, "1", 1, 2);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), -1);
    expect_error(&f, 1, 3, "unexpected end of input, expected ',' or ']'");
    js_close(&f);

    /* enter on nothing */
    js_open(&f, "  ", 2);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), -1);
    expect_error(&f, 1, 3, "unexpected end of input, expected '{' or '['");
    js_close(&f);
}
END_TEST

START_TEST(test_error_inside_value)
{
    /* jansson's message, positioned in the file */
    js_fixture f;
    static const char d[] = "[\n  {\"a\":\n   1,\n   \"b\" 2}]";
    js_open(&f, d, strlen(d));
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    long l, c;
    ck_assert_ptr_null(gd_jstream_value(f.js, &l, &c, &f.err));
    ck_assert_int_eq(l, 2);
    ck_assert_int_eq(c, 3);
    expect_error(&f, 4, 8, "':' expected near '2'");
    js_close(&f);

    js_open(&f, "[ {\"a\":tru}]", 12);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    ck_assert_ptr_null(gd_jstream_value(f.js, NULL, NULL, &f.err));
    expect_error(&f, 1, 10, "invalid token near 'tru'");
    js_close(&f);

    /* columns count bytes, like every other position (\u00e9 is 2 bytes) */
    js_open(&f, "[ {\"\xc3\xa9\":tru}]", 14);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    ck_assert_ptr_null(gd_jstream_value(f.js, NULL, NULL, &f.err));
    expect_error(&f, 1, 11, "invalid token near 'tru'");
    js_close(&f);
    static const char d2[] = "[{\"\xc3\xa9\":\n \"\xc3\xa9\xc3\xa9\" 2}]";
    js_open(&f, d2, strlen(d2));
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    ck_assert_ptr_null(gd_jstream_value(f.js, NULL, NULL, &f.err));
    expect_error(&f, 2, 9, "'}' expected near '2'");
    js_close(&f);
}
END_TEST

START_TEST(test_expect_end_garbage)
{
    js_fixture f;
    const char *key;
    js_open(&f, "{\"a\":1}\n\n  x", 12);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 1);
    ck_assert_int_eq(gd_jstream_skip(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 0);
    ck_assert_int_eq(gd_jstream_expect_end(f.js, &f.err), -1);
    expect_error(&f, 3, 3, "expected end of input, found 'x'");
    js_close(&f);

    /* a second document is garbage too */
    js_open(&f, "{} {}", 5);
    ck_assert_int_eq(gd_jstream_skip(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_expect_end(f.js, &f.err), -1);
    expect_error(&f, 1, 4, "expected end of input, found '{'");
    js_close(&f);
}
END_TEST

static char *nested(size_t depth, size_t *n)
{
    char *d = malloc(depth * 2 + 1);
    memset(d, '[', depth);
    memset(d + depth, ']', depth);
    d[depth * 2] = 0;
    *n = depth * 2;
    return d;
}

START_TEST(test_depth_limit)
{
    size_t n;
    js_fixture f;
    /* GD_JSON_MAX_DEPTH levels: fine, as a value and skipped */
    char *d = nested(GD_JSON_MAX_DEPTH, &n);
    js_open(&f, d, n);
    json_t *v = gd_jstream_value(f.js, NULL, NULL, &f.err);
    ck_assert_ptr_nonnull(v);
    json_t *x = v;
    size_t levels = 0;
    while (json_is_array(x)) {
        levels++;
        x = json_array_get(x, 0);
    }
    ck_assert_uint_eq(levels, GD_JSON_MAX_DEPTH);
    json_decref(v);
    ck_assert_int_eq(gd_jstream_expect_end(f.js, &f.err), 0);
    js_close(&f);
    free(d);

    /* one more: rejected at the bracket that goes too deep */
    d = nested(GD_JSON_MAX_DEPTH + 1, &n);
    js_open(&f, d, n);
    ck_assert_int_eq(gd_jstream_skip(f.js, &f.err), -1);
    expect_error(&f, 1, GD_JSON_MAX_DEPTH + 1, "nesting deeper than 1000 levels");
    js_close(&f);
    free(d);

    /* 200000 open brackets (no recursion, no crash), both ways */
    d = nested(200000, &n);
    js_open(&f, d, n);
    ck_assert_ptr_null(gd_jstream_value(f.js, NULL, NULL, &f.err));
    expect_error(&f, 1, GD_JSON_MAX_DEPTH + 1, "nesting deeper than 1000 levels");
    js_close(&f);
    js_open(&f, d, n);
    ck_assert_int_eq(gd_jstream_skip(f.js, &f.err), -1);
    expect_error(&f, 1, GD_JSON_MAX_DEPTH + 1, "nesting deeper than 1000 levels");
    js_close(&f);
    /* entering containers one by one stops at 64 */
    js_open(&f, d, n);
    for (int i = 0; i < 64; i++)
        ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), -1);
    expect_error(&f, 1, 65, "too deeply nested");
    js_close(&f);
    free(d);
}
END_TEST

START_TEST(test_chunk_boundary)
{
    /* values and keys that straddle the 64 KiB read chunk */
    size_t pad = 65536 - 8, n = 0;
    size_t longlen = 200000;
    char *d = malloc(pad + longlen + 256);
    d[n++] = '[';
    memset(d + n, ' ', pad);
    n += pad;
    size_t start = n; /* 0-based offset of the first value */
    n += (size_t)sprintf(d + n, "{\"key-across\":\"value-across\"},\"");
    for (size_t i = 0; i < longlen; i++)
        d[n++] = (char)('a' + i % 26);
    n += (size_t)sprintf(d + n, "\",{\"k\":[\"]\"]}]");
    js_fixture f;
    js_open(&f, d, n);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    expect_value(&f, "{\"key-across\":\"value-across\"}", 1, (long)start + 1);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    long l, c;
    json_t *v = gd_jstream_value(f.js, &l, &c, &f.err);
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(c, (long)start + 31);
    ck_assert_uint_eq(json_string_length(v), longlen);
    const char *s = json_string_value(v);
    for (size_t i = 0; i < longlen; i++)
        if (s[i] != (char)('a' + i % 26))
            ck_abort_msg("byte %zu differs", i);
    json_decref(v);
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 1);
    expect_value(&f, "{\"k\":[\"]\"]}", 1, (long)(start + 31 + longlen + 3));
    ck_assert_int_eq(gd_jstream_next_elem(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_expect_end(f.js, &f.err), 0);
    js_close(&f);

    /* a key across the boundary */
    n = 0;
    d[n++] = '{';
    memset(d + n, '\n', pad);
    n += pad;
    n += (size_t)sprintf(d + n, "\"a-key-over-the-edge\": [true]}");
    const char *key;
    js_open(&f, d, n);
    ck_assert_int_eq(gd_jstream_enter(f.js, &f.err), 0);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 1);
    ck_assert_str_eq(key, "a-key-over-the-edge");
    expect_value(&f, "[true]", (long)pad + 1, 24);
    ck_assert_int_eq(gd_jstream_next_key(f.js, &key, &f.err), 0);
    js_close(&f);
    free(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("jsonstream");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_iterate_document);
    tcase_add_test(tc, test_empty_containers_and_strings_with_brackets);
    tcase_add_test(tc, test_skip_big_nested);
    tcase_add_test(tc, test_error_missing_comma);
    tcase_add_test(tc, test_error_bad_key);
    tcase_add_test(tc, test_error_truncated);
    tcase_add_test(tc, test_error_inside_value);
    tcase_add_test(tc, test_expect_end_garbage);
    tcase_add_test(tc, test_depth_limit);
    tcase_add_test(tc, test_chunk_boundary);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
