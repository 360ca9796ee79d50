/* check_chanswer.c - numbers of a ClickHouse answer range-checked before
 * any conversion (#53 item 3: gd_ch_count, gd_ch_real). */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>

#include "fleet/clickhouse.h"
#include "testutil.h"

static int count_of(json_t *v, int64_t *out)
{
    int ok = gd_ch_count(v, out);
    json_decref(v);
    return ok;
}

START_TEST(counts_in_range_only)
{
    int64_t n = -7;
    ck_assert(count_of(json_integer(0), &n) && n == 0);
    ck_assert(count_of(json_integer(123456789012LL), &n) && n == 123456789012LL);
    ck_assert(count_of(json_real(42.0), &n) && n == 42);
    ck_assert(count_of(json_real(9007199254740992.0), &n) && n == 9007199254740992LL);
    n = -7;
    ck_assert(!count_of(json_real(1e300), &n));  /* (long)1e300 was undefined */
    ck_assert(!count_of(json_real(-1e300), &n));
    ck_assert(!count_of(json_real(9.3e18), &n)); /* past int64 */
    ck_assert(!count_of(json_real(18014398509481984.0), &n)); /* past 2^53 */
    ck_assert(!count_of(json_real(2.5), &n));
    ck_assert(!count_of(json_real(-1.0), &n));
    ck_assert(!count_of(json_integer(-1), &n));
    ck_assert(!count_of(json_string("5"), &n));
    ck_assert(!count_of(json_null(), &n));
    ck_assert(!gd_ch_count(NULL, &n));
    ck_assert_int_eq(n, -7); /* untouched when refused */
}
END_TEST

START_TEST(reals_finite_only)
{
    double d = -1;
    json_t *v = json_real(1e300);
    ck_assert(gd_ch_real(v, &d) && d == 1e300); /* a measure may be large */
    json_decref(v);
    v = json_integer(3);
    ck_assert(gd_ch_real(v, &d) && d == 3.0);
    json_decref(v);
    v = json_string("inf");
    ck_assert(!gd_ch_real(v, &d));
    json_decref(v);
    ck_assert(!gd_ch_real(NULL, &d));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chanswer");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, counts_in_range_only);
    tcase_add_test(tc, reals_finite_only);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
