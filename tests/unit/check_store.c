/* check_store.c - the store end to end: ingest, idempotence, streaming
 * equivalence, all-or-nothing transactions, schema versions. */
#include <check.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "ingest/ingest.h"
#include "query/blocks.h"
#include "query/sql.h"
#include "store/sql.h"
#include "store/store.h"

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/godeye-check-store-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static gd_store *open_db(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, path, GD_STORE_RW, &err), 0);
    return s;
}

typedef struct reports {
    gd_ingest_result res[8];
    int n;
} reports;

static void on_report(void *ctx, const gd_ingest_report *r)
{
    reports *rs = ctx;
    if (rs->n < 8)
        rs->res[rs->n++] = r->res;
}

static int ingest(gd_store *s, const char *path, reports *rs, gd_error *err)
{
    char *inputs[] = {(char *)path};
    return gd_ingest(s, inputs, 1, NULL, on_report, rs, err);
}

static int collect(void *ctx, json_t *row)
{
    json_t *copy = json_deep_copy(row);
    json_object_del(copy, "trace");
    json_object_del(copy, "id");
    json_array_append_new((json_t *)ctx, copy);
    return 0;
}

static json_t *blocks_of(gd_store *s, double threshold)
{
    json_t *a = json_array();
    gd_blocks_query q = {.threshold = threshold};
    gd_error err = {0};
    ck_assert_int_eq(gd_query_blocks(s, &q, collect, a, &err), 0);
    return a;
}

#define FIX GODEYE_FIXTURES "/godeye/"

static int keep_row(void *ctx, json_t *row)
{
    json_array_append((json_t *)ctx, row);
    return 0;
}

/* The integer column `col` of the one row `sql` returns on store s. */
static long long sql_int(gd_store *s, const char *sql, const char *col)
{
    json_t *rows = json_array();
    gd_error err = {0};
    ck_assert_msg(gd_query_sql(s, sql, 0, keep_row, rows, &err) == 0, "%s: %s", sql, err.msg);
    ck_assert_uint_eq(json_array_size(rows), 1);
    json_t *v = json_object_get(json_array_get(rows, 0), col);
    ck_assert_msg(json_is_integer(v), "%s: %s not an integer", sql, col);
    long long n = json_integer_value(v);
    json_decref(rows);
    return n;
}

START_TEST(pairing_fixture_exact_blocks)
{
    gd_store *s = open_db("a.db");
    reports rs = {0};
    gd_error err = {0};
    ck_assert_int_eq(ingest(s, FIX "pairing.jsonl", &rs, &err), 0);
    ck_assert_int_eq(rs.n, 1);
    ck_assert_int_eq(rs.res[0].events, 30);
    ck_assert_int_eq(rs.res[0].dispatches, 7);
    ck_assert_int_eq(rs.res[0].blocks, 6);
    ck_assert_int_eq(rs.res[0].skipped, 2); /* unknown kind, end without begin */
    json_t *b = blocks_of(s, NAN);
    ck_assert_int_eq(json_array_size(b), 6);
    const double T = 1700000000000.0;
    struct {
        int tid;
        double start, dur;
        const char *kind;
        int unfinished, cpu_busy, samples;
        const char *key;
    } exp[] = {
        {100, 0, 150, "short", 0, -1, 0, NULL},
        /* one cpu sample inside (210), longer than the 300 ms interval:
         * BlockCanary's rule applies; samples 90 and 210 near the start are
         * 120 ms apart, no gap -> not busy */
        {200, 100, 600, "long", 0, 0, 1, "com.example.shop.net.Sync.run(Sync.java:5)"},
        {100, 200, 700, "long", 0, 1, 3, "com.example.shop.img.Decoder.decode(Decoder.java:12)"},
        {100, 250, 150, "short", 0, -1, 1, "com.example.shop.feed.FeedAdapter.bind(FeedAdapter.java:88)"},
        {100, 1000, 500, "long", 0, 0, 2, "com.squareup.okhttp.Call.execute(Call.java:200)"},
        {100, 3000, 6000, "anr", 1, 1, 1, "com.example.shop.db.Dao.load(Dao.java:40)"},
    };
    for (size_t i = 0; i < 6; i++) {
        json_t *r = json_array_get(b, i);
        ck_assert_int_eq(json_integer_value(json_object_get(r, "tid")), exp[i].tid);
        ck_assert_double_eq_tol(json_real_value(json_object_get(r, "start_ms")), T + exp[i].start, 1e-6);
        ck_assert_double_eq_tol(json_real_value(json_object_get(r, "duration_ms")), exp[i].dur, 1e-6);
        ck_assert_str_eq(json_string_value(json_object_get(r, "kind")), exp[i].kind);
        ck_assert_int_eq(json_is_true(json_object_get(r, "unfinished")), exp[i].unfinished);
        json_t *cb = json_object_get(r, "cpu_busy");
        ck_assert_int_eq(json_is_null(cb) ? -1 : json_is_true(cb), exp[i].cpu_busy);
        ck_assert_int_eq(json_integer_value(json_object_get(r, "samples")), exp[i].samples);
        json_t *kf = json_object_get(r, "key_frame");
        if (exp[i].key)
            ck_assert_str_eq(json_string_value(kf), exp[i].key);
        else
            ck_assert(json_is_null(kf));
    }
    ck_assert_double_eq_tol(json_real_value(json_object_get(json_array_get(b, 0), "thread_ms")), 140, 1e-9);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(b, 2), "group")),
                     "com.example.shop.img.Decoder.decode(Decoder.java)");
    /* re-cut below the ingest threshold: the 50 ms dispatch appears, derived now */
    json_t *all = blocks_of(s, 0);
    ck_assert_int_eq(json_array_size(all), 7);
    json_decref(all);
    json_decref(b);
    gd_store_close(s);
}
END_TEST

/* Writes the pairing fixture's lines to dir/name: meta first (or last),
 * the events stably sorted by ts, then `extra` when not NULL. */
static void write_variant(const char *name, int meta_last, const char *extra, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", dir, name);
    FILE *in = fopen(FIX "pairing.jsonl", "r");
    ck_assert_ptr_nonnull(in);
    char meta[4096], line[4096], *ev[64];
    double ts[64];
    size_t nev = 0;
    ck_assert_ptr_nonnull(fgets(meta, sizeof meta, in));
    while (fgets(line, sizeof line, in)) {
        ck_assert_uint_lt(nev, 64);
        const char *t = strstr(line, "\"ts\":");
        ck_assert_ptr_nonnull(t);
        ts[nev] = strtod(t + 5, NULL);
        ev[nev++] = strdup(line);
    }
    fclose(in);
    for (size_t i = 1; i < nev; i++) /* stable insertion sort */
        for (size_t j = i; j > 0 && ts[j - 1] > ts[j]; j--) {
            double t = ts[j];
            ts[j] = ts[j - 1];
            ts[j - 1] = t;
            char *e = ev[j];
            ev[j] = ev[j - 1];
            ev[j - 1] = e;
        }
    FILE *out = fopen(path, "w");
    if (!meta_last)
        fputs(meta, out);
    for (size_t i = 0; i < nev; i++) {
        fputs(ev[i], out);
        free(ev[i]);
    }
    if (extra)
        fputs(extra, out);
    if (meta_last)
        fputs(meta, out);
    fclose(out);
}

/* Looper prints are paired as they arrive while every thread's prints come
 * in time order, and from the sorted temp table otherwise (the fixture
 * itself has an end before its begin; prints that name no thread before
 * the meta also switch).  Both give the same dispatches, and the switch
 * drops what was streamed.  A dispatch event (already paired) is kept
 * aside and added at the end, beside streamed or sorted pairs. */
START_TEST(streamed_and_sorted_pairing_agree)
{
    char sorted[512], late_meta[512], direct[512];
    write_variant("sorted.jsonl", 0, NULL, sorted, sizeof sorted);
    write_variant("late-meta.jsonl", 1, NULL, late_meta, sizeof late_meta);
    write_variant("direct.jsonl", 0,
                  "{\"type\":\"dispatch\",\"ts\":1700000004000,\"dur\":800,\"tid\":300,"
                  "\"msg\":\">>>>> Dispatching to Handler (android.os.Handler) {c3} com.example.shop.Io$6@6: 5\"}\n",
                  direct, sizeof direct);
    const char *paths[] = {FIX "pairing.jsonl", sorted, late_meta, direct};
    json_t *want = NULL;
    for (int i = 0; i < 4; i++) {
        char name[16];
        snprintf(name, sizeof name, "v%d.db", i);
        gd_store *s = open_db(name);
        reports rs = {0};
        gd_error err = {0};
        ck_assert_msg(ingest(s, paths[i], &rs, &err) == 0, "%s: %s", paths[i], err.msg);
        ck_assert_int_eq(rs.res[0].dispatches, i == 3 ? 8 : 7);
        ck_assert_int_eq(rs.res[0].skipped, 2);
        /* the pairing empties its temp table once paired (#24 item 8) */
        ck_assert_int_eq(sql_int(s, "SELECT count(*) AS n FROM temp.looper_tmp", "n"), 0);
        json_t *b = blocks_of(s, 0);
        if (i == 3) {
            ck_assert_int_eq(json_array_size(b), 8);
            size_t k = 0;
            while (k < 8 && json_integer_value(json_object_get(json_array_get(b, k), "tid")) != 300)
                k++;
            ck_assert_uint_lt(k, 8);
            json_t *x = json_array_get(b, k);
            ck_assert_double_eq_tol(json_real_value(json_object_get(x, "duration_ms")), 800, 1e-9);
            json_array_remove(b, k);
        }
        if (!want) {
            want = b;
            ck_assert_int_eq(json_array_size(want), 7);
        } else {
            ck_assert_msg(json_equal(want, b), "%s: blocks differ", paths[i]);
            json_decref(b);
        }
        gd_store_close(s);
    }
    json_decref(want);
}
END_TEST

START_TEST(document_and_lines_give_the_same_rows)
{
    gd_store *a = open_db("a.db"), *b = open_db("b.db");
    reports rs = {0};
    gd_error err = {0};
    ck_assert_int_eq(ingest(a, FIX "pairing.jsonl", &rs, &err), 0);
    ck_assert_int_eq(ingest(b, FIX "pairing.json", &rs, &err), 0);
    json_t *x = blocks_of(a, 0), *y = blocks_of(b, 0);
    ck_assert_int_eq(json_array_size(x), 7);
    ck_assert(json_equal(x, y));
    json_decref(x);
    json_decref(y);
    gd_store_close(a);
    gd_store_close(b);
}
END_TEST

START_TEST(gzip_gives_the_same_rows)
{
    char gz[512];
    snprintf(gz, sizeof gz, "%s/pairing.jsonl.gz", dir);
    FILE *in = fopen(FIX "pairing.jsonl", "rb");
    gzFile out = gzopen(gz, "wb");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        gzwrite(out, buf, (unsigned)n);
    fclose(in);
    gzclose(out);
    gd_store *s = open_db("a.db");
    reports rs = {0};
    gd_error err = {0};
    ck_assert_int_eq(ingest(s, FIX "pairing.jsonl", &rs, &err), 0);
    /* same decompressed content: recognised as the same capture */
    ck_assert_int_eq(ingest(s, gz, &rs, &err), 0);
    ck_assert_int_eq(rs.n, 2);
    ck_assert_int_eq(rs.res[1].duplicate, 1);
    ck_assert_int_eq(rs.res[1].trace, rs.res[0].trace);
    gd_store_close(s);
}
END_TEST

/* An event is counted once, when its rows are kept: a stack without
 * frames, a dispatch of negative duration, a method without a name and an
 * absurd launch are skipped (counted as skipped, not as events); a launch
 * reported twice is merged into the first (an "ignored:" reason, neither
 * skipped nor an event).  11 events: 6 kept, 4 skipped, 1 merged. */
START_TEST(skipped_events_count_once)
{
    char path[512];
    snprintf(path, sizeof path, "%s/skips.jsonl", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"type\":\"meta\",\"app\":\"com.example.shop\",\"pid\":100,\"main_tid\":100}\n"
          "{\"type\":\"startup\",\"ts\":1700000020000,\"activity\":\"com.example.shop.Main\","
          "\"startup_kind\":\"cold\",\"total_ms\":500,\"source\":\"am_start\"}\n"
          "{\"type\":\"startup\",\"ts\":1700000020300,\"activity\":\"com.example.shop.Main\","
          "\"total_ms\":500,\"source\":\"logcat\"}\n"
          "{\"type\":\"startup\",\"ts\":1700000020400,\"activity\":\"com.example.shop.Main\","
          "\"total_ms\":7200000,\"source\":\"logcat\"}\n"
          "{\"type\":\"stack\",\"ts\":1700000000300,\"thread\":\"main\",\"frames\":[]}\n"
          "{\"type\":\"stack\",\"ts\":1700000000400,\"thread\":\"main\",\"frames\":[\"a.B.c(B.java:1)\"]}\n"
          "{\"type\":\"dispatch\",\"ts\":1700000004000,\"dur\":-5,\"tid\":300,\"msg\":\"x\"}\n"
          "{\"type\":\"dispatch\",\"ts\":1700000004000,\"dur\":80,\"tid\":300,\"msg\":\"x\"}\n"
          "{\"type\":\"method\",\"ts\":1700000004000,\"tid\":100,\"phase\":\"enter\"}\n"
          "{\"type\":\"method\",\"ts\":1700000004010,\"tid\":100,\"phase\":\"enter\",\"class\":\"a/B\","
          "\"method\":\"c\"}\n"
          "{\"type\":\"method\",\"ts\":1700000004020,\"tid\":100,\"phase\":\"exit\",\"class\":\"a/B\","
          "\"method\":\"c\"}\n"
          "{\"type\":\"cpu\",\"ts\":1700000000090,\"stat\":\"cpu  50 0 50 700 0 0 0 0 0 0\"}\n",
          f);
    fclose(f);
    gd_store *s = open_db("a.db");
    reports rs = {0};
    gd_error err = {0};
    ck_assert_msg(ingest(s, path, &rs, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(rs.res[0].events, 6);
    ck_assert_int_eq(rs.res[0].skipped, 4);
    ck_assert_int_eq(rs.res[0].dispatches, 1);
    ck_assert_int_eq(sql_int(s, "SELECT events AS n FROM trace", "n"), 6);
    ck_assert_int_eq(sql_int(s, "SELECT count(*) AS n FROM startup WHERE kind = 'cold'", "n"), 1);
    ck_assert_int_eq(sql_int(s, "SELECT count(*) AS n FROM sample", "n"), 1);
    ck_assert_int_eq(sql_int(s, "SELECT sum(count) AS n FROM ingest_stat", "n"), 5);
    gd_store_close(s);
}
END_TEST

START_TEST(reingest_is_idempotent)
{
    gd_store *s = open_db("a.db");
    reports rs = {0};
    gd_error err = {0};
    ck_assert_int_eq(ingest(s, FIX "pairing.jsonl", &rs, &err), 0);
    ck_assert_int_eq(ingest(s, FIX "pairing.jsonl", &rs, &err), 0);
    ck_assert_int_eq(rs.res[1].duplicate, 1);
    ck_assert_int_eq(rs.res[1].trace, 1);
    json_t *b = blocks_of(s, NAN);
    ck_assert_int_eq(json_array_size(b), 6);
    json_decref(b);
    /* a different capture gets a new id */
    ck_assert_int_eq(ingest(s, FIX "pairing.json", &rs, &err), 0);
    ck_assert_int_eq(rs.res[2].duplicate, 0);
    ck_assert_int_eq(rs.res[2].trace, 2);
    gd_store_close(s);
}
END_TEST

START_TEST(failed_ingest_writes_nothing)
{
    char bad[512];
    snprintf(bad, sizeof bad, "%s/bad.jsonl", dir);
    FILE *f = fopen(bad, "w");
    fputs("{\"type\":\"looper\",\"ts\":1,\"phase\":\"begin\"}\n{\"type\":\"looper\",\"ts\":2,,}\n", f);
    fclose(f);
    gd_store *s = open_db("a.db");
    reports rs = {0};
    gd_error err = {0};
    char *inputs[] = {FIX "pairing.jsonl", bad};
    /* strict (godeye ingest --strict): one input that fails sinks all (#46;
     * by default each input is its own transaction, check_ingest) */
    gd_ingest_opts strict = {.strict = 1};
    ck_assert_int_eq(gd_ingest(s, inputs, 2, &strict, on_report, &rs, &err), GD_ERR_DATA);
    ck_assert_str_eq(err.source, bad);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 25);
    json_t *b = blocks_of(s, 0);
    ck_assert_int_eq(json_array_size(b), 0);
    json_decref(b);
    gd_store_close(s);
}
END_TEST

START_TEST(wrong_type_names_the_field_and_position)
{
    char bad[512];
    snprintf(bad, sizeof bad, "%s/bad.json", dir);
    FILE *f = fopen(bad, "w");
    fputs("{\"godeye_trace\": 1, \"events\": [\n  {\"type\": \"looper\", \"ts\": 1},\n"
          "  {\"type\": \"dispatch\", \"ts\": 5, \"dur\": \"long\"}\n]}\n", f);
    fclose(f);
    gd_store *s = open_db("a.db");
    reports rs = {0};
    gd_error err = {0};
    ck_assert_int_eq(ingest(s, bad, &rs, &err), GD_ERR_DATA);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 3);
    ck_assert_str_eq(err.msg, "field 'dur' must be a number (ms)");
    gd_store_close(s);
}
END_TEST

START_TEST(newer_schema_is_refused)
{
    char path[512];
    snprintf(path, sizeof path, "%s/new.db", dir);
    /* a newer godeye's database carries godeye's mark (GD_APPLICATION_ID) */
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE trace(id); PRAGMA user_version=11;"
                                          " PRAGMA application_id=1734624601", 0, 0, 0), SQLITE_OK);
    sqlite3_close(db);
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, path, GD_STORE_RW, &err), GD_ERR_DATA);
    ck_assert_str_eq(err.msg, "database written by a newer godeye (schema 11; this godeye reads 10)");
    ck_assert_int_eq(gd_store_open(&s, path, GD_STORE_RO, &err), GD_ERR_DATA);
}
END_TEST

START_TEST(readonly_sql_refusals)
{
    gd_store *s = open_db("a.db");
    reports rs = {0};
    gd_error err = {0};
    ck_assert_int_eq(ingest(s, FIX "pairing.jsonl", &rs, &err), 0);
    json_t *rows = json_array();
    ck_assert_int_eq(gd_query_sql(s, "select count(*) as n from dispatch", 0, collect, rows, &err), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(rows, 0), "n")), 7);
    const char *refused[] = {
        "delete from trace", "attach database '/tmp/x.db' as x", "pragma user_version=3",
        "select 1; select 2", "select load_extension('x')", "create table t(a)",
        "pragma journal_mode=delete",
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        gd_error e = {0};
        ck_assert_int_eq(gd_query_sql(s, refused[i], 0, collect, rows, &e), GD_ERR_USAGE);
    }
    ck_assert_int_eq(json_array_size(rows), 1);
    json_decref(rows);
    gd_store_close(s);
}
END_TEST

/* PRAGMA journal_mode of s, into buf. */
static const char *journal_mode(gd_store *s, char *buf, size_t n)
{
    gd_error err = {0};
    sqlite3_stmt *q = gd_store_prepare(s, "PRAGMA journal_mode", &err);
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    enum { J_MODE }; /* the one column */
    snprintf(buf, n, "%s", (const char *)sqlite3_column_text(q, J_MODE));
    sqlite3_finalize(q);
    return buf;
}

static void sql_seven(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc, (void)argv;
    sqlite3_result_int(cx, 7);
}

START_TEST(connection_facts_and_journal_policy)
{
    gd_store *s = open_db("facts.db");
    gd_error err = {0};
    char mode[32];
    /* #45 item 4: the store's own functions instead of the raw connection */
    ck_assert_int_eq(gd_store_exec(s, "CREATE TEMP TABLE t(a); INSERT INTO t(a) VALUES (1), (2), (3)", &err), 0);
    ck_assert_int_eq(gd_store_last_id(s), 3);
    ck_assert_int_eq(gd_store_changes(s), 3);
    ck_assert_int_eq(gd_store_exec(s, "UPDATE t SET a = a + 1 WHERE a >= 2", &err), 0);
    ck_assert_int_eq(gd_store_changes(s), 2);
    ck_assert_int_eq(gd_store_prepares(s, "SELEC 1", 0), 0);
    ck_assert_ptr_nonnull(strstr(gd_store_errmsg(s), "syntax error"));
    ck_assert_int_eq(gd_store_prepares(s, "SELECT gd_seven()", 0), 0);
    ck_assert_int_eq(gd_store_function(s, "gd_seven", 0, SQLITE_UTF8, NULL, sql_seven, NULL, &err), 0);
    ck_assert_int_eq(gd_store_prepares(s, "SELECT gd_seven()", 1), 1);
    /* an empty database's first load: the rollback journal, then the WAL again */
    ck_assert_str_eq(journal_mode(s, mode, sizeof mode), "wal");
    ck_assert_int_eq(gd_store_journal_first_load(s), 1);
    ck_assert_str_eq(journal_mode(s, mode, sizeof mode), "delete");
    gd_store_journal_wal(s);
    ck_assert_str_eq(journal_mode(s, mode, sizeof mode), "wal");
    /* a database that holds a trace keeps the WAL */
    reports rs = {0};
    ck_assert_int_eq(ingest(s, FIX "pairing.jsonl", &rs, &err), 0);
    ck_assert_int_eq(gd_store_journal_first_load(s), 0);
    ck_assert_str_eq(journal_mode(s, mode, sizeof mode), "wal");
    gd_store_close(s);
    /* out of memory, spelled once */
    gd_error e = {0};
    ck_assert_int_eq(gd_error_oom_at(&e, 3, 4), GD_ERR_NOMEM);
    ck_assert_str_eq(e.msg, "out of memory");
    ck_assert_int_eq(e.line, 3);
    ck_assert_int_eq(gd_error_oom(NULL), GD_ERR_NOMEM);
}
END_TEST

/* PRAGMA page_size of s. */
static int page_size(gd_store *s)
{
    gd_error err = {0};
    sqlite3_stmt *q = gd_store_prepare(s, "PRAGMA page_size", &err);
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    enum { P_SIZE }; /* the one column */
    int n = sqlite3_column_int(q, P_SIZE);
    sqlite3_finalize(q);
    return n;
}

/* A new database has GD_PAGE_SIZE pages both ways it is made: written from
 * the schema's image (no file at the path) and created by SQLite in an
 * empty file (the image is only written where no file is). */
START_TEST(new_databases_take_one_page_size)
{
    ck_assert_int_ne(GD_PAGE_SIZE, 4096); /* not SQLite's default by chance */
    gd_store *s = open_db("paged-image.db");
    ck_assert_int_eq(page_size(s), GD_PAGE_SIZE);
    gd_store_close(s);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, "paged-empty.db");
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    s = open_db("paged-empty.db");
    ck_assert_int_eq(page_size(s), GD_PAGE_SIZE);
    gd_store_close(s);
}
END_TEST

/* #47: the app rules of analysis/app.h as the store's SQL functions
 * (trace-app.sql's rules 5 and 6, the apps present): the C rule's values */
START_TEST(app_rules_in_sql)
{
    gd_store *s = open_db("apprules.db");
    gd_error err = {0};
    sqlite3_stmt *q = gd_store_prepare(s,
        "SELECT gd_app_of_window('TX - com.google.samples.apps.nowinandroid.demo/"
        "com.google.samples.apps.nowinandroid.MainActivity#50010') AS a,"
        " gd_app_of_window('StatusBar/android.view.ViewRootImpl@fff6b30 (visibility=0)') AS b,"
        " gd_app_of_window('TX - Surface(name=Task=16098)/@0x9b71fa2') AS c,"
        " gd_app_package('com.google.android.googlequicksearchbox:interactor') AS d,"
        " gd_app_package('com.jeanboy.app.training') AS e, gd_app_package(':svc') AS f,"
        " gd_app_package(NULL) AS g, gd_app_of_window(NULL) AS h", &err);
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    ck_assert_str_eq((const char *)sqlite3_column_text(q, 0), "com.google.samples.apps.nowinandroid.demo");
    ck_assert_int_eq(sqlite3_column_type(q, 1), SQLITE_NULL);
    ck_assert_int_eq(sqlite3_column_type(q, 2), SQLITE_NULL);
    ck_assert_str_eq((const char *)sqlite3_column_text(q, 3), "com.google.android.googlequicksearchbox");
    ck_assert_str_eq((const char *)sqlite3_column_text(q, 4), "com.jeanboy.app.training");
    ck_assert_str_eq((const char *)sqlite3_column_text(q, 5), ":svc");
    ck_assert_int_eq(sqlite3_column_type(q, 6), SQLITE_NULL);
    ck_assert_int_eq(sqlite3_column_type(q, 7), SQLITE_NULL);
    sqlite3_finalize(q);
    gd_store_close(s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("store");
    TCase *t = tcase_create("ingest");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 60);
    tcase_add_test(t, pairing_fixture_exact_blocks);
    tcase_add_test(t, streamed_and_sorted_pairing_agree);
    tcase_add_test(t, document_and_lines_give_the_same_rows);
    tcase_add_test(t, gzip_gives_the_same_rows);
    tcase_add_test(t, skipped_events_count_once);
    tcase_add_test(t, reingest_is_idempotent);
    tcase_add_test(t, failed_ingest_writes_nothing);
    tcase_add_test(t, wrong_type_names_the_field_and_position);
    tcase_add_test(t, newer_schema_is_refused);
    tcase_add_test(t, readonly_sql_refusals);
    tcase_add_test(t, connection_facts_and_journal_policy);
    tcase_add_test(t, new_databases_take_one_page_size);
    tcase_add_test(t, app_rules_in_sql);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
