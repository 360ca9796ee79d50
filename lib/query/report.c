/* report.c - assembles the report document from the store's bounded queries. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/vitals.h"
#include "query/blocks.h"
#include "query/diff.h"
#include "query/diffstacks.h"
#include "query/issues.h"
#include "query/report_series.h"
#include "query/startup.h"
#include "query/report_int.h"
#include "query/top.h"
#include "query/views.h"

/* A timeline's bins, blocks and page events are capped per trace and, so
 * that a database of many traces still makes a page of bounded size, shared
 * out of a page-wide budget once there are more than a few timelines. */
enum {
    TIMELINES = 100,
    TIMELINE_BINS = 2000,
    TIMELINE_BLOCKS = 5000,
    TIMELINE_PAGE_EVENTS = 5000,
    PAGE_TIMELINE_BINS = 20000,
    PAGE_TIMELINE_BLOCKS = 20000,
    PAGE_TIMELINE_EVENTS = 20000,
    TIMELINE_MIN_BINS = 500,
    TIMELINE_MIN_BLOCKS = 200,
    WORST_BLOCKS = 10,
    GROUPS = 100,
    FLAME_GROUPS = 50,
    FLAME_BLOCKS = 20,
    FLAME_SAMPLES = 30,
    PAGES = 500,
    DUMPS = 20,
    IMAGES = 200,
    STARTUPS = 500,
    ANRS = 50,
    ANR_GROUPS = 20,
    ISSUES = 300,
};

#define FLAME_PRUNE 0.005

typedef struct capped {
    json_t *arr;
    size_t max;
    size_t seen;
} capped;

/* Row sink appending copies into an array, counting past the cap. */
static int append_capped(void *ctx, json_t *row)
{
    capped *c = ctx;
    c->seen++;
    if (c->arr && json_array_size(c->arr) < c->max)
        json_array_append_new(c->arr, json_deep_copy(row));
    return 0;
}

/* Row sink for one read of the findings: every issue (capped), and the
 * lock-contention ones also on their own list. */
typedef struct issues_and_locks {
    capped issues, locks;
} issues_and_locks;

static int append_issue(void *ctx, json_t *row)
{
    issues_and_locks *t = ctx;
    const char *ty = json_string_value(json_object_get(row, "type"));
    if (ty && strcmp(ty, "lock_contention") == 0)
        append_capped(&t->locks, row);
    return append_capped(&t->issues, row);
}

static const char *rating(json_t *v)
{
    if (!json_is_number(v))
        return NULL;
    double ms = json_number_value(v);
    return ms <= GD_REPORT_PAGE_OK_MS ? "ok" : ms <= GD_REPORT_PAGE_SLOW_MS ? "warn" : "slow";
}

static void rate_pages(json_t *pages)
{
    size_t i;
    json_t *p;
    json_array_foreach(pages, i, p) {
        const char *d = rating(json_object_get(p, "draw_ms")), *l = rating(json_object_get(p, "load_ms"));
        json_object_set_new(p, "draw_rating", d ? json_string(d) : json_null());
        json_object_set_new(p, "load_rating", l ? json_string(l) : json_null());
    }
}

/* Row sink for the timelines: appends up to the cap, then stops the query
 * (a timeline past the cap is not built). */
static int append_upto(void *ctx, json_t *row)
{
    capped *c = ctx;
    c->seen++;
    json_array_append(c->arr, row);
    return json_array_size(c->arr) >= c->max;
}

/* One timeline's share of a page-wide budget, within [lo, hi]. */
static int share(int budget, size_t n, int lo, int hi)
{
    size_t v = n ? (size_t)budget / n : (size_t)hi;
    return v < (size_t)lo ? lo : v > (size_t)hi ? hi : (int)v;
}

/* doc.timelines: one per trace, the first TIMELINES of them. */
/* #47: the frames of report --app PKG into c: every window of the traces
 * where the app is known (doc.traces), so that other processes' windows
 * fold under "Other processes" (report_focus.c) instead of being left
 * out; f's own without --app or when no trace is listed. */
static int frame_rows(gd_store *s, const gd_filter *f, const json_t *doc, capped *c, gd_error *err)
{
    const json_t *ts = json_object_get(doc, "traces");
    size_t n = f && f->app ? json_array_size(ts) : 0;
    int64_t *ids = n ? malloc(n * sizeof *ids) : NULL;
    if (n && !ids)
        return gd_error_oom(err);
    for (size_t i = 0; i < n; i++)
        ids[i] = json_integer_value(json_object_get(json_array_get(ts, i), "trace"));
    gd_filter all = {ids, n, NULL};
    int rc = gd_query_frame_stats(s, n ? &all : f, append_capped, c, err);
    free(ids);
    return rc;
}

static int add_timelines(gd_store *s, const gd_filter *f, json_t *doc, gd_error *err)
{
    json_int_t traces = json_integer_value(json_object_get(json_object_get(doc, "summary"), "traces"));
    size_t n = traces < TIMELINES ? (size_t)(traces > 0 ? traces : 0) : TIMELINES;
    capped c = {json_array(), TIMELINES, 0};
    json_object_set_new(doc, "timelines", c.arr);
    json_object_set_new(doc, "timelines_total", json_integer(traces));
    if (!n)
        return GD_OK;
    return gd_query_timelines(s, f, share(PAGE_TIMELINE_BINS, n, TIMELINE_MIN_BINS, TIMELINE_BINS),
                              share(PAGE_TIMELINE_BLOCKS, n, TIMELINE_MIN_BLOCKS, TIMELINE_BLOCKS),
                              share(PAGE_TIMELINE_EVENTS, n, TIMELINE_MIN_BLOCKS, TIMELINE_PAGE_EVENTS),
                              append_upto, &c, err);
}

/* Rows of the version comparison that changed (capped), and a count of the
 * others. */
typedef struct changed_rows {
    capped c;
    long same, inconclusive;
} changed_rows;

static int append_changed(void *ctx, json_t *row)
{
    changed_rows *v = ctx;
    const char *st = json_string_value(json_object_get(row, "status"));
    if (st && strcmp(st, "same") == 0) {
        v->same++;
        return 0;
    }
    if (st && strcmp(st, "inconclusive") == 0) {
        v->inconclusive++;
        return 0;
    }
    return append_capped(&v->c, row);
}

/* doc.versions: the oldest and the newest app version in the store compared
 * as `godeye diff version=OLD version=NEW` does, when there are two or
 * more; null otherwise. */
static int add_versions(gd_store *s, json_t *doc, gd_error *err)
{
    char *oldest = NULL, *newest = NULL;
    size_t nv = 0;
    int rc = gd_query_version_span(s, &oldest, &newest, &nv, err);
    if (rc || nv < 2 || !oldest || !newest) {
        json_object_set_new(doc, "versions", json_null());
        free(oldest);
        free(newest);
        return rc;
    }
    char bsel[1100], hsel[1100];
    snprintf(bsel, sizeof bsel, "version=%.1000s", oldest);
    snprintf(hsel, sizeof hsel, "version=%.1000s", newest);
    gd_selection base = {0}, head = {0};
    changed_rows v = {{json_array(), 50, 0}, 0, 0};
    if (!(rc = gd_query_select(s, bsel, &base, err)) && !(rc = gd_query_select(s, hsel, &head, err))) {
        gd_diff_query q = {.base = &base, .head = &head, .alpha = NAN, .min_samples = -1};
        rc = gd_query_diff(s, &q, append_changed, &v, err);
    }
    json_t *flame = NULL; /* #52: the differential flame graph */
    if (!rc)
        rc = gd_query_diffstacks_flame(s, &base, &head, &flame, err);
    if (!rc)
        json_object_set_new(doc, "versions",
                            json_pack("{s:s s:s s:I s:O s:I s:I s:I}", "base", oldest, "head", newest,
                                      "count", (json_int_t)nv, "changed", v.c.arr, "changed_total",
                                      (json_int_t)v.c.seen, "same", (json_int_t)v.same, "inconclusive",
                                      (json_int_t)v.inconclusive));
    if (!rc && flame)
        json_object_set_new(json_object_get(doc, "versions"), "flame", flame);
    else
        json_decref(flame);
    json_decref(v.c.arr);
    gd_selection_free(&base);
    gd_selection_free(&head);
    free(oldest);
    free(newest);
    return rc;
}

/* Runs one query into doc[key] (capped) and doc[key_total] when given. */
#define LIST(key, total_key, max, call)                                  \
    do {                                                                 \
        capped c = {json_array(), (max), 0};                             \
        json_object_set_new(doc, (key), c.arr);                          \
        if ((rc = (call)))                                               \
            goto fail;                                                   \
        if (total_key)                                                   \
            json_object_set_new(doc, (total_key), json_integer((json_int_t)c.seen)); \
    } while (0)

/* Entries of the fix-first list the report shows (godeye top --limit). */
#define REPORT_TOP 10

int gd_report_build(gd_store *s, const gd_report_opts *o, json_t **out, gd_error *err)
{
    *out = NULL;
    json_t *doc = json_object();
    int rc;
    const gd_filter *f = &o->filter;
    json_object_set_new(doc, "report_version", json_integer(1));
    {
        capped c = {json_array(), 1, 0};
        if ((rc = gd_query_report_counts(s, f, append_capped, &c, err))) {
            json_decref(c.arr);
            goto fail;
        }
        json_object_set(doc, "summary", json_array_get(c.arr, 0));
        json_decref(c.arr);
    }
    {
        /* #28: the ANR count is the one every output gives (gd_query_anr_count);
         * the ANR-kind blocks alone stay as anr_blocks */
        gd_anr_counts ac;
        if ((rc = gd_query_anr_count(s, f, &ac, err)))
            goto fail;
        json_t *m = json_object_get(doc, "summary");
        json_object_set_new(m, "anr", json_integer(ac.total));
        json_object_set_new(m, "anr_dumps", json_integer(ac.dumps));
        json_object_set_new(m, "anr_blocks", json_integer(ac.blocks));
        json_object_set_new(m, "snapshot_dumps", json_integer(ac.snapshots));
    }
    json_object_set_new(doc, "thresholds",
                        json_pack("{s:f s:f s:f s:f s:f}", "page_ok_ms", GD_REPORT_PAGE_OK_MS,
                                  "page_slow_ms", GD_REPORT_PAGE_SLOW_MS, "startup_cold_ms",
                                  gd_startup_bar_ms("cold"), "startup_warm_ms",
                                  gd_startup_bar_ms("warm"), "startup_hot_ms", gd_startup_bar_ms("hot")));
    LIST("traces", NULL, 1000, gd_query_traces(s, f, append_capped, &c, err));
    { /* what to fix first (godeye top): the report's first section */
        json_t *top = NULL;
        if ((rc = gd_top_build(s, f, REPORT_TOP, &top, err)))
            goto fail;
        json_object_set(doc, "top", json_object_get(top, "entries"));
        json_object_set(doc, "top_more", json_object_get(top, "more"));
        json_decref(top);
    }
    LIST("worst_blocks", NULL, WORST_BLOCKS, gd_query_worst_blocks(s, f, WORST_BLOCKS, append_capped, &c, err));
    if (o->full) {
        if ((rc = add_timelines(s, f, doc, err)))
            goto fail;
        gd_flame_query fq = {*f, FLAME_PRUNE, FLAME_BLOCKS, FLAME_SAMPLES, FLAME_GROUPS};
        LIST("flames", NULL, FLAME_GROUPS, gd_query_group_flames(s, &fq, append_capped, &c, err));
    }
    gd_blocks_query bq = {.filter = *f, .threshold = NAN, .kind = GD_KIND_NONE};
    LIST("groups", "groups_total", GROUPS, gd_query_block_groups(s, &bq, append_capped, &c, err));
    gd_pages_query pq = {.filter = *f, .slow_ms = NAN};
    LIST("pages", "pages_total", o->full ? PAGES : 0, gd_query_pages(s, &pq, append_capped, &c, err));
    pq.slow_ms = GD_REPORT_PAGE_OK_MS;
    LIST("slow_pages", "slow_pages_total", 50, gd_query_pages(s, &pq, append_capped, &c, err));
    rate_pages(json_object_get(doc, "pages"));
    rate_pages(json_object_get(doc, "slow_pages"));
    LIST("overdraw", "overdraw_total", DUMPS, gd_query_overdraw(s, f, o->full, append_capped, &c, err));
    if (!o->full) { /* the areas are for drawing */
        size_t i;
        json_t *d;
        json_array_foreach(json_object_get(doc, "overdraw"), i, d)
            json_object_del(d, "areas");
    }
    gd_images_query iq = {.filter = *f, .high = NAN, .low = NAN};
    LIST("images", "images_total", IMAGES, gd_query_images(s, &iq, append_capped, &c, err));
    LIST("frames", NULL, 1000, frame_rows(s, f, doc, &c, err));
    gd_startup_query sq = {.filter = *f, .breakdown = 1}; /* #27: one subquery per launch */
    LIST("startups", "startups_total", STARTUPS, gd_query_startups(s, &sq, append_capped, &c, err));
    {
        /* the ANR dumps first, then the snapshots that show a lock wait or
         * a deadlock; the quiet snapshots are counted, not listed (#28) */
        gd_anr_counts folded = {0};
        gd_anr_query aq = {.filter = *f, .counts = &folded};
        LIST("anrs", "anrs_total", ANRS, gd_query_anr_list(s, &aq, append_capped, &c, err));
        json_object_set_new(doc, "anrs_quiet", json_integer(folded.folded));
        /* #48: the ANRs of record in groups of one signature (anr --group) */
        gd_anr_query gq = {.filter = *f, .all = 1};
        LIST("anr_groups", "anr_groups_total", ANR_GROUPS, gd_query_anr_groups(s, &gq, append_capped, &c, err));
    }
    {
        issues_and_locks t = {{json_array(), ISSUES, 0}, {json_array(), ISSUES, 0}};
        json_object_set_new(doc, "issues", t.issues.arr);
        json_object_set_new(doc, "locks", t.locks.arr);
        if ((rc = gd_query_issues(s, f, NULL, append_issue, &t, err)))
            goto fail;
        json_object_set_new(doc, "issues_total", json_integer((json_int_t)t.issues.seen));
        json_object_set_new(doc, "locks_total", json_integer((json_int_t)t.locks.seen));
    }
    if ((rc = add_versions(s, doc, err)) || (rc = gd_report_focus(s, f, doc, err)))
        goto fail;
    *out = doc;
    return GD_OK;
fail:
    json_decref(doc);
    return rc;
}
