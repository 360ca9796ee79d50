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
 * for the meta only; BINDER TRANSACTIONS (else BINDER STATE) for the
 * binder snapshot, "binder_txn" issues (bugreport_binder.c).
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
 * Its app is the one rule of br_finish: the process of the first dump "AT
 * LAST ANR" (or of a zip's FS/data/anr/anr_* record), else the package of
 * dumpsys activity's first mResumedActivity naming one, else none.
 * Sent once at the end: device = [ro.product.model] (else the fingerprint's
 * device part), api_level = [ro.build.version.sdk], clock "local" (logcat
 * and dump stamps are the device's wall clock), json {"bugreport": format,
 * "dumpstate", "build", "fingerprint", "uptime"} as printed.
 *
 * Memory: the longest line (gd_input_getline) plus each routed reader's own
 * bounded state; sections are streamed, never held. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <errno.h>
#include <unistd.h>

#include "io/randin.h"
#include "reader/bugreport.h"
#include "reader/mdstamp.h"
#include "io/textin.h"
#include "io/zip_dl.h"
#include "reader/bugreport_int.h"
#include "core/util.h"
#include "core/scan.h"
#include "core/skip_reasons.h"

/* NULL when out of memory. */
static gd_br *gd_br_new(const gd_sink *sink, const gd_read_opts *opts);
static void gd_br_free(gd_br *b);
/* Reads one bugreport text (the whole file, or the zip's main member,
 * named `member` in messages; NULL for a plain file), routing each known
 * section to its reader.  GD_OK, or an error code with err set (a read
 * failure, a line over GD_INPUT_MAX_LINE, a sink that stopped). */
static int gd_br_text(gd_br *b, gd_input *in, const char *member, gd_error *err);
/* Reads an ANR dump file of its own (a zip's FS/data/anr/ member);
 * *stream_failed is set by the stream when `in` itself failed (then its
 * error is passed on, not counted as an unreadable dump). */
static int gd_br_anr_file(gd_br *b, gd_input *in, const char *member, const int *stream_failed, gd_error *err);
/* 1 when a "VM TRACES" section of the text was the dump of `path`
 * ("/data/anr/anr_2019-..."), so the same file in the zip is not read twice. */
static int gd_br_anr_seen(const gd_br *b, const char *path);
/* Counts a skip through the bugreport's sink. */
static void gd_br_skip(gd_br *b, const char *reason, long line);
/* Sends the meta gathered from the header and the system properties
 * (format "text" or "zip" goes into its JSON). */
static int gd_br_finish(gd_br *b, const char *format, gd_error *err);

/* A copy of untrusted text safe to print: at most `n`-1 bytes, control
 * and non-ASCII bytes as '?'. */
static void gd_br_printable(char *out, size_t n, const char *s, size_t len);
/* Reads a bugreport zip from an input positioned anywhere: a regular file
 * is read in place (pread, the input's own position untouched), anything
 * else is spooled first (caps->spool_max). */
static int gd_bugreport_read_zip(gd_input *in, const gd_bugreport_caps *caps, const gd_sink *sink,
                          const gd_read_opts *opts, gd_error *err);

static int br_all_of(const char *s, size_t n, char c, size_t min);
static int br_classify(const char *s, size_t n, const char **t, size_t *tn, const char **a, size_t *an);
static void br_header_line(gd_br *b, const char *s, size_t n);
static void br_ignore_section(gd_br *b, const char *t, size_t tn, int service, long line);
static void br_note_anr_path(gd_br *b, const char *a, size_t an);
static void br_prop_line(gd_br *b, const char *s, size_t n);
static void br_activity_line(gd_br *b, const char *s, size_t n);
static br_kind br_route_section(const char *t, size_t n);
static const char *br_anr_section(const char *t, size_t n);
static br_kind br_route_service(const char *t, size_t n);

/* ---- small helpers ---- */

static void gd_br_printable(char *out, size_t n, const char *s, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 1 < n; i++) {
        unsigned char c = (unsigned char)s[i];
        out[k++] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
    }
    if (n)
        out[k] = 0;
}

static int br_all_of(const char *s, size_t n, char c, size_t min)
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

/* The class of a line; for BR_L_SECTION/BR_L_SERVICE, the title (without the
 * command in parentheses, the service's priority word) in [*t, *t + *tn)
 * and for BR_L_SECTION the parenthesised argument in [*a, *a + *an). */
static int br_classify(const char *s, size_t n, const char **t, size_t *tn, const char **a, size_t *an)
{
    if (br_all_of(s, n, '=', 10) || gd_starts_n(s, n, "== "))
        return BR_L_BANNER;
    if (gd_starts_n(s, n, "------ ") && gd_ends_n(s, n, " ------") && n >= 14) {
        if (contains(s, n, " was the duration of '"))
            return BR_L_END;
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
        return BR_L_SECTION;
    }
    if (gd_starts_n(s, n, "--------- ") && contains(s, n, " was the duration of dumpsys "))
        return BR_L_END;
    if (gd_starts_n(s, n, "DUMP OF SERVICE ") && gd_ends_n(s, n, ":") && n > 17) {
        const char *b = s + 16;
        size_t k = n - 17;
        static const char *const prio[] = {"CRITICAL ", "HIGH ", "NORMAL "};
        for (size_t i = 0; i < 3; i++)
            if (gd_starts_n(b, k, prio[i])) {
                b += strlen(prio[i]);
                k -= strlen(prio[i]);
                break;
            }
        *t = b;
        *tn = k;
        *a = NULL;
        *an = 0;
        return BR_L_SERVICE;
    }
    if (br_all_of(s, n, '-', 40))
        return BR_L_DASHES;
    return BR_L_TEXT;
}

/* The anr reader's section name of a "VM TRACES ..." title (#28). */
static const char *br_anr_section(const char *t, size_t n)
{
    if (n == 21 && memcmp(t, "VM TRACES AT LAST ANR", 21) == 0)
        return "at_last_anr";
    if (n == 18 && memcmp(t, "VM TRACES JUST NOW", 18) == 0)
        return "just_now";
    if (n == 19 && memcmp(t, "VM TRACES WHEN SLOW", 19) == 0)
        return "when_slow";
    return "vm_traces";
}

static br_kind br_route_section(const char *t, size_t n)
{
    if ((n == 18 && memcmp(t, "VM TRACES JUST NOW", 18) == 0) ||
        (n == 21 && memcmp(t, "VM TRACES AT LAST ANR", 21) == 0) ||
        (n == 19 && memcmp(t, "VM TRACES WHEN SLOW", 19) == 0) || (n == 9 && memcmp(t, "VM TRACES", 9) == 0))
        return BR_ANR;
    if ((n == 10 && memcmp(t, "SYSTEM LOG", 10) == 0) || (n == 9 && memcmp(t, "EVENT LOG", 9) == 0))
        return BR_LOGCAT;
    if (n == 17 && memcmp(t, "SYSTEM PROPERTIES", 17) == 0)
        return BR_PROPS;
    if ((n == 19 && memcmp(t, "BINDER TRANSACTIONS", 19) == 0) || (n == 12 && memcmp(t, "BINDER STATE", 12) == 0))
        return BR_BINDER;
    return BR_IGNORED;
}

static br_kind br_route_service(const char *t, size_t n)
{
    if (n == 7 && memcmp(t, "gfxinfo", 7) == 0)
        return BR_GFXINFO;
    if (n == 8 && memcmp(t, "activity", 8) == 0)
        return BR_ACTIVITY;
    return BR_IGNORED;
}

/* ---- state ---- */

static gd_br *gd_br_new(const gd_sink *sink, const gd_read_opts *opts)
{
    gd_br *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->sink = sink;
    b->opts = opts;
    b->sdk = -1;
    return b;
}

static void gd_br_free(gd_br *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->ntitles; i++)
        free(b->titles[i]);
    for (size_t i = 0; i < b->nanr; i++)
        free(b->anr_paths[i]);
    free(b);
}

static void gd_br_skip(gd_br *b, const char *reason, long line)
{
    gd_sink_skip(b->sink, reason, line, 1);
}

static int gd_br_anr_seen(const gd_br *b, const char *path)
{
    for (size_t i = 0; i < b->nanr; i++)
        if (strcmp(b->anr_paths[i], path) == 0)
            return 1;
    return 0;
}

/* "/data/anr/anr_2019-...: 2019-04-11 14:10:58" -> the path before ": " */
static void br_note_anr_path(gd_br *b, const char *a, size_t an)
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

static void br_ignore_section(gd_br *b, const char *t, size_t tn, int service, long line)
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
            gd_br_skip(b, GD_SKIP(IGNORED_BUGREPORT_SECTION_MORE_TITLES), line);
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
static void br_header_line(gd_br *b, const char *s, size_t n)
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
        if (!dst[0] && gd_starts_n(s, n, keys[i].key)) {
            copy_field(dst, s + k, n - k);
            return;
        }
    }
}

/* "[ro.product.model]: [Nexus One]" */
static void br_prop_line(gd_br *b, const char *s, size_t n)
{
    static const char *const names[] = {"[ro.product.model]: [", "[ro.build.fingerprint]: [",
                                        "[ro.build.version.sdk]: ["};
    for (size_t i = 0; i < 3; i++) {
        size_t k = strlen(names[i]);
        if (!gd_starts_n(s, n, names[i]) || s[n - 1] != ']')
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

/* "  mResumedActivity: ActivityRecord{25f1806 u0 com.example/.Main t12}"
 * (HistoryRecord{40838768 com.example/.Main} before Android 4): the
 * package of the first such line of dumpsys activity that names one
 * ("mResumedActivity: null" does not). */
static void br_activity_line(gd_br *b, const char *s, size_t n)
{
    static const char key[] = "mResumedActivity: ";
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    if (b->resumed_app[0] || !gd_starts_n(s + i, n - i, key))
        return;
    const char *p = memchr(s + i, '{', n - i), *e = s + n;
    if (!p)
        return;
    /* the word holding '/': package/activity */
    for (const char *w = p + 1; w < e;) {
        while (w < e && *w == ' ')
            w++;
        const char *we = w;
        while (we < e && *we != ' ' && *we != '}')
            we++;
        const char *slash = memchr(w, '/', (size_t)(we - w));
        if (slash && slash > w) {
            gd_br_printable(b->resumed_app, BR_FIELD, w, (size_t)(slash - w));
            return;
        }
        if (we < e && *we == '}')
            return;
        w = we;
    }
}

static int gd_br_finish(gd_br *b, const char *format, gd_error *err)
{
    gd_meta m;
    gd_meta_init(&m);
    char dev[BR_FIELD] = "";
    const char *fp = b->fingerprint[0] ? b->fingerprint : b->prop_fingerprint;
    if (b->model[0]) {
        snprintf(dev, sizeof dev, "%s", b->model);
    } else if (fp[0]) {
        gd_fingerprint_device(fp, dev, sizeof dev);
    }
    m.device = dev[0] ? dev : NULL;
    /* the app (#30, godeye-traces(1)): the ANR's process, else the
     * activity on top; never a pid (a dump at last ANR may be of an older
     * boot) */
    m.app = b->anr_app[0] ? b->anr_app : b->resumed_app[0] ? b->resumed_app : NULL;
    m.api_level = b->sdk;
    m.clock = "local";
    json_t *j = json_object();
    if (!j)
        return gd_error_oom(err);
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
    if (is_zip(head, n)) /* its members decide, whatever their compression */
        return GD_PROBE_CONTAINER;
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
        if (br_all_of(p, k, '=', 20) && (size_t)(end - nl - 1) >= 14 && memcmp(nl + 1, "== dumpstate", 12) == 0)
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
        return gd_error_oom(err);
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

/* ==== a bugreport text cut into sections, each streamed to its reader. ==== */

/* the readers a section goes to, named here rather than looked up in the
 * registry (which lists this reader: the dependency stays one way) */
extern const gd_reader gd_reader_anr, gd_reader_logcat, gd_reader_gfxinfo, gd_reader_dumpsys_activity;
static const gd_reader *const kind_reader[] = {
    [BR_ANR] = &gd_reader_anr, [BR_LOGCAT] = &gd_reader_logcat, [BR_GFXINFO] = &gd_reader_gfxinfo,
    [BR_ACTIVITY] = &gd_reader_dumpsys_activity,
};

/* ---- one text: the splitter ---- */

typedef struct splitter {
    gd_br *b;
    gd_input *in;
    const char *member;
    char *pend;          /* a line read but left for the caller (the input's buffer) */
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
    int r = gd_input_getline(sp->in, s, n, err);
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
            return gd_error_oom(err);
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
    if (s->shift)
        gd_event_shift(&e, s->shift);
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

/* Runs reader `r` over a stream; `offset` renumbers its lines.  A reader
 * refusing its input (not the sink, not the stream) is a counted skip. */
static int run_reader(gd_br *b, const gd_reader *r, gd_input *in, long offset, const int *stream_failed,
                      const char *member, gd_error *err)
{
    if (!r)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "no reader for a section");
    const char *name = r->name;
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

static int gd_br_text(gd_br *b, gd_input *in, const char *member, gd_error *err)
{
    splitter sp = {.b = b, .member = member, .in = in};
    int rc = GD_OK;
    char *s;
    size_t n;
    int r = 0;
    int in_header = 1;  /* before the first section */
    br_kind cur = BR_IGNORED;
    int in_section = 0;
    while (!rc && (r = next_line(&sp, &s, &n, err)) == 1) {
        long line = gd_input_lineno(sp.in);
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
                gd_br_skip(b, GD_SKIP(IGNORED_BUGREPORT_LINE_OUTSIDE_A_SECTION), line);
            break;
        }
    }
    if (!rc && r < 0) {
        rc = err->code ? err->code : GD_ERR_IO;
        name_member(err, member);
    }
    free(sp.cur);
    return rc;
}

static int gd_br_anr_file(gd_br *b, gd_input *in, const char *member, const int *stream_failed, gd_error *err)
{
    /* FS/data/anr/anr_* is an ANR record, FS/data/anr/traces*.txt a traces
     * file (the anr reader's rule for a file of its own) */
    const char *base = member ? strrchr(member, '/') : NULL;
    base = base ? base + 1 : member;
    b->anr_section = base && strncmp(base, "anr_", 4) == 0 ? "anr_file" : "traces_file";
    return run_reader(b, &gd_reader_anr, in, 0, stream_failed, member, err);
}

/* ==== the Android 7+ bugreport zip, read with libzip: its * main text and its ANR dump files streamed member by member. * * The zip is untrusted.  Nothing is ever written out of it: member names * are only compared and quoted (escaped), never used as paths, and each * member read is streamed through libzip into the text splitter or the anr * reader.  A regular file is read in place (pread, so the input's own * position and content hash are untouched); stdin, a URL or a gzip-wrapped * zip is first copied to an anonymous temp file (io/randin.h: $TMPDIR, * already unlinked), at most caps->spool_max bytes. * * Members read: *   - the main text: the name in main_entry.txt when there is one (else, *     or when it names no member: counted, then) the first top-level *     "bugreport-*.txt"; none at all = "not a bugreport zip" (GD_ERR_NOT_MINE: *     a zip of something else, passed over in a folder); *   - ANR dumps: "FS/data/anr/anr_*" and "FS/data/anr/traces*.txt" (Android *     10+ puts "traces-just-now.txt" there instead of in the text), each an *     ANR file of its own, except one the main text already held as a "VM *     TRACES" section of the same path (counted "ignored: bugreport zip *     member already read as a VM TRACES section"); *   - every other member is counted as "ignored: bugreport zip member not *     read" (folders are passed over). * * Refused members (counted, the rest of the zip is read): encrypted ones * ("bugreport: zip member encrypted"), ones compressed with a method libzip * cannot inflate ("bugreport: zip member compression unsupported"), ones * whose declared size is over the per-member cap or would take the total * over its cap ("bugreport: zip member over the size cap", "... over the * total size cap"), ones whose declared compression ratio is over the cap * ("bugreport: zip member over the compression ratio cap").  The caps are * enforced again on the bytes actually streamed (a member that inflates * past what it declared is an error: the zip lies about itself). ==== */

const gd_bugreport_caps gd_bugreport_default_caps = {
    .member_max = (uint64_t)512 << 20,
    .total_max = (uint64_t)2 << 30,
    .ratio_max = 200,
    .ratio_floor = (uint64_t)1 << 20,
    .spool_max = (uint64_t)1 << 30,
    .members_max = 100000,
};

/* ---- a zip source over a file descriptor, by pread ---- */

typedef struct fd_src {
    int fd;
    uint64_t size, pos;
    zip_error_t error;
} fd_src;

static zip_int64_t fd_src_cb(void *ud, void *data, zip_uint64_t len, zip_source_cmd_t cmd)
{
    fd_src *f = ud;
    switch (cmd) {
    case ZIP_SOURCE_OPEN:
        f->pos = 0;
        return 0;
    case ZIP_SOURCE_READ: {
        if (f->pos >= f->size)
            return 0;
        if (len > f->size - f->pos)
            len = f->size - f->pos;
        for (;;) {
            ssize_t k = pread(f->fd, data, len, (off_t)f->pos);
            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0) {
                zip_error_set(&f->error, ZIP_ER_READ, errno);
                return -1;
            }
            f->pos += (uint64_t)k;
            return k;
        }
    }
    case ZIP_SOURCE_CLOSE:
        return 0;
    case ZIP_SOURCE_STAT: {
        if (len < sizeof(zip_stat_t)) {
            zip_error_set(&f->error, ZIP_ER_INVAL, 0);
            return -1;
        }
        zip_stat_t *st = data;
        zip_stat_init(st);
        st->size = f->size;
        st->valid |= ZIP_STAT_SIZE;
        return sizeof *st;
    }
    case ZIP_SOURCE_ERROR:
        return zip_error_to_data(&f->error, data, len);
    case ZIP_SOURCE_FREE:
        zip_error_fini(&f->error);
        free(f);
        return 0;
    case ZIP_SOURCE_SEEK: {
        zip_int64_t p = zip_source_seek_compute_offset(f->pos, f->size, data, len, &f->error);
        if (p < 0)
            return -1;
        f->pos = (uint64_t)p;
        return 0;
    }
    case ZIP_SOURCE_TELL:
        return (zip_int64_t)f->pos;
    case ZIP_SOURCE_SUPPORTS:
        return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE,
                                              ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE,
                                              ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL, ZIP_SOURCE_SUPPORTS, -1);
    default:
        zip_error_set(&f->error, ZIP_ER_OPNOTSUPP, 0);
        return -1;
    }
}

static zip_source_t *fd_source(int fd, uint64_t size, zip_error_t *ze)
{
    fd_src *f = calloc(1, sizeof *f);
    if (!f) {
        zip_error_set(ze, ZIP_ER_MEMORY, 0);
        return NULL;
    }
    f->fd = fd;
    f->size = size;
    zip_error_init(&f->error);
    zip_source_t *src = zip_source_function_create(fd_src_cb, f, ze);
    if (!src) {
        zip_error_fini(&f->error);
        free(f);
    }
    return src;
}

/* ---- members ---- */

typedef struct zmember {
    zip_file_t *zf;
    const char *name;
    uint64_t got, declared, comp;
    const gd_bugreport_caps *caps;
    uint64_t *total;
    int failed;          /* the member could not be streamed */
} zmember;

static ssize_t member_pull(void *ctx, void *buf, size_t n, gd_error *err)
{
    zmember *m = ctx;
    zip_int64_t k = zip_fread(m->zf, buf, n);
    char nm[128];
    if (k < 0) {
        gd_br_printable(nm, sizeof nm, m->name, strlen(m->name));
        gd_error_set(err, GD_ERR_DATA, 0, 0, "zip member '%s' unreadable: %s", nm,
                     zip_error_strerror(zip_file_get_error(m->zf)));
        m->failed = 1;
        return -1;
    }
    m->got += (uint64_t)k;
    *m->total += (uint64_t)k;
    const char *why = NULL;
    if (m->got > m->declared)
        why = "more data than its declared size";
    else if (m->got > m->caps->member_max)
        why = "over the size cap";
    else if (*m->total > m->caps->total_max)
        why = "over the total size cap";
    else if (m->got > m->caps->ratio_floor && m->got / (m->comp ? m->comp : 1) > m->caps->ratio_max)
        why = "over the compression ratio cap";
    if (why) {
        gd_br_printable(nm, sizeof nm, m->name, strlen(m->name));
        gd_error_set(err, GD_ERR_DATA, 0, 0, "zip member '%s': %s", nm, why);
        m->failed = 1;
        return -1;
    }
    return (ssize_t)k;
}

/* 0 when member i may be read (*st filled), else 1 after counting why. */
static int refuse(zip_t *za, zip_uint64_t i, gd_br *b, const gd_bugreport_caps *caps, uint64_t total,
                  zip_stat_t *st)
{
    const char *why = NULL;
    if (zip_stat_index(za, i, 0, st) != 0 || !(st->valid & ZIP_STAT_SIZE) || !(st->valid & ZIP_STAT_COMP_SIZE))
        why = "bugreport: zip member without sizes";
    else if ((st->valid & ZIP_STAT_ENCRYPTION_METHOD) && st->encryption_method != ZIP_EM_NONE)
        why = "bugreport: zip member encrypted";
    else if (!(st->valid & ZIP_STAT_COMP_METHOD) || !zip_compression_method_supported(st->comp_method, 0))
        why = "bugreport: zip member compression unsupported";
    else if (st->size > caps->member_max)
        why = "bugreport: zip member over the size cap";
    else if (st->size > caps->total_max - (total < caps->total_max ? total : caps->total_max))
        why = "bugreport: zip member over the total size cap";
    else if (st->size > caps->ratio_floor && st->size / (st->comp_size ? st->comp_size : 1) > caps->ratio_max)
        why = "bugreport: zip member over the compression ratio cap";
    if (why) {
        gd_br_skip(b, why, 0);
        return 1;
    }
    return 0;
}

typedef int (*member_fn)(gd_br *b, gd_input *in, const char *member, const int *stream_failed,
                         gd_error *err);

/* The main text: its splitter knows when the text itself failed. */
static int main_text(gd_br *b, gd_input *in, const char *member, const int *stream_failed, gd_error *err)
{
    (void)stream_failed;
    return gd_br_text(b, in, member, err);
}

/* Streams member i through fn: fn's code (GD_OK too when the member was
 * refused: that is counted). */
static int read_member(zip_t *za, zip_uint64_t i, const char *name, gd_br *b, const gd_bugreport_caps *caps,
                       uint64_t *total, member_fn fn, gd_error *err)
{
    zip_stat_t st;
    if (refuse(za, i, b, caps, *total, &st))
        return GD_OK;
    zmember m = {.name = name, .declared = st.size, .comp = st.comp_size, .caps = caps, .total = total};
    if (!(m.zf = zip_fopen_index(za, i, 0))) {
        char nm[128];
        gd_br_printable(nm, sizeof nm, name, strlen(name));
        return gd_error_set(err, GD_ERR_DATA, 0, 0, "zip member '%s' unreadable: %s", nm,
                            zip_error_strerror(zip_get_error(za)));
    }
    gd_input *in = NULL;
    int rc = gd_input_open_pull(&in, member_pull, &m, err);
    if (!rc)
        rc = fn(b, in, name, &m.failed, err);
    if (rc && m.failed)
        err->line = err->col = 0; /* about the member, not one of its lines */
    gd_input_close(in);
    zip_fclose(m.zf);
    return rc;
}

/* main_entry.txt's content (one name), trimmed, into out. */
static int read_main_entry(zip_t *za, zip_uint64_t i, char *out, size_t n)
{
    zip_stat_t st;
    out[0] = 0;
    if (zip_stat_index(za, i, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE) || st.size >= n ||
        ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE) ||
        ((st.valid & ZIP_STAT_COMP_METHOD) && !zip_compression_method_supported(st.comp_method, 0)))
        return -1;
    zip_file_t *zf = zip_fopen_index(za, i, 0);
    if (!zf)
        return -1;
    zip_int64_t k = zip_fread(zf, out, n - 1);
    zip_fclose(zf);
    if (k < 0)
        return -1;
    size_t len = (size_t)k;
    out[len] = 0;
    while (len && (out[len - 1] == '\n' || out[len - 1] == '\r' || out[len - 1] == ' '))
        out[--len] = 0;
    return len && memchr(out, 0, len) == NULL ? 0 : -1;
}

static int is_main_name(const char *s)
{
    size_t n = strlen(s);
    return strncmp(s, "bugreport-", 10) == 0 && n > 14 && strcmp(s + n - 4, ".txt") == 0 && !strchr(s, '/');
}

static int is_anr_name(const char *s)
{
    static const char dir[] = "FS/data/anr/";
    if (strncmp(s, dir, sizeof dir - 1) != 0)
        return 0;
    const char *base = s + sizeof dir - 1;
    size_t n = strlen(base);
    if (strchr(base, '/'))
        return 0;
    return (strncmp(base, "anr_", 4) == 0 && n > 4) ||
           (strncmp(base, "traces", 6) == 0 && n >= 10 && strcmp(base + n - 4, ".txt") == 0);
}

static int read_archive(zip_t *za, const gd_bugreport_caps *caps, const gd_sink *sink, const gd_read_opts *opts,
                        gd_error *err)
{
    zip_int64_t ne = zip_get_num_entries(za, 0);
    if (ne < 0 || (uint64_t)ne > caps->members_max)
        return gd_error_set(err, GD_ERR_DATA, 0, 0, "bugreport zip with too many members (%lld, at most %llu)",
                            (long long)ne, (unsigned long long)caps->members_max);
    zip_uint64_t n = (zip_uint64_t)ne;
    zip_int64_t main_i = -1, entry_i = -1, named_i = -1;
    for (zip_uint64_t i = 0; i < n; i++) {
        const char *name = zip_get_name(za, i, ZIP_FL_ENC_RAW);
        if (!name)
            continue;
        if (strcmp(name, "main_entry.txt") == 0 && entry_i < 0)
            entry_i = (zip_int64_t)i;
        else if (named_i < 0 && is_main_name(name))
            named_i = (zip_int64_t)i;
    }
    if (entry_i < 0 && named_i < 0)
        return gd_error_set(err, GD_ERR_NOT_MINE, 0, 0,
                            "not a bugreport zip: no main_entry.txt or bugreport-*.txt member");
    gd_br *b = gd_br_new(sink, opts);
    if (!b)
        return gd_error_oom(err);
    if (entry_i >= 0) {
        char want[1024];
        if (read_main_entry(za, (zip_uint64_t)entry_i, want, sizeof want) == 0) {
            for (zip_uint64_t i = 0; i < n && main_i < 0; i++) {
                const char *name = zip_get_name(za, i, ZIP_FL_ENC_RAW);
                if (name && (zip_int64_t)i != entry_i && strcmp(name, want) == 0)
                    main_i = (zip_int64_t)i;
            }
        }
        if (main_i < 0)
            gd_br_skip(b, GD_SKIP(BUGREPORT_MAIN_ENTRY_TXT_NAMES_NO_MEMBER), 0);
    }
    if (main_i < 0)
        main_i = named_i;
    int rc = 0;
    uint64_t total = 0;
    if (main_i < 0) {
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "not a bugreport zip: main_entry.txt names no member");
    } else {
        const char *name = zip_get_name(za, (zip_uint64_t)main_i, ZIP_FL_ENC_RAW);
        rc = read_member(za, (zip_uint64_t)main_i, name ? name : "?", b, caps, &total, main_text, err);
    }
    for (zip_uint64_t i = 0; i < n && !rc; i++) {
        if ((zip_int64_t)i == main_i || (zip_int64_t)i == entry_i)
            continue;
        const char *name = zip_get_name(za, i, ZIP_FL_ENC_RAW);
        size_t len = name ? strlen(name) : 0;
        if (len && name[len - 1] == '/')
            continue;
        if (!name || !is_anr_name(name)) {
            gd_br_skip(b, GD_SKIP(IGNORED_BUGREPORT_ZIP_MEMBER_NOT_READ), 0);
            continue;
        }
        if (gd_br_anr_seen(b, name + 2)) { /* "FS/data/anr/x" is "/data/anr/x" */
            gd_br_skip(b, GD_SKIP(IGNORED_BUGREPORT_ZIP_MEMBER_ALREADY_READ_AS), 0);
            continue;
        }
        rc = read_member(za, i, name, b, caps, &total, gd_br_anr_file, err);
    }
    if (!rc)
        rc = gd_br_finish(b, "zip", err);
    gd_br_free(b);
    return rc;
}

/* Opens the archive over src (taken in every case) and reads it. */
static int read_source(zip_source_t *src, const gd_bugreport_caps *caps, const gd_sink *sink,
                       const gd_read_opts *opts, gd_error *err)
{
    zip_error_t ze;
    zip_error_init(&ze);
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY, &ze);
    if (!za) {
        int rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "not a readable zip: %s", zip_error_strerror(&ze));
        zip_error_fini(&ze);
        zip_source_free(src);
        return rc;
    }
    zip_error_fini(&ze);
    int rc = read_archive(za, caps, sink, opts, err);
    zip_discard(za);
    return rc;
}

/* Reads the zip of source src (NULL: its creation failed, ze says why),
 * releasing ze either way. */
static int read_opened(zip_source_t *src, zip_error_t *ze, const gd_bugreport_caps *caps,
                       const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    int rc = src ? GD_OK : gd_error_set(err, GD_ERR_IO, 0, 0, "zip: %s", zip_error_strerror(ze));
    zip_error_fini(ze);
    return src ? read_source(src, caps, sink, opts, err) : rc;
}

int gd_bugreport_read_zip_mem(const void *data, size_t n, const gd_bugreport_caps *caps,
                              const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    if (gd_zip_load(err))
        return err->code;
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(data, n, 0, &ze);
    return read_opened(src, &ze, caps, sink, opts, err);
}

static int gd_bugreport_read_zip(gd_input *in, const gd_bugreport_caps *caps, const gd_sink *sink,
                          const gd_read_opts *opts, gd_error *err)
{
    if (gd_zip_load(err))
        return err->code;
    /* a regular file in place, else the input's bytes (so its hash covers
     * them) in an anonymous temp file: io/randin.h */
    gd_randin r;
    if (gd_randin_open(&r, in, caps->spool_max, "bugreport zip", err))
        return err->code;
    zip_error_t ze;
    zip_error_init(&ze);
    int rc = read_opened(fd_source(r.fd, r.size, &ze), &ze, caps, sink, opts, err);
    gd_randin_close(&r);
    return rc;
}

/* ==== a zip of captures, member by member (issue 46) ==== */

int gd_zip_each_member(const char *path, const gd_bugreport_caps *caps, gd_zip_member_fn fn, void *ctx,
                       gd_error *err)
{
    if (gd_zip_load(err))
        return err->code;
    int ze = 0;
    zip_t *za = zip_open(path, ZIP_RDONLY, &ze);
    if (!za) {
        zip_error_t e;
        zip_error_init_with_code(&e, ze);
        int rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "not a readable zip: %s", zip_error_strerror(&e));
        zip_error_fini(&e);
        return rc;
    }
    zip_int64_t ne = zip_get_num_entries(za, 0);
    int rc = GD_OK;
    if (ne < 0 || (uint64_t)ne > caps->members_max)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "zip with too many members (%lld, at most %llu)",
                          (long long)ne, (unsigned long long)caps->members_max);
    uint64_t total = 0;
    for (zip_uint64_t i = 0; !rc && i < (zip_uint64_t)(ne > 0 ? ne : 0); i++) {
        const char *name = zip_get_name(za, i, ZIP_FL_ENC_RAW);
        size_t len = name ? strlen(name) : 0;
        if (!len || name[len - 1] == '/')
            continue; /* a folder */
        zip_stat_t st;
        const char *why = NULL;
        if (zip_stat_index(za, i, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE) || !(st.valid & ZIP_STAT_COMP_SIZE))
            why = "zip member without sizes";
        else if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
            why = "zip member encrypted";
        else if (!(st.valid & ZIP_STAT_COMP_METHOD) || !zip_compression_method_supported(st.comp_method, 0))
            why = "zip member compression unsupported";
        else if (st.size > caps->member_max)
            why = "zip member over the size cap";
        else if (st.size > caps->total_max - (total < caps->total_max ? total : caps->total_max))
            why = "zip member over the total size cap";
        else if (st.size > caps->ratio_floor && st.size / (st.comp_size ? st.comp_size : 1) > caps->ratio_max)
            why = "zip member over the compression ratio cap";
        if (why) {
            rc = fn(ctx, name, NULL, why, err);
            continue;
        }
        zmember m = {.name = name, .declared = st.size, .comp = st.comp_size, .caps = caps, .total = &total};
        if (!(m.zf = zip_fopen_index(za, i, 0))) {
            rc = fn(ctx, name, NULL, "zip member unreadable", err);
            continue;
        }
        gd_input *in = NULL;
        rc = gd_input_open_pull(&in, member_pull, &m, err);
        if (!rc)
            rc = fn(ctx, name, in, NULL, err);
        gd_input_close(in);
        zip_fclose(m.zf);
    }
    zip_discard(za);
    return rc;
}
