/* logcat.c - reader of Android logcat text (threadtime, time, brief) for Looper lines. */
#define _GNU_SOURCE /* memmem */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mdstamp.h"
#include "reader.h"
#include "reader/matrix.h"

/*
 * What it reads (one logcat line at a time, hand-parsed, no regex):
 *
 *   threadtime  "05-12 10:31:30.242  2363  2950 D PowerUI : msg"
 *   time        "05-12 10:31:30.242 D/PowerUI ( 2363): msg"
 *   brief       "D/PowerUI ( 2363): msg"
 *
 * The stamp may carry a year ("-v year": "2023-05-12 ...") and 3, 6 or 9
 * fraction digits ("-v usec"/"-v nsec").  Stamps without a year take
 * opts->year (else the current year) for the first line; when the month
 * goes back by six or more (12 -> 01) the year is incremented, and a line
 * whose month jumps forward by six or more (a late 12-31 line right after
 * 01-01 from another buffer) is given the previous year without moving the
 * running year.  Device local time is treated as UTC (logcat prints no zone;
 * every godeye reader does the same, so times stay comparable).
 *
 * What it emits:
 *   - GD_EV_LOOPER for Looper Printer lines (any tag): ">>>>> Dispatching to"
 *     = BEGIN, "<<<<< Finished to" = END; msg = the printed text.
 *   - GD_EV_DISPATCH for "Looper: Slow dispatch took Nms <thread> h=.. c=.. m=..":
 *     Looper logs it right after dispatchMessage() returns, so the dispatch
 *     began at line time - N; dur = N; thread = the thread name; msg = the
 *     printed text.
 *   - GD_EV_ISSUE tool "android" type "slow_delivery" for "Slow delivery took
 *     Nms ...": N is how long a message waited in the queue past its due time
 *     (dispatchStart - msg.when).  That is queueing delay caused by *other*
 *     work, not a dispatch of this message, so it is kept as a finding:
 *     cost_ms = N, ts = the line time (logged after the message's dispatch;
 *     the exact start of the wait is not known), json {"delay_ms","thread","msg"}.
 *   - GD_EV_ISSUE tool "android" type "slow_delivery_drained" for "Looper:
 *     Drained" (the queue caught up after a slow delivery), no json.
 *   - GD_EV_ISSUE tool "android" type "skipped_frames" for "Choreographer:
 *     Skipped N frames!", cost_ms NONE (the frame interval is not in the log),
 *     json {"frames":N}.
 * pid/tid come from the line; time and brief have no tid: tid = pid (the
 * main thread, whose tid equals the pid on Android).
 *
 * Brief lines have no time at all: no meaningful ts can be given, so they are
 * counted ("logcat: brief line without time") and dropped.
 * Other lines: "--------- beginning of <buffer>" and blank lines are ignored;
 * well-formed logcat lines we do not use: "logcat: other line"; lines that
 * fit no layout: "logcat: unparsable line".
 */

enum { LC_NONE = 0, LC_THREADTIME, LC_TIME, LC_BRIEF, LC_BEGINNING };


typedef struct lc_line {
    int layout;
    gd_mdstamp st;
    int64_t pid, tid;
    char level;
    const char *tag;
    size_t tag_len; /* trailing padding removed */
    const char *msg;
    size_t msg_len;
} lc_line;

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Parses a decimal integer of at most 10 digits; returns bytes used or 0. */
static size_t parse_int(const char *p, size_t n, int64_t *out)
{
    size_t i = 0;
    int64_t v = 0;
    while (i < n && is_digit(p[i]) && i < 10) {
        v = v * 10 + (p[i] - '0');
        i++;
    }
    if (i == 0 || (i < n && is_digit(p[i])))
        return 0;
    *out = v;
    return i;
}

static int is_level(char c)
{
    return c == 'V' || c == 'D' || c == 'I' || c == 'W' || c == 'E' || c == 'F' || c == 'A' ||
           c == 'S';
}

static void set_tag(lc_line *l, const char *t, size_t n)
{
    while (n && t[n - 1] == ' ')
        n--;
    l->tag = t;
    l->tag_len = n;
}

/* "TAG(  PID): msg" from p: the first '(' followed by spaces, digits, ')'
 * and ':'.  Returns 0 on success. */
static int parse_tag_pid(const char *p, size_t n, lc_line *l)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != '(')
            continue;
        size_t j = i + 1;
        while (j < n && p[j] == ' ')
            j++;
        int64_t pid;
        size_t k = parse_int(p + j, n - j, &pid);
        if (!k)
            continue;
        j += k;
        if (j + 1 < n && p[j] == ')' && p[j + 1] == ':') {
            set_tag(l, p, i);
            l->pid = l->tid = pid;
            j += 2;
            if (j < n && p[j] == ' ')
                j++;
            l->msg = p + j;
            l->msg_len = n - j;
            return 0;
        }
    }
    return -1;
}

/* "L/TAG(  PID): msg" at p. */
static int parse_level_tag_pid(const char *p, size_t n, lc_line *l)
{
    if (n < 4 || !is_level(p[0]) || p[1] != '/')
        return -1;
    l->level = p[0];
    return parse_tag_pid(p + 2, n - 2, l);
}

/* Classifies one line; fills l for the timed layouts and brief. */
static int parse_line(const char *s, size_t n, lc_line *l)
{
    memset(l, 0, sizeof *l);
    static const char beg[] = "--------- beginning of ";
    if (n >= sizeof beg - 1 && memcmp(s, beg, sizeof beg - 1) == 0)
        return l->layout = LC_BEGINNING;
    size_t i = gd_mdstamp_parse(s, n, 1, &l->st);
    if (!i) {
        if (parse_level_tag_pid(s, n, l) == 0)
            return l->layout = LC_BRIEF;
        return LC_NONE;
    }
    if (i >= n || s[i] != ' ')
        return LC_NONE;
    i++;
    /* time: "L/TAG(" right after one space */
    if (i + 1 < n && is_level(s[i]) && s[i + 1] == '/') {
        if (parse_level_tag_pid(s + i, n - i, l) == 0)
            return l->layout = LC_TIME;
        return LC_NONE;
    }
    /* threadtime: spaces, pid, spaces, tid, ' ', level, ' ', tag ": " msg */
    while (i < n && s[i] == ' ')
        i++;
    size_t k = parse_int(s + i, n - i, &l->pid);
    if (!k)
        return LC_NONE;
    i += k;
    if (i >= n || s[i] != ' ')
        return LC_NONE;
    while (i < n && s[i] == ' ')
        i++;
    k = parse_int(s + i, n - i, &l->tid);
    if (!k)
        return LC_NONE;
    i += k;
    if (i + 2 >= n || s[i] != ' ' || !is_level(s[i + 1]) || s[i + 2] != ' ')
        return LC_NONE;
    l->level = s[i + 1];
    i += 3;
    size_t t0 = i;
    const char *colon = NULL;
    for (size_t j = i; j < n; j++)
        if (s[j] == ':' && (j + 1 == n || s[j + 1] == ' ')) {
            colon = s + j;
            break;
        }
    if (!colon)
        return LC_NONE;
    set_tag(l, s + t0, (size_t)(colon - (s + t0)));
    size_t m = (size_t)(colon - s) + 1;
    if (m < n && s[m] == ' ')
        m++;
    l->msg = s + m;
    l->msg_len = n - m;
    return l->layout = LC_THREADTIME;
}

static int starts(const char *p, size_t n, const char *lit, size_t litlen)
{
    return n >= litlen && memcmp(p, lit, litlen) == 0;
}
#define STARTS(p, n, lit) starts((p), (n), (lit), sizeof(lit) - 1)

static int tag_is(const lc_line *l, const char *t)
{
    size_t n = strlen(t);
    return l->tag_len == n && memcmp(l->tag, t, n) == 0;
}

/* ---- probe ---- */

static int probe(const unsigned char *h, size_t n, int eof)
{
    size_t i = 0;
    int lines = 0, timed = 0, brief = 0, hint = 0;
    while (i < n && lines < 32) {
        const unsigned char *nl = memchr(h + i, '\n', n - i);
        if (!nl && !eof)
            break; /* incomplete last line */
        size_t len = nl ? (size_t)(nl - (h + i)) : n - i;
        const char *s = (const char *)h + i;
        i += len + 1;
        if (len && s[len - 1] == '\r')
            len--;
        if (len == 0)
            continue;
        lc_line l;
        int lay = parse_line(s, len, &l);
        if (lay == LC_BEGINNING) {
            hint = 1;
            continue;
        }
        lines++;
        if (lay == LC_THREADTIME || lay == LC_TIME)
            timed++;
        else if (lay == LC_BRIEF)
            brief++;
    }
    if (timed >= 3 && timed * 2 >= lines)
        return hint ? 95 : 90;
    if (timed >= 1 && (hint || (eof && timed == lines)))
        return 70;
    if (brief >= 3 && brief * 2 >= lines)
        return 25; /* read, but every line is counted as having no time */
    if (hint && lines == 0)
        return 40;
    return 0;
}

/* ---- read ---- */

typedef struct lc_ctx {
    const gd_sink *sink;
    int year;      /* running year for stamps without one */
    int last_mon;  /* month of the last stamp without a year; 0 none */
    char thread[256];
    long line;
} lc_ctx;

static int current_year(void)
{
    time_t t = time(NULL);
    struct tm tm;
    if (!gmtime_r(&t, &tm))
        return 1970;
    return tm.tm_year + 1900;
}

static double stamp_ms(lc_ctx *c, const gd_mdstamp *st)
{
    if (st->year)
        return gd_mdstamp_ms(st->year, st);
    int year = c->year;
    if (c->last_mon && c->last_mon - st->mon >= 6) {
        c->year++;
        year = c->year;
        c->last_mon = st->mon;
    } else if (c->last_mon && st->mon - c->last_mon >= 6) {
        year = c->year - 1; /* a late line from before the New Year */
    } else {
        c->last_mon = st->mon;
    }
    return gd_mdstamp_ms(year, st);
}

/* Copies [p, p+n) into the thread buffer as a C string. */
static const char *thread_name(lc_ctx *c, const char *p, size_t n)
{
    if (n >= sizeof c->thread)
        n = sizeof c->thread - 1;
    memcpy(c->thread, p, n);
    c->thread[n] = 0;
    return c->thread;
}

static int emit_issue(lc_ctx *c, const lc_line *l, double ts, const char *type, double cost,
                      json_t *js, gd_error *err)
{
    gd_event ev;
    gd_event_init(&ev, GD_EV_ISSUE);
    ev.ts = ts;
    ev.pid = l->pid;
    ev.tid = l->tid;
    ev.line = c->line;
    ev.u.issue.tool = "android";
    ev.u.issue.type = type;
    ev.u.issue.cost_ms = cost;
    char *txt = js ? json_dumps(js, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(js);
    ev.u.issue.json = txt;
    int rc = gd_sink_event(c->sink, &ev, err);
    free(txt);
    return rc;
}

/* "Slow dispatch took 335ms android.fg h=..." / "Slow delivery took ..." */
static int looper_slow(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    int dispatch = STARTS(m, n, "Slow dispatch took ");
    if (!dispatch && !STARTS(m, n, "Slow delivery took "))
        return 1;
    size_t i = sizeof("Slow dispatch took ") - 1;
    int64_t took;
    size_t k = parse_int(m + i, n - i, &took);
    if (!k || i + k + 2 > n || m[i + k] != 'm' || m[i + k + 1] != 's')
        return 1;
    i += k + 2;
    const char *thr = NULL;
    if (i < n && m[i] == ' ') {
        i++;
        const char *h = NULL;
        for (size_t j = i; j + 3 <= n; j++)
            if (m[j] == ' ' && m[j + 1] == 'h' && m[j + 2] == '=') {
                h = m + j;
                break;
            }
        if (h)
            thr = thread_name(c, m + i, (size_t)(h - (m + i)));
    }
    if (dispatch) {
        gd_event ev;
        gd_event_init(&ev, GD_EV_DISPATCH);
        ev.ts = ts - (double)took;
        ev.pid = l->pid;
        ev.tid = l->tid;
        ev.thread = thr;
        ev.line = c->line;
        ev.u.dispatch.dur = (double)took;
        ev.u.dispatch.msg = l->msg;
        return gd_sink_event(c->sink, &ev, err);
    }
    json_t *js = json_object();
    json_object_set_new(js, "delay_ms", json_integer(took));
    if (thr)
        json_object_set_new(js, "thread", json_string(thr));
    json_t *ms = json_stringn(l->msg, l->msg_len);
    if (ms)
        json_object_set_new(js, "msg", ms);
    return emit_issue(c, l, ts, "slow_delivery", (double)took, js, err);
}

/* "Skipped 31 frames!  The application may be doing too much work..." */
static int skipped_frames(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    if (!STARTS(m, n, "Skipped "))
        return 1;
    size_t i = sizeof("Skipped ") - 1;
    int64_t frames;
    size_t k = parse_int(m + i, n - i, &frames);
    if (!k || !starts(m + i + k, n - i - k, " frames!", 8))
        return 1;
    json_t *js = json_object();
    json_object_set_new(js, "frames", json_integer(frames));
    return emit_issue(c, l, ts, "skipped_frames", GD_NONE, js, err);
}

/* Returns 0 emitted, 1 not a line we use, or an error code from the sink. */
static int handle(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    int begin = STARTS(m, n, ">>>>> Dispatching to ");
    if (begin || STARTS(m, n, "<<<<< Finished to ")) {
        gd_event ev;
        gd_event_init(&ev, GD_EV_LOOPER);
        ev.ts = ts;
        ev.pid = l->pid;
        ev.tid = l->tid;
        ev.line = c->line;
        ev.u.looper.phase = begin ? GD_PHASE_BEGIN : GD_PHASE_END;
        ev.u.looper.msg = m;
        return gd_sink_event(c->sink, &ev, err);
    }
    if (tag_is(l, "Looper")) {
        if (n == 7 && memcmp(m, "Drained", 7) == 0)
            return emit_issue(c, l, ts, "slow_delivery_drained", GD_NONE, NULL, err);
        return looper_slow(c, l, ts, err);
    }
    if (tag_is(l, "Choreographer") && STARTS(m, n, "Skipped "))
        return skipped_frames(c, l, ts, err);
    return 1;
}

static int read_logcat(gd_input *in, const gd_sink *sink, const gd_read_opts *opts,
                       gd_error *err)
{
    lc_ctx c = {.sink = sink};
    gd_matrix_lines *matrix = NULL;
    c.year = opts && opts->year ? opts->year : current_year();
    char *s;
    size_t n;
    int r;
    while ((r = gd_input_getline(in, &s, &n, err)) == 1) {
        c.line = gd_input_lineno(in);
        if (n == 0)
            continue;
        /* keep_going: a last line without its newline was cut mid-message */
        if (opts && opts->keep_going && gd_input_line_cut(in)) {
            gd_sink_skip(sink, GD_SKIP_TRUNCATED, c.line, 1);
            continue;
        }
        lc_line l;
        switch (parse_line(s, n, &l)) {
        case LC_BEGINNING:
            continue;
        case LC_BRIEF:
            gd_sink_skip(sink, "logcat: brief line without time", c.line, 1);
            continue;
        case LC_NONE:
            gd_sink_skip(sink, "logcat: unparsable line", c.line, 1);
            continue;
        default:
            break;
        }
        /* every timed line moves the year tracking, even the ones we drop */
        int rc = handle(&c, &l, stamp_ms(&c, &l.st), err);
        if (rc == 1 && memmem(s, n, "tag[Trace_", 10)) {
            /* a Matrix trace-canary Issue line inside the logcat */
            if (!matrix && !(matrix = gd_matrix_lines_new(sink, opts, err)))
                return err->code ? err->code : GD_ERR_IO;
            rc = gd_matrix_lines_feed(matrix, s, n, c.line, err);
        }
        if (rc == 1) {
            gd_sink_skip(sink, "logcat: other line", c.line, 1);
        } else if (rc) {
            gd_matrix_lines_free(matrix);
            return rc;
        }
    }
    gd_matrix_lines_free(matrix);
    return r < 0 ? (err->code ? err->code : GD_ERR_IO) : GD_OK;
}

const gd_reader gd_reader_logcat = {
    .name = "logcat",
    .description = "Android logcat text (threadtime, time): Looper Printer and slow-dispatch lines",
    .probe = probe,
    .read = read_logcat,
    .clock = "local",
};
