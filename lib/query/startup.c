/* query/startup.c - app launches (`godeye startup`), slow by Android vitals' bars (analysis/vitals.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/vitals.h"
#include "query/startup.h"
#include "store/sql.h"

enum { GD_STARTUP_COLS(GD_QC_ID, GD_QC_ID) ST_NCOLS };
GD_QCOLS_DEFINE(startup_cols, GD_STARTUP_COLS);
/* the fields without --breakdown: all but phases, the last */
static const gd_qcols startup_plain = {startup_cols_keys, startup_cols_reads, ST_PHASES};

/* A launch's row (gd_store_stream's builder), of st's fields: startup_cols
 * with --breakdown, else startup_plain. */
static json_t *startup_row(sqlite3_stmt *q)
{
    int all = sqlite3_column_count(q) == gd_qcols_pos(&startup_cols, ST_NCOLS);
    const gd_qcols *c = all ? &startup_cols : &startup_plain;
    gd_value v[ST_NCOLS];
    gd_qcols_read(c, q, 0, v);
    /* a launch of unknown kind is graded against the cold bar, and says so */
    const char *kind = v[ST_KIND].kind == GD_V_TEXT ? v[ST_KIND].u.t.s : NULL;
    const char *graded = gd_startup_graded_kind(kind);
    double total = sqlite3_column_double(q, gd_qcols_pos(c, ST_TOTAL)), bar = gd_startup_bar_ms(graded);
    if (isnan(bar))
        gd_qv_null(&v[ST_SLOW]);
    else
        gd_qv_bool(&v[ST_SLOW], total >= bar);
    gd_qv_text(&v[ST_GRADED], graded);
    json_t *row = gd_qcols_json(c, v);
    gd_qcols_clear(c, v);
    return row;
}

int gd_query_startups(gd_store *s, const gd_startup_query *q, gd_row_fn fn, void *ctx,
                      gd_error *err)
{
    char filt[4096], sql[16384], fields[4096];
    gd_store_filter_sql(&q->filter, "st.trace", filt, sizeof filt);
    if (gd_qcols_select(q->breakdown ? &startup_cols : &startup_plain, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "startup: the SELECT list is too long");
    snprintf(sql, sizeof sql,
             "SELECT %s FROM startup st JOIN trace t ON t.id = st.trace"
             " WHERE gd_app_match(coalesce(st.app, t.app), ?1) AND (?2 IS NULL OR st.kind = ?2) %s"
             " ORDER BY trace, ts_ms, st.id",
             fields, filt);
    sqlite3_stmt *st = gd_store_prepare(s, sql, err);
    if (!st)
        return err->code;
    if (q->app)
        sqlite3_bind_text(st, 1, q->app, -1, SQLITE_STATIC);
    if (q->kind)
        sqlite3_bind_text(st, 2, q->kind, -1, SQLITE_STATIC);
    return gd_store_stream(s, st, startup_row, fn, ctx, err);
}
