/* event.c - names of event kinds and initialisers for events and meta. */
#include "event.h"
#include "row.h"
#include "skip_reasons.h"

#include <string.h>

static const char *const kind_names[GD_EV__COUNT] = {
    "looper", "dispatch", "stack", "cpu", "memory", "lifecycle", "view_dump",
    "image", "method", "frame", "mark", "frame_summary", "issue", "startup",
    "thread_state", "binder", /* #26 */
    "log",                    /* #28 */
    "process",
};

const char *gd_event_kind_name(gd_event_kind k)
{
    return (k >= 0 && k < GD_EV__COUNT) ? kind_names[k] : "unknown";
}

int gd_event_kind_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < GD_EV__COUNT; i++)
        if (strcmp(kind_names[i], name) == 0)
            return i;
    return -1;
}

static void page_init(gd_page *p)
{
    p->type = p->cls = NULL;
    p->hash = p->parent = -1;
}

void gd_event_init(gd_event *ev, gd_event_kind k)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = k;
    ev->ts = GD_NONE;
    ev->pid = GD_PID_APP;
    ev->tid = GD_TID_MAIN;
    switch (k) {
    case GD_EV_LOOPER:
        ev->u.looper.thread_ts = GD_NONE;
        break;
    case GD_EV_FRAME_SUMMARY:
        ev->u.frame_summary.until = GD_NONE;
        break;
    case GD_EV_DISPATCH:
        ev->u.dispatch.dur = GD_NONE;
        ev->u.dispatch.thread_dur = GD_NONE;
        break;
    case GD_EV_CPU:
        ev->u.cpu.total = ev->u.cpu.app = ev->u.cpu.user = GD_NONE;
        ev->u.cpu.sys = ev->u.cpu.iowait = GD_NONE;
        break;
    case GD_EV_MEMORY: {
        gd_memory_ev *m = &ev->u.memory;
        m->heap_free_kb = m->heap_max_kb = m->heap_alloc_kb = -1;
        m->pss_total_kb = m->pss_dalvik_kb = m->pss_native_kb = m->pss_other_kb = -1;
        m->ram_avail_kb = m->ram_total_kb = m->ram_low_threshold_kb = -1;
        m->ram_is_low = -1;
        break;
    }
    case GD_EV_LIFECYCLE:
        page_init(&ev->u.lifecycle.page);
        ev->u.lifecycle.end_ts = GD_NONE;
        break;
    case GD_EV_VIEW_DUMP:
        page_init(&ev->u.view_dump.page);
        ev->u.view_dump.has_paint = 1;
        break;
    case GD_EV_IMAGE:
        page_init(&ev->u.image.page);
        ev->u.image.view_hash = -1;
        ev->u.image.view_visible = 1;
        break;
    case GD_EV_METHOD:
        ev->u.method.end_ts = GD_NONE;
        ev->u.method.depth = -1;
        break;
    case GD_EV_FRAME:
        ev->u.frame.dur = GD_NONE;
        ev->u.frame.vsync_ms = GD_NONE;
        ev->u.frame.jank = ev->u.frame.present = ev->u.frame.token = ev->u.frame.deadline_missed = -1;
        break;
    case GD_EV_ISSUE:
        ev->u.issue.cost_ms = GD_NONE;
        break;
    case GD_EV_STARTUP:
        ev->u.startup.total_ms = GD_NONE;
        ev->u.startup.wait_ms = GD_NONE;
        ev->u.startup.activity_ms = GD_NONE;
        ev->u.startup.ttfd_ms = GD_NONE;
        break;
    case GD_EV_BINDER:
        ev->u.binder.dur = ev->u.binder.server_ts = ev->u.binder.server_dur = GD_NONE;
        ev->u.binder.server_pid = ev->u.binder.server_tid = -1;
        ev->u.binder.code = ev->u.binder.flags = ev->u.binder.txn_id = -1;
        break;
    case GD_EV_THREAD_STATE:
        ev->u.thread_state.dur = GD_NONE;
        ev->u.thread_state.io_wait = -1;
        ev->u.thread_state.cpu = -1;
        ev->u.thread_state.waker_tid = -1;
        break;
    default:
        break;
    }
}

static int ts_bad(double ms)
{
    return gd_has(ms) && !(ms >= 0 && ms <= GD_TS_MAX_MS);
}

static int dur_bad(double ms)
{
    /* a negative one in range is the writer's to count ("negative duration") */
    return gd_has(ms) && !(ms >= -GD_DUR_MAX_MS && ms <= GD_DUR_MAX_MS);
}

static int side_bad(int32_t px)
{
    return px > GD_SIDE_MAX;
}

const char *gd_event_out_of_range(const gd_event *ev)
{
    if (ts_bad(ev->ts))
        return "ts";
    switch (ev->kind) {
    case GD_EV_LOOPER:
        return ts_bad(ev->u.looper.thread_ts) ? "thread_ts" : NULL;
    case GD_EV_DISPATCH:
        return dur_bad(ev->u.dispatch.dur)          ? "dur"
               : dur_bad(ev->u.dispatch.thread_dur) ? "thread_dur"
                                                    : NULL;
    case GD_EV_LIFECYCLE:
        return ts_bad(ev->u.lifecycle.end_ts) ? "end_ts" : NULL;
    case GD_EV_METHOD:
        return ts_bad(ev->u.method.end_ts) ? "end_ts" : NULL;
    case GD_EV_FRAME:
        return dur_bad(ev->u.frame.dur) ? "dur" : dur_bad(ev->u.frame.vsync_ms) ? "vsync_ms" : NULL;
    case GD_EV_ISSUE:
        return dur_bad(ev->u.issue.cost_ms) ? "cost_ms" : NULL;
    case GD_EV_STARTUP:
        return dur_bad(ev->u.startup.total_ms)  ? "total_ms"
               : dur_bad(ev->u.startup.wait_ms) ? "wait_ms"
               : dur_bad(ev->u.startup.activity_ms) ? "activity_ms"
                                                : NULL;
    case GD_EV_THREAD_STATE:
        return dur_bad(ev->u.thread_state.dur) ? "dur" : NULL;
    case GD_EV_FRAME_SUMMARY:
        return ts_bad(ev->u.frame_summary.until) ? "until" : NULL;
    case GD_EV_BINDER:
        return dur_bad(ev->u.binder.dur)          ? "dur"
               : ts_bad(ev->u.binder.server_ts)   ? "server_ts"
               : dur_bad(ev->u.binder.server_dur) ? "server_dur"
                                                  : NULL;
    case GD_EV_IMAGE: {
        const gd_image_ev *im = &ev->u.image;
        return side_bad(im->bitmap_w)  ? "bitmap.w"
               : side_bad(im->bitmap_h) ? "bitmap.h"
               : side_bad(im->view_w)   ? "view.w"
               : side_bad(im->view_h)   ? "view.h"
                                        : NULL;
    }
    case GD_EV_VIEW_DUMP:
        return side_bad(ev->u.view_dump.screen_w) || side_bad(ev->u.view_dump.screen_h) ? "screen"
                                                                                       : NULL;
    default:
        return NULL;
    }
}

void gd_meta_init(gd_meta *m)
{
    memset(m, 0, sizeof *m);
    m->version_code = m->api_level = m->cpu_cores = -1;
    m->pid = m->main_tid = m->clk_tck = -1;
    m->long_block_ms = m->short_block_ms = GD_NONE;
    m->dump_interval_ms = m->sample_delay_ms = GD_NONE;
    m->max_depth = -1;
    m->utc_offset_min = INT64_MIN;
}

size_t gd_sink_cut(const gd_sink *s, const char *t, size_t len, size_t max, long line)
{
    if (len <= max)
        return len;
    if (s)
        gd_sink_skip(s, GD_SKIP(TEXT_CUT), line, 0);
    return gd_utf8_cut(t, len, max);
}

static void shift_time(double *t, double by)
{
    if (gd_has(*t) && *t > 0)
        *t += by;
}

/* The event's one time besides ts on ts's clock, or NULL. */
static double *second_time(gd_event *ev)
{
    switch (ev->kind) {
    case GD_EV_LIFECYCLE:
        return &ev->u.lifecycle.end_ts;
    case GD_EV_METHOD:
        return &ev->u.method.end_ts;
    case GD_EV_BINDER:
        return &ev->u.binder.server_ts;
    case GD_EV_FRAME_SUMMARY:
        return &ev->u.frame_summary.until;
    default:
        return NULL;
    }
}

void gd_event_shift(gd_event *ev, double by)
{
    shift_time(&ev->ts, by);
    double *t = second_time(ev);
    if (t)
        shift_time(t, by);
}
