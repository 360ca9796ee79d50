/* ingest/views.c - pages, view dumps (with exact overdraw), images and frames written at ingest. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/images.h"
#include "analysis/overdraw.h"
#include "analysis/pages.h"
#include "analysis/stats.h"
#include "ingest/views.h"
#include "store/sql.h"
#include "core/skip_reasons.h"
#include "core/util.h"

#define MAX_AREAS 20000

enum { VW_PAGE, VW_DUMP, VW_VIEW, VW_IMAGE, VW_FRAME, VW__COUNT };

static const char *const vw_sql[VW__COUNT] = {
    "INSERT INTO page_event(trace, page_type, page_class, page_hash, parent, event, ts_ms, end_ms)"
    " VALUES (?,?,?,?,?,?,?,?)",
    "INSERT INTO view_dump(trace, ts_ms, page_class, page_hash, window, screen_w, screen_h, views,"
    " max_depth, depth_limit, deep_views, has_paint, px_1, px_2, px_3, px_4plus, overdraw_ratio,"
    " areas, areas_truncated, broken) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT OR IGNORE INTO view(dump, id, parent, class, l, t, r, b, layers, visible, res_id, text)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO image(trace, ts_ms, page_class, page_hash, view_hash, view_class, view_w, view_h,"
    " visible, bitmap_w, bitmap_h, config, source) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO frame_time(trace, pid, ts_ms, dur_ms, window, vsync_ms, source, jank, present, token,"
    " flags, deadline_missed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
};

struct gd_views_writer {
    gd_store *s;
    sqlite3_stmt *st[VW__COUNT];
};

gd_views_writer *gd_views_writer_new(gd_store *s, gd_error *err)
{
    gd_views_writer *w = calloc(1, sizeof *w);
    if (!w) {
        gd_error_oom(err);
        return NULL;
    }
    w->s = s;
    for (int i = 0; i < VW__COUNT; i++)
        if (!(w->st[i] = gd_store_prepare(s, vw_sql[i], err))) {
            gd_views_writer_free(w);
            return NULL;
        }
    return w;
}

void gd_views_writer_free(gd_views_writer *w)
{
    if (!w)
        return;
    for (int i = 0; i < VW__COUNT; i++)
        sqlite3_finalize(w->st[i]);
    free(w);
}

static int run(gd_views_writer *w, sqlite3_stmt *st, gd_error *err)
{
    int rc = gd_store_step(w->s, st, err);
    sqlite3_clear_bindings(st); /* optional columns stay NULL unless bound */
    return rc;
}

static int put_dump(gd_views_writer *w, int64_t trace, int64_t max_depth, const gd_event *ev,
                    void (*skip)(void *, const char *, long, long), void *skip_ctx, gd_error *err)
{
    const gd_view_dump_ev *d = &ev->u.view_dump;
    gd_overdraw od;
    gd_overdraw_opts o = {d->screen_w, d->screen_h, max_depth > 0 ? max_depth : 10, MAX_AREAS};
    int rc = gd_overdraw_compute(d->views, d->nviews, &o, &od, err);
    if (rc)
        return rc;
    for (int r = 0; r < GD_OVERDRAW_SKIP__COUNT; r++)
        for (size_t k = 0; k < od.skipped[r]; k++) {
            char reason[96];
            snprintf(reason, sizeof reason, "view: %s", gd_overdraw_skip_name((gd_overdraw_skip)r));
            skip(skip_ctx, reason, ev->line, 0);
        }
    json_t *deep = json_array(), *areas = json_array();
    for (size_t i = 0; i < od.ndeep; i++)
        json_array_append_new(deep, json_integer(od.deep_ids[i]));
    if (d->has_paint)
        for (size_t i = 0; i < od.nareas; i++) {
            const gd_overdraw_area *a = &od.areas[i];
            json_array_append_new(areas, json_pack("{s:[iiii] s:I}", "rect", a->rect[0], a->rect[1],
                                                   a->rect[2], a->rect[3], "times",
                                                   (json_int_t)a->times));
        }
    char *deep_t = json_dumps(deep, JSON_COMPACT), *areas_t = json_dumps(areas, JSON_COMPACT);
    json_decref(deep);
    json_decref(areas);
    sqlite3_stmt *st = w->st[VW_DUMP];
    sqlite3_bind_int64(st, 1, trace);
    gd_bind_opt_double(st, 2, ev->ts);
    gd_bind_text(st, 3, d->page.cls);
    gd_bind_opt_int(st, 4, d->page.hash);
    gd_bind_text(st, 5, d->window);
    sqlite3_bind_int64(st, 6, od.screen[2] - od.screen[0]);
    sqlite3_bind_int64(st, 7, od.screen[3] - od.screen[1]);
    sqlite3_bind_int64(st, 8, (int64_t)od.views);
    sqlite3_bind_int64(st, 9, od.max_depth);
    sqlite3_bind_int64(st, 10, od.max_depth_limit);
    gd_bind_text(st, 11, deep_t);
    sqlite3_bind_int(st, 12, d->has_paint ? 1 : 0);
    if (d->has_paint) {
        for (int i = 0; i < 4; i++)
            sqlite3_bind_int64(st, 13 + i, (int64_t)od.px[i]);
        sqlite3_bind_double(st, 17, od.ratio);
        gd_bind_text(st, 18, areas_t);
    }
    sqlite3_bind_int(st, 19, od.areas_truncated);
    gd_bind_text(st, 20, od.broken ? od.broken_reason : NULL);
    rc = run(w, st, err);
    free(deep_t);
    free(areas_t);
    gd_overdraw_free(&od);
    if (rc)
        return rc;
    int64_t dump = gd_store_last_id(w->s);
    sqlite3_stmt *v = w->st[VW_VIEW];
    for (size_t i = 0; i < d->nviews && !rc; i++) {
        const gd_view *gv = &d->views[i];
        sqlite3_bind_int64(v, 1, dump);
        sqlite3_bind_int64(v, 2, gv->id);
        sqlite3_bind_int64(v, 3, gv->parent);
        gd_bind_text(v, 4, gv->cls);
        for (int k = 0; k < 4; k++)
            sqlite3_bind_int64(v, 5 + k, gv->rect[k]);
        gd_bind_opt_int(v, 9, gv->layers);
        sqlite3_bind_int(v, 10, gv->visible ? 1 : 0);
        gd_bind_text(v, 11, gv->res_id);
        gd_bind_text(v, 12, gv->text);
        rc = run(w, v, err);
    }
    return rc;
}

int gd_views_put(gd_views_writer *w, int64_t trace, int64_t max_depth, const gd_event *ev,
                 void (*skip)(void *, const char *, long, long), void *skip_ctx, gd_error *err)
{
    sqlite3_stmt *st;
    switch (ev->kind) {
    case GD_EV_LIFECYCLE: {
        const gd_lifecycle_ev *l = &ev->u.lifecycle;
        st = w->st[VW_PAGE];
        sqlite3_bind_int64(st, 1, trace);
        gd_bind_text(st, 2, l->page.type);
        gd_bind_text(st, 3, l->page.cls);
        gd_bind_opt_int(st, 4, l->page.hash);
        gd_bind_opt_int(st, 5, l->page.parent);
        gd_bind_text(st, 6, l->event);
        sqlite3_bind_double(st, 7, ev->ts);
        gd_bind_opt_double(st, 8, l->end_ts);
        return run(w, st, err);
    }
    case GD_EV_VIEW_DUMP:
        return put_dump(w, trace, max_depth, ev, skip, skip_ctx, err);
    case GD_EV_IMAGE: {
        const gd_image_ev *im = &ev->u.image;
        if (im->bitmap_w <= 0 || im->bitmap_h <= 0 || im->view_w < 0 || im->view_h < 0) {
            skip(skip_ctx, GD_SKIP(IMAGE_BAD_SIZE), ev->line, 0);
            return GD_OK;
        }
        st = w->st[VW_IMAGE];
        sqlite3_bind_int64(st, 1, trace);
        sqlite3_bind_double(st, 2, ev->ts);
        gd_bind_text(st, 3, im->page.cls);
        gd_bind_opt_int(st, 4, im->page.hash);
        gd_bind_opt_int(st, 5, im->view_hash);
        gd_bind_text(st, 6, im->view_cls);
        sqlite3_bind_int64(st, 7, im->view_w);
        sqlite3_bind_int64(st, 8, im->view_h);
        sqlite3_bind_int(st, 9, im->view_visible ? 1 : 0);
        sqlite3_bind_int64(st, 10, im->bitmap_w);
        sqlite3_bind_int64(st, 11, im->bitmap_h);
        gd_bind_text(st, 12, im->config);
        gd_bind_text(st, 13, im->source);
        return run(w, st, err);
    }
    case GD_EV_FRAME: {
        const gd_frame_ev *f = &ev->u.frame;
        if (!gd_has(f->dur) || f->dur < 0) {
            skip(skip_ctx, GD_SKIP(FRAME_BAD_DURATION), ev->line, 0);
            return GD_OK;
        }
        st = w->st[VW_FRAME];
        sqlite3_bind_int64(st, 1, trace);
        gd_bind_opt_int(st, 2, ev->pid);
        sqlite3_bind_double(st, 3, ev->ts);
        sqlite3_bind_double(st, 4, f->dur);
        gd_bind_text(st, 5, f->window);
        gd_bind_opt_double(st, 6, f->vsync_ms);
        gd_bind_text(st, 7, f->source);
        gd_bind_opt_int(st, 8, f->jank);
        gd_bind_opt_int(st, 9, f->present);
        gd_bind_opt_int(st, 10, f->token);
        sqlite3_bind_int64(st, 11, f->flags);
        gd_bind_opt_int(st, 12, f->deadline_missed);
        return run(w, st, err);
    }
    default:
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "not a view event");
    }
}
