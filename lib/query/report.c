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
 * where the app is known (ts, doc.traces), so that other processes' windows
 * fold under "Other processes" (report_focus.c) instead of being left
 * out; f's own without --app or when no trace is listed. */
static int frame_rows(gd_store *s, const gd_filter *f, const json_t *ts, capped *c, gd_error *err)
{
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

enum { GD_REPORT_DOC_COLS(GD_QC_ID, GD_QC_ID) RP_NCOLS };
GD_QCOLS_DEFINE(doc_cols, GD_REPORT_DOC_COLS);
enum { GD_REPORT_ANR_COLS(GD_QC_ID, GD_QC_ID) RA_NCOLS };
GD_QCOLS_DEFINE(anr_cols, GD_REPORT_ANR_COLS);
enum { GD_REPORT_BAR_COLS(GD_QC_ID, GD_QC_ID) RBAR_NCOLS };
GD_QCOLS_DEFINE(bar_cols, GD_REPORT_BAR_COLS);

/* The document's JSON value of field id, NULL when none. */
#define DOC(id) (d[id].kind == GD_V_JSON ? d[id].u.json : NULL)

/* d's timelines and timelines_total: one per trace (summary.traces of
 * them), the first TIMELINES. */
static int add_timelines(gd_store *s, const gd_filter *f, gd_value *d, gd_error *err)
{
    json_int_t traces = json_integer_value(json_object_get(DOC(RP_SUMMARY), "traces"));
    size_t n = traces < TIMELINES ? (size_t)(traces > 0 ? traces : 0) : TIMELINES;
    capped c = {json_array(), TIMELINES, 0};
    gd_qv_json(&d[RP_TIMELINES], c.arr);
    gd_qv_int(&d[RP_TIMELINES_TOTAL], traces);
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

enum { GD_REPORT_VERSIONS_COLS(GD_QC_ID, GD_QC_ID) RV_NCOLS };
GD_QCOLS_DEFINE(versions_cols, GD_REPORT_VERSIONS_COLS);

/* *v, doc.versions: the oldest and the newest app version in the store
 * compared as `godeye diff version=OLD version=NEW` does, when there are
 * two or more; null otherwise. */
static int add_versions(gd_store *s, gd_value *v, gd_error *err)
{
    char *oldest = NULL, *newest = NULL;
    size_t nv = 0;
    int rc = gd_query_version_span(s, &oldest, &newest, &nv, err);
    gd_qv_null(v);
    if (rc || nv < 2 || !oldest || !newest) {
        free(oldest);
        free(newest);
        return rc;
    }
    char bsel[1100], hsel[1100];
    snprintf(bsel, sizeof bsel, "version=%.1000s", oldest);
    snprintf(hsel, sizeof hsel, "version=%.1000s", newest);
    gd_selection base = {0}, head = {0};
    changed_rows ch = {{json_array(), 50, 0}, 0, 0};
    if (!(rc = gd_query_select(s, bsel, &base, err)) && !(rc = gd_query_select(s, hsel, &head, err))) {
        gd_diff_query q = {.base = &base, .head = &head, .alpha = NAN, .min_samples = -1};
        rc = gd_query_diff(s, &q, append_changed, &ch, err);
    }
    json_t *flame = NULL; /* #52: the differential flame graph */
    if (!rc)
        rc = gd_query_diffstacks_flame(s, &base, &head, &flame, err);
    if (!rc) {
        gd_value f[RV_NCOLS];
        gd_qv_text(&f[RV_BASE], oldest);
        gd_qv_text(&f[RV_HEAD], newest);
        gd_qv_int(&f[RV_COUNT], (int64_t)nv);
        gd_qv_json(&f[RV_CHANGED], ch.c.arr);
        gd_qv_int(&f[RV_CHANGED_TOTAL], (int64_t)ch.c.seen);
        gd_qv_int(&f[RV_SAME], ch.same);
        gd_qv_int(&f[RV_INCONCLUSIVE], ch.inconclusive);
        if (flame)
            gd_qv_json(&f[RV_FLAME], flame);
        else
            gd_qv_absent(&f[RV_FLAME]);
        gd_qv_json(v, gd_qcols_json(&versions_cols, f));
        gd_qcols_clear(&versions_cols, f); /* changed and flame: the object's now */
    } else {
        json_decref(ch.c.arr);
        json_decref(flame);
    }
    gd_selection_free(&base);
    gd_selection_free(&head);
    free(oldest);
    free(newest);
    return rc;
}

/* Runs one query into field id of the document d (capped) and its total
 * (field total_id) when total_id >= 0. */
#define LIST(id, total_id, max, call)                                    \
    do {                                                                 \
        capped c = {json_array(), (max), 0};                             \
        gd_qv_json(&d[id], c.arr);                                       \
        if ((rc = (call)))                                               \
            goto fail;                                                   \
        if ((total_id) >= 0)                                             \
            gd_qv_int(&d[(total_id) >= 0 ? (total_id) : 0], (int64_t)c.seen); \
    } while (0)

/* Entries of the fix-first list the report shows (godeye top --limit). */
#define REPORT_TOP 10

/* d's summary, with the ANR counts of every output (#28:
 * gd_query_anr_count; the ANR-kind blocks alone stay as anr_blocks), and
 * the bars it rates by. */
static int report_summary(gd_store *s, const gd_filter *f, gd_value *d, gd_error *err)
{
    capped c = {json_array(), 1, 0};
    int rc = gd_query_report_counts(s, f, append_capped, &c, err);
    json_t *sum = json_array_get(c.arr, 0);
    if (sum)
        gd_qv_json(&d[RP_SUMMARY], json_incref(sum));
    json_decref(c.arr);
    gd_anr_counts ac;
    if (rc || (rc = gd_query_anr_count(s, f, &ac, err)))
        return rc;
    gd_value a[RA_NCOLS], b[RBAR_NCOLS];
    gd_qv_int(&a[RA_ANR], ac.total);
    gd_qv_int(&a[RA_DUMPS], ac.dumps);
    gd_qv_int(&a[RA_BLOCKS], ac.blocks);
    gd_qv_int(&a[RA_SNAPSHOTS], ac.snapshots);
    json_t *anr = gd_qcols_json(&anr_cols, a);
    json_object_update(sum, anr);
    json_decref(anr);
    gd_qv_real(&b[RBAR_PAGE_OK], GD_REPORT_PAGE_OK_MS);
    gd_qv_real(&b[RBAR_PAGE_SLOW], GD_REPORT_PAGE_SLOW_MS);
    gd_qv_real(&b[RBAR_COLD], gd_startup_bar_ms("cold"));
    gd_qv_real(&b[RBAR_WARM], gd_startup_bar_ms("warm"));
    gd_qv_real(&b[RBAR_HOT], gd_startup_bar_ms("hot"));
    gd_qv_json(&d[RP_THRESHOLDS], gd_qcols_json(&bar_cols, b));
    return GD_OK;
}

/* d's top and top_more: what to fix first (godeye top), the report's
 * first section. */
static int report_top(gd_store *s, const gd_filter *f, gd_value *d, gd_error *err)
{
    json_t *top = NULL;
    int rc = gd_top_build(s, f, REPORT_TOP, &top, err);
    if (rc)
        return rc;
    json_t *e = json_object_get(top, "entries"), *more = json_object_get(top, "more");
    if (e)
        gd_qv_json(&d[RP_TOP], json_incref(e));
    if (more)
        gd_qv_json(&d[RP_TOP_MORE], json_incref(more));
    json_decref(top);
    return GD_OK;
}

/* d's issues and locks (one read of the findings), with their totals. */
static int report_issues(gd_store *s, const gd_filter *f, gd_value *d, gd_error *err)
{
    issues_and_locks t = {{json_array(), ISSUES, 0}, {json_array(), ISSUES, 0}};
    gd_qv_json(&d[RP_ISSUES], t.issues.arr);
    gd_qv_json(&d[RP_LOCKS], t.locks.arr);
    int rc = gd_query_issues(s, f, NULL, append_issue, &t, err);
    gd_qv_int(&d[RP_ISSUES_TOTAL], (int64_t)t.issues.seen);
    gd_qv_int(&d[RP_LOCKS_TOTAL], (int64_t)t.locks.seen);
    return rc;
}

/* d's pages and slow pages, rated. */
static int report_pages(gd_store *s, const gd_report_opts *o, gd_value *d, gd_error *err)
{
    int rc;
    gd_pages_query pq = {.filter = o->filter, .min_ms = NAN, .over_ms = NAN};
    LIST(RP_PAGES, RP_PAGES_TOTAL, o->full ? PAGES : 0, gd_query_pages(s, &pq, append_capped, &c, err));
    pq.over_ms = GD_REPORT_PAGE_OK_MS; /* slow: rated above "ok" (rate_ms) */
    LIST(RP_SLOW_PAGES, RP_SLOW_PAGES_TOTAL, 50, gd_query_pages(s, &pq, append_capped, &c, err));
    rate_pages(DOC(RP_PAGES));
    rate_pages(DOC(RP_SLOW_PAGES));
fail:
    return rc;
}

/* d's ANR dumps first, then the snapshots that show a lock wait or a
 * deadlock; the quiet snapshots are counted, not listed (#28); and the
 * ANRs of record in groups of one signature (#48: anr --group). */
static int report_anrs(gd_store *s, const gd_filter *f, gd_value *d, gd_error *err)
{
    int rc;
    gd_anr_counts folded = {0};
    gd_anr_query aq = {.filter = *f, .counts = &folded};
    LIST(RP_ANRS, RP_ANRS_TOTAL, ANRS, gd_query_anr_list(s, &aq, append_capped, &c, err));
    gd_qv_int(&d[RP_ANRS_QUIET], folded.folded);
    gd_anr_query gq = {.filter = *f, .all = 1};
    LIST(RP_ANR_GROUPS, RP_ANR_GROUPS_TOTAL, ANR_GROUPS, gd_query_anr_groups(s, &gq, append_capped, &c, err));
fail:
    return rc;
}

/* The lists of d after the top: blocks, groups, pages, views, images,
 * frames, launches. */
static int report_lists(gd_store *s, const gd_report_opts *o, gd_value *d, gd_error *err)
{
    int rc;
    const gd_filter *f = &o->filter;
    LIST(RP_WORST, -1, WORST_BLOCKS, gd_query_worst_blocks(s, f, WORST_BLOCKS, append_capped, &c, err));
    if (o->full) {
        if ((rc = add_timelines(s, f, d, err)))
            goto fail;
        gd_flame_query fq = {*f, FLAME_PRUNE, FLAME_BLOCKS, FLAME_SAMPLES, FLAME_GROUPS};
        LIST(RP_FLAMES, -1, FLAME_GROUPS, gd_query_group_flames(s, &fq, append_capped, &c, err));
    }
    gd_blocks_query bq = {.filter = *f, .threshold = NAN, .kind = GD_KIND_NONE};
    LIST(RP_GROUPS, RP_GROUPS_TOTAL, GROUPS, gd_query_block_groups(s, &bq, append_capped, &c, err));
    if ((rc = report_pages(s, o, d, err)))
        goto fail;
    LIST(RP_OVERDRAW, RP_OVERDRAW_TOTAL, DUMPS, gd_query_overdraw(s, f, o->full, append_capped, &c, err));
    if (!o->full) { /* the areas are for drawing */
        size_t i;
        json_t *dump;
        json_array_foreach(DOC(RP_OVERDRAW), i, dump)
            json_object_del(dump, "areas");
    }
    gd_images_query iq = {.filter = *f, .high = NAN, .low = NAN};
    LIST(RP_IMAGES, RP_IMAGES_TOTAL, IMAGES, gd_query_images(s, &iq, append_capped, &c, err));
    LIST(RP_FRAMES, -1, 1000, frame_rows(s, f, DOC(RP_TRACES), &c, err));
    gd_startup_query sq = {.filter = *f, .breakdown = 1}; /* #27: one subquery per launch */
    LIST(RP_STARTUPS, RP_STARTUPS_TOTAL, STARTUPS, gd_query_startups(s, &sq, append_capped, &c, err));
fail:
    return rc;
}

int gd_report_build(gd_store *s, const gd_report_opts *o, json_t **out, gd_error *err)
{
    *out = NULL;
    gd_value d[RP_NCOLS];
    for (size_t k = 0; k < RP_NCOLS; k++)
        gd_qv_absent(&d[k]); /* timelines and flames: only with o->full */
    int rc;
    const gd_filter *f = &o->filter;
    gd_qv_int(&d[RP_VERSION], 1);
    if ((rc = report_summary(s, f, d, err)))
        goto fail;
    LIST(RP_TRACES, -1, 1000, gd_query_traces(s, f, append_capped, &c, err));
    if ((rc = report_top(s, f, d, err)) || (rc = report_lists(s, o, d, err)) ||
        (rc = report_anrs(s, f, d, err)) || (rc = report_issues(s, f, d, err)) ||
        (rc = add_versions(s, &d[RP_VERSIONS], err)))
        goto fail;
    json_t *doc = gd_qcols_json(&doc_cols, d);
    gd_qcols_clear(&doc_cols, d);
    if (!doc)
        return gd_error_oom(err);
    if ((rc = gd_report_focus(s, f, doc, err))) {
        json_decref(doc);
        return rc;
    }
    *out = doc;
    return GD_OK;
fail:
    gd_qcols_clear(&doc_cols, d);
    return rc;
}
