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
 *   InternedData: kernel_symbols 26 (iid 1, str 2), read by perfetto.c;
 *   SystemInfo (packet field 45): utsname 1 (release 3): the kernel version
 *     that says how prev_state's bits read (Perfetto's default: 4.4).
 * sched_wakeup and sched_wakeup_new are counted, not used: Perfetto's
 * thread_state is built from sched_waking.
 *
 * Bundles are per CPU, so the events reach the reader out of time order:
 * they wait in a min-heap by time (small fixed records, a lane per CPU:
 * oheap.h) and go to the
 * tracker (ftrace_sched.h) once PF_SORT_WINDOW_MS older than the newest
 * one seen, or when PF_SORT_MAX wait.  What they say of a thread (its
 * comms, task_newtask's new thread and process, task_rename) goes with
 * them, in time order with its states (#51: interned comms, at most
 * GD_SCHED_MAX_NAMES with the blocked functions; past that a comm is not
 * kept).  Events older than gd_pf_sched_crop when they leave the heap are
 * dropped, as Perfetto crops (perfetto_int.h). */
#include "ftrace_binder.h"
#include "ftrace_sched.h"
#include "perfetto_int.h"

#define PS_MAX_CPUS 4096
#define PS_MAX_KSYMS 65536

#define PS_COMMS 1024 /* threads' last comms remembered (comm_of) */

/* The comm (len bytes, interned s) thread tid's last event gave. */
typedef struct ps_comm {
    int64_t tid;
    size_t len;
    const char *s;
} ps_comm;

enum { EV_SWITCH, EV_WAKING, EV_NEWTASK, EV_RENAME, EV_BLOCKED, EV_BINDER_TX, EV_BINDER_RX, EV_BINDER_RET };

typedef struct srec {
    int64_t ts;
    int64_t a, b;        /* switch: prev, next; waking: wakee, waker; newtask: new, parent */
    int32_t state;       /* switch: raw prev_state; blocked: io_wait (-1 unknown) */
    int16_t cpu;
    uint8_t type;
    const char *fn;      /* blocked: interned function */
    /* the names the event gives (interned comms, NULL none): switch: next
     * (comm), prev (comm2); waking, newtask, rename: the thread's */
    const char *comm, *comm2;
    long pkno;
    int32_t x, y;        /* binder: to_proc, to_thread */
    uint32_t code, flags;
} srec;

struct pf_sched {
    gd_sched *st;
    gd_binder *bd;       /* binder transactions (#26) */
    gd_oheap heap;       /* srec entries, in lanes by their bundle's CPU (+ 1: -1 unknown) */
    size_t lane;         /* the bundle's being read (gd_pf_sched_bundle) */
    int64_t max_ts;
    int kmajor, kminor;
    int64_t cpu_tid[PS_MAX_CPUS]; /* the thread the CPU's last switch put on it, -1 */
    gd_keytab ksyms;     /* (seq id + 1) << 40 ^ iid -> its name (an interned string) */
    /* #51: Perfetto crops ftrace data before tracing_started (the service
     * event's time) and, softly, before the latest of the CPUs' first
     * bundles' previous_bundle_end_timestamp (every per-CPU buffer valid) */
    int64_t crop_hard, crop_soft;
    int64_t tracing_started; /* 0 none */
    int preserve;        /* FtraceStats.preserve_ftrace_buffer: no hard crop */
    unsigned char cpu_seen[PS_MAX_CPUS];
    ps_comm comms[PS_COMMS]; /* by tid, direct-mapped (tid 0 unused: len 0) */
};

int gd_pf_sched_new(pctx *c)
{
    struct pf_sched *p = calloc(1, sizeof *p);
    if (!p || !(p->st = gd_sched_new(c->sink, "perfetto")) ||
        !(p->bd = gd_binder_new(c->sink, "perfetto"))) {
        if (p)
            gd_sched_free(p->st);
        free(p);
        return gd_error_oom(c->err);
    }
    for (size_t i = 0; i < PS_MAX_CPUS; i++)
        p->cpu_tid[i] = -1;
    p->max_ts = INT64_MIN;
    gd_oheap_init_lanes(&p->heap, sizeof(srec), PS_MAX_CPUS + 1);
    gd_sched_set_lookup(p->st, gd_atrace_thread_info, c->at);
    gd_binder_set_process_names(p->bd, gd_atrace_process_of, c->at);
    gd_binder_set_thread_lookup(p->bd, gd_atrace_thread_info, c->at);
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

/* Names thread tid as an event did, in time order with its states. */
static int name_at(pctx *c, int64_t tid, const char *comm)
{
    return gd_sched_name_interned(c->sched->st, tid, comm, c->err);
}

/* task_newtask (#51): a new thread; a tid the trace already had for
 * another process's thread is that thread no longer (its names forgotten). */
static int new_thread(pctx *c, const srec *r)
{
    int64_t pid;
    const char *comm = r->comm ? r->comm : "";
    int rc = gd_sched_thread_start(c->sched->st, r->ts, r->a, r->b, r->flags, comm, strlen(comm), &pid,
                                   r->pkno, c->err);
    return rc ? rc : gd_atrace_thread_start(c->at, r->a, pid);
}

static int deliver(pctx *c, const srec *r)
{
    struct pf_sched *p = c->sched;
    int rc;
    if (r->ts < gd_pf_sched_crop(c)) {
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_FTRACE_EVENT_BEFORE_TRACING_STARTED), r->pkno, 0);
        return 0;
    }
    switch (r->type) {
    case EV_SWITCH:
        if ((rc = name_at(c, r->a, r->comm2)) || (rc = name_at(c, r->b, r->comm)))
            return rc;
        return gd_sched_switch(p->st, r->ts, r->cpu, r->a,
                               gd_sched_state_from_raw(r->state, p->kmajor, p->kminor), r->b, r->pkno,
                               c->err);
    case EV_WAKING:
        return (rc = name_at(c, r->a, r->comm)) ? rc : gd_sched_waking(p->st, r->ts, r->a, r->b, r->pkno, c->err);
    case EV_NEWTASK:
        return new_thread(c, r);
    case EV_RENAME:
        return name_at(c, r->a, r->comm);
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
    srec *slot = gd_oheap_push_lane(&p->heap, gd_oheap_key_i64(r.ts), p->lane);
    if (!slot)
        return gd_error_oom_at(c->err, c->pkno, 0);
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

/* ---- cropping (#51) ---- */

void gd_pf_sched_tracing_started(pctx *c, uint64_t ts, int preserve)
{
    struct pf_sched *p = c->sched;
    int64_t t = (int64_t)(ts > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : ts);
    if (!p)
        return;
    if (preserve)
        p->preserve = 1;
    else if (t > p->tracing_started)
        p->tracing_started = t;
    p->crop_hard = p->preserve ? 0 : p->tracing_started;
}

void gd_pf_sched_bundle(pctx *c, int cpu, int has_end, uint64_t end)
{
    struct pf_sched *p = c->sched;
    if (!p)
        return;
    /* the bundle's events go in its CPU's lane of the time-order heap: a
     * CPU's events come in time order (#50); unknown CPUs share lane 0 */
    p->lane = cpu >= 0 && cpu < PS_MAX_CPUS ? (size_t)cpu + 1 : 0;
    if (cpu < 0 || cpu >= PS_MAX_CPUS || p->cpu_seen[cpu])
        return;
    p->cpu_seen[cpu] = 1; /* only a CPU's first bundle says where its data begins */
    int64_t t = (int64_t)(end > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : end);
    if (has_end && t > p->crop_soft)
        p->crop_soft = t;
}

int64_t gd_pf_sched_crop(const pctx *c)
{
    const struct pf_sched *p = c->sched;
    return !p ? 0 : p->crop_hard > p->crop_soft ? p->crop_hard : p->crop_soft;
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
        return gd_error_oom_at(c->err, c->pkno, 0);
    e->val = (void *)name;
    return 0;
}

static uint64_t ksym_key(const pseq *s, uint64_t iid)
{
    return (((uint64_t)(s ? s->id : 0) + 1) << 40) ^ iid;
}

/* InternedData's kernel_symbols: InternedString {iid 1, str 2}. */
int gd_pf_sched_interned(pctx *c, pseq *s, const pf_interned *e)
{
    if (e->malformed || !e->str.p) {
        gd_pf_bad(c, GD_SKIP(MALFORMED_INTERNED_KERNEL_SYMBOL));
        return 0;
    }
    const char *name = gd_sched_intern(c->sched->st, (const char *)e->str.p, e->str.n);
    return name ? ksym_put(c, ksym_key(s, e->iid), name) : 0;
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

/* FtraceEvent's fields that are scheduling or binder events. */
enum {
    FT_SCHED_SWITCH = 4,
    FT_SCHED_WAKEUP = 17,
    FT_SCHED_BLOCKED_REASON = 18,
    FT_SCHED_WAKING = 20,
    FT_BINDER_TRANSACTION = 50,
    FT_BINDER_TRANSACTION_RECEIVED = 51,
    FT_SCHED_WAKEUP_NEW = 114,
    FT_TASK_NEWTASK = 235,
    FT_TASK_RENAME = 236,
    FT_BINDER_RETURN = 486,
};

/* Where and when one event happened: its bundle's cpu, its BOOTTIME ns
 * (capped at INT64_MAX), the thread that wrote it, its sequence. */
typedef struct ev_at {
    int cpu;
    int64_t ts;
    int64_t tid;
    pseq *seq;
} ev_at;

/* A thread's name as an event gives it (comm), interned to reach the
 * tracker in time order with the event (NULL: none, or the table full).
 * The name thread tid had last time is compared first (#50: a thread's
 * comm is the same in nearly all its events). */
static const char *comm_of(pctx *c, int64_t tid, pb_bytes comm)
{
    if (!comm.p || !comm.n)
        return NULL;
    ps_comm *e = &c->sched->comms[(uint64_t)tid & (PS_COMMS - 1)];
    if (e->tid == tid && e->len == comm.n && memcmp(e->s, comm.p, comm.n) == 0)
        return e->s;
    const char *s = gd_sched_intern(c->sched->st, (const char *)comm.p, comm.n);
    if (s && comm.n <= GD_SCHED_MAX_FN) /* longer: interned cut short */
        *e = (ps_comm){tid, comm.n, s};
    return s;
}

/* Counts an event passed over, why (gd_pf_bad); 0: reading goes on. */
static int skip(pctx *c, const char *why)
{
    gd_pf_bad(c, why);
    return 0;
}

static int16_t cpu16(int cpu)
{
    return (int16_t)(cpu < 0 ? -1 : cpu > 32767 ? 32767 : cpu);
}

/* SchedSwitchFtraceEvent: prev_comm 1, prev_pid 2, prev_state 4, next_comm 5, next_pid 6. */
static int on_switch(pctx *c, const ev_at *at, pb_cur m)
{
    int64_t prev = -1, next = -1;
    uint64_t prev_state = 0;
    pb_bytes prev_comm = {0}, next_comm = {0};
    const pb_want want[] = {{1, PBW_BYTES, &prev_comm}, {2, PBW_I32, &prev},
                            {4, PBW_U64, &prev_state}, {5, PBW_BYTES, &next_comm},
                            {6, PBW_I32, &next}};
    if (pb_read_wanted(m, PB_WANTS(want)) < 0)
        return skip(c, GD_SKIP(MALFORMED_SCHED_EVENT));
    if (prev < 0 || next < 0)
        return skip(c, GD_SKIP(SCHED_SWITCH_WITHOUT_ITS_PIDS));
    note_cpu(c->sched, at->cpu, next);
    return push(c, (srec){.ts = at->ts, .a = prev, .b = next,
                          .state = (int32_t)(uint16_t)prev_state, .cpu = cpu16(at->cpu),
                          .type = EV_SWITCH, .comm = comm_of(c, next, next_comm),
                          .comm2 = comm_of(c, prev, prev_comm)});
}

/* SchedBlockedReasonFtraceEvent: pid 1, caller 2 (an interned kernel symbol), io_wait 3. */
static int on_blocked(pctx *c, const ev_at *at, pb_cur m)
{
    int64_t pid = -1;
    uint64_t caller = 0;
    int io_wait = -1;
    const pb_want want[] = {{1, PBW_I32, &pid}, {2, PBW_U64, &caller}, {3, PBW_BOOL, &io_wait}};
    int64_t seen = pb_read_wanted(m, PB_WANTS(want));
    if (seen < 0)
        return skip(c, GD_SKIP(MALFORMED_SCHED_EVENT));
    if (pid < 0)
        return skip(c, GD_SKIP(SCHED_BLOCKED_REASON_WITHOUT_ITS_PID));
    const char *fn = (seen & 2) ? ksym_find(c->sched, ksym_key(at->seq, caller)) : NULL;
    return push(c, (srec){.ts = at->ts, .a = pid, .state = io_wait, .fn = fn, .type = EV_BLOCKED});
}

/* SchedWakingFtraceEvent: comm 1, pid 2 (the wakee; the writer wakes it). */
static int on_waking(pctx *c, const ev_at *at, pb_cur m)
{
    int64_t pid = -1;
    pb_bytes comm = {0};
    const pb_want want[] = {{1, PBW_BYTES, &comm}, {2, PBW_I32, &pid}};
    if (pb_read_wanted(m, PB_WANTS(want)) < 0)
        return skip(c, GD_SKIP(MALFORMED_SCHED_EVENT));
    if (pid < 0)
        return skip(c, GD_SKIP(SCHED_WAKING_WITHOUT_ITS_PID));
    return push(c, (srec){.ts = at->ts, .a = pid, .b = at->tid, .type = EV_WAKING, .comm = comm_of(c, pid, comm)});
}

/* TaskNewtaskFtraceEvent: pid 1, comm 2, clone_flags 3 (CLONE_THREAD
 * 0x10000: a thread of the writer's process, else a process of its own). */
static int on_newtask(pctx *c, const ev_at *at, pb_cur m)
{
    int64_t pid = -1;
    uint64_t clone_flags = 0;
    pb_bytes comm = {0};
    const pb_want want[] = {{1, PBW_I32, &pid}, {2, PBW_BYTES, &comm}, {3, PBW_U64, &clone_flags}};
    if (pb_read_wanted(m, PB_WANTS(want)) < 0)
        return skip(c, GD_SKIP(MALFORMED_SCHED_EVENT));
    if (pid <= 0) /* 0: boot-time swapper tasks */
        return 0;
    return push(c, (srec){.ts = at->ts, .a = pid, .b = at->tid, .type = EV_NEWTASK,
                          .flags = (uint32_t)clone_flags, .comm = comm_of(c, pid, comm)});
}

/* TaskRenameFtraceEvent: pid 1, newcomm 3. */
static int on_rename(pctx *c, const ev_at *at, pb_cur m)
{
    int64_t pid = -1;
    pb_bytes newcomm = {0};
    const pb_want want[] = {{1, PBW_I32, &pid}, {3, PBW_BYTES, &newcomm}};
    if (pb_read_wanted(m, PB_WANTS(want)) < 0)
        return skip(c, GD_SKIP(MALFORMED_SCHED_EVENT));
    return pid > 0 ? push(c, (srec){.ts = at->ts, .a = pid, .type = EV_RENAME, .comm = comm_of(c, pid, newcomm)})
                   : 0;
}

/* BinderTransactionFtraceEvent: debug_id 1, to_proc 3, to_thread 4, reply
 * 5, code 6, flags 7; BinderTransactionReceivedFtraceEvent: debug_id 1. */
static int on_binder(pctx *c, const ev_at *at, pb_cur m, int received)
{
    int64_t debug_id = -1, to_proc = -1, to_thread = 0;
    uint64_t code = 0, flags = 0;
    int reply = 0;
    const pb_want want[] = {{1, PBW_I32, &debug_id}, {3, PBW_I32, &to_proc},
                            {4, PBW_I32, &to_thread}, {5, PBW_BOOL, &reply},
                            {6, PBW_U64, &code}, {7, PBW_U64, &flags}};
    if (pb_read_wanted(m, PB_WANTS(want)) < 0)
        return skip(c, GD_SKIP(MALFORMED_SCHED_EVENT));
    if (debug_id < 0 || at->tid < 0)
        return skip(c, GD_SKIP(BINDER_EVENT_WITHOUT_ITS_TRANSACTION_ID_OR));
    return push(c, (srec){.ts = at->ts, .a = at->tid, .b = debug_id, .state = reply,
                          .x = (int32_t)to_proc, .y = (int32_t)to_thread, .code = (uint32_t)code,
                          .flags = (uint32_t)flags,
                          .type = received ? EV_BINDER_RX : EV_BINDER_TX});
}

/* BinderReturnFtraceEvent: cmd 1; only failures end a call (the others are not kept). */
static int on_binder_return(pctx *c, const ev_at *at, pb_cur m)
{
    uint64_t cmd = 0;
    const pb_want want[] = {{1, PBW_U64, &cmd}};
    int64_t seen = pb_read_wanted(m, PB_WANTS(want));
    if (seen < 0)
        return skip(c, GD_SKIP(MALFORMED_SCHED_EVENT));
    if (at->tid < 0 || !seen || !gd_binder_failure((int64_t)(cmd & 0xffffffffu)))
        return 0;
    return push(c, (srec){.ts = at->ts, .a = at->tid, .code = (uint32_t)cmd, .type = EV_BINDER_RET});
}

int gd_pf_sched_event(pctx *c, pseq *s, int cpu, uint64_t ts, int64_t tid, const pb_field *ev,
                      int *used)
{
    ev_at at = {cpu, (int64_t)(ts > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : ts), tid, s};
    pb_cur m = pb_sub(ev);
    *used = 1;
    switch (ev->num) {
    case FT_SCHED_SWITCH:
        return on_switch(c, &at, m);
    case FT_SCHED_BLOCKED_REASON:
        return on_blocked(c, &at, m);
    case FT_SCHED_WAKING:
        return on_waking(c, &at, m);
    case FT_TASK_NEWTASK:
        return on_newtask(c, &at, m);
    case FT_TASK_RENAME:
        return on_rename(c, &at, m);
    case FT_BINDER_TRANSACTION:
    case FT_BINDER_TRANSACTION_RECEIVED:
        return on_binder(c, &at, m, ev->num == FT_BINDER_TRANSACTION_RECEIVED);
    case FT_BINDER_RETURN:
        return on_binder_return(c, &at, m);
    case FT_SCHED_WAKEUP:
    case FT_SCHED_WAKEUP_NEW:
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_SCHED_WAKEUP_THREAD_STATES), c->pkno, 0);
        return 0;
    default:
        *used = 0;
        return 0;
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

/* A CPU's first compact switch: no previous thread, so no state (as
 * Perfetto); only the next thread's name counts. */
static int first_compact_switch(pctx *c, int64_t next, const char *comm)
{
    gd_sink_skip(c->sink, GD_SKIP(PERFETTO_COMPACT_SCHED_SWITCH_BEFORE_ITS_CPU), c->pkno, 0);
    return name_at(c, next, comm);
}

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
            const char *comm = hc && ci < ni ? comm_of(c, next, (pb_bytes){istr[ci], ilen[ci]}) : NULL;
            int64_t prev = cpu >= 0 && cpu < PS_MAX_CPUS ? p->cpu_tid[cpu] : -1;
            int64_t t = (int64_t)(sw_ts > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : sw_ts);
            if (t < p->crop_hard) /* as if never read: not its CPU's thread */
                gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_FTRACE_EVENT_BEFORE_TRACING_STARTED),
                             c->pkno, 0);
            else if (note_cpu(p, cpu, next), prev < 0)
                rc = first_compact_switch(c, next, comm);
            else
                rc = push(c, (srec){.ts = t, .a = prev, .b = next, .state = (int32_t)(uint16_t)st,
                                    .cpu = (int16_t)(cpu > 32767 ? 32767 : cpu), .type = EV_SWITCH,
                                    .comm = comm});
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
            const char *comm = hc && ci < ni ? comm_of(c, wakee, (pb_bytes){istr[ci], ilen[ci]}) : NULL;
            int64_t waker = cpu >= 0 && cpu < PS_MAX_CPUS ? p->cpu_tid[cpu] : -1;
            int64_t t = (int64_t)(wk_ts > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : wk_ts);
            if (waker < 0)
                gd_sink_skip(c->sink, GD_SKIP(PERFETTO_COMPACT_SCHED_WAKING_BEFORE_ITS_CPU),
                             c->pkno, 0);
            else
                rc = push(c, (srec){.ts = t, .a = wakee, .b = waker, .type = EV_WAKING, .comm = comm});
            if ((has_wk = packed_next(&wts, &v) == 1))
                wk_ts += v;
        }
    }
    return rc;
}
