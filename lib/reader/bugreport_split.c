/* bugreport_split.c - a bugreport text cut into sections, each streamed to its reader. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "reader/bugreport.h"
#include "reader/mdstamp.h"
#include "io/textin.h"
#include "reader/bugreport_int.h"

static const char *const kind_reader[] = {
    [BR_ANR] = "anr", [BR_LOGCAT] = "logcat", [BR_GFXINFO] = "gfxinfo",
    [BR_ACTIVITY] = "dumpsys_activity",
};

/* ---- one text: the splitter ---- */

typedef struct splitter {
    gd_br *b;
    gd_textin *t;
    const char *member;
    char *pend;          /* a line read but left for the caller (textin's buffer) */
    size_t pend_len;
    int has_pend;
    int io_failed;       /* the text itself could not be read: stop    */
    /* the section being served to a reader */
    int sec_done;
    br_kind kind;        /* the section's route                        */
    int held_dash;       /* a dash line kept until the next line says  *
                          * whether it separates services             */
    size_t held_len;
    char *cur;
    size_t cur_len, cur_pos, cur_cap;
} splitter;

static int next_line(splitter *sp, char **s, size_t *n, gd_error *err)
{
    if (sp->has_pend) {
        sp->has_pend = 0;
        *s = sp->pend;
        *n = sp->pend_len;
        return 1;
    }
    int r = gd_textin_getline(sp->t, s, n, err);
    if (r < 0)
        sp->io_failed = 1;
    return r;
}

static void push_back(splitter *sp, char *s, size_t n)
{
    sp->pend = s;
    sp->pend_len = n;
    sp->has_pend = 1;
}

static int cur_append(splitter *sp, const char *s, size_t n, gd_error *err)
{
    if (sp->cur_len + n + 1 > sp->cur_cap) {
        size_t cap = sp->cur_cap ? sp->cur_cap : 4096;
        while (cap < sp->cur_len + n + 1)
            cap *= 2;
        char *c = realloc(sp->cur, cap);
        if (!c)
            return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
        sp->cur = c;
        sp->cur_cap = cap;
    }
    memcpy(sp->cur + sp->cur_len, s, n);
    sp->cur_len += n;
    sp->cur[sp->cur_len++] = '\n';
    return 0;
}

static int is_boundary(const char *s, size_t n)
{
    const char *t, *a;
    size_t tn, an;
    int c = br_classify(s, n, &t, &tn, &a, &an);
    return c == BR_L_BANNER || c == BR_L_SECTION || c == BR_L_SERVICE || c == BR_L_END;
}

/* The section's bytes, line by line, to the routed reader's gd_input. */
static ssize_t section_pull(void *ctx, void *buf, size_t n, gd_error *err)
{
    splitter *sp = ctx;
    size_t out = 0;
    while (out < n) {
        if (sp->cur_pos < sp->cur_len) {
            size_t k = sp->cur_len - sp->cur_pos;
            if (k > n - out)
                k = n - out;
            memcpy((char *)buf + out, sp->cur + sp->cur_pos, k);
            sp->cur_pos += k;
            out += k;
            continue;
        }
        if (sp->sec_done)
            break;
        sp->cur_len = sp->cur_pos = 0;
        char *s;
        size_t len;
        int r = next_line(sp, &s, &len, err);
        if (r < 0)
            return -1;
        if (r == 0 || is_boundary(s, len)) {
            if (r)
                push_back(sp, s, len);
            sp->held_dash = 0; /* a separator before the next service */
            sp->sec_done = 1;
            break;
        }
        if (sp->held_dash) {
            static const char dashes[] = "----------------------------------------"
                                         "----------------------------------------";
            size_t h = sp->held_len;
            sp->held_dash = 0;
            while (h) {
                size_t k = h < sizeof dashes - 1 ? h : sizeof dashes - 1;
                if (cur_append(sp, dashes, k, err))
                    return -1;
                h -= k;
            }
        }
        if (sp->kind == BR_ACTIVITY)
            br_activity_line(sp->b, s, len);
        if (br_all_of(s, len, '-', 40) && len < 160) {
            sp->held_dash = 1;
            sp->held_len = len;
            continue;
        }
        if (cur_append(sp, s, len, err))
            return -1;
    }
    return (ssize_t)out;
}

/* A sink in front of the bugreport's: renumbers lines, drops metas. */
typedef struct sec_sink {
    const gd_sink *outer;
    gd_br *b;
    long offset;
    double shift;        /* added to times > 0: a monotonic section's boot */
    int failed;          /* the outer sink stopped the reader */
} sec_sink;

/* The dumpstate time ("2019-08-15 15:08:46", device wall clock) as ms on
 * the same zone-less scale the logcat reader uses; 0 when absent. */
static double br_dumpstate_ms(const gd_br *b, int *year)
{
    int y, mo, d, h, mi, se;
    if (sscanf(b->dumpstate, "%4d-%2d-%2d %2d:%2d:%2d", &y, &mo, &d, &h, &mi, &se) != 6 || y < 1970 ||
        mo < 1 || mo > 12 || d < 1 || d > 31)
        return 0;
    *year = y;
    return gd_mdstamp_civil_ms(y, mo, d, h, mi, se);
}

/* "up 0 weeks, 0 days, 3 hours, 1 minute" -> ms (minute precision); -1. */
static double br_uptime_ms(const gd_br *b)
{
    double ms = 0;
    int any = 0;
    const char *p = b->uptime;
    while (*p) {
        char *end;
        double v = strtod(p, &end);
        if (end == p) {
            p++;
            continue;
        }
        while (*end == ' ')
            end++;
        double unit = strncmp(end, "week", 4) == 0 ? 604800e3 : strncmp(end, "day", 3) == 0 ? 86400e3
                      : strncmp(end, "hour", 4) == 0 ? 3600e3 : strncmp(end, "min", 3) == 0 ? 60e3
                      : strncmp(end, "sec", 3) == 0 ? 1e3 : 0;
        ms += v * unit;
        any |= unit > 0;
        p = end;
    }
    return any ? ms : -1;
}

static int ss_meta(void *ctx, const gd_meta *m, gd_error *err)
{
    sec_sink *s = ctx;
    gd_br *b = s->b;
    (void)err;
    /* kept: the first ANR dump's process at last ANR (gd_br_finish) */
    if (m->app && m->app[0] && !b->anr_app[0] && b->anr_section &&
        (strcmp(b->anr_section, "at_last_anr") == 0 || strcmp(b->anr_section, "anr_file") == 0))
        gd_br_printable(b->anr_app, BR_FIELD, m->app, strlen(m->app));
    return 0;
}

static int ss_event(void *ctx, const gd_event *ev, gd_error *err)
{
    sec_sink *s = ctx;
    gd_event e = *ev;
    if (e.line > 0)
        e.line += s->offset;
    if (s->shift && gd_has(e.ts) && e.ts > 0)
        e.ts += s->shift;
    int rc = gd_sink_event(s->outer, &e, err);
    if (rc)
        s->failed = 1;
    return rc;
}

static void ss_skip(void *ctx, const char *reason, long line, long col)
{
    sec_sink *s = ctx;
    gd_sink_skip(s->outer, reason, line > 0 ? line + s->offset : line, col);
}

/* Adds "in 'member': " to an error of a zip member. */
static void name_member(gd_error *err, const char *member)
{
    if (!member || !err)
        return;
    char m[128], msg[sizeof err->msg];
    gd_br_printable(m, sizeof m, member, strlen(member));
    snprintf(msg, sizeof msg, "in '%s': %.370s", m, err->msg);
    snprintf(err->msg, sizeof err->msg, "%s", msg);
}

/* Runs reader `name` over a stream; `offset` renumbers its lines.  A reader
 * refusing its input (not the sink, not the stream) is a counted skip. */
static int run_reader(gd_br *b, const char *name, gd_input *in, long offset, const int *stream_failed,
                      const char *member, gd_error *err)
{
    const gd_reader *r = gd_reader_find(name);
    if (!r)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "no reader '%s'", name);
    sec_sink ss = {b->sink, b, offset, 0, 0};
    gd_sink sink = {&ss, ss_meta, ss_event, ss_skip};
    /* the sections' clocks made the bugreport's: logcat stamps get the
     * dumpstate's year (unless --year), monotonic times (gfxinfo frames,
     * ms since boot) the boot's wall time = dumpstate - uptime (the
     * header's uptime has minute precision) */
    gd_read_opts o = {0};
    if (b->opts)
        o = *b->opts;
    int year = 0;
    double at = br_dumpstate_ms(b, &year), up = br_uptime_ms(b);
    if (!o.year && year)
        o.year = year;
    if (strcmp(name, "anr") == 0)
        o.anr_section = b->anr_section;
    if (r->clock && strcmp(r->clock, "monotonic") == 0 && at > 0 && up >= 0)
        ss.shift = at - up;
    gd_error e = {0};
    int rc = r->read(in, &sink, &o, &e);
    if (rc && !ss.failed && !*stream_failed && rc == GD_ERR_DATA) {
        char reason[96];
        snprintf(reason, sizeof reason, "bugreport: %s section unreadable", name);
        gd_sink_skip(b->sink, reason, e.line > 0 ? e.line + offset : offset, 1);
        rc = 0;
    }
    if (rc) {
        *err = e;
        if (!err->code)
            err->code = rc;
        /* the text's own failures and the sink's (given renumbered
         * events) already carry the bugreport's line */
        if (err->line > 0 && !*stream_failed && !ss.failed)
            err->line += offset;
        name_member(err, member);
        return rc;
    }
    /* what the reader left unread (it stopped early or refused) */
    char buf[65536];
    ssize_t k;
    while ((k = gd_input_read(in, buf, sizeof buf, err)) > 0)
        ;
    if (k < 0) {
        name_member(err, member);
        return err->code ? err->code : GD_ERR_IO;
    }
    return 0;
}

static int run_section(splitter *sp, br_kind kind, long br_header_line, gd_error *err)
{
    sp->sec_done = 0;
    sp->kind = kind;
    sp->held_dash = 0;
    sp->cur_len = sp->cur_pos = 0;
    gd_input *in = NULL;
    int rc = gd_input_open_pull(&in, section_pull, sp, err);
    if (rc)
        return rc;
    rc = run_reader(sp->b, kind_reader[kind], in, br_header_line, &sp->io_failed, sp->member, err);
    gd_input_close(in);
    return rc;
}

int gd_br_text(gd_br *b, gd_input *in, const char *member, gd_error *err)
{
    splitter sp = {.b = b, .member = member};
    int rc = gd_textin_open(&sp.t, in, err);
    if (rc)
        return rc;
    char *s;
    size_t n;
    int r = 0;
    int in_header = 1;  /* before the first section */
    br_kind cur = BR_IGNORED;
    int in_section = 0;
    while (!rc && (r = next_line(&sp, &s, &n, err)) == 1) {
        long line = gd_textin_lineno(sp.t);
        const char *t, *a;
        size_t tn, an;
        int c = br_classify(s, n, &t, &tn, &a, &an);
        switch (c) {
        case BR_L_SECTION:
        case BR_L_SERVICE: {
            in_header = 0;
            in_section = 1;
            cur = c == BR_L_SECTION ? br_route_section(t, tn) : br_route_service(t, tn);
            /* BINDER STATE repeats BINDER TRANSACTIONS: the first one read */
            if (cur == BR_BINDER && b->binder_sections++ > 0)
                cur = BR_IGNORED;
            if (cur == BR_IGNORED) {
                br_ignore_section(b, t, tn, c == BR_L_SERVICE, line);
            } else if (cur != BR_PROPS && cur != BR_BINDER) {
                if (cur == BR_ANR) {
                    br_note_anr_path(b, a, an);
                    b->anr_section = br_anr_section(t, tn);
                }
                rc = run_section(&sp, cur, line, err);
                /* the boundary that ended it is read next */
                in_section = 0;
                cur = BR_IGNORED;
            }
            break;
        }
        case BR_L_BANNER:
        case BR_L_END:
            in_section = 0;
            cur = BR_IGNORED;
            if (in_header && c == BR_L_BANNER)
                br_header_line(b, s, n);
            break;
        case BR_L_DASHES:
            break;
        default:
            if (in_header)
                br_header_line(b, s, n);
            else if (in_section && cur == BR_PROPS)
                br_prop_line(b, s, n);
            else if (in_section && cur == BR_BINDER)
                rc = gd_br_binder_line(b, s, n, line, err);
            else if (!in_section && n > 0)
                gd_br_skip(b, "ignored: bugreport line outside a section", line);
            break;
        }
    }
    if (!rc && r < 0) {
        rc = err->code ? err->code : GD_ERR_IO;
        name_member(err, member);
    }
    gd_textin_close(sp.t);
    free(sp.cur);
    return rc;
}

int gd_br_anr_file(gd_br *b, gd_input *in, const char *member, const int *stream_failed, gd_error *err)
{
    /* FS/data/anr/anr_* is an ANR record, FS/data/anr/traces*.txt a traces
     * file (the anr reader's rule for a file of its own) */
    const char *base = member ? strrchr(member, '/') : NULL;
    base = base ? base + 1 : member;
    b->anr_section = base && strncmp(base, "anr_", 4) == 0 ? "anr_file" : "traces_file";
    return run_reader(b, "anr", in, 0, stream_failed, member, err);
}
