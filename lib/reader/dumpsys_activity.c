/* dumpsys_activity.c - reader of `adb shell dumpsys activity top`: one view dump per activity. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "textin.h"
#include "viewbuf.h"

/* The text carries no capture time except, on newer Android, a Looper
 * "Dump time: 2026-03-22 22:33:00.132 GMT+03:00" line inside each activity's
 * section (after its hierarchy).  That stamp (converted to UTC with its
 * offset) is the dump's ts; without it ts is 0 (unknown). */

#define MAX_DEPTH 1024

typedef struct frame {
    int64_t id;
    int32_t abs_l, abs_t;
    long idx;           /* view index in the buffer */
    int hole;           /* an unparsable line (or under one): its subtree
                         * has no known origin and is dropped            */
} frame;

typedef struct act {
    const gd_sink *sink;
    gd_viewbuf vb;
    /* current activity section */
    int have_activity;
    char component[512];
    int64_t hash, pid;
    double dump_ts;
    char window[512];
    int have_window;
    int have_dump;       /* a hierarchy was read and is buffered          */
    long dump_line;
    /* hierarchy state */
    int in_hier;
    int suspended;       /* a line at or left of the root interrupted the
                          * hierarchy: it resumes if a view line that fits
                          * the open tree follows (MIUI views print
                          * multi-line debug text inside the hierarchy)   */
    long susp_first, susp_lines;
    size_t root_indent;
    int want_root;       /* "View Hierarchy:" seen, first line not yet    */
    frame stack[MAX_DEPTH];
    size_t depth;        /* frames on the stack                           */
    long decor_idx;      /* flagless DecorView awaiting its children's union */
    int decor_any;
} act;

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

/* "2026-03-22 22:33:00.132 GMT+03:00" -> epoch ms UTC; NONE when malformed.
 * Without a zone the stamp is taken as UTC. */
static double parse_dump_time(const char *s)
{
    int Y, M, D, h, mi, sec, n = 0;
    if (sscanf(s, "%4d-%2d-%2d %2d:%2d:%2d%n", &Y, &M, &D, &h, &mi, &sec, &n) != 6)
        return GD_NONE;
    if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || mi > 59 || sec > 60)
        return GD_NONE;
    const char *p = s + n;
    double ms = 0;
    if (*p == '.') {
        double scale = 100;
        for (p++; isdigit((unsigned char)*p); p++, scale /= 10)
            ms += (*p - '0') * scale;
    }
    double t = (double)(days_from_civil(Y, (unsigned)M, (unsigned)D) * 86400 + h * 3600 + mi * 60 + sec) * 1000 + ms;
    while (*p == ' ')
        p++;
    if (strncmp(p, "GMT", 3) == 0 && (p[3] == '+' || p[3] == '-')) {
        int oh = 0, om = 0;
        if (sscanf(p + 4, "%2d:%2d", &oh, &om) >= 1) {
            double off = (oh * 60 + om) * 60000.0;
            t -= p[3] == '+' ? off : -off;
        }
    }
    return t;
}

static void copy_str(char *dst, size_t cap, const char *s, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = 0;
}

static int emit_dump(act *a, gd_error *err)
{
    if (!a->have_dump)
        return 0;
    a->have_dump = 0;
    if (a->vb.n == 0) {
        gd_sink_skip(a->sink, "dumpsys activity: empty view hierarchy", a->dump_line, 0);
        return 0;
    }
    gd_event ev;
    gd_event_init(&ev, GD_EV_VIEW_DUMP);
    ev.ts = gd_has(a->dump_ts) ? a->dump_ts : 0;
    ev.line = a->dump_line;
    gd_view_dump_ev *d = &ev.u.view_dump;
    if (a->have_activity) {
        d->page.type = "activity";
        d->page.cls = a->component;
        d->page.hash = a->hash;
        if (a->pid >= 0)
            ev.pid = a->pid;
    }
    d->window = a->have_window ? a->window : NULL;
    d->has_paint = 1;
    d->views = gd_viewbuf_finish(&a->vb);
    d->nviews = a->vb.n;
    if (d->nviews) {
        const int32_t *r = d->views[0].rect;
        d->screen_w = r[2] - r[0] > 0 ? r[2] - r[0] : 0;
        d->screen_h = r[3] - r[1] > 0 ? r[3] - r[1] : 0;
    }
    int rc = gd_sink_event(a->sink, &ev, err);
    gd_viewbuf_reset(&a->vb);
    return rc;
}

/* Ends the current activity section: emits its dump, if any. */
static int end_activity(act *a, gd_error *err)
{
    int rc = emit_dump(a, err);
    if (a->have_activity && a->dump_line == 0)
        gd_sink_skip(a->sink, "dumpsys activity: activity without view hierarchy", 0, 0);
    a->have_activity = 0;
    a->have_window = 0;
    a->dump_ts = GD_NONE;
    a->dump_line = 0;
    a->in_hier = a->want_root = 0;
    return rc;
}

/* "ACTIVITY com.pkg/.Main 1a2b3c pid=1234 ..." (s past the indentation). */
static void parse_activity(act *a, const char *s)
{
    s += strlen("ACTIVITY ");
    const char *e = s;
    while (*e && *e != ' ')
        e++;
    copy_str(a->component, sizeof a->component, s, (size_t)(e - s));
    a->hash = -1;
    a->pid = -1;
    while (*e == ' ')
        e++;
    const char *h = e;
    while (isxdigit((unsigned char)*e))
        e++;
    if (e > h && (*e == ' ' || !*e) && e - h <= 16)
        a->hash = (int64_t)strtoull(h, NULL, 16);
    const char *p = strstr(e, "pid=");
    if (p && isdigit((unsigned char)p[4]))
        a->pid = strtoll(p + 4, NULL, 10);
    a->have_activity = 1;
    a->have_dump = 0;
    a->dump_line = 0;
}

/* Parses "l,t-r,b". */
static int parse_bounds(const char *s, int32_t r[4])
{
    char *e;
    long v[4];
    const char seps[3] = {',', '-', ','};
    for (int i = 0; i < 4; i++) {
        v[i] = strtol(s, &e, 10);
        if (e == s || v[i] > 1000000000L || v[i] < -1000000000L)
            return -1;
        if (i < 3) {
            if (*e != seps[i])
                return -1;
            s = e + 1;
        } else if (*e && *e != ' ' && *e != '}') {
            return -1;
        }
    }
    for (int i = 0; i < 4; i++)
        r[i] = (int32_t)v[i];
    return 0;
}

static int is_flags1(const char *t, size_t n)
{
    if (n < 8 || n > 9 || !strchr("VIG", t[0]))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!isalpha((unsigned char)t[i]) && t[i] != '.')
            return 0;
    return 1;
}

static int is_class_name(const char *s, size_t n)
{
    if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == '$'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("_$.", s[i]))
            return 0;
    return 1;
}

/* Does `s` at `depth` look like a view line that continues the open tree? */
static int fits_tree(const act *a, const char *s, size_t depth)
{
    const char *brace = strchr(s, '{');
    if (!brace || depth > a->depth || !is_class_name(s, (size_t)(brace - s)))
        return 0;
    const char *f = brace + 1;
    while (*f && *f != ' ')
        f++;
    if (*f != ' ')
        return 0;
    const char *g = ++f;
    while (*g && *g != ' ' && *g != '}')
        g++;
    return is_flags1(f, (size_t)(g - f));
}

/* Counts a dropped line at `depth` and opens a hole for its subtree. */
static int hole(act *a, size_t depth, const char *reason, long lineno)
{
    gd_sink_skip(a->sink, reason, lineno, 1);
    a->stack[depth].hole = 1;
    a->stack[depth].id = 0;
    a->stack[depth].idx = -1;
    a->depth = depth + 1;
    return 0;
}

/* One hierarchy line (s past the indentation) at `depth`. 0 ok (or skipped),
 * else an error code. */
static int hier_line(act *a, const char *s, size_t depth, long lineno, gd_error *err)
{
    if (depth > a->depth || depth >= MAX_DEPTH) {
        gd_sink_skip(a->sink, "dumpsys activity: bad indentation", lineno, 1);
        return 0;
    }
    const frame *par = depth ? &a->stack[depth - 1] : NULL;
    if (par && par->hole)
        return hole(a, depth, "dumpsys activity: view under an unparsable line", lineno);
    int32_t ox = par ? par->abs_l : 0, oy = par ? par->abs_t : 0;

    gd_view v = {0};
    v.parent = par ? par->id : 0;
    v.id = (int64_t)a->vb.n + 1;
    const char *cls = s, *res = NULL, *title = NULL;
    size_t cls_len, res_len = 0, title_len = 0;
    int decor = 0;
    const char *brace = strchr(s, '{');
    const char *at = strstr(s, "DecorView@");
    if (at && (!brace || at < brace) && !memchr(s, ' ', (size_t)(at - s))) {
        /* old form: DecorView@d2252f5[Title], no flags, no bounds */
        cls_len = (size_t)(at - s) + strlen("DecorView");
        const char *t = strchr(at, '[');
        if (t && strchr(t, ']')) {
            title = t + 1;
            title_len = (size_t)(strchr(t, ']') - title);
        }
        decor = 1;
        v.layers = 1;
        v.visible = 1;
        v.rect[0] = v.rect[1] = v.rect[2] = v.rect[3] = 0;
    } else {
        const char *close = brace ? strchr(brace, '}') : NULL;
        if (!brace || !close || brace == s) {
            return hole(a, depth, "dumpsys activity: unparsable view line", lineno);
        }
        cls_len = (size_t)(brace - s);
        if (!is_class_name(s, cls_len)) {
            return hole(a, depth, "dumpsys activity: unparsable view line", lineno);
        }
        /* tokens inside the braces */
        const char *tok[8];
        size_t tlen[8], nt = 0;
        const char *p = brace + 1;
        while (p < close && nt < 8) {
            while (p < close && *p == ' ')
                p++;
            if (p >= close)
                break;
            tok[nt] = p;
            while (p < close && *p != ' ')
                p++;
            tlen[nt] = (size_t)(p - tok[nt]);
            nt++;
        }
        int32_t rel[4];
        if (nt < 4 || !is_flags1(tok[1], tlen[1]) || parse_bounds(tok[3], rel) != 0) {
            return hole(a, depth, "dumpsys activity: unparsable view line", lineno);
        }
        const char *f = tok[1];
        v.visible = f[0] == 'V';
        v.layers = (f[0] == 'V' && f[3] == 'D') ? 1 : 0;
        v.rect[0] = rel[0] + ox;
        v.rect[1] = rel[1] + oy;
        v.rect[2] = rel[2] + ox;
        v.rect[3] = rel[3] + oy;
        for (size_t i = 4; i < nt; i++)
            if (tok[i][0] != '#' && memchr(tok[i], ':', tlen[i]) && memchr(tok[i], '/', tlen[i]) &&
                strncmp(tok[i], "aid=", 4) != 0) {
                res = tok[i];
                res_len = tlen[i];
            }
        if (close[1] == '[' && strchr(close, ']')) {
            title = close + 2;
            title_len = (size_t)(strchr(close, ']') - title);
        }
    }
    if (title && !a->have_window) {
        copy_str(a->window, sizeof a->window, title, title_len);
        a->have_window = 1;
    }
    long idx = gd_viewbuf_add(&a->vb, &v, cls, cls_len, res, res_len, NULL, 0, lineno, err);
    if (idx < 0)
        return err->code;
    /* a flagless DecorView covers the union of its direct children */
    if (depth && a->stack[depth - 1].idx == a->decor_idx && a->decor_idx >= 0 &&
        v.rect[2] > v.rect[0] && v.rect[3] > v.rect[1]) {
        int32_t *u = a->vb.views[a->decor_idx].rect;
        if (!a->decor_any) {
            memcpy(u, v.rect, sizeof v.rect);
            a->decor_any = 1;
        } else {
            if (v.rect[0] < u[0]) u[0] = v.rect[0];
            if (v.rect[1] < u[1]) u[1] = v.rect[1];
            if (v.rect[2] > u[2]) u[2] = v.rect[2];
            if (v.rect[3] > u[3]) u[3] = v.rect[3];
        }
    }
    if (decor) {
        a->decor_idx = idx;
        a->decor_any = 0;
    }
    frame *fr = &a->stack[depth];
    fr->hole = 0;
    fr->id = v.id;
    fr->idx = idx;
    /* children are relative to this view's left/top; a flagless DecorView
     * sits at its parent's origin */
    fr->abs_l = decor ? ox : v.rect[0];
    fr->abs_t = decor ? oy : v.rect[1];
    a->depth = depth + 1;
    return 0;
}

static int read_activity(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    (void)opts;
    act *a = calloc(1, sizeof *a);
    if (!a)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    a->sink = sink;
    a->dump_ts = GD_NONE;
    a->decor_idx = -1;
    gd_viewbuf_init(&a->vb, 0);
    gd_textin *t = NULL;
    int rc = gd_textin_open(&t, in, err);
    char *line;
    size_t len;
    int r = 0;
    while (rc == GD_OK && (r = gd_textin_getline(t, &line, &len, err)) == 1) {
        long lineno = gd_textin_lineno(t);
        size_t ind = 0;
        while (ind < len && line[ind] == ' ')
            ind++;
        const char *s = line + ind;
        if (a->want_root) {
            if (ind == len)
                continue;
            a->want_root = 0;
            a->in_hier = 1;
            a->suspended = 0;
            a->root_indent = ind;
            a->depth = 0;
            a->decor_idx = -1;
            a->have_dump = 1;
            a->dump_line = lineno;
            rc = hier_line(a, s, 0, lineno, err);
            continue;
        }
        if (a->in_hier && a->suspended && ind > a->root_indent && ind < len &&
            (ind - a->root_indent) % 2 == 0 && fits_tree(a, s, (ind - a->root_indent) / 2)) {
            /* the interruption was inside the hierarchy: count its lines */
            for (long k = 0; k < a->susp_lines; k++)
                gd_sink_skip(sink, "dumpsys activity: unparsable view line", a->susp_first + k, 1);
            a->suspended = 0;
        }
        if (a->in_hier && !a->suspended) {
            if (ind > a->root_indent && ind < len) {
                size_t rel = ind - a->root_indent;
                if (rel % 2)
                    gd_sink_skip(sink, "dumpsys activity: bad indentation", lineno, (long)ind + 1);
                else
                    rc = hier_line(a, s, rel / 2, lineno, err);
                continue;
            }
            a->suspended = 1;
            a->susp_first = lineno;
            a->susp_lines = 0;
        }
        if (a->in_hier)
            a->susp_lines++;
        if (strncmp(s, "TASK ", 5) == 0) {
            rc = end_activity(a, err);
        } else if (strncmp(s, "ACTIVITY ", 9) == 0) {
            rc = end_activity(a, err);
            if (rc == GD_OK)
                parse_activity(a, s);
        } else if (strcmp(s, "View Hierarchy:") == 0) {
            rc = emit_dump(a, err);  /* a second hierarchy in one section */
            a->want_root = 1;
        } else if (strncmp(s, "Dump time: ", 11) == 0 && !gd_has(a->dump_ts)) {
            a->dump_ts = parse_dump_time(s + 11);
        }
    }
    if (rc == GD_OK && r < 0)
        rc = err->code ? err->code : GD_ERR_DATA;
    if (rc == GD_OK)
        rc = end_activity(a, err);
    gd_textin_close(t);
    gd_viewbuf_free(&a->vb);
    free(a);
    return rc;
}

/* Line-start checks over a UTF-8 head. */
static int probe(const unsigned char *head, size_t n, int eof)
{
    (void)eof;
    size_t m;
    char *h = gd_text_head(head, n, &m);
    if (!h)
        return 0;
    int task = 0, activity = 0, hier = 0, view = 0;
    char *p = h;
    while (p && *p) {
        char *nl = strchr(p, '\n');
        const char *s = p;
        while (*s == ' ')
            s++;
        if (s == p && strncmp(s, "TASK ", 5) == 0)
            task = 1;
        else if (strncmp(s, "ACTIVITY ", 9) == 0 && strchr(s, '/') &&
                 (!nl || strchr(s, '/') < nl))
            activity = 1;
        else if (strncmp(s, "View Hierarchy:", 15) == 0)
            hier = 1;
        else if (hier && (strstr(s, "DecorView@") == s || strstr(s, "DecorView{")))
            view = 1;
        p = nl ? nl + 1 : NULL;
    }
    free(h);
    if (activity && hier && view)
        return 95;
    if (task && activity)
        return 80;
    if (hier && view)
        return 70;
    return 0;
}

const gd_reader gd_reader_dumpsys_activity = {
    .name = "dumpsys_activity",
    .description = "`adb shell dumpsys activity top`: view hierarchies (UTF-8 or UTF-16 with BOM)",
    .probe = probe,
    .read = read_activity,
    .clock = "utc",
};
