/* bugreport.c - reader of `adb bugreport` output: the dumpstate text, split
 * into sections, each known section streamed to the reader of its kind.
 *
 * A bugreport text reads
 *
 *   ========================================================
 *   == dumpstate: 2019-08-15 15:08:46
 *   ========================================================
 *   Build: PSR1.180720.075
 *   Build fingerprint: 'google/sdk_gphone_x86/generic_x86:9/PSR1.180720.075/5124027:user/release-keys'
 *   Uptime: up 0 weeks, 0 days, 3 hours, 1 minute
 *   ------ SYSTEM LOG (logcat -v threadtime -v printable -v uid -d *:v) ------
 *   ...
 *   ------ 2.195s was the duration of 'SYSTEM LOG' ------
 *   ------ VM TRACES AT LAST ANR (/data/anr/anr_2019-04-11-14-10-57-693: 2019-04-11 14:10:58) ------
 *   ...
 *   -------------------------------------------------------------------------------
 *   DUMP OF SERVICE gfxinfo:
 *   ...
 *   --------- 0.011s was the duration of dumpsys gfxinfo, ending at: 2019-08-15 15:09:11
 *
 * A section starts at a "------ TITLE (command) ------" line or a "DUMP OF
 * SERVICE [CRITICAL|HIGH|NORMAL ]name:" line and ends at the next such
 * line, at its "... was the duration of ..." line, or at a "=====" banner
 * (Android 2.3 prints no duration lines; Android 9 interleaves them, so a
 * section is never assumed to be closed by its own).  The 79-dash line
 * before each "DUMP OF SERVICE" belongs to no section.
 *
 * Routed sections (each read by the reader that reads the file of its kind):
 *   VM TRACES JUST NOW, VM TRACES AT LAST ANR,
 *   VM TRACES WHEN SLOW, VM TRACES (before 2.3)  -> anr
 *   SYSTEM LOG, EVENT LOG                        -> logcat
 *   DUMP OF SERVICE gfxinfo                      -> gfxinfo
 *   DUMP OF SERVICE activity                     -> dumpsys_activity
 * Every other section is counted once, as "ignored: bugreport section:
 * TITLE" (at most BR_MAX_TITLES distinct titles, then one reason for the
 * rest); lines outside any section past the header are counted as
 * "ignored: bugreport line outside a section".  SYSTEM PROPERTIES is read
 * for the meta only.
 *
 * Positions: a section's reader sees the section as a file of its own; its
 * lines are renumbered to the bugreport's (section header line + n), for
 * events, skips and errors alike.  A section its reader refuses (GD_ERR_DATA
 * from the reader itself, not from the sink) is counted as "bugreport:
 * <reader> section unreadable" at the reader's position and the rest of the
 * section is passed over: one bad section does not lose the bugreport.
 *
 * Meta: a bugreport is the device's, not one app's: the sections' own metas
 * (an ANR dump's pid and command line, gfxinfo's first package) are dropped.
 * Sent once at the end: device = [ro.product.model] (else the fingerprint's
 * device part), api_level = [ro.build.version.sdk], clock "local" (logcat
 * and dump stamps are the device's wall clock), json {"bugreport": format,
 * "dumpstate", "build", "fingerprint", "uptime"} as printed.
 *
 * Memory: the longest line (gd_textin) plus each routed reader's own
 * bounded state; sections are streamed, never held. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "reader/bugreport.h"
#include "reader/mdstamp.h"
#include "io/textin.h"

#define BR_MAX_TITLES 256
#define BR_MAX_TITLE 80
#define BR_MAX_ANR_PATHS 64
#define BR_FIELD 256

typedef enum { BR_IGNORED = 0, BR_ANR, BR_LOGCAT, BR_GFXINFO, BR_ACTIVITY, BR_PROPS } br_kind;

static const char *const kind_reader[] = {
    [BR_ANR] = "anr", [BR_LOGCAT] = "logcat", [BR_GFXINFO] = "gfxinfo",
    [BR_ACTIVITY] = "dumpsys_activity",
};

struct gd_br {
    const gd_sink *sink;
    const gd_read_opts *opts;
    char *titles[BR_MAX_TITLES];
    size_t ntitles;
    char *anr_paths[BR_MAX_ANR_PATHS];
    size_t nanr;
    char dumpstate[BR_FIELD], build[BR_FIELD], fingerprint[BR_FIELD], uptime[BR_FIELD];
    char model[BR_FIELD], prop_fingerprint[BR_FIELD];
    long long sdk;
};

/* ---- small helpers ---- */

void gd_br_printable(char *out, size_t n, const char *s, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 1 < n; i++) {
        unsigned char c = (unsigned char)s[i];
        out[k++] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
    }
    if (n)
        out[k] = 0;
}

static int starts(const char *s, size_t n, const char *p)
{
    size_t k = strlen(p);
    return n >= k && memcmp(s, p, k) == 0;
}

static int ends(const char *s, size_t n, const char *p)
{
    size_t k = strlen(p);
    return n >= k && memcmp(s + n - k, p, k) == 0;
}

static int all_of(const char *s, size_t n, char c, size_t min)
{
    if (n < min)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != c)
            return 0;
    return 1;
}

static int contains(const char *s, size_t n, const char *p)
{
    size_t k = strlen(p);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, p, k) == 0)
            return 1;
    return 0;
}

/* ---- line classes ---- */

enum { L_TEXT = 0, L_BANNER, L_SECTION, L_SERVICE, L_END, L_DASHES };

/* The class of a line; for L_SECTION/L_SERVICE, the title (without the
 * command in parentheses, the service's priority word) in [*t, *t + *tn)
 * and for L_SECTION the parenthesised argument in [*a, *a + *an). */
static int classify(const char *s, size_t n, const char **t, size_t *tn, const char **a, size_t *an)
{
    if (all_of(s, n, '=', 10) || starts(s, n, "== "))
        return L_BANNER;
    if (starts(s, n, "------ ") && ends(s, n, " ------") && n >= 14) {
        if (contains(s, n, " was the duration of '"))
            return L_END;
        const char *b = s + 7, *e = s + n - 7;
        const char *lp = NULL;
        for (const char *p = b; p + 1 < e; p++)
            if (p[0] == ' ' && p[1] == '(') {
                lp = p;
                break;
            }
        *t = b;
        *tn = (size_t)((lp ? lp : e) - b);
        *a = NULL;
        *an = 0;
        if (lp && e[-1] == ')') {
            *a = lp + 2;
            *an = (size_t)(e - 1 - (lp + 2));
        }
        return L_SECTION;
    }
    if (starts(s, n, "--------- ") && contains(s, n, " was the duration of dumpsys "))
        return L_END;
    if (starts(s, n, "DUMP OF SERVICE ") && ends(s, n, ":") && n > 17) {
        const char *b = s + 16;
        size_t k = n - 17;
        static const char *const prio[] = {"CRITICAL ", "HIGH ", "NORMAL "};
        for (size_t i = 0; i < 3; i++)
            if (starts(b, k, prio[i])) {
                b += strlen(prio[i]);
                k -= strlen(prio[i]);
                break;
            }
        *t = b;
        *tn = k;
        *a = NULL;
        *an = 0;
        return L_SERVICE;
    }
    if (all_of(s, n, '-', 40))
        return L_DASHES;
    return L_TEXT;
}

static br_kind route_section(const char *t, size_t n)
{
    if ((n == 18 && memcmp(t, "VM TRACES JUST NOW", 18) == 0) ||
        (n == 21 && memcmp(t, "VM TRACES AT LAST ANR", 21) == 0) ||
        (n == 19 && memcmp(t, "VM TRACES WHEN SLOW", 19) == 0) || (n == 9 && memcmp(t, "VM TRACES", 9) == 0))
        return BR_ANR;
    if ((n == 10 && memcmp(t, "SYSTEM LOG", 10) == 0) || (n == 9 && memcmp(t, "EVENT LOG", 9) == 0))
        return BR_LOGCAT;
    if (n == 17 && memcmp(t, "SYSTEM PROPERTIES", 17) == 0)
        return BR_PROPS;
    return BR_IGNORED;
}

static br_kind route_service(const char *t, size_t n)
{
    if (n == 7 && memcmp(t, "gfxinfo", 7) == 0)
        return BR_GFXINFO;
    if (n == 8 && memcmp(t, "activity", 8) == 0)
        return BR_ACTIVITY;
    return BR_IGNORED;
}

/* ---- state ---- */

gd_br *gd_br_new(const gd_sink *sink, const gd_read_opts *opts)
{
    gd_br *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->sink = sink;
    b->opts = opts;
    b->sdk = -1;
    return b;
}

void gd_br_free(gd_br *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->ntitles; i++)
        free(b->titles[i]);
    for (size_t i = 0; i < b->nanr; i++)
        free(b->anr_paths[i]);
    free(b);
}

void gd_br_skip(gd_br *b, const char *reason, long line)
{
    gd_sink_skip(b->sink, reason, line, 1);
}

int gd_br_anr_seen(const gd_br *b, const char *path)
{
    for (size_t i = 0; i < b->nanr; i++)
        if (strcmp(b->anr_paths[i], path) == 0)
            return 1;
    return 0;
}

/* "/data/anr/anr_2019-...: 2019-04-11 14:10:58" -> the path before ": " */
static void note_anr_path(gd_br *b, const char *a, size_t an)
{
    if (!a || b->nanr == BR_MAX_ANR_PATHS)
        return;
    size_t k = 0;
    while (k < an && !(a[k] == ':' && k + 1 < an && a[k + 1] == ' '))
        k++;
    if (k == 0 || k > 1024)
        return;
    char *p = malloc(k + 1);
    if (!p)
        return;
    memcpy(p, a, k);
    p[k] = 0;
    b->anr_paths[b->nanr++] = p;
}

static void ignore_section(gd_br *b, const char *t, size_t tn, int service, long line)
{
    char title[BR_MAX_TITLE];
    char reason[BR_MAX_TITLE + 64];
    gd_br_printable(title, sizeof title, t, tn);
    snprintf(reason, sizeof reason, "ignored: bugreport section: %s%s", service ? "DUMP OF SERVICE " : "",
             title);
    size_t i = 0;
    while (i < b->ntitles && strcmp(b->titles[i], reason) != 0)
        i++;
    if (i == b->ntitles) {
        char *c = b->ntitles < BR_MAX_TITLES ? strdup(reason) : NULL;
        if (!c) {
            gd_br_skip(b, "ignored: bugreport section: (more titles)", line);
            return;
        }
        b->titles[b->ntitles++] = c;
    }
    gd_br_skip(b, reason, line);
}

static void copy_field(char *dst, const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\''))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\''))
        n--;
    gd_br_printable(dst, BR_FIELD, s, n);
}

/* Header lines before the first section. */
static void header_line(gd_br *b, const char *s, size_t n)
{
    static const struct {
        const char *key;
        size_t off;
    } keys[] = {
        {"== dumpstate: ", offsetof(gd_br, dumpstate)},
        {"Build fingerprint: ", offsetof(gd_br, fingerprint)},
        {"Build: ", offsetof(gd_br, build)},
        {"Uptime: ", offsetof(gd_br, uptime)},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char *dst = (char *)b + keys[i].off;
        size_t k = strlen(keys[i].key);
        if (!dst[0] && starts(s, n, keys[i].key)) {
            copy_field(dst, s + k, n - k);
            return;
        }
    }
}

/* "[ro.product.model]: [Nexus One]" */
static void prop_line(gd_br *b, const char *s, size_t n)
{
    static const char *const names[] = {"[ro.product.model]: [", "[ro.build.fingerprint]: [",
                                        "[ro.build.version.sdk]: ["};
    for (size_t i = 0; i < 3; i++) {
        size_t k = strlen(names[i]);
        if (!starts(s, n, names[i]) || s[n - 1] != ']')
            continue;
        const char *v = s + k;
        size_t vn = n - k - 1;
        if (i == 0 && !b->model[0])
            copy_field(b->model, v, vn);
        else if (i == 1 && !b->prop_fingerprint[0])
            copy_field(b->prop_fingerprint, v, vn);
        else if (i == 2 && b->sdk < 0 && vn > 0 && vn < 6) {
            long long x = 0;
            size_t j = 0;
            while (j < vn && v[j] >= '0' && v[j] <= '9')
                x = x * 10 + (v[j++] - '0');
            if (j == vn)
                b->sdk = x;
        }
    }
}

int gd_br_finish(gd_br *b, const char *format, gd_error *err)
{
    gd_meta m;
    gd_meta_init(&m);
    char dev[BR_FIELD] = "";
    const char *fp = b->fingerprint[0] ? b->fingerprint : b->prop_fingerprint;
    if (b->model[0]) {
        snprintf(dev, sizeof dev, "%s", b->model);
    } else if (fp[0]) {
        /* BRAND/PRODUCT/DEVICE:RELEASE/ID/INCREMENTAL:TYPE/TAGS */
        const char *s2 = strchr(fp, '/');
        const char *s3 = s2 ? strchr(s2 + 1, '/') : NULL;
        const char *c = s3 ? strchr(s3 + 1, ':') : NULL;
        if (s3 && c)
            snprintf(dev, sizeof dev, "%.*s", (int)(c - s3 - 1), s3 + 1);
    }
    m.device = dev[0] ? dev : NULL;
    m.api_level = b->sdk;
    m.clock = "local";
    json_t *j = json_object();
    if (!j)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    json_object_set_new(j, "bugreport", json_string(format));
    if (b->dumpstate[0])
        json_object_set_new(j, "dumpstate", json_string(b->dumpstate));
    if (b->build[0])
        json_object_set_new(j, "build", json_string(b->build));
    if (fp[0])
        json_object_set_new(j, "fingerprint", json_string(fp));
    if (b->uptime[0])
        json_object_set_new(j, "uptime", json_string(b->uptime));
    char *txt = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    m.json = txt;
    int rc = gd_sink_meta(b->sink, &m, err);
    free(txt);
    return rc;
}

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
            return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
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
    int c = classify(s, n, &t, &tn, &a, &an);
    return c == L_BANNER || c == L_SECTION || c == L_SERVICE || c == L_END;
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
        if (all_of(s, len, '-', 40) && len < 160) {
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
    return ((double)gd_mdstamp_days(y, mo, d) * 86400.0 + h * 3600.0 + mi * 60.0 + se) * 1000.0;
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
    (void)ctx, (void)m, (void)err;
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
    sec_sink ss = {b->sink, offset, 0, 0};
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

static int run_section(splitter *sp, br_kind kind, long header_line, gd_error *err)
{
    sp->sec_done = 0;
    sp->held_dash = 0;
    sp->cur_len = sp->cur_pos = 0;
    gd_input *in = NULL;
    int rc = gd_input_open_pull(&in, section_pull, sp, err);
    if (rc)
        return rc;
    rc = run_reader(sp->b, kind_reader[kind], in, header_line, &sp->io_failed, sp->member, err);
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
        int c = classify(s, n, &t, &tn, &a, &an);
        switch (c) {
        case L_SECTION:
        case L_SERVICE: {
            in_header = 0;
            in_section = 1;
            cur = c == L_SECTION ? route_section(t, tn) : route_service(t, tn);
            if (cur == BR_IGNORED) {
                ignore_section(b, t, tn, c == L_SERVICE, line);
            } else if (cur != BR_PROPS) {
                if (cur == BR_ANR)
                    note_anr_path(b, a, an);
                rc = run_section(&sp, cur, line, err);
                /* the boundary that ended it is read next */
                in_section = 0;
                cur = BR_IGNORED;
            }
            break;
        }
        case L_BANNER:
        case L_END:
            in_section = 0;
            cur = BR_IGNORED;
            if (in_header && c == L_BANNER)
                header_line(b, s, n);
            break;
        case L_DASHES:
            break;
        default:
            if (in_header)
                header_line(b, s, n);
            else if (in_section && cur == BR_PROPS)
                prop_line(b, s, n);
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
    return run_reader(b, "anr", in, 0, stream_failed, member, err);
}

/* ---- the reader ---- */

static int is_zip(const unsigned char *h, size_t n)
{
    return n >= 4 && h[0] == 'P' && h[1] == 'K' && h[2] == 3 && h[3] == 4;
}

/* A text bugreport: its first non-blank line is a "=====" banner and the
 * next one "== dumpstate" (a BOM or UTF-16 text is read through). */
static int probe(const unsigned char *head, size_t n, int eof)
{
    (void)eof;
    if (is_zip(head, n))
        return 80;
    size_t hn;
    char *h = gd_text_head(head, n < 4096 ? n : 4096, &hn);
    if (!h)
        return 0;
    int score = 0;
    const char *p = h, *end = h + hn;
    while (p < end && (*p == '\n' || *p == '\r' || *p == ' '))
        p++;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (nl) {
        size_t k = (size_t)(nl - p);
        if (k && p[k - 1] == '\r')
            k--;
        if (all_of(p, k, '=', 20) && (size_t)(end - nl - 1) >= 14 && memcmp(nl + 1, "== dumpstate", 12) == 0)
            score = 100;
    }
    free(h);
    return score;
}

static int read_bugreport(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    size_t n;
    int eof;
    const unsigned char *head = gd_input_peek(in, &n, &eof, err);
    if (!head)
        return err->code ? err->code : GD_ERR_IO;
    if (is_zip(head, n))
        return gd_bugreport_read_zip(in, &gd_bugreport_default_caps, sink, opts, err);
    gd_br *b = gd_br_new(sink, opts);
    if (!b)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    int rc = gd_br_text(b, in, NULL, err);
    if (!rc)
        rc = gd_br_finish(b, "text", err);
    gd_br_free(b);
    return rc;
}

const gd_reader gd_reader_bugreport = {
    .name = "bugreport",
    .description = "adb bugreport (dumpstate text or zip): ANR dumps, logcat, gfxinfo, dumpsys activity sections",
    .probe = probe,
    .read = read_bugreport,
};
