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

int main(void)
{
    Suite *s = suite_create("startups");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, phases_by_launch);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
