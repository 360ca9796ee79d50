/* fleet/export.c - the SQL behind `godeye push`: one query per exported table. */
#include "fleet/export.h"
#include "core/row.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "derive/states.h"
#include "query/diffstacks.h"
#include "query/frames.h"
#include "query/issues.h"
#include "query/startup.h"
#include "query/views.h"
#include "store/sql.h"

/* The block's "why" (#26/#29) as the store's block rows have it: derive/states'
 * gd_why_values through gd_block_why, unrounded (the fleet rounds as the
 * store's rows do). */
#define WHY1(tr, tid, st, dur, k, name) "gd_block_why(" tr ", " tid ", " st ", " dur ", " #k ") AS " name
#define WHY_COLS(tr, tid, st, dur)                                                                  \
    WHY1(tr, tid, st, dur, 0, "running_ms") ", " WHY1(tr, tid, st, dur, 1, "runnable_ms") ", "     \
    WHY1(tr, tid, st, dur, 2, "sleeping_ms") ", " WHY1(tr, tid, st, dur, 3, "uninterruptible_ms") ", " \
    WHY1(tr, tid, st, dur, 4, "states_covered_ms") ", " WHY1(tr, tid, st, dur, 5, "binder_ms") ", "  \
    WHY1(tr, tid, st, dur, 6, "lock_ms")

/* Columns every table starts with; ?1 is the trace id. */
#define TRACE_COLS "t.hash AS trace_uid, coalesce(t.app, '') AS app,"                  \
                   " coalesce(t.version_name, '') AS version_name,"
/* The day a row is sent with (#53 item 9; godeye-ingest(1)), the one home
 * of the rule: its own time when that is a calendar time ClickHouse's Date
 * holds (2000-01-01 .. 2149-06-06 on a trace whose clock is not
 * 'monotonic'), else its trace's start under the same rule, else the day
 * the trace was ingested: a capture timed since boot (Perfetto, systrace)
 * was dated 1970-01-01, which a `TTL day + INTERVAL 90 DAY` deletes at once. */
#define CH_DAY_MIN_MS "946684800000"
#define CH_DAY_MAX_MS "5662310399999"
#define DAY1(ms) "CASE WHEN t.clock IS NOT 'monotonic' AND (" ms ") BETWEEN " CH_DAY_MIN_MS   \
                 " AND " CH_DAY_MAX_MS " THEN gd_day((" ms ") / 1000) END"
#define DAY(ms) "coalesce(" DAY1(ms) ", " DAY1("t.start_ms") ", substr(t.ingested_at, 1, 10)) AS day,"

/* The rows of table `tbl` (alias a) of trace ?1, walked in id order over
 * the trace's id range (no sort of all its rows before the first one). */
#define IN_TRACE(a, tbl) "+" a ".trace = ?1 AND " a ".id BETWEEN (SELECT min(id) FROM " tbl    \
                         " WHERE trace = ?1) AND (SELECT max(id) FROM " tbl " WHERE trace = ?1)"

/* Tables whose rows come from the analyses (page timelines, overdraw, image
 * issues) rather than from one SQL query: the query function's rows are
 * mapped onto the ClickHouse columns by `map`. */
typedef int (*query_fn)(gd_store *s, int64_t trace, gd_row_fn fn, void *ctx, gd_error *err);
typedef json_t *(*map_fn)(json_t *row);

typedef struct export_def {
    const char *table;
    const char *sql;      /* columns named as in clickhouse.sql; "x:json" is parsed */
    int why;              /* sql calls gd_block_why (register_why)            */
    query_fn query;       /* or: rows from an analysis query...               */
    map_fn map;           /* ...mapped onto the table's columns               */
    int anr;              /* sql calls gd_anr_sig (register_anr)              */
} export_def;

/* ---- a block's "why" as SQL: gd_block_why(trace, tid, start, dur, k) ----
 * The k-th of derive/states' gd_why_values for the block (k in
 * GD_WHY_V_* order; NULL where it has no data), so that the export stays
 * one SQL query and the rule stays in derive/states.  The figures of the
 * last block asked are kept: the 7 columns of a row cost one computation.
 * k = -1 forgets them (each export starts afresh). */
typedef struct why_fn {
    gd_store *s;
    int valid;
    int64_t trace, tid;
    double start, dur;
    double v[GD_WHY_NVALUES];
    int64_t have_trace; /* gd_why_have_trace of this trace... */
    int have;           /* ...is this; have_trace -1: none yet */
} why_fn;

static void sql_block_why(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    why_fn *w = sqlite3_user_data(cx);
    int k = sqlite3_value_int(argv[4]);
    if (k < 0) {
        w->valid = 0;
        w->have_trace = -1;
        sqlite3_result_null(cx);
        return;
    }
    if (k >= GD_WHY_NVALUES || sqlite3_value_type(argv[0]) == SQLITE_NULL ||
        sqlite3_value_type(argv[1]) == SQLITE_NULL || sqlite3_value_type(argv[2]) == SQLITE_NULL ||
        sqlite3_value_type(argv[3]) == SQLITE_NULL) {
        sqlite3_result_null(cx);
        return;
    }
    int64_t trace = sqlite3_value_int64(argv[0]), tid = sqlite3_value_int64(argv[1]);
    double start = sqlite3_value_double(argv[2]), dur = sqlite3_value_double(argv[3]);
    if (!w->valid || w->trace != trace || w->tid != tid || w->start != start || w->dur != dur) {
        gd_error err = {0};
        gd_why why;
        w->valid = 0;
        if (w->have_trace != trace) {
            if (gd_why_have_trace(w->s, trace, &w->have, &err)) {
                sqlite3_result_error(cx, err.msg, -1);
                return;
            }
            w->have_trace = trace;
        }
        if (gd_why_in(w->s, w->have, trace, tid, start, start + dur, &why, &err)) {
            sqlite3_result_error(cx, err.msg, -1);
            return;
        }
        gd_why_values(&why, w->have, w->v);
        w->trace = trace, w->tid = tid, w->start = start, w->dur = dur;
        w->valid = 1;
    }
    if (isnan(w->v[k]))
        sqlite3_result_null(cx);
    else
        sqlite3_result_double(cx, w->v[k]);
}

/* Makes gd_block_why callable on s (once per connection: the function
 * lives as long as it, its state freed with it), its cache emptied. */
static int register_why(gd_store *s, gd_error *err)
{
    if (gd_store_prepares(s, "SELECT gd_block_why(NULL, NULL, NULL, NULL, -1)", 1))
        return GD_OK;
    why_fn *w = calloc(1, sizeof *w);
    if (!w)
        return gd_error_oom(err);
    w->s = s;
    w->have_trace = -1;
    return gd_store_function(s, "gd_block_why", 5, SQLITE_UTF8, w, sql_block_why, free, err);
}

/* ---- gd_day(x): date(x, 'unixepoch'), asked of SQLite itself, kept ----
 * date(x, 'unixepoch') never decreases as x grows, so when the first and
 * the last second of x's UTC day (as x's type holds them) both give x's
 * day, every value between them does: the function keeps that interval
 * and calls date() for a value outside it only (rows come in time order:
 * three calls a day instead of one a row).  The last second is 86399.999
 * s after midnight for a real (date() rounds to the millisecond); where a
 * bound gives another day, the interval is x alone. */
typedef struct day_fn {
    int type; /* SQLITE_INTEGER or SQLITE_FLOAT of lo and hi; 0: none yet */
    double lo, hi;
    char day[16];
    int n;
} day_fn;

/* date(x, 'unixepoch') of v (when not NULL) or of x as `type` holds it,
 * into out (16 bytes); its length, 0 when date() gives none, -1 on a
 * database error. */
static int date_of(sqlite3 *db, sqlite3_value *v, int type, double x, char *out)
{
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(db, "SELECT date(?1, 'unixepoch')", -1, &q, NULL) != SQLITE_OK) {
        sqlite3_finalize(q);
        return -1;
    }
    if (v)
        sqlite3_bind_value(q, 1, v);
    else if (type == SQLITE_INTEGER)
        sqlite3_bind_int64(q, 1, (sqlite3_int64)x);
    else
        sqlite3_bind_double(q, 1, x);
    int n = 0;
    if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_type(q, 0) == SQLITE_TEXT) {
        n = sqlite3_column_bytes(q, 0);
        if (n > 15)
            n = 0;
        else
            memcpy(out, sqlite3_column_text(q, 0), (size_t)n);
    }
    sqlite3_finalize(q);
    return n;
}

static void sql_day(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    day_fn *d = sqlite3_user_data(cx);
    sqlite3 *db = sqlite3_context_db_handle(cx);
    int type = sqlite3_value_type(argv[0]);
    int numeric = type == SQLITE_INTEGER || type == SQLITE_FLOAT;
    double x = numeric ? sqlite3_value_double(argv[0]) : 0;
    if (numeric && d->type == type && x >= d->lo && x <= d->hi) {
        sqlite3_result_text(cx, d->day, d->n, SQLITE_TRANSIENT);
        return;
    }
    char day[16], first[16], last[16];
    /* a value of another type: date() of it as given, nothing kept */
    int n = date_of(db, numeric ? NULL : argv[0], type, x, day);
    if (n < 0) {
        sqlite3_result_error(cx, sqlite3_errmsg(db), -1);
        return;
    }
    if (!n) {
        sqlite3_result_null(cx);
        return;
    }
    sqlite3_result_text(cx, day, n, SQLITE_TRANSIENT);
    if (!numeric)
        return;
    double lo = floor(x / 86400.0) * 86400.0;
    double hi = lo + (type == SQLITE_INTEGER ? 86399.0 : 86399.999); /* date() rounds to the ms */
    d->type = type;
    memcpy(d->day, day, (size_t)n);
    d->n = n;
    d->lo = d->hi = x;
    if (lo <= x && x <= hi && date_of(db, NULL, type, lo, first) == n && memcmp(first, day, (size_t)n) == 0 &&
        date_of(db, NULL, type, hi, last) == n && memcmp(last, day, (size_t)n) == 0)
        d->lo = lo, d->hi = hi;
}

/* Makes gd_day callable on s (once per connection, as gd_block_why). */
static int register_day(gd_store *s, gd_error *err)
{
    if (gd_store_prepares(s, "SELECT gd_day(NULL)", 0))
        return GD_OK;
    day_fn *d = calloc(1, sizeof *d);
    if (!d)
        return gd_error_oom(err);
    return gd_store_function(s, "gd_day", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, d, sql_day, free, err);
}

/* ---- #48: gd_anr_sig(trace, id, k): a dump's ANR group ----
 * k = 0: the signature gd_query_anr gives the dump of that id, 1: its
 * type, 2: its type's label, 3: its process ('' where it has none), so that the fleet groups
 * ANRs by the store's own rule (fleet/gate.c gd_fleet_anr_groups).  The
 * dumps of the last trace asked are kept: one gd_query_anr_list a trace. */
typedef struct anr_fn {
    gd_store *s;
    int64_t trace; /* -1: none yet */
    json_t *by_id; /* "id" -> [signature, type, type_label, process] */
} anr_fn;

static void anr_fn_free(void *p)
{
    anr_fn *a = p;
    json_decref(a->by_id);
    free(a);
}

static int anr_fn_row(void *ctx, json_t *r)
{
    static const char *const keys[] = {"signature", "type", "type_label", "process"};
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)json_integer_value(json_object_get(r, "id")));
    json_t *v = json_array();
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        json_t *x = json_object_get(r, keys[k]);
        json_array_append_new(v, json_is_string(x) ? json_incref(x) : json_string(""));
    }
    return json_object_set_new(ctx, id, v);
}

static void sql_anr_sig(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    anr_fn *a = sqlite3_user_data(cx);
    int64_t trace = sqlite3_value_int64(argv[0]);
    if (a->trace != trace || !a->by_id) {
        gd_error err = {0};
        json_decref(a->by_id);
        a->by_id = json_object();
        a->trace = trace;
        gd_anr_query q = {.filter = {&trace, 1}, .all = 1};
        if (!a->by_id || gd_query_anr_list(a->s, &q, anr_fn_row, a->by_id, &err)) {
            a->trace = -1;
            sqlite3_result_error(cx, a->by_id ? err.msg : GD_ERR_NOMEM_MSG, -1);
            return;
        }
    }
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)sqlite3_value_int64(argv[1]));
    const char *t = json_string_value(json_array_get(json_object_get(a->by_id, id), (size_t)sqlite3_value_int(argv[2])));
    sqlite3_result_text(cx, t ? t : "", -1, SQLITE_TRANSIENT);
}

/* Makes gd_anr_sig callable on s (once per connection, as gd_block_why),
 * its dumps forgotten. */
static int register_anr(gd_store *s, gd_error *err)
{
    anr_fn *a = calloc(1, sizeof *a);
    if (!a)
        return gd_error_oom(err);
    a->s = s;
    a->trace = -1;
    return gd_store_function(s, "gd_anr_sig", 3, SQLITE_UTF8, a, sql_anr_sig, anr_fn_free, err);
}

/* The functions def's SQL calls, made callable on s. */
static int register_fns(gd_store *s, const export_def *def, gd_error *err)
{
    if (register_day(s, err))
        return err->code;
    if (def && def->anr && register_anr(s, err))
        return err->code;
    return def && def->why ? register_why(s, err) : GD_OK;
}

static int q_pages(gd_store *s, int64_t trace, gd_row_fn fn, void *ctx, gd_error *err)
{
    gd_pages_query q = {.filter = {&trace, 1}, .min_ms = NAN, .over_ms = NAN};
    return gd_query_pages(s, &q, fn, ctx, err);
}

static json_t *m_pages(json_t *r)
{
    return json_pack("{s:O s:O s:O s:O s:O s:O s:O s:O}", "page", json_object_get(r, "page"), "hash",
                     json_object_get(r, "hash"), "type", json_object_get(r, "type"), "parent",
                     json_object_get(r, "parent"), "start_ms", json_object_get(r, "start_ms"),
                     "draw_ms", json_object_get(r, "draw_ms"), "load_ms", json_object_get(r, "load_ms"),
                     "events:json", json_object_get(r, "events"));
}

static int q_overdraw(gd_store *s, int64_t trace, gd_row_fn fn, void *ctx, gd_error *err)
{
    gd_filter f = {.traces = &trace, .ntraces = 1};
    return gd_query_overdraw(s, &f, 0, fn, ctx, err);
}

static json_t *m_overdraw(json_t *r)
{
    json_t *px = json_object_get(r, "overdraw_px");
    return json_pack("{s:O s:O s:O s:O s:O s:o s:O s:O s:O s:O s:O}", "dump", json_object_get(r, "dump"),
                     "page", json_object_get(r, "page"), "ts_ms", json_object_get(r, "ts_ms"), "views",
                     json_object_get(r, "views"), "max_depth", json_object_get(r, "max_depth"),
                     "deep_views", json_integer((json_int_t)json_array_size(json_object_get(r, "deep_views"))),
                     "px_1", px ? json_object_get(px, "1") : json_null(), "px_2",
                     px ? json_object_get(px, "2") : json_null(), "px_3",
                     px ? json_object_get(px, "3") : json_null(), "px_4plus",
                     px ? json_object_get(px, "4+") : json_null(), "overdraw_ratio",
                     json_object_get(r, "overdraw_ratio"));
}

static int q_startups(gd_store *s, int64_t trace, gd_row_fn fn, void *ctx, gd_error *err)
{
    gd_startup_query q = {.filter = {&trace, 1}};
    return gd_query_startups(s, &q, fn, ctx, err);
}

/* A null text as '' (String columns); slow as 1/0/null. */
static json_t *text_or_empty(json_t *v)
{
    return json_is_string(v) ? json_incref(v) : json_string("");
}

static json_t *m_startups(json_t *r)
{
    json_t *slow = json_object_get(r, "slow");
    return json_pack("{s:o s:o s:o s:O s:O s:o s:O s:o}", "launched_app",
                     text_or_empty(json_object_get(r, "app")), "activity",
                     text_or_empty(json_object_get(r, "activity")), "kind",
                     text_or_empty(json_object_get(r, "kind")), "total_ms",
                     json_object_get(r, "total_ms"), "wait_ms", json_object_get(r, "wait_ms"),
                     "source", text_or_empty(json_object_get(r, "source")), "ts_ms",
                     json_object_get(r, "ts_ms"), "slow",
                     json_is_boolean(slow) ? json_integer(json_is_true(slow)) : json_null());
}

static int q_images(gd_store *s, int64_t trace, gd_row_fn fn, void *ctx, gd_error *err)
{
    gd_images_query q = {.filter = {&trace, 1}, .high = NAN, .low = NAN};
    return gd_query_images(s, &q, fn, ctx, err);
}

static json_t *m_images(json_t *r)
{
    json_t *b = json_object_get(r, "bitmap"), *v = json_object_get(r, "view");
    return json_pack("{s:O s:O s:O s:O s:O s:O s:O s:O s:O s:O}", "page", json_object_get(r, "page"),
                     "view_hash", json_object_get(r, "view_hash"), "issue", json_object_get(r, "issue"),
                     "wasted_bytes", json_object_get(r, "wasted_bytes"), "count",
                     json_object_get(r, "count"), "bitmap_w", json_array_get(b, 0), "bitmap_h",
                     json_array_get(b, 1), "view_w", json_array_get(v, 0), "view_h", json_array_get(v, 1),
                     "ts_ms", json_object_get(r, "first_ms"));
}

/* #52 item 4: the trace's stacks folded (query/diffstacks.h), as they are. */
static int q_stacks(gd_store *s, int64_t trace, gd_row_fn fn, void *ctx, gd_error *err)
{
    return gd_query_trace_stacks(s, trace, fn, ctx, err);
}

static json_t *m_stacks(json_t *r)
{
    return json_copy(r);
}

/* Adding a table: one entry here (before "traces") and its CREATE TABLE in
 * schemas/clickhouse.sql. */
static const export_def exports[] = {
    /* the id range read once (dispatch_trace holds no id order: a scan
     * of the trace's index entries, not three) */
    {.table = "dispatches",
     .sql = "WITH r AS MATERIALIZED (SELECT min(id) AS lo, max(id) AS hi FROM dispatch WHERE trace = ?1)"
     " SELECT " TRACE_COLS " d.id - (SELECT lo FROM r) AS seq, "
     DAY("d.start_ms") " d.pid, d.tid, d.start_ms, d.dur_ms, d.thread_ms, d.unfinished,"
     " coalesce(m.handler, '') AS handler, coalesce(m.callback, '') AS callback,"
     " coalesce(m.what, '') AS what, coalesce(m.text, '') AS msg"
     " FROM dispatch d JOIN trace t ON t.id = d.trace LEFT JOIN message m ON m.id = d.message"
     " WHERE +d.trace = ?1 AND d.id BETWEEN (SELECT lo FROM r) AND (SELECT hi FROM r) ORDER BY d.id"},
    {.table = "blocks",
     .sql = "SELECT " TRACE_COLS " b.dispatch - (SELECT min(id) FROM dispatch WHERE trace = ?1) AS seq, "
     DAY("d.start_ms") " d.pid, d.tid, d.start_ms, d.dur_ms AS duration_ms, d.thread_ms,"
     " " GD_SQL_BLOCK_KIND("d", "t") " AS kind, d.unfinished, b.cpu_busy, b.samples,"
     " coalesce(b.key_frame, '') AS key_frame, coalesce(b.grp, '') AS grp,"
     " coalesce((SELECT text FROM message WHERE id = d.message), '') AS msg,"
     " coalesce(b.blame, '') AS blame, coalesce(b.grp_rule, '') AS grp_rule, "
     WHY_COLS("b.trace", "d.tid", "d.start_ms", "d.dur_ms")
     ", coalesce(" GD_SQL_PROCESS_OF("d", "t") ", '') AS process"
     " FROM block b JOIN dispatch d ON d.id = b.dispatch JOIN trace t ON t.id = b.trace"
     " WHERE b.trace = ?1 ORDER BY b.dispatch", .why = 1},
    {.table = "block_groups",
     .sql = "SELECT " TRACE_COLS " row_number() OVER (ORDER BY b.grp) - 1 AS seq, "
     DAY("NULL") " b.grp AS grp, coalesce(min(b.key_frame), '') AS key_frame, count(*) AS count,"
     " sum(d.dur_ms) AS total_ms, max(d.dur_ms) AS max_ms"
     " FROM block b JOIN dispatch d ON d.id = b.dispatch JOIN trace t ON t.id = b.trace"
     " WHERE b.trace = ?1 AND b.grp IS NOT NULL GROUP BY b.grp ORDER BY b.grp"},
    /* frames: the callsite's, from callsite_frames (once per callsite) */
    {.table = "stack_samples",
     .sql = "SELECT " TRACE_COLS " s.id - (SELECT min(id) FROM sample WHERE trace = ?1) AS seq, "
     DAY("s.ts_ms") " s.pid, s.tid, s.ts_ms, coalesce(s.state, '') AS state,"
     " s.callsite AS \"frames:callsite\""
     " FROM sample s JOIN trace t ON t.id = s.trace"
     " WHERE " IN_TRACE("s", "sample") " ORDER BY s.id"},
    {.table = "events",
     .sql = "SELECT " TRACE_COLS " e.id - (SELECT min(id) FROM raw_event WHERE trace = ?1) AS seq, "
     DAY("e.ts_ms") " e.kind, e.ts_ms, e.pid, e.tid, e.json"
     " FROM raw_event e JOIN trace t ON t.id = e.trace"
     " WHERE " IN_TRACE("e", "raw_event") " ORDER BY e.id"},
    /* dropped: 1 for a frame whose duration counts in no figure, by the
     * local rule (GD_SQL_FRAME_TIMED of its jank_type), which ClickHouse
     * then only reads (fleet/gate.c).  #51: a legacy table's placeholder
     * rows (GD_SQL_DEVICE_LEADS: no frame times, the device's summary
     * leads) are not sent, as local diff leaves them out (tested per row
     * only in a trace that has such a table) */
    {.table = "frames",
     .sql = "SELECT " TRACE_COLS " f.id - (SELECT min(id) FROM frame_time WHERE trace = ?1) AS seq, "
     DAY("f.ts_ms") " f.pid, f.ts_ms, f.dur_ms, coalesce(f.window, '') AS window, f.vsync_ms,"
     " coalesce(f.source, '') AS source,"
     " coalesce(CASE WHEN f.pid IS NULL THEN t.app ELSE " GD_SQL_PROCESS_OF("f", "t") " END, '') AS process,"
     " NOT (" GD_SQL_FRAME_TIMED ") AS dropped"
     " FROM frame_time f JOIN trace t ON t.id = f.trace WHERE " IN_TRACE("f", "frame_time")
     " AND NOT (" GD_SQL_TRACE_HAS_PLACEHOLDER("?1") " AND " GD_SQL_DEVICE_LEADS("f.trace", "f.window", "f.pid") ")"
     " ORDER BY f.id"},
    /* what gd_query_anr_count's rule reads (#28): the dumps (anr: the
     * anr_dump view's; #48: with their ANR group, gd_anr_sig) and the
     * ANR-kind blocks with their trace's anr_ms;
     * the fleet applies GD_SQL_DUMP_OF_BLOCK to them (fleet/gate.c) */
    {.table = "anrs",
     .sql = "SELECT " TRACE_COLS " row_number() OVER (ORDER BY a.k, a.at, a.pid) - 1 AS seq, "
     DAY("a.at") " a.kind, a.anr, a.pid, a.ts_ms, a.start_ms, a.dur_ms, a.anr_ms,"
     " CASE WHEN a.id IS NULL THEN '' ELSE gd_anr_sig(?1, a.id, 0) END AS signature,"
     " CASE WHEN a.id IS NULL THEN '' ELSE gd_anr_sig(?1, a.id, 1) END AS type,"
     " CASE WHEN a.id IS NULL THEN '' ELSE gd_anr_sig(?1, a.id, 2) END AS type_label,"
     " CASE WHEN a.id IS NULL THEN a.proc ELSE gd_anr_sig(?1, a.id, 3) END AS process"
     " FROM (SELECT 'dump' AS kind, 0 AS k, v.anr AS anr, v.pid AS pid, v.ts_ms AS ts_ms, NULL AS start_ms,"
     " NULL AS dur_ms, NULL AS anr_ms, v.ts_ms AS at, v.id AS id, NULL AS proc FROM anr_dump v WHERE v.trace = ?1"
     " UNION ALL SELECT 'block', 1, 0, d.pid, NULL, d.start_ms, d.dur_ms, t2.anr_ms, d.start_ms, NULL,"
     " coalesce(" GD_SQL_PROCESS_OF("d", "t2") ", '')"
     " FROM block b JOIN dispatch d ON d.id = b.dispatch JOIN trace t2 ON t2.id = d.trace"
     " WHERE b.trace = ?1 AND " GD_SQL_BLOCK_KIND("d", "t2") " = 'anr') a JOIN trace t ON t.id = ?1", .anr = 1},
    {.table = "pages", .query = q_pages, .map = m_pages},
    {.table = "overdraw", .query = q_overdraw, .map = m_overdraw},
    {.table = "image_issues", .query = q_images, .map = m_images},
    {.table = "startups", .query = q_startups, .map = m_startups},
    {.table = "stack_paths", .query = q_stacks, .map = m_stacks},
    {.table = "traces",
     .sql = "SELECT " TRACE_COLS " " DAY("t.start_ms") " t.version_code, coalesce(t.device, '') AS device,"
     " t.api_level, t.cpu_cores, coalesce(t.session, '') AS session, t.source, t.format,"
     " t.start_ms, t.end_ms, t.events, t.skipped, t.short_ms, t.long_ms, t.anr_ms,"
     " coalesce(t.meta, '') AS meta, strftime('%Y-%m-%d %H:%M:%S', 'now') AS pushed_at,"
     " coalesce(t.build, '') AS build, t.exposure_ms,"
     " (SELECT json_group_array(name) FROM (SELECT DISTINCT name FROM (" GD_SQL_PROCESS_NAMES ")"
     " WHERE trace = t.id AND name <> '' ORDER BY name)) AS \"processes:json\""
     " FROM trace t WHERE t.id = ?1"},
};

#define NEXPORTS (sizeof exports / sizeof exports[0])

const char *const *gd_fleet_export_tables(void)
{
    static const char *names[NEXPORTS + 1];
    for (size_t i = 0; i < NEXPORTS; i++)
        names[i] = exports[i].table;
    return names;
}

static json_t *value(sqlite3_stmt *q, int i, int parse)
{
    switch (sqlite3_column_type(q, i)) {
    case SQLITE_INTEGER:
        return json_integer(sqlite3_column_int64(q, i));
    case SQLITE_FLOAT:
        return json_real(sqlite3_column_double(q, i));
    case SQLITE_TEXT: {
        const char *t = (const char *)sqlite3_column_text(q, i);
        size_t n = (size_t)sqlite3_column_bytes(q, i);
        json_t *j = parse ? gd_json_load_text(t, n, 0) : gd_json_text(t, n);
        return j ? j : json_string("\xef\xbf\xbd");
    }
    default:
        return json_null();
    }
}

/* The frames of callsites as JSON arrays of text, innermost first, each
 * read once: a direct-mapped cache by callsite id. */
#define FRAMES_SLOTS 1024

typedef struct frames_cache {
    sqlite3_stmt *q;
    struct {
        int64_t id;
        json_t *frames;
        gd_tsv tsv;     /* its Array(String) literal; len 0 = not yet      */
        int no_tsv;     /* it has none                                     */
    } e[FRAMES_SLOTS];
} frames_cache;

static const char frames_sql[] =
    "WITH RECURSIVE up(id, parent, frame, depth) AS ("
    "  SELECT id, parent, frame, depth FROM callsite WHERE id = ?1"
    "  UNION ALL SELECT c.id, c.parent, c.frame, c.depth FROM callsite c"
    "  JOIN up ON c.id = up.parent)"
    " SELECT json_group_array(text) FROM (SELECT f.text AS text FROM up"
    "  JOIN frame f ON f.id = up.frame ORDER BY up.depth DESC)";

static void frames_free(frames_cache *fc)
{
    if (!fc)
        return;
    sqlite3_finalize(fc->q);
    for (size_t i = 0; i < FRAMES_SLOTS; i++) {
        json_decref(fc->e[i].frames);
        gd_tsv_free(&fc->e[i].tsv);
    }
    free(fc);
}

/* The slot holding callsite id's frames (NULL: out of memory or a database
 * error, in err). */
static int frames_slot(frames_cache *fc, gd_store *s, int64_t id, gd_error *err)
{
    size_t k = (size_t)((uint64_t)id % FRAMES_SLOTS);
    if (fc->e[k].frames && fc->e[k].id == id)
        return (int)k;
    if (!fc->q && !(fc->q = gd_store_prepare(s, frames_sql, err)))
        return -1;
    sqlite3_bind_int64(fc->q, 1, id);
    json_t *v = sqlite3_step(fc->q) == SQLITE_ROW ? value(fc->q, 0, 1) : NULL;
    sqlite3_reset(fc->q);
    if (!v) {
        gd_store_fail(s, err, "database read");
        return -1;
    }
    json_decref(fc->e[k].frames);
    fc->e[k].frames = v;
    fc->e[k].id = id;
    fc->e[k].tsv.len = 0;
    fc->e[k].no_tsv = 0;
    return (int)k;
}

/* The current row of q as JSON, keys = column names ("x:json" parsed as x,
 * "x:callsite" as the callsite's frames); NULL on a database error. */
static json_t *json_row(sqlite3_stmt *q, gd_store *s, frames_cache **fc, gd_error *err)
{
    json_t *row = json_object();
    for (int i = 0, n = sqlite3_column_count(q); i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s", sqlite3_column_name(q, i));
        char *colon = strchr(name, ':');
        if (colon)
            *colon = 0;
        json_t *v;
        if (colon && strcmp(colon + 1, "callsite") == 0) {
            int k = -1;
            if (*fc || (*fc = calloc(1, sizeof **fc)))
                k = frames_slot(*fc, s, sqlite3_column_int64(q, i), err);
            else
                gd_error_oom(err);
            if (k < 0) {
                json_decref(row);
                return NULL;
            }
            v = json_incref((*fc)->e[k].frames);
        } else
            v = value(q, i, colon != NULL);
        json_object_set_new(row, name, v);
    }
    return row;
}

/* Rows of an analysis query, given the trace columns and a sequence number. */
typedef struct mapped {
    json_t *head;     /* trace_uid, app, version_name, day of the trace */
    map_fn map;
    gd_row_fn fn;
    void *ctx;
    int64_t seq;
    int wall;         /* the trace's clock is a calendar (not 'monotonic') */
} mapped;

static int map_row(void *ctx, json_t *row)
{
    mapped *m = ctx;
    json_t *out = m->map(row);
    if (!out)
        return 1;
    json_object_update_missing(out, m->head);
    json_object_set_new(out, "seq", json_integer(m->seq++));
    /* the day of the row when it has a calendar time, else the trace's
     * (DAY above: the one rule, the bounds its CH_DAY_MIN_MS/_MAX_MS) */
    json_t *ts = json_object_get(out, "ts_ms");
    if (!json_is_number(ts))
        ts = json_object_get(out, "start_ms");
    if (json_is_number(ts)) {
        double ms = json_number_value(ts);
        time_t secs = m->wall && ms >= atof(CH_DAY_MIN_MS) && ms <= atof(CH_DAY_MAX_MS) ? (time_t)(ms / 1000.0)
                                                                                       : -1;
        struct tm tm;
        char day[16];
        if (secs >= 0 && gmtime_r(&secs, &tm) && strftime(day, sizeof day, "%Y-%m-%d", &tm))
            json_object_set_new(out, "day", json_string(day));
    }
    /* "x:json" keys carry JSON text in ClickHouse String columns */
    const char *k;
    void *tmp;
    json_t *v;
    json_object_foreach_safe(out, tmp, k, v) {
        const char *colon = strchr(k, ':');
        if (colon) {
            char *txt = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(colon - k), k);
            json_object_set_new(out, name, json_string(txt ? txt : "null"));
            free(txt);
            json_object_del(out, k);
        }
    }
    int stop = m->fn(m->ctx, out);
    json_decref(out);
    return stop;
}

static int trace_head(gd_store *s, int64_t trace, json_t **out, int *wall, gd_error *err)
{
    if (register_fns(s, NULL, err))
        return err->code;
    sqlite3_stmt *q = gd_store_prepare(s, "SELECT " TRACE_COLS " " DAY("t.start_ms")
                                          " t.clock IS NOT 'monotonic' AS wall FROM trace t WHERE t.id = ?1", err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    *out = json_object();
    *wall = 0;
    if (sqlite3_step(q) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(q); i++) {
            const char *name = sqlite3_column_name(q, i);
            if (strcmp(name, "wall") == 0)
                *wall = sqlite3_column_int(q, i);
            else
                json_object_set_new(*out, name, value(q, i, 0));
        }
    }
    sqlite3_finalize(q);
    return GD_OK;
}

static const export_def *find_def(const char *table)
{
    for (size_t i = 0; i < NEXPORTS; i++)
        if (strcmp(exports[i].table, table) == 0)
            return &exports[i];
    return NULL;
}

int gd_fleet_export(gd_store *s, const char *table, int64_t trace, gd_row_fn fn, void *ctx,
                    gd_error *err)
{
    const export_def *def = find_def(table);
    if (!def)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "no export for table '%s'", table);
    if (def->query) {
        mapped m = {NULL, def->map, fn, ctx, 0, 0};
        int rc = trace_head(s, trace, &m.head, &m.wall, err);
        if (!rc)
            rc = def->query(s, trace, map_row, &m, err);
        json_decref(m.head);
        return rc;
    }
    if (register_fns(s, def, err))
        return err->code;
    sqlite3_stmt *q = gd_store_prepare(s, def->sql, err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    int rc = GD_OK, step;
    frames_cache *fc = NULL;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        json_t *row = json_row(q, s, &fc, err);
        if (!row) {
            rc = err->code;
            break;
        }
        int stop = fn(ctx, row);
        json_decref(row);
        if (stop) {
            rc = GD_ERR_ABORT;
            break;
        }
    }
    if (!rc && step != SQLITE_DONE)
        rc = gd_store_fail(s, err, "database read");
    sqlite3_finalize(q);
    frames_free(fc);
    return rc;
}

int gd_fleet_export_traces(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx,
                           gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(s, "SELECT id, hash FROM trace"
                                          " WHERE ?1 IS NULL OR id = ?1 ORDER BY id", err);
    if (!q)
        return err->code;
    size_t nf = f && f->traces ? f->ntraces : 1;
    int rc = GD_OK;
    for (size_t i = 0; i < nf && !rc; i++) {
        if (f && f->traces)
            sqlite3_bind_int64(q, 1, f->traces[i]);
        int step, found = 0;
        while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
            found = 1;
            enum { TU_ID, TU_UID }; /* id, hash (pushed as trace_uid) */
            json_t *row = json_pack("{s:I s:s}", "trace", (json_int_t)sqlite3_column_int64(q, TU_ID),
                                    "trace_uid", (const char *)sqlite3_column_text(q, TU_UID));
            if (fn(ctx, row))
                rc = GD_ERR_ABORT;
            json_decref(row);
        }
        if (!rc && step != SQLITE_DONE)
            rc = gd_store_fail(s, err, "database read");
        else if (!rc && !found && f && f->traces)
            rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "no trace %lld", (long long)f->traces[i]);
        sqlite3_reset(q);
    }
    sqlite3_finalize(q);
    return rc;
}

#define ROWS_MAXCOLS 32

struct gd_fleet_export_rows {
    gd_store *s;
    sqlite3_stmt *q;
    int n;
    char name[ROWS_MAXCOLS][32];
    unsigned char parse[ROWS_MAXCOLS];   /* 1 "x:json": JSON text for an Array;
                                            2 "x:callsite": its frames */
    gd_tsv_col col[ROWS_MAXCOLS];
    frames_cache *fc;
    gd_error *err;
    int64_t *traces;                     /* read one after another        */
    size_t ntraces, cur;
    long long *count, *jcount;           /* rows read of each; as JSON    */
};

int gd_fleet_export_rows_open(gd_store *s, const char *table, int64_t trace, gd_fleet_export_rows **out,
                        gd_error *err)
{
    return gd_fleet_export_rows_open_many(s, table, &trace, 1, out, err);
}

int gd_fleet_export_rows_open_many(gd_store *s, const char *table, const int64_t *traces, size_t n,
                                   gd_fleet_export_rows **out, gd_error *err)
{
    *out = NULL;
    const export_def *def = find_def(table);
    if (!def)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "no export for table '%s'", table);
    if (!def->sql)
        return GD_OK;
    if (register_fns(s, def, err))
        return err->code;
    gd_fleet_export_rows *r = calloc(1, sizeof *r);
    if (!r)
        return gd_error_oom(err);
    r->s = s;
    r->ntraces = n ? n : 1;
    r->traces = malloc(r->ntraces * sizeof *r->traces);
    r->count = calloc(r->ntraces, sizeof *r->count);
    r->jcount = calloc(r->ntraces, sizeof *r->jcount);
    if (!r->traces || !r->count || !r->jcount) {
        gd_fleet_export_rows_close(r);
        return gd_error_oom(err);
    }
    memcpy(r->traces, traces, n * sizeof *traces);
    if (!(r->q = gd_store_prepare(s, def->sql, err))) {
        gd_fleet_export_rows_close(r);
        return err->code;
    }
    sqlite3_bind_int64(r->q, 1, r->traces[0]);
    r->n = sqlite3_column_count(r->q);
    if (r->n > ROWS_MAXCOLS) {
        gd_fleet_export_rows_close(r);
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "export of '%s': too many columns", table);
    }
    for (int i = 0; i < r->n; i++) {
        snprintf(r->name[i], sizeof r->name[i], "%s", sqlite3_column_name(r->q, i));
        char *colon = strchr(r->name[i], ':');
        if (colon)
            *colon = 0;
        r->parse[i] = !colon ? 0 : strcmp(colon + 1, "callsite") == 0 ? 2 : 1;
    }
    *out = r;
    return GD_OK;
}

int gd_fleet_export_rows_ncols(const gd_fleet_export_rows *r)
{
    return r->n;
}

const char *gd_fleet_export_rows_name(const gd_fleet_export_rows *r, int i)
{
    return r->name[i];
}

void gd_fleet_export_rows_types(gd_fleet_export_rows *r, const gd_tsv_col *cols)
{
    memcpy(r->col, cols, (size_t)r->n * sizeof *cols);
}

/* The frames of a callsite as an Array(String) literal; 0 when they have
 * none, -1 on a database error (r->err). */
static int callsite_tsv(gd_fleet_export_rows *r, int64_t id, gd_tsv_col c, gd_tsv *b)
{
    if (c.kind != GD_TSV_ARRAY)
        return 0;
    if (!r->fc && !(r->fc = calloc(1, sizeof *r->fc))) {
        gd_error_oom(r->err);
        return -1;
    }
    int k = frames_slot(r->fc, r->s, id, r->err);
    if (k < 0)
        return -1;
    gd_tsv *t = &r->fc->e[k].tsv;
    if (!t->len && !r->fc->e[k].no_tsv)
        r->fc->e[k].no_tsv = !gd_tsv_json(t, r->fc->e[k].frames) || t->oom;
    if (r->fc->e[k].no_tsv)
        return 0;
    gd_tsv_bytes(b, t->p, t->len);
    return 1;
}

/* Column i of the current row as ClickHouse reads its JSON value (value());
 * 0 when it has no such form, -1 on a database error. */
static int tsv_value(gd_fleet_export_rows *r, int i, gd_tsv *b)
{
    gd_tsv_col c = r->col[i];
    sqlite3_stmt *q = r->q;
    switch (sqlite3_column_type(q, i)) {
    case SQLITE_INTEGER:
        if (r->parse[i] == 2)
            return callsite_tsv(r, sqlite3_column_int64(q, i), c, b);
        if (c.kind != GD_TSV_INT && c.kind != GD_TSV_FLOAT)
            return 0;
        gd_tsv_int(b, (long long)sqlite3_column_int64(q, i));
        return 1;
    case SQLITE_FLOAT:
        return c.kind == GD_TSV_FLOAT && gd_tsv_real(b, sqlite3_column_double(q, i));
    case SQLITE_TEXT: {
        const char *t = (const char *)sqlite3_column_text(q, i);
        size_t n = (size_t)sqlite3_column_bytes(q, i);
        if (r->parse[i])
            return c.kind == GD_TSV_ARRAY && gd_tsv_json_text(b, t, n);
        if (c.kind != GD_TSV_STRING && c.kind != GD_TSV_DATE)
            return 0;
        gd_tsv_text(b, t, n);
        return 1;
    }
    case SQLITE_NULL:
        return gd_tsv_null_in(b, c);
    default:
        return 0;
    }
}

int gd_fleet_export_rows_next(gd_fleet_export_rows *r, gd_tsv *tsv, gd_tsv *json, gd_error *err)
{
    int step = sqlite3_step(r->q);
    while (step == SQLITE_DONE && r->cur + 1 < r->ntraces) {
        sqlite3_reset(r->q);
        sqlite3_bind_int64(r->q, 1, r->traces[++r->cur]);
        step = sqlite3_step(r->q);
    }
    if (step == SQLITE_DONE)
        return 0;
    if (step != SQLITE_ROW) {
        gd_store_fail(r->s, err, "database read");
        return -1;
    }
    size_t mark = tsv->len;
    int ok = 1;
    r->err = err;
    for (int i = 0; i < r->n && ok > 0; i++) {
        if (i)
            gd_tsv_char(tsv, '\t');
        ok = tsv_value(r, i, tsv);
    }
    if (ok > 0) {
        gd_tsv_char(tsv, '\n');
        r->count[r->cur]++;
        return 1;
    }
    tsv->len = mark;
    json_t *row = ok < 0 ? NULL : json_row(r->q, r->s, &r->fc, err);
    if (!row)
        return -1;
    char *line = json_dumps(row, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(row);
    if (line) {
        gd_tsv_bytes(json, line, strlen(line));
        gd_tsv_char(json, '\n');
    } else
        json->oom = 1;
    free(line);
    r->count[r->cur]++;
    r->jcount[r->cur]++;
    return 2;
}

long long gd_fleet_export_rows_count(const gd_fleet_export_rows *r, size_t i, long long *json)
{
    *json = i < r->ntraces ? r->jcount[i] : 0;
    return i < r->ntraces ? r->count[i] : 0;
}

void gd_fleet_export_rows_close(gd_fleet_export_rows *r)
{
    if (!r)
        return;
    sqlite3_finalize(r->q);
    frames_free(r->fc);
    free(r->traces);
    free(r->count);
    free(r->jcount);
    free(r);
}
