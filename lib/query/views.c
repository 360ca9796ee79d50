/* query/views.c - the queries behind pages, overdraw and images. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/images.h"
#include "analysis/overdraw.h"
#include "analysis/pages.h"
#include "analysis/stats.h"
#include "query/views.h"
#include "store/sql.h"
#include "core/util.h"

/* One page instance being collected from consecutive rows. */
typedef struct page_acc {
    int64_t trace, hash, parent;
    char *cls, *type;
    gd_page_event *ev;
    char **names;
    size_t n, cap;
} page_acc;

static void acc_reset(page_acc *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->names[i]);
    free(a->cls);
    free(a->type);
    a->cls = a->type = NULL;
    a->n = 0;
    a->parent = -1;
}

static int acc_push(page_acc *a, const char *event, double ts, double end)
{
    if (a->n == a->cap) {
        size_t nc = a->cap ? a->cap * 2 : 16;
        gd_page_event *ne = realloc(a->ev, nc * sizeof *ne);
        if (ne)
            a->ev = ne;
        char **nn = realloc(a->names, nc * sizeof *nn);
        if (nn)
            a->names = nn;
        if (!ne || !nn)
            return -1;
        a->cap = nc;
    }
    a->names[a->n] = strdup(event ? event : "");
    a->ev[a->n].event = a->names[a->n];
    a->ev[a->n].ts = ts;
    a->ev[a->n].end_ts = end;
    a->n++;
    return 0;
}

enum { GD_PAGES_COLS(GD_QC_ID, GD_QC_ID) PG_NCOLS };
GD_QCOLS_DEFINE(page_cols, GD_PAGES_COLS);
enum { GD_PAGE_GROUPS_COLS(GD_QC_ID, GD_QC_ID) PGG_NCOLS };
GD_QCOLS_DEFINE(page_group_cols, GD_PAGE_GROUPS_COLS);

/* v an integer, null when negative (unknown) */
static void int_or_null(gd_value *v, int64_t i)
{
    if (i >= 0)
        gd_qv_int(v, i);
    else
        gd_qv_null(v);
}

/* A page instance's events and steps (PG_EVENTS, PG_STEPS). */
static void page_steps(const gd_page_timeline *tl, gd_value *v)
{
    json_t *evs = json_array(), *steps = json_array();
    for (size_t i = 0; i < tl->nsteps; i++) {
        const gd_page_step *s = &tl->steps[i];
        json_array_append_new(evs, json_pack("{s:s s:o}", "event", s->event, "ts_ms", gd_ms_json(s->ts)));
        json_array_append_new(steps, json_pack("{s:s s:o s:o}", "event", s->event, "callback_ms",
                                               gd_ms_json(s->callback_ms), "to_next_ms", gd_ms_json(s->to_next_ms)));
    }
    gd_qv_json(&v[PG_EVENTS], evs);
    gd_qv_json(&v[PG_STEPS], steps);
}

/* A time passes a bound: none set, at least min, above over. */
static int page_time_passes(double ms, const gd_pages_query *pq)
{
    return gd_has(ms) && (!gd_has(pq->min_ms) || ms >= pq->min_ms) && (!gd_has(pq->over_ms) || ms > pq->over_ms);
}

/* An instance is kept when no bound is set, or its draw or load time passes. */
static int page_kept(const gd_page_timeline *tl, const gd_pages_query *pq)
{
    return (!gd_has(pq->min_ms) && !gd_has(pq->over_ms)) || page_time_passes(tl->draw_ms, pq) ||
           page_time_passes(tl->load_ms, pq);
}

/* Builds the row of one page instance; NULL when filtered out. */
static json_t *page_row(page_acc *a, const gd_pages_query *pq, gd_error *err, int *rc)
{
    gd_page_timeline tl;
    *rc = gd_pages_timeline(a->ev, a->n, gd_page_kind_parse(a->type), &tl, err);
    if (*rc)
        return NULL;
    json_t *row = NULL;
    if (page_kept(&tl, pq)) {
        gd_value v[PG_NCOLS];
        gd_qv_int(&v[PG_TRACE], a->trace);
        gd_qv_text(&v[PG_PAGE], a->cls);
        int_or_null(&v[PG_HASH], a->hash);
        gd_qv_text(&v[PG_TYPE], tl.kind == GD_PAGE_ACTIVITY ? "activity" : tl.kind == GD_PAGE_FRAGMENT ? "fragment" : NULL);
        int_or_null(&v[PG_PARENT], a->parent);
        gd_qv_ms(&v[PG_START], tl.start_ts);
        gd_qv_ms(&v[PG_DRAW], tl.draw_ms);
        gd_qv_ms(&v[PG_LOAD], tl.load_ms);
        page_steps(&tl, v);
        row = gd_qcols_json(&page_cols, v);
        gd_qcols_clear(&page_cols, v);
    }
    gd_page_timeline_free(&tl);
    return row;
}

/* Per-class aggregation for --group. */
typedef struct page_group {
    char *cls, *type;
    double *draw, *load;
    size_t n, nd, nl;
} page_group;

static void agg_add(json_t *index, page_group **gs, size_t *ng, json_t *row)
{
    const char *cls = json_string_value(json_object_get(row, "page"));
    const char *key = cls ? cls : "";
    json_t *pos = json_object_get(index, key);
    page_group *g;
    if (pos) {
        g = &(*gs)[json_integer_value(pos)];
    } else {
        page_group *n = realloc(*gs, (*ng + 1) * sizeof *n);
        if (!n)
            return;
        *gs = n;
        g = &n[*ng];
        memset(g, 0, sizeof *g);
        g->cls = cls ? strdup(cls) : NULL;
        const char *t = json_string_value(json_object_get(row, "type"));
        g->type = t ? strdup(t) : NULL;
        json_object_set_new(index, key, json_integer((json_int_t)(*ng)++));
    }
    g->n++;
    json_t *d = json_object_get(row, "draw_ms"), *l = json_object_get(row, "load_ms");
    if (json_is_number(d)) {
        double *nd = realloc(g->draw, (g->nd + 1) * sizeof *nd);
        if (nd) {
            g->draw = nd;
            g->draw[g->nd++] = json_number_value(d);
        }
    }
    if (json_is_number(l)) {
        double *nl = realloc(g->load, (g->nl + 1) * sizeof *nl);
        if (nl) {
            g->load = nl;
            g->load[g->nl++] = json_number_value(l);
        }
    }
}

/* v the p-th percentile of v[0..n) (sorted), null when n is 0 */
static void pctl(gd_value *out, double *v, size_t n, double p)
{
    if (n)
        gd_qv_ms(out, gd_percentile(v, n, p));
    else
        gd_qv_null(out);
}

/* The row of a page class (--group). */
static json_t *page_group_row(page_group *g)
{
    gd_value v[PGG_NCOLS];
    gd_stats_sort(g->draw, g->nd);
    gd_stats_sort(g->load, g->nl);
    gd_qv_text(&v[PGG_PAGE], g->cls);
    gd_qv_text(&v[PGG_TYPE], g->type);
    gd_qv_int(&v[PGG_COUNT], (int64_t)g->n);
    gd_qv_int(&v[PGG_DRAWN], (int64_t)g->nd);
    pctl(&v[PGG_DRAW_P50], g->draw, g->nd, 50);
    pctl(&v[PGG_DRAW_P95], g->draw, g->nd, 95);
    pctl(&v[PGG_DRAW_MAX], g->draw, g->nd, 100);
    gd_qv_int(&v[PGG_LOADED], (int64_t)g->nl);
    pctl(&v[PGG_LOAD_P50], g->load, g->nl, 50);
    pctl(&v[PGG_LOAD_P95], g->load, g->nl, 95);
    pctl(&v[PGG_LOAD_MAX], g->load, g->nl, 100);
    return gd_qcols_json(&page_group_cols, v);
}

/* The columns of a page event row, after trace (P_TRACE). */
#define PAGE_COLS(X)                                                                         \
    X(P_CLASS, "page_class") X(P_HASH, "page_hash") X(P_TYPE, "page_type") X(P_PARENT, "parent") \
    X(P_EVENT, "event") X(P_TS, "ts_ms") X(P_END, "end_ms")
enum { P_TRACE = 0, PAGE_COLS(GD_COL_ENUM) P_NCOLS };

/* gd_query_pages' events gathered into page instances (gd_store_each's
 * callback): `a`, the instance being built, is emitted when the next one
 * starts: handed on, or with --group added to its class's aggregate. */
struct pages_ctx {
    const gd_pages_query *pq;
    gd_row_fn fn;
    void *ctx;
    gd_error *err;
    page_acc a;
    int have, rc, stop;
    json_t *index;
    page_group *groups;
    size_t ngroups;
};

static int page_emit(struct pages_ctx *c)
{
    json_t *row = page_row(&c->a, c->pq, c->err, &c->rc);
    if (c->rc)
        return c->rc;
    if (row) {
        if (c->pq->group)
            agg_add(c->index, &c->groups, &c->ngroups, row);
        else
            c->stop = c->fn(c->ctx, row);
        json_decref(row);
    }
    return GD_OK;
}

static int page_event_row(void *ctx, sqlite3_stmt *q)
{
    struct pages_ctx *c = ctx;
    page_acc *a = &c->a;
    int64_t trace = sqlite3_column_int64(q, P_TRACE);
    const char *cls = (const char *)sqlite3_column_text(q, P_CLASS);
    int64_t hash = sqlite3_column_type(q, P_HASH) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, P_HASH);
    int same = c->have && trace == a->trace && hash == a->hash &&
               ((!cls && !a->cls) || (cls && a->cls && strcmp(cls, a->cls) == 0));
    if (!same) {
        if (c->have && page_emit(c))
            return c->rc;
        acc_reset(a);
        a->trace = trace;
        a->hash = hash;
        a->cls = cls ? strdup(cls) : NULL;
        c->have = 1;
    }
    if (!a->type && sqlite3_column_type(q, P_TYPE) != SQLITE_NULL)
        a->type = strdup((const char *)sqlite3_column_text(q, P_TYPE));
    if (a->parent < 0 && sqlite3_column_type(q, P_PARENT) != SQLITE_NULL)
        a->parent = sqlite3_column_int64(q, P_PARENT);
    if (acc_push(a, (const char *)sqlite3_column_text(q, P_EVENT), sqlite3_column_double(q, P_TS),
                 sqlite3_column_type(q, P_END) == SQLITE_NULL ? GD_NONE : sqlite3_column_double(q, P_END)))
        return c->rc = gd_error_oom(c->err);
    return c->stop ? GD_EACH_STOP : GD_OK;
}

int gd_query_pages(gd_store *s, const gd_pages_query *pq, gd_row_fn fn, void *ctx, gd_error *err)
{
    char filt[4096], sql[8192];
    gd_store_filter_sql(&pq->filter, "trace", filt, sizeof filt);
    snprintf(sql, sizeof sql,
             "SELECT trace" PAGE_COLS(GD_COL_SQL) " FROM page_event"
             " WHERE gd_match(page_class, ?1) %s"
             " ORDER BY trace, page_class, page_hash, ts_ms, id", filt);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    if (pq->page)
        sqlite3_bind_text(q, 1, pq->page, -1, SQLITE_STATIC);
    struct pages_ctx c = {.pq = pq, .fn = fn, .ctx = ctx, .err = err, .a = {.parent = -1}};
    c.index = pq->group ? json_object() : NULL;
    /* a read error ends the events without an error, as it always did */
    gd_store_each(s, q, page_event_row, &c, NULL);
    int rc = c.rc, stop = c.stop;
    if (!rc && c.have && !stop) {
        page_emit(&c);
        rc = c.rc;
        stop = c.stop;
    }
    page_group *groups = c.groups;
    size_t ngroups = c.ngroups;
    if (rc)
        goto out;
    for (size_t i = 0; i < ngroups && !stop; i++) {
        json_t *row = page_group_row(&groups[i]);
        stop = fn(ctx, row);
        json_decref(row);
    }
out:
    acc_reset(&c.a);
    free(c.a.ev);
    free(c.a.names);
    for (size_t i = 0; i < ngroups; i++) {
        free(groups[i].cls);
        free(groups[i].type);
        free(groups[i].draw);
        free(groups[i].load);
    }
    free(groups);
    json_decref(c.index);
    return rc;
}

/* A dump's figures that its fields are made of (not fields themselves),
 * read before them (GD_OVERDRAW_COLS) */
#define DUMP_FIGURES "screen_w, screen_h, px_1, px_2, px_3, px_4plus, overdraw_ratio"
enum { F_SCREEN_W, F_SCREEN_H, F_PX1, F_RATIO = F_PX1 + 4, F_FIELDS };
enum { GD_OVERDRAW_COLS(GD_QC_ID, GD_QC_ID) OD_NCOLS };
GD_QCOLS_DEFINE(dump_cols, GD_OVERDRAW_COLS);
enum { GD_OVERDRAW_PX_COLS(GD_QC_ID, GD_QC_ID) ODP_NCOLS };
GD_QCOLS_DEFINE(px_cols, GD_OVERDRAW_PX_COLS);

/* A view's rectangle, read before its fields (GD_OVERDRAW_VIEW_COLS) */
#define VIEW_RECT "l, t, r, b"
enum { W_L, W_T, W_R, W_B, W_FIELDS };
enum { GD_OVERDRAW_VIEW_COLS(GD_QC_ID, GD_QC_ID) ODV_NCOLS };
GD_QCOLS_DEFINE(view_cols, GD_OVERDRAW_VIEW_COLS);

/* A view of a dump (GD_OVERDRAW_VIEW_COLS), appended to the array ctx
 * (gd_store_each_reuse's callback). */
static int view_row(void *ctx, sqlite3_stmt *vq)
{
    gd_value v[ODV_NCOLS];
    gd_qcols_read(&view_cols, vq, W_FIELDS, v);
    gd_qv_json(&v[ODV_RECT], json_pack("[IIII]", (json_int_t)sqlite3_column_int64(vq, W_L),
                                       (json_int_t)sqlite3_column_int64(vq, W_T),
                                       (json_int_t)sqlite3_column_int64(vq, W_R),
                                       (json_int_t)sqlite3_column_int64(vq, W_B)));
    json_array_append_new(ctx, gd_qcols_json(&view_cols, v));
    gd_qcols_clear(&view_cols, v);
    return GD_OK;
}

/* gd_query_overdraw's dumps, each built and handed on (gd_store_each's
 * callback); vq, with --views, the query of a dump's views */
struct dumps_ctx {
    gd_store *s;
    sqlite3_stmt *vq;
    gd_row_fn fn;
    void *ctx;
};

/* v a JSON array parsed by the read, [] when there was none */
static void array_or_empty(gd_value *v)
{
    if (v->kind == GD_V_NULL)
        gd_qv_json(v, json_array());
}

/* The figures with paint data (overdraw_px in px, whose values it holds;
 * overdraw_ratio; areas), else null. */
static void paint_fields(sqlite3_stmt *q, gd_value *f, gd_row *r, gd_value *px)
{
    if (f[OD_HAS_PAINT].u.i) {
        for (int i = 0; i < ODP_NCOLS; i++)
            gd_qv_int(&px[i], sqlite3_column_int64(q, F_PX1 + i));
        gd_qv_row(&f[OD_PX], r, &px_cols, px);
        gd_qv_real(&f[OD_RATIO], sqlite3_column_double(q, F_RATIO));
        array_or_empty(&f[OD_AREAS]);
    } else {
        gd_qv_null(&f[OD_PX]);
        gd_qv_null(&f[OD_RATIO]);
        if (f[OD_AREAS].kind == GD_V_JSON)
            json_decref(f[OD_AREAS].u.json);
        gd_qv_null(&f[OD_AREAS]);
    }
}

static int dump_row(void *ctx, sqlite3_stmt *q)
{
    struct dumps_ctx *c = ctx;
    gd_value f[OD_NCOLS], px[ODP_NCOLS];
    gd_row pr;
    gd_qcols_read(&dump_cols, q, F_FIELDS, f);
    gd_qv_json(&f[OD_SCREEN], json_pack("[II]", (json_int_t)sqlite3_column_int64(q, F_SCREEN_W),
                                         (json_int_t)sqlite3_column_int64(q, F_SCREEN_H)));
    paint_fields(q, f, &pr, px);
    array_or_empty(&f[OD_DEEP]);
    gd_qcols sub = gd_qcols_sub(&dump_cols, 0, c->vq ? OD_NCOLS : OD_VIEW_LIST);
    if (c->vq) {
        json_t *vs = json_array();
        sqlite3_bind_int64(c->vq, 1, f[OD_DUMP].u.i);
        /* a read error of the views is not reported (as before) */
        gd_store_each_reuse(c->s, c->vq, view_row, vs, NULL);
        gd_qv_json(&f[OD_VIEW_LIST], vs);
    }
    json_t *row = gd_qcols_json(&sub, f);
    gd_qcols_clear(&sub, f);
    int stop = c->fn(c->ctx, row);
    json_decref(row);
    return stop ? GD_EACH_STOP : GD_OK;
}

int gd_query_overdraw(gd_store *s, const gd_filter *f, int with_views, gd_row_fn fn, void *ctx,
                      gd_error *err)
{
    char filt[4096], sql[8192], fields[1024], vsql[1024], vfields[512];
    gd_store_filter_sql(f, "trace", filt, sizeof filt);
    if (gd_qcols_select(&dump_cols, fields, sizeof fields) || gd_qcols_select(&view_cols, vfields, sizeof vfields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "overdraw: the SELECT list is too long");
    snprintf(sql, sizeof sql,
             "SELECT " DUMP_FIGURES ", %s FROM view_dump WHERE 1 %s ORDER BY trace, ts_ms, dump", fields, filt);
    snprintf(vsql, sizeof vsql, "SELECT " VIEW_RECT ", %s FROM view WHERE dump = ? ORDER BY id", vfields);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    sqlite3_stmt *vq = with_views ? gd_store_prepare(s, vsql, err) : NULL;
    if (!q || (with_views && !vq)) {
        sqlite3_finalize(q);
        return err->code;
    }
    struct dumps_ctx c = {s, vq, fn, ctx};
    int rc = gd_store_each(s, q, dump_row, &c, err);
    sqlite3_finalize(vq);
    return rc;
}

typedef struct image_row {
    json_t *row;
    uint64_t wasted;
} image_row;

static int cmp_wasted(const void *a, const void *b)
{
    const image_row *x = a, *y = b;
    if (x->wasted != y->wasted)
        return x->wasted > y->wasted ? -1 : 1;
    return 0;
}

/* The sizes a group of image rows is checked by (not fields of its row),
 * read before its fields (GD_IMAGES_COLS) */
#define IMAGE_SIZES "view_w, view_h, bitmap_w, bitmap_h"
enum { G_VIEW_W, G_VIEW_H, G_BITMAP_W, G_BITMAP_H, G_FIELDS };
enum { GD_IMAGES_COLS(GD_QC_ID, GD_QC_ID) IMG_NCOLS };
GD_QCOLS_DEFINE(image_cols, GD_IMAGES_COLS);

/* gd_query_images' groups checked, the ones with an issue kept once per
 * dedup key (gd_store_each's callback) */
struct images_ctx {
    const gd_image_rules *rules;
    gd_image_issue want;
    image_row *rows;
    size_t n, cap;
    json_t *index; /* dedup key -> position */
    gd_error *err;
};

/* The group's dedup key: trace, page, view, bitmap size, view known, issue. */
static void image_key(sqlite3_stmt *q, const gd_value *v, gd_image_issue is, char *key, size_t n)
{
    int page = G_FIELDS + gd_qcols_pos(&image_cols, IMG_PAGE_HASH);
    snprintf(key, n, "%lld|%s|%lld|%lld|%lld|%lld|%d", (long long)v[IMG_TRACE].u.i,
             v[IMG_PAGE_HASH].kind == GD_V_NULL ? "-" : (const char *)sqlite3_column_text(q, page),
             (long long)(v[IMG_VIEW_HASH].kind == GD_V_NULL ? 0 : v[IMG_VIEW_HASH].u.i),
             (long long)sqlite3_column_int64(q, G_BITMAP_W), (long long)sqlite3_column_int64(q, G_BITMAP_H),
             (long long)(v[IMG_VIEW_HASH].kind == GD_V_NULL), (int)is);
}

static int image_group_row(void *ctx, sqlite3_stmt *q)
{
    struct images_ctx *c = ctx;
    gd_value v[IMG_NCOLS];
    gd_qcols_read(&image_cols, q, G_FIELDS, v);
    const char *config = v[IMG_CONFIG].kind == GD_V_TEXT ? v[IMG_CONFIG].u.t.s : NULL;
    int64_t vw = sqlite3_column_int64(q, G_VIEW_W), vh = sqlite3_column_int64(q, G_VIEW_H);
    int64_t bw = sqlite3_column_int64(q, G_BITMAP_W), bh = sqlite3_column_int64(q, G_BITMAP_H);
    gd_image_result r;
    gd_image_issue is = gd_image_check((int32_t)vw, (int32_t)vh, v[IMG_VISIBLE].u.i, (int32_t)bw, (int32_t)bh,
                                       config, c->rules, &r);
    if (is == GD_IMAGE_NONE || is == GD_IMAGE_MALFORMED || (c->want != GD_IMAGE_NONE && is != c->want))
        return GD_OK;
    char key[256];
    image_key(q, v, is, key, sizeof key);
    json_t *pos = json_object_get(c->index, key);
    if (pos) {
        image_row *ir = &c->rows[json_integer_value(pos)];
        json_t *cnt = json_object_get(ir->row, image_cols.keys[IMG_COUNT]);
        json_integer_set(cnt, json_integer_value(cnt) + v[IMG_COUNT].u.i);
        return GD_OK;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        image_row *nr = realloc(c->rows, cap * sizeof *nr);
        if (!nr)
            return gd_error_oom(c->err);
        c->rows = nr;
        c->cap = cap;
    }
    gd_qv_json(&v[IMG_BITMAP], json_pack("[II]", (json_int_t)bw, (json_int_t)bh));
    gd_qv_json(&v[IMG_VIEW], json_pack("[II]", (json_int_t)vw, (json_int_t)vh));
    gd_qv_text(&v[IMG_ISSUE], gd_image_issue_name(is));
    gd_qv_int(&v[IMG_WASTED], (int64_t)r.wasted_bytes);
    json_t *row = gd_qcols_json(&image_cols, v);
    gd_qcols_clear(&image_cols, v);
    c->rows[c->n].row = row;
    c->rows[c->n].wasted = r.wasted_bytes;
    json_object_set_new(c->index, key, json_integer((json_int_t)c->n));
    c->n++;
    return GD_OK;
}

int gd_query_images(gd_store *s, const gd_images_query *iq, gd_row_fn fn, void *ctx, gd_error *err)
{
    char filt[4096], sql[8192], fields[1024];
    gd_store_filter_sql(&iq->filter, "trace", filt, sizeof filt);
    if (gd_qcols_select(&image_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "images: the SELECT list is too long");
    snprintf(sql, sizeof sql,
             "SELECT " IMAGE_SIZES ", %s FROM image WHERE 1 %s"
             " GROUP BY trace, page_class, page_hash, view_hash, bitmap_w, bitmap_h, visible, view_w,"
             " view_h, config, source ORDER BY trace, page_hash, view_hash, bitmap_w, bitmap_h", fields, filt);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    gd_image_rules rules = {gd_has(iq->high) ? iq->high : GD_IMAGE_HIGH,
                            gd_has(iq->low) ? iq->low : GD_IMAGE_LOW};
    gd_image_issue want = iq->issue ? gd_image_issue_parse(iq->issue) : GD_IMAGE_NONE;
    struct images_ctx c = {&rules, want, NULL, 0, 0, json_object(), err};
    int rc = gd_store_each(s, q, image_group_row, &c, err);
    image_row *rows = c.rows;
    size_t n = c.n;
    if (n > 1)
        gd_sort(rows, n, sizeof *rows, cmp_wasted);
    int stop = rc != GD_OK;
    for (size_t i = 0; i < n; i++) {
        if (!stop)
            stop = fn(ctx, rows[i].row);
        json_decref(rows[i].row);
    }
    free(rows);
    json_decref(c.index);
    return rc;
}
