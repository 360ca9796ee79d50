/* ingest/traceinfo.c - what a trace's own rows say: its meta merged over the stream (the trace row), its skip reasons (ingest_stat rows). */
#include "ingest/traceinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_app_sql.h"      /* GD_SQL_TRACE_APP: lib/sql/trace-app.sql, generated */
#include "trace_exposure_sql.h" /* GD_SQL_TRACE_EXPOSURE: lib/sql/trace-exposure.sql, generated */
#include "trace_process_sql.h"  /* GD_SQL_TRACE_PROCESS: lib/sql/trace-process.sql, generated */

void gd_ti_meta_init(gd_ti_meta *a)
{
    memset(a, 0, sizeof *a);
    a->version_code = a->api_level = a->cpu_cores = a->pid = a->main_tid = -1;
    a->clk_tck = a->max_depth = -1;
    a->utc_offset_min = INT64_MIN;
    a->long_ms = a->short_ms = a->interval_ms = GD_NONE;
}

void gd_ti_meta_take(gd_ti_meta *a, const gd_meta *m)
{
#define TAKE_S(f, v) if (!a->f && (v)) a->f = strdup(v)
#define TAKE_I(f, v) if (a->f < 0 && (v) >= 0) a->f = (v)
#define TAKE_D(f, v) if (!gd_has(a->f) && gd_has(v)) a->f = (v)
    TAKE_S(app, m->app);
    TAKE_S(version_name, m->version_name);
    TAKE_S(device, m->device);
    TAKE_S(session, m->session);
    TAKE_S(json, m->json);
    TAKE_I(version_code, m->version_code);
    TAKE_I(api_level, m->api_level);
    TAKE_I(cpu_cores, m->cpu_cores);
    TAKE_I(pid, m->pid);
    TAKE_I(main_tid, m->main_tid);
    TAKE_I(clk_tck, m->clk_tck);
    TAKE_I(max_depth, m->max_depth);
    TAKE_D(long_ms, m->long_block_ms);
    TAKE_D(short_ms, m->short_block_ms);
    TAKE_D(interval_ms, m->dump_interval_ms);
    if (!a->clock)
        a->clock = gd_ti_clock_name(m->clock);
    if (m->sampled)
        a->sampled = 1;
    if (a->utc_offset_min == INT64_MIN && m->utc_offset_min != INT64_MIN)
        a->utc_offset_min = m->utc_offset_min;
#undef TAKE_S
#undef TAKE_I
#undef TAKE_D
    if (a->nconcern == 0)
        for (size_t i = 0; i < m->nconcern && i < GD_MAX_CONCERN; i++)
            a->concern[a->nconcern++] = strdup(m->concern[i]);
}

void gd_ti_meta_free(gd_ti_meta *a)
{
    free(a->app);
    free(a->version_name);
    free(a->device);
    free(a->session);
    free(a->json);
    free(a->build);
    for (size_t i = 0; i < a->nconcern; i++)
        free(a->concern[i]);
    a->nconcern = 0;
}

static void tag_one(char **field, const char *v)
{
    if (!v)
        return;
    char *c = strdup(v);
    if (!c)
        return; /* out of memory: the capture's own value stays */
    free(*field);
    *field = c;
}

void gd_ti_meta_tag(gd_ti_meta *a, const gd_trace_tags *t)
{
    if (!t)
        return;
    tag_one(&a->app, t->app);
    tag_one(&a->version_name, t->version);
    tag_one(&a->device, t->device);
    tag_one(&a->build, t->build);
}

const char *gd_ti_clock_name(const char *clock)
{
    static const char *const names[] = {"utc", "local", "monotonic"};
    for (size_t i = 0; clock && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(clock, names[i]) == 0)
            return names[i];
    return NULL;
}

/* Runs one statement of a trace's row, the trace's id its ?1. */
static int trace_update(gd_store *s, const char *sql, int64_t id, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, id);
    int rc = gd_store_step(s, q, err);
    sqlite3_finalize(q);
    return rc;
}

int gd_ti_insert_trace(gd_store *s, const gd_ti_meta *a, const gd_ti_row *r, gd_error *err)
{
    sqlite3_stmt *u = gd_store_prepare(
        s, "INSERT INTO trace(hash, app, version_name, version_code, device, api_level,"
           " cpu_cores, pid, main_tid, session, clk_tck, short_ms, long_ms, anr_ms,"
           " dump_interval_ms, max_depth, concern, meta, start_ms, end_ms, events, skipped,"
           " clock, utc_offset_min, id, source, format, build, sampled, ingested_at) VALUES (?,?,?,?,?,?,?,?,"
           "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?, strftime('%Y-%m-%dT%H:%M:%SZ','now'))",
        err);
    if (!u)
        return err->code;
    json_t *con = json_array();
    for (size_t i = 0; i < a->nconcern; i++)
        json_array_append_new(con, json_string(a->concern[i]));
    if (a->nconcern == 0 && a->app)
        json_array_append_new(con, json_string(a->app));
    char *con_txt = json_dumps(con, JSON_COMPACT);
    json_decref(con);
    sqlite3_bind_text(u, 1, r->hash, -1, SQLITE_STATIC);
    gd_bind_text(u, 2, a->app);
    gd_bind_text(u, 3, a->version_name);
    gd_bind_opt_int(u, 4, a->version_code);
    gd_bind_text(u, 5, a->device);
    gd_bind_opt_int(u, 6, a->api_level);
    gd_bind_opt_int(u, 7, a->cpu_cores);
    gd_bind_opt_int(u, 8, a->pid);
    gd_bind_opt_int(u, 9, a->main_tid);
    gd_bind_text(u, 10, a->session);
    gd_bind_opt_int(u, 11, a->clk_tck);
    gd_thresholds th = gd_thresholds_resolve(a->short_ms, a->long_ms, GD_NONE);
    sqlite3_bind_double(u, 12, th.short_ms);
    sqlite3_bind_double(u, 13, th.long_ms);
    sqlite3_bind_double(u, 14, th.anr_ms);
    gd_bind_opt_double(u, 15, r->interval_ms);
    gd_bind_opt_int(u, 16, a->max_depth);
    gd_bind_text(u, 17, con_txt);
    gd_bind_text(u, 18, a->json);
    gd_bind_opt_double(u, 19, r->start_ms);
    gd_bind_opt_double(u, 20, r->end_ms);
    sqlite3_bind_int64(u, 21, r->events);
    sqlite3_bind_int64(u, 22, r->skipped);
    gd_bind_text(u, 23, a->clock ? a->clock : r->default_clock);
    if (a->utc_offset_min != INT64_MIN)
        sqlite3_bind_int64(u, 24, a->utc_offset_min);
    else
        sqlite3_bind_null(u, 24);
    sqlite3_bind_int64(u, 25, r->id);
    sqlite3_bind_text(u, 26, r->source, -1, SQLITE_STATIC);
    sqlite3_bind_text(u, 27, r->format, -1, SQLITE_STATIC);
    gd_bind_text(u, 28, a->build);
    sqlite3_bind_int(u, 29, a->sampled ? 1 : 0);
    int rc = gd_store_step(s, u, err);
    sqlite3_finalize(u);
    free(con_txt);
    if (rc)
        return rc;
    /* #51: its dense span and what that left out, which the exposure uses */
    char left[160] = "";
    if (r->left_clock)
        snprintf(left, sizeof left, "%ld time%s before the clock was set", r->left_clock,
                 r->left_clock == 1 ? "" : "s");
    if (r->left_lone)
        snprintf(left + strlen(left), sizeof left - strlen(left), "%s%ld isolated time%s far from the rest",
                 r->left_clock ? "; " : "", r->left_lone, r->left_lone == 1 ? "" : "s");
    sqlite3_stmt *d = gd_store_prepare(
        s, "UPDATE trace SET span_start_ms = ?1, span_end_ms = ?2, span_left_out = ?3 WHERE id = ?4", err);
    if (!d)
        return err->code;
    gd_bind_opt_double(d, 1, r->span_start_ms);
    gd_bind_opt_double(d, 2, r->span_end_ms);
    gd_bind_text(d, 3, left[0] ? left : NULL);
    sqlite3_bind_int64(d, 4, r->id);
    rc = gd_store_step(s, d, err);
    sqlite3_finalize(d);
    if (rc)
        return rc;
    /* its exposure, once its rows are all written (the store's rule) */
    if ((rc = trace_update(s, GD_SQL_TRACE_EXPOSURE " WHERE id = ?", r->id, err)))
        return rc;
    /* #47: which app it is about, from its rows (the store's rule); an
     * app the user gave (--set app=) stands; then its process, whoever
     * named the app: the app's, not a system process a reader took for it
     * (lib/sql/trace-process.sql); and a concern list the reader's own app
     * name gave (no concern packages, no app given) follows the app */
    if (!r->app_tagged && (rc = trace_update(s, GD_SQL_TRACE_APP " WHERE id = ?", r->id, err)))
        return rc;
    if ((rc = trace_update(s, GD_SQL_TRACE_PROCESS, r->id, err)) || a->nconcern || r->app_tagged)
        return rc;
    return trace_update(s, "UPDATE trace SET concern = json_array(app) WHERE id = ?1 AND app IS NOT NULL", r->id,
                        err);
}

void gd_ti_count(gd_ti_stat **list, const char *reason, long n, long line)
{
    for (gd_ti_stat *e = *list; e; e = e->next)
        if (strcmp(e->reason, reason) == 0) {
            e->count += n;
            return;
        }
    gd_ti_stat *e = calloc(1, sizeof *e);
    if (!e)
        return;
    e->reason = strdup(reason);
    e->count = n;
    e->first_line = line;
    e->next = *list;
    *list = e;
}

void gd_ti_stats_free(gd_ti_stat **list)
{
    while (*list) {
        gd_ti_stat *n = (*list)->next;
        free((*list)->reason);
        free(*list);
        *list = n;
    }
}

int gd_ti_save_stats(gd_store *s, int64_t trace, const gd_ti_stat *list, gd_error *err)
{
    sqlite3_stmt *st = gd_store_prepare(
        s, "INSERT INTO ingest_stat(trace, reason, count, first_line) VALUES (?,?,?,?)", err);
    if (!st)
        return err->code;
    int rc = GD_OK;
    for (const gd_ti_stat *e = list; e && !rc; e = e->next) {
        sqlite3_bind_int64(st, 1, trace);
        sqlite3_bind_text(st, 2, e->reason, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, e->count);
        if (e->first_line > 0)
            sqlite3_bind_int64(st, 4, e->first_line);
        else
            sqlite3_bind_null(st, 4);
        rc = gd_store_step(s, st, err);
    }
    sqlite3_finalize(st);
    return rc;
}
