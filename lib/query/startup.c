/* query/startup.c - app launches (`godeye startup`), slow by Android vitals' bars (analysis/vitals.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/vitals.h"
#include "query/startup.h"
#include "store/sql.h"

static json_t *startup_row(sqlite3_stmt *q)
{
    json_t *row = json_object();
    const char *kind = (const char *)sqlite3_column_text(q, 3);
    /* a launch of unknown kind is graded against the cold bar, and says so */
    const char *graded = gd_startup_graded_kind(kind);
    double total = sqlite3_column_double(q, 4), bar = gd_startup_bar_ms(graded);
    json_object_set_new(row, "trace", json_integer(sqlite3_column_int64(q, 0)));
    json_object_set_new(row, "app", gd_col_text(q, 1));
    json_object_set_new(row, "activity", gd_col_text(q, 2));
    json_object_set_new(row, "kind", gd_col_text(q, 3));
    json_object_set_new(row, "total_ms", gd_col_ms(q, 4));
    json_object_set_new(row, "wait_ms", gd_col_ms(q, 5));
    json_object_set_new(row, "source", gd_col_text(q, 6));
    json_object_set_new(row, "ts_ms", gd_col_ms(q, 7));
    json_object_set_new(row, "slow", isnan(bar) ? json_null() : json_boolean(total >= bar));
    json_object_set_new(row, "graded_as", json_string(graded));
    json_object_set_new(row, "ttid_ms", gd_col_ms(q, 4));
    json_object_set_new(row, "ttfd_ms", gd_col_ms(q, 8));
    if (sqlite3_column_count(q) > 9) { /* --breakdown: the phases, built by SQLite's JSON1 */
        const char *ph = (const char *)sqlite3_column_text(q, 9);
        json_t *phases = ph ? json_loads(ph, 0, NULL) : NULL;
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

int gd_store_startups(gd_store *s, const gd_startup_query *q, gd_row_fn fn, void *ctx,
                      gd_error *err)
{
    char filt[4096], sql[8192];
    gd_store_filter_sql(&q->filter, "st.trace", filt, sizeof filt);
    snprintf(sql, sizeof sql,
             "SELECT st.trace, coalesce(st.app, t.app), st.activity, st.kind, st.total_ms, st.wait_ms,"
             " st.source, st.ts_ms, st.ttfd_ms%s FROM startup st JOIN trace t ON t.id = st.trace"
             " WHERE gd_match(coalesce(st.app, t.app), ?1) AND (?2 IS NULL OR st.kind = ?2) %s"
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
