/* check_columns_nested.c - a declared column list's variants (gd_qcols_vary), nested
 * objects (gd_qv_row) and quoted aliases (a key that is an SQL keyword), #45 item 1. */
#include <check.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "query/columns.h"
#include "testutil.h"

/* an outer list with a keyword key ("group"), a text a variant does not
 * read, a nested object's id; and the nested object's own list */
#define T_COLS(X, J)                                        \
    X(T_ID, "x.id", "id", "ID", INT, 0)                     \
    X(T_GROUP, "x.grp", "group", "GROUP", TEXT, 0)          \
    X(T_NAME, "upper(x.name)", "name", "NAME", TEXT, 0)     \
    J(T_MEM, "x.mem", "memory", NULL, INT, 0)               \
    X(T_KIND, NULL, "kind", "KIND", TEXT, 0)
enum { T_COLS(GD_QC_ID, GD_QC_ID) T_NCOLS };
GD_QCOLS_DEFINE(t_cols, T_COLS);
#define M_COLS(X, J)                              \
    J(M_TS, "m.ts", "ts_ms", NULL, MS, 0)         \
    J(M_LOW, "m.low", "low", NULL, BOOL, 0)
enum { M_COLS(GD_QC_ID, GD_QC_ID) M_NCOLS };
GD_QCOLS_DEFINE(m_cols, M_COLS);

static sqlite3 *test_db(void)
{
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db,
                                  "CREATE TABLE x (id INTEGER, grp TEXT, name TEXT, mem INTEGER);"
                                  "CREATE TABLE m (id INTEGER, ts REAL, low INTEGER);"
                                  "INSERT INTO x VALUES (1, 'g1', 'abc', 10), (2, 'g2', 'def', NULL);"
                                  "INSERT INTO m VALUES (10, 0.12500049, 1);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    return db;
}

/* The rows of the outer list (its variant c) with their nested objects, as
 * one compact JSON text per row, "|" between rows (malloc'ed). */
static char *rows_of(sqlite3 *db, const gd_qcols *c)
{
    char outer[512], inner[256], sql[1024];
    ck_assert_int_eq(gd_qcols_select(c, outer, sizeof outer), 0);
    ck_assert_int_eq(gd_qcols_select(&m_cols, inner, sizeof inner), 0);
    /* ORDER BY the keyword alias: it is quoted in the SELECT */
    snprintf(sql, sizeof sql, "SELECT %s, %s FROM x LEFT JOIN m ON m.id = x.mem ORDER BY \"group\" DESC", outer,
             inner);
    sqlite3_stmt *st = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    char *out = calloc(1, 1024);
    while (sqlite3_step(st) == SQLITE_ROW) {
        gd_value v[T_NCOLS], mv[M_NCOLS];
        gd_row mrow;
        gd_qcols_read(c, st, 0, v);
        gd_qv_text(&v[T_KIND], "computed");
        if (v[T_MEM].kind != GD_V_NULL) {
            gd_qcols_read(&m_cols, st, gd_qcols_pos(c, c->n), mv);
            gd_qv_row(&v[T_MEM], &mrow, &m_cols, mv);
        }
        json_t *j = gd_qcols_json(c, v);
        char *txt = json_dumps(j, JSON_COMPACT);
        if (out[0])
            strcat(out, "|");
        strcat(out, txt);
        free(txt);
        json_decref(j);
    }
    sqlite3_finalize(st);
    return out;
}

START_TEST(nested_object_and_keyword_alias)
{
    sqlite3 *db = test_db();
    char *rows = rows_of(db, &t_cols);
    ck_assert_str_eq(rows, "{\"id\":2,\"group\":\"g2\",\"name\":\"DEF\",\"memory\":null,\"kind\":\"computed\"}|"
                           "{\"id\":1,\"group\":\"g1\",\"name\":\"ABC\",\"memory\":{\"ts_ms\":0.125,\"low\":true},"
                           "\"kind\":\"computed\"}");
    free(rows);
    sqlite3_close(db);
}
END_TEST

START_TEST(variant_reads_its_own_expression)
{
    static const char *const over[T_NCOLS] = {[T_NAME] = "NULL"};
    gd_qread reads[T_NCOLS];
    gd_qcols light = gd_qcols_vary(&t_cols, over, reads);
    ck_assert_uint_eq(light.n, T_NCOLS);
    ck_assert_str_eq(light.reads[T_NAME].expr, "NULL");
    ck_assert_str_eq(light.reads[T_GROUP].expr, "x.grp"); /* the declared one */
    ck_assert_ptr_null(light.reads[T_KIND].expr);         /* computed stays computed */
    ck_assert_str_eq(t_cols.reads[T_NAME].expr, "upper(x.name)"); /* the declaration untouched */
    char sel[512];
    ck_assert_int_eq(gd_qcols_select(&light, sel, sizeof sel), 0);
    ck_assert_str_eq(sel, "x.id AS \"id\", x.grp AS \"group\", NULL AS \"name\", x.mem AS \"memory\"");
    sqlite3 *db = test_db();
    char *rows = rows_of(db, &light);
    ck_assert_str_eq(rows, "{\"id\":2,\"group\":\"g2\",\"name\":null,\"memory\":null,\"kind\":\"computed\"}|"
                           "{\"id\":1,\"group\":\"g1\",\"name\":null,\"memory\":{\"ts_ms\":0.125,\"low\":true},"
                           "\"kind\":\"computed\"}");
    free(rows);
    sqlite3_close(db);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("columns_nested");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, nested_object_and_keyword_alias);
    tcase_add_test(tc, variant_reads_its_own_expression);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
