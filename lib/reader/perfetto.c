/* perfetto.c - reader of Perfetto protobuf traces (.perfetto-trace, .pftrace):
 * app slices, process and thread names, frame-timeline jank.
 *
 * A trace is a sequence of `Trace.packet` fields (field 1, length-delimited),
 * each a TracePacket; this reader walks the protobuf wire format directly
 * (pbwire.h), one packet at a time, with the field numbers of Perfetto's
 * protos/perfetto/trace/ .proto files:
 *   TracePacket: timestamp 8, timestamp_clock_id 58, trusted_packet_sequence_id
 *     10, sequence_flags 13 (1 = incremental state cleared),
 *     incremental_state_cleared 41, trace_packet_defaults 59
 *     (TracePacketDefaults: timestamp_clock_id 58, track_event_defaults 11 ->
 *     track_uuid 11), ftrace_events 1, process_tree 2, track_event 11,
 *     interned_data 12, track_descriptor 60, process_descriptor 43,
 *     thread_descriptor 44, frame_timeline_event 76, compressed_packets 50;
 *   FtraceEventBundle: event 2 -> FtraceEvent: timestamp 1, pid 2 (the tid),
 *     print 3 -> PrintFtraceEvent: buf 2 (the atrace marker);
 *   ProcessTree: processes 1 (Process: pid 1, cmdline 3), threads 2
 *     (Thread: tid 1, name 2, tgid 3);
 *   TrackDescriptor: uuid 1, process 3 (ProcessDescriptor: pid 1, cmdline 2,
 *     process_name 6), thread 4 (ThreadDescriptor: pid 1, tid 2,
 *     thread_name 5);
 *   TrackEvent: type 9 (1 slice begin, 2 slice end, 3 instant, 4 counter),
 *     track_uuid 11, name 23, name_iid 10, timestamp_absolute_us 16;
 *   InternedData: event_names 2 (EventName: iid 1, name 2), per sequence,
 *     dropped when the sequence clears its incremental state;
 *   FrameTimelineEvent: actual_surface_frame_start 4 (cookie 1, token 2,
 *     pid 4, layer_name 5, present_type 6, jank_type 9), frame_end 5
 *     (cookie 1).
 *
 * Emits (through atrace.h): atrace markers of ftrace print events and
 * TrackEvent slices on thread tracks, paired per thread -> dispatches
 * (top-level slices on a main thread, tid == pid), methods (the others),
 * frames (Choreographer#doFrame), lock-contention issues; app surface
 * frames that the frame timeline marks janky -> GD_EV_ISSUE tool "android",
 * type "frame_jank" (json: layer, token, jank types, present type, dur_ms).
 * Process names come from ProcessTree and descriptors; thread names likewise.
 * Clock: packet timestamps are CLOCK_BOOTTIME ns -> ms since boot,
 * meta.clock "monotonic".  Packets stamped on another clock are mapped to
 * BOOTTIME through ClockSnapshot packets (clock_snapshot 6): builtin clocks
 * by the latest snapshot, a sequence's own clock (64..127, incremental or
 * not, with its unit) by the sequence's snapshot -- the Perfetto SDK's
 * delta-encoded track-event timestamps; track events on a clock no snapshot
 * maps are skipped, counted.
 *
 * Skips (counted): packets of other kinds ("ignored: perfetto: packet not
 * used (<kind>)"), other ftrace events, counters, instants, async slices;
 * malformed fields under "perfetto: ..." reasons.  A trace cut off
 * mid-packet keeps its complete packets and counts "perfetto: trace cut
 * mid-packet".  A recognised trace with no slice at all is an error.
 *
 * Positions: the "line" of a message or a skip is the packet's number
 * (1-based); errors in the framing also give the byte offset.
 *
 * Memory: one packet at a time (at most PF_MAX_PACKET bytes; larger ones are
 * read past and counted), per-sequence interned names (PF_MAX_INTERNED in
 * all), PF_MAX_TRACKS track descriptors, PF_MAX_FRAMES open frame-timeline
 * frames, and atrace.h's per-thread state. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "atrace.h"
#include "pbwire.h"
#include "reader.h"

#define PF_MAX_PACKET ((size_t)32 << 20)
#define PF_MAX_INFLATED ((size_t)32 << 20)
#define PF_MAX_INTERNED 262144
#define PF_MAX_SEQS 4096
#define PF_MAX_TRACKS 65536
#define PF_MAX_FRAMES 4096
#define PF_BOOTTIME 6
#define PF_SORT_WINDOW_MS 10000.0
#define PF_SORT_MAX 262144

typedef struct iname {
    uint64_t iid;
    char *name;          /* NULL: empty slot */
} iname;

typedef struct pseq {
    uint32_t id;
    iname *names;        /* open addressing, cap power of two */
    size_t cap, n;
    uint64_t def_track;  /* TracePacketDefaults track uuid, 0 none */
    uint32_t def_clock;  /* TracePacketDefaults clock id, 0 none */
    /* the sequence's own clock (ids 64..127) from its ClockSnapshot: value
     * in ns = timestamp * unit; boottime = value + off; incremental: each
     * packet's timestamp adds to cur */
    uint32_t clk_id;
    int clk_inc;
    uint64_t clk_unit, clk_cur;
    uint64_t clk_off;    /* added modulo 2^64: wraps, never overflows */
    int64_t td_pid, td_tid; /* legacy ThreadDescriptor, -1 none */
} pseq;

typedef struct ptrack {
    uint64_t uuid;       /* 0: empty slot */
    int64_t pid, tid;    /* tid -1: not a thread track */
} ptrack;

typedef struct pframe {
    int64_t cookie;
    int used;
    double ts;
    int64_t pid, token;
    int64_t jank, present;
    char layer[128];
} pframe;

typedef struct pending pending;

typedef struct pctx {
    const gd_sink *sink;
    gd_error *err;
    gd_atrace *at;
    pseq *seqs;
    size_t nseqs;
    size_t ninterned;
    ptrack *tracks;
    size_t tcap, ntracks;
    pframe frames[PF_MAX_FRAMES];
    long packets, ftrace, markers, track_events, issues;
    long pkno;           /* packet number, for messages */
    uint64_t clk_off[6]; /* builtin clocks 1..5 -> boottime (added modulo 2^64) */
    int clk_has[6];
    pending *heap;       /* slice begins/ends waiting for time order */
    size_t nheap, cheap;
    uint64_t seqno;
    double max_ts;
    char reason[96];
} pctx;

static const char *reason_of(pctx *c, const char *fmt, const char *what)
{
    snprintf(c->reason, sizeof c->reason, fmt, what);
    return c->reason;
}

static void bad(pctx *c, const char *what)
{
    gd_sink_skip(c->sink, reason_of(c, "perfetto: %s", what), c->pkno, 0);
}

/* ---- sequences and interned names ---- */

static pseq *seq_of(pctx *c, uint32_t id)
{
    for (size_t i = 0; i < c->nseqs; i++)
        if (c->seqs[i].id == id)
            return &c->seqs[i];
    if (c->nseqs >= PF_MAX_SEQS)
        return NULL;
    if (c->nseqs % 16 == 0) {
        pseq *n = realloc(c->seqs, (c->nseqs + 16) * sizeof *n);
        if (!n)
            return NULL;
        c->seqs = n;
    }
    pseq *s = &c->seqs[c->nseqs++];
    memset(s, 0, sizeof *s);
    s->id = id;
    s->td_pid = s->td_tid = -1;
    return s;
}

static void seq_clear(pctx *c, pseq *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->names[i].name);
    free(s->names);
    c->ninterned -= s->n;
    s->names = NULL;
    s->cap = s->n = 0;
    s->def_track = 0;
    s->def_clock = 0;
    s->clk_id = 0;
    s->td_pid = s->td_tid = -1;
}

static size_t ihash(uint64_t iid, size_t cap)
{
    uint64_t h = iid * 0x9E3779B97F4A7C15ull;
    return (size_t)((h ^ (h >> 29)) & (cap - 1));
}

static const char *interned(const pseq *s, uint64_t iid)
{
    if (!s || !s->cap)
        return NULL;
    size_t h = ihash(iid, s->cap);
    while (s->names[h].name) {
        if (s->names[h].iid == iid)
            return s->names[h].name;
        h = (h + 1) & (s->cap - 1);
    }
    return NULL;
}

static int intern_put(pctx *c, pseq *s, uint64_t iid, const uint8_t *name, size_t len)
{
    if (len >= ATRACE_MAX_NAME)
        len = ATRACE_MAX_NAME - 1;
    if (s->cap) {
        size_t h = ihash(iid, s->cap);
        while (s->names[h].name) {
            if (s->names[h].iid == iid) {
                char *n = malloc(len + 1);
                if (!n)
                    return gd_error_set(c->err, GD_ERR_IO, c->pkno, 0, "out of memory");
                memcpy(n, name, len);
                n[len] = 0;
                free(s->names[h].name);
                s->names[h].name = n;
                return 0;
            }
            h = (h + 1) & (s->cap - 1);
        }
    }
    if (c->ninterned >= PF_MAX_INTERNED) {
        bad(c, "too many interned names, later ones dropped");
        return 0;
    }
    if ((s->n + 1) * 2 > s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        iname *nt = calloc(nc, sizeof *nt);
        if (!nt)
            return gd_error_set(c->err, GD_ERR_IO, c->pkno, 0, "out of memory");
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->names[i].name)
                continue;
            size_t h = ihash(s->names[i].iid, nc);
            while (nt[h].name)
                h = (h + 1) & (nc - 1);
            nt[h] = s->names[i];
        }
        free(s->names);
        s->names = nt;
        s->cap = nc;
    }
    char *n = malloc(len + 1);
    if (!n)
        return gd_error_set(c->err, GD_ERR_IO, c->pkno, 0, "out of memory");
    memcpy(n, name, len);
    n[len] = 0;
    size_t h = ihash(iid, s->cap);
    while (s->names[h].name)
        h = (h + 1) & (s->cap - 1);
    s->names[h].iid = iid;
    s->names[h].name = n;
    s->n++;
    c->ninterned++;
    return 0;
}

/* InternedData: event_names 2 -> EventName {iid 1, name 2}. */
static int read_interned(pctx *c, pseq *s, pb_cur m)
{
    pb_field f, g;
    int r;
    while ((r = pb_next(&m, &f)) == 1) {
        if (f.num != 2 || f.wt != PB_LEN)
            continue;
        pb_cur e = pb_sub(&f);
        uint64_t iid = 0;
        const uint8_t *name = NULL;
        size_t len = 0;
        int q;
        while ((q = pb_next(&e, &g)) == 1) {
            if (g.num == 1 && g.wt == PB_VARINT)
                iid = g.v;
            else if (g.num == 2 && g.wt == PB_LEN)
                name = g.data, len = g.len;
        }
        if (q < 0 || !name) {
            bad(c, "malformed interned event name");
            continue;
        }
        if (!s) {
            bad(c, "too many packet sequences");
            continue;
        }
        if ((q = intern_put(c, s, iid, name, len)))
            return q;
    }
    if (r < 0)
        bad(c, "malformed interned data");
    return 0;
}

/* ---- tracks ---- */

static size_t thash(uint64_t uuid, size_t cap)
{
    uint64_t h = uuid * 0x9E3779B97F4A7C15ull;
    return (size_t)((h ^ (h >> 31)) & (cap - 1));
}

static ptrack *track_find(pctx *c, uint64_t uuid)
{
    if (!c->tcap || uuid == 0)
        return NULL;
    size_t h = thash(uuid, c->tcap);
    while (c->tracks[h].uuid) {
        if (c->tracks[h].uuid == uuid)
            return &c->tracks[h];
        h = (h + 1) & (c->tcap - 1);
    }
    return NULL;
}

static int track_put(pctx *c, uint64_t uuid, int64_t pid, int64_t tid)
{
    ptrack *t = track_find(c, uuid);
    if (t) {
        t->pid = pid;
        t->tid = tid;
        return 0;
    }
    if (c->ntracks >= PF_MAX_TRACKS) {
        bad(c, "too many tracks, later ones dropped");
        return 0;
    }
    if ((c->ntracks + 1) * 2 > c->tcap) {
        size_t nc = c->tcap ? c->tcap * 2 : 256;
        ptrack *nt = calloc(nc, sizeof *nt);
        if (!nt)
            return gd_error_set(c->err, GD_ERR_IO, c->pkno, 0, "out of memory");
        for (size_t i = 0; i < c->tcap; i++) {
            if (!c->tracks[i].uuid)
                continue;
            size_t h = thash(c->tracks[i].uuid, nc);
            while (nt[h].uuid)
                h = (h + 1) & (nc - 1);
            nt[h] = c->tracks[i];
        }
        free(c->tracks);
        c->tracks = nt;
        c->tcap = nc;
    }
    size_t h = thash(uuid, c->tcap);
    while (c->tracks[h].uuid)
        h = (h + 1) & (c->tcap - 1);
    c->tracks[h].uuid = uuid;
    c->tracks[h].pid = pid;
    c->tracks[h].tid = tid;
    c->ntracks++;
    return 0;
}

/* ProcessDescriptor {pid 1, cmdline 2, process_name 6}: names the process;
 * *pid set. */
static int read_process_desc(pctx *c, pb_cur m, int64_t *pid)
{
    pb_field f;
    const uint8_t *name = NULL, *cmd = NULL;
    size_t nlen = 0, clen = 0;
    int r;
    *pid = -1;
    while ((r = pb_next(&m, &f)) == 1) {
        if (f.num == 1 && f.wt == PB_VARINT)
            *pid = (int64_t)(int32_t)f.v;
        else if (f.num == 6 && f.wt == PB_LEN)
            name = f.data, nlen = f.len;
        else if (f.num == 2 && f.wt == PB_LEN && !cmd)
            cmd = f.data, clen = f.len;
    }
    if (r < 0) {
        bad(c, "malformed process descriptor");
        return 0;
    }
    if (!name)
        name = cmd, nlen = clen;
    if (*pid >= 0 && name && nlen)
        return gd_atrace_process_name(c->at, *pid, (const char *)name, nlen, c->err);
    return 0;
}

/* ThreadDescriptor {pid 1, tid 2, thread_name 5}: names the thread. */
static int read_thread_desc(pctx *c, pb_cur m, int64_t *pid, int64_t *tid)
{
    pb_field f;
    const uint8_t *name = NULL;
    size_t nlen = 0;
    int r;
    *pid = *tid = -1;
    while ((r = pb_next(&m, &f)) == 1) {
        if (f.num == 1 && f.wt == PB_VARINT)
            *pid = (int64_t)(int32_t)f.v;
        else if (f.num == 2 && f.wt == PB_VARINT)
            *tid = (int64_t)(int32_t)f.v;
        else if (f.num == 5 && f.wt == PB_LEN)
            name = f.data, nlen = f.len;
    }
    if (r < 0) {
        bad(c, "malformed thread descriptor");
        *tid = -1;
        return 0;
    }
    if (*tid >= 0)
        return gd_atrace_thread_name(c->at, *tid, *pid, (const char *)name, name ? nlen : 0,
                                     c->err);
    return 0;
}

/* TrackDescriptor {uuid 1, process 3, thread 4}. */
static int read_track_desc(pctx *c, pb_cur m)
{
    pb_field f;
    uint64_t uuid = 0;
    int64_t pid = -1, tid = -1, ppid = -1;
    int r, rc = 0, thread = 0;
    while ((r = pb_next(&m, &f)) == 1 && !rc) {
        if (f.num == 1 && f.wt == PB_VARINT)
            uuid = f.v;
        else if (f.num == 3 && f.wt == PB_LEN)
            rc = read_process_desc(c, pb_sub(&f), &ppid);
        else if (f.num == 4 && f.wt == PB_LEN) {
            rc = read_thread_desc(c, pb_sub(&f), &pid, &tid);
            thread = 1;
        }
    }
    if (rc)
        return rc;
    if (r < 0) {
        bad(c, "malformed track descriptor");
        return 0;
    }
    if (uuid == 0)
        return 0;
    if (thread && tid >= 0)
        return track_put(c, uuid, pid, tid);
    return track_put(c, uuid, ppid, -1);
}

/* ProcessTree {processes 1 {pid 1, cmdline 3}, threads 2 {tid 1, name 2, tgid 3}}. */
static int read_process_tree(pctx *c, pb_cur m)
{
    pb_field f, g;
    int r, rc = 0;
    while (!rc && (r = pb_next(&m, &f)) == 1) {
        if (f.wt != PB_LEN || (f.num != 1 && f.num != 2))
            continue;
        pb_cur e = pb_sub(&f);
        int64_t id = -1, tgid = -1;
        const uint8_t *name = NULL;
        size_t len = 0;
        int q;
        while ((q = pb_next(&e, &g)) == 1) {
            if (g.num == 1 && g.wt == PB_VARINT)
                id = (int64_t)(int32_t)g.v;
            else if (f.num == 1 && g.num == 3 && g.wt == PB_LEN && !name)
                name = g.data, len = g.len;
            else if (f.num == 2 && g.num == 2 && g.wt == PB_LEN)
                name = g.data, len = g.len;
            else if (f.num == 2 && g.num == 3 && g.wt == PB_VARINT)
                tgid = (int64_t)(int32_t)g.v;
        }
        if (q < 0 || id < 0) {
            bad(c, "malformed process tree entry");
            continue;
        }
        if (f.num == 1)
            rc = name && len ? gd_atrace_process_name(c->at, id, (const char *)name, len, c->err) : 0;
        else
            rc = gd_atrace_thread_name(c->at, id, tgid, (const char *)name, name ? len : 0, c->err);
    }
    if (!rc && r < 0)
        bad(c, "malformed process tree");
    return rc;
}

/* ---- time order ----
 * Ftrace bundles are per CPU, so prints reach the reader out of time order
 * (seconds apart in real traces).  Slice begins and ends wait in a min-heap
 * by time and are paired once PF_SORT_WINDOW_MS older than the newest time
 * seen (or when PF_SORT_MAX wait). */

enum { SK_MARKER, SK_BEGIN, SK_END };

struct pending {
    double ts;
    uint64_t seqno;
    int64_t tid, pid;
    int kind;
    long pkno;
    size_t len;
    char *text;
};

static int pend_less(const pending *a, const pending *b)
{
    return a->ts < b->ts || (a->ts == b->ts && a->seqno < b->seqno);
}

static int pend_pop_one(pctx *c)
{
    pending top = c->heap[0];
    c->nheap--;
    if (c->nheap) {
        pending x = c->heap[c->nheap];
        size_t i = 0;
        for (;;) {
            size_t l = 2 * i + 1, r = l + 1, m = i;
            const pending *best = &x;
            if (l < c->nheap && pend_less(&c->heap[l], best))
                m = l, best = &c->heap[l];
            if (r < c->nheap && pend_less(&c->heap[r], best))
                m = r;
            if (m == i)
                break;
            c->heap[i] = c->heap[m];
            i = m;
        }
        c->heap[i] = x;
    }
    int rc;
    if (top.kind == SK_MARKER)
        rc = gd_atrace_marker(c->at, top.ts, top.tid, top.pid, top.text, top.len, top.pkno, c->err);
    else if (top.kind == SK_BEGIN)
        rc = gd_atrace_begin(c->at, top.ts, top.pid, top.tid, top.text, top.len, top.pkno, c->err);
    else
        rc = gd_atrace_end(c->at, top.ts, top.tid, top.pkno, c->err);
    free(top.text);
    return rc;
}

/* Pairs what is old enough (all of it when `all`). */
static int pend_drain(pctx *c, int all)
{
    int rc = 0;
    while (!rc && c->nheap &&
           (all || c->nheap >= PF_SORT_MAX || c->heap[0].ts < c->max_ts - PF_SORT_WINDOW_MS))
        rc = pend_pop_one(c);
    return rc;
}

static int pend_push(pctx *c, double ts, int64_t tid, int64_t pid, int kind, const char *text,
                     size_t len)
{
    if (c->nheap == c->cheap) {
        size_t nc = c->cheap ? c->cheap * 2 : 1024;
        pending *n = realloc(c->heap, nc * sizeof *n);
        if (!n)
            return gd_error_set(c->err, GD_ERR_IO, c->pkno, 0, "out of memory");
        c->heap = n;
        c->cheap = nc;
    }
    if (len >= ATRACE_MAX_NAME)
        len = ATRACE_MAX_NAME - 1;
    pending x = {ts, c->seqno++, tid, pid, kind, c->pkno, len, NULL};
    if (text) {
        if (!(x.text = malloc(len + 1)))
            return gd_error_set(c->err, GD_ERR_IO, c->pkno, 0, "out of memory");
        memcpy(x.text, text, len);
        x.text[len] = 0;
    }
    size_t i = c->nheap++;
    while (i > 0 && pend_less(&x, &c->heap[(i - 1) / 2])) {
        c->heap[i] = c->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    c->heap[i] = x;
    if (ts > c->max_ts)
        c->max_ts = ts;
    return pend_drain(c, 0);
}

/* ---- ftrace ---- */

static int read_ftrace(pctx *c, pb_cur m)
{
    pb_field f, g, h;
    int r, rc = 0;
    while (!rc && (r = pb_next(&m, &f)) == 1) {
        if (f.num != 2 || f.wt != PB_LEN)
            continue;
        c->ftrace++;
        pb_cur e = pb_sub(&f);
        uint64_t ts = 0;
        int64_t tid = -1;
        const uint8_t *buf = NULL;
        size_t len = 0;
        int q, has_ts = 0, print = 0;
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
            }
            if (q < 0)
                break;
        }
        if (q < 0) {
            bad(c, "malformed ftrace event");
            continue;
        }
        if (!print) {
            gd_sink_skip(c->sink, "ignored: perfetto: ftrace event not used", c->pkno, 0);
            continue;
        }
        if (!buf || !has_ts || tid < 0) {
            bad(c, "print event without buf, timestamp or pid");
            continue;
        }
        c->markers++;
        rc = pend_push(c, (double)ts / 1e6, tid, -1, SK_MARKER, (const char *)buf, len);
    }
    if (!rc && r < 0)
        bad(c, "malformed ftrace bundle");
    return rc;
}

/* ---- track events ---- */

static int read_track_event(pctx *c, pseq *s, pb_cur m, int has_ts, uint64_t ts_ns)
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
        bad(c, "malformed track event");
        return 0;
    }
    c->track_events++;
    if (type != 1 && type != 2) {
        gd_sink_skip(c->sink, "ignored: perfetto: track event not a slice", c->pkno, 0);
        return 0;
    }
    double ts;
    if (has_abs)
        ts = (double)abs_us / 1e3;
    else if (has_ts && !has_delta)
        ts = (double)ts_ns / 1e6;
    else {
        bad(c, "track event without a usable timestamp");
        return 0;
    }
    int64_t pid = -1, tid = -1;
    if (!has_track && s && s->def_track)
        track = s->def_track, has_track = 1;
    if (has_track) {
        ptrack *t = track_find(c, track);
        if (!t) {
            bad(c, "track event on an undescribed track");
            return 0;
        }
        pid = t->pid;
        tid = t->tid;
    } else if (s && s->td_tid >= 0) {
        pid = s->td_pid;
        tid = s->td_tid;
    }
    if (tid < 0) {
        gd_sink_skip(c->sink, "ignored: perfetto: slice not on a thread track", c->pkno, 0);
        return 0;
    }
    if (type == 2)
        return pend_push(c, ts, tid, pid, SK_END, NULL, 0);
    const char *nm = NULL;
    if (name) {
        nm = (const char *)name;
    } else if (has_iid) {
        nm = interned(s, name_iid);
        if (nm)
            nlen = strlen(nm);
    }
    if (!nm) {
        bad(c, "slice name not interned");
        nm = "(unknown name)";
        nlen = strlen(nm);
    }
    return pend_push(c, ts, tid, pid, SK_BEGIN, nm, nlen);
}

/* ---- frame timeline ---- */

static pframe *frame_slot(pctx *c, int64_t cookie, int create)
{
    size_t h = (size_t)((uint64_t)cookie * 0x9E3779B97F4A7C15ull >> 40) % PF_MAX_FRAMES;
    for (size_t k = 0; k < PF_MAX_FRAMES; k++) {
        pframe *f = &c->frames[(h + k) % PF_MAX_FRAMES];
        if (f->used && f->cookie == cookie)
            return f;
        if (!f->used)
            return create ? f : NULL;
    }
    return NULL;
}

static const char *const JANK_NAMES[] = {
    "none", "sf_scheduling", "prediction_error", "display_hal", "sf_cpu_deadline_missed",
    "sf_gpu_deadline_missed", "app_deadline_missed", "buffer_stuffing", "unknown",
    "sf_stuffing", "dropped",
};

static int read_frame_timeline(pctx *c, pb_cur m, int has_ts, uint64_t ts_ns)
{
    pb_field f, g;
    int r;
    while ((r = pb_next(&m, &f)) == 1) {
        if (f.wt != PB_LEN)
            continue;
        if (f.num != 4 && f.num != 5) {
            gd_sink_skip(c->sink, "ignored: perfetto: frame timeline event not used", c->pkno, 0);
            continue;
        }
        pb_cur e = pb_sub(&f);
        int64_t cookie = 0, pid = -1, token = -1, jank = 0, present = 0;
        const uint8_t *layer = NULL;
        size_t llen = 0;
        int q;
        while ((q = pb_next(&e, &g)) == 1) {
            if (g.num == 1 && g.wt == PB_VARINT)
                cookie = (int64_t)g.v;
            else if (f.num == 5)
                continue;
            else if (g.num == 2 && g.wt == PB_VARINT)
                token = (int64_t)g.v;
            else if (g.num == 4 && g.wt == PB_VARINT)
                pid = (int64_t)(int32_t)g.v;
            else if (g.num == 5 && g.wt == PB_LEN)
                layer = g.data, llen = g.len;
            else if (g.num == 6 && g.wt == PB_VARINT)
                present = (int64_t)g.v;
            else if (g.num == 9 && g.wt == PB_VARINT)
                jank = (int64_t)(int32_t)g.v;
        }
        if (q < 0 || !has_ts) {
            bad(c, "malformed frame timeline event");
            continue;
        }
        double ts = (double)ts_ns / 1e6;
        if (f.num == 4) {
            pframe *p = frame_slot(c, cookie, 1);
            if (!p) {
                bad(c, "too many open timeline frames");
                continue;
            }
            p->used = 1;
            p->cookie = cookie;
            p->ts = ts;
            p->pid = pid;
            p->token = token;
            p->jank = jank;
            p->present = present;
            if (llen >= sizeof p->layer)
                llen = sizeof p->layer - 1;
            memcpy(p->layer, layer ? (const char *)layer : "", layer ? llen : 0);
            p->layer[layer ? llen : 0] = 0;
            continue;
        }
        pframe *p = frame_slot(c, cookie, 0);
        if (!p) {
            gd_sink_skip(c->sink, "ignored: perfetto: frame end of no app surface frame", c->pkno, 0);
            continue;
        }
        pframe done = *p;
        p->used = 0;
        /* re-insert the followers of the freed slot (linear probing) */
        size_t i = (size_t)(p - c->frames);
        for (size_t k = 1; k < PF_MAX_FRAMES; k++) {
            pframe *n = &c->frames[(i + k) % PF_MAX_FRAMES];
            if (!n->used)
                break;
            pframe tmp = *n;
            n->used = 0;
            pframe *d = frame_slot(c, tmp.cookie, 1);
            *d = tmp;
        }
        if (done.jank <= 1)   /* JANK_UNSPECIFIED, JANK_NONE */
            continue;
        json_t *o = json_object(), *types = json_array();
        for (size_t b = 1; b < sizeof JANK_NAMES / sizeof *JANK_NAMES; b++)
            if (done.jank & ((int64_t)1 << b))
                json_array_append_new(types, json_string(JANK_NAMES[b]));
        json_object_set_new(o, "layer", json_string(done.layer));
        json_object_set_new(o, "token", json_integer(done.token));
        json_object_set_new(o, "jank_type", json_integer(done.jank));
        json_object_set_new(o, "jank", types);
        json_object_set_new(o, "present_type", json_integer(done.present));
        json_object_set_new(o, "dur_ms", json_real(ts - done.ts));
        char *js = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
        json_decref(o);
        if (!js)
            return gd_error_set(c->err, GD_ERR_IO, c->pkno, 0, "out of memory");
        gd_event ev;
        gd_event_init(&ev, GD_EV_ISSUE);
        ev.ts = done.ts;
        ev.pid = done.pid >= 0 ? done.pid : GD_PID_APP;
        ev.line = c->pkno;
        ev.u.issue.tool = "android";
        ev.u.issue.type = "frame_jank";
        ev.u.issue.detail = done.layer[0] ? done.layer : NULL;
        ev.u.issue.cost_ms = ts - done.ts;
        ev.u.issue.json = js;
        int rc = gd_sink_event(c->sink, &ev, c->err);
        c->issues++;
        free(js);
        if (rc)
            return rc;
    }
    if (r < 0)
        bad(c, "malformed frame timeline event");
    return 0;
}

/* ---- clocks ----
 * ClockSnapshot {clocks 1 (Clock: clock_id 1, timestamp 2, is_incremental 3,
 * unit_multiplier_ns 4)}: builtin clocks (REALTIME 1 .. MONOTONIC_RAW 5) map
 * to BOOTTIME (6) by the latest snapshot's offsets; sequence-scoped clocks
 * (64..127, e.g. the Perfetto SDK's incremental track-event clock) by the
 * sequence's own snapshot. */

static void read_clock_snapshot(pctx *c, pseq *s, pb_cur m)
{
    struct {
        uint32_t id;
        uint64_t ts, unit;
        int inc;
    } ck[16];
    int n = 0, r;
    pb_field f, g;
    uint64_t boot = 0;
    int has_boot = 0;
    while ((r = pb_next(&m, &f)) == 1) {
        if (f.num != 1 || f.wt != PB_LEN || n >= 16)
            continue;
        pb_cur e = pb_sub(&f);
        ck[n].id = 0;
        ck[n].ts = 0;
        ck[n].unit = 1;
        ck[n].inc = 0;
        while (pb_next(&e, &g) == 1) {
            if (g.wt != PB_VARINT)
                continue;
            if (g.num == 1)
                ck[n].id = (uint32_t)g.v;
            else if (g.num == 2)
                ck[n].ts = g.v;
            else if (g.num == 3)
                ck[n].inc = g.v != 0;
            else if (g.num == 4 && g.v)
                ck[n].unit = g.v;
        }
        if (ck[n].id == PF_BOOTTIME) {
            boot = ck[n].ts;
            has_boot = 1;
        }
        n++;
    }
    if (r < 0) {
        bad(c, "malformed clock snapshot");
        return;
    }
    for (int i = 0; i < n; i++) {
        uint64_t ns = ck[i].ts * ck[i].unit;
        if (ck[i].id >= 1 && ck[i].id <= 5 && has_boot) {
            c->clk_off[ck[i].id] = boot - ns;
            c->clk_has[ck[i].id] = 1;
        } else if (ck[i].id >= 64 && ck[i].id <= 127 && s) {
            s->clk_id = ck[i].id;
            s->clk_inc = ck[i].inc;
            s->clk_unit = ck[i].unit;
            s->clk_cur = ns;
            s->clk_off = has_boot ? boot - ns : 0;
        }
    }
}

/* The packet's timestamp as BOOTTIME ns; 0 when its clock is unknown. */
static int resolve_ts(pctx *c, pseq *s, uint32_t clock, uint64_t ts, uint64_t *out)
{
    if (clock == 0 || clock == PF_BOOTTIME) {
        *out = ts;
        return 1;
    }
    if (clock >= 1 && clock <= 5 && c->clk_has[clock]) {
        *out = ts + c->clk_off[clock];
        return 1;
    }
    if (s && s->clk_id && clock == s->clk_id) {
        if (s->clk_inc) {
            s->clk_cur += ts * s->clk_unit;
            *out = s->clk_cur + s->clk_off;
        } else {
            *out = ts * s->clk_unit + s->clk_off;
        }
        return 1;
    }
    return 0;
}

/* ---- packets ---- */

static const struct {
    uint32_t num;
    const char *name;
} KINDS[] = {
    {4, "inode_file_map"}, {5, "chrome_events"}, {7, "sys_stats"},
    {9, "process_stats"}, {33, "trace_config"}, {34, "ftrace_stats"}, {35, "trace_stats"},
    {36, "synchronization_marker"}, {37, "profile_packet"}, {38, "battery"},
    {39, "android_log"}, {40, "power_rails"}, {45, "system_info"}, {47, "packages_list"},
    {52, "gpu_counter_event"}, {53, "gpu_render_stage_event"}, {57, "graphics_frame_event"},
    {66, "perf_sample"}, {67, "cpu_info"}, {69, "service_event"}, {72, "extension_descriptor"},
    {84, "statsd_atom"}, {86, "android_system_property"}, {89, "trace_uuid"},
    {133, "zstd_compressed_packets"},
};

/* Packet fields that are not its payload. */
static int is_packet_meta(uint32_t n)
{
    return n == 3 || n == 8 || n == 10 || n == 13 || n == 41 || n == 42 || n == 58 || n == 59 ||
           n == 79 || n == 87 || n == 12;
}

static int read_packets(pctx *c, pb_cur m, int depth);

static int inflate_packets(pctx *c, const pb_field *f, int depth)
{
    if (depth > 0) {
        bad(c, "compressed packets inside compressed packets");
        return 0;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return gd_error_set(c->err, GD_ERR_IO, c->pkno, 0, "zlib init failed");
    size_t cap = f->len * 4 + 4096, len = 0;
    if (cap > PF_MAX_INFLATED)
        cap = PF_MAX_INFLATED;
    uint8_t *out = malloc(cap);
    int rc = 0, zr = Z_OK;
    if (!out) {
        inflateEnd(&z);
        return gd_error_set(c->err, GD_ERR_IO, c->pkno, 0, "out of memory");
    }
    z.next_in = (Bytef *)f->data;
    z.avail_in = (uInt)f->len;
    while (zr == Z_OK) {
        if (len == cap) {
            if (cap >= PF_MAX_INFLATED) {
                zr = Z_MEM_ERROR;
                break;
            }
            size_t nc = cap * 2 > PF_MAX_INFLATED ? PF_MAX_INFLATED : cap * 2;
            uint8_t *n = realloc(out, nc);
            if (!n) {
                rc = gd_error_set(c->err, GD_ERR_IO, c->pkno, 0, "out of memory");
                break;
            }
            out = n;
            cap = nc;
        }
        z.next_out = out + len;
        z.avail_out = (uInt)(cap - len);
        zr = inflate(&z, Z_NO_FLUSH);
        len = cap - z.avail_out;
        if (zr == Z_BUF_ERROR && z.avail_in == 0)
            break;
        if (zr == Z_BUF_ERROR)
            zr = Z_OK;
    }
    inflateEnd(&z);
    if (!rc && zr != Z_STREAM_END)
        bad(c, "compressed packets not inflatable");
    else if (!rc) {
        pb_cur in = {out, out + len};
        rc = read_packets(c, in, depth + 1);
    }
    free(out);
    return rc;
}

/* One TracePacket. */
static int read_packet(pctx *c, pb_cur m, int depth)
{
    pb_field f;
    int r, rc = 0;
    uint64_t ts = 0;
    uint32_t seq_id = 0, clock = 0, flags = 0;
    int has_ts = 0, cleared = 0;
    pb_field pay[4];
    int npay = 0;
    pb_field interned_f, defaults_f;
    int has_interned = 0, has_defaults = 0;
    c->packets++;
    pb_cur scan = m;
    while ((r = pb_next(&scan, &f)) == 1) {
        if (f.num == 8 && f.wt == PB_VARINT)
            ts = f.v, has_ts = 1;
        else if (f.num == 10 && f.wt == PB_VARINT)
            seq_id = (uint32_t)f.v;
        else if (f.num == 58 && f.wt == PB_VARINT)
            clock = (uint32_t)f.v;
        else if (f.num == 13 && f.wt == PB_VARINT)
            flags = (uint32_t)f.v;
        else if (f.num == 41 && f.wt == PB_VARINT)
            cleared = f.v != 0;
        else if (f.num == 12 && f.wt == PB_LEN)
            interned_f = f, has_interned = 1;
        else if (f.num == 59 && f.wt == PB_LEN)
            defaults_f = f, has_defaults = 1;
        else if (!is_packet_meta(f.num) && npay < 4)
            pay[npay++] = f;
    }
    if (r < 0) {
        bad(c, "malformed trace packet");
        return 0;
    }
    pseq *s = seq_id ? seq_of(c, seq_id) : NULL;
    if (s && (cleared || (flags & 1)))
        seq_clear(c, s);
    if (has_defaults && s) {
        pb_cur d = pb_sub(&defaults_f);
        pb_field g, h;
        while (pb_next(&d, &g) == 1) {
            if (g.num == 58 && g.wt == PB_VARINT)
                s->def_clock = (uint32_t)g.v;
            else if (g.num == 11 && g.wt == PB_LEN) {
                pb_cur te = pb_sub(&g);
                while (pb_next(&te, &h) == 1)
                    if (h.num == 11 && h.wt == PB_VARINT)
                        s->def_track = h.v;
            }
        }
    }
    if (has_interned && (rc = read_interned(c, s, pb_sub(&interned_f))))
        return rc;
    if (!clock && s)
        clock = s->def_clock;
    /* a snapshot first: it sets the clocks this packet's own stamp uses */
    for (int i = 0; i < npay; i++)
        if (pay[i].num == 6 && pay[i].wt == PB_LEN)
            read_clock_snapshot(c, s, pb_sub(&pay[i]));
    int boottime = 1;
    if (has_ts)
        boottime = resolve_ts(c, s, clock, ts, &ts);
    for (int i = 0; i < npay && !rc; i++) {
        f = pay[i];
        if (f.wt != PB_LEN) {
            gd_sink_skip(c->sink, "ignored: perfetto: packet field not used", c->pkno, 0);
            continue;
        }
        switch (f.num) {
        case 1:
            rc = read_ftrace(c, pb_sub(&f));
            break;
        case 2:
            rc = read_process_tree(c, pb_sub(&f));
            break;
        case 11:
            if (!boottime) {
                bad(c, "track event on a clock without a snapshot");
                break;
            }
            rc = read_track_event(c, s, pb_sub(&f), has_ts, ts);
            break;
        case 60:
            rc = read_track_desc(c, pb_sub(&f));
            break;
        case 43: {
            int64_t pid;
            rc = read_process_desc(c, pb_sub(&f), &pid);
            break;
        }
        case 44: {
            int64_t pid, tid;
            rc = read_thread_desc(c, pb_sub(&f), &pid, &tid);
            if (!rc && s && tid >= 0) {
                s->td_pid = pid;
                s->td_tid = tid;
            }
            break;
        }
        case 76:
            rc = read_frame_timeline(c, pb_sub(&f), has_ts && boottime, ts);
            break;
        case 50:
            rc = inflate_packets(c, &f, depth);
            break;
        case 6:
            break;  /* clock snapshot: read above */
        default: {
            const char *kind = NULL;
            for (size_t k = 0; k < sizeof KINDS / sizeof *KINDS; k++)
                if (KINDS[k].num == f.num)
                    kind = KINDS[k].name;
            if (kind) {
                gd_sink_skip(c->sink, reason_of(c, "ignored: perfetto: packet not used (%s)", kind),
                             c->pkno, 0);
            } else {
                char num[16];
                snprintf(num, sizeof num, "field %u", f.num);
                gd_sink_skip(c->sink, reason_of(c, "ignored: perfetto: packet not used (%s)", num),
                             c->pkno, 0);
            }
        }
        }
    }
    return rc;
}

/* Trace { repeated TracePacket packet = 1 } held in memory (inflated). */
static int read_packets(pctx *c, pb_cur m, int depth)
{
    pb_field f;
    int r, rc = 0;
    while (!rc && (r = pb_next(&m, &f)) == 1) {
        if (f.num != 1 || f.wt != PB_LEN) {
            bad(c, "not a trace packet");
            continue;
        }
        rc = read_packet(c, pb_sub(&f), depth);
    }
    if (!rc && r < 0)
        bad(c, "malformed compressed packets");
    return rc;
}

/* ---- the stream ---- */

/* Reads exactly n bytes (buf NULL: discards them).  n read, or fewer at
 * the end, or -1 on error. */
static ssize_t read_full(gd_input *in, uint8_t *buf, size_t n, gd_error *err)
{
    size_t got = 0;
    uint8_t tmp[65536];
    while (got < n) {
        size_t want = n - got;
        if (!buf && want > sizeof tmp)
            want = sizeof tmp;
        ssize_t k = gd_input_read(in, buf ? buf + got : tmp, want, err);
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        got += (size_t)k;
    }
    return (ssize_t)got;
}

/* Varint from the stream: 1, 0 at a clean end, 2 cut short, -1 error,
 * 3 too long. */
static int stream_varint(gd_input *in, uint64_t *out, uint64_t *pos, gd_error *err)
{
    uint64_t r = 0;
    for (int s = 0; s < 70; s += 7) {
        uint8_t b;
        ssize_t k = gd_input_read(in, &b, 1, err);
        if (k < 0)
            return -1;
        if (k == 0)
            return s == 0 ? 0 : 2;
        (*pos)++;
        if (s < 64)
            r |= (uint64_t)(b & 0x7F) << s;
        if (!(b & 0x80)) {
            *out = r;
            return 1;
        }
    }
    return 3;
}

static int read_perfetto(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    (void)opts;
    pctx *c = calloc(1, sizeof *c);
    if (!c)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    c->sink = sink;
    c->err = err;
    if (!(c->at = gd_atrace_new(sink, "perfetto"))) {
        free(c);
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    }
    uint8_t *buf = NULL;
    size_t cap = 0;
    int rc = 0;
    uint64_t offset = 0;
    for (;;) {
        uint64_t key, len, at = offset;
        int r = stream_varint(in, &key, &offset, err);
        if (r == 0)
            break;
        if (r < 0) {
            rc = err->code ? err->code : GD_ERR_IO;
            break;
        }
        if (r == 2) {
            gd_sink_skip(sink, "perfetto: trace cut mid-packet", c->pkno + 1, 0);
            break;
        }
        c->pkno++;
        int wt = r == 1 ? (int)(key & 7) : -1;
        if (r == 3 || (key >> 3) == 0 || (wt != PB_LEN && wt != PB_VARINT && wt != PB_I64 && wt != PB_I32)) {
            rc = gd_error_set(err, GD_ERR_DATA, c->pkno, 0,
                              "not a Perfetto trace: bad field key at byte %llu",
                              (unsigned long long)at);
            break;
        }
        if (wt != PB_LEN) {
            uint64_t v;
            uint8_t skip8[8];
            int q = wt == PB_VARINT ? stream_varint(in, &v, &offset, err)
                                    : (read_full(in, skip8, wt == PB_I64 ? 8 : 4, err) ==
                                               (wt == PB_I64 ? 8 : 4)
                                           ? 1
                                           : 2);
            if (q < 0) {
                rc = err->code ? err->code : GD_ERR_IO;
                break;
            }
            offset += wt == PB_I64 ? 8 : wt == PB_I32 ? 4 : 0;
            gd_sink_skip(sink, "perfetto: not a trace packet", c->pkno, 0);
            if (q != 1) {
                gd_sink_skip(sink, "perfetto: trace cut mid-packet", c->pkno, 0);
                break;
            }
            continue;
        }
        r = stream_varint(in, &len, &offset, err);
        if (r < 0) {
            rc = err->code ? err->code : GD_ERR_IO;
            break;
        }
        if (r != 1) {
            gd_sink_skip(sink, "perfetto: trace cut mid-packet", c->pkno, 0);
            break;
        }
        if ((key >> 3) != 1 || len > PF_MAX_PACKET) {
            gd_sink_skip(sink, (key >> 3) != 1 ? "perfetto: not a trace packet"
                                               : "perfetto: packet over the size cap",
                         c->pkno, 0);
            ssize_t k = read_full(in, NULL, (size_t)(len > ((uint64_t)1 << 62) ? ((uint64_t)1 << 62) : len), err);
            if (k < 0) {
                rc = err->code ? err->code : GD_ERR_IO;
                break;
            }
            offset += (uint64_t)k;
            if ((uint64_t)k < len) {
                gd_sink_skip(sink, "perfetto: trace cut mid-packet", c->pkno, 0);
                break;
            }
            continue;
        }
        if (len > cap) {
            size_t nc = cap ? cap : 65536;
            while (nc < len)
                nc *= 2;
            uint8_t *nb = realloc(buf, nc);
            if (!nb) {
                rc = gd_error_set(err, GD_ERR_IO, c->pkno, 0, "out of memory");
                break;
            }
            buf = nb;
            cap = nc;
        }
        ssize_t k = read_full(in, buf, (size_t)len, err);
        if (k < 0) {
            rc = err->code ? err->code : GD_ERR_IO;
            break;
        }
        if ((uint64_t)k < len) {
            gd_sink_skip(sink, "perfetto: trace cut mid-packet", c->pkno, 0);
            break;
        }
        offset += len;
        static const uint8_t empty[1];
        const uint8_t *body = buf ? buf : empty; /* a 0-byte first packet: no buffer yet */
        pb_cur m = {body, body + len};
        if ((rc = read_packet(c, m, 0)))
            break;
    }
    if (!rc)
        rc = pend_drain(c, 1);
    if (!rc)
        rc = gd_atrace_finish(c->at, err);
    if (!rc && gd_atrace_events(c->at) == 0 && c->issues == 0)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0,
                          "no app slices in the Perfetto trace (%ld packets, %ld ftrace events, "
                          "%ld atrace markers, %ld track events)",
                          c->packets, c->ftrace, c->markers, c->track_events);
    for (size_t i = 0; i < c->nseqs; i++)
        seq_clear(c, &c->seqs[i]);
    for (size_t i = 0; i < c->nheap; i++)
        free(c->heap[i].text);
    free(c->heap);
    free(c->seqs);
    free(c->tracks);
    free(buf);
    gd_atrace_free(c->at);
    free(c);
    return rc;
}

/* ---- probe ---- */

/* A packet that parses whole inside the head and uses TracePacket field
 * numbers with their wire types. */
static int probe(const unsigned char *h, size_t n, int eof)
{
    if (n < 2 || h[0] != 0x0a)
        return 0;
    const uint8_t *p = h + 1, *end = h + n;
    uint64_t len;
    if (!pb_varint(&p, end, &len) || len == 0)
        return 0;
    if (len > (uint64_t)(end - p))
        return 0;
    pb_cur m = {p, p + len};
    pb_field f;
    int r, known = 0, fields = 0;
    while ((r = pb_next(&m, &f)) == 1) {
        fields++;
        switch (f.num) {
        case 8: case 10: case 13: case 41: case 42: case 58: case 3: case 79: case 87:
            if (f.wt != PB_VARINT)
                return 0;
            known++;
            break;
        case 1: case 2: case 6: case 11: case 12: case 33: case 35: case 36: case 45: case 59:
        case 60:
            if (f.wt != PB_LEN)
                return 0;
            known++;
            break;
        default:
            break;
        }
    }
    if (r < 0 || !known)
        return 0;
    const uint8_t *next = p + len;
    if (next < end && *next != 0x0a)
        return 0;
    if (next == end && !eof)
        return 60;
    return 95;
}

const gd_reader gd_reader_perfetto = {
    .name = "perfetto",
    .description = "Perfetto protobuf trace (.perfetto-trace, .pftrace): app slices, frames, jank",
    .probe = probe,
    .read = read_perfetto,
};
