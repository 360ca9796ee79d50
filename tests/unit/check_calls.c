/* check_calls.c - per-method sums of a window's calls (derive/calls). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "derive/calls.h"
#include "testutil.h"

/* #25 item 5: N distinct methods, each called twice: every sum right, and
 * the slots compared a small multiple of the calls (a list searched from
 * the start compares N^2 of them) */
START_TEST(sums_many_methods_linear)
{
    enum { N = 100000 };
    gd_calls_accs a = {0};
    for (int rep = 0; rep < 2; rep++)
        for (int i = 0; i < N; i++) {
            gd_call c = {.id = 1 + rep * N + i, .method = 7 * i + 3, .start = i, .end = i + 1,
                         .total = rep ? 2.0 : 1.0, .self = 0.5, .open = rep && i == 5};
            ck_assert_int_eq(gd_calls_acc_call(&a, &c), 0);
        }
    ck_assert(!a.oom);
    ck_assert_uint_le(a.probes, (size_t)4 * 2 * N);
    ck_assert_uint_eq(a.n, N);
    for (size_t i = 0; i < a.n; i++) {
        const gd_calls_acc *e = &a.v[i];
        ck_assert_int_eq(e->method, 7 * (int64_t)i + 3); /* in order of first call */
        ck_assert_double_eq_tol(e->self, 1.0, 1e-12);
        ck_assert_double_eq_tol(e->total, 3.0, 1e-12);
        ck_assert_int_eq(e->count, i == 5 ? 1 : 2);
        ck_assert_int_eq(e->open, i == 5);
        ck_assert_double_eq_tol(e->max, i == 5 ? 1.0 : 2.0, 1e-12);
        ck_assert_uint_eq(e->n, (size_t)e->count);
    }
    gd_calls_accs_free(&a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("calls");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, sums_many_methods_linear);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
