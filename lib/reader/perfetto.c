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
 *   FrameTimelineEvent: expected_display_frame_start 1 (cookie 1, token 2,
 *     pid 3), actual_display_frame_start 2 (cookie 1, token 2, pid 3,
 *     present_type 4, jank_type 7), expected_surface_frame_start 3 (cookie 1,
 *     token 2, pid 4), actual_surface_frame_start 4 (cookie 1, token 2, pid 4,
 *     layer_name 5, present_type 6, jank_type 9), frame_end 5 (cookie 1).
 *
 * Emits (through atrace.h): atrace markers of ftrace print events and
 * TrackEvent slices on thread tracks, paired per thread -> dispatches
 * (top-level slices on a main thread, tid == pid), methods (the others),
 * frames (Choreographer#doFrame, source "doframe"), lock-contention
 * issues; the frame timeline's actual surface frames -> GD_EV_FRAME (source
 * "frametimeline", with jank_type, present_type and token), the janky ones
 * also GD_EV_ISSUE tool "android", type "frame_jank" (json: layer, token,
 * jank types, jank tag, present type, dur_ms); SurfaceFlinger's actual
 * display frames -> GD_EV_FRAME (source "displayframe") -- perfetto_frames.c.
 * PerfSample packets (perf_sample 66) with interned callstacks -> GD_EV_STACK,
 * source "perf_sample" (cpu-clock timebase only), and StreamingProfilePacket
 * (streaming_profile_packet 54) samples, source "streaming_profile" --
 * perfetto_perf.c.
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
 * mid-packet".  A recognised trace that yields nothing (no slice, thread
 * state, stack sample, log line or frame) counts "perfetto: no app slices,
 * thread states, stack samples or log lines" and reads as empty: the
 * ingest's nothing-usable rule decides.
 *
 * Positions: the "line" of a message or a skip is the packet's number
 * (1-based); errors in the framing also give the byte offset.
 *
 * Memory: one packet at a time (at most PF_MAX_PACKET bytes; larger ones are
 * read past and counted), per-sequence interned names (PF_MAX_INTERNED and
 * PF_MAX_INTERNED_BYTES in all), PF_MAX_TRACKS track descriptors,
 * PF_MAX_FRAMES open frame-timeline frames, the sort queue (PF_SORT_MAX
 * entries, PF_SORT_MAX_BYTES) and atrace.h's per-thread state. */
#include "perfetto_int.h"

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
        gd_pf_bad(c, GD_SKIP(COMPRESSED_PACKETS_INSIDE_COMPRESSED_PACKETS));
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
        return gd_error_oom_at(c->err, c->pkno, 0);
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
                rc = gd_error_oom_at(c->err, c->pkno, 0);
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
        gd_pf_bad(c, GD_SKIP(COMPRESSED_PACKETS_NOT_INFLATABLE));
    else if (!rc) {
        pb_cur in = {out, out + len};
        rc = read_packets(c, in, depth + 1);
    }
    free(out);
    return rc;
}

/* What a TracePacket says besides its payload (the first 4 payload fields). */
typedef struct pf_head {
    uint64_t ts;
    uint32_t seq_id, clock, flags;
    int has_ts, cleared, dropped;
    pb_field pay[4];
    int npay;
    pb_field interned_f, defaults_f;
    int has_interned, has_defaults;
} pf_head;

/* Scans one TracePacket's fields into *h; pb_next's last result (< 0:
 * malformed). */
static int scan_packet(pb_cur m, pf_head *h)
{
    pb_field f;
    int r;
    memset(h, 0, sizeof *h);
    while ((r = pb_next(&m, &f)) == 1) {
        if (f.num == 8 && f.wt == PB_VARINT)
            h->ts = f.v, h->has_ts = 1;
        else if (f.num == 10 && f.wt == PB_VARINT)
            h->seq_id = (uint32_t)f.v;
        else if (f.num == 58 && f.wt == PB_VARINT)
            h->clock = (uint32_t)f.v;
        else if (f.num == 13 && f.wt == PB_VARINT)
            h->flags = (uint32_t)f.v;
        else if (f.num == 41 && f.wt == PB_VARINT)
            h->cleared = f.v != 0;
        else if (f.num == 42 && f.wt == PB_VARINT)
            h->dropped = f.v != 0;
        else if (f.num == 12 && f.wt == PB_LEN)
            h->interned_f = f, h->has_interned = 1;
        else if (f.num == 59 && f.wt == PB_LEN)
            h->defaults_f = f, h->has_defaults = 1;
        else if (!is_packet_meta(f.num) && h->npay < 4)
            h->pay[h->npay++] = f;
    }
    return r;
}

/* TracePacketDefaults {timestamp_clock_id 58, track_event_defaults 11
 * {track_uuid 11}} of sequence s. */
static void read_defaults(pseq *s, const pb_field *df)
{
    pb_cur d = pb_sub(df);
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

/* A payload field we do not read: counted by its kind. */
static void skip_unused(pctx *c, uint32_t num)
{
    const char *kind = NULL;
    for (size_t k = 0; k < sizeof KINDS / sizeof *KINDS; k++)
        if (KINDS[k].num == num)
            kind = KINDS[k].name;
    if (kind) {
        gd_sink_skip(c->sink, gd_pf_reason_of(c, GD_SKIP(IGNORED_PERFETTO_PACKET_NOT_USED_X), kind),
                     c->pkno, 0);
    } else {
        char nbuf[16];
        snprintf(nbuf, sizeof nbuf, "field %u", num);
        gd_sink_skip(c->sink, gd_pf_reason_of(c, GD_SKIP(IGNORED_PERFETTO_PACKET_NOT_USED_X), nbuf),
                     c->pkno, 0);
    }
}

/* One payload field of a packet on sequence s (NULL: none), stamped ts
 * (BOOTTIME ns when has_ts and boottime). */
/* TracingServiceEvent {tracing_started 2} at BOOTTIME ts: where Perfetto
 * begins keeping ftrace data (#51).  1 when it is that event. */
static int tracing_started(pctx *c, const pb_field *f, int has_ts, uint64_t ts)
{
    int started = 0;
    const pb_want want[] = {{2, PBW_BOOL, &started}};
    if (pb_read_wanted(pb_sub(f), PB_WANTS(want)) < 0 || !started || !has_ts)
        return 0;
    gd_pf_sched_tracing_started(c, ts, 0);
    return 1;
}

/* FtraceStats {preserve_ftrace_buffer 8}: the ring buffer's data from
 * before tracing started was kept on purpose (boot traces); Perfetto then
 * does not drop it (#51).  1 when it says so. */
static int preserve_ftrace_buffer(pctx *c, const pb_field *f)
{
    int preserve = 0;
    const pb_want want[] = {{8, PBW_BOOL, &preserve}};
    if (pb_read_wanted(pb_sub(f), PB_WANTS(want)) < 0 || !preserve)
        return 0;
    gd_pf_sched_tracing_started(c, 0, 1);
    return 1;
}

static int read_payload(pctx *c, pseq *s, pb_field *f, int has_ts, int boottime, uint64_t ts,
                        int depth)
{
    int rc = 0;
    if (f->wt != PB_LEN) {
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_PACKET_FIELD_NOT_USED), c->pkno, 0);
        return 0;
    }
    switch (f->num) {
    case 1:
        rc = gd_pf_read_ftrace(c, s, pb_sub(f));
        break;
    case 2:
        rc = gd_pf_read_process_tree(c, pb_sub(f));
        break;
    case 11:
        if (!boottime) {
            gd_pf_bad(c, GD_SKIP(TRACK_EVENT_ON_A_CLOCK_WITHOUT_A_SNAPSHOT));
            break;
        }
        rc = gd_pf_read_track_event(c, s, pb_sub(f), has_ts, ts);
        break;
    case 60:
        rc = gd_pf_read_track_desc(c, pb_sub(f));
        gd_pf_perf_thread_ref(c, s, pb_sub(f), 1);
        break;
    case 43: {
        int64_t pid;
        rc = gd_pf_read_process_desc(c, pb_sub(f), &pid);
        break;
    }
    case 44: {
        int64_t pid, tid;
        rc = gd_pf_read_thread_desc(c, pb_sub(f), &pid, &tid);
        gd_pf_perf_thread_ref(c, s, pb_sub(f), 0);
        if (!rc && s && tid >= 0) {
            s->td_pid = pid;
            s->td_tid = tid;
        }
        break;
    }
    case 76:
        rc = gd_pf_read_frame_timeline(c, pb_sub(f), has_ts && boottime, ts);
        break;
    case 50:
        rc = inflate_packets(c, f, depth);
        break;
    case 6:
        break;  /* clock snapshot: read first */
    case 45:
        gd_pf_sched_system_info(c, pb_sub(f));
        break;
    case 39:
        rc = gd_pf_read_android_log(c, pb_sub(f));
        break;
    case 66:
        if (!boottime) {
            gd_pf_bad(c, GD_SKIP(PERF_SAMPLE_ON_A_CLOCK_WITHOUT_A_SNAPSHOT));
            break;
        }
        rc = gd_pf_read_perf_sample(c, s, pb_sub(f), has_ts, ts);
        break;
    case 54:
        rc = gd_pf_read_streaming_profile(c, s, pb_sub(f));
        break;
    case 69:
        if (!tracing_started(c, f, has_ts && boottime, ts))
            skip_unused(c, f->num);
        break;
    case 34:
        if (!preserve_ftrace_buffer(c, f))
            skip_unused(c, f->num);
        break;
    default:
        skip_unused(c, f->num);
    }
    return rc;
}

/* The reader of InternedData's field `num`, or NULL: one table for the
 * three files that keep interned entries. */
typedef int (*interned_fn)(pctx *, pseq *, const pf_interned *);
static interned_fn interned_reader(uint32_t num)
{
    switch (num) {
    case PF_INTERNED_EVENT_NAMES:
        return gd_pf_event_name_interned;
    case PF_INTERNED_KERNEL_SYMBOLS:
        return gd_pf_sched_interned;
    case PF_INTERNED_FUNCTION_NAMES:
    case PF_INTERNED_FRAMES:
    case PF_INTERNED_CALLSTACKS:
    case PF_INTERNED_MAPPING_PATHS:
    case PF_INTERNED_MAPPINGS:
        return gd_pf_perf_interned;
    default:
        return NULL;
    }
}

/* InternedData, walked once: each entry decoded ({iid 1, field 2}) and
 * handed to its field's reader.  0 or an error code. */
static int read_interned(pctx *c, pseq *s, pb_cur m)
{
    pb_field f;
    int r, rc;
    while ((r = pb_next(&m, &f)) == 1) {
        int (*take)(pctx *, pseq *, const pf_interned *) = interned_reader(f.num);
        if (f.wt != PB_LEN || !take)
            continue;
        pf_interned e = {.field = f.num, .whole = {f.data, f.len}};
        const pb_want want[] = {{1, PBW_U64, &e.iid}, {2, PBW_BYTES, &e.str}};
        e.malformed = pb_read_wanted(pb_sub(&f), PB_WANTS(want)) < 0;
        if ((rc = take(c, s, &e)))
            return rc;
    }
    if (r < 0)
        gd_pf_bad(c, GD_SKIP(MALFORMED_INTERNED_DATA));
    return 0;
}

/* One TracePacket. */
static int read_packet(pctx *c, pb_cur m, int depth)
{
    pf_head h;
    int rc = 0;
    c->packets++;
    if (scan_packet(m, &h) < 0) {
        gd_pf_bad(c, GD_SKIP(MALFORMED_TRACE_PACKET));
        return 0;
    }
    pseq *s = h.seq_id ? gd_pf_seq_of(c, h.seq_id) : NULL;
    if (s && (h.cleared || (h.flags & 1))) {
        gd_pf_seq_clear(c, s);
        gd_pf_perf_seq_clear(c, s);
    }
    else if (s && h.dropped)
        s->lost = 1; /* its incremental state is not valid until cleared */
    /* a packet that needs incremental state its sequence lost (#26: read
     * by the profile samples, as Perfetto skips such packets) */
    c->state_lost = s && s->lost && (h.flags & 2);
    if (h.has_defaults && s) {
        read_defaults(s, &h.defaults_f);
        if ((rc = gd_pf_perf_defaults(c, s, pb_sub(&h.defaults_f))))
            return rc;
    }
    if (h.has_interned && (rc = read_interned(c, s, pb_sub(&h.interned_f))))
        return rc;
    uint32_t clock = h.clock;
    if (!clock && s)
        clock = s->def_clock;
    /* a snapshot first: it sets the clocks this packet's own stamp uses */
    for (int i = 0; i < h.npay; i++)
        if (h.pay[i].num == 6 && h.pay[i].wt == PB_LEN)
            gd_pf_read_clock_snapshot(c, s, pb_sub(&h.pay[i]));
    int boottime = 1;
    uint64_t ts = h.ts;
    if (h.has_ts)
        boottime = gd_pf_resolve_ts(c, s, clock, ts, &ts);
    for (int i = 0; i < h.npay && !rc; i++)
        rc = read_payload(c, s, &h.pay[i], h.has_ts, boottime, ts, depth);
    return rc;
}

/* Trace { repeated TracePacket packet = 1 } held in memory (inflated). */
static int read_packets(pctx *c, pb_cur m, int depth)
{
    pb_field f;
    int r, rc = 0;
    while (!rc && (r = pb_next(&m, &f)) == 1) {
        if (f.num != 1 || f.wt != PB_LEN) {
            gd_pf_bad(c, GD_SKIP(NOT_A_TRACE_PACKET));
            continue;
        }
        rc = read_packet(c, pb_sub(&f), depth);
    }
    if (!rc && r < 0)
        gd_pf_bad(c, GD_SKIP(MALFORMED_COMPRESSED_PACKETS));
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

/* A field of the stream that is not a packet (wire type wt, not LEN): read
 * past and counted.  0, or an error code; *stop at a cut end. */
static int skip_field(pctx *c, gd_input *in, int wt, uint64_t *offset, int *stop)
{
    uint64_t v;
    uint8_t skip8[8];
    int q = wt == PB_VARINT ? stream_varint(in, &v, offset, c->err)
                            : (read_full(in, skip8, wt == PB_I64 ? 8 : 4, c->err) ==
                                       (wt == PB_I64 ? 8 : 4)
                                   ? 1
                                   : 2);
    if (q < 0) {
        *stop = 1;
        return c->err->code ? c->err->code : GD_ERR_IO;
    }
    *offset += wt == PB_I64 ? 8 : wt == PB_I32 ? 4 : 0;
    gd_sink_skip(c->sink, GD_SKIP(PERFETTO_NOT_A_TRACE_PACKET), c->pkno, 0);
    if (q != 1) {
        gd_sink_skip(c->sink, GD_SKIP(PERFETTO_TRACE_CUT_MID_PACKET), c->pkno, 0);
        *stop = 1;
    }
    return 0;
}

/* A LEN field of `len` bytes that is not a packet we read (another field
 * number, or over the size cap): read past and counted.  0, or an error
 * code; *stop at a cut end. */
static int skip_len(pctx *c, gd_input *in, uint64_t key, uint64_t len, uint64_t *offset, int *stop)
{
    gd_sink_skip(c->sink, (key >> 3) != 1 ? GD_SKIP(PERFETTO_NOT_A_TRACE_PACKET)
                                          : GD_SKIP(PERFETTO_PACKET_OVER_THE_SIZE_CAP),
                 c->pkno, 0);
    ssize_t k = read_full(in, NULL, (size_t)(len > ((uint64_t)1 << 62) ? ((uint64_t)1 << 62) : len), c->err);
    if (k < 0) {
        *stop = 1;
        return c->err->code ? c->err->code : GD_ERR_IO;
    }
    *offset += (uint64_t)k;
    if ((uint64_t)k < len) {
        gd_sink_skip(c->sink, GD_SKIP(PERFETTO_TRACE_CUT_MID_PACKET), c->pkno, 0);
        *stop = 1;
    }
    return 0;
}

/* The next top-level field of the stream: a packet is read into the
 * buffer *buf (capacity *cap, grown) and decoded.  0, or an error code;
 * *stop at the end of the stream (clean or cut). */
static int stream_next(pctx *c, gd_input *in, uint8_t **buf, size_t *cap, uint64_t *offset,
                       int *stop)
{
    gd_error *err = c->err;
    uint64_t key, len, at = *offset;
    int r = stream_varint(in, &key, offset, err);
    *stop = 1;
    if (r == 0)
        return 0;
    if (r < 0)
        return err->code ? err->code : GD_ERR_IO;
    if (r == 2) {
        gd_sink_skip(c->sink, GD_SKIP(PERFETTO_TRACE_CUT_MID_PACKET), c->pkno + 1, 0);
        return 0;
    }
    c->pkno++;
    int wt = r == 1 ? (int)(key & 7) : -1;
    if (r == 3 || (key >> 3) == 0 || (wt != PB_LEN && wt != PB_VARINT && wt != PB_I64 && wt != PB_I32))
        return gd_error_set(err, GD_ERR_DATA, c->pkno, 0,
                            "not a Perfetto trace: bad field key at byte %llu",
                            (unsigned long long)at);
    *stop = 0;
    if (wt != PB_LEN)
        return skip_field(c, in, wt, offset, stop);
    *stop = 1;
    r = stream_varint(in, &len, offset, err);
    if (r < 0)
        return err->code ? err->code : GD_ERR_IO;
    if (r != 1) {
        gd_sink_skip(c->sink, GD_SKIP(PERFETTO_TRACE_CUT_MID_PACKET), c->pkno, 0);
        return 0;
    }
    *stop = 0;
    if ((key >> 3) != 1 || len > PF_MAX_PACKET)
        return skip_len(c, in, key, len, offset, stop);
    *stop = 1;
    if (len > *cap) {
        size_t nc = *cap ? *cap : 65536;
        while (nc < len)
            nc *= 2;
        uint8_t *nb = realloc(*buf, nc);
        if (!nb)
            return gd_error_oom_at(err, c->pkno, 0);
        *buf = nb;
        *cap = nc;
    }
    ssize_t k = read_full(in, *buf, (size_t)len, err);
    if (k < 0)
        return err->code ? err->code : GD_ERR_IO;
    if ((uint64_t)k < len) {
        gd_sink_skip(c->sink, GD_SKIP(PERFETTO_TRACE_CUT_MID_PACKET), c->pkno, 0);
        return 0;
    }
    *offset += len;
    static const uint8_t empty[1];
    const uint8_t *body = *buf ? *buf : empty; /* a 0-byte first packet: no buffer yet */
    pb_cur m = {body, body + len};
    int rc = read_packet(c, m, 0);
    *stop = rc != 0;
    return rc;
}

static int read_perfetto(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    (void)opts;
    pctx *c = calloc(1, sizeof *c);
    if (!c)
        return gd_error_oom(err);
    c->sink = sink;
    c->err = err;
    gd_oheap_init(&c->heap, sizeof(pending));
    if (!(c->at = gd_atrace_new(sink, "perfetto"))) {
        free(c);
        return gd_error_oom(err);
    }
    if (gd_pf_sched_new(c)) {
        gd_atrace_free(c->at);
        free(c);
        return err->code;
    }
    uint8_t *buf = NULL;
    size_t cap = 0;
    int rc = 0, stop = 0;
    uint64_t offset = 0;
    while (!stop)
        rc = stream_next(c, in, &buf, &cap, &offset, &stop);
    if (!rc)
        gd_pf_ft_finish(c);
    if (!rc)
        rc = gd_pf_pend_drain(c, 1);
    if (!rc)
        rc = gd_pf_sched_finish(c);
    if (!rc)
        rc = gd_atrace_finish(c->at, err);
    if (!rc)
        rc = gd_logcat_rules_finish(c->logrules, err);
    /* nothing emitted: counted, and the ingest's nothing-usable rule decides
     * (exit 1 alone, passed over with --keep-going or inside a folder) */
    if (!rc && gd_atrace_events(c->at) == 0 && c->issues == 0 && gd_pf_sched_states(c) == 0 &&
        c->log_used == 0 && c->ft_frames == 0 && c->perf_used == 0)
        gd_sink_skip(sink, GD_SKIP(PERFETTO_NO_APP_SLICES_THREAD_STATES_STACK), 0, 0);
    for (size_t i = 0; i < c->nseqs; i++) {
        gd_pf_seq_clear(c, &c->seqs[i]);
        gd_pf_perf_seq_clear(c, &c->seqs[i]);
    }
    for (size_t i = 0; i < c->heap.n; i++)
        free(((pending *)gd_oheap_at(&c->heap, i))->text);
    gd_oheap_clear(&c->heap);
    free(c->seqs);
    free(c->tracks);
    free(buf);
    gd_pf_sched_free(c);
    gd_pf_perf_free(c);
    gd_logcat_rules_free(c->logrules);
    gd_pf_ft_free(c);
    gd_atrace_free(c->at);
    free(c);
    return rc;
}

/* ---- probe ---- */

/* A packet that parses whole inside the head and uses TracePacket field
 * numbers with their wire types.  Empty packets before it (0a 00, as
 * Perfetto's own test traces begin) are stepped over (#27). */
static int probe(const unsigned char *h, size_t n, int eof)
{
    while (n >= 2 && h[0] == 0x0a && h[1] == 0x00)
        h += 2, n -= 2;
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
