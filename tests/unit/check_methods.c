/* check_methods.c - calls rebuilt from buffered method events (derive/methods): the
 * events sorted in memory and the events sorted by SQLite give the same calls. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "derive/methods.h"
#include "store/sql.h"
#include "testutil.h"

static char dir[64];

static gd_store *open_db(void)
{
    snprintf(dir, sizeof dir, "/tmp/check_methods.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/g.db", dir);
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, path, GD_STORE_RW, &err), 0);
    ck_assert_int_eq(gd_store_exec(s,
                                   "INSERT INTO trace (id, source, format, hash, short_ms, long_ms, anr_ms,"
                                   " ingested_at) VALUES (1, 't', 'perfetto', 'h', 16, 100, 5000, 'now')",
                                   &err),
                     0);
    return s;
}

static void close_db(gd_store *s)
{
    gd_store_close(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* How put_all's events differ: a NaN time at event 2000; no event of the
 * main thread given as -1; or only from event 2000 on. */
enum { WITH_NAN = 1, NO_MAIN = 2, MAIN_LATE = 4 };

/* Events on three threads (one of them the main thread given as -1), in an
 * order that is not time order: enter/exit pairs, an exit without its
 * enter, calls left open, and complete calls that tie on start, on depth
 * and on end, so that every key of the order decides somewhere. */
static void put_all(gd_mw *m, int mode)
{
    static const char *const names[] = {"run", "draw", "measure", "layout", "inflate"};
    gd_error err = {0};
    unsigned x = 12345;
    for (int i = 0; i < 3000; i++) {
        x = x * 1103515245u + 12345u;
        unsigned r = x >> 8;
        gd_event ev = {.kind = GD_EV_METHOD};
        int t = (int)(r % 3);
        int main = t == 0 && !(mode & NO_MAIN) && (!(mode & MAIN_LATE) || i >= 2000);
        ev.pid = main ? -1 : 100;
        ev.tid = main ? -1 : t == 1 ? 101 : t == 2 ? 102 : 103;
        ev.ts = 1000 + (double)(r % 97) / 4; /* many ties */
        gd_method_ev *me = &ev.u.method;
        me->cls = (r >> 3) % 2 ? "com/a/View" : "com.a.Other";
        me->method = names[(r >> 5) % 5];
        me->desc = (r >> 9) % 3 ? NULL : "()V";
        if ((r >> 11) % 4 == 0) {
            me->phase = (r >> 13) % 2 ? GD_PHASE_BEGIN : GD_PHASE_END;
            me->end_ts = NAN;
            me->depth = -1;
        } else {
            me->phase = GD_PHASE_UNKNOWN;
            me->end_ts = (r >> 14) % 5 == 0 ? NAN : ev.ts + (double)((r >> 16) % 8);
            me->depth = (int)((r >> 19) % 4) - 1;
            me->open = (r >> 22) % 7 == 0;
        }
        if ((mode & WITH_NAN) && i == 2000)
            ev.ts = NAN;
        ck_assert_int_eq(gd_mw_put(m, &ev, &err), GD_OK);
    }
}

/* The two dumps are the same (whole dumps are too long for a message). */
#define SAME(a, b) ck_assert_msg(strcmp((a), (b)) == 0, "calls differ: %s vs %s", #a, #b)

/* The calls written, one line each, after a rebuild with `mem_rows`. */
static char *rebuild(gd_store *s, size_t mem_rows, int mode, gd_mw_stats *st)
{
    gd_error err = {0};
    ck_assert_int_eq(gd_store_begin(s, &err), 0); /* one transaction, as an ingest */
    ck_assert_int_eq(gd_store_exec(s, "DELETE FROM call", &err), 0);
    gd_mw *m = NULL;
    ck_assert_int_eq(gd_mw_open(&m, s, 1, &err), GD_OK);
    gd_mw_set_mem_rows(m, mem_rows);
    put_all(m, mode);
    ck_assert_int_eq(gd_mw_finish(m, 7, 8, 1100, st, &err), GD_OK);
    gd_mw_free(m);
    sqlite3_stmt *q = gd_store_prepare(s,
                                       "SELECT group_concat(printf('%d %d %d %d %s %d %.17g %.17g %.17g %d %d',"
                                       " id, pid, tid, depth, coalesce(parent, '-'), method, start_ms, end_ms,"
                                       " self_ms, open, rec), char(10)) FROM (SELECT * FROM call ORDER BY id)",
                                       &err);
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    char *out = strdup((const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    ck_assert_int_eq(gd_store_commit(s, &err), 0);
    return out;
}

/* the same calls whether the events were sorted in memory, in runs merged
 * from a temporary file, or by SQLite (all of them, or from part way) */
static void same_every_way(gd_store *s, int mode, size_t run_rows, gd_mw_stats *st, char **dump)
{
    gd_mw_stats b, c;
    char *in_memory = rebuild(s, (size_t)1 << 20, mode, st);
    char *in_sqlite = rebuild(s, 0, mode, &b);
    char *in_runs = rebuild(s, run_rows, mode, &c);
    SAME(in_memory, in_sqlite);
    SAME(in_memory, in_runs);
    ck_assert_int_eq(st->calls, b.calls);
    ck_assert_int_eq(st->unbalanced, b.unbalanced);
    ck_assert_int_eq(st->unclosed, b.unclosed);
    ck_assert_int_eq(st->too_deep, b.too_deep);
    ck_assert_int_eq(st->calls, c.calls);
    ck_assert_int_eq(st->unbalanced, c.unbalanced);
    free(in_sqlite);
    free(in_runs);
    *dump = in_memory;
}

START_TEST(memory_runs_and_sqlite_same_calls)
{
    gd_store *s = open_db();
    gd_mw_stats a;
    char *d;
    /* 3000 events in runs of 500 (a merge of 6) or 1024 */
    same_every_way(s, NO_MAIN, 500, &a, &d);
    ck_assert_int_gt(a.calls, 2000);
    ck_assert_int_gt(a.unbalanced, 0);
    ck_assert_int_gt(a.unclosed + a.too_deep, 0);
    ck_assert_ptr_null(strstr(d, " 7 8 "));
    free(d);
    same_every_way(s, NO_MAIN, 1024, &a, &d);
    free(d);
    /* -1 ids in the first run: everything to SQLite when it fills */
    same_every_way(s, 0, 500, &a, &d);
    ck_assert_ptr_nonnull(strstr(d, " 7 8 ")); /* the -1 thread is the main one given to finish */
    ck_assert_ptr_null(strstr(d, " -1 "));
    free(d);
    /* -1 ids once runs exist: the runs are read back into SQLite when the
     * next run would hold them (runs of 500), or they stay in memory for
     * the merge (runs of 1000: events 2000 to 2999 are in memory) */
    same_every_way(s, MAIN_LATE, 500, &a, &d);
    ck_assert_ptr_nonnull(strstr(d, " 7 8 "));
    free(d);
    same_every_way(s, MAIN_LATE, 1000, &a, &d);
    ck_assert_ptr_nonnull(strstr(d, " 7 8 "));
    free(d);
    /* a NaN time (SQLite stores NULL): the rest to SQLite, runs or not */
    same_every_way(s, WITH_NAN | NO_MAIN, 500, &a, &d);
    free(d);
    same_every_way(s, WITH_NAN, 1 << 20, &a, &d);
    free(d);
    close_db(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("methods");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, memory_runs_and_sqlite_same_calls);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
