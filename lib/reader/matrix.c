/* matrix.c - reader of Tencent Matrix trace-canary issues (JSON content or logcat Issue lines). */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "io/jsonstream.h"
#include "reader.h"
#include "reader/matrix.h"
#include "core/util.h"
#include "core/scan.h"
#include "core/skip_reasons.h"

#define MX_METHOD_ID_DISPATCH 1048574L

typedef struct mx_mapping_entry {
    long id;
    char *cls, *method, *desc; /* point into one allocation per entry */
} mx_mapping_entry;

typedef struct mx_frame_slot {
    int depth;
    double next; /* where the next child starts */
} mx_frame_slot;

typedef struct mx_ctx {
    const gd_sink *sink;
    const gd_read_opts *opts;
    long line, col;
    mx_mapping_entry *map;
    size_t nmap;
    mx_frame_slot *stack;
    size_t stack_cap;
    const char **frames;
    size_t frames_cap;
    char *buf;          /* per-issue scratch (thread stack text) */
    size_t buf_cap;
    int own_meta;       /* reading a Matrix file: the meta is ours to send */
    int meta_sent;
    /* the last launch sent, to know Matrix's second report of it */
    int last_startup;
    double last_total, last_time;
    const char *last_kind;  /* a literal */
} mx_ctx;

static int gd_mx_do_issue(mx_ctx *c, json_t *o, const char *line_tag, gd_error *err);
static const char *gd_mx_fstr(json_t *o, const char *k);
static const char *gd_mx_issue_tag(json_t *o, const char *line_tag);
const mx_mapping_entry *gd_mx_lookup(const mx_ctx *c, long id);
void gd_mx_skip(mx_ctx *c, const char *reason);

/*
 * Inputs:
 *   - the issue content objects (what Plugin.onDetectIssue fills: "tag",
 *     "type", "process", "time" plus the tracer's fields), one per line, in
 *     arrays, or pretty-printed; whole Issue objects
 *     {"type":0,"tag":..,"key":..,"content":{..}} are read as their content;
 *   - text (logcat) with Issue.toString() lines
 *     "...tag[Trace_EvilMethod]type[0];key[...];content[{...}]".
 *
 * Field names are TraceCanary's SharePluginInfo: detail (ISSUE_STACK_TYPE),
 * cost, scene, stack, stackKey, threadStack, dropLevel, dropSum, fps, ...
 *
 * "detail" decides what an issue stands for (kind_of): evil methods and
 * ANRs are dispatches, launches are startup events, the rest are findings
 * kept as issues with their threadStack as a main-thread sample.
 *
 * Time: "time" is the report time (System.currentTimeMillis() when the
 * issue is reported, after the analysis).  An evil method's dispatch is
 * laid out as ending at that time: ts = time - cost (the analysis delay is
 * ignored).
 */

void gd_mx_skip(mx_ctx *c, const char *reason)
{
    gd_sink_skip(c->sink, reason, c->line, c->col);
}

/* ---- method mapping: "id,accessFlag,class method desc" ---- */

static int cmp_entry(const void *a, const void *b)
{
    long x = ((const mx_mapping_entry *)a)->id, y = ((const mx_mapping_entry *)b)->id;
    return x < y ? -1 : x > y;
}

static void free_mapping(mx_ctx *c)
{
    for (size_t i = 0; i < c->nmap; i++)
        free(c->map[i].cls);
    free(c->map);
    c->map = NULL;
    c->nmap = 0;
}

static int load_mapping(mx_ctx *c, const char *path, gd_error *err)
{
    gd_input *in = NULL;
    gd_error e2;
    gd_error_clear(&e2);
    if (gd_input_open_file(&in, path, &e2))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot open method mapping '%s': %s", path,
                            e2.msg);
    size_t cap = 0;
    char *line;
    size_t len;
    int r;
    while ((r = gd_input_getline(in, &line, &len, &e2)) == 1) {
        char *e;
        long id = strtol(line, &e, 10);
        if (e == line || *e != ',') {
            gd_sink_skip(c->sink, GD_SKIP(MATRIX_BAD_METHOD_MAPPING_LINE), gd_input_lineno(in), 1);
            continue;
        }
        char *rest = strchr(e + 1, ',');
        if (!rest || !rest[1]) {
            gd_sink_skip(c->sink, GD_SKIP(MATRIX_BAD_METHOD_MAPPING_LINE), gd_input_lineno(in), 1);
            continue;
        }
        if (gd_grow((void **)&c->map, &cap, c->nmap + 1, sizeof *c->map, err)) {
            gd_input_close(in);
            return GD_ERR_IO;
        }
        char *s = strdup(rest + 1);
        if (!s) {
            gd_input_close(in);
            return gd_error_oom(err);
        }
        mx_mapping_entry *m = &c->map[c->nmap++];
        m->id = id;
        m->cls = s;
        m->method = m->desc = NULL;
        char *sp = strchr(s, ' ');
        if (sp) {
            *sp = 0;
            m->method = sp + 1;
            sp = strchr(m->method, ' ');
            if (sp) {
                *sp = 0;
                m->desc = sp + 1;
            }
        }
    }
    gd_input_close(in);
    if (r < 0)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot read method mapping '%s': %s", path,
                            e2.msg);
    if (c->nmap) /* gd_sort(NULL, 0) is undefined */
        gd_sort(c->map, c->nmap, sizeof *c->map, cmp_entry);
    return 0;
}

const mx_mapping_entry *gd_mx_lookup(const mx_ctx *c, long id)
{
    mx_mapping_entry key = {.id = id};
    return c->nmap ? bsearch(&key, c->map, c->nmap, sizeof *c->map, cmp_entry) : NULL;
}

/* ---- containers ---- */

static int issue_fn(void *c, json_t *o, gd_error *err)
{
    return gd_mx_do_issue(c, o, NULL, err);
}

static int read_json(mx_ctx *c, gd_input *in, gd_error *err)
{
    return gd_jstream_each_object(in, issue_fn, c, &c->line, &c->col, err);
}

/* Finds "tag[X]" and "content[{...}]" in a line: 0 and the spans, or -1. */
static int split_issue_line(char *line, size_t len, const char **tag, size_t *tag_len,
                            char **content, size_t *content_len)
{
    char *t = strstr(line, "tag[");
    char *k = t ? strstr(t, "content[") : NULL;
    if (!t || !k)
        return -1;
    t += 4;
    char *te = memchr(t, ']', (size_t)(k - t));
    if (!te)
        return -1;
    k += 8;
    char *end = line + len;
    while (end > k && end[-1] != ']')
        end--;
    if (end <= k || *k != '{')
        return -1;
    *tag = t;
    *tag_len = (size_t)(te - t);
    *content = k;
    *content_len = (size_t)(end - 1 - k);
    return 0;
}

/* One text line: 0 handled (events or a counted skip), GD_OTHER_RULE not an issue line,
 * else an error code. */
static int issue_line(mx_ctx *c, char *line, size_t len, gd_error *err)
{
    const char *tag;
    size_t tl, cl;
    char *content;
    if (split_issue_line(line, len, &tag, &tl, &content, &cl) != 0)
        return GD_OTHER_RULE;
    c->col = (long)(content - line) + 1;
    json_error_t je;
    json_t *o = json_loadb(content, cl, 0, &je);
    if (!o) {
        gd_mx_skip(c, GD_SKIP(MATRIX_CONTENT_IS_NOT_JSON));
        return 0;
    }
    char tagbuf[128];
    size_t n = gd_sink_cut(c->sink, tag, tl, sizeof tagbuf - 1, c->line);
    memcpy(tagbuf, tag, n);
    tagbuf[n] = 0;
    int rc = gd_mx_do_issue(c, o, n ? tagbuf : NULL, err);
    json_decref(o);
    return rc;
}

static int read_lines(mx_ctx *c, gd_input *in, gd_error *err)
{
    char *line;
    size_t len;
    int r;
    while ((r = gd_input_getline(in, &line, &len, err)) == 1) {
        c->line = gd_input_lineno(in);
        c->col = 1;
        int rc = issue_line(c, line, len, err);
        if (rc == GD_OTHER_RULE) {
            size_t i = 0;
            while (i < len && isspace((unsigned char)line[i]))
                i++;
            if (i < len)
                gd_mx_skip(c, GD_SKIP(LINE_NOT_A_MATRIX_ISSUE));
        } else if (rc) {
            return rc;
        }
    }
    return r < 0 ? (err->code ? err->code : GD_ERR_DATA) : GD_OK;
}

struct gd_matrix_lines {
    mx_ctx c;
};

gd_matrix_lines *gd_matrix_lines_new(const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    gd_matrix_lines *m = calloc(1, sizeof *m);
    if (!m) {
        gd_error_oom(err);
        return NULL;
    }
    m->c.sink = sink;
    m->c.opts = opts;
    if (opts && opts->method_mapping && load_mapping(&m->c, opts->method_mapping, err)) {
        gd_matrix_lines_free(m);
        return NULL;
    }
    return m;
}

int gd_matrix_lines_feed(gd_matrix_lines *m, char *line, size_t len, long lineno, gd_error *err)
{
    if (!memmem(line, len, "tag[Trace_", 10))
        return GD_OTHER_RULE;
    m->c.line = lineno;
    m->c.col = 1;
    return issue_line(&m->c, line, len, err);
}

void gd_matrix_lines_free(gd_matrix_lines *m)
{
    if (!m)
        return;
    free_mapping(&m->c);
    free(m->c.stack);
    free(m->c.frames);
    free(m->c.buf);
    free(m);
}

static int probe(const unsigned char *h, size_t n, int eof)
{
    size_t i = gd_skip_ws(h, n, 0);
    if (i >= n)
        return 0;
    if (h[i] == '{' || h[i] == '[') {
        if (h[i] == '[')
            i = gd_skip_ws(h, n, i + 1);
        if (i >= n || h[i] != '{')
            return 0;
        json_t *o = json_loadb((const char *)h + i, n - i, JSON_DISABLE_EOF_CHECK, NULL);
        int score = 0;
        if (json_is_object(o)) {
            json_t *inner = json_object_get(o, "content");
            json_t *x = json_is_object(inner) ? inner : o;
            const char *tag = gd_mx_fstr(o, "tag");
            if (tag && strncmp(tag, "Trace_", 6) == 0)
                score = 95;
            else if (json_is_string(json_object_get(x, "tag")) &&
                     strncmp(gd_mx_fstr(x, "tag"), "Trace_", 6) == 0)
                score = 95;
            else if (!json_object_get(o, "tag") && json_object_get(o, "time") &&
                     gd_mx_issue_tag(o, NULL))
                score = 80;
        } else if (!eof && memmem(h, n, "\"tag\"", 5) && memmem(h, n, "\"Trace_", 7) &&
                   memmem(h, n, "\"time\"", 6)) {
            score = 70; /* a first issue larger than the head */
        }
        json_decref(o);
        return score;
    }
    /* text: an Issue.toString() line of the trace plugin */
    const unsigned char *p = memmem(h, n, "tag[Trace_", 10);
    if (p && memmem(p, n - (size_t)(p - h), "content[{", 9))
        return 85;
    return 0;
}

static int read_matrix(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    mx_ctx c = {.sink = sink, .opts = opts, .own_meta = 1};
    int rc = 0;
    if (opts && opts->method_mapping && (rc = load_mapping(&c, opts->method_mapping, err)))
        goto out;
    size_t n;
    int eof;
    const unsigned char *h = gd_input_peek(in, &n, &eof, err);
    if (!h) {
        rc = err->code ? err->code : GD_ERR_IO;
        goto out;
    }
    size_t i = gd_skip_ws(h, n, 0);
    rc = i < n && (h[i] == '{' || h[i] == '[') ? read_json(&c, in, err) : read_lines(&c, in, err);
out:
    free_mapping(&c);
    free(c.stack);
    free(c.frames);
    free(c.buf);
    return rc;
}

/* 1 when `l` (len bytes) is a methodMapping line "id,accessFlag,class method desc". */
static int mapping_line(const unsigned char *l, size_t len)
{
    size_t i = 0, d;
    for (int field = 0; field < 2; field++) {
        for (d = i; i < len && isdigit(l[i]); i++)
            ;
        if (i == d || i >= len || l[i] != ',')
            return 0;
        i++;
    }
    int spaces = 0;
    for (size_t k = i; k < len; k++) {
        if (l[k] == ' ')
            spaces++;
        else if (l[k] < 0x21 || l[k] == ',')
            return l[k] == '\r' && k == len - 1 && spaces == 2;
    }
    return spaces == 2;
}

/* The Matrix methodMapping (the build's method ids) is not a capture, but
 * it comes with the issues: say what it is and where it goes. */
static const char *not_capture(const unsigned char *h, size_t n, int eof)
{
    size_t i = 0, lines = 0;
    while (i < n && lines < 20) {
        const unsigned char *nl = memchr(h + i, '\n', n - i);
        if (!nl && !eof)
            break; /* a cut last line */
        size_t len = nl ? (size_t)(nl - (h + i)) : n - i;
        if (len && !mapping_line(h + i, len))
            return NULL;
        lines += len > 0;
        i += len + 1;
    }
    return lines ? "a Matrix methodMapping, the method ids of one build;"
                   " pass it as --method-mapping FILE when ingesting the Matrix issues"
                 : NULL;
}

const gd_reader gd_reader_matrix = {
    .name = "matrix",
    .description = "Tencent Matrix trace-canary issues: JSON content or logcat Issue lines",
    .probe = probe,
    .read = read_matrix,
    .not_capture = not_capture,
    .clock = "utc",
};

/* ==== one Tencent Matrix trace-canary issue into events. ==== */

/* ---- issue content ---- */

static double fnum(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (json_is_number(v))
        return json_number_value(v);
    if (json_is_string(v)) {
        char *e;
        double d = strtod(json_string_value(v), &e);
        if (e != json_string_value(v) && *e == 0 && isfinite(d))
            return d;
    }
    return GD_NONE;
}

static const char *gd_mx_fstr(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* A string field that is set: NULL when absent or "" (Matrix writes
 * "process":"" and "scene":"" when it does not know). */
static const char *fstr_set(json_t *o, const char *k)
{
    const char *v = gd_mx_fstr(o, k);
    return v && *v ? v : NULL;
}

/* Tag from the content, or from its fields when the content lacks one. */
static const char *gd_mx_issue_tag(json_t *o, const char *line_tag)
{
    const char *t = gd_mx_fstr(o, "tag");
    if (t)
        return t;
    if (line_tag)
        return line_tag;
    if (json_object_get(o, "stackKey") || (json_object_get(o, "detail") && json_object_get(o, "stack")))
        return "Trace_EvilMethod";
    if (json_object_get(o, "dropLevel") || json_object_get(o, "dropSum"))
        return "Trace_FPS";
    if (json_object_get(o, "startup_duration") || json_object_get(o, "application_create"))
        return "Trace_StartUp";
    return NULL;
}

/* Lays the `stack` lines ("depth,methodId,count,cost", pre-order) out in
 * time from `t0`: a node starts at its parent's start plus the costs of its
 * earlier siblings and lasts its cost (merged calls, count > 1, are one
 * interval of their summed cost). */
static int emit_methods(mx_ctx *c, const char *stack, double t0, gd_error *err)
{
    size_t top = 0;
    double root_next = t0;
    const char *p = stack;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        long depth, id, count;
        double cost;
        char tmp[128];
        int n = 0;
        if (len == 0 || len >= sizeof tmp) {
            if (len)
                gd_mx_skip(c, GD_SKIP(MATRIX_MALFORMED_STACK_LINE));
            p += len + (nl != NULL);
            continue;
        }
        memcpy(tmp, p, len);
        tmp[len] = 0;
        p += len + (nl != NULL);
        if (sscanf(tmp, " %ld,%ld,%ld,%lf %n", &depth, &id, &count, &cost, &n) != 4 ||
            tmp[n] != 0 || depth < 0 || depth > 100000 || !(cost >= 0 && cost <= 1e12)) {
            gd_mx_skip(c, GD_SKIP(MATRIX_MALFORMED_STACK_LINE));
            continue;
        }
        while (top > 0 && c->stack[top - 1].depth >= depth)
            top--;
        double start;
        if (top == 0) {
            start = root_next;
            root_next += cost;
        } else {
            start = c->stack[top - 1].next;
            c->stack[top - 1].next += cost;
        }
        if (gd_grow((void **)&c->stack, &c->stack_cap, top + 1, sizeof *c->stack, err))
            return GD_ERR_IO;
        c->stack[top].depth = (int)depth;
        c->stack[top].next = start;
        top++;

        char idbuf[32];
        gd_event ev;
        gd_event_init(&ev, GD_EV_METHOD);
        ev.line = c->line;
        ev.ts = start;
        ev.u.method.phase = GD_PHASE_UNKNOWN;
        ev.u.method.end_ts = start + cost;
        ev.u.method.depth = (int)depth;
        const mx_mapping_entry *m = gd_mx_lookup(c, id);
        if (m) {
            ev.u.method.cls = m->cls;
            ev.u.method.method = m->method;
            ev.u.method.desc = m->desc;
        } else if (id == MX_METHOD_ID_DISPATCH) {
            /* AppMethodBeat's pseudo method around each looper message */
            ev.u.method.cls = "matrix";
            ev.u.method.method = "dispatch";
        } else {
            snprintf(idbuf, sizeof idbuf, "%ld", id);
            ev.u.method.cls = "unknown";
            ev.u.method.method = idbuf;
        }
        int rc = gd_sink_event(c->sink, &ev, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* threadStack -> one sample of the main thread at `ts`, innermost first as
 * printed.  Matrix writes it in two shapes: Utils.getStack's
 * " \nat a.b.C:method(12)\n..." and StackTraceElement.toString() lines
 * "a.b.C.method(C.java:12)" (LAG, SIGNAL_ANR); "\tat ..." dumps also occur.
 * "at " is dropped, "Class:method(" becomes "Class.method(", lock lines
 * ("- waiting on <0x...>") are not frames. */
static int emit_thread_stack(mx_ctx *c, const char *text, double ts, gd_error *err)
{
    size_t tl = strlen(text);
    if (gd_grow((void **)&c->buf, &c->buf_cap, tl + 1, 1, err))
        return GD_ERR_IO;
    memcpy(c->buf, text, tl + 1);
    size_t k = 0;
    char *save = NULL;
    for (char *l = strtok_r(c->buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        while (*l == ' ' || *l == '\t')
            l++;
        size_t n = strlen(l);
        while (n && (l[n - 1] == ' ' || l[n - 1] == '\r' || l[n - 1] == '\t'))
            l[--n] = 0;
        if (strncmp(l, "at ", 3) == 0)
            l += 3;
        if (!*l || strncmp(l, "- ", 2) == 0)
            continue;
        char *par = strchr(l, '(');
        char *colon = strchr(l, ':');
        if (colon && (!par || colon < par))
            *colon = '.';
        if (gd_grow((void **)&c->frames, &c->frames_cap, k + 1, sizeof(char *), err))
            return GD_ERR_IO;
        c->frames[k++] = l;
    }
    if (k == 0) {
        gd_mx_skip(c, GD_SKIP(MATRIX_EMPTY_THREADSTACK));
        return 0;
    }
    gd_event ev;
    gd_event_init(&ev, GD_EV_STACK);
    ev.line = c->line;
    ev.ts = ts;
    ev.u.stack.frames = c->frames;
    ev.u.stack.nframes = k;
    return gd_sink_event(c->sink, &ev, err);
}

/* What an issue stands for (Trace_EvilMethod's "detail", Constants.Type). */
typedef enum {
    IS_FINDING, /* kept as reported, with its threadStack: LAG, LAG_IDLE_HANDLER,
                 * SIGNAL_ANR, SIGNAL_ANR_NATIVE_BACKTRACE, FPS, unknown */
    IS_EVIL,    /* NORMAL (or no detail): a dispatch of `cost` ending at `time` */
    IS_ANR,     /* ANR (LooperAnrTracer): the same, still running when reported */
    IS_STARTUP  /* STARTUP evil issue or Trace_StartUp: an app launch         */
} issue_kind;

static issue_kind kind_of(const char *tag, const char *detail)
{
    if (strcmp(tag, "Trace_StartUp") == 0)
        return IS_STARTUP;
    if (strcmp(tag, "Trace_EvilMethod") != 0)
        return IS_FINDING;
    /* ENTER (an activity's entry) and FULL (the method buffer filled up)
     * are older Matrix's evil methods: a dispatch of `cost` like NORMAL */
    if (!detail || strcmp(detail, "NORMAL") == 0 || strcmp(detail, "ENTER") == 0 ||
        strcmp(detail, "FULL") == 0)
        return IS_EVIL;
    if (strcmp(detail, "ANR") == 0)
        return IS_ANR;
    if (strcmp(detail, "STARTUP") == 0)
        return IS_STARTUP;
    return IS_FINDING;
}

/* The capture's app and device tier, from the first issue that names them
 * (Matrix files have no header).  Only when reading a Matrix file itself:
 * inside a logcat the logcat reader owns the meta. */
static int send_meta(mx_ctx *c, json_t *o, gd_error *err)
{
    if (c->meta_sent || !c->own_meta)
        return 0;
    const char *process = fstr_set(o, "process");
    if (!process)
        return 0;
    c->meta_sent = 1;
    json_t *mj = json_pack("{s:s}", "app", process);
    json_t *machine = json_object_get(o, "machine"); /* "MIDDLE", or 4 in older Matrix */
    if (mj && (json_is_string(machine) || json_is_integer(machine)))
        json_object_set(mj, "machine", machine);
    char *js = mj ? json_dumps(mj, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(mj);
    if (!js)
        return gd_error_oom(err);
    gd_meta m;
    gd_meta_init(&m);
    m.app = process;
    m.json = js;
    m.clock = "utc"; /* System.currentTimeMillis() */
    int rc = gd_sink_meta(c->sink, &m, err);
    free(js);
    return rc;
}

/* A launch: Trace_StartUp (startup_duration, is_warm_start_up) or the
 * STARTUP evil issue (cost, subType 1 cold / 2 warm) that Matrix sends
 * after it when the launch was over its threshold.  The second report of
 * one launch (same kind and duration within a minute) is not a second
 * launch. */
static int emit_startup(mx_ctx *c, json_t *o, const char *tag, double time, gd_error *err)
{
    int trace_startup = strcmp(tag, "Trace_StartUp") == 0;
    double total = trace_startup ? fnum(o, "startup_duration") : GD_NONE;
    if (!gd_has(total))
        total = fnum(o, "cost");
    if (!gd_has(total) || total < 0 || total > 1e9) {
        gd_mx_skip(c, GD_SKIP(MATRIX_STARTUP_WITHOUT_DURATION));
        return 0;
    }
    const char *kind = NULL;
    json_t *w = json_object_get(o, "is_warm_start_up");
    double sub = fnum(o, "subType");
    if (json_is_boolean(w))
        kind = json_is_true(w) ? "warm" : "cold";
    else if (sub == 1)
        kind = "cold";
    else if (sub == 2)
        kind = "warm";
    if (c->last_startup && total == c->last_total && fabs(time - c->last_time) <= 60000 &&
        (!kind || !c->last_kind || strcmp(kind, c->last_kind) == 0)) {
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_MATRIX_LAUNCH_REPORTED_TWICE), c->line, c->col);
        return 0;
    }
    c->last_startup = 1;
    c->last_total = total;
    c->last_time = time;
    c->last_kind = kind;
    gd_event ev;
    gd_event_init(&ev, GD_EV_STARTUP);
    ev.line = c->line;
    ev.ts = time;
    ev.u.startup.app = fstr_set(o, "process");
    ev.u.startup.activity = fstr_set(o, "scene");
    ev.u.startup.kind = kind;
    ev.u.startup.total_ms = total;
    ev.u.startup.source = "matrix";
    return gd_sink_event(c->sink, &ev, err);
}

static int gd_mx_do_issue(mx_ctx *c, json_t *o, const char *line_tag, gd_error *err)
{
    if (!json_is_object(o)) {
        gd_mx_skip(c, GD_SKIP(MATRIX_ISSUE_IS_NOT_AN_OBJECT));
        return 0;
    }
    /* Issue as a whole ({"type":0,"tag":..,"key":..,"content":{..}}, what
     * IssuePublisher stores and Issue.toString() prints): the content is
     * the issue; its own tag, else the wrapper's */
    json_t *inner = json_object_get(o, "content");
    if (json_is_object(inner)) {
        if (json_is_string(json_object_get(o, "tag")))
            line_tag = gd_mx_fstr(o, "tag");
        o = inner;
    }
    const char *tag = gd_mx_issue_tag(o, line_tag);
    if (!tag) {
        gd_mx_skip(c, GD_SKIP(MATRIX_NOT_A_TRACE_ISSUE));
        return 0;
    }
    double time = fnum(o, "time");
    if (!gd_has(time) || time <= 0) {
        gd_mx_skip(c, GD_SKIP(MATRIX_ISSUE_WITHOUT_TIME));
        return 0;
    }
    int rc = send_meta(c, o, err);
    if (rc)
        return rc;
    char *js = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
    if (!js)
        return gd_error_oom(err);
    const char *detail = gd_mx_fstr(o, "detail");
    issue_kind kind = kind_of(tag, detail);
    double cost = fnum(o, "cost");
    gd_event ev;
    gd_event_init(&ev, GD_EV_ISSUE);
    ev.line = c->line;
    ev.ts = time;
    ev.u.issue.tool = "matrix";
    ev.u.issue.type = tag;
    ev.u.issue.detail = detail;
    ev.u.issue.cost_ms = cost;
    ev.u.issue.json = js;
    if (strcmp(tag, "Trace_FPS") == 0) {
        ev.u.issue.detail = gd_mx_fstr(o, "scene");
    } else if (strcmp(tag, "Trace_StartUp") == 0) {
        json_t *w = json_object_get(o, "is_warm_start_up");
        ev.u.issue.detail = json_is_boolean(w) ? (json_is_true(w) ? "warm" : "cold") : detail;
        if (!gd_has(cost))
            ev.u.issue.cost_ms = fnum(o, "startup_duration");
    }
    rc = gd_sink_event(c->sink, &ev, err);
    if (rc == 0 && kind == IS_STARTUP)
        rc = emit_startup(c, o, tag, time, err);
    if (rc == 0 && (kind == IS_EVIL || kind == IS_ANR)) {
        if (!gd_has(cost) || cost < 0) {
            gd_mx_skip(c, kind == IS_ANR ? GD_SKIP(MATRIX_ANR_WITHOUT_COST) : GD_SKIP(MATRIX_EVIL_METHOD_WITHOUT_COST));
        } else {
            double t0 = time - cost;
            gd_event_init(&ev, GD_EV_DISPATCH);
            ev.line = c->line;
            ev.ts = t0;
            ev.u.dispatch.dur = cost;
            ev.u.dispatch.msg = gd_mx_fstr(o, "scene");
            /* an ANR is reported while its message still runs */
            ev.u.dispatch.unfinished = kind == IS_ANR;
            rc = gd_sink_event(c->sink, &ev, err);
        }
    }
    /* the method tree of an evil method, an ANR or a slow launch, laid out
     * as ending at the report */
    const char *stack = gd_mx_fstr(o, "stack");
    if (rc == 0 && stack && kind != IS_FINDING && gd_has(cost) && cost >= 0)
        rc = emit_methods(c, stack, time - cost, err);
    const char *ts = gd_mx_fstr(o, "threadStack");
    if (rc == 0 && ts && strcmp(tag, "Trace_EvilMethod") == 0)
        rc = emit_thread_stack(c, ts, time, err);
    free(js);
    return rc;
}
