/* uiautomator.c - reader of `uiautomator dump` XML: one bounds-only view dump per <hierarchy>. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "viewbuf.h"
#include "core/skip_reasons.h"

/* What the dump gives: absolute screen bounds, class, resource-id, text,
 * package; no paint information (has_paint 0, layers -1), no capture time
 * (ts 0).  visible is 0 only when a node says visible-to-user="false" (the
 * attribute Appium's variant adds); plain uiautomator lists visible nodes
 * only.  screen = the largest right/bottom edge of the top-level nodes
 * (several windows may be dumped side by side).  window = the package of
 * the first top-level node.
 *
 * The XML is read by a small streaming tokenizer (no DOM): elements,
 * attributes in any order with ' or " quotes, the five named entities and
 * numeric character references, self-closing tags; the declaration,
 * processing instructions, comments, DOCTYPE and CDATA are stepped over;
 * text content is ignored. */

#define MAX_TAG ((size_t)16 << 20)
#define MAX_DEPTH 4096
#define MAX_ATTRS 64

typedef struct xin {
    gd_input *in;
    unsigned char buf[65536];
    size_t pos, len;
    int eof;
    long line, col;
} xin;

typedef struct attr {
    char *name, *value;
    size_t vlen;
} attr;

typedef struct ua {
    const gd_sink *sink;
    xin x;
    char *tag;               /* raw text between '<' and '>'              */
    size_t tlen, tcap;
    long tag_line, tag_col;
    attr attrs[MAX_ATTRS];
    size_t nattr;
    gd_viewbuf vb;
    int in_dump;
    long dump_line;
    int64_t stack[MAX_DEPTH];
    size_t depth;            /* open <node> elements                      */
    size_t other_depth;      /* open unknown elements inside the dump     */
    int32_t scr_w, scr_h;
    char window[256];
    int have_window;
} ua;

/* Next byte or -1 at end; -2 on a read error. */
static int xgetc(ua *u, gd_error *err)
{
    xin *x = &u->x;
    if (x->pos == x->len) {
        if (x->eof)
            return -1;
        ssize_t r = gd_input_read(x->in, x->buf, sizeof x->buf, err);
        if (r < 0)
            return -2;
        if (r == 0) {
            x->eof = 1;
            return -1;
        }
        x->pos = 0;
        x->len = (size_t)r;
    }
    int c = x->buf[x->pos++];
    if (c == '\n') {
        x->line++;
        x->col = 0;
    } else {
        x->col++;
    }
    return c;
}

static int tag_put(ua *u, int c, gd_error *err)
{
    if (u->tlen + 2 > u->tcap) {
        if (u->tlen + 2 > MAX_TAG)
            return gd_error_set(err, GD_ERR_DATA, u->tag_line, u->tag_col,
                                "xml tag longer than %zu bytes", (size_t)MAX_TAG);
        size_t nc = u->tcap ? u->tcap * 2 : 4096;
        char *p = realloc(u->tag, nc);
        if (!p)
            return gd_error_oom_at(err, u->tag_line, u->tag_col);
        u->tag = p;
        u->tcap = nc;
    }
    u->tag[u->tlen++] = (char)c;
    return 0;
}

/* Skips until the terminator `end` (e.g. "-->"). 0 ok, -1 at end of input. */
static int skip_until(ua *u, const char *end, gd_error *err)
{
    size_t n = strlen(end), m = 0;
    for (;;) {
        int c = xgetc(u, err);
        if (c < 0)
            return c;
        if (c == end[m]) {
            if (++m == n)
                return 0;
        } else {
            m = (c == end[0]) ? 1 : 0;
        }
    }
}

/* Reads the next tag into u->tag (without '<' and '>').  Returns 1 for a
 * tag, 0 at end of input, or an error code (negative-free: GD_ERR_*+100). */
enum { TAG_EOF = 0, TAG_OK = 1, TAG_ERR = 2 };

static int next_tag(ua *u, gd_error *err)
{
    int c;
    for (;;) {
        /* text: skipped */
        while ((c = xgetc(u, err)) >= 0 && c != '<')
            ;
        if (c == -2)
            return TAG_ERR;
        if (c < 0)
            return TAG_EOF;
        u->tag_line = u->x.line + 1;
        u->tag_col = u->x.col;
        u->tlen = 0;
        c = xgetc(u, err);
        if (c == '?') {
            if (skip_until(u, "?>", err) < 0)
                goto truncated;
            continue;
        }
        if (c == '!') {
            int c2 = xgetc(u, err);
            int c3 = c2 == '-' ? xgetc(u, err) : 0;
            if (c2 == '-' && c3 == '-') {
                if (skip_until(u, "-->", err) < 0)
                    goto truncated;
            } else if (c2 == '[') {
                if (skip_until(u, "]]>", err) < 0)
                    goto truncated;
            } else if (c2 >= 0 && c2 != '>') {
                if (skip_until(u, ">", err) < 0)
                    goto truncated;
            }
            continue;
        }
        char q = 0;
        while (c >= 0) {
            if (q) {
                if (c == q)
                    q = 0;
            } else if (c == '"' || c == '\'') {
                q = (char)c;
            } else if (c == '>') {
                break;
            }
            if (tag_put(u, c, err))
                return TAG_ERR;
            c = xgetc(u, err);
        }
        if (c == -2)
            return TAG_ERR;
        if (c < 0)
            goto truncated;
        /* the terminator, through tag_put: an empty first tag ("<>") has
         * no buffer yet */
        if (tag_put(u, 0, err))
            return TAG_ERR;
        u->tlen--;
        return TAG_OK;
    }
truncated:
    if (err && err->code)
        return TAG_ERR;
    gd_sink_skip(u->sink, GD_SKIP(UIAUTOMATOR_TRUNCATED_DOCUMENT), u->tag_line, u->tag_col);
    return TAG_EOF;
}

/* Decodes entities of s[0..n) in place; returns the new length. */
static size_t decode_entities(char *s, size_t n)
{
    size_t i = 0, o = 0;
    while (i < n) {
        if (s[i] != '&') {
            s[o++] = s[i++];
            continue;
        }
        char *semi = memchr(s + i, ';', n - i < 12 ? n - i : 12);
        if (!semi) {
            s[o++] = s[i++];
            continue;
        }
        size_t el = (size_t)(semi - (s + i)) + 1;
        unsigned long cp = 0;
        int ok = 1;
        const char *e = s + i + 1;
        if (el == 5 && strncmp(e, "amp;", 4) == 0)
            cp = '&';
        else if (el == 4 && strncmp(e, "lt;", 3) == 0)
            cp = '<';
        else if (el == 4 && strncmp(e, "gt;", 3) == 0)
            cp = '>';
        else if (el == 6 && strncmp(e, "quot;", 5) == 0)
            cp = '"';
        else if (el == 6 && strncmp(e, "apos;", 5) == 0)
            cp = '\'';
        else if (e[0] == '#') {
            char *end;
            int hex = e[1] == 'x' || e[1] == 'X';
            cp = strtoul(e + 1 + hex, &end, hex ? 16 : 10);
            ok = end == semi && end > e + 1 + hex && cp > 0 && cp <= 0x10FFFF &&
                 !(cp >= 0xD800 && cp <= 0xDFFF);
        } else
            ok = 0;
        if (!ok) {
            s[o++] = s[i++];
            continue;
        }
        /* UTF-8 encoding is never longer than the reference it replaces */
        if (cp < 0x80)
            s[o++] = (char)cp;
        else if (cp < 0x800) {
            s[o++] = (char)(0xC0 | (cp >> 6));
            s[o++] = (char)(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            s[o++] = (char)(0xE0 | (cp >> 12));
            s[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            s[o++] = (char)(0x80 | (cp & 0x3F));
        } else {
            s[o++] = (char)(0xF0 | (cp >> 18));
            s[o++] = (char)(0x80 | ((cp >> 12) & 0x3F));
            s[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            s[o++] = (char)(0x80 | (cp & 0x3F));
        }
        i += el;
    }
    return o;
}

/* Splits u->tag (a start tag) into name and attributes, in place.  Returns
 * the name; *self_close set for "<x/>". NULL when malformed. */
static const char *parse_start(ua *u, int *self_close)
{
    char *s = u->tag, *end = u->tag + u->tlen;
    *self_close = 0;
    if (end > s && end[-1] == '/') {
        *self_close = 1;
        *--end = 0;
    }
    char *name = s;
    while (s < end && !isspace((unsigned char)*s))
        s++;
    if (s == name)
        return NULL;
    if (s < end)
        *s++ = 0;
    u->nattr = 0;
    while (s < end) {
        while (s < end && isspace((unsigned char)*s))
            s++;
        if (s >= end)
            break;
        char *an = s;
        while (s < end && *s != '=' && !isspace((unsigned char)*s))
            s++;
        char *ane = s;
        while (s < end && isspace((unsigned char)*s))
            s++;
        if (s >= end || *s != '=')
            return NULL;
        s++;
        while (s < end && isspace((unsigned char)*s))
            s++;
        if (s >= end || (*s != '"' && *s != '\''))
            return NULL;
        char q = *s++;
        char *v = s;
        while (s < end && *s != q)
            s++;
        if (s >= end)
            return NULL;
        *ane = 0;
        *s++ = 0;
        if (u->nattr < MAX_ATTRS) {
            attr *a = &u->attrs[u->nattr++];
            a->name = an;
            a->value = v;
            a->vlen = decode_entities(v, strlen(v));
            v[a->vlen] = 0;
        }
    }
    return name;
}

static const attr *get_attr(const ua *u, const char *name)
{
    for (size_t i = 0; i < u->nattr; i++)
        if (strcmp(u->attrs[i].name, name) == 0)
            return &u->attrs[i];
    return NULL;
}

/* "[l,t][r,b]" */
static int parse_bounds(const char *s, int32_t r[4])
{
    long v[4];
    char *e;
    for (int i = 0; i < 2; i++) {
        if (*s++ != '[')
            return -1;
        v[2 * i] = strtol(s, &e, 10);
        if (e == s || *e != ',')
            return -1;
        s = e + 1;
        v[2 * i + 1] = strtol(s, &e, 10);
        if (e == s || *e != ']')
            return -1;
        s = e + 1;
    }
    for (int i = 0; i < 4; i++) {
        if (v[i] > 1000000000L || v[i] < -1000000000L)
            return -1;
        r[i] = (int32_t)v[i];
    }
    return 0;
}

static void begin_dump(ua *u)
{
    gd_viewbuf_reset(&u->vb);
    u->in_dump = 1;
    u->dump_line = u->tag_line;
    u->depth = u->other_depth = 0;
    u->scr_w = u->scr_h = 0;
    u->have_window = 0;
}

static int end_dump(ua *u, gd_error *err)
{
    if (!u->in_dump)
        return 0;
    u->in_dump = 0;
    if (u->depth)
        gd_sink_skip(u->sink, GD_SKIP(UIAUTOMATOR_UNCLOSED_NODE), u->tag_line, u->tag_col);
    gd_event ev;
    gd_event_init(&ev, GD_EV_VIEW_DUMP);
    ev.ts = 0;
    ev.line = u->dump_line;
    gd_view_dump_ev *d = &ev.u.view_dump;
    d->has_paint = 0;
    d->views = gd_viewbuf_finish(&u->vb);
    d->nviews = u->vb.n;
    d->screen_w = u->scr_w;
    d->screen_h = u->scr_h;
    d->window = u->have_window ? u->window : NULL;
    return gd_sink_event(u->sink, &ev, err);
}

static int start_node(ua *u, int self_close, gd_error *err)
{
    if (!u->in_dump)
        begin_dump(u);
    if (u->depth >= MAX_DEPTH)
        return gd_error_set(err, GD_ERR_DATA, u->tag_line, u->tag_col,
                            "view tree deeper than %d nodes", MAX_DEPTH);
    gd_view v = {0};
    v.id = (int64_t)u->vb.n + 1;
    v.parent = u->depth ? u->stack[u->depth - 1] : 0;
    v.layers = -1;
    v.visible = 1;
    const attr *b = get_attr(u, "bounds");
    if (!b || parse_bounds(b->value, v.rect) != 0)
        gd_sink_skip(u->sink, GD_SKIP(UIAUTOMATOR_NODE_WITHOUT_BOUNDS), u->tag_line, u->tag_col);
    const attr *vis = get_attr(u, "visible-to-user");
    if (vis && strcmp(vis->value, "false") == 0)
        v.visible = 0;
    const attr *cls = get_attr(u, "class"), *res = get_attr(u, "resource-id"),
               *txt = get_attr(u, "text");
    if (res && !res->vlen)
        res = NULL;
    if (txt && !txt->vlen)
        txt = NULL;
    if (gd_viewbuf_add(&u->vb, &v, cls ? cls->value : NULL, cls ? cls->vlen : 0,
                       res ? res->value : NULL, res ? res->vlen : 0, txt ? txt->value : NULL,
                       txt ? txt->vlen : 0, u->tag_line, err) < 0)
        return err->code;
    if (!u->depth) {
        if (v.rect[2] > u->scr_w)
            u->scr_w = v.rect[2];
        if (v.rect[3] > u->scr_h)
            u->scr_h = v.rect[3];
        const attr *pkg = get_attr(u, "package");
        if (pkg && pkg->vlen && !u->have_window) {
            size_t n = gd_sink_cut(u->sink, pkg->value, pkg->vlen, sizeof u->window - 1, u->tag_line);
            memcpy(u->window, pkg->value, n);
            u->window[n] = 0;
            u->have_window = 1;
        }
    }
    if (!self_close)
        u->stack[u->depth++] = v.id;
    return 0;
}

static int read_ui(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    (void)opts;
    ua *u = calloc(1, sizeof *u);
    if (!u)
        return gd_error_oom(err);
    u->sink = sink;
    u->x.in = in;
    gd_viewbuf_init(&u->vb, 0);
    int rc = GD_OK, t;
    /* a UTF-8 BOM is text before the first tag: skipped with it */
    while (rc == GD_OK && (t = next_tag(u, err)) == TAG_OK) {
        if (u->tag[0] == '/') {
            const char *name = u->tag + 1;
            size_t n = strcspn(name, " \t\r\n");
            if (n == 4 && strncmp(name, "node", 4) == 0) {
                if (u->other_depth)
                    gd_sink_skip(sink, GD_SKIP(UIAUTOMATOR_UNEXPECTED_END_TAG), u->tag_line, u->tag_col);
                else if (u->depth)
                    u->depth--;
                else
                    gd_sink_skip(sink, GD_SKIP(UIAUTOMATOR_UNEXPECTED_END_TAG), u->tag_line, u->tag_col);
            } else if (n == 9 && strncmp(name, "hierarchy", 9) == 0) {
                rc = end_dump(u, err);
            } else if (u->other_depth) {
                u->other_depth--;
            }
            continue;
        }
        int self_close;
        const char *name = parse_start(u, &self_close);
        if (!name) {
            gd_sink_skip(sink, GD_SKIP(UIAUTOMATOR_MALFORMED_TAG), u->tag_line, u->tag_col);
            continue;
        }
        if (strcmp(name, "hierarchy") == 0) {
            rc = end_dump(u, err);
            if (rc == GD_OK)
                begin_dump(u);
            if (self_close && rc == GD_OK)
                rc = end_dump(u, err);
        } else if (strcmp(name, "node") == 0 && !u->other_depth) {
            rc = start_node(u, self_close, err);
        } else {
            gd_sink_skip(sink, GD_SKIP(UIAUTOMATOR_UNKNOWN_ELEMENT), u->tag_line, u->tag_col);
            if (!self_close && u->in_dump)
                u->other_depth++;
        }
    }
    if (rc == GD_OK && t == TAG_ERR)
        rc = err->code ? err->code : GD_ERR_IO;
    if (rc == GD_OK)
        rc = end_dump(u, err);
    gd_viewbuf_free(&u->vb);
    free(u->tag);
    free(u);
    return rc;
}

static int probe(const unsigned char *h, size_t n, int eof)
{
    (void)eof;
    size_t i = 0;
    if (n >= 3 && h[0] == 0xEF && h[1] == 0xBB && h[2] == 0xBF)
        i = 3;
    /* the declaration, processing instructions and comments may come first */
    for (;;) {
        while (i < n && isspace(h[i]))
            i++;
        const char *end = NULL;
        if (n - i >= 2 && memcmp(h + i, "<?", 2) == 0)
            end = "?>";
        else if (n - i >= 4 && memcmp(h + i, "<!--", 4) == 0)
            end = "-->";
        if (!end)
            break;
        size_t el = strlen(end), j = i + 2;
        while (j + el <= n && memcmp(h + j, end, el) != 0)
            j++;
        if (j + el > n)
            return 0;
        i = j + el;
    }
    if (n - i >= 10 && memcmp(h + i, "<hierarchy", 10) == 0 &&
        (n - i == 10 || isspace(h[i + 10]) || h[i + 10] == '>' || h[i + 10] == '/'))
        return 95;
    return 0;
}

const gd_reader gd_reader_uiautomator = {
    .name = "uiautomator",
    .description = "`uiautomator dump` window XML: view bounds (no paint data)",
    .probe = probe,
    .read = read_ui,
};
