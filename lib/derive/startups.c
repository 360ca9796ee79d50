/* derive/startups.c - a trace launch's phases (Perfetto's startup breakdown) into startup_phase at ingest. */
#include "derive/startups.h"

#include <stdio.h>
#include <string.h>

#include "startup_phase_sql.h" /* GD_SQL_STARTUP_PHASE: lib/sql/startup-phase.sql, generated */

/* The trace's slices (?1): a main thread's outermost ones are dispatches,
 * the rest calls (their "Class#name" split undone). */
#define SLICES                                                                                     \
    "WITH sl(pid, tid, name, ts, te) AS ("                                                         \
    "SELECT d.pid, d.tid, m.text, d.start_ms, d.start_ms + d.dur_ms FROM dispatch d"               \
    " JOIN message m ON m.id = d.message WHERE d.trace = ?1"                                       \
    " UNION ALL SELECT c.pid, c.tid, CASE WHEN me.class = '' THEN me.name"                         \
    " ELSE me.class || '#' || me.name END, c.start_ms, c.end_ms"                                   \
    " FROM call c JOIN method me ON me.id = c.method WHERE c.trace = ?1) "

/* #53: the slices a launch's phases read, taken from the trace's slices in
 * one pass into temp.startup_sl (pid, tid, name, ts, te, kind), indexed by
 * kind and time, so that each launch reads the slices of its own time, not
 * every slice of the trace: kind 'proc' ("Start proc: "), 'main'
 * (bindApplication, activityStart, activityResume), 'frame'
 * (Choreographer#doFrame), 'rfd' (reportFullyDrawn), 'draw' (DrawFrame),
 * 'bcast' (the broadcasts); temp.startup_next (app, st) the starts of the
 * trace's launches, for the next launch of an app. */
#define KINDS                                                                                      \
    "CASE WHEN substr(name, 1, 12) = 'Start proc: ' THEN 'proc'"                                   \
    " WHEN name IN ('bindApplication', 'activityStart', 'activityResume') THEN 'main'"             \
    " WHEN name = 'Choreographer#doFrame' OR name GLOB 'Choreographer#doFrame [0-9]*' THEN 'frame'" \
    " WHEN name GLOB 'reportFullyDrawn*' THEN 'rfd' WHEN name GLOB 'DrawFrame*' THEN 'draw'"        \
    " WHEN name GLOB 'Broadcast dispatched*' OR name GLOB 'broadcastReceiveReg*' THEN 'bcast' END"
/* A 'proc' slice's name after "Start proc: " up to any further ": "
 * (Perfetto's STR_SPLIT(name, ': ', 1)): the process it started. */
#define START_PROC_NAME                                                                            \
    "substr(name, 13, coalesce(nullif(instr(substr(name, 13), ': '), 0) - 1, length(name)))"
static const char *const TEMP_DROP =
    "DROP TABLE IF EXISTS temp.startup_sl; DROP TABLE IF EXISTS temp.startup_next";

static int temp_tables(gd_store *st, int64_t trace, gd_error *err)
{
    int rc = gd_store_exec(st, TEMP_DROP, err);
    if (!rc)
        rc = gd_store_exec(st,
                           "CREATE TEMP TABLE startup_sl (pid INTEGER, tid INTEGER, name TEXT, ts REAL, te REAL, kind TEXT);"
                           "CREATE TEMP TABLE startup_next (app TEXT, st REAL)",
                           err);
    static const char *const fill[] = {
        "INSERT INTO temp.startup_sl " SLICES "SELECT pid, tid, name, ts, te, " KINDS " AS k FROM sl WHERE k IS NOT NULL",
        "INSERT INTO temp.startup_next SELECT app, ts_ms - total_ms FROM startup WHERE trace = ?1"
        " AND app IS NOT NULL AND ts_ms - total_ms IS NOT NULL",
    };
    for (size_t i = 0; !rc && i < sizeof fill / sizeof *fill; i++) {
        sqlite3_stmt *q = gd_store_prepare(st, fill[i], err);
        if (!q)
            return err->code;
        sqlite3_bind_int64(q, 1, trace);
        rc = gd_store_step(st, q, err);
        sqlite3_finalize(q);
    }
    if (!rc)
        rc = gd_store_exec(st,
                           "CREATE INDEX temp.startup_sl_at ON startup_sl (kind, ts);"
                           "CREATE INDEX temp.startup_sl_thread ON startup_sl (kind, pid, tid, ts);"
                           "CREATE INDEX temp.startup_sl_pid ON startup_sl (kind, pid, ts);"
                           "CREATE INDEX temp.startup_next_app ON startup_next (app, st)",
                           err);
    return rc;
}

/* One launch: [s, e) on the trace's clock, its app and its process (the
 * main thread pid == tid), or -1 when no main thread resumed, started or
 * bound an activity during it. */
typedef struct launch {
    int64_t id, trace, pid;
    double s, e;
    double next;      /* the start of the app's next launch (1e308: none)  */
    double frame_max; /* the longest Choreographer#doFrame slice (#53)     */
    char app[256];
} launch;

/* Writes one phase: [ts, ts + dur), `slices` slices, with the main thread's
 * time per state (NULL when the trace has no state of that thread). */
static int put_phase(gd_store *st, const launch *l, const char *phase, double ts, double dur,
                     long slices, gd_error *err)
{
    sqlite3_stmt *q = gd_store_cached(st, GD_SQL_STARTUP_PHASE, err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, l->id);
    sqlite3_bind_text(q, 2, phase, -1, SQLITE_STATIC);
    sqlite3_bind_double(q, 3, ts);
    sqlite3_bind_double(q, 4, dur);
    sqlite3_bind_int64(q, 5, slices);
    sqlite3_bind_int64(q, 6, l->trace);
    if (l->pid >= 0)
        sqlite3_bind_int64(q, 7, l->pid);
    int rc = gd_store_step(st, q, err);
    gd_store_release(st, q);
    return rc;
}

/* A slice's start and end, read by name. */
#define SPAN_COLS(X) X(SP_TE, "te")
enum { SP_TS = 0, SPAN_COLS(GD_COL_ENUM) SP_NCOLS };

/* The first slice of the launch matching `where` (SQL over temp.startup_sl
 * sl, with ?2 = start, ?3 = end, ?4 = app, ?5 = app pid, ?6 = the app's
 * next launch): its start and end. 1 found, 0 not, < 0 error. */
static int first_slice(gd_store *st, const launch *l, const char *where, double *ts, double *te,
                       gd_error *err)
{
    char sql[2048];
    snprintf(sql, sizeof sql, "SELECT ts" SPAN_COLS(GD_COL_SQL) " FROM temp.startup_sl sl WHERE %s ORDER BY ts LIMIT 1",
             where);
    sqlite3_stmt *q = gd_store_prepare(st, sql, err);
    if (!q)
        return -1;
    sqlite3_bind_int64(q, 1, l->trace);
    sqlite3_bind_double(q, 2, l->s);
    sqlite3_bind_double(q, 3, l->e);
    sqlite3_bind_text(q, 4, l->app, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 5, l->pid);
    sqlite3_bind_double(q, 6, l->next);
    int rc = sqlite3_step(q), found = 0;
    if (rc == SQLITE_ROW) {
        *ts = sqlite3_column_double(q, SP_TS);
        *te = sqlite3_column_double(q, SP_TE);
        found = 1;
    } else if (rc != SQLITE_DONE) {
        gd_store_fail(st, err, "startup phases");
        found = -1;
    }
    sqlite3_finalize(q);
    return found;
}

/* A phase that is the launch's first slice of a kind ("" when none). */
static int slice_phase(gd_store *st, const launch *l, const char *phase, const char *where,
                       double *ts_out, gd_error *err)
{
    double ts = 0, te = 0;
    int f = first_slice(st, l, where, &ts, &te, err);
    if (f < 0)
        return err->code;
    if (ts_out)
        *ts_out = f ? ts : -1;
    return f ? put_phase(st, l, phase, ts, te - ts, 1, err) : GD_OK;
}

/* What ran beside the launch, one row: its first start (B_TS), its time,
 * how many; each column as X(ID, over the slices, over the thread states). */
#define BESIDE_COLS(X)                                                                              \
    X(B_DUR, "total(min(te, ?3) - ts)",                                                             \
      "total(max(0, min(coalesce(s.ts_ms + s.dur_ms, ?3), ?3) - max(s.ts_ms, ?2)))")                \
    X(B_N, "count(*)", "count(*)")
#define BESIDE_ENUM(id, slices, states) id,
#define BESIDE_SLICES(id, slices, states) ", " slices
#define BESIDE_STATES(id, slices, states) ", " states
enum { B_TS = 0, BESIDE_COLS(BESIDE_ENUM) B_NCOLS };

/* What ran beside the launch: `phase` as the Running time inside it of the
 * threads named by `glob` (dex2oat, installd), or as the slices named by
 * `glob` (broadcasts) begun in [start, end], both ends in as Perfetto's
 * count_slices_concurrent_to_launch (slice.ts BETWEEN launch.ts AND
 * launch.ts_end), with their time inside it; nothing when none. */
static int beside(gd_store *st, const launch *l, const char *phase, const char *glob, int slices,
                  gd_error *err)
{
    const char *sql =
        slices ? "SELECT min(ts)" BESIDE_COLS(BESIDE_SLICES) " FROM temp.startup_sl"
                 " WHERE kind = 'bcast' AND name GLOB ?4 AND ts >= ?2 AND ts <= ?3"
               /* a thread's states follow each other: from the last one
                * begun at or before the start (thread_state's key, #53) */
               : "SELECT min(max(s.ts_ms, ?2))" BESIDE_COLS(BESIDE_STATES)
                 " FROM (SELECT DISTINCT tid FROM thread WHERE trace = ?1 AND name GLOB ?4 ORDER BY tid) t"
                 " CROSS JOIN thread_state s ON s.trace = ?1 AND s.tid = t.tid"
                 " WHERE s.state = 'Running' AND s.ts_ms < ?3 AND (s.dur_ms IS NULL OR s.ts_ms + s.dur_ms > ?2)"
                 " AND s.ts_ms >= coalesce((SELECT max(s2.ts_ms) FROM thread_state s2 WHERE s2.trace = ?1"
                 " AND s2.tid = t.tid AND s2.ts_ms <= ?2), ?2)";
    sqlite3_stmt *q = gd_store_prepare(st, sql, err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, l->trace);
    sqlite3_bind_double(q, 2, l->s);
    sqlite3_bind_double(q, 3, l->e);
    sqlite3_bind_text(q, 4, glob, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    double ts = 0, dur = 0;
    long n = 0;
    if (rc == SQLITE_ROW) {
        ts = sqlite3_column_double(q, B_TS);
        dur = sqlite3_column_double(q, B_DUR);
        n = (long)sqlite3_column_int64(q, B_N);
    } else {
        gd_store_fail(st, err, "startup phases");
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW)
        return err->code;
    if (!n)
        return GD_OK;
    launch nobody = *l;
    nobody.pid = -1; /* its states are not the app's */
    return put_phase(st, &nobody, phase, ts, dur, n, err);
}

/* The app's process: the main thread named as the app (a name that begins
 * with it, or a 15-character comm that is its head or its tail; or no name
 * known), as the reader's launch kinds match it, that resumed (else
 * started, else bound) an activity during the launch. */
enum { AP_PID = 0 }; /* app_pid's one column */
static int app_pid(gd_store *st, launch *l, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(
        st,
        "SELECT sl.pid FROM temp.startup_sl sl LEFT JOIN thread h ON h.trace = ?1 AND h.pid = sl.pid"
        " AND h.tid = sl.tid WHERE sl.kind = 'main' AND sl.tid = sl.pid AND sl.ts >= ?2 AND sl.ts < ?3"
        " AND sl.name IN ('activityResume', 'activityStart', 'bindApplication')"
        " AND (h.name IS NULL OR h.name = '' OR substr(h.name, 1, length(?4)) = ?4"
        " OR (length(h.name) = 15 AND (substr(?4, 1, 15) = h.name OR substr(?4, -15) = h.name)))"
        " ORDER BY sl.name = 'activityResume' DESC, sl.name = 'activityStart' DESC, sl.ts LIMIT 1",
        err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, l->trace);
    sqlite3_bind_double(q, 2, l->s);
    sqlite3_bind_double(q, 3, l->e);
    sqlite3_bind_text(q, 4, l->app, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    l->pid = rc == SQLITE_ROW ? sqlite3_column_int64(q, AP_PID) : -1;
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        gd_store_fail(st, err, "startup phases");
    sqlite3_finalize(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? GD_OK : err->code;
}

/* Time to full display (Perfetto's _ttfd): the end of the first frame on
 * the app's main thread ending after its first reportFullyDrawn began
 * (the frame's RenderThread DrawFrame when the trace has it) minus the
 * launch's start; kept only where no tool reported one. */
static int fill_ttfd(gd_store *st, const launch *l, double rfd, gd_error *err)
{
    double fts = 0, fte = 0, dts = 0, dte = 0;
    char where[512];
    /* a frame ending after rfd began at most the longest frame before it */
    snprintf(where, sizeof where,
             "kind = 'frame' AND pid = ?5 AND tid = ?5 AND ts >= %.17g AND te > %.17g",
             rfd - l->frame_max - 1, rfd);
    int f = first_slice(st, l, where, &fts, &fte, err);
    if (f <= 0)
        return f < 0 ? err->code : GD_OK;
    snprintf(where, sizeof where,
             "kind = 'draw' AND pid = ?5 AND ts >= %.17g AND tid IN (SELECT tid FROM thread"
             " WHERE trace = ?1 AND pid = ?5 AND name = 'RenderThread')", fts);
    int d = first_slice(st, l, where, &dts, &dte, err);
    if (d < 0)
        return err->code;
    sqlite3_stmt *q = gd_store_cached(st, "UPDATE startup SET ttfd_ms = ?1 WHERE id = ?2 AND ttfd_ms IS NULL", err);
    if (!q)
        return err->code;
    sqlite3_bind_double(q, 1, (d ? dte : fte) - l->s);
    sqlite3_bind_int64(q, 2, l->id);
    int rc = gd_store_step(st, q, err);
    gd_store_release(st, q);
    return rc;
}

static int phases(gd_store *st, launch *l, gd_error *err)
{
    int rc = app_pid(st, l, err);
    if (rc || (rc = put_phase(st, l, "launch", l->s, l->e - l->s, 1, err)))
        return rc;
    /* system_server's "Start proc: PKG": before it, and during it.  The
     * slice names a process; Perfetto's zygote_fork_for_launch takes the one
     * whose name's second ": " field is the package (STR_SPLIT(name, ': ',
     * 1) = package), not PKG:remote nor PKG2, begun after the launch's start
     * and ended before its end (l.ts < ts AND ts + dur < l.ts_end) */
    double sp = 0, spe = 0, rfd = -1;
    int f = first_slice(st, l, "kind = 'proc' AND ts > ?2 AND te < ?3 AND ?4 <> '' AND " START_PROC_NAME " = ?4",
                        &sp, &spe, err);
    if (f < 0)
        return err->code;
    if (f && ((rc = put_phase(st, l, "before_process_start", l->s, sp - l->s, 0, err)) ||
              (rc = put_phase(st, l, "start_process", sp, spe - sp, 1, err))))
        return rc;
    static const char *const main_phases[][2] = {
        {"bind_application", "kind = 'main' AND name = 'bindApplication'"},
        {"activity_start", "kind = 'main' AND name = 'activityStart'"},
        {"activity_resume", "kind = 'main' AND name = 'activityResume'"},
        {"first_frame", "kind = 'frame'"},
    };
    char where[512];
    for (size_t i = 0; l->pid >= 0 && i < sizeof main_phases / sizeof main_phases[0]; i++) {
        snprintf(where, sizeof where, "pid = ?5 AND tid = ?5 AND ts >= ?2 AND ts < ?3 AND %s",
                 main_phases[i][1]);
        if ((rc = slice_phase(st, l, main_phases[i][0], where, NULL, err)))
            return rc;
    }
    /* reportFullyDrawn may come after the first frame: any time after the
     * start, before the app's next launch (?6) */
    if (l->pid >= 0 &&
        (rc = slice_phase(st, l, "fully_drawn", "kind = 'rfd' AND pid = ?5 AND tid = ?5 AND ts >= ?2 AND ts < ?6",
                          &rfd, err)))
        return rc;
    if (rfd >= 0 && (rc = fill_ttfd(st, l, rfd, err)))
        return rc;
    if ((rc = beside(st, l, "dex2oat", "*dex2oat*", 0, err)) ||
        (rc = beside(st, l, "installd", "*installd*", 0, err)) ||
        (rc = beside(st, l, "broadcast_dispatched", "Broadcast dispatched*", 1, err)) ||
        (rc = beside(st, l, "broadcast_received", "broadcastReceiveReg*", 1, err)))
        return rc;
    return GD_OK;
}

/* A launch of the trace, read by name. */
#define LAUNCH_COLS(X) X(L_START, "ts_ms - total_ms") X(L_END, "ts_ms") X(L_APP, "coalesce(app, '')")
enum { L_ID = 0, LAUNCH_COLS(GD_COL_ENUM) L_NCOLS };

typedef struct launches_ctx {
    gd_store *s;
    int64_t trace;
    double frame_max;
    gd_error *err;
} launches_ctx;

/* The start of app's first launch of the trace after `after` (any
 * source), 1e308 when none: its reportFullyDrawn is not this launch's. */
static int next_launch(gd_store *st, launch *l, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(st, "SELECT min(st) FROM temp.startup_next WHERE app = ?1 AND st > ?2", err);
    if (!q)
        return err->code;
    sqlite3_bind_text(q, 1, l->app, -1, SQLITE_STATIC);
    sqlite3_bind_double(q, 2, l->s);
    int rc = sqlite3_step(q);
    l->next = rc == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL ? sqlite3_column_double(q, 0) : 1e308;
    if (rc != SQLITE_ROW)
        gd_store_fail(st, err, "startup phases");
    sqlite3_finalize(q);
    return rc == SQLITE_ROW ? GD_OK : err->code;
}

/* One launch: its phases. */
static int launch_row(void *ctx, sqlite3_stmt *q)
{
    launches_ctx *c = ctx;
    launch l = {.id = sqlite3_column_int64(q, L_ID), .trace = c->trace, .pid = -1,
                .s = sqlite3_column_double(q, L_START), .e = sqlite3_column_double(q, L_END),
                .frame_max = c->frame_max};
    snprintf(l.app, sizeof l.app, "%s", (const char *)sqlite3_column_text(q, L_APP));
    int rc = next_launch(c->s, &l, c->err);
    return rc ? rc : phases(c->s, &l, c->err);
}

int gd_derive_startup_phases(gd_store *s, int64_t trace, gd_error *err)
{
    sqlite3_stmt *h = gd_store_prepare(
        s, "SELECT EXISTS (SELECT 1 FROM startup WHERE trace = ?1 AND source IN ('perfetto', 'systrace'))", err);
    if (!h)
        return err->code;
    sqlite3_bind_int64(h, 1, trace);
    int any = sqlite3_step(h) == SQLITE_ROW && sqlite3_column_int(h, 0);
    sqlite3_finalize(h);
    if (!any)
        return GD_OK; /* no launch of the trace's slices: nothing to read */
    int rc = temp_tables(s, trace, err);
    launches_ctx c = {.s = s, .trace = trace, .err = err};
    sqlite3_stmt *m = rc ? NULL : gd_store_prepare(s, "SELECT coalesce(max(te - ts), 0) FROM temp.startup_sl WHERE kind = 'frame'", err);
    if (!rc && !m)
        rc = err->code;
    if (m) {
        if (sqlite3_step(m) == SQLITE_ROW)
            c.frame_max = sqlite3_column_double(m, 0);
        sqlite3_finalize(m);
    }
    sqlite3_stmt *q = rc ? NULL : gd_store_prepare(
        s,
        "SELECT id" LAUNCH_COLS(GD_COL_SQL) " FROM startup WHERE trace = ?1"
        " AND source IN ('perfetto', 'systrace') AND ts_ms IS NOT NULL ORDER BY ts_ms, id",
        err);
    if (!rc && !q)
        rc = err->code;
    if (q) {
        sqlite3_bind_int64(q, 1, trace);
        rc = gd_store_each(s, q, launch_row, &c, err);
    }
    gd_error e2 = {0};
    int drop = gd_store_exec(s, TEMP_DROP, &e2);
    return rc ? rc : drop ? gd_error_set(err, e2.code, 0, 0, "%s", e2.msg) : GD_OK;
}
