/* check_startups.c - a trace launch's phases into startup_phase (derive/startups). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "derive/startups.h"
#include "testutil.h"

static gd_store *open_db(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/check_startups.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/g.db", dir);
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, path, GD_STORE_RW, &err), 0);
    return s;
}

static double one(gd_store *s, const char *sql)
{
    gd_error err = {0};
    sqlite3_stmt *q = gd_store_prepare(s, sql, &err);
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    double v = sqlite3_column_type(q, 0) == SQLITE_NULL ? -1 : sqlite3_column_double(q, 0);
    sqlite3_finalize(q);
    return v;
}

/* Two launches of one app (1000..1500 and 3000..3400 ms), the second warm;
 * a reportFullyDrawn at 3600 belongs to the second launch, not the first
 * (before the app's next launch); "Start proc:" of another app is no phase
 * of this one; a logcat launch gets no phases; no thread_state: no states. */
START_TEST(phases_by_launch)
{
    char dir[64];
    gd_store *s = open_db(dir, sizeof dir);
    gd_error err = {0};
    ck_assert_int_eq(
        gd_store_exec(s,
                      "INSERT INTO trace (id, source, format, hash, short_ms, long_ms, anr_ms, ingested_at)"
                      " VALUES (1, 't', 'perfetto', 'h', 16, 100, 5000, 'now');"
                      "INSERT INTO startup (id, trace, app, kind, total_ms, source, ts_ms) VALUES"
                      " (1, 1, 'com.a', 'cold', 500, 'perfetto', 1500),"
                      " (2, 1, 'com.a', 'warm', 400, 'perfetto', 3400),"
                      " (3, 1, 'com.a', 'cold', 900, 'logcat', 9000);"
                      "INSERT INTO thread (trace, pid, tid, name) VALUES (1, 7, 7, 'com.a'), (1, 2, 2, 'system_server');"
                      "INSERT INTO message (id, text) VALUES (1, 'Start proc: com.b'), (2, 'bindApplication'),"
                      " (3, 'activityStart'), (4, 'activityResume'), (5, 'Choreographer#doFrame'),"
                      " (6, 'reportFullyDrawn() for com.a');"
                      "INSERT INTO dispatch (trace, pid, tid, start_ms, dur_ms, message) VALUES"
                      " (1, 2, 2, 1010, 20, 1), (1, 7, 7, 1100, 50, 2), (1, 7, 7, 1200, 30, 3),"
                      " (1, 7, 7, 1240, 10, 4), (1, 7, 7, 1300, 100, 5),"
                      " (1, 7, 7, 3100, 40, 3), (1, 7, 7, 3150, 20, 4), (1, 7, 7, 3200, 150, 5),"
                      " (1, 7, 7, 3600, 5, 6), (1, 7, 7, 3590, 30, 5);",
                      &err),
        0);
    ck_assert_int_eq(gd_derive_startup_phases(s, 1, &err), 0);
    ck_assert_int_eq((int)one(s, "SELECT count(*) FROM startup_phase WHERE startup = 1"), 5);
    ck_assert_int_eq((int)one(s, "SELECT count(*) FROM startup_phase WHERE startup = 3"), 0);
    ck_assert_int_eq((int)one(s, "SELECT count(*) FROM startup_phase WHERE phase GLOB '*process*'"), 0);
    ck_assert_double_eq_tol(one(s, "SELECT dur_ms FROM startup_phase WHERE startup = 1 AND phase = 'bind_application'"), 50, 1e-9);
    ck_assert_double_eq_tol(one(s, "SELECT dur_ms FROM startup_phase WHERE startup = 1 AND phase = 'first_frame'"), 100, 1e-9);
    ck_assert_double_eq_tol(one(s, "SELECT count(*) FROM startup_phase WHERE startup = 1 AND phase = 'fully_drawn'"), 0, 1e-9);
    ck_assert_double_eq_tol(one(s, "SELECT ts_ms FROM startup_phase WHERE startup = 2 AND phase = 'fully_drawn'"), 3600, 1e-9);
    ck_assert_double_eq_tol(one(s, "SELECT running_ms FROM startup_phase WHERE startup = 2 AND phase = 'launch'"), -1, 1e-9);
    /* TTFD: the frame 3590..3620 ends after reportFullyDrawn began: 3620 - 3000 */
    ck_assert_double_eq_tol(one(s, "SELECT ttfd_ms FROM startup WHERE id = 2"), 620, 1e-9);
    ck_assert_double_eq_tol(one(s, "SELECT ttfd_ms FROM startup WHERE id = 1"), -1, 1e-9);
    gd_store_close(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static int count_op(void *ctx)
{
    ++*(long *)ctx;
    return 0;
}

/* SQLite virtual machine steps of deriving the phases of n launches of
 * one app, each with its launch slices, 20 frames after it and thread
 * states of its main thread; checks the phases of the last launch. */
static long phase_steps(int n)
{
    char dir[64];
    gd_store *s = open_db(dir, sizeof dir);
    gd_error err = {0};
    ck_assert_int_eq(gd_store_exec(s,
                                   "BEGIN;"
                                   "INSERT INTO trace (id, source, format, hash, short_ms, long_ms, anr_ms, ingested_at)"
                                   " VALUES (1, 't', 'perfetto', 'h', 16, 100, 5000, 'now');"
                                   "INSERT INTO thread (trace, pid, tid, name) VALUES (1, 7, 7, 'com.a'), (1, 7, 8, 'RenderThread');"
                                   "INSERT INTO message (id, text) VALUES (1, 'Start proc: com.a'), (2, 'bindApplication'),"
                                   " (3, 'activityStart'), (4, 'activityResume'), (5, 'Choreographer#doFrame'),"
                                   " (6, 'reportFullyDrawn() for com.a'), (7, 'DrawFrame')",
                                   &err),
                     0);
    for (int i = 0; i < n; i++) {
        double t = 1000.0 * i;
        char sql[1024];
        snprintf(sql, sizeof sql,
                 "INSERT INTO startup (trace, app, kind, total_ms, source, ts_ms) VALUES (1, 'com.a', 'cold', 300, 'perfetto', %g);"
                 "INSERT INTO dispatch (trace, pid, tid, start_ms, dur_ms, message) VALUES"
                 " (1, 2, 2, %g, 20, 1), (1, 7, 7, %g, 50, 2), (1, 7, 7, %g, 30, 3), (1, 7, 7, %g, 10, 4),"
                 " (1, 7, 7, %g, 40, 5), (1, 7, 7, %g, 2, 6), (1, 7, 8, %g, 20, 7);"
                 "INSERT INTO thread_state (trace, pid, tid, ts_ms, dur_ms, state, id) VALUES"
                 " (1, 7, 7, %g, 150, 'Running', %d), (1, 7, 7, %g, 150, 'S', %d), (1, 7, 7, %g, 700, 'R', %d)",
                 t + 300, t + 5, t + 40, t + 100, t + 140, t + 160, t + 250, t + 165, t, 3 * i + 1, t + 150, 3 * i + 2, t + 300, 3 * i + 3);
        ck_assert_int_eq(gd_store_exec(s, sql, &err), 0);
        for (int f = 0; f < 20; f++) {
            snprintf(sql, sizeof sql,
                     "INSERT INTO dispatch (trace, pid, tid, start_ms, dur_ms, message) VALUES"
                     " (1, 7, 7, %g, 8, 5), (1, 7, 8, %g, 5, 7)",
                     t + 400 + f * 25, t + 405 + f * 25);
            ck_assert_int_eq(gd_store_exec(s, sql, &err), 0);
        }
    }
    ck_assert_int_eq(gd_store_exec(s, "COMMIT", &err), 0);
    long ops = 0;
    sqlite3_progress_handler(gd_store_db(s), 1, count_op, &ops);
    ck_assert_int_eq(gd_derive_startup_phases(s, 1, &err), 0);
    sqlite3_progress_handler(gd_store_db(s), 0, NULL, NULL);
    char q[256];
    snprintf(q, sizeof q, "SELECT count(*) FROM startup_phase p JOIN startup u ON u.id = p.startup WHERE u.ts_ms = %g", 1000.0 * (n - 1) + 300);
    ck_assert_int_eq((int)one(s, q), 8); /* launch, before and start process, 4 main, fully drawn */
    snprintf(q, sizeof q, "SELECT running_ms FROM startup_phase p JOIN startup u ON u.id = p.startup WHERE u.ts_ms = %g AND phase = 'launch'", 1000.0 * (n - 1) + 300);
    ck_assert_double_eq_tol(one(s, q), 150, 1e-9);
    snprintf(q, sizeof q, "SELECT ttfd_ms FROM startup WHERE ts_ms = %g", 1000.0 * (n - 1) + 300);
    /* the first frame ending after reportFullyDrawn (+250) is +400, its DrawFrame +405..+410 */
    ck_assert_double_eq_tol(one(s, q), 410, 1e-9);
    gd_store_close(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    return ops;
}

/* #53: the work of the phases follows the launches and slices (4 times
 * the launches: about 4 times the steps), where it grew with their square
 * (each launch read every slice of the trace: about 16 times). */
START_TEST(phases_work_is_linear)
{
    long a = phase_steps(40), b = phase_steps(160);
    ck_assert_msg(b < 6 * a, "%ld steps for 160 launches, %ld for 40", b, a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("startups");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, phases_by_launch);
    tcase_add_test(tc, phases_work_is_linear);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
