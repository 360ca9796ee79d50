/* art_trace.c - reader of ART/Dalvik method traces (Debug.startMethodTracing, Android Studio's "Java method trace"): calls per thread.
 *
 * Two layouts, both little-endian, both detected by content:
 *
 *   - the classic file: a text header
 *       *version / N / key=value lines (clock=, pid=, elapsed-time-usec=...)
 *       *threads / "tid<TAB>name" lines
 *       *methods / "0xID<TAB>class<TAB>name<TAB>signature<TAB>source file"
 *       *end
 *     followed by the binary part: "SLOW", u2 version, u2 offset to the
 *     records, u8 start time (us), [u2 record size, version 3], then records
 *     of: thread id (u1 in version 1, u2 after), u4 method id | action
 *     (low 2 bits: 0 enter, 1 exit, 2 unwound by an exception), then one u4
 *     time (single clock: the clock= line says wall or thread-cpu) or two
 *     (dual clock: thread-cpu, then wall);
 *   - the streaming file (version | 0xF0) that Android Studio records: the
 *     same binary header first, then records interleaved with special ones
 *     whose thread id is 0: code 1 a new method (u2 length + a method line),
 *     code 2 a new thread (u2 tid, u2 length, name), code 3 the summary
 *     (u4 length + the text header above, without methods) at the end.
 *
 * Times: the wall time of a record is microseconds since the start time.
 * ART's start time is CLOCK_MONOTONIC (time since boot): meta.clock
 * "monotonic"; Dalvik wrote gettimeofday() (an epoch, from year 2000 on):
 * "utc".  Event times are start + wall offset, in ms.  A trace recorded with
 * the thread-cpu clock only (or a classic header without a clock= line,
 * Dalvik's default) has no wall times: its times are each thread's cpu time
 * placed after the start (meta.clock unknown).  A single-clock
 * streaming trace is read as wall clock (its clock= line comes only at the
 * end, in the summary).
 *
 * Emits one GD_EV_METHOD complete call (phase UNKNOWN) per call, when it
 * returns: ts = enter, end_ts = exit, cls = the dotted class as the trace
 * prints it, method, desc = the signature, pid = the header's pid, tid,
 * thread = the name from *threads (or the new-thread record).  Calls are
 * rebuilt per thread with a stack:
 *   - an exit whose method is the innermost open call closes it; an exit
 *     matching a deeper open call closes the calls above it too (their exit
 *     was not recorded: counted);
 *   - an exit on an empty stack is a call that was already running when
 *     tracing started: kept as an open call (open = 1) from the trace start
 *     to that exit;
 *   - calls still running at the end are kept as open calls ending at the
 *     trace end (start + elapsed-time-usec, or the last record).
 * Depth: the calls found already running are only discovered one by one,
 * innermost first, at their exits; so depths are relative: ART_DEPTH_BASE
 * minus the number of those found so far plus the nesting since the start
 * (only the order matters to the call-tree builder, which nests a call under
 * the innermost open call of a smaller depth).
 *
 * Meta: pid, main_tid (the thread named "main", else the one whose tid is
 * the pid), clock.
 *
 * Memory: the method table (capped: ART_MAX_METHODS ids, ART_MAX_NAMES bytes
 * of names), the thread names, and each thread's open calls (capped:
 * ART_MAX_OPEN in all, GD_CT_MAX_DEPTH per thread).  Records are streamed. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltree.h"
#include "reader.h"
#include "core/util.h"

#define ART_MAGIC "SLOW"
#define ART_MAX_LINE 65536
#define ART_MAX_METHODS (1u << 20)
#define ART_MAX_NAMES ((size_t)64 << 20)
#define ART_MAX_OPEN 1048576
#define ART_MAX_THREADS 65536
#define ART_DEPTH_BASE 1048576
#define ART_MAX_PRE 65536
#define ART_EPOCH_US 946684800000000.0 /* 2000-01-01 in us */

enum { CLK_WALL = 0, CLK_CPU, CLK_DUAL };

typedef struct art_frame {
    uint32_t method;
    double start;
    uint32_t child;       /* the first method it called, 0 none yet        */
} art_frame;

typedef struct art_thread {
    art_frame *stk;
    size_t n, cap;
    int pre;          /* calls found running at the start so far          */
    long lost;        /* enters dropped (too deep) still waiting for exits */
    char *name;
} art_thread;

typedef struct art {
    gd_input *in;
    const gd_sink *sink;
    gd_error *err;
    unsigned char buf[65536];
    size_t pos, len;
    uint64_t off;     /* bytes consumed                                    */
    int eof;
    char line[ART_MAX_LINE + 1];
    /* header */
    int version, streaming, clock, have_clock, recsize;
    uint64_t start_us;
    int64_t pid, main_tid;
    double elapsed_us, last_ts;
    /* methods: open addressing id -> offset into names */
    uint32_t *mkey;
    uint32_t *mval;
    size_t mcap, mcount;
    char *names;
    size_t nlen, ncap;
    /* threads, by id */
    art_thread **th;
    uint16_t *used;   /* the ids of th[] in use, in first-seen order       */
    size_t nused;
    size_t open_total;
    int meta_sent;
} art;

/* ---- bytes ---------------------------------------------------------------- */

static int fill(art *a)
{
    if (a->pos < a->len || a->eof)
        return a->pos < a->len;
    ssize_t r = gd_input_read(a->in, a->buf, sizeof a->buf, a->err);
    if (r < 0)
        return -1;
    a->pos = 0;
    a->len = (size_t)r;
    if (r == 0)
        a->eof = 1;
    return r > 0;
}

/* n bytes into dst: 1 read, 0 end of input before the first byte, 2 end
 * of input inside them, -1 read error. */
static int rd(art *a, void *dst, size_t n)
{
    unsigned char *d = dst;
    size_t got = 0;
    while (got < n) {
        int f = fill(a);
        if (f < 0)
            return -1;
        if (f == 0)
            return got ? 2 : 0;
        size_t k = a->len - a->pos;
        if (k > n - got)
            k = n - got;
        if (d)
            memcpy(d + got, a->buf + a->pos, k);
        a->pos += k;
        a->off += k;
        got += k;
    }
    return 1;
}

static uint32_t le16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int bad(art *a, const char *what)
{
    return gd_error_set(a->err, GD_ERR_DATA, 0, 0, "art method trace: %s at byte %llu", what,
                        (unsigned long long)a->off);
}

/* One text line of at most `*limit` bytes (NULL: unlimited) into a->line
 * without its "\n" (a "\r" before it is dropped).  1 a line, 0 end of
 * input or limit, -1 error (err set). */
static int text_line(art *a, uint64_t *limit, long lineno)
{
    size_t n = 0;
    for (;;) {
        if (limit && *limit == 0)
            break;
        int f = fill(a);
        if (f < 0)
            return -1;
        if (f == 0)
            break;
        unsigned char c = a->buf[a->pos++];
        a->off++;
        if (limit)
            (*limit)--;
        if (c == '\n') {
            if (n && a->line[n - 1] == '\r')
                n--;
            a->line[n] = 0;
            return 1;
        }
        if (n >= ART_MAX_LINE)
            return gd_error_set(a->err, GD_ERR_DATA, lineno, 1,
                                "art method trace: header line longer than %d bytes", ART_MAX_LINE);
        a->line[n++] = (char)c;
    }
    a->line[n] = 0;
    return n > 0;
}

/* ---- tables --------------------------------------------------------------- */

static uint32_t mhash(uint32_t id) { return (id >> 2) * 2654435761u; }

static int method_find(const art *a, uint32_t id, const char **cls, const char **name,
                       const char **desc)
{
    if (!a->mcap)
        return 0;
    size_t mask = a->mcap - 1;
    for (size_t i = mhash(id) & mask;; i = (i + 1) & mask) {
        if (a->mval[i] == UINT32_MAX)
            return 0;
        if (a->mkey[i] == id) {
            *cls = a->names + a->mval[i];
            *name = *cls + strlen(*cls) + 1;
            *desc = *name + strlen(*name) + 1;
            return 1;
        }
    }
}

static int method_grow(art *a)
{
    size_t nc = a->mcap ? a->mcap * 2 : 4096;
    uint32_t *k = malloc(nc * sizeof *k), *v = malloc(nc * sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return gd_error_set(a->err, GD_ERR_IO, 0, 0, "out of memory");
    }
    memset(v, 0xff, nc * sizeof *v);
    for (size_t i = 0; i < a->mcap; i++) {
        if (a->mval[i] == UINT32_MAX)
            continue;
        size_t j = mhash(a->mkey[i]) & (nc - 1);
        while (v[j] != UINT32_MAX)
            j = (j + 1) & (nc - 1);
        k[j] = a->mkey[i];
        v[j] = a->mval[i];
    }
    free(a->mkey);
    free(a->mval);
    a->mkey = k;
    a->mval = v;
    a->mcap = nc;
    return 0;
}

/* "0xID<TAB>class<TAB>name<TAB>signature[<TAB>file...]" (ID may be "0"). */
static int method_line(art *a, char *s, long lineno)
{
    char *f[4];
    int nf = 0;
    char *p = s;
    while (nf < 4) {
        f[nf++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = 0;
        p = t + 1;
    }
    char *e;
    unsigned long long id = strtoull(f[0], &e, 0);
    if (nf < 3 || e == f[0] || *e || id > UINT32_MAX || !*f[2]) {
        gd_sink_skip(a->sink, "art: method line unparsable", lineno, 1);
        return 0;
    }
    const char *sig = nf >= 4 ? f[3] : "";
    size_t need = strlen(f[1]) + strlen(f[2]) + strlen(sig) + 3;
    if (a->mcount >= ART_MAX_METHODS || a->nlen + need > ART_MAX_NAMES) {
        gd_sink_skip(a->sink, "art: method table too large", lineno, 1);
        return 0;
    }
    const char *oc, *on, *od;
    if (method_find(a, (uint32_t)id & ~3u, &oc, &on, &od)) {
        gd_sink_skip(a->sink, "art: method id defined twice", lineno, 1);
        return 0;
    }
    if ((a->mcount + 1) * 2 > a->mcap && method_grow(a))
        return a->err->code;
    if (gd_grow((void **)&a->names, &a->ncap, a->nlen + need, 1, a->err))
        return a->err->code;
    uint32_t at = (uint32_t)a->nlen;
    char *d = a->names + a->nlen;
    d += sprintf(d, "%s", f[1]) + 1;
    d += sprintf(d, "%s", f[2]) + 1;
    sprintf(d, "%s", sig);
    a->nlen += need;
    size_t j = mhash((uint32_t)id & ~3u) & (a->mcap - 1);
    while (a->mval[j] != UINT32_MAX)
        j = (j + 1) & (a->mcap - 1);
    a->mkey[j] = (uint32_t)id & ~3u;
    a->mval[j] = at;
    a->mcount++;
    return 0;
}

static art_thread *thread_get(art *a, unsigned tid)
{
    if (tid >= ART_MAX_THREADS)
        return NULL;
    if (!a->th[tid] && (a->th[tid] = calloc(1, sizeof(art_thread))) != NULL)
        a->used[a->nused++] = (uint16_t)tid;
    return a->th[tid];
}

static int thread_name(art *a, unsigned tid, const char *name, size_t n)
{
    art_thread *t = thread_get(a, tid);
    if (!t)
        return gd_error_set(a->err, GD_ERR_IO, 0, 0, "out of memory");
    char *c = malloc(n + 1);
    if (!c)
        return gd_error_set(a->err, GD_ERR_IO, 0, 0, "out of memory");
    memcpy(c, name, n);
    c[n] = 0;
    free(t->name);
    t->name = c;
    if (n == 4 && memcmp(name, "main", 4) == 0 && a->main_tid < 0)
        a->main_tid = tid;
    return 0;
}

/* ---- the text header (file start, or the streaming summary) --------------- */

enum { SEC_NONE, SEC_VERSION, SEC_THREADS, SEC_METHODS, SEC_END, SEC_OTHER };

static int header_line(art *a, int *sec, int *first, long lineno)
{
    char *s = a->line;
    if (s[0] == '*') {
        *sec = strcmp(s, "*version") == 0   ? SEC_VERSION
               : strcmp(s, "*threads") == 0 ? SEC_THREADS
               : strcmp(s, "*methods") == 0 ? SEC_METHODS
               : strcmp(s, "*end") == 0     ? SEC_END
                                            : SEC_OTHER;
        *first = 1;
        return 0;
    }
    if (!*s)
        return 0;
    switch (*sec) {
    case SEC_VERSION: {
        if (*first) {
            *first = 0;
            if (!a->version)
                a->version = atoi(s);
            return 0;
        }
        char *eq = strchr(s, '=');
        if (!eq)
            return 0;
        *eq = 0;
        const char *v = eq + 1;
        if (strcmp(s, "clock") == 0) {
            a->have_clock = 1;
            a->clock = strcmp(v, "dual") == 0 ? CLK_DUAL : strcmp(v, "thread-cpu") == 0 ? CLK_CPU : CLK_WALL;
        } else if (strcmp(s, "pid") == 0) {
            a->pid = strtoll(v, NULL, 10);
        } else if (strcmp(s, "elapsed-time-usec") == 0) {
            a->elapsed_us = strtod(v, NULL);
        } else if (strcmp(s, "data-file-overflow") == 0 && strcmp(v, "true") == 0) {
            gd_sink_skip(a->sink, "art: trace buffer overflowed, later calls not recorded", lineno, 1);
        }
        return 0;
    }
    case SEC_THREADS: {
        char *e;
        long tid = strtol(s, &e, 10);
        if (e == s || (*e != '\t' && *e != ' ') || tid <= 0) {
            gd_sink_skip(a->sink, "art: thread line unparsable", lineno, 1);
            return 0;
        }
        if (tid >= ART_MAX_THREADS)
            return 0; /* records carry 16-bit ids: this one cannot occur */
        return thread_name(a, (unsigned)tid, e + 1, strlen(e + 1));
    }
    case SEC_METHODS:
        return method_line(a, s, lineno);
    default:
        return 0;
    }
}

/* ---- calls ---------------------------------------------------------------- */

static int send_meta(art *a)
{
    if (a->meta_sent)
        return 0;
    a->meta_sent = 1;
    gd_meta m;
    gd_meta_init(&m);
    m.pid = a->pid;
    m.main_tid = a->main_tid >= 0 ? a->main_tid
                 : (a->pid > 0 && a->pid < ART_MAX_THREADS && a->th[a->pid]) ? a->pid
                                                                            : -1;
    if (a->clock != CLK_CPU)
        m.clock = (double)a->start_us >= ART_EPOCH_US ? "utc" : "monotonic";
    return gd_sink_meta(a->sink, &m, a->err);
}

static int emit_call(art *a, unsigned tid, const art_thread *t, uint32_t method, double start,
                     double end, int depth, int open)
{
    const char *cls, *name, *desc;
    if (!method_find(a, method, &cls, &name, &desc)) {
        gd_sink_skip(a->sink, "art: method id not in the method table", 0, 0);
        return 0;
    }
    gd_event ev;
    gd_event_init(&ev, GD_EV_METHOD);
    ev.ts = start;
    ev.pid = a->pid > 0 ? a->pid : GD_PID_APP;
    ev.tid = tid;
    ev.thread = t->name;
    ev.u.method.phase = GD_PHASE_UNKNOWN;
    ev.u.method.cls = cls;
    ev.u.method.method = name;
    ev.u.method.desc = *desc ? desc : NULL;
    ev.u.method.end_ts = end;
    ev.u.method.depth = depth;
    ev.u.method.open = open;
    return gd_sink_event(a->sink, &ev, a->err);
}

static int is_dispatch(const art *a, uint32_t method)
{
    const char *cls, *name, *desc;
    return method_find(a, method, &cls, &name, &desc) && strcmp(name, "dispatchMessage") == 0 &&
           strcmp(cls, "android.os.Handler") == 0;
}

/* The main thread's outermost Handler.dispatchMessage calls are the work
 * its Looper ran: each also becomes a dispatch (msg: the method it called
 * first, the handleMessage or the Runnable), so blocks, thresholds, groups
 * and blame work on a method trace as on a Looper log. */
static int emit_dispatch(art *a, unsigned tid, const art_thread *t, const art_frame *f, double end)
{
    if ((int64_t)tid != a->main_tid || !is_dispatch(a, f->method))
        return 0;
    for (size_t i = 0; i < t->n; i++) /* t->n: the callers still open */
        if (is_dispatch(a, t->stk[i].method))
            return 0;
    char msg[600];
    const char *cls, *name, *desc;
    if (f->child && method_find(a, f->child, &cls, &name, &desc))
        snprintf(msg, sizeof msg, "Handler.dispatchMessage: %.280s.%.280s", cls, name);
    else
        snprintf(msg, sizeof msg, "Handler.dispatchMessage");
    gd_event ev;
    gd_event_init(&ev, GD_EV_DISPATCH);
    ev.ts = f->start;
    ev.pid = a->pid > 0 ? a->pid : GD_PID_APP;
    ev.tid = tid;
    ev.thread = t->name;
    ev.u.dispatch.dur = end - f->start;
    ev.u.dispatch.msg = msg;
    return gd_sink_event(a->sink, &ev, a->err);
}

static int record(art *a, unsigned tid, uint32_t mv, uint32_t cpu, uint32_t wall)
{
    art_thread *t = thread_get(a, tid);
    if (!t)
        return gd_error_set(a->err, GD_ERR_IO, 0, 0, "out of memory");
    uint32_t method = mv & ~3u;
    unsigned action = mv & 3u;
    double ts = ((double)a->start_us + (double)(a->clock == CLK_CPU ? cpu : wall)) / 1000.0;
    if (ts > a->last_ts)
        a->last_ts = ts;
    if (action == 3) {
        gd_sink_skip(a->sink, "art: unknown record action", 0, 0);
        return 0;
    }
    if (action == 0) {
        if (t->lost || t->n >= GD_CT_MAX_DEPTH || a->open_total >= ART_MAX_OPEN) {
            t->lost++;
            gd_sink_skip(a->sink, "art: nesting too deep", 0, 0);
            return 0;
        }
        if (gd_grow((void **)&t->stk, &t->cap, t->n + 1, sizeof *t->stk, a->err))
            return a->err->code;
        if (t->n > 0 && !t->stk[t->n - 1].child)
            t->stk[t->n - 1].child = method;
        t->stk[t->n++] = (art_frame){method, ts, 0};
        a->open_total++;
        return 0;
    }
    if (t->lost) { /* the exit of a dropped deep enter */
        t->lost--;
        return 0;
    }
    int base = ART_DEPTH_BASE - t->pre;
    if (t->n == 0) { /* running when tracing started */
        if (t->pre >= ART_MAX_PRE) {
            gd_sink_skip(a->sink, "art: too many calls running at the start", 0, 0);
            return 0;
        }
        t->pre++;
        return emit_call(a, tid, t, method, (double)a->start_us / 1000.0, ts, base - 1, 1);
    }
    size_t k = t->n;
    while (k > 0 && t->stk[k - 1].method != method)
        k--;
    if (k == 0) {
        gd_sink_skip(a->sink, "art: exit without enter", 0, 0);
        return 0;
    }
    while (t->n >= k) {
        art_frame f = t->stk[--t->n];
        a->open_total--;
        if (t->n >= k)
            gd_sink_skip(a->sink, "art: exit missing, closed with its caller", 0, 0);
        int rc = emit_call(a, tid, t, f.method, f.start, ts, base + (int)t->n, 0);
        if (!rc)
            rc = emit_dispatch(a, tid, t, &f, ts);
        if (rc)
            return rc;
    }
    return 0;
}

static int finish(art *a)
{
    double end = a->last_ts;
    if (a->elapsed_us > 0 && a->clock != CLK_CPU) {
        double e = ((double)a->start_us + a->elapsed_us) / 1000.0;
        if (e > end)
            end = e;
    }
    for (size_t i = 0; i < a->nused; i++) {
        unsigned tid = a->used[i];
        art_thread *t = a->th[tid];
        while (t->n > 0) {
            art_frame f = t->stk[--t->n];
            int rc = emit_call(a, tid, t, f.method, f.start, end,
                               ART_DEPTH_BASE - t->pre + (int)t->n, 1);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* ---- binary part ---------------------------------------------------------- */

static int bin_header(art *a, int streaming_expected)
{
    unsigned char h[18];
    int r = rd(a, h, 16);
    if (r < 0)
        return a->err->code;
    if (r != 1 || memcmp(h, ART_MAGIC, 4) != 0)
        return bad(a, "no \"SLOW\" data header");
    uint32_t ver = le16(h + 4), off = le16(h + 6);
    a->streaming = (ver & 0xF0) == 0xF0;
    int v = (int)(ver & 0x0F);
    if ((ver & 0xFF00) || (ver & 0xF0 && !a->streaming) || v < 1 || v > 3 ||
        (streaming_expected >= 0 && a->streaming != streaming_expected))
        return gd_error_set(a->err, GD_ERR_DATA, 0, 0,
                            "art method trace: unsupported data version 0x%x at byte 4 "
                            "(versions 1 to 3 are read)", ver);
    a->start_us = (uint64_t)le32(h + 8) | (uint64_t)le32(h + 12) << 32;
    a->version = v; /* the record layout follows the data header */
    uint32_t rs = 0;
    size_t at = 16;
    if (v >= 3) {
        if ((r = rd(a, h + 16, 2)) != 1)
            return r < 0 ? a->err->code : bad(a, "data header cut short");
        rs = le16(h + 16);
        at = 18;
    }
    if (off < at || off > 4096)
        return bad(a, "data offset out of range");
    if ((r = rd(a, NULL, off - at)) != 1 && off > at)
        return r < 0 ? a->err->code : bad(a, "data header cut short");
    if (v == 1)
        rs = 9;
    else if (v == 2)
        rs = 10;
    else if (rs == 0)
        rs = a->clock == CLK_DUAL ? 14 : 10;
    if (rs < (v == 1 ? 9u : 10u) || rs > 64)
        return gd_error_set(a->err, GD_ERR_DATA, 0, 0,
                            "art method trace: record size %u out of range at byte 16", rs);
    a->recsize = (int)rs;
    if (v < 3 && a->clock == CLK_DUAL)
        a->clock = CLK_WALL;
    if (rs >= 14 && (a->streaming || !a->have_clock))
        a->clock = CLK_DUAL;
    else if (rs < 14 && a->clock == CLK_DUAL)
        a->clock = CLK_WALL;
    /* a streaming trace's pid comes with its summary, at the end */
    return a->streaming ? 0 : send_meta(a);
}

/* One record after its thread id (already read: tid, and the first bytes
 * in p).  0 or an error. */
static int bin_record(art *a, unsigned tid, unsigned char *p, size_t have)
{
    size_t rest = (size_t)a->recsize - have;
    int r = rd(a, p + have, rest);
    if (r < 0)
        return a->err->code;
    if (r != 1) {
        gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0);
        return 1;
    }
    size_t m = a->version == 1 ? 1 : 2;
    uint32_t mv = le32(p + m), t1 = le32(p + m + 4), t2 = a->recsize >= 14 ? le32(p + m + 8) : 0;
    uint32_t cpu = a->clock == CLK_DUAL ? t1 : a->clock == CLK_CPU ? t1 : 0;
    uint32_t wall = a->clock == CLK_DUAL ? t2 : t1;
    return record(a, tid, mv, cpu, wall);
}

static int classic_records(art *a)
{
    unsigned char p[64];
    for (;;) {
        int r = rd(a, p, 1);
        if (r < 0)
            return a->err->code;
        if (r == 0)
            return 0;
        unsigned tid = p[0];
        size_t have = 1;
        if (a->version != 1) {
            if ((r = rd(a, p + 1, 1)) != 1) {
                if (r < 0)
                    return a->err->code;
                gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0);
                return 0;
            }
            tid = le16(p);
            have = 2;
        }
        int rc = bin_record(a, tid, p, have);
        if (rc)
            return rc == 1 ? 0 : rc;
    }
}

static int streaming_records(art *a)
{
    unsigned char p[64];
    for (;;) {
        int r = rd(a, p, 2);
        if (r < 0)
            return a->err->code;
        if (r == 0)
            return 0;
        if (r == 2) {
            gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0);
            return 0;
        }
        unsigned tid = le16(p);
        if (tid) {
            int rc = bin_record(a, tid, p, 2);
            if (rc)
                return rc == 1 ? 0 : rc;
            continue;
        }
        uint64_t at = a->off - 2;
        if ((r = rd(a, p, 1)) != 1)
            return r < 0 ? a->err->code : (gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0), 0);
        unsigned op = p[0];
        if (op == 1 || op == 2) {
            size_t hn = op == 1 ? 2 : 4;
            if ((r = rd(a, p, hn)) != 1)
                return r < 0 ? a->err->code : (gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0), 0);
            size_t n = le16(p + hn - 2);
            if ((r = rd(a, a->line, n)) != 1)
                return r < 0 ? a->err->code : (gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0), 0);
            a->line[n] = 0;
            int rc;
            if (op == 2) {
                rc = thread_name(a, le16(p), a->line, n);
            } else {
                while (n && (a->line[n - 1] == '\n' || a->line[n - 1] == '\r'))
                    a->line[--n] = 0;
                rc = memchr(a->line, 0, n) ? (gd_sink_skip(a->sink, "art: method line unparsable", 0, 0), 0)
                                           : method_line(a, a->line, 0);
            }
            if (rc)
                return rc;
        } else if (op == 3) {
            if ((r = rd(a, p, 4)) != 1)
                return r < 0 ? a->err->code : (gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0), 0);
            uint64_t limit = le32(p);
            int sec = SEC_NONE, first = 0;
            long lineno = 0;
            a->pid = -1;
            while ((r = text_line(a, &limit, ++lineno)) == 1) {
                int rc = header_line(a, &sec, &first, lineno);
                if (rc)
                    return rc;
            }
            if (r < 0)
                return a->err->code;
            if (limit)
                gd_sink_skip(a->sink, "art: summary cut short at the end", 0, 0);
            /* anything after the summary is not part of the trace */
            if (fill(a) > 0)
                gd_sink_skip(a->sink, "art: bytes after the summary", 0, 0);
            return 0;
        } else {
            a->off = at;
            return gd_error_set(a->err, GD_ERR_DATA, 0, 0,
                                "art method trace: unknown special record %u at byte %llu", op,
                                (unsigned long long)at);
        }
    }
}

/* ---- reader --------------------------------------------------------------- */

static void art_free(art *a)
{
    for (size_t i = 0; a->th && i < a->nused; i++) {
        art_thread *t = a->th[a->used[i]];
        free(t->stk);
        free(t->name);
        free(t);
    }
    free(a->th);
    free(a->used);
    free(a->mkey);
    free(a->mval);
    free(a->names);
    free(a);
}

static int read_art(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    (void)opts;
    art *a = calloc(1, sizeof *a);
    if (!a || !(a->th = calloc(ART_MAX_THREADS, sizeof *a->th)) ||
        !(a->used = malloc(ART_MAX_THREADS * sizeof *a->used))) {
        if (a)
            free(a->th);
        free(a);
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    }
    a->in = in;
    a->sink = sink;
    a->err = err;
    a->pid = a->main_tid = -1;
    a->last_ts = -1e300;
    int rc = 0, f = fill(a);
    if (f < 0) {
        rc = err->code ? err->code : GD_ERR_IO;
    } else if (f > 0 && a->buf[0] == '*') {
        /* classic: the text header first; without a clock= line the
         * times are thread-cpu (Dalvik's default, as Android's own
         * VmTraceParser reads them) */
        a->clock = CLK_CPU;
        int sec = SEC_NONE, first = 0, r = 1;
        long lineno = 0;
        while (!rc && sec != SEC_END && (r = text_line(a, NULL, ++lineno)) == 1)
            rc = header_line(a, &sec, &first, lineno);
        if (!rc && r < 0)
            rc = err->code;
        if (!rc && sec != SEC_END)
            rc = gd_error_set(err, GD_ERR_DATA, lineno, 1, "art method trace: header without *end");
        if (!rc && (a->version < 1 || a->version > 3))
            rc = gd_error_set(err, GD_ERR_DATA, 2, 1,
                              "art method trace: unsupported version %d (versions 1 to 3 are read)",
                              a->version);
        if (!rc && !(rc = bin_header(a, 0)))
            rc = classic_records(a);
    } else if (!(rc = bin_header(a, 1))) {
        rc = streaming_records(a);
        if (!rc)
            rc = send_meta(a);
    }
    if (!rc)
        rc = finish(a);
    art_free(a);
    return rc;
}

static int probe(const unsigned char *head, size_t n, int eof)
{
    (void)eof;
    /* versions past 3 (newer ART layouts) are recognised here so that the
     * reader can refuse them by name */
    if (n >= 6 && memcmp(head, ART_MAGIC, 4) == 0 && head[5] == 0 &&
        ((head[4] >= 1 && head[4] <= 9) || (head[4] >= 0xF1 && head[4] <= 0xF9)))
        return 95;
    if (n >= 10 && memcmp(head, "*version\n", 9) == 0 && head[9] >= '1' && head[9] <= '9')
        return 95;
    if (n >= 11 && memcmp(head, "*version\r\n", 10) == 0 && head[10] >= '1' && head[10] <= '9')
        return 95;
    /* tools that write the trace with a section of their own first
     * ("*extra-info" ... "*extra-info-end", Alibaba's Telescope) */
    if (n >= 12 && memcmp(head, "*extra-info\n", 12) == 0 &&
        memmem(head, n, "\n*version\n", 10) && memmem(head, n, "\n*threads\n", 10))
        return 90;
    return 0;
}

const gd_reader gd_reader_art_trace = {
    .name = "art_trace",
    .description = "ART/Dalvik method trace (Debug.startMethodTracing, Android Studio .trace): calls per thread",
    .probe = probe,
    .read = read_art,
};
