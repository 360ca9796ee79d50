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
 * rebuilt per thread on the begin/end tracker (slicetrack.h, one track per
 * thread; an exit closes down to its match, gd_slicetrack_end_match):
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
 * of names), the thread names, and each thread's open calls on the tracker
 * (capped: ART_MAX_OPEN in all, GD_CT_MAX_DEPTH per thread; an enter past
 * a cap, and every enter above it until its exit, is dropped and counted).
 * Records are streamed. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltree.h"
#include "reader.h"
#include "core/util.h"
#include "reader/art_trace_int.h"
#include "reader/slicetrack.h"
#include "core/skip_reasons.h"

static int gd_art_bad(art *a, const char *what);
static int gd_art_bin_header(art *a, int streaming_expected);
static int gd_art_classic_records(art *a);
static int gd_art_fill(art *a);
static int gd_art_header_line(art *a, int *sec, int *first, long lineno);
static uint32_t gd_art_le16(const unsigned char *p);
static uint32_t gd_art_le32(const unsigned char *p);
static int gd_art_rd(art *a, void *dst, size_t n);
static int gd_art_streaming_records(art *a);
static int gd_art_text_line(art *a, uint64_t *limit, long lineno);

/* ---- bytes ---------------------------------------------------------------- */

static int gd_art_fill(art *a)
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
static int gd_art_rd(art *a, void *dst, size_t n)
{
    unsigned char *d = dst;
    size_t got = 0;
    while (got < n) {
        int f = gd_art_fill(a);
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

static uint32_t gd_art_le16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t gd_art_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int gd_art_bad(art *a, const char *what)
{
    return gd_error_set(a->err, GD_ERR_DATA, 0, 0, "art method trace: %s at byte %llu", what,
                        (unsigned long long)a->off);
}

/* One text line of at most `*limit` bytes (NULL: unlimited) into a->line
 * without its "\n" (a "\r" before it is dropped).  1 a line, 0 end of
 * input or limit, -1 error (err set). */
static int gd_art_text_line(art *a, uint64_t *limit, long lineno)
{
    size_t n = 0;
    for (;;) {
        if (limit && *limit == 0)
            break;
        int f = gd_art_fill(a);
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

/* ---- the text header (file start, or the streaming summary) --------------- */

static int gd_art_header_line(art *a, int *sec, int *first, long lineno)
{
    char *s = a->line;
    if (s[0] == '*') {
        *sec = strcmp(s, "*version") == 0   ? ART_SEC_VERSION
               : strcmp(s, "*threads") == 0 ? ART_SEC_THREADS
               : strcmp(s, "*methods") == 0 ? ART_SEC_METHODS
               : strcmp(s, "*end") == 0     ? ART_SEC_END
                                            : ART_SEC_OTHER;
        *first = 1;
        return 0;
    }
    if (!*s)
        return 0;
    switch (*sec) {
    case ART_SEC_VERSION: {
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
            a->clock = strcmp(v, "dual") == 0         ? ART_CLK_DUAL
                       : strcmp(v, "thread-cpu") == 0 ? ART_CLK_CPU
                                                      : ART_CLK_WALL;
        } else if (strcmp(s, "pid") == 0) {
            a->pid = strtoll(v, NULL, 10);
        } else if (strcmp(s, "elapsed-time-usec") == 0) {
            a->elapsed_us = strtod(v, NULL);
        } else if (strstr(s, "sampling") && *v && strcmp(v, "false") != 0 && strcmp(v, "0") != 0) {
            a->hdr_sampled = 1; /* a header that says the trace was sampled */
        } else if (strcmp(s, "data-file-overflow") == 0 && strcmp(v, "true") == 0) {
            gd_sink_skip(a->sink, GD_SKIP(ART_TRACE_BUFFER_OVERFLOWED_LATER_CALLS_NOT), lineno, 1);
        }
        return 0;
    }
    case ART_SEC_THREADS: {
        char *e;
        long tid = strtol(s, &e, 10);
        if (e == s || (*e != '\t' && *e != ' ') || tid <= 0) {
            gd_sink_skip(a->sink, GD_SKIP(ART_THREAD_LINE_UNPARSABLE), lineno, 1);
            return 0;
        }
        if (tid >= ART_MAX_THREADS)
            return 0; /* records carry 16-bit ids: this one cannot occur */
        return gd_art_thread_name(a, (unsigned)tid, e + 1, strlen(e + 1));
    }
    case ART_SEC_METHODS:
        return gd_art_method_line(a, s, lineno);
    default:
        return 0;
    }
}

/* ---- reader --------------------------------------------------------------- */

static void art_free(art *a)
{
    for (size_t i = 0; a->th && i < a->nused; i++) {
        art_thread *t = a->th[a->used[i]];
        free(t->name);
        free(t);
    }
    gd_slicetrack_free(a->st);
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
        !(a->used = malloc(ART_MAX_THREADS * sizeof *a->used)) ||
        !(a->st = gd_slicetrack_new(ART_MAX_THREADS, GD_CT_MAX_DEPTH,
                                    (size_t)ART_MAX_OPEN * (sizeof(gd_slice) + 1)))) {
        if (a) {
            free(a->th);
            free(a->used);
        }
        free(a);
        return gd_error_oom(err);
    }
    gd_slicetrack_limit_slices(a->st, ART_MAX_OPEN); /* nameless calls: the count bounds */
    a->in = in;
    a->sink = sink;
    a->err = err;
    a->pid = a->main_tid = -1;
    a->last_ts = -1e300;
    int rc = 0, f = gd_art_fill(a);
    if (f < 0) {
        rc = err->code ? err->code : GD_ERR_IO;
    } else if (f > 0 && a->buf[0] == '*') {
        /* classic: the text header first; without a clock= line the
         * times are thread-cpu (Dalvik's default, as Android's own
         * VmTraceParser reads them) */
        a->clock = ART_CLK_CPU;
        int sec = ART_SEC_NONE, first = 0, r = 1;
        long lineno = 0;
        while (!rc && sec != ART_SEC_END && (r = gd_art_text_line(a, NULL, ++lineno)) == 1)
            rc = gd_art_header_line(a, &sec, &first, lineno);
        if (!rc && r < 0)
            rc = err->code;
        if (!rc && sec != ART_SEC_END)
            rc = gd_error_set(err, GD_ERR_DATA, lineno, 1, "art method trace: header without *end");
        if (!rc && (a->version < 1 || a->version > 3))
            rc = gd_error_set(err, GD_ERR_DATA, 2, 1,
                              "art method trace: unsupported version %d (versions 1 to 3 are read)",
                              a->version);
        if (!rc && !(rc = gd_art_bin_header(a, 0)))
            rc = gd_art_classic_records(a);
    } else if (!(rc = gd_art_bin_header(a, 1))) {
        rc = gd_art_streaming_records(a);
        if (!rc)
            rc = gd_art_send_meta(a);
    }
    if (!rc)
        rc = gd_art_finish(a);
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

/* ==== the binary part of an ART/Dalvik method trace. ==== */

/* ---- binary part ---------------------------------------------------------- */

static int gd_art_bin_header(art *a, int streaming_expected)
{
    unsigned char h[18];
    int r = gd_art_rd(a, h, 16);
    if (r < 0)
        return a->err->code;
    if (r != 1 || memcmp(h, ART_MAGIC, 4) != 0)
        return gd_art_bad(a, "no \"SLOW\" data header");
    uint32_t ver = gd_art_le16(h + 4), off = gd_art_le16(h + 6);
    a->streaming = (ver & 0xF0) == 0xF0;
    int v = (int)(ver & 0x0F);
    if ((ver & 0xFF00) || (ver & 0xF0 && !a->streaming) || v < 1 || v > 3 ||
        (streaming_expected >= 0 && a->streaming != streaming_expected))
        return gd_error_set(a->err, GD_ERR_DATA, 0, 0,
                            "art method trace: unsupported data version 0x%x at byte 4 "
                            "(versions 1 to 3 are read)", ver);
    a->start_us = (uint64_t)gd_art_le32(h + 8) | (uint64_t)gd_art_le32(h + 12) << 32;
    a->version = v; /* the record layout follows the data header */
    uint32_t rs = 0;
    size_t at = 16;
    if (v >= 3) {
        if ((r = gd_art_rd(a, h + 16, 2)) != 1)
            return r < 0 ? a->err->code : gd_art_bad(a, "data header cut short");
        rs = gd_art_le16(h + 16);
        at = 18;
    }
    if (off < at || off > 4096)
        return gd_art_bad(a, "data offset out of range");
    if ((r = gd_art_rd(a, NULL, off - at)) != 1 && off > at)
        return r < 0 ? a->err->code : gd_art_bad(a, "data header cut short");
    if (v == 1)
        rs = 9;
    else if (v == 2)
        rs = 10;
    else if (rs == 0)
        rs = a->clock == ART_CLK_DUAL ? 14 : 10;
    if (rs < (v == 1 ? 9u : 10u) || rs > 64)
        return gd_error_set(a->err, GD_ERR_DATA, 0, 0,
                            "art method trace: record size %u out of range at byte 16", rs);
    a->recsize = (int)rs;
    if (v < 3 && a->clock == ART_CLK_DUAL)
        a->clock = ART_CLK_WALL;
    if (rs >= 14 && (a->streaming || !a->have_clock))
        a->clock = ART_CLK_DUAL;
    else if (rs < 14 && a->clock == ART_CLK_DUAL)
        a->clock = ART_CLK_WALL;
    /* a streaming trace's pid comes with its summary, at the end */
    return a->streaming ? 0 : gd_art_send_meta(a);
}

/* One record after its thread id (already read: tid, and the first bytes
 * in p).  0 or an error. */
static int bin_record(art *a, unsigned tid, unsigned char *p, size_t have)
{
    size_t rest = (size_t)a->recsize - have;
    int r = gd_art_rd(a, p + have, rest);
    if (r < 0)
        return a->err->code;
    if (r != 1) {
        gd_sink_skip(a->sink, GD_SKIP(ART_RECORD_CUT_SHORT_AT_THE_END), 0, 0);
        return 1;
    }
    size_t m = a->version == 1 ? 1 : 2;
    uint32_t mv = gd_art_le32(p + m), t1 = gd_art_le32(p + m + 4), t2 = a->recsize >= 14 ? gd_art_le32(p + m + 8) : 0;
    uint32_t cpu = a->clock == ART_CLK_DUAL ? t1 : a->clock == ART_CLK_CPU ? t1 : 0;
    uint32_t wall = a->clock == ART_CLK_DUAL ? t2 : t1;
    return gd_art_record(a, tid, mv, cpu, wall);
}

static int gd_art_classic_records(art *a)
{
    unsigned char p[64];
    for (;;) {
        int r = gd_art_rd(a, p, 1);
        if (r < 0)
            return a->err->code;
        if (r == 0)
            return 0;
        unsigned tid = p[0];
        size_t have = 1;
        if (a->version != 1) {
            if ((r = gd_art_rd(a, p + 1, 1)) != 1) {
                if (r < 0)
                    return a->err->code;
                gd_sink_skip(a->sink, GD_SKIP(ART_RECORD_CUT_SHORT_AT_THE_END), 0, 0);
                return 0;
            }
            tid = gd_art_le16(p);
            have = 2;
        }
        int rc = bin_record(a, tid, p, have);
        if (rc)
            return rc == 1 ? 0 : rc;
    }
}

static int gd_art_streaming_records(art *a)
{
    unsigned char p[64];
    for (;;) {
        int r = gd_art_rd(a, p, 2);
        if (r < 0)
            return a->err->code;
        if (r == 0)
            return 0;
        if (r == 2) {
            gd_sink_skip(a->sink, GD_SKIP(ART_RECORD_CUT_SHORT_AT_THE_END), 0, 0);
            return 0;
        }
        unsigned tid = gd_art_le16(p);
        if (tid) {
            int rc = bin_record(a, tid, p, 2);
            if (rc)
                return rc == 1 ? 0 : rc;
            continue;
        }
        uint64_t at = a->off - 2;
        if ((r = gd_art_rd(a, p, 1)) != 1)
            return r < 0 ? a->err->code : (gd_sink_skip(a->sink, GD_SKIP(ART_RECORD_CUT_SHORT_AT_THE_END), 0, 0), 0);
        unsigned op = p[0];
        if (op == 1 || op == 2) {
            size_t hn = op == 1 ? 2 : 4;
            if ((r = gd_art_rd(a, p, hn)) != 1)
                return r < 0 ? a->err->code : (gd_sink_skip(a->sink, GD_SKIP(ART_RECORD_CUT_SHORT_AT_THE_END), 0, 0), 0);
            size_t n = gd_art_le16(p + hn - 2);
            if ((r = gd_art_rd(a, a->line, n)) != 1)
                return r < 0 ? a->err->code : (gd_sink_skip(a->sink, GD_SKIP(ART_RECORD_CUT_SHORT_AT_THE_END), 0, 0), 0);
            a->line[n] = 0;
            int rc;
            if (op == 2) {
                rc = gd_art_thread_name(a, gd_art_le16(p), a->line, n);
            } else {
                while (n && (a->line[n - 1] == '\n' || a->line[n - 1] == '\r'))
                    a->line[--n] = 0;
                rc = memchr(a->line, 0, n) ? (gd_sink_skip(a->sink, GD_SKIP(ART_METHOD_LINE_UNPARSABLE), 0, 0), 0)
                                           : gd_art_method_line(a, a->line, 0);
            }
            if (rc)
                return rc;
        } else if (op == 3) {
            if ((r = gd_art_rd(a, p, 4)) != 1)
                return r < 0 ? a->err->code : (gd_sink_skip(a->sink, GD_SKIP(ART_RECORD_CUT_SHORT_AT_THE_END), 0, 0), 0);
            uint64_t limit = gd_art_le32(p);
            int sec = ART_SEC_NONE, first = 0;
            long lineno = 0;
            a->pid = -1;
            while ((r = gd_art_text_line(a, &limit, ++lineno)) == 1) {
                int rc = gd_art_header_line(a, &sec, &first, lineno);
                if (rc)
                    return rc;
            }
            if (r < 0)
                return a->err->code;
            if (limit)
                gd_sink_skip(a->sink, GD_SKIP(ART_SUMMARY_CUT_SHORT_AT_THE_END), 0, 0);
            /* anything after the summary is not part of the trace */
            if (gd_art_fill(a) > 0)
                gd_sink_skip(a->sink, GD_SKIP(ART_BYTES_AFTER_THE_SUMMARY), 0, 0);
            return 0;
        } else {
            a->off = at;
            return gd_error_set(a->err, GD_ERR_DATA, 0, 0,
                                "art method trace: unknown special record %u at byte %llu", op,
                                (unsigned long long)at);
        }
    }
}
