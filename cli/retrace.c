/* retrace.c - `godeye retrace`: obfuscated stack-trace text back to the
 * original names through an R8/ProGuard mapping (a filter, like retrace). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"
#include "core/escape.h"
#include "derive/retrace.h"

static const char *const usage_line = "godeye retrace --mapping FILE [FILE...]";

typedef struct rt_out {
    FILE *f;
    int tty;             /* control characters escaped (tabs kept)           */
    char *prev;          /* the previous alternative line (trimming)         */
    size_t prevcap;
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

/* ProGuard's rule for alternatives: the part shared with the line before
 * becomes blanks (whitespace kept) up to the name that differs; a line
 * equal to it is not printed. */
static void emit(rt_out *o, int trim)
{
    if (trim && o->prev) {
        size_t i = 0;
        while (o->cur[i] && o->cur[i] == o->prev[i])
            i++;
        if (!o->cur[i])
            goto keep;
        /* from the start of the name that differs (the differing
         * character included in the look-back, as ProGuard does) */
        size_t j = i + 1;
        while (j > 0 && (isalnum((unsigned char)o->cur[j - 1]) || o->cur[j - 1] == '_' ||
                         o->cur[j - 1] == '$'))
            j--;
        i = j;
        char *t = malloc(o->curlen + 1);
        if (t) {
            for (size_t j = 0; j < o->curlen; j++)
                t[j] = j < i && !isspace((unsigned char)o->cur[j]) ? ' ' : o->cur[j];
            t[o->curlen] = 0;
            put_line(o, t);
            free(t);
        }
    } else {
        put_line(o, o->cur);
    }
keep:
    if (o->curlen + 1 > o->prevcap) {
        char *p = realloc(o->prev, o->curlen + 1);
        if (!p)
            return;
        o->prev = p;
        o->prevcap = o->curlen + 1;
    }
    memcpy(o->prev, o->cur, o->curlen + 1);
}

static int is_word(int c)
{
    return isalnum(c) || c == '_';
}

/* The "at CLASS.METHOD(SOURCE[:LINE])" form; 1 when the line was written. */
static int try_at(const gd_mapping *m, const char *line, gd_retrace_res *res, rt_out *o,
                  gd_error *err)
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
        if (!gd_frame_split(q, &fp))
            continue;
        const char *r = fp.rest;
        while (isspace((unsigned char)*r))
            r++;
        if (*r && !(r[0] == '~' && r[1] == '[' && r[strlen(r) - 1] == ']'))
            continue;
        if (gd_retrace_frame(m, fp.cls, fp.clen, fp.method, fp.mlen, fp.line, res, err))
            return -1;
        if (res->nalt == 0)
            return 0; /* not in the mapping: the line as it is */
        free(o->prev);
        o->prev = NULL;
        o->prevcap = 0;
        for (size_t i = 0; i < res->n; i++) {
            const gd_rframe *f = &res->f[i];
            char num[32] = "";
            if (fp.line >= 0)
                snprintf(num, sizeof num, ":%ld", f->line >= 0 ? f->line : fp.line);
            o->curlen = 0;
            if (cur_add(o, line, (size_t)(q - line)) || cur_adds(o, f->cls) || cur_adds(o, ".") ||
                (f->method ? cur_adds(o, f->method) : cur_add(o, fp.method, fp.mlen)) ||
                cur_adds(o, "(") || cur_adds(o, f->file) || cur_adds(o, num) ||
                cur_adds(o, ")") || cur_adds(o, fp.rest))
                return -1;
            emit(o, fp.line < 0);
        }
        return 1;
    }
    return 0;
}

static int class_char(int c)
{
    return c && !isspace(c) && !strchr("\":./()", c);
}

/* Class at s: (part.)*part followed by the end or ':'; its end or NULL. */
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
    return *e == 0 || *e == ':' ? e : NULL;
}

/* "[...: ]CLASS[:...]" (exception lines, ProGuard's second pattern: the
 * shortest prefix ending in ':' or '"' and blanks); 1 when written. */
static int try_class(const gd_mapping *m, const char *line, rt_out *o)
{
    const char *s = line, *e;
    for (;;) {
        if ((e = class_at(s)))
            break;
        const char *n = s == line ? line : s;
        for (; *n; n++)
            if ((*n == ':' || *n == '"') && isspace((unsigned char)n[1]))
                break;
        if (!*n)
            return 0;
        s = n + 1;
        while (isspace((unsigned char)*s))
            s++;
    }
    const char *orig = gd_mapping_class(m, s, (size_t)(e - s));
    if (!orig)
        return 0;
    o->curlen = 0;
    if (cur_add(o, line, (size_t)(s - line)) || cur_adds(o, orig) || cur_adds(o, e))
        return -1;
    put_line(o, o->cur);
    return 1;
}

static int filter(const gd_mapping *m, gd_input *in, rt_out *o, gd_error *err)
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
        int done = try_at(m, line, &res, o, err);
        if (!done)
            done = try_class(m, line, o);
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
    const gd_option opts[] = {
        OPT_STRING_(0, "mapping", &mapping, "FILE", "R8/ProGuard mapping.txt of the build (required)"),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, usage_line, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (!mapping) {
        fprintf(stderr, "godeye retrace: --mapping FILE is required\n");
        gd_print_usage(stderr, usage_line, opts);
        return GD_EXIT_USAGE;
    }
    gd_error err = {0};
    gd_mapping *m;
    if (gd_mapping_load_file(&m, mapping, &err)) {
        snprintf(err.source, sizeof err.source, "%s", mapping);
        return gd_cli_fail("retrace", &err);
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
    const char *dash = "-";
    char **files = nargs ? argv : (char **)&dash;
    int n = nargs ? nargs : 1;
    rc = GD_EXIT_OK;
    for (int i = 0; i < n && rc == GD_EXIT_OK; i++) {
        gd_input *in = NULL;
        int code = gd_input_open_file(&in, files[i], &err);
        if (!code) {
            code = filter(m, in, &o, &err);
            gd_input_close(in);
        }
        if (code) {
            snprintf(err.source, sizeof err.source, "%s", files[i]);
            rc = gd_cli_fail("retrace", &err);
        }
    }
    free(o.prev);
    free(o.cur);
    gd_mapping_free(m);
    if (fflush(stdout) && rc == GD_EXIT_OK) {
        fprintf(stderr, "godeye retrace: cannot write the output\n");
        rc = GD_EXIT_FAIL;
    }
    return rc;
}
