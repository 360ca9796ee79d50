/* store/store.h - the SQLite store: opening, schema versions and migrations,
 * transactions, removal (store/store.c, store/rm.c); the row callbacks and
 * the trace filter every reader of the store passes.
 *
 * SQL is spoken by five folders, each for its own tables
 * (docs/architecture.md, "Who writes which table"): store, ingest, derive,
 * query (read-only) and fleet; they share the helpers of store/sql.h.
 * struct gd_store is opaque.  The ingest writer is ingest/writer.h, the
 * queries behind the commands the headers of query/. */
#ifndef GD_STORE_STORE_H
#define GD_STORE_STORE_H

#include <jansson.h>
#include <stdint.h>

#include "core/error.h"
#include "core/event.h"
#include "core/row.h"

#define GD_SCHEMA_VERSION 10
/* godeye's mark in the SQLite header (PRAGMA application_id, "gdEY"): set
 * when a database is created or migrated.  A database without it is taken
 * for godeye's only when it has godeye's tables (trace, dispatch, block). */
#define GD_APPLICATION_ID 0x67644559
/* the page size of a new database, whether it is written from the schema's
 * image (store/image.c, tools/gen_schema_image.c) or created by SQLite in an
 * empty file: half the pages of SQLite's 4 KiB default to fetch, split and
 * write in a bulk load (bench/RESULTS.md, 2026-12-03); 16 and 64 KiB cost
 * more instructions on both Perfetto shapes (2026-12-07) */
#define GD_PAGE_SIZE 8192

typedef struct gd_store gd_store;

enum { GD_STORE_RW = 0, GD_STORE_RO = 1 };

/* Opens (RW: creating and initialising if missing) the database at `path`.
 * Fails with GD_ERR_IO when it cannot be opened or is not a godeye database,
 * GD_ERR_DATA when it was written by a newer godeye (schema version above
 * GD_SCHEMA_VERSION) or is corrupt.  RO never creates and never writes. */
int gd_store_open(gd_store **out, const char *path, int mode, gd_error *err);
void gd_store_close(gd_store *s);
/* fn(ctx) is called (once per lock) when a statement has waited a second
 * for a lock another connection holds; it goes on waiting (up to an hour
 * for a writer, a minute for a reader).  fn must not use the store. */
void gd_store_on_wait(gd_store *s, void (*fn)(void *ctx), void *ctx);

/* The database file's absolute name (NULL for a temporary one). */
const char *gd_store_filename(gd_store *s);

/* The journal policy of the store.  The first load of a new database (a
 * file without traces) may take a rollback journal instead of the WAL for
 * its one transaction: WAL writes every page twice (into the -wal, then
 * the checkpoint copies it into the file, ~10 % of a JSONL ingest); the
 * journal of an empty database holds next to nothing.  The caller decides
 * when (ingest: not when a folder is read, whose listing must know every
 * side file of the database, and -journal comes and goes).  Another
 * connection keeps the WAL (the switch then fails, harmlessly).  1 when
 * switched; 0 otherwise. */
int gd_store_journal_first_load(gd_store *s);
/* The WAL back after that load's commit; a failure (another connection)
 * leaves it to the next open, which always sets the WAL. */
void gd_store_journal_wal(gd_store *s);

/* Removes the traces `ids` and every row that belongs to them, in one
 * transaction (all or nothing); an id that is not a trace is an error
 * (GD_ERR_DATA) and removes nothing.  vacuum: VACUUM afterwards. */
int gd_store_rm(gd_store *s, const int64_t *ids, size_t n, int vacuum, gd_error *err);
/* VACUUM: rewrites the database without its free pages.  On failure (a
 * full disk: it needs about the database's size again) the database is as
 * it was before, err says why. */
int gd_store_vacuum(gd_store *s, gd_error *err);

/* The one matching rule of the name filters (--page, --window, --app,
 * --thread): a pattern starting with '=' matches the rest exactly, any
 * other pattern matches as a substring (case-sensitive); no pattern
 * matches everything.  Queries call it as gd_match(column, ?). */
int gd_match(const char *value, const char *pattern);

/* One write transaction (BEGIN IMMEDIATE, retried while another writer
 * holds the lock).  Commit failure leaves nothing written. */
int gd_store_begin(gd_store *s, gd_error *err);
int gd_store_commit(gd_store *s, gd_error *err);
void gd_store_rollback(gd_store *s);

/* ---- what readers of the store pass ------------------------------------ */

/* Receives one row (borrowed: valid during the call). Non-zero stops. */
typedef int (*gd_row_fn)(void *ctx, json_t *row);
/* The same for a row of plain values (core/row.h), for large answers. */
typedef int (*gd_values_fn)(void *ctx, const gd_row *row);

typedef struct gd_filter {
    const int64_t *traces;  /* restrict to these trace ids; NULL = all   */
    size_t ntraces;
    const char *app;        /* --app: only rows of this package's processes
                             * (gd_app_match); NULL = every process      */
} gd_filter;

/* Rounds a millisecond value to microseconds (as every output does). */
double gd_ms_round(double ms);

#endif
