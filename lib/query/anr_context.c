/* query/anr_context.c - what the database holds for an ANR's process in the
 * window before its dump (`godeye anr --context`, #28). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/row.h"
#include "query/anr_context.h"
#include "store/sql.h"

/* At most this many rows of context per ANR (the window is the user's). */
#define ANR_CONTEXT_MAX 500

enum { GD_ANR_CONTEXT_COLS(GD_QC_ID, GD_QC_ID) CX_NCOLS };
GD_QCOLS_DEFINE(ctx_cols, GD_ANR_CONTEXT_COLS);

typedef struct ctx_acc {
    const gd_anr_context_query *q;
    gd_row_fn fn;
    void *ctx;
    gd_error *err;
} ctx_acc;

/* Hands on one row (v: its fields of the SELECT or of the no_log row),
 * which says which ANR it is about and how long before the dump: GD_OK,
 * GD_EACH_STOP when fn says stop, or out of memory. */
static int ctx_emit(ctx_acc *a, gd_value *v)
{
    gd_qv_int(&v[CX_ANR_TRACE], a->q->trace);
    gd_qv_int(&v[CX_ANR_PID], a->q->pid);
    gd_qv_ms(&v[CX_ANR_TS], a->q->ts_ms);
    gd_qv_text(&v[CX_PROCESS], a->q->process);
    gd_qv_ms(&v[CX_BEFORE], v[CX_TS].kind == GD_V_REAL ? a->q->ts_ms - v[CX_TS].u.d : NAN);
    json_t *row = gd_qcols_json(&ctx_cols, v);
    if (!row)
        return gd_error_oom(a->err);
    int stop = a->fn(a->ctx, row);
    json_decref(row);
    return stop ? GD_EACH_STOP : GD_OK;
}

/* gd_store_each's callback: one row of the context query. */
static int ctx_row(void *ctx, sqlite3_stmt *q)
{
    gd_value v[CX_NCOLS];
    gd_qcols_read(&ctx_cols, q, 0, v);
    gd_qv_absent(&v[CX_LOG_START]);
    gd_qv_absent(&v[CX_LOG_END]);
    return ctx_emit(ctx, v);
}

int gd_query_anr_context(gd_store *s, const gd_anr_context_query *q, gd_row_fn fn, void *ctx, gd_error *err)
{
    char fd[4096], fc[4096], ff[4096], fi[4096], fs[4096], fl[4096], sql[28672];
    gd_store_filter_sql(&q->filter, "d.trace", fd, sizeof fd);
    gd_store_filter_sql(&q->filter, "c.trace", fc, sizeof fc);
    gd_store_filter_sql(&q->filter, "f.trace", ff, sizeof ff);
    gd_store_filter_sql(&q->filter, "i.trace", fi, sizeof fi);
    gd_store_filter_sql(&q->filter, "u.trace", fs, sizeof fs);
    /* log_line's key leads with trace: with no trace given, each trace's
     * lines of the pid are looked up by it (#50) */
    int all = !q->filter.traces || !q->filter.ntraces;
    snprintf(fl, sizeof fl, "%s", all ? " AND l.trace IN (SELECT id FROM trace)" : "");
    gd_store_filter_sql(&q->filter, "l.trace", fl + strlen(fl), sizeof fl - strlen(fl));
    /* ?1 pid, ?2 window start, ?3 the dump, ?4 the process name */
    char fields[1024];
    if (gd_qcols_select(&ctx_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "anr context: the SELECT list is too long");
    snprintf(sql, sizeof sql,
             "SELECT * FROM ("
             /* the process's blocks (dispatches of its threads at or over the
              * trace's short threshold) overlapping the window */
             "SELECT %s"
             " FROM block b JOIN dispatch d ON d.id = b.dispatch JOIN trace t ON t.id = d.trace"
             " LEFT JOIN message m ON m.id = d.message"
             " WHERE d.pid = ?1 AND d.dur_ms >= t.short_ms AND d.start_ms < ?3 AND d.start_ms + d.dur_ms > ?2 %s"
             /* its outermost method calls and slices */
             " UNION ALL SELECT c.trace, c.start_ms, 'call', c.tid, c.end_ms - c.start_ms,"
             " me.class || '.' || me.name, NULL FROM call c JOIN method me ON me.id = c.method"
             " WHERE c.pid = ?1 AND c.depth = 0 AND c.start_ms < ?3 AND c.end_ms > ?2 %s"
             /* its frames, one row per trace and window: count and the longest */
             " UNION ALL SELECT f.trace, min(f.ts_ms), 'frames', NULL, max(f.dur_ms),"
             " count(*) || ' frames' || coalesce(' of ' || f.window, ''), NULL FROM frame_time f"
             " WHERE f.pid = ?1 AND f.ts_ms >= ?2 AND f.ts_ms < ?3 %s GROUP BY f.trace, f.window"
             /* the tools' findings about it (logcat warnings, Matrix...), not the dumps' own */
             " UNION ALL SELECT i.trace, e.ts_ms, 'issue', e.tid, i.cost_ms,"
             " i.tool || ' ' || i.type || coalesce(': ' || i.detail, ''), NULL"
             " FROM issue i JOIN raw_event e ON e.id = i.id"
             " WHERE i.tool <> 'anr' AND e.pid = ?1 AND e.ts_ms >= ?2 AND e.ts_ms <= ?3 %s"
             /* its launches (a launch names its app, not its pid) */
             " UNION ALL SELECT u.trace, u.ts_ms, 'startup', NULL, u.total_ms,"
             " coalesce(u.kind || ' ', '') || 'launch of ' || coalesce(u.activity, u.app), NULL FROM startup u"
             " WHERE ?4 IS NOT NULL AND u.app = ?4 AND u.ts_ms >= ?2 AND u.ts_ms <= ?3 %s"
             /* #28: its log lines (the log_line rows of its pid) */
             " UNION ALL SELECT l.trace, l.ts_ms, 'log', l.tid, NULL,"
             " coalesce(l.level || ' ', '') || coalesce(l.tag, '') || ': ' || coalesce(l.msg, ''), NULL"
             " FROM log_line l WHERE l.pid = ?1 AND l.ts_ms >= ?2 AND l.ts_ms <= ?3 %s"
             ") ORDER BY ts_ms, kind LIMIT " GD_STR(ANR_CONTEXT_MAX),
             fields, fd, fc, ff, fi, fs, fl);
    sqlite3_stmt *st = gd_store_prepare(s, sql, err);
    if (!st)
        return err->code;
    sqlite3_bind_int64(st, 1, q->pid);
    sqlite3_bind_double(st, 2, q->ts_ms - q->window_ms);
    sqlite3_bind_double(st, 3, q->ts_ms);
    if (q->process)
        sqlite3_bind_text(st, 4, q->process, -1, SQLITE_STATIC);
    ctx_acc a = {q, fn, ctx, err};
    int rc = gd_store_each(s, st, ctx_row, &a, err);
    if (rc)
        return rc;
    /* does any log cover the window?  The log's rows: dispatches, frames,
     * the tools' findings and launches of the traces searched (the dumps'
     * own stacks and issues are no log) */
    snprintf(sql, sizeof sql,
             "SELECT min(a) AS lo, max(z) AS hi FROM ("
             "SELECT min(d.start_ms) AS a, max(d.start_ms + d.dur_ms) AS z FROM dispatch d WHERE 1 %s"
             " UNION ALL SELECT min(f.ts_ms), max(f.ts_ms) FROM frame_time f WHERE 1 %s"
             " UNION ALL SELECT min(e.ts_ms), max(e.ts_ms) FROM issue i JOIN raw_event e ON e.id = i.id"
             "  WHERE i.tool <> 'anr' %s"
             " UNION ALL SELECT min(u.ts_ms), max(u.ts_ms) FROM startup u WHERE 1 %s"
             " UNION ALL SELECT min(l.ts_ms), max(l.ts_ms) FROM log_line l WHERE 1 %s)",
             fd, ff, fi, fs, fl);
    if (!(st = gd_store_prepare(s, sql, err)))
        return err->code;
    int r = sqlite3_step(st);
    enum { SP_FIRST, SP_LAST }; /* the span's two columns */
    int none = r == SQLITE_ROW && sqlite3_column_type(st, SP_FIRST) == SQLITE_NULL;
    double lo = r == SQLITE_ROW ? sqlite3_column_double(st, SP_FIRST) : 0,
           hi = r == SQLITE_ROW ? sqlite3_column_double(st, SP_LAST) : 0;
    sqlite3_finalize(st);
    if (r != SQLITE_ROW)
        return gd_store_fail(s, err, "database read");
    if (none || lo > q->ts_ms || hi < q->ts_ms - q->window_ms) {
        gd_value v[CX_NCOLS];
        for (size_t k = 0; k < CX_NCOLS; k++)
            gd_qv_null(&v[k]);
        gd_qv_int(&v[CX_TRACE], q->trace);
        gd_qv_ms(&v[CX_TS], q->ts_ms);
        gd_qv_text(&v[CX_KIND], "no_log");
        gd_qv_text(&v[CX_WHAT], "no log covers the ANR's time");
        gd_qv_ms(&v[CX_LOG_START], none ? NAN : lo);
        gd_qv_ms(&v[CX_LOG_END], none ? NAN : hi);
        rc = ctx_emit(&a, v);
    }
    if (rc == GD_EACH_STOP)
        rc = GD_OK;
    return rc;
}
