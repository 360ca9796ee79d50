/* godeye.c - reader of the godeye capture format (document and JSON Lines). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "godeye_fast.h"
#include "io/jsonstream.h"
#include "procstat.h"
#include "reader.h"
#include "core/util.h"

/* Per-read scratch for arrays borrowed by events. */
typedef struct scratch {
    const char **frames;
    size_t frames_cap;
    gd_view *views;
    size_t views_cap;
} scratch;

typedef struct ctx {
    const gd_sink *sink;
    scratch sc;
    gd_fast_scratch fast;
    long line, col;  /* start of the current event */
    int keep_going;  /* gd_read_opts.keep_going */
} ctx;

static int type_err(ctx *c, gd_error *err, const char *field, const char *want)
{
    return gd_error_set(err, GD_ERR_DATA, c->line, c->col, "field '%s' must be %s", field, want);
}

/* Optional number: absent -> NONE; wrong type -> counted, ignored. */
static double opt_num(ctx *c, json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (!v || json_is_null(v))
        return GD_NONE;
    if (!json_is_number(v)) {
        gd_sink_skip(c->sink, "ignored: field of wrong type", c->line, c->col);
        return GD_NONE;
    }
    return json_number_value(v);
}

static int64_t opt_int(ctx *c, json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (!v || json_is_null(v))
        return -1;
    if (json_is_integer(v))
        return json_integer_value(v);
    int64_t r;
    if (json_is_real(v) && gd_d2i64(json_real_value(v), &r))
        return r;
    if (json_is_string(v)) {
        /* hashes are sometimes written as strings */
        char *e;
        long long x = strtoll(json_string_value(v), &e, 10);
        if (*e == 0 && e != json_string_value(v))
            return x;
    }
    gd_sink_skip(c->sink, "ignored: field of wrong type", c->line, c->col);
    return -1;
}

static const char *opt_str(ctx *c, json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        gd_sink_skip(c->sink, "ignored: field of wrong type", c->line, c->col);
        return NULL;
    }
    return json_string_value(v);
}

static int opt_bool(ctx *c, json_t *o, const char *k, int dflt)
{
    json_t *v = json_object_get(o, k);
    if (!v || json_is_null(v))
        return dflt;
    if (json_is_boolean(v))
        return json_is_true(v);
    if (json_is_integer(v))
        return json_integer_value(v) != 0;
    gd_sink_skip(c->sink, "ignored: field of wrong type", c->line, c->col);
    return dflt;
}

static void read_page(ctx *c, json_t *o, gd_page *p)
{
    json_t *pg = json_object_get(o, "page");
    if (!json_is_object(pg))
        return;
    p->type = opt_str(c, pg, "type");
    p->cls = opt_str(c, pg, "class");
    p->hash = opt_int(c, pg, "hash");
    p->parent = opt_int(c, pg, "parent");
}

static int rect_of(json_t *r, int32_t out[4])
{
    if (!json_is_array(r) || json_array_size(r) != 4)
        return -1;
    for (int i = 0; i < 4; i++) {
        json_t *x = json_array_get(r, i);
        if (!json_is_number(x))
            return -1;
        double d = json_number_value(x);
        if (d > 1e9 || d < -1e9)
            return -1;
        out[i] = (int32_t)d;
    }
    return 0;
}

/* A side in px: past int32 it stays too large (the range rule refuses it)
 * rather than wrapping to a small one; below, as given. */
static int32_t side(int64_t px)
{
    return px > INT32_MAX ? INT32_MAX : px < INT32_MIN ? INT32_MIN : (int32_t)px;
}

/* Converts one event object.  Returns 0 and fills ev, SKIP when the event
 * is to be skipped (counted), or an error code. */
#define SKIP (-1)
static int convert(ctx *c, json_t *o, gd_event *ev, gd_error *err)
{
    if (!json_is_object(o))
        return gd_error_set(err, GD_ERR_DATA, c->line, c->col, "event must be an object");
    json_t *t = json_object_get(o, "type");
    if (!json_is_string(t))
        return type_err(c, err, "type", "a string");
    int kind = gd_event_kind_from_name(json_string_value(t));
    if (kind < 0 || kind == GD_EV_FRAME_SUMMARY || kind == GD_EV_ISSUE) {
        gd_sink_skip(c->sink, "unknown event kind", c->line, c->col);
        return SKIP;
    }
    gd_event_init(ev, (gd_event_kind)kind);
    ev->line = c->line;
    json_t *ts = json_object_get(o, "ts");
    if (!json_is_number(ts))
        return type_err(c, err, "ts", "a number (epoch ms)");
    ev->ts = json_number_value(ts);
    json_t *tid = json_object_get(o, "tid");
    if (tid && !json_is_null(tid)) {
        if (!json_is_integer(tid))
            return type_err(c, err, "tid", "an integer");
        ev->tid = json_integer_value(tid);
    }
    json_t *pid = json_object_get(o, "pid");
    if (json_is_integer(pid))
        ev->pid = json_integer_value(pid);
    ev->thread = opt_str(c, o, "thread");

    switch (ev->kind) {
    case GD_EV_LOOPER: {
        const char *ph = opt_str(c, o, "phase");
        if (ph && strcmp(ph, "begin") == 0)
            ev->u.looper.phase = GD_PHASE_BEGIN;
        else if (ph && strcmp(ph, "end") == 0)
            ev->u.looper.phase = GD_PHASE_END;
        else if (ph)
            return gd_error_set(err, GD_ERR_DATA, c->line, c->col,
                                "field 'phase' must be \"begin\" or \"end\"");
        ev->u.looper.thread_ts = opt_num(c, o, "thread_ts");
        ev->u.looper.msg = opt_str(c, o, "msg");
        break;
    }
    case GD_EV_DISPATCH: {
        json_t *d = json_object_get(o, "dur");
        if (!json_is_number(d))
            return type_err(c, err, "dur", "a number (ms)");
        ev->u.dispatch.dur = json_number_value(d);
        ev->u.dispatch.thread_dur = opt_num(c, o, "thread_dur");
        ev->u.dispatch.msg = opt_str(c, o, "msg");
        ev->u.dispatch.unfinished = opt_bool(c, o, "unfinished", 0);
        break;
    }
    case GD_EV_STACK: {
        json_t *f = json_object_get(o, "frames");
        if (!json_is_array(f))
            return type_err(c, err, "frames", "an array of strings");
        size_t n = json_array_size(f);
        if (gd_grow((void **)&c->sc.frames, &c->sc.frames_cap, n, sizeof(char *), err))
            return GD_ERR_IO;
        for (size_t i = 0; i < n; i++) {
            json_t *s = json_array_get(f, i);
            if (!json_is_string(s))
                return type_err(c, err, "frames", "an array of strings");
            c->sc.frames[i] = json_string_value(s);
        }
        ev->u.stack.frames = c->sc.frames;
        ev->u.stack.nframes = n;
        ev->u.stack.state = opt_str(c, o, "state");
        break;
    }
    case GD_EV_CPU: {
        gd_cpu_ev *cpu = &ev->u.cpu;
        const char *st = opt_str(c, o, "stat");
        const char *ps = opt_str(c, o, "pid_stat");
        if (st && gd_procstat_parse_stat(st, &cpu->raw) != 0)
            return gd_error_set(err, GD_ERR_DATA, c->line, c->col,
                                "field 'stat' is not a /proc/stat cpu line");
        if (ps && gd_procstat_parse_pid_stat(ps, &cpu->raw, NULL, NULL, 0) != 0)
            return gd_error_set(err, GD_ERR_DATA, c->line, c->col,
                                "field 'pid_stat' is not a /proc/<pid>/stat line");
        cpu->total = opt_num(c, o, "total");
        cpu->app = opt_num(c, o, "app");
        cpu->user = opt_num(c, o, "user");
        cpu->sys = opt_num(c, o, "sys");
        cpu->iowait = opt_num(c, o, "iowait");
        if (!cpu->raw.has_stat && !gd_has(cpu->total) && !gd_has(cpu->app)) {
            gd_sink_skip(c->sink, "cpu: no counters or ratios", c->line, c->col);
            return SKIP;
        }
        break;
    }
    case GD_EV_MEMORY: {
        gd_memory_ev *m = &ev->u.memory;
        json_t *h = json_object_get(o, "heap"), *p = json_object_get(o, "pss"),
               *r = json_object_get(o, "ram");
        if (json_is_object(h)) {
            m->heap_free_kb = opt_int(c, h, "freeMemKb");
            m->heap_max_kb = opt_int(c, h, "maxMemKb");
            m->heap_alloc_kb = opt_int(c, h, "allocatedKb");
        }
        if (json_is_object(p)) {
            m->pss_total_kb = opt_int(c, p, "totalPssKb");
            m->pss_dalvik_kb = opt_int(c, p, "dalvikPssKb");
            m->pss_native_kb = opt_int(c, p, "nativePssKb");
            m->pss_other_kb = opt_int(c, p, "otherPssKb");
        }
        if (json_is_object(r)) {
            m->ram_avail_kb = opt_int(c, r, "availMemKb");
            m->ram_total_kb = opt_int(c, r, "totalMemKb");
            m->ram_low_threshold_kb = opt_int(c, r, "lowMemThresholdKb");
            m->ram_is_low = opt_bool(c, r, "isLowMemory", -1);
        }
        break;
    }
    case GD_EV_LIFECYCLE:
        read_page(c, o, &ev->u.lifecycle.page);
        ev->u.lifecycle.event = opt_str(c, o, "event");
        ev->u.lifecycle.end_ts = opt_num(c, o, "end_ts");
        if (!ev->u.lifecycle.event)
            return type_err(c, err, "event", "a string");
        break;
    case GD_EV_VIEW_DUMP: {
        gd_view_dump_ev *d = &ev->u.view_dump;
        read_page(c, o, &d->page);
        json_t *scr = json_object_get(o, "screen");
        if (json_is_object(scr)) {
            d->screen_w = (int32_t)opt_int(c, scr, "w");
            d->screen_h = (int32_t)opt_int(c, scr, "h");
            if (d->screen_w < 0)
                d->screen_w = 0;
            if (d->screen_h < 0)
                d->screen_h = 0;
        }
        d->window = opt_str(c, o, "window");
        d->has_paint = opt_bool(c, o, "has_paint", 1);
        json_t *vs = json_object_get(o, "views");
        if (!json_is_array(vs))
            return type_err(c, err, "views", "an array");
        size_t n = json_array_size(vs);
        if (gd_grow((void **)&c->sc.views, &c->sc.views_cap, n, sizeof(gd_view), err))
            return GD_ERR_IO;
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            json_t *v = json_array_get(vs, i);
            gd_view *gv = &c->sc.views[k];
            memset(gv, 0, sizeof *gv);
            if (!json_is_object(v) || rect_of(json_object_get(v, "rect"), gv->rect) != 0) {
                gd_sink_skip(c->sink, "view: malformed", c->line, c->col);
                continue;
            }
            gv->id = opt_int(c, v, "id");
            gv->parent = opt_int(c, v, "parent");
            if (gv->parent < 0)
                gv->parent = 0;
            gv->cls = opt_str(c, v, "class");
            json_t *ly = json_object_get(v, "layers");
            gv->layers = json_is_integer(ly) ? (int32_t)json_integer_value(ly) : (d->has_paint ? 1 : -1);
            gv->visible = opt_bool(c, v, "visible", 1);
            gv->res_id = opt_str(c, v, "res_id");
            gv->text = opt_str(c, v, "text");
            k++;
        }
        d->views = c->sc.views;
        d->nviews = k;
        break;
    }
    case GD_EV_IMAGE: {
        gd_image_ev *im = &ev->u.image;
        read_page(c, o, &im->page);
        json_t *v = json_object_get(o, "view"), *b = json_object_get(o, "bitmap");
        if (!json_is_object(v))
            return type_err(c, err, "view", "an object");
        if (!json_is_object(b))
            return type_err(c, err, "bitmap", "an object");
        im->view_hash = opt_int(c, v, "hash");
        im->view_cls = opt_str(c, v, "class");
        im->view_w = side(opt_int(c, v, "w"));
        im->view_h = side(opt_int(c, v, "h"));
        im->view_visible = opt_bool(c, v, "visible", 1);
        json_t *bw = json_object_get(b, "w"), *bh = json_object_get(b, "h");
        if (!json_is_integer(bw) || !json_is_integer(bh))
            return type_err(c, err, "bitmap.w/h", "integers");
        im->bitmap_w = side(json_integer_value(bw));
        im->bitmap_h = side(json_integer_value(bh));
        im->config = opt_str(c, b, "config");
        im->source = opt_str(c, o, "source");
        break;
    }
    case GD_EV_METHOD: {
        gd_method_ev *m = &ev->u.method;
        const char *ph = opt_str(c, o, "phase");
        if (ph && strcmp(ph, "enter") == 0)
            m->phase = GD_PHASE_BEGIN;
        else if (ph && strcmp(ph, "exit") == 0)
            m->phase = GD_PHASE_END;
        else
            return gd_error_set(err, GD_ERR_DATA, c->line, c->col,
                                "field 'phase' must be \"enter\" or \"exit\"");
        m->cls = opt_str(c, o, "class");
        m->method = opt_str(c, o, "method");
        m->desc = opt_str(c, o, "desc");
        break;
    }
    case GD_EV_FRAME: {
        json_t *d = json_object_get(o, "dur");
        if (!json_is_number(d))
            return type_err(c, err, "dur", "a number (ms)");
        ev->u.frame.dur = json_number_value(d);
        ev->u.frame.window = opt_str(c, o, "window");
        break;
    }
    case GD_EV_MARK:
        ev->u.mark.name = opt_str(c, o, "name");
        break;
    case GD_EV_STARTUP: {
        gd_startup_ev *st = &ev->u.startup;
        json_t *t = json_object_get(o, "total_ms");
        if (!json_is_number(t) || json_number_value(t) < 0)
            return type_err(c, err, "total_ms", "a number (ms, >= 0)");
        st->total_ms = json_number_value(t);
        st->wait_ms = opt_num(c, o, "wait_ms");
        st->app = opt_str(c, o, "app");
        st->activity = opt_str(c, o, "activity");
        st->source = opt_str(c, o, "source");
        st->kind = opt_str(c, o, "startup_kind");
        if (st->kind && strcmp(st->kind, "cold") != 0 && strcmp(st->kind, "warm") != 0 &&
            strcmp(st->kind, "hot") != 0) {
            gd_sink_skip(c->sink, "ignored: startup: unknown startup_kind", c->line, c->col);
            st->kind = NULL;
        }
        break;
    }
    default:
        break;
    }
    return 0;
}

static int emit(ctx *c, json_t *o, gd_error *err)
{
    gd_event ev;
    int rc = convert(c, o, &ev, err);
    if (rc == SKIP)
        return 0;
    if (rc)
        return rc;
    const char *bad = gd_event_out_of_range(&ev);
    if (bad)
        return gd_error_set(err, GD_ERR_DATA, c->line, c->col, "field '%s' is out of range (%s)", bad,
                            strchr(bad, '.') || strcmp(bad, "screen") == 0
                                ? "a side is at most 16777216 px"
                            : strstr(bad, "ts") ? "a time is ms from 0 to the end of year 9999"
                                                : "a duration is at most 2^53 us, about 285 years");
    return gd_sink_event(c->sink, &ev, err);
}

/* The hot kinds without a jansson tree: 1 when sent, 0 when the general
 * path must read the text, or an error code (negative: out of memory). */
static int emit_fast(ctx *c, const char *text, size_t len, gd_error *err)
{
    gd_event ev;
    int r = gd_fast_event(text, len, &c->fast, &ev);
    if (r < 0)
        return gd_error_set(err, GD_ERR_IO, c->line, c->col, "out of memory");
    if (r == 0 || gd_event_out_of_range(&ev))
        return 0; /* the general path reads it (and says what is wrong) */
    ev.line = c->line;
    int rc = gd_sink_event(c->sink, &ev, err);
    return rc ? rc : 1;
}

static int read_meta(ctx *c, json_t *o, gd_error *err)
{
    if (!json_is_object(o))
        return gd_error_set(err, GD_ERR_DATA, c->line, c->col, "meta must be an object");
    gd_meta m;
    gd_meta_init(&m);
    m.app = opt_str(c, o, "app");
    m.version_name = opt_str(c, o, "version_name");
    m.version_code = opt_int(c, o, "version_code");
    m.device = opt_str(c, o, "device");
    m.api_level = opt_int(c, o, "api_level");
    m.cpu_cores = opt_int(c, o, "cpu_cores");
    m.pid = opt_int(c, o, "pid");
    m.main_tid = opt_int(c, o, "main_tid");
    m.session = opt_str(c, o, "session");
    m.clk_tck = opt_int(c, o, "clk_tck");
    json_t *cfg = json_object_get(o, "config");
    if (json_is_object(cfg)) {
        m.long_block_ms = opt_num(c, cfg, "long_block_ms");
        m.short_block_ms = opt_num(c, cfg, "short_block_ms");
        m.dump_interval_ms = opt_num(c, cfg, "dump_interval_ms");
        m.sample_delay_ms = opt_num(c, cfg, "sample_delay_ms");
        m.max_depth = opt_int(c, cfg, "max_depth");
        json_t *cp = json_object_get(cfg, "concern_packages");
        size_t i;
        json_t *s;
        json_array_foreach(cp, i, s)
            if (json_is_string(s) && m.nconcern < GD_MAX_CONCERN)
                m.concern[m.nconcern++] = json_string_value(s);
    }
    json_t *copy = json_deep_copy(o);
    json_object_del(copy, "type");
    char *js = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(copy);
    m.json = js;
    int rc = gd_sink_meta(c->sink, &m, err);
    free(js);
    return rc;
}

/* Finds the first key of the top-level object in `head`: decides between
 * a document ("godeye_trace", "meta" or "events" first) and JSON Lines. */
static int head_is_document(const unsigned char *h, size_t n)
{
    size_t i = 0;
    while (i < n && (h[i] == ' ' || h[i] == '\n' || h[i] == '\r' || h[i] == '\t'))
        i++;
    if (i >= n || h[i] != '{')
        return 0;
    i++;
    while (i < n && (h[i] == ' ' || h[i] == '\n' || h[i] == '\r' || h[i] == '\t'))
        i++;
    static const char *const keys[] = {"\"godeye_trace\"", "\"meta\"", "\"events\""};
    for (int k = 0; k < 3; k++) {
        size_t kl = strlen(keys[k]);
        if (n - i >= kl && memcmp(h + i, keys[k], kl) == 0)
            return 1;
    }
    return 0;
}

static int probe(const unsigned char *h, size_t n, int eof)
{
    if (head_is_document(h, n))
        return 100;
    /* JSON Lines: the first non-blank line is an object with a known type */
    size_t i = 0;
    while (i < n && (h[i] == ' ' || h[i] == '\n' || h[i] == '\r' || h[i] == '\t'))
        i++;
    if (i >= n || h[i] != '{')
        return 0;
    const unsigned char *nl = memchr(h + i, '\n', n - i);
    size_t len = nl ? (size_t)(nl - (h + i)) : (eof ? n - i : 0);
    if (!len)
        return 0;
    json_t *o = json_loadb((const char *)h + i, len, 0, NULL);
    int score = 0;
    if (json_is_object(o)) {
        const char *t = json_string_value(json_object_get(o, "type"));
        if (t && (strcmp(t, "meta") == 0 || gd_event_kind_from_name(t) >= 0) &&
            json_object_get(o, "ts"))
            score = 90;
        else if (t && strcmp(t, "meta") == 0)
            score = 90;
    }
    json_decref(o);
    return score;
}

static int read_document(ctx *c, gd_input *in, gd_error *err)
{
    gd_jstream *js = gd_jstream_new(in);
    int rc = GD_OK;
    const char *key;
    int r;
    if (!js)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    if (gd_jstream_enter(js, err)) {
        rc = GD_ERR_DATA;
        goto out;
    }
    while ((r = gd_jstream_next_key(js, &key, err)) == 1) {
        if (strcmp(key, "events") == 0) {
            if (gd_jstream_peek(js, err) != '[') {
                rc = gd_error_set(err, GD_ERR_DATA, gd_jstream_line(js), gd_jstream_col(js),
                                  "field 'events' must be an array");
                goto out;
            }
            gd_jstream_enter(js, err);
            while ((r = gd_jstream_next_elem(js, err)) == 1) {
                const char *text;
                size_t len;
                if (gd_jstream_raw(js, &text, &len, &c->line, &c->col, err)) {
                    rc = GD_ERR_DATA;
                    goto out;
                }
                int f = emit_fast(c, text, len, err);
                if (f == 1)
                    continue;
                if (f) {
                    rc = f;
                    goto out;
                }
                json_t *o = gd_jstream_parse_raw(js, err);
                if (!o) {
                    rc = GD_ERR_DATA;
                    goto out;
                }
                rc = emit(c, o, err);
                json_decref(o);
                if (rc)
                    goto out;
            }
            if (r < 0) {
                rc = GD_ERR_DATA;
                goto out;
            }
        } else if (strcmp(key, "meta") == 0 || strcmp(key, "godeye_trace") == 0) {
            int is_meta = key[0] == 'm';
            json_t *o = gd_jstream_value(js, &c->line, &c->col, err);
            if (!o) {
                rc = GD_ERR_DATA;
                goto out;
            }
            if (is_meta)
                rc = read_meta(c, o, err);
            else if (!json_is_integer(o) || json_integer_value(o) != 1)
                rc = gd_error_set(err, GD_ERR_DATA, c->line, c->col,
                                  "unsupported godeye_trace version (this godeye reads 1)");
            json_decref(o);
            if (rc)
                goto out;
        } else if (gd_jstream_skip(js, err)) {
            rc = GD_ERR_DATA;
            goto out;
        }
    }
    if (r < 0 || gd_jstream_expect_end(js, err)) {
        rc = err->code ? err->code : GD_ERR_DATA;
        goto out;
    }
out:
    if (rc && err->code == 0)
        err->code = rc;
    gd_jstream_free(js);
    return rc;
}

/* 1 when nothing but blank lines follows (the failed line was the last). */
static int rest_is_blank(gd_input *in)
{
    char *line;
    size_t len;
    gd_error e = {0};
    int r;
    while ((r = gd_input_getline(in, &line, &len, &e)) == 1)
        for (size_t i = 0; i < len; i++)
            if (line[i] != ' ' && line[i] != '\t')
                return 0;
    return r == 0;
}

static int read_lines(ctx *c, gd_input *in, gd_error *err)
{
    char *line;
    size_t len;
    int r;
    while ((r = gd_input_getline(in, &line, &len, err)) == 1) {
        size_t i = 0;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i == len)
            continue;
        c->line = gd_input_lineno(in);
        c->col = (long)i + 1;
        int f = emit_fast(c, line + i, len - i, err);
        if (f == 1)
            continue;
        if (f)
            return f;
        json_error_t je;
        json_t *o = json_loadb(line + i, len - i, 0, &je);
        if (!o) {
            long col = (long)i + je.column;
            /* keep_going: an unparsable LAST line is a capture cut short */
            if (c->keep_going && rest_is_blank(in)) {
                gd_sink_skip(c->sink, GD_SKIP_TRUNCATED, c->line, col);
                return GD_OK;
            }
            return gd_error_set(err, GD_ERR_DATA, c->line, col, "%s", je.text);
        }
        int rc;
        const char *t = json_string_value(json_object_get(o, "type"));
        if (t && strcmp(t, "meta") == 0)
            rc = read_meta(c, o, err);
        else
            rc = emit(c, o, err);
        json_decref(o);
        if (rc)
            return rc;
    }
    return r < 0 ? (err->code ? err->code : GD_ERR_DATA) : GD_OK;
}

static int read_capture(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    ctx c = {.sink = sink, .keep_going = opts && opts->keep_going};
    size_t n;
    int eof;
    const unsigned char *h = gd_input_peek(in, &n, &eof, err);
    if (!h)
        return err->code ? err->code : GD_ERR_IO;
    int rc = head_is_document(h, n) ? read_document(&c, in, err) : read_lines(&c, in, err);
    free(c.sc.frames);
    free(c.sc.views);
    gd_fast_scratch_free(&c.fast);
    return rc;
}

const gd_reader gd_reader_godeye = {
    .name = "godeye",
    .description = "godeye capture format: JSON document or JSON Lines (gzip allowed)",
    .probe = probe,
    .read = read_capture,
    .clock = "utc",
};
