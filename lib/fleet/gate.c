/* gate.c - the sides of `godeye diff`/`check` from ClickHouse: selections over the fleet's traces and the rows query/diff judges. */
#include "fleet/gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/app.h"
#include "analysis/frames.h"
#include "analysis/version.h"
#include "derive/states.h"
#include "query/frames.h"
#include "store/sql.h"


/* Every table is a ReplacingMergeTree: FINAL collapses a row pushed twice. */
#define TRACES_FINAL "traces FINAL"

/* The fleet column a selector key stands for; NULL when unknown. */
static const char *fleet_column(const char *key, size_t n)
{
    static const char *const map[][2] = {
        {"version", "version_name"}, {"app", "app"},       {"device", "device"},
        {"api", "toString(api_level)"}, {"source", "source"}, {"build", "build"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strlen(map[i][0]) == n && strncmp(key, map[i][0], n) == 0)
            return map[i][1];
    return NULL;
}

/* `v` as a ClickHouse string literal into out (n bytes); -1 when it does not fit. */
static int quote(const char *v, char *out, size_t n)
{
    size_t k = 0;
    if (n < 3)
        return -1;
    out[k++] = '\'';
    for (; *v; v++) {
        if (k + 4 >= n)
            return -1;
        if (*v == '\'' || *v == '\\')
            out[k++] = '\\';
        out[k++] = *v;
    }
    out[k++] = '\'';
    out[k] = 0;
    return 0;
}

typedef struct counted {
    int64_t n, unexposed;
    double minutes;
    gd_error *err;
} counted;

/* Numbers of the answer are range-checked before a conversion (#53 item
 * 3): one out of range stops the answer with this one line. */
static int out_of_range(gd_error *err, const char *what, const json_t *v)
{
    char num[40];
    char *t = json_is_number(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY);
    if (json_is_number(v))
        snprintf(num, sizeof num, "%.15g", json_number_value(v));
    gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: %s out of range in the answer: %.40s", what,
                 json_is_number(v) ? num : t ? t : "null");
    free(t);
    return 1;
}

static int on_count(void *ctx, json_t *row)
{
    counted *c = ctx;
    json_t *n = json_object_get(row, "n"), *m = json_object_get(row, "minutes");
    json_t *u = json_object_get(row, "unexposed");
    if (!gd_ch_count(n, &c->n))
        return out_of_range(c->err, "trace count", n);
    if (u && !gd_ch_count(u, &c->unexposed)) /* #52: issue logs, GD_SQL_EXPOSURE_REAL */
        return out_of_range(c->err, "issue log count", u);
    if (json_is_null(m) || !m)
        c->minutes = 0;
    else if (!gd_ch_real(m, &c->minutes) || c->minutes < 0)
        return out_of_range(c->err, "exposure minutes", m);
    return 0;
}

typedef struct values {
    char *v[24];
    size_t n;
    int more;
} values;

static int on_value(void *ctx, json_t *row)
{
    values *vs = ctx;
    const char *t = json_string_value(json_object_get(row, "v"));
    if (!t || !*t)
        return 0;
    if (vs->n == sizeof vs->v / sizeof vs->v[0]) {
        vs->more = 1;
        return 0;
    }
    if ((vs->v[vs->n] = strdup(t)))
        vs->n++;
    return 0;
}

static int cmp_version_str(const void *x, const void *y)
{
    return gd_version_cmp(*(char *const *)x, *(char *const *)y);
}

/* The distinct values of col in the fleet (versions in version order). */
static int values_of(gd_ch *c, const char *col, values *vs, gd_error *err)
{
    char sql[300];
    memset(vs, 0, sizeof *vs);
    snprintf(sql, sizeof sql, "SELECT DISTINCT %s AS v FROM " TRACES_FINAL " WHERE v != '' ORDER BY v LIMIT 25",
             col);
    int rc = gd_ch_select(c, sql, on_value, vs, err);
    if (!rc && strcmp(col, "version_name") == 0 && vs->n > 1)
        qsort(vs->v, vs->n, sizeof *vs->v, cmp_version_str);
    return rc;
}

static void values_free(values *vs)
{
    for (size_t i = 0; i < vs->n; i++)
        free(vs->v[i]);
}

static int no_match(gd_ch *c, const char *selector, const char *col, gd_error *err)
{
    values vs;
    int rc = values_of(c, col, &vs, err);
    if (rc)
        return rc;
    char vals[600] = "", key[40];
    size_t used = 0;
    for (size_t i = 0; i < vs.n; i++) {
        int k = snprintf(vals + used, sizeof vals - used, "%s%.60s", i ? ", " : "", vs.v[i]);
        if (k > 0 && used + (size_t)k < sizeof vals)
            used += (size_t)k;
        else
            vs.more = 1;
    }
    values_free(&vs);
    snprintf(key, sizeof key, "%.*s", (int)(strchr(selector, '=') - selector), selector);
    if (!vs.n)
        return gd_error_set(err, GD_ERR_DATA, 0, 0, "selector '%.200s' matches no trace of the fleet; no trace has a %s",
                            selector, key);
    return gd_error_set(err, GD_ERR_DATA, 0, 0, "selector '%.200s' matches no trace of the fleet; %s present: %s%s",
                        selector, key, vals, vs.more ? ", ..." : "");
}

int gd_fleet_select(gd_ch *c, const char *selector, gd_selection *out, gd_error *err)
{
    memset(out, 0, sizeof *out);
    if (!selector || !*selector)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "empty selector");
    const char *eq = strchr(selector, '=');
    if (!eq)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0,
                            "selector '%.200s': a trace id names a trace of one database (each worker"
                            " numbers its own), not of the fleet: select by version=, app=, device=, build=,"
                            " api= or source=",
                            selector);
    const char *col = fleet_column(selector, (size_t)(eq - selector));
    if (!col)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0,
                            "selector '%.200s': unknown key (version, app, device, build, api, source)", selector);
    if (!eq[1])
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "selector '%.200s': empty value", selector);
    char lit[1100];
    if (quote(eq + 1, lit, sizeof lit))
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "selector '%.200s': value too long", selector);
    size_t wn = 2 * (strlen(lit) + strlen(col)) + 160;
    if (!(out->where = malloc(wn)))
        return gd_error_oom(err);
    /* app and version_name are in every table and lead its sorting key:
     * said on the table itself, ClickHouse filters before FINAL merges,
     * instead of reading the whole table (#53 item 9) */
    int keyed = strcmp(col, "app") == 0 || strcmp(col, "version_name") == 0;
    snprintf(out->where, wn, "%s%s%s%strace_uid IN (SELECT trace_uid FROM " TRACES_FINAL " WHERE %s = %s)",
             keyed ? col : "", keyed ? " = " : "", keyed ? lit : "", keyed ? " AND " : "", col, lit);
    /* exposure as gd_query_select counts it: the traces' exposure_ms,
     * pushed as computed at ingest (GD_SQL_TRACE_EXPOSURE) */
    char sql[1400];
    snprintf(sql, sizeof sql,
             "SELECT count() AS n, sumIf(exposure_ms, exposure_ms > 0) / 60000 AS minutes,"
             " countIf(format IN " GD_SQL_ISSUE_LOG_FORMATS ") AS unexposed FROM " TRACES_FINAL
             " WHERE %s = %s",
             col, lit);
    counted ct = {.err = err};
    int rc = gd_ch_select(c, sql, on_count, &ct, err);
    if (!rc && ct.n == 0)
        rc = no_match(c, selector, col, err);
    if (rc) {
        gd_selection_free(out);
        return rc;
    }
    out->n = (size_t)ct.n;
    out->minutes = ct.minutes;
    out->unexposed = (size_t)ct.unexposed;
    return GD_OK;
}

int gd_fleet_select_newest(gd_ch *c, gd_selection *out, gd_error *err)
{
    values vs;
    int rc = values_of(c, "version_name", &vs, err);
    if (rc)
        return rc;
    /* the newest of the first 25 in text order is not the newest of all:
     * ask for every distinct version when there are more */
    if (vs.more) {
        values_free(&vs);
        return gd_error_set(err, GD_ERR_USAGE, 0, 0,
                            "the fleet holds more than 24 versions: name the one to check (version=...)");
    }
    if (!vs.n) {
        values_free(&vs);
        return gd_error_set(err, GD_ERR_DATA, 0, 0, "no versioned traces in the fleet: name a selector");
    }
    char sel[1100];
    snprintf(sel, sizeof sel, "version=%.1000s", vs.v[vs.n - 1]);
    values_free(&vs);
    return gd_fleet_select(c, sel, out, err);
}

/* ---- the rows of a side -------------------------------------------------- */

/* '' (a String column's null) as JSON null, as the store gives it. */
static void empty_null(json_t *row, const char *key)
{
    const char *t = json_string_value(json_object_get(row, key));
    if (t && !*t)
        json_object_set_new(row, key, json_null());
}

typedef struct relay {
    gd_row_fn fn;
    void *ctx;
    const char *null_key; /* a text column whose '' means null */
    gd_error *err;        /* filled by a row that stops the answer */
} relay;

static int on_relay(void *ctx, json_t *row)
{
    relay *r = ctx;
    if (r->null_key)
        empty_null(row, r->null_key);
    return r->fn(r->ctx, row);
}

/* A block group: its times rounded as the store's rows are (gd_ms_json). */
static int on_group(void *ctx, json_t *row)
{
    static const char *const ms[] = {"total_ms", "max_ms"};
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
        json_t *v = json_object_get(row, ms[i]);
        if (json_is_number(v))
            json_object_set_new(row, ms[i], gd_ms_json(json_number_value(v)));
    }
    return on_relay(ctx, row);
}

/* The columns of the fleet's blocks holding the "why" of each block (#29):
 * derive/states' gd_why_values as push exported them (GD_WHY_V_* order),
 * and the store's block fields the first four and the last two are. */
static const char *const why_cols[GD_WHY_NVALUES] = {
    "running_ms", "runnable_ms", "sleeping_ms", "uninterruptible_ms", "states_covered_ms", "binder_ms", "lock_ms"};
#define WHY_SELECT "running_ms, runnable_ms, sleeping_ms, uninterruptible_ms, binder_ms, lock_ms"
#define WHY_SUMS                                                                                        \
    "sum(running_ms) AS s_running_ms, sum(runnable_ms) AS s_runnable_ms, sum(sleeping_ms) AS s_sleeping_ms," \
    " sum(uninterruptible_ms) AS s_uninterruptible_ms, sum(states_covered_ms) AS s_states_covered_ms,"     \
    " sum(binder_ms) AS s_binder_ms, sum(lock_ms) AS s_lock_ms,"                                         \
    " countIf(isNotNull(binder_ms)) > 0 AS has_binder, countIf(isNotNull(lock_ms)) > 0 AS has_lock"

/* A fleet block as the store's block rows have it: its times rounded
 * (gd_ms_round), null where the trace had no such data. */
static int on_fleet_block(void *ctx, json_t *row)
{
    static const char *const ms[] = {"duration_ms", "running_ms", "runnable_ms", "sleeping_ms",
                                     "uninterruptible_ms", "binder_ms", "lock_ms"};
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
        json_t *v = json_object_get(row, ms[i]);
        if (json_is_number(v))
            json_object_set_new(row, ms[i], json_real(gd_ms_round(json_number_value(v))));
    }
    return on_relay(ctx, row);
}

/* Frames: ClickHouse counts each (window, duration, vsync, dropped); the
 * slow and frozen rules (analysis/frames.h) are applied to each such
 * bucket here.  A bucket of dropped frames (the flag push wrote by
 * GD_SQL_FRAME_TIMED, the local rule) counts among the frames, its
 * duration in no figure: not slow, not frozen, not the max. */
static int on_frame_bucket(void *ctx, json_t *row)
{
    relay *r = ctx;
    json_t *d = json_object_get(row, "dur_ms"), *vs = json_object_get(row, "vsync_ms"),
           *n = json_object_get(row, "n"), *dr = json_object_get(row, "dropped");
    double dur = json_is_number(d) ? json_number_value(d) : NAN;
    double vsync = json_is_number(vs) ? json_number_value(vs) : NAN;
    int64_t cnt, dropped;
    if (!gd_ch_count(n, &cnt))
        return out_of_range(r->err, "frame count", n);
    if (!gd_ch_count(dr, &dropped) || dropped > 1)
        return out_of_range(r->err, "frame dropped flag", dr);
    if (!isfinite(dur) && json_is_number(d))
        return out_of_range(r->err, "frame duration", d);
    if (dropped)
        dur = NAN; /* slow, frozen and the max of none */
    empty_null(row, "window");
    json_t *out = json_pack("{s:s s:O s:I s:I s:I s:o}", "source", "frames", "window",
                            json_object_get(row, "window"), "frames", (json_int_t)cnt, "slow",
                            (json_int_t)(gd_frame_is_slow(dur, vsync) ? cnt : 0), "frozen",
                            (json_int_t)(gd_frame_is_frozen(dur) ? cnt : 0), "max_ms",
                            isnan(dur) ? json_null() : json_real(dur));
    if (!out)
        return 1;
    int stop = r->fn(r->ctx, out);
    json_decref(out);
    return stop;
}

/* The ANR count by gd_query_anr_count's rule: dumps taken for an ANR, plus
 * ANR-kind blocks no such dump of the selection explains
 * (GD_SQL_DUMP_OF_BLOCK, the store's own condition, run by ClickHouse). */
static int anr_total(gd_ch *c, const char *where, gd_row_fn fn, void *fn_ctx, gd_error *err)
{
    static const char fmt[] =
        "SELECT (SELECT countIf(anr = 1) FROM anrs FINAL WHERE kind = 'dump' AND %1$s)"
        " + (SELECT count() FROM anrs FINAL WHERE kind = 'block' AND %1$s)"
        " - (SELECT uniqExact(trace_uid, seq) FROM (SELECT trace_uid, seq, pid, start_ms, dur_ms, anr_ms"
        " FROM anrs FINAL WHERE kind = 'block' AND %1$s) AS d ALL INNER JOIN (SELECT pid, ts_ms, anr FROM anrs"
        " FINAL WHERE kind = 'dump' AND %1$s) AS v USING pid WHERE " GD_SQL_DUMP_OF_BLOCK("v", "d", "d")
        ") AS total";
    size_t n = sizeof fmt + 4 * strlen(where);
    char *sql = malloc(n);
    if (!sql)
        return gd_error_oom(err);
    snprintf(sql, n, fmt, where);
    relay r = {fn, fn_ctx, NULL, err};
    int rc = gd_ch_select(c, sql, on_relay, &r, err);
    free(sql);
    return rc;
}

/* A query that names a column the server's table lacks: tables made by
 * an older godeye; every such column is named at once (#53 item 9). */
static int older_tables(gd_ch *c, int rc, gd_error *err)
{
    if (rc == GD_ERR_IO && (strstr(err->msg, "Missing columns") || strstr(err->msg, "Unknown identifier") ||
                             strstr(err->msg, "no column"))) {
        char cols[300];
        gd_error e2 = {0};
        int n = gd_ch_missing_columns(c, cols, sizeof cols, &e2);
        if (n > 0)
            return gd_error_set(err, GD_ERR_IO, 0, 0,
                                "clickhouse: tables made by an older godeye lack %d column%s: %s (`godeye push`"
                                " names the ALTER TABLE that adds them)", n, n > 1 ? "s" : "", cols);
        size_t len = strlen(err->msg);
        snprintf(err->msg + len, sizeof err->msg - len, " (tables made by an older godeye: `godeye push`"
                                                       " names the ALTER TABLE that adds the columns)");
    }
    return rc;
}

/* ---- --app over the fleet (#47) ----------------------------------------------
 * gd_app_match stays the one rule: the names the selection's rows carry
 * are read, matched here, and ClickHouse is given the matching ones. */

typedef struct app_names {
    const char *app;
    char *list;               /* "'a', 'b'" of the matching names          */
    size_t len, cap;
    int n;
} app_names;

static int on_name(void *ctx, json_t *row)
{
    app_names *a = ctx;
    const char *p = json_string_value(json_object_get(row, "p"));
    char lit[1100];
    if (!p || !gd_app_match(p, a->app) || quote(p, lit, sizeof lit))
        return 0;
    size_t k = strlen(lit) + 2;
    if (a->len + k + 1 > a->cap) {
        size_t nc = a->cap ? a->cap * 2 : 1024;
        while (nc < a->len + k + 1)
            nc *= 2;
        char *nl = realloc(a->list, nc);
        if (!nl)
            return 1;
        a->list = nl;
        a->cap = nc;
    }
    a->len += (size_t)snprintf(a->list + a->len, a->cap - a->len, "%s%s", a->n++ ? ", " : "", lit);
    return 0;
}

/* The names of `col` of `table` (col NULL: traces' processes) that the
 * selection's rows carry and gd_app_match gives to a->app, in a->list. */
static int app_names_of(gd_ch *c, const char *where, const char *table, const char *col, app_names *a,
                        gd_error *err)
{
    size_t n = strlen(where) + 400;
    char *q = malloc(n);
    if (!q)
        return gd_error_oom(err);
    if (col)
        snprintf(q, n, "SELECT DISTINCT %s AS p FROM %s FINAL WHERE %s", col, table, where);
    else
        snprintf(q, n, "SELECT DISTINCT arrayJoin(processes) AS p FROM " TRACES_FINAL " WHERE %s", where);
    int rc = older_tables(c, gd_ch_select(c, q, on_name, a, err), err);
    free(q);
    if (rc == GD_ERR_ABORT && !err->code)
        rc = gd_error_oom(err);
    return rc;
}

/* Where the rows of `what` are kept for a side: the selection's condition
 * and, with sel->app, that of the app's processes: the rows' own process
 * (`col` of `table`), or for a table of traces (col NULL: pages) the
 * traces where a process of the app is known (traces.processes), as the
 * store's --app does.  *out is malloc'd. */
static int side_where(gd_ch *c, const gd_selection *sel, const char *table, const char *col, char **out,
                      gd_error *err)
{
    const char *where = sel && sel->where ? sel->where : "1";
    if (!sel || !sel->app) {
        *out = strdup(where);
        return *out ? GD_OK : gd_error_oom(err);
    }
    app_names a = {.app = sel->app};
    int rc = app_names_of(c, where, table, col, &a, err);
    size_t n = 2 * strlen(where) + a.len + 200;
    *out = rc ? NULL : malloc(n);
    if (!rc && !*out)
        rc = gd_error_oom(err);
    else if (!rc && !a.n)
        snprintf(*out, n, "%s AND 0", where);
    else if (!rc && col)
        snprintf(*out, n, "%s AND %s IN (%s)", where, col, a.list);
    else if (!rc)
        snprintf(*out, n, "%s AND trace_uid IN (SELECT trace_uid FROM " TRACES_FINAL " WHERE %s AND hasAny(processes,"
                          " [%s]))", where, where, a.list);
    free(a.list);
    return rc;
}

/* The process column of each table --app filters (NULL: by trace). */
#define STARTUP_PROCESS "if(launched_app != '', launched_app, app)"

long gd_fleet_sample(void)
{
    const char *e = getenv("GODEYE_FLEET_SAMPLE");
    char *end;
    long v = e && *e ? strtol(e, &end, 10) : 0;
    return e && *e && !*end && v > 0 && v <= GD_FLEET_SAMPLE ? v : GD_FLEET_SAMPLE;
}

static int fleet_rows(void *ctx, const gd_selection *sel, const char *what, gd_row_fn fn, void *fn_ctx,
                      gd_error *err)
{
    gd_ch *c = ctx;
    relay r = {fn, fn_ctx, NULL, err};
    const char *table = "blocks", *col = "process";
    gd_ch_row_fn each = on_relay;
    const char *fmt;
    char sampled[300];
    if (strcmp(what, "group_stats") == 0) {
        r.null_key = "group";
        fmt = "SELECT grp AS `group`, count() AS count, sum(duration_ms) AS total_ms, max(duration_ms) AS max_ms,"
              " countIf(kind IN ('long', 'anr')) AS long FROM blocks FINAL WHERE %s GROUP BY grp ORDER BY grp";
    } else if (strcmp(what, "blocks") == 0) {
        r.null_key = "group";
        each = on_fleet_block;
        snprintf(sampled, sizeof sampled, "SELECT grp AS `group`, kind, duration_ms, " WHY_SELECT
                 " FROM blocks FINAL WHERE %%s ORDER BY grp, cityHash64(trace_uid, seq) LIMIT %ld BY grp",
                 gd_fleet_sample());
        fmt = sampled;
    } else if (strcmp(what, "pages") == 0) {
        col = NULL; /* pages stay per trace */
        fmt = "SELECT page, draw_ms, load_ms FROM pages FINAL WHERE %s ORDER BY trace_uid, seq";
    } else if (strcmp(what, "frames") == 0) {
        each = on_frame_bucket;
        table = "frames";
        fmt = "SELECT window, dur_ms, vsync_ms, dropped, count() AS n FROM frames FINAL WHERE %s AND "
              GD_SQL_APP_FRAMES_SHOWN("trace_uid", "frames FINAL") " GROUP BY window, dur_ms, vsync_ms, dropped"
              " ORDER BY window, dur_ms, dropped";
    } else if (strcmp(what, "startups") == 0) {
        r.null_key = "app";
        table = "startups";
        col = STARTUP_PROCESS;
        fmt = "SELECT launched_app AS app, if(kind = '', NULL, kind) AS kind, total_ms FROM startups FINAL"
              " WHERE %s ORDER BY trace_uid, seq";
    } else if (strcmp(what, "anr") == 0) {
        table = "anrs";
        fmt = NULL;
    } else if (strcmp(what, "anr_groups") == 0) { /* #48: the ANRs of record by signature */
        table = "anrs";
        fmt = "SELECT signature, count() AS count FROM anrs FINAL WHERE kind = 'dump' AND anr = 1"
              " AND signature != '' AND %s GROUP BY signature ORDER BY signature";
    } else {
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "no fleet rows for '%s'", what);
    }
    char *where;
    int rc = side_where(c, sel, table, col, &where, err);
    if (rc)
        return rc;
    if (!fmt) {
        rc = anr_total(c, where, fn, fn_ctx, err);
        free(where);
        return rc;
    }
    size_t n = strlen(fmt) + strlen(where) + 1;
    char *sql = malloc(n);
    if (!sql) {
        free(where);
        return gd_error_oom(err);
    }
    snprintf(sql, n, fmt, where);
    rc = older_tables(c, gd_ch_select(c, sql, each, &r, err), err);
    free(sql);
    free(where);
    if (rc == GD_ERR_ABORT && !err->code)
        rc = gd_error_oom(err);
    return rc;
}

gd_side_source gd_fleet_source(gd_ch *c)
{
    return (gd_side_source){fleet_rows, c};
}

/* gd_percentile's rule (analysis/stats.c: linear between the closest
 * ranks of the sorted durations d) in ClickHouse: h = (n - 1) p / 100. */
#define H_(p) "(`count` - 1) * " p " / 100"
#define LO_(p) "toUInt64(floor(" H_(p) "))"
#define PCT(p)                                                                                       \
    "if(`count` = 1, d[1], d[" LO_(p) " + 1] + (" H_(p) " - floor(" H_(p) ")) * (d[" LO_(p) " + 2] - d[" \
    LO_(p) " + 1]))"

/* A row's "versions" (the version_names ClickHouse gathered) as
 * first_version and last_version by gd_version_cmp ('' left out; null when
 * none), "versions" removed. */
static void first_last_version(json_t *row)
{
    const char *first = NULL, *last = NULL;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(row, "versions"), i, v) {
        const char *t = json_string_value(v);
        if (!t || !*t)
            continue;
        if (!first || gd_version_cmp(t, first) < 0)
            first = t;
        if (!last || gd_version_cmp(t, last) > 0)
            last = t;
    }
    json_object_set_new(row, "first_version", first ? json_string(first) : json_null());
    json_object_set_new(row, "last_version", last ? json_string(last) : json_null());
    json_object_del(row, "versions");
}

/* #47: a group's processes as the store names them: the longest block's
 * first (process), then the others (here in name order), at most 8
 * (GD_GROUP_PROCS of query/blocks.c); none: process null, []. */
static void group_processes(json_t *row)
{
    json_t *first = json_object_get(row, "process"), *all = json_object_get(row, "processes");
    json_t *out = json_array();
    const char *p = json_string_value(first);
    if (p && *p)
        json_array_append(out, first);
    size_t i;
    json_t *v;
    json_array_foreach(all, i, v)
        if (json_array_size(out) < 8 && !(p && json_equal(v, first)))
            json_array_append(out, v);
    if (!p || !*p)
        json_object_set_new(row, "process", json_array_size(out) ? json_incref(json_array_get(out, 0)) : json_null());
    json_object_set_new(row, "processes", out);
}

/* A fleet group row as the store's: '' as null, times rounded, the first
 * and last of its versions by gd_version_cmp. */
static int on_fleet_group(void *ctx, json_t *row)
{
    group_processes(row);
    static const char *const ms[] = {"p50_ms", "p95_ms"};
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
        json_t *v = json_object_get(row, ms[i]);
        if (json_is_number(v))
            json_object_set_new(row, ms[i], gd_ms_json(json_number_value(v)));
    }
    empty_null(row, "group");
    empty_null(row, "group_rule");
    first_last_version(row);
    /* the state, binder and lock shares by derive/states' rule (#29) */
    double sums[GD_WHY_NVALUES];
    for (int k = 0; k < GD_WHY_NVALUES; k++) {
        char key[40];
        snprintf(key, sizeof key, "s_%s", why_cols[k]);
        json_t *v = json_object_get(row, key);
        sums[k] = json_is_number(v) ? json_number_value(v) : NAN;
        json_object_del(row, key);
    }
    json_t *tot = json_object_get(row, "total_ms");
    int have = (json_is_true(json_object_get(row, "has_binder")) ||
                json_integer_value(json_object_get(row, "has_binder")) ? GD_WHY_SCHED : 0) |
               (json_is_true(json_object_get(row, "has_lock")) ||
                json_integer_value(json_object_get(row, "has_lock")) ? GD_WHY_LOCK : 0);
    json_object_del(row, "has_binder");
    json_object_del(row, "has_lock");
    if (gd_why_shares_json(row, sums, json_is_number(tot) ? json_number_value(tot) : 0, have))
        return 1;
    return on_group(ctx, row);
}

int gd_fleet_block_groups(gd_ch *c, const gd_selection *sel, const char *kind, long limit, gd_row_fn fn,
                          void *ctx, gd_error *err)
{
    char kind_lit[80] = "", limit_sql[40] = "";
    if (kind) {
        char lit[64];
        if (quote(kind, lit, sizeof lit))
            return gd_error_set(err, GD_ERR_USAGE, 0, 0, "--kind: value too long");
        snprintf(kind_lit, sizeof kind_lit, " AND kind = %s", lit);
    }
    char *where;
    int rc = side_where(c, sel, "blocks", "process", &where, err);
    if (rc)
        return rc;
    if (limit > 0)
        snprintf(limit_sql, sizeof limit_sql, " LIMIT %ld", limit);
    /* every block of a group counts (the percentiles are exact, not of the
     * diff's sample); the store's order: total descending, then the group
     * (the unnamed one, '', first) */
    static const char fmt[] =
        "SELECT `group`, key_frame, group_rule, `count`, total_ms, max_ms, " PCT("50") " AS p50_ms, "
        PCT("95") " AS p95_ms, traces, versions, s_running_ms, s_runnable_ms, s_sleeping_ms, s_uninterruptible_ms,"
        " s_states_covered_ms, s_binder_ms, s_lock_ms, has_binder, has_lock, g_process AS process,"
        " g_processes AS processes FROM (SELECT grp AS `group`, min(key_frame) AS key_frame, " WHY_SUMS ","
        " argMaxIf(process, duration_ms, process != '') AS g_process,"
        " arraySort(groupUniqArrayIf(process, process != '')) AS g_processes,"
        " argMax(grp_rule, duration_ms) AS group_rule, count() AS `count`, sum(duration_ms) AS total_ms,"
        " max(duration_ms) AS max_ms, arraySort(groupArray(duration_ms)) AS d,"
        " uniqExact(trace_uid) AS traces, groupUniqArray(version_name) AS versions"
        " FROM blocks FINAL WHERE %s%s GROUP BY grp) ORDER BY total_ms DESC, `group`%s";
    size_t n = sizeof fmt + strlen(where) + sizeof kind_lit + sizeof limit_sql;
    char *sql = malloc(n);
    if (!sql) {
        free(where);
        return gd_error_oom(err);
    }
    snprintf(sql, n, fmt, where, kind_lit, limit_sql);
    free(where);
    relay r = {fn, ctx, "key_frame", err};
    rc = older_tables(c, gd_ch_select(c, sql, on_fleet_group, &r, err), err);
    free(sql);
    if (rc == GD_ERR_ABORT && !err->code)
        rc = gd_error_oom(err);
    return rc;
}

/* #48: the devices of the traces with an ANR of record, "trace_uid" -> device */
static int on_device(void *ctx, json_t *row)
{
    const char *uid = json_string_value(json_object_get(row, "trace_uid"));
    const char *dev = json_string_value(json_object_get(row, "device"));
    if (uid && dev && *dev)
        json_object_set(ctx, uid, json_object_get(row, "device"));
    return 0;
}

typedef struct anr_groups_ctx {
    relay r;
    json_t *devices; /* trace_uid -> device */
} anr_groups_ctx;

/* A fleet ANR group as gd_query_anr_groups' row: versions first and last
 * by gd_version_cmp, the traces' devices, the traces by trace_uid. */
static int on_fleet_anr_group(void *ctx, json_t *row)
{
    anr_groups_ctx *g = ctx;
    empty_null(row, "type");
    empty_null(row, "type_label");
    json_t *devices = json_array(), *uids = json_object_get(row, "traces"), *v;
    size_t i;
    json_array_foreach(uids, i, v) {
        json_t *d = json_object_get(g->devices, json_string_value(v) ? json_string_value(v) : "");
        size_t j;
        json_t *e;
        int seen = !d;
        json_array_foreach(devices, j, e)
            seen = seen || json_equal(e, d);
        if (!seen)
            json_array_append(devices, d);
    }
    json_object_set_new(row, "devices", devices);
    first_last_version(row);
    json_object_set_new(row, "id", json_null());
    json_object_set_new(row, "reason", json_null());
    return g->r.fn(g->r.ctx, row);
}

int gd_fleet_anr_groups(gd_ch *c, const gd_selection *sel, gd_row_fn fn, void *ctx, gd_error *err)
{
    char *where;
    int rc = side_where(c, sel, "anrs", "process", &where, err);
    if (rc)
        return rc;
    static const char dev_fmt[] =
        "SELECT trace_uid, device FROM traces FINAL WHERE trace_uid IN (SELECT trace_uid FROM anrs"
        " WHERE kind = 'dump' AND anr = 1 AND signature != '' AND %s)";
    static const char fmt[] =
        "SELECT signature, any(type) AS type, any(type_label) AS type_label, count() AS count,"
        " arraySort(groupUniqArray(process)) AS apps, groupUniqArray(version_name) AS versions,"
        " arraySort(groupUniqArray(trace_uid)) AS traces"
        " FROM anrs FINAL WHERE kind = 'dump' AND anr = 1 AND signature != '' AND %s"
        " GROUP BY signature ORDER BY count DESC, signature";
    size_t n = sizeof fmt + sizeof dev_fmt + strlen(where);
    char *sql = malloc(n);
    anr_groups_ctx g = {{fn, ctx, NULL, err}, json_object()};
    if (!sql || !g.devices) {
        free(sql);
        free(where);
        json_decref(g.devices);
        return gd_error_oom(err);
    }
    snprintf(sql, n, dev_fmt, where);
    rc = older_tables(c, gd_ch_select(c, sql, on_device, g.devices, err), err);
    if (!rc) {
        snprintf(sql, n, fmt, where);
        rc = older_tables(c, gd_ch_select(c, sql, on_fleet_anr_group, &g, err), err);
    }
    free(sql);
    free(where);
    json_decref(g.devices);
    if (rc == GD_ERR_ABORT && !err->code)
        rc = gd_error_oom(err);
    return rc;
}
