/* check_states.c - derive/states: which of a block's "why" figures are data, and a group's shares. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "derive/states.h"
#include "testutil.h"

static gd_why why(double run, double rn, double sl, double d, double binder, double lock)
{
    gd_why w = {0};
    w.states.running = run, w.states.runnable = rn, w.states.sleeping = sl, w.states.uninterruptible = d;
    w.states.covered = run + rn + sl + d;
    w.binder.ms = binder;
    w.lock.ms = lock;
    return w;
}

START_TEST(values_are_data_by_the_traces_bits)
{
    double v[GD_WHY_NVALUES];
    gd_why w = why(200, 150, 0, 250, 0, 0);
    gd_why_values(&w, GD_WHY_SCHED, v);
    ck_assert(v[GD_WHY_V_RUNNING] == 200 && v[GD_WHY_V_RUNNABLE] == 150 && v[GD_WHY_V_SLEEPING] == 0);
    ck_assert(v[GD_WHY_V_UNINTERRUPTIBLE] == 250 && v[GD_WHY_V_COVERED] == 600);
    ck_assert(v[GD_WHY_V_BINDER] == 0 && v[GD_WHY_V_LOCK] == 0); /* 0 ms: data, not "none" */
    /* a trace with lock slices only: no states, no binder, the lock time */
    w = why(0, 0, 0, 0, 0, 40);
    gd_why_values(&w, GD_WHY_LOCK, v);
    ck_assert(isnan(v[GD_WHY_V_RUNNING]) && isnan(v[GD_WHY_V_UNINTERRUPTIBLE]) && v[GD_WHY_V_COVERED] == 0);
    ck_assert(isnan(v[GD_WHY_V_BINDER]) && v[GD_WHY_V_LOCK] == 40);
    /* a trace with nothing: every figure none, the covered time 0 */
    w = why(0, 0, 0, 0, 0, 0);
    gd_why_values(&w, 0, v);
    ck_assert(isnan(v[GD_WHY_V_RUNNING]) && isnan(v[GD_WHY_V_BINDER]) && isnan(v[GD_WHY_V_LOCK]));
    ck_assert(v[GD_WHY_V_COVERED] == 0);
}
END_TEST

START_TEST(group_shares)
{
    /* two 600 ms blocks: 200+150+250 and 600 ms without data (NANs) */
    double sums[GD_WHY_NVALUES] = {200, 150, 0, 250, 600, 30, NAN};
    json_t *row = json_object();
    ck_assert_int_eq(gd_why_shares_json(row, sums, 1200, GD_WHY_SCHED), 0);
    ck_assert(json_real_value(json_object_get(row, "running_share")) == 0.1667);
    ck_assert(json_real_value(json_object_get(row, "runnable_share")) == 0.125);
    ck_assert(json_real_value(json_object_get(row, "uninterruptible_share")) == 0.2083);
    ck_assert(json_real_value(json_object_get(row, "states_coverage")) == 0.5);
    ck_assert(json_real_value(json_object_get(row, "binder_share")) == 0.025);
    ck_assert(json_real_value(json_object_get(row, "lock_share")) == 0); /* sched data: lock 0 */
    /* no block with data: null shares, coverage 0 */
    double none[GD_WHY_NVALUES] = {NAN, NAN, NAN, NAN, 0, NAN, NAN};
    ck_assert_int_eq(gd_why_shares_json(row, none, 1200, 0), 0);
    ck_assert(json_is_null(json_object_get(row, "running_share")));
    ck_assert(json_is_null(json_object_get(row, "binder_share")) && json_is_null(json_object_get(row, "lock_share")));
    ck_assert(json_real_value(json_object_get(row, "states_coverage")) == 0);
    json_decref(row);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("states");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, values_are_data_by_the_traces_bits);
    tcase_add_test(tc, group_shares);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
