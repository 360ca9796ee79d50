/* check_columns_docs.c - query/columns.h's rows that are documents (#45 item 1):
 * a key only some rows have, a nested object of a list of its own, a row
 * of part of a list, a real that is no number. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "query/columns.h"
#include "testutil.h"

#define SIDE_COLS(X, J)                         \
    X(S_COUNT, NULL, "count", "N", INT, 0)      \
    X(S_P50, NULL, "p50_ms", "P50", MS, 0)      \
    J(S_SLOW, NULL, "slow", NULL, INT, 0)
#define ROW_COLS(X, J)                          \
    X(R_KIND, NULL, "kind", "KIND", TEXT, 0)    \
    J(R_BASE, NULL, "base", NULL, TEXT, 0)      \
    X(R_P, NULL, "p_value", "P", NUM, 0)        \
    J(R_FROZEN_P, NULL, "frozen_p_value", NULL, NUM, 0)
enum { SIDE_COLS(GD_QC_ID, GD_QC_ID) S_NCOLS };
GD_QCOLS_DEFINE(side_cols, SIDE_COLS);
enum { ROW_COLS(GD_QC_ID, GD_QC_ID) R_NCOLS };
GD_QCOLS_DEFINE(row_cols, ROW_COLS);

/* The row as compact JSON text with its keys in order (caller frees). */
static char *row_text(const gd_qcols *c, const gd_value *v)
{
    json_t *j = gd_qcols_json(c, v);
    ck_assert_ptr_nonnull(j);
    char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(j);
    return s;
}

/* a frames row: its side has every field, frozen_p_value is there; another
 * row: its side is the list's prefix (gd_qcols_sub) and frozen_p_value is
 * left out (gd_qv_absent), a NAN p null (gd_qv_num) */
START_TEST(nested_and_absent)
{
    gd_value v[R_NCOLS], s[S_NCOLS];
    gd_row r;
    gd_qv_text(&v[R_KIND], "frames");
    gd_qv_int(&s[S_COUNT], 120);
    gd_qv_ms(&s[S_P50], 16.5004); /* rounded to microseconds: 16.5 */
    gd_qv_int(&s[S_SLOW], 7);
    gd_qv_row(&v[R_BASE], &r, &side_cols, s);
    gd_qv_num(&v[R_P], 0.25);
    gd_qv_num(&v[R_FROZEN_P], 0.5);
    char *t = row_text(&row_cols, v);
    ck_assert_str_eq(t, "{\"kind\":\"frames\",\"base\":{\"count\":120,\"p50_ms\":16.5,\"slow\":7},"
                        "\"p_value\":0.25,\"frozen_p_value\":0.5}");
    free(t);

    gd_qcols plain = gd_qcols_sub(&side_cols, 0, S_SLOW);
    ck_assert_uint_eq(plain.n, 2);
    gd_qv_text(&v[R_KIND], "group");
    gd_qv_row(&v[R_BASE], &r, &plain, s);
    gd_qv_num(&v[R_P], NAN);
    gd_qv_absent(&v[R_FROZEN_P]);
    t = row_text(&row_cols, v);
    ck_assert_str_eq(t, "{\"kind\":\"group\",\"base\":{\"count\":120,\"p50_ms\":16.5},\"p_value\":null}");
    free(t);

    gd_qv_num(&v[R_P], INFINITY);
    t = row_text(&row_cols, v);
    ck_assert_ptr_nonnull(strstr(t, "\"p_value\":null"));
    free(t);
}
END_TEST

/* a suffix of a list: a nested node without its parent's first fields,
 * its values from the same array at the suffix's first field */
START_TEST(suffix_of_list)
{
    gd_value v[R_NCOLS];
    gd_qv_text(&v[R_KIND], "top");
    gd_qv_null(&v[R_BASE]);
    gd_qv_real(&v[R_P], 0.125);
    gd_qv_json(&v[R_FROZEN_P], json_pack("[ii]", 1, 2));
    gd_qcols tail = gd_qcols_sub(&row_cols, R_P, R_NCOLS);
    char *t = row_text(&tail, v + R_P);
    ck_assert_str_eq(t, "{\"p_value\":0.125,\"frozen_p_value\":[1,2]}");
    free(t);
    gd_qcols_clear(&row_cols, v);
    ck_assert_int_eq(v[R_FROZEN_P].kind, GD_V_NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("columns_docs");
    TCase *tc = tcase_create("documents");
    tcase_add_test(tc, nested_and_absent);
    tcase_add_test(tc, suffix_of_list);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
