/* query/startup.c - app launches (`godeye startup`), slow by Android vitals' bars (analysis/vitals.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/vitals.h"
#include "query/startup.h"
#include "store/sql.h"

/* The columns of a launch row, after st.trace (C_TRACE); C_PHASES only with
 * --breakdown. */
#define STARTUP_COLS(X)                   \
    X(C_APP, "coalesce(st.app, t.app)")   \
    X(C_ACTIVITY, "st.activity")          \
    X(C_KIND, "st.kind")                  \
    X(C_TOTAL, "st.total_ms")             \
    X(C_WAIT, "st.wait_ms")               \
    X(C_SOURCE, "st.source")              \
    X(C_TS, "st.ts_ms")                   \
    X(C_TTFD, "st.ttfd_ms")               \
    X(C_OWN, "st.activity_ms")
enum { C_TRACE = 0, STARTUP_COLS(GD_COL_ENUM) C_PHASES };

static json_t *startup_row(sqlite3_stmt *q)
{
    json_t *row = json_object();
    const char *kind = (const char *)sqlite3_column_text(q, C_KIND);
    /* a launch of unknown kind is graded against the cold bar, and says so */
    const char *graded = gd_startup_graded_kind(kind);
    double total = sqlite3_column_double(q, C_TOTAL), bar = gd_startup_bar_ms(graded);
    json_object_set_new(row, "trace", json_integer(sqlite3_column_int64(q, C_TRACE)));
    json_object_set_new(row, "app", gd_col_text(q, C_APP));
    json_object_set_new(row, "activity", gd_col_text(q, C_ACTIVITY));
    json_object_set_new(row, "kind", gd_col_text(q, C_KIND));
    json_object_set_new(row, "total_ms", gd_col_ms(q, C_TOTAL));
    json_object_set_new(row, "wait_ms", gd_col_ms(q, C_WAIT));
    json_object_set_new(row, "source", gd_col_text(q, C_SOURCE));
    json_object_set_new(row, "ts_ms", gd_col_ms(q, C_TS));
    json_object_set_new(row, "slow", isnan(bar) ? json_null() : json_boolean(total >= bar));
    json_object_set_new(row, "graded_as", json_string(graded));
    json_object_set_new(row, "ttid_ms", gd_col_ms(q, C_TOTAL));
    json_object_set_new(row, "ttfd_ms", gd_col_ms(q, C_TTFD));
    json_object_set_new(row, "activity_ms", gd_col_ms(q, C_OWN));
    if (sqlite3_column_count(q) > C_PHASES) { /* --breakdown: the phases, built by SQLite's JSON1 */
        const char *ph = (const char *)sqlite3_column_text(q, C_PHASES);
        json_t *phases = ph ? gd_json_load_text(ph, strlen(ph), 0) : NULL;
        json_object_set_new(row, "phases", phases ? phases : json_object());
    }
    return row;
}

/* A launch's startup_phase rows as one JSON object by phase name. */
#define PHASES                                                                                     \
    ", (SELECT json_group_object(p.phase, json_object('ts_ms', round(p.ts_ms, 3),"                 \
    " 'dur_ms', round(p.dur_ms, 3), 'slices', p.slices, 'running_ms', round(p.running_ms, 3),"     \
    " 'runnable_ms', round(p.runnable_ms, 3), 'sleeping_ms', round(p.sleeping_ms, 3),"            \
    " 'blocked_ms', round(p.blocked_ms, 3))) FROM (SELECT * FROM startup_phase"                    \
    " WHERE startup = st.id ORDER BY ts_ms, id) p)"

int gd_query_startups(gd_store *s, const gd_startup_query *q, gd_row_fn fn, void *ctx,
                      gd_error *err)
{
    char filt[4096], sql[8192];
    gd_store_filter_sql(&q->filter, "st.trace", filt, sizeof filt);
    snprintf(sql, sizeof sql,
             "SELECT st.trace" STARTUP_COLS(GD_COL_SQL) "%s FROM startup st JOIN trace t ON t.id = st.trace"
             " WHERE gd_app_match(coalesce(st.app, t.app), ?1) AND (?2 IS NULL OR st.kind = ?2) %s"
             " ORDER BY st.trace, st.ts_ms, st.id",
             q->breakdown ? PHASES : "", filt);
    sqlite3_stmt *st = gd_store_prepare(s, sql, err);
    if (!st)
        return err->code;
    if (q->app)
        sqlite3_bind_text(st, 1, q->app, -1, SQLITE_STATIC);
    if (q->kind)
        sqlite3_bind_text(st, 2, q->kind, -1, SQLITE_STATIC);
    return gd_store_stream(s, st, startup_row, fn, ctx, err);
}
