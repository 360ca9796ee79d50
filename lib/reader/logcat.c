/* logcat.c - reader of Android logcat text (threadtime, time, uid, Android
 * Studio copies) for Looper, slow-dispatch and app launch lines. */
#define _GNU_SOURCE /* memmem */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mdstamp.h"
#include "reader.h"
#include "analysis/blocks.h"
#include "reader/component.h"
#include "reader/matrix.h"
#include "io/textin.h"

/*
 * What it reads (one logcat line at a time, hand-parsed, no regex), in
 * UTF-8 (a leading BOM is dropped) or UTF-16 with a BOM (PowerShell
 * redirection):
 *
 *   threadtime  "05-12 10:31:30.242  2363  2950 D PowerUI : msg"
 *   uid         "08-15 15:08:46.123  1000  1234  1234 W Looper  : msg"
 *               (-v uid, bugreports; the uid may be a name: "u0_a45", "logd")
 *   time        "05-12 10:31:30.242 D/PowerUI ( 2363): msg"
 *               (with -v uid: "D/PowerUI (u0_a8: 2363): msg")
 *   brief       "D/PowerUI ( 2363): msg"
 *   Studio      "2019-01-21 12:09:25.094 7788-7886/com.pkg E/tag: msg"
 *               (Android Studio's Logcat window before Dolphin, copied)
 *   Studio new  "2024-01-21 12:09:25.094  7788-7886  tag  com.pkg  E  msg"
 *               (Dolphin and later: columns padded with spaces; the tag
 *               may hold single spaces, the package column none)
 *
 * The stamp may carry a year ("-v year": "2023-05-12 ...") and 3, 6 or 9
 * fraction digits ("-v usec"/"-v nsec").  Stamps without a year take
 * opts->year (else the current year) for the first line; when the month
 * goes back by six or more (12 -> 01) the year is incremented, and a line
 * whose month jumps forward by six or more (a late 12-31 line right after
 * 01-01 from another buffer) is given the previous year without moving the
 * running year.  Logcat prints the device's wall clock without a zone: the
 * meta says clock "local" and the times are that wall clock read as if it
 * were UTC (every godeye reader of zone-less text does the same).
 *
 * What it emits:
 *   - GD_EV_LOOPER for Looper Printer lines (any tag): ">>>>> Dispatching to"
 *     = BEGIN, "<<<<< Finished to" = END; msg = the printed text.
 *   - GD_EV_DISPATCH for "Looper: Slow dispatch took Nms <thread> h=.. c=.. m=..":
 *     Looper logs it right after dispatchMessage() returns, so the dispatch
 *     began at line time - N; dur = N; thread = the thread name (up to the
 *     first " key=" field: some builds add "app=.. main=true group=.."
 *     before h=); msg = the printed text.
 *   - GD_EV_ISSUE tool "android" type "slow_delivery" for "Slow delivery took
 *     Nms ...": N is how long a message waited in the queue past its due time
 *     (dispatchStart - msg.when).  That is queueing delay caused by *other*
 *     work, not a dispatch of this message, so it is kept as a finding:
 *     cost_ms = N, ts = the line time (logged after the message's dispatch;
 *     the exact start of the wait is not known), json {"delay_ms","thread","msg"}.
 *   - GD_EV_ISSUE tool "android" type "slow_delivery_drained" for "Looper:
 *     Drained" (the queue caught up after a slow delivery), no json.
 *   - MIUI's "Looper: Slow Looper <thread>: ..." lines:
 *       "Long Msg: seq=.. plan=.. late=Lms wall=Wms running=.. h=.. c=.."
 *         a dispatch of W ms that ends at the line's time (logged after the
 *         message ran); its late= is left in msg (the "is late" line that
 *         follows a late message reports the same delay);
 *       "<what> is Nms late [(wall=Wms ...)] because of K msg[, msg I took
 *        Mms (seq=.. h=.. w=..)]..."
 *         the late message waited N ms: a "slow_delivery" issue, cost N,
 *         json {"delay_ms","thread","late":"<what>","msg"}; each "msg I
 *         took Mms" is a dispatch of M ms.  They ran before the late
 *         message: the last one ends where the late message began (line
 *         time - W, W from "(wall=Wms" or from the "Long Msg" line just
 *         logged for the same late message on that thread, else 0) and the
 *         earlier ones are placed back to back before it (the short
 *         messages between them are not listed, so their places are
 *         approximate, their durations exact); msg = "msg I took ...(...)".
 *   - GD_EV_ISSUE tool "android" type "skipped_frames" for "Choreographer:
 *     Skipped N frames!", cost_ms NONE (the frame interval is not in the log),
 *     json {"frames":N}.
 *   - GD_EV_STARTUP source "logcat" for ActivityManager/ActivityTaskManager
 *     "Displayed pkg/.Act[ for user 0]: +1s234ms[ (total +1s300ms)]":
 *     app = pkg, activity = the class with the package expanded, total_ms =
 *     the "total" figure when printed (the whole launch, from its first
 *     activity) else the Displayed one, kind NULL (the line does not say),
 *     ts = the line's time; and for the events buffer's
 *     "am_activity_launch_time: [user,token,pkg/.Act,this,total]" (Android
 *     <= 9) / "wm_activity_launch_time: [user,token,pkg/.Act,ms]" (10+):
 *     total_ms = the last figure.  Both lines report one launch: the second
 *     one seen (same component, same ms, within a second) is counted
 *     "logcat: launch already read from the other buffer", not emitted
 *     again.  "Fully drawn pkg/.Act: +Nms" (reportFullyDrawn()) is a later
 *     point of the same launch that the startup event has no field for: it
 *     is counted ("logcat: Fully drawn line (not kept)").
 * pid/tid come from the line; time and brief have no tid: tid = pid (the
 * main thread, whose tid equals the pid on Android).
 *
 * Brief lines have no time at all: no meaningful ts can be given, so they are
 * counted ("logcat: brief line without time") and dropped.
 * Other lines: "--------- beginning of <buffer>" and blank lines are ignored;
 * well-formed logcat lines we do not use: "logcat: other line"; lines
 * starting with a space or tab (Android Studio's continuation lines of a
 * multi-line message): "logcat: continuation line"; lines that fit no
 * layout: "logcat: unparsable line".
 */

enum { LC_NONE = 0, LC_THREADTIME, LC_TIME, LC_BRIEF, LC_BEGINNING, LC_CONT };


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

/* A uid column's word: digits or a user name ("u0_a45", "system"). */
static size_t word_len(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && ((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
                     is_digit(p[i]) || p[i] == '_'))
        i++;
    return i;
}

static void set_tag(lc_line *l, const char *t, size_t n)
{
    while (n && t[n - 1] == ' ')
        n--;
    l->tag = t;
    l->tag_len = n;
}

static void set_msg(lc_line *l, const char *s, size_t m, size_t n)
{
    l->msg = s + m;
    l->msg_len = n - m;
}

/* "TAG(  PID): msg" or, with -v uid, "TAG(UID:  PID): msg" from p: the
 * first '(' followed by spaces, [word ':' spaces] digits, ')' and ':'.
 * Returns 0 on success. */
static int parse_tag_pid(const char *p, size_t n, lc_line *l)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != '(')
            continue;
        size_t j = i + 1;
        while (j < n && p[j] == ' ')
            j++;
        size_t w = word_len(p + j, n - j);
        if (w && j + w < n && p[j + w] == ':') {
            j += w + 1;
            while (j < n && p[j] == ' ')
                j++;
        }
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
            set_msg(l, p, j, n);
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

/* "TAG: msg" from s[i..n): the tag ends at the first ':' followed by a space
 * or the end of the line. */
static int parse_tag_colon(const char *s, size_t i, size_t n, lc_line *l)
{
    for (size_t j = i; j < n; j++)
        if (s[j] == ':' && (j + 1 == n || s[j + 1] == ' ')) {
            set_tag(l, s + i, j - i);
            size_t m = j + 1;
            if (m < n && s[m] == ' ')
                m++;
            set_msg(l, s, m, n);
            return LC_THREADTIME;
        }
    return LC_NONE;
}

/* Android Studio, from s[i] just past "PID-TID":
 *   before Dolphin  "/pkg L/tag: msg"
 *   Dolphin+        "  tag  pkg  L  msg" (columns padded with spaces) */
static int parse_studio(const char *s, size_t i, size_t n, lc_line *l)
{
    if (i < n && s[i] == '/') {
        const char *sp = memchr(s + i, ' ', n - i);
        if (!sp)
            return LC_NONE;
        i = (size_t)(sp - s) + 1;
        if (i + 2 > n || !is_level(s[i]) || s[i + 1] != '/')
            return LC_NONE;
        l->level = s[i];
        return parse_tag_colon(s, i + 2, n, l);
    }
    if (i >= n || s[i] != ' ')
        return LC_NONE;
    /* the level column: " L  " (or " L" ending the line) */
    size_t j;
    for (j = i; j + 2 <= n; j++)
        if (s[j] == ' ' && is_level(s[j + 1]) &&
            (j + 2 == n || (s[j + 2] == ' ' && (j + 3 == n || s[j + 3] == ' '))))
            break;
    if (j + 2 > n)
        return LC_NONE;
    l->level = s[j + 1];
    size_t a = i, b = j;
    while (a < b && s[a] == ' ')
        a++;
    while (b > a && s[b - 1] == ' ')
        b--;
    /* tag, then the package column: the last word */
    size_t t = b;
    while (t > a && s[t - 1] != ' ')
        t--;
    set_tag(l, s + a, t > a ? t - a : b - a);
    size_t m = j + 2;
    if (m < n)
        m++;
    if (m < n && s[m] == ' ')
        m++;
    set_msg(l, s, m, n);
    return LC_THREADTIME;
}

/* Classifies one line; fills l for the timed layouts and brief. */
static int parse_line(const char *s, size_t n, lc_line *l)
{
    memset(l, 0, sizeof *l);
    static const char beg[] = "--------- beginning of ";
    if (n >= sizeof beg - 1 && memcmp(s, beg, sizeof beg - 1) == 0)
        return l->layout = LC_BEGINNING;
    if (n && (s[0] == ' ' || s[0] == '\t'))
        return l->layout = LC_CONT;
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
    while (i < n && s[i] == ' ')
        i++;
    /* Android Studio: "PID-TID" */
    size_t k = parse_int(s + i, n - i, &l->pid);
    if (k && i + k < n && s[i + k] == '-') {
        size_t t = parse_int(s + i + k + 1, n - i - k - 1, &l->tid);
        if (!t)
            return LC_NONE;
        return l->layout = parse_studio(s, i + k + 1 + t, n, l);
    }
    /* threadtime: [uid] pid tid, spaces between, then " L " */
    const char *col[3];
    size_t ncol = 0;
    for (;;) {
        if (ncol >= 2 && i + 1 < n && is_level(s[i]) && s[i + 1] == ' ')
            break;
        if (ncol == 3)
            return LC_NONE;
        size_t w = word_len(s + i, n - i);
        if (!w || i + w >= n || s[i + w] != ' ')
            return LC_NONE;
        col[ncol++] = s + i;
        i += w;
        while (i < n && s[i] == ' ')
            i++;
    }
    const char *pid = col[ncol - 2], *tid = col[ncol - 1];
    if (!parse_int(pid, (size_t)(s + n - pid), &l->pid) ||
        !parse_int(tid, (size_t)(s + n - tid), &l->tid))
        return LC_NONE;
    l->level = s[i];
    return l->layout = parse_tag_colon(s, i + 2, n, l);
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

static int probe_text(const char *h, size_t n, int eof)
{
    size_t i = 0;
    int lines = 0, timed = 0, brief = 0, hint = 0;
    while (i < n && lines < 32) {
        const char *nl = memchr(h + i, '\n', n - i);
        if (!nl && !eof)
            break; /* incomplete last line */
        size_t len = nl ? (size_t)(nl - (h + i)) : n - i;
        const char *s = h + i;
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
        if (lay == LC_CONT)
            continue;
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

static int probe(const unsigned char *h, size_t n, int eof)
{
    if (gd_text_detect(h, n) == GD_TEXT_UTF8 && !(n >= 3 && h[0] == 0xEF))
        return probe_text((const char *)h, n, eof);
    size_t tn;
    char *t = gd_text_head(h, n, &tn); /* past a BOM, or from UTF-16 */
    if (!t)
        return 0;
    int score = probe_text(t, tn, eof);
    free(t);
    return score;
}

/* ---- read ---- */

#define LC_LAUNCHES 16 /* recent launches remembered to drop the second report */

typedef struct lc_launch {
    char comp[256];
    double total, ts;
} lc_launch;

typedef struct lc_ctx {
    const gd_sink *sink;
    int year;      /* running year for stamps without one */
    int last_mon;  /* month of the last stamp without a year; 0 none */
    char thread[256];
    char part[1024]; /* one "msg I took ..." of a MIUI line */
    long line;
    /* the last MIUI "Long Msg" line: its wall time places the messages
     * that made the same message late */
    struct {
        int set;
        int64_t pid, tid, late, wall;
        double ts;
    } longmsg;
    lc_launch launch[LC_LAUNCHES];
    size_t nlaunch, next_launch;
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

/* First occurrence of lit in p[0..n), or NULL. */
static const char *find(const char *p, size_t n, const char *lit)
{
    return memmem(p, n, lit, strlen(lit));
}

/* "Nms" at p: N, bytes used in *used; -1 when absent. */
static int64_t ms_at(const char *p, size_t n, size_t *used)
{
    int64_t v;
    size_t k = parse_int(p, n, &v);
    if (!k || k + 2 > n || p[k] != 'm' || p[k + 1] != 's')
        return -1;
    if (used)
        *used = k + 2;
    return v;
}

/* The figure of "key=Nms" in p[0..n) (key includes '='), or -1. */
static int64_t field_ms(const char *p, size_t n, const char *key)
{
    const char *f = find(p, n, key);
    if (!f)
        return -1;
    size_t off = (size_t)(f - p) + strlen(key);
    return ms_at(f + strlen(key), n - off, NULL);
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

static int emit_dispatch(lc_ctx *c, const lc_line *l, double begin, double dur, const char *thr,
                         const char *msg, gd_error *err)
{
    gd_event ev;
    gd_event_init(&ev, GD_EV_DISPATCH);
    ev.ts = begin;
    ev.pid = l->pid;
    ev.tid = l->tid;
    ev.thread = thr;
    ev.line = c->line;
    ev.u.dispatch.dur = dur;
    ev.u.dispatch.msg = msg;
    return gd_sink_event(c->sink, &ev, err);
}

/* A slow_delivery issue: a message dispatched `delay` ms after it was due. */
static int emit_delay(lc_ctx *c, const lc_line *l, double ts, int64_t delay, const char *thr,
                      const char *late, size_t late_len, gd_error *err)
{
    json_t *js = json_object();
    json_object_set_new(js, "delay_ms", json_integer(delay));
    if (thr)
        json_object_set_new(js, "thread", json_string(thr));
    json_t *lt = late ? json_stringn(late, late_len) : NULL;
    if (lt)
        json_object_set_new(js, "late", lt);
    json_t *ms = json_stringn(l->msg, l->msg_len);
    if (ms)
        json_object_set_new(js, "msg", ms);
    return emit_issue(c, l, ts, "slow_delivery", (double)delay, js, err);
}

/* "Slow dispatch took 335ms android.fg h=..." / "Slow delivery took ..." */
static int looper_slow(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    int dispatch = STARTS(m, n, "Slow dispatch took ");
    if (!dispatch && !STARTS(m, n, "Slow delivery took "))
        return 1;
    size_t i = sizeof("Slow dispatch took ") - 1, k;
    int64_t took = ms_at(m + i, n - i, &k);
    if (took < 0)
        return 1;
    i += k;
    const char *thr = NULL;
    if (i < n && m[i] == ' ') {
        i++;
        /* the thread name runs up to the first " key=" field (h=, or the
         * app= main= group= some builds print first) */
        for (size_t j = i; j < n; j++) {
            if (m[j] != ' ')
                continue;
            size_t w = word_len(m + j + 1, n - j - 1);
            if (w && j + 1 + w < n && m[j + 1 + w] == '=') {
                thr = thread_name(c, m + i, j - i);
                break;
            }
        }
    }
    if (dispatch)
        return emit_dispatch(c, l, ts - (double)took, (double)took, thr, l->msg, err);
    return emit_delay(c, l, ts, took, thr, NULL, 0, err);
}

/* MIUI: "Slow Looper main: Long Msg: ... wall=Wms ..." and
 * "Slow Looper main: doFrame is Nms late ... msg 2 took Mms (...)". */
static int miui_slow_looper(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    size_t i = sizeof("Slow Looper ") - 1;
    const char *colon = find(m + i, n - i, ": ");
    if (!colon)
        return 1;
    const char *thr = thread_name(c, m + i, (size_t)(colon - (m + i)));
    const char *r = colon + 2;
    size_t rn = (size_t)(m + n - r);
    if (STARTS(r, rn, "Long Msg: ")) {
        int64_t wall = field_ms(r, rn, "wall=");
        if (wall < 0)
            return 1;
        c->longmsg.set = 1;
        c->longmsg.pid = l->pid;
        c->longmsg.tid = l->tid;
        c->longmsg.ts = ts;
        c->longmsg.wall = wall;
        c->longmsg.late = field_ms(r, rn, "late=");
        return emit_dispatch(c, l, ts - (double)wall, (double)wall, thr, l->msg, err);
    }
    /* "<what> is Nms late" */
    const char *is = NULL;
    int64_t late = -1;
    size_t k = 0;
    for (const char *p = r; (p = find(p, (size_t)(m + n - p), " is ")) != NULL; p += 4) {
        const char *q = p + 4;
        late = ms_at(q, (size_t)(m + n - q), &k);
        if (late >= 0 && STARTS(q + k, (size_t)(m + n - q - k), " late")) {
            is = p;
            break;
        }
        late = -1;
    }
    if (!is)
        return 1;
    const char *after = is + 4 + k + 5; /* past " late" */
    size_t an = (size_t)(m + n - after);
    int64_t wall = -1;
    if (STARTS(after, an, " (wall="))
        wall = ms_at(after + 7, an - 7, NULL);
    if (wall < 0 && c->longmsg.set && c->longmsg.pid == l->pid && c->longmsg.tid == l->tid &&
        c->longmsg.late == late && ts - c->longmsg.ts <= 100 && ts >= c->longmsg.ts)
        wall = c->longmsg.wall;
    c->longmsg.set = 0;
    int rc = emit_delay(c, l, ts, late, thr, r, (size_t)(is - r), err);
    if (rc)
        return rc;
    /* the messages that ran before it: ", msg I took Mms (...)" */
    enum { MAX_PARTS = 32 };
    struct {
        const char *p;
        size_t n;
        int64_t ms;
    } part[MAX_PARTS];
    size_t np = 0;
    const char *p = after;
    while (np < MAX_PARTS && (p = find(p, (size_t)(m + n - p), "msg ")) != NULL) {
        const char *q = p + 4;
        int64_t idx;
        size_t d = parse_int(q, (size_t)(m + n - q), &idx);
        if (!d || !STARTS(q + d, (size_t)(m + n - q - d), " took ")) {
            p = q;
            continue;
        }
        q += d + 6;
        size_t u;
        int64_t took = ms_at(q, (size_t)(m + n - q), &u);
        if (took < 0) {
            p = q;
            continue;
        }
        const char *e = q + u;
        if (e < m + n && *e == ' ' && e + 1 < m + n && e[1] == '(') {
            const char *close = memchr(e, ')', (size_t)(m + n - e));
            e = close ? close + 1 : m + n;
        }
        part[np].p = p;
        part[np].n = (size_t)(e - p);
        part[np].ms = took;
        np++;
        p = e;
    }
    double end = ts - (double)(wall > 0 ? wall : 0);
    for (size_t j = 0; j < np; j++)
        end -= (double)part[j].ms; /* begin of the first one */
    for (size_t j = 0; j < np; j++) {
        size_t cn = part[j].n < sizeof c->part ? part[j].n : sizeof c->part - 1;
        memcpy(c->part, part[j].p, cn);
        c->part[cn] = 0;
        if ((rc = emit_dispatch(c, l, end, (double)part[j].ms, thr, c->part, err)))
            return rc;
        end += (double)part[j].ms;
    }
    return 0;
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

/* TimeUtils.formatDuration: "+1d2h3m4s5ms", "+850ms", "+0ms"; ms or -1. */
static double duration_at(const char *p, size_t n, size_t *used)
{
    size_t i = 0;
    if (i < n && p[i] == '+')
        i++;
    double total = 0;
    int parts = 0;
    while (i < n && is_digit(p[i])) {
        int64_t v;
        size_t k = parse_int(p + i, n - i, &v);
        if (!k)
            return -1;
        i += k;
        double unit;
        if (i + 1 < n && p[i] == 'm' && p[i + 1] == 's') {
            unit = 1;
            i += 2;
        } else if (i < n && (p[i] == 'd' || p[i] == 'h' || p[i] == 'm' || p[i] == 's')) {
            unit = p[i] == 'd' ? 86400000.0 : p[i] == 'h' ? 3600000.0 : p[i] == 'm' ? 60000.0 : 1000.0;
            i++;
        } else {
            return -1;
        }
        total += (double)v * unit;
        parts++;
    }
    if (!parts)
        return -1;
    *used = i;
    return total;
}

/* 1 when this launch (component, total) was already emitted within a second;
 * otherwise remembers it and returns 0. */
static int launch_seen(lc_ctx *c, const char *comp, size_t n, double total, double ts)
{
    if (n >= sizeof c->launch[0].comp)
        n = sizeof c->launch[0].comp - 1;
    for (size_t i = 0; i < c->nlaunch; i++) {
        const lc_launch *x = &c->launch[i];
        if (x->total == total && strlen(x->comp) == n && memcmp(x->comp, comp, n) == 0 &&
            ts - x->ts <= 1000 && x->ts - ts <= 1000)
            return 1;
    }
    lc_launch *x = &c->launch[c->next_launch];
    memcpy(x->comp, comp, n);
    x->comp[n] = 0;
    x->total = total;
    x->ts = ts;
    c->next_launch = (c->next_launch + 1) % LC_LAUNCHES;
    if (c->nlaunch < LC_LAUNCHES)
        c->nlaunch++;
    return 0;
}

static int emit_startup(lc_ctx *c, const lc_line *l, double ts, const char *comp, size_t cn,
                        double total, gd_error *err)
{
    char app[256], act[512];
    if (gd_component_split(comp, cn, app, sizeof app, act, sizeof act))
        return 1;
    if (launch_seen(c, comp, cn, total, ts)) {
        gd_sink_skip(c->sink, "logcat: launch already read from the other buffer", c->line, 1);
        return 0;
    }
    gd_event ev;
    gd_event_init(&ev, GD_EV_STARTUP);
    ev.ts = ts;
    ev.pid = l->pid;
    ev.tid = l->tid;
    ev.line = c->line;
    ev.u.startup.app = app;
    ev.u.startup.activity = act;
    ev.u.startup.total_ms = total;
    ev.u.startup.source = "logcat";
    return gd_sink_event(c->sink, &ev, err);
}

/* "Displayed pkg/.Act[ for user 0]: +1s234ms[ (total +1s300ms)]" */
static int displayed(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    size_t i = sizeof("Displayed ") - 1, e = i;
    while (e < n && m[e] != ' ' && m[e] != ':')
        e++;
    const char *sep = find(m + e, n - e, ": +");
    if (!sep || e == i)
        return 1;
    size_t d = (size_t)(sep - m) + 2, used;
    double ms = duration_at(m + d, n - d, &used);
    if (ms < 0)
        return 1;
    d += used;
    if (STARTS(m + d, n - d, " (total ")) {
        size_t t = d + sizeof(" (total ") - 1;
        double total = duration_at(m + t, n - t, &used);
        if (total >= 0)
            ms = total;
    }
    return emit_startup(c, l, ts, m + i, e - i, ms, err);
}

/* events buffer: "[user,token,pkg/.Act,this,total]" or "[user,token,pkg/.Act,ms]" */
static int launch_time(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    if (n < 2 || m[0] != '[' || m[n - 1] != ']')
        return 1;
    const char *f[6];
    size_t fl[6], nf = 0, a = 1;
    for (size_t i = 1; i < n; i++) {
        if (m[i] != ',' && m[i] != ']')
            continue;
        if (nf == 6)
            return 1;
        f[nf] = m + a;
        fl[nf++] = i - a;
        a = i + 1;
    }
    if (nf != 4 && nf != 5)
        return 1;
    int64_t total = 0;
    if (fl[nf - 1] == 0 || parse_int(f[nf - 1], fl[nf - 1], &total) != fl[nf - 1])
        return 1; /* an empty or unparsable last field is no launch time */
    return emit_startup(c, l, ts, f[2], fl[2], (double)total, err);
}

/* Returns 0 emitted, 1 not a line we use, or an error code from the sink. */
static int handle(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    gd_phase looper = gd_looper_line(m, n);
    if (looper != GD_PHASE_UNKNOWN) {
        gd_event ev;
        gd_event_init(&ev, GD_EV_LOOPER);
        ev.ts = ts;
        ev.pid = l->pid;
        ev.tid = l->tid;
        ev.line = c->line;
        ev.u.looper.phase = looper;
        ev.u.looper.msg = m;
        return gd_sink_event(c->sink, &ev, err);
    }
    if (tag_is(l, "Looper")) {
        if (n == 7 && memcmp(m, "Drained", 7) == 0)
            return emit_issue(c, l, ts, "slow_delivery_drained", GD_NONE, NULL, err);
        if (STARTS(m, n, "Slow Looper "))
            return miui_slow_looper(c, l, ts, err);
        return looper_slow(c, l, ts, err);
    }
    if (tag_is(l, "Choreographer") && STARTS(m, n, "Skipped "))
        return skipped_frames(c, l, ts, err);
    if (tag_is(l, "ActivityTaskManager") || tag_is(l, "ActivityManager")) {
        if (STARTS(m, n, "Displayed "))
            return displayed(c, l, ts, err);
        if (STARTS(m, n, "Fully drawn ")) {
            gd_sink_skip(c->sink, "logcat: Fully drawn line (not kept)", c->line, 1);
            return 0;
        }
        return 1;
    }
    if (tag_is(l, "am_activity_launch_time") || tag_is(l, "wm_activity_launch_time"))
        return launch_time(c, l, ts, err);
    return 1;
}

static int read_logcat(gd_input *in, const gd_sink *sink, const gd_read_opts *opts,
                       gd_error *err)
{
    lc_ctx *c = calloc(1, sizeof *c);
    gd_textin *t = NULL;
    if (!c)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    int rc = gd_textin_open(&t, in, err);
    if (rc) {
        free(c);
        return rc;
    }
    c->sink = sink;
    gd_meta meta;
    gd_meta_init(&meta);
    meta.clock = "local"; /* the device's wall clock, no zone */
    rc = gd_sink_meta(sink, &meta, err);
    gd_matrix_lines *matrix = NULL;
    c->year = opts && opts->year ? opts->year : current_year();
    int utf8 = gd_textin_encoding(t) == GD_TEXT_UTF8;
    char *s;
    size_t n;
    int r = 1;
    while (!rc && (r = gd_textin_getline(t, &s, &n, err)) == 1) {
        c->line = gd_textin_lineno(t);
        if (n == 0)
            continue;
        /* keep_going: a last line without its newline was cut mid-message */
        if (opts && opts->keep_going && utf8 && gd_input_line_cut(in)) {
            gd_sink_skip(sink, GD_SKIP_TRUNCATED, c->line, 1);
            continue;
        }
        lc_line l;
        switch (parse_line(s, n, &l)) {
        case LC_BEGINNING:
            continue;
        case LC_BRIEF:
            gd_sink_skip(sink, "logcat: brief line without time", c->line, 1);
            continue;
        case LC_CONT:
            gd_sink_skip(sink, "logcat: continuation line", c->line, 1);
            continue;
        case LC_NONE:
            gd_sink_skip(sink, "logcat: unparsable line", c->line, 1);
            continue;
        default:
            break;
        }
        /* every timed line moves the year tracking, even the ones we drop */
        rc = handle(c, &l, stamp_ms(c, &l.st), err);
        if (rc == 1 && memmem(s, n, "tag[Trace_", 10)) {
            /* a Matrix trace-canary Issue line inside the logcat */
            if (!matrix && !(matrix = gd_matrix_lines_new(sink, opts, err))) {
                rc = err->code ? err->code : GD_ERR_IO;
                break;
            }
            rc = gd_matrix_lines_feed(matrix, s, n, c->line, err);
        }
        if (rc == 1) {
            gd_sink_skip(sink, "logcat: other line", c->line, 1);
            rc = 0;
        }
    }
    gd_matrix_lines_free(matrix);
    gd_textin_close(t);
    free(c);
    if (rc)
        return rc;
    return r < 0 ? (err->code ? err->code : GD_ERR_IO) : GD_OK;
}

const gd_reader gd_reader_logcat = {
    .name = "logcat",
    .description = "Android logcat text (threadtime, time, uid, Android Studio copies): Looper "
                   "Printer, slow-dispatch and app launch (Displayed) lines",
    .probe = probe,
    .read = read_logcat,
    .clock = "local",
};
