/* logcat.c - reader of Android logcat text (threadtime, time, uid, Android
 * Studio copies) for Looper, slow-dispatch and app launch lines. */
#define _GNU_SOURCE /* memmem */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/row.h"
#include "reader/logcat_rules.h"
#include "reader/mdstamp.h"

#define REASON_CLOCK_RESET "ignored: logcat: clock reset (went back, year kept)"
#include "reader.h"
#include "analysis/blocks.h"
#include "reader/component.h"
#include "reader/matrix.h"
#include "io/textin.h"
#include "reader/logcat_int.h"

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
 * opts->year (else the current year) for the first line; a step from
 * December to January of a few weeks at most is a New Year (the year is
 * incremented), a late December line right after it keeps the previous
 * year, and any other jump back by more than a day (09-05 -> 03-30: the
 * boot clock not yet set) keeps the year and is counted as
 * "ignored: logcat: clock reset (went back, year kept)" (gd_mdstamp_run_ms).  Logcat prints the device's wall clock without a zone: the
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
 *     "Displayed pkg/.Act[ for user 0]: +1s234ms[ (total +1s300ms)][ COLD]"
 *     (MediaTek: "[AppLaunch] Displayed Displayed pkg/.Act: +248ms"):
 *     app = pkg, activity = the class with the package expanded, total_ms =
 *     the first figure (the launch's own; "total" is the whole task's, from
 *     its first activity), kind = the COLD / WARM / HOT word Android 14+
 *     prints, else NULL, ts = the line's time; and for the events buffer's
 *     "am_activity_launch_time: [user,token,pkg/.Act,this,total]" (Android
 *     4.2..9), "activity_launch_time: [token,pkg/.Act,this,total]" (older)
 *     / "wm_activity_launch_time: [user,token,pkg/.Act,ms]" (10+): total_ms
 *     = this (or ms).  Both lines report one launch: the writer keeps it
 *     once (same app, activity, ms, kind, within a second).  "Fully drawn
 *     pkg/.Act: +Nms" (reportFullyDrawn()) -> GD_EV_STARTUP fully_drawn 1,
 *     ttfd_ms N: the time to full display of that launch.  A launch line
 *     whose time does not parse (negative, garbled) is counted "logcat:
 *     launch line with a bad time".
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
        int lay = lc_parse_line(s, len, &l);
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
    if (!(n >= 3 && h[0] == 0xEF))
        return probe_text((const char *)h, n, eof);
    size_t tn;
    char *t = gd_text_head(h, n, &tn); /* past a BOM */
    if (!t)
        return 0;
    int score = probe_text(t, tn, eof);
    free(t);
    return score;
}

/* ---- read ---- */

/* Copies [p, p+n) into the thread buffer as a C string. */
const char *lc_thread_name(lc_ctx *c, const char *p, size_t n)
{
    n = gd_sink_cut(c->sink, p, n, sizeof c->thread - 1, c->line);
    memcpy(c->thread, p, n);
    c->thread[n] = 0;
    return c->thread;
}

/* First occurrence of lit in p[0..n), or NULL. */
const char *lc_find(const char *p, size_t n, const char *lit)
{
    return memmem(p, n, lit, strlen(lit));
}

/* "Nms" at p: N, bytes used in *used; -1 when absent. */
int64_t lc_ms_at(const char *p, size_t n, size_t *used)
{
    int64_t v;
    size_t k = lc_parse_int(p, n, &v);
    if (!k || k + 2 > n || p[k] != 'm' || p[k + 1] != 's')
        return -1;
    if (used)
        *used = k + 2;
    return v;
}

/* The figure of "key=Nms" in p[0..n) (key includes '='), or -1. */
int64_t lc_field_ms(const char *p, size_t n, const char *key)
{
    const char *f = lc_find(p, n, key);
    if (!f)
        return -1;
    size_t off = (size_t)(f - p) + strlen(key);
    return lc_ms_at(f + strlen(key), n - off, NULL);
}

/* An event of kind k from line l (its pid and tid) at ts. */
void lc_event_init(const lc_ctx *c, gd_event *ev, gd_event_kind k, const lc_line *l, double ts)
{
    gd_event_init(ev, k);
    ev->ts = ts;
    ev->pid = l->pid;
    ev->tid = l->tid;
    ev->line = c->line;
}

int lc_emit_issue(lc_ctx *c, const lc_line *l, double ts, const char *type, double cost,
                  json_t *js, gd_error *err)
{
    gd_event ev;
    lc_event_init(c, &ev, GD_EV_ISSUE, l, ts);
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

int lc_emit_dispatch(lc_ctx *c, const lc_line *l, double begin, double dur, const char *thr,
                     const char *msg, gd_error *err)
{
    gd_event ev;
    lc_event_init(c, &ev, GD_EV_DISPATCH, l, begin);
    ev.thread = thr;
    ev.u.dispatch.dur = dur;
    ev.u.dispatch.msg = msg;
    return gd_sink_event(c->sink, &ev, err);
}

/* A slow_delivery issue: a message dispatched `delay` ms after it was due. */
int lc_emit_delay(lc_ctx *c, const lc_line *l, double ts, int64_t delay, const char *thr,
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
    return lc_emit_issue(c, l, ts, "slow_delivery", (double)delay, js, err);
}

static void copy_cap(char *dst, size_t size, const char *s, size_t n)
{
    if (n >= size) /* at a character boundary (gd_utf8_cut) */
        n = gd_utf8_cut(s, n, size - 1);
    if (n)
        memcpy(dst, s, n);
    dst[n] = 0;
}

int lc_emit_log(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    gd_event ev;
    lc_event_init(c, &ev, GD_EV_LOG, l, ts);
    c->log_level[0] = l->level;
    c->log_level[1] = 0;
    copy_cap(c->log_tag, sizeof c->log_tag, l->tag ? l->tag : "", l->tag ? l->tag_len : 0);
    copy_cap(c->log_msg, sizeof c->log_msg, l->msg ? l->msg : "", l->msg ? l->msg_len : 0);
    ev.u.log.level = l->level && l->level != '?' ? c->log_level : NULL;
    ev.u.log.tag = c->log_tag;
    ev.u.log.msg = c->log_msg;
    return gd_sink_event(c->sink, &ev, err);
}

/* Returns 0 emitted, GD_OTHER_RULE not a line we use, or an error code from the sink. */
static int handle(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    int anr = lc_anr_line(c, l, ts, err);
    if (anr != GD_OTHER_RULE)
        return anr;
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
    if (lc_tag_is(l, "Looper")) {
        if (n == 7 && memcmp(m, "Drained", 7) == 0)
            return lc_emit_issue(c, l, ts, "slow_delivery_drained", GD_NONE, NULL, err);
        if (STARTS(m, n, "Slow Looper "))
            return lc_miui_slow_looper(c, l, ts, err);
        return lc_looper_slow(c, l, ts, err);
    }
    if (lc_tag_is(l, "Choreographer") && STARTS(m, n, "Skipped "))
        return lc_skipped_frames(c, l, ts, err);
    if (lc_tag_is(l, "ActivityTaskManager") || lc_tag_is(l, "ActivityManager")) {
        if (STARTS(m, n, "Displayed ") || STARTS(m, n, "Fully drawn ") || STARTS(m, n, "[AppLaunch] "))
            return lc_displayed(c, l, ts, err);
        return GD_OTHER_RULE;
    }
    if (lc_tag_is(l, "am_activity_launch_time") || lc_tag_is(l, "wm_activity_launch_time") ||
        lc_tag_is(l, "activity_launch_time"))
        return lc_launch_time(c, l, ts, err);
    return GD_OTHER_RULE;
}

static int read_logcat(gd_input *in, const gd_sink *sink, const gd_read_opts *opts,
                       gd_error *err)
{
    lc_ctx *c = calloc(1, sizeof *c);
    gd_textin *t = NULL;
    if (!c)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
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
    c->year.year = gd_mdstamp_year_or_now(opts ? opts->year : 0);
    char *s;
    size_t n;
    int r = 1;
    while (!rc && (r = gd_textin_getline(t, &s, &n, err)) == 1) {
        c->line = gd_textin_lineno(t);
        if (n == 0)
            continue;
        /* keep_going: a last line without its newline was cut mid-message */
        if (opts && opts->keep_going && gd_input_line_cut(in)) {
            gd_sink_skip(sink, GD_SKIP_TRUNCATED, c->line, 1);
            continue;
        }
        lc_line l;
        switch (lc_parse_line(s, n, &l)) {
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
        long resets = c->year.resets;
        double ts = gd_mdstamp_run_ms(&c->year, &l.st);
        if (c->year.resets != resets)
            gd_sink_skip(sink, REASON_CLOCK_RESET, c->line, 1);
        if ((rc = lc_emit_log(c, &l, ts, err)))
            break;
        rc = handle(c, &l, ts, err);
        if (rc == GD_OTHER_RULE && memmem(s, n, "tag[Trace_", 10)) {
            /* a Matrix trace-canary Issue line inside the logcat */
            if (!matrix && !(matrix = gd_matrix_lines_new(sink, opts, err))) {
                rc = err->code ? err->code : GD_ERR_IO;
                break;
            }
            rc = gd_matrix_lines_feed(matrix, s, n, c->line, err);
        }
        if (rc == GD_OTHER_RULE) {
            gd_sink_skip(sink, "logcat: other line", c->line, 1);
            rc = 0;
        }
    }
    if (!rc && r >= 0)
        rc = lc_anr_flush(c, err);
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

/* ---- the line rules for other carriers (logcat_rules.h, #26) ---- */

gd_logcat_rules *gd_logcat_rules_new(const gd_sink *sink)
{
    lc_ctx *c = calloc(1, sizeof *c);
    if (c)
        c->sink = sink;
    return c;
}

void gd_logcat_rules_free(gd_logcat_rules *r) { free(r); }

int gd_logcat_rules_finish(gd_logcat_rules *r, gd_error *err) { return r ? lc_anr_flush(r, err) : 0; }

int gd_logcat_rules_line(gd_logcat_rules *c, double ts, int64_t pid, int64_t tid, char level,
                         const char *tag, size_t tlen, const char *msg, size_t mlen, long line,
                         gd_error *err)
{
    lc_line l;
    memset(&l, 0, sizeof l);
    l.layout = LC_THREADTIME;
    l.pid = pid;
    l.tid = tid;
    l.level = level;
    l.tag = tag;
    l.tag_len = tlen;
    l.msg = msg;
    l.msg_len = mlen;
    c->line = line;
    int rc = lc_emit_log(c, &l, ts, err);
    return rc ? rc : handle(c, &l, ts, err);
}
