/* check_textin.c - text lines (gd_input_getline, the one text path) over UTF-8 / UTF-16 input
 * (transcoded by the input), the probe head, and the view buffer. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "io/textin.h"
#include "reader/viewbuf.h"

/* An input over data, peeked as ingest does before any reader runs (the
 * encoding is known from then on). */
static gd_input *open_mem(const void *data, size_t n)
{
    gd_error err;
    gd_input *in = NULL;
    size_t got;
    int eof;
    ck_assert_int_eq(gd_input_open_mem(&in, data, n, &err), 0);
    ck_assert_ptr_nonnull(gd_input_peek(in, &got, &eof, &err));
    return in;
}

START_TEST(test_utf16le_surrogates_crlf)
{
    /* BOM, "a\u00e9\r\n", U+1F600 as a surrogate pair, lone low surrogate, "\n", "z" */
    static const unsigned char d[] = {0xFF, 0xFE, 'a', 0, 0xE9, 0, '\r', 0, '\n', 0,
                                      0x3D, 0xD8, 0x00, 0xDE, 0x00, 0xDC, '\n', 0, 'z', 0};
    gd_input *in = open_mem(d, sizeof d);
    /* the input transcodes UTF-16 below every reader: its lines are UTF-8 */
    ck_assert_str_eq(gd_input_encoding(in), "UTF-16LE");
    char *line;
    size_t len;
    gd_error err;
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
    ck_assert_str_eq(line, "a\xc3\xa9");
    ck_assert_uint_eq(len, 3);
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
    ck_assert_str_eq(line, "\xf0\x9f\x98\x80\xef\xbf\xbd");
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
    ck_assert_str_eq(line, "z");
    ck_assert_int_eq(gd_input_lineno(in), 3);
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 0);
    gd_input_close(in);
}
END_TEST

START_TEST(test_utf16be_and_long_input)
{
    /* 100000 lines of "xy" in UTF-16BE: crosses the internal buffer */
    size_t n = 2 + 100000 * 6;
    unsigned char *d = malloc(n), *p = d;
    *p++ = 0xFE;
    *p++ = 0xFF;
    for (int i = 0; i < 100000; i++) {
        memcpy(p, "\0x\0y\0\n", 6);
        p += 6;
    }
    gd_input *in = open_mem(d, n);
    ck_assert_str_eq(gd_input_encoding(in), "UTF-16BE");
    char *line;
    size_t len;
    gd_error err;
    int k = 0, r;
    while ((r = gd_input_getline(in, &line, &len, &err)) == 1) {
        ck_assert_str_eq(line, "xy");
        k++;
    }
    ck_assert_int_eq(r, 0);
    ck_assert_int_eq(k, 100000);
    gd_input_close(in);
    free(d);
}
END_TEST

START_TEST(test_utf8_bom)
{
    const char *d = "\xef\xbb\xbfone\r\ntwo";
    gd_input *in = open_mem(d, strlen(d));
    char *line;
    size_t len;
    gd_error err;
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
    ck_assert_str_eq(line, "one");
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
    ck_assert_str_eq(line, "two");
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 0);
    gd_input_close(in);
}
END_TEST

START_TEST(test_text_head)
{
    /* The probe head is what the input peeks: UTF-16 is UTF-8 already there
     * (so no probe ever needs to transcode); a surrogate cut by the end of
     * the input is U+FFFD. */
    static const unsigned char le[] = {0xFF, 0xFE, 'T', 0, 0xE9, 0, 0x3D, 0xD8}; /* cut pair */
    gd_input *in;
    gd_error err;
    size_t n;
    int eof;
    ck_assert_int_eq(gd_input_open_mem(&in, le, sizeof le, &err), 0);
    const unsigned char *p = gd_input_peek(in, &n, &eof, &err);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(gd_input_encoding(in), "UTF-16LE");
    ck_assert_uint_eq(n, 6);
    ck_assert_int_eq(memcmp(p, "T\xc3\xa9\xef\xbf\xbd", 6), 0);
    char *h = gd_text_head(p, 3, &n);
    ck_assert_str_eq(h, "T\xc3\xa9");
    ck_assert_uint_eq(n, 3);
    free(h);
    gd_input_close(in);
    h = gd_text_head((const unsigned char *)"\xef\xbb\xbfhi", 5, &n);
    ck_assert_str_eq(h, "hi");
    ck_assert_uint_eq(n, 2);
    free(h);
}
END_TEST

START_TEST(test_viewbuf_cap_and_strings)
{
    gd_viewbuf b;
    gd_viewbuf_init(&b, 100);
    gd_error err;
    gd_view v = {0};
    for (int i = 0; i < 100; i++) {
        v.id = i + 1;
        ck_assert_int_eq(gd_viewbuf_add(&b, &v, "cls", 3, i % 2 ? "a:id/x" : NULL, 6, "txt!", 3, 1, &err), i);
    }
    ck_assert_int_eq(gd_viewbuf_add(&b, &v, "cls", 3, NULL, 0, NULL, 0, 7, &err), -1);
    ck_assert_int_eq(err.code, GD_ERR_DATA);
    ck_assert_int_eq(err.line, 7);
    ck_assert_str_eq(err.msg, "view dump has more than 100 views");
    const gd_view *vs = gd_viewbuf_finish(&b);
    ck_assert_str_eq(vs[99].cls, "cls");
    ck_assert_str_eq(vs[99].res_id, "a:id/x");
    ck_assert_ptr_null(vs[98].res_id);
    ck_assert_str_eq(vs[0].text, "txt");
    ck_assert_int_eq(vs[41].id, 42);
    gd_viewbuf_reset(&b);
    ck_assert_uint_eq(b.n, 0);
    gd_viewbuf_free(&b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("textin");
    TCase *tc = tcase_create("core");
    /* the long UTF-16 input outlasts Check's default 4 s under load */
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_utf16le_surrogates_crlf);
    tcase_add_test(tc, test_utf16be_and_long_input);
    tcase_add_test(tc, test_utf8_bom);
    tcase_add_test(tc, test_text_head);
    tcase_add_test(tc, test_viewbuf_cap_and_strings);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
