/* anr.c - reader of Android ANR traces.txt thread dumps (ART/Dalvik, pre- and post-Android-10).
 *
 * A file holds one or more dumps:
 *
 *   ----- pid 28941 at 2023-04-04 22:06:31.064728684+0200 -----
 *   Cmd line: io.sentry.samples.android
 *   ...build, GC and JIT statistics (ignored by design)...
 *   "main" prio=5 tid=1 Blocked
 *     | group="main" sCount=1 ... obj=0x72a985e0 self=0xb400007cabc57380
 *     | sysTid=28941 nice=-10 cgrp=top-app sched=0/0 handle=0x7deceb74f8
 *     | state=S schedstat=( ... ) utm=23 stm=8 core=3 HZ=100
 *     native: #00 pc 000000000004df5c  /apex/.../libc.so (syscall+28) (BuildId: ...)
 *     at io.sentry.samples.android.MainActivity$2.run(MainActivity.java:177)
 *     - waiting to lock <0x0d3a2f0a> (a java.lang.Object) held by thread 5
 *   ...
 *   ----- end 28941 -----
 *
 * plus "----- Waiting Channels: pid N at ... -----" sections and "----- begin
 * pid N kernel stacks -----" sections (kernel stacks, not a thread dump:
 * ignored, one counted skip per section, up to their "----- end ... -----"
 * line) and, in full /data/anr/traces.txt files, dumps of native processes
 * whose threads read `"name" sysTid=N` followed by `  #00 pc ...` frames.
 *
 * Dalvik (Android <= 4.4) dumps read like ART's: `"name" prio=5 tid=9 MONITOR`
 * (tid= is the VM's thread id), `| sysTid=N` (the Linux tid), and lock lines
 * `- waiting to lock <0x..> (a C) held by threadid=7 (Binder Thread #1)`
 * (Android 2.x), `held by tid=58 (name)` (4.4) or `held by thread 12` (ART),
 * all naming the holder by its VM thread id.
 *
 * A dump whose "----- pid N at ... -----" line is lost (a cut file) starts
 * at its first thread header or "Cmd line:" outside a dump; its threads are
 * held (bounded: ANR_MAX_HELD_BYTES of frames) until "----- end N -----"
 * gives the pid, then emitted with ts 0 (time unknown) and counted once as
 * "anr: dump without header, pid from its end line".  Threads of such a dump
 * that never reaches an end line are counted, one skip per thread.
 *
 * Emits, per dump (at its end, once every thread is known):
 *   - one GD_EV_STACK per thread as soon as the thread's block ends: ts = the
 *     dump time, pid, tid = sysTid (the dalvik tid= when no sysTid is given),
 *     thread = name, state = the word after tid=N ("Blocked", "Native"...;
 *     NULL for "(not attached)" and native-process threads), frames innermost
 *     first.  Frames: `at X` lines as X (Class.method(File:line), kept as ART
 *     prints them, "Native method" included); native frames ARE included, as
 *     "native:<library basename>(<symbol+offset>)" or, without a symbol,
 *     "native:<library basename>(pc <hex>)" -- the "native:" prefix lets
 *     analyses tell them from Java frames.  Lock lines are not frames.
 *   - a gd_meta: pid, app (the "Cmd line:"), device (the DEVICE part of
 *     the dump header's "Build fingerprint:", gd_fingerprint_device),
 *     main_tid (sysTid of "main"; without a "main" thread -- native-only
 *     dumps -- the pid when a thread has that id).
 *   - a GD_EV_ISSUE tool "anr", type "anr_main_state", detail = the main
 *     thread's state, json {"name","tid","state"[,"waiting_on","lock",
 *     "held_by","held_by_name"]}, when the dump has a "main" thread.
 *     (Native-only dumps have no state word: no such issue.)
 *   - a GD_EV_ISSUE tool "anr", type "deadlock" per cycle of the wait-for
 *     graph built from "waiting to lock <addr> (a C) held by thread N" (N is
 *     the dalvik tid=), json {"threads":[{"name","tid","dalvik_tid",
 *     "waiting_on","lock","held_by","held_by_dalvik_tid"}...]}, threads in
 *     cycle order starting at the one listed first in the dump; "tid" and
 *     "held_by" are in the stack events' tid space (sysTid).
 *
 * Time: dump stamps carry a date; a "+hhmm" zone when present is applied,
 * otherwise the device's local time is taken as UTC (the project-wide
 * choice for stamps without a zone).
 *
 * Memory: one thread's frames at a time (bounded: ANR_MAX_FRAMES frames,
 * ANR_MAX_FRAME_BYTES bytes) and a small record per thread of the current
 * dump for the wait-for graph (at most ANR_MAX_THREADS). */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <stdint.h>

#include "reader.h"
#include "reader/mdstamp.h"
#include "core/util.h"
#include "core/row.h"
#include "core/scan.h"
#include "core/skip_reasons.h"

#define ANR_MAX_FRAMES 1024
#define ANR_MAX_FRAME_BYTES ((size_t)1 << 20)
#define ANR_MAX_THREADS 8192
#define ANR_MAX_HELD_BYTES ((size_t)8 << 20)
#define ANR_MAX_LOCKED 8      /* "- locked <0x..>" kept per thread */

/* The dump header's heap and GC figures (ART's "Heap:", "Total GC count:",
 * "Total memory" ... lines), -1 when absent. */
enum {
    ANR_H_FREE_PCT = 0, ANR_H_USED, ANR_H_SIZE, ANR_H_OBJECTS, ANR_H_ALLOCATED, ANR_H_FREE,
    ANR_H_FREE_OOME, ANR_H_TOTAL, ANR_H_MAX, ANR_H_GC_COUNT, ANR_H_GC_TIME, ANR_H_GC_BLOCKING_COUNT,
    ANR_H_GC_BLOCKING_TIME, ANR_H_N
};

/* What the wait-for graph and the main-state issue need of one thread. */
typedef struct anr_thr {
    char name[128];
    char state[40];
    char waiting_on[40];  /* "0x0d3a2f0a" or "" */
    char lock[128];       /* class of the awaited lock or "" */
    int64_t tid;          /* sysTid, else dalvik tid, else -1 */
    int64_t dtid;         /* dalvik tid= or -1 */
    int64_t held_by;      /* dalvik tid of the lock holder or -1 */
    int has_state;
    int binder_seen;      /* the innermost binder frame was classified */
    char call[160];       /* that frame when it is an outgoing call, or "" */
    char locked[ANR_MAX_LOCKED][24];  /* "- locked <0x..>" addresses, in order */
    int nlocked;
    int locked_over;      /* more than ANR_MAX_LOCKED locks held */
    char wait_obj[24];    /* "- waiting on <0x..>" (Object.wait releases it) */
    /* frames of a thread held for a dump without header */
    long line;
    size_t hoff, hlen, hn;
} anr_thr;

enum { ANR_OUT = 0, ANR_IN_DUMP, ANR_IN_WCHAN, ANR_IN_BAD_DUMP, ANR_IN_KSTACKS, ANR_IN_WCHAN_KEEP, ANR_IN_PSI };

#define ANR_MAX_D_THREADS 32  /* threads in D kept of a Waiting Channels section */

/* A "----- Waiting Channels: pid N" section kept as a dump's evidence
 * (#48): a process whose Java dump failed has only this. */
typedef struct anr_wchan {
    int64_t pid;
    double ts;
    int64_t zone_min;
    long line;
    char app[256];
    int has_app;
    int64_t threads;
    char main_state[8], main_wchan[64];  /* of sysTid == pid ("" state: not printed) */
    int main_seen;                       /* the section lists sysTid == pid */
    int64_t d_tid[ANR_MAX_D_THREADS];
    char d_wchan[ANR_MAX_D_THREADS][64];
    int nd, d_over;
    int64_t n_d;                         /* threads in D, all of them */
} anr_wchan;

typedef struct anr_ctx {
    const gd_sink *sink;
    gd_error *err;
    int where;
    long dump_line;
    int64_t pid;
    double ts;
    int64_t zone_min;     /* the dump header's +hhmm, INT64_MIN when none */
    char app[256];
    int has_app;
    char device[128];     /* of the dump's "Build fingerprint:" (#29), or "" */
    /* the dump's role (see anr.c: "Roles") */
    const char *section;  /* the carrier's, or NULL: decided at the first dump */
    const char *name;     /* source name (opts->name) or NULL */
    int64_t ndump;        /* dumps started so far in this input */
    char subject[512];    /* "Subject:" of an ANR record, before its first dump */
    int has_subject;
    long subject_line;
    char native_name[128];/* ">>> name <<<" of a native dump's header */
    double heap[ANR_H_N];
    int64_t main_idx;     /* index of "main" in thr, -1 none */
    int64_t main_tid;
    /* thread being read */
    int in_thread;
    long thr_line;
    anr_thr cur;
    char *fbuf;           /* frame texts, NUL separated */
    size_t flen, fcap;
    size_t *foff;         /* offsets into fbuf */
    size_t nframes, foff_cap;
    const char **fptr;
    size_t fptr_cap;
    int frames_over;
    /* threads of the current dump */
    anr_thr *thr;
    size_t nthr, thr_cap;
    int thr_over;
    /* a dump without header: threads held until its end line */
    int headless;
    char *held;
    size_t held_len, held_cap;
    size_t held_lost;     /* threads that could not be held */
    long line;            /* the input line being read (for counted cuts) */
    /* #48: Waiting Channels kept, PSI and memory figures of the record */
    anr_wchan wc;
    int wc_held;          /* wc read, not yet given to a dump              */
    int wc_attach;        /* the dump being read carries wc                */
    /* #48: the pids that had a dump or a kept Waiting Channels section in
     * this input: a later section of theirs is skipped (godeye-anr(1)) */
    int64_t *pids;
    size_t npids, pids_cap;
    json_t *pressure;     /* {"memory"|"cpu"|"io": {"some"|"full": {avg10, avg60, avg300}}} */
    char psi_res[16];     /* the /proc/pressure file being read             */
    json_t *memory;       /* the record's "RssKb: N" lines before its first dump */
} anr_ctx;

static int anr_add_frame(anr_ctx *c, const char *a, size_t na, const char *b, size_t nb,
                  const char *z, size_t nz, long line);
static void anr_copy_str(char *dst, size_t cap, const char *src, size_t n);
/* anr_copy_str of a text read from the input: a cut is counted under
 * GD_SKIP(TEXT_CUT) at the line being read (gd_sink_cut). */
static void gd_anr_copy_text(anr_ctx *c, char *dst, size_t cap, const char *src, size_t n);
static int anr_emit_held(anr_ctx *c);
static int anr_end_dump(anr_ctx *c);
static void anr_leave_dump(anr_ctx *c);
static void anr_event_init(const anr_ctx *c, gd_event *ev, gd_event_kind k, const anr_thr *t, long line);
static int anr_end_thread(anr_ctx *c);
static const char *anr_header_quote(const char *s);
static void anr_lock_line(anr_ctx *c, const char *s);
static int anr_native_frame(anr_ctx *c, const char *s, long line);
static int64_t anr_parse_uint(const char *s, const char **end);
static int anr_thread_header(anr_ctx *c, const char *s, long line);
static int emit_wchan(anr_ctx *c);
static void wchan_line(anr_ctx *c, const char *s, size_t len);
static void psi_line(anr_ctx *c, const char *s);
static int memory_line(anr_ctx *c, const char *s);

/* ---- small parsing helpers ---- */

static void anr_copy_str(char *dst, size_t cap, const char *src, size_t n)
{
    n = gd_utf8_cut(src, n, cap - 1); /* whole characters (#25 item 16) */
    memcpy(dst, src, n);
    dst[n] = 0;
}

static void gd_anr_copy_text(anr_ctx *c, char *dst, size_t cap, const char *src, size_t n)
{
    n = gd_sink_cut(c->sink, src, n, cap - 1, c->line);
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* Non-negative decimal at s; -1 when none; *end past it. */
static int64_t anr_parse_uint(const char *s, const char **end)
{
    int64_t v = 0;
    const char *p = s;
    if (!isdigit((unsigned char)*p)) {
        if (end)
            *end = s;
        return -1;
    }
    while (isdigit((unsigned char)*p)) {
        if (v < (int64_t)1e15)
            v = v * 10 + (*p - '0');
        p++;
    }
    if (end)
        *end = p;
    return v;
}

/* "YYYY-MM-DD HH:MM:SS[.frac][(+|-)HHMM]" -> epoch ms (zone applied; no
 * zone = UTC).  0 ok, -1 unparsable. */
static int parse_stamp(const char *s, double *out, int64_t *zone_min)
{
    *zone_min = INT64_MIN;
    int y, mo, d, h, mi, se, n = 0;
    if (sscanf(s, "%4d-%2d-%2d %2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &se, &n) != 6 || n == 0)
        return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60 || y < 1900)
        return -1;
    const char *p = s + n;
    double frac = 0, scale = 0.1;
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p))
            return -1;
        while (isdigit((unsigned char)*p)) {
            frac += (*p - '0') * scale;
            scale /= 10;
            p++;
        }
    }
    int64_t off_min = 0;
    if (*p == '+' || *p == '-') {
        int sign = *p == '-' ? -1 : 1;
        p++;
        int k = 0;
        int64_t v = 0;
        while (k < 4 && isdigit((unsigned char)p[k])) {
            v = v * 10 + (p[k] - '0');
            k++;
        }
        if (k != 4 || isdigit((unsigned char)p[k]))
            return -1;
        off_min = sign * ((v / 100) * 60 + v % 100);
        *zone_min = off_min;
        p += 4;
    }
    if (*p && *p != ' ')
        return -1;
    *out = gd_mdstamp_civil_ms(y, mo, d, h, mi, se) - (double)off_min * 60000.0 + frac * 1000.0;
    return 0;
}

/* "----- pid N at STAMP -----" (after the given prefix): pid and time. */
static int parse_dump_header(const char *s, int64_t *pid, double *ts, int64_t *zone_min)
{
    const char *p;
    *pid = anr_parse_uint(s, &p);
    if (*pid < 0 || !gd_starts(p, " at "))
        return -1;
    return parse_stamp(p + 4, ts, zone_min);
}

/* Back outside any dump: the current dump's threads are forgotten. */
static void anr_leave_dump(anr_ctx *c)
{
    c->where = ANR_OUT;
    c->in_thread = 0;
    c->nthr = 0;
    c->thr_over = 0;
    c->headless = 0;
    c->held_len = 0;
    c->wc_attach = 0;
}

/* A dump without header that ends without an end line either: its held
 * threads cannot be given a pid.  Counted, one skip per thread. */
static void drop_headless(anr_ctx *c, long line)
{
    if (c->where != ANR_IN_DUMP || !c->headless)
        return;
    int rc = anr_end_thread(c);
    (void)rc; /* holding never emits; an allocation failure only loses the count */
    for (size_t i = 0; i < c->nthr; i++)
        gd_sink_skip(c->sink, GD_SKIP(ANR_THREAD_OF_A_DUMP_WITHOUT_HEADER_OR_END), c->thr[i].line, 1);
    if (c->nthr == 0)
        gd_sink_skip(c->sink, GD_SKIP(ANR_DUMP_WITHOUT_HEADER_OR_END_LINE), line, 1);
    anr_leave_dump(c);
}

/* The basename of the source starts with "anr_" (/data/anr/anr_2019-...). */
static int named_anr_record(const char *name)
{
    if (!name)
        return 0;
    const char *b = strrchr(name, '/');
    b = b ? b + 1 : name;
    return gd_starts(b, "anr_");
}

/* A dump starts (parsed or not): its index in the input, and the carrier
 * of a file of its own decided before its first dump (see "Roles"). */
static void count_dump(anr_ctx *c)
{
    if (!c->section)
        c->section = c->has_subject || named_anr_record(c->name) ? "anr_file" : "traces_file";
    c->ndump++;
}

static void start_dump(anr_ctx *c, int64_t pid, double ts, long line)
{
    count_dump(c);
    for (int i = 0; i < ANR_H_N; i++)
        c->heap[i] = -1;
    c->native_name[0] = 0;
    c->where = ANR_IN_DUMP;
    c->headless = 0;
    c->held_len = 0;
    c->dump_line = line;
    c->pid = pid;
    c->wc_attach = 0;
    c->ts = ts;
    c->has_app = 0;
    c->app[0] = 0;
    c->device[0] = 0;
    c->main_idx = -1;
    c->main_tid = -1;
    c->in_thread = 0;
    c->nthr = 0;
}

/* Ends what is open before a new section starts at `line`. */
static int close_open(anr_ctx *c, long line)
{
    if (c->where == ANR_IN_DUMP && c->headless) {
        drop_headless(c, line);
        return 0;
    }
    if (c->where == ANR_IN_DUMP || c->where == ANR_IN_BAD_DUMP)
        gd_sink_skip(c->sink, GD_SKIP(ANR_DUMP_WITHOUT_END_LINE), line, 1);
    return anr_end_dump(c);
}

/* 1 when pid had a dump or a kept Waiting Channels section in this input. */
static int pid_known(const anr_ctx *c, int64_t pid)
{
    for (size_t i = 0; i < c->npids; i++)
        if (c->pids[i] == pid)
            return 1;
    return 0;
}

/* Notes pid as having one (pid_known): 0, or GD_ERR_NOMEM. */
static int note_pid(anr_ctx *c, int64_t pid)
{
    if (pid_known(c, pid))
        return 0;
    if (c->npids == c->pids_cap) {
        size_t cap = c->pids_cap ? 2 * c->pids_cap : 16;
        int64_t *p = realloc(c->pids, cap * sizeof *p);
        if (!p)
            return gd_error_oom(c->err);
        c->pids = p;
        c->pids_cap = cap;
    }
    c->pids[c->npids++] = pid;
    return 0;
}

/* A "----- ... -----" line.  Returns 0 or an error code. */
static int banner(anr_ctx *c, const char *s, long line)
{
    int64_t pid;
    double ts;
    if (gd_starts(s, "----- pid ")) {
        int rc = close_open(c, line);
        if (rc)
            return rc;
        int64_t zone;
        int ok = parse_dump_header(s + strlen("----- pid "), &pid, &ts, &zone) == 0;
        if (ok && (rc = note_pid(c, pid)))
            return rc;
        /* a Waiting Channels section read before: this dump's, or a dump of its own */
        int attach = ok && c->wc_held && c->wc.pid == pid;
        if (c->wc_held && !attach && (rc = emit_wchan(c)))
            return rc;
        c->wc_held = 0;
        c->zone_min = zone;
        if (!ok) {
            gd_sink_skip(c->sink, GD_SKIP(ANR_DUMP_HEADER_UNPARSABLE), line, 1);
            count_dump(c);
            c->where = ANR_IN_BAD_DUMP;
            return 0;
        }
        start_dump(c, pid, ts, line);
        c->wc_attach = attach;
        return 0;
    }
    if (gd_starts(s, "----- Waiting Channels: pid ")) {
        int rc = close_open(c, line);
        if (rc)
            return rc;
        int64_t zone;
        /* kept when its process has no dump yet (#48): the evidence of a
         * failed Java dump; once per process (any earlier dump or section
         * of it, not only the last one) */
        if (parse_dump_header(s + strlen("----- Waiting Channels: pid "), &pid, &ts, &zone) == 0 &&
            !pid_known(c, pid)) {
            if (c->wc_held && (rc = emit_wchan(c)))
                return rc;
            if ((rc = note_pid(c, pid)))
                return rc;
            memset(&c->wc, 0, sizeof c->wc);
            c->wc.pid = pid;
            c->wc.ts = ts;
            c->wc.zone_min = zone;
            c->wc.line = line;
            c->wc_held = 1;
            c->where = ANR_IN_WCHAN_KEEP;
            return 0;
        }
        c->where = ANR_IN_WCHAN;
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_ANR_WAITING_CHANNELS_SECTION), line, 1);
        return 0;
    }
    if (gd_starts(s, "----- Output from /proc/pressure/") && c->where == ANR_OUT && c->ndump == 0) {
        /* the record's pressure stall figures (Android 13+), before its dumps */
        const char *r = s + strlen("----- Output from /proc/pressure/");
        size_t n = strcspn(r, " ");
        gd_anr_copy_text(c, c->psi_res, sizeof c->psi_res, r, n);
        c->where = ANR_IN_PSI;
        return 0;
    }
    if (gd_starts(s, "----- End output from ") && c->where == ANR_IN_PSI) {
        c->where = ANR_OUT;
        return 0;
    }
    if (gd_starts(s, "----- begin pid ")) {
        int rc = close_open(c, line);
        c->where = ANR_IN_KSTACKS;
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_ANR_KERNEL_STACKS_SECTION), line, 1);
        return rc;
    }
    if (gd_starts(s, "----- end ")) {
        if (c->where == ANR_OUT)
            gd_sink_skip(c->sink, GD_SKIP(ANR_END_LINE_OUTSIDE_A_DUMP), line, 1);
        if (c->where == ANR_IN_DUMP && c->headless) {
            int rc = anr_end_thread(c);
            if (rc)
                return rc;
            pid = anr_parse_uint(s + strlen("----- end "), NULL);
            if (pid < 0) {
                drop_headless(c, line);
                return 0;
            }
            gd_sink_skip(c->sink, GD_SKIP(ANR_DUMP_WITHOUT_HEADER_PID_FROM_ITS_END), c->dump_line, 1);
            c->pid = pid;
            c->ts = 0;  /* time unknown */
            rc = anr_emit_held(c);
            return rc ? rc : anr_end_dump(c);
        }
        return anr_end_dump(c);
    }
    if (c->where == ANR_OUT)
        gd_sink_skip(c->sink, GD_SKIP(ANR_LINE_OUTSIDE_A_DUMP), line, 1);
    return 0;
}

/* Outside any dump: a thread header or "Cmd line:" opens a dump whose
 * "----- pid" line was lost.  1 when it did, 0 when the line is stray. */
static int start_headless(anr_ctx *c, const char *s, long line)
{
    if (!anr_header_quote(s) && !gd_starts(s, "Cmd line: ") && !gd_starts(s, "DALVIK THREADS"))
        return 0;
    start_dump(c, -1, 0, line);
    c->zone_min = INT64_MIN; /* no header, no zone: not the previous dump's */
    c->headless = 1;
    return 1;
}

/* ART's PrettySize ("4484KB", "11MB", "0B") -> bytes; -1 unparsable. */
static double pretty_size(const char *p)
{
    char *e;
    double v = strtod(p, &e);
    if (e == p || v < 0)
        return -1;
    if (gd_starts(e, "GB"))
        return v * 1073741824.0;
    if (gd_starts(e, "MB"))
        return v * 1048576.0;
    if (gd_starts(e, "KB"))
        return v * 1024.0;
    if (*e == 'B')
        return v;
    return -1;
}

/* ART's PrettyDuration ("11.807ms", "1.891s", "12us", "5ns") -> ms; -1. */
static double pretty_ms(const char *p)
{
    char *e;
    double v = strtod(p, &e);
    if (e == p || v < 0)
        return -1;
    if (gd_starts(e, "ms"))
        return v;
    if (gd_starts(e, "us"))
        return v / 1e3;
    if (gd_starts(e, "ns"))
        return v / 1e6;
    if (*e == 's')
        return v * 1e3;
    return -1;
}

/* A line of the dump header before its first thread: the heap and GC
 * figures ART prints (each taken once, the first time it appears).
 * "Heap: 40% free, 4484KB/7592KB; 169353 objects" gives four of them. */
static void header_stat(anr_ctx *c, const char *s, size_t len)
{
    static const struct {
        const char *prefix;
        int slot, ms;
    } lines[] = {
        {"Total bytes allocated ", ANR_H_ALLOCATED, 0},
        {"Free memory until OOME ", ANR_H_FREE_OOME, 0},
        {"Free memory until GC ", -1, 0},
        {"Free memory ", ANR_H_FREE, 0},
        {"Total memory ", ANR_H_TOTAL, 0},
        {"Max memory ", ANR_H_MAX, 0},
        {"Total GC count: ", ANR_H_GC_COUNT, -1},
        {"Total time spent in GC: ", ANR_H_GC_TIME, 1},
        {"Total GC time: ", ANR_H_GC_TIME, 1},
        {"Total blocking GC count: ", ANR_H_GC_BLOCKING_COUNT, -1},
        {"Total blocking GC time: ", ANR_H_GC_BLOCKING_TIME, 1},
    };
    (void)len;
    if (gd_starts(s, "Heap: ")) {
        double pct, used, size, objs;
        char u1[3], u2[3];
        if (c->heap[ANR_H_FREE_PCT] < 0 &&
            sscanf(s + 6, "%lf%% free, %lf%2[KMGB]/%lf%2[KMGB]; %lf objects", &pct, &used, u1, &size,
                   u2, &objs) == 6) {
            char b1[40], b2[40];
            snprintf(b1, sizeof b1, "%.17g%s", used, u1);
            snprintf(b2, sizeof b2, "%.17g%s", size, u2);
            c->heap[ANR_H_FREE_PCT] = pct;
            c->heap[ANR_H_USED] = pretty_size(b1);
            c->heap[ANR_H_SIZE] = pretty_size(b2);
            c->heap[ANR_H_OBJECTS] = objs;
        }
        return;
    }
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        if (!gd_starts(s, lines[i].prefix))
            continue;
        int k = lines[i].slot;
        if (k < 0 || c->heap[k] >= 0)
            return;
        const char *v = s + strlen(lines[i].prefix);
        c->heap[k] = lines[i].ms > 0 ? pretty_ms(v) : lines[i].ms < 0 ? (double)anr_parse_uint(v, NULL)
                                                                      : pretty_size(v);
        return;
    }
}

static int dump_line(anr_ctx *c, char *s, size_t len, long line)
{
    if (s[0] == '"') {
        int rc = anr_end_thread(c);
        if (!rc && anr_thread_header(c, s, line) != 0)
            gd_sink_skip(c->sink, GD_SKIP(ANR_THREAD_HEADER_UNPARSABLE), line, 1);
        return rc;
    }
    if (!c->in_thread) {
        if (gd_starts(s, "Cmd line: ") && !c->has_app && c->nthr == 0) {
            size_t n = gd_trim_right(s + 10, len - 10);
            gd_anr_copy_text(c, c->app, sizeof c->app, s + 10, n);
            /* untrusted text: control bytes never reach a terminal */
            int bad = 0;
            for (char *p = c->app; *p; p++)
                if ((unsigned char)*p < 0x20 || *p == 0x7f) {
                    *p = '?';
                    bad = 1;
                }
            if (bad)
                gd_sink_skip(c->sink, GD_SKIP(ANR_CONTROL_CHARACTERS_IN_CMD_LINE_SHOWN_AS), line, 1);
            c->has_app = 1;
            return 0;
        } else if (gd_starts(s, "Build fingerprint: '") && !c->device[0] && c->nthr == 0) {
            /* the device, as a bugreport names it without ro.product.model */
            char fp[256];
            gd_anr_copy_text(c, fp, sizeof fp, s + 20, gd_trim_right(s + 20, len - 20));
            gd_fingerprint_device(fp, c->device, sizeof c->device);
        }
        const char *nb = c->nthr == 0 ? strstr(s, ">>> ") : NULL, *ne = nb ? strstr(nb + 4, " <<<") : NULL;
        if (ne && !c->native_name[0]) {
            gd_anr_copy_text(c, c->native_name, sizeof c->native_name, nb + 4, (size_t)(ne - nb - 4));
            for (char *p = c->native_name; *p; p++)
                if ((unsigned char)*p < 0x20 || *p == 0x7f)
                    *p = '?';
            return 0;
        }
        if (c->nthr == 0)
            header_stat(c, s, len);
        return 0;  /* other dump header statistics: ignored by design */
    }
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == len)
        return anr_end_thread(c);
    const char *p = s + i;
    if (gd_starts(p, "at ")) {
        size_t n = gd_trim_right(p + 3, len - i - 3);
        if (n == 0) {
            gd_sink_skip(c->sink, GD_SKIP(ANR_FRAME_UNPARSABLE), line, 1);
            return 0;
        }
        return anr_add_frame(c, p + 3, n, "", 0, "", 0, line);
    }
    if (gd_starts(p, "native: #"))
        return anr_native_frame(c, p + 8, line);
    if (p[0] == '#' && isdigit((unsigned char)p[1]))
        return anr_native_frame(c, p, line);
    if (gd_starts(p, "| sysTid=")) {
        int64_t t = anr_parse_uint(p + 9, NULL);
        if (t >= 0)
            c->cur.tid = t;
        return 0;
    }
    if (p[0] == '-' && p[1] == ' ')
        anr_lock_line(c, p);
    /* other detail lines, "(no managed stack frames)", NOTE lines: nothing */
    return 0;
}

/* ---- #48: Waiting Channels kept as evidence, the record's PSI and memory ---- */

/* A line of a kept Waiting Channels section: "Cmd line: X" or
 * "sysTid=N     state=S    wchan" (the kernel's wait channel). */
static void wchan_line(anr_ctx *c, const char *s, size_t len)
{
    anr_wchan *w = &c->wc;
    if (gd_starts(s, "Cmd line: ") && !w->has_app) {
        gd_anr_copy_text(c, w->app, sizeof w->app, s + 10, gd_trim_right(s + 10, len - 10));
        for (char *p = w->app; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
        w->has_app = 1;
        return;
    }
    if (!gd_starts(s, "sysTid="))
        return;
    const char *p;
    int64_t tid = anr_parse_uint(s + 7, &p);
    while (*p == ' ')
        p++;
    if (tid < 0)
        return;
    /* Android 10+ prints the state; older releases only the wait channel */
    size_t ns = 0;
    if (gd_starts(p, "state=")) {
        p += 6;
        ns = strcspn(p, " \t");
    }
    const char *wc = p + ns;
    while (*wc == ' ' || *wc == '\t')
        wc++;
    size_t nw = gd_trim_right(wc, strlen(wc));
    w->threads++;
    if (tid == w->pid) {
        w->main_seen = 1;
        gd_anr_copy_text(c, w->main_state, sizeof w->main_state, p, ns);
        gd_anr_copy_text(c, w->main_wchan, sizeof w->main_wchan, wc, nw);
    }
    if (ns == 1 && *p == 'D') {
        w->n_d++;
        if (w->nd < ANR_MAX_D_THREADS) {
            w->d_tid[w->nd] = tid;
            gd_anr_copy_text(c, w->d_wchan[w->nd], sizeof w->d_wchan[0], wc, nw);
            w->nd++;
        } else
            w->d_over = 1;
    }
}

/* "some avg10=23.26 avg60=5.96 avg300=1.33 total=2722842197" of a
 * /proc/pressure file: {"some": {"avg10", "avg60", "avg300"}} under its name. */
static void psi_line(anr_ctx *c, const char *s)
{
    const char *kind = gd_starts(s, "some ") ? "some" : gd_starts(s, "full ") ? "full" : NULL;
    double a10, a60, a300;
    if (!kind || sscanf(s + 5, "avg10=%lf avg60=%lf avg300=%lf", &a10, &a60, &a300) != 3 || !c->psi_res[0])
        return;
    if (!c->pressure)
        c->pressure = json_object();
    json_t *r = json_object_get(c->pressure, c->psi_res);
    if (!r) {
        r = json_object();
        json_object_set_new(c->pressure, c->psi_res, r);
    }
    json_object_set_new(r, kind, json_pack("{s:f s:f s:f}", "avg10", a10, "avg60", a60, "avg300", a300));
}

/* "RssKb: 504416" (the record's memory lines, Android 13+): 1 when taken. */
static int memory_line(anr_ctx *c, const char *s)
{
    static const char *const keys[] = {"RssHwmKb: ", "RssKb: ", "RssAnonKb: ", "RssShmemKb: ", "VmSwapKb: ", NULL};
    for (const char *const *k = keys; *k; k++) {
        if (!gd_starts(s, *k))
            continue;
        int64_t v = anr_parse_uint(s + strlen(*k), NULL);
        if (v < 0)
            return 0;
        if (!c->memory)
            c->memory = json_object();
        char key[24];
        snprintf(key, sizeof key, "%.*s", (int)(strlen(*k) - 2), *k);
        json_object_set_new(c->memory, key, json_integer(v));
        return 1;
    }
    return 0;
}

static int probe(const unsigned char *h, size_t n, int eof)
{
    (void)eof;
    size_t i = 0;
    while (i < n) {
        const unsigned char *nl = memchr(h + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - h) : n;
        size_t len = end - i;
        char buf[128];
        size_t k = len < sizeof buf - 1 ? len : sizeof buf - 1;
        memcpy(buf, h + i, k);
        buf[k] = 0;
        int64_t pid, zone;
        double ts;
        if (gd_starts(buf, "----- pid ") && parse_dump_header(buf + 10, &pid, &ts, &zone) == 0)
            return 95;
        if (gd_starts(buf, "----- Waiting Channels: pid ") &&
            parse_dump_header(buf + strlen("----- Waiting Channels: pid "), &pid, &ts, &zone) == 0)
            return 90;
        i = end + 1;
    }
    return 0;
}

static int read_anr(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    anr_ctx c;
    memset(&c, 0, sizeof c);
    c.zone_min = INT64_MIN;
    c.sink = sink;
    c.err = err;
    c.section = opts ? opts->anr_section : NULL;
    c.name = opts ? opts->name : NULL;
    c.main_idx = -1;
    c.main_tid = -1;
    char *s;
    size_t len;
    int r, rc = 0;
    while (!rc && (r = gd_input_getline(in, &s, &len, err)) == 1) {
        long line = gd_input_lineno(in);
        c.line = line;
        if (gd_starts(s, "----- "))
            rc = banner(&c, s, line);
        else if (c.where == ANR_IN_DUMP)
            rc = dump_line(&c, s, len, line);
        else if (c.where == ANR_IN_WCHAN_KEEP)
            wchan_line(&c, s, len);
        else if (c.where == ANR_IN_PSI)
            psi_line(&c, s);
        else if (c.where == ANR_OUT) {
            if (c.ndump == 0 && memory_line(&c, s))
                ;
            else if (start_headless(&c, s, line))
                rc = dump_line(&c, s, len, line);
            else if (c.ndump == 0 && !c.has_subject && gd_starts(s, "Subject: ")) {
                /* an ANR record's reason (Android 11+), before its first dump */
                size_t n = gd_trim_right(s + 9, len - 9);
                gd_anr_copy_text(&c, c.subject, sizeof c.subject, s + 9, n);
                for (char *p = c.subject; *p; p++)
                    if ((unsigned char)*p < 0x20 || *p == 0x7f)
                        *p = '?';
                c.has_subject = 1;
                c.subject_line = line;
            } else {
                size_t i = 0;
                while (i < len && isspace((unsigned char)s[i]))
                    i++;
                if (i < len)
                    gd_sink_skip(sink, GD_SKIP(ANR_LINE_OUTSIDE_A_DUMP), line, 1);
            }
        }
    }
    if (!rc && r < 0)
        rc = err->code ? err->code : GD_ERR_IO;
    if (!rc && (c.where == ANR_IN_DUMP || c.where == ANR_IN_BAD_DUMP))
        rc = close_open(&c, gd_input_lineno(in));
    if (!rc && c.wc_held)
        rc = emit_wchan(&c);
    if (!rc && c.has_subject && c.ndump == 0)
        gd_sink_skip(sink, GD_SKIP(ANR_ANR_RECORD_WITHOUT_DUMPS), c.subject_line, 1);
    if (rc && err->code == 0)
        err->code = rc;
    free(c.fbuf);
    free(c.foff);
    free(c.fptr);
    free(c.thr);
    free(c.held);
    free(c.pids);
    json_decref(c.pressure);
    json_decref(c.memory);
    return rc;
}

const gd_reader gd_reader_anr = {
    .name = "anr",
    .description = "Android ANR traces.txt thread dumps (stacks, main thread state, deadlocks)",
    .probe = probe,
    .read = read_anr,
    .clock = "local",
};

/* ==== one thread of an ANR dump: header, frames, lock lines, its stack. ==== */

/* ---- frames of the current thread ---- */

/* The innermost binder frame tells an outgoing call in progress (the thread
 * waits for another process) from an incoming call being served or an idle
 * binder thread.  Java and native (mangled or not) spellings. */
static void classify_binder(anr_thr *t, const char *f)
{
    static const char *const out[] = {"android.os.BinderProxy.transact", "IPCThreadState8transact",
                                      "IPCThreadState15waitForResponse", "IPCThreadState::transact",
                                      "IPCThreadState::waitForResponse"};
    static const char *const in[] = {"android.os.Binder.execTransact", "IPCThreadState14executeCommand",
                                     "IPCThreadState::executeCommand", "IPCThreadState14joinThreadPool",
                                     "IPCThreadState::joinThreadPool",
                                     "IPCThreadState20getAndExecuteCommand",
                                     "IPCThreadState::getAndExecuteCommand"};
    /* every pattern holds one of these two: most frames end here */
    if (!strstr(f, "IPCThreadState") && !strstr(f, "android.os.Binder"))
        return;
    for (size_t i = 0; i < sizeof out / sizeof *out; i++)
        if (strstr(f, out[i])) {
            t->binder_seen = 1;
            anr_copy_str(t->call, sizeof t->call, f, strlen(f));
            return;
        }
    for (size_t i = 0; i < sizeof in / sizeof *in; i++)
        if (strstr(f, in[i])) {
            t->binder_seen = 1;
            return;
        }
}

/* Appends a frame made of up to three pieces; counted skip when over the
 * per-thread bounds.  0 or an error code. */
static int anr_add_frame(anr_ctx *c, const char *a, size_t na, const char *b, size_t nb,
                  const char *z, size_t nz, long line)
{
    size_t len = na + nb + nz;
    if (c->nframes >= ANR_MAX_FRAMES || c->flen + len + 1 > ANR_MAX_FRAME_BYTES) {
        if (!c->frames_over)
            gd_sink_skip(c->sink, GD_SKIP(ANR_FRAMES_OVER_THE_PER_THREAD_LIMIT), line, 1);
        c->frames_over = 1;
        return 0;
    }
    if (gd_grow((void **)&c->fbuf, &c->fcap, c->flen + len + 1, 1, c->err) ||
        gd_grow((void **)&c->foff, &c->foff_cap, c->nframes + 1, sizeof(size_t), c->err))
        return GD_ERR_IO;
    c->foff[c->nframes++] = c->flen;
    memcpy(c->fbuf + c->flen, a, na);
    memcpy(c->fbuf + c->flen + na, b, nb);
    memcpy(c->fbuf + c->flen + na + nb, z, nz);
    c->flen += len;
    c->fbuf[c->flen++] = 0;
    if (!c->cur.binder_seen)
        classify_binder(&c->cur, c->fbuf + c->foff[c->nframes - 1]);
    return 0;
}

/* End of a balanced "(...)" group starting at s[0] == '(' (index of the
 * closing paren), or the last ')' of the line when unbalanced, or -1. */
static long group_end(const char *s)
{
    int depth = 0;
    long last = -1;
    for (long i = 0; s[i]; i++) {
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')') {
            last = i;
            if (--depth == 0)
                return i;
        }
    }
    return last > 0 ? last : -1;
}

/* `#NN pc HEX  /path/lib.so [(deleted)] [(offset 0x..)] [(symbol+N)] [(BuildId: ..)]`
 * starting at the '#' -> "native:lib.so(symbol+N)" or "native:lib.so(pc HEX)". */
static int anr_native_frame(anr_ctx *c, const char *s, long line)
{
    const char *p = s + 1;
    while (isdigit((unsigned char)*p))
        p++;
    while (*p == ' ')
        p++;
    if (!gd_starts(p, "pc ")) {
        gd_sink_skip(c->sink, GD_SKIP(ANR_FRAME_UNPARSABLE), line, 1);
        return 0;
    }
    p += 3;
    const char *pc = p;
    while (isxdigit((unsigned char)*p))
        p++;
    size_t npc = (size_t)(p - pc);
    while (*p == ' ')
        p++;
    const char *path = p;
    while (*p && !(p[0] == ' ' && p[1] == '('))
        p++;
    size_t npath = gd_trim_right(path, (size_t)(p - path));
    const char *base = path;
    for (size_t i = 0; i < npath; i++)
        if (path[i] == '/')
            base = path + i + 1;
    size_t nbase = npath - (size_t)(base - path);
    /* an anonymous mapping, `[anon:dalvik-classes16.dex extracted in memory
     * from /data/app/.../base.apk!classes16.dex]`: the file after the last
     * '/', without the closing bracket (`[vdso]` keeps its brackets) */
    if (npath > 1 && path[0] == '[' && base != path && nbase > 1 && base[nbase - 1] == ']')
        nbase--;
    const char *sym = NULL;
    size_t nsym = 0;
    while (*p == ' ' && p[1] == '(') {
        p++;
        long e = group_end(p);
        if (e < 0)
            break;
        const char *in = p + 1;
        size_t nin = (size_t)e - 1;
        if (!sym && !gd_starts(in, "offset ") && !gd_starts(in, "BuildId:") &&
            !(nin == 7 && gd_starts(in, "deleted"))) {
            sym = in;
            nsym = nin;
        }
        p += e + 1;
    }
    char head[300];
    size_t nh = (size_t)snprintf(head, sizeof head, "native:%.*s(", (int)(nbase > 256 ? 256 : nbase),
                                 base);
    if (nh >= sizeof head)
        nh = sizeof head - 1;
    if (sym)
        return anr_add_frame(c, head, nh, sym, nsym, ")", 1, line);
    char pcs[64];
    int np = snprintf(pcs, sizeof pcs, "pc %.*s)", (int)(npc > 40 ? 40 : npc), pc);
    return anr_add_frame(c, head, nh, pcs, (size_t)np, "", 0, line);
}

/* "- waiting to lock <0x..> (a C) held by thread N" (ART), "held by tid=N
 * (name)" (Dalvik 4.x), "held by threadid=N (name)" (Dalvik 2.x). */
static void anr_lock_line(anr_ctx *c, const char *s)
{
    if (gd_starts(s, "- waiting on <") && !c->cur.wait_obj[0]) {
        /* Object.wait(): the monitor a frame further out "locked" is
         * released while waiting -- not held */
        const char *a = s + strlen("- waiting on <"), *e = strchr(a, '>');
        if (e && e > a)
            gd_anr_copy_text(c, c->cur.wait_obj, sizeof c->cur.wait_obj, a, (size_t)(e - a));
        return;
    }
    if (gd_starts(s, "- locked <")) {
        const char *a = s + strlen("- locked <"), *e = strchr(a, '>');
        if (!e || e == a)
            return;
        for (int i = 0; i < c->cur.nlocked; i++)
            if (strlen(c->cur.locked[i]) == (size_t)(e - a) && memcmp(c->cur.locked[i], a, (size_t)(e - a)) == 0)
                return;  /* a lock taken again further out (recursive) */
        if (c->cur.nlocked == ANR_MAX_LOCKED) {
            c->cur.locked_over = 1;
            return;
        }
        gd_anr_copy_text(c, c->cur.locked[c->cur.nlocked++], sizeof c->cur.locked[0], a, (size_t)(e - a));
        return;
    }
    if (!gd_starts(s, "- waiting to lock <") || c->cur.waiting_on[0])
        return;
    const char *a = s + strlen("- waiting to lock <");
    const char *e = strchr(a, '>');
    if (!e)
        return;
    gd_anr_copy_text(c, c->cur.waiting_on, sizeof c->cur.waiting_on, a, (size_t)(e - a));
    const char *cl = strstr(e, "(a ");
    if (cl) {
        const char *ce = strchr(cl, ')');
        if (ce)
            gd_anr_copy_text(c, c->cur.lock, sizeof c->cur.lock, cl + 3, (size_t)(ce - cl - 3));
    }
    const char *h = strstr(e, "held by thread ");
    if (h)
        c->cur.held_by = anr_parse_uint(h + strlen("held by thread "), NULL);
    else if ((h = strstr(e, "held by tid=")))
        c->cur.held_by = anr_parse_uint(h + strlen("held by tid="), NULL);
    else if ((h = strstr(e, "held by threadid=")))
        c->cur.held_by = anr_parse_uint(h + strlen("held by threadid="), NULL);
}

/* ---- threads ---- */

static void reset_thread(anr_ctx *c)
{
    memset(&c->cur, 0, sizeof c->cur);
    c->cur.tid = c->cur.dtid = c->cur.held_by = -1;
    c->nframes = c->flen = 0;
    c->frames_over = 0;
}

/* The closing quote of a thread header's name: the last '"' followed by
 * " prio=", " daemon" or " sysTid="; NULL when s is no thread header. */
static const char *anr_header_quote(const char *s)
{
    const char *q = NULL;
    if (s[0] != '"')
        return NULL;
    for (const char *p = s + 1; (p = strchr(p, '"')); p++)
        if (gd_starts(p, "\" prio=") || gd_starts(p, "\" daemon") || gd_starts(p, "\" sysTid="))
            q = p;
    return q;
}

/* `"name" [daemon] prio=N tid=N State[ ...]`, `"name" prio=N (not attached)`
 * or `"name" sysTid=N` (native process).  0 ok, -1 not a header. */
static int anr_thread_header(anr_ctx *c, const char *s, long line)
{
    const char *q = anr_header_quote(s);
    if (!q)
        return -1;
    reset_thread(c);
    c->in_thread = 1;
    c->thr_line = line;
    gd_anr_copy_text(c, c->cur.name, sizeof c->cur.name, s + 1, (size_t)(q - s - 1));
    const char *p = q + 1;
    const char *t = strstr(p, " tid=");
    if (t) {
        const char *e;
        c->cur.dtid = anr_parse_uint(t + 5, &e);
        if (c->cur.dtid >= 0 && *e == ' ') {
            e++;
            size_t n = 0;
            while (e[n] && e[n] != ' ')
                n++;
            if (n) {
                gd_anr_copy_text(c, c->cur.state, sizeof c->cur.state, e, n);
                c->cur.has_state = 1;
            }
        }
    }
    const char *st = strstr(p, " sysTid=");
    if (st)
        c->cur.tid = anr_parse_uint(st + 8, NULL);
    return 0;
}

/* An event of kind k about thread t of the current dump, at the dump's time. */
static void anr_event_init(const anr_ctx *c, gd_event *ev, gd_event_kind k, const anr_thr *t, long line)
{
    gd_event_init(ev, k);
    ev->ts = c->ts;
    ev->pid = c->pid;
    ev->tid = t->tid;
    ev->thread = t->name;
    ev->line = line;
}

/* One GD_EV_STACK of thread t with the given frames. */
static int emit_frames(anr_ctx *c, const anr_thr *t, long line, const char *const *frames, size_t n)
{
    gd_event ev;
    anr_event_init(c, &ev, GD_EV_STACK, t, line);
    ev.u.stack.frames = frames;
    ev.u.stack.nframes = n;
    ev.u.stack.state = t->has_state ? t->state : NULL;
    return gd_sink_event(c->sink, &ev, c->err);
}

/* Copies the current thread's frames into the held buffer (a dump without
 * header).  0 held, -1 over the limit, or an error code. */
static int hold_frames(anr_ctx *c)
{
    if (c->held_len + c->flen > ANR_MAX_HELD_BYTES)
        return -1;
    if (gd_grow((void **)&c->held, &c->held_cap, c->held_len + c->flen + 1, 1, c->err))
        return GD_ERR_IO;
    c->cur.hoff = c->held_len;
    c->cur.hlen = c->flen;
    c->cur.hn = c->nframes;
    c->cur.line = c->thr_line;
    if (c->flen)
        memcpy(c->held + c->held_len, c->fbuf, c->flen);
    c->held_len += c->flen;
    return 0;
}

/* Ends the thread being read: emits its stack (or, in a dump without
 * header, holds its frames), keeps its record. */
static int anr_end_thread(anr_ctx *c)
{
    if (!c->in_thread)
        return 0;
    c->in_thread = 0;
    anr_thr *t = &c->cur;
    t->line = c->thr_line;
    if (t->tid < 0)
        t->tid = t->dtid;
    if (t->tid < 0) {
        gd_sink_skip(c->sink, GD_SKIP(ANR_THREAD_WITHOUT_TID), c->thr_line, 1);
        return 0;
    }
    int rc = 0;
    if (c->headless) {
        if (c->nthr >= ANR_MAX_THREADS || (rc = hold_frames(c)) < 0) {
            gd_sink_skip(c->sink, GD_SKIP(ANR_THREAD_OF_A_DUMP_WITHOUT_HEADER_OVER_THE),
                         c->thr_line, 1);
            return 0;
        }
    } else {
        if (gd_grow((void **)&c->fptr, &c->fptr_cap, c->nframes ? c->nframes : 1, sizeof(char *),
                    c->err))
            return GD_ERR_IO;
        for (size_t i = 0; i < c->nframes; i++)
            c->fptr[i] = c->fbuf + c->foff[i];
        rc = emit_frames(c, t, c->thr_line, c->fptr, c->nframes);
    }
    if (rc)
        return rc;
    if (c->nthr >= ANR_MAX_THREADS) {
        if (!c->thr_over)
            gd_sink_skip(c->sink, GD_SKIP(ANR_TOO_MANY_THREADS_FOR_THE_DEADLOCK_CHECK), c->thr_line, 1);
        c->thr_over = 1;
        return 0;
    }
    if (gd_grow((void **)&c->thr, &c->thr_cap, c->nthr + 1, sizeof(anr_thr), c->err))
        return GD_ERR_IO;
    if (c->main_idx < 0 && strcmp(c->cur.name, "main") == 0) {
        c->main_idx = (int64_t)c->nthr;
        c->main_tid = c->cur.tid;
    }
    c->thr[c->nthr++] = c->cur;
    return 0;
}

/* The held threads of a dump without header, now that its pid is known. */
static int anr_emit_held(anr_ctx *c)
{
    int rc = 0;
    for (size_t i = 0; i < c->nthr && !rc; i++) {
        const anr_thr *t = &c->thr[i];
        if (gd_grow((void **)&c->fptr, &c->fptr_cap, t->hn ? t->hn : 1, sizeof(char *), c->err))
            return GD_ERR_IO;
        const char *p = c->held + t->hoff;
        for (size_t k = 0; k < t->hn; k++) {
            c->fptr[k] = p;
            p += strlen(p) + 1;
        }
        rc = emit_frames(c, t, t->line, c->fptr, t->hn);
    }
    return rc;
}

/* ==== the end of an ANR dump: meta, main state, deadlocks, binder waits. ==== */

/* ---- end of a dump: meta, main state, deadlocks ---- */

static int64_t find_dtid(const anr_ctx *c, int64_t dtid)
{
    if (dtid < 0)
        return -1;
    for (size_t i = 0; i < c->nthr; i++)
        if (c->thr[i].dtid == dtid)
            return (int64_t)i;
    return -1;
}

static int emit_issue(anr_ctx *c, const char *type, const char *detail, const anr_thr *who,
                      json_t *j)
{
    char *txt = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!txt)
        return gd_error_oom(c->err);
    gd_event ev;
    anr_event_init(c, &ev, GD_EV_ISSUE, who, c->dump_line);
    ev.u.issue.tool = "anr";
    ev.u.issue.type = type;
    ev.u.issue.detail = detail;
    ev.u.issue.json = txt;
    int rc = gd_sink_event(c->sink, &ev, c->err);
    free(txt);
    return rc;
}

static json_t *jstr(const char *s)
{
    json_t *j = json_string(s);
    return j ? j : json_string("\ufffd");
}

/* A thread waiting for a lock: {"name","tid","dalvik_tid","waiting_on"[,"lock"]}. */
static json_t *waiter_json(const anr_thr *t)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", jstr(t->name));
    json_object_set_new(o, "tid", json_integer(t->tid));
    json_object_set_new(o, "dalvik_tid", json_integer(t->dtid));
    json_object_set_new(o, "waiting_on", jstr(t->waiting_on));
    if (t->lock[0])
        json_object_set_new(o, "lock", jstr(t->lock));
    return o;
}

/* ["0x..", ...] of the locks a thread holds, or NULL when none. */
static json_t *locks_json(const anr_thr *t)
{
    json_t *a = NULL;
    for (int i = 0; i < t->nlocked; i++) {
        if (strcmp(t->locked[i], t->wait_obj) == 0)
            continue;  /* released by Object.wait() */
        if (!a)
            a = json_array();
        json_array_append_new(a, jstr(t->locked[i]));
    }
    return a;
}

static int emit_main_state(anr_ctx *c)
{
    const anr_thr *m = &c->thr[c->main_idx];
    json_t *j = json_object();
    json_object_set_new(j, "name", jstr(m->name));
    json_object_set_new(j, "tid", json_integer(m->tid));
    if (m->has_state)
        json_object_set_new(j, "state", jstr(m->state));
    json_t *held = locks_json(m);
    if (held)
        json_object_set_new(j, "locks_held", held);
    if (c->wc_attach && c->wc.main_seen && m->tid == c->wc.pid) {
        json_object_set_new(j, "kernel_state", c->wc.main_state[0] ? jstr(c->wc.main_state) : json_null());
        json_object_set_new(j, "wchan", jstr(c->wc.main_wchan));
    }
    if (m->call[0])  /* main's innermost binder frame is an outgoing call */
        json_object_set_new(j, "binder_call", jstr(m->call));
    if (m->waiting_on[0]) {
        json_object_set_new(j, "waiting_on", jstr(m->waiting_on));
        if (m->lock[0])
            json_object_set_new(j, "lock", jstr(m->lock));
        int64_t h = find_dtid(c, m->held_by);
        if (h >= 0) {
            const anr_thr *ht = &c->thr[h];
            json_object_set_new(j, "held_by", json_integer(ht->tid));
            json_object_set_new(j, "held_by_name", jstr(ht->name));
            json_object_set_new(j, "holder_state", ht->has_state ? jstr(ht->state) : json_null());
            json_t *hl = locks_json(ht);
            json_object_set_new(j, "holder_locks_held", hl ? hl : json_array());
            if (ht->waiting_on[0])
                json_object_set_new(j, "holder_waiting_on", jstr(ht->waiting_on));
        } else if (m->held_by >= 0) {
            /* the dump names a holder it does not list: said, never guessed */
            json_object_set_new(j, "held_by", json_null());
            json_object_set_new(j, "held_by_dalvik_tid", json_integer(m->held_by));
        }
    }
    return emit_issue(c, "anr_main_state", m->has_state ? m->state : NULL, m, j);
}

/* The name of the process: its "Cmd line:", else a native dump's ">>> name
 * <<<", else the name of the thread whose id is the pid; NULL when none. */
static const char *process_name(const anr_ctx *c, const char **from)
{
    *from = NULL;
    if (c->has_app && c->app[0]) {
        *from = "cmd_line";
        return c->app;
    }
    if (c->native_name[0]) {
        *from = "native_name";
        return c->native_name;
    }
    for (size_t i = 0; i < c->nthr; i++)
        if (c->thr[i].tid == c->pid && c->thr[i].name[0]) {
            *from = "main_thread";
            return c->thr[i].name;
        }
    return NULL;
}

/* One "anr_dump" issue per dump, whatever its threads: its process, its
 * carrier and place in it, the record's subject, heap/GC figures, locks. */
static int emit_dump(anr_ctx *c)
{
    static const char *const heap_keys[ANR_H_N] = {
        [ANR_H_FREE_PCT] = "free_pct", [ANR_H_USED] = "used_bytes", [ANR_H_SIZE] = "size_bytes",
        [ANR_H_OBJECTS] = "objects", [ANR_H_ALLOCATED] = "allocated_bytes", [ANR_H_FREE] = "free_bytes",
        [ANR_H_FREE_OOME] = "free_until_oome_bytes", [ANR_H_TOTAL] = "total_bytes",
        [ANR_H_MAX] = "max_bytes", [ANR_H_GC_COUNT] = "gc_count", [ANR_H_GC_TIME] = "gc_time_ms",
        [ANR_H_GC_BLOCKING_COUNT] = "gc_blocking_count", [ANR_H_GC_BLOCKING_TIME] = "gc_blocking_time_ms"};
    const char *from, *name = process_name(c, &from);
    json_t *j = json_object();
    json_object_set_new(j, "process", name ? jstr(name) : json_null());
    json_object_set_new(j, "process_from", from ? json_string(from) : json_null());
    json_object_set_new(j, "section", json_string(c->section ? c->section : "traces_file"));
    json_object_set_new(j, "index", json_integer(c->ndump - 1));
    json_object_set_new(j, "subject", c->has_subject && c->ndump == 1 ? jstr(c->subject) : json_null());
    json_object_set_new(j, "threads", json_integer((json_int_t)c->nthr));
    json_object_set_new(j, "main_tid", c->main_tid >= 0 ? json_integer(c->main_tid) : json_null());
    json_t *heap = json_object();
    for (int i = 0; i < ANR_H_N; i++)
        if (c->heap[i] >= 0)
            json_object_set_new(heap, heap_keys[i], json_real(c->heap[i]));
    json_object_set_new(j, "heap", json_object_size(heap) ? heap : (json_decref(heap), json_null()));
    json_t *locks = json_array();
    for (size_t i = 0; i < c->nthr; i++) {
        json_t *l = locks_json(&c->thr[i]);
        if (l)
            json_array_append_new(locks, json_pack("{s:o s:I s:o s:b}", "name", jstr(c->thr[i].name), "tid",
                                                   (json_int_t)c->thr[i].tid, "locks", l, "more",
                                                   c->thr[i].locked_over));
    }
    json_object_set_new(j, "locks_held", locks);
    /* each thread waiting for a lock, with its holder (#28 item 2: the
     * binder chain across the dumps of a bugreport walks these) */
    json_t *waits = json_array();
    for (size_t i = 0; i < c->nthr; i++) {
        const anr_thr *t = &c->thr[i];
        if (!t->waiting_on[0])
            continue;
        int64_t h = find_dtid(c, t->held_by);
        json_array_append_new(waits, json_pack("{s:I s:o s:o s:o s:o s:o s:o}", "tid", (json_int_t)t->tid, "name",
                                               jstr(t->name), "state", t->has_state ? jstr(t->state) : json_null(),
                                               "waiting_on", jstr(t->waiting_on), "lock",
                                               t->lock[0] ? jstr(t->lock) : json_null(), "held_by",
                                               h >= 0 ? json_integer(c->thr[h].tid) : json_null(),
                                               "held_by_name", h >= 0 ? jstr(c->thr[h].name) : json_null()));
    }
    json_object_set_new(j, "lock_waits", waits);
    if (c->wc_attach) {
        /* the process's Waiting Channels (#48): every thread's kernel wait */
        const anr_wchan *w = &c->wc;
        json_t *d = json_array();
        for (int i = 0; i < w->nd; i++)
            json_array_append_new(d, json_pack("{s:I s:o}", "tid", (json_int_t)w->d_tid[i], "wchan", jstr(w->d_wchan[i])));
        json_object_set_new(j, "wchan", json_pack("{s:I s:o s:I s:o s:b}", "threads", (json_int_t)w->threads, "main",
                                                  w->main_seen ? json_pack("{s:I s:o s:o}", "tid", (json_int_t)w->pid,
                                                                               "state", w->main_state[0] ? jstr(w->main_state) : json_null(), "wchan",
                                                                               jstr(w->main_wchan))
                                                                   : json_null(),
                                                  "d_count", (json_int_t)w->n_d, "d_threads", d, "d_more", w->d_over));
        json_object_set_new(j, "evidence", json_string(c->nthr ? "stacks" : "waiting_channels"));
    }
    if (c->ndump == 1) {
        /* the record's figures belong to its first dump: the ANR's process */
        if (c->pressure)
            json_object_set(j, "pressure", c->pressure);
        if (c->memory)
            json_object_set(j, "memory_kb", c->memory);
    }
    anr_thr who;
    memset(&who, 0, sizeof who);
    who.tid = c->main_tid >= 0 ? c->main_tid : c->pid;
    anr_copy_str(who.name, sizeof who.name, c->main_idx >= 0 ? c->thr[c->main_idx].name : "", 
                 c->main_idx >= 0 ? strlen(c->thr[c->main_idx].name) : 0);
    return emit_issue(c, "anr_dump", name, &who, j);
}

/* Each thread waits for at most one holder: the wait-for graph is a
 * functional graph; every cycle is found once by walking from each node. */
static int find_deadlocks(anr_ctx *c, const int64_t *next)
{
    size_t n = c->nthr;
    size_t *mark = calloc(n, sizeof *mark);
    int rc = 0;
    if (!mark)
        return gd_error_oom(c->err);
    for (size_t i = 0; i < n && !rc; i++) {
        int64_t j = (int64_t)i;
        while (j >= 0 && mark[j] == 0) {
            mark[j] = i + 1;
            j = next[j];
        }
        if (j < 0 || mark[j] != i + 1)
            continue;
        /* a new cycle through j: start it at its first-listed thread */
        int64_t first = j;
        for (int64_t k = next[j]; k != j; k = next[k])
            if (k < first)
                first = k;
        json_t *arr = json_array();
        int64_t k = first;
        do {
            const anr_thr *t = &c->thr[k], *h = &c->thr[next[k]];
            json_t *o = waiter_json(t);
            json_object_set_new(o, "held_by", json_integer(h->tid));
            json_object_set_new(o, "held_by_dalvik_tid", json_integer(h->dtid));
            json_array_append_new(arr, o);
            k = next[k];
        } while (k != first);
        json_t *j2 = json_object();
        json_object_set_new(j2, "threads", arr);
        rc = emit_issue(c, "deadlock", NULL, &c->thr[first], j2);
    }
    free(mark);
    return rc;
}

/* Threads that hold a lock others wait for (through any chain of lock
 * waits) while in an outgoing binder call: one "binder_wait" issue each.
 * end[i] is where i's chain of waits ends (a thread not waiting for a
 * lock), -1 when it runs into a cycle; each chain is walked once. */
static int find_binder_waits(anr_ctx *c, const int64_t *next)
{
    size_t n = c->nthr;
    int64_t *end = malloc(n * sizeof *end);
    size_t *stamp = calloc(n, sizeof *stamp), *path = malloc(n * sizeof *path);
    if (!end || !stamp || !path) {
        free(end);
        free(stamp);
        free(path);
        return gd_error_oom(c->err);
    }
    for (size_t i = 0; i < n; i++)
        end[i] = -2;  /* not known yet */
    for (size_t i = 0; i < n; i++) {
        size_t np = 0;
        int64_t k = (int64_t)i, t;
        for (;;) {
            if (end[k] != -2) {
                t = end[k];
                break;
            }
            if (stamp[k] == i + 1) {
                t = -1;  /* a cycle: a deadlock, reported as such */
                break;
            }
            stamp[k] = i + 1;
            path[np++] = (size_t)k;
            if (next[k] < 0) {
                t = k;
                break;
            }
            k = next[k];
        }
        while (np)
            end[path[--np]] = t;
    }
    int rc = 0;
    for (size_t h = 0; h < n && !rc; h++) {
        const anr_thr *ht = &c->thr[h];
        if (!ht->call[0] || next[h] >= 0)
            continue;   /* not in a binder call, or itself waiting for a lock */
        json_t *waiters = json_array();
        for (size_t i = 0; i < n; i++) {
            if (i == h || end[i] != (int64_t)h)
                continue;
            const anr_thr *t = &c->thr[i];
            json_t *o = waiter_json(t);
            json_array_append_new(waiters, o);
        }
        if (json_array_size(waiters) == 0) {
            json_decref(waiters);
            continue;
        }
        json_t *j = json_object();
        json_object_set_new(j, "holder", json_pack("{s:o s:I s:I s:o}", "name", jstr(ht->name), "tid",
                                                   (json_int_t)ht->tid, "dalvik_tid",
                                                   (json_int_t)ht->dtid, "call", jstr(ht->call)));
        json_object_set_new(j, "waiters", waiters);
        rc = emit_issue(c, "binder_wait", NULL, ht, j);
    }
    free(end);
    free(stamp);
    free(path);
    return rc;
}

/* The wait-for graph: next[i] is the thread holding the lock i waits for,
 * -1 none.  Each thread waits for at most one lock. */
static int lock_waits(anr_ctx *c)
{
    size_t n = c->nthr;
    if (n == 0)
        return 0;
    int64_t *next = malloc(n * sizeof *next);
    if (!next)
        return gd_error_oom(c->err);
    for (size_t i = 0; i < n; i++) {
        next[i] = c->thr[i].waiting_on[0] ? find_dtid(c, c->thr[i].held_by) : -1;
        if (c->thr[i].waiting_on[0] && c->thr[i].held_by >= 0 && next[i] < 0 && !c->thr_over)
            gd_sink_skip(c->sink, GD_SKIP(ANR_LOCK_HOLDER_NOT_IN_THE_DUMP), c->thr[i].line, 1);
    }
    int rc = find_deadlocks(c, next);
    if (!rc)
        rc = find_binder_waits(c, next);
    free(next);
    return rc;
}

/* A kept Waiting Channels section that no dump of its process followed:
 * a dump of its own (its process's Java dump failed), no stacks. */
static int emit_wchan(anr_ctx *c)
{
    c->wc_held = 0;
    start_dump(c, c->wc.pid, c->wc.ts, c->wc.line);
    c->zone_min = c->wc.zone_min;
    if (c->wc.has_app) {
        memcpy(c->app, c->wc.app, sizeof c->app);
        c->has_app = 1;
    }
    if (c->wc.main_seen)
        c->main_tid = c->wc.pid;
    c->wc_attach = 1;
    return anr_end_dump(c);
}

static int anr_end_dump(anr_ctx *c)
{
    int rc = 0;
    if (c->where == ANR_IN_DUMP) {
        rc = anr_end_thread(c);
        if (!rc && c->main_tid < 0) {
            /* no "main" (native-only dumps, a main thread the OS renamed):
             * the thread whose id is the pid */
            for (size_t i = 0; i < c->nthr && c->main_tid < 0; i++)
                if (c->thr[i].tid == c->pid) {
                    c->main_tid = c->pid;
                    c->main_idx = (int64_t)i;
                }
        }
        if (!rc) {
            gd_meta m;
            gd_meta_init(&m);
            m.pid = c->pid;
            m.app = c->has_app ? c->app : NULL;
            m.device = c->device[0] ? c->device : NULL;
            m.main_tid = c->main_tid;
            if (c->zone_min != INT64_MIN) {
                /* the header named its zone: the times are true instants */
                m.clock = "utc";
                m.utc_offset_min = c->zone_min;
            }
            rc = gd_sink_meta(c->sink, &m, c->err);
        }
        if (!rc)
            rc = emit_dump(c);
        if (!rc && c->main_idx >= 0)
            rc = emit_main_state(c);
        else if (!rc && c->wc_attach && c->wc.main_seen && c->nthr == 0) {
            /* only the Waiting Channels: main is the thread whose id is the pid */
            anr_thr m;
            memset(&m, 0, sizeof m);
            m.tid = c->pid;
            json_t *j = json_pack("{s:I s:o s:o s:s}", "tid", (json_int_t)c->pid, "kernel_state",
                                  c->wc.main_state[0] ? jstr(c->wc.main_state) : json_null(), "wchan", jstr(c->wc.main_wchan), "from", "waiting_channels");
            rc = emit_issue(c, "anr_main_state", NULL, &m, j);
        }
        if (!rc)
            rc = lock_waits(c);
    }
    anr_leave_dump(c);
    return rc;
}
