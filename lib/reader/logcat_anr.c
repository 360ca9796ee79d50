/* logcat_anr.c - the system's own ANR reports in a log (#28): the
 * ActivityManager "ANR in PKG (COMP)" block (PID:, Reason:, Load:, the first
 * "CPU usage from ..." block: its TOTAL and the app's own share) and the
 * event log's am_anr line, each kept as one issue of tool "android"
 * (types "anr_report", "am_anr") whose pid is the ANR'ed app's. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/row.h" /* gd_json_text */
#include "reader/logcat_int.h"

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
    for (; i < n && (lc_is_digit(p[i]) || (p[i] == '.' && scale == 0)); i++) {
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
    if (STARTS(m + i, n - i, "TOTAL:")) {
        a->cpu_total = v;
        a->in_cpu = 0;
        a->cpu_done = 1;
        return;
    }
    int64_t pid = -1;
    size_t d = lc_parse_int(m + i, n - i, &pid);
    if (d && i + d < n && m[i + d] == '/' && pid == a->pid && a->pid >= 0 && !gd_has(a->cpu_app))
        a->cpu_app = v;
}

static void set_str(json_t *js, const char *key, const char *s)
{
    json_t *v = *s ? gd_json_text(s, strlen(s)) : json_null();
    if (v)
        json_object_set_new(js, key, v);
}

int lc_anr_flush(lc_ctx *c, gd_error *err)
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
    if (lc_parse_int(f[0], fl[0], &user) != fl[0] || lc_parse_int(f[1], fl[1], &pid) != fl[1] || !fl[1])
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

int lc_anr_line(lc_ctx *c, const lc_line *l, double ts, gd_error *err)
{
    lc_anr *a = &c->anr;
    const char *m = l->msg;
    size_t n = l->msg_len;
    int am = lc_tag_is(l, "ActivityManager");
    if (a->open) {
        if (am && l->pid == a->am_pid && l->tid == a->am_tid && !STARTS(m, n, "ANR in ")) {
            if (STARTS(m, n, "PID: ")) {
                int64_t pid = -1;
                if (lc_parse_int(m + 5, n - 5, &pid))
                    a->pid = pid;
            } else if (STARTS(m, n, "Reason: ") && !a->reason[0])
                copy_text(a->reason, sizeof a->reason, m + 8, n - 8);
            else if (STARTS(m, n, "Load: ") && !a->load[0])
                copy_text(a->load, sizeof a->load, m + 6, n - 6);
            else if (STARTS(m, n, "CPU usage from ") && !a->cpu_done && !a->cpu_window[0]) {
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
    if (lc_tag_is(l, "am_anr"))
        return am_anr(c, l, ts, err);
    if (!am || !STARTS(m, n, "ANR in "))
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
