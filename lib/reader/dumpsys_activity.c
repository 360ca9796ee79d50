/* dumpsys_activity.c - reader of `adb shell dumpsys activity top`: one view dump per activity. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "reader/mdstamp.h"
#include "io/textin.h"
#include "viewbuf.h"
#include "core/skip_reasons.h"

/* The text carries no capture time except, on newer Android, a Looper
 * "Dump time: 2026-03-22 22:33:00.132 GMT+03:00" line inside each activity's
 * section (after its hierarchy).  That stamp (converted to UTC with its
 * offset) is the dump's ts; without it ts is 0 (unknown).  The first stamp
 * also gives the capture's clock in a meta: "utc" with its offset, or
 * "local" for a stamp without a zone (read as if UTC). */

#define MAX_DEPTH 1024

/* Hierarchy lines.  ViewRootImpl prints each view's toString() at two
 * spaces per depth below the root.  Real dumps break that shape:
 *   - a view whose class overrides toString() prints something else on its
 *     line ("35536449(0,0,1080,608)", MIUI's "[ mHCells = 4 ..."): a line at
 *     its tree indentation that is not `Class{hash FLAGS FLAGS l,t-r,b}` is
 *     still a view, kept with unknown paint (layers -1, overdraw paints
 *     nothing for it) so that its children keep their place and depth; its
 *     box is the `(l,t,r,b)` it prints (relative to its parent, like every
 *     view's bounds), else its parent's box at its parent's origin (it then
 *     clips nothing); counted as REASON_CUSTOM;
 *   - such a toString() may span several lines (MIUI's CellLayout prints
 *     a table at column 0, a blank line, tab-indented grid rows): lines at
 *     or left of the root interrupt the hierarchy, which resumes when a view
 *     line fits the open tree (the interruption is then counted line by line
 *     as REASON_NOISE), and else ended there; a line at the "View
 *     Hierarchy:" header's own indentation ends it for good (the Looper dump,
 *     its "Dump time:" and what follows are never taken into the tree);
 *   - a non-view line deeper than its parent's child level is noise too;
 *     a view line there is attached to the nearest open ancestor to its left
 *     (REASON_OFFSET). */
#define REASON_CUSTOM GD_SKIP(DUMPSYS_ACTIVITY_VIEW_LINE_WITHOUT_FLAGS)
#define REASON_NOISE GD_SKIP(DUMPSYS_ACTIVITY_NON_VIEW_LINE_IN_HIERARCHY)
#define REASON_OFFSET GD_SKIP(DUMPSYS_ACTIVITY_VIEW_OFF_ITS_PARENT_S_CHILD)
#define REASON_DEEP GD_SKIP(DUMPSYS_ACTIVITY_HIERARCHY_TOO_DEEP)

/* rect[0] of a view whose box is its parent's, resolved at emit time */
#define BOX_OF_PARENT INT32_MIN

typedef struct frame {
    int64_t id;
    int32_t abs_l, abs_t; /* origin of the children's bounds               */
    long idx;             /* view index in the buffer                      */
    size_t ind;           /* the view line's indentation (columns)         */
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
    int meta_sent;
    /* hierarchy state */
    int in_hier;
    int suspended;       /* a line at or left of the root interrupted the
                          * hierarchy: it resumes if a view line that fits
                          * the open tree follows                         */
    long susp_first, susp_lines;
    size_t root_indent;
    size_t hdr_indent;   /* indentation of the "View Hierarchy:" line     */
    int want_root;       /* "View Hierarchy:" seen, first line not yet    */
    frame stack[MAX_DEPTH];
    size_t depth;        /* frames on the stack                           */
    long decor_idx;      /* root awaiting its children's union (a flagless
                          * DecorView or a root without bounds)           */
    int decor_any;
} act;

/* "2026-03-22 22:33:00.132 GMT+03:00" -> epoch ms UTC; NONE when malformed.
 * *zone_min gets the stamp's offset from UTC in minutes, INT64_MIN when it
 * has none (the stamp is then read as UTC: a local wall clock). */
static double parse_dump_time(const char *s, int64_t *zone_min)
{
    int Y, M, D, h, mi, sec, n = 0;
    *zone_min = INT64_MIN;
    if (sscanf(s, "%4d-%2d-%2d %2d:%2d:%2d%n", &Y, &M, &D, &h, &mi, &sec, &n) != 6)
        return GD_NONE;
    if (M < 1 || M > 12 || D < 1 || D > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 ||
        sec > 60)
        return GD_NONE;
    const char *p = s + n;
    double ms = 0;
    if (*p == '.') {
        double scale = 100;
        for (p++; isdigit((unsigned char)*p); p++, scale /= 10)
            ms += (*p - '0') * scale;
    }
    double t = gd_mdstamp_civil_ms(Y, M, D, h, mi, sec) + ms;
    while (*p == ' ')
        p++;
    if (strncmp(p, "GMT", 3) == 0 && (p[3] == '+' || p[3] == '-')) {
        int oh = 0, om = 0;
        if (sscanf(p + 4, "%2d:%2d", &oh, &om) >= 1 && oh >= 0 && oh <= 14 && om >= 0 && om < 60) {
            int64_t off = (int64_t)oh * 60 + om;
            if (p[3] == '-')
                off = -off;
            t -= (double)off * 60000.0;
            *zone_min = off;
        }
    } else if (strncmp(p, "GMT", 3) == 0 || strncmp(p, "UTC", 3) == 0) {
        *zone_min = 0;
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
        gd_sink_skip(a->sink, GD_SKIP(DUMPSYS_ACTIVITY_EMPTY_VIEW_HIERARCHY), a->dump_line, 0);
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
    /* views printed without bounds take their parent's box (parents come
     * first: ids are indices + 1) */
    for (size_t i = 0; i < a->vb.n; i++) {
        gd_view *v = &a->vb.views[i];
        if (v->rect[0] != BOX_OF_PARENT)
            continue;
        if (v->parent >= 1 && (size_t)v->parent <= i)
            memcpy(v->rect, a->vb.views[v->parent - 1].rect, sizeof v->rect);
        else
            memset(v->rect, 0, sizeof v->rect);
    }
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
        gd_sink_skip(a->sink, GD_SKIP(DUMPSYS_ACTIVITY_ACTIVITY_WITHOUT_VIEW), 0, 0);
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

/* "DecorView" or "<package>.DecorView": the window's root, in either form. */
static int is_decor_class(const char *s, size_t n)
{
    static const char k[] = "DecorView";
    size_t kn = sizeof k - 1;
    return n >= kn && memcmp(s + n - kn, k, kn) == 0 && (n == kn || s[n - kn - 1] == '.');
}

/* A parsed hierarchy line. */
typedef struct vline {
    int shaped;          /* Class{hash FLAGS FLAGS l,t-r,b ...} or DecorView@ */
    int decor;           /* DecorView@hash[Title]: no flags, no bounds        */
    int has_rel;         /* rel holds bounds relative to the parent           */
    int32_t rel[4];
    int layers, visible;
    const char *cls, *res, *title;
    size_t cls_len, res_len, title_len;
} vline;

/* "(l,t,r,b)" somewhere on a custom view's line, r >= l and b >= t. */
static int parse_paren_bounds(const char *s, int32_t r[4])
{
    for (const char *p = strchr(s, '('); p; p = strchr(p + 1, '(')) {
        const char *q = p + 1;
        long v[4];
        int i;
        for (i = 0; i < 4; i++) {
            char *e;
            if (!isdigit((unsigned char)*q) && *q != '-')
                break;
            v[i] = strtol(q, &e, 10);
            if (e == q || v[i] > 1000000000L || v[i] < -1000000000L || *e != (i < 3 ? ',' : ')'))
                break;
            q = e + 1;
        }
        if (i == 4 && v[2] >= v[0] && v[3] >= v[1]) {
            for (i = 0; i < 4; i++)
                r[i] = (int32_t)v[i];
            return 1;
        }
    }
    return 0;
}

/* Reads one hierarchy line (s past the indentation).  Not a view shape:
 * out->shaped 0, with the class (when the line starts with a class name)
 * and the bounds it prints, if any. */
static void parse_vline(const char *s, vline *out)
{
    memset(out, 0, sizeof *out);
    const char *brace = strchr(s, '{');
    const char *at = strstr(s, "DecorView@");
    if (at && (!brace || at < brace) && !memchr(s, ' ', (size_t)(at - s)) &&
        is_class_name(s, (size_t)(at - s) + strlen("DecorView"))) {
        /* old form: DecorView@d2252f5[Title], no flags, no bounds */
        out->shaped = out->decor = 1;
        out->cls = s;
        out->cls_len = (size_t)(at - s) + strlen("DecorView");
        const char *t = strchr(at, '[');
        if (t && strchr(t, ']')) {
            out->title = t + 1;
            out->title_len = (size_t)(strchr(t, ']') - out->title);
        }
        out->layers = 1;
        out->visible = 1;
        return;
    }
    const char *close = brace ? strchr(brace, '}') : NULL;
    if (brace && close && is_class_name(s, (size_t)(brace - s))) {
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
        if (nt >= 4 && is_flags1(tok[1], tlen[1]) && parse_bounds(tok[3], out->rel) == 0) {
            out->shaped = out->has_rel = 1;
            out->cls = s;
            out->cls_len = (size_t)(brace - s);
            const char *f = tok[1];
            out->visible = f[0] == 'V';
            out->layers = (f[0] == 'V' && f[3] == 'D') ? 1 : 0;
            /* the window's DecorView paints its background, whether or not
             * 'D' is printed (`DecorView{5e9b2a1 V.E...... ... aid=N}`) */
            if (f[0] == 'V' && is_decor_class(s, (size_t)(brace - s)))
                out->layers = 1;
            for (size_t i = 4; i < nt; i++)
                if (tok[i][0] != '#' && memchr(tok[i], ':', tlen[i]) && memchr(tok[i], '/', tlen[i]) &&
                    strncmp(tok[i], "aid=", 4) != 0) {
                    out->res = tok[i];
                    out->res_len = tlen[i];
                }
            if (close[1] == '[' && strchr(close, ']')) {
                out->title = close + 2;
                out->title_len = (size_t)(strchr(close, ']') - out->title);
            }
            return;
        }
    }
    /* a view with its own toString(): class if it starts with one */
    size_t n = 0;
    while (s[n] && !strchr(" ({[@:=,", s[n]))
        n++;
    if (n && strchr("{@(", s[n]) && !isdigit((unsigned char)s[0]) && is_class_name(s, n)) {
        out->cls = s;
        out->cls_len = n;
    }
    out->has_rel = parse_paren_bounds(s, out->rel);
    out->layers = -1;
    out->visible = 1;
}

/* rel + origin, held within +-2^30 px (deep nests of huge offsets would
 * overflow; BOX_OF_PARENT stays out of reach). */
static int32_t add_px(int32_t rel, int32_t origin)
{
    int64_t v = (int64_t)rel + origin;
    const int64_t cap = (int64_t)1 << 30;
    return (int32_t)(v > cap ? cap : v < -cap ? -cap : v);
}

/* The stack slot a line at indentation `ind` goes to: below the deepest
 * open view left of it. */
static size_t slot_for(const act *a, size_t ind)
{
    size_t k = a->depth;
    while (k > 1 && a->stack[k - 1].ind >= ind)
        k--;
    return k;
}

/* Does a line at `ind` continue the open tree (after an interruption)? */
static int fits_tree(const act *a, const char *s, size_t ind)
{
    if (ind <= a->root_indent || (ind - a->root_indent) % 2 || !a->depth)
        return 0;
    size_t k = slot_for(a, ind);
    if (ind != a->stack[k - 1].ind + 2)
        return 0;
    vline vl;
    parse_vline(s, &vl);
    return vl.shaped && !vl.decor;
}

/* One hierarchy line (s past the indentation `ind`; the root when
 * a->depth is 0). 0 ok (or skipped), else an error code. */
static int hier_line(act *a, const char *s, size_t ind, long lineno, gd_error *err)
{
    vline vl;
    parse_vline(s, &vl);
    size_t k = a->depth ? slot_for(a, ind) : 0;
    const frame *par = k ? &a->stack[k - 1] : NULL;
    if (par && ind != par->ind + 2) {
        if (!vl.shaped) {
            gd_sink_skip(a->sink, REASON_NOISE, lineno, (long)ind + 1);
            return 0;
        }
        gd_sink_skip(a->sink, REASON_OFFSET, lineno, (long)ind + 1);
    }
    if (k >= MAX_DEPTH) {
        gd_sink_skip(a->sink, REASON_DEEP, lineno, (long)ind + 1);
        return 0;
    }
    if (!vl.shaped)
        gd_sink_skip(a->sink, REASON_CUSTOM, lineno, (long)ind + 1);
    int32_t ox = par ? par->abs_l : 0, oy = par ? par->abs_t : 0;

    gd_view v = {0};
    v.parent = par ? par->id : 0;
    v.id = (int64_t)a->vb.n + 1;
    v.visible = vl.visible;
    v.layers = vl.layers;
    /* a root without bounds covers the union of its children */
    int uni = !par && !vl.has_rel;
    if (vl.has_rel) {
        v.rect[0] = add_px(vl.rel[0], ox);
        v.rect[1] = add_px(vl.rel[1], oy);
        v.rect[2] = add_px(vl.rel[2], ox);
        v.rect[3] = add_px(vl.rel[3], oy);
    } else if (par) {
        v.rect[0] = BOX_OF_PARENT;
    }
    if (vl.title && !a->have_window) {
        copy_str(a->window, sizeof a->window, vl.title, vl.title_len);
        a->have_window = 1;
    }
    long idx = gd_viewbuf_add(&a->vb, &v, vl.cls, vl.cls_len, vl.res, vl.res_len, NULL, 0, lineno, err);
    if (idx < 0)
        return err->code;
    if (par && par->idx == a->decor_idx && a->decor_idx >= 0 && vl.has_rel &&
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
    if (uni) {
        a->decor_idx = idx;
        a->decor_any = 0;
    }
    frame *fr = &a->stack[k];
    fr->id = v.id;
    fr->idx = idx;
    fr->ind = ind;
    /* children are relative to this view's left/top; a view without bounds
     * sits at its parent's origin */
    fr->abs_l = vl.has_rel ? v.rect[0] : ox;
    fr->abs_t = vl.has_rel ? v.rect[1] : oy;
    a->depth = k + 1;
    return 0;
}

static int send_clock(act *a, int64_t zone_min, gd_error *err)
{
    if (a->meta_sent)
        return 0;
    a->meta_sent = 1;
    gd_meta m;
    gd_meta_init(&m);
    m.clock = zone_min == INT64_MIN ? "local" : "utc";
    m.utc_offset_min = zone_min;
    return gd_sink_meta(a->sink, &m, err);
}

static int read_activity(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    (void)opts;
    act *a = calloc(1, sizeof *a);
    if (!a)
        return gd_error_oom(err);
    a->sink = sink;
    a->dump_ts = GD_NONE;
    a->decor_idx = -1;
    gd_viewbuf_init(&a->vb, 0);
    int rc = GD_OK;
    char *line;
    size_t len;
    int r = 0;
    while (rc == GD_OK && (r = gd_input_getline(in, &line, &len, err)) == 1) {
        long lineno = gd_input_lineno(in);
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
            rc = hier_line(a, s, ind, lineno, err);
            continue;
        }
        if (a->in_hier && a->suspended && fits_tree(a, s, ind)) {
            /* the interruption was inside the hierarchy: count its lines */
            for (long k = 0; k < a->susp_lines; k++)
                gd_sink_skip(sink, REASON_NOISE, a->susp_first + k, 1);
            a->suspended = 0;
        }
        if (a->in_hier && !a->suspended) {
            if (ind > a->root_indent && ind < len && a->depth) {
                rc = hier_line(a, s, ind, lineno, err);
                continue;
            }
            a->suspended = 1;
            a->susp_first = lineno;
            a->susp_lines = 0;
        }
        if (a->in_hier && ind == a->hdr_indent && ind < len) {
            /* a line at the "View Hierarchy:" header's own level is the
             * section after it (the Looper dump): the hierarchy is over */
            a->in_hier = a->suspended = 0;
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
            a->in_hier = 0;
            a->want_root = 1;
            a->hdr_indent = ind;
        } else if (strncmp(s, "Dump time: ", 11) == 0 && !gd_has(a->dump_ts)) {
            int64_t zone;
            a->dump_ts = parse_dump_time(s + 11, &zone);
            if (gd_has(a->dump_ts))
                rc = send_clock(a, zone, err);
        }
    }
    if (rc == GD_OK && r < 0)
        rc = err->code ? err->code : GD_ERR_DATA;
    if (rc == GD_OK)
        rc = end_activity(a, err);
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
