/* check_spool.c - rows held back in a spool and written in key order by one
 * statement (store/spool.h, #50): the order given back, every kind of value,
 * the file past the memory bound, the file that fills its disk, and the
 * table without its spool. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <signal.h>
#include <unistd.h>

#include "store/spool.h"
#include "store/sql.h"
#include "store/store.h"
#include "testutil.h"

static char dir[64];
static gd_store *s;

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/godeye-check-spool-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/t.db", dir);
    gd_error err;
    ck_assert_int_eq(gd_store_open(&s, path, GD_STORE_RW, &err), GD_OK);
    ck_assert_int_eq(gd_store_exec(s, "CREATE TEMP TABLE t(p, g, a, b, c, d)", &err), GD_OK);
}

static void teardown(void)
{
    gd_store_close(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char drain_sql[] = "INSERT INTO temp.t SELECT ?1, c2, c0, c1, c3, c4 FROM gd_spool(?2)";

static gd_value vi(int64_t i) { return (gd_value){.kind = GD_V_INT, .u.i = i}; }
static gd_value vr(double d) { return (gd_value){.kind = GD_V_REAL, .u.d = d}; }
static gd_value vt(const char *t) { return (gd_value){.kind = GD_V_TEXT, .u.t = {t, strlen(t)}}; }

/* Puts a row (a, b) of group g with c, d. */
static void put(gd_spool *sp, int64_t g, gd_value a, gd_value b, gd_value c, gd_value d)
{
    gd_value v[5] = {a, b, vi(g), c, d};
    gd_error err;
    ck_assert_int_eq(gd_spool_put(sp, g, v, &err), GD_OK);
}

/* The rows of t as "g:a:b:c:d|..." in the order written. */
static char *rows(void)
{
    gd_error err;
    sqlite3_stmt *q = gd_store_prepare(
        s,
        "SELECT group_concat(g || ':' || a || ':' || b || ':' || coalesce(typeof(c) || '=' || c, 'null') ||"
        " ':' || coalesce(d, 'null'), '|') FROM (SELECT * FROM temp.t ORDER BY rowid)",
        &err);
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    const char *t = (const char *)sqlite3_column_text(q, 0);
    char *out = strdup(t ? t : "");
    sqlite3_finalize(q);
    return out;
}

START_TEST(test_groups_in_key_order)
{
    gd_spool *sp = gd_spool_new(s, 5, drain_sql, 9, 0);
    ck_assert_ptr_nonnull(sp);
    /* three groups given interleaved, in time order; a row one place late
     * (b 3 at 1.5 after b 4 at 2.0) goes back before the last one */
    put(sp, 30, vr(1.0), vi(1), vi(-7), vt("S"));
    put(sp, -5, vr(1.0), vi(2), vr(0.25), vt(""));
    put(sp, 30, vr(2.0), vi(4), (gd_value){0}, (gd_value){0});
    put(sp, 30, vr(1.5), vi(3), vi(INT64_MIN), vt("R+"));
    put(sp, 7, vr(0.5), vi(5), vi(INT64_MAX), vt("D"));
    ck_assert_int_eq(gd_spool_rows(sp), 5);
    gd_error err;
    ck_assert_int_eq(gd_spool_drain(sp, &err), GD_OK);
    char *got = rows();
    ck_assert_str_eq(got, "-5:1.0:2:real=0.25:|"
                          "7:0.5:5:integer=9223372036854775807:D|"
                          "30:1.0:1:integer=-7:S|"
                          "30:1.5:3:integer=-9223372036854775808:R+|"
                          "30:2.0:4:null:null");
    free(got);
    /* every row had ?1 */
    sqlite3_stmt *q = gd_store_prepare(s, "SELECT count(*) FROM temp.t WHERE p = 9", &err);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_int(q, 0), 5);
    sqlite3_finalize(q);
    /* read once: empty after, and a second drain writes nothing */
    ck_assert_int_eq(gd_spool_rows(sp), 0);
    ck_assert_int_eq(gd_store_exec(s, "DELETE FROM temp.t", &err), GD_OK);
    ck_assert_int_eq(gd_spool_drain(sp, &err), GD_OK);
    got = rows();
    ck_assert_str_eq(got, "");
    free(got);
    gd_spool_free(sp);
}
END_TEST

/* Past a 1 KiB bound, 300 groups of 40 rows (texts of up to 20 kB, bigger
 * than a buffer) go through the temporary file: each comes back whole, in
 * its order, groups ascending; a row two places late stays where it came. */
START_TEST(test_file_past_the_bound)
{
    gd_spool *sp = gd_spool_new(s, 5, drain_sql, 1, 1);
    ck_assert_ptr_nonnull(sp);
    static char big[20001];
    memset(big, 'x', sizeof big - 1);
    int64_t id = 0;
    for (int r = 0; r < 40; r++)
        for (int g = 299; g >= 0; g--) {
            const char *t = (g % 50 == 0 && r % 10 == 0) ? big : "S";
            put(sp, g, vr(r), vi(++id), vi(g * 1000 + r), vt(t));
        }
    /* two places late in group 5: rows (40, 12001), (41, 12002), then (39.5, 12003) */
    put(sp, 5, vr(40), vi(12001), vi(1), vt("a"));
    put(sp, 5, vr(41), vi(12002), vi(2), vt("b"));
    put(sp, 5, vr(39.5), vi(12003), vi(3), vt("c"));
    ck_assert_int_eq(gd_spool_rows(sp), 12003);
    gd_error err;
    ck_assert_int_eq(gd_spool_drain(sp, &err), GD_OK);
    sqlite3_stmt *q =
        gd_store_prepare(s, "SELECT g, a, c, length(d) FROM temp.t WHERE b <= 12000 ORDER BY rowid", &err);
    int n = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        int g = n / 40, r = n % 40;
        ck_assert_int_eq(sqlite3_column_int(q, 0), g);
        ck_assert(sqlite3_column_double(q, 1) == r);
        ck_assert_int_eq(sqlite3_column_int(q, 2), g * 1000 + r);
        ck_assert_int_eq(sqlite3_column_int(q, 3), (g % 50 == 0 && r % 10 == 0) ? 20000 : 1);
        n++;
    }
    sqlite3_finalize(q);
    ck_assert_int_eq(n, 12000);
    char *got = NULL;
    q = gd_store_prepare(s, "SELECT group_concat(g || ':' || a || d, ',') FROM (SELECT * FROM temp.t WHERE b > 12000"
                            " ORDER BY rowid)", &err);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    got = strdup((const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    ck_assert_str_eq(got, "5:40.0a,5:39.5c,5:41.0b");
    /* and they follow group 5's other rows: the row after them is group 6's first */
    q = gd_store_prepare(s, "SELECT g, b FROM temp.t WHERE rowid = (SELECT rowid FROM temp.t WHERE b = 12002) + 1", &err);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_int(q, 0), 6);
    sqlite3_finalize(q);
    free(got);
    gd_spool_free(sp);
}
END_TEST

/* The table is only read with its spool; with none given it has no rows. */
START_TEST(test_table_needs_its_spool)
{
    gd_error err;
    /* the table is registered by the first drain */
    gd_spool *sp = gd_spool_new(s, 5, drain_sql, 1, 0);
    ck_assert_int_eq(gd_spool_drain(sp, &err), GD_OK);
    gd_spool_free(sp);
    ck_assert_ptr_null(gd_store_prepare(s, "SELECT * FROM gd_spool", &err));
    sqlite3_stmt *q = gd_store_prepare(s, "SELECT count(*) FROM gd_spool(NULL)", &err);
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_int(q, 0), 0);
    sqlite3_finalize(q);
    /* a pointer of another type is no spool */
    q = gd_store_prepare(s, "SELECT count(*) FROM gd_spool(?)", &err);
    sqlite3_bind_pointer(q, 1, &err, "other", NULL);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_int(q, 0), 0);
    sqlite3_finalize(q);
}
END_TEST

/* TMPDIR set to d; the value it had, for tmpdir_back. */
static char *tmpdir_to(const char *d)
{
    char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
    setenv("TMPDIR", d, 1);
    return old;
}

static void tmpdir_back(char *old)
{
    if (old)
        setenv("TMPDIR", old, 1);
    else
        unsetenv("TMPDIR");
    free(old);
}

/* temp.t holds n rows, b once each, each group's rows in the order put
 * (a rising with the rowid); with dlen >= 0, d of each is dlen. */
static void all_written_in_order(int n, int dlen)
{
    gd_error err;
    sqlite3_stmt *q = gd_store_prepare(
        s,
        "SELECT count(*), count(DISTINCT b), sum(a <= prev), min(d), max(d) FROM (SELECT a, b, d,"
        " lag(a, 1, -1) OVER (PARTITION BY g ORDER BY rowid) AS prev FROM temp.t)",
        &err);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_int(q, 0), n);
    ck_assert_int_eq(sqlite3_column_int(q, 1), n);
    ck_assert_int_eq(sqlite3_column_int(q, 2), 0);
    if (dlen >= 0) {
        ck_assert_int_eq(sqlite3_column_int(q, 3), dlen);
        ck_assert_int_eq(sqlite3_column_int(q, 4), dlen);
    }
    sqlite3_finalize(q);
}

/* No temporary file to be had: the buffers grow to the bound, then what is
 * held goes to the table there and then; every row is written, each
 * group's in order. */
START_TEST(test_no_temporary_file)
{
    char *old = tmpdir_to("/nonexistent-godeye-dir");
    gd_spool *sp = gd_spool_new(s, 5, drain_sql, 1, 64);
    gd_error err;
    for (int i = 0; i < 20000; i++)
        put(sp, i % 7, vr(i), vi(i), vi(0), vt("S"));
    /* written at the bound already: fewer held than put */
    ck_assert_int_lt(gd_spool_rows(sp), 20000);
    ck_assert_int_gt(gd_spool_rows(sp), 0);
    ck_assert_int_eq(gd_spool_drain(sp, &err), GD_OK);
    all_written_in_order(20000, -1);
    gd_spool_free(sp);
    tmpdir_back(old);
}
END_TEST

/* The temporary file fills its disk (here: the process's file size limit,
 * EFBIG): what it and the buffers hold goes to the table then, the rows
 * after it at the bound, as with no file; every row written, each group's
 * in order, every text whole. */
START_TEST(test_file_fills_its_disk)
{
    char *old = tmpdir_to(dir);
    struct rlimit was, lim;
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &was), 0);
    lim = was;
    lim.rlim_cur = 512 * 1024;
    signal(SIGXFSZ, SIG_IGN);
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    gd_spool *sp = gd_spool_new(s, 5, "INSERT INTO temp.t SELECT ?1, c2, c0, c1, NULL, length(c4) FROM gd_spool(?2)", 1,
                                64);
    gd_error err;
    static char text[1001];
    memset(text, 'x', 1000);
    for (int i = 0; i < 4000; i++) /* about 4 MB of records: past 512 KB */
        put(sp, i % 7, vr(i), vi(i), vi(0), vt(text));
    ck_assert_int_lt(gd_spool_rows(sp), 4000); /* written at the bound since */
    ck_assert_int_eq(gd_spool_drain(sp, &err), GD_OK);
    gd_spool_free(sp);
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &was), 0);
    all_written_in_order(4000, 1000);
    tmpdir_back(old);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("spool");
    TCase *tc = tcase_create("spool");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_groups_in_key_order);
    tcase_add_test(tc, test_file_past_the_bound);
    tcase_add_test(tc, test_table_needs_its_spool);
    tcase_add_test(tc, test_no_temporary_file);
    tcase_add_test(tc, test_file_fills_its_disk);
    suite_add_tcase(su, tc);
    return gd_test_run(su);
}
