/* androidgodeye_modules.c - AndroidGodEye blocks, pages, images, views, methods. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "reader.h"
#include "core/util.h"
#include "reader/androidgodeye_int.h"

/* Limit of the O(n^2) parent inference of a view issue (larger: flat). */
#define MAX_VIEWS_FOR_PARENTS 4096

/* ---- modules ---- */

int gd_age_emit(age_ctx *c, gd_event *ev, gd_error *err)
{
    ev->line = c->line;
    return gd_sink_event(c->sink, ev, err);
}

void gd_age_fill_memory(age_ctx *c, gd_memory_ev *m, json_t *heap, json_t *pss, json_t *ram)
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
void gd_age_fill_cpu(age_ctx *c, gd_cpu_ev *cpu, json_t *o, double scale)
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
        gd_age_skip(c, "blockInfo: no timeStart");
        return 0;
    }
    double dur = gd_has(t1) && t1 >= t0 ? t1 - t0 : bt;
    if (!gd_has(dur) || dur < 0) {
        gd_age_skip(c, "blockInfo: no timeEnd");
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
            gd_age_skip(c, "blockInfo: bad stack stamp");
            continue;
        }
        if (!json_is_array(frames)) {
            gd_age_skip(c, "blockInfo: stack is not an array");
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
                gd_age_skip(c, "blockInfo: frame is not a string");
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
            gd_age_skip(c, "blockInfo: cpu rate is not an object");
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

int gd_age_do_block(age_ctx *c, json_t *p, gd_error *err)
{
    json_t *bb = json_object_get(p, "blockBaseinfo");
    if (json_is_string(bb)) {
        /* the monitor sends the block as a JSON string inside the JSON */
        json_t *inner = json_loads(json_string_value(bb), 0, NULL);
        if (!json_is_object(inner)) {
            json_decref(inner);
            gd_age_skip(c, "blockInfo: blockBaseinfo is not JSON");
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
    gd_age_skip(c, "blockInfo: no block");
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

int gd_age_do_page(age_ctx *c, json_t *p, gd_error *err)
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
        gd_age_skip(c, "pageLifecycle: no lifecycleEvent");
        return 0;
    }
    ev.ts = gd_age_fnum(c, eo, "startTimeMillis");
    if (!gd_has(ev.ts) || ev.ts <= 0)
        ev.ts = gd_age_fnum(c, eo, "eventTimeMillis");
    if (!gd_has(ev.ts) || ev.ts <= 0) {
        gd_age_skip(c, "pageLifecycle: no timestamp");
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

int gd_age_do_image(age_ctx *c, json_t *p, double ts, gd_error *err)
{
    gd_event ev;
    gd_event_init(&ev, GD_EV_IMAGE);
    ev.ts = ts;
    gd_image_ev *im = &ev.u.image;
    int64_t bw = gd_age_fint(c, p, "bitmapWidth"), bh = gd_age_fint(c, p, "bitmapHeight");
    if (bw < 0 || bh < 0 || bw > INT32_MAX || bh > INT32_MAX) {
        gd_age_skip(c, "imageIssue: no bitmap size");
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
int gd_age_do_view(age_ctx *c, json_t *p, double ts, gd_error *err)
{
    json_t *vs = json_object_get(p, "views");
    if (!json_is_array(vs)) {
        gd_age_skip(c, "viewIssueInfo: no views");
        return 0;
    }
    size_t n = json_array_size(vs), k = 0;
    if (gd_grow((void **)&c->views, &c->views_cap, n + 1, sizeof(gd_view), err))
        return GD_ERR_IO;
    /* depth kept in `layers` temporarily would be confusing: use a side array */
    int *depth = calloc(n + 1, sizeof *depth);
    if (!depth)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(vs, i);
        gd_view *gv = &c->views[k];
        memset(gv, 0, sizeof *gv);
        if (!json_is_object(v) || rect_obj(json_object_get(v, "rect"), gv->rect) != 0) {
            gd_age_skip(c, "viewIssueInfo: view without rect");
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
        gd_age_skip(c, "viewIssueInfo: too many views to infer parents");
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

int gd_age_do_issue(age_ctx *c, json_t *p, double ts, const char *type, gd_error *err)
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
int gd_age_do_method(age_ctx *c, json_t *p, gd_error *err)
{
    double rs = gd_age_fnum(c, p, "startMillis"), re = gd_age_fnum(c, p, "endMillis");
    if (!gd_has(rs) && !gd_has(re) && (gd_age_has(p, "start") || gd_age_has(p, "end"))) {
        gd_age_skip(c, "methodCanary: nano-time record");
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
                gd_age_skip(c, "methodCanary: method is not an object");
                continue;
            }
            double s = gd_age_fnum(c, m, "startMillis"), e = gd_age_fnum(c, m, "endMillis");
            if (!gd_has(s) || s <= 0) /* already running when recording started */
                s = rs;
            int open = !gd_has(e) || e <= 0;
            if (open) /* still running when recording stopped */
                e = re;
            if (!gd_has(s) || s <= 0 || !gd_has(e) || e < s) {
                gd_age_skip(c, "methodCanary: method without times");
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
