/* check_render_values.c - rows of plain values (core/row.h) rendered as
 * their JSON trees are: byte for byte the same text; column paths, trees
 * as rows, column words. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/jsontext.h"
#include "render/render.h"
#include "testutil.h"

/* A small deterministic generator (the test must not depend on rand()). */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static double any_real(uint64_t *s)
{
    static const double edges[] = {0.0, -0.0, 1e21, 1e-7, 123456789012345678.0, 0.1, 1700000000974.375,
                                   -5e-324, 1.7976931348623157e308, 100.0, INFINITY, NAN};
    switch (next(s) % 4) {
    case 0: return edges[next(s) % (sizeof edges / sizeof edges[0])];
    case 1: return (double)(int64_t)next(s) / (double)(next(s) % 1000 + 1);
    case 2: return ldexp((double)(next(s) % 1000000), (int)(next(s) % 200) - 100);
    default: return round((double)(next(s) % 4000000000000ULL) * 8.0) / 8.0;
    }
}

/* Fills v with a random value; text bytes go to buf (n bytes of room). */
static void any_value(uint64_t *s, gd_value *v, char *buf, size_t n)
{
    switch (next(s) % 5) {
    case 0:
        v->kind = GD_V_INT;
        v->u.i = (int64_t)next(s) >> (next(s) % 64);
        break;
    case 1:
        v->kind = GD_V_REAL;
        v->u.d = any_real(s);
        break;
    case 2:
        v->kind = GD_V_BOOL;
        v->u.i = (int64_t)(next(s) % 2);
        break;
    case 3: {
        /* random bytes: control characters, quotes, NULs, invalid UTF-8 */
        size_t len = next(s) % n;
        int ascii = next(s) % 2;
        static const char pieces[] = "\"\\/\x01\x1f\x7f\n\t\b\f\r";
        for (size_t k = 0; k < len; k++)
            buf[k] = ascii ? (next(s) % 3 ? (char)(0x20 + next(s) % 95) : pieces[next(s) % (sizeof pieces - 1)])
                           : (char)next(s);
        v->kind = GD_V_TEXT;
        v->u.t.s = buf;
        v->u.t.n = len;
        break;
    }
    default:
        v->kind = GD_V_NULL;
    }
}

START_TEST(test_text_as_jansson)
{
    uint64_t s = 88172645463325252ULL;
    char bufs[6][24];
    gd_value v[6], inner[2];
    static const char *const names[] = {"id", "k\"\x7f", "start_ms", "msg", "memory", "json"};
    static const char *const inner_names[] = {"ts_ms", "low"};
    gd_row in = {inner_names, inner, 2};
    gd_text t = {0};
    for (int it = 0; it < 200000; it++) {
        for (int k = 0; k < 4; k++)
            any_value(&s, &v[k], bufs[k], sizeof bufs[k]);
        any_value(&s, &inner[0], bufs[4], sizeof bufs[4]);
        any_value(&s, &inner[1], bufs[5], sizeof bufs[5]);
        v[4].kind = GD_V_ROW;
        v[4].u.row = &in;
        v[5].kind = GD_V_JSON;
        v[5].u.json = json_pack("[i,s]", it, "x");
        gd_row row = {names, v, 6};
        t.n = 0;
        ck_assert_int_eq(gd_json_row_text(&t, &row), 0);
        json_t *j = gd_row_json(&row);
        char *want = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(16));
        ck_assert_msg(strlen(want) == t.n && memcmp(want, t.p, t.n) == 0, "jansson %s\nvalues  %.*s",
                      want, (int)t.n, t.p);
        free(want);
        json_decref(j);
        json_decref(v[5].u.json);
    }
    free(t.p);
}
END_TEST

/* Output of rows in mode, given as values (values = 1) or as their JSON. */
static char *render_rows(gd_out_mode mode, const gd_column *cols, size_t ncols, const gd_row *rows,
                         size_t n, int values)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    gd_renderer *r = gd_render_new(f, mode, cols, ncols, 100);
    for (size_t i = 0; i < n; i++) {
        if (values) {
            ck_assert_int_eq(gd_render_values(r, &rows[i]), 0);
        } else {
            json_t *j = gd_row_json(&rows[i]);
            ck_assert_int_eq(gd_render_row(r, j), 0);
            json_decref(j);
        }
    }
    ck_assert_int_eq(gd_render_end(r), 0);
    fclose(f);
    return text;
}

START_TEST(test_modes_as_json_rows)
{
    static const char *const names[] = {"id", "name", "ms", "mem", "px", "busy"};
    static const char *const mem_names[] = {"heap_kb", "low"};
    gd_value mem[2] = {{GD_V_INT, {.i = 51943}}, {GD_V_BOOL, {.i = 0}}};
    gd_row memrow = {mem_names, mem, 2};
    json_t *px = json_pack("{s:i s:i}", "1", 7, "4+", 9);
    gd_value v[2][6] = {
        {{GD_V_INT, {.i = 1}}, {GD_V_TEXT, {.t = {"=cmd,\"x\"", 8}}}, {GD_V_REAL, {.d = 1787.625}},
         {GD_V_ROW, {.row = &memrow}}, {GD_V_JSON, {.json = px}}, {GD_V_NULL, {0}}},
        {{GD_V_INT, {.i = -2}}, {GD_V_TEXT, {.t = {"bad \xff utf-8", 11}}}, {GD_V_REAL, {.d = 1e21}},
         {GD_V_NULL, {0}}, {GD_V_NULL, {0}}, {GD_V_BOOL, {.i = 1}}},
    };
    gd_row rows[2] = {{names, v[0], 6}, {names, v[1], 6}};
    static const gd_column cols[] = {
        {"id", "ID", GD_COL_INT, .flex = 0, .hidden = 0},
        {"name", "NAME", GD_COL_TEXT, .flex = 0, .hidden = 0},
        {"ms", "MS", GD_COL_MS, .flex = 0, .hidden = 0},
        {"heap", "HEAP", GD_COL_INT, .flex = 0, .hidden = 0, .path = "mem.heap_kb"},
        {"mem", "MEM", GD_COL_TEXT, .flex = 0, .hidden = 0},
        {"px_4", "4X+", GD_COL_INT, .flex = 0, .hidden = 0, .path = "px.4+"},
        {"busy", "BUSY", GD_COL_BOOL, .flex = 0, .hidden = 0},
    };
    for (int mode = GD_OUT_TABLE; mode <= GD_OUT_JSONL; mode++) {
        char *a = render_rows((gd_out_mode)mode, cols, 7, rows, 2, 1);
        char *b = render_rows((gd_out_mode)mode, cols, 7, rows, 2, 0);
        ck_assert_str_eq(a, b);
        free(a);
        free(b);
    }
    char *csv = render_rows(GD_OUT_CSV, cols, 7, rows, 2, 1);
    ck_assert_str_eq(csv, "id,name,ms,heap,mem,px_4,busy\n"
                          "1,\"'=cmd,\"\"x\"\"\",1787.625,51943,\"{\"\"heap_kb\"\":51943,\"\"low\"\":false}\",9,\n"
                          "-2,bad \xef\xbf\xbd utf-8,1e21,,,,true\n" /* the stray byte only: gd_utf8_mend */);
    free(csv);
    json_decref(px);
}
END_TEST

START_TEST(test_paths)
{
    json_t *row = json_pack("{s:[i,i,i], s:{s:i}, s:{s:[s]}}", "a", 1, 2, 3, "px", "4+", 9, "o", "s", "top");
    ck_assert_int_eq(json_integer_value(gd_render_get(row, "a.2")), 3);
    ck_assert_ptr_null(gd_render_get(row, "a.3"));
    ck_assert_ptr_null(gd_render_get(row, "a.x"));
    ck_assert_int_eq(json_integer_value(gd_render_get(row, "px.4+")), 9);
    ck_assert_str_eq(json_string_value(gd_render_get(row, "o.s.0")), "top");
    ck_assert_ptr_null(gd_render_get(row, "o.s.0.more"));
    json_decref(row);
}
END_TEST

static const char *indented(const json_t *node, char *buf, size_t n)
{
    snprintf(buf, n, "%*s%s", (int)json_integer_value(json_object_get(node, "depth")) * 2, "",
             json_string_value(json_object_get(node, "name")));
    return buf;
}

START_TEST(test_tree_rows_and_words)
{
    static const gd_column cols[] = {
        {"tid", "TID", GD_COL_INT, .flex = 0, .hidden = 0},
        {"call", "CALL", GD_COL_TEXT, .flex = 0, .hidden = 0, .text = indented},
        {"ok", "OK", GD_COL_TEXT, .flex = 0, .hidden = 0, .words = "fine|SLOW"},
    };
    json_t *tree = json_loads("{\"tid\":5,\"name\":\"a\",\"ok\":true,\"kids\":[{\"name\":\"b\",\"ok\":false,"
                              "\"kids\":[{\"name\":\"c\",\"ok\":null,\"kids\":[]}]},{\"name\":\"d\",\"kids\":[]}]}",
                              0, NULL);
    ck_assert_ptr_nonnull(tree);
    char *text = NULL;
    size_t len = 0;
    for (int mode = GD_OUT_TABLE; mode <= GD_OUT_JSONL; mode++) {
        FILE *f = open_memstream(&text, &len);
        gd_renderer *r = gd_render_new(f, (gd_out_mode)mode, cols, 3, 100);
        gd_render_nodes(r, "kids");
        ck_assert_int_eq(gd_render_row(r, tree), 0);
        ck_assert_int_eq(gd_render_end(r), 0);
        fclose(f);
        if (mode == GD_OUT_TABLE)
            /* d has no "ok": its root's */
            ck_assert_str_eq(text, "TID  CALL   OK\n  5  a      fine\n  5    b    SLOW\n  5      c  -\n"
                                   "  5    d    fine\n");
        else if (mode == GD_OUT_CSV)
            ck_assert_str_eq(text, "tid,call,ok\n5,a,true\n5,  b,false\n5,    c,\n5,  d,true\n");
        else if (mode == GD_OUT_JSONL)
            ck_assert_str_eq(text, "{\"tid\":5,\"name\":\"a\",\"ok\":true,\"kids\":[{\"name\":\"b\",\"ok\":false,"
                                   "\"kids\":[{\"name\":\"c\",\"ok\":null,\"kids\":[]}]},{\"name\":\"d\",\"kids\":[]}]}\n");
        free(text);
        text = NULL;
    }
    json_decref(tree);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("render_values");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_text_as_jansson);
    tcase_add_test(tc, test_modes_as_json_rows);
    tcase_add_test(tc, test_paths);
    tcase_add_test(tc, test_tree_rows_and_words);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
