/* event_json.c - normalized events back to capture-format JSON objects. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "capture_format.h"
#include "event.h"
#include "row.h"

static void set_num(json_t *o, const char *k, double v)
{
    /* range first: converting an out-of-range double to int64_t is undefined */
    if (gd_has(v))
        json_object_set_new(o, k, v < 9e15 && v > -9e15 && v == (double)(int64_t)v
                                      ? json_integer((json_int_t)v)
                                      : json_real(v));
}

/* A JSON string of s (NULL for NULL or out of memory), invalid UTF-8
 * mended by the one rule of every output (gd_json_text). */
static json_t *str_json(const char *s)
{
    return s ? gd_json_text(s, strlen(s)) : NULL;
}

static void set_str(json_t *o, const char *k, const char *v)
{
    if (v)
        json_object_set_new(o, k, str_json(v));
}
static void set_bool(json_t *o, const char *k, int v)
{
    if (v >= 0)
        json_object_set_new(o, k, json_boolean(v));
}

static void put_group(json_t *o, const void *base, int g);

/* Number-like members: 1 when the handler is one of them. */
static int put_scalar(json_t *o, const void *base, const gd_cf_field *f)
{
    const char *k = f->key;
    int always = f->flags & GD_CF_ALWAYS;
    switch (f->handler) {
    case GD_CF_TS:
    case GD_CF_NUM:
    case GD_CF_NUM_REQ:
    case GD_CF_NUM_REQ0:
        set_num(o, k, *GD_CF_CAT(base, f, double));
        return 1;
    case GD_CF_PID:
        if (*GD_CF_CAT(base, f, int64_t) != GD_PID_APP)
            json_object_set_new(o, k, json_integer(*GD_CF_CAT(base, f, int64_t)));
        return 1;
    case GD_CF_TID:
        if (*GD_CF_CAT(base, f, int64_t) != GD_TID_MAIN)
            json_object_set_new(o, k, json_integer(*GD_CF_CAT(base, f, int64_t)));
        return 1;
    case GD_CF_INT:
    case GD_CF_INT0:
        if (always || f->handler == GD_CF_INT0 || *GD_CF_CAT(base, f, int64_t) >= 0)
            json_object_set_new(o, k, json_integer(*GD_CF_CAT(base, f, int64_t)));
        return 1;
    case GD_CF_FLAGS:
        if (*GD_CF_CAT(base, f, int64_t))
            json_object_set_new(o, k, json_integer(*GD_CF_CAT(base, f, int64_t)));
        return 1;
    case GD_CF_CINT:
        if (*GD_CF_CAT(base, f, int) >= 0)
            json_object_set_new(o, k, json_integer(*GD_CF_CAT(base, f, int)));
        return 1;
    case GD_CF_LAYERS:
        if (*GD_CF_CAT(base, f, int32_t) >= 0)
            json_object_set_new(o, k, json_integer(*GD_CF_CAT(base, f, int32_t)));
        return 1;
    case GD_CF_SCREEN_SIDE:
    case GD_CF_SIDE:
    case GD_CF_BITMAP_SIDE:
        json_object_set_new(o, k, json_integer(*GD_CF_CAT(base, f, int32_t)));
        return 1;
    case GD_CF_BOOL0:
        if (*GD_CF_CAT(base, f, int))
            json_object_set_new(o, k, json_true());
        return 1;
    case GD_CF_BOOL1:
        if (always || !*GD_CF_CAT(base, f, int))
            json_object_set_new(o, k, json_boolean(*GD_CF_CAT(base, f, int)));
        return 1;
    case GD_CF_BOOLN:
        set_bool(o, k, *GD_CF_CAT(base, f, int));
        return 1;
    case GD_CF_PHASE_BE:
    case GD_CF_PHASE_EE: {
        gd_phase ph = *GD_CF_CAT(base, f, gd_phase);
        int be = f->handler == GD_CF_PHASE_BE;
        if (ph != GD_PHASE_UNKNOWN)
            set_str(o, k, ph == GD_PHASE_BEGIN ? (be ? "begin" : "enter") : (be ? "end" : "exit"));
        return 1;
    }
    default:
        return 0;
    }
}

static json_t *counters(const gd_cpu_counters *c, int pid)
{
    if (pid)
        return json_pack("{sI sI sI sI}", "utime", (json_int_t)c->utime, "stime", (json_int_t)c->stime,
                         "cutime", (json_int_t)c->cutime, "cstime", (json_int_t)c->cstime);
    return json_pack("{sI sI sI sI sI sI sI sI}", "user", (json_int_t)c->user, "nice", (json_int_t)c->nice,
                     "system", (json_int_t)c->system, "idle", (json_int_t)c->idle, "iowait",
                     (json_int_t)c->iowait, "irq", (json_int_t)c->irq, "softirq", (json_int_t)c->softirq,
                     "steal", (json_int_t)c->steal);
}

/* 1 when some member of o is an integer above 0. */
static int has_positive(json_t *o)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v)
        if (json_is_integer(v) && json_integer_value(v) > 0)
            return 1;
    return 0;
}

static void put_object(json_t *o, const void *base, const gd_cf_field *f)
{
    json_t *sub = json_object();
    put_group(sub, (const char *)base + f->off, f->sub);
    if (f->handler == GD_CF_OBJ_REQ || (f->flags & GD_CF_ALWAYS) ||
        (f->handler == GD_CF_OBJ ? json_object_size(sub) > 0 : has_positive(sub)))
        json_object_set(o, f->key, sub);
    json_decref(sub);
}

/* Strings, arrays and objects. */
static void put_composite(json_t *o, const void *base, const gd_cf_field *f)
{
    const char *k = f->key;
    switch (f->handler) {
    case GD_CF_TYPE:
        json_object_set_new(o, k, json_string(gd_event_kind_name(*GD_CF_CAT(base, f, gd_event_kind))));
        break;
    case GD_CF_STR:
    case GD_CF_STR_REQ:
    case GD_CF_STARTUP_KIND:
        set_str(o, k, *GD_CF_CAT(base, f, char *));
        break;
    case GD_CF_JSON_TEXT: {
        const char *t = *GD_CF_CAT(base, f, char *);
        json_t *j = t ? json_loads(t, JSON_DECODE_ANY, NULL) : NULL;
        if (j)
            json_object_set_new(o, k, j);
        break;
    }
    case GD_CF_FRAMES: {
        const gd_stack_ev *st = GD_CF_CAT(base, f, gd_stack_ev);
        json_t *a = json_array();
        for (size_t i = 0; i < st->nframes; i++)
            json_array_append_new(a, str_json(st->frames[i]));
        json_object_set_new(o, k, a);
        break;
    }
    case GD_CF_STAT_COUNTERS:
    case GD_CF_PID_COUNTERS: {
        const gd_cpu_counters *c = GD_CF_CAT(base, f, gd_cpu_counters);
        int pid = f->handler == GD_CF_PID_COUNTERS;
        if (pid ? c->has_pid_stat : c->has_stat)
            json_object_set_new(o, k, counters(c, pid));
        break;
    }
    case GD_CF_OBJ:
    case GD_CF_OBJ_REQ:
    case GD_CF_OBJ_SIDES:
        put_object(o, base, f);
        break;
    case GD_CF_VIEWS: {
        const gd_view_dump_ev *d = GD_CF_CAT(base, f, gd_view_dump_ev);
        json_t *a = json_array();
        for (size_t i = 0; i < d->nviews; i++) {
            json_t *vo = json_object();
            put_group(vo, &d->views[i], f->sub);
            json_array_append_new(a, vo);
        }
        json_object_set_new(o, k, a);
        break;
    }
    case GD_CF_RECT: {
        const int32_t *r = GD_CF_CAT(base, f, int32_t);
        json_object_set_new(o, k, json_pack("[iiii]", r[0], r[1], r[2], r[3]));
        break;
    }
    case GD_CF_CONCERN: {
        const gd_meta *m = base;
        if (m->nconcern) {
            json_t *a = json_array();
            for (size_t i = 0; i < m->nconcern; i++)
                json_array_append_new(a, str_json(m->concern[i]));
            json_object_set_new(o, k, a);
        }
        break;
    }
    case GD_CF_FIGURES: {
        const gd_frame_summary_ev *fs = GD_CF_CAT(base, f, gd_frame_summary_ev);
        json_t *fig = json_object();
        for (size_t i = 0; i < fs->n; i++) {
            json_t *key = str_json(fs->keys[i]);
            if (key)
                json_object_set_new(fig, json_string_value(key), str_json(fs->values[i]));
            json_decref(key);
        }
        json_object_set_new(o, k, fig);
        break;
    }
    default:
        break;
    }
}

/* The fields of group g of the table (lib/core/capture_format.def) that
 * godeye writes, in the table's order. */
static void put_group(json_t *o, const void *base, int g)
{
    for (unsigned i = gd_cf_group_first[g]; i < gd_cf_group_first[g + 1]; i++) {
        const gd_cf_field *f = &gd_cf_fields[i];
        if (!(f->flags & GD_CF_IN) && !put_scalar(o, base, f))
            put_composite(o, base, f);
    }
}

json_t *gd_event_to_json(const gd_event *ev)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    put_group(o, ev, GD_CFG_EVENT);
    gd_cf_group_id g = gd_cf_kind_group(ev->kind);
    if (g != GD_CFG_NONE)
        put_group(o, ev, g);
    return o;
}

json_t *gd_meta_to_json(const gd_meta *m)
{
    json_t *o = json_object();
    if (o)
        put_group(o, m, GD_CFG_META);
    return o;
}
