/* check_columns_absent.c - a query's declared columns (query/columns.h, #45 item 1):
 * the SELECT list, the one row builder, a field left out (gd_qv_absent). */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "query/anr_context.h"
#include "query/columns.h"
#include "store/sql.h" /* GD_SQL_BLOCK_KIND of GD_ANR_CONTEXT_COLS */
#include "testutil.h"

#define DEMO_COLS(X, J)                                 \
    X(D_TRACE, "t.id", "trace", "TRACE", INT, 0)        \
    J(D_EXTRA, NULL, "extra", NULL, TIME, 0)            \
    X(D_NAME, "t.name", "name", "NAME", TEXT, 0)        \
    X(D_MS, NULL, "ms", "MS", MS, 0)
enum { DEMO_COLS(GD_QC_ID, GD_QC_ID) D_NCOLS };
GD_QCOLS_DEFINE(demo_cols, DEMO_COLS);

/* the SELECT names each column read from SQL by its key, in order; the
 * computed fields are not in it */
START_TEST(select_list)
{
    char buf[256];
    ck_assert_int_eq(gd_qcols_select(&demo_cols, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "t.id AS \"trace\", t.name AS \"name\"");
    ck_assert_int_eq(gd_qcols_select(&demo_cols, buf, 10), -1); /* too long: said */
    ck_assert_int_eq(gd_qcols_pos(&demo_cols, D_NAME), 1);
    ck_assert_int_eq(gd_qcols_pos(&demo_cols, D_NCOLS), 2);
}
END_TEST

/* a field set absent is left out of the row, one set null is there as
 * null; the keys come in the declared order */
START_TEST(absent_left_out)
{
    gd_value v[D_NCOLS];
    gd_qv_int(&v[D_TRACE], 7);
    gd_qv_absent(&v[D_EXTRA]);
    gd_qv_text(&v[D_NAME], "main");
    gd_qv_null(&v[D_MS]);
    json_t *row = gd_qcols_json(&demo_cols, v);
    ck_assert_ptr_nonnull(row);
    char *t = json_dumps(row, JSON_COMPACT);
    ck_assert_str_eq(t, "{\"trace\":7,\"name\":\"main\",\"ms\":null}");
    free(t);
    json_decref(row);
    gd_qv_ms(&v[D_EXTRA], 1.50049); /* rounded to microseconds */
    gd_qv_ms(&v[D_MS], NAN); /* not a number: null, not left out */
    row = gd_qcols_json(&demo_cols, v);
    t = json_dumps(row, JSON_COMPACT);
    ck_assert_str_eq(t, "{\"trace\":7,\"extra\":1.5,\"name\":\"main\",\"ms\":null}");
    free(t);
    json_decref(row);
}
END_TEST

/* `anr --context`: the union's first SELECT names the columns every
 * other branch fills by position, so its list is the rows' (trace,
 * ts_ms, kind, tid, dur_ms, what, block, in this order) */
START_TEST(anr_context_select)
{
    enum { GD_ANR_CONTEXT_COLS(GD_QC_ID, GD_QC_ID) CX_NCOLS };
    GD_QCOLS_DEFINE(cx, GD_ANR_CONTEXT_COLS);
    char buf[512];
    ck_assert_int_eq(gd_qcols_select(&cx, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "d.trace AS \"trace\", d.start_ms AS \"ts_ms\", 'block' AS \"kind\", d.tid AS \"tid\","
                          " d.dur_ms AS \"dur_ms\", m.text AS \"what\","
                          " gd_block_kind(d.dur_ms, t.long_ms, t.anr_ms) AS \"block\"");
    ck_assert_int_eq(gd_qcols_pos(&cx, CX_NCOLS), 7);
    ck_assert_str_eq(cx.keys[CX_BEFORE], "before_ms");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("columns_absent");
    TCase *tc = tcase_create("query");
    tcase_add_test(tc, select_list);
    tcase_add_test(tc, absent_left_out);
    tcase_add_test(tc, anr_context_select);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
