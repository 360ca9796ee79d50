/* pages.c - page load timeline: stable time order, draw and load times, step durations. */
#include "analysis/pages.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

gd_page_kind gd_page_kind_parse(const char *type)
{
    if (type && strcasecmp(type, "activity") == 0)
        return GD_PAGE_ACTIVITY;
    if (type && strcasecmp(type, "fragment") == 0)
        return GD_PAGE_FRAGMENT;
    return GD_PAGE_UNKNOWN;
}

void gd_page_timeline_free(gd_page_timeline *t)
{
    if (!t)
        return;
    free(t->steps);
    memset(t, 0, sizeof *t);
}

static int is(const char *ev, const char *name)
{
    return ev && strcmp(ev, name) == 0;
}

static int fragment_only(const char *ev)
{
    static const char *const names[] = {"ON_ATTACH", "ON_VIEW_CREATE", "ON_SHOW",
                                        "ON_HIDE", "ON_VIEW_DESTROY", "ON_DETACH"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (is(ev, names[i]))
            return 1;
    return 0;
}

/* Time order; the input position breaks ties (a stable sort). */
static int cmp_step(const void *a, const void *b)
{
    const gd_page_step *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

int gd_pages_timeline(const gd_page_event *evs, size_t n, gd_page_kind kind,
                      gd_page_timeline *out, gd_error *err)
{
    if (!out)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "pages: no output");
    memset(out, 0, sizeof *out);
    out->start_ts = out->draw_ms = out->load_ms = GD_NONE;
    if (!evs && n)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "pages: no events");
    if (n) {
        out->steps = malloc(n * sizeof *out->steps);
        if (!out->steps) {
            gd_page_timeline_free(out);
            out->start_ts = out->draw_ms = out->load_ms = GD_NONE;
            return gd_error_oom(err);
        }
    }
    int fragment = 0;
    for (size_t i = 0; i < n; i++) {
        if (!gd_has(evs[i].ts)) {
            out->dropped++;
            continue;
        }
        fragment |= fragment_only(evs[i].event);
        gd_page_step s = {evs[i].event, evs[i].ts, evs[i].end_ts, GD_NONE, GD_NONE, i};
        if (gd_has(s.end_ts))
            s.callback_ms = s.end_ts - s.ts;
        out->steps[out->nsteps++] = s;
    }
    if (out->nsteps > 1)
        gd_sort(out->steps, out->nsteps, sizeof *out->steps, cmp_step);
    for (size_t i = 0; i + 1 < out->nsteps; i++)
        out->steps[i].to_next_ms = out->steps[i + 1].ts - out->steps[i].ts;

    out->kind = kind != GD_PAGE_UNKNOWN ? kind : fragment ? GD_PAGE_FRAGMENT : GD_PAGE_ACTIVITY;
    out->start_event = out->kind == GD_PAGE_FRAGMENT ? "ON_ATTACH" : "ON_CREATE";
    size_t i = 0;
    while (i < out->nsteps && !is(out->steps[i].event, out->start_event))
        i++;
    if (i == out->nsteps)
        return GD_OK;
    out->start_ts = out->steps[i].ts;
    /* from the first step at the start's ts (an ON_DRAW listed before the
     * start but with the same ts counts: draw_ms 0) */
    while (i > 0 && out->steps[i - 1].ts == out->start_ts)
        i--;
    for (size_t k = i; k < out->nsteps; k++) {
        if (!gd_has(out->draw_ms) && is(out->steps[k].event, "ON_DRAW"))
            out->draw_ms = out->steps[k].ts - out->start_ts;
        if (!gd_has(out->load_ms) && is(out->steps[k].event, "ON_LOAD"))
            out->load_ms = out->steps[k].ts - out->start_ts;
    }
    return GD_OK;
}
