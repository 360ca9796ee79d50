/* check_tsv.c - TabSeparated values as ClickHouse reads the JSONEachRow value jansson writes. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/tsv.h"
#include "testutil.h"

/* b's text, NUL-terminated, then emptied. */
static const char *take(gd_tsv *b)
{
    static char out[4096];
    ck_assert(!b->oom && b->len < sizeof out);
    memcpy(out, b->p, b->len);
    out[b->len] = 0;
    b->len = 0;
    return out;
}

static void same_as_jansson(gd_tsv *b, double v)
{
    json_t *j = json_real(v);
    ck_assert_ptr_nonnull(j);
    char *want = json_dumps(j, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
    ck_assert(gd_tsv_real(b, v));
    ck_assert_str_eq(take(b), want);
    free(want);
    json_decref(j);
}

START_TEST(reals_as_jansson)
{
    gd_tsv b = {0};
    const double v[] = {0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 4.25, 1700000000056.25, 1700000000089.0,
                        1e17, 1e20, 1.5e-5, 1e-300, 5e-324, 1.7976931348623157e308, -2.5e-7,
                        123456789012345678.0, 1.0 / 3.0};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        same_as_jansson(&b, v[i]);
    /* random bit patterns: every finite double (10,000 of them) */
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 10000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double d;
        memcpy(&d, &x, sizeof d);
        if (isfinite(d))
            same_as_jansson(&b, d);
    }
    /* times and durations: multiples of 1/1024 (printed without printf) */
    for (int i = 0; i < 30000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double d = (double)(int64_t)(x >> (11 + i % 40)) / (double)(1u << (i % 11));
        same_as_jansson(&b, i % 2 ? -d : d);
    }
    const double t[] = {1700000000056.25, 8796093022207.9990234375, 0.0009765625, -0.0009765625,
                        1e12 + 0.5, 123456789.0009765625, 99999999999.5};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        same_as_jansson(&b, t[i]);
    /* jansson has no such real: nothing written */
    ck_assert(!gd_tsv_real(&b, INFINITY));
    ck_assert(!gd_tsv_real(&b, NAN));
    ck_assert_uint_eq(b.len, 0);
    gd_tsv_free(&b);
}
END_TEST

START_TEST(text_escaped)
{
    gd_tsv b = {0};
    const long long iv[] = {0, 1, -1, 42, 9223372036854775807ll, -9223372036854775807ll - 1};
    for (size_t i = 0; i < sizeof iv / sizeof iv[0]; i++) {
        char want[32];
        snprintf(want, sizeof want, "%lld", iv[i]);
        gd_tsv_int(&b, iv[i]);
        ck_assert_str_eq(take(&b), want);
    }
    const char s[] = "a\tb\nc\\d\re'f\"g\x01\x7f\0h \xc3\xa9\xf0\x9f\x98\x80 \\N";
    gd_tsv_text(&b, s, sizeof s - 1);
    ck_assert_uint_eq(b.len, sizeof s - 1 + 4); /* \t \n and two \\ */
    ck_assert(memcmp(b.p, "a\\tb\\nc\\\\d\re'f\"g\x01\x7f\0h \xc3\xa9\xf0\x9f\x98\x80 \\\\N",
                     b.len) == 0);
    gd_tsv_free(&b);
}
END_TEST

/* Long text (escaped eight bytes at a time where it can) as byte by byte. */
START_TEST(text_long)
{
    static const char *pieces[] = {"abcdefgh", "\t", "\n", "\\", "'", "\r", "\xc3\xa9", "xyz",
                                   "\xe6\x97\xa5", "0123456789ABCDEF"};
    uint64_t x = 12345;
    gd_tsv b = {0};
    for (int round = 0; round < 2000; round++) {
        char in[41 * 16], want[2 * 41 * 16];
        size_t n = 0, m = 0;
        for (int k = (int)(x % 40); k >= 0; k--) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            const char *p = pieces[x % (sizeof pieces / sizeof pieces[0])];
            for (; *p; p++) {
                in[n++] = *p;
                if (*p == '\t' || *p == '\n' || *p == '\\')
                    want[m++] = '\\';
                want[m++] = *p == '\t' ? 't' : *p == '\n' ? 'n' : *p;
            }
        }
        gd_tsv_text(&b, in, n);
        ck_assert_uint_eq(b.len, m);
        ck_assert(memcmp(b.p, want, m) == 0);
        b.len = 0;
    }
    gd_tsv_free(&b);
}
END_TEST

/* Text jansson refuses (not UTF-8) is U+FFFD, as value() makes it. */
START_TEST(text_utf8_as_jansson)
{
    const char *cases[] = {"\xc3", "\xc0\x80", "\xe0\x80\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                           "\xf5\x80\x80\x80", "\x80", "ok\xff", "\xe2\x82\xac", "\xf4\x8f\xbf\xbf",
                           "\xc2\x80", "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xe2\x82"};
    gd_tsv b = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *j = json_stringn(cases[i], strlen(cases[i]));
        gd_tsv_text(&b, cases[i], strlen(cases[i]));
        ck_assert_str_eq(take(&b), j ? cases[i] : "\xef\xbf\xbd");
        json_decref(j);
    }
    gd_tsv_free(&b);
}
END_TEST

START_TEST(nulls_by_type)
{
    gd_tsv b = {0};
    ck_assert(gd_tsv_null_in(&b, gd_tsv_col_of("Nullable(Float64)")));
    ck_assert_str_eq(take(&b), "\\N");
    ck_assert(gd_tsv_null_in(&b, gd_tsv_col_of("Nullable(String)")));
    ck_assert_str_eq(take(&b), "\\N");
    /* ClickHouse 18.16 reads a JSON null as 0 in an integer, nan in a float */
    ck_assert(gd_tsv_null_in(&b, gd_tsv_col_of("Int32")));
    ck_assert_str_eq(take(&b), "0");
    ck_assert(gd_tsv_null_in(&b, gd_tsv_col_of("UInt8")));
    ck_assert_str_eq(take(&b), "0");
    ck_assert(gd_tsv_null_in(&b, gd_tsv_col_of("Float64")));
    ck_assert_str_eq(take(&b), "nan");
    /* and refuses it in a String, Date or Array */
    ck_assert(!gd_tsv_null_in(&b, gd_tsv_col_of("String")));
    ck_assert(!gd_tsv_null_in(&b, gd_tsv_col_of("Date")));
    ck_assert(!gd_tsv_null_in(&b, gd_tsv_col_of("Array(String)")));
    ck_assert(!gd_tsv_null_in(&b, gd_tsv_col_of("Decimal(9, 2)")));
    ck_assert_uint_eq(b.len, 0);
    ck_assert_int_eq(gd_tsv_col_of("DateTime").kind, GD_TSV_DATE);
    ck_assert_int_eq(gd_tsv_col_of("LowCardinality(String)").kind, GD_TSV_OTHER);
    gd_tsv_free(&b);
}
END_TEST

START_TEST(arrays_quoted)
{
    gd_tsv b = {0};
    ck_assert(gd_tsv_json_text(&b, "[\"a'b\",\"t\\tn\\nq\\\\\",\"\"]", 22));
    ck_assert_str_eq(take(&b), "['a\\'b','t\\tn\\nq\\\\','']");
    ck_assert(gd_tsv_json_text(&b, "[]", 2));
    ck_assert_str_eq(take(&b), "[]");
    ck_assert(!gd_tsv_json_text(&b, "[\"a\",null]", 10));
    b.len = 0;
    ck_assert(!gd_tsv_json_text(&b, "[1]", 3));
    b.len = 0;
    ck_assert(!gd_tsv_json_text(&b, "\"x\"", 3));
    ck_assert(!gd_tsv_json_text(&b, "[\"a\"", 4));
    gd_tsv_free(&b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tsv");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, reals_as_jansson);
    tcase_add_test(tc, text_escaped);
    tcase_add_test(tc, text_long);
    tcase_add_test(tc, text_utf8_as_jansson);
    tcase_add_test(tc, nulls_by_type);
    tcase_add_test(tc, arrays_quoted);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
