/* query/select.c - selectors: the traces a `diff` or `check` side pools (ids, key=value, newest). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/version.h"
#include "query/diff.h"
#include "store/sql.h"
#include "core/util.h"

/* "SELECT id, exposure_ms, real FROM trace ...": a selection's columns
 * (real: GD_SQL_EXPOSURE_REAL, #52) */
enum { SEL_ID, SEL_EXPOSURE, SEL_REAL };
#define SEL_COLS "id, exposure_ms, " GD_SQL_EXPOSURE_REAL("trace") " AS real"

/* traces one side may pool (the trace filter of the queries is an IN list) */
#define SELECT_MAX 400

void gd_selection_free(gd_selection *sel)
{
    if (!sel)
        return;
    free(sel->ids);
    free(sel->where);
    memset(sel, 0, sizeof *sel);
}

/* Adds trace `id` with its exposure (trace.exposure_ms) once. */
static int sel_add(gd_selection *sel, size_t *cap, int64_t id, double exposure_ms, int real, gd_error *err)
{
    for (size_t i = 0; i < sel->n; i++)
        if (sel->ids[i] == id)
            return GD_OK;
    if (sel->n == SELECT_MAX)
        return gd_error_set(err, GD_ERR_DATA, 0, 0,
                            "a selector may pick at most %d traces; pick fewer (a version, a device)",
                            SELECT_MAX);
    if (gd_grow((void **)&sel->ids, cap, sel->n + 1, sizeof *sel->ids, err))
        return err->code ? err->code : GD_ERR_IO;
    sel->ids[sel->n++] = id;
    if (exposure_ms > 0)
        sel->minutes += exposure_ms / 60000.0;
    if (!real)
        sel->unexposed++;
    return GD_OK;
}

/* A selection's rows, added (gd_store_each's callback): "SELECT id,
 * exposure_ms", or for one id (`id` >= 0) "SELECT exposure_ms". */
enum { SEL1_EXPOSURE, SEL1_REAL }; /* "SELECT exposure_ms, real FROM trace WHERE id = ?1" */
struct sel_ctx {
    gd_selection *sel;
    size_t *cap;
    int64_t id; /* the one id asked for, or -1 */
    int found;
    gd_error *err;
};

static int sel_row(void *ctx, sqlite3_stmt *q)
{
    struct sel_ctx *c = ctx;
    c->found = 1;
    if (c->id >= 0)
        return sel_add(c->sel, c->cap, c->id, sqlite3_column_double(q, SEL1_EXPOSURE),
                       sqlite3_column_int(q, SEL1_REAL), c->err);
    return sel_add(c->sel, c->cap, sqlite3_column_int64(q, SEL_ID), sqlite3_column_double(q, SEL_EXPOSURE),
                   sqlite3_column_int(q, SEL_REAL), c->err);
}

/* The trace column a selector key stands for; NULL when unknown. */
static const char *selector_column(const char *key, size_t n)
{
    static const char *const map[][2] = {
        {"version", "version_name"}, {"app", "app"}, {"device", "device"},
        {"api", "api_level"},        {"source", "source"},      {"build", "build"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strlen(map[i][0]) == n && strncmp(key, map[i][0], n) == 0)
            return map[i][1];
    return NULL;
}

/* Parses "1,2,5" into ids; 0, or -1 when malformed. */
static int parse_id_list(const char *s, int64_t *ids, size_t max, size_t *n)
{
    *n = 0;
    const char *p = s;
    for (;;) {
        if (*p < '0' || *p > '9')
            return -1;
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (errno || v <= 0 || *n == max) /* out of range: refused, never clamped */
            return -1;
        ids[(*n)++] = v;
        if (*end == '\0')
            return 0;
        if (*end != ',')
            return -1;
        p = end + 1;
    }
}

static int cmp_version_str(const void *x, const void *y)
{
    return gd_version_cmp(*(char *const *)x, *(char *const *)y);
}

/* GD_ERR_DATA for a key=value selector that matched nothing, listing the
 * values the key has in the store (versions in version order, the rest
 * in text order; the first 24), or saying that no trace has one. */
/* no_match's values, gathered (gd_store_each's callback): the first 24,
 * `more` when there are others */
enum { NM_V }; /* "SELECT DISTINCT CAST(col AS TEXT) AS v ..." */
struct nm_ctx {
    char *v[24];
    size_t n;
    int more;
};

static int nm_row(void *ctx, sqlite3_stmt *q)
{
    struct nm_ctx *c = ctx;
    const char *t = (const char *)sqlite3_column_text(q, NM_V);
    if (!t)
        return GD_OK;
    if (c->n == sizeof c->v / sizeof c->v[0]) {
        c->more = 1;
        return GD_EACH_STOP;
    }
    if (!(c->v[c->n] = strdup(t)))
        return GD_EACH_STOP;
    c->n++;
    return GD_OK;
}

static int no_match(gd_store *s, const char *selector, const char *col, gd_error *err)
{
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT DISTINCT CAST(%s AS TEXT) AS v FROM trace WHERE %s IS NOT NULL ORDER BY v",
             col, col);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    struct nm_ctx c = {.n = 0};
    /* a read error is not reported: the error is the selector's */
    gd_store_each(s, q, nm_row, &c, NULL);
    char **v = c.v;
    size_t n = c.n;
    int more = c.more;
    if (strcmp(col, "version_name") == 0 && n > 1)
        gd_sort(v, n, sizeof *v, cmp_version_str);
    char vals[600] = "", key[40];
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        int k = snprintf(vals + used, sizeof vals - used, "%s%.60s", i ? ", " : "", v[i]);
        if (k > 0 && used + (size_t)k < sizeof vals)
            used += (size_t)k;
        else
            more = 1;
        free(v[i]);
    }
    snprintf(key, sizeof key, "%.*s", (int)(strchr(selector, '=') - selector), selector);
    if (!n)
        return gd_error_set(err, GD_ERR_DATA, 0, 0,
                            "selector '%.200s' matches no trace; no trace has a %s (godeye ingest --set %s=...)",
                            selector, key, key);
    return gd_error_set(err, GD_ERR_DATA, 0, 0, "selector '%.200s' matches no trace; %s present: %s%s", selector,
                        key, vals, more ? ", ..." : "");
}

int gd_query_select(gd_store *s, const char *selector, gd_selection *out, gd_error *err)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0;
    if (!selector || !*selector)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "empty selector");
    const char *eq = strchr(selector, '=');
    sqlite3_stmt *q;
    int rc = GD_OK;
    if (eq) {
        const char *col = selector_column(selector, (size_t)(eq - selector));
        if (!col)
            return gd_error_set(err, GD_ERR_USAGE, 0, 0,
                                "selector '%.200s': unknown key (version, app, device, api, source, build)",
                                selector);
        if (!eq[1])
            return gd_error_set(err, GD_ERR_USAGE, 0, 0, "selector '%.200s': empty value", selector);
        char sql[512];
        snprintf(sql, sizeof sql,
                 "SELECT " SEL_COLS " FROM trace WHERE"
                 " CAST(%s AS TEXT) = ?1 ORDER BY id", col);
        if (!(q = gd_store_prepare(s, sql, err)))
            return err->code;
        sqlite3_bind_text(q, 1, eq + 1, -1, SQLITE_TRANSIENT);
        struct sel_ctx c = {out, &cap, -1, 0, err};
        rc = gd_store_each(s, q, sel_row, &c, err);
        if (!rc && out->n == 0)
            rc = no_match(s, selector, col, err);
    } else {
        int64_t ids[256];
        size_t n;
        if (parse_id_list(selector, ids, sizeof ids / sizeof ids[0], &n))
            return gd_error_set(err, GD_ERR_USAGE, 0, 0,
                                "selector '%.200s': expected a trace id, a comma list of ids"
                                " or key=value",
                                selector);
        if (!(q = gd_store_prepare(s, "SELECT exposure_ms, " GD_SQL_EXPOSURE_REAL("trace") " FROM trace WHERE id = ?1", err)))
            return err->code;
        for (size_t i = 0; i < n && !rc; i++) {
            sqlite3_bind_int64(q, 1, ids[i]);
            struct sel_ctx c = {out, &cap, ids[i], 0, err};
            rc = gd_store_each_reuse(s, q, sel_row, &c, err);
            if (!rc && !c.found)
                rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "selector '%.200s': no trace %lld", selector,
                                  (long long)ids[i]);
        }
        sqlite3_finalize(q);
    }
    if (rc)
        gd_selection_free(out);
    return rc;
}

/* gd_query_version_span's versions, the oldest and newest kept
 * (gd_store_each's callback) */
enum { VS_VERSION }; /* "SELECT DISTINCT version_name FROM trace ..." */
struct vs_ctx {
    char **oldest, **newest;
    size_t *n;
    gd_error *err;
};

static int vs_row(void *ctx, sqlite3_stmt *q)
{
    struct vs_ctx *c = ctx;
    const char *v = (const char *)sqlite3_column_text(q, VS_VERSION);
    if (!v)
        return GD_OK;
    (*c->n)++;
    char **slot[2] = {c->newest, c->oldest};
    for (int k = 0; k < 2; k++) {
        int cmp = *slot[k] ? gd_version_cmp(v, *slot[k]) : 0;
        if (!*slot[k] || (k == 0 ? cmp > 0 : cmp < 0)) {
            free(*slot[k]);
            if (!(*slot[k] = strdup(v)))
                return gd_error_oom(c->err);
        }
    }
    return GD_OK;
}

int gd_query_version_span(gd_store *s, char **oldest, char **newest, size_t *n, gd_error *err)
{
    *oldest = *newest = NULL;
    *n = 0;
    sqlite3_stmt *q = gd_store_prepare(s, "SELECT DISTINCT version_name FROM trace WHERE"
                                          " version_name IS NOT NULL", err);
    if (!q)
        return err->code;
    struct vs_ctx c = {oldest, newest, n, err};
    int rc = gd_store_each(s, q, vs_row, &c, err);
    if (rc) {
        free(*oldest);
        free(*newest);
        *oldest = *newest = NULL;
    }
    return rc;
}

int gd_query_select_newest(gd_store *s, gd_selection *out, gd_error *err)
{
    memset(out, 0, sizeof *out);
    char *best = NULL, *oldest = NULL;
    size_t nv;
    int rc = gd_query_version_span(s, &oldest, &best, &nv, err);
    free(oldest);
    if (rc)
        return rc;
    sqlite3_stmt *q;
    if (best) {
        char sel[1100];
        snprintf(sel, sizeof sel, "version=%.1000s", best);
        free(best);
        return gd_query_select(s, sel, out, err);
    }
    /* no versions: every trace */
    if (!(q = gd_store_prepare(s, "SELECT " SEL_COLS " FROM trace ORDER BY id", err)))
        return err->code;
    size_t cap = 0;
    struct sel_ctx c = {out, &cap, -1, 0, err};
    rc = gd_store_each(s, q, sel_row, &c, err);
    if (!rc && out->n == 0)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "no traces in the database");
    if (rc)
        gd_selection_free(out);
    return rc;
}
