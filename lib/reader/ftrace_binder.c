/* ftrace_binder.c - binder transactions from binder_transaction / binder_transaction_received. */
#include "ftrace_binder.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/skip_reasons.h"
#include "slicetrack.h"

typedef struct bcall {
    int64_t id, reply_id;    /* the call's debug id; its reply's (-1 none yet) */
    int64_t client, to_proc, to_thread, server;
    int64_t ts, server_ts, server_end; /* ns; -1 not yet */
    int64_t code, flags;
    int oneway, used;
    uint64_t seq;            /* age, for dropping the oldest */
    const char *status;      /* the failure the client got (binder_return), NULL none */
} bcall;

typedef struct bkey {
    int64_t id;              /* -1 empty, -2 deleted */
    int slot;                /* index into calls */
} bkey;

struct gd_binder {
    const gd_sink *sink;
    char prefix[16], reason[96];
    bcall *calls;
    size_t ncalls, ccap;
    int *free_slots;
    size_t nfree;
    bkey *keys;
    size_t kcap, kused;      /* kused counts deleted keys too */
    gd_slicetrack *st;       /* per server thread the calls it serves (tag: the slot; -1 done) */
    uint64_t seq;
    unsigned long count;
    gd_binder_process_fn process_name; /* names server_process, or NULL */
    void *process_ctx;
    gd_binder_thread_fn thread_of; /* the client's pid, or NULL */
    void *thread_ctx;
};

gd_binder *gd_binder_new(const gd_sink *sink, const char *prefix)
{
    gd_binder *b = calloc(1, sizeof *b);
    if (!b || !(b->st = gd_slicetrack_new(2 * (size_t)GD_BINDER_MAX_OPEN, GD_BINDER_MAX_DEPTH,
                                          SIZE_MAX))) {
        free(b);
        return NULL;
    }
    gd_slicetrack_limit_slices(b->st, GD_BINDER_MAX_OPEN); /* nameless slices: the count bounds */
    b->sink = sink;
    snprintf(b->prefix, sizeof b->prefix, "%s", prefix);
    return b;
}

void gd_binder_set_process_names(gd_binder *b, gd_binder_process_fn fn, void *ctx)
{
    b->process_name = fn;
    b->process_ctx = ctx;
}

void gd_binder_set_thread_lookup(gd_binder *b, gd_binder_thread_fn fn, void *ctx)
{
    b->thread_of = fn;
    b->thread_ctx = ctx;
}

/* the process of client thread tid as the trace gives it, or -1 */
static int64_t client_pid(gd_binder *b, int64_t tid)
{
    int64_t pid = -1;
    const char *name = NULL;
    if (!b->thread_of || !b->thread_of(b->thread_ctx, tid, &pid, &name))
        return -1;
    return pid >= 0 ? pid : -1;
}

void gd_binder_free(gd_binder *b)
{
    if (!b)
        return;
    free(b->calls);
    free(b->free_slots);
    free(b->keys);
    gd_slicetrack_free(b->st);
    free(b);
}

unsigned long gd_binder_count(const gd_binder *b) { return b->count; }

static void skip(gd_binder *b, const char *what, long line)
{
    snprintf(b->reason, sizeof b->reason, "%s: %s", b->prefix, what);
    gd_sink_skip(b->sink, b->reason, line, 0);
}

static size_t h64(int64_t k, size_t cap)
{
    uint64_t h = (uint64_t)k * 0x9E3779B97F4A7C15ull;
    return (size_t)((h ^ (h >> 29)) & (cap - 1));
}

/* ---- id -> call ---- */

static bkey *key_find(gd_binder *b, int64_t id)
{
    if (!b->kcap)
        return NULL;
    for (size_t i = h64(id, b->kcap);; i = (i + 1) & (b->kcap - 1)) {
        if (b->keys[i].id == id)
            return &b->keys[i];
        if (b->keys[i].id == -1)
            return NULL;
    }
}

static int key_rehash(gd_binder *b, size_t nc)
{
    bkey *n = malloc(nc * sizeof *n);
    if (!n)
        return -1;
    for (size_t i = 0; i < nc; i++)
        n[i].id = -1;
    size_t used = 0;
    for (size_t i = 0; i < b->kcap; i++) {
        if (b->keys[i].id < 0)
            continue;
        size_t j = h64(b->keys[i].id, nc);
        while (n[j].id != -1)
            j = (j + 1) & (nc - 1);
        n[j] = b->keys[i];
        used++;
    }
    free(b->keys);
    b->keys = n;
    b->kcap = nc;
    b->kused = used;
    return 0;
}

static int key_put(gd_binder *b, int64_t id, int slot)
{
    bkey *k = key_find(b, id);
    if (k) {
        k->slot = slot;
        return 0;
    }
    if ((b->kused + 1) * 2 > b->kcap && key_rehash(b, b->kcap ? b->kcap * 2 : 1024))
        return -1;
    size_t i = h64(id, b->kcap);
    while (b->keys[i].id >= 0)
        i = (i + 1) & (b->kcap - 1);
    if (b->keys[i].id == -1)
        b->kused++;
    b->keys[i].id = id;
    b->keys[i].slot = slot;
    return 0;
}

static void key_del(gd_binder *b, int64_t id)
{
    bkey *k = id >= 0 ? key_find(b, id) : NULL;
    if (k)
        k->id = -2;
}

/* ---- server threads: the slice tracker's stacks ---- */

/* Pops the calls already done (tag -1) off the top of server thread tid's
 * stack, so that its innermost open slice is always a call it serves. */
static void pop_done(gd_binder *b, int64_t tid)
{
    int n, depth;
    const gd_slice *parent;
    const gd_slice *open = gd_slicetrack_open(b->st, GD_TRACK_THREAD, (uint64_t)tid, &n);
    for (; n > 0 && open[n - 1].tag < 0; n--)
        gd_slicetrack_release(b->st, gd_slicetrack_pop_open(b->st, GD_TRACK_THREAD, (uint64_t)tid,
                                                            &depth, &parent));
}

/* A call done while its server still serves it (failed, or the oldest
 * waiting): its slice is marked done, popped once nothing is above it. */
static void unstack(gd_binder *b, int slot)
{
    int64_t tid = b->calls[slot].server;
    if (tid < 0)
        return;
    int n;
    gd_slice *open = gd_slicetrack_open(b->st, GD_TRACK_THREAD, (uint64_t)tid, &n);
    for (int i = n; i-- > 0;)
        if (open[i].tag == slot) {
            open[i].tag = -1;
            break;
        }
    pop_done(b, tid);
}

/* Call `slot`, received by server thread tid at ts: on top of its stack
 * (nested calls: a callback into a thread waiting in a call of its own). */
static int serve(gd_binder *b, int slot, int64_t tid, int64_t ts, long line, gd_error *err)
{
    int st;
    gd_slice *s = gd_slicetrack_begin(b->st, GD_TRACK_THREAD, (uint64_t)tid, tid, 0, &st);
    if (s) {
        s->ts = (double)ts;
        s->tag = slot;
        b->calls[slot].server = tid;
        return 0;
    }
    if (st == GD_ST_NOMEM || st == GD_ST_FULL || st == GD_ST_FULL_MORE)
        return gd_error_oom_at(err, line, 0); /* the thread table's bound too, as before */
    skip(b, GD_SKIP(BINDER_NESTING_TOO_DEEP), line); /* too deep, or above a call too deep */
    return 0;
}

/* The call a reply by server thread tid answers: the innermost it serves,
 * taken off its stack; -1 when none (counted, unless the reply answers a
 * call received too deep: that closes nothing). */
static int answered(gd_binder *b, int64_t tid, long line)
{
    int depth, st;
    const gd_slice *parent;
    gd_slice *s = gd_slicetrack_end(b->st, GD_TRACK_THREAD, (uint64_t)tid, &depth, &parent, &st);
    if (!s) {
        if (st == GD_ST_UNMATCHED)
            skip(b, GD_SKIP(BINDER_BINDER_REPLY_WITHOUT_ITS_TRANSACTION), line);
        return -1;
    }
    int slot = (int)s->tag;
    gd_slicetrack_release(b->st, s);
    pop_done(b, tid);
    return slot;
}

/* ---- calls ---- */

static int emit(gd_binder *b, int slot, int64_t end, gd_error *err)
{
    bcall *c = &b->calls[slot];
    gd_event ev;
    gd_event_init(&ev, GD_EV_BINDER);
    ev.ts = (double)c->ts / 1e6;
    ev.pid = client_pid(b, c->client);
    ev.tid = c->client;
    gd_binder_ev *u = &ev.u.binder;
    u->dur = c->oneway ? 0 : end >= 0 ? (double)(end - c->ts) / 1e6 : GD_NONE;
    u->server_pid = c->to_proc > 0 ? c->to_proc : -1;
    u->server_tid = c->server >= 0 ? c->server : c->to_thread > 0 ? c->to_thread : -1;
    if (c->server_ts >= 0) {
        u->server_ts = (double)c->server_ts / 1e6;
        if (c->server_end >= 0)
            u->server_dur = (double)(c->server_end - c->server_ts) / 1e6;
    }
    u->oneway = c->oneway;
    u->code = c->code;
    u->flags = c->flags;
    u->txn_id = c->id;
    u->reply_status = c->status;
    u->server_process =
        b->process_name && u->server_pid >= 0 ? b->process_name(b->process_ctx, u->server_pid) : NULL;
    /* the call is done: its ids and its place on the server's stack go */
    key_del(b, c->id);
    key_del(b, c->reply_id);
    unstack(b, slot);
    c->used = 0;
    b->free_slots[b->nfree++] = slot;
    b->count++;
    return gd_sink_event(b->sink, &ev, err);
}

static int new_slot(gd_binder *b, long line, gd_error *err)
{
    if (b->nfree)
        return b->free_slots[--b->nfree];
    if (b->ncalls == GD_BINDER_MAX_OPEN) {
        /* full: the oldest call waiting goes out without its reply */
        size_t old = 0;
        for (size_t i = 1; i < b->ncalls; i++)
            if (b->calls[i].used && (!b->calls[old].used || b->calls[i].seq < b->calls[old].seq))
                old = i;
        skip(b, GD_SKIP(BINDER_TOO_MANY_CALLS_WAITING_THE_OLDEST), line);
        int rc = emit(b, (int)old, -1, err);
        if (rc)
            return -rc - 1;
        return b->free_slots[--b->nfree];
    }
    if (b->ncalls == b->ccap) {
        size_t nc = b->ccap ? b->ccap * 2 : 256;
        bcall *n = realloc(b->calls, nc * sizeof *n);
        int *f = n ? realloc(b->free_slots, nc * sizeof *f) : NULL;
        if (n)
            b->calls = n;
        if (!f) {
            gd_error_oom_at(err, line, 0);
            return -GD_ERR_IO - 1;
        }
        b->free_slots = f;
        b->ccap = nc;
    }
    return (int)b->ncalls++;
}

int gd_binder_transaction(gd_binder *b, int64_t ts, int64_t tid, int64_t id, int64_t to_proc,
                          int64_t to_thread, int reply, int64_t flags, int64_t code, long line,
                          gd_error *err)
{
    if (reply) {
        int slot = answered(b, tid, line);
        if (slot < 0)
            return 0;
        bcall *c = &b->calls[slot];
        c->server_end = ts;
        c->reply_id = id;
        c->server = -1; /* off the stack already */
        c->to_thread = tid;
        if (key_put(b, id, slot))
            return gd_error_oom_at(err, line, 0);
        return 0;
    }
    int slot = new_slot(b, line, err);
    if (slot < 0)
        return -slot - 1;
    bcall *c = &b->calls[slot];
    *c = (bcall){id, -1, tid, to_proc, to_thread, -1, ts, -1, -1, code, flags, (int)(flags & 1), 1,
                 b->seq++, NULL};
    if (key_put(b, id, slot))
        return gd_error_oom_at(err, line, 0);
    return 0;
}

int gd_binder_received(gd_binder *b, int64_t ts, int64_t tid, int64_t id, long line, gd_error *err)
{
    bkey *k = key_find(b, id);
    if (!k) {
        skip(b, GD_SKIP(BINDER_BINDER_REPLY_WITHOUT_ITS_TRANSACTION), line);
        return 0;
    }
    int slot = k->slot;
    bcall *c = &b->calls[slot];
    if (c->reply_id == id) /* the reply reached the client: done */
        return emit(b, slot, ts, err);
    if (c->server_ts >= 0) {
        skip(b, GD_SKIP(BINDER_TRANSACTION_RECEIVED_TWICE), line);
        return 0;
    }
    c->server_ts = ts;
    if (c->oneway) { /* one-way: done once the server has it; both sides are
                      * instants, as Perfetto's "binder transaction async" and
                      * "binder async rcv" slices */
        c->server = tid;
        c->server_end = ts;
        int64_t s = c->server;
        c->server = -1;
        c->to_thread = s;
        return emit(b, slot, c->ts, err);
    }
    return serve(b, slot, tid, ts, line, err);
}

const char *gd_binder_failure(int64_t cmd)
{
    switch (cmd & 0xffff) { /* _IO('r', nr): no size bits */
    case 0x7205: return "BR_DEAD_REPLY";
    case 0x7211: return "BR_FAILED_REPLY";
    case 0x7212: return "BR_FROZEN_REPLY";
    case 0x7214: return "BR_TRANSACTION_PENDING_FROZEN";
    default: return NULL;
    }
}

int gd_binder_return(gd_binder *b, int64_t ts, int64_t tid, int64_t cmd, long line, gd_error *err)
{
    const char *status = gd_binder_failure(cmd);
    if (!status)
        return 0;
    /* the failure ends the client's innermost synchronous call waiting for
     * its reply (Perfetto's BinderTracker ends its transaction slice);
     * failures are rare: a scan of the calls waiting */
    int best = -1;
    for (size_t i = 0; i < b->ncalls; i++) {
        const bcall *c = &b->calls[i];
        if (c->used && c->client == tid && !c->oneway &&
            (best < 0 || c->seq > b->calls[best].seq))
            best = (int)i;
    }
    if (best < 0) {
        skip(b, GD_SKIP(BINDER_FAILED_REPLY_WITHOUT_ITS_TRANSACTION), line);
        return 0;
    }
    b->calls[best].status = status;
    return emit(b, best, ts, err);
}

int gd_binder_finish(gd_binder *b, gd_error *err)
{
    for (size_t i = 0; i < b->ncalls; i++) {
        if (!b->calls[i].used)
            continue;
        int rc = emit(b, (int)i, -1, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- ftrace text ---- */

static int field(const char *p, size_t n, const char *key, int64_t *out)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl <= n; i++) {
        if ((i && p[i - 1] != ' ') || memcmp(p + i, key, kl) != 0)
            continue;
        char buf[32];
        size_t j = i + kl, l = 0;
        while (j < n && p[j] != ' ' && l + 1 < sizeof buf)
            buf[l++] = p[j++];
        buf[l] = 0;
        char *e;
        long long v = strtoll(buf, &e, 0);
        if (!l || *e)
            return 0;
        *out = v;
        return 1;
    }
    return 0;
}

int gd_binder_text(gd_binder *b, int64_t ts, int64_t tid, const char *func, size_t flen,
                   const char *p, size_t n, long line, int *used, gd_error *err)
{
    static const char TX[] = "binder_transaction", RX[] = "binder_transaction_received";
    *used = 1;
    int64_t id, proc = -1, thread = -1, reply = 0, flags = 0, code = -1;
    if (flen == sizeof TX - 1 && memcmp(func, TX, flen) == 0) {
        if (!field(p, n, "transaction=", &id) || !field(p, n, "reply=", &reply)) {
            skip(b, GD_SKIP(BINDER_BINDER_EVENT_UNPARSABLE), line);
            return 0;
        }
        field(p, n, "dest_proc=", &proc);
        field(p, n, "dest_thread=", &thread);
        field(p, n, "flags=", &flags);
        field(p, n, "code=", &code);
        return gd_binder_transaction(b, ts, tid, id, proc, thread, reply != 0, flags, code, line, err);
    }
    if (flen == sizeof RX - 1 && memcmp(func, RX, flen) == 0) {
        if (!field(p, n, "transaction=", &id)) {
            skip(b, GD_SKIP(BINDER_BINDER_EVENT_UNPARSABLE), line);
            return 0;
        }
        return gd_binder_received(b, ts, tid, id, line, err);
    }
    static const char RET[] = "binder_return";
    if (flen == sizeof RET - 1 && memcmp(func, RET, flen) == 0) {
        int64_t cmd;
        if (!field(p, n, "cmd=", &cmd)) {
            skip(b, GD_SKIP(BINDER_BINDER_EVENT_UNPARSABLE), line);
            return 0;
        }
        return gd_binder_return(b, ts, tid, cmd, line, err);
    }
    *used = 0;
    return 0;
}
