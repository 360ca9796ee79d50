/* event_json.c - normalized events back to capture-format JSON objects. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"

static void set_num(json_t *o, const char *k, double v)
{
    /* range first: converting an out-of-range double to int64_t is undefined */
    if (gd_has(v))
        json_object_set_new(o, k, v < 9e15 && v > -9e15 && v == (double)(int64_t)v
                                      ? json_integer((json_int_t)v)
                                      : json_real(v));
}

/* Length of the valid UTF-8 sequence at p (n bytes left), 0 when invalid
 * (overlong forms, surrogates and code points over U+10FFFF are invalid). */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0], cp;
    size_t len;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, cp = c & 0x07;
    else
        return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return len;
}

/* A JSON string of s (NULL for NULL or out of memory).  jansson refuses
 * invalid UTF-8; each byte that does not start a valid sequence then
 * becomes U+FFFD and the rest of the text is kept. */
static json_t *str_json(const char *s)
{
    json_t *j = s ? json_string(s) : NULL;
    if (j || !s)
        return j;
    size_t n = strlen(s), k = 0;
    char *t = malloc(n * 3 + 1);
    if (!t)
        return NULL;
    for (size_t i = 0; i < n;) {
        size_t len = utf8_len((const unsigned char *)s + i, n - i);
        if (len) {
            memcpy(t + k, s + i, len);
            k += len;
            i += len;
        } else {
            memcpy(t + k, "\xef\xbf\xbd", 3);
            k += 3;
            i++;
        }
    }
    t[k] = 0;
    j = json_string(t);
    free(t);
    return j;
}
static void set_int(json_t *o, const char *k, int64_t v)
{
    if (v >= 0)
        json_object_set_new(o, k, json_integer(v));
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

static json_t *page_json(const gd_page *p)
{
    json_t *o = json_object();
    set_str(o, "type", p->type);
    set_str(o, "class", p->cls);
    set_int(o, "hash", p->hash);
    if (p->parent >= 0)
        json_object_set_new(o, "parent", json_integer(p->parent));
    return o;
}

json_t *gd_event_to_json(const gd_event *ev)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "type", json_string(gd_event_kind_name(ev->kind)));
    set_num(o, "ts", ev->ts);
    if (ev->pid != GD_PID_APP)
        json_object_set_new(o, "pid", json_integer(ev->pid));
    if (ev->tid != GD_TID_MAIN)
        json_object_set_new(o, "tid", json_integer(ev->tid));
    set_str(o, "thread", ev->thread);
    switch (ev->kind) {
    case GD_EV_LOOPER:
        if (ev->u.looper.phase != GD_PHASE_UNKNOWN)
            set_str(o, "phase", ev->u.looper.phase == GD_PHASE_BEGIN ? "begin" : "end");
        set_num(o, "thread_ts", ev->u.looper.thread_ts);
        set_str(o, "msg", ev->u.looper.msg);
        break;
    case GD_EV_DISPATCH:
        set_num(o, "dur", ev->u.dispatch.dur);
        set_num(o, "thread_dur", ev->u.dispatch.thread_dur);
        set_str(o, "msg", ev->u.dispatch.msg);
        if (ev->u.dispatch.unfinished)
            json_object_set_new(o, "unfinished", json_true());
        break;
    case GD_EV_STACK: {
        json_t *a = json_array();
        for (size_t i = 0; i < ev->u.stack.nframes; i++)
            json_array_append_new(a, str_json(ev->u.stack.frames[i]));
        json_object_set_new(o, "frames", a);
        set_str(o, "state", ev->u.stack.state);
        break;
    }
    case GD_EV_CPU: {
        const gd_cpu_ev *c = &ev->u.cpu;
        if (c->raw.has_stat) {
            json_t *r = json_pack("{sI sI sI sI sI sI sI sI}", "user", (json_int_t)c->raw.user,
                                  "nice", (json_int_t)c->raw.nice, "system", (json_int_t)c->raw.system,
                                  "idle", (json_int_t)c->raw.idle, "iowait", (json_int_t)c->raw.iowait,
                                  "irq", (json_int_t)c->raw.irq, "softirq", (json_int_t)c->raw.softirq,
                                  "steal", (json_int_t)c->raw.steal);
            json_object_set_new(o, "stat_counters", r);
        }
        if (c->raw.has_pid_stat) {
            json_t *r = json_pack("{sI sI sI sI}", "utime", (json_int_t)c->raw.utime, "stime",
                                  (json_int_t)c->raw.stime, "cutime", (json_int_t)c->raw.cutime,
                                  "cstime", (json_int_t)c->raw.cstime);
            json_object_set_new(o, "pid_counters", r);
        }
        set_num(o, "total", c->total);
        set_num(o, "app", c->app);
        set_num(o, "user", c->user);
        set_num(o, "sys", c->sys);
        set_num(o, "iowait", c->iowait);
        break;
    }
    case GD_EV_MEMORY: {
        const gd_memory_ev *m = &ev->u.memory;
        json_t *h = json_object(), *p = json_object(), *r = json_object();
        set_int(h, "freeMemKb", m->heap_free_kb);
        set_int(h, "maxMemKb", m->heap_max_kb);
        set_int(h, "allocatedKb", m->heap_alloc_kb);
        set_int(p, "totalPssKb", m->pss_total_kb);
        set_int(p, "dalvikPssKb", m->pss_dalvik_kb);
        set_int(p, "nativePssKb", m->pss_native_kb);
        set_int(p, "otherPssKb", m->pss_other_kb);
        set_int(r, "availMemKb", m->ram_avail_kb);
        set_int(r, "totalMemKb", m->ram_total_kb);
        set_int(r, "lowMemThresholdKb", m->ram_low_threshold_kb);
        set_bool(r, "isLowMemory", m->ram_is_low);
        if (json_object_size(h))
            json_object_set(o, "heap", h);
        if (json_object_size(p))
            json_object_set(o, "pss", p);
        if (json_object_size(r))
            json_object_set(o, "ram", r);
        json_decref(h);
        json_decref(p);
        json_decref(r);
        break;
    }
    case GD_EV_LIFECYCLE:
        json_object_set_new(o, "page", page_json(&ev->u.lifecycle.page));
        set_str(o, "event", ev->u.lifecycle.event);
        set_num(o, "end_ts", ev->u.lifecycle.end_ts);
        break;
    case GD_EV_VIEW_DUMP: {
        const gd_view_dump_ev *d = &ev->u.view_dump;
        json_object_set_new(o, "page", page_json(&d->page));
        if (d->screen_w > 0 || d->screen_h > 0)
            json_object_set_new(o, "screen", json_pack("{si si}", "w", d->screen_w, "h", d->screen_h));
        set_str(o, "window", d->window);
        if (!d->has_paint)
            json_object_set_new(o, "has_paint", json_false());
        json_t *a = json_array();
        for (size_t i = 0; i < d->nviews; i++) {
            const gd_view *v = &d->views[i];
            json_t *vo = json_pack("{sI sI s[iiii] sb}", "id", (json_int_t)v->id, "parent",
                                   (json_int_t)v->parent, "rect", v->rect[0], v->rect[1],
                                   v->rect[2], v->rect[3], "visible", v->visible);
            set_str(vo, "class", v->cls);
            if (v->layers >= 0)
                json_object_set_new(vo, "layers", json_integer(v->layers));
            set_str(vo, "res_id", v->res_id);
            set_str(vo, "text", v->text);
            json_array_append_new(a, vo);
        }
        json_object_set_new(o, "views", a);
        break;
    }
    case GD_EV_IMAGE: {
        const gd_image_ev *im = &ev->u.image;
        json_object_set_new(o, "page", page_json(&im->page));
        json_t *v = json_pack("{si si sb}", "w", im->view_w, "h", im->view_h, "visible", im->view_visible);
        set_int(v, "hash", im->view_hash);
        set_str(v, "class", im->view_cls);
        json_object_set_new(o, "view", v);
        json_t *b = json_pack("{si si}", "w", im->bitmap_w, "h", im->bitmap_h);
        set_str(b, "config", im->config);
        json_object_set_new(o, "bitmap", b);
        set_str(o, "source", im->source);
        break;
    }
    case GD_EV_METHOD: {
        const gd_method_ev *m = &ev->u.method;
        if (m->phase != GD_PHASE_UNKNOWN)
            set_str(o, "phase", m->phase == GD_PHASE_BEGIN ? "enter" : "exit");
        set_str(o, "class", m->cls);
        set_str(o, "method", m->method);
        set_str(o, "desc", m->desc);
        set_num(o, "end_ts", m->end_ts);
        if (m->depth >= 0)
            json_object_set_new(o, "depth", json_integer(m->depth));
        if (m->open)
            json_object_set_new(o, "open", json_true());
        break;
    }
    case GD_EV_FRAME:
        set_num(o, "dur", ev->u.frame.dur);
        set_str(o, "window", ev->u.frame.window);
        if (ev->u.frame.flags)
            json_object_set_new(o, "flags", json_integer(ev->u.frame.flags));
        set_num(o, "vsync_ms", ev->u.frame.vsync_ms);
        break;
    case GD_EV_MARK:
        set_str(o, "name", ev->u.mark.name);
        break;
    case GD_EV_FRAME_SUMMARY: {
        json_t *f = json_object();
        for (size_t i = 0; i < ev->u.frame_summary.n; i++) {
            json_t *key = str_json(ev->u.frame_summary.keys[i]);
            if (key)
                json_object_set_new(f, json_string_value(key),
                                    str_json(ev->u.frame_summary.values[i]));
            json_decref(key);
        }
        set_str(o, "window", ev->u.frame_summary.window);
        json_object_set_new(o, "figures", f);
        break;
    }
    case GD_EV_ISSUE:
        set_str(o, "tool", ev->u.issue.tool);
        set_str(o, "issue_type", ev->u.issue.type);
        set_str(o, "detail", ev->u.issue.detail);
        set_num(o, "cost", ev->u.issue.cost_ms);
        if (ev->u.issue.json) {
            json_t *j = json_loads(ev->u.issue.json, JSON_DECODE_ANY, NULL);
            if (j)
                json_object_set_new(o, "content", j);
        }
        break;
    case GD_EV_STARTUP:
        set_str(o, "app", ev->u.startup.app);
        set_str(o, "activity", ev->u.startup.activity);
        set_str(o, "startup_kind", ev->u.startup.kind);
        set_num(o, "total_ms", ev->u.startup.total_ms);
        set_num(o, "wait_ms", ev->u.startup.wait_ms);
        set_str(o, "source", ev->u.startup.source);
        break;
    default:
        break;
    }
    return o;
}

json_t *gd_meta_to_json(const gd_meta *m)
{
    json_t *o = json_object();
    set_str(o, "app", m->app);
    set_str(o, "version_name", m->version_name);
    set_int(o, "version_code", m->version_code);
    set_str(o, "device", m->device);
    set_int(o, "api_level", m->api_level);
    set_int(o, "cpu_cores", m->cpu_cores);
    set_int(o, "pid", m->pid);
    set_int(o, "main_tid", m->main_tid);
    set_str(o, "session", m->session);
    set_int(o, "clk_tck", m->clk_tck);
    set_str(o, "clock", m->clock);
    if (m->utc_offset_min != INT64_MIN)
        set_int(o, "utc_offset_min", m->utc_offset_min);
    json_t *c = json_object();
    set_num(c, "long_block_ms", m->long_block_ms);
    set_num(c, "short_block_ms", m->short_block_ms);
    set_num(c, "dump_interval_ms", m->dump_interval_ms);
    set_num(c, "sample_delay_ms", m->sample_delay_ms);
    set_int(c, "max_depth", m->max_depth);
    if (m->nconcern) {
        json_t *a = json_array();
        for (size_t i = 0; i < m->nconcern; i++)
            json_array_append_new(a, str_json(m->concern[i]));
        json_object_set_new(c, "concern_packages", a);
    }
    if (json_object_size(c))
        json_object_set(o, "config", c);
    json_decref(c);
    return o;
}
