/* query/diff.c - selectors, the comparison of two selections (`godeye
 * diff`) and budgets (`godeye check`), from the same queries the listing
 * commands use. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mannwhitney.h"
#include "analysis/stats.h"
#include "analysis/version.h"
#include "query/diff.h"
#include "query/frames.h"
#include "store/store_int.h"
#include "core/util.h"

#define DEFAULT_ALPHA 0.01
#define DEFAULT_MIN_SAMPLES 5
/* traces one side may pool (the trace filter of the queries is an IN list) */
#define SELECT_MAX 400

/* ---- selectors ---------------------------------------------------------- */

void gd_selection_free(gd_selection *sel)
{
    if (!sel)
        return;
    free(sel->ids);
    memset(sel, 0, sizeof *sel);
}

static int sel_add(gd_selection *sel, size_t *cap, int64_t id, double start, double end,
                   int has_times, gd_error *err)
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
    if (has_times && end > start)
        sel->minutes += (end - start) / 60000.0;
    return GD_OK;
}

/* The trace column a selector key stands for; NULL when unknown. */
static const char *selector_column(const char *key, size_t n)
{
    static const char *const map[][2] = {
        {"version", "version_name"}, {"app", "app"}, {"device", "device"},
        {"api", "api_level"},        {"source", "source"},
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
        long long v = strtoll(p, &end, 10);
        if (v <= 0 || *n == max)
            return -1;
        ids[(*n)++] = v;
        if (*end == '\0')
            return 0;
        if (*end != ',')
            return -1;
        p = end + 1;
    }
}

int gd_store_select(gd_store *s, const char *selector, gd_selection *out, gd_error *err)
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
                                "selector '%.200s': unknown key (version, app, device, api, source)",
                                selector);
        if (!eq[1])
            return gd_error_set(err, GD_ERR_USAGE, 0, 0, "selector '%.200s': empty value", selector);
        char sql[256];
        snprintf(sql, sizeof sql,
                 "SELECT id, start_ms, end_ms FROM trace WHERE"
                 " CAST(%s AS TEXT) = ?1 ORDER BY id", col);
        if (!(q = gd_store_prepare(s, sql, err)))
            return err->code;
        sqlite3_bind_text(q, 1, eq + 1, -1, SQLITE_TRANSIENT);
        int step;
        while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW)
            rc = sel_add(out, &cap, sqlite3_column_int64(q, 0), sqlite3_column_double(q, 1),
                         sqlite3_column_double(q, 2),
                         sqlite3_column_type(q, 1) != SQLITE_NULL &&
                             sqlite3_column_type(q, 2) != SQLITE_NULL,
                         err);
        if (!rc && step != SQLITE_DONE)
            rc = gd_store_fail(s, err, "database read");
        sqlite3_finalize(q);
        if (!rc && out->n == 0)
            rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "selector '%.200s' matches no trace", selector);
    } else {
        int64_t ids[256];
        size_t n;
        if (parse_id_list(selector, ids, sizeof ids / sizeof ids[0], &n))
            return gd_error_set(err, GD_ERR_USAGE, 0, 0,
                                "selector '%.200s': expected a trace id, a comma list of ids"
                                " or key=value",
                                selector);
        if (!(q = gd_store_prepare(s, "SELECT start_ms, end_ms FROM trace WHERE id = ?1", err)))
            return err->code;
        for (size_t i = 0; i < n && !rc; i++) {
            sqlite3_bind_int64(q, 1, ids[i]);
            int step = sqlite3_step(q);
            if (step == SQLITE_ROW)
                rc = sel_add(out, &cap, ids[i], sqlite3_column_double(q, 0), sqlite3_column_double(q, 1),
                             sqlite3_column_type(q, 0) != SQLITE_NULL &&
                                 sqlite3_column_type(q, 1) != SQLITE_NULL,
                             err);
            else if (step == SQLITE_DONE)
                rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "selector '%.200s': no trace %lld", selector,
                                  (long long)ids[i]);
            else
                rc = gd_store_fail(s, err, "database read");
            sqlite3_reset(q);
        }
        sqlite3_finalize(q);
    }
    if (rc)
        gd_selection_free(out);
    return rc;
}

int gd_store_version_span(gd_store *s, char **oldest, char **newest, size_t *n, gd_error *err)
{
    *oldest = *newest = NULL;
    *n = 0;
    sqlite3_stmt *q = gd_store_prepare(s, "SELECT DISTINCT version_name FROM trace WHERE"
                                          " version_name IS NOT NULL", err);
    if (!q)
        return err->code;
    int step, rc = GD_OK;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(q, 0);
        if (!v)
            continue;
        (*n)++;
        char **slot[2] = {newest, oldest};
        for (int k = 0; k < 2 && !rc; k++) {
            int c = *slot[k] ? gd_version_cmp(v, *slot[k]) : 0;
            if (!*slot[k] || (k == 0 ? c > 0 : c < 0)) {
                free(*slot[k]);
                if (!(*slot[k] = strdup(v)))
                    rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
            }
        }
        if (rc)
            break;
    }
    if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
        rc = gd_store_fail(s, err, "database read");
    sqlite3_finalize(q);
    if (rc) {
        free(*oldest);
        free(*newest);
        *oldest = *newest = NULL;
    }
    return rc;
}

int gd_store_select_newest(gd_store *s, gd_selection *out, gd_error *err)
{
    memset(out, 0, sizeof *out);
    char *best = NULL, *oldest = NULL;
    size_t nv;
    int step, rc = gd_store_version_span(s, &oldest, &best, &nv, err);
    free(oldest);
    if (rc)
        return rc;
    sqlite3_stmt *q;
    if (best) {
        char sel[1100];
        snprintf(sel, sizeof sel, "version=%.1000s", best);
        free(best);
        return gd_store_select(s, sel, out, err);
    }
    /* no versions: every trace */
    if (!(q = gd_store_prepare(s, "SELECT id, start_ms, end_ms FROM trace ORDER BY id", err)))
        return err->code;
    size_t cap = 0;
    while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW)
        rc = sel_add(out, &cap, sqlite3_column_int64(q, 0), sqlite3_column_double(q, 1),
                     sqlite3_column_double(q, 2),
                     sqlite3_column_type(q, 1) != SQLITE_NULL && sqlite3_column_type(q, 2) != SQLITE_NULL,
                     err);
    if (!rc && step != SQLITE_DONE)
        rc = gd_store_fail(s, err, "database read");
    sqlite3_finalize(q);
    if (!rc && out->n == 0)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "no traces in the database");
    if (rc)
        gd_selection_free(out);
    return rc;
}

/* ---- samples per name, one side ----------------------------------------- */

typedef struct series {
    char *name;          /* NULL: no name (a block without key frame)      */
    double *v;           /* durations                                      */
    size_t n, cap;
    long count;          /* events (frames: frames)                        */
    long slow, frozen;   /* frames only                                    */
    double max;          /* frames only: the largest frame, NAN when none  */
} series;

typedef struct series_set {
    series *s;
    size_t n, cap;
    json_t *index;       /* key -> position */
    int oom;
} series_set;

/* Everything one side contributes. */
typedef struct side {
    const gd_selection *sel;
    series_set groups, draw, load, frames, startups, anr;
    long long_blocks;      /* blocks of kind long or anr                   */
    double cold_max;       /* slowest cold launch, NAN when none           */
} side;

static series *set_get(series_set *st, const char *name)
{
    const char *key = name ? name : "\x01(none)";
    json_t *pos = json_object_get(st->index, key);
    if (pos)
        return &st->s[json_integer_value(pos)];
    if (gd_grow((void **)&st->s, &st->cap, st->n + 1, sizeof *st->s, NULL)) {
        st->oom = 1;
        return NULL;
    }
    series *e = &st->s[st->n];
    memset(e, 0, sizeof *e);
    e->max = NAN;
    if (name && !(e->name = strdup(name))) {
        st->oom = 1;
        return NULL;
    }
    json_object_set_new(st->index, key, json_integer((json_int_t)st->n));
    st->n++;
    return e;
}

static void series_push(series_set *st, series *e, double v)
{
    if (!e)
        return;
    e->count++;
    if (isnan(v))
        return;
    if (gd_grow((void **)&e->v, &e->cap, e->n + 1, sizeof *e->v, NULL)) {
        st->oom = 1;
        return;
    }
    e->v[e->n++] = v;
}

static void set_free(series_set *st)
{
    for (size_t i = 0; i < st->n; i++) {
        free(st->s[i].name);
        free(st->s[i].v);
    }
    free(st->s);
    json_decref(st->index);
    memset(st, 0, sizeof *st);
}

static double num(const json_t *row, const char *key)
{
    json_t *v = json_object_get(row, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static int on_block(void *ctx, json_t *row)
{
    side *sd = ctx;
    series_push(&sd->groups, set_get(&sd->groups, json_string_value(json_object_get(row, "group"))),
                num(row, "duration_ms"));
    const char *kind = json_string_value(json_object_get(row, "kind"));
    if (kind && (strcmp(kind, "long") == 0 || strcmp(kind, "anr") == 0))
        sd->long_blocks++;
    return sd->groups.oom;
}

static int on_page(void *ctx, json_t *row)
{
    side *sd = ctx;
    const char *page = json_string_value(json_object_get(row, "page"));
    double d = num(row, "draw_ms"), l = num(row, "load_ms");
    if (!isnan(d))
        series_push(&sd->draw, set_get(&sd->draw, page), d);
    if (!isnan(l))
        series_push(&sd->load, set_get(&sd->load, page), l);
    return sd->draw.oom || sd->load.oom;
}

static int on_frames(void *ctx, json_t *row)
{
    side *sd = ctx;
    const char *src = json_string_value(json_object_get(row, "source"));
    if (!src || strcmp(src, "frames") != 0)
        return 0;
    series *e = set_get(&sd->frames, json_string_value(json_object_get(row, "window")));
    if (!e)
        return 1;
    double f = num(row, "frames"), sl = num(row, "slow"), fr = num(row, "frozen"), mx = num(row, "max_ms");
    e->count += isnan(f) ? 0 : (long)f;
    e->slow += isnan(sl) ? 0 : (long)sl;
    e->frozen += isnan(fr) ? 0 : (long)fr;
    if (!isnan(mx) && (isnan(e->max) || mx > e->max))
        e->max = mx;
    return 0;
}

static int on_startup(void *ctx, json_t *row)
{
    side *sd = ctx;
    const char *app = json_string_value(json_object_get(row, "app"));
    const char *kind = json_string_value(json_object_get(row, "kind"));
    char name[600];
    snprintf(name, sizeof name, "%.500s %s", app ? app : "-", kind ? kind : "unknown");
    double t = num(row, "total_ms");
    series_push(&sd->startups, set_get(&sd->startups, name), t);
    if (kind && strcmp(kind, "cold") == 0 && !isnan(t) && (isnan(sd->cold_max) || t > sd->cold_max))
        sd->cold_max = t;
    return sd->startups.oom;
}

static int on_anr(void *ctx, json_t *row)
{
    (void)row;
    side *sd = ctx;
    series *e = set_get(&sd->anr, "ANR dumps");
    if (e)
        e->count++;
    return sd->anr.oom;
}

static void side_free(side *sd)
{
    set_free(&sd->groups);
    set_free(&sd->draw);
    set_free(&sd->load);
    set_free(&sd->frames);
    set_free(&sd->startups);
    set_free(&sd->anr);
}

/* Reads everything of one selection through the listing queries. */
static int side_load(gd_store *s, const gd_selection *sel, side *sd, gd_error *err)
{
    memset(sd, 0, sizeof *sd);
    sd->sel = sel;
    sd->cold_max = NAN;
    series_set *sets[] = {&sd->groups, &sd->draw, &sd->load, &sd->frames, &sd->startups, &sd->anr};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (!(sets[i]->index = json_object()))
            return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    gd_filter f = {sel->ids, sel->n};
    gd_blocks_query bq = {.filter = f, .threshold = NAN, .kind = GD_KIND_NONE};
    gd_pages_query pq = {.filter = f, .slow_ms = NAN};
    gd_frames_query fq = {.filter = f};
    gd_startup_query sq = {.filter = f};
    int rc;
    if ((rc = gd_store_blocks_light(s, &bq, on_block, sd, err)) || (rc = gd_store_pages(s, &pq, on_page, sd, err)) ||
        (rc = gd_store_frames(s, &fq, on_frames, sd, err)) ||
        (rc = gd_store_startups(s, &sq, on_startup, sd, err)) || (rc = gd_store_anr(s, &f, on_anr, sd, err)))
        return rc;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        if (sets[i]->oom)
            return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
        for (size_t j = 0; j < sets[i]->n; j++)
            gd_stats_sort(sets[i]->s[j].v, sets[i]->s[j].n);
    }
    return GD_OK;
}

/* ---- diff rows ---------------------------------------------------------- */

typedef enum { K_GROUP, K_PAGE, K_FRAMES, K_STARTUP, K_ANR } row_kind;
static const char *const kind_names[] = {"group", "page", "frames", "startup", "anr"};

static double sum_of(const series *e)
{
    double t = 0;
    for (size_t i = 0; e && i < e->n; i++)
        t += e->v[i];
    return t;
}

static double per_min(long count, double minutes)
{
    return minutes > 0 ? (double)count / minutes : NAN;
}

static json_t *num_json(double v)
{
    return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/* Rounded to 1e-6 for stable output. */
static double r6(double v)
{
    return isnan(v) || isinf(v) ? v : round(v * 1e6) / 1e6;
}

/* A p-value with 4 significant digits. */
static json_t *p_json(double p)
{
    if (isnan(p))
        return json_null();
    char buf[32];
    snprintf(buf, sizeof buf, "%.4g", p);
    return json_real(strtod(buf, NULL));
}

static json_t *side_json(row_kind k, const series *e, double minutes)
{
    long count = e ? e->count : 0;
    json_t *o = json_object();
    json_object_set_new(o, "count", json_integer(count));
    json_object_set_new(o, "per_min", num_json(r6(per_min(count, minutes))));
    if (k == K_FRAMES) {
        json_object_set_new(o, "p50_ms", json_null());
        json_object_set_new(o, "p95_ms", json_null());
        json_object_set_new(o, "max_ms", gd_ms_json(e ? e->max : NAN));
        json_object_set_new(o, "total_ms", json_null());
        json_object_set_new(o, "slow", json_integer(e ? e->slow : 0));
        json_object_set_new(o, "frozen", json_integer(e ? e->frozen : 0));
        json_object_set_new(o, "slow_pct", num_json(count ? r6(100.0 * (double)e->slow / (double)count) : NAN));
        json_object_set_new(o, "frozen_pct",
                            num_json(count ? r6(100.0 * (double)e->frozen / (double)count) : NAN));
        return o;
    }
    int has = e && e->n;
    json_object_set_new(o, "p50_ms", gd_ms_json(has ? gd_percentile(e->v, e->n, 50) : NAN));
    json_object_set_new(o, "p95_ms", gd_ms_json(has ? gd_percentile(e->v, e->n, 95) : NAN));
    json_object_set_new(o, "max_ms", gd_ms_json(has ? e->v[e->n - 1] : NAN));
    json_object_set_new(o, "total_ms", gd_ms_json(k == K_ANR ? NAN : sum_of(e)));
    return o;
}

static double rel_change(double b, double h)
{
    return b > 0 && !isnan(h) ? r6(100.0 * (h - b) / b) : NAN;
}

typedef struct out_row {
    json_t *row;
    int changed;
    double impact;
    int kind;
    const char *name;
} out_row;

typedef struct out_rows {
    out_row *r;
    size_t n, cap;
} out_rows;

/* One row for `name` of kind k from the two sides' series (either NULL). */
static int diff_row(out_rows *out, row_kind k, const char *metric, const char *name, const series *b,
                    const series *h, const side *sb, const side *sh, double alpha, long min_samples,
                    gd_error *err)
{
    long cb = b ? b->count : 0, ch = h ? h->count : 0;
    if (cb == 0 && ch == 0)
        return GD_OK;
    double mb = sb->sel->minutes, mh = sh->sel->minutes;
    const char *status = "same", *note = NULL;
    double p = NAN, rp = NAN;
    int dir = 0; /* +1 worse, -1 better */
    if (cb == 0) {
        status = "new";
    } else if (ch == 0) {
        status = "gone";
    } else if (k == K_FRAMES) {
        if (cb < min_samples || ch < min_samples) {
            note = "too few samples";
        } else {
            p = gd_prop_test(b->slow, cb, h->slow, ch);
            rp = gd_prop_test(b->frozen, cb, h->frozen, ch);
            double sb_ = (double)b->slow / (double)cb, sh_ = (double)h->slow / (double)ch;
            double fb = (double)b->frozen / (double)cb, fh = (double)h->frozen / (double)ch;
            if (p < alpha)
                dir = sh_ > sb_ ? 1 : -1;
            else if (rp < alpha)
                dir = fh > fb ? 1 : -1;
        }
    } else {
        int dur_dir = 0, rate_dir = 0;
        if (k != K_ANR) {
            if ((long)b->n < min_samples || (long)h->n < min_samples) {
                note = "too few samples";
            } else {
                gd_mw_result mw;
                if (gd_mannwhitney(b->v, b->n, h->v, h->n, &mw))
                    return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
                p = mw.p;
                if (p < alpha)
                    dur_dir = mw.direction;
            }
        }
        /* rates: blocks and ANRs happen per minute of use; launches and
         * page visits follow the test script, so only their times count */
        if ((k == K_GROUP || k == K_ANR) && mb > 0 && mh > 0) {
            rp = gd_rate_test(cb, mb, ch, mh);
            if (rp < alpha)
                rate_dir = (double)ch / mh > (double)cb / mb ? 1 : -1;
        }
        dir = dur_dir ? dur_dir : rate_dir;
        if (dur_dir && rate_dir && dur_dir != rate_dir && mb > 0 && mh > 0) {
            /* longer but rarer (or the reverse): time lost per minute decides */
            double d = sum_of(h) / mh - sum_of(b) / mb;
            dir = d > 0 ? 1 : d < 0 ? -1 : 0;
        }
    }
    if (dir)
        status = dir > 0 ? "regressed" : "improved";

    json_t *row = json_object();
    json_object_set_new(row, "kind", json_string(kind_names[k]));
    json_object_set_new(row, "name", name ? json_string(name) : json_null());
    json_object_set_new(row, "metric", metric ? json_string(metric) : json_null());
    json_object_set_new(row, "status", json_string(status));
    json_object_set_new(row, "note", note ? json_string(note) : json_null());
    json_object_set_new(row, "base", side_json(k, b, mb));
    json_object_set_new(row, "head", side_json(k, h, mh));
    json_object_set_new(row, "p_value", p_json(p));
    json_object_set_new(row, "rate_p_value", p_json(k == K_FRAMES ? NAN : rp));
    if (k == K_FRAMES)
        json_object_set_new(row, "frozen_p_value", p_json(rp));
    double change = NAN, change95 = NAN;
    if (k == K_FRAMES) {
        if (cb && ch)
            change = rel_change((double)b->slow / (double)cb, (double)h->slow / (double)ch);
    } else if (b && h && b->n && h->n) {
        change = rel_change(gd_percentile(b->v, b->n, 50), gd_percentile(h->v, h->n, 50));
        change95 = rel_change(gd_percentile(b->v, b->n, 95), gd_percentile(h->v, h->n, 95));
    }
    json_object_set_new(row, "change_pct", num_json(change));
    json_object_set_new(row, "p95_change_pct", num_json(change95));
    double pmb = per_min(cb, mb), pmh = per_min(ch, mh);
    json_object_set_new(row, "per_min_change", num_json(r6(pmh - pmb)));
    double impact = NAN;
    if (k != K_FRAMES && k != K_ANR) {
        impact = mb > 0 && mh > 0 ? sum_of(h) / mh - sum_of(b) / mb : sum_of(h) - sum_of(b);
        json_object_set_new(row, "impact_ms_per_min", num_json(r6(impact)));
    } else {
        json_object_set_new(row, "impact_ms_per_min", json_null());
    }
    if (gd_grow((void **)&out->r, &out->cap, out->n + 1, sizeof *out->r, err)) {
        json_decref(row);
        return err->code ? err->code : GD_ERR_IO;
    }
    out->r[out->n++] = (out_row){row, strcmp(status, "same") != 0, isnan(impact) ? 0 : fabs(impact),
                                 (int)k, json_string_value(json_object_get(row, "name"))};
    return GD_OK;
}

/* Rows for every name in either side's set. */
static int diff_sets(out_rows *out, row_kind k, const char *metric, const series_set *b,
                     const series_set *h, const side *sb, const side *sh, double alpha,
                     long min_samples, gd_error *err)
{
    int rc = GD_OK;
    for (size_t i = 0; i < b->n && !rc; i++) {
        const series *e = &b->s[i];
        json_t *pos = json_object_get(h->index, e->name ? e->name : "\x01(none)");
        rc = diff_row(out, k, metric, e->name, e, pos ? &h->s[json_integer_value(pos)] : NULL, sb, sh,
                      alpha, min_samples, err);
    }
    for (size_t i = 0; i < h->n && !rc; i++) {
        const series *e = &h->s[i];
        if (!json_object_get(b->index, e->name ? e->name : "\x01(none)"))
            rc = diff_row(out, k, metric, e->name, NULL, e, sb, sh, alpha, min_samples, err);
    }
    return rc;
}

/* Changed rows first; then the time lost or won per minute; then anr,
 * frames, startup, page, group; then by name. */
static int cmp_out(const void *x, const void *y)
{
    static const int kind_rank[] = {[K_ANR] = 0, [K_FRAMES] = 1, [K_STARTUP] = 2, [K_PAGE] = 3, [K_GROUP] = 4};
    const out_row *a = x, *b = y;
    if (a->changed != b->changed)
        return a->changed ? -1 : 1;
    if (a->impact != b->impact)
        return a->impact > b->impact ? -1 : 1;
    if (a->kind != b->kind)
        return kind_rank[a->kind] - kind_rank[b->kind];
    if (!a->name || !b->name)
        return (a->name == NULL) - (b->name == NULL);
    return strcmp(a->name, b->name);
}

/* All diff rows of two loaded sides, sorted (caller frees rows). */
static int diff_collect(const side *sb, const side *sh, double alpha, long min_samples, out_rows *out,
                        gd_error *err)
{
    int rc;
    if ((rc = diff_sets(out, K_GROUP, NULL, &sb->groups, &sh->groups, sb, sh, alpha, min_samples, err)) ||
        (rc = diff_sets(out, K_PAGE, "draw", &sb->draw, &sh->draw, sb, sh, alpha, min_samples, err)) ||
        (rc = diff_sets(out, K_PAGE, "load", &sb->load, &sh->load, sb, sh, alpha, min_samples, err)) ||
        (rc = diff_sets(out, K_FRAMES, NULL, &sb->frames, &sh->frames, sb, sh, alpha, min_samples, err)) ||
        (rc = diff_sets(out, K_STARTUP, NULL, &sb->startups, &sh->startups, sb, sh, alpha, min_samples,
                        err)) ||
        (rc = diff_sets(out, K_ANR, NULL, &sb->anr, &sh->anr, sb, sh, alpha, min_samples, err)))
        return rc;
    if (out->n > 1)
        gd_sort(out->r, out->n, sizeof *out->r, cmp_out);
    return GD_OK;
}

static void out_rows_free(out_rows *o)
{
    for (size_t i = 0; i < o->n; i++)
        json_decref(o->r[i].row);
    free(o->r);
}

static void resolve(double *alpha, long *min_samples, double a, long m)
{
    *alpha = isnan(a) ? DEFAULT_ALPHA : a;
    *min_samples = m < 0 ? DEFAULT_MIN_SAMPLES : m;
}

int gd_store_diff(gd_store *s, const gd_diff_query *q, gd_row_fn fn, void *ctx, gd_error *err)
{
    double alpha;
    long min_samples;
    resolve(&alpha, &min_samples, q->alpha, q->min_samples);
    side sb, sh;
    out_rows out = {0};
    int rc = side_load(s, q->base, &sb, err);
    if (!rc)
        rc = side_load(s, q->head, &sh, err);
    else
        memset(&sh, 0, sizeof sh);
    if (!rc)
        rc = diff_collect(&sb, &sh, alpha, min_samples, &out, err);
    for (size_t i = 0; !rc && i < out.n; i++)
        if (fn(ctx, out.r[i].row))
            break;
    out_rows_free(&out);
    side_free(&sb);
    side_free(&sh);
    return rc;
}

/* ---- budgets ------------------------------------------------------------ */

typedef enum {
    R_ANR_COUNT, R_BLOCK_P95, R_LONG_PER_MIN, R_PAGE_LOAD_P95, R_STARTUP_COLD, R_SLOW_PCT,
    R_FROZEN_PCT, R_NEW_GROUPS, R_REGRESSED_GROUPS, R_COUNT
} rule_id;

static const struct {
    const char *name, *unit;
} rules[R_COUNT] = {
    {"anr_count", "ANR dumps"},     {"block_p95_ms", "ms"},    {"long_blocks_per_min", "per min"},
    {"page_load_p95_ms", "ms"},     {"startup_cold_ms", "ms"}, {"slow_frames_pct", "%"},
    {"frozen_frames_pct", "%"},     {"new_groups", "groups"},  {"regressed_groups", "groups"},
};

static int rule_of(const char *key)
{
    for (int i = 0; i < R_COUNT; i++)
        if (strcmp(rules[i].name, key) == 0)
            return i;
    return -1;
}

/* Appends `key` to a comma list in buf. */
static void name_append(char *buf, size_t n, const char *key)
{
    size_t l = strlen(buf);
    snprintf(buf + l, n - l, "%s'%.60s'", l ? ", " : "", key);
}

int gd_budget_validate(const json_t *budget, gd_error *err)
{
    if (!json_is_object(budget))
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: expected a JSON object");
    char unknown[512] = "";
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)budget, key, v) {
        if (strcmp(key, "base") == 0) {
            if (!json_is_string(v))
                return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: 'base' must be a selector string");
        } else if (strcmp(key, "alpha") == 0) {
            if (!json_is_number(v) || !(json_number_value(v) > 0 && json_number_value(v) < 1))
                return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: 'alpha' must be a number in (0, 1)");
        } else if (strcmp(key, "min_samples") == 0) {
            if (!json_is_integer(v) || json_integer_value(v) < 1)
                return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: 'min_samples' must be an integer >= 1");
        } else if (strcmp(key, "max") != 0) {
            name_append(unknown, sizeof unknown, key);
        }
    }
    json_t *max = json_object_get(budget, "max");
    if (!json_is_object(max))
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: expected a \"max\" object of rules");
    json_object_foreach(max, key, v) {
        if (rule_of(key) < 0)
            name_append(unknown, sizeof unknown, key);
        else if (!json_is_number(v) || json_number_value(v) < 0)
            return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: rule '%s' needs a number >= 0", key);
    }
    if (unknown[0])
        return gd_error_set(err, GD_ERR_USAGE, 0, 0,
                            "budget: unknown key%s %s", strchr(unknown, ',') ? "s" : "", unknown);
    return GD_OK;
}

/* p95 of every value of every series of a set (NAN when none). */
static double pooled_p95(const series_set *st, gd_error *err, int *oom)
{
    size_t n = 0;
    for (size_t i = 0; i < st->n; i++)
        n += st->s[i].n;
    if (!n)
        return NAN;
    double *v = malloc(n * sizeof *v);
    if (!v) {
        *oom = 1;
        gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
        return NAN;
    }
    size_t k = 0;
    for (size_t i = 0; i < st->n; i++)
        for (size_t j = 0; j < st->s[i].n; j++)
            v[k++] = st->s[i].v[j];
    gd_stats_sort(v, n);
    double p = gd_percentile(v, n, 95);
    free(v);
    return p;
}

static double frames_pct(const series_set *st, int frozen)
{
    long frames = 0, x = 0;
    for (size_t i = 0; i < st->n; i++) {
        frames += st->s[i].count;
        x += frozen ? st->s[i].frozen : st->s[i].slow;
    }
    return frames ? 100.0 * (double)x / (double)frames : NAN;
}

int gd_store_check(gd_store *s, const gd_check_query *q, gd_row_fn fn, void *ctx, int *broken,
                   gd_error *err)
{
    *broken = 0;
    const json_t *max = json_object_get(q->budget, "max");
    int need_base = json_object_get(max, "new_groups") || json_object_get(max, "regressed_groups");
    if (need_base && !q->base)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0,
                            "budget: new_groups and regressed_groups need \"base\" (a selector)");
    side sh, sb;
    memset(&sb, 0, sizeof sb);
    out_rows diff = {0};
    int rc = side_load(s, q->head, &sh, err);
    if (!rc && need_base) {
        rc = side_load(s, q->base, &sb, err);
        double alpha;
        long min_samples;
        json_t *a = json_object_get(q->budget, "alpha"), *m = json_object_get(q->budget, "min_samples");
        resolve(&alpha, &min_samples, a ? json_number_value(a) : NAN, m ? (long)json_integer_value(m) : -1);
        /* only group rows are counted: the other kinds need no tests */
        if (!rc)
            rc = diff_sets(&diff, K_GROUP, NULL, &sb.groups, &sh.groups, &sb, &sh, alpha, min_samples,
                           err);
    }
    int oom = 0;
    for (int r = 0; !rc && r < R_COUNT; r++) {
        json_t *lim = json_object_get(max, rules[r].name);
        if (!lim)
            continue;
        double v = NAN;
        switch ((rule_id)r) {
        case R_ANR_COUNT: v = sh.anr.n ? (double)sh.anr.s[0].count : 0; break;
        case R_BLOCK_P95: v = pooled_p95(&sh.groups, err, &oom); break;
        case R_LONG_PER_MIN: v = per_min(sh.long_blocks, q->head->minutes); break;
        case R_PAGE_LOAD_P95: v = pooled_p95(&sh.load, err, &oom); break;
        case R_STARTUP_COLD: v = sh.cold_max; break;
        case R_SLOW_PCT: v = frames_pct(&sh.frames, 0); break;
        case R_FROZEN_PCT: v = frames_pct(&sh.frames, 1); break;
        case R_NEW_GROUPS:
        case R_REGRESSED_GROUPS: {
            const char *want = r == R_NEW_GROUPS ? "new" : "regressed";
            long c = 0;
            for (size_t i = 0; i < diff.n; i++)
                if (diff.r[i].kind == K_GROUP &&
                    strcmp(json_string_value(json_object_get(diff.r[i].row, "status")), want) == 0)
                    c++;
            v = (double)c;
            break;
        }
        default: break;
        }
        if (oom) {
            rc = GD_ERR_IO;
            break;
        }
        double limit = json_number_value(lim);
        v = r6(v);
        const char *status = isnan(v) ? "no data" : v > limit ? "fail" : "pass";
        if (strcmp(status, "fail") == 0)
            (*broken)++;
        json_t *row = json_object();
        json_object_set_new(row, "rule", json_string(rules[r].name));
        json_object_set_new(row, "value", num_json(v));
        json_object_set_new(row, "limit", json_real(limit));
        json_object_set_new(row, "status", json_string(status));
        json_object_set_new(row, "unit", json_string(rules[r].unit));
        int stop = fn(ctx, row);
        json_decref(row);
        if (stop)
            break;
    }
    out_rows_free(&diff);
    side_free(&sh);
    side_free(&sb);
    return rc;
}
