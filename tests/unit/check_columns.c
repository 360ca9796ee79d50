/* check_columns.c - query/columns: a declared list's SELECT text, and its
 * one row builder with nested objects and reals that may be missing (#45 item 1). */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "query/columns.h"
#include "testutil.h"

#define T_COLS(X, J)                                      \
    X(T_ID, "t.id", "id", "ID", INT, 0)                   \
    X(T_NAME, NULL, "name", "NAME", TEXT, 0)              \
    J(T_LEVELS, NULL, "levels", NULL, TEXT, 0)            \
    X(T_PCT, "round(t.x, 2)", "pct", "PCT%", NUM, 0)      \
    X(T_FPS, NULL, "fps", "FPS", NUM, 0)
enum { T_COLS(GD_QC_ID, GD_QC_ID) T_NCOLS };
GD_QCOLS_DEFINE(t_cols, T_COLS);

/* the SELECT names the fields read from SQL by their keys, in order;
 * a computed field has no column */
START_TEST(select_list)
{
    char buf[256];
    ck_assert_int_eq(gd_qcols_select(&t_cols, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "t.id AS \"id\", round(t.x, 2) AS \"pct\"");
    ck_assert_int_eq(gd_qcols_pos(&t_cols, T_PCT), 1);
    ck_assert_int_eq(gd_qcols_pos(&t_cols, T_NCOLS), 2);
    ck_assert_int_eq(gd_qcols_select(&t_cols, buf, 10), -1);
}
END_TEST

/* a nested object (gd_qv_nested of a gd_rowb) keeps its keys' order; a NAN
 * or an infinite real given to gd_qv_num is null */
START_TEST(nested_row_and_missing_reals)
{
    gd_value v[T_NCOLS];
    gd_qv_int(&v[T_ID], 7);
    gd_qv_text(&v[T_NAME], "Main");
    gd_rowb b;
    gd_rowb_init(&b);
    gd_rowb_int(&b, "best", 421);
    gd_rowb_int(&b, "normal", 12);
    gd_rowb_int(&b, "frozen", 0);
    gd_qv_nested(&v[T_LEVELS], &b.row);
    gd_qv_num(&v[T_PCT], NAN);
    gd_qv_num(&v[T_FPS], INFINITY);
    json_t *row = gd_qcols_json(&t_cols, v);
    ck_assert_ptr_nonnull(row);
    char *text = json_dumps(row, JSON_COMPACT);
    ck_assert_str_eq(text, "{\"id\":7,\"name\":\"Main\",\"levels\":{\"best\":421,\"normal\":12,\"frozen\":0},\"pct\":null,\"fps\":null}");
    free(text);
    json_decref(row);
    gd_qv_num(&v[T_FPS], 52.3);
    row = gd_qcols_json(&t_cols, v);
    ck_assert(json_real_value(json_object_get(row, "fps")) == 52.3);
    json_decref(row);
    gd_qcols_clear(&t_cols, v);
}
END_TEST

#define R_COLS(X, J)                                       \
    X(R_ID, "7", "id", "ID", INT, 0)                       \
    X(R_MS, "1.23456789", "ms", "MS", MS, 0)               \
    J(R_DOC, "'{\"a\": [1, null]}'", "doc", NULL, TEXT, GD_QC_PARSE)
GD_QCOLS_DEFINE(r_cols, R_COLS);

/* gd_qcols_row: every field read from SQL as its type says (ms rounded
 * to microseconds, a JSON text parsed) and built in one */
START_TEST(row_of_statement)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    char fields[256], sql[300];
    ck_assert_int_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
    ck_assert_int_eq(gd_qcols_select(&r_cols, fields, sizeof fields), 0);
    snprintf(sql, sizeof sql, "SELECT %s", fields);
    ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    json_t *row = gd_qcols_row(&r_cols, st);
    char *text = json_dumps(row, JSON_COMPACT | JSON_REAL_PRECISION(16)); /* as the renderer */
    ck_assert_str_eq(text, "{\"id\":7,\"ms\":1.235,\"doc\":{\"a\":[1,null]}}");
    free(text);
    json_decref(row);
    sqlite3_finalize(st);
    sqlite3_close(db);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("columns");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, select_list);
    tcase_add_test(tc, nested_row_and_missing_reals);
    tcase_add_test(tc, row_of_statement);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
