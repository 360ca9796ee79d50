/* matrix.c - reader of Tencent Matrix trace-canary issues (JSON content or logcat Issue lines). */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jsonstream.h"
#include "reader.h"
#include "reader/matrix.h"
#include "core/util.h"
#include "reader/matrix_int.h"

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
            gd_sink_skip(c->sink, "matrix: bad method mapping line", gd_input_lineno(in), 1);
            continue;
        }
        char *rest = strchr(e + 1, ',');
        if (!rest || !rest[1]) {
            gd_sink_skip(c->sink, "matrix: bad method mapping line", gd_input_lineno(in), 1);
            continue;
        }
        if (gd_grow((void **)&c->map, &cap, c->nmap + 1, sizeof *c->map, err)) {
            gd_input_close(in);
            return GD_ERR_IO;
        }
        char *s = strdup(rest + 1);
        if (!s) {
            gd_input_close(in);
            return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
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
        gd_mx_skip(c, "matrix: content is not JSON");
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
                gd_mx_skip(c, "line: not a matrix issue");
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
        gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
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

static size_t skip_ws(const unsigned char *h, size_t n, size_t i)
{
    while (i < n && (h[i] == ' ' || h[i] == '\n' || h[i] == '\r' || h[i] == '\t'))
        i++;
    return i;
}

static int probe(const unsigned char *h, size_t n, int eof)
{
    size_t i = skip_ws(h, n, 0);
    if (i >= n)
        return 0;
    if (h[i] == '{' || h[i] == '[') {
        if (h[i] == '[')
            i = skip_ws(h, n, i + 1);
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
    size_t i = skip_ws(h, n, 0);
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
