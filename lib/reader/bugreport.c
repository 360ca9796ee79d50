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
#include "reader/bugreport_int.h"
#include "core/util.h"

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

int br_all_of(const char *s, size_t n, char c, size_t min)
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
int br_classify(const char *s, size_t n, const char **t, size_t *tn, const char **a, size_t *an)
{
    if (br_all_of(s, n, '=', 10) || starts(s, n, "== "))
        return BR_L_BANNER;
    if (starts(s, n, "------ ") && ends(s, n, " ------") && n >= 14) {
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
    if (starts(s, n, "--------- ") && contains(s, n, " was the duration of dumpsys "))
        return BR_L_END;
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
        return BR_L_SERVICE;
    }
    if (br_all_of(s, n, '-', 40))
        return BR_L_DASHES;
    return BR_L_TEXT;
}

/* The anr reader's section name of a "VM TRACES ..." title (#28). */
const char *br_anr_section(const char *t, size_t n)
{
    if (n == 21 && memcmp(t, "VM TRACES AT LAST ANR", 21) == 0)
        return "at_last_anr";
    if (n == 18 && memcmp(t, "VM TRACES JUST NOW", 18) == 0)
        return "just_now";
    if (n == 19 && memcmp(t, "VM TRACES WHEN SLOW", 19) == 0)
        return "when_slow";
    return "vm_traces";
}

br_kind br_route_section(const char *t, size_t n)
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

br_kind br_route_service(const char *t, size_t n)
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
void br_note_anr_path(gd_br *b, const char *a, size_t an)
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

void br_ignore_section(gd_br *b, const char *t, size_t tn, int service, long line)
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
void br_header_line(gd_br *b, const char *s, size_t n)
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
void br_prop_line(gd_br *b, const char *s, size_t n)
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

/* "  mResumedActivity: ActivityRecord{25f1806 u0 com.example/.Main t12}"
 * (HistoryRecord{40838768 com.example/.Main} before Android 4): the
 * package of the first such line of dumpsys activity that names one
 * ("mResumedActivity: null" does not). */
void br_activity_line(gd_br *b, const char *s, size_t n)
{
    static const char key[] = "mResumedActivity: ";
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    if (b->resumed_app[0] || !starts(s + i, n - i, key))
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

int gd_br_finish(gd_br *b, const char *format, gd_error *err)
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
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
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
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
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
