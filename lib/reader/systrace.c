/* systrace.c - reader of systrace/atrace text and of the systrace HTML report.
 *
 * Carriers:
 *   - ftrace text as `atrace` / `adb shell atrace` prints it: "# tracer:"
 *     header, then one event a line,
 *       TASK-TID (TGID) [CPU] FLAGS TIMESTAMP: FUNCTION: PAYLOAD
 *     with or without the "(TGID)" column ("(-----)" = unknown) and with
 *     or without the FLAGS column; anything before it ("capturing trace...
 *     done", "TRACE:") is a preamble;
 *   - `atrace -z` output: a "TRACE:" line followed by a zlib stream holding
 *     that text (inflated on the fly).  Saved through an old adb pty, every
 *     '\n' byte of the stream got one '\r' before it (two on Windows); when
 *     every '\n' of the first 64 KiB has them, they are removed again, as
 *     systrace's importer does;
 *   - the systrace HTML report: the trace text sits in
 *     `<script class="trace-data">` blocks after `<!-- BEGIN TRACE -->`
 *     (possibly several).  Blocks holding JSON instead of ftrace text are
 *     skipped, counted under "ignored: systrace: trace-data block not
 *     ftrace text"; a "PROCESS DUMP" block names the processes (below).
 *
 * Only `tracing_mark_write` events (atrace markers: B|pid|name, E|pid, C|,
 * S|/F| ...) are used; atrace.h pairs them per thread and emits dispatches
 * (top-level slices on main threads), methods (nested and other threads'
 * slices), frames (Choreographer#doFrame) and lock-contention issues.  Other
 * ftrace events count under "ignored: systrace: ftrace event not used".
 * Times: the ftrace clock in seconds (CLOCK_MONOTONIC/BOOTTIME), kept as
 * ms since boot; meta.clock "monotonic".  Thread names are the TASK column
 * (the kernel's 15-character comm); a process's name is the NAME of its
 * PROCESS DUMP row when the report has one (its main thread then goes by
 * it, atrace.h's rule), else its main thread's comm, and the ingest counts
 * "ignored: systrace: no process dump: ..." to say so.
 *
 * A trace whose markers yield no slice at all is an error ("no atrace
 * slices"), not an empty success; for an HTML report the message says what
 * it held (no BEGIN TRACE section, no trace-data block, blocks that are no
 * ftrace text, the legacy `var linuxPerfData` string, which is not read).
 *
 * Memory: one line at a time (compressed input: a fixed inflate window and
 * the current line, capped at SYS_MAX_ZLINE) plus atrace.h's per-thread
 * state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "atrace.h"
#include "ftrace_binder.h"
#include "ftrace_sched.h"
#include "reader.h"
#include "core/scan.h"
#include "core/skip_reasons.h"

#define SYS_MAX_ZLINE ((size_t)1 << 20)
#define SYS_ZCHUNK 65536

typedef enum {
    M_PREAMBLE, M_TEXT, M_HTML, M_HTML_TRACE, M_HTML_BLOCK, M_HTML_SKIP, M_HTML_PS, M_HTML_DONE
} smode;
/* the form of the `ps` table being read in a PROCESS DUMP block */
typedef enum { PS_NONE, PS_LONG, PS_SHORT } psform;

typedef struct sctx {
    const gd_sink *sink;
    gd_error *err;
    gd_atrace *at;
    gd_sched *sched;     /* thread states from the sched events (#26) */
    gd_binder *binder;   /* binder transactions (#26) */
    smode mode;
    int block_first;     /* next line is the first of a trace-data block */
    psform ps;           /* in a PROCESS DUMP block: the table's form */
    long dump_procs;     /* processes named by PROCESS DUMP blocks */
    long ftrace, markers;
    /* what an HTML report held, for the message when nothing was usable */
    int html, begin;
    long blocks, not_ftrace, legacy;
    /* inflated "atrace -z" text */
    int zon;
    z_stream z;
    unsigned char *zin, *zout, *zflt;
    int crlf;            /* old adb's pty put 1 (or 2, on Windows) '\r' before each '\n' */
    int held;            /* '\r's held at the end of the last chunk */
    size_t zout_pos, zout_len;
    int zend;
    char *zline;
    size_t zline_cap;
    long zlineno;
} sctx;

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* "SECONDS.MICROS:" into ms: 1, or -1 when it starts like one but is not;
 * 0 when the token is not one at all. */
static int ts_value(const char *b, size_t l, double *ms)
{
    if (l < 2 || b[l - 1] != ':' || !is_digit(b[0]))
        return 0;
    char num[40];
    if (--l >= sizeof num)
        return -1;
    memcpy(num, b, l);
    num[l] = 0;
    char *e;
    double sec = strtod(num, &e);
    if (*e)
        return -1;
    *ms = sec * 1000.0;
    return 1;
}

static int is_flag3(char c) { return c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_flag45(char c) { return c == '.' || is_digit(c) || (c >= 'a' && c <= 'f'); }

/* The token after "[CPU]": the timestamp, or the irq flags with the
 * timestamp glued on ("d...316.196740:", "....316.196720:": Perfetto's
 * parser/atrace test_regex_pattern_no_gap_after_irq_flags): three flag
 * letters or dots, then one or two of [0-9a-f.], the shorter first, since
 * the timestamp begins with a digit.  As ts_value. */
static int ts_token(const char *b, size_t l, double *ms)
{
    int r = ts_value(b, l, ms);
    if (r || l < 6 || !is_flag3(b[0]) || !is_flag3(b[1]) || !is_flag3(b[2]))
        return r;
    for (size_t fl = 4; fl <= 5 && is_flag45(b[fl - 1]); fl++)
        if (is_digit(b[fl]) && ts_value(b + fl, l - fl, ms) == 1)
            return 1;
    return 0;
}

/* Parses an ftrace text line.  1 with the fields set, 0 when the line is
 * not an ftrace event. */
typedef struct fline {
    const char *task;
    size_t task_len;
    int64_t tid, tgid;
    double ts_ms;
    const char *func;
    size_t func_len;
    const char *payload;
    size_t payload_len;
    int cpu;
} fline;

static int parse_ftrace(const char *s, size_t n, fline *f)
{
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    size_t start = i;
    /* the CPU column " [ddd]" */
    size_t cpu = 0;
    for (size_t j = start + 1; j + 2 < n; j++) {
        /* "TASK-TID [CPU]", or "TASK-123456[CPU]" when a padded tid fills
         * its column */
        if (s[j] != '[' || (s[j - 1] != ' ' && !is_digit(s[j - 1])) || !is_digit(s[j + 1]))
            continue;
        size_t k = j + 1;
        while (k < n && is_digit(s[k]))
            k++;
        if (k < n && s[k] == ']') {
            cpu = j;
            f->cpu = 0;
            for (size_t q = j + 1; q < k && f->cpu < 100000; q++)
                f->cpu = f->cpu * 10 + (s[q] - '0');
            break;
        }
    }
    if (!cpu)
        return 0;
    size_t le = cpu;
    while (le > start && s[le - 1] == ' ')
        le--;
    f->tgid = -1;
    if (le > start && s[le - 1] == ')') {
        size_t op = le - 1;
        while (op > start && s[op] != '(')
            op--;
        if (s[op] != '(')
            return 0;
        size_t q = op + 1;
        while (q < le - 1 && s[q] == ' ')
            q++;
        if (is_digit(s[q])) {
            int64_t v = 0;
            while (q < le - 1 && is_digit(s[q]) && v < ((int64_t)1 << 40))
                v = v * 10 + (s[q++] - '0');
            f->tgid = v;
        }
        le = op;
        while (le > start && s[le - 1] == ' ')
            le--;
    }
    size_t dash = le;
    while (dash > start && s[dash - 1] != '-')
        dash--;
    if (dash <= start || dash >= le)
        return 0;
    int64_t tid = 0;
    for (size_t q = dash; q < le; q++) {
        if (!is_digit(s[q]) || tid > ((int64_t)1 << 40))
            return 0;
        tid = tid * 10 + (s[q] - '0');
    }
    f->tid = tid;
    f->task = s + start;
    f->task_len = dash - 1 - start;
    /* after "]": optional flags, then "SECONDS.MICROS:" */
    i = cpu + 1;
    while (i < n && s[i] != ']')
        i++;
    i++;
    for (int tok = 0; tok < 2; tok++) {
        while (i < n && s[i] == ' ')
            i++;
        size_t b = i;
        while (i < n && s[i] != ' ')
            i++;
        int r = ts_token(s + b, i - b, &f->ts_ms);
        if (r < 0 || (r == 0 && tok == 1))
            return 0;
        if (r == 1)
            break;
    }
    while (i < n && s[i] == ' ')
        i++;
    size_t fb = i;
    while (i < n && s[i] != ':' && s[i] != ' ')
        i++;
    if (i >= n || s[i] != ':' || i == fb)
        return 0;
    f->func = s + fb;
    f->func_len = i - fb;
    i++;
    if (i < n && s[i] == ' ')
        i++;
    f->payload = s + i;
    f->payload_len = n - i;
    return 1;
}

static int is_func(const fline *f, const char *name)
{
    size_t l = strlen(name);
    return f->func_len == l && memcmp(f->func, name, l) == 0;
}

static int handle_ftrace(sctx *c, const char *s, size_t n, long line)
{
    fline f;
    if (!parse_ftrace(s, n, &f)) {
        gd_sink_skip(c->sink, GD_SKIP(SYSTRACE_LINE_NOT_AN_FTRACE_EVENT), line, 1);
        return 0;
    }
    c->ftrace++;
    if (!is_func(&f, "tracing_mark_write") && !is_func(&f, "print")) {
        int used, rc = gd_sched_text(c->sched, llround(f.ts_ms * 1e6), f.cpu, f.tid, f.tgid, f.func,
                                     f.func_len, f.payload, f.payload_len, line, &used, c->err);
        if (rc || used)
            return rc;
        rc = gd_binder_text(c->binder, llround(f.ts_ms * 1e6), f.tid, f.func, f.func_len, f.payload,
                            f.payload_len, line, &used, c->err);
        if (rc || used)
            return rc;
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_SYSTRACE_FTRACE_EVENT_NOT_USED), line, 0);
        return 0;
    }
    int rc;
    if (f.task_len && !(f.task_len == 5 && memcmp(f.task, "<...>", 5) == 0) &&
        (rc = gd_atrace_thread_name(c->at, f.tid, f.tgid, f.task, f.task_len, c->err)))
        return rc;
    c->markers++;
    return gd_atrace_marker(c->at, f.ts_ms, f.tid, f.tgid, f.payload, f.payload_len, line, c->err);
}

static const char *skip_sp(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* ---- the PROCESS DUMP block (systrace's android_process_data agent) ----
 *
 * A trace-data block whose first line is "PROCESS DUMP" holds `ps` output
 * taken at the start and the end of the capture, in two forms, each after
 * its header line:
 *   long:  USER PID PPID VSZ RSS WCHAN PC S NAME COMM
 *          (ps -A -o USER,PID,PPID,VSIZE,RSS,WCHAN,ADDR=PC,S,NAME,COMM):
 *          one process a row; NAME is its full name (cmdline's first
 *          argument), COMM the kernel's 15-character comm;
 *   short: USER PID TID CMD (ps -AT -o USER,PID,TID,CMD): one thread a row,
 *          with its process.
 * As Perfetto's systrace parser reads it: a long row of at least 10 fields
 * names process PID by NAME; a short row of at least 4 fields says which
 * process thread TID belongs to (its name stays the TASK column's comm).
 * Rows that do not parse are counted and stepped over. */
#define PS_MAX_TOK 10

/* Splits s[0..n) on spaces into at most PS_MAX_TOK fields (the last one
 * runs to the end of the line); the field count, at most PS_MAX_TOK. */
static int ps_fields(const char *s, size_t n, const char **tok, size_t *tl)
{
    int k = 0;
    size_t i = 0;
    while (k < PS_MAX_TOK) {
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i == n)
            break;
        size_t b = i;
        if (k == PS_MAX_TOK - 1)
            i = n;
        else
            while (i < n && s[i] != ' ' && s[i] != '\t')
                i++;
        tok[k] = s + b;
        tl[k] = i - b;
        k++;
    }
    if (k == PS_MAX_TOK) /* the rest of the line, its trailing blanks off */
        while (tl[k - 1] && (tok[k - 1][tl[k - 1] - 1] == ' ' || tok[k - 1][tl[k - 1] - 1] == '\t'))
            tl[k - 1]--;
    return k;
}

static int tok_is(const char *t, size_t l, const char *w) { return strlen(w) == l && memcmp(t, w, l) == 0; }

/* A pid or tid: 1 to 10 digits, at most 2^31 - 1; -1 otherwise. */
static int64_t ps_id(const char *t, size_t l)
{
    if (l == 0 || l > 10)
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < l; i++) {
        if (!is_digit(t[i]))
            return -1;
        v = v * 10 + (t[i] - '0');
    }
    return v <= 2147483647 ? v : -1;
}

static int handle_ps(sctx *c, const char *s, size_t n, long line)
{
    const char *tok[PS_MAX_TOK];
    size_t tl[PS_MAX_TOK];
    int k = ps_fields(s, n, tok, tl);
    if (k == 0)
        return 0;
    if (k >= 4 && tok_is(tok[0], tl[0], "USER") && tok_is(tok[1], tl[1], "PID")) {
        if (k == 4 && tok_is(tok[2], tl[2], "TID") && tok_is(tok[3], tl[3], "CMD")) {
            c->ps = PS_SHORT;
            return 0;
        }
        if (k > 4 && tok_is(tok[2], tl[2], "PPID") && tok_is(tok[3], tl[3], "VSZ")) {
            c->ps = PS_LONG;
            return 0;
        }
    }
    if (c->ps == PS_LONG && k >= PS_MAX_TOK) {
        int64_t pid = ps_id(tok[1], tl[1]);
        if (pid < 0 || ps_id(tok[2], tl[2]) < 0) {
            gd_sink_skip(c->sink, GD_SKIP(SYSTRACE_PROCESS_DUMP_ROW_NOT_PARSED), line, 1);
            return 0;
        }
        c->dump_procs++;
        return gd_atrace_process_name(c->at, pid, tok[8], tl[8], c->err);
    }
    if (c->ps == PS_SHORT && k >= 4) {
        int64_t pid = ps_id(tok[1], tl[1]), tid = ps_id(tok[2], tl[2]);
        if (pid < 0 || tid < 0) {
            gd_sink_skip(c->sink, GD_SKIP(SYSTRACE_PROCESS_DUMP_ROW_NOT_PARSED), line, 1);
            return 0;
        }
        return gd_atrace_thread_name(c->at, tid, pid, NULL, 0, c->err);
    }
    gd_sink_skip(c->sink, GD_SKIP(IGNORED_SYSTRACE_PROCESS_DUMP_LINE_NOT_PS), line, 0);
    return 0;
}

/* One line in the current mode. */
/* "cpus=8": the header line of a trace saved by Perfetto's tools, before
 * its first event (Perfetto's parser/atrace test_cpus_header_removal). */
static int is_cpus_header(const char *t)
{
    if (!gd_starts(t, "cpus="))
        return 0;
    t += 5;
    if (!is_digit(*t))
        return 0;
    while (is_digit(*t))
        t++;
    return *skip_sp(t) == 0;
}

static int handle_line(sctx *c, char *s, size_t n, long line)
{
    const char *t = skip_sp(s);
    switch (c->mode) {
    case M_PREAMBLE:
        if (!*t)
            return 0;
        if (gd_starts(t, "<!DOCTYPE") || gd_starts(t, "<!doctype") || gd_starts(t, "<html")) {
            c->mode = M_HTML;
            c->html = 1;
            return 0;
        }
        if (t[0] == '#') {
            c->mode = M_TEXT;
            return 0;
        }
        if (strcmp(t, "TRACE:") == 0 || gd_starts(t, "capturing trace") || is_cpus_header(t)) {
            gd_sink_skip(c->sink, GD_SKIP(IGNORED_SYSTRACE_PREAMBLE_LINE), line, 0);
            return 0;
        }
        c->mode = M_TEXT;
        return handle_ftrace(c, s, n, line);
    case M_TEXT:
        if (t[0] == '#' || !*t)
            return 0;
        return handle_ftrace(c, s, n, line);
    case M_HTML:
        if (gd_starts(t, "<!-- BEGIN TRACE -->")) {
            c->mode = M_HTML_TRACE;
            c->begin = 1;
        } else if (strstr(t, "linuxPerfData")) {
            c->legacy++; /* the old systrace: the text in a JavaScript string */
        }
        return 0;
    case M_HTML_TRACE:
        if (gd_starts(t, "<!-- END TRACE -->")) {
            c->mode = M_HTML_DONE;
        } else if (gd_starts(t, "<script") && strstr(t, "trace-data")) {
            c->mode = M_HTML_BLOCK;
            c->block_first = 1;
            c->blocks++;
        } else if (strstr(t, "linuxPerfData")) {
            c->legacy++;
        }
        return 0;
    case M_HTML_BLOCK:
    case M_HTML_SKIP:
    case M_HTML_PS:
        if (gd_starts(t, "</script>")) {
            c->mode = M_HTML_TRACE;
            return 0;
        }
        if (c->mode == M_HTML_SKIP)
            return 0;
        if (c->mode == M_HTML_PS)
            return handle_ps(c, s, n, line);
        if (c->block_first) {
            if (!*t)
                return 0;
            c->block_first = 0;
            if (gd_starts(t, "PROCESS DUMP")) {
                c->mode = M_HTML_PS;
                c->ps = PS_NONE;
                return 0;
            }
            if (t[0] != '#') {
                fline f;
                if (!parse_ftrace(s, n, &f)) {
                    gd_sink_skip(c->sink, GD_SKIP(IGNORED_SYSTRACE_TRACE_DATA_BLOCK_NOT_FTRACE),
                                 line, 0);
                    c->not_ftrace++;
                    c->mode = M_HTML_SKIP;
                    return 0;
                }
            }
        }
        if (t[0] == '#' || !*t)
            return 0;
        return handle_ftrace(c, s, n, line);
    case M_HTML_DONE:
        return 0;
    }
    return 0;
}

/* ---- "atrace -z": lines of the zlib stream that follows "TRACE:" ---- */

/* How many '\r' an old adb pty put before each '\n' of the binary stream
 * (systrace's own importer undoes the same): 1 or 2 when every '\n' of the
 * first chunk (at least 4) has them, else 0. */
static int crlf_of(const unsigned char *b, size_t n)
{
    size_t nl = 0, one = 0, two = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i] != '\n')
            continue;
        nl++;
        if (i >= 1 && b[i - 1] == '\r')
            one++;
        if (i >= 2 && b[i - 1] == '\r' && b[i - 2] == '\r')
            two++;
    }
    if (nl < 4)
        return 0;
    return two == nl ? 2 : one == nl ? 1 : 0;
}

/* Hands c->zin[0..k) to inflate, with the pty's '\r's removed in crlf mode
 * (a chunk's trailing '\r's wait for the next chunk's first byte). */
static void feed(sctx *c, size_t k)
{
    if (!c->crlf) {
        c->z.next_in = c->zin;
        c->z.avail_in = (uInt)k;
        return;
    }
    size_t o = 0;
    int pend = c->held;
    for (size_t i = 0; i < k; i++) {
        unsigned char b = c->zin[i];
        if (b == '\r') {
            pend++;
            continue;
        }
        int keep = b == '\n' ? (pend > c->crlf ? pend - c->crlf : 0) : pend;
        while (keep-- > 0)
            c->zflt[o++] = '\r';
        pend = 0;
        c->zflt[o++] = b;
    }
    while (pend > c->crlf) {
        c->zflt[o++] = '\r';
        pend--;
    }
    c->held = pend;
    c->z.next_in = c->zflt;
    c->z.avail_in = (uInt)o;
}

/* 1 when anything but line ends follows the zlib stream: the rest of the
 * chunk inflate left, then the input (read to its end, as ingest would
 * drain it for the hash); -1 on a read error. */
static int data_after_stream(sctx *c, gd_input *in)
{
    const unsigned char *p = c->z.next_in;
    size_t n = c->z.avail_in;
    for (;;) {
        for (size_t i = 0; i < n; i++)
            if (p[i] != '\r' && p[i] != '\n')
                return 1;
        ssize_t k = gd_input_read(in, c->zin, SYS_ZCHUNK, c->err);
        if (k <= 0)
            return k < 0 ? -1 : 0;
        p = c->zin;
        n = (size_t)k;
    }
}

static int zfill(sctx *c, gd_input *in)
{
    if (c->zend)
        return 0;
    for (;;) {
        if (c->z.avail_in == 0) {
            ssize_t k = gd_input_read(in, c->zin, SYS_ZCHUNK, c->err);
            if (k < 0)
                return -1;
            if (k == 0) {
                gd_sink_skip(c->sink, GD_SKIP(SYSTRACE_COMPRESSED_TRACE_CUT_SHORT), c->zlineno, 0);
                c->zend = 1;
                return 0;
            }
            feed(c, (size_t)k);
            if (c->z.avail_in == 0)
                continue;
        }
        c->z.next_out = c->zout;
        c->z.avail_out = SYS_ZCHUNK;
        int zr = inflate(&c->z, Z_NO_FLUSH);
        if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
            gd_error_set(c->err, GD_ERR_DATA, c->zlineno + 1, 0, "bad zlib data after 'TRACE:' (%s)",
                         c->z.msg ? c->z.msg : "inflate failed");
            return -1;
        }
        c->zout_pos = 0;
        c->zout_len = SYS_ZCHUNK - c->z.avail_out;
        if (zr == Z_STREAM_END) {
            c->zend = 1;
            int after = data_after_stream(c, in);
            if (after < 0)
                return -1;
            if (after) /* catapult's reader stops at the stream's end too */
                gd_sink_skip(c->sink, GD_SKIP(IGNORED_SYSTRACE_DATA_AFTER_THE_COMPRESSED_TRACE), c->zlineno, 0);
        }
        if (c->zout_len || c->zend)
            return (int)(c->zout_len > 0);
    }
}

/* Next inflated line: 1, 0 at end, -1 error. */
static int zgetline(sctx *c, gd_input *in, char **line, size_t *len)
{
    size_t acc = 0;
    for (;;) {
        if (c->zout_pos == c->zout_len) {
            int r = zfill(c, in);
            if (r < 0)
                return -1;
            if (r == 0) {
                if (acc == 0)
                    return 0;
                break;
            }
        }
        unsigned char *p = c->zout + c->zout_pos;
        size_t avail = c->zout_len - c->zout_pos;
        unsigned char *nl = memchr(p, '\n', avail);
        size_t k = nl ? (size_t)(nl - p) : avail;
        if (acc + k + 1 > c->zline_cap) {
            if (acc + k + 1 > SYS_MAX_ZLINE) {
                gd_error_set(c->err, GD_ERR_DATA, c->zlineno + 1, 0, "line longer than %zu KiB",
                             SYS_MAX_ZLINE >> 10);
                return -1;
            }
            size_t cap = (acc + k + 1) * 2;
            char *nb = realloc(c->zline, cap);
            if (!nb) {
                gd_error_oom(c->err);
                return -1;
            }
            c->zline = nb;
            c->zline_cap = cap;
        }
        memcpy(c->zline + acc, p, k);
        acc += k;
        c->zout_pos += k + (nl ? 1 : 0);
        if (nl)
            break;
    }
    if (acc && c->zline[acc - 1] == '\r')
        acc--;
    c->zline[acc] = 0;
    *line = c->zline;
    *len = acc;
    c->zlineno++;
    return 1;
}

/* Reads up to n bytes (fewer only at the end): count or -1. */
static ssize_t read_upto(gd_input *in, unsigned char *buf, size_t n, gd_error *err)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = gd_input_read(in, buf + got, n - got, err);
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        got += (size_t)k;
    }
    return (ssize_t)got;
}

static int read_systrace(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    (void)opts;
    sctx c = {.sink = sink, .err = err, .mode = M_PREAMBLE};
    if (!(c.at = gd_atrace_new(sink, "systrace")))
        return gd_error_oom(err);
    if (!(c.sched = gd_sched_new(sink, "systrace")) || !(c.binder = gd_binder_new(sink, "systrace"))) {
        gd_sched_free(c.sched);
        gd_atrace_free(c.at);
        return gd_error_oom(err);
    }
    gd_sched_set_lookup(c.sched, gd_atrace_thread_info, c.at);
    gd_binder_set_process_names(c.binder, gd_atrace_process_of, c.at);
    gd_binder_set_thread_lookup(c.binder, gd_atrace_thread_info, c.at);
    char *s;
    size_t n;
    int r, rc = 0;
    while ((r = gd_input_getline(in, &s, &n, err)) == 1) {
        long line = gd_input_lineno(in);
        while (n && s[n - 1] == '\r')  /* "TRACE:\r\r\n" from adb on Windows */
            s[--n] = 0;
        if (c.mode == M_PREAMBLE && strcmp(skip_sp(s), "TRACE:") == 0) {
            /* "atrace -z": a zlib stream follows (0x78 = deflate, 32K window) */
            gd_sink_skip(sink, GD_SKIP(IGNORED_SYSTRACE_PREAMBLE_LINE), line, 0);
            unsigned char b = 0;
            ssize_t k = gd_input_read(in, &b, 1, err);
            if (k < 0) {
                rc = err->code ? err->code : GD_ERR_IO;
                break;
            }
            if (k == 1 && b == 0x78) {
                /* put the byte back by feeding it first */
                c.zin = malloc(SYS_ZCHUNK);
                c.zout = malloc(SYS_ZCHUNK);
                c.zflt = malloc(SYS_ZCHUNK + 4);
                if (!c.zin || !c.zout || !c.zflt) {
                    rc = gd_error_oom(err);
                    break;
                }
                memset(&c.z, 0, sizeof c.z);
                if (inflateInit(&c.z) != Z_OK) {
                    rc = gd_error_set(err, GD_ERR_IO, 0, 0, "zlib init failed");
                    break;
                }
                c.zon = 1;
                c.zin[0] = b;
                ssize_t more = read_upto(in, c.zin + 1, SYS_ZCHUNK - 1, err);
                if (more < 0) {
                    rc = err->code ? err->code : GD_ERR_IO;
                    break;
                }
                c.crlf = crlf_of(c.zin, (size_t)more + 1);
                if (c.crlf)
                    gd_sink_skip(sink, GD_SKIP(IGNORED_SYSTRACE_ADB_LINE_ENDINGS_UNDONE_IN),
                                 line, 0);
                feed(&c, (size_t)more + 1);
                c.zlineno = line;
                char *zs;
                size_t zn;
                int zr;
                while (!rc && (zr = zgetline(&c, in, &zs, &zn)) == 1)
                    rc = handle_line(&c, zs, zn, c.zlineno);
                if (!rc && zr < 0)
                    rc = err->code ? err->code : GD_ERR_DATA;
                r = 0;
                break;
            }
            if (k == 1) {
                /* plain text follows: the byte starts the next line */
                char first[2] = {(char)b, 0};
                if (b == '\n')
                    continue;
                if ((r = gd_input_getline(in, &s, &n, err)) < 0)
                    break;
                /* rebuild the line with its first byte */
                char *joined = malloc(n + 2);
                if (!joined) {
                    rc = gd_error_oom(err);
                    break;
                }
                joined[0] = first[0];
                if (r == 1)
                    memcpy(joined + 1, s, n + 1);
                else
                    joined[1] = 0;
                rc = handle_line(&c, joined, r == 1 ? n + 1 : 1, line + 1);
                free(joined);
                if (rc || r == 0)
                    break;
            }
            continue;
        }
        if ((rc = handle_line(&c, s, n, line)))
            break;
    }
    if (!rc && r < 0)
        rc = err->code ? err->code : GD_ERR_IO;
    if (!rc)
        rc = gd_sched_finish(c.sched, err);
    if (!rc)
        rc = gd_binder_finish(c.binder, err);
    if (!rc && !c.dump_procs && c.markers)
        gd_sink_skip(sink, GD_SKIP(IGNORED_SYSTRACE_NO_PROCESS_DUMP), 0, 0);
    if (!rc)
        rc = gd_atrace_finish(c.at, err);
    int nothing = gd_atrace_events(c.at) == 0 && gd_sched_states(c.sched) == 0 &&
                  gd_binder_count(c.binder) == 0;
    if (!rc && nothing && c.html) {
        /* say what the report held and why none of it was usable */
        char why[200];
        if (!c.begin)
            snprintf(why, sizeof why, "no <!-- BEGIN TRACE --> section");
        else if (!c.blocks)
            snprintf(why, sizeof why, "no <script class=\"trace-data\"> block after <!-- BEGIN TRACE -->");
        else
            snprintf(why, sizeof why, "%ld trace-data block%s, %ld of them not ftrace text", c.blocks,
                     c.blocks == 1 ? "" : "s", c.not_ftrace);
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0,
                          "no atrace slices and no thread states in the systrace HTML: %s%s; %ld ftrace"
                          " events, %ld atrace markers, %lu sched events",
                          why,
                          c.legacy ? " (the trace data is embedded the legacy way, as a JavaScript string"
                                     " 'var linuxPerfData', which is not read)"
                                   : "",
                          c.ftrace, c.markers, gd_sched_events(c.sched));
    } else if (!rc && nothing)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0,
                          "no atrace slices in the trace (%ld ftrace events, %ld atrace markers) "
                          "and no thread states (%lu sched events)",
                          c.ftrace, c.markers, gd_sched_events(c.sched));
    if (c.zon)
        inflateEnd(&c.z);
    free(c.zin);
    free(c.zout);
    free(c.zflt);
    free(c.zline);
    gd_atrace_free(c.at);
    gd_sched_free(c.sched);
    gd_binder_free(c.binder);
    return rc;
}

/* ---- probe ---- */

static const char *find_in(const unsigned char *h, size_t n, const char *needle)
{
    size_t l = strlen(needle);
    for (size_t i = 0; i + l <= n; i++)
        if (h[i] == (unsigned char)needle[0] && memcmp(h + i, needle, l) == 0)
            return (const char *)h + i;
    return NULL;
}

static int probe(const unsigned char *h, size_t n, int eof)
{
    (void)eof;
    size_t i = 0;
    while (i < n && (h[i] == ' ' || h[i] == '\n' || h[i] == '\r' || h[i] == '\t'))
        i++;
    if (i + 9 <= n && (strncasecmp((const char *)h + i, "<!DOCTYPE", 9) == 0 ||
                       strncasecmp((const char *)h + i, "<html", 5) == 0)) {
        if (find_in(h, n, "<title>Android System Trace</title>") ||
            find_in(h, n, "<!-- BEGIN TRACE -->") || find_in(h, n, "class=\"trace-data\""))
            return 85;
        return 0;
    }
    if (i + 9 <= n && memcmp(h + i, "# tracer:", 9) == 0)
        return 85;
    const char *t = find_in(h, n, "TRACE:");
    if (t && (t == (const char *)h + i || t[-1] == '\n')) {
        size_t off = (size_t)(t - (const char *)h) + 6;
        while (off < n && h[off] == '\r')   /* adb's pty: "\r\n", "\r\r\n" */
            off++;
        if (off >= n || h[off] != '\n')
            return 0;
        off++;
        const char *after = (const char *)h + off;
        if (off < n && ((unsigned char)*after == 0x78 ||
                        (off + 9 <= n && memcmp(after, "# tracer:", 9) == 0)))
            return 85;
    }
    /* text without its header: an event this reader reads (Perfetto's
     * binder diff tests are binder events only) */
    static const char *const events[] = {": tracing_mark_write: ", ": sched_switch: ",
                                          ": binder_transaction: "};
    for (size_t k = 0; k < sizeof events / sizeof *events; k++)
        if (find_in(h, n, events[k]))
            return 60;
    return 0;
}

const gd_reader gd_reader_systrace = {
    .name = "systrace",
    .description = "systrace/atrace text (also atrace -z) and the systrace HTML report: app slices",
    .probe = probe,
    .read = read_systrace,
};
