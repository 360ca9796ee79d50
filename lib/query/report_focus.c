/* report_focus.c - the report's focus (#47 item 6): whose rows come first,
 * which fold under "other processes", and the traces' sources relative to
 * their common folder.  The renderers only draw what this decides. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analysis/app.h"
#include "query/apps.h"
#include "query/report_int.h"
#include "store/sql.h"

/* The apps a row of trace `trace` is judged against: the trace's own app
 * (by_trace), else `all` (--app, or every selected trace's app). */
static const json_t *apps_of(const json_t *by_trace, const json_t *row, const json_t *all)
{
    char k[32];
    snprintf(k, sizeof k, "%lld", (long long)json_integer_value(json_object_get(row, "trace")));
    const json_t *a = json_object_get(by_trace, k);
    return a ? a : all;
}

/* A row's focus (gd_query_focus_of) by its `field`; frames that name no
 * process go by their window: a system layer (a leash, a window naming no
 * package: StatusBar, NavigationBar, InputMethod) is "system", a window
 * "PKG/Activity" is PKG's, no window (all the trace's frames) the app's. */
static const char *row_focus(const json_t *r, const char *field, const json_t *apps)
{
    const char *p = json_string_value(json_object_get(r, field));
    if ((p && *p) || strcmp(field, "process") || !json_object_get(r, "window"))
        return gd_query_focus_of(p, apps);
    const char *w = json_string_value(json_object_get(r, "window"));
    char pkg[256];
    if (!w)
        return "app";
    if (gd_app_is_system_layer(w) || !gd_app_of_window(w, pkg, sizeof pkg))
        return "system";
    return gd_query_focus_of(pkg, apps);
}

static void mark_focus(json_t *doc, const char *key, const char *field, const json_t *by_trace, const json_t *all)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, key), i, r)
        json_object_set_new(r, "focus", json_string(row_focus(r, field, apps_of(by_trace, r, all))));
}

static int focus_rank(const json_t *r)
{
    const char *f = json_string_value(json_object_get(r, "focus"));
    return !f || !strcmp(f, "app") ? 0 : !strcmp(f, "other") ? 1 : 2;
}

/* doc[key]'s rows sorted stably by focus (the app's, other apps', system
 * processes'), doc[with]'s rows (the groups' flame graphs, by position)
 * moved along; returns how many are not the app's. */
static size_t focus_first(json_t *doc, const char *key, const char *with)
{
    json_t *a = json_object_get(doc, key), *w = with ? json_object_get(doc, with) : NULL;
    json_t *na = json_array(), *nw = json_array();
    size_t n = json_array_size(a), folded = 0, kept = 0;
    for (int rank = 0; rank < 3; rank++)
        for (size_t i = 0; i < n; i++) {
            json_t *r = json_array_get(a, i);
            if (focus_rank(r) != rank)
                continue;
            json_array_append(na, r);
            json_array_append(nw, i < json_array_size(w) ? json_array_get(w, i) : json_null());
            kept = i < json_array_size(w) ? json_array_size(nw) : kept;
            folded += rank > 0;
        }
    json_object_set_new(doc, key, na);
    while (json_array_size(nw) > kept) /* no trailing nulls */
        json_array_remove(nw, json_array_size(nw) - 1);
    if (w)
        json_object_set_new(doc, with, nw);
    else
        json_decref(nw);
    return folded;
}

/* The traces' apps by trace id ("7": ["PKG"]), system processes left out. */
static json_t *apps_by_trace(const json_t *doc)
{
    json_t *by = json_object(), *t;
    size_t i;
    json_array_foreach(json_object_get(doc, "traces"), i, t) {
        const char *app = json_string_value(json_object_get(t, "app"));
        char k[32];
        snprintf(k, sizeof k, "%lld", (long long)json_integer_value(json_object_get(t, "trace")));
        if (app && !gd_app_is_system(app))
            json_object_set_new(by, k, json_pack("[s]", app));
    }
    return by;
}

/* Each trace's source_rel: its source relative to sources_root, the
 * folder (with its last '/') all the sources share, null when none do. */
static void add_sources(json_t *doc)
{
    json_t *ts = json_object_get(doc, "traces"), *t;
    const char *first = NULL;
    size_t i, len = 0;
    json_array_foreach(ts, i, t) {
        const char *src = json_string_value(json_object_get(t, "source"));
        size_t k = 0;
        if (src && !first) {
            first = src;
            len = strlen(src);
        }
        while (src && k < len && first[k] == src[k])
            k++;
        len = src ? k : len;
    }
    while (len > 0 && first[len - 1] != '/')
        len--;
    if (len < 2 || first[len - 2] == '/') /* "/" or "https://": no folder */
        len = 0;
    json_object_set_new(doc, "sources_root", len ? json_stringn(first, len) : json_null());
    json_array_foreach(ts, i, t) {
        const char *src = json_string_value(json_object_get(t, "source"));
        json_object_set_new(t, "source_rel", src ? json_string(src + len) : json_null());
    }
}

int gd_report_focus(gd_store *s, const gd_filter *f, json_t *doc, gd_error *err)
{
    char fl[4096], set[4200];
    gd_store_filter_sql(f, "id", fl, sizeof fl);
    snprintf(set, sizeof set, "(SELECT id FROM trace WHERE 1 %s)", fl);
    json_t *apps = f && f->app ? json_pack("[s]", f->app) : gd_query_trace_apps(s, set, err);
    if (!apps)
        return err->code ? err->code : gd_error_oom(err);
    add_sources(doc);
    json_object_set_new(doc, "focus_apps", apps);
    if (!json_array_size(apps))
        return GD_OK;
    json_t *by = f && f->app ? json_object() : apps_by_trace(doc);
    static const char *const marks[][3] = {
        {"frames", "process", NULL}, {"startups", "app", NULL}, {"groups", "process", "flames"}, {"anrs", "process", NULL}};
    size_t other[4];
    for (size_t i = 0; i < 4; i++) {
        mark_focus(doc, marks[i][0], marks[i][1], by, apps);
        other[i] = focus_first(doc, marks[i][0], marks[i][2]);
    }
    json_decref(by);
    json_object_set_new(doc, "other_processes", json_pack("{s:I s:I}", "frames", (json_int_t)other[0], "startups",
                                                          (json_int_t)other[1]));
    return GD_OK;
}
