/* perfetto_events.c - perfetto ftrace prints, track events, time order. */
#include "perfetto_int.h"

/* ---- time order ----
 * Ftrace bundles are per CPU, so prints reach the reader out of time order
 * (seconds apart in real traces).  Slice begins and ends wait in a min-heap
 * by time and are paired once PF_SORT_WINDOW_MS older than the newest time
 * seen, or earlier when PF_SORT_MAX of them or PF_SORT_MAX_BYTES (entries
 * and names) wait: those paired early are counted. */

static int pend_pop_one(pctx *c)
{
    pending top;
    gd_oheap_pop(&c->heap, &top);
    int rc;
    if (top.kind == SK_MARKER && top.ts < (double)gd_pf_sched_crop(c) / 1e6) { /* #51 */
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_FTRACE_EVENT_BEFORE_TRACING_STARTED), top.pkno, 0);
        rc = 0;
    } else if (top.kind == SK_MARKER)
        rc = gd_atrace_marker(c->at, top.ts, top.tid, top.pid, top.text, top.len, top.pkno, c->err);
    else if (top.kind == SK_BEGIN)
        rc = gd_atrace_begin(c->at, top.ts, top.pid, top.tid, top.text, top.len, top.pkno, c->err);
    else if (top.kind == SK_END)
        rc = gd_atrace_end(c->at, top.ts, top.tid, top.pkno, c->err);
    else if (top.kind == SK_TRACK_BEGIN)
        rc = gd_atrace_track_begin(c->at, top.track, top.ts, top.pid, top.tid, top.text, top.len,
                                   top.pkno, c->err);
    else
        rc = gd_atrace_track_end(c->at, top.track, top.ts, top.tid, top.pkno, c->err);
    c->heap_bytes -= sizeof top + sizeof(gd_oheap_key) + (top.text ? top.len + 1 : 0);
    free(top.text);
    return rc;
}

/* Pairs what is old enough (all of it when `all`). */
int gd_pf_pend_drain(pctx *c, int all)
{
    int rc = 0;
    while (!rc && c->heap.n) {
        int ripe = all || ((pending *)gd_oheap_at(&c->heap, 0))->ts < c->max_ts - PF_SORT_WINDOW_MS;
        if (!ripe && c->heap.n < PF_SORT_MAX && c->heap_bytes <= PF_SORT_MAX_BYTES)
            break;
        if (!ripe)
            gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_PAIRED_BEFORE_ITS_SORT),
                         c->pkno, 0);
        rc = pend_pop_one(c);
    }
    return rc;
}

static int pend_push(pctx *c, double ts, int64_t tid, int64_t pid, int kind, uint64_t track,
                     const char *text, size_t len)
{
    if (text)
        len = gd_sink_cut(c->sink, text, len, ATRACE_MAX_NAME - 1, c->pkno);
    pending x = {ts, tid, pid, kind, c->pkno, len, NULL, track};
    if (text) {
        if (!(x.text = malloc(len + 1)))
            return gd_error_oom_at(c->err, c->pkno, 0);
        memcpy(x.text, text, len);
        x.text[len] = 0;
    }
    pending *slot = gd_oheap_push(&c->heap, gd_oheap_key_f64(ts));
    if (!slot) {
        free(x.text);
        return gd_error_oom_at(c->err, c->pkno, 0);
    }
    *slot = x;
    c->heap_bytes += sizeof x + sizeof(gd_oheap_key) + (x.text ? len + 1 : 0);
    if (ts > c->max_ts)
        c->max_ts = ts;
    return gd_pf_pend_drain(c, 0);
}

/* ---- ftrace ---- */

/* FtraceEventBundle's cpu 1 (-1 none) and previous_bundle_end_timestamp 10
 * (last_read_event_timestamp 9 in older traces), the latter for cropping. */
static int bundle_head(pctx *c, pb_cur m)
{
    pb_field f;
    uint64_t end = 0;
    int cpu = -1, has_end = 0;
    while (pb_next(&m, &f) == 1) {
        if (f.num == 1 && f.wt == PB_VARINT)
            cpu = f.v < 65536 ? (int)f.v : 65535;
        else if ((f.num == 10 || (f.num == 9 && !has_end)) && f.wt == PB_VARINT)
            end = f.v, has_end = 1;
    }
    gd_pf_sched_bundle(c, cpu, has_end, end);
    return cpu;
}

int gd_pf_read_ftrace(pctx *c, pseq *s, pb_cur m)
{
    pb_field f, g, h;
    int r, rc = 0, cpu = bundle_head(c, m);
    while (!rc && (r = pb_next(&m, &f)) == 1) {
        if (f.num == 4 && f.wt == PB_LEN) { /* compact_sched (#26) */
            rc = gd_pf_sched_compact(c, cpu, pb_sub(&f));
            continue;
        }
        if (f.num != 2 || f.wt != PB_LEN)
            continue;
        c->ftrace++;
        pb_cur e = pb_sub(&f);
        uint64_t ts = 0;
        int64_t tid = -1;
        const uint8_t *buf = NULL;
        size_t len = 0;
        int q, has_ts = 0, print = 0;
        pb_field other = {0};
        while ((q = pb_next(&e, &g)) == 1) {
            if (g.num == 1 && g.wt == PB_VARINT)
                ts = g.v, has_ts = 1;
            else if (g.num == 2 && g.wt == PB_VARINT)
                tid = (int64_t)(uint32_t)g.v;
            else if (g.num == 3 && g.wt == PB_LEN) {
                print = 1;
                pb_cur pe = pb_sub(&g);
                int z;
                while ((z = pb_next(&pe, &h)) == 1)
                    if (h.num == 2 && h.wt == PB_LEN)
                        buf = h.data, len = h.len;
                if (z < 0)
                    q = -1;
            } else if (g.wt == PB_LEN && g.num != 3) {
                other = g;
            }
            if (q < 0)
                break;
        }
        if (q < 0) {
            gd_pf_bad(c, GD_SKIP(MALFORMED_FTRACE_EVENT));
            continue;
        }
        if (!print && other.num && has_ts) {
            int used = 0;
            if ((rc = gd_pf_sched_event(c, s, cpu, ts, tid, &other, &used)) || used)
                continue;
        }
        if (!print) {
            gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_FTRACE_EVENT_NOT_USED), c->pkno, 0);
            continue;
        }
        if (!buf || !has_ts || tid < 0) {
            gd_pf_bad(c, GD_SKIP(PRINT_EVENT_WITHOUT_BUF_TIMESTAMP_OR_PID));
            continue;
        }
        c->markers++;
        rc = pend_push(c, (double)ts / 1e6, tid, -1, SK_MARKER, 0, (const char *)buf, len);
    }
    if (!rc && r < 0)
        gd_pf_bad(c, GD_SKIP(MALFORMED_FTRACE_BUNDLE));
    return rc;
}

/* ---- track events ---- */

int gd_pf_read_track_event(pctx *c, pseq *s, pb_cur m, int has_ts, uint64_t ts_ns)
{
    pb_field f;
    int r, type = 0;
    uint64_t track = 0, name_iid = 0, abs_us = 0;
    int has_track = 0, has_iid = 0, has_abs = 0, has_delta = 0;
    const uint8_t *name = NULL;
    size_t nlen = 0;
    while ((r = pb_next(&m, &f)) == 1) {
        if (f.num == 9 && f.wt == PB_VARINT)
            type = (int)f.v;
        else if (f.num == 11 && f.wt == PB_VARINT)
            track = f.v, has_track = 1;
        else if (f.num == 23 && f.wt == PB_LEN)
            name = f.data, nlen = f.len;
        else if (f.num == 10 && f.wt == PB_VARINT)
            name_iid = f.v, has_iid = 1;
        else if (f.num == 16 && f.wt == PB_VARINT)
            abs_us = f.v, has_abs = 1;
        else if (f.num == 1 && f.wt == PB_VARINT)
            has_delta = 1;
    }
    if (r < 0) {
        gd_pf_bad(c, GD_SKIP(MALFORMED_TRACK_EVENT));
        return 0;
    }
    c->track_events++;
    if (type != 1 && type != 2) {
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_TRACK_EVENT_NOT_A_SLICE), c->pkno, 0);
        return 0;
    }
    double ts;
    if (has_abs)
        ts = (double)abs_us / 1e3;
    else if (has_ts && !has_delta)
        ts = (double)ts_ns / 1e6;
    else {
        gd_pf_bad(c, GD_SKIP(TRACK_EVENT_WITHOUT_A_USABLE_TIMESTAMP));
        return 0;
    }
    int64_t pid = -1, tid = -1;
    if (!has_track && s && s->def_track)
        track = s->def_track, has_track = 1;
    if (has_track) {
        ptrack *t = gd_pf_track_find(c, track);
        if (!t) {
            gd_pf_bad(c, GD_SKIP(TRACK_EVENT_ON_AN_UNDESCRIBED_TRACK));
            return 0;
        }
        pid = t->pid;
        tid = t->tid;
    } else if (s && s->td_tid >= 0) {
        pid = s->td_pid;
        tid = s->td_tid;
    }
    if (tid < 0) {
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_SLICE_NOT_ON_A_THREAD_TRACK), c->pkno, 0);
        return 0;
    }
    /* a slice on a track of its own pairs on that track, never with the
     * thread's atrace slices (Perfetto's track_event_with_atrace_separate_tracks) */
    int kb = has_track ? SK_TRACK_BEGIN : SK_BEGIN, ke = has_track ? SK_TRACK_END : SK_END;
    if (type == 2)
        return pend_push(c, ts, tid, pid, ke, track, NULL, 0);
    const char *nm = NULL;
    if (name) {
        nm = (const char *)name;
    } else if (has_iid) {
        nm = gd_pf_interned(s, name_iid);
        if (nm)
            nlen = strlen(nm);
    }
    if (!nm) {
        gd_pf_bad(c, GD_SKIP(SLICE_NAME_NOT_INTERNED));
        nm = "(unknown name)";
        nlen = strlen(nm);
    }
    return pend_push(c, ts, tid, pid, kb, track, nm, nlen);
}

