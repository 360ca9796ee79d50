/* ftrace_sched.c - thread states from scheduling events (Perfetto's thread_state rules). */
#include "ftrace_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/skip_reasons.h"

#include "core/row.h"

#define ST_RUNNING (-1) /* the state code of "Running"; others are GD_TS_* flags */

typedef struct srow {
    int64_t ts, end;     /* ns; end -1: no end (open, or lost data) */
    int code;            /* ST_RUNNING or GD_TS_* flags (0: "R")     */
    int cpu;
    int io_wait;
    int64_t waker;
    const char *fn;
} srow;

typedef struct sthr {
    int64_t tid;         /* -1: empty slot */
    int64_t pid;         /* -1 unknown */
    int64_t joined;      /* CLONE_THREAD: the thread whose process it joined, -1 */
    char name[16];
    const char *comm;    /* the interned name name[] was last set from (gd_sched_name_interned), NULL */
    unsigned char has_open, has_held, blocked_open, named;
    srow open, held;
} sthr;

typedef struct sname {
    char *s;
    size_t len;
} sname;

struct gd_sched {
    const gd_sink *sink;
    char prefix[16];
    char reason[96];
    sthr *th;
    size_t cap, n;
    sname *names;
    size_t ncap, nn;
    int64_t last_ts;
    unsigned long events, states;
    gd_sched_lookup_fn lookup;
    void *lookup_ctx;
    gd_event tmpl;       /* a thread state as gd_event_init makes it, copied for each (#50) */
};

gd_sched *gd_sched_new(const gd_sink *sink, const char *prefix)
{
    gd_sched *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->sink = sink;
    snprintf(s->prefix, sizeof s->prefix, "%s", prefix);
    s->last_ts = INT64_MIN;
    gd_event_init(&s->tmpl, GD_EV_THREAD_STATE);
    return s;
}

void gd_sched_free(gd_sched *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->ncap; i++)
        free(s->names[i].s);
    free(s->names);
    free(s->th);
    free(s);
}

void gd_sched_set_lookup(gd_sched *s, gd_sched_lookup_fn fn, void *ctx)
{
    s->lookup = fn;
    s->lookup_ctx = ctx;
}

unsigned long gd_sched_events(const gd_sched *s) { return s->events; }
unsigned long gd_sched_states(const gd_sched *s) { return s->states; }

static void skip(gd_sched *s, const char *what, long line)
{
    snprintf(s->reason, sizeof s->reason, "%s: %s", s->prefix, what);
    gd_sink_skip(s->sink, s->reason, line, 0);
}

/* ---- task states ---- */

int gd_sched_state_from_raw(int64_t raw64, int kmajor, int kminor)
{
    unsigned raw = (unsigned)(uint16_t)raw64;
    int f = (int)(raw & 0x3f);
    if (kmajor == 0)
        kmajor = 4, kminor = 4;
    if (kmajor > 4 || (kmajor == 4 && kminor >= 14)) {
        if (raw & 0x40)
            f |= GD_TS_P;
        if (raw & 0x80)
            f |= GD_TS_I;
        if (raw & 0x100)
            f |= GD_TS_PREEMPT;
        if (raw & 0xfe00)
            return GD_TS_INVALID;
        return f;
    }
    if (raw & 0x40)
        f |= GD_TS_x;
    if (raw & 0x80)
        f |= GD_TS_K;
    if (raw & 0x100)
        f |= GD_TS_W;
    if (raw & 0x200)
        f |= GD_TS_P;
    if (raw & 0x400)
        f |= GD_TS_N;
    if (f == (GD_TS_D | GD_TS_N))
        f = GD_TS_I;
    if ((kmajor == 4 && kminor >= 8) ? (raw & 0x1000) : (raw & 0x800))
        f |= GD_TS_PREEMPT;
    return f;
}

static const struct {
    int flag;
    char c;
} LETTERS[] = {
    {GD_TS_S, 'S'}, {GD_TS_D, 'D'}, {GD_TS_T, 'T'}, {GD_TS_t, 't'}, {GD_TS_X, 'X'},
    {GD_TS_Z, 'Z'}, {GD_TS_P, 'P'}, {GD_TS_x, 'x'}, {GD_TS_K, 'K'}, {GD_TS_W, 'W'},
    {GD_TS_N, 'N'}, {GD_TS_I, 'I'},
};

int gd_sched_state_from_text(const char *s, size_t n)
{
    if (!n)
        return GD_TS_INVALID;
    if (s[0] == 'R')
        return n == 2 && s[1] == '+' ? GD_TS_PREEMPT : n == 1 ? 0 : GD_TS_INVALID;
    int f = 0;
    for (size_t i = 0; i < n; i++) {
        int hit = 0;
        for (size_t k = 0; k < sizeof LETTERS / sizeof *LETTERS; k++)
            if (LETTERS[k].c == s[i])
                f |= LETTERS[k].flag, hit = 1;
        if (!hit && s[i] != '|')
            return GD_TS_INVALID;
    }
    return f;
}

/* The state's name as Perfetto writes it, in buf; NULL for an invalid one. */
static const char *state_name(int code, char *buf)
{
    if (code == ST_RUNNING)
        return "Running";
    if (code & GD_TS_INVALID)
        return NULL;
    if (!(code & ~GD_TS_PREEMPT))
        return code & GD_TS_PREEMPT ? "R+" : "R";
    size_t p = 0;
    for (size_t k = 0; k < sizeof LETTERS / sizeof *LETTERS; k++)
        if (code & LETTERS[k].flag)
            buf[p++] = LETTERS[k].c;
    buf[p] = 0;
    return buf;
}

static int is_running(int code) { return code == ST_RUNNING; }
static int is_runnable(int code) { return code != ST_RUNNING && !(code & ~GD_TS_PREEMPT); }
static int is_blocked(int code) { return !is_running(code) && !is_runnable(code); }

/* ---- threads ---- */

static size_t hash_tid(int64_t tid, size_t cap)
{
    uint64_t h = (uint64_t)tid * 0x9E3779B97F4A7C15ull;
    return (size_t)((h ^ (h >> 29)) & (cap - 1));
}

static sthr *find(gd_sched *s, int64_t tid)
{
    if (!s->cap)
        return NULL;
    for (size_t i = hash_tid(tid, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (s->th[i].tid == tid)
            return &s->th[i];
        if (s->th[i].tid == -1)
            return NULL;
    }
}

static int grow(gd_sched *s)
{
    size_t nc = s->cap ? s->cap * 2 : 1024;
    sthr *n = malloc(nc * sizeof *n);
    if (!n)
        return -1;
    for (size_t i = 0; i < nc; i++)
        n[i].tid = -1;
    for (size_t i = 0; i < s->cap; i++) {
        if (s->th[i].tid == -1)
            continue;
        size_t j = hash_tid(s->th[i].tid, nc);
        while (n[j].tid != -1)
            j = (j + 1) & (nc - 1);
        n[j] = s->th[i];
    }
    free(s->th);
    s->th = n;
    s->cap = nc;
    return 0;
}

/* The state of thread tid, created on first use; NULL when full (counted)
 * or out of memory (err set). */
static sthr *thread_of(gd_sched *s, int64_t tid, long line, gd_error *err)
{
    sthr *t = find(s, tid);
    if (t)
        return t;
    if (s->n >= GD_SCHED_MAX_THREADS) {
        skip(s, GD_SKIP(SCHED_TOO_MANY_THREADS), line);
        return NULL;
    }
    if ((s->n + 1) * 2 > s->cap && grow(s)) {
        gd_error_oom_at(err, line, 0);
        return NULL;
    }
    size_t i = hash_tid(tid, s->cap);
    while (s->th[i].tid != -1)
        i = (i + 1) & (s->cap - 1);
    t = &s->th[i];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    t->pid = -1;
    t->joined = -1;
    s->n++;
    return t;
}

/* name[] of thread t from comm (len bytes). */
static void set_name(sthr *t, const char *comm, size_t len)
{
    /* the scheduler's name is the kernel's 15-byte comm; a longer name (a
     * process's cmdline from a process tree) keeps its first 15 bytes,
     * at a character boundary, not counted as a cut: that bound is the
     * kernel's, and the full name is kept by the thread rows */
    len = gd_utf8_cut(comm, len, sizeof t->name - 1);
    if (strlen(t->name) != len || memcmp(t->name, comm, len) != 0) {
        memcpy(t->name, comm, len);
        t->name[len] = 0;
        t->named = 0;
    }
}

int gd_sched_name(gd_sched *s, int64_t tid, const char *comm, size_t len, gd_error *err)
{
    if (tid <= 0 || !len)
        return 0;
    sthr *t = thread_of(s, tid, 0, err);
    if (!t)
        return err->code;
    set_name(t, comm, len);
    t->comm = NULL;
    return 0;
}

int gd_sched_name_interned(gd_sched *s, int64_t tid, const char *comm, gd_error *err)
{
    if (tid <= 0 || !comm || !*comm)
        return 0;
    sthr *t = thread_of(s, tid, 0, err);
    if (!t)
        return err->code;
    if (t->comm != comm) { /* #50: the same comm again is most events' */
        set_name(t, comm, strlen(comm));
        t->comm = comm;
    }
    return 0;
}

int gd_sched_pid(gd_sched *s, int64_t tid, int64_t pid, gd_error *err)
{
    if (tid <= 0 || pid < 0)
        return 0;
    sthr *t = thread_of(s, tid, 0, err);
    if (!t)
        return err->code;
    if (t->pid != pid)
        t->named = 0;
    t->pid = pid;
    return 0;
}

/* A name's hash, eight bytes at a time (#50: a comm's bytes one at a time
 * were 1 % of a sched-heavy ingest). */
static uint64_t hash_name(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull ^ len, w;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 32;
    }
    if (i < len) {
        w = 0;
        memcpy(&w, s + i, len - i);
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 32;
    }
    return h;
}

const char *gd_sched_intern(gd_sched *s, const char *name, size_t len)
{
    if (len > GD_SCHED_MAX_FN)
        len = GD_SCHED_MAX_FN;
    uint64_t h = hash_name(name, len);
    if (s->ncap) {
        for (size_t i = (size_t)h & (s->ncap - 1);; i = (i + 1) & (s->ncap - 1)) {
            if (!s->names[i].s)
                break;
            if (s->names[i].len == len && memcmp(s->names[i].s, name, len) == 0)
                return s->names[i].s;
        }
    }
    if (s->nn >= GD_SCHED_MAX_NAMES)
        return NULL;
    if ((s->nn + 1) * 2 > s->ncap) {
        size_t nc = s->ncap ? s->ncap * 2 : 256;
        sname *n = calloc(nc, sizeof *n);
        if (!n)
            return NULL;
        for (size_t i = 0; i < s->ncap; i++) {
            if (!s->names[i].s)
                continue;
            size_t j = (size_t)hash_name(s->names[i].s, s->names[i].len) & (nc - 1);
            while (n[j].s)
                j = (j + 1) & (nc - 1);
            n[j] = s->names[i];
        }
        free(s->names);
        s->names = n;
        s->ncap = nc;
    }
    size_t i = (size_t)h & (s->ncap - 1);
    while (s->names[i].s)
        i = (i + 1) & (s->ncap - 1);
    char *c = malloc(len + 1);
    if (!c)
        return NULL;
    memcpy(c, name, len);
    c[len] = 0;
    s->names[i].s = c;
    s->names[i].len = len;
    s->nn++;
    return c;
}

/* ---- intervals ---- */

/* The process of thread tid: the caller's (lookup) when it knows it, else
 * the sched events' own, else (a thread that joined another's process)
 * that thread's, a few links deep; -1 unknown. */
static int64_t process_of(gd_sched *s, int64_t tid)
{
    for (int depth = 0; depth < 8 && tid > 0; depth++) {
        sthr *t = find(s, tid);
        int64_t pid = -1;
        const char *nm = NULL;
        if (s->lookup && s->lookup(s->lookup_ctx, tid, &pid, &nm) && pid >= 0)
            return pid;
        if (!t)
            return -1;
        if (t->pid >= 0)
            return t->pid;
        tid = t->joined;
    }
    return -1;
}

static int emit(gd_sched *s, sthr *t, const srow *r, gd_error *err)
{
    gd_event ev = s->tmpl;
    char buf[16];
    ev.ts = (double)r->ts / 1e6;
    ev.tid = t->tid;
    ev.pid = t->pid;
    const char *name = t->name[0] ? t->name : NULL;
    if (s->lookup) {
        int64_t pid = -1;
        const char *nm = name; /* in: the comm; out: the caller's name */
        if (s->lookup(s->lookup_ctx, t->tid, &pid, &nm)) {
            if (pid >= 0)
                ev.pid = pid;
            if (nm)
                name = nm;
        }
    }
    if (ev.pid < 0)
        ev.pid = t->joined >= 0 ? process_of(s, t->joined) : -1;
    /* the name once per thread (again when it or the process changes):
     * the store keeps it.  While the process is unknown it goes with pid
     * -1, a thread of no process (#51: Perfetto's upid NULL), and once
     * more when a later state knows the process (named: 1 without, 2 with) */
    if (name && (!t->named || (t->named == 1 && ev.pid >= 0))) {
        ev.thread = name;
        t->named = ev.pid >= 0 ? 2 : 1;
        if (ev.pid >= 0 && ev.pid != t->pid)
            t->pid = ev.pid;
    }
    gd_thread_state_ev *u = &ev.u.thread_state;
    u->dur = r->end >= 0 ? (double)(r->end - r->ts) / 1e6 : GD_NONE;
    u->state = state_name(r->code, buf);
    u->io_wait = r->io_wait;
    u->blocked_function = r->fn;
    u->cpu = r->cpu;
    u->waker_tid = r->waker;
    s->states++;
    return gd_sink_event(s->sink, &ev, err);
}

static int flush_held(gd_sched *s, sthr *t, gd_error *err)
{
    if (!t->has_held)
        return 0;
    t->has_held = 0;
    return emit(s, t, &t->held, err);
}

/* Perfetto's ClosePendingState: the open interval ends at `end` (lost
 * data: without an end).  A blocked interval is held back for its
 * blocked reason until the thread runs again. */
static int close_open(gd_sched *s, sthr *t, int64_t end, int lost, gd_error *err)
{
    if (!t->has_open)
        return 0;
    t->has_open = 0;
    t->open.end = lost ? -1 : end;
    if (t->blocked_open && is_blocked(t->open.code)) {
        int rc = flush_held(s, t, err);
        t->held = t->open;
        t->has_held = 1;
        return rc;
    }
    return emit(s, t, &t->open, err);
}

/* Perfetto's AddOpenState. */
static int open_state(gd_sched *s, sthr *t, int64_t ts, int code, int cpu, int64_t waker,
                      gd_error *err)
{
    int rc = 0;
    if (t->has_open) /* a new task over an open state: that one stays open */
        rc = emit(s, t, &t->open, err);
    t->has_open = 1;
    t->open = (srow){ts, -1, code, cpu, -1, waker, NULL};
    if (!rc && is_running(code)) {
        rc = flush_held(s, t, err);
        t->blocked_open = 0;
    } else if (!rc && is_blocked(code)) {
        rc = flush_held(s, t, err);
        t->blocked_open = 1;
    }
    return rc;
}

/* 1 when the event may go on (time order kept), 0 when skipped. */
static int in_order(gd_sched *s, int64_t ts, long line)
{
    s->events++;
    if (ts < s->last_ts) {
        skip(s, GD_SKIP(SCHED_EVENT_OUT_OF_TIME_ORDER), line);
        return 0;
    }
    s->last_ts = ts;
    return 1;
}

int gd_sched_switch(gd_sched *s, int64_t ts, int cpu, int64_t prev, int prev_state, int64_t next,
                    long line, gd_error *err)
{
    if (!in_order(s, ts, line))
        return 0;
    int rc;
    if (prev > 0) {
        sthr *t = thread_of(s, prev, line, err);
        if (!t)
            return err->code;
        int lost = t->has_open && !is_running(t->open.code);
        if (lost)
            skip(s, GD_SKIP(SCHED_SWITCH_OUT_OF_A_THREAD_THAT_WAS_NOT), line);
        if ((rc = close_open(s, t, ts, lost, err)) ||
            (rc = open_state(s, t, ts, prev_state, -1, -1, err)))
            return rc;
    }
    if (next > 0) {
        sthr *t = thread_of(s, next, line, err);
        if (!t)
            return err->code;
        if ((rc = close_open(s, t, ts, 0, err)) || (rc = open_state(s, t, ts, ST_RUNNING, cpu, -1, err)))
            return rc;
    }
    return 0;
}

int gd_sched_waking(gd_sched *s, int64_t ts, int64_t tid, int64_t waker, long line, gd_error *err)
{
    if (!in_order(s, ts, line) || tid <= 0)
        return 0;
    sthr *t = thread_of(s, tid, line, err);
    if (!t)
        return err->code;
    if (t->has_open && !is_blocked(t->open.code))
        return 0; /* already running or runnable: Perfetto's spurious wakeup */
    int rc = close_open(s, t, ts, 0, err);
    return rc ? rc : open_state(s, t, ts, 0, -1, waker, err);
}


/* Everything of thread t still held or open comes out as it is (an open
 * state without an end, as Perfetto leaves a thread's last one). */
static int put_out(gd_sched *s, sthr *t, gd_error *err)
{
    int rc = flush_held(s, t, err);
    if (!rc && t->has_open) {
        t->has_open = 0;
        t->open.end = -1;
        rc = emit(s, t, &t->open, err);
    }
    return rc;
}
int gd_sched_thread_start(gd_sched *s, int64_t ts, int64_t tid, int64_t parent, uint64_t clone_flags,
                          const char *comm, size_t len, int64_t *pid, long line, gd_error *err)
{
    *pid = -1;
    if (!in_order(s, ts, line) || tid <= 0)
        return 0;
    sthr *t = thread_of(s, tid, line, err);
    if (!t)
        return err->code;
    /* the tid's earlier thread: its states come out as they are (an open
     * one without an end, as Perfetto leaves the old thread's) */
    int rc = put_out(s, t, err);
    if (rc)
        return rc;
    t->pid = t->joined = -1;
    t->name[0] = 0;
    t->comm = NULL;
    t->named = t->blocked_open = 0;
    if ((rc = gd_sched_name(s, tid, comm, len, err)))
        return rc;
    if (!(clone_flags & GD_CLONE_THREAD))
        t->pid = tid;
    else if ((t->pid = process_of(s, parent)) < 0)
        t->joined = parent;
    *pid = t->pid;
    return open_state(s, t, ts, 0, -1, parent, err);
}

int gd_sched_blocked(gd_sched *s, int64_t ts, int64_t tid, int io_wait, const char *fn, long line,
                     gd_error *err)
{
    if (!in_order(s, ts, line) || tid <= 0)
        return 0;
    sthr *t = thread_of(s, tid, line, err);
    if (!t)
        return err->code;
    if (!t->blocked_open)
        return 0; /* no blocked interval to explain */
    srow *r = t->has_held ? &t->held : t->has_open ? &t->open : NULL;
    if (!r)
        return 0;
    if (io_wait >= 0)
        r->io_wait = io_wait;
    if (fn)
        r->fn = fn;
    return 0;
}

int gd_sched_finish(gd_sched *s, gd_error *err)
{
    for (size_t i = 0; i < s->cap; i++) {
        sthr *t = &s->th[i];
        if (t->tid == -1)
            continue;
        int rc = put_out(s, t, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- ftrace text (systrace) ---- */

/* The value of "KEY=" in p[0..n) (KEY at the start or after a space), up to
 * the next space, or up to " UNTIL" when UNTIL is given (comms hold
 * spaces).  1 with *v, *vl set, else 0. */
static int kv(const char *p, size_t n, const char *key, const char *until, const char **v, size_t *vl)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl <= n; i++) {
        if ((i && p[i - 1] != ' ') || memcmp(p + i, key, kl) != 0)
            continue;
        size_t b = i + kl, e = b;
        if (until) {
            size_t ul = strlen(until);
            e = n;
            for (size_t j = b; j + ul + 1 <= n; j++)
                if (p[j] == ' ' && memcmp(p + j + 1, until, ul) == 0) {
                    e = j;
                    break;
                }
        } else {
            while (e < n && p[e] != ' ')
                e++;
        }
        *v = p + b;
        *vl = e - b;
        return 1;
    }
    return 0;
}

static int kv_int(const char *p, size_t n, const char *key, int64_t *out)
{
    const char *v;
    size_t l;
    if (!kv(p, n, key, NULL, &v, &l) || !l)
        return 0;
    int neg = v[0] == '-';
    int64_t r = 0;
    size_t i = neg;
    if (i >= l)
        return 0;
    for (; i < l; i++) {
        if (v[i] < '0' || v[i] > '9' || r > ((int64_t)1 << 50))
            return 0;
        r = r * 10 + (v[i] - '0');
    }
    *out = neg ? -r : r;
    return 1;
}

static int fn_is(const char *f, size_t n, const char *name)
{
    return strlen(name) == n && memcmp(f, name, n) == 0;
}

int gd_sched_text(gd_sched *s, int64_t ts, int cpu, int64_t tid, int64_t tgid, const char *func,
                  size_t flen, const char *p, size_t n, long line, int *used, gd_error *err)
{
    const char *v;
    size_t vl;
    int64_t a, b;
    int rc = 0;
    *used = 1;
    if (tgid >= 0 && (rc = gd_sched_pid(s, tid, tgid, err)))
        return rc;
    if (fn_is(func, flen, "sched_switch")) {
        const char *st, *pc, *nc;
        size_t stl, pcl, ncl;
        if (!kv_int(p, n, "prev_pid=", &a) || !kv_int(p, n, "next_pid=", &b) ||
            !kv(p, n, "prev_state=", NULL, &st, &stl) || !kv(p, n, "prev_comm=", "prev_pid=", &pc, &pcl) ||
            !kv(p, n, "next_comm=", "next_pid=", &nc, &ncl)) {
            skip(s, GD_SKIP(SCHED_SCHED_EVENT_UNPARSABLE), line);
            return 0;
        }
        if ((rc = gd_sched_name(s, a, pc, pcl, err)) || (rc = gd_sched_name(s, b, nc, ncl, err)))
            return rc;
        return gd_sched_switch(s, ts, cpu, a, gd_sched_state_from_text(st, stl), b, line, err);
    }
    if (fn_is(func, flen, "sched_waking")) {
        if (!kv_int(p, n, "pid=", &a) || !kv(p, n, "comm=", "pid=", &v, &vl)) {
            skip(s, GD_SKIP(SCHED_SCHED_EVENT_UNPARSABLE), line);
            return 0;
        }
        if ((rc = gd_sched_name(s, a, v, vl, err)))
            return rc;
        return gd_sched_waking(s, ts, a, tid, line, err);
    }
    if (fn_is(func, flen, "sched_blocked_reason")) {
        int64_t io = -1;
        if (!kv_int(p, n, "pid=", &a)) {
            skip(s, GD_SKIP(SCHED_SCHED_EVENT_UNPARSABLE), line);
            return 0;
        }
        kv_int(p, n, "iowait=", &io);
        const char *fn = NULL;
        if (kv(p, n, "caller=", NULL, &v, &vl) && vl)
            fn = gd_sched_intern(s, v, vl);
        return gd_sched_blocked(s, ts, a, io < 0 ? -1 : io != 0, fn, line, err);
    }
    if (fn_is(func, flen, "task_newtask")) {
        if (!kv_int(p, n, "pid=", &a) || !kv(p, n, "comm=", "clone_flags=", &v, &vl)) {
            skip(s, GD_SKIP(SCHED_SCHED_EVENT_UNPARSABLE), line);
            return 0;
        }
        /* clone_flags in hex: CLONE_THREAD joins the parent's process */
        const char *cf;
        size_t cfl;
        char buf[24] = "";
        if (kv(p, n, "clone_flags=", NULL, &cf, &cfl) && cfl < sizeof buf)
            memcpy(buf, cf, cfl);
        int64_t pid;
        return gd_sched_thread_start(s, ts, a, tid, strtoull(buf, NULL, 16), v, vl, &pid, line, err);
    }
    if (fn_is(func, flen, "task_rename")) {
        if (!kv_int(p, n, "pid=", &a) || !kv(p, n, "newcomm=", "oom_score_adj=", &v, &vl)) {
            skip(s, GD_SKIP(SCHED_SCHED_EVENT_UNPARSABLE), line);
            return 0;
        }
        return gd_sched_name(s, a, v, vl, err);
    }
    *used = 0;
    return 0;
}
