/* androidgodeye.c - reader of AndroidGodEye monitor output (WebSocket messages or bare module payloads). */
#define _GNU_SOURCE /* memmem */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/jsonstream.h"
#include "reader.h"
#include "reader/mdstamp.h"
#include "core/util.h"
#include "reader/androidgodeye_int.h"

/*
 * Containers: any sequence of top-level JSON values (JSON Lines, one or more
 * pretty-printed objects) and/or arrays of them, read element by element.
 * Each element is either a monitor message
 *   {"code":1,"message":"success","data":{"moduleName":"cpuInfo","payload":{...}}}
 * or a bare module payload whose module is recognised by its fields.
 *
 * Times: GodEye's own payloads carry wall-clock times only for blocks,
 * pages, method records, view issues and image issues.  For the others
 * (cpu, heap, pss, ram, fps, startup, thread) the message carries none; a
 * recorder may add one: "ts", "timestamp" or "time" (epoch ms) on the
 * message or the payload is used.  Without one the record is skipped and
 * counted ("<module>: no timestamp"), since event.h requires ts for these
 * kinds.
 */

typedef enum {
    M_UNKNOWN = 0, M_BLOCK, M_PAGE, M_VIEW, M_IMAGE, M_CPU, M_HEAP, M_PSS, M_RAM,
    M_FPS, M_STARTUP, M_THREAD, M_METHOD
} module;

static const struct {
    const char *name;
    module m;
} module_names[] = {
    {"blockInfo", M_BLOCK},     {"pageLifecycle", M_PAGE}, {"viewIssueInfo", M_VIEW},
    {"imageIssue", M_IMAGE},    {"cpuInfo", M_CPU},        {"heapInfo", M_HEAP},
    {"pssInfo", M_PSS},         {"ramInfo", M_RAM},        {"fpsInfo", M_FPS},
    {"startupInfo", M_STARTUP}, {"threadInfo", M_THREAD},  {"methodCanary", M_METHOD},
};

void gd_age_skip(age_ctx *c, const char *reason)
{
    gd_sink_skip(c->sink, reason, c->line, c->col);
}

/* ---- optional fields (Gson omits nulls: everything may be absent) ---- */

double gd_age_fnum(age_ctx *c, json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (!v || json_is_null(v))
        return GD_NONE;
    if (json_is_number(v))
        return json_number_value(v);
    if (json_is_string(v)) { /* the monitor mock writes some numbers as strings */
        char *e;
        double d = strtod(json_string_value(v), &e);
        if (e != json_string_value(v) && *e == 0 && isfinite(d))
            return d;
    }
    gd_age_skip(c, "ignored: field of wrong type");
    return GD_NONE;
}

int64_t gd_age_fint(age_ctx *c, json_t *o, const char *k)
{
    double d = gd_age_fnum(c, o, k);
    if (!gd_has(d) || d < -9e18 || d > 9e18)
        return -1;
    return (int64_t)d;
}

const char *gd_age_fstr(age_ctx *c, json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        gd_age_skip(c, "ignored: field of wrong type");
        return NULL;
    }
    return json_string_value(v);
}

int gd_age_fbool(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (json_is_boolean(v))
        return json_is_true(v);
    if (json_is_integer(v))
        return json_integer_value(v) != 0;
    return -1;
}

int gd_age_has(json_t *o, const char *k) { return json_object_get(o, k) != NULL; }

/* A stack sample stamp "MM-dd HH:mm:ss.SSS" (StacktraceUtil, device local
 * time, no year) to epoch ms.  The year is opts->year when set, else the
 * one (of the block's UTC year and its neighbours) that puts the stamp
 * nearest the block start; else the current year.  The device's zone is
 * not written, but the block start `anchor` is an epoch time taken within
 * the same block: the difference, rounded to the nearest 15 minutes (every
 * zone offset is a multiple of 15 min), is taken as the zone offset and
 * removed.  Without an anchor the stamp is read as UTC.  NONE when the stamp
 * is malformed. */
double gd_age_sample_time(const age_ctx *c, const char *st, double anchor)
{
    int mo, d, h, mi, s, ms, n = 0;
    if (sscanf(st, "%2d-%2d %2d:%2d:%2d.%3d%n", &mo, &d, &h, &mi, &s, &ms, &n) != 6 ||
        st[n] != 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60 ||
        h < 0 || mi < 0 || s < 0 || ms < 0)
        return GD_NONE;
    gd_mdstamp md = {.mon = mo, .day = d, .hour = h, .min = mi, .sec = s, .frac_ms = ms};
    double t;
    if (c->opts && c->opts->year)
        t = gd_mdstamp_ms(c->opts->year, &md);
    else if (gd_has(anchor) && anchor > -1e15 && anchor < 1e15)
        t = gd_mdstamp_nearest_ms(anchor, &md);
    else
        t = gd_mdstamp_ms(gd_mdstamp_now_year(), &md);
    if (gd_has(anchor)) {
        double off = round((t - anchor) / 900000.0) * 900000.0;
        t -= off;
    }
    return t;
}

/* Module of a bare payload, from its fields. */
static module detect(json_t *p)
{
    if (!json_is_object(p))
        return M_UNKNOWN;
    if (gd_age_has(p, "blockBaseinfo") || gd_age_has(p, "longBlockInfo") ||
        gd_age_has(p, "shortBlockInfo") || (gd_age_has(p, "timeStart") && gd_age_has(p, "timeEnd")))
        return M_BLOCK;
    if (gd_age_has(p, "lifecycleEvent") || (gd_age_has(p, "pageInfo") && gd_age_has(p, "currentEvent")))
        return M_PAGE;
    if (gd_age_has(p, "overDrawAreas") || (gd_age_has(p, "views") && gd_age_has(p, "activityName")))
        return M_VIEW;
    if (gd_age_has(p, "bitmapWidth") && gd_age_has(p, "imageViewWidth"))
        return M_IMAGE;
    if (gd_age_has(p, "methodInfoOfThreadInfos"))
        return M_METHOD;
    if (gd_age_has(p, "totalUseRatio") || gd_age_has(p, "appCpuRatio"))
        return M_CPU;
    if (gd_age_has(p, "freeMemKb") || gd_age_has(p, "allocatedKb"))
        return M_HEAP;
    if (gd_age_has(p, "totalPssKb"))
        return M_PSS;
    if (gd_age_has(p, "availMemKb") || gd_age_has(p, "lowMemThresholdKb"))
        return M_RAM;
    if (gd_age_has(p, "currentFps") || gd_age_has(p, "systemFps"))
        return M_FPS;
    if (gd_age_has(p, "startupType") || gd_age_has(p, "startupTime"))
        return M_STARTUP;
    return M_UNKNOWN;
}

static double time_in(json_t *o)
{
    static const char *const keys[] = {"ts", "timestamp", "time"};
    if (!json_is_object(o))
        return GD_NONE;
    for (int i = 0; i < 3; i++) {
        json_t *v = json_object_get(o, keys[i]);
        if (json_is_number(v) && json_number_value(v) > 0)
            return json_number_value(v);
    }
    return GD_NONE;
}

static int do_record(age_ctx *c, json_t *o, gd_error *err)
{
    if (!json_is_object(o)) {
        gd_age_skip(c, "godeye: record is not an object");
        return 0;
    }
    json_t *data = json_object_get(o, "data");
    json_t *payload = o;
    module m = M_UNKNOWN;
    double ts = GD_NONE;
    json_t *code = json_object_get(o, "code");
    if (json_is_integer(code) && json_integer_value(code) != 1) {
        gd_age_skip(c, "godeye: failed message");
        return 0;
    }
    if (json_is_object(data) && json_is_string(json_object_get(data, "moduleName"))) {
        const char *name = json_string_value(json_object_get(data, "moduleName"));
        for (size_t i = 0; i < sizeof module_names / sizeof module_names[0]; i++)
            if (strcmp(name, module_names[i].name) == 0)
                m = module_names[i].m;
        if (m == M_UNKNOWN) {
            gd_age_skip(c, "godeye: unsupported module");
            return 0;
        }
        payload = json_object_get(data, "payload");
        ts = time_in(o);
        if (!gd_has(ts))
            ts = time_in(data);
    } else if (json_is_object(data) || gd_age_has(o, "code")) {
        gd_age_skip(c, "godeye: message without moduleName");
        return 0;
    } else {
        m = detect(o);
        if (m == M_UNKNOWN) {
            gd_age_skip(c, "godeye: unrecognised payload");
            return 0;
        }
    }
    if (!payload || json_is_null(payload)) {
        gd_age_skip(c, "godeye: message without payload");
        return 0;
    }
    if (!gd_has(ts))
        ts = time_in(payload);

    const char *name = "";
    for (size_t i = 0; i < sizeof module_names / sizeof module_names[0]; i++)
        if (module_names[i].m == m)
            name = module_names[i].name;
    int obj = json_is_object(payload);
    if (!obj && m != M_THREAD) {
        gd_age_skip(c, "godeye: payload is not an object");
        return 0;
    }
    /* kinds whose own payload has no time need one from the recorder */
    if (!gd_has(ts) && m != M_BLOCK && m != M_PAGE && m != M_METHOD) {
        char reason[64];
        snprintf(reason, sizeof reason, "%s: no timestamp", name);
        gd_age_skip(c, reason);
        return 0;
    }
    gd_event ev;
    switch (m) {
    case M_BLOCK:
        return gd_age_do_block(c, payload, err);
    case M_PAGE:
        return gd_age_do_page(c, payload, err);
    case M_VIEW:
        return gd_age_do_view(c, payload, ts, err);
    case M_IMAGE:
        return gd_age_do_image(c, payload, ts, err);
    case M_METHOD:
        return gd_age_do_method(c, payload, err);
    case M_CPU:
        gd_event_init(&ev, GD_EV_CPU);
        ev.ts = ts;
        gd_age_fill_cpu(c, &ev.u.cpu, payload, 1.0);
        if (!gd_has(ev.u.cpu.total) && !gd_has(ev.u.cpu.app)) {
            gd_age_skip(c, "cpuInfo: no ratios");
            return 0;
        }
        return gd_age_emit(c, &ev, err);
    case M_HEAP:
    case M_PSS:
    case M_RAM:
        gd_event_init(&ev, GD_EV_MEMORY);
        ev.ts = ts;
        gd_age_fill_memory(c, &ev.u.memory, m == M_HEAP ? payload : NULL, m == M_PSS ? payload : NULL,
                    m == M_RAM ? payload : NULL);
        return gd_age_emit(c, &ev, err);
    case M_FPS: /* an average over an interval, not frames */
        return gd_age_do_issue(c, payload, ts, "fps", err);
    case M_STARTUP:
        return gd_age_do_issue(c, payload, ts, "startup", err);
    case M_THREAD:
        return gd_age_do_issue(c, payload, ts, "thread", err);
    default:
        return 0;
    }
}

static int record_fn(void *ctx, json_t *o, gd_error *err)
{
    return do_record(ctx, o, err);
}

static int read_all(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    age_ctx c = {.sink = sink, .opts = opts};
    int rc = gd_jstream_each_object(in, record_fn, &c, &c.line, &c.col, err);
    free(c.frames);
    free(c.views);
    return rc;
}

/* First JSON value in the head that is an object (the first element of a
 * top-level array), or NULL. */
static json_t *first_object(const unsigned char *h, size_t n)
{
    size_t i = 0;
    while (i < n && (h[i] == ' ' || h[i] == '\n' || h[i] == '\r' || h[i] == '\t'))
        i++;
    if (i < n && h[i] == '[') {
        i++;
        while (i < n && (h[i] == ' ' || h[i] == '\n' || h[i] == '\r' || h[i] == '\t'))
            i++;
    }
    if (i >= n || h[i] != '{')
        return NULL;
    json_t *o = json_loadb((const char *)h + i, n - i, JSON_DISABLE_EOF_CHECK, NULL);
    if (!json_is_object(o)) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static int probe(const unsigned char *h, size_t n, int eof)
{
    json_t *o = first_object(h, n);
    if (!o) {
        /* a first message larger than the head: look for its envelope */
        size_t i = 0;
        while (i < n && (h[i] == ' ' || h[i] == '\n' || h[i] == '\r' || h[i] == '\t'))
            i++;
        if (!eof && i < n && (h[i] == '{' || h[i] == '[') &&
            memmem(h, n, "\"moduleName\"", 12) && memmem(h, n, "\"payload\"", 9))
            return 80;
        return 0;
    }
    int score = 0;
    json_t *data = json_object_get(o, "data");
    if (json_is_object(data) && json_is_string(json_object_get(data, "moduleName")) &&
        json_object_get(data, "payload"))
        score = 95;
    else if (!json_object_get(o, "type") && !json_object_get(o, "tag") && detect(o) != M_UNKNOWN)
        score = 70;
    json_decref(o);
    return score;
}

const gd_reader gd_reader_androidgodeye = {
    .name = "androidgodeye",
    .description = "AndroidGodEye monitor messages or module payloads (JSON Lines or array)",
    .probe = probe,
    .read = read_all,
    .clock = "utc",
};
