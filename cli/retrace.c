/* retrace.c - `godeye retrace`: obfuscated stack-trace text back to the
 * original names through an R8/ProGuard mapping (a filter, like retrace). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"
#include "core/escape.h"
#include "core/util.h"
#include "derive/retrace.h"

static const char *const usage_line = "godeye retrace --mapping FILE [--verbose] [FILE...]";

typedef struct rt_out {
    FILE *f;
    int tty;             /* control characters escaped (tabs kept)           */
    char *cur;
    size_t curcap, curlen;
} rt_out;

static void put_line(rt_out *o, const char *s)
{
    if (!o->tty) {
        fputs(s, o->f);
    } else {
        for (const char *p = s; *p;) {
            size_t k = strcspn(p, "\t");
            char seg[4096];
            while (k) {
                size_t n = k < 1000 ? k : 1000;
                memcpy(seg, p, n);
                seg[n] = 0;
                gd_fputs_escaped(seg, o->f);
                p += n;
                k -= n;
            }
            if (*p == '\t')
                fputc(*p++, o->f);
        }
    }
    fputc('\n', o->f);
}

static int cur_add(rt_out *o, const char *s, size_t n)
{
    if (o->curlen + n + 1 > o->curcap) {
        size_t c = (o->curlen + n + 1) * 2;
        char *p = realloc(o->cur, c);
        if (!p)
            return -1;
        o->cur = p;
        o->curcap = c;
    }
    memcpy(o->cur + o->curlen, s, n);
    o->curlen += n;
    o->cur[o->curlen] = 0;
    return 0;
}

static int cur_adds(rt_out *o, const char *s)
{
    return cur_add(o, s, strlen(s));
}

static int gd_grow_plain(void **a, size_t *cap, size_t need, size_t elem)
{
    gd_error e = {0};
    return gd_grow(a, cap, need, elem, &e);
}

typedef struct rt_state {
    int verbose;
    long outline_pos;    /* the outline frame's position, for the next frame */
    char thrown[512];    /* the exception class of the stack being read      */
    size_t thrown_len;
    int top;             /* the next frame is the top frame of that stack    */
    char **lines;        /* the formatted frames of one retraced frame       */
    size_t nlines, linecap;
    size_t *order;
    size_t ordercap;
} rt_state;

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

static int st_add(rt_state *st, const char *s)
{
    if (gd_grow_plain((void **)&st->lines, &st->linecap, st->nlines + 1, sizeof *st->lines))
        return -1;
    char *d = strdup(s);
    if (!d)
        return -1;
    st->lines[st->nlines++] = d;
    return 0;
}

static const gd_retrace_res *sort_res;
static char **sort_lines;

/* Alternatives in R8's order: by their text, frame by frame. */
static int cmp_alt(const void *x, const void *y)
{
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    size_t ni = sort_res->alt[i + 1] - sort_res->alt[i], nj = sort_res->alt[j + 1] - sort_res->alt[j];
    for (size_t k = 0; k < ni && k < nj; k++) {
        int c = strcmp(sort_lines[sort_res->alt[i] + k], sort_lines[sort_res->alt[j] + k]);
        if (c)
            return c;
    }
    return ni < nj ? -1 : ni > nj ? 1 : i < j ? -1 : i > j;
}

/* Prints the alternatives as R8 does: depth by depth, the first of each
 * depth as it is, each other one (distinct) after "<OR> " following the
 * line's indentation. */
static int print_alts(rt_state *st, const gd_retrace_res *res, rt_out *o)
{
    if (gd_grow_plain((void **)&st->order, &st->ordercap, res->nalt + 1, sizeof *st->order))
        return -1;
    for (size_t i = 0; i < res->nalt; i++)
        st->order[i] = i;
    sort_res = res;
    sort_lines = st->lines;
    qsort(st->order, res->nalt, sizeof *st->order, cmp_alt);
    size_t depth = 0;
    for (size_t i = 0; i < res->nalt; i++)
        if (res->alt[i + 1] - res->alt[i] > depth)
            depth = res->alt[i + 1] - res->alt[i];
    for (size_t d = 0; d < depth; d++) {
        int first = 1;
        for (size_t a = 0; a < res->nalt; a++) {
            size_t i = st->order[a];
            if (res->alt[i] + d >= res->alt[i + 1])
                continue;
            const char *s = st->lines[res->alt[i] + d];
            int dup = 0;
            for (size_t b = 0; b < a && !dup; b++) {
                size_t j = st->order[b];
                dup = res->alt[j] + d < res->alt[j + 1] && !strcmp(st->lines[res->alt[j] + d], s);
            }
            if (dup)
                continue;
            if (first) {
                put_line(o, s);
                first = 0;
                continue;
            }
            size_t w = 0;
            while (s[w] == ' ' || s[w] == '\t')
                w++;
            o->curlen = 0;
            if (cur_add(o, s, w) || cur_adds(o, "<OR> ") || cur_adds(o, s + w))
                return -1;
            put_line(o, o->cur);
        }
    }
    return 0;
}

/* The "at CLASS.METHOD(SOURCE[:LINE])" form; 1 when the line was written. */
static int try_at(const gd_mapping *m, const char *line, gd_retrace_res *res, rt_out *o,
                  rt_state *st, gd_error *err)
{
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
        gd_retrace_in in = {st->outline_pos, st->top ? st->thrown : NULL, st->thrown_len,
                            fp.flen > 3 && !memcmp(fp.file + fp.flen - 3, ".kt", 3),
                            st->verbose};
        st->top = 0;
        st->outline_pos = -1;
        if (gd_retrace_frame_in(m, fp.cls, fp.clen, fp.method, fp.mlen, fp.line, &in, res, err))
            return -1;
        if (res->outline)
            st->outline_pos = res->outline_pos;
        if (res->nalt == 0)
            return res->dropped; /* dropped, or not in the mapping: as it is */
        for (size_t i = 0; i < st->nlines; i++)
            free(st->lines[i]);
        st->nlines = 0;
        for (size_t i = 0; i < res->n; i++) {
            const gd_rframe *f = &res->f[i];
            char num[32] = "";
            if (f->line >= 0 && !native)
                snprintf(num, sizeof num, ":%ld", f->line);
            o->curlen = 0;
            if (cur_add(o, line, (size_t)(fp.cls - line)) || cur_adds(o, f->cls) || cur_adds(o, ".") ||
                (st->verbose && f->sig ? cur_adds(o, f->sig)
                 : f->method ? cur_adds(o, f->method) : cur_add(o, fp.method, fp.mlen)) ||
                cur_adds(o, "(") || cur_adds(o, native ? "Native Method" : f->file) ||
                cur_adds(o, num) || cur_adds(o, ")") || cur_adds(o, fp.rest) || st_add(st, o->cur))
                return -1;
        }
        return print_alts(st, res, o) ? -1 : 1;
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
 * is the stack's exception (st->thrown).  1 when written. */
static int try_class(const gd_mapping *m, const char *line, rt_out *o, rt_state *st)
{
    int any = 0, named = 0;
    const char *copied = line;
    o->curlen = 0;
    const char *s = line;
    while (*s == ' ' || *s == '\t')
        s++;
    for (;;) {
        const char *e = class_at(s);
        if (e) {
            const char *orig = gd_mapping_class(m, s, (size_t)(e - s));
            if (!named && memchr(s, '.', (size_t)(e - s))) {
                const char *t = orig ? orig : s;
                size_t tl = orig ? strlen(orig) : (size_t)(e - s);
                if (tl < sizeof st->thrown) {
                    memcpy(st->thrown, t, tl);
                    st->thrown_len = tl;
                    st->top = 1;
                    named = 1;
                }
            }
            if (orig) {
                if (cur_add(o, copied, (size_t)(s - copied)) || cur_adds(o, orig))
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
    if (cur_adds(o, copied))
        return -1;
    put_line(o, o->cur);
    return 1;
}

static int filter(const gd_mapping *m, gd_input *in, rt_out *o, rt_state *st, gd_error *err)
{
    gd_retrace_res res = {0};
    char *line;
    size_t len;
    int r;
    while ((r = gd_input_getline(in, &line, &len, err)) > 0) {
        if (memchr(line, 0, len)) { /* not text: copied as it is */
            for (size_t i = 0; i <= len; i += strlen(line + i) + 1) {
                if (i && o->tty)
                    fputs("\\x00", o->f);
                else if (i)
                    fputc(0, o->f);
                if (o->tty)
                    gd_fputs_escaped(line + i, o->f);
                else
                    fputs(line + i, o->f);
            }
            fputc('\n', o->f);
            continue;
        }
        int done = try_at(m, line, &res, o, st, err);
        if (!done)
            done = try_class(m, line, o, st);
        if (done < 0)
            break;
        if (!done)
            put_line(o, line);
    }
    gd_retrace_res_free(&res);
    if (r < 0)
        return err->code ? err->code : GD_ERR_IO;
    if (!err->code && r > 0)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    return err->code;
}

int cmd_retrace(int argc, char **argv, gd_ctx *ctx)
{
    (void)ctx;
    const char *mapping = NULL;
    int verbose = 0;
    const gd_option opts[] = {
        OPT_STRING_(0, "mapping", &mapping, "FILE", "R8/ProGuard mapping.txt of the build (required)"),
        OPT_BOOL_(0, "verbose", &verbose, "methods with their return and argument types, as R8's --verbose"),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, usage_line, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (!mapping) {
        gd_cli_say(ctx, "--mapping FILE is required");
        gd_print_usage(stderr, usage_line, opts);
        return GD_EXIT_USAGE;
    }
    gd_error err = {0};
    gd_mapping *m;
    if (gd_mapping_load_file(&m, mapping, &err)) {
        snprintf(err.source, sizeof err.source, "%s", mapping);
        return gd_cli_fail_line(ctx, &err);
    }
    const char *uid;
    long uline;
    size_t nunk = gd_mapping_unknown_ids(m, &uid, &uline);
    if (nunk) {
        fputs("godeye retrace: warning: '", stderr);
        gd_fputs_escaped(mapping, stderr);
        fprintf(stderr, "':%ld: %zu metadata line(s) with an unknown id ignored (first: '", uline, nunk);
        gd_fputs_escaped(uid, stderr);
        fputs("')\n", stderr);
    }
    rt_out o = {.f = stdout, .tty = isatty(1)};
    rt_state st = {.verbose = verbose, .outline_pos = -1};
    const char *dash = "-";
    char **files = nargs ? argv : (char **)&dash;
    int n = nargs ? nargs : 1;
    rc = GD_EXIT_OK;
    for (int i = 0; i < n && rc == GD_EXIT_OK; i++) {
        gd_input *in = NULL;
        int code = gd_input_open_file(&in, files[i], &err);
        if (!code) {
            code = filter(m, in, &o, &st, &err);
            gd_input_close(in);
        }
        if (code) {
            snprintf(err.source, sizeof err.source, "%s", files[i]);
            rc = gd_cli_fail(ctx, &err);
        }
    }
    free(o.cur);
    for (size_t i = 0; i < st.nlines; i++)
        free(st.lines[i]);
    free(st.lines);
    free(st.order);
    gd_mapping_free(m);
    if (fflush(stdout) && rc == GD_EXIT_OK) {
        gd_cli_say(ctx, "cannot write the output");
        rc = GD_EXIT_FAIL;
    }
    return rc;
}
