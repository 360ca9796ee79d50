/* check_plans.c - every statement godeye runs on the clustered big tables
 * (#50: thread_state) is planned as a lookup by their key, and every one
 * on log_line by its trace, never a full SCAN: the statements are caught as
 * they run (sqlite3_trace_v2) through ingest, the queries and the
 * derivations that read the table, then each is given to EXPLAIN QUERY
 * PLAN. */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "derive/startups.h"
#include "derive/states.h"
#include "ingest/ingest.h"
#include "query/anr_context.h"
#include "query/blocks.h"
#include "query/issues.h"
#include "query/report_series.h"
#include "query/threads.h"
#include "query/top.h"
#include "store/sql.h"
#include "testutil.h"

/* The tables watched, and the distinct statement texts run on them (or,
 * with `match`, on the statements that contain it). */
static const char *const tables[] = {"thread_state", "log_line"};
enum { NTABLES = sizeof tables / sizeof *tables, MAX_SEEN = 64 };
typedef struct seen {
    char *sql[MAX_SEEN];
    int n;
    const char *match;
} seen;

static int names_table(const char *sql)
{
    for (int i = 0; i < NTABLES; i++)
        if (strstr(sql, tables[i]))
            return 1;
    return 0;
}

/* Keeps sql in sn unless it is there already. */
static void remember(seen *sn, const char *sql)
{
    for (int i = 0; i < sn->n; i++)
        if (!strcmp(sn->sql[i], sql))
            return;
    ck_assert_int_lt(sn->n, MAX_SEEN);
    sn->sql[sn->n++] = strdup(sql);
}

static int on_stmt(unsigned type, void *ctx, void *p, void *x)
{
    (void)type, (void)x;
    seen *sn = ctx;
    const char *sql = sqlite3_sql(p);
    if (sql && (sn->match ? strstr(sql, sn->match) != NULL : names_table(sql)))
        remember(sn, sql);
    return 0;
}

/* 1 when `name` (a plan's "SCAN name") is one of the tables or an alias
 * given to one in `sql` ("thread_state s": godeye's aliases are lower case,
 * its keywords upper case). */
static int is_table_or_alias(const char *sql, const char *name)
{
    for (int i = 0; i < NTABLES; i++) {
        size_t tn = strlen(tables[i]);
        if (!strcmp(name, tables[i]))
            return 1;
        for (const char *p = strstr(sql, tables[i]); p; p = strstr(p + tn, tables[i])) {
            const char *a = p + tn;
            while (*a == ' ')
                a++;
            if (!strncmp(a, "AS ", 3))
                a += 3;
            size_t n = 0;
            while (isalnum((unsigned char)a[n]) || a[n] == '_')
                n++;
            if (n && islower((unsigned char)a[0]) && n == strlen(name) && !strncmp(a, name, n))
                return 1;
        }
    }
    return 0;
}

/* Statements that may scan, and why. */
static const char *const may_scan[] = {
    /* does any trace have states: the first row answers */
    "EXISTS (SELECT 1 FROM thread_state)",
};

static int may(const char *sql)
{
    for (size_t i = 0; i < sizeof may_scan / sizeof *may_scan; i++)
        if (strstr(sql, may_scan[i]) && !strstr(sql, "WHERE trace"))
            return 1;
    return 0;
}

/* The plan's full SCANs of a clustered table in `sql`: 0 when none (the
 * first one in `why`). */
/* EXPLAIN QUERY PLAN of `sql`, prepared (its plan lines' text in column 3). */
static sqlite3_stmt *explained(gd_store *s, const char *sql)
{
    char *eqp = malloc(strlen(sql) + 32);
    ck_assert_ptr_nonnull(eqp);
    sprintf(eqp, "EXPLAIN QUERY PLAN %s", sql);
    sqlite3_stmt *q = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(gd_store_db(s), eqp, -1, &q, NULL), SQLITE_OK);
    free(eqp);
    return q;
}

static int full_scans(gd_store *s, const char *sql, char *why, size_t n)
{
    sqlite3_stmt *q = explained(s, sql);
    int scans = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *d = (const char *)sqlite3_column_text(q, 3);
        char name[64] = "";
        if (d && sscanf(d, "SCAN %63[A-Za-z0-9_]", name) == 1 && is_table_or_alias(sql, name) && !may(sql))
            if (!scans++)
                snprintf(why, n, "%s", d);
    }
    sqlite3_finalize(q);
    return scans;
}

static int row_count(void *ctx, json_t *row)
{
    (void)row; /* borrowed (gd_row_fn) */
    ++*(int *)ctx;
    return 0;
}

static int64_t one_id(gd_store *s, const char *sql)
{
    gd_error err = {0};
    sqlite3_stmt *q = gd_store_prepare(s, sql, &err);
    ck_assert_ptr_nonnull(q);
    int64_t v = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
    sqlite3_finalize(q);
    return v;
}

/* Runs what reads thread_state: the threads listing (all, one thread, one
 * block), a block's states, the lane, the "why" checks, a launch's phases
 * and what ran beside it, then rm. */
static void run_readers(gd_store *s)
{
    gd_error err = {0};
    int rows = 0, have = 0;
    int64_t tid = one_id(s, "SELECT main_tid FROM trace WHERE id = 1");
    int64_t block = one_id(s, "SELECT min(dispatch) FROM block");
    ck_assert_int_ge(tid, 0);
    ck_assert_int_ge(block, 1);
    gd_threads_query q = {.tid = -1, .block = -1};
    ck_assert_int_eq(gd_query_threads(s, &q, row_count, &rows, &err), 0);
    ck_assert_int_gt(rows, 0);
    q.tid = tid;
    ck_assert_int_eq(gd_query_threads(s, &q, row_count, &rows, &err), 0);
    q.tid = -1, q.block = block;
    ck_assert_int_eq(gd_query_threads(s, &q, row_count, &rows, &err), 0);
    gd_state_share sh;
    ck_assert_int_eq(gd_states_in(s, 1, tid, 0, 1e300, &sh, &err), 0);
    ck_assert(sh.covered > 0);
    json_t *lane = json_array();
    ck_assert_int_eq(gd_states_lane(s, 1, 0, 100, lane, &err), 0);
    json_decref(lane);
    ck_assert_int_eq(gd_why_have(s, &have, &err), 0);
    ck_assert_int_eq(gd_why_have_trace(s, 1, &have, &err), 0);
    /* a launch of the trace's app on its main thread: the phases read its states */
    char sql[512];
    snprintf(sql, sizeof sql,
             "INSERT INTO startup (trace, app, kind, total_ms, source, ts_ms)"
             " SELECT 1, 'com.a', 'cold', 500, 'perfetto', start_ms + 500 FROM trace WHERE id = 1;"
             "INSERT INTO thread (trace, pid, tid, name) VALUES (1, 9, 9, 'dex2oat');"
             "INSERT INTO message (id, text) VALUES (1000001, 'bindApplication');"
             "INSERT INTO dispatch (trace, pid, tid, start_ms, dur_ms, message)"
             " SELECT 1, pid, main_tid, start_ms + 10, 50, 1000001 FROM trace WHERE id = 1");
    ck_assert_int_eq(gd_store_exec(s, sql, &err), 0);
    ck_assert_int_eq(gd_derive_startup_phases(s, 1, &err), 0);
    ck_assert_int_gt(one_id(s, "SELECT count(*) FROM startup_phase"), 0);
    int64_t ids[] = {1};
    ck_assert_int_eq(gd_store_rm(s, ids, 1, 0, &err), 0);
}

/* The statements run on `s` by fn(s) into *sn. */
static void caught(gd_store *s, void (*fn)(gd_store *), seen *sn)
{
    sqlite3_trace_v2(gd_store_db(s), SQLITE_TRACE_STMT, on_stmt, sn);
    fn(s);
    sqlite3_trace_v2(gd_store_db(s), 0, NULL, NULL);
}

/* Ingests the n files of `inputs` into s (the year for dates without one). */
static void ingest_files(gd_store *s, char **inputs, size_t n)
{
    gd_error err = {0};
    gd_ingest_opts opts = {.year = 2024};
    ck_assert_int_eq(gd_ingest(s, inputs, n, &opts, NULL, NULL, &err), 0);
}

static void ingest_states(gd_store *s)
{
    char *inputs[] = {GODEYE_FIXTURES "/states/block600.systrace"};
    ingest_files(s, inputs, 1);
}

/* Each statement of sn planned without a full SCAN of a watched table. */
static void assert_planned(gd_store *s, seen *sn)
{
    for (int i = 0; i < sn->n; i++) {
        char why[256] = "";
        ck_assert_msg(!full_scans(s, sn->sql[i], why, sizeof why), "%s: %s", why, sn->sql[i]);
        if (getenv("GODEYE_PLANS_LOG"))
            fprintf(stderr, "planned: %s\n", sn->sql[i]);
        free(sn->sql[i]);
    }
}

static void ingest_anr_report(gd_store *s)
{
    char *inputs[] = {GODEYE_FIXTURES "/bugreport/anr_log_report.txt", GODEYE_FIXTURES "/bugreport/small.txt"};
    ingest_files(s, inputs, 2);
}

/* The ANR's context within its trace (as `godeye anr --context --trace 1`)
 * and in every trace, then rm of that trace. */
static void read_and_rm_log(gd_store *s)
{
    gd_error err = {0};
    int rows = 0;
    int64_t trace = 1;
    gd_anr_context_query q = {.filter = {.traces = &trace, .ntraces = 1}, .trace = 1, .window_ms = 60000};
    q.pid = one_id(s, "SELECT pid FROM anr_dump WHERE trace = 1 AND anr = 1");
    ck_assert_int_gt(q.pid, 0);
    sqlite3_stmt *t = gd_store_prepare(s, "SELECT ts_ms FROM anr_dump WHERE trace = 1 AND anr = 1", &err);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(sqlite3_step(t), SQLITE_ROW);
    q.ts_ms = sqlite3_column_double(t, 0);
    sqlite3_finalize(t);
    ck_assert_int_eq(gd_query_anr_context(s, &q, row_count, &rows, &err), 0);
    ck_assert_int_gt(rows, 0);
    int within = rows;
    q.filter = (gd_filter){0}; /* every trace's lines of the pid */
    ck_assert_int_eq(gd_query_anr_context(s, &q, row_count, &rows, &err), 0);
    ck_assert_int_eq(rows, 2 * within);
    ck_assert_int_eq(gd_store_rm(s, &trace, 1, 0, &err), 0);
}

/* #50: log_line is read by trace (the exposure of a trace with an ANR dump,
 * the ANR context's span, rm), not across every trace's lines. */
START_TEST(log_line_is_read_by_its_trace)
{
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, ":memory:", GD_STORE_RW, &err), 0);
    seen sn = {0};
    caught(s, ingest_anr_report, &sn);
    ck_assert_int_eq(one_id(s, "SELECT count(*) FROM log_line WHERE trace = 1"), 21);
    caught(s, read_and_rm_log, &sn);
    ck_assert_int_eq(one_id(s, "SELECT count(*) FROM log_line WHERE trace = 1"), 0);
    ck_assert_int_eq(one_id(s, "SELECT count(*) FROM log_line"), 2);
    /* the insert, the exposure, the context's rows and span, rm's delete */
    ck_assert_int_ge(sn.n, 5);
    assert_planned(s, &sn);
    gd_store_close(s);
}
END_TEST

START_TEST(thread_state_is_looked_up_by_its_key)
{
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, ":memory:", GD_STORE_RW, &err), 0);
    seen sn = {0};
    caught(s, ingest_states, &sn);
    ck_assert_int_gt(one_id(s, "SELECT count(*) FROM thread_state"), 0);
    caught(s, run_readers, &sn);
    /* the writer's insert, the pid fill, the readers above, rm's delete */
    ck_assert_int_ge(sn.n, 9);
    assert_planned(s, &sn);
    gd_store_close(s);
}
END_TEST

/* The index statements an ingest runs, in order ("DROP INDEX ...",
 * "CREATE INDEX ..."), each as "D name" or "C name". */
typedef struct ix_log {
    char ev[32][64];
    int n;
} ix_log;

static int on_index_stmt(unsigned type, void *ctx, void *p, void *x)
{
    (void)type, (void)x;
    ix_log *l = ctx;
    const char *sql = sqlite3_sql(p);
    char name[48] = "";
    if (sql && (sscanf(sql, "DROP INDEX \"%47[a-z_]\"", name) == 1 || sscanf(sql, "CREATE INDEX %47[a-z_]", name) == 1)) {
        ck_assert_int_lt(l->n, 32);
        snprintf(l->ev[l->n++], sizeof l->ev[0], "%c %s", sql[0], name);
    }
    return 0;
}

/* The index statements on frame_time's and binder_txn's indexes. */
static int frame_binder_ix(const ix_log *l)
{
    int n = 0;
    for (int i = 0; i < l->n; i++)
        n += !strncmp(l->ev[i] + 2, "frame_time", 10) || !strncmp(l->ev[i] + 2, "binder_txn", 10);
    return n;
}

static int ix_at(const ix_log *l, const char *ev)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->ev[i], ev))
            return i;
    return -1;
}

/* Ingests `path` into s, the index statements it ran into *l. */
static void ingest_logged(gd_store *s, const char *path, ix_log *l)
{
    char *inputs[] = {(char *)path};
    memset(l, 0, sizeof *l);
    sqlite3_trace_v2(gd_store_db(s), SQLITE_TRACE_STMT, on_index_stmt, l);
    ingest_files(s, inputs, 1);
    sqlite3_trace_v2(gd_store_db(s), 0, NULL, NULL);
}

/* A capture of n frames of one window, 16 ms apart, into a temporary file. */
static void write_frames(char *path, int n)
{
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "{\"type\":\"meta\",\"app\":\"com.example.frames\",\"pid\":100,\"main_tid\":100}\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "{\"type\":\"frame\",\"ts\":%d,\"dur\":%d,\"window\":\"w\"}\n", 1700000000 + 16 * i, 4 + i % 20);
    ck_assert_int_eq(fclose(f), 0);
}

/* 1 when the plan of `sql` searches `index`. */
static int plan_uses(gd_store *s, const char *sql, const char *index)
{
    sqlite3_stmt *q = explained(s, sql);
    int found = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *d = (const char *)sqlite3_column_text(q, 3);
        found |= d && strstr(d, "SEARCH") && strstr(d, index);
    }
    sqlite3_finalize(q);
    return found;
}

/* #50: a new database's first trace writes a table of the bulk load
 * (here frame_time) with its secondary indexes dropped from its
 * GD_BULK_MIN_ROWS-th row on, and builds them after the rows, so that a
 * big load does not keep them row by row; a table of fewer rows keeps them
 * (no drop, no re-prepare, no rebuild); binder_txn keeps its three; a
 * second trace keeps them all.  Queries find them there afterwards. */
START_TEST(frame_indexes_are_built_after_their_rows)
{
    gd_store *s = NULL;
    gd_error err = {0};
    ix_log l;
    ck_assert_int_eq(gd_store_open(&s, ":memory:", GD_STORE_RW, &err), 0);
    ingest_logged(s, GODEYE_FIXTURES "/states/binder.systrace", &l);
    ck_assert_int_eq(one_id(s, "SELECT count(*) FROM binder_txn"), 3);
    ck_assert_int_eq(frame_binder_ix(&l), 0); /* 3 binder rows, 0 frames: their indexes kept */
    ck_assert_int_eq(one_id(s, "SELECT count(*) FROM sqlite_schema WHERE type = 'index'"
                               " AND tbl_name IN ('binder_txn', 'frame_time')"), 4);
    gd_store_close(s);
    char small[] = "/tmp/check_plans_XXXXXX", big[] = "/tmp/check_plans_XXXXXX";
    write_frames(small, GD_BULK_MIN_ROWS - 1);
    write_frames(big, GD_BULK_MIN_ROWS);
    ck_assert_int_eq(gd_store_open(&s, ":memory:", GD_STORE_RW, &err), 0);
    ingest_logged(s, small, &l);
    ck_assert_int_eq(one_id(s, "SELECT count(*) FROM frame_time"), GD_BULK_MIN_ROWS - 1);
    ck_assert_int_eq(ix_at(&l, "D frame_time_trace"), -1);
    gd_store_close(s);
    ck_assert_int_eq(gd_store_open(&s, ":memory:", GD_STORE_RW, &err), 0);
    ingest_logged(s, big, &l);
    ck_assert_int_eq(one_id(s, "SELECT count(*) FROM frame_time"), GD_BULK_MIN_ROWS);
    ck_assert_int_ge(ix_at(&l, "D frame_time_trace"), 0);
    ck_assert_int_gt(ix_at(&l, "C frame_time_trace"), ix_at(&l, "D frame_time_trace"));
    ck_assert_int_eq(ix_at(&l, "D binder_txn_client"), -1);
    ck_assert_int_eq(one_id(s, "SELECT count(*) FROM sqlite_schema WHERE name = 'frame_time_trace'"), 1);
    ck_assert(plan_uses(s, "SELECT dur_ms FROM frame_time WHERE trace = 1 AND window IS 'w' AND ts_ms > 0",
                        "frame_time_trace"));
    /* a second trace into the same database: nothing dropped */
    ingest_logged(s, GODEYE_FIXTURES "/states/binder.systrace", &l);
    ck_assert_int_eq(one_id(s, "SELECT count(*) FROM binder_txn"), 3);
    ck_assert_int_eq(l.n, 0);
    ck_assert_int_eq(one_id(s, "SELECT count(*) FROM sqlite_schema WHERE type = 'index'"
                               " AND tbl_name IN ('binder_txn', 'frame_time')"), 4);
    gd_store_close(s);
    unlink(small);
    unlink(big);
}
END_TEST

/* A block group's row (gd_row_fn): counts it and keeps its process. */
struct group_rows {
    int n;
    char process[64];
};

static int group_row_seen(void *ctx, json_t *row)
{
    struct group_rows *g = ctx;
    const char *p = json_string_value(json_object_get(row, "process"));
    snprintf(g->process, sizeof g->process, "%s", p ? p : "");
    g->n++;
    return 0;
}

/* The plan of `sql`, its lines joined by " | ", into buf. */
static void plan_of(gd_store *s, const char *sql, char *buf, size_t n)
{
    sqlite3_stmt *q = explained(s, sql);
    size_t used = 0;
    buf[0] = 0;
    while (sqlite3_step(q) == SQLITE_ROW && used < n)
        used += (size_t)snprintf(buf + used, n - used, "%s | ", (const char *)sqlite3_column_text(q, 3));
    sqlite3_finalize(q);
}

/* Ingests `path` into a new database, runs blocks --group over it (with
 * --app `app`, and with --trace 1, too), and checks each group statement's
 * plan: the blocks read in their order from the covering index block_grp
 * (no sort), and the dispatch row looked up by its id only with "why" data
 * (`states`), never otherwise.  Returns the groups and the last one's
 * process in *g. */
static void groups_planned(const char *path, const char *app, int states, struct group_rows *g)
{
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, ":memory:", GD_STORE_RW, &err), 0);
    char *inputs[] = {(char *)path};
    ingest_files(s, inputs, 1);
    seen sn = {.match = "ORDER BY b.grp"};
    struct group_rows other = {0};
    gd_blocks_query q = {.threshold = NAN, .kind = GD_KIND_NONE};
    sqlite3_trace_v2(gd_store_db(s), SQLITE_TRACE_STMT, on_stmt, &sn);
    ck_assert_int_eq(gd_query_block_groups(s, &q, group_row_seen, g, &err), 0);
    q.filter.app = app;
    ck_assert_int_eq(gd_query_block_groups(s, &q, group_row_seen, &other, &err), 0);
    ck_assert_int_eq(other.n, g->n); /* every group is the app's */
    int64_t one = 1;
    q.filter = (gd_filter){.traces = &one, .ntraces = 1};
    other.n = 0;
    ck_assert_int_eq(gd_query_block_groups(s, &q, group_row_seen, &other, &err), 0);
    ck_assert_int_eq(other.n, g->n); /* the one trace's */
    sqlite3_trace_v2(gd_store_db(s), 0, NULL, NULL);
    ck_assert_int_eq(sn.n, 3); /* without a filter, --app, --trace */
    for (int i = 0; i < sn.n; i++) {
        char plan[2048];
        plan_of(s, sn.sql[i], plan, sizeof plan);
        int ordered = !strstr(plan, "TEMP B-TREE FOR ORDER BY");
        ck_assert_msg(strstr(plan, "SCAN b USING COVERING INDEX block_grp") && ordered, "%s: %s", plan, sn.sql[i]);
        if (states)
            ck_assert_msg(strstr(plan, "SEARCH d USING INTEGER PRIMARY KEY"), "%s", plan);
        else
            ck_assert_msg(!strstr(plan, " d ") && !strstr(sn.sql[i], "dispatch"), "%s: %s", plan, sn.sql[i]);
        free(sn.sql[i]);
    }
    gd_store_close(s);
}

/* #50: blocks --group is one ordered scan of the index block_grp (grp,
 * dur_ms, trace, pid), which holds what the group query reads, the
 * process's pid too (schema 10): it went 19x slower when the process made
 * it look up every block's dispatch row (10M dispatches: 0.12 s to 2.3 s). */
START_TEST(block_groups_read_block_grp_alone)
{
    struct group_rows g = {0};
    groups_planned(GODEYE_FIXTURES "/godeye/pairing.jsonl", "com.example.shop", 0, &g);
    ck_assert_int_eq(g.n, 6);
    ck_assert_str_eq(g.process, "com.example.shop");
    memset(&g, 0, sizeof g);
    groups_planned(GODEYE_FIXTURES "/states/block600.systrace", "com.example.app", 1, &g);
    ck_assert_int_eq(g.n, 1);
    ck_assert_str_eq(g.process, "com.example.app");
}
END_TEST

/* Where the plan `plan` (plan_of's) reads table alias `alias`, or -1. */
static long read_at(const char *plan, const char *alias)
{
    char scan[32], search[32];
    snprintf(scan, sizeof scan, "SCAN %s ", alias);
    snprintf(search, sizeof search, "SEARCH %s ", alias);
    const char *p = strstr(plan, scan);
    if (!p)
        p = strstr(plan, search);
    return p ? (long)(p - plan) : -1;
}

/* #50: the ANR count's blocks (gd_query_anr_count) take their kind and
 * --app's process from the block row (dur_ms, pid) and its trace, so the
 * dispatch row, which only the dump-of-block rule needs (its start), is
 * looked up last, for ANR-kind blocks only.  pairing.jsonl: one ANR-kind
 * block (6000 ms, com.example.shop's), no dump. */
START_TEST(anr_blocks_look_up_their_dispatch_last)
{
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, ":memory:", GD_STORE_RW, &err), 0);
    char *inputs[] = {GODEYE_FIXTURES "/godeye/pairing.jsonl"};
    ingest_files(s, inputs, 1);
    seen sn = {.match = "NOT EXISTS (SELECT 1 FROM anr_dump v"};
    gd_anr_counts c;
    gd_filter f = {0};
    sqlite3_trace_v2(gd_store_db(s), SQLITE_TRACE_STMT, on_stmt, &sn);
    ck_assert_int_eq(gd_query_anr_count(s, &f, &c, &err), 0);
    ck_assert_int_eq(c.blocks, 1);
    ck_assert_int_eq(c.total, 1);
    f.app = "com.example.shop";
    ck_assert_int_eq(gd_query_anr_count(s, &f, &c, &err), 0);
    ck_assert_int_eq(c.blocks, 1);
    f.app = "com.example.other";
    ck_assert_int_eq(gd_query_anr_count(s, &f, &c, &err), 0);
    ck_assert_int_eq(c.blocks, 0);
    sqlite3_trace_v2(gd_store_db(s), 0, NULL, NULL);
    ck_assert_int_eq(sn.n, 3); /* without --app, with each of the two */
    for (int i = 0; i < sn.n; i++) {
        char plan[2048];
        plan_of(s, sn.sql[i], plan, sizeof plan);
        long b = read_at(plan, "b"), t = read_at(plan, "t"), d = read_at(plan, "d");
        ck_assert_msg(b >= 0 && t >= 0 && d > b && d > t, "%s: %s", plan, sn.sql[i]);
        free(sn.sql[i]);
    }
    gd_store_close(s);
}
END_TEST

/* The plan of the statement caught with `match` (one distinct text) run
 * by fn(s) on a database of `path`, into plan (plan_of's). */
static void plan_caught(const char *path, void (*fn)(gd_store *), const char *match, char *plan, size_t n)
{
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, ":memory:", GD_STORE_RW, &err), 0);
    char *inputs[] = {(char *)path};
    ingest_files(s, inputs, 1);
    seen sn = {.match = match};
    caught(s, fn, &sn);
    ck_assert_int_eq(sn.n, 1);
    plan_of(s, sn.sql[0], plan, n);
    free(sn.sql[0]);
    gd_store_close(s);
}

static void run_threads(gd_store *s)
{
    gd_error err = {0};
    int rows = 0;
    gd_threads_query q = {.tid = -1, .block = -1};
    ck_assert_int_eq(gd_query_threads(s, &q, row_count, &rows, &err), 0);
    ck_assert_int_eq(rows, 2); /* binder.systrace's threads with states: 1000 and 510 */
}

/* #50 item 3: `godeye threads` reads every state of a trace, so its
 * statement reads thread_state alone, in its key's order: no lookup of the
 * trace row per state (the main thread is asked once per trace; joined,
 * 1.6x the instructions on a 32 MB sched-heavy trace) and no sort. */
START_TEST(threads_read_thread_state_alone)
{
    char plan[2048];
    plan_caught(GODEYE_FIXTURES "/states/binder.systrace", run_threads, "FROM thread_state s", plan, sizeof plan);
    ck_assert_msg(strstr(plan, "SEARCH s USING PRIMARY KEY (trace=?)"), "%s", plan);
    ck_assert_msg(read_at(plan, "t") < 0 && !strstr(plan, "TEMP B-TREE"), "%s", plan);
}
END_TEST

static void run_top(gd_store *s)
{
    gd_error err = {0};
    json_t *top = NULL;
    gd_filter f = {0};
    ck_assert_int_eq(gd_top_build(s, &f, 0, &top, &err), 0);
    json_decref(top);
}

/* #50 item 3: top's statements over the main thread of a trace without
 * app slices (m: a few rows, most often none) read m's trace and thread
 * first and then that thread's rows by their key: planned the other way
 * round, they read every state or binder call of the trace and looked m's
 * thread up for each (2.4 s on a 256 MB sched-heavy trace for no row). */
START_TEST(top_reads_the_main_thread_by_its_key)
{
    /* a part of each statement's text, and the big table's read in its plan */
    static const char *const stmts[][2] = {
        {"AS uninterruptible", "SEARCH s USING PRIMARY KEY (trace=? AND tid=?)"},
        {"AS wtid", "SEARCH s USING PRIMARY KEY (trace=? AND tid=?)"},
        {"outermost = 1", "SEARCH b USING INDEX binder_txn_outermost (trace=? AND client_tid=?)"},
    };
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, ":memory:", GD_STORE_RW, &err), 0);
    char *inputs[] = {GODEYE_FIXTURES "/states/binder.systrace"};
    ingest_files(s, inputs, 1);
    seen sn = {.match = "WITH m AS"};
    caught(s, run_top, &sn);
    ck_assert_int_eq(sn.n, 3);
    for (size_t i = 0; i < sizeof stmts / sizeof *stmts; i++) {
        int k = 0;
        while (k < sn.n && !strstr(sn.sql[k], stmts[i][0]))
            k++;
        ck_assert_int_lt(k, sn.n);
        char plan[4096];
        plan_of(s, sn.sql[k], plan, sizeof plan);
        char *big = strstr(plan, stmts[i][1]);
        long th = read_at(plan, "th");
        ck_assert_msg(big && th >= 0 && th < big - plan, "%s", plan);
    }
    for (int k = 0; k < sn.n; k++)
        free(sn.sql[k]);
    gd_store_close(s);
}
END_TEST

/* Counts the runs of the statements that contain `match` (sqlite3_trace_v2). */
struct runs {
    const char *match;
    int n;
};

static int on_run(unsigned type, void *ctx, void *p, void *x)
{
    (void)type, (void)x;
    struct runs *r = ctx;
    const char *sql = sqlite3_sql(p);
    r->n += sql && strstr(sql, r->match) != NULL;
    return 0;
}

struct pcts {
    int n;
    double p50, p95, max;
    json_int_t janky, frozen, hist[3]; /* the first three bins' counts */
};

static int pct_row(void *ctx, json_t *row)
{
    struct pcts *p = ctx;
    p->n++;
    p->p50 = json_real_value(json_object_get(row, "p50_ms"));
    p->p95 = json_real_value(json_object_get(row, "p95_ms"));
    p->max = json_real_value(json_object_get(row, "max_ms"));
    p->janky = json_integer_value(json_object_get(row, "janky"));
    p->frozen = json_integer_value(json_object_get(row, "frozen"));
    for (size_t i = 0; i < 3; i++)
        p->hist[i] = json_integer_value(json_array_get(json_array_get(json_object_get(row, "hist"), i), 1));
    return 0;
}

/* #50 item 3: the report's p50 and p95 of a window's frames come from one
 * read of its durations in order (one sort of them), not a LIMIT 2 OFFSET
 * statement per percentile (each a sort of every frame of the window:
 * 0.9-1.6 s each on 768,485 frames), which gives the window's janky, frozen,
 * max and histogram too (no GROUP BY of eleven sums).  100 frames of 4..23
 * ms, 5 of each: p50 between the 50th and 51st (13, 14 ms), p95 0.05 past
 * the 95th (22, 23); janky (over 16 ms) 17..23: 35; up to 8 ms 25, to
 * 16.667 ms 40, to 33.333 ms 35. */
START_TEST(frame_percentiles_sort_once)
{
    gd_store *s = NULL;
    gd_error err = {0};
    char path[] = "/tmp/check_plans_XXXXXX";
    write_frames(path, 100);
    ck_assert_int_eq(gd_store_open(&s, ":memory:", GD_STORE_RW, &err), 0);
    char *inputs[] = {path};
    ingest_files(s, inputs, 1);
    struct runs r = {"ORDER BY dur_ms", 0};
    struct pcts p = {0};
    sqlite3_trace_v2(gd_store_db(s), SQLITE_TRACE_STMT, on_run, &r);
    ck_assert_int_eq(gd_query_frame_stats(s, NULL, pct_row, &p, &err), 0);
    sqlite3_trace_v2(gd_store_db(s), 0, NULL, NULL);
    ck_assert_int_eq(p.n, 1);
    ck_assert_int_eq(r.n, 1);
    ck_assert_double_eq_tol(p.p50, 13.5, 1e-9);
    ck_assert_double_eq_tol(p.p95, 22.05, 1e-9);
    ck_assert_double_eq_tol(p.max, 23, 1e-9);
    ck_assert_int_eq(p.janky, 35);
    ck_assert_int_eq(p.frozen, 0);
    ck_assert_int_eq(p.hist[0], 25);
    ck_assert_int_eq(p.hist[1], 40);
    ck_assert_int_eq(p.hist[2], 35);
    gd_store_close(s);
    unlink(path);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("plans");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, thread_state_is_looked_up_by_its_key);
    tcase_add_test(tc, frame_indexes_are_built_after_their_rows);
    tcase_add_test(tc, block_groups_read_block_grp_alone);
    tcase_add_test(tc, anr_blocks_look_up_their_dispatch_last);
    tcase_add_test(tc, log_line_is_read_by_its_trace);
    tcase_add_test(tc, threads_read_thread_state_alone);
    tcase_add_test(tc, top_reads_the_main_thread_by_its_key);
    tcase_add_test(tc, frame_percentiles_sort_once);
    suite_add_tcase(su, tc);
    return gd_test_run(su);
}
