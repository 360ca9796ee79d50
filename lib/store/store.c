/* store.c - opening the database, schema versions and transactions. */
#include "analysis/app.h"
#include "analysis/blocks.h"
#include "store/store_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* generated from schemas/godeye.sql and lib/sql/ (lib/CMakeLists.txt) */
#include "migrate_1_2_sql.h"
#include "migrate_2_3_sql.h"
#include "migrate_3_4_sql.h"
#include "migrate_4_5_sql.h"
#include "migrate_5_6_sql.h"
#include "migrate_6_7_sql.h"
#include "migrate_7_8_sql.h"
#include "migrate_8_9_sql.h"
#include "migrate_9_10_sql.h"
#include "binder_outermost_sql.h"
#include "schema_sql.h"
#include "trace_exposure_sql.h"

/* A store error names the database file: 'FILE': message (#25 item 18). */
static void name_db(const gd_store *s, gd_error *err)
{
    if (err && s->path[0])
        snprintf(err->source, sizeof err->source, "%s", s->path);
}

int gd_store_fail(gd_store *s, gd_error *err, const char *what)
{
    int ec = sqlite3_errcode(s->db);
    int code = (ec == SQLITE_CORRUPT || ec == SQLITE_NOTADB) ? GD_ERR_DATA : GD_ERR_IO;
    name_db(s, err);
    return gd_error_set(err, code, 0, 0, "%s: %s", what, sqlite3_errmsg(s->db));
}

sqlite3_stmt *gd_store_prepare(gd_store *s, const char *sql, gd_error *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        gd_store_fail(s, err, "database");
        return NULL;
    }
    return st;
}

sqlite3_stmt *gd_store_cached(gd_store *s, const char *sql, gd_error *err)
{
    for (int i = 0; i < GD_STMT_CACHE; i++) {
        if (s->cache[i].sql == sql) {
            if (sqlite3_stmt_busy(s->cache[i].st))
                break; /* in use further up the stack */
            sqlite3_clear_bindings(s->cache[i].st);
            return s->cache[i].st;
        }
        if (!s->cache[i].sql) {
            sqlite3_stmt *st = gd_store_prepare(s, sql, err);
            if (st) {
                s->cache[i].sql = sql;
                s->cache[i].st = st;
            }
            return st;
        }
    }
    return gd_store_prepare(s, sql, err);
}

void gd_store_release(gd_store *s, sqlite3_stmt *st)
{
    for (int i = 0; i < GD_STMT_CACHE && s->cache[i].sql; i++)
        if (s->cache[i].st == st) {
            sqlite3_reset(st);
            return;
        }
    sqlite3_finalize(st);
}

int gd_store_exec(gd_store *s, const char *sql, gd_error *err)
{
    char *msg = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        int ec = sqlite3_errcode(s->db);
        name_db(s, err);
        gd_error_set(err, (ec == SQLITE_CORRUPT || ec == SQLITE_NOTADB) ? GD_ERR_DATA : GD_ERR_IO,
                     0, 0, "database: %s", msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        return err ? err->code : GD_ERR_IO;
    }
    return GD_OK;
}

/* The one integer that `sql` (a PRAGMA or a count) gives, into *v: GD_OK,
 * or GD_ERR_* "database" with err set when it gives no row. */
static int one_int(gd_store *s, const char *sql, int *v, gd_error *err)
{
    sqlite3_stmt *st = gd_store_prepare(s, sql, err);
    if (!st)
        return err->code;
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return gd_store_fail(s, err, "database");
    }
    *v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return GD_OK;
}

static int user_version(gd_store *s, int *v, gd_error *err)
{
    return one_int(s, "PRAGMA user_version", v, err);
}

static int application_id(gd_store *s, int *id, gd_error *err)
{
    return one_int(s, "PRAGMA application_id", id, err);
}

/* 1 when the database has godeye's core tables (a database of godeye from
 * before GD_APPLICATION_ID), else 0. */
static int godeye_tables(gd_store *s, int *yes, gd_error *err)
{
    int n = 0, rc = one_int(s,
                            "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                            " AND name IN ('trace', 'dispatch', 'block')",
                            &n, err);
    *yes = n == 3;
    return rc;
}

static int table_count(gd_store *s, int *n, gd_error *err)
{
    return one_int(s, "SELECT count(*) FROM sqlite_master", n, err);
}

/* Runs a statement, retrying while another connection holds a lock that the
 * busy handler does not wait for (switching a new database to WAL). */
static int exec_retrying(gd_store *s, const char *sql, gd_error *err)
{
    for (int i = 0;; i++) {
        int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
        if (rc == SQLITE_OK)
            return GD_OK;
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || i == 500)
            return gd_store_exec(s, sql, err); /* report it */
        sqlite3_sleep(20);
    }
}

/* Begins a transaction with `begin` and reads the schema version and the
 * table count in it; the transaction stays open (an earlier one is ended). */
static int snapshot(gd_store *s, int *v, int *ntables, const char *begin, gd_error *err)
{
    if (sqlite3_get_autocommit(s->db) == 0)
        sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    int rc = gd_store_exec(s, begin, err);
    if (!rc && ((rc = user_version(s, v, err)) || (rc = table_count(s, ntables, err))))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* What takes a database of schema version i (the index) to i + 1: only
 * additions, so older rows keep their meaning.  Kept in step with
 * schemas/godeye.sql, which creates the newest version directly.  The SQL
 * is lib/sql/migrate-<i>-<i+1>.sql (the layout rule: lib/sql/README); the
 * last step (6 -> 7, once the statement's columns are all there: #51)
 * fills binder_txn.outermost (lib/sql/binder-outermost.sql) and then
 * trace.exposure_ms (lib/sql/trace-exposure.sql, the rule's one home) for
 * every trace; 7 -> 8 rebuilds thread_state clustered by its key (#50);
 * 8 -> 9 rebuilds thread with a nullable pid (#51); 9 -> 10 keeps the
 * dispatch's pid in block, covered by block_grp, and rebuilds log_line
 * clustered by trace and time (#50). */
static const char *const migrations[] = {
    NULL, /* 0: no schema yet: the whole schema is created instead */
    GD_SQL_MIGRATE_1_2,
    GD_SQL_MIGRATE_2_3,
    GD_SQL_MIGRATE_3_4,
    GD_SQL_MIGRATE_4_5,
    GD_SQL_MIGRATE_5_6,
    GD_SQL_MIGRATE_6_7 "\n" GD_SQL_BINDER_OUTERMOST ";\n" GD_SQL_TRACE_EXPOSURE ";",
    GD_SQL_MIGRATE_7_8,
    GD_SQL_MIGRATE_8_9,
    GD_SQL_MIGRATE_9_10,
};

/* Brings a database of an older schema version up to this one, under the
 * write lock (another godeye may be doing it at the same time). */
static int migrate(gd_store *s, gd_error *err)
{
    int v = 0, ntables = 0, rc;
    if ((rc = snapshot(s, &v, &ntables, "BEGIN IMMEDIATE", err)))
        return rc;
    for (; !rc && v >= 1 && v < GD_SCHEMA_VERSION; v++)
        rc = gd_store_exec(s, migrations[v], err);
    if (!rc) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version=%d; PRAGMA application_id=%d",
                 GD_SCHEMA_VERSION, GD_APPLICATION_ID);
        rc = gd_store_exec(s, pragma, err);
    }
    sqlite3_exec(s->db, rc ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL);
    return rc;
}

/* SQLite's busy handler: sleeps in growing steps up to wait_max_ms in all
 * for one lock; after a second of waiting tells the caller's on_wait, once
 * per lock. */
static int on_busy(void *ctx, int count)
{
    gd_store *s = ctx;
    if (count == 0) {
        s->waited_ms = 0;
        s->told = 0;
    }
    if (s->waited_ms >= s->wait_max_ms)
        return 0;
    int step = count < 10 ? 1 + count * 2 : 50;
    sqlite3_sleep(step);
    s->waited_ms += step;
    if (s->waited_ms >= 1000 && !s->told && s->on_wait) {
        s->told = 1;
        s->on_wait(s->on_wait_ctx);
    }
    return 1;
}

void gd_store_on_wait(gd_store *s, void (*fn)(void *ctx), void *ctx)
{
    s->on_wait = fn;
    s->on_wait_ctx = ctx;
}

int gd_match(const char *value, const char *pattern)
{
    if (!pattern)
        return 1;
    if (!value)
        return 0;
    return pattern[0] == '=' ? strcmp(value, pattern + 1) == 0 : strstr(value, pattern) != NULL;
}

/* gd_match(value, pattern) for the queries: the one matching rule of
 * --page, --window, --app and --thread (see gd_match). */
static void sql_match(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *v = (const char *)sqlite3_value_text(argv[0]);
    const char *p = (const char *)sqlite3_value_text(argv[1]);
    sqlite3_result_int(cx, gd_match(v, p));
}

/* gd_app_match(process, pkg) for the queries: --app's rule (analysis/app.h);
 * a NULL pkg matches every row, so "gd_app_match(x, ?N)" with ?N unbound
 * is no filter. */
static void sql_app_match(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *p = (const char *)sqlite3_value_text(argv[1]);
    sqlite3_result_int(cx, !p || gd_app_match((const char *)sqlite3_value_text(argv[0]), p));
}

/* gd_app_is_system(process): the system-process rule (analysis/app.h),
 * for lib/sql/trace-app.sql. */
static void sql_app_is_system(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    sqlite3_result_int(cx, gd_app_is_system((const char *)sqlite3_value_text(argv[0])));
}

/* The text a rule of analysis/app.h (`rule`: gd_app_package,
 * gd_app_of_window) copies out of argv[0], as the result; NULL when it
 * finds none and for NULL. */
static void app_text(sqlite3_context *cx, sqlite3_value **argv, int (*rule)(const char *, char *, size_t))
{
    const char *t = (const char *)sqlite3_value_text(argv[0]);
    size_t n = (size_t)sqlite3_value_bytes(argv[0]) + 1;
    char *buf = t ? sqlite3_malloc64(n) : NULL;
    if (t && !buf) {
        sqlite3_result_error_nomem(cx);
        return;
    }
    if (buf && rule(t, buf, n))
        sqlite3_result_text(cx, buf, -1, sqlite3_free);
    else {
        sqlite3_free(buf);
        sqlite3_result_null(cx);
    }
}

/* gd_app_of_window(window): the package a frame window names, the one
 * window rule (analysis/app.h), for lib/sql/trace-app.sql. */
static void sql_app_of_window(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    app_text(cx, argv, gd_app_of_window);
}

/* gd_app_package(process): the package of a process name ("PKG:svc" is
 * PKG's), the one rule (analysis/app.h), for trace-app.sql and the apps
 * present (query/apps.c). */
static void sql_app_package(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    app_text(cx, argv, gd_app_package);
}

/* gd_block_kind(dur_ms, long_ms, anr_ms) for the queries: "short", "long"
 * or "anr", the one kind rule (gd_block_kind_at); NULL when one is NULL. */
static void sql_block_kind(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    for (int i = 0; i < 3; i++)
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL) {
            sqlite3_result_null(cx);
            return;
        }
    gd_block_kind k = gd_block_kind_at(sqlite3_value_double(argv[0]), sqlite3_value_double(argv[1]),
                                       sqlite3_value_double(argv[2]));
    sqlite3_result_text(cx, gd_block_kind_name(k), -1, SQLITE_STATIC);
}

/* gd_group_fallback(text) and gd_group_fallback_rule(text): the group of a
 * block without key frame and the rule that named it (analysis/blocks.h),
 * for the schema 5 migration; NULL when no rule names one. */
static void group_fallback(sqlite3_context *cx, sqlite3_value **argv, int want_rule)
{
    char buf[1024];
    const char *text = (const char *)sqlite3_value_text(argv[0]);
    gd_group_rule r = gd_group_fallback(text, buf, sizeof buf);
    if (r == GD_GROUP_NONE)
        sqlite3_result_null(cx);
    else if (want_rule)
        sqlite3_result_text(cx, gd_group_rule_name(r), -1, SQLITE_STATIC);
    else
        sqlite3_result_text(cx, buf, -1, SQLITE_TRANSIENT);
}

static void sql_group_fallback(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    group_fallback(cx, argv, 0);
}

static void sql_group_fallback_rule(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    group_fallback(cx, argv, 1);
}

/* Opens path as a file name, never as an SQLite URI ("file::memory:" is a
 * file called that).  immutable: a read-only URI with immutable=1, for a
 * database on read-only media, where SQLite cannot make its -shm file. */
static int open_db(gd_store *s, const char *path, int flags, int immutable)
{
    char *name = NULL;
    size_t n = strlen(path);
    if (immutable) {
        /* file:<percent-encoded path>?immutable=1 */
        name = malloc(3 * n + 32);
        if (!name)
            return SQLITE_NOMEM;
        char *o = name + sprintf(name, "file:");
        for (const unsigned char *c = (const unsigned char *)path; *c; c++)
            o += (*c == '%' || *c == '?' || *c == '#' || *c <= ' ' || *c >= 0x7f) ? sprintf(o, "%%%02X", *c)
                                                                                 : sprintf(o, "%c", *c);
        strcpy(o, "?immutable=1");
        flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    } else if (strncmp(path, "file:", 5) == 0) {
        /* a URI-looking relative name: "./" makes SQLite read it as a path */
        name = malloc(n + 3);
        if (!name)
            return SQLITE_NOMEM;
        sprintf(name, "./%s", path);
    }
    /* no memory statistics (nothing reads them): a mutex and counters on
     * every allocation less; only takes effect before SQLite starts */
    static int configured;
    if (!configured) {
        configured = 1;
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    }
    int rc = sqlite3_open_v2(name ? name : path, &s->db, flags | SQLITE_OPEN_NOMUTEX, NULL);
    free(name);
    if (rc != SQLITE_OK)
        return rc;
    /* writers wait for each other's whole ingest; readers never wait (WAL) */
    s->wait_max_ms = s->ro ? 60000 : 3600000;
    sqlite3_busy_handler(s->db, on_busy, s);
    sqlite3_extended_result_codes(s->db, 0);
    /* extension loading stays off (the default); defensive mode blocks
     * writes to the schema through PRAGMA writable_schema and friends */
    sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    sqlite3_db_config(s->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
    sqlite3_create_function(s->db, "gd_match", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_match,
                            NULL, NULL);
    sqlite3_create_function(s->db, "gd_app_match", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_app_match,
                            NULL, NULL);
    sqlite3_create_function(s->db, "gd_app_is_system", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                            sql_app_is_system, NULL, NULL);
    sqlite3_create_function(s->db, "gd_app_of_window", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                            sql_app_of_window, NULL, NULL);
    sqlite3_create_function(s->db, "gd_app_package", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                            sql_app_package, NULL, NULL);
    sqlite3_create_function(s->db, "gd_block_kind", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                            sql_block_kind, NULL, NULL);
    sqlite3_create_function(s->db, "gd_group_fallback", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                            sql_group_fallback, NULL, NULL);
    sqlite3_create_function(s->db, "gd_group_fallback_rule", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                            sql_group_fallback_rule, NULL, NULL);
    return SQLITE_OK;
}

/* The schema version and table count, and the verdict on them: GD_OK for a
 * godeye database (or a new empty one, *fresh set), an error otherwise.
 * The snapshot's transaction is ended. */
static int check_db(gd_store *s, int *fresh, int *older, gd_error *err)
{
    int v = 0, ntables = 0, rc;
    *fresh = *older = 0;
    /* the version and the table count from one snapshot: another godeye may
     * be creating the schema right now */
    if ((rc = snapshot(s, &v, &ntables, "BEGIN", err)))
        return rc;
    int app = 0, ours = 0;
    if ((rc = application_id(s, &app, err)) || (rc = godeye_tables(s, &ours, err))) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    /* another program's database (Room sets user_version 1, 2, ...) is
     * refused before anything is written to it */
    if (app != 0 && app != GD_APPLICATION_ID)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0,
                          "not a godeye database (application_id %d is another program's)", app);
    else if (app == 0 && v != 0 && !ours)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0,
                          "not a godeye database (user_version %d, but not godeye's tables)", v);
    else if (v > GD_SCHEMA_VERSION)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0,
                          "database written by a newer godeye (schema %d; this godeye reads %d)", v,
                          GD_SCHEMA_VERSION);
    else if (v == 0 && ntables > 0)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "not a godeye database (it has other tables)");
    else if (v == 0 && s->ro)
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "empty database (run 'godeye ingest' first)");
    else if (v == 0)
        *fresh = 1;
    else if (v < GD_SCHEMA_VERSION && s->ro)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0,
                          "database written by an older godeye (schema %d; this godeye reads %d):"
                          " any command that writes (godeye ingest, godeye rm) upgrades it",
                          v, GD_SCHEMA_VERSION);
    else if (v < GD_SCHEMA_VERSION)
        *older = 1;
    sqlite3_exec(s->db, rc ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL);
    return rc;
}

int gd_store_open(gd_store **out, const char *path, int mode, gd_error *err)
{
    gd_store *s = calloc(1, sizeof *s);
    if (!s)
        return gd_error_oom(err);
    s->ro = mode == GD_STORE_RO;
    snprintf(err->source, sizeof err->source, "%s", path);
    snprintf(s->path, sizeof s->path, "%s", path);
    if (s->ro && access(path, F_OK) != 0) {
        free(s);
        return gd_error_set(err, GD_ERR_IO, 0, 0, "no database here (run 'godeye ingest' first)");
    }
    int flags = s->ro ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    int fresh = 0, older = 0, rc;
    if (!s->ro)
        gd_store_new_from_image(path); /* else SQLite creates it, and the schema is run below */
    if (open_db(s, path, flags, 0) != SQLITE_OK) {
        gd_error_set(err, GD_ERR_IO, 0, 0, "cannot open database: %s",
                     s->db ? sqlite3_errmsg(s->db) : GD_ERR_NOMEM_MSG);
        goto fail;
    }
    rc = check_db(s, &fresh, &older, err);
    if (rc == GD_ERR_IO && s->ro) {
        /* a WAL database on read-only media (no -shm can be made): read it
         * as immutable; a real failure shows again */
        gd_error first = *err;
        sqlite3_close(s->db);
        s->db = NULL;
        if (open_db(s, path, flags, 1) != SQLITE_OK || (rc = check_db(s, &fresh, &older, err)) != GD_OK) {
            *err = first;
            rc = first.code;
        }
    }
    if (rc)
        goto fail;
    /* an empty file gets GD_PAGE_SIZE pages (before WAL mode writes its
     * header; on a file that has pages the pragma changes nothing); the
     * caches stay bounded in KiB */
    if (fresh && !s->ro && (rc = gd_store_exec(s, "PRAGMA page_size=" GD_STR(GD_PAGE_SIZE), err)))
        goto fail;
    /* WAL only once the file is known to be ours (or new): a foreign
     * database is refused untouched */
    if (!s->ro && (rc = exec_retrying(s, "PRAGMA journal_mode=WAL", err)))
        goto fail;
    if (older && (rc = migrate(s, err)))
        goto fail;
    if (fresh) {
        /* create the schema under the write lock, unless another process
         * created it meanwhile */
        int v = 0, ntables = 0;
        if ((rc = snapshot(s, &v, &ntables, "BEGIN IMMEDIATE", err)))
            goto fail;
        if (v == 0 && ntables == 0) {
            char pragma[64];
            snprintf(pragma, sizeof pragma, "PRAGMA user_version=%d; PRAGMA application_id=%d",
                     GD_SCHEMA_VERSION, GD_APPLICATION_ID);
            if ((rc = gd_store_exec(s, GD_SCHEMA_SQL, err)) || (rc = gd_store_exec(s, pragma, err)))
                goto rollback;
        } else if (v == 0 || v > GD_SCHEMA_VERSION) {
            rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "not a godeye database (it has other tables)");
            goto rollback;
        }
        if ((rc = gd_store_exec(s, "COMMIT", err)))
            goto rollback;
    }
    if (!s->ro && (rc = gd_store_exec(s, "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF;"
                                         "PRAGMA cache_size=-32768; PRAGMA temp_store=FILE;",
                                      err)))
        goto fail;
    *out = s;
    return GD_OK;
rollback:
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
fail:
    sqlite3_close(s->db);
    free(s);
    return err->code ? err->code : GD_ERR_IO;
}

sqlite3 *gd_store_db(gd_store *s) { return s->db; }

int64_t gd_store_last_id(gd_store *s) { return sqlite3_last_insert_rowid(s->db); }

int gd_store_changes(gd_store *s) { return sqlite3_changes(s->db); }

const char *gd_store_errmsg(gd_store *s) { return sqlite3_errmsg(s->db); }

int gd_store_function(gd_store *s, const char *name, int nargs, int flags, void *ctx,
                      void (*fn)(sqlite3_context *, int, sqlite3_value **), void (*destroy)(void *),
                      gd_error *err)
{
    if (sqlite3_create_function_v2(s->db, name, nargs, flags, ctx, fn, NULL, NULL, destroy) != SQLITE_OK)
        return gd_store_fail(s, err, "database function");
    return GD_OK;
}

int gd_store_prepares(gd_store *s, const char *sql, int step)
{
    sqlite3_stmt *q = NULL;
    int ok = sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) == SQLITE_OK;
    if (ok && step)
        sqlite3_step(q);
    sqlite3_finalize(q);
    return ok;
}

int gd_store_journal_first_load(gd_store *s)
{
    enum { J_VALUE }; /* each query's one column */
    sqlite3_stmt *q = NULL;
    int empty = sqlite3_prepare_v2(s->db, "SELECT NOT EXISTS (SELECT 1 FROM trace)", -1, &q, NULL) == SQLITE_OK &&
                sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, J_VALUE) == 1;
    sqlite3_finalize(q);
    q = NULL;
    int done = empty && sqlite3_prepare_v2(s->db, "PRAGMA journal_mode=DELETE", -1, &q, NULL) == SQLITE_OK &&
               sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, J_VALUE) &&
               strcmp((const char *)sqlite3_column_text(q, J_VALUE), "delete") == 0;
    sqlite3_finalize(q);
    return done;
}

void gd_store_journal_wal(gd_store *s) { sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL); }

const char *gd_store_filename(gd_store *s)
{
    const char *f = sqlite3_db_filename(s->db, "main");
    return f && *f ? f : NULL;
}

void gd_store_close(gd_store *s)
{
    if (!s)
        return;
    if (s->in_tx)
        gd_store_rollback(s);
    for (int i = 0; i < GD_STMT_CACHE && s->cache[i].sql; i++)
        sqlite3_finalize(s->cache[i].st);
    sqlite3_close_v2(s->db);
    free(s);
}

int gd_store_begin(gd_store *s, gd_error *err)
{
    /* busy_timeout covers the wait for another writer */
    int rc = gd_store_exec(s, "BEGIN IMMEDIATE", err);
    if (rc == GD_OK)
        s->in_tx = 1;
    return rc;
}

int gd_store_commit(gd_store *s, gd_error *err)
{
    int rc = gd_store_exec(s, "COMMIT", err);
    if (rc != GD_OK)
        gd_store_rollback(s);
    s->in_tx = 0;
    return rc;
}

void gd_store_rollback(gd_store *s)
{
    if (sqlite3_get_autocommit(s->db) == 0)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    s->in_tx = 0;
}

int gd_store_step(gd_store *s, sqlite3_stmt *st, gd_error *err)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return gd_store_fail(s, err, "database write");
    return GD_OK;
}

/* ---- result rows ---------------------------------------------------------- */

json_t *gd_col_json(sqlite3_stmt *st, int i)
{
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER:
        return json_integer(sqlite3_column_int64(st, i));
    case SQLITE_FLOAT:
        return json_real(sqlite3_column_double(st, i));
    case SQLITE_TEXT: {
        const char *t = (const char *)sqlite3_column_text(st, i);
        return gd_json_text(t, (size_t)sqlite3_column_bytes(st, i));
    }
    case SQLITE_BLOB: {
        const unsigned char *p = sqlite3_column_blob(st, i);
        int n = sqlite3_column_bytes(st, i);
        char *hex = malloc((size_t)n * 2 + 1);
        if (!hex)
            return json_null();
        for (int k = 0; k < n; k++)
            sprintf(hex + 2 * k, "%02x", p[k]);
        hex[n * 2] = 0;
        json_t *j = json_string(hex);
        free(hex);
        return j;
    }
    default:
        return json_null();
    }
}

void gd_col_value(sqlite3_stmt *st, int i, gd_value *v)
{
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER:
        v->kind = GD_V_INT;
        v->u.i = sqlite3_column_int64(st, i);
        return;
    case SQLITE_FLOAT:
        v->kind = GD_V_REAL;
        v->u.d = sqlite3_column_double(st, i);
        return;
    case SQLITE_TEXT:
        v->kind = GD_V_TEXT;
        v->u.t.s = (const char *)sqlite3_column_text(st, i);
        v->u.t.n = (size_t)sqlite3_column_bytes(st, i);
        return;
    case SQLITE_BLOB:
        v->kind = GD_V_JSON; /* hex text, as gd_col_json has it */
        v->u.json = gd_col_json(st, i);
        return;
    default:
        v->kind = GD_V_NULL;
    }
}

json_t *gd_col_ms(sqlite3_stmt *q, int i)
{
    if (sqlite3_column_type(q, i) == SQLITE_NULL)
        return json_null();
    return json_real(gd_ms_round(sqlite3_column_double(q, i)));
}

json_t *gd_col_text(sqlite3_stmt *q, int i)
{
    const char *t = (const char *)sqlite3_column_text(q, i);
    if (!t)
        return json_null();
    return gd_json_text(t, (size_t)sqlite3_column_bytes(q, i));
}

json_t *gd_ms_json(double ms)
{
    return isnan(ms) ? json_null() : json_real(gd_ms_round(ms));
}

static int each_loop(gd_store *s, sqlite3_stmt *q, gd_step_fn row, void *ctx, gd_error *err)
{
    int rc = GD_OK, step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        int stop = row(ctx, q);
        if (stop) {
            if (stop != GD_EACH_STOP)
                rc = stop;
            break;
        }
    }
    if (rc == GD_OK && step != SQLITE_ROW && step != SQLITE_DONE)
        rc = gd_store_fail(s, err, "database read");
    return rc;
}

int gd_store_each(gd_store *s, sqlite3_stmt *q, gd_step_fn row, void *ctx, gd_error *err)
{
    int rc = each_loop(s, q, row, ctx, err);
    gd_store_release(s, q);
    return rc;
}

int gd_store_each_reuse(gd_store *s, sqlite3_stmt *q, gd_step_fn row, void *ctx, gd_error *err)
{
    int rc = each_loop(s, q, row, ctx, err);
    sqlite3_reset(q);
    return rc;
}

int gd_store_each_sql(gd_store *s, const char *sql, gd_step_fn row, void *ctx, gd_error *err)
{
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK) {
        int rc = gd_store_fail(s, err, "database read");
        sqlite3_finalize(q);
        return rc;
    }
    return gd_store_each(s, q, row, ctx, err);
}

struct stream_ctx {
    json_t *(*build)(sqlite3_stmt *);
    gd_row_fn fn;
    void *ctx;
};

static int stream_row(void *ctx, sqlite3_stmt *q)
{
    struct stream_ctx *c = ctx;
    json_t *row = c->build(q);
    int stop = c->fn(c->ctx, row);
    json_decref(row);
    return stop ? GD_EACH_STOP : GD_OK;
}

int gd_store_stream(gd_store *s, sqlite3_stmt *q, json_t *(*build)(sqlite3_stmt *), gd_row_fn fn,
                    void *ctx, gd_error *err)
{
    struct stream_ctx c = {build, fn, ctx};
    return gd_store_each(s, q, stream_row, &c, err);
}

void gd_store_filter_sql(const gd_filter *f, const char *col, char *buf, size_t n)
{
    buf[0] = 0;
    if (!f)
        return;
    size_t used = 0;
    if (f->traces && f->ntraces) {
        used = (size_t)snprintf(buf, n, " AND %s IN (", col);
        for (size_t i = 0; i < f->ntraces && used < n; i++)
            used += (size_t)snprintf(buf + used, n - used, "%s%lld", i ? "," : "", (long long)f->traces[i]);
        if (used < n)
            used += (size_t)snprintf(buf + used, n - used, ")");
    }
    /* --app: the traces where a process of the app is known */
    if (f->app && used < n)
        sqlite3_snprintf((int)(n - used), buf + used,
                         " AND %s IN (SELECT trace FROM (" GD_SQL_PROCESS_NAMES ") WHERE gd_app_match(name, %Q))",
                         col, f->app);
}

void gd_store_app_sql(const gd_filter *f, const char *process, char *buf, size_t n)
{
    buf[0] = 0;
    if (f && f->app)
        sqlite3_snprintf((int)n, buf, " AND gd_app_match(%s, %Q)", process, f->app);
}

double gd_ms_round(double ms)
{
    return round(ms * 1000.0) / 1000.0;
}
