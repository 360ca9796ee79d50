/* fleet/export.c - the SQL behind `godeye push`: one query per exported table. */
#include "fleet/export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store_int.h"

/* Columns every table starts with; ?1 is the trace id. */
#define TRACE_COLS "t.hash AS trace_uid, coalesce(t.app, '') AS app,"                  \
                   " coalesce(t.version_name, '') AS version_name,"
/* ClickHouse's Date holds 1970-01-01 .. 2149-06-06: a time outside it takes
 * the trace's day, else 1970-01-01 (never a day ClickHouse would mangle) */
#define CH_DAY_MAX_MS "5662310399999"
#define DAY1(ms) "CASE WHEN (" ms ") BETWEEN 0 AND " CH_DAY_MAX_MS                      \
                 " THEN date((" ms ") / 1000, 'unixepoch') END"
#define DAY(ms) "coalesce(" DAY1(ms) ", " DAY1("t.start_ms") ", '1970-01-01') AS day,"

/* Tables whose rows come from the analyses (page timelines, overdraw, image
 * issues) rather than from one SQL query: the query function's rows are
 * mapped onto the ClickHouse columns by `map`. */
typedef int (*query_fn)(gd_store *s, int64_t trace, gd_row_fn fn, void *ctx, gd_error *err);
typedef json_t *(*map_fn)(json_t *row);

typedef struct export_def {
    const char *table;
    const char *sql;      /* columns named as in clickhouse.sql; "x:json" is parsed */
    query_fn query;       /* or: rows from an analysis query...               */
    map_fn map;           /* ...mapped onto the table's columns               */
} export_def;

static int q_pages(gd_store *s, int64_t trace, gd_row_fn fn, void *ctx, gd_error *err)
{
    gd_pages_query q = {.filter = {&trace, 1}, .slow_ms = NAN};
    return gd_store_pages(s, &q, fn, ctx, err);
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
    gd_filter f = {&trace, 1};
    return gd_store_overdraw(s, &f, 0, fn, ctx, err);
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
    return gd_store_startups(s, &q, fn, ctx, err);
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
    return gd_store_images(s, &q, fn, ctx, err);
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

/* Adding a table: one entry here (before "traces") and its CREATE TABLE in
 * schemas/clickhouse.sql. */
static const export_def exports[] = {
    {"dispatches",
     "SELECT " TRACE_COLS " d.id - (SELECT min(id) FROM dispatch WHERE trace = ?1) AS seq, "
     DAY("d.start_ms") " d.pid, d.tid, d.start_ms, d.dur_ms, d.thread_ms, d.unfinished,"
     " coalesce(m.handler, '') AS handler, coalesce(m.callback, '') AS callback,"
     " coalesce(m.what, '') AS what, coalesce(m.text, '') AS msg"
     " FROM dispatch d JOIN trace t ON t.id = d.trace LEFT JOIN message m ON m.id = d.message"
     " WHERE d.trace = ?1 ORDER BY d.id"},
    {"blocks",
     "SELECT " TRACE_COLS " b.dispatch - (SELECT min(id) FROM dispatch WHERE trace = ?1) AS seq, "
     DAY("d.start_ms") " d.pid, d.tid, d.start_ms, d.dur_ms AS duration_ms, d.thread_ms,"
     " " GD_SQL_BLOCK_KIND("d", "t") " AS kind, d.unfinished, b.cpu_busy, b.samples,"
     " coalesce(b.key_frame, '') AS key_frame, coalesce(b.grp, '') AS grp,"
     " coalesce((SELECT text FROM message WHERE id = d.message), '') AS msg,"
     " coalesce(b.blame, '') AS blame"
     " FROM block b JOIN dispatch d ON d.id = b.dispatch JOIN trace t ON t.id = b.trace"
     " WHERE b.trace = ?1 ORDER BY b.dispatch"},
    {"block_groups",
     "SELECT " TRACE_COLS " row_number() OVER (ORDER BY b.grp) - 1 AS seq, "
     DAY("NULL") " b.grp AS grp, min(b.key_frame) AS key_frame, count(*) AS count,"
     " sum(d.dur_ms) AS total_ms, max(d.dur_ms) AS max_ms"
     " FROM block b JOIN dispatch d ON d.id = b.dispatch JOIN trace t ON t.id = b.trace"
     " WHERE b.trace = ?1 AND b.grp IS NOT NULL GROUP BY b.grp ORDER BY b.grp"},
    {"stack_samples",
     "SELECT " TRACE_COLS " s.id - (SELECT min(id) FROM sample WHERE trace = ?1) AS seq, "
     DAY("s.ts_ms") " s.pid, s.tid, s.ts_ms, coalesce(s.state, '') AS state,"
     " (WITH RECURSIVE up(id, parent, frame, depth) AS ("
     "    SELECT id, parent, frame, depth FROM callsite WHERE id = s.callsite"
     "    UNION ALL SELECT c.id, c.parent, c.frame, c.depth FROM callsite c"
     "    JOIN up ON c.id = up.parent)"
     "  SELECT json_group_array(text) FROM (SELECT f.text AS text FROM up"
     "    JOIN frame f ON f.id = up.frame ORDER BY up.depth DESC)) AS \"frames:json\""
     " FROM sample s JOIN trace t ON t.id = s.trace WHERE s.trace = ?1 ORDER BY s.id"},
    {"events",
     "SELECT " TRACE_COLS " e.id - (SELECT min(id) FROM raw_event WHERE trace = ?1) AS seq, "
     DAY("e.ts_ms") " e.kind, e.ts_ms, e.pid, e.tid, e.json"
     " FROM raw_event e JOIN trace t ON t.id = e.trace WHERE e.trace = ?1 ORDER BY e.id"},
    {"frames",
     "SELECT " TRACE_COLS " f.id - (SELECT min(id) FROM frame_time WHERE trace = ?1) AS seq, "
     DAY("f.ts_ms") " f.pid, f.ts_ms, f.dur_ms, coalesce(f.window, '') AS window, f.vsync_ms"
     " FROM frame_time f JOIN trace t ON t.id = f.trace WHERE f.trace = ?1 ORDER BY f.id"},
    {"pages", NULL, q_pages, m_pages},
    {"overdraw", NULL, q_overdraw, m_overdraw},
    {"image_issues", NULL, q_images, m_images},
    {"startups", NULL, q_startups, m_startups},
    {"traces",
     "SELECT " TRACE_COLS " " DAY("t.start_ms") " t.version_code, coalesce(t.device, '') AS device,"
     " t.api_level, t.cpu_cores, coalesce(t.session, '') AS session, t.source, t.format,"
     " t.start_ms, t.end_ms, t.events, t.skipped, t.short_ms, t.long_ms, t.anr_ms,"
     " coalesce(t.meta, '') AS meta, strftime('%Y-%m-%d %H:%M:%S', 'now') AS pushed_at"
     " FROM trace t WHERE t.id = ?1"},
};

#define NEXPORTS (sizeof exports / sizeof exports[0])

const char *const *gd_store_export_tables(void)
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
        json_t *j = parse ? json_loadb(t, n, 0, NULL) : json_stringn(t, n);
        return j ? j : json_string("\xef\xbf\xbd");
    }
    default:
        return json_null();
    }
}

/* Rows of an analysis query, given the trace columns and a sequence number. */
typedef struct mapped {
    json_t *head;     /* trace_uid, app, version_name, day of the trace */
    map_fn map;
    gd_row_fn fn;
    void *ctx;
    int64_t seq;
} mapped;

static int map_row(void *ctx, json_t *row)
{
    mapped *m = ctx;
    json_t *out = m->map(row);
    if (!out)
        return 1;
    json_object_update_missing(out, m->head);
    json_object_set_new(out, "seq", json_integer(m->seq++));
    /* the day of the row when it has a time, else the trace's */
    json_t *ts = json_object_get(out, "ts_ms");
    if (!json_is_number(ts))
        ts = json_object_get(out, "start_ms");
    if (json_is_number(ts)) {
        double ms = json_number_value(ts);
        time_t secs = ms >= 0 && ms <= 5662310399999.0 ? (time_t)(ms / 1000.0) : -1;
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

static int trace_head(gd_store *s, int64_t trace, json_t **out, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(s, "SELECT " TRACE_COLS " " DAY("t.start_ms") " 0"
                                          " FROM trace t WHERE t.id = ?1", err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    *out = json_object();
    if (sqlite3_step(q) == SQLITE_ROW)
        for (int i = 0; i < 4; i++)
            json_object_set_new(*out, sqlite3_column_name(q, i), value(q, i, 0));
    sqlite3_finalize(q);
    return GD_OK;
}

int gd_store_export(gd_store *s, const char *table, int64_t trace, gd_row_fn fn, void *ctx,
                    gd_error *err)
{
    const export_def *def = NULL;
    for (size_t i = 0; i < NEXPORTS && !def; i++)
        if (strcmp(exports[i].table, table) == 0)
            def = &exports[i];
    if (!def)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "no export for table '%s'", table);
    if (def->query) {
        mapped m = {NULL, def->map, fn, ctx, 0};
        int rc = trace_head(s, trace, &m.head, err);
        if (!rc)
            rc = def->query(s, trace, map_row, &m, err);
        json_decref(m.head);
        return rc;
    }
    sqlite3_stmt *q = gd_store_prepare(s, def->sql, err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    int n = sqlite3_column_count(q), rc = GD_OK, step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        json_t *row = json_object();
        for (int i = 0; i < n; i++) {
            char name[64];
            snprintf(name, sizeof name, "%s", sqlite3_column_name(q, i));
            char *colon = strchr(name, ':');
            if (colon)
                *colon = 0;
            json_object_set_new(row, name, value(q, i, colon != NULL));
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
    return rc;
}

int gd_store_export_traces(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx,
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
            json_t *row = json_pack("{s:I s:s}", "trace", (json_int_t)sqlite3_column_int64(q, 0),
                                    "trace_uid", (const char *)sqlite3_column_text(q, 1));
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
