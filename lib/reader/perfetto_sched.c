/* perfetto_sched.c - thread states from a Perfetto trace's ftrace scheduling events.
 *
 * Field numbers of Perfetto's protos/perfetto/trace/ftrace/ .proto files:
 *   FtraceEventBundle: cpu 1, event 2, compact_sched 4 (CompactSched:
 *     switch_timestamp 1, switch_prev_state 2, switch_next_pid 3,
 *     switch_next_comm_index 6, waking_timestamp 7, waking_pid 8,
 *     waking_comm_index 11, intern_table 5; timestamps delta-encoded, the
 *     first absolute; a compact switch's previous thread is the one the
 *     CPU's last switch put on it);
 *   FtraceEvent: timestamp 1, pid 2 (the thread writing it), sched_switch 4
 *     (prev_comm 1, prev_pid 2, prev_state 4, next_comm 5, next_pid 6),
 *     sched_blocked_reason 18 (pid 1, caller 2 = an interned kernel symbol,
 *     io_wait 3), sched_waking 20 (comm 1, pid 2), task_newtask 235 (pid 1,
 *     comm 2, clone_flags 3), task_rename 236 (pid 1, newcomm 3);
 *   InternedData: kernel_symbols 26 (iid 1, str 2);
 *   SystemInfo (packet field 45): utsname 1 (release 3): the kernel version
 *     that says how prev_state's bits read (Perfetto's default: 4.4).
 * sched_wakeup and sched_wakeup_new are counted, not used: Perfetto's
 * thread_state is built from sched_waking.
 *
 * Bundles are per CPU, so the events reach the reader out of time order:
 * they wait in a min-heap by time (small fixed records) and go to the
 * tracker (ftrace_sched.h) once PF_SORT_WINDOW_MS older than the newest
 * one seen, or when PF_SORT_MAX wait. */
#include "ftrace_binder.h"
#include "ftrace_sched.h"
#include "perfetto_int.h"

#define PS_MAX_CPUS 4096
#define PS_MAX_KSYMS 65536

enum { EV_SWITCH, EV_WAKING, EV_NEWTASK, EV_BLOCKED, EV_BINDER_TX, EV_BINDER_RX, EV_BINDER_RET };

typedef struct srec {
    int64_t ts;
    int64_t a, b;        /* switch: prev, next; waking: wakee, waker; newtask: new, parent */
    int32_t state;       /* switch: raw prev_state; blocked: io_wait (-1 unknown) */
    int16_t cpu;
    uint8_t type;
    const char *fn;      /* blocked: interned function */
    long pkno;
    int32_t x, y;        /* binder: to_proc, to_thread */
    uint32_t code, flags;
} srec;

struct pf_sched {
    gd_sched *st;
    gd_binder *bd;       /* binder transactions (#26) */
    gd_oheap heap;       /* srec entries */
    int64_t max_ts;
    int kmajor, kminor;
    int64_t cpu_tid[PS_MAX_CPUS]; /* the thread the CPU's last switch put on it, -1 */
    gd_keytab ksyms;     /* (seq id + 1) << 40 ^ iid -> its name (an interned string) */
};

int gd_pf_sched_new(pctx *c)
{
    struct pf_sched *p = calloc(1, sizeof *p);
    if (!p || !(p->st = gd_sched_new(c->sink, "perfetto")) ||
        !(p->bd = gd_binder_new(c->sink, "perfetto"))) {
        if (p)
            gd_sched_free(p->st);
        free(p);
        return gd_error_set(c->err, GD_ERR_NOMEM, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < PS_MAX_CPUS; i++)
        p->cpu_tid[i] = -1;
    p->max_ts = INT64_MIN;
    gd_oheap_init(&p->heap, sizeof(srec));
    gd_sched_set_lookup(p->st, gd_atrace_thread_info, c->at);
    gd_binder_set_process_names(p->bd, gd_atrace_process_of, c->at);
    c->sched = p;
    return 0;
}

void gd_pf_sched_free(pctx *c)
{
    struct pf_sched *p = c->sched;
    if (!p)
        return;
    gd_sched_free(p->st);
    gd_binder_free(p->bd);
    gd_oheap_clear(&p->heap);
    gd_keytab_clear(&p->ksyms);
    free(p);
    c->sched = NULL;
}

unsigned long gd_pf_sched_states(const pctx *c)
{
    return c->sched ? gd_sched_states(c->sched->st) + gd_binder_count(c->sched->bd) : 0;
}
unsigned long gd_pf_sched_events(const pctx *c) { return c->sched ? gd_sched_events(c->sched->st) : 0; }

/* ---- time order ---- */

static int deliver(pctx *c, const srec *r)
{
    struct pf_sched *p = c->sched;
    switch (r->type) {
    case EV_SWITCH:
        return gd_sched_switch(p->st, r->ts, r->cpu, r->a,
                               gd_sched_state_from_raw(r->state, p->kmajor, p->kminor), r->b, r->pkno,
                               c->err);
    case EV_WAKING:
        return gd_sched_waking(p->st, r->ts, r->a, r->b, r->pkno, c->err);
    case EV_NEWTASK:
        return gd_sched_new_task(p->st, r->ts, r->a, r->b, r->pkno, c->err);
    case EV_BINDER_TX:
        return gd_binder_transaction(p->bd, r->ts, r->a, r->b, r->x, r->y, r->state, r->flags, r->code,
                                     r->pkno, c->err);
    case EV_BINDER_RX:
        return gd_binder_received(p->bd, r->ts, r->a, r->b, r->pkno, c->err);
    case EV_BINDER_RET:
        return gd_binder_return(p->bd, r->ts, r->a, r->code, r->pkno, c->err);
    default:
        return gd_sched_blocked(p->st, r->ts, r->a, r->state, r->fn, r->pkno, c->err);
    }
}

static int pop_one(pctx *c)
{
    srec top;
    gd_oheap_pop(&c->sched->heap, &top);
    return deliver(c, &top);
}

static int drain(pctx *c, int all)
{
    struct pf_sched *p = c->sched;
    int64_t window = (int64_t)(PF_SORT_WINDOW_MS * 1e6);
    int rc = 0;
    while (!rc && p->heap.n &&
           (all || p->heap.n >= PF_SORT_MAX || ((srec *)gd_oheap_at(&p->heap, 0))->ts < p->max_ts - window))
        rc = pop_one(c);
    return rc;
}

static int push(pctx *c, srec r)
{
    struct pf_sched *p = c->sched;
    srec *slot = gd_oheap_push(&p->heap, gd_oheap_key_i64(r.ts));
    if (!slot)
        return gd_error_set(c->err, GD_ERR_NOMEM, c->pkno, 0, "out of memory");
    r.pkno = c->pkno;
    *slot = r;
    if (r.ts > p->max_ts)
        p->max_ts = r.ts;
    return drain(c, 0);
}

int gd_pf_sched_finish(pctx *c)
{
    struct pf_sched *p = c->sched;
    int rc = drain(c, 1);
    if (!rc)
        rc = gd_sched_finish(p->st, c->err);
    return rc ? rc : gd_binder_finish(p->bd, c->err);
}

/* ---- kernel symbols ---- */

static const char *ksym_find(struct pf_sched *p, uint64_t key)
{
    const gd_keytab_ent *e = gd_keytab_find(&p->ksyms, key, 0);
    return e ? e->val : NULL;
}

static int ksym_put(pctx *c, uint64_t key, const char *name)
{
    struct pf_sched *p = c->sched;
    if (p->ksyms.n >= PS_MAX_KSYMS) {
        gd_pf_bad(c, GD_SKIP(TOO_MANY_KERNEL_SYMBOLS));
        return 0;
    }
    int fresh;
    gd_keytab_ent *e = gd_keytab_put(&p->ksyms, key, 0, &fresh);
    if (!e)
        return gd_error_set(c->err, GD_ERR_NOMEM, c->pkno, 0, "out of memory");
    e->val = (void *)name;
    return 0;
}

static uint64_t ksym_key(const pseq *s, uint64_t iid)
{
    return (((uint64_t)(s ? s->id : 0) + 1) << 40) ^ iid;
}

int gd_pf_sched_interned(pctx *c, pseq *s, pb_cur m)
{
    pb_field f, g;
    int r;
    while ((r = pb_next(&m, &f)) == 1) {
        if (f.num != 26 || f.wt != PB_LEN)
            continue;
        pb_cur e = pb_sub(&f);
        uint64_t iid = 0;
        const uint8_t *str = NULL;
        size_t len = 0;
        int q;
        while ((q = pb_next(&e, &g)) == 1) {
            if (g.num == 1 && g.wt == PB_VARINT)
                iid = g.v;
            else if (g.num == 2 && g.wt == PB_LEN)
                str = g.data, len = g.len;
        }
        if (q < 0 || !str) {
            gd_pf_bad(c, GD_SKIP(MALFORMED_INTERNED_KERNEL_SYMBOL));
            continue;
        }
        const char *name = gd_sched_intern(c->sched->st, (const char *)str, len);
        if (name && (q = ksym_put(c, ksym_key(s, iid), name)))
            return q;
    }
    return 0;
}

/* ---- system info ---- */

void gd_pf_sched_system_info(pctx *c, pb_cur m)
{
    pb_field f, g;
    while (pb_next(&m, &f) == 1) {
        if (f.num != 1 || f.wt != PB_LEN)
            continue;
        pb_cur u = pb_sub(&f);
        while (pb_next(&u, &g) == 1) {
            if (g.num != 3 || g.wt != PB_LEN)
                continue;
            int major = 0, minor = 0;
            size_t i = 0;
            while (i < g.len && g.data[i] >= '0' && g.data[i] <= '9' && major < 1000)
                major = major * 10 + (g.data[i++] - '0');
            if (i < g.len && g.data[i] == '.') {
                i++;
                while (i < g.len && g.data[i] >= '0' && g.data[i] <= '9' && minor < 1000)
                    minor = minor * 10 + (g.data[i++] - '0');
            }
            if (major > 0) {
                c->sched->kmajor = major;
                c->sched->kminor = minor;
            }
        }
    }
}

/* ---- events ---- */

static void note_cpu(struct pf_sched *p, int cpu, int64_t tid)
{
    if (cpu >= 0 && cpu < PS_MAX_CPUS)
        p->cpu_tid[cpu] = tid;
}

int gd_pf_sched_event(pctx *c, pseq *s, int cpu, uint64_t ts, int64_t tid, const pb_field *ev,
                   int *used)
{
    struct pf_sched *p = c->sched;
    pb_cur m = pb_sub(ev);
    pb_field g;
    int q, rc = 0;
    *used = 1;
    int64_t pid = -1, pid2 = -1, raw = 0;
    uint64_t caller = 0, flags = 0;
    int has_caller = 0, io = -1;
    const uint8_t *s1 = NULL, *s2 = NULL;
    size_t l1 = 0, l2 = 0;
    switch (ev->num) {
    case 4:   /* sched_switch */
    case 18:  /* sched_blocked_reason */
    case 20:  /* sched_waking */
    case 235: /* task_newtask */
    case 236: /* task_rename */
    case 50:  /* binder_transaction */
    case 51:  /* binder_transaction_received */
    case 486: /* binder_return */
        break;
    case 17:
    case 114:
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_SCHED_WAKEUP_THREAD_STATES),
                     c->pkno, 0);
        return 0;
    default:
        *used = 0;
        return 0;
    }
    while ((q = pb_next(&m, &g)) == 1) {
        int vi = g.wt == PB_VARINT, ln = g.wt == PB_LEN;
        switch (ev->num) {
        case 4:
            if (g.num == 1 && ln)
                s1 = g.data, l1 = g.len;
            else if (g.num == 2 && vi)
                pid = (int64_t)(int32_t)g.v;
            else if (g.num == 4 && vi)
                raw = (int64_t)g.v;
            else if (g.num == 5 && ln)
                s2 = g.data, l2 = g.len;
            else if (g.num == 6 && vi)
                pid2 = (int64_t)(int32_t)g.v;
            break;
        case 18:
            if (g.num == 1 && vi)
                pid = (int64_t)(int32_t)g.v;
            else if (g.num == 2 && vi)
                caller = g.v, has_caller = 1;
            else if (g.num == 3 && vi)
                io = g.v != 0;
            break;
        case 20:
        case 235:
            if (g.num == 1 && ln)
                s1 = g.data, l1 = g.len;
            else if (g.num == 2 && vi)
                pid = (int64_t)(int32_t)g.v;
            if (ev->num == 235) {
                if (g.num == 1 && vi)
                    pid = (int64_t)(int32_t)g.v, s1 = NULL;
                else if (g.num == 2 && ln)
                    s1 = g.data, l1 = g.len;
                else if (g.num == 3 && vi)
                    flags = g.v;
            }
            break;
        case 236:
            if (g.num == 1 && vi)
                pid = (int64_t)(int32_t)g.v;
            else if (g.num == 3 && ln)
                s1 = g.data, l1 = g.len;
            break;
        case 50: /* debug_id 1, to_proc 3, to_thread 4, reply 5, code 6, flags 7 */
        case 51:
            if (!vi)
                break;
            if (g.num == 1)
                pid = (int64_t)(int32_t)g.v;
            else if (g.num == 3)
                pid2 = (int64_t)(int32_t)g.v;
            else if (g.num == 4)
                raw = (int64_t)(int32_t)g.v;
            else if (g.num == 5)
                io = g.v != 0;
            else if (g.num == 6)
                caller = g.v;
            else if (g.num == 7)
                flags = g.v;
            break;
        case 486: /* cmd 1 */
            if (g.num == 1 && vi)
                caller = g.v, has_caller = 1;
            break;
        }
    }
    if (q < 0) {
        gd_pf_bad(c, GD_SKIP(MALFORMED_SCHED_EVENT));
        return 0;
    }
    int64_t t = (int64_t)(ts > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : ts);
    switch (ev->num) {
    case 4:
        if (pid < 0 || pid2 < 0) {
            gd_pf_bad(c, GD_SKIP(SCHED_SWITCH_WITHOUT_ITS_PIDS));
            return 0;
        }
        if ((s1 && (rc = gd_sched_name(p->st, pid, (const char *)s1, l1, c->err))) ||
            (s2 && (rc = gd_sched_name(p->st, pid2, (const char *)s2, l2, c->err))))
            return rc;
        note_cpu(p, cpu, pid2);
        return push(c, (srec){.ts = t, .a = pid, .b = pid2, .state = (int32_t)(uint16_t)raw,
                              .cpu = (int16_t)(cpu < 0 ? -1 : cpu > 32767 ? 32767 : cpu),
                              .type = EV_SWITCH});
    case 18: {
        if (pid < 0) {
            gd_pf_bad(c, GD_SKIP(SCHED_BLOCKED_REASON_WITHOUT_ITS_PID));
            return 0;
        }
        const char *fn = has_caller ? ksym_find(p, ksym_key(s, caller)) : NULL;
        return push(c, (srec){.ts = t, .a = pid, .state = io, .fn = fn, .type = EV_BLOCKED});
    }
    case 20:
        if (pid < 0) {
            gd_pf_bad(c, GD_SKIP(SCHED_WAKING_WITHOUT_ITS_PID));
            return 0;
        }
        if (s1 && (rc = gd_sched_name(p->st, pid, (const char *)s1, l1, c->err)))
            return rc;
        return push(c, (srec){.ts = t, .a = pid, .b = tid, .type = EV_WAKING});
    case 235:
        if (pid <= 0) /* 0: boot-time swapper tasks */
            return 0;
        if (s1 && (rc = gd_sched_name(p->st, pid, (const char *)s1, l1, c->err)))
            return rc;
        if (!(flags & 0x10000))
            rc = gd_sched_pid(p->st, pid, pid, c->err);
        if (rc)
            return rc;
        return push(c, (srec){.ts = t, .a = pid, .b = tid, .type = EV_NEWTASK});
    case 50:
    case 51:
        if (pid < 0 || tid < 0) {
            gd_pf_bad(c, GD_SKIP(BINDER_EVENT_WITHOUT_ITS_TRANSACTION_ID_OR));
            return 0;
        }
        return push(c, (srec){.ts = t, .a = tid, .b = pid, .state = io > 0,
                              .x = (int32_t)pid2, .y = (int32_t)raw, .code = (uint32_t)caller,
                              .flags = (uint32_t)flags,
                              .type = ev->num == 50 ? EV_BINDER_TX : EV_BINDER_RX});
    case 486:
        /* only failures end a call: the others are not kept */
        if (tid < 0 || !has_caller || !gd_binder_failure((int64_t)(caller & 0xffffffffu)))
            return 0;
        return push(c, (srec){.ts = t, .a = tid, .code = (uint32_t)caller, .type = EV_BINDER_RET});
    default:
        if (pid > 0 && s1)
            rc = gd_sched_name(p->st, pid, (const char *)s1, l1, c->err);
        return rc;
    }
}

/* One packed (or single) varint array: the next value, 1, or 0 at its end. */
static int packed_next(pb_cur *cur, uint64_t *v)
{
    if (cur->p >= cur->end)
        return 0;
    return pb_varint(&cur->p, cur->end, v) ? 1 : -1;
}

#define PS_MAX_INTERN 2048

int gd_pf_sched_compact(pctx *c, int cpu, pb_cur m)
{
    struct pf_sched *p = c->sched;
    pb_field f;
    int r, rc = 0;
    pb_cur sts = {0}, sst = {0}, spid = {0}, scomm = {0}, wts = {0}, wpid = {0}, wcomm = {0};
    const uint8_t *istr[PS_MAX_INTERN];
    size_t ilen[PS_MAX_INTERN], ni = 0;
    while ((r = pb_next(&m, &f)) == 1) {
        if (f.wt != PB_LEN)
            continue;
        pb_cur sub = pb_sub(&f);
        switch (f.num) {
        case 1: sts = sub; break;
        case 2: sst = sub; break;
        case 3: spid = sub; break;
        case 6: scomm = sub; break;
        case 7: wts = sub; break;
        case 8: wpid = sub; break;
        case 11: wcomm = sub; break;
        case 5:
            if (ni < PS_MAX_INTERN) {
                istr[ni] = f.data;
                ilen[ni++] = f.len;
            }
            break;
        default:
            break;
        }
    }
    if (r < 0) {
        gd_pf_bad(c, GD_SKIP(MALFORMED_COMPACT_SCHED));
        return 0;
    }
    /* the two arrays merged in time order (a switch first at equal times,
     * as Perfetto's tokenizer queues them): a waking's waker is the thread
     * on the CPU at that time */
    uint64_t sw_ts = 0, wk_ts = 0, v;
    int has_sw = packed_next(&sts, &v) == 1;
    if (has_sw)
        sw_ts = v;
    int has_wk = packed_next(&wts, &v) == 1;
    if (has_wk)
        wk_ts = v;
    while (!rc && (has_sw || has_wk)) {
        if (has_sw && (!has_wk || sw_ts <= wk_ts)) {
            uint64_t st = 0, np = 0, ci = 0;
            if (packed_next(&sst, &st) != 1 || packed_next(&spid, &np) != 1) {
                gd_pf_bad(c, GD_SKIP(COMPACT_SCHED_SWITCH_ARRAYS_OF_DIFFERENT));
                has_sw = 0;
                continue;
            }
            int hc = packed_next(&scomm, &ci) == 1;
            int64_t next = (int64_t)(int32_t)np;
            if (hc && ci < ni && (rc = gd_sched_name(p->st, next, (const char *)istr[ci], ilen[ci], c->err)))
                break;
            int64_t prev = cpu >= 0 && cpu < PS_MAX_CPUS ? p->cpu_tid[cpu] : -1;
            note_cpu(p, cpu, next);
            int64_t t = (int64_t)(sw_ts > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : sw_ts);
            if (prev < 0)
                gd_sink_skip(c->sink,
                             GD_SKIP(PERFETTO_COMPACT_SCHED_SWITCH_BEFORE_ITS_CPU),
                             c->pkno, 0);
            else
                rc = push(c, (srec){.ts = t, .a = prev, .b = next, .state = (int32_t)(uint16_t)st,
                                    .cpu = (int16_t)(cpu > 32767 ? 32767 : cpu), .type = EV_SWITCH});
            if ((has_sw = packed_next(&sts, &v) == 1))
                sw_ts += v;
        } else {
            uint64_t wp = 0, ci = 0;
            if (packed_next(&wpid, &wp) != 1) {
                gd_pf_bad(c, GD_SKIP(COMPACT_SCHED_WAKING_ARRAYS_OF_DIFFERENT));
                has_wk = 0;
                continue;
            }
            int hc = packed_next(&wcomm, &ci) == 1;
            int64_t wakee = (int64_t)(int32_t)wp;
            if (hc && ci < ni &&
                (rc = gd_sched_name(p->st, wakee, (const char *)istr[ci], ilen[ci], c->err)))
                break;
            int64_t waker = cpu >= 0 && cpu < PS_MAX_CPUS ? p->cpu_tid[cpu] : -1;
            int64_t t = (int64_t)(wk_ts > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : wk_ts);
            if (waker < 0)
                gd_sink_skip(c->sink, GD_SKIP(PERFETTO_COMPACT_SCHED_WAKING_BEFORE_ITS_CPU),
                             c->pkno, 0);
            else
                rc = push(c, (srec){.ts = t, .a = wakee, .b = waker, .type = EV_WAKING});
            if ((has_wk = packed_next(&wts, &v) == 1))
                wk_ts += v;
        }
    }
    return rc;
}
