/* check_uiautomator.c - the `uiautomator dump` XML reader. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

extern const gd_reader gd_reader_uiautomator;
#define R (&gd_reader_uiautomator)

static json_int_t ival(json_t *o, const char *k) { return json_integer_value(json_object_get(o, k)); }
static const char *sval(json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

static json_t *view(json_t *dump, size_t id)
{
    json_t *v = json_array_get(json_object_get(dump, "views"), id - 1);
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(ival(v, "id"), (json_int_t)id);
    return v;
}

static void assert_view(json_t *d, size_t id, int parent, int l, int t, int r, int b, int visible)
{
    json_t *v = view(d, id);
    ck_assert_int_eq(ival(v, "parent"), parent);
    json_t *rc = json_object_get(v, "rect");
    ck_assert_int_eq(json_integer_value(json_array_get(rc, 0)), l);
    ck_assert_int_eq(json_integer_value(json_array_get(rc, 1)), t);
    ck_assert_int_eq(json_integer_value(json_array_get(rc, 2)), r);
    ck_assert_int_eq(json_integer_value(json_array_get(rc, 3)), b);
    ck_assert_int_eq(json_is_true(json_object_get(v, "visible")), visible);
    ck_assert_ptr_null(json_object_get(v, "layers")); /* no paint data */
}

START_TEST(test_fixture)
{
    gd_collected c;
    gd_test_read_file(R, GODEYE_FIXTURES "/uiautomator/variants.xml", NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "view_dump"), 1);
    json_t *d = gd_collected_nth(&c, "view_dump", 0);
    ck_assert(json_is_false(json_object_get(d, "has_paint")));
    ck_assert_int_eq((json_int_t)json_number_value(json_object_get(d, "ts")), 0);
    ck_assert_str_eq(sval(d, "window"), "com.example.shop");
    ck_assert_int_eq(ival(json_object_get(d, "screen"), "w"), 1080);
    ck_assert_int_eq(ival(json_object_get(d, "screen"), "h"), 2400);
    ck_assert_uint_eq(json_array_size(json_object_get(d, "views")), 6);
    assert_view(d, 1, 0, 0, 0, 1080, 2400, 1);
    ck_assert_ptr_null(json_object_get(view(d, 1), "res_id")); /* empty = absent */
    ck_assert_ptr_null(json_object_get(view(d, 1), "text"));
    assert_view(d, 2, 1, 0, 100, 1080, 300, 1);   /* single quotes, any order */
    ck_assert_str_eq(sval(view(d, 2), "text"), "Tom & Jerry <3 \"x\" 'y' \xc3\xa9\xf0\x9f\x98\x80");
    ck_assert_str_eq(sval(view(d, 2), "res_id"), "com.example.shop:id/title");
    ck_assert_str_eq(sval(view(d, 2), "class"), "android.widget.TextView");
    assert_view(d, 3, 1, 40, 400, 240, 600, 0);   /* visible-to-user="false" */
    assert_view(d, 4, 3, 50, 410, 60, 420, 1);    /* "<node ... />" with a space */
    assert_view(d, 5, 1, 0, 0, 0, 0, 1);          /* bad bounds: kept, counted */
    ck_assert_str_eq(sval(view(d, 5), "text"), "Buy > now");
    assert_view(d, 6, 0, 0, 2280, 1080, 2400, 1); /* a second window */
    ck_assert_int_eq(gd_collected_skips(&c, "uiautomator: node without bounds"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_two_hierarchies_and_truncation)
{
    const char *x = "<hierarchy rotation=\"1\"><node bounds=\"[0,0][10,10]\"/></hierarchy>\n"
                    "<hierarchy><node bounds=\"[0,0][20,30]\"><node bounds=\"[1,2][3,4]\"><junk a=\"1\">"
                    "</junk></node></node></hierarchy><hierarchy><node bounds=\"[0,0][5,5]\"><node b";
    gd_collected c;
    gd_test_read_mem(R, x, strlen(x), NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "view_dump"), 3);
    ck_assert_uint_eq(json_array_size(json_object_get(gd_collected_nth(&c, "view_dump", 0), "views")), 1);
    json_t *d = gd_collected_nth(&c, "view_dump", 1);
    ck_assert_uint_eq(json_array_size(json_object_get(d, "views")), 2);
    assert_view(d, 2, 1, 1, 2, 3, 4, 1);
    ck_assert_int_eq(ival(json_object_get(d, "screen"), "h"), 30);
    ck_assert_uint_eq(json_array_size(json_object_get(gd_collected_nth(&c, "view_dump", 2), "views")), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "uiautomator: unknown element"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "uiautomator: truncated document"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "uiautomator: unclosed node"), 1);
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_probe)
{
    const char *a = "\xef\xbb\xbf<?xml version='1.0' ?>\n<!-- c --><hierarchy rotation=\"0\">";
    ck_assert_int_eq(R->probe((const unsigned char *)a, strlen(a), 0), 95);
    const char *other = "<?xml version='1.0' ?><manifest package=\"a\"/>";
    ck_assert_int_eq(R->probe((const unsigned char *)other, strlen(other), 1), 0);
    const char *json = "{\"type\":\"view_dump\",\"ts\":1}";
    ck_assert_int_eq(R->probe((const unsigned char *)json, strlen(json), 1), 0);
}
END_TEST

static json_t *corpus_dump(gd_collected *c, const char *rel, size_t nviews)
{
    const char *p = gd_test_corpus(rel);
    if (!p)
        return NULL;
    gd_test_read_file(R, p, NULL, c);
    ck_assert_int_eq(c->rc, 0);
    ck_assert_uint_eq(gd_collected_count(c, "view_dump"), 1);
    ck_assert_uint_eq(json_object_size(c->skips), 0);
    json_t *d = gd_collected_nth(c, "view_dump", 0);
    ck_assert_uint_eq(json_array_size(json_object_get(d, "views")), nviews);
    return d;
}

START_TEST(test_corpus)
{
    gd_collected c;
    json_t *d;
    if ((d = corpus_dump(&c, "uiautomator/androidmcp_window_dump.xml", 63))) {
        ck_assert_int_eq(ival(json_object_get(d, "screen"), "w"), 1344);
        ck_assert_int_eq(ival(json_object_get(d, "screen"), "h"), 2992);
        ck_assert_str_eq(sval(d, "window"), "com.google.android.youtube");
        assert_view(d, 63, 1, 0, 2848, 1344, 2992, 1);
        ck_assert_str_eq(sval(view(d, 63), "res_id"), "android:id/navigationBarBackground");
        gd_collected_free(&c);
    }
    if ((d = corpus_dump(&c, "uiautomator/macyolo_window_dump.xml", 95))) {
        assert_view(d, 95, 94, 910, 2227, 979, 2268, 1);
        ck_assert_str_eq(sval(view(d, 95), "text"), "More");
        ck_assert_int_eq(ival(json_object_get(d, "screen"), "h"), 2340);
        gd_collected_free(&c);
    }
    if ((d = corpus_dump(&c, "uiautomator/nora_window_dump.xml", 28))) {
        assert_view(d, 11, 10, 53, 344, 1027, 548, 1);
        assert_view(d, 28, 26, 954, 95, 1059, 200, 1);
        size_t i;
        json_t *v;
        int found = 0;
        json_array_foreach(json_object_get(d, "views"), i, v)
            if (sval(v, "text") && strcmp(sval(v, "text"), "Load Model & Start Chat") == 0)
                found = 1;
        ck_assert(found);
        gd_collected_free(&c);
    }
    if ((d = corpus_dump(&c, "uiautomator/pibiti_window_dump.xml", 113))) {
        ck_assert_int_eq(ival(json_object_get(d, "screen"), "w"), 720);
        assert_view(d, 11, 10, 128, 990, 592, 1086, 1);
        ck_assert_str_eq(sval(view(d, 11), "text"), "Deslize a tela para desbloquear");
        assert_view(d, 113, 110, 0, 0, 720, 48, 1);
        gd_collected_free(&c);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("uiautomator");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fixture);
    tcase_add_test(tc, test_two_hierarchies_and_truncation);
    tcase_add_test(tc, test_probe);
    tcase_add_test(tc, test_corpus);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
