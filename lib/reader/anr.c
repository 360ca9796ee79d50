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

#include "reader.h"
#include "reader/mdstamp.h"
#include "core/util.h"
#include "core/row.h"
#include "reader/anr_int.h"
/* ---- small parsing helpers ---- */

int anr_starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

void anr_copy_str(char *dst, size_t cap, const char *src, size_t n)
{
    n = gd_utf8_cut(src, n, cap - 1); /* whole characters (#25 item 16) */
    memcpy(dst, src, n);
    dst[n] = 0;
}

void gd_anr_copy_text(anr_ctx *c, char *dst, size_t cap, const char *src, size_t n)
{
    n = gd_sink_cut(c->sink, src, n, cap - 1, c->line);
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* Non-negative decimal at s; -1 when none; *end past it. */
int64_t anr_parse_uint(const char *s, const char **end)
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
    if (*pid < 0 || !anr_starts(p, " at "))
        return -1;
    return parse_stamp(p + 4, ts, zone_min);
}

/* Back outside any dump: the current dump's threads are forgotten. */
void anr_leave_dump(anr_ctx *c)
{
    c->where = ANR_OUT;
    c->in_thread = 0;
    c->nthr = 0;
    c->thr_over = 0;
    c->headless = 0;
    c->held_len = 0;
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
        gd_sink_skip(c->sink, "anr: thread of a dump without header or end line", c->thr[i].line, 1);
    if (c->nthr == 0)
        gd_sink_skip(c->sink, "anr: dump without header or end line", line, 1);
    anr_leave_dump(c);
}

/* The basename of the source starts with "anr_" (/data/anr/anr_2019-...). */
static int named_anr_record(const char *name)
{
    if (!name)
        return 0;
    const char *b = strrchr(name, '/');
    b = b ? b + 1 : name;
    return anr_starts(b, "anr_");
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
        gd_sink_skip(c->sink, "anr: dump without end line", line, 1);
    return anr_end_dump(c);
}

/* A "----- ... -----" line.  Returns 0 or an error code. */
static int banner(anr_ctx *c, const char *s, long line)
{
    int64_t pid;
    double ts;
    if (anr_starts(s, "----- pid ")) {
        int rc = close_open(c, line);
        if (rc)
            return rc;
        if (parse_dump_header(s + strlen("----- pid "), &pid, &ts, &c->zone_min) != 0) {
            gd_sink_skip(c->sink, "anr: dump header unparsable", line, 1);
            count_dump(c);
            c->where = ANR_IN_BAD_DUMP;
            return 0;
        }
        start_dump(c, pid, ts, line);
        return 0;
    }
    if (anr_starts(s, "----- Waiting Channels: pid ")) {
        int rc = close_open(c, line);
        c->where = ANR_IN_WCHAN;
        gd_sink_skip(c->sink, "ignored: anr waiting channels section", line, 1);
        return rc;
    }
    if (anr_starts(s, "----- begin pid ")) {
        int rc = close_open(c, line);
        c->where = ANR_IN_KSTACKS;
        gd_sink_skip(c->sink, "ignored: anr kernel stacks section", line, 1);
        return rc;
    }
    if (anr_starts(s, "----- end ")) {
        if (c->where == ANR_OUT)
            gd_sink_skip(c->sink, "anr: end line outside a dump", line, 1);
        if (c->where == ANR_IN_DUMP && c->headless) {
            int rc = anr_end_thread(c);
            if (rc)
                return rc;
            pid = anr_parse_uint(s + strlen("----- end "), NULL);
            if (pid < 0) {
                drop_headless(c, line);
                return 0;
            }
            gd_sink_skip(c->sink, "anr: dump without header, pid from its end line", c->dump_line, 1);
            c->pid = pid;
            c->ts = 0;  /* time unknown */
            rc = anr_emit_held(c);
            return rc ? rc : anr_end_dump(c);
        }
        return anr_end_dump(c);
    }
    if (c->where == ANR_OUT)
        gd_sink_skip(c->sink, "anr: line outside a dump", line, 1);
    return 0;
}

/* Outside any dump: a thread header or "Cmd line:" opens a dump whose
 * "----- pid" line was lost.  1 when it did, 0 when the line is stray. */
static int start_headless(anr_ctx *c, const char *s, long line)
{
    if (!anr_header_quote(s) && !anr_starts(s, "Cmd line: ") && !anr_starts(s, "DALVIK THREADS"))
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
    if (anr_starts(e, "GB"))
        return v * 1073741824.0;
    if (anr_starts(e, "MB"))
        return v * 1048576.0;
    if (anr_starts(e, "KB"))
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
    if (anr_starts(e, "ms"))
        return v;
    if (anr_starts(e, "us"))
        return v / 1e3;
    if (anr_starts(e, "ns"))
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
    if (anr_starts(s, "Heap: ")) {
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
        if (!anr_starts(s, lines[i].prefix))
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
            gd_sink_skip(c->sink, "anr: thread header unparsable", line, 1);
        return rc;
    }
    if (!c->in_thread) {
        if (anr_starts(s, "Cmd line: ") && !c->has_app && c->nthr == 0) {
            size_t n = anr_trim_right(s + 10, len - 10);
            gd_anr_copy_text(c, c->app, sizeof c->app, s + 10, n);
            /* untrusted text: control bytes never reach a terminal */
            int bad = 0;
            for (char *p = c->app; *p; p++)
                if ((unsigned char)*p < 0x20 || *p == 0x7f) {
                    *p = '?';
                    bad = 1;
                }
            if (bad)
                gd_sink_skip(c->sink, "anr: control characters in Cmd line (shown as '?')", line, 1);
            c->has_app = 1;
            return 0;
        } else if (anr_starts(s, "Build fingerprint: '") && !c->device[0] && c->nthr == 0) {
            /* the device, as a bugreport names it without ro.product.model */
            char fp[256];
            gd_anr_copy_text(c, fp, sizeof fp, s + 20, anr_trim_right(s + 20, len - 20));
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
    if (anr_starts(p, "at ")) {
        size_t n = anr_trim_right(p + 3, len - i - 3);
        if (n == 0) {
            gd_sink_skip(c->sink, "anr: frame unparsable", line, 1);
            return 0;
        }
        return anr_add_frame(c, p + 3, n, "", 0, "", 0, line);
    }
    if (anr_starts(p, "native: #"))
        return anr_native_frame(c, p + 8, line);
    if (p[0] == '#' && isdigit((unsigned char)p[1]))
        return anr_native_frame(c, p, line);
    if (anr_starts(p, "| sysTid=")) {
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
        if (anr_starts(buf, "----- pid ") && parse_dump_header(buf + 10, &pid, &ts, &zone) == 0)
            return 95;
        if (anr_starts(buf, "----- Waiting Channels: pid ") &&
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
        if (anr_starts(s, "----- "))
            rc = banner(&c, s, line);
        else if (c.where == ANR_IN_DUMP)
            rc = dump_line(&c, s, len, line);
        else if (c.where == ANR_OUT) {
            if (start_headless(&c, s, line))
                rc = dump_line(&c, s, len, line);
            else if (c.ndump == 0 && !c.has_subject && anr_starts(s, "Subject: ")) {
                /* an ANR record's reason (Android 11+), before its first dump */
                size_t n = anr_trim_right(s + 9, len - 9);
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
                    gd_sink_skip(sink, "anr: line outside a dump", line, 1);
            }
        }
    }
    if (!rc && r < 0)
        rc = err->code ? err->code : GD_ERR_IO;
    if (!rc && (c.where == ANR_IN_DUMP || c.where == ANR_IN_BAD_DUMP))
        rc = close_open(&c, gd_input_lineno(in));
    if (!rc && c.has_subject && c.ndump == 0)
        gd_sink_skip(sink, "anr: ANR record without dumps", c.subject_line, 1);
    if (rc && err->code == 0)
        err->code = rc;
    free(c.fbuf);
    free(c.foff);
    free(c.fptr);
    free(c.thr);
    free(c.held);
    return rc;
}

const gd_reader gd_reader_anr = {
    .name = "anr",
    .description = "Android ANR traces.txt thread dumps (stacks, main thread state, deadlocks)",
    .probe = probe,
    .read = read_anr,
    .clock = "local",
};
