/* art_trace_calls.c - ART/Dalvik method trace records into calls and dispatches. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltree.h"
#include "reader.h"
#include "core/util.h"
#include "reader/art_trace_int.h"
#include "reader/slicetrack.h"
#include "core/skip_reasons.h"

/* ---- calls ---------------------------------------------------------------- */

int gd_art_send_meta(art *a)
{
    if (a->meta_sent)
        return 0;
    a->meta_sent = 1;
    gd_meta m;
    gd_meta_init(&m);
    m.pid = a->pid;
    m.main_tid = a->main_tid >= 0 ? a->main_tid
                 : (a->pid > 0 && a->pid < ART_MAX_THREADS && a->th[a->pid]) ? a->pid
                                                                            : -1;
    if (a->clock != ART_CLK_CPU)
        m.clock = (double)a->start_us >= ART_EPOCH_US ? "utc" : "monotonic";
    return gd_sink_meta(a->sink, &m, a->err);
}

static int emit_call(art *a, unsigned tid, const art_thread *t, uint32_t method, double start,
                     double end, int depth, int open)
{
    const char *cls, *name, *desc;
    char unknown[40];
    if (!gd_art_method_find(a, method, &cls, &name, &desc)) {
        /* kept as a frame of its own, so that its callees stay its
         * children: "<unknown method 0x1468>" (counted) */
        gd_sink_skip(a->sink, GD_SKIP(IGNORED_ART_METHOD_ID_NOT_IN_THE_METHOD), 0, 0);
        snprintf(unknown, sizeof unknown, "<unknown method 0x%x>", (unsigned)method);
        cls = "";
        name = unknown;
        desc = "";
    }
    gd_event ev;
    gd_event_init(&ev, GD_EV_METHOD);
    ev.ts = start;
    ev.pid = a->pid > 0 ? a->pid : GD_PID_APP;
    ev.tid = tid;
    ev.thread = t->name;
    ev.u.method.phase = GD_PHASE_UNKNOWN;
    ev.u.method.cls = cls;
    ev.u.method.method = name;
    ev.u.method.desc = *desc ? desc : NULL;
    ev.u.method.end_ts = end;
    ev.u.method.depth = depth;
    ev.u.method.open = open;
    return gd_sink_event(a->sink, &ev, a->err);
}

static int is_dispatch(const art *a, uint32_t method)
{
    const char *cls, *name, *desc;
    return gd_art_method_find(a, method, &cls, &name, &desc) && strcmp(name, "dispatchMessage") == 0 &&
           strcmp(cls, "android.os.Handler") == 0;
}

/* An open call on the tracker: its tag holds the method id (low 32 bits,
 * what an exit matches) and the first method it called (high bits, 0 none
 * yet; ids have their low two bits clear, so child >> 2 fits in 30 bits). */
#define ART_TAG_METHOD 0xffffffffll
static uint32_t tag_method(int64_t tag) { return (uint32_t)(tag & ART_TAG_METHOD); }
static uint32_t tag_child(int64_t tag) { return (uint32_t)((uint64_t)tag >> 32) << 2; }
static int64_t tag_of(uint32_t method, uint32_t child)
{
    return (int64_t)method | (int64_t)((uint64_t)(child >> 2) << 32);
}

/* The main thread's outermost Handler.dispatchMessage calls are the work
 * its Looper ran: each also becomes a dispatch (msg: the method it called
 * first, the handleMessage or the Runnable), so blocks, thresholds, groups
 * and blame work on a method trace as on a Looper log. */
static int emit_dispatch(art *a, unsigned tid, const art_thread *t, const gd_slice *f, double end, int unfinished)
{
    if ((int64_t)tid != a->main_tid || !is_dispatch(a, tag_method(f->tag)))
        return 0;
    int n;
    const gd_slice *open = gd_slicetrack_open(a->st, GD_TRACK_THREAD, tid, &n);
    for (int i = 0; i < n; i++) /* the callers still open */
        if (is_dispatch(a, tag_method(open[i].tag)))
            return 0;
    char msg[600];
    const char *cls, *name, *desc;
    uint32_t child = tag_child(f->tag);
    if (child && gd_art_method_find(a, child, &cls, &name, &desc))
        snprintf(msg, sizeof msg, "Handler.dispatchMessage: %.280s.%.280s", cls, name);
    else
        snprintf(msg, sizeof msg, "Handler.dispatchMessage");
    gd_event ev;
    gd_event_init(&ev, GD_EV_DISPATCH);
    ev.ts = f->ts;
    ev.pid = a->pid > 0 ? a->pid : GD_PID_APP;
    ev.tid = tid;
    ev.thread = t->name;
    ev.u.dispatch.dur = end - f->ts;
    ev.u.dispatch.msg = msg;
    ev.u.dispatch.unfinished = unfinished;
    return gd_sink_event(a->sink, &ev, a->err);
}

int gd_art_record(art *a, unsigned tid, uint32_t mv, uint32_t cpu, uint32_t wall)
{
    art_thread *t = gd_art_thread_get(a, tid);
    if (!t)
        return gd_error_oom(a->err);
    uint32_t method = mv & ~3u;
    unsigned action = mv & 3u;
    uint32_t t_raw = a->clock == ART_CLK_CPU ? cpu : wall;
    a->records++;
    if (t->seen && t->last_t == t_raw)
        a->clumped++;
    t->seen = 1;
    t->last_t = t_raw;
    double ts = ((double)a->start_us + (double)(a->clock == ART_CLK_CPU ? cpu : wall)) / 1000.0;
    if (ts > a->last_ts)
        a->last_ts = ts;
    if (action == 3) {
        gd_sink_skip(a->sink, GD_SKIP(ART_UNKNOWN_RECORD_ACTION), 0, 0);
        return 0;
    }
    int st;
    if (action == 0) {
        gd_slice *f = gd_slicetrack_begin(a->st, GD_TRACK_THREAD, tid, tid, 0, &st);
        if (st == GD_ST_NOMEM)
            return gd_error_oom(a->err);
        if (!f) { /* past GD_CT_MAX_DEPTH or ART_MAX_OPEN, or above such a call */
            gd_sink_skip(a->sink, GD_SKIP(ART_NESTING_TOO_DEEP), 0, 0);
            return 0;
        }
        f->ts = ts;
        f->tag = tag_of(method, 0);
        int n;
        gd_slice *open = gd_slicetrack_open(a->st, GD_TRACK_THREAD, tid, &n);
        if (n > 1 && !tag_child(open[n - 2].tag))
            open[n - 2].tag = tag_of(tag_method(open[n - 2].tag), method);
        return 0;
    }
    int k = gd_slicetrack_end_match(a->st, GD_TRACK_THREAD, tid, (int64_t)method, ART_TAG_METHOD,
                                    &st);
    if (st == GD_ST_DROPPED) /* the exit of a dropped deep enter */
        return 0;
    int base = ART_DEPTH_BASE - t->pre;
    if (st == GD_ST_UNMATCHED) { /* running when tracing started */
        if (t->pre >= ART_MAX_PRE) {
            gd_sink_skip(a->sink, GD_SKIP(ART_TOO_MANY_CALLS_RUNNING_AT_THE_START), 0, 0);
            return 0;
        }
        t->pre++;
        return emit_call(a, tid, t, method, (double)a->start_us / 1000.0, ts, base - 1, 1);
    }
    if (st == GD_ST_NOMATCH) {
        gd_sink_skip(a->sink, GD_SKIP(ART_EXIT_WITHOUT_ENTER), 0, 0);
        return 0;
    }
    for (; k > 0; k--) {
        int depth;
        const gd_slice *parent;
        gd_slice f = *gd_slicetrack_pop_open(a->st, GD_TRACK_THREAD, tid, &depth, &parent);
        if (k > 1)
            gd_sink_skip(a->sink, GD_SKIP(ART_EXIT_MISSING_CLOSED_WITH_ITS_CALLER), 0, 0);
        int rc = emit_call(a, tid, t, tag_method(f.tag), f.ts, ts, base + depth, 0);
        if (!rc)
            rc = emit_dispatch(a, tid, t, &f, ts, 0);
        if (rc)
            return rc;
    }
    return 0;
}

/* 1 when the trace was recorded by sampling: its header says so, or its
 * records come in clumps (at least ART_SAMPLED_MIN records, half or more of
 * them at the same time as the previous record of their thread; a traced
 * run writes each call at its own microsecond). */
static int art_sampled(const art *a)
{
    return a->hdr_sampled || (a->records >= ART_SAMPLED_MIN && a->clumped * 2 >= a->records);
}

int gd_art_finish(art *a)
{
    if (art_sampled(a)) {
        /* known only now: a second meta fills the field still absent */
        gd_meta m;
        gd_meta_init(&m);
        m.sampled = 1;
        int rc = gd_sink_meta(a->sink, &m, a->err);
        if (rc)
            return rc;
    }
    double end = a->last_ts;
    if (a->elapsed_us > 0 && a->clock != ART_CLK_CPU) {
        double e = ((double)a->start_us + a->elapsed_us) / 1000.0;
        if (e > end)
            end = e;
    }
    for (size_t i = 0; i < a->nused; i++) {
        unsigned tid = a->used[i];
        art_thread *t = a->th[tid];
        gd_slice *f;
        int depth;
        const gd_slice *parent;
        while ((f = gd_slicetrack_pop_open(a->st, GD_TRACK_THREAD, tid, &depth, &parent))) {
            gd_slice c = *f;
            int rc = emit_call(a, tid, t, tag_method(c.tag), c.ts, end, ART_DEPTH_BASE - t->pre + depth, 1);
            /* an outermost dispatchMessage still running: an unfinished
             * dispatch, as a Looper log's begin without its end */
            if (!rc)
                rc = emit_dispatch(a, tid, t, &c, end, 1);
            if (rc)
                return rc;
        }
    }
    return 0;
}
