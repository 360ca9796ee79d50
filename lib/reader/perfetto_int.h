/* perfetto_int.h - the perfetto reader's state and message decoders, shared
 * by perfetto.c (the packet stream) and the decoders of its messages:
 * perfetto_decode.c (interned data, descriptors, process tree, clocks),
 * perfetto_events.c, perfetto_frames.c, perfetto_log.c, perfetto_perf.c,
 * perfetto_sched.c.  Internal to the reader. */
#ifndef GD_READER_PERFETTO_INT_H
#define GD_READER_PERFETTO_INT_H

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "atrace.h"
#include "core/keytab.h"
#include "core/oheap.h"
#include "core/skip_reasons.h"
#include "logcat_rules.h"
#include "pbwire.h"
#include "reader.h"

#define PF_MAX_PACKET ((size_t)32 << 20)
#define PF_MAX_INFLATED ((size_t)32 << 20)
#define PF_MAX_INTERNED 262144
#define PF_MAX_INTERNED_BYTES ((size_t)16 << 20) /* the names' bytes, all sequences */
#define PF_MAX_SEQS 4096
#define PF_MAX_TRACKS 65536
#define PF_MAX_FRAMES 4096
#define PF_BOOTTIME 6
#define PF_SORT_WINDOW_MS 10000.0
#define PF_SORT_MAX 262144
#define PF_SORT_MAX_BYTES ((size_t)16 << 20)

typedef struct pseq {
    uint32_t id;
    gd_keytab names;     /* interned event names: iid -> a NUL-ended string */
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
    struct pf_perf_seq *perf; /* interned profile entries (#26, perfetto_perf.c) */
    int lost;            /* a packet was dropped since the last clear */
} pseq;

typedef struct ptrack {
    uint64_t uuid;       /* 0: empty slot */
    int64_t pid, tid;    /* tid -1: not a thread track */
} ptrack;

typedef struct pending pending;
struct pf_sched;

typedef struct pctx {
    const gd_sink *sink;
    gd_error *err;
    gd_atrace *at;
    pseq *seqs;
    size_t nseqs;
    size_t last_seq;     /* index of the last sequence looked up */
    size_t ninterned;
    size_t interned_bytes; /* at most PF_MAX_INTERNED_BYTES */
    ptrack *tracks;
    size_t tcap, ntracks;
    struct pf_ft *ft;    /* frame timeline state (perfetto_frames.c), NULL until used */
    long packets, ftrace, markers, track_events, issues;
    long ft_frames;      /* FrameTimeline surface and display frames emitted */
    long pkno;           /* packet number, for messages */
    uint64_t clk_off[6]; /* builtin clocks 1..5 -> boottime (added modulo 2^64) */
    int clk_has[6];
    gd_oheap heap;       /* slice begins/ends waiting for time order (pending entries) */
    size_t heap_bytes;   /* entries, their keys and texts, at most PF_SORT_MAX_BYTES */
    double max_ts;
    char reason[96];
    struct pf_sched *sched; /* thread states (#26, perfetto_sched.c) */
    gd_logcat_rules *logrules; /* android_log lines (#26, perfetto_log.c) */
    long log_lines, log_used;
    struct pf_perf *perf;   /* one perf sample's frames (#26, perfetto_perf.c) */
    long perf_used;         /* perf samples emitted */
    int state_lost;         /* the current packet needs incremental state its sequence lost */
} pctx;

enum { SK_MARKER, SK_BEGIN, SK_END, SK_TRACK_BEGIN, SK_TRACK_END };

struct pending {
    double ts;
    int64_t tid, pid;
    int kind;
    long pkno;
    size_t len;
    char *text;
    uint64_t track;      /* SK_TRACK_*: the TrackEvent track uuid */
};

/* Skip reasons: gd_pf_reason_of formats FMT with WHAT into the context's
 * buffer (valid until the next call); gd_pf_bad counts "perfetto: WHAT" for
 * the current packet. */
const char *gd_pf_reason_of(pctx *c, const char *fmt, const char *what);
void gd_pf_bad(pctx *c, const char *what);

/* The state of packet sequence `id`, created on first use; NULL when
 * PF_MAX_SEQS are in use or out of memory.  gd_pf_seq_clear drops its
 * incremental state (interned names, defaults, its clock); the caller
 * also drops its profile entries (gd_pf_perf_seq_clear, perfetto_perf.c),
 * so that this file calls none of perfetto_perf.c (#24). */
pseq *gd_pf_seq_of(pctx *c, uint32_t id);
void gd_pf_seq_clear(pctx *c, pseq *s);

/* The name interned as `iid` on sequence s, or NULL; the track of `uuid`,
 * or NULL when none was described. */
const char *gd_pf_interned(const pseq *s, uint64_t iid);
ptrack *gd_pf_track_find(pctx *c, uint64_t uuid);

/* Message decoders, each over one submessage `m`.  They name processes and
 * threads, record tracks and interned names, and push slice begins/ends;
 * malformed parts are counted and skipped.  0, or an error code (out of
 * memory, the sink's own error) with c->err set. */
/* InternedData's fields godeye reads: walked once a packet by perfetto.c,
 * each entry ({iid 1, name or str 2}, or a message with an iid 1) handed to
 * the reader of its field (#45 item 3). */
enum {
    PF_INTERNED_EVENT_NAMES = 2,
    PF_INTERNED_FUNCTION_NAMES = 5,
    PF_INTERNED_FRAMES = 6,
    PF_INTERNED_CALLSTACKS = 7,
    PF_INTERNED_MAPPING_PATHS = 17,
    PF_INTERNED_MAPPINGS = 19,
    PF_INTERNED_KERNEL_SYMBOLS = 26,
};
typedef struct pf_interned {
    uint32_t field;   /* PF_INTERNED_*                                 */
    int malformed;    /* its fields could not be read                  */
    uint64_t iid;     /* field 1                                       */
    pb_bytes str;     /* field 2 as bytes (p NULL: not given)          */
    pb_bytes whole;   /* the entry's bytes (frames, callstacks, ...)   */
} pf_interned;
/* One entry of event_names (perfetto_decode.c), kernel_symbols
 * (perfetto_sched.c), or function_names, frames, callstacks,
 * mapping_paths, mappings (perfetto_perf.c): 0 or an error code. */
int gd_pf_event_name_interned(pctx *c, pseq *s, const pf_interned *e);
int gd_pf_sched_interned(pctx *c, pseq *s, const pf_interned *e);
int gd_pf_perf_interned(pctx *c, pseq *s, const pf_interned *e);
int gd_pf_read_process_tree(pctx *c, pb_cur m);              /* ProcessTree     */
int gd_pf_read_track_desc(pctx *c, pb_cur m);                /* TrackDescriptor */
int gd_pf_read_process_desc(pctx *c, pb_cur m, int64_t *pid); /* ProcessDescriptor */
int gd_pf_read_thread_desc(pctx *c, pb_cur m, int64_t *pid, int64_t *tid); /* ThreadDescriptor */
int gd_pf_read_ftrace(pctx *c, pseq *s, pb_cur m);           /* FtraceEventBundle */
/* TrackEvent at the packet's BOOTTIME time ts_ns (has_ts 0: none). */
int gd_pf_read_track_event(pctx *c, pseq *s, pb_cur m, int has_ts, uint64_t ts_ns);
/* FrameTimelineEvent (perfetto_frames.c): each actual surface frame, once
 * per (pid, layer, token), becomes a frame; janky ones also an issue.
 * gd_pf_ft_free releases the frame timeline state. */
int gd_pf_read_frame_timeline(pctx *c, pb_cur m, int has_ts, uint64_t ts_ns);
void gd_pf_ft_free(pctx *c);
/* Counts the surface frames still open at the end of the trace. */
void gd_pf_ft_finish(pctx *c);

/* ClockSnapshot: records the clocks' offsets to BOOTTIME. */
void gd_pf_read_clock_snapshot(pctx *c, pseq *s, pb_cur m);
/* A packet timestamp on `clock` (0 = the default) as BOOTTIME ns in *out;
 * 1, or 0 when no snapshot maps that clock.  Advances an incremental
 * clock: call once per packet. */
int gd_pf_resolve_ts(pctx *c, pseq *s, uint32_t clock, uint64_t ts, uint64_t *out);

/* Thread states (#26, perfetto_sched.c): the tracker's life; one ftrace
 * event `ev` (a field of FtraceEvent) of thread tid on cpu at BOOTTIME ts
 * (*used 0: not a scheduling event); a bundle's compact_sched; interned
 * kernel symbols; SystemInfo (the kernel version).  0 or an error code. */
int gd_pf_sched_new(pctx *c);
void gd_pf_sched_free(pctx *c);
int gd_pf_sched_finish(pctx *c);
unsigned long gd_pf_sched_states(const pctx *c);
unsigned long gd_pf_sched_events(const pctx *c);
int gd_pf_sched_event(pctx *c, pseq *s, int cpu, uint64_t ts, int64_t tid, const pb_field *ev, int *used);
int gd_pf_sched_compact(pctx *c, int cpu, pb_cur m);
void gd_pf_sched_system_info(pctx *c, pb_cur m);

/* Cropping as Perfetto crops ftrace data (#51): the time of a
 * TracingServiceEvent's tracing_started (hard; preserve 1: an FtraceStats'
 * preserve_ftrace_buffer, ts unused, turns the hard crop off) and a bundle of `cpu`
 * with its previous_bundle_end_timestamp (or last_read_event_timestamp;
 * has_end 0: neither), whose latest over the CPUs' first bundles is where
 * every per-CPU buffer is valid (soft).  gd_pf_sched_crop: the ftrace time
 * (ns) before which ftrace events are dropped when they leave the sort
 * heaps (sched, binder, prints), 0 none; a compact sched switch before
 * tracing_started is dropped as read (it names no CPU's thread). */
void gd_pf_sched_tracing_started(pctx *c, uint64_t ts, int preserve);
void gd_pf_sched_bundle(pctx *c, int cpu, int has_end, uint64_t end);
int64_t gd_pf_sched_crop(const pctx *c);

/* AndroidLogPacket: each line through the logcat line rules (#26). */
int gd_pf_read_android_log(pctx *c, pb_cur m);

/* CPU-profile samples (#26, perfetto_perf.c): InternedData's profile
 * entries (function names, mapping paths, frames, callstacks, mappings) of
 * sequence s; a TracePacketDefaults' perf_sample_defaults (the timebase); one
 * PerfSample at BOOTTIME ts (has_ts 0: none) -> a stack sample.  0 or an
 * error code.  gd_pf_perf_seq_clear drops a sequence's entries, gd_pf_perf_free
 * the context's buffers. */
int gd_pf_perf_defaults(pctx *c, pseq *s, pb_cur m);
int gd_pf_read_perf_sample(pctx *c, pseq *s, pb_cur m, int has_ts, uint64_t ts);
void gd_pf_perf_seq_clear(pctx *c, pseq *s);
void gd_pf_perf_free(pctx *c);
/* A ThreadDescriptor (track 0) or a TrackDescriptor's (track 1) thread
 * with reference_timestamp_us: the thread and time of the sequence's
 * StreamingProfilePackets, each of whose callstack_iid / timestamp_delta_us
 * pairs becomes a stack sample (source "streaming_profile"). */
void gd_pf_perf_thread_ref(pctx *c, pseq *s, pb_cur m, int track);
int gd_pf_read_streaming_profile(pctx *c, pseq *s, pb_cur m);

/* Pairs the waiting slice begins/ends that are old enough (all: every one);
 * 0 or the sink's error code. */
int gd_pf_pend_drain(pctx *c, int all);

#endif
