/* simpleperf.c - reader of simpleperf samples as text (report_sample.py / perf script, `simpleperf report-sample`): stack samples per thread.
 *
 * Two text forms, detected by content:
 *
 *   - report_sample.py (perf script style), optionally after a
 *     `report_sample.py --header` block of "# key : value" lines:
 *       # cmdline : /data/local/tmp/simpleperf record ... --app com.example
 *       # app_package_name : com.example
 *       RenderThread<TAB>31850/31881 [001] 684943.449406: 250000 cpu-clock:
 *       <TAB>      74938fb3f0 glTexSubImage2D (/vendor/lib64/egl/libGLESv2_adreno.so)
 *       <TAB>        729ffcdc android.os.Looper.loop (/system/framework/framework.jar)
 *     the sample line is "thread name, pid/tid (or tid), [cpu], seconds:,
 *     period, event:", the indented lines are "address symbol (file)",
 *     innermost first;
 *   - `simpleperf report-sample [--show-callchain]`: blocks
 *       sample:
 *         time: 684943449406000          (ns)
 *         thread_id: 31881
 *         thread_name: RenderThread
 *         vaddr_in_file: 29c3f0          (older versions: ip:)
 *         file: /vendor/lib64/...        (older versions: dso:)
 *         symbol: glTexSubImage2D
 *         callchain:
 *           vaddr_in_file / file / symbol, one triple per caller
 *     plus "meta_info:" (app_package_name), "lost_situation:" and
 *     "context_switch:" blocks (ignored, counted).  It prints no pid.
 *
 * Emits one GD_EV_STACK per sample: ts = the sample time (CLOCK_MONOTONIC
 * seconds since boot, or ns: meta.clock "monotonic"; "realtime" when the
 * header's clockid says so), pid (report_sample.py), tid, thread = the name
 * as printed, frames innermost first:
 *   - Java frames (the file is a .oat/.odex/.vdex/.dex/.jar/.apk/.art or a
 *     JIT cache, and the symbol is named) as "Class.method", as simpleperf
 *     prints them ("android.os.Looper.loop");
 *   - native frames as the ANR reader names them: "native:<file
 *     basename>(<symbol>)", or "native:<file basename>(pc <offset>)" for
 *     simpleperf's unnamed "lib.so[+offset]".
 * Meta: app (the header's app_package_name, or --app/--app= in its cmdline,
 * or report-sample's meta_info), clock; pid and main_tid = the first sample
 * whose tid is its pid (report_sample.py) or, in report-sample, whose thread
 * name is the app's name (or its tail, as the kernel cuts it).
 *
 * A binary perf.data ("PERFILE2") is read by perfdata.c into the same
 * events.  simpleperf's protobuf samples ("SIMPLEPERF", report-sample
 * --protobuf) are recognised and refused, naming the command that writes
 * the text form.
 *
 * Memory: one sample's frames (SP_MAX_FRAMES frames, SP_MAX_FRAME bytes each). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "perfdata.h"
#include "spmeta.h"
#include "profname.h"
#include "io/textin.h"
#include "core/util.h"
#include "core/scan.h"
#include "core/skip_reasons.h"

#define SP_MAX_FRAMES 1024
#define SP_MAX_FRAME 2048
/* Binary simpleperf files, recognised by their magic and refused with the
 * command that writes the text form. */
static const struct sp_binary {
    const char *magic, *refusal;
} sp_binaries[] = {
    /* report_sample.py --protobuf / simpleperf report-sample --protobuf */
    {"SIMPLEPERF", "simpleperf's protobuf samples (SIMPLEPERF) are not read: write them as text (simpleperf "
                   "report-sample -i perf.data --show-callchain > samples.txt, or report_sample.py without "
                   "--protobuf) and ingest that"},
};

/* The binary simpleperf file head begins, or NULL. */
static const struct sp_binary *sp_binary_of(const unsigned char *head, size_t n)
{
    for (size_t i = 0; i < sizeof sp_binaries / sizeof *sp_binaries; i++) {
        size_t k = strlen(sp_binaries[i].magic);
        if (n >= k && memcmp(head, sp_binaries[i].magic, k) == 0)
            return &sp_binaries[i];
    }
    return NULL;
}

typedef struct sp {
    const gd_sink *sink;
    gd_error *err;
    /* capture */
    char app[512];
    int have_app, realtime, meta_sent, main_sent;
    /* the sample being read */
    int in_sample;
    long line;
    double ts;
    int64_t pid, tid;
    char thread[256];
    int have_thread;
    char *fbuf;
    size_t flen, fcap;
    size_t *foff;
    size_t nframes, foff_cap;
    int over;
    /* report-sample: the entry being read */
    int rs;           /* 1: report-sample form                             */
    int rs_block;     /* 0 none, 1 sample, 2 meta_info, 3 other            */
    int rs_chain;     /* inside callchain:                                  */
    int ent_have;
    char ent_file[1024], ent_sym[SP_MAX_FRAME];
    const char **fptr;
    size_t fptr_cap;
} sp;

/* s[0..len) into dst[n], cut at a character boundary and counted. */
static void copy(const sp *p, char *dst, size_t n, const char *s, size_t len)
{
    len = gd_sink_cut(p->sink, s, len, n - 1, p->line);
    memcpy(dst, s, len);
    dst[len] = 0;
}

static int add_frame(sp *s, const char *text, size_t n)
{
    if (s->nframes >= SP_MAX_FRAMES) {
        if (!s->over)
            gd_sink_skip(s->sink, GD_SKIP(SIMPLEPERF_FRAMES_OVER_THE_PER_SAMPLE_LIMIT), s->line, 1);
        s->over = 1;
        return 0;
    }
    n = gd_sink_cut(s->sink, text, n, SP_MAX_FRAME, s->line);
    if (gd_grow((void **)&s->fbuf, &s->fcap, s->flen + n + 1, 1, s->err) ||
        gd_grow((void **)&s->foff, &s->foff_cap, s->nframes + 1, sizeof *s->foff, s->err))
        return GD_ERR_IO;
    s->foff[s->nframes++] = s->flen;
    memcpy(s->fbuf + s->flen, text, n);
    s->flen += n;
    s->fbuf[s->flen++] = 0;
    return 0;
}

/* One frame from its symbol and file as simpleperf prints them (named by
 * profname.h's rule). */
static int frame(sp *s, const char *sym, size_t nsym, const char *file, size_t nfile)
{
    char f[1024], buf[SP_MAX_FRAME + 1100];
    copy(s, f, sizeof f, file, nfile);
    while (nsym && isspace((unsigned char)sym[nsym - 1]))
        nsym--;
    /* simpleperf's unnamed symbol: "lib.so[+29c3f0]" */
    const char *plus = NULL;
    if (nsym > 3 && sym[nsym - 1] == ']') {
        for (size_t i = nsym - 1; i > 0; i--)
            if (sym[i] == '[') {
                if (i + 1 < nsym && sym[i + 1] == '+')
                    plus = sym + i + 2;
                break;
            }
    }
    size_t n = gd_prof_frame(buf, sizeof buf, sym, nsym, f, plus,
                             plus ? (size_t)(sym + nsym - 1 - plus) : 0);
    return add_frame(s, buf, n);
}

static int send_meta(sp *s, int64_t pid, int64_t main_tid)
{
    s->meta_sent = 1;
    return gd_simpleperf_meta(s->sink, s->have_app ? s->app : NULL, s->realtime, pid, main_tid, s->err);
}

/* The app's main thread in report-sample (no pid): named as the app. */
static int main_by_name(const sp *s)
{
    return s->have_app && s->have_thread && gd_simpleperf_app_thread(s->app, s->thread);
}

static int flush(sp *s)
{
    if (!s->in_sample)
        return 0;
    s->in_sample = 0;
    int rc = 0;
    if (!s->meta_sent && (rc = send_meta(s, -1, -1)))
        return rc;
    if (!gd_has(s->ts) || s->tid < 0) {
        gd_sink_skip(s->sink, GD_SKIP(SIMPLEPERF_SAMPLE_WITHOUT_TIME_OR_THREAD), s->line, 1);
        goto out;
    }
    if (s->nframes == 0) {
        gd_sink_skip(s->sink, GD_SKIP(SIMPLEPERF_SAMPLE_WITHOUT_FRAMES), s->line, 1);
        goto out;
    }
    if (!s->main_sent && ((s->pid >= 0 && s->pid == s->tid) || (s->pid < 0 && main_by_name(s)))) {
        s->main_sent = 1;
        if ((rc = send_meta(s, s->pid, s->tid)))
            return rc;
    }
    if (gd_grow((void **)&s->fptr, &s->fptr_cap, s->nframes, sizeof *s->fptr, s->err))
        return GD_ERR_IO;
    for (size_t i = 0; i < s->nframes; i++)
        s->fptr[i] = s->fbuf + s->foff[i];
    gd_event ev;
    gd_event_init(&ev, GD_EV_STACK);
    ev.ts = s->ts;
    ev.line = s->line;
    ev.pid = s->pid >= 0 ? s->pid : GD_PID_APP;
    ev.tid = s->tid;
    ev.thread = s->have_thread ? s->thread : NULL;
    ev.u.stack.frames = s->fptr;
    ev.u.stack.nframes = s->nframes;
    rc = gd_sink_event(s->sink, &ev, s->err);
out:
    s->nframes = s->flen = 0;
    s->over = 0;
    return rc;
}

static void begin(sp *s, long line)
{
    s->in_sample = 1;
    s->line = line;
    s->ts = GD_NONE;
    s->pid = s->tid = -1;
    s->have_thread = 0;
    s->thread[0] = 0;
    s->nframes = s->flen = 0;
    s->over = 0;
}

/* ---- report_sample.py ----------------------------------------------------- */

/* "# key : value" header lines. */
static void header(sp *s, const char *l)
{
    const char *p = l + 1;
    while (*p == ' ')
        p++;
    const char *colon = strstr(p, " : ");
    if (!colon)
        return;
    size_t nk = (size_t)(colon - p);
    const char *v = colon + 3;
    if (nk == 16 && gd_starts(p, "app_package_name") && *v) {
        copy(s, s->app, sizeof s->app, v, strlen(v));
        s->have_app = 1;
    } else if (nk == 7 && gd_starts(p, "cmdline") && !s->have_app) {
        const char *a = strstr(v, " --app");
        if (a && (a[6] == ' ' || a[6] == '=')) {
            a += 7;
            while (*a == ' ')
                a++;
            size_t n = strcspn(a, " \t");
            if (n) {
                copy(s, s->app, sizeof s->app, a, n);
                s->have_app = 1;
            }
        }
    } else if (nk == 7 && gd_starts(p, "clockid")) {
        s->realtime = strcmp(v, "realtime") == 0;
    }
}

/* The sample time of a sample line [l, end): the first token
 * "digits.digits:" after the thread name (followed by a blank or the end),
 * or NULL. */
static const char *time_token(const char *l, const char *end)
{
    for (const char *p = l + 1; p < end; p++) {
        if ((p[-1] == ' ' || p[-1] == '\t') && isdigit((unsigned char)*p)) {
            const char *q = p;
            while (q < end && isdigit((unsigned char)*q))
                q++;
            if (q + 1 < end && *q == '.' && isdigit((unsigned char)q[1])) {
                q++;
                while (q < end && isdigit((unsigned char)*q))
                    q++;
                if (q < end && *q == ':' && (q + 1 == end || q[1] == ' ' || q[1] == '\t'))
                    return p;
            }
        }
    }
    return NULL;
}

/* "NAME<ws>[PID/]TID [[CPU]] SEC.USEC: PERIOD EVENT:" -> 1 parsed, 0 not. */
static int sample_line(sp *s, const char *l, long line)
{
    const char *t = time_token(l, l + strlen(l));
    if (!t)
        return 0;
    /* back over "[cpu]" and the pid/tid token */
    const char *e = t;
    while (e > l && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    if (e > l && e[-1] == ']') {
        while (e > l && e[-1] != '[')
            e--;
        if (e > l)
            e--;
        while (e > l && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
    }
    const char *id = e;
    while (id > l && (isdigit((unsigned char)id[-1]) || id[-1] == '/'))
        id--;
    if (id == e || (id > l && id[-1] != ' ' && id[-1] != '\t'))
        return 0;
    begin(s, line);
    char *x;
    long long a = strtoll(id, &x, 10);
    if (*x == '/') {
        s->pid = a;
        s->tid = strtoll(x + 1, NULL, 10);
    } else {
        s->tid = a;
    }
    const char *ne = id;
    while (ne > l && (ne[-1] == ' ' || ne[-1] == '\t'))
        ne--;
    copy(s, s->thread, sizeof s->thread, l, (size_t)(ne - l));
    s->have_thread = ne > l;
    s->ts = strtod(t, NULL) * 1000.0;
    return 1;
}

/* "<ws>HEX SYMBOL (FILE)" */
static int chain_line(sp *s, const char *l, long line)
{
    const char *p = l;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *h = p;
    while (isxdigit((unsigned char)*p))
        p++;
    size_t n = strlen(l);
    while (n && (l[n - 1] == ' ' || l[n - 1] == '\t'))
        n--;
    if (p == h || (*p != ' ' && *p != '\t') || n == 0 || l[n - 1] != ')') {
        gd_sink_skip(s->sink, GD_SKIP(SIMPLEPERF_CALL_CHAIN_LINE_UNPARSABLE), line, 1);
        return 0;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    /* the file: the last "(...)" group, balanced from the end */
    size_t close = n - 1;
    int depth = 0;
    size_t open = close;
    for (size_t i = close + 1; i-- > (size_t)(p - l);) {
        if (l[i] == ')')
            depth++;
        else if (l[i] == '(' && --depth == 0) {
            open = i;
            break;
        }
    }
    if (open == close || open < (size_t)(p - l)) {
        gd_sink_skip(s->sink, GD_SKIP(SIMPLEPERF_CALL_CHAIN_LINE_UNPARSABLE), line, 1);
        return 0;
    }
    size_t sym_end = open;
    while (sym_end > (size_t)(p - l) && (l[sym_end - 1] == ' ' || l[sym_end - 1] == '\t'))
        sym_end--;
    return frame(s, p, sym_end - (size_t)(p - l), l + open + 1, close - open - 1);
}

/* ---- report-sample -------------------------------------------------------- */

static int rs_entry_done(sp *s)
{
    if (!s->ent_have)
        return 0;
    s->ent_have = 0;
    int rc = frame(s, s->ent_sym, strlen(s->ent_sym), s->ent_file, strlen(s->ent_file));
    s->ent_sym[0] = s->ent_file[0] = 0;
    return rc;
}

static int rs_line(sp *s, const char *l, long line)
{
    int indent = 0;
    while (l[indent] == ' ' || l[indent] == '\t')
        indent++;
    const char *p = l + indent;
    int rc;
    if (indent == 0) {
        if ((rc = rs_entry_done(s)) || (rc = flush(s)))
            return rc;
        s->rs_chain = 0;
        if (gd_starts(p, "sample:")) {
            s->rs_block = 1;
            begin(s, line);
        } else if (gd_starts(p, "meta_info:")) {
            s->rs_block = 2;
        } else {
            s->rs_block = 3;
            gd_sink_skip(s->sink, GD_SKIP(SIMPLEPERF_RECORD_OTHER_THAN_A_SAMPLE), line, 1);
        }
        return 0;
    }
    const char *colon = strchr(p, ':');
    if (!colon)
        return 0;
    size_t nk = (size_t)(colon - p);
    const char *v = colon + 1;
    while (*v == ' ')
        v++;
    if (s->rs_block == 2) {
        if (nk == 16 && gd_starts(p, "app_package_name") && *v) {
            copy(s, s->app, sizeof s->app, v, strlen(v));
            s->have_app = 1;
        }
        return 0;
    }
    if (s->rs_block != 1)
        return 0;
#define KEY(k) (nk == strlen(k) && strncmp(p, k, nk) == 0)
    if (KEY("callchain")) {
        if ((rc = rs_entry_done(s)))
            return rc;
        s->rs_chain = 1;
    } else if (!s->rs_chain && KEY("time")) {
        s->ts = strtod(v, NULL) / 1e6;
    } else if (!s->rs_chain && KEY("thread_id")) {
        s->tid = strtoll(v, NULL, 10);
    } else if (!s->rs_chain && KEY("thread_name")) {
        copy(s, s->thread, sizeof s->thread, v, strlen(v));
        s->have_thread = 1;
    } else if (KEY("vaddr_in_file") || KEY("ip")) {
        if ((rc = rs_entry_done(s)))
            return rc;
        s->ent_have = 1;
    } else if (KEY("file") || KEY("dso")) {
        copy(s, s->ent_file, sizeof s->ent_file, v, strlen(v));
        s->ent_have = 1;
    } else if (KEY("symbol")) {
        copy(s, s->ent_sym, sizeof s->ent_sym, v, strlen(v));
        s->ent_have = 1;
    }
#undef KEY
    return 0;
}

/* ---- reader --------------------------------------------------------------- */

static int read_sp(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    (void)opts;
    size_t hn;
    int eof;
    const unsigned char *head = gd_input_peek(in, &hn, &eof, err);
    if (!head)
        return err->code ? err->code : GD_ERR_IO;
    if (gd_perfdata_is(head, hn))
        return gd_perfdata_read(in, sink, err);
    const struct sp_binary *bin = sp_binary_of(head, hn);
    if (bin)
        return gd_error_set(err, GD_ERR_DATA, 0, 0, "%s", bin->refusal);
    sp *s = calloc(1, sizeof *s);
    if (!s)
        return gd_error_oom(err);
    s->sink = sink;
    s->err = err;
    int rc = GD_OK;
    char *l;
    size_t len;
    int r = 0, form = 0; /* 0 unknown yet, 1 report_sample.py, 2 report-sample */
    while (rc == GD_OK && (r = gd_input_getline(in, &l, &len, err)) == 1) {
        long line = gd_input_lineno(in);
        if (form == 0) {
            if (!*l)
                continue;
            if (l[0] == '#') {
                header(s, l);
                continue;
            }
            form = (gd_starts(l, "sample:") || gd_starts(l, "meta_info:") || gd_starts(l, "sample ") ||
                    gd_starts(l, "lost_situation:") || gd_starts(l, "context_switch:"))
                       ? 2
                       : 1;
        }
        if (form == 2) {
            rc = rs_line(s, l, line);
            continue;
        }
        if (!*l) {
            rc = flush(s);
        } else if (l[0] == '#') {
            header(s, l);
        } else if (l[0] == ' ' || l[0] == '\t') {
            if (s->in_sample)
                rc = chain_line(s, l, line);
            else
                gd_sink_skip(sink, GD_SKIP(SIMPLEPERF_CALL_CHAIN_LINE_OUTSIDE_A_SAMPLE), line, 1);
        } else {
            if ((rc = flush(s)))
                break;
            if (!sample_line(s, l, line))
                gd_sink_skip(sink, GD_SKIP(SIMPLEPERF_LINE_UNPARSABLE), line, 1);
        }
    }
    if (rc == GD_OK && r < 0)
        rc = err->code ? err->code : GD_ERR_DATA;
    if (rc == GD_OK && form == 2)
        rc = rs_entry_done(s);
    if (rc == GD_OK)
        rc = flush(s);
    if (rc == GD_OK && !s->meta_sent && (s->have_app || form))
        rc = send_meta(s, -1, -1);
    free(s->fbuf);
    free(s->foff);
    free(s->fptr);
    free(s);
    return rc;
}

/* A perf-script sample line ("... SEC.USEC: ...") followed by an
 * indented "hex symbol" line, as the first line that is not a comment. */
static int looks_like_script(const char *h)
{
    for (const char *p = h; *p;) {
        const char *nl = strchr(p, '\n');
        if (!nl)
            return 0;
        if (*p == '#' || p == nl) {
            p = nl + 1;
            continue;
        }
        if (*p == ' ' || *p == '\t' || !time_token(p, nl))
            return 0;
        const char *c = nl + 1;
        if (*c != '\t' && *c != ' ')
            return 0;
        while (*c == '\t' || *c == ' ')
            c++;
        const char *x = c;
        while (isxdigit((unsigned char)*c))
            c++;
        return c > x && (*c == ' ' || *c == '\t');
    }
    return 0;
}

static int probe(const unsigned char *head, size_t n, int eof)
{
    (void)eof;
    if (sp_binary_of(head, n) || gd_perfdata_is(head, n))
        return 90;
    char *h = gd_text_head(head, n, NULL);
    if (!h)
        return 0;
    int score = 0;
    if ((gd_starts(h, "sample:\n") || gd_starts(h, "meta_info:\n") || gd_starts(h, "context_switch:\n")) &&
        strstr(h, "\n  thread_id: ") && (gd_starts(h, "sample:\n") || strstr(h, "\nsample:\n")))
        score = 90;
    else if (strstr(h, "# cmdline : ") && strstr(h, "simpleperf") && looks_like_script(h))
        score = 95;
    else if (looks_like_script(h))
        score = 80;
    free(h);
    return score;
}

const gd_reader gd_reader_simpleperf = {
    .name = "simpleperf",
    .description = "simpleperf samples as text (report_sample.py, `simpleperf report-sample`): stack samples per thread",
    .probe = probe,
    .read = read_sp,
};
