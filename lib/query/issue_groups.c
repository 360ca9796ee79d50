/* issue_groups.c - the tools' findings aggregated: lock contention by owner
 * and methods, frame jank by layer and type, slow Looper messages by
 * handler, everything else by its detail. */
#include "query/issue_groups.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/blocks.h"
#include "query/issues.h"

typedef struct acc {
    json_t *by;        /* key text -> group object being filled            */
    json_t *order;     /* key texts in first-seen order                    */
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

static int on_issue(void *ctx, json_t *row)
{
    acc *a = ctx;
    char label[1200];
    json_t *key = key_of(row, label, sizeof label);
    if (!key)
        return 1;
    char *kt = json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS);
    const char *tool = str(row, "tool") ? str(row, "tool") : "", *type = str(row, "type") ? str(row, "type") : "";
    size_t kn = strlen(tool) + strlen(type) + (kt ? strlen(kt) : 0) + 3;
    char *k = malloc(kn);
    if (!kt || !k) {
        free(kt);
        free(k);
        json_decref(key);
        return 1;
    }
    snprintf(k, kn, "%s|%s|%s", tool, type, kt);
    free(kt);
    json_t *g = json_object_get(a->by, k);
    if (!g) {
        g = json_pack("{s:s s:s s:o s:s s:i s:f s:n s:O s:O s:{}}", "tool", tool, "type", type, "key", key,
                      "label", label, "count", 0, "total_ms", 0.0, "max_ms", "first_ms",
                      json_object_get(row, "ts_ms"), "last_ms", json_object_get(row, "ts_ms"), "traces");
        key = NULL;
        if (!g || json_object_set_new(a->by, k, g) || json_array_append_new(a->order, json_string(k))) {
            free(k);
            return 1;
        }
    }
    json_decref(key);
    free(k);
    json_object_set_new(g, "count", json_integer(json_integer_value(json_object_get(g, "count")) + 1));
    json_t *cost = json_object_get(row, "cost_ms");
    if (json_is_number(cost)) {
        double c = json_number_value(cost);
        json_object_set_new(g, "total_ms", json_real(json_number_value(json_object_get(g, "total_ms")) + c));
        json_t *mx = json_object_get(g, "max_ms");
        if (!json_is_number(mx) || c > json_number_value(mx))
            json_object_set_new(g, "max_ms", json_real(c));
    }
    json_t *ts = json_object_get(row, "ts_ms");
    if (json_is_number(ts)) {
        json_t *first = json_object_get(g, "first_ms"), *last = json_object_get(g, "last_ms");
        if (!json_is_number(first) || json_number_value(ts) < json_number_value(first))
            json_object_set(g, "first_ms", ts);
        if (!json_is_number(last) || json_number_value(ts) > json_number_value(last))
            json_object_set(g, "last_ms", ts);
    }
    char tr[32];
    snprintf(tr, sizeof tr, "%lld", (long long)json_integer_value(json_object_get(row, "trace")));
    json_object_set_new(json_object_get(g, "traces"), tr, json_true());
    return 0;
}

static int by_total(const void *x, const void *y)
{
    json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
    double ta = json_number_value(json_object_get(a, "total_ms")), tb = json_number_value(json_object_get(b, "total_ms"));
    if (ta != tb)
        return ta > tb ? -1 : 1;
    json_int_t ca = json_integer_value(json_object_get(a, "count")), cb = json_integer_value(json_object_get(b, "count"));
    if (ca != cb)
        return ca > cb ? -1 : 1;
    int t = strcmp(str(a, "type"), str(b, "type"));
    return t ? t : strcmp(str(a, "label"), str(b, "label"));
}

int gd_query_issue_groups(gd_store *s, const gd_filter *f, const char *tool, gd_row_fn fn, void *ctx,
                          gd_error *err)
{
    acc a = {json_object(), json_array()};
    int rc = gd_query_issues(s, f, tool, on_issue, &a, err);
    size_t n = json_array_size(a.order);
    json_t **v = n ? calloc(n, sizeof *v) : NULL;
    if (!rc && n && !v)
        rc = gd_error_oom(err);
    for (size_t i = 0; !rc && i < n; i++) {
        v[i] = json_object_get(a.by, json_string_value(json_array_get(a.order, i)));
        json_t *traces = json_object_get(v[i], "traces");
        json_object_set_new(v[i], "traces", json_integer((json_int_t)json_object_size(traces)));
        json_t *mx = json_object_get(v[i], "max_ms");
        if (!json_is_number(mx)) /* no finding of the group has a cost */
            json_object_set_new(v[i], "total_ms", json_null());
        else
            json_object_set_new(v[i], "total_ms",
                                json_real(round(json_number_value(json_object_get(v[i], "total_ms")) * 1000) / 1000));
    }
    if (!rc && n) /* a group without a cost (total_ms null) sorts as 0 */
        qsort(v, n, sizeof *v, by_total);
    for (size_t i = 0; !rc && i < n; i++)
        if (fn(ctx, v[i]))
            break;
    free(v);
    json_decref(a.by);
    json_decref(a.order);
    return rc;
}
