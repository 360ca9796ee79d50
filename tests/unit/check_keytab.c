/* check_keytab.c - the keyed table of core/keytab.h (#24: one table for the
 * Perfetto reader's interned names, profile entries and kernel symbols). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/keytab.h"
#include "testutil.h"

START_TEST(test_find_put_kinds)
{
    gd_keytab t = {0};
    int fresh = -1;
    ck_assert_ptr_null(gd_keytab_find(&t, 7, 0));
    gd_keytab_ent *e = gd_keytab_put(&t, 7, 0, &fresh);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(fresh, 1);
    ck_assert_ptr_null(e->val);
    e->val = "seven";
    e->len = 5;
    /* the same key of another kind is another entry; key 0 is a key */
    gd_keytab_ent *f = gd_keytab_put(&t, 7, 5, &fresh);
    ck_assert_int_eq(fresh, 1);
    f->val = "seven/5";
    ck_assert_ptr_nonnull(gd_keytab_put(&t, 0, 0, &fresh));
    ck_assert_int_eq(fresh, 1);
    ck_assert_uint_eq(t.n, 3);
    /* a put of a present key returns its entry, not a new one */
    e = gd_keytab_put(&t, 7, 0, &fresh);
    ck_assert_int_eq(fresh, 0);
    ck_assert_str_eq(e->val, "seven");
    ck_assert_uint_eq(e->len, 5);
    ck_assert_str_eq(gd_keytab_find(&t, 7, 5)->val, "seven/5");
    ck_assert_ptr_null(gd_keytab_find(&t, 7, 6));
    ck_assert_ptr_null(gd_keytab_find(&t, 8, 0));
    ck_assert_uint_eq(t.n, 3);
    gd_keytab_clear(&t);
    ck_assert_uint_eq(t.n, 0);
    ck_assert_ptr_null(gd_keytab_find(&t, 7, 0));
    gd_keytab_clear(&t);
}
END_TEST

/* 100,000 keys through the table's growth: each found with its value, the
 * load at most half, the absent ones not found. */
START_TEST(test_growth)
{
    gd_keytab t = {0};
    int fresh;
    for (uintptr_t i = 1; i <= 100000; i++) {
        gd_keytab_ent *e = gd_keytab_put(&t, (uint64_t)i << 20, 17, &fresh);
        ck_assert_ptr_nonnull(e);
        ck_assert_int_eq(fresh, 1);
        e->val = (void *)i;
    }
    ck_assert_uint_eq(t.n, 100000);
    ck_assert_uint_le(t.n * 2, t.cap);
    ck_assert_uint_eq(t.cap & (t.cap - 1), 0);
    size_t used = 0;
    for (size_t i = 0; i < t.cap; i++)
        used += t.t[i].used != 0;
    ck_assert_uint_eq(used, 100000);
    for (uintptr_t i = 1; i <= 100000; i++) {
        const gd_keytab_ent *e = gd_keytab_find(&t, (uint64_t)i << 20, 17);
        ck_assert_ptr_nonnull(e);
        ck_assert_ptr_eq(e->val, (void *)i);
        ck_assert_ptr_null(gd_keytab_find(&t, (uint64_t)i << 20, 19));
        ck_assert_ptr_null(gd_keytab_find(&t, ((uint64_t)i << 20) + 1, 17));
    }
    gd_keytab_clear(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("keytab");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_find_put_kinds);
    tcase_add_test(tc, test_growth);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
