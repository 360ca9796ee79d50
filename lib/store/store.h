/* store/store.h - the SQLite store: opening, schema versions and migrations,
 * transactions, removal (store/store.c, store/rm.c).
 *
 * SQL is spoken by five folders, each for its own tables
 * (docs/architecture.md, "Who writes which table"): store, ingest, derive,
 * query (read-only) and fleet.  This header still declares two other
 * layers' APIs, to be moved out (#24 item 1): the ingest writer
 * (gd_writer_*, ingest/writer.c) and the queries behind the commands
 * (gd_store_* query functions, the query/ files; one JSON object per row). */
#ifndef GD_STORE_STORE_H
#define GD_STORE_STORE_H

#include <jansson.h>
#include <stdint.h>

#include "analysis/blocks.h"
#include "analysis/vitals.h"
#include "core/error.h"
#include "core/event.h"
#include "core/row.h"

#define GD_SCHEMA_VERSION 6
/* godeye's mark in the SQLite header (PRAGMA application_id, "gdEY"): set
 * when a database is created or migrated.  A database without it is taken
 * for godeye's only when it has godeye's tables (trace, dispatch, block). */
#define GD_APPLICATION_ID 0x67644559

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

/* ---- writing one trace --------------------------------------------------- */

typedef struct gd_writer gd_writer;

/* Where one input's ingest spent its time: wall-clock seconds. */
typedef struct gd_ingest_timings {
    double read;        /* reading, decompressing and parsing the input  */
    double write;       /* turning events into rows (the writer's sink)  */
    double analyse;     /* pairing prints, CPU ratios, deriving blocks   */
} gd_ingest_timings;

typedef struct gd_ingest_result {
    int64_t trace;
    int duplicate;      /* identical content was already ingested        */
    long events, skipped, dispatches, blocks;
    gd_ingest_timings timings;  /* read is filled by gd_ingest            */
} gd_ingest_result;

/* Starts a trace inside the open transaction (a savepoint). */
int gd_writer_open(gd_writer **out, gd_store *s, const char *source, const char *format,
                   gd_error *err);
/* The clock of the trace's times ("utc", "local", "monotonic": see
 * gd_meta.clock) when no meta of the capture names one: the format's. */
void gd_writer_default_clock(gd_writer *w, const char *clock);
/* Tags the user states at ingest (`godeye ingest --set KEY=VALUE`): each
 * non-NULL one replaces what the capture says (version is version_name;
 * build goes to trace.build). */
typedef struct gd_trace_tags {
    const char *app, *version, *device, *build;
} gd_trace_tags;
/* The tags of the trace (borrowed until gd_writer_finish; NULL: none). */
void gd_writer_set_tags(gd_writer *w, const gd_trace_tags *tags);
/* The stored name of a clock ("utc", "local", "monotonic", as a static
 * string), NULL for NULL or any other text. */
const char *gd_store_clock_name(const char *clock);
/* The sink readers send events to. */
const gd_sink *gd_writer_sink(gd_writer *w);
/* Pairs Looper prints, derives blocks, records stats and the content hash.
 * When a trace with the same hash exists, everything of this one is undone
 * and res->duplicate/res->trace name the existing trace. */
/* Events taken so far (skipped ones not counted). */
long gd_writer_events(const gd_writer *w);
int gd_writer_finish(gd_writer *w, const char *hash, gd_ingest_result *res, gd_error *err);
/* Progress of gd_writer_finish's analysis: fn(ctx, done, total) with the
 * dispatches analysed for blocks so far and how many there are to analyse
 * (0 of total first, total of total last, increasing between). */
typedef void (*gd_writer_progress_fn)(void *ctx, uint64_t done, int64_t total);
void gd_writer_progress(gd_writer *w, gd_writer_progress_fn fn, void *ctx);
/* Undoes everything written for this trace (rollback to its savepoint). */
void gd_writer_abort(gd_writer *w);
void gd_writer_free(gd_writer *w);
/* Calls fn for each skip/ignore reason counted so far. */
void gd_writer_foreach_stat(gd_writer *w, void (*fn)(void *ctx, const char *reason, long count,
                                                     long first_line),
                            void *ctx);

/* ---- queries -------------------------------------------------------------- */

/* Receives one row (borrowed: valid during the call). Non-zero stops. */
typedef int (*gd_row_fn)(void *ctx, json_t *row);
/* The same for a row of plain values (core/row.h), for large answers. */
typedef int (*gd_values_fn)(void *ctx, const gd_row *row);

typedef struct gd_filter {
    const int64_t *traces;  /* restrict to these trace ids; NULL = all   */
    size_t ntraces;
} gd_filter;

int gd_store_traces(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err);
/* What every trace's times are, for showing them: rows {trace, clock,
 * utc_offset_min, start_ms} (clock and utc_offset_min null when unknown).
 * Cheap: reads the trace table only. */
int gd_store_trace_clocks(gd_store *s, gd_row_fn fn, void *ctx, gd_error *err);

typedef struct gd_blocks_query {
    gd_filter filter;
    double threshold;       /* NAN: each trace's short threshold          */
    gd_block_kind kind;     /* GD_KIND_NONE: any                          */
    int stacks;             /* add "stacks": [{ts_ms, frames[]}] per block */
    int64_t limit;          /* > 0: only the `limit` longest blocks (ties: *
                             * the earlier), still by trace then start    */
} gd_blocks_query;

/* Blocks (contract fields of `godeye blocks`), by trace then start. */
int gd_store_blocks(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx,
                    gd_error *err);
/* The same rows as plain values (the same fields in the same order). */
int gd_store_block_values(gd_store *s, const gd_blocks_query *q, gd_values_fn fn, void *ctx,
                          gd_error *err);
/* Block groups (`godeye blocks --group`), by total_ms descending. */
int gd_store_block_groups(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err);

typedef struct gd_pages_query {
    gd_filter filter;
    const char *page;       /* only this class, or NULL                   */
    double slow_ms;         /* NAN: all; else draw or load time above it  */
    int group;              /* per-class aggregates instead of instances  */
} gd_pages_query;

/* Page instances with their timelines (`godeye pages`), or per-class
 * aggregates with q->group. */
int gd_store_pages(gd_store *s, const gd_pages_query *q, gd_row_fn fn, void *ctx, gd_error *err);

/* One row per view dump with its overdraw (`godeye overdraw`); with_views
 * adds "view_list" (the tree). */
int gd_store_overdraw(gd_store *s, const gd_filter *f, int with_views, gd_row_fn fn, void *ctx,
                      gd_error *err);

typedef struct gd_images_query {
    gd_filter filter;
    const char *issue;      /* only this issue name, or NULL              */
    double high, low;       /* thresholds (NAN: 1.5 and 0.5)              */
} gd_images_query;

/* Image issues, de-duplicated by (trace, page instance, view, bitmap size,
 * issue) with a count, by wasted bytes descending (`godeye images`). */
int gd_store_images(gd_store *s, const gd_images_query *q, gd_row_fn fn, void *ctx, gd_error *err);

/* Findings kept as reported by on-device tools (Matrix, AndroidGodEye,
 * logcat warnings, ANR dumps), optionally of one tool only: trace, ts_ms,
 * pid, tid, tool, type, detail, cost_ms, content. */
int gd_store_issues(gd_store *s, const gd_filter *f, const char *tool, gd_row_fn fn, void *ctx,
                    gd_error *err);

typedef struct gd_startup_query {
    gd_filter filter;
    const char *app;        /* only this package, or NULL                 */
    const char *kind;       /* "cold", "warm", "hot" or NULL: any         */
    int breakdown;          /* 1: each row has "phases" (#27)             */
} gd_startup_query;

/* App launches (`godeye startup`), by trace then time: trace, app (the
 * trace's app when the tool named none), activity, kind, total_ms,
 * wait_ms, source, ts_ms, slow (at or over gd_startup_bar_ms; null when
 * the kind is unknown), graded_as, ttid_ms, ttfd_ms; with `breakdown`,
 * "phases": its startup_phase rows as an object by phase name ({ts_ms,
 * dur_ms, slices, running_ms, runnable_ms, sleeping_ms, blocked_ms}; {}
 * for a launch not read from a trace's slices). */
int gd_store_startups(gd_store *s, const gd_startup_query *q, gd_row_fn fn, void *ctx,
                      gd_error *err);

/* One row per ANR dump, the dumps the system took for an ANR first (then
 * by trace and time): trace, pid, ts_ms, anr (bool: the anr_dump view's
 * rule; null for a database ingested before it), process, section,
 * dump_index, subject, threads, heap ({free_pct, used_bytes, ...} or null),
 * locks_held ([{name, tid, locks, more}]), main ({name, tid, state,
 * locks_held, waiting_on, lock, held_by, held_by_name, holder_state,
 * holder_locks_held, holder_waiting_on} or null), main_stack (frames,
 * innermost first), holder_stack (the frames of main's lock holder, or
 * null), deadlocks (arrays of {name, tid, lock, held_by, stack...}
 * cycles), binder_waits ({holder, waiters} objects: a lock holder in an
 * outgoing binder call), deadlock (bool), quiet (bool: not the ANR, no
 * deadlock, no binder wait, main waits for no lock). */
int gd_store_anr(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err);

/* What `godeye anr` left out. */
typedef struct gd_anr_counts {
    int64_t dumps;      /* dumps the system took for an ANR (anr_dump.anr = 1) */
    int64_t blocks;     /* main-thread blocks of kind anr that no ANR dump of  *
                         * their pid falls in (start .. end + anr_ms)          */
    int64_t total;      /* THE ANR count of every output: dumps + blocks       */
    int64_t snapshots;  /* the other dumps (never counted as ANRs)             */
    int64_t folded;     /* gd_store_anr_list: quiet dumps not listed           */
} gd_anr_counts;

typedef struct gd_anr_query {
    gd_filter filter;
    const char *app;        /* only dumps of this process (or "app:..."), or NULL */
    int all;                /* 0: quiet dumps are left out and counted         */
    gd_anr_counts *counts;  /* NULL, or where `folded` is counted              */
} gd_anr_query;

/* gd_store_anr's rows, filtered by q. */
int gd_store_anr_list(gd_store *s, const gd_anr_query *q, gd_row_fn fn, void *ctx, gd_error *err);

/* The ANR count every output reports (#28: one definition): an ANR is a
 * dump the system took for an ANR (the anr_dump view's anr = 1) or a
 * main-thread block of kind anr (once: a block in which, or within the
 * trace's anr_ms after which, an ANR dump of its pid was taken is that
 * dump's ANR), never a snapshot dump.  Fills *out
 * (folded = 0); GD_OK or an error code with err set. */
int gd_store_anr_count(gd_store *s, const gd_filter *f, gd_anr_counts *out, gd_error *err);

/* One ANR whose context is asked for (`godeye anr --context`). */
typedef struct gd_anr_context_query {
    gd_filter filter;     /* the traces searched                           */
    int64_t trace, pid;   /* the ANR dump's trace and pid                  */
    double ts_ms;         /* the dump's time                               */
    double window_ms;     /* how far back                                  */
    const char *process;  /* the dump's process (matches launches) or NULL */
} gd_anr_context_query;

/* What the database holds for the ANR's process in [ts_ms - window_ms,
 * ts_ms], by time (at most 500 rows): blocks of its threads (dispatches at
 * or over the trace's short threshold) overlapping the window (block: their
 * kind), its outermost calls, its frames (one row per trace and window:
 * count, the longest as dur_ms), the tools' findings about it, launches of
 * its app.  Rows: trace, ts_ms, kind ("block", "call", "frames", "issue",
 * "startup"), tid, dur_ms, what, block, anr_trace, anr_pid, anr_ts_ms,
 * process, before_ms.  When no log row (dispatch, frame, finding, launch) of
 * the traces searched reaches into the window, a last row of kind "no_log"
 * (ts_ms: the dump's) with log_start_ms / log_end_ms (null: no log at
 * all).  #28: the log_line rows of its pid are rows of kind "log" (what:
 * "LEVEL TAG: message") and count as log. */
int gd_store_anr_context(gd_store *s, const gd_anr_context_query *q, gd_row_fn fn, void *ctx, gd_error *err);

/* Runs one read-only statement; each row as an object keyed by column name.
 * Refuses (GD_ERR_USAGE) anything that is not a single read-only statement:
 * writes, ATTACH, PRAGMAs that write, extension loading. */
int gd_store_sql(gd_store *s, const char *sql, double timeout_s, gd_row_fn fn, void *ctx,
                 gd_error *err);

/* Rounds a millisecond value to microseconds (as every output does). */
double gd_ms_round(double ms);

#endif
