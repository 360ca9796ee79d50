/* issue_groups.c - the tools' findings aggregated: lock contention by owner
 * and methods, frame jank by layer and type, slow Looper messages by
 * handler, everything else by its detail. */
#include "query/issue_groups.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/blocks.h"
#include "core/util.h"
#include "query/issues.h"

enum { GD_ISSUE_GROUPS_COLS(GD_QC_ID, GD_QC_ID) IG_NCOLS };
GD_QCOLS_DEFINE(group_cols, GD_ISSUE_GROUPS_COLS);

/* One group being filled. */
typedef struct igroup {
    char *tool, *type, *label;
    json_t *key;
    int64_t count, traces, last_trace;
    size_t seq;         /* first seen as the seq-th group                  */
    double total, max;  /* max NAN: no finding with a cost yet            */
    double first, last; /* NAN: no time yet                              */
} igroup;

typedef struct acc {
    json_t *by;        /* key text -> the group's index in g              */
    igroup *g;         /* the groups in first-seen order                  */
    size_t n, cap;
    gd_error *err;
    int oom;
} acc;

static const char *str(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* The "a+b" text of a JSON array of strings (frame jank's jank names). */
static void joined(const json_t *arr, char *buf, size_t n)
{
    size_t o = 0, i;
    json_t *e;
    buf[0] = 0;
    json_array_foreach(arr, i, e) {
        const char *t = json_string_value(e);
        if (!t)
            continue;
        int k = snprintf(buf + o, n - o, "%s%s", o ? "+" : "", t);
        if (k < 0 || (size_t)k >= n - o)
            break;
        o += (size_t)k;
    }
}

/* The group key of one finding (an object of the fields that make it) and
 * its one-line label. */
static json_t *key_of(const json_t *row, char *label, size_t n)
{
    const char *type = str(row, "type") ? str(row, "type") : "";
    const json_t *c = json_object_get(row, "content");
    const char *detail = str(row, "detail");
    if (strcmp(type, "lock_contention") == 0) {
        const char *owner = str(c, "owner"), *om = str(c, "owner_method"), *bm = str(c, "blocked_method");
        int main_thread = json_is_true(json_object_get(c, "main"));
        snprintf(label, n, "%s waits for %.200s (in %.300s) at %.300s", main_thread ? "main" : "a thread",
                 owner ? owner : "?", om ? om : "?", bm ? bm : "?");
        return json_pack("{s:o s:o s:o s:b}", "owner", owner ? json_string(owner) : json_null(), "owner_method",
                         om ? json_string(om) : json_null(), "blocked_method",
                         bm ? json_string(bm) : json_null(), "main", main_thread);
    }
    if (strcmp(type, "frame_jank") == 0) {
        const char *layer = str(c, "layer") ? str(c, "layer") : detail;
        char jank[512];
        joined(json_object_get(c, "jank"), jank, sizeof jank);
        snprintf(label, n, "%.500s: %s", layer ? layer : "?", jank[0] ? jank : "jank");
        return json_pack("{s:o s:s}", "layer", layer ? json_string(layer) : json_null(), "jank",
                         jank[0] ? jank : "jank");
    }
    const char *msg = str(c, "msg");
    char grp[1024];
    if (msg && gd_group_fallback(msg, grp, sizeof grp) == GD_GROUP_HANDLER) {
        snprintf(label, n, "%s", grp);
        return json_pack("{s:s}", "handler", grp);
    }
    if (strcmp(type, "skipped_frames") == 0) {
        snprintf(label, n, "pid %lld", (long long)json_integer_value(json_object_get(row, "pid")));
        return json_pack("{s:O}", "pid", json_object_get(row, "pid"));
    }
    snprintf(label, n, "%.900s", detail ? detail : "-");
    return json_pack("{s:o}", "detail", detail ? json_string(detail) : json_null());
}

/* The group of key text k, made (a new group of the row's tool and type,
 * with its key, taken) when it is not there yet; NULL when out of memory. */
static igroup *group_of(acc *a, const char *k, const char *tool, const char *type, json_t *key,
                        const char *label)
{
    json_t *at = json_object_get(a->by, k);
    if (at) {
        json_decref(key);
        return &a->g[json_integer_value(at)];
    }
    if (gd_grow((void **)&a->g, &a->cap, a->n + 1, sizeof *a->g, a->err) ||
        json_object_set_new(a->by, k, json_integer((json_int_t)a->n))) {
        json_decref(key);
        return NULL;
    }
    igroup *g = &a->g[a->n++];
    *g = (igroup){strdup(tool), strdup(type), strdup(label), key, 0, 0, -1, a->n - 1, 0, NAN, NAN, NAN};
    return g->tool && g->type && g->label ? g : NULL;
}

/* The group key text of a row: "tool|type|key" (malloc'ed; NULL when out
 * of memory). */
static char *key_text(const char *tool, const char *type, const json_t *key)
{
    char *kt = json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS);
    size_t kn = strlen(tool) + strlen(type) + (kt ? strlen(kt) : 0) + 3;
    char *k = kt ? malloc(kn) : NULL;
    if (k)
        snprintf(k, kn, "%s|%s|%s", tool, type, kt);
    free(kt);
    return k;
}

static int on_issue(void *ctx, json_t *row)
{
    acc *a = ctx;
    char label[1200];
    json_t *key = key_of(row, label, sizeof label);
    const char *tool = str(row, "tool") ? str(row, "tool") : "", *type = str(row, "type") ? str(row, "type") : "";
    char *k = key ? key_text(tool, type, key) : NULL;
    igroup *g = k ? group_of(a, k, tool, type, key, label) : (json_decref(key), NULL);
    free(k);
    if (!g)
        return a->oom = 1;
    g->count++;
    json_t *cost = json_object_get(row, "cost_ms");
    if (json_is_number(cost)) {
        double c = json_number_value(cost);
        g->total += c;
        if (isnan(g->max) || c > g->max)
            g->max = c;
    }
    json_t *ts = json_object_get(row, "ts_ms");
    if (json_is_number(ts)) {
        double t = json_number_value(ts);
        if (isnan(g->first) || t < g->first)
            g->first = t;
        if (isnan(g->last) || t > g->last)
            g->last = t;
    }
    /* the rows come by trace (gd_query_issues): a new trace is a change */
    int64_t tr = json_integer_value(json_object_get(row, "trace"));
    g->traces += g->count == 1 || tr != g->last_trace;
    g->last_trace = tr;
    return 0;
}

/* A real, or null when NAN. */
static void real_or_null(gd_value *v, double d)
{
    if (isnan(d))
        gd_qv_null(v);
    else
        gd_qv_real(v, d);
}

/* The group's row (gd_qcols_json's); NULL when out of memory. */
static json_t *group_row(const igroup *g)
{
    gd_value v[IG_NCOLS];
    gd_qv_text(&v[IG_TOOL], g->tool);
    gd_qv_text(&v[IG_TYPE], g->type);
    gd_qv_json(&v[IG_KEY], g->key); /* borrowed: the group keeps it */
    gd_qv_text(&v[IG_LABEL], g->label);
    gd_qv_int(&v[IG_COUNT], g->count);
    /* no finding of the group has a cost: null */
    real_or_null(&v[IG_TOTAL], isnan(g->max) ? NAN : round(g->total * 1000) / 1000);
    real_or_null(&v[IG_MAX], g->max);
    real_or_null(&v[IG_FIRST], g->first);
    real_or_null(&v[IG_LAST], g->last);
    gd_qv_int(&v[IG_TRACES], g->traces);
    return gd_qcols_json(&group_cols, v);
}

/* The total as the row says it (null: 0). */
static double row_total(const igroup *g)
{
    return isnan(g->max) ? 0 : round(g->total * 1000) / 1000;
}

static int by_total(const void *x, const void *y)
{
    const igroup *a = x, *b = y;
    double ta = row_total(a), tb = row_total(b);
    if (ta != tb)
        return ta > tb ? -1 : 1;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    int t = strcmp(a->type, b->type);
    if (!t)
        t = strcmp(a->label, b->label);
    return t ? t : a->seq < b->seq ? -1 : a->seq > b->seq; /* as first seen (a stable sort's) */
}

int gd_query_issue_groups(gd_store *s, const gd_filter *f, const char *tool, gd_row_fn fn, void *ctx,
                          gd_error *err)
{
    acc a = {json_object(), NULL, 0, 0, err, 0};
    int rc = a.by ? gd_query_issues(s, f, tool, on_issue, &a, err) : gd_error_oom(err);
    if (!rc && a.oom)
        rc = gd_error_oom(err);
    if (!rc) /* a group without a cost (total_ms null) sorts as 0 */
        gd_sort(a.g, a.n, sizeof *a.g, by_total);
    for (size_t i = 0; !rc && i < a.n; i++) {
        json_t *row = group_row(&a.g[i]);
        if (!row)
            rc = gd_error_oom(err);
        int stop = row && fn(ctx, row);
        json_decref(row);
        if (stop)
            break;
    }
    for (size_t i = 0; i < a.n; i++) {
        free(a.g[i].tool);
        free(a.g[i].type);
        free(a.g[i].label);
        json_decref(a.g[i].key);
    }
    free(a.g);
    json_decref(a.by);
    return rc;
}
