/* logcat_messages.c - the logcat messages godeye reads: slow looper, frames, launches. */
#define _GNU_SOURCE /* memmem */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "reader/component.h"
#include "reader/matrix.h"
#include "reader/logcat_int.h"

/* "Slow dispatch took 335ms android.fg h=..." / "Slow delivery took ..." */
int lc_looper_slow(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    int dispatch = STARTS(m, n, "Slow dispatch took ");
    if (!dispatch && !STARTS(m, n, "Slow delivery took "))
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
            size_t w = lc_word_len(m + j + 1, n - j - 1);
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
int lc_miui_slow_looper(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
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
    if (STARTS(r, rn, "Long Msg: ")) {
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
        if (late >= 0 && STARTS(q + k, (size_t)(m + n - q - k), " late")) {
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
    if (STARTS(after, an, " (wall="))
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
        size_t d = lc_parse_int(q, (size_t)(m + n - q), &idx);
        if (!d || !STARTS(q + d, (size_t)(m + n - q - d), " took ")) {
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
int lc_skipped_frames(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len;
    if (!STARTS(m, n, "Skipped "))
        return GD_OTHER_RULE;
    size_t i = sizeof("Skipped ") - 1;
    int64_t frames;
    size_t k = lc_parse_int(m + i, n - i, &frames);
    if (!k || !lc_starts(m + i + k, n - i - k, " frames!", 8))
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
    while (i < n && lc_is_digit(p[i])) {
        int64_t v;
        size_t k = lc_parse_int(p + i, n - i, &v);
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
                        double total, const char *kind, int fully_drawn, gd_error *err)
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
 * Displayed pkg/.Act: +248ms".  The launch's own time is the first figure
 * (ActivityMetricsLogger: "total" is the whole task's, from its first
 * activity). */
int lc_displayed(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    const char *m = l->msg;
    size_t n = l->msg_len, i;
    int fully = 0;
    if (STARTS(m, n, "[AppLaunch] "))
        m += sizeof("[AppLaunch] ") - 1, n -= sizeof("[AppLaunch] ") - 1;
    if (STARTS(m, n, "Fully drawn ")) {
        fully = 1;
        i = sizeof("Fully drawn ") - 1;
    } else {
        i = 0;
        while (STARTS(m + i, n - i, "Displayed "))
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
        gd_sink_skip(c->sink, "logcat: launch line with a bad time", c->line, 1);
        return 0;
    }
    d += used;
    if (STARTS(m + d, n - d, " (total ")) {
        const char *close = lc_find(m + d, n - d, ")");
        d = close ? (size_t)(close - m) + 1 : n;
    }
    return emit_startup(c, l, ts, m + i, e - i, ms, fully ? NULL : kind_word(m + d, n - d), fully, err);
}

/* events buffer: am_activity_launch_time "[user,token,pkg/.Act,this,total]"
 * (Android 4.2..9), wm_activity_launch_time "[user,token,pkg/.Act,ms]" (10+),
 * activity_launch_time "[token,pkg/.Act,this,total]" (4.1 and older): the
 * launch's own time is `this` (`total` is the whole task's). */
int lc_launch_time(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    int old = lc_tag_is(l, "activity_launch_time");
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
    size_t ci = old ? 1 : 2, ti = old || nf == 5 ? ci + 1 : nf - 1;
    int64_t total = 0;
    if (fl[ti] == 0 || lc_parse_int(f[ti], fl[ti], &total) != fl[ti]) {
        /* a negative or unparsable time is no launch time */
        gd_sink_skip(c->sink, "logcat: launch line with a bad time", c->line, 1);
        return 0;
    }
    return emit_startup(c, l, ts, f[ci], fl[ci], (double)total, NULL, 0, err);
}
