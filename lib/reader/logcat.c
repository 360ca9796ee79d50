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
#include "reader.h"
#include "analysis/blocks.h"
#include "reader/component.h"
#include "reader/matrix.h"
#include "io/textin.h"
#include "reader/logcat_int.h"
#include "core/skip_reasons.h"

static void lc_event_init(const lc_ctx *c, gd_event *ev, gd_event_kind k, const lc_line *l, double ts);
/* the ANR report rules: 0 used, GD_OTHER_RULE, or the sink's error; an open
 * "ANR in" block is emitted by the next line not of it or lc_anr_flush */
static int lc_anr_line(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
static int lc_anr_flush(lc_ctx *c, gd_error *err);
/* The line as a GD_EV_LOG event (a row of log_line): 0 or the sink's error. */
static int lc_emit_log(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
static int lc_displayed(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
static int lc_emit_delay(lc_ctx *c, const lc_line *l, double ts, int64_t delay, const char *thr,
                  const char *late, size_t late_len, gd_error *err);
static int lc_emit_dispatch(lc_ctx *c, const lc_line *l, double begin, double dur, const char *thr,
                     const char *msg, gd_error *err);
static int lc_emit_issue(lc_ctx *c, const lc_line *l, double ts, const char *type, double cost,
                  json_t *js, gd_error *err);
static int64_t lc_field_ms(const char *p, size_t n, const char *key);
static const char *lc_find(const char *p, size_t n, const char *lit);
static int lc_launch_time(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
static int lc_looper_slow(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
static int lc_miui_slow_looper(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
static int64_t lc_ms_at(const char *p, size_t n, size_t *used);
static int lc_skipped_frames(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
static const char *lc_thread_name(lc_ctx *c, const char *p, size_t n);

#define REASON_CLOCK_RESET GD_SKIP(IGNORED_LOGCAT_CLOCK_RESET_WENT_BACK_YEAR)

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
 *     the launch from the intent to the first frame: the "total" figure
 *     when the line prints one, else the only figure (#51: Android 4.4..9
 *     print "(total ...)" only when it differs, the first activity of the
 *     task being a trampoline that drew nothing; 10+ print the one figure,
 *     measured from the intent; Perfetto's android_startups and
 *     ChkBugReport count the same), activity_ms = the first figure when a
 *     total follows it (the drawn activity's own), else NONE; kind = the
 *     COLD / WARM / HOT word Android 14+ prints, else NULL, ts = the line's
 *     time; and for the events buffer's
 *     "am_activity_launch_time: [user,token,pkg/.Act,this,total]" (Android
 *     4.2..9), "activity_launch_time: [token,pkg/.Act,this,total]" (older)
 *     / "wm_activity_launch_time: [user,token,pkg/.Act,ms]" (10+): total_ms
 *     = total (or ms), activity_ms = this (NONE for ms).  Both lines report
 *     one launch: the writer keeps it once (same app, activity, total,
 *     kind, within a second).  "Fully drawn
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
        int lay = gd_lc_parse_line(s, len, &l);
        if (lay == LC_BEGINNING || lay == LC_STUDIO_PROCESS) {
            hint = 1;
            continue;
        }
        if (lay == LC_CONT)
            continue;
        /* the input's last line cut short (no newline at its end) is not
         * held against it: the reader drops or keeps it the same way */
        if (!nl && lay != LC_THREADTIME && lay != LC_TIME && lay != LC_BRIEF)
            break;
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
static const char *lc_thread_name(lc_ctx *c, const char *p, size_t n)
{
    n = gd_sink_cut(c->sink, p, n, sizeof c->thread - 1, c->line);
    memcpy(c->thread, p, n);
    c->thread[n] = 0;
    return c->thread;
}

/* First occurrence of lit in p[0..n), or NULL. */
static const char *lc_find(const char *p, size_t n, const char *lit)
{
    return memmem(p, n, lit, strlen(lit));
}

/* "Nms" at p: N, bytes used in *used; -1 when absent. */
static int64_t lc_ms_at(const char *p, size_t n, size_t *used)
{
    int64_t v;
    size_t k = gd_lc_parse_int(p, n, &v);
    if (!k || k + 2 > n || p[k] != 'm' || p[k + 1] != 's')
        return -1;
    if (used)
        *used = k + 2;
    return v;
}

/* The figure of "key=Nms" in p[0..n) (key includes '='), or -1. */
static int64_t lc_field_ms(const char *p, size_t n, const char *key)
{
    const char *f = lc_find(p, n, key);
    if (!f)
        return -1;
    size_t off = (size_t)(f - p) + strlen(key);
    return lc_ms_at(f + strlen(key), n - off, NULL);
}

/* An event of kind k from line l (its pid and tid) at ts. */
static void lc_event_init(const lc_ctx *c, gd_event *ev, gd_event_kind k, const lc_line *l, double ts)
{
    gd_event_init(ev, k);
    ev->ts = ts;
    ev->pid = l->pid;
    ev->tid = l->tid;
    ev->line = c->line;
}

static int lc_emit_issue(lc_ctx *c, const lc_line *l, double ts, const char *type, double cost,
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

static int lc_emit_dispatch(lc_ctx *c, const lc_line *l, double begin, double dur, const char *thr,
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
static int lc_emit_delay(lc_ctx *c, const lc_line *l, double ts, int64_t delay, const char *thr,
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

static int lc_emit_log(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
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
    if (gd_lc_tag_is(l, "Looper")) {
        if (n == 7 && memcmp(m, "Drained", 7) == 0)
            return lc_emit_issue(c, l, ts, "slow_delivery_drained", GD_NONE, NULL, err);
        if (gd_starts_n(m, n, "Slow Looper "))
            return lc_miui_slow_looper(c, l, ts, err);
        return lc_looper_slow(c, l, ts, err);
    }
    if (gd_lc_tag_is(l, "Choreographer") && gd_starts_n(m, n, "Skipped "))
        return lc_skipped_frames(c, l, ts, err);
    if (gd_lc_tag_is(l, "ActivityTaskManager") || gd_lc_tag_is(l, "ActivityManager")) {
        if (gd_starts_n(m, n, "Displayed ") || gd_starts_n(m, n, "Fully drawn ") || gd_starts_n(m, n, "[AppLaunch] "))
            return lc_displayed(c, l, ts, err);
        return GD_OTHER_RULE;
    }
    if (gd_lc_tag_is(l, "am_activity_launch_time") || gd_lc_tag_is(l, "wm_activity_launch_time") ||
        gd_lc_tag_is(l, "activity_launch_time"))
        return lc_launch_time(c, l, ts, err);
    return GD_OTHER_RULE;
}

/* The app of an Android Studio copy: the first package it names (its
 * package column, a PROCESS STARTED line), "?" and "system_process" not
 * being an app.  0 or the sink's error. */
static int lc_studio_app(lc_ctx *c, const lc_line *l, gd_error *err)
{
    if (c->app_told || !l->pkg || !l->pkg_len || l->pkg_len >= 256 || memchr(l->pkg, '?', l->pkg_len) ||
        (l->pkg_len == 14 && memcmp(l->pkg, "system_process", 14) == 0) || !memchr(l->pkg, '.', l->pkg_len))
        return 0;
    char app[256];
    memcpy(app, l->pkg, l->pkg_len);
    app[l->pkg_len] = 0;
    c->app_told = 1;
    gd_meta meta;
    gd_meta_init(&meta);
    meta.app = app;
    return gd_sink_meta(c->sink, &meta, err);
}

static int read_logcat(gd_input *in, const gd_sink *sink, const gd_read_opts *opts,
                       gd_error *err)
{
    lc_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return gd_error_oom(err);
    c->sink = sink;
    gd_meta meta;
    gd_meta_init(&meta);
    meta.clock = "local"; /* the device's wall clock, no zone */
    int rc = gd_sink_meta(sink, &meta, err);
    gd_matrix_lines *matrix = NULL;
    c->year.year = gd_mdstamp_year_or_now(opts ? opts->year : 0);
    char *s;
    size_t n;
    int r = 1;
    while (!rc && (r = gd_input_getline(in, &s, &n, err)) == 1) {
        c->line = gd_input_lineno(in);
        if (n == 0)
            continue;
        /* keep_going: a last line without its newline was cut mid-message */
        if (opts && opts->keep_going && gd_input_line_cut(in)) {
            gd_sink_skip(sink, GD_SKIP(TRUNCATED_INPUT), c->line, 1);
            continue;
        }
        lc_line l;
        switch (gd_lc_parse_line(s, n, &l)) {
        case LC_BEGINNING:
            continue;
        case LC_STUDIO_PROCESS:
            gd_sink_skip(sink, GD_SKIP(IGNORED_LOGCAT_STUDIO_PROCESS_LINE), c->line, 1);
            if (!(rc = lc_studio_app(c, &l, err)))
                continue;
            goto out;
        case LC_BRIEF:
            gd_sink_skip(sink, GD_SKIP(LOGCAT_BRIEF_LINE_WITHOUT_TIME), c->line, 1);
            continue;
        case LC_CONT:
            gd_sink_skip(sink, GD_SKIP(LOGCAT_CONTINUATION_LINE), c->line, 1);
            continue;
        case LC_NONE:
            gd_sink_skip(sink, GD_SKIP(LOGCAT_UNPARSABLE_LINE), c->line, 1);
            continue;
        default:
            break;
        }
        /* every timed line moves the year tracking, even the ones we drop */
        long resets = c->year.resets;
        double ts = gd_mdstamp_run_ms(&c->year, &l.st);
        if (c->year.resets != resets)
            gd_sink_skip(sink, REASON_CLOCK_RESET, c->line, 1);
        if ((rc = lc_studio_app(c, &l, err)) || (rc = lc_emit_log(c, &l, ts, err)))
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
            gd_sink_skip(sink, GD_SKIP(LOGCAT_OTHER_LINE), c->line, 1);
            rc = 0;
        }
    }
out:
    if (!rc && r >= 0)
        rc = lc_anr_flush(c, err);
    gd_matrix_lines_free(matrix);
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

/* ==== the logcat messages godeye reads: slow looper, frames, launches. ==== */

/* "Slow dispatch took 335ms android.fg h=..." / "Slow delivery took ..." */
static int lc_looper_slow(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    int dispatch = gd_starts_n(m, n, "Slow dispatch took ");
    if (!dispatch && !gd_starts_n(m, n, "Slow delivery took "))
        return GD_OTHER_RULE;
    size_t i = sizeof("Slow dispatch took ") - 1, k;
    int64_t took = lc_ms_at(m + i, n - i, &k);
    if (took < 0)
        return GD_OTHER_RULE;
    i += k;
    const char *thr = NULL;
    if (i < n && m[i] == ' ') {
        i++;
        /* the thread name runs up to the first " key=" field (h=, or the
         * app= main= group= some builds print first) */
        for (size_t j = i; j < n; j++) {
            if (m[j] != ' ')
                continue;
            size_t w = gd_lc_word_len(m + j + 1, n - j - 1);
            if (w && j + 1 + w < n && m[j + 1 + w] == '=') {
                thr = lc_thread_name(c, m + i, j - i);
                break;
            }
        }
    }
    if (dispatch)
        return lc_emit_dispatch(c, l, ts - (double)took, (double)took, thr, l->msg, err);
    return lc_emit_delay(c, l, ts, took, thr, NULL, 0, err);
}

/* MIUI: "Slow Looper main: Long Msg: ... wall=Wms ..." and
 * "Slow Looper main: doFrame is Nms late ... msg 2 took Mms (...)". */
static int lc_miui_slow_looper(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    size_t i = sizeof("Slow Looper ") - 1;
    const char *colon = lc_find(m + i, n - i, ": ");
    if (!colon)
        return GD_OTHER_RULE;
    const char *thr = lc_thread_name(c, m + i, (size_t)(colon - (m + i)));
    const char *r = colon + 2;
    size_t rn = (size_t)(m + n - r);
    if (gd_starts_n(r, rn, "Long Msg: ")) {
        int64_t wall = lc_field_ms(r, rn, "wall=");
        if (wall < 0)
            return GD_OTHER_RULE;
        c->longmsg.set = 1;
        c->longmsg.pid = l->pid;
        c->longmsg.tid = l->tid;
        c->longmsg.ts = ts;
        c->longmsg.wall = wall;
        c->longmsg.late = lc_field_ms(r, rn, "late=");
        return lc_emit_dispatch(c, l, ts - (double)wall, (double)wall, thr, l->msg, err);
    }
    /* "<what> is Nms late" */
    const char *is = NULL;
    int64_t late = -1;
    size_t k = 0;
    for (const char *p = r; (p = lc_find(p, (size_t)(m + n - p), " is ")) != NULL; p += 4) {
        const char *q = p + 4;
        late = lc_ms_at(q, (size_t)(m + n - q), &k);
        if (late >= 0 && gd_starts_n(q + k, (size_t)(m + n - q - k), " late")) {
            is = p;
            break;
        }
        late = -1;
    }
    if (!is)
        return GD_OTHER_RULE;
    const char *after = is + 4 + k + 5; /* past " late" */
    size_t an = (size_t)(m + n - after);
    int64_t wall = -1;
    if (gd_starts_n(after, an, " (wall="))
        wall = lc_ms_at(after + 7, an - 7, NULL);
    if (wall < 0 && c->longmsg.set && c->longmsg.pid == l->pid && c->longmsg.tid == l->tid &&
        c->longmsg.late == late && ts - c->longmsg.ts <= 100 && ts >= c->longmsg.ts)
        wall = c->longmsg.wall;
    c->longmsg.set = 0;
    int rc = lc_emit_delay(c, l, ts, late, thr, r, (size_t)(is - r), err);
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
    while (np < MAX_PARTS && (p = lc_find(p, (size_t)(m + n - p), "msg ")) != NULL) {
        const char *q = p + 4;
        int64_t idx;
        size_t d = gd_lc_parse_int(q, (size_t)(m + n - q), &idx);
        if (!d || !gd_starts_n(q + d, (size_t)(m + n - q - d), " took ")) {
            p = q;
            continue;
        }
        q += d + 6;
        size_t u;
        int64_t took = lc_ms_at(q, (size_t)(m + n - q), &u);
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
        size_t cn = gd_sink_cut(c->sink, part[j].p, part[j].n, sizeof c->part - 1, c->line);
        memcpy(c->part, part[j].p, cn);
        c->part[cn] = 0;
        if ((rc = lc_emit_dispatch(c, l, end, (double)part[j].ms, thr, c->part, err)))
            return rc;
        end += (double)part[j].ms;
    }
    return 0;
}

/* "Skipped 31 frames!  The application may be doing too much work..." */
static int lc_skipped_frames(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    if (!gd_starts_n(m, n, "Skipped "))
        return GD_OTHER_RULE;
    size_t i = sizeof("Skipped ") - 1;
    int64_t frames;
    size_t k = gd_lc_parse_int(m + i, n - i, &frames);
    if (!k || !gd_starts_n(m + i + k, n - i - k, " frames!"))
        return GD_OTHER_RULE;
    json_t *js = json_object();
    json_object_set_new(js, "frames", json_integer(frames));
    return lc_emit_issue(c, l, ts, "skipped_frames", GD_NONE, js, err);
}

/* TimeUtils.formatDuration: "+1d2h3m4s5ms", "+850ms", "+0ms"; ms or -1. */
static double duration_at(const char *p, size_t n, size_t *used)
{
    size_t i = 0;
    if (i < n && p[i] == '+')
        i++;
    double total = 0;
    int parts = 0;
    while (i < n && gd_lc_is_digit(p[i])) {
        int64_t v;
        size_t k = gd_lc_parse_int(p + i, n - i, &v);
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

/* One launch (kind NULL when the line does not say), or with fully_drawn
 * its time to full display.  A launch reported twice (Displayed and the
 * events buffer) is merged by the writer (same app, activity, duration and
 * kind). */
static int emit_startup(lc_ctx *c, const lc_line *l, double ts, const char *comp, size_t cn,
                        double total, double activity, const char *kind, int fully_drawn,
                        gd_error *err)
{
    char app[256], act[512];
    if (gd_component_split(comp, cn, app, sizeof app, act, sizeof act))
        return GD_OTHER_RULE;
    gd_event ev;
    lc_event_init(c, &ev, GD_EV_STARTUP, l, ts);
    ev.u.startup.app = app;
    ev.u.startup.activity = act;
    ev.u.startup.kind = kind;
    ev.u.startup.total_ms = total;
    ev.u.startup.activity_ms = activity;
    ev.u.startup.source = "logcat";
    if (fully_drawn) {
        ev.u.startup.fully_drawn = 1;
        ev.u.startup.ttfd_ms = total;
    }
    return gd_sink_event(c->sink, &ev, err);
}

/* The launch kind Android 14+ prints after the time: " COLD", " WARM", " HOT". */
static const char *kind_word(const char *p, size_t n)
{
    static const struct { const char *w; const char *kind; } k[] = {
        {" COLD", "cold"}, {" WARM", "warm"}, {" HOT", "hot"}};
    for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
        size_t wl = strlen(k[i].w);
        if (n >= wl && memcmp(p, k[i].w, wl) == 0 && (n == wl || p[wl] == ' '))
            return k[i].kind;
    }
    return NULL;
}

/* "Displayed pkg/.Act[ for user 0]: +1s234ms[ (total +1s300ms)][ COLD]",
 * "Fully drawn pkg/.Act: +1s2ms", MediaTek's "[AppLaunch] Displayed
 * Displayed pkg/.Act: +248ms".  The launch is the total when printed (from
 * the intent to the first frame: ActivityRecord.reportLaunchTimeLocked
 * prints it only when the task's first activity was another), the first
 * figure being the drawn activity's own (activity_ms). */
static int lc_displayed(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len, i;
    int fully = 0;
    if (gd_starts_n(m, n, "[AppLaunch] "))
        m += sizeof("[AppLaunch] ") - 1, n -= sizeof("[AppLaunch] ") - 1;
    if (gd_starts_n(m, n, "Fully drawn ")) {
        fully = 1;
        i = sizeof("Fully drawn ") - 1;
    } else {
        i = 0;
        while (gd_starts_n(m + i, n - i, "Displayed "))
            i += sizeof("Displayed ") - 1;
        if (!i)
            return GD_OTHER_RULE;
    }
    size_t e = i;
    while (e < n && m[e] != ' ' && m[e] != ':')
        e++;
    const char *sep = lc_find(m + e, n - e, ": ");
    if (!sep || e == i || !memchr(m + i, '/', e - i))
        return GD_OTHER_RULE;
    size_t d = (size_t)(sep - m) + 2, used;
    double ms = d < n && m[d] == '+' ? duration_at(m + d, n - d, &used) : -1;
    if (ms < 0) {
        gd_sink_skip(c->sink, GD_SKIP(LOGCAT_LAUNCH_LINE_WITH_A_BAD_TIME), c->line, 1);
        return 0;
    }
    d += used;
    double own = GD_NONE;
    if (gd_starts_n(m + d, n - d, " (total ")) {
        const char *close = lc_find(m + d, n - d, ")");
        size_t t = d + sizeof(" (total ") - 1, tu;
        double total = t < n && m[t] == '+' ? duration_at(m + t, n - t, &tu) : -1;
        if (total < 0 || !close || t + tu != (size_t)(close - m)) {
            gd_sink_skip(c->sink, GD_SKIP(LOGCAT_LAUNCH_LINE_WITH_A_BAD_TIME), c->line, 1);
            return 0;
        }
        own = ms, ms = total; /* "Fully drawn" too: its total is the whole */
        d = (size_t)(close - m) + 1;
    }
    return emit_startup(c, l, ts, m + i, e - i, ms, own, fully ? NULL : kind_word(m + d, n - d), fully,
                        err);
}

/* events buffer: am_activity_launch_time "[user,token,pkg/.Act,this,total]"
 * (Android 4.2..9), wm_activity_launch_time "[user,token,pkg/.Act,ms]" (10+),
 * activity_launch_time "[token,pkg/.Act,this,total]" (4.1 and older): the
 * launch is `total` (from the intent to the first frame, as the Displayed
 * line's total), `this` the drawn activity's own (activity_ms). */
static int lc_launch_time(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    int old = gd_lc_tag_is(l, "activity_launch_time");
    const char *m = l->msg;
    size_t n = l->msg_len;
    if (n < 2 || m[0] != '[' || m[n - 1] != ']')
        return GD_OTHER_RULE;
    const char *f[6];
    size_t fl[6], nf = 0, a = 1;
    for (size_t i = 1; i < n; i++) {
        if (m[i] != ',' && m[i] != ']')
            continue;
        if (nf == 6)
            return GD_OTHER_RULE;
        f[nf] = m + a;
        fl[nf++] = i - a;
        a = i + 1;
    }
    if (old ? nf != 4 : nf != 4 && nf != 5)
        return GD_OTHER_RULE;
    size_t ci = old ? 1 : 2, ti = nf - 1, oi = old || nf == 5 ? ci + 1 : ti;
    int64_t total = 0, own = 0;
    if (fl[ti] == 0 || gd_lc_parse_int(f[ti], fl[ti], &total) != fl[ti] || fl[oi] == 0 ||
        gd_lc_parse_int(f[oi], fl[oi], &own) != fl[oi]) {
        /* a negative or unparsable time is no launch time */
        gd_sink_skip(c->sink, GD_SKIP(LOGCAT_LAUNCH_LINE_WITH_A_BAD_TIME), c->line, 1);
        return 0;
    }
    return emit_startup(c, l, ts, f[ci], fl[ci], (double)total, oi != ti ? (double)own : GD_NONE, NULL, 0,
                        err);
}

/* ==== the system's own ANR reports in a log (#28): the * ActivityManager "ANR in PKG (COMP)" block (PID:, Reason:, Load:, the first * "CPU usage from ..." block: its TOTAL and the app's own share) and the * event log's am_anr line, each kept as one issue of tool "android" * (types "anr_report", "am_anr") whose pid is the ANR'ed app's. ==== */

static void copy_text(char *dst, size_t size, const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
        n--;
    if (n >= size)
        n = size - 1;
    memcpy(dst, s, n);
    dst[n] = 0;
}

/* "42%", "4.5%", "+0%" at p: the figure, *used the bytes up to and with '%';
 * NONE when p holds none. */
static double pct_at(const char *p, size_t n, size_t *used)
{
    size_t i = 0;
    if (i < n && (p[i] == '+' || p[i] == '-'))
        i++;
    double v = 0, scale = 0;
    int digits = 0;
    for (; i < n && (gd_lc_is_digit(p[i]) || (p[i] == '.' && scale == 0)); i++) {
        if (p[i] == '.') {
            scale = 1;
            continue;
        }
        digits++;
        if (scale)
            v += (p[i] - '0') * (scale /= 10);
        else
            v = v * 10 + (p[i] - '0');
    }
    if (!digits || i >= n || p[i] != '%')
        return GD_NONE;
    *used = i + 1;
    return v;
}

/* One line of the first CPU usage block: "  42% 6774/pressure: ..." (the
 * app's share when the pid is the app's) or "45% TOTAL: ..." (the end). */
static void cpu_line(lc_anr *a, const char *m, size_t n)
{
    size_t i = 0, k = 0;
    while (i < n && m[i] == ' ')
        i++;
    double v = pct_at(m + i, n - i, &k);
    if (!gd_has(v)) {
        a->in_cpu = 0;
        return;
    }
    i += k;
    while (i < n && m[i] == ' ')
        i++;
    if (gd_starts_n(m + i, n - i, "TOTAL:")) {
        a->cpu_total = v;
        a->in_cpu = 0;
        a->cpu_done = 1;
        return;
    }
    int64_t pid = -1;
    size_t d = gd_lc_parse_int(m + i, n - i, &pid);
    if (d && i + d < n && m[i + d] == '/' && pid == a->pid && a->pid >= 0 && !gd_has(a->cpu_app))
        a->cpu_app = v;
}

static void set_str(json_t *js, const char *key, const char *s)
{
    json_t *v = *s ? gd_json_text(s, strlen(s)) : json_null();
    if (v)
        json_object_set_new(js, key, v);
}

static int lc_anr_flush(lc_ctx *c, gd_error *err)
{
    lc_anr *a = &c->anr;
    if (!a->open)
        return 0;
    a->open = 0;
    json_t *js = json_object();
    set_str(js, "package", a->package);
    set_str(js, "component", a->component);
    set_str(js, "reason", a->reason);
    set_str(js, "load", a->load);
    set_str(js, "cpu_window", a->cpu_window);
    json_object_set_new(js, "cpu_total_pct", gd_has(a->cpu_total) ? json_real(a->cpu_total) : json_null());
    json_object_set_new(js, "cpu_app_pct", gd_has(a->cpu_app) ? json_real(a->cpu_app) : json_null());
    json_object_set_new(js, "reporter_pid", json_integer(a->am_pid));
    lc_line l;
    memset(&l, 0, sizeof l);
    l.pid = a->pid;
    l.tid = a->pid; /* an app's main thread is its pid: the ANR's thread */
    long line = c->line;
    c->line = a->line;
    int rc = lc_emit_issue(c, &l, a->ts, "anr_report", GD_NONE, js, err);
    c->line = line;
    return rc;
}

/* "[user,pid,pkg,flags,reason]" of an am_anr line (the reason runs to the
 * closing bracket and may hold commas). */
static int am_anr(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg, *e = m + l->msg_len;
    while (e > m && (e[-1] == ' ' || e[-1] == '\r'))
        e--;
    if (m >= e || *m != '[' || e[-1] != ']')
        return GD_OTHER_RULE;
    const char *f[5];
    size_t fl[5], nf = 0;
    const char *p = m + 1, *end = e - 1;
    while (nf < 4) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        if (!comma)
            return GD_OTHER_RULE;
        f[nf] = p, fl[nf] = (size_t)(comma - p), nf++;
        p = comma + 1;
    }
    f[4] = p, fl[4] = (size_t)(end - p);
    int64_t user = -1, pid = -1;
    if (gd_lc_parse_int(f[0], fl[0], &user) != fl[0] || gd_lc_parse_int(f[1], fl[1], &pid) != fl[1] || !fl[1])
        return GD_OTHER_RULE;
    json_t *js = json_object();
    json_object_set_new(js, "user", json_integer(user));
    json_t *v;
    if ((v = gd_json_text(f[2], fl[2])))
        json_object_set_new(js, "package", v);
    if ((v = gd_json_text(f[3], fl[3])))
        json_object_set_new(js, "flags", v);
    if ((v = gd_json_text(f[4], fl[4])))
        json_object_set_new(js, "reason", v);
    json_object_set_new(js, "reporter_pid", json_integer(l->pid));
    lc_line a = *l;
    a.pid = pid;
    a.tid = pid; /* as for anr_report */
    return lc_emit_issue(c, &a, ts, "am_anr", GD_NONE, js, err);
}

static int lc_anr_line(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    lc_anr *a = &c->anr;
    const char *m = l->msg;
    size_t n = l->msg_len;
    int am = gd_lc_tag_is(l, "ActivityManager");
    if (a->open) {
        if (am && l->pid == a->am_pid && l->tid == a->am_tid && !gd_starts_n(m, n, "ANR in ")) {
            if (gd_starts_n(m, n, "PID: ")) {
                int64_t pid = -1;
                if (gd_lc_parse_int(m + 5, n - 5, &pid))
                    a->pid = pid;
            } else if (gd_starts_n(m, n, "Reason: ") && !a->reason[0])
                copy_text(a->reason, sizeof a->reason, m + 8, n - 8);
            else if (gd_starts_n(m, n, "Load: ") && !a->load[0])
                copy_text(a->load, sizeof a->load, m + 6, n - 6);
            else if (gd_starts_n(m, n, "CPU usage from ") && !a->cpu_done && !a->cpu_window[0]) {
                copy_text(a->cpu_window, sizeof a->cpu_window, m + 15, n - 15);
                size_t w = strlen(a->cpu_window);
                if (w && a->cpu_window[w - 1] == ':')
                    a->cpu_window[w - 1] = 0;
                a->in_cpu = 1;
            } else if (a->in_cpu)
                cpu_line(a, m, n);
            return 0;
        }
        int rc = lc_anr_flush(c, err);
        if (rc)
            return rc;
    }
    if (gd_lc_tag_is(l, "am_anr"))
        return am_anr(c, l, ts, err);
    if (!am || !gd_starts_n(m, n, "ANR in "))
        return GD_OTHER_RULE;
    memset(a, 0, sizeof *a);
    a->open = 1;
    a->am_pid = l->pid;
    a->am_tid = l->tid;
    a->ts = ts;
    a->line = c->line;
    a->pid = -1;
    a->cpu_total = a->cpu_app = GD_NONE;
    /* "ANR in PKG" or "ANR in PKG (PKG/.Act)" */
    const char *s = m + 7, *e = m + n;
    while (e > s && (e[-1] == ' ' || e[-1] == '\r'))
        e--;
    const char *sp = memchr(s, ' ', (size_t)(e - s));
    copy_text(a->package, sizeof a->package, s, (size_t)((sp ? sp : e) - s));
    if (sp && sp + 1 < e && sp[1] == '(' && e[-1] == ')')
        copy_text(a->component, sizeof a->component, sp + 2, (size_t)(e - sp - 3));
    return 0;
}
