/* stacks.c - the sides of `godeye diff --stacks --clickhouse` (#52 item 4) read from stack_paths. */
#include "fleet/stacks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

typedef struct fs_trace {
    char uid[72];
    double minutes;
} fs_trace;

typedef struct fs_side {
    gd_diffstacks *d;
    int side;
    const char *app;
    fs_trace *t;
    size_t n, cap;
    size_t next;            /* the first trace not yet begun                */
    int open;               /* t[next - 1] is being fed                     */
    gd_error *err;
    int rc;
} fs_side;

static int on_trace(void *ctx, json_t *row)
{
    fs_side *s = ctx;
    const char *uid = json_string_value(json_object_get(row, "trace_uid"));
    double ms = 0;
    if (!uid)
        return 0;
    if ((s->rc = gd_grow((void **)&s->t, &s->cap, s->n + 1, sizeof *s->t, s->err)))
        return 1;
    if (!gd_ch_real(json_object_get(row, "exposure_ms"), &ms))
        ms = 0; /* as the store's NULL: no capture time */
    snprintf(s->t[s->n].uid, sizeof s->t[0].uid, "%s", uid);
    s->t[s->n++].minutes = ms / 60000.0; /* the store's exposure_ms / 60000.0 */
    return 0;
}

/* Ends the capture being fed, if any. */
static int end_open(fs_side *s)
{
    if (s->open && (s->rc = gd_ds_end(s->d, s->err)))
        return 1;
    s->open = 0;
    return 0;
}

/* Begins trace t[next] (calls: its rows are method calls). */
static int begin_next(fs_side *s, int calls)
{
    if (end_open(s))
        return 1;
    if (gd_ds_begin(s->d, s->side, s->t[s->next].minutes, calls)) {
        s->rc = gd_error_oom(s->err);
        return 1;
    }
    s->next++;
    s->open = 1;
    return 0;
}

/* The traces before `uid` (or all left, uid NULL) begun and ended: no rows. */
static int skip_to(fs_side *s, const char *uid)
{
    while (s->next < s->n && (!uid || strcmp(s->t[s->next].uid, uid) < 0))
        if (begin_next(s, 0))
            return 1;
    return 0;
}

static int on_path(void *ctx, json_t *row)
{
    fs_side *s = ctx;
    const char *uid = json_string_value(json_object_get(row, "trace_uid"));
    if (!uid)
        return 0;
    int cur = s->open && strcmp(s->t[s->next - 1].uid, uid) == 0;
    if (!cur) {
        if (skip_to(s, uid))
            return 1;
        if (s->next == s->n || strcmp(s->t[s->next].uid, uid) != 0)
            return end_open(s); /* rows of a trace without its traces row: not complete */
        const char *src = json_string_value(json_object_get(row, "source"));
        if (begin_next(s, src && strcmp(src, "calls") == 0))
            return 1;
    }
    return (s->rc = gd_ds_feed(s->d, row, s->app, s->err)) ? 1 : 0;
}

/* A server whose tables predate stack_paths: said in one line. */
static int no_table(int rc, gd_error *err)
{
    if (rc == GD_ERR_IO && strstr(err->msg, "stack_paths") &&
        (strstr(err->msg, "doesn't exist") || strstr(err->msg, "does not exist")))
        return gd_error_set(err, GD_ERR_DATA, 0, 0,
                            "the fleet has no stack_paths table (made by an older godeye): `godeye push` with this"
                            " one creates it; traces pushed before have no stacks there");
    return rc;
}

static int read_side(gd_ch *c, fs_side *s, const gd_selection *sel)
{
    const char *where = sel->where ? sel->where : "1";
    static const char tfmt[] = "SELECT trace_uid, exposure_ms FROM traces FINAL WHERE %s ORDER BY trace_uid";
    static const char pfmt[] = "SELECT trace_uid, process, source, stack, ms, count FROM stack_paths FINAL"
                               " WHERE %s ORDER BY trace_uid, seq";
    size_t n = sizeof pfmt + strlen(where);
    char *sql = malloc(n);
    if (!sql)
        return gd_error_oom(s->err);
    snprintf(sql, n, tfmt, where);
    int rc = gd_ch_select(c, sql, on_trace, s, s->err);
    if (!rc) {
        snprintf(sql, n, pfmt, where);
        rc = no_table(gd_ch_select(c, sql, on_path, s, s->err), s->err);
    }
    free(sql);
    if (rc == GD_ERR_ABORT)
        rc = s->rc ? s->rc : gd_error_oom(s->err);
    if (!rc && (skip_to(s, NULL) || end_open(s)))
        rc = s->rc;
    return rc;
}

int gd_fleet_diffstacks(gd_ch *c, const gd_diffstacks_query *q, gd_diffstacks **out, gd_error *err)
{
    *out = NULL;
    gd_diffstacks *d = gd_ds_new();
    if (!d)
        return gd_error_oom(err);
    int rc = GD_OK;
    for (int side = 0; side < 2 && !rc; side++) {
        const gd_selection *sel = side ? q->head : q->base;
        fs_side s = {.d = d, .side = side, .app = sel->app, .err = err};
        rc = read_side(c, &s, sel);
        free(s.t);
    }
    return gd_ds_conclude(d, q, rc, out, err);
}
