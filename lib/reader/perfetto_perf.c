/* perfetto_perf.c - CPU-profile samples of Perfetto traces (#26): PerfSample
 * packets (traced_perf) with their interned callstacks, frames, function
 * names and mappings become stack samples (GD_EV_STACK, source
 * "perf_sample").
 *
 * Field numbers (Perfetto's protos/perfetto/trace/ .proto files):
 *   TracePacket: perf_sample 66, trace_packet_defaults 59 ->
 *     TracePacketDefaults.perf_sample_defaults 12 -> PerfSampleDefaults:
 *     timebase 1 -> PerfEvents.Timebase: counter 4 (SW_CPU_CLOCK = 1),
 *     tracepoint 3, raw_event 5;
 *   PerfSample: cpu 1, pid 2, tid 3, callstack_iid 4, cpu_mode 5,
 *     timebase_count 6, kernel_records_lost 17, sample_skipped_reason 18
 *     (1 read stage, 2 unwind stage, 3 unwind enqueue, 4 not in scope),
 *     producer_event 19, unwind_error 16;
 *   InternedData (per sequence, dropped when the sequence clears its
 *     incremental state): function_names 5 and mapping_paths 17
 *     (InternedString: iid 1, str 2), frames 6 (Frame: iid 1,
 *     function_name_id 2, mapping_id 3, rel_pc 4), callstacks 7 (Callstack:
 *     iid 1, frame_ids 2, outermost first), mappings 19 (Mapping: iid 1,
 *     path_string_ids 7, the path's components).
 *
 * A sample in a packet that needs incremental state (sequence_flags 2) on
 * a sequence that dropped packets since its last clear is skipped, counted,
 * as Perfetto's reader skips such packets.
 * As Perfetto's trace processor rules (ProfileModule::ParsePerfSample):
 * records-lost and producer-event packets are not samples; a sample the
 * profiler skipped (read or unwind stage, queue full) has no callstack;
 * a callstack whose frames are not all interned makes no callsite.  Only
 * samples of a cpu-clock timebase are a CPU profile (the sequence's
 * PerfSampleDefaults; none given: traced_perf's default, the cpu-clock);
 * the others (page faults, cycles, tracepoints) are counted, not stored.
 * Frames are named by profname.h's rule (Java "Class.method", native
 * "native:lib.so(symbol)").
 *
 * Cost (#53): a callstack's frames are named once, when a sample first
 * names it, and kept by callstack iid on its sequence; later samples of it
 * reuse them (and carry the same stack key, so that the writer walks them
 * once too).  A kept callstack is built again only when the sequence
 * replaces an interned entry, or, for one that named an entry not (yet)
 * interned, when the sequence interns anything: the frames are then the
 * same as naming them anew at each sample.
 *
 * Memory: the interned entries are counted in the reader's interned caps
 * (PF_MAX_INTERNED entries, PF_MAX_INTERNED_BYTES); one sample's frames
 * (PF_MAX_STACK frames); the kept callstacks' texts, PF_MAX_BUILT_BYTES
 * over all sequences (past it a sequence's kept callstacks are dropped). */
#include "perfetto_int.h"
#include "profname.h"
#include "core/util.h"

#define PF_MAX_STACK 1024
#define PF_MAX_FRAME_TEXT 2048
#define PF_MAX_PATH 1024
#define PF_MAX_BUILT_BYTES ((size_t)64 << 20)

/* A packet flagged SEQ_NEEDS_INCREMENTAL_STATE (sequence_flags 2) on a
 * sequence that dropped packets (previous_packet_dropped) since it last
 * cleared its incremental state: Perfetto skips it, its interned ids may
 * name entries that were lost. */
#define STATE_LOST GD_SKIP(IGNORED_PERFETTO_PROFILE_SAMPLE_AFTER_LOST)

enum {
    K_FUNC = PF_INTERNED_FUNCTION_NAMES,
    K_FRAME = PF_INTERNED_FRAMES,
    K_STACK = PF_INTERNED_CALLSTACKS,
    K_PATH = PF_INTERNED_MAPPING_PATHS,
    K_MAPPING = PF_INTERNED_MAPPINGS,
};
enum { TB_DEFAULT = 0, TB_CPU_CLOCK, TB_OTHER };

/* One callstack's frames, named once (#53): what emit needs for a sample. */
enum { BUILT_OK, BUILT_FRAME_MISSING, BUILT_EMPTY };
struct pf_built {
    int status;          /* BUILT_*                                          */
    int over;            /* more frame ids than PF_MAX_STACK                 */
    int complete;        /* every entry it named was interned                */
    uint64_t gen_any, gen_rep; /* the sequence's generations when built      */
    uint64_t key;        /* the event's stack key                            */
    size_t n, bytes;
    const char **ptr;    /* n frame texts, innermost first, into text        */
    char *text;
};

struct pf_perf_seq {
    gd_keytab t;         /* (iid, kind K_*) -> the string (names) or the message (the others) */
    gd_keytab built;     /* (callstack iid, 0) -> struct pf_built            */
    uint64_t gen_any;    /* bumped by every interned entry                   */
    uint64_t gen_rep;    /* bumped by an entry that replaces another          */
    int tb;              /* TB_*: the timebase of the sequence's defaults */
    /* StreamingProfilePacket: the thread of the sequence's thread
     * descriptor and its time (MONOTONIC ns, advanced by every delta) */
    int has_ref;
    int64_t sp_pid, sp_tid;
    uint64_t sp_ns;
};

struct pf_perf {
    char *text;          /* one callstack's frame texts, NUL-separated, as named */
    size_t tlen, tcap;
    uint64_t next_key;   /* the last stack key given                         */
    size_t built_bytes;  /* kept callstacks, all sequences: <= PF_MAX_BUILT_BYTES */
};

static void built_drop(struct pf_built *b)
{
    if (!b)
        return;
    free(b->ptr);
    free(b->text);
    free(b);
}

/* Frees a kept callstack. */
static void built_free(pctx *c, struct pf_built *b)
{
    if (b && c->perf)
        c->perf->built_bytes -= b->bytes;
    built_drop(b);
}

/* Drops the kept callstacks of q. */
static void built_clear(pctx *c, struct pf_perf_seq *q)
{
    for (size_t i = 0; i < q->built.cap; i++)
        if (q->built.t[i].used)
            built_free(c, q->built.t[i].val);
    gd_keytab_clear(&q->built);
}

void gd_pf_perf_seq_clear(pctx *c, pseq *s)
{
    struct pf_perf_seq *q = s->perf;
    if (!q)
        return;
    for (size_t i = 0; i < q->t.cap; i++)
        if (q->t.t[i].used) {
            c->interned_bytes -= q->t.t[i].len + 1;
            free(q->t.t[i].val);
        }
    c->ninterned -= q->t.n;
    gd_keytab_clear(&q->t);
    built_clear(c, q);
    free(q);
    s->perf = NULL;
}

void gd_pf_perf_free(pctx *c)
{
    if (!c->perf)
        return;
    free(c->perf->text);
    free(c->perf);
    c->perf = NULL;
}

static const gd_keytab_ent *find(const pseq *s, uint32_t kind, uint64_t iid)
{
    return s && s->perf ? gd_keytab_find(&s->perf->t, iid, kind) : NULL;
}

static struct pf_perf_seq *seq_state(pctx *c, pseq *s)
{
    if (!s->perf && !(s->perf = calloc(1, sizeof *s->perf)))
        gd_error_oom_at(c->err, c->pkno, 0);
    return s->perf;
}

/* Records (kind, iid) -> data[0..len) on sequence s (a later entry of the
 * same iid replaces the earlier one).  0 or an error code. */
static int put(pctx *c, pseq *s, uint32_t kind, uint64_t iid, const uint8_t *data, size_t len)
{
    struct pf_perf_seq *q = seq_state(c, s);
    if (!q)
        return GD_ERR_NOMEM;
    if (len > UINT32_MAX - 1 || c->ninterned >= PF_MAX_INTERNED ||
        c->interned_bytes + len + 1 > PF_MAX_INTERNED_BYTES) {
        gd_pf_bad(c, GD_SKIP(TOO_MANY_INTERNED_NAMES_LATER_ONES_DROPPED));
        return 0;
    }
    uint8_t *d = malloc(len + 1);
    if (!d)
        return gd_error_oom_at(c->err, c->pkno, 0);
    if (len)
        memcpy(d, data, len);
    d[len] = 0;
    int fresh;
    gd_keytab_ent *e = gd_keytab_put(&q->t, iid, kind, &fresh);
    if (!e) {
        free(d);
        return gd_error_oom_at(c->err, c->pkno, 0);
    }
    q->gen_any++;
    if (fresh)
        c->ninterned++;
    else {
        q->gen_rep++; /* what a kept callstack named may have changed */
        c->interned_bytes -= e->len + 1;
        free(e->val);
    }
    e->val = d;
    e->len = (uint32_t)len;
    c->interned_bytes += len + 1;
    return 0;
}

/* InternedData's profile entries: names (function_names, mapping_paths:
 * InternedString {iid 1, str 2}) kept as their text; frames, callstacks
 * and mappings kept whole, read when a sample names them. */
int gd_pf_perf_interned(pctx *c, pseq *s, const pf_interned *e)
{
    if (e->malformed) {
        gd_pf_bad(c, GD_SKIP(MALFORMED_INTERNED_PROFILE_ENTRY));
        return 0;
    }
    if (!s) {
        gd_pf_bad(c, GD_SKIP(TOO_MANY_PACKET_SEQUENCES));
        return 0;
    }
    if (e->field == K_FUNC || e->field == K_PATH)
        return put(c, s, e->field, e->iid, e->str.p ? e->str.p : (const uint8_t *)"", e->str.n);
    return put(c, s, e->field, e->iid, e->whole.p, e->whole.n);
}

int gd_pf_perf_defaults(pctx *c, pseq *s, pb_cur m)
{
    pb_field f, g, h;
    while (pb_next(&m, &f) == 1) {
        if (f.num != 12 || f.wt != PB_LEN)
            continue;
        struct pf_perf_seq *q = seq_state(c, s);
        if (!q)
            return GD_ERR_NOMEM;
        q->tb = TB_CPU_CLOCK; /* a timebase not given is the cpu-clock */
        pb_cur d = pb_sub(&f);
        while (pb_next(&d, &g) == 1) {
            if (g.num != 1 || g.wt != PB_LEN)
                continue;
            pb_cur tb = pb_sub(&g);
            while (pb_next(&tb, &h) == 1) {
                if (h.num == 4 && h.wt == PB_VARINT)
                    q->tb = h.v == 1 ? TB_CPU_CLOCK : TB_OTHER;
                else if (h.num == 3 || h.num == 5)
                    q->tb = TB_OTHER;
            }
        }
    }
    return 0;
}

/* The repeated uint64 field `num` of message m (packed or not) into
 * out[0..cap); the count read (more than cap: *over set). */
static size_t repeated(pb_cur m, uint32_t num, uint64_t *out, size_t cap, int *over)
{
    pb_field f;
    size_t n = 0;
    *over = 0;
    while (pb_next(&m, &f) == 1) {
        if (f.num != num)
            continue;
        if (f.wt == PB_VARINT) {
            if (n < cap)
                out[n++] = f.v;
            else
                *over = 1;
        } else if (f.wt == PB_LEN) {
            const uint8_t *p = f.data, *end = f.data + f.len;
            uint64_t v;
            while (p < end && pb_varint(&p, end, &v)) {
                if (n < cap)
                    out[n++] = v;
                else
                    *over = 1;
            }
        }
    }
    return n;
}

/* The path of mapping `iid` ("/system/lib64/libc.so") into out; 0 when the
 * mapping is not interned (an empty path: out ""). */
static int mapping_path(const pseq *s, uint64_t iid, char *out, size_t cap, int *complete)
{
    out[0] = 0;
    const gd_keytab_ent *e = find(s, K_MAPPING, iid);
    if (!e) {
        *complete = 0;
        return 0;
    }
    uint64_t ids[32];
    int over;
    size_t n = repeated((pb_cur){((const uint8_t *)e->val), ((const uint8_t *)e->val) + e->len}, 7, ids, 32, &over), len = 0;
    for (size_t i = 0; i < n; i++) {
        const gd_keytab_ent *p = find(s, K_PATH, ids[i]);
        if (!p)
            *complete = 0;
        const char *part = p ? (const char *)p->val : "";
        int k = snprintf(out + len, cap - len, "/%s", part);
        if (k < 0 || (size_t)k >= cap - len)
            break;
        len += (size_t)k;
    }
    return 1;
}

/* The text of frame `iid` appended to the sample's frames; 0, 1 when the
 * frame is not interned, or an error code.  *complete is cleared when an
 * entry it names is not interned. */
static int add_frame(pctx *c, const pseq *s, uint64_t iid, int *complete)
{
    const gd_keytab_ent *e = find(s, K_FRAME, iid);
    if (!e) {
        *complete = 0;
        return 1;
    }
    pb_cur m = {((const uint8_t *)e->val), ((const uint8_t *)e->val) + e->len};
    pb_field f;
    uint64_t fn = 0, map = 0, pc = 0;
    int has_fn = 0, has_pc = 0;
    while (pb_next(&m, &f) == 1) {
        if (f.wt != PB_VARINT)
            continue;
        if (f.num == 2)
            fn = f.v, has_fn = 1;
        else if (f.num == 3)
            map = f.v;
        else if (f.num == 4)
            pc = f.v, has_pc = 1;
    }
    const gd_keytab_ent *name = has_fn ? find(s, K_FUNC, fn) : NULL;
    if (has_fn && !name)
        *complete = 0;
    char path[PF_MAX_PATH], pcs[24], text[PF_MAX_FRAME_TEXT];
    if (!mapping_path(s, map, path, sizeof path, complete) || !path[0])
        snprintf(path, sizeof path, "?"); /* a mapping without a path (a build id only) */
    size_t nsym = name ? name->len : 0;
    snprintf(pcs, sizeof pcs, "%llx", (unsigned long long)pc);
    size_t n = gd_prof_frame(text, sizeof text, name ? (const char *)name->val : "", nsym, path,
                             nsym ? NULL : has_pc ? pcs : NULL, strlen(pcs));
    struct pf_perf *p = c->perf;
    if (gd_grow((void **)&p->text, &p->tcap, p->tlen + n + 1, 1, c->err))
        return c->err->code ? c->err->code : GD_ERR_NOMEM;
    memcpy(p->text + p->tlen, text, n + 1);
    p->tlen += n + 1;
    return 0;
}

static const char *skip_reason(uint64_t r)
{
    switch (r) {
    case 1: return GD_SKIP(IGNORED_PERFETTO_PERF_SAMPLE_SKIPPED_READ);
    case 2: return GD_SKIP(IGNORED_PERFETTO_PERF_SAMPLE_SKIPPED_UNWIND);
    case 3: return GD_SKIP(IGNORED_PERFETTO_PERF_SAMPLE_SKIPPED_UNWIND_QUEUE_FULL);
    case 4: return GD_SKIP(IGNORED_PERFETTO_PERF_SAMPLE_SKIPPED_NOT_IN_SCOPE);
    default: return GD_SKIP(IGNORED_PERFETTO_PERF_SAMPLE_SKIPPED_OTHER);
    }
}

/* Names the frames of callstack `cs` (its entry st) of sequence s into a
 * new *out (status BUILT_*; its frames kept in c->perf->text until the
 * next build).  0 or an error code. */
static int build(pctx *c, pseq *s, uint64_t cs, const gd_keytab_ent *st, struct pf_built **out)
{
    (void)cs;
    struct pf_perf *p = c->perf;
    struct pf_perf_seq *q = s->perf;
    uint64_t ids[PF_MAX_STACK];
    int over, complete = 1;
    size_t n = repeated((pb_cur){((const uint8_t *)st->val), ((const uint8_t *)st->val) + st->len}, 2, ids, PF_MAX_STACK, &over);
    struct pf_built *b = calloc(1, sizeof *b);
    if (!b)
        return gd_error_oom_at(c->err, c->pkno, 0);
    b->over = over;
    b->gen_any = q->gen_any;
    b->gen_rep = q->gen_rep;
    b->bytes = sizeof *b;
    b->status = n ? BUILT_OK : BUILT_EMPTY;
    p->tlen = 0;
    /* frame_ids are outermost first; events want innermost first */
    for (size_t i = n; i-- > 0 && b->status == BUILT_OK;) {
        int r = add_frame(c, s, ids[i], &complete);
        if (r == 1)
            b->status = BUILT_FRAME_MISSING;
        else if (r) {
            free(b);
            return r;
        }
    }
    b->complete = complete;
    if (b->status == BUILT_OK) {
        b->text = malloc(p->tlen);
        b->ptr = malloc(n * sizeof *b->ptr);
        if (!b->text || !b->ptr) {
            free(b->text);
            free(b->ptr);
            free(b);
            return gd_error_oom_at(c->err, c->pkno, 0);
        }
        memcpy(b->text, p->text, p->tlen);
        const char *t = b->text;
        for (size_t i = 0; i < n; i++) {
            b->ptr[i] = t;
            t += strlen(t) + 1;
        }
        b->n = n;
        b->key = ++p->next_key;
        b->bytes += p->tlen + n * sizeof *b->ptr;
    }
    *out = b;
    return 0;
}

/* Keeps b as callstack cs's frames on sequence s; 0 when not kept (over
 * the cap, or out of memory for the table: the caller frees b). */
static int keep(pctx *c, pseq *s, uint64_t cs, struct pf_built *b)
{
    struct pf_perf *p = c->perf;
    struct pf_perf_seq *q = s->perf;
    if (p->built_bytes + b->bytes > PF_MAX_BUILT_BYTES)
        built_clear(c, q);
    if (p->built_bytes + b->bytes > PF_MAX_BUILT_BYTES)
        return 0;
    int fresh;
    gd_keytab_ent *e = gd_keytab_put(&q->built, cs, 0, &fresh);
    if (!e)
        return 0;
    if (!fresh)
        built_free(c, e->val);
    e->val = b;
    p->built_bytes += b->bytes;
    return 1;
}

/* The stack sample of callstack `cs` of sequence s by pid/tid at BOOTTIME
 * ts, source `src`; a callstack not interned, empty or naming a frame not
 * interned is counted.  The callstack's frames are named once (kept by
 * iid, as long as what they name is unchanged).  0 or an error code. */
static int emit(pctx *c, pseq *s, uint64_t cs, uint64_t ts, int64_t pid, int64_t tid,
                const char *src)
{
    const gd_keytab_ent *st = find(s, K_STACK, cs);
    if (!st) {
        gd_pf_bad(c, GD_SKIP(PROFILE_SAMPLE_OF_A_CALLSTACK_NOT_INTERNED));
        return 0;
    }
    if (!c->perf && !(c->perf = calloc(1, sizeof *c->perf)))
        return gd_error_oom_at(c->err, c->pkno, 0);
    struct pf_perf_seq *q = s->perf; /* the callstack is interned: set */
    gd_keytab_ent *e = gd_keytab_find(&q->built, cs, 0);
    struct pf_built *b = e ? e->val : NULL;
    if (b && (b->gen_rep != q->gen_rep || (!b->complete && b->gen_any != q->gen_any)))
        b = NULL; /* what it named changed: named again */
    int kept = 1, rc = 0;
    if (!b) {
        if ((rc = build(c, s, cs, st, &b)))
            return rc;
        kept = keep(c, s, cs, b);
    }
    if (b->over)
        gd_sink_skip(c->sink, GD_SKIP(PERFETTO_PROFILE_SAMPLE_FRAMES_OVER_THE_PER), c->pkno, 0);
    if (b->status == BUILT_EMPTY)
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_PROFILE_SAMPLE_WITH_AN), c->pkno, 0);
    else if (b->status == BUILT_FRAME_MISSING)
        gd_pf_bad(c, GD_SKIP(PROFILE_SAMPLE_OF_A_FRAME_NOT_INTERNED));
    else {
        gd_event ev;
        gd_event_init(&ev, GD_EV_STACK);
        ev.ts = (double)ts / 1e6;
        ev.line = c->pkno;
        ev.pid = pid;
        ev.tid = tid;
        ev.u.stack.frames = b->ptr;
        ev.u.stack.nframes = b->n;
        ev.u.stack.source = src;
        ev.u.stack.key = kept ? b->key : 0;
        c->perf_used++;
        rc = gd_sink_event(c->sink, &ev, c->err);
    }
    if (!kept)
        built_drop(b);
    return rc;
}

int gd_pf_read_perf_sample(pctx *c, pseq *s, pb_cur m, int has_ts, uint64_t ts)
{
    pb_field f;
    int r;
    uint64_t pid = 0, tid = 0, cs = 0, lost = 0, skipped = 0;
    int has_cs = 0, has_skip = 0, producer = 0;
    while ((r = pb_next(&m, &f)) == 1) {
        if (f.wt == PB_LEN && f.num == 19)
            producer = 1;
        if (f.wt != PB_VARINT)
            continue;
        switch (f.num) {
        case 2: pid = f.v; break;
        case 3: tid = f.v; break;
        case 4: cs = f.v, has_cs = 1; break;
        case 17: lost = f.v; break;
        case 18: skipped = f.v, has_skip = 1; break;
        default: break;
        }
    }
    if (r < 0) {
        gd_pf_bad(c, GD_SKIP(MALFORMED_PERF_SAMPLE));
        return 0;
    }
    if (lost) {
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_PERF_RECORDS_LOST_BY_THE), c->pkno, 0);
        return 0;
    }
    if (c->state_lost) {
        gd_sink_skip(c->sink, STATE_LOST, c->pkno, 0);
        return 0;
    }
    if (producer) {
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_PERF_PRODUCER_EVENT), c->pkno, 0);
        return 0;
    }
    if (s && s->perf && s->perf->tb == TB_OTHER) {
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_PERF_SAMPLE_NOT_ON_THE_CPU),
                     c->pkno, 0);
        return 0;
    }
    if (has_skip && !has_cs) {
        gd_sink_skip(c->sink, skip_reason(skipped), c->pkno, 0);
        return 0;
    }
    if (!has_cs) {
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_PERF_SAMPLE_WITHOUT_A), c->pkno, 0);
        return 0;
    }
    if (!has_ts) {
        gd_pf_bad(c, GD_SKIP(PERF_SAMPLE_WITHOUT_A_TIMESTAMP));
        return 0;
    }
    return emit(c, s, cs, ts, (int64_t)pid, (int64_t)tid, "perf_sample");
}

void gd_pf_perf_thread_ref(pctx *c, pseq *s, pb_cur m, int track)
{
    pb_field f;
    if (track) { /* TrackDescriptor: its thread 4 */
        int found = 0;
        while (pb_next(&m, &f) == 1)
            if (f.num == 4 && f.wt == PB_LEN) {
                m = pb_sub(&f);
                found = 1;
                break;
            }
        if (!found)
            return;
    }
    int64_t pid = -1, tid = -1;
    uint64_t ref = 0;
    int has = 0;
    while (pb_next(&m, &f) == 1) {
        if (f.wt != PB_VARINT)
            continue;
        if (f.num == 1)
            pid = (int64_t)(int32_t)f.v;
        else if (f.num == 2)
            tid = (int64_t)(int32_t)f.v;
        else if (f.num == 6)
            ref = f.v, has = 1;
    }
    if (!has || !s)
        return;
    if (!s->perf && !(s->perf = calloc(1, sizeof *s->perf)))
        return; /* out of memory: the profile's samples are counted as without a thread */
    struct pf_perf_seq *q = s->perf;
    q->has_ref = 1;
    q->sp_pid = pid;
    q->sp_tid = tid;
    q->sp_ns = ref * 1000;
}

int gd_pf_read_streaming_profile(pctx *c, pseq *s, pb_cur m)
{
    struct pf_perf_seq *q = s ? s->perf : NULL;
    if (c->state_lost) {
        gd_sink_skip(c->sink, STATE_LOST, c->pkno, 0);
        return 0;
    }
    if (!q || !q->has_ref) {
        gd_pf_bad(c, GD_SKIP(STREAMING_PROFILE_WITHOUT_A_THREAD));
        return 0;
    }
    uint64_t ids[PF_MAX_STACK], deltas[PF_MAX_STACK];
    int over1, over2;
    size_t n = repeated(m, 1, ids, PF_MAX_STACK, &over1);
    size_t nd = repeated(m, 2, deltas, PF_MAX_STACK, &over2);
    if (over1 || over2)
        gd_sink_skip(c->sink, GD_SKIP(PERFETTO_STREAMING_PROFILE_SAMPLES_OVER_THE), c->pkno, 0);
    /* the packet's time: the sequence's, MONOTONIC, mapped to BOOTTIME */
    uint64_t base;
    if (!gd_pf_resolve_ts(c, s, 3, q->sp_ns, &base))
        base = q->sp_ns; /* no snapshot maps MONOTONIC: as is, as Perfetto takes it */
    /* deltas are int64 (negative ones as two's complement): summed modulo
     * 2^64, which is the signed sum without overflow */
    uint64_t off = 0;
    for (size_t i = 0; i < nd; i++)
        q->sp_ns += deltas[i] * 1000u;
    for (size_t i = 0; i < n; i++) {
        if (i >= nd) {
            gd_pf_bad(c, GD_SKIP(STREAMING_PROFILE_WITH_FEWER_TIMESTAMPS_THAN));
            break;
        }
        off += deltas[i] * 1000u;
        int rc = emit(c, s, ids[i], base + off, q->sp_pid, q->sp_tid, "streaming_profile");
        if (rc)
            return rc;
    }
    return 0;
}
