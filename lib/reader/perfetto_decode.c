/* perfetto_decode.c - the perfetto reader's message decoders: interned
 * names, track/process/thread descriptors, the process tree and clock
 * snapshots (see perfetto.c for the field numbers; the event decoders are
 * in perfetto_events.c). */
#include "perfetto_int.h"

const char *gd_pf_reason_of(pctx *c, const char *fmt, const char *what)
{
    snprintf(c->reason, sizeof c->reason, fmt, what);
    return c->reason;
}

void gd_pf_bad(pctx *c, const char *what)
{
    gd_sink_skip(c->sink, gd_pf_reason_of(c, GD_SKIP(PERFETTO_X), what), c->pkno, 0);
}

/* ---- sequences and interned names ---- */

pseq *gd_pf_seq_of(pctx *c, uint32_t id)
{
    /* packets of one writer come in runs: the last hit first */
    if (c->last_seq < c->nseqs && c->seqs[c->last_seq].id == id)
        return &c->seqs[c->last_seq];
    for (size_t i = 0; i < c->nseqs; i++)
        if (c->seqs[i].id == id) {
            c->last_seq = i;
            return &c->seqs[i];
        }
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

void gd_pf_seq_clear(pctx *c, pseq *s)
{
    for (size_t i = 0; i < s->names.cap; i++)
        if (s->names.t[i].used) {
            c->interned_bytes -= s->names.t[i].len + 1;
            free(s->names.t[i].val);
        }
    c->ninterned -= s->names.n;
    gd_keytab_clear(&s->names);
    s->def_track = 0;
    s->def_clock = 0;
    s->clk_id = 0;
    s->td_pid = s->td_tid = -1;
    s->lost = 0;
}

const char *gd_pf_interned(const pseq *s, uint64_t iid)
{
    const gd_keytab_ent *e = s ? gd_keytab_find(&s->names, iid, 0) : NULL;
    return e ? e->val : NULL;
}

static int intern_put(pctx *c, pseq *s, uint64_t iid, const uint8_t *name, size_t len)
{
    len = gd_sink_cut(c->sink, (const char *)name, len, ATRACE_MAX_NAME - 1, c->pkno);
    gd_keytab_ent *e = gd_keytab_find(&s->names, iid, 0);
    if (!e && (c->ninterned >= PF_MAX_INTERNED || c->interned_bytes + len + 1 > PF_MAX_INTERNED_BYTES)) {
        gd_pf_bad(c, GD_SKIP(TOO_MANY_INTERNED_NAMES_LATER_ONES_DROPPED));
        return 0;
    }
    char *n = malloc(len + 1);
    if (!n)
        return gd_error_oom_at(c->err, c->pkno, 0);
    memcpy(n, name, len);
    n[len] = 0;
    size_t nlen = strlen(n); /* a name cut at a NUL it holds counts to there */
    int fresh = 0;
    if (!e && !(e = gd_keytab_put(&s->names, iid, 0, &fresh))) {
        free(n);
        return gd_error_oom_at(c->err, c->pkno, 0);
    }
    if (fresh)
        c->ninterned++;
    else {
        c->interned_bytes -= e->len + 1;
        free(e->val);
    }
    e->val = n;
    e->len = (uint32_t)nlen;
    c->interned_bytes += nlen + 1;
    return 0;
}

/* InternedData's event_names: EventName {iid 1, name 2}. */
int gd_pf_event_name_interned(pctx *c, pseq *s, const pf_interned *e)
{
    if (e->malformed || !e->str.p) {
        gd_pf_bad(c, GD_SKIP(MALFORMED_INTERNED_EVENT_NAME));
        return 0;
    }
    if (!s) {
        gd_pf_bad(c, GD_SKIP(TOO_MANY_PACKET_SEQUENCES));
        return 0;
    }
    return intern_put(c, s, e->iid, e->str.p, e->str.n);
}

/* ---- tracks ---- */

static size_t thash(uint64_t uuid, size_t cap)
{
    uint64_t h = uuid * 0x9E3779B97F4A7C15ull;
    return (size_t)((h ^ (h >> 31)) & (cap - 1));
}

ptrack *gd_pf_track_find(pctx *c, uint64_t uuid)
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
    ptrack *t = gd_pf_track_find(c, uuid);
    if (t) {
        t->pid = pid;
        t->tid = tid;
        return 0;
    }
    if (c->ntracks >= PF_MAX_TRACKS) {
        gd_pf_bad(c, GD_SKIP(TOO_MANY_TRACKS_LATER_ONES_DROPPED));
        return 0;
    }
    if ((c->ntracks + 1) * 2 > c->tcap) {
        size_t nc = c->tcap ? c->tcap * 2 : 256;
        ptrack *nt = calloc(nc, sizeof *nt);
        if (!nt)
            return gd_error_oom_at(c->err, c->pkno, 0);
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
int gd_pf_read_process_desc(pctx *c, pb_cur m, int64_t *pid)
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
        gd_pf_bad(c, GD_SKIP(MALFORMED_PROCESS_DESCRIPTOR));
        return 0;
    }
    if (!name)
        name = cmd, nlen = clen;
    if (*pid >= 0 && name && nlen)
        return gd_atrace_process_name(c->at, *pid, (const char *)name, nlen, c->err);
    return 0;
}

/* ThreadDescriptor {pid 1, tid 2, thread_name 5}: names the thread. */
int gd_pf_read_thread_desc(pctx *c, pb_cur m, int64_t *pid, int64_t *tid)
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
        gd_pf_bad(c, GD_SKIP(MALFORMED_THREAD_DESCRIPTOR));
        *tid = -1;
        return 0;
    }
    if (*tid >= 0)
        return gd_atrace_thread_name(c->at, *tid, *pid, (const char *)name, name ? nlen : 0,
                                     c->err);
    return 0;
}

/* TrackDescriptor {uuid 1, process 3, thread 4}. */
int gd_pf_read_track_desc(pctx *c, pb_cur m)
{
    pb_field f;
    uint64_t uuid = 0;
    int64_t pid = -1, tid = -1, ppid = -1;
    int r, rc = 0, thread = 0;
    while ((r = pb_next(&m, &f)) == 1 && !rc) {
        if (f.num == 1 && f.wt == PB_VARINT)
            uuid = f.v;
        else if (f.num == 3 && f.wt == PB_LEN)
            rc = gd_pf_read_process_desc(c, pb_sub(&f), &ppid);
        else if (f.num == 4 && f.wt == PB_LEN) {
            rc = gd_pf_read_thread_desc(c, pb_sub(&f), &pid, &tid);
            thread = 1;
        }
    }
    if (rc)
        return rc;
    if (r < 0) {
        gd_pf_bad(c, GD_SKIP(MALFORMED_TRACK_DESCRIPTOR));
        return 0;
    }
    if (uuid == 0)
        return 0;
    if (thread && tid >= 0)
        return track_put(c, uuid, pid, tid);
    return track_put(c, uuid, ppid, -1);
}

/* ProcessTree {processes 1 {pid 1, cmdline 3}, threads 2 {tid 1, name 2, tgid 3}}. */
int gd_pf_read_process_tree(pctx *c, pb_cur m)
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
            gd_pf_bad(c, GD_SKIP(MALFORMED_PROCESS_TREE_ENTRY));
            continue;
        }
        if (f.num == 1)
            rc = name && len ? gd_atrace_process_name(c->at, id, (const char *)name, len, c->err) : 0;
        else
            rc = gd_atrace_thread_name(c->at, id, tgid, (const char *)name, name ? len : 0, c->err);
    }
    if (!rc && r < 0)
        gd_pf_bad(c, GD_SKIP(MALFORMED_PROCESS_TREE));
    return rc;
}

/* ---- clocks ----
 * ClockSnapshot {clocks 1 (Clock: clock_id 1, timestamp 2, is_incremental 3,
 * unit_multiplier_ns 4)}: builtin clocks (REALTIME 1 .. MONOTONIC_RAW 5) map
 * to BOOTTIME (6) by the latest snapshot's offsets; sequence-scoped clocks
 * (64..127, e.g. the Perfetto SDK's incremental track-event clock) by the
 * sequence's own snapshot. */

void gd_pf_read_clock_snapshot(pctx *c, pseq *s, pb_cur m)
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
        gd_pf_bad(c, GD_SKIP(MALFORMED_CLOCK_SNAPSHOT));
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
int gd_pf_resolve_ts(pctx *c, pseq *s, uint32_t clock, uint64_t ts, uint64_t *out)
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
