/* query/apps.c - the processes and apps of the traces (--app, empty answers). */
#include "query/apps.h"

#include <stdio.h>
#include <string.h>

#include "analysis/app.h"
#include "store/sql.h"

int gd_query_has_data(gd_store *s, const char *table, const gd_filter *f, int *has, gd_error *err)
{
    char fl[4096], sql[4600];
    gd_filter traces = *f; /* the data of f's traces, whoever's it is */
    traces.app = NULL;
    gd_store_filter_sql(&traces, "trace", fl, sizeof fl);
    snprintf(sql, sizeof sql, "SELECT EXISTS (SELECT 1 FROM %s WHERE 1 %s)", table, fl);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    int rc = sqlite3_step(q);
    *has = rc == SQLITE_ROW && sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    return rc == SQLITE_ROW ? GD_OK : gd_store_fail(s, err, "database read");
}

int gd_query_trace_missing(gd_store *s, const gd_filter *f, int64_t *missing, gd_error *err)
{
    *missing = -1;
    sqlite3_stmt *q = gd_store_prepare(s, "SELECT EXISTS (SELECT 1 FROM trace WHERE id = ?1) AS held", err);
    if (!q)
        return err->code;
    enum { M_HELD }; /* the one column */
    int rc = SQLITE_ROW;
    for (size_t i = 0; i < f->ntraces && *missing < 0 && rc == SQLITE_ROW; i++) {
        sqlite3_bind_int64(q, 1, f->traces[i]);
        if ((rc = sqlite3_step(q)) == SQLITE_ROW && !sqlite3_column_int(q, M_HELD))
            *missing = f->traces[i];
        sqlite3_reset(q);
    }
    sqlite3_finalize(q);
    return rc == SQLITE_ROW ? GD_OK : gd_store_fail(s, err, "database read");
}

enum { P_NAME = 0, P_PKG };

/* gd_query_app_presence's names, pass by pass (gd_store_each's callback);
 * `last`: the package shown last (the rows come by package) */
struct presence {
    const gd_filter *f;
    int pass, *matched;
    char *present;
    size_t n, used, shown, more;
    char last[256];
};

static int presence_row(void *ctx, sqlite3_stmt *q)
{
    struct presence *c = ctx;
    const char *name = (const char *)sqlite3_column_text(q, P_NAME);
    const char *pkg = (const char *)sqlite3_column_text(q, P_PKG);
    if (!name || !pkg)
        return GD_OK;
    if (c->pass == 0 && c->f->app && gd_app_match(name, c->f->app))
        *c->matched = 1;
    /* pass 0: the apps; pass 1 (none): whatever names the traces' processes;
     * each package once ("PKG" and "PKG:svc" are PKG) */
    if ((c->pass == 0 && gd_app_is_system(pkg)) || strcmp(pkg, c->last) == 0)
        return GD_OK;
    snprintf(c->last, sizeof c->last, "%s", pkg);
    if (c->shown == 8) {
        c->more++;
        return GD_OK;
    }
    int k = snprintf(c->present + c->used, c->used < c->n ? c->n - c->used : 0, "%s%s", c->shown ? ", " : "", pkg);
    if (k > 0 && c->used + (size_t)k < c->n) {
        c->used += (size_t)k;
        c->shown++;
    }
    return GD_OK;
}

int gd_query_app_presence(gd_store *s, const gd_filter *f, int *matched, char *present, size_t n,
                          gd_error *err)
{
    char fl[4096], sql[8192];
    gd_filter traces = *f; /* f's traces, every process of them */
    traces.app = NULL;
    gd_store_filter_sql(&traces, "trace", fl, sizeof fl);
    /* the apps first: packages that are not system processes, then the
     * traces' own apps (which may be system ones when nothing else is) */
    snprintf(sql, sizeof sql,
             "SELECT DISTINCT name, gd_app_package(name) AS pkg FROM (" GD_SQL_PROCESS_NAMES
             ") WHERE 1 %s ORDER BY pkg, name", fl);
    *matched = !f->app;
    present[0] = 0;
    struct presence c = {f, 0, matched, present, n, 0, 0, 0, ""};
    for (; c.pass < 2 && !c.shown; c.pass++, c.last[0] = 0) {
        int rc = gd_store_each_sql(s, sql, presence_row, &c, err);
        if (rc)
            return rc;
    }
    if (c.more && c.used < n)
        snprintf(present + c.used, n - c.used, " and %zu more", c.more);
    if (!c.shown)
        snprintf(present, n, "none");
    return GD_OK;
}

int gd_query_process_of(gd_store *s, int64_t trace, int64_t pid, char *buf, size_t n, gd_error *err)
{
    sqlite3_stmt *q = gd_store_cached(s,
                                      "SELECT CASE WHEN d.pid IS NULL THEN t.app ELSE " GD_SQL_PROCESS_OF("d", "t")
                                      " END FROM (SELECT ?1 AS trace, ?2 AS pid) d JOIN trace t ON t.id = d.trace",
                                      err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    if (pid >= 0)
        sqlite3_bind_int64(q, 2, pid);
    else
        sqlite3_bind_null(q, 2);
    int r = sqlite3_step(q);
    const char *p = r == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : NULL;
    snprintf(buf, n, "%s", p ? p : "");
    gd_store_release(s, q);
    return r == SQLITE_ROW || r == SQLITE_DONE ? GD_OK : gd_store_fail(s, err, "database read");
}

/* One trace app's package (the one column, app): kept unless a system
 * process. */
static int app_row(void *ctx, sqlite3_stmt *q)
{
    enum { A_APP = 0 };
    const char *app = (const char *)sqlite3_column_text(q, A_APP);
    if (app && !gd_app_is_system(app))
        json_array_append_new(ctx, gd_json_str(app));
    return GD_OK;
}

json_t *gd_query_trace_apps(gd_store *s, const char *set, gd_error *err)
{
    char sql[4400];
    snprintf(sql, sizeof sql,
             "SELECT DISTINCT gd_app_package(app) AS app FROM trace WHERE id IN %s AND app IS NOT NULL"
             " AND app <> ''", set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return NULL;
    json_t *apps = json_array();
    if (!apps) {
        sqlite3_finalize(q);
        gd_error_oom(err);
        return NULL;
    }
    if (gd_store_each(s, q, app_row, apps, err)) {
        json_decref(apps);
        return NULL;
    }
    return apps;
}

const char *gd_query_focus_of(const char *process, const json_t *apps)
{
    if (!process || !*process)
        return "app";
    size_t i;
    json_t *a;
    json_array_foreach(apps, i, a)
        if (gd_app_match(process, json_string_value(a)))
            return "app";
    return gd_app_is_system(process) ? "system" : "other";
}
