/* matrix_issue.c - one Tencent Matrix trace-canary issue into events. */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "core/util.h"
#include "reader/matrix_int.h"

/* ---- issue content ---- */

static double fnum(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (json_is_number(v))
        return json_number_value(v);
    if (json_is_string(v)) {
        char *e;
        double d = strtod(json_string_value(v), &e);
        if (e != json_string_value(v) && *e == 0 && isfinite(d))
            return d;
    }
    return GD_NONE;
}

const char *gd_mx_fstr(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* A string field that is set: NULL when absent or "" (Matrix writes
 * "process":"" and "scene":"" when it does not know). */
static const char *fstr_set(json_t *o, const char *k)
{
    const char *v = gd_mx_fstr(o, k);
    return v && *v ? v : NULL;
}

/* Tag from the content, or from its fields when the content lacks one. */
const char *gd_mx_issue_tag(json_t *o, const char *line_tag)
{
    const char *t = gd_mx_fstr(o, "tag");
    if (t)
        return t;
    if (line_tag)
        return line_tag;
    if (json_object_get(o, "stackKey") || (json_object_get(o, "detail") && json_object_get(o, "stack")))
        return "Trace_EvilMethod";
    if (json_object_get(o, "dropLevel") || json_object_get(o, "dropSum"))
        return "Trace_FPS";
    if (json_object_get(o, "startup_duration") || json_object_get(o, "application_create"))
        return "Trace_StartUp";
    return NULL;
}

/* Lays the `stack` lines ("depth,methodId,count,cost", pre-order) out in
 * time from `t0`: a node starts at its parent's start plus the costs of its
 * earlier siblings and lasts its cost (merged calls, count > 1, are one
 * interval of their summed cost). */
static int emit_methods(mx_ctx *c, const char *stack, double t0, gd_error *err)
{
    size_t top = 0;
    double root_next = t0;
    const char *p = stack;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        long depth, id, count;
        double cost;
        char tmp[128];
        int n = 0;
        if (len == 0 || len >= sizeof tmp) {
            if (len)
                gd_mx_skip(c, "matrix: malformed stack line");
            p += len + (nl != NULL);
            continue;
        }
        memcpy(tmp, p, len);
        tmp[len] = 0;
        p += len + (nl != NULL);
        if (sscanf(tmp, " %ld,%ld,%ld,%lf %n", &depth, &id, &count, &cost, &n) != 4 ||
            tmp[n] != 0 || depth < 0 || depth > 100000 || !(cost >= 0 && cost <= 1e12)) {
            gd_mx_skip(c, "matrix: malformed stack line");
            continue;
        }
        while (top > 0 && c->stack[top - 1].depth >= depth)
            top--;
        double start;
        if (top == 0) {
            start = root_next;
            root_next += cost;
        } else {
            start = c->stack[top - 1].next;
            c->stack[top - 1].next += cost;
        }
        if (gd_grow((void **)&c->stack, &c->stack_cap, top + 1, sizeof *c->stack, err))
            return GD_ERR_IO;
        c->stack[top].depth = (int)depth;
        c->stack[top].next = start;
        top++;

        char idbuf[32];
        gd_event ev;
        gd_event_init(&ev, GD_EV_METHOD);
        ev.line = c->line;
        ev.ts = start;
        ev.u.method.phase = GD_PHASE_UNKNOWN;
        ev.u.method.end_ts = start + cost;
        ev.u.method.depth = (int)depth;
        const mx_mapping_entry *m = gd_mx_lookup(c, id);
        if (m) {
            ev.u.method.cls = m->cls;
            ev.u.method.method = m->method;
            ev.u.method.desc = m->desc;
        } else if (id == MX_METHOD_ID_DISPATCH) {
            /* AppMethodBeat's pseudo method around each looper message */
            ev.u.method.cls = "matrix";
            ev.u.method.method = "dispatch";
        } else {
            snprintf(idbuf, sizeof idbuf, "%ld", id);
            ev.u.method.cls = "unknown";
            ev.u.method.method = idbuf;
        }
        int rc = gd_sink_event(c->sink, &ev, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* threadStack -> one sample of the main thread at `ts`, innermost first as
 * printed.  Matrix writes it in two shapes: Utils.getStack's
 * " \nat a.b.C:method(12)\n..." and StackTraceElement.toString() lines
 * "a.b.C.method(C.java:12)" (LAG, SIGNAL_ANR); "\tat ..." dumps also occur.
 * "at " is dropped, "Class:method(" becomes "Class.method(", lock lines
 * ("- waiting on <0x...>") are not frames. */
static int emit_thread_stack(mx_ctx *c, const char *text, double ts, gd_error *err)
{
    size_t tl = strlen(text);
    if (gd_grow((void **)&c->buf, &c->buf_cap, tl + 1, 1, err))
        return GD_ERR_IO;
    memcpy(c->buf, text, tl + 1);
    size_t k = 0;
    char *save = NULL;
    for (char *l = strtok_r(c->buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        while (*l == ' ' || *l == '\t')
            l++;
        size_t n = strlen(l);
        while (n && (l[n - 1] == ' ' || l[n - 1] == '\r' || l[n - 1] == '\t'))
            l[--n] = 0;
        if (strncmp(l, "at ", 3) == 0)
            l += 3;
        if (!*l || strncmp(l, "- ", 2) == 0)
            continue;
        char *par = strchr(l, '(');
        char *colon = strchr(l, ':');
        if (colon && (!par || colon < par))
            *colon = '.';
        if (gd_grow((void **)&c->frames, &c->frames_cap, k + 1, sizeof(char *), err))
            return GD_ERR_IO;
        c->frames[k++] = l;
    }
    if (k == 0) {
        gd_mx_skip(c, "matrix: empty threadStack");
        return 0;
    }
    gd_event ev;
    gd_event_init(&ev, GD_EV_STACK);
    ev.line = c->line;
    ev.ts = ts;
    ev.u.stack.frames = c->frames;
    ev.u.stack.nframes = k;
    return gd_sink_event(c->sink, &ev, err);
}

/* What an issue stands for (Trace_EvilMethod's "detail", Constants.Type). */
typedef enum {
    IS_FINDING, /* kept as reported, with its threadStack: LAG, LAG_IDLE_HANDLER,
                 * SIGNAL_ANR, SIGNAL_ANR_NATIVE_BACKTRACE, FPS, unknown */
    IS_EVIL,    /* NORMAL (or no detail): a dispatch of `cost` ending at `time` */
    IS_ANR,     /* ANR (LooperAnrTracer): the same, still running when reported */
    IS_STARTUP  /* STARTUP evil issue or Trace_StartUp: an app launch         */
} issue_kind;

static issue_kind kind_of(const char *tag, const char *detail)
{
    if (strcmp(tag, "Trace_StartUp") == 0)
        return IS_STARTUP;
    if (strcmp(tag, "Trace_EvilMethod") != 0)
        return IS_FINDING;
    /* ENTER (an activity's entry) and FULL (the method buffer filled up)
     * are older Matrix's evil methods: a dispatch of `cost` like NORMAL */
    if (!detail || strcmp(detail, "NORMAL") == 0 || strcmp(detail, "ENTER") == 0 ||
        strcmp(detail, "FULL") == 0)
        return IS_EVIL;
    if (strcmp(detail, "ANR") == 0)
        return IS_ANR;
    if (strcmp(detail, "STARTUP") == 0)
        return IS_STARTUP;
    return IS_FINDING;
}

/* The capture's app and device tier, from the first issue that names them
 * (Matrix files have no header).  Only when reading a Matrix file itself:
 * inside a logcat the logcat reader owns the meta. */
static int send_meta(mx_ctx *c, json_t *o, gd_error *err)
{
    if (c->meta_sent || !c->own_meta)
        return 0;
    const char *process = fstr_set(o, "process");
    if (!process)
        return 0;
    c->meta_sent = 1;
    json_t *mj = json_pack("{s:s}", "app", process);
    json_t *machine = json_object_get(o, "machine"); /* "MIDDLE", or 4 in older Matrix */
    if (mj && (json_is_string(machine) || json_is_integer(machine)))
        json_object_set(mj, "machine", machine);
    char *js = mj ? json_dumps(mj, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(mj);
    if (!js)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    gd_meta m;
    gd_meta_init(&m);
    m.app = process;
    m.json = js;
    m.clock = "utc"; /* System.currentTimeMillis() */
    int rc = gd_sink_meta(c->sink, &m, err);
    free(js);
    return rc;
}

/* A launch: Trace_StartUp (startup_duration, is_warm_start_up) or the
 * STARTUP evil issue (cost, subType 1 cold / 2 warm) that Matrix sends
 * after it when the launch was over its threshold.  The second report of
 * one launch (same kind and duration within a minute) is not a second
 * launch. */
static int emit_startup(mx_ctx *c, json_t *o, const char *tag, double time, gd_error *err)
{
    int trace_startup = strcmp(tag, "Trace_StartUp") == 0;
    double total = trace_startup ? fnum(o, "startup_duration") : GD_NONE;
    if (!gd_has(total))
        total = fnum(o, "cost");
    if (!gd_has(total) || total < 0 || total > 1e9) {
        gd_mx_skip(c, "matrix: startup without duration");
        return 0;
    }
    const char *kind = NULL;
    json_t *w = json_object_get(o, "is_warm_start_up");
    double sub = fnum(o, "subType");
    if (json_is_boolean(w))
        kind = json_is_true(w) ? "warm" : "cold";
    else if (sub == 1)
        kind = "cold";
    else if (sub == 2)
        kind = "warm";
    if (c->last_startup && total == c->last_total && fabs(time - c->last_time) <= 60000 &&
        (!kind || !c->last_kind || strcmp(kind, c->last_kind) == 0)) {
        gd_sink_skip(c->sink, "ignored: matrix: launch reported twice", c->line, c->col);
        return 0;
    }
    c->last_startup = 1;
    c->last_total = total;
    c->last_time = time;
    c->last_kind = kind;
    gd_event ev;
    gd_event_init(&ev, GD_EV_STARTUP);
    ev.line = c->line;
    ev.ts = time;
    ev.u.startup.app = fstr_set(o, "process");
    ev.u.startup.activity = fstr_set(o, "scene");
    ev.u.startup.kind = kind;
    ev.u.startup.total_ms = total;
    ev.u.startup.source = "matrix";
    return gd_sink_event(c->sink, &ev, err);
}

int gd_mx_do_issue(mx_ctx *c, json_t *o, const char *line_tag, gd_error *err)
{
    if (!json_is_object(o)) {
        gd_mx_skip(c, "matrix: issue is not an object");
        return 0;
    }
    /* Issue as a whole ({"type":0,"tag":..,"key":..,"content":{..}}, what
     * IssuePublisher stores and Issue.toString() prints): the content is
     * the issue; its own tag, else the wrapper's */
    json_t *inner = json_object_get(o, "content");
    if (json_is_object(inner)) {
        if (json_is_string(json_object_get(o, "tag")))
            line_tag = gd_mx_fstr(o, "tag");
        o = inner;
    }
    const char *tag = gd_mx_issue_tag(o, line_tag);
    if (!tag) {
        gd_mx_skip(c, "matrix: not a trace issue");
        return 0;
    }
    double time = fnum(o, "time");
    if (!gd_has(time) || time <= 0) {
        gd_mx_skip(c, "matrix: issue without time");
        return 0;
    }
    int rc = send_meta(c, o, err);
    if (rc)
        return rc;
    char *js = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
    if (!js)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    const char *detail = gd_mx_fstr(o, "detail");
    issue_kind kind = kind_of(tag, detail);
    double cost = fnum(o, "cost");
    gd_event ev;
    gd_event_init(&ev, GD_EV_ISSUE);
    ev.line = c->line;
    ev.ts = time;
    ev.u.issue.tool = "matrix";
    ev.u.issue.type = tag;
    ev.u.issue.detail = detail;
    ev.u.issue.cost_ms = cost;
    ev.u.issue.json = js;
    if (strcmp(tag, "Trace_FPS") == 0) {
        ev.u.issue.detail = gd_mx_fstr(o, "scene");
    } else if (strcmp(tag, "Trace_StartUp") == 0) {
        json_t *w = json_object_get(o, "is_warm_start_up");
        ev.u.issue.detail = json_is_boolean(w) ? (json_is_true(w) ? "warm" : "cold") : detail;
        if (!gd_has(cost))
            ev.u.issue.cost_ms = fnum(o, "startup_duration");
    }
    rc = gd_sink_event(c->sink, &ev, err);
    if (rc == 0 && kind == IS_STARTUP)
        rc = emit_startup(c, o, tag, time, err);
    if (rc == 0 && (kind == IS_EVIL || kind == IS_ANR)) {
        if (!gd_has(cost) || cost < 0) {
            gd_mx_skip(c, kind == IS_ANR ? "matrix: ANR without cost" : "matrix: evil method without cost");
        } else {
            double t0 = time - cost;
            gd_event_init(&ev, GD_EV_DISPATCH);
            ev.line = c->line;
            ev.ts = t0;
            ev.u.dispatch.dur = cost;
            ev.u.dispatch.msg = gd_mx_fstr(o, "scene");
            /* an ANR is reported while its message still runs */
            ev.u.dispatch.unfinished = kind == IS_ANR;
            rc = gd_sink_event(c->sink, &ev, err);
        }
    }
    /* the method tree of an evil method, an ANR or a slow launch, laid out
     * as ending at the report */
    const char *stack = gd_mx_fstr(o, "stack");
    if (rc == 0 && stack && kind != IS_FINDING && gd_has(cost) && cost >= 0)
        rc = emit_methods(c, stack, time - cost, err);
    const char *ts = gd_mx_fstr(o, "threadStack");
    if (rc == 0 && ts && strcmp(tag, "Trace_EvilMethod") == 0)
        rc = emit_thread_stack(c, ts, time, err);
    free(js);
    return rc;
}
