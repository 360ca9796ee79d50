/* check_states.c - derive/states: which of a block's "why" figures are data, and a group's shares. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

/* ---- #53: binder time per block ---- */

static gd_store *open_db(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/check_states.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/g.db", dir);
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, path, GD_STORE_RW, &err), 0);
    gd_store_exec(s, "INSERT INTO trace (id, source, format, hash, short_ms, long_ms, anr_ms, ingested_at)"
                     " VALUES (1, 't', 'perfetto', 'h', 16, 100, 5000, 'now')", &err);
    return s;
}

static void close_db(gd_store *s, const char *dir)
{
    gd_store_close(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static void call(gd_store *s, long id, double ts, double dur, int server)
{
    char sql[256];
    gd_error err = {0};
    snprintf(sql, sizeof sql,
             "INSERT INTO binder_txn (id, trace, client_pid, client_tid, ts_ms, dur_ms, server_pid, oneway)"
             " VALUES (%ld, 1, 7, 7, %.17g, %.17g, %d, 0)", id, ts, dur, server);
    ck_assert_int_eq(gd_store_exec(s, sql, &err), 0);
}

/* The binder time of [a, b) as every earlier call of the thread gives it
 * (the lookup before #53): the calls in time order, each instant counted
 * once, for the first call covering it; and the server with the most. */
static double brute(gd_store *s, double a0, double b0, int64_t *server)
{
    gd_error err = {0};
    sqlite3_stmt *q = gd_store_prepare(s, "SELECT ts_ms, dur_ms, server_pid FROM binder_txn WHERE trace = 1"
                                          " AND client_tid = 7 AND oneway = 0 AND dur_ms IS NOT NULL"
                                          " AND ts_ms < ?2 AND ts_ms + dur_ms > ?1 ORDER BY ts_ms, id", &err);
    ck_assert_ptr_nonnull(q);
    sqlite3_bind_double(q, 1, a0);
    sqlite3_bind_double(q, 2, b0);
    double covered = a0, ms = 0, per[8] = {0};
    int pid[8], np = 0; /* the servers in the order they first add time */
    while (sqlite3_step(q) == SQLITE_ROW) {
        double a = sqlite3_column_double(q, 0), b = a + sqlite3_column_double(q, 1);
        if (a < covered)
            a = covered;
        if (b > b0)
            b = b0;
        if (!(b > a))
            continue;
        covered = b;
        ms += b - a;
        int p = sqlite3_column_int(q, 2), i;
        for (i = 0; i < np && pid[i] != p; i++)
            ;
        if (i == np)
            pid[np++] = p;
        per[i] += b - a;
    }
    sqlite3_finalize(q);
    int best = 0;
    for (int i = 1; i < np; i++)
        if (per[i] > per[best])
            best = i;
    *server = np ? pid[best] : -1;
    return ms;
}

/* Nested calls (a long one with calls inside, two levels deep), calls that
 * overlap without nesting, calls of equal start, and calls apart: over a
 * grid of ranges the bounded lookup gives what every earlier call gives. */
START_TEST(binder_in_bounded_is_the_same)
{
    char dir[64];
    gd_store *s = open_db(dir, sizeof dir);
    gd_error err = {0};
    long id = 1;
    call(s, id++, 100, 900, 1);  /* outer: 100..1000 */
    call(s, id++, 150, 100, 2);  /*   nested 150..250 */
    call(s, id++, 300, 500, 3);  /*   nested 300..800 */
    call(s, id++, 400, 50, 4);   /*     nested 400..450 */
    call(s, id++, 900, 300, 5);  /* overlaps the outer's end: 900..1200 */
    call(s, id++, 1300, 100, 1); /* apart */
    call(s, id++, 1300, 200, 2); /* same start, longer: 1300..1500 */
    call(s, id++, 1350, 10, 3);
    call(s, id++, 1450, 300, 4); /* overlaps: 1450..1750 */
    call(s, id++, 1460, 1000, 5); /* overlaps again: 1460..2460 */
    call(s, id++, 2000, 10, 6);
    ck_assert_int_eq(gd_store_exec(s, "INSERT INTO binder_txn (trace, client_tid, ts_ms, dur_ms, oneway)"
                                      " VALUES (1, 7, 50, 0, 1), (1, 7, 60, NULL, 0)", &err), 0);
    ck_assert_int_eq(gd_binder_outermost(s, 1, &err), 0);
    int checked = 0;
    for (double a = 0; a < 2600; a += 25)
        for (double len = 5; len < 1400; len += 45) {
            gd_binder_share b;
            int64_t server;
            ck_assert_int_eq(gd_binder_in(s, 1, 7, a, a + len, &b, &err), 0);
            double want = brute(s, a, a + len, &server);
            ck_assert_msg(fabs(b.ms - want) < 1e-9, "[%g, %g): %g ms, not %g", a, a + len, b.ms, want);
            ck_assert_int_eq(b.server_pid, server);
            checked += want > 0;
        }
    ck_assert_int_gt(checked, 1000);
    close_db(s, dir);
}
END_TEST

static int count_op(void *ctx)
{
    ++*(long *)ctx;
    return 0;
}

/* The work of one block's lookup (SQLite's virtual machine steps) does not
 * grow with the calls its thread made before it: 400 earlier calls or
 * 6,400 (each nested in a long one every 8), the same work to a few steps
 * (before #53 it grew with them: ~16 times). */
START_TEST(binder_in_work_is_bounded)
{
    long steps[2];
    for (int k = 0; k < 2; k++) {
        char dir[64];
        gd_store *s = open_db(dir, sizeof dir);
        gd_error err = {0};
        int n = k ? 6400 : 400;
        ck_assert_int_eq(gd_store_exec(s, "BEGIN", &err), 0);
        for (int i = 0; i < n; i++)
            call(s, i + 1, i * 10.0, i % 8 ? 2 : 75, 1 + i % 3);
        ck_assert_int_eq(gd_store_exec(s, "COMMIT", &err), 0);
        ck_assert_int_eq(gd_binder_outermost(s, 1, &err), 0);
        gd_binder_share b;
        double a = n * 10.0 - 41; /* inside the last long call's span */
        ck_assert_int_eq(gd_binder_in(s, 1, 7, a, a + 100, &b, &err), 0); /* statements prepared */
        long ops = 0;
        sqlite3_progress_handler(gd_store_db(s), 1, count_op, &ops);
        ck_assert_int_eq(gd_binder_in(s, 1, 7, a, a + 100, &b, &err), 0);
        sqlite3_progress_handler(gd_store_db(s), 0, NULL, NULL);
        int64_t server;
        ck_assert(fabs(b.ms - brute(s, a, a + 100, &server)) < 1e-9);
        ck_assert(b.ms > 0);
        steps[k] = ops;
        close_db(s, dir);
    }
    ck_assert_msg(steps[1] <= steps[0] + 50, "%ld steps for 6,400 earlier calls, %ld for 400", steps[1], steps[0]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("states");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, values_are_data_by_the_traces_bits);
    tcase_add_test(tc, group_shares);
    tcase_add_test(tc, binder_in_bounded_is_the_same);
    tcase_add_test(tc, binder_in_work_is_bounded);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
