/* androidgodeye.c - reader of AndroidGodEye monitor output (WebSocket messages or bare module payloads). */
#define _GNU_SOURCE /* memmem */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "io/jsonstream.h"
#include "reader.h"
#include "reader/mdstamp.h"
#include "core/util.h"
#include "core/skip_reasons.h"

typedef struct age_ctx {
    const gd_sink *sink;
    const gd_read_opts *opts;
    long line, col;  /* start of the current record */
    const char **frames;
    size_t frames_cap;
    gd_view *views;
    size_t views_cap;
} age_ctx;

static int gd_age_do_block(age_ctx *c, json_t *p, gd_error *err);
static int gd_age_do_image(age_ctx *c, json_t *p, double ts, gd_error *err);
static int gd_age_do_issue(age_ctx *c, json_t *p, double ts, const char *type, gd_error *err);
static int gd_age_do_method(age_ctx *c, json_t *p, gd_error *err);
static int gd_age_do_page(age_ctx *c, json_t *p, gd_error *err);
static int gd_age_do_view(age_ctx *c, json_t *p, double ts, gd_error *err);
static int gd_age_emit(age_ctx *c, gd_event *ev, gd_error *err);
int gd_age_fbool(json_t *o, const char *k);
static void gd_age_fill_cpu(age_ctx *c, gd_cpu_ev *cpu, json_t *o, double scale);
static void gd_age_fill_memory(age_ctx *c, gd_memory_ev *m, json_t *heap, json_t *pss, json_t *ram);
int64_t gd_age_fint(age_ctx *c, json_t *o, const char *k);
double gd_age_fnum(age_ctx *c, json_t *o, const char *k);
const char *gd_age_fstr(age_ctx *c, json_t *o, const char *k);
int gd_age_has(json_t *o, const char *k);
double gd_age_sample_time(const age_ctx *c, const char *st, double anchor);
void gd_age_skip(age_ctx *c, const char *reason);

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
    gd_age_skip(c, GD_SKIP(IGNORED_FIELD_OF_WRONG_TYPE));
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
        gd_age_skip(c, GD_SKIP(IGNORED_FIELD_OF_WRONG_TYPE));
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
        gd_age_skip(c, GD_SKIP(GODEYE_RECORD_IS_NOT_AN_OBJECT));
        return 0;
    }
    json_t *data = json_object_get(o, "data");
    json_t *payload = o;
    module m = M_UNKNOWN;
    double ts = GD_NONE;
    json_t *code = json_object_get(o, "code");
    if (json_is_integer(code) && json_integer_value(code) != 1) {
        gd_age_skip(c, GD_SKIP(GODEYE_FAILED_MESSAGE));
        return 0;
    }
    if (json_is_object(data) && json_is_string(json_object_get(data, "moduleName"))) {
        const char *name = json_string_value(json_object_get(data, "moduleName"));
        for (size_t i = 0; i < sizeof module_names / sizeof module_names[0]; i++)
            if (strcmp(name, module_names[i].name) == 0)
                m = module_names[i].m;
        if (m == M_UNKNOWN) {
            gd_age_skip(c, GD_SKIP(GODEYE_UNSUPPORTED_MODULE));
            return 0;
        }
        payload = json_object_get(data, "payload");
        ts = time_in(o);
        if (!gd_has(ts))
            ts = time_in(data);
    } else if (json_is_object(data) || gd_age_has(o, "code")) {
        gd_age_skip(c, GD_SKIP(GODEYE_MESSAGE_WITHOUT_MODULENAME));
        return 0;
    } else {
        m = detect(o);
        if (m == M_UNKNOWN) {
            gd_age_skip(c, GD_SKIP(GODEYE_UNRECOGNISED_PAYLOAD));
            return 0;
        }
    }
    if (!payload || json_is_null(payload)) {
        gd_age_skip(c, GD_SKIP(GODEYE_MESSAGE_WITHOUT_PAYLOAD));
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
        gd_age_skip(c, GD_SKIP(GODEYE_PAYLOAD_IS_NOT_AN_OBJECT));
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
            gd_age_skip(c, GD_SKIP(CPUINFO_NO_RATIOS));
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

/* ==== AndroidGodEye blocks, pages, images, views, methods. ==== */

/* Limit of the O(n^2) parent inference of a view issue (larger: flat). */
#define MAX_VIEWS_FOR_PARENTS 4096

/* ---- modules ---- */

static int gd_age_emit(age_ctx *c, gd_event *ev, gd_error *err)
{
    ev->line = c->line;
    return gd_sink_event(c->sink, ev, err);
}

static void gd_age_fill_memory(age_ctx *c, gd_memory_ev *m, json_t *heap, json_t *pss, json_t *ram)
{
    if (json_is_object(heap)) {
        m->heap_free_kb = gd_age_fint(c, heap, "freeMemKb");
        m->heap_max_kb = gd_age_fint(c, heap, "maxMemKb");
        m->heap_alloc_kb = gd_age_fint(c, heap, "allocatedKb");
    }
    if (json_is_object(pss)) {
        m->pss_total_kb = gd_age_fint(c, pss, "totalPssKb");
        m->pss_dalvik_kb = gd_age_fint(c, pss, "dalvikPssKb");
        m->pss_native_kb = gd_age_fint(c, pss, "nativePssKb");
        m->pss_other_kb = gd_age_fint(c, pss, "otherPssKb");
    }
    if (json_is_object(ram)) {
        m->ram_avail_kb = gd_age_fint(c, ram, "availMemKb");
        m->ram_total_kb = gd_age_fint(c, ram, "totalMemKb");
        m->ram_low_threshold_kb = gd_age_fint(c, ram, "lowMemThresholdKb");
        m->ram_is_low = gd_age_fbool(ram, "isLowMemory");
    }
}

/* cpu ratios; `scale` 100 for BlockCanary-style percents. */
static void gd_age_fill_cpu(age_ctx *c, gd_cpu_ev *cpu, json_t *o, double scale)
{
    cpu->total = gd_age_fnum(c, o, "totalUseRatio") / scale;
    cpu->app = gd_age_fnum(c, o, "appCpuRatio") / scale;
    cpu->user = gd_age_fnum(c, o, "userCpuRatio") / scale;
    cpu->sys = gd_age_fnum(c, o, "sysCpuRatio") / scale;
    cpu->iowait = gd_age_fnum(c, o, "ioWaitRatio") / scale;
}

/* One LongBlockInfo / ShortBlockInfo object. */
static int block_body(age_ctx *c, json_t *b, gd_error *err)
{
    double t0 = gd_age_fnum(c, b, "timeStart"), t1 = gd_age_fnum(c, b, "timeEnd");
    double bt = gd_age_fnum(c, b, "blockTime");
    if (!gd_has(t0) || t0 <= 0) {
        gd_age_skip(c, GD_SKIP(BLOCKINFO_NO_TIMESTART));
        return 0;
    }
    double dur = gd_has(t1) && t1 >= t0 ? t1 - t0 : bt;
    if (!gd_has(dur) || dur < 0) {
        gd_age_skip(c, GD_SKIP(BLOCKINFO_NO_TIMEEND));
        return 0;
    }
    if (!gd_has(t1) || t1 < t0)
        t1 = t0 + dur;
    gd_event ev;
    gd_event_init(&ev, GD_EV_DISPATCH);
    ev.ts = t0;
    ev.u.dispatch.dur = dur;
    ev.u.dispatch.thread_dur = gd_age_fnum(c, b, "threadTimeCost");
    int rc = gd_age_emit(c, &ev, err);
    if (rc)
        return rc;

    /* stack samples: {"MM-dd HH:mm:ss.SSS": [frames innermost first]} */
    json_t *st = json_object_get(b, "threadStackEntriesForExport");
    const char *key;
    json_t *frames;
    json_object_foreach(st, key, frames) {
        double ts = gd_age_sample_time(c, key, t0);
        if (!gd_has(ts)) {
            gd_age_skip(c, GD_SKIP(BLOCKINFO_BAD_STACK_STAMP));
            continue;
        }
        if (!json_is_array(frames)) {
            gd_age_skip(c, GD_SKIP(BLOCKINFO_STACK_IS_NOT_AN_ARRAY));
            continue;
        }
        size_t n = json_array_size(frames), k = 0;
        if (gd_grow((void **)&c->frames, &c->frames_cap, n + 1, sizeof(char *), err))
            return GD_ERR_IO;
        for (size_t i = 0; i < n; i++) {
            const char *f = json_string_value(json_array_get(frames, i));
            if (f)
                c->frames[k++] = f;
            else
                gd_age_skip(c, GD_SKIP(BLOCKINFO_FRAME_IS_NOT_A_STRING));
        }
        gd_event_init(&ev, GD_EV_STACK);
        ev.ts = ts;
        ev.u.stack.frames = c->frames;
        ev.u.stack.nframes = k;
        if ((rc = gd_age_emit(c, &ev, err)))
            return rc;
    }

    /* cpu samples carry no time: spread evenly inside the block (the
     * sampler keeps those strictly between start and end). */
    json_t *cr = json_object_get(b, "cpuRateInfos");
    size_t n = json_array_size(cr);
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_array_get(cr, i);
        if (!json_is_object(o)) {
            gd_age_skip(c, GD_SKIP(BLOCKINFO_CPU_RATE_IS_NOT_AN_OBJECT));
            continue;
        }
        gd_event_init(&ev, GD_EV_CPU);
        ev.ts = t0 + (t1 - t0) * (double)(i + 1) / (double)(n + 1);
        gd_age_fill_cpu(c, &ev.u.cpu, o, 100.0);
        if ((rc = gd_age_emit(c, &ev, err)))
            return rc;
    }

    /* memory is read when the block is reported: its end */
    json_t *mem = json_object_get(b, "memoryDetailInfo");
    if (json_is_object(mem)) {
        gd_event_init(&ev, GD_EV_MEMORY);
        ev.ts = t1;
        gd_age_fill_memory(c, &ev.u.memory, json_object_get(mem, "heapInfo"),
                    json_object_get(mem, "pssInfo"), json_object_get(mem, "ramInfo"));
        if ((rc = gd_age_emit(c, &ev, err)))
            return rc;
    }
    return 0;
}

static int gd_age_do_block(age_ctx *c, json_t *p, gd_error *err)
{
    json_t *bb = json_object_get(p, "blockBaseinfo");
    if (json_is_string(bb)) {
        /* the monitor sends the block as a JSON string inside the JSON */
        json_t *inner = json_loads(json_string_value(bb), 0, NULL);
        if (!json_is_object(inner)) {
            json_decref(inner);
            gd_age_skip(c, GD_SKIP(BLOCKINFO_BLOCKBASEINFO_IS_NOT_JSON));
            return 0;
        }
        int rc = block_body(c, inner, err);
        json_decref(inner);
        return rc;
    }
    if (json_is_object(bb))
        return block_body(c, bb, err);
    json_t *lb = json_object_get(p, "longBlockInfo");
    if (!json_is_object(lb))
        lb = json_object_get(p, "shortBlockInfo");
    if (json_is_object(lb))
        return block_body(c, lb, err);
    if (gd_age_has(p, "timeStart"))
        return block_body(c, p, err);
    gd_age_skip(c, GD_SKIP(BLOCKINFO_NO_BLOCK));
    return 0;
}

static const char *page_type(const char *t)
{
    if (!t)
        return NULL;
    if (strcasecmp(t, "activity") == 0)
        return "activity";
    if (strcasecmp(t, "fragment") == 0)
        return "fragment";
    return NULL;
}

static int gd_age_do_page(age_ctx *c, json_t *p, gd_error *err)
{
    /* monitor form (PageLifecycleProcessedEvent) is flat; the core's
     * PageLifecycleEventInfo nests pageInfo and currentEvent */
    json_t *pi = json_object_get(p, "pageInfo"), *ce = json_object_get(p, "currentEvent");
    json_t *po = json_is_object(pi) ? pi : p, *eo = json_is_object(ce) ? ce : p;
    gd_event ev;
    gd_event_init(&ev, GD_EV_LIFECYCLE);
    gd_lifecycle_ev *l = &ev.u.lifecycle;
    l->event = gd_age_fstr(c, eo, "lifecycleEvent");
    if (!l->event) {
        gd_age_skip(c, GD_SKIP(PAGELIFECYCLE_NO_LIFECYCLEEVENT));
        return 0;
    }
    ev.ts = gd_age_fnum(c, eo, "startTimeMillis");
    if (!gd_has(ev.ts) || ev.ts <= 0)
        ev.ts = gd_age_fnum(c, eo, "eventTimeMillis");
    if (!gd_has(ev.ts) || ev.ts <= 0) {
        gd_age_skip(c, GD_SKIP(PAGELIFECYCLE_NO_TIMESTAMP));
        return 0;
    }
    double e = gd_age_fnum(c, eo, "endTimeMillis");
    l->end_ts = gd_has(e) && e >= ev.ts ? e : GD_NONE;
    l->page.type = page_type(gd_age_fstr(c, po, "pageType"));
    l->page.cls = gd_age_fstr(c, po, "pageClassName");
    json_t *h = json_object_get(po, "pageHashCode");
    if (json_is_integer(h))
        l->page.hash = json_integer_value(h);
    return gd_age_emit(c, &ev, err);
}

static int gd_age_do_image(age_ctx *c, json_t *p, double ts, gd_error *err)
{
    gd_event ev;
    gd_event_init(&ev, GD_EV_IMAGE);
    ev.ts = ts;
    gd_image_ev *im = &ev.u.image;
    int64_t bw = gd_age_fint(c, p, "bitmapWidth"), bh = gd_age_fint(c, p, "bitmapHeight");
    if (bw < 0 || bh < 0 || bw > INT32_MAX || bh > INT32_MAX) {
        gd_age_skip(c, GD_SKIP(IMAGEISSUE_NO_BITMAP_SIZE));
        return 0;
    }
    im->bitmap_w = (int32_t)bw;
    im->bitmap_h = (int32_t)bh;
    int64_t vw = gd_age_fint(c, p, "imageViewWidth"), vh = gd_age_fint(c, p, "imageViewHeight");
    im->view_w = vw >= 0 && vw <= INT32_MAX ? (int32_t)vw : -1;
    im->view_h = vh >= 0 && vh <= INT32_MAX ? (int32_t)vh : -1;
    const char *it = gd_age_fstr(c, p, "issueType");
    im->view_visible = !(it && strcmp(it, "INVISIBLE_BUT_MEMORY_OCCUPIED") == 0);
    json_t *vh_ = json_object_get(p, "imageViewHashCode");
    if (json_is_integer(vh_))
        im->view_hash = json_integer_value(vh_);
    im->page.type = "activity";
    im->page.cls = gd_age_fstr(c, p, "activityClassName");
    json_t *ah = json_object_get(p, "activityHashCode");
    if (json_is_integer(ah))
        im->page.hash = json_integer_value(ah);
    return gd_age_emit(c, &ev, err);
}

static int rect_obj(json_t *r, int32_t out[4])
{
    static const char *const k[4] = {"left", "top", "right", "bottom"};
    if (!json_is_object(r))
        return -1;
    for (int i = 0; i < 4; i++) {
        json_t *x = json_object_get(r, k[i]);
        if (!json_is_number(x))
            return -1;
        double d = json_number_value(x);
        if (d > 1e9 || d < -1e9)
            return -1;
        out[i] = (int32_t)d;
    }
    return 0;
}

static int contains(const int32_t a[4], const int32_t b[4])
{
    return a[0] <= b[0] && a[1] <= b[1] && a[2] >= b[2] && a[3] >= b[3];
}

static double area(const int32_t r[4])
{
    double w = (double)r[2] - r[0], h = (double)r[3] - r[1];
    return w > 0 && h > 0 ? w * h : 0;
}

/* ViewIssueInfo: views with absolute rects and a depth, in no tree order.
 * The parent of a view is inferred: among the views of smaller depth whose
 * rect contains its rect, the deepest (then the smallest, then the first);
 * none -> 0 (a root).  layers = 1 when hasBackground, else 0: text and
 * image drawables cover only part of the rect (glyphs) or are not reported,
 * so they are not counted as opaque layers. */
static int gd_age_do_view(age_ctx *c, json_t *p, double ts, gd_error *err)
{
    json_t *vs = json_object_get(p, "views");
    if (!json_is_array(vs)) {
        gd_age_skip(c, GD_SKIP(VIEWISSUEINFO_NO_VIEWS));
        return 0;
    }
    size_t n = json_array_size(vs), k = 0;
    if (gd_grow((void **)&c->views, &c->views_cap, n + 1, sizeof(gd_view), err))
        return GD_ERR_IO;
    /* depth kept in `layers` temporarily would be confusing: use a side array */
    int *depth = calloc(n + 1, sizeof *depth);
    if (!depth)
        return gd_error_oom(err);
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(vs, i);
        gd_view *gv = &c->views[k];
        memset(gv, 0, sizeof *gv);
        if (!json_is_object(v) || rect_obj(json_object_get(v, "rect"), gv->rect) != 0) {
            gd_age_skip(c, GD_SKIP(VIEWISSUEINFO_VIEW_WITHOUT_RECT));
            continue;
        }
        gv->id = (int64_t)k + 1;
        gv->cls = gd_age_fstr(c, v, "className");
        const char *id = gd_age_fstr(c, v, "id");
        gv->res_id = id && strcmp(id, "-1") != 0 ? id : NULL;
        gv->text = gd_age_fstr(c, v, "text");
        gv->layers = gd_age_fbool(v, "hasBackground") == 1 ? 1 : 0;
        gv->visible = 1;
        int64_t d = gd_age_fint(c, v, "depth");
        depth[k] = d >= 0 && d < 1000000 ? (int)d : -1;
        k++;
    }
    if (k > MAX_VIEWS_FOR_PARENTS)
        gd_age_skip(c, GD_SKIP(VIEWISSUEINFO_TOO_MANY_VIEWS_TO_INFER));
    else
        for (size_t i = 0; i < k; i++) {
            if (depth[i] < 0)
                continue;
            size_t best = (size_t)-1;
            for (size_t j = 0; j < k; j++) {
                if (j == i || depth[j] < 0 || depth[j] >= depth[i] ||
                    !contains(c->views[j].rect, c->views[i].rect))
                    continue;
                if (best == (size_t)-1 || depth[j] > depth[best] ||
                    (depth[j] == depth[best] && area(c->views[j].rect) < area(c->views[best].rect)))
                    best = j;
            }
            c->views[i].parent = best == (size_t)-1 ? 0 : c->views[best].id;
        }
    free(depth);
    gd_event ev;
    gd_event_init(&ev, GD_EV_VIEW_DUMP);
    ev.ts = ts;
    gd_view_dump_ev *d = &ev.u.view_dump;
    d->page.type = "activity";
    d->page.cls = gd_age_fstr(c, p, "activityName");
    int64_t sw = gd_age_fint(c, p, "screenWidth"), sh = gd_age_fint(c, p, "screenHeight");
    d->screen_w = sw > 0 && sw <= INT32_MAX ? (int32_t)sw : 0;
    d->screen_h = sh > 0 && sh <= INT32_MAX ? (int32_t)sh : 0;
    d->has_paint = 1;
    d->views = c->views;
    d->nviews = k;
    return gd_age_emit(c, &ev, err);
}

static int gd_age_do_issue(age_ctx *c, json_t *p, double ts, const char *type, gd_error *err)
{
    gd_event ev;
    gd_event_init(&ev, GD_EV_ISSUE);
    ev.ts = ts;
    ev.u.issue.tool = "godeye";
    ev.u.issue.type = type;
    if (strcmp(type, "startup") == 0 && json_is_object(p)) {
        ev.u.issue.detail = gd_age_fstr(c, p, "startupType");
        ev.u.issue.cost_ms = gd_age_fnum(c, p, "startupTime");
    }
    char *js = json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    ev.u.issue.json = js;
    int rc = gd_age_emit(c, &ev, err);
    free(js);
    return rc;
}

/* MethodsRecordInfo (startMillis/endMillis since the monitor's 3.x; the
 * older nano-time start/end have no wall clock and are skipped). */
static int gd_age_do_method(age_ctx *c, json_t *p, gd_error *err)
{
    double rs = gd_age_fnum(c, p, "startMillis"), re = gd_age_fnum(c, p, "endMillis");
    if (!gd_has(rs) && !gd_has(re) && (gd_age_has(p, "start") || gd_age_has(p, "end"))) {
        gd_age_skip(c, GD_SKIP(METHODCANARY_NANO_TIME_RECORD));
        return 0;
    }
    json_t *ts_ = json_object_get(p, "methodInfoOfThreadInfos");
    size_t i, j;
    json_t *t, *m;
    json_array_foreach(ts_, i, t) {
        json_t *ti = json_object_get(t, "threadInfo");
        const char *tname = json_is_object(ti) ? gd_age_fstr(c, ti, "name") : NULL;
        int64_t tid = json_is_object(ti) ? gd_age_fint(c, ti, "id") : -1;
        json_array_foreach(json_object_get(t, "methodInfos"), j, m) {
            if (!json_is_object(m)) {
                gd_age_skip(c, GD_SKIP(METHODCANARY_METHOD_IS_NOT_AN_OBJECT));
                continue;
            }
            double s = gd_age_fnum(c, m, "startMillis"), e = gd_age_fnum(c, m, "endMillis");
            if (!gd_has(s) || s <= 0) /* already running when recording started */
                s = rs;
            int open = !gd_has(e) || e <= 0;
            if (open) /* still running when recording stopped */
                e = re;
            if (!gd_has(s) || s <= 0 || !gd_has(e) || e < s) {
                gd_age_skip(c, GD_SKIP(METHODCANARY_METHOD_WITHOUT_TIMES));
                continue;
            }
            gd_event ev;
            gd_event_init(&ev, GD_EV_METHOD);
            ev.ts = s;
            /* Java thread ids are not Linux tids: "main" maps to the main
             * thread, others keep the Java id. */
            if (tname && strcmp(tname, "main") == 0)
                ev.tid = GD_TID_MAIN;
            else if (tid >= 0)
                ev.tid = tid;
            ev.thread = tname;
            ev.u.method.phase = GD_PHASE_UNKNOWN;
            ev.u.method.cls = gd_age_fstr(c, m, "className");
            ev.u.method.method = gd_age_fstr(c, m, "methodName");
            ev.u.method.desc = gd_age_fstr(c, m, "methodDesc");
            ev.u.method.end_ts = e;
            ev.u.method.open = open;
            int64_t d = gd_age_fint(c, m, "stack");
            ev.u.method.depth = d >= 0 && d < 1000000 ? (int)d : -1;
            int rc = gd_age_emit(c, &ev, err);
            if (rc)
                return rc;
        }
    }
    return 0;
}
