/* godeye.c - reader of the godeye capture format (document and JSON Lines). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/capture_format.h"
#include "godeye_fast.h"
#include "io/jsonstream.h"
#include "procstat.h"
#include "reader.h"
#include "core/util.h"
#include "core/skip_reasons.h"

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
    int has_paint;   /* of the view dump being read */
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
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_FIELD_OF_WRONG_TYPE), c->line, c->col);
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
    gd_sink_skip(c->sink, GD_SKIP(IGNORED_FIELD_OF_WRONG_TYPE), c->line, c->col);
    return -1;
}

static const char *opt_str(ctx *c, json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_FIELD_OF_WRONG_TYPE), c->line, c->col);
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
    gd_sink_skip(c->sink, GD_SKIP(IGNORED_FIELD_OF_WRONG_TYPE), c->line, c->col);
    return dflt;
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

static int read_group(ctx *c, json_t *o, void *base, int g, gd_error *err);

/* A phase word of looper ("begin"/"end") or method ("enter"/"exit"). */
static int read_phase(ctx *c, json_t *o, void *base, const gd_cf_field *f, gd_error *err)
{
    const char *b = f->handler == GD_CF_PHASE_BE ? "begin" : "enter";
    const char *e = f->handler == GD_CF_PHASE_BE ? "end" : "exit";
    const char *ph = opt_str(c, o, f->key);
    gd_phase *p = GD_CF_AT(base, f, gd_phase);
    if (ph && strcmp(ph, b) == 0)
        *p = GD_PHASE_BEGIN;
    else if (ph && strcmp(ph, e) == 0)
        *p = GD_PHASE_END;
    else if (ph || f->handler == GD_CF_PHASE_EE)
        return gd_error_set(err, GD_ERR_DATA, c->line, c->col, "field '%s' must be \"%s\" or \"%s\"",
                            f->key, b, e);
    return 0;
}

/* Fields kept as given (numbers, strings, booleans): 0, an error code, or
 * NOT_SCALAR for the other handlers. */
#define NOT_SCALAR (-2)
static int read_scalar(ctx *c, json_t *o, void *base, const gd_cf_field *f, gd_error *err)
{
    json_t *v;
    switch (f->handler) {
    case GD_CF_TS:
    case GD_CF_NUM_REQ:
    case GD_CF_NUM_REQ0:
        v = json_object_get(o, f->key);
        if (!json_is_number(v) || (f->handler == GD_CF_NUM_REQ0 && json_number_value(v) < 0))
            return type_err(c, err, f->key,
                            f->handler == GD_CF_TS         ? "a number (epoch ms)"
                            : f->handler == GD_CF_NUM_REQ0 ? "a number (ms, >= 0)"
                                                           : "a number (ms)");
        *GD_CF_AT(base, f, double) = json_number_value(v);
        return 0;
    case GD_CF_TID:
        v = json_object_get(o, f->key);
        if (v && !json_is_null(v)) {
            if (!json_is_integer(v))
                return type_err(c, err, f->key, "an integer");
            *GD_CF_AT(base, f, int64_t) = json_integer_value(v);
        }
        return 0;
    case GD_CF_PID:
        v = json_object_get(o, f->key);
        if (json_is_integer(v))
            *GD_CF_AT(base, f, int64_t) = json_integer_value(v);
        return 0;
    case GD_CF_NUM:
        *GD_CF_AT(base, f, double) = opt_num(c, o, f->key);
        return 0;
    case GD_CF_INT:
    case GD_CF_INT0: {
        int64_t x = opt_int(c, o, f->key);
        *GD_CF_AT(base, f, int64_t) = f->handler == GD_CF_INT0 && x < 0 ? 0 : x;
        return 0;
    }
    case GD_CF_STR:
    case GD_CF_STR_REQ:
        *GD_CF_AT(base, f, const char *) = opt_str(c, o, f->key);
        return 0;
    case GD_CF_STARTUP_KIND: {
        const char *k = opt_str(c, o, f->key);
        if (k && strcmp(k, "cold") != 0 && strcmp(k, "warm") != 0 && strcmp(k, "hot") != 0) {
            gd_sink_skip(c->sink, GD_SKIP(IGNORED_STARTUP_UNKNOWN_STARTUP_KIND), c->line, c->col);
            k = NULL;
        }
        *GD_CF_AT(base, f, const char *) = k;
        return 0;
    }
    case GD_CF_BOOL0:
    case GD_CF_BOOL1:
    case GD_CF_BOOLN:
        *GD_CF_AT(base, f, int) =
            opt_bool(c, o, f->key, f->handler == GD_CF_BOOL0 ? 0 : f->handler == GD_CF_BOOL1 ? 1 : -1);
        return 0;
    case GD_CF_PHASE_BE:
    case GD_CF_PHASE_EE:
        return read_phase(c, o, base, f, err);
    case GD_CF_SCREEN_SIDE: {
        int32_t x = (int32_t)opt_int(c, o, f->key);
        *GD_CF_AT(base, f, int32_t) = x < 0 ? 0 : x;
        return 0;
    }
    case GD_CF_SIDE:
        *GD_CF_AT(base, f, int32_t) = side(opt_int(c, o, f->key));
        return 0;
    case GD_CF_BITMAP_SIDE:
        v = json_object_get(o, f->key);
        if (!json_is_integer(v))
            return type_err(c, err, "bitmap.w/h", "integers");
        *GD_CF_AT(base, f, int32_t) = side(json_integer_value(v));
        return 0;
    case GD_CF_LAYERS:
        v = json_object_get(o, f->key);
        *GD_CF_AT(base, f, int32_t) = json_is_integer(v) ? (int32_t)json_integer_value(v) : (c->has_paint ? 1 : -1);
        return 0;
    default:
        return NOT_SCALAR;
    }
}

/* view_dump's views: an object without its rect is counted and dropped. */
static int read_views(ctx *c, json_t *o, gd_view_dump_ev *d, const gd_cf_field *f, gd_error *err)
{
    json_t *vs = json_object_get(o, f->key);
    if (!json_is_array(vs))
        return type_err(c, err, f->key, "an array");
    const gd_cf_field *rect = NULL;
    for (unsigned i = gd_cf_group_first[f->sub]; i < gd_cf_group_first[f->sub + 1]; i++)
        if (gd_cf_fields[i].handler == GD_CF_RECT)
            rect = &gd_cf_fields[i];
    size_t n = json_array_size(vs), k = 0;
    if (gd_grow((void **)&c->sc.views, &c->sc.views_cap, n, sizeof(gd_view), err))
        return GD_ERR_IO;
    c->has_paint = d->has_paint;
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(vs, i);
        gd_view *gv = &c->sc.views[k];
        memset(gv, 0, sizeof *gv);
        if (!json_is_object(v) || rect_of(json_object_get(v, rect->key), GD_CF_AT(gv, rect, int32_t)) != 0) {
            gd_sink_skip(c->sink, GD_SKIP(VIEW_MALFORMED), c->line, c->col);
            continue;
        }
        read_group(c, v, gv, f->sub, err);
        k++;
    }
    d->views = c->sc.views;
    d->nviews = k;
    return 0;
}

static int read_frames(ctx *c, json_t *o, gd_stack_ev *st, const gd_cf_field *f, gd_error *err)
{
    json_t *a = json_object_get(o, f->key);
    if (!json_is_array(a))
        return type_err(c, err, f->key, "an array of strings");
    size_t n = json_array_size(a);
    if (gd_grow((void **)&c->sc.frames, &c->sc.frames_cap, n, sizeof(char *), err))
        return GD_ERR_IO;
    for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(a, i);
        if (!json_is_string(s))
            return type_err(c, err, f->key, "an array of strings");
        c->sc.frames[i] = json_string_value(s);
    }
    st->frames = c->sc.frames;
    st->nframes = n;
    return 0;
}

/* Arrays, objects and parsed strings. */
static int read_composite(ctx *c, json_t *o, void *base, const gd_cf_field *f, gd_error *err)
{
    switch (f->handler) {
    case GD_CF_FRAMES:
        return read_frames(c, o, GD_CF_AT(base, f, gd_stack_ev), f, err);
    case GD_CF_STAT:
    case GD_CF_PID_STAT: {
        gd_cpu_counters *raw = GD_CF_AT(base, f, gd_cpu_counters);
        const char *s = opt_str(c, o, f->key);
        if (s && f->handler == GD_CF_STAT && gd_procstat_parse_stat(s, raw) != 0)
            return gd_error_set(err, GD_ERR_DATA, c->line, c->col, "field '%s' is not a /proc/stat cpu line",
                                f->key);
        if (s && f->handler == GD_CF_PID_STAT && gd_procstat_parse_pid_stat(s, raw, NULL, NULL, 0) != 0)
            return gd_error_set(err, GD_ERR_DATA, c->line, c->col,
                                "field '%s' is not a /proc/<pid>/stat line", f->key);
        return 0;
    }
    case GD_CF_OBJ:
    case GD_CF_OBJ_REQ:
    case GD_CF_OBJ_SIDES: {
        json_t *sub = json_object_get(o, f->key);
        if (json_is_object(sub))
            return read_group(c, sub, (char *)base + f->off, f->sub, err);
        return f->handler == GD_CF_OBJ_REQ ? type_err(c, err, f->key, "an object") : 0;
    }
    case GD_CF_VIEWS:
        return read_views(c, o, GD_CF_AT(base, f, gd_view_dump_ev), f, err);
    case GD_CF_CONCERN: {
        gd_meta *m = base;
        size_t i;
        json_t *s;
        json_array_foreach(json_object_get(o, f->key), i, s)
            if (json_is_string(s) && m->nconcern < GD_MAX_CONCERN)
                m->concern[m->nconcern++] = json_string_value(s);
        return 0;
    }
    default:
        return 0; /* type: read before; rect: read by views */
    }
}

/* The fields of group g of the table (lib/core/capture_format.def) from
 * object o into base: required numbers first, then the fields in the
 * table's order, then the required strings. */
static int read_group(ctx *c, json_t *o, void *base, int g, gd_error *err)
{
    for (int p = 0; p < 3; p++)
        for (unsigned i = gd_cf_group_first[g]; i < gd_cf_group_first[g + 1]; i++) {
            const gd_cf_field *f = &gd_cf_fields[i];
            int h = f->handler, rc;
            int first = h == GD_CF_TS || h == GD_CF_NUM_REQ || h == GD_CF_NUM_REQ0;
            if ((f->flags & GD_CF_OUT) || (p == 0) != first || (p == 2 && h != GD_CF_STR_REQ))
                continue;
            if (p == 2)
                rc = *GD_CF_AT(base, f, const char *) ? 0 : type_err(c, err, f->key, "a string");
            else if ((rc = read_scalar(c, o, base, f, err)) == NOT_SCALAR)
                rc = read_composite(c, o, base, f, err);
            if (rc)
                return rc;
        }
    return 0;
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
    gd_cf_group_id g = kind < 0 ? GD_CFG_NONE : gd_cf_kind_group((gd_event_kind)kind);
    if (g == GD_CFG_NONE || (gd_cf_groups[g].flags & GD_CF_INTERNAL)) {
        gd_sink_skip(c->sink, GD_SKIP(UNKNOWN_EVENT_KIND), c->line, c->col);
        return SKIP;
    }
    gd_event_init(ev, (gd_event_kind)kind);
    ev->line = c->line;
    int rc = read_group(c, o, ev, GD_CFG_EVENT, err);
    if (!rc)
        rc = read_group(c, o, ev, g, err);
    if (rc)
        return rc;
    const char *why = gd_cf_check(ev);
    if (why) {
        gd_sink_skip(c->sink, why, c->line, c->col);
        return SKIP;
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
        return gd_error_oom_at(err, c->line, c->col);
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
    int rc = read_group(c, o, &m, GD_CFG_META, err);
    if (rc)
        return rc;
    json_t *copy = json_deep_copy(o);
    json_object_del(copy, "type");
    char *js = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(copy);
    m.json = js;
    rc = gd_sink_meta(c->sink, &m, err);
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
        return gd_error_oom(err);
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
                gd_sink_skip(c->sink, GD_SKIP(TRUNCATED_INPUT), c->line, col);
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
