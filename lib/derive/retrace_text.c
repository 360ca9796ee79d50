/* retrace_text.c - stack-trace text retraced line by line: the frame and class-name matching of `godeye retrace`. */
#include "derive/retrace_text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

struct gd_retrace_text {
    const gd_mapping *m;
    int verbose;
    long outline_pos;    /* the outline frame's position, for the next frame */
    char thrown[512];    /* the exception class of the stack being read      */
    size_t thrown_len;
    int top;             /* the next frame is the top frame of that stack    */
    char **lines;        /* the formatted frames of one retraced frame       */
    size_t nlines, linecap;
    struct alt_key *order;
    size_t ordercap;
    char *cur;           /* the output line being built                      */
    size_t curcap, curlen;
    gd_retrace_res res;
    gd_retrace_line_fn out;
    void *out_ctx;
    int out_rc;          /* the callback's nonzero return, once it stopped   */
};

/* One alternative of a retraced frame, as sorted (R8's order). */
typedef struct alt_key {
    size_t i;
    const gd_retrace_res *res;
    char *const *lines;
} alt_key;

static int grow(void **a, size_t *cap, size_t need, size_t elem)
{
    gd_error e = {0};
    return gd_grow(a, cap, need, elem, &e);
}

static int emit(gd_retrace_text *t, const char *s)
{
    int rc = t->out(t->out_ctx, s);
    if (rc) {
        t->out_rc = rc;
        return -1;
    }
    return 0;
}

static int cur_add(gd_retrace_text *t, const char *s, size_t n)
{
    if (t->curlen + n + 1 > t->curcap && grow((void **)&t->cur, &t->curcap, t->curlen + n + 1, 1))
        return -1;
    memcpy(t->cur + t->curlen, s, n);
    t->curlen += n;
    t->cur[t->curlen] = 0;
    return 0;
}

static int cur_adds(gd_retrace_text *t, const char *s)
{
    return cur_add(t, s, strlen(s));
}

static int is_word(int c)
{
    return isalnum(c) || c == '_';
}

/* Trailing text R8 keeps after a frame: blanks (no-break spaces too) or a
 * logback "~[jar:1.0]" packaging note. */
static int frame_tail(const char *r)
{
    while (*r == ' ' || *r == '\t' || (r[0] == '\xC2' && r[1] == '\xA0'))
        r += *r == '\xC2' ? 2 : 1;
    if (!*r)
        return 1;
    size_t n = strlen(r);
    return r[0] == '~' && r[1] == '[' && r[n - 1] == ']';
}

static int st_add(gd_retrace_text *t, const char *s)
{
    if (grow((void **)&t->lines, &t->linecap, t->nlines + 1, sizeof *t->lines))
        return -1;
    char *d = strdup(s);
    if (!d)
        return -1;
    t->lines[t->nlines++] = d;
    return 0;
}

/* Alternatives in R8's order: by their text, frame by frame. */
static int cmp_alt(const void *x, const void *y)
{
    const alt_key *a = x, *b = y;
    const gd_retrace_res *r = a->res;
    size_t i = a->i, j = b->i;
    size_t ni = r->alt[i + 1] - r->alt[i], nj = r->alt[j + 1] - r->alt[j];
    for (size_t k = 0; k < ni && k < nj; k++) {
        int c = strcmp(a->lines[r->alt[i] + k], a->lines[r->alt[j] + k]);
        if (c)
            return c;
    }
    return ni < nj ? -1 : ni > nj ? 1 : i < j ? -1 : i > j;
}

/* Writes the alternatives as R8 does: depth by depth, the first of each
 * depth as it is, each other one (distinct) after "<OR> " following the
 * line's indentation. */
static int print_alts(gd_retrace_text *t, const gd_retrace_res *res)
{
    if (grow((void **)&t->order, &t->ordercap, res->nalt + 1, sizeof *t->order))
        return -1;
    for (size_t i = 0; i < res->nalt; i++)
        t->order[i] = (alt_key){i, res, t->lines};
    qsort(t->order, res->nalt, sizeof *t->order, cmp_alt);
    size_t depth = 0;
    for (size_t i = 0; i < res->nalt; i++)
        if (res->alt[i + 1] - res->alt[i] > depth)
            depth = res->alt[i + 1] - res->alt[i];
    for (size_t d = 0; d < depth; d++) {
        int first = 1;
        for (size_t a = 0; a < res->nalt; a++) {
            size_t i = t->order[a].i;
            if (res->alt[i] + d >= res->alt[i + 1])
                continue;
            const char *s = t->lines[res->alt[i] + d];
            int dup = 0;
            for (size_t b = 0; b < a && !dup; b++) {
                size_t j = t->order[b].i;
                dup = res->alt[j] + d < res->alt[j + 1] && !strcmp(t->lines[res->alt[j] + d], s);
            }
            if (dup)
                continue;
            if (first) {
                if (emit(t, s))
                    return -1;
                first = 0;
                continue;
            }
            size_t w = 0;
            while (s[w] == ' ' || s[w] == '\t')
                w++;
            t->curlen = 0;
            if (cur_add(t, s, w) || cur_adds(t, "<OR> ") || cur_adds(t, s + w) || emit(t, t->cur))
                return -1;
        }
    }
    return 0;
}

/* The "at CLASS.METHOD(SOURCE[:LINE])" form; 1 when the line was written
 * (or dropped), 0 when it is no frame the mapping knows, -1 on failure. */
static int try_at(gd_retrace_text *t, const char *line, gd_error *err)
{
    gd_retrace_res *res = &t->res;
    for (const char *p = strstr(line, "at"); p; p = strstr(p + 1, "at")) {
        if (p > line && is_word((unsigned char)p[-1]))
            continue;
        const char *q = p + 2;
        if (!isspace((unsigned char)*q))
            continue;
        while (isspace((unsigned char)*q))
            q++;
        gd_frame_parts fp;
        if (!gd_frame_split(q, &fp) || !frame_tail(fp.rest))
            continue;
        int native = fp.flen == 13 && !memcmp(fp.file, "Native Method", 13);
        gd_retrace_in in = {t->outline_pos, t->top ? t->thrown : NULL, t->thrown_len,
                            fp.flen > 3 && !memcmp(fp.file + fp.flen - 3, ".kt", 3), t->verbose};
        t->top = 0;
        t->outline_pos = -1;
        if (gd_retrace_frame_in(t->m, fp.cls, fp.clen, fp.method, fp.mlen, fp.line, &in, res, err))
            return -1;
        if (res->outline)
            t->outline_pos = res->outline_pos;
        if (res->nalt == 0)
            return res->dropped; /* dropped, or not in the mapping: as it is */
        for (size_t i = 0; i < t->nlines; i++)
            free(t->lines[i]);
        t->nlines = 0;
        for (size_t i = 0; i < res->n; i++) {
            const gd_rframe *f = &res->f[i];
            char num[32] = "";
            if (f->line >= 0 && !native)
                snprintf(num, sizeof num, ":%ld", f->line);
            t->curlen = 0;
            if (cur_add(t, line, (size_t)(fp.cls - line)) || cur_adds(t, f->cls) || cur_adds(t, ".") ||
                (t->verbose && f->sig ? cur_adds(t, f->sig)
                 : f->method          ? cur_adds(t, f->method)
                                      : cur_add(t, fp.method, fp.mlen)) ||
                cur_adds(t, "(") || cur_adds(t, native ? "Native Method" : f->file) || cur_adds(t, num) ||
                cur_adds(t, ")") || cur_adds(t, fp.rest) || st_add(t, t->cur))
                return -1;
        }
        return print_alts(t, res) ? -1 : 1;
    }
    return 0;
}

static int class_char(int c)
{
    return c && !isspace(c) && !strchr("\":./()[]", c);
}

/* Class at s: (part.)*part followed by the end, ':' or ']'; its
 * end or NULL. */
static const char *class_at(const char *s)
{
    const char *e = s;
    for (;;) {
        const char *b = e;
        while (class_char((unsigned char)*e))
            e++;
        if (e == b)
            return NULL;
        if (*e == '.' && class_char((unsigned char)e[1]))
            e++;
        else
            break;
    }
    return *e == 0 || *e == ':' || *e == ']' ? e : NULL;
}

/* Class names outside frames: at the start of the line (after blanks)
 * and after each ": " or "\" " (exception lines, "Caused by: ",
 * "Suppressed: ", "[CIRCULAR REFERENCE: ", messages naming a class);
 * every one the mapping knows is replaced.  The first class-shaped name
 * is the stack's exception (t->thrown).  1 when written, 0 when nothing
 * was replaced, -1 on failure. */
static int try_class(gd_retrace_text *t, const char *line)
{
    int any = 0, named = 0;
    const char *copied = line;
    t->curlen = 0;
    const char *s = line;
    while (*s == ' ' || *s == '\t')
        s++;
    for (;;) {
        const char *e = class_at(s);
        if (e) {
            const char *orig = gd_mapping_class(t->m, s, (size_t)(e - s));
            if (!named && memchr(s, '.', (size_t)(e - s))) {
                const char *c = orig ? orig : s;
                size_t cl = orig ? strlen(orig) : (size_t)(e - s);
                if (cl < sizeof t->thrown) {
                    memcpy(t->thrown, c, cl);
                    t->thrown_len = cl;
                    t->top = 1;
                    named = 1;
                }
            }
            if (orig) {
                if (cur_add(t, copied, (size_t)(s - copied)) || cur_adds(t, orig))
                    return -1;
                copied = e;
                any = 1;
            }
        }
        const char *n = s;
        for (; *n; n++)
            if ((*n == ':' || *n == '"') && (n[1] == ' ' || n[1] == '\t'))
                break;
        if (!*n)
            break;
        s = n + 1;
        while (*s == ' ' || *s == '\t')
            s++;
    }
    if (!any)
        return 0;
    if (cur_adds(t, copied) || emit(t, t->cur))
        return -1;
    return 1;
}

gd_retrace_text *gd_retrace_text_new(const gd_mapping *m, int verbose)
{
    gd_retrace_text *t = calloc(1, sizeof *t);
    if (t) {
        t->m = m;
        t->verbose = verbose;
        t->outline_pos = -1;
    }
    return t;
}

void gd_retrace_text_free(gd_retrace_text *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nlines; i++)
        free(t->lines[i]);
    free(t->lines);
    free(t->order);
    free(t->cur);
    gd_retrace_res_free(&t->res);
    free(t);
}

int gd_retrace_text_line(gd_retrace_text *t, const char *line, gd_retrace_line_fn out, void *ctx,
                         gd_error *err)
{
    t->out = out;
    t->out_ctx = ctx;
    t->out_rc = 0;
    int done = try_at(t, line, err);
    if (!done)
        done = try_class(t, line);
    if (!done && emit(t, line))
        done = -1;
    if (done >= 0)
        return GD_OK;
    if (t->out_rc)
        return t->out_rc;
    if (err && err->code)
        return err->code;
    return gd_error_oom(err);
}
