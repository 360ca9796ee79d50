/* store/sql.h - the store's SQL helpers, public to the folders that speak
 * SQL for their own tables (ingest, derive, query, fleet: docs/architecture.md,
 * "Who writes which table"): preparing and caching statements, binding and
 * reading columns, streaming rows, bulk loads, the shared SQL fragments.
 * struct gd_store stays opaque (store/store_int.h, lib/store/ only); a raw
 * connection is had through gd_store_db (for query/sql.c only). */
#ifndef GD_STORE_SQL_H
#define GD_STORE_SQL_H

#include <sqlite3.h>
#include <stdint.h>

#include "store/store.h"

/* The store's SQLite connection, for what the helpers below do not cover:
 * `godeye sql`'s authorizer, progress handler and multi-statement prepare
 * (query/sql.c) and the unit tests' operation counters; nothing else
 * (docs/architecture.md, "the raw connection").  Borrowed: never closed
 * by the caller. */
sqlite3 *gd_store_db(gd_store *s);

/* The rowid of the last row inserted on s (sqlite3_last_insert_rowid). */
int64_t gd_store_last_id(gd_store *s);
/* The rows the last INSERT, UPDATE or DELETE on s changed (sqlite3_changes). */
int gd_store_changes(gd_store *s);
/* The message of the last failed call on s (sqlite3_errmsg; never NULL). */
const char *gd_store_errmsg(gd_store *s);
/* Makes SQL function `name` (nargs arguments, flags SQLITE_UTF8 and
 * perhaps SQLITE_DETERMINISTIC) callable on s, with state ctx that
 * destroy frees when the connection closes (or at once when the
 * registration fails).  GD_OK, or GD_ERR_* "database function: ...". */
int gd_store_function(gd_store *s, const char *name, int nargs, int flags, void *ctx,
                      void (*fn)(sqlite3_context *, int, sqlite3_value **), void (*destroy)(void *),
                      gd_error *err);
/* 1 when statement sql prepares on s (a function it calls is registered),
 * run once when step, then finalized; 0 otherwise, err untouched. */
int gd_store_prepares(gd_store *s, const char *sql, int step);

/* SQL for the thread of dispatch `d` of trace `t`: "main" for the trace's
 * main thread (its pid when the trace names none), else the thread's name
 * (NULL when unknown).  The one home of that rule. */
#define GD_SQL_THREAD_OF(d, t)                                                              \
    "CASE WHEN " d ".tid = coalesce(" t ".main_tid, " d ".pid) THEN 'main' ELSE"          \
    " (SELECT th.name FROM thread th WHERE th.trace = " d ".trace AND th.pid = " d ".pid" \
    " AND th.tid = " d ".tid) END"

/* SQL for the process of dispatch `d` of trace `t` (#30): the trace's app
 * when the dispatch's pid is the trace's pid; else the process an ANR dump
 * of that pid in the trace names; else the name of that pid's main thread
 * (tid = pid) unless it is 'main'; else NULL (shown '-').  The one home of
 * that rule (godeye-blocks(1), PROCESS). */
#define GD_SQL_PROCESS_OF(d, t)                                                               \
    "coalesce(CASE WHEN " d ".pid = " t ".pid THEN " t ".app END,"                            \
    " (SELECT a.process FROM anr_dump a WHERE a.trace = " d ".trace AND a.pid = " d ".pid"    \
    " AND a.process IS NOT NULL AND a.process <> '' ORDER BY a.id LIMIT 1),"                  \
    " (SELECT th.name FROM thread th WHERE th.trace = " d ".trace AND th.pid = " d ".pid"     \
    " AND th.tid = " d ".pid AND th.name <> 'main' AND th.name <> ''))"

/* SQL for every (trace, name) a process of the store is known by: the
 * traces' apps, ANR dumps' processes, launches' apps and the names of
 * process main threads (tid = pid).  The one list --app matches against
 * (gd_store_filter_sql, query/apps.h). */
#define GD_SQL_PROCESS_NAMES                                                                          \
    "SELECT id AS trace, app AS name FROM trace WHERE app IS NOT NULL"                                \
    " UNION SELECT trace, process FROM anr_dump WHERE process IS NOT NULL AND process <> ''"          \
    " UNION SELECT trace, app FROM startup WHERE app IS NOT NULL"                                     \
    " UNION SELECT trace, name FROM thread WHERE tid = pid AND name IS NOT NULL AND name <> ''"

/* SQL true when process `p` (an SQL expression of its name) is app `app`'s
 * (gd_app_match; app NULL or unbound: always true). */
#define GD_SQL_APP_IS(p, app) "gd_app_match(" p ", " app ")"

/* A trace's exposure (#30), the divisor of every per-minute figure: the
 * statement that sets trace.exposure_ms, GD_SQL_TRACE_EXPOSURE, is
 * lib/sql/trace-exposure.sql (the rule's one home), generated into
 * trace_exposure_sql.h for lib/ only. */
/* #52: SQL true when trace row `t`'s exposure, if any, is time a capture
 * watched the app: false for an issue log (Matrix, BlockCanary), whose
 * span is only the gap between the reports it kept.  `diff` and `check`
 * run their rate tests only over sides of such traces (and exposure). */
#define GD_SQL_ISSUE_LOG_FORMATS "('matrix', 'blockcanary')" /* the fleet's count too */
#define GD_SQL_EXPOSURE_REAL(t) "(coalesce(" t ".format, '') NOT IN " GD_SQL_ISSUE_LOG_FORMATS ")"

/* SQL for the kind ('short', 'long', 'anr') of a block of dispatch `d`
 * in trace `t`: the registered function gd_block_kind, which is
 * gd_block_kind_at (analysis/blocks.c). */
/* The floor of the partial index dispatch_dur (schemas/godeye.sql and
 * lib/sql/migrate-3-4.sql write it as 16): a query
 * reads dispatches through it only with the literal term
 * GD_SQL_DUR_INDEXED(d), added when its own bound is at least this. */
#define GD_DUR_INDEXED_MS 16
#define GD_STR_(x) #x
#define GD_STR(x) GD_STR_(x)
#define GD_SQL_DUR_INDEXED(d) " AND " d ".dur_ms >= " GD_STR(GD_DUR_INDEXED_MS)

#define GD_SQL_BLOCK_KIND(d, t) "gd_block_kind(" d ".dur_ms, " t ".long_ms, " t ".anr_ms)"
/* An ANR dump v (of the anr_dump view) is the dump of the ANR-kind block of
 * dispatch d (trace t): the same pid, taken from the block's start up to
 * one ANR bar after its end.  Such a block and dump are one ANR (#28). */
#define GD_SQL_DUMP_OF_BLOCK(v, d, t)                                                             \
    v ".anr = 1 AND " v ".pid = " d ".pid AND " v ".ts_ms >= " d ".start_ms AND " v ".ts_ms <= " d \
    ".start_ms + " d ".dur_ms + " t ".anr_ms"

/* Prepares `sql`; NULL with err set (GD_ERR_IO, SQLite's message). */
sqlite3_stmt *gd_store_prepare(gd_store *s, const char *sql, gd_error *err);
/* The store's prepared statement for `sql`, a string literal (the cache
 * is keyed by its address), with no bindings; a private one when that is
 * in use or the cache is full.  Give it back with gd_store_release. */
sqlite3_stmt *gd_store_cached(gd_store *s, const char *sql, gd_error *err);
/* Resets a statement from gd_store_cached, or finalizes a private one. */
void gd_store_release(gd_store *s, sqlite3_stmt *st);
/* Runs statements without results; GD_OK or GD_ERR_IO with err set. */
int gd_store_exec(gd_store *s, const char *sql, gd_error *err);
/* Sets err from the connection's last error. Returns GD_ERR_IO. */
int gd_store_fail(gd_store *s, gd_error *err, const char *what);

/* " AND <col> IN (1,2,3)" for a trace filter (empty without one), into
 * buf; with f->app, also only the traces where a process of that app is
 * known (GD_SQL_PROCESS_NAMES). */
void gd_store_filter_sql(const gd_filter *f, const char *col, char *buf, size_t n);
/* " AND gd_app_match(<process>, 'PKG')" for f->app (empty without one):
 * the rows of the app's own processes, `process` the SQL of a row's
 * process name (e.g. GD_SQL_PROCESS_OF). */
void gd_store_app_sql(const gd_filter *f, const char *process, char *buf, size_t n);

/* Steps a write statement and resets it: GD_OK, or GD_ERR_* with err set. */
int gd_store_step(gd_store *s, sqlite3_stmt *st, gd_error *err);

/* Binds that write NULL for an absent value: a NULL string, a negative
 * integer (absent by godeye's convention), a NAN. */
static inline void gd_bind_text(sqlite3_stmt *st, int i, const char *v)
{
    if (v)
        sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}
static inline void gd_bind_opt_int(sqlite3_stmt *st, int i, int64_t v)
{
    if (v >= 0)
        sqlite3_bind_int64(st, i, v);
    else
        sqlite3_bind_null(st, i);
}
static inline void gd_bind_opt_double(sqlite3_stmt *st, int i, double v)
{
    if (gd_has(v))
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

/* Column values as JSON for result rows (NULL -> null in every one). */
/* The column as its SQLite type: integer, real, text (invalid UTF-8 as
 * U+FFFD), blob as hex. */
json_t *gd_col_json(sqlite3_stmt *q, int i);
/* Column i as a plain value (valid until the next step); a blob is a new
 * GD_V_JSON reference, released by the caller. */
void gd_col_value(sqlite3_stmt *q, int i, gd_value *v);
/* A millisecond column rounded to microseconds, or null. */
json_t *gd_col_ms(sqlite3_stmt *q, int i);
/* A text column, or null. */
json_t *gd_col_text(sqlite3_stmt *q, int i);
/* A millisecond value rounded to microseconds; null when NAN. */
json_t *gd_ms_json(double ms);

/* A query's columns written once, read by name (#24 item 7): a list of
 * X(ID, "sql expression") entries gives both the SELECT text (GD_COL_SQL:
 * ", expression" each, after a first column written out) and the
 * positions (GD_COL_ENUM: ID, each, after the first column's ID = 0), so a
 * row is read as sqlite3_column_double(q, C_TOTAL), never by a bare number
 * that a change to the SELECT would silently shift. */
#define GD_COL_ENUM(id, expr) id,
#define GD_COL_SQL(id, expr) ", " expr

/* The one streaming loop (#24 item 7).  gd_store_each steps a prepared
 * query and hands each result row to `row` with the caller's context,
 * which returns GD_OK to go on, GD_EACH_STOP to stop without error, or a
 * GD_ERR_* code (err set by the callback) that stops and is returned.
 * Then releases q as gd_store_release does (a statement of the store's
 * cache, from gd_store_cached, is reset for its next use; any other is
 * finalized).  GD_OK, the callback's error, or GD_ERR_* "database read".
 * gd_store_each_reuse only resets q (bindings kept): for a statement its
 * owner prepares once and runs again and again. */
#define GD_EACH_STOP (-1)
typedef int (*gd_step_fn)(void *ctx, sqlite3_stmt *q);
int gd_store_each(gd_store *s, sqlite3_stmt *q, gd_step_fn row, void *ctx, gd_error *err);
int gd_store_each_reuse(gd_store *s, sqlite3_stmt *q, gd_step_fn row, void *ctx, gd_error *err);
/* The same loop for a query not yet prepared: prepares sql (an error names
 * the database), binds nothing, then runs gd_store_each. */
int gd_store_each_sql(gd_store *s, const char *sql, gd_step_fn row, void *ctx, gd_error *err);

/* Runs a prepared query, one row built by `build` per result, each handed
 * to fn (non-zero stops); finalizes q.  GD_OK or GD_ERR_* with err set.
 * (gd_store_each with a JSON row builder.) */
int gd_store_stream(gd_store *s, sqlite3_stmt *q, json_t *(*build)(sqlite3_stmt *), gd_row_fn fn,
                    void *ctx, gd_error *err);

/* Bulk load (store/bulk.c).  gd_bulk_begin, inside the trace's savepoint,
 * bounds the connection's page cache to GD_BULK_CACHE_KIB (also the sorter's
 * memory).  When the database holds no trace yet, gd_bulk_touch(table),
 * called before each row of one of the load's tables (GD_BULK_*:
 * dispatch, sample, cpu, frame_time), drops that table's secondary
 * indexes (remembering their SQL) before its GD_BULK_MIN_ROWS-th row;
 * gd_bulk_end creates them again (call it
 * before anything queries those tables), each index build sorting in
 * GD_BULK_SORT_KIB.  A table the load writes fewer rows of keeps its indexes
 * (#50: a small file's new database skips a drop, the statements'
 * re-preparing after it and a rebuild, which cost more than a few rows
 * kept in the index as they come).
 * A rollback restores them.  gd_bulk_begin_tables drops the indexes of
 * `tables`, a constant SQL list of quoted names, at once, with sort_kib KiB
 * for the builds (the calls, written after the load's gd_bulk_end, when the
 * load's own buffers are gone: GD_BULK_SORT_CALLS_KIB). */
enum { GD_BULK_DISPATCH, GD_BULK_SAMPLE, GD_BULK_CPU, GD_BULK_FRAME, GD_BULK__COUNT };
#define GD_BULK_CACHE_KIB 16384
#define GD_BULK_SORT_KIB 2048
#define GD_BULK_MIN_ROWS 1024
#define GD_BULK_SORT_CALLS_KIB GD_BULK_CACHE_KIB
typedef struct gd_bulk {
    char **sql;
    size_t n;
    int sort_kib;
    unsigned todo; /* 1 << GD_BULK_*: the tables whose indexes gd_bulk_touch is to drop */
    unsigned rows[GD_BULK__COUNT]; /* gd_bulk_touch calls so far, while todo */
} gd_bulk;
int gd_bulk_begin(gd_store *s, gd_bulk *b, gd_error *err);
int gd_bulk_begin_tables(gd_store *s, gd_bulk *b, const char *tables, int sort_kib, gd_error *err);
int gd_bulk_touch(gd_store *s, gd_bulk *b, int table, gd_error *err);
int gd_bulk_end(gd_store *s, gd_bulk *b, gd_error *err);
void gd_bulk_free(gd_bulk *b);

#endif
