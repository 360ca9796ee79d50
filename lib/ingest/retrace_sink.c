/* ingest/retrace_sink.c - a sink that retraces stacks and method names through an R8/ProGuard mapping before the writer sees them. */
#include "ingest/retrace_sink.h"

#include <stdlib.h>
#include <string.h>

#include "core/skip_reasons.h"
#include "core/util.h"
#include "ingest/ingest.h"

static int rs_add(gd_retrace_sink *r, const char *s, size_t n, gd_error *err)
{
    if (gd_grow((void **)&r->buf, &r->cap, r->len + n + 1, 1, err))
        return err->code;
    memcpy(r->buf + r->len, s, n);
    r->len += n;
    r->buf[r->len] = 0;
    return GD_OK;
}

/* Opens a new frame in buf (its text follows with rs_add). */
static int rs_frame(gd_retrace_sink *r, gd_error *err)
{
    if (r->noffs && rs_add(r, "", 1, err)) /* the NUL of the frame before stays */
        return err->code;
    if (gd_grow((void **)&r->offs, &r->offcap, r->noffs + 1, sizeof *r->offs, err))
        return err->code;
    r->offs[r->noffs++] = r->len;
    return GD_OK;
}

/* A bare method name "a.b.C.m" (simpleperf's Java frames): the length of
 * its class part, or 0 when the frame is not of that shape. */
static size_t bare_method(const char *fr)
{
    size_t dot = 0, i = 0;
    for (; fr[i]; i++) {
        unsigned char c = (unsigned char)fr[i];
        if (c == '.')
            dot = i;
        else if (!(c == '_' || c == '$' || c == '<' || c == '>' || (c >= '0' && c <= '9') ||
                   ((c | 32) >= 'a' && (c | 32) <= 'z')))
            return 0;
    }
    return dot && dot + 1 < i ? dot : 0;
}

/* A bare method frame: the method that runs, like a method event (no line,
 * so no inline chain).  1 when written, 0 when kept as it is. */
static int rs_bare(gd_retrace_sink *r, const gd_event *ev, const char *fr, size_t clen,
                   gd_error *err)
{
    const char *mn = fr + clen + 1;
    r->seen++;
    if (gd_retrace_method(r->m, fr, clen, mn, strlen(mn), &r->res, err))
        return -1;
    if (!r->res.nalt) {
        r->unknown++;
        return 0;
    }
    if (gd_retrace_distinct(&r->res) > 1) {
        r->inner.skip(r->inner.ctx, GD_SKIP(RETRACE_AMBIGUOUS), ev->line, 0);
        return 0;
    }
    const gd_rframe *f = &r->res.f[0];
    const char *m = f->method ? f->method : mn;
    if (rs_frame(r, err) || rs_add(r, f->cls, strlen(f->cls), err) || rs_add(r, ".", 1, err) ||
        rs_add(r, m, strlen(m), err))
        return -1;
    r->retraced++;
    return 1;
}

static int rs_stack(gd_retrace_sink *r, const gd_event *ev, gd_error *err)
{
    const gd_stack_ev *st = &ev->u.stack;
    r->len = r->noffs = 0;
    int changed = 0;
    for (size_t i = 0; i < st->nframes; i++) {
        const char *fr = st->frames[i];
        gd_frame_parts fp;
        size_t nd = 0;
        if (r->noffs >= GD_RETRACE_MAX_STACK) { /* the cap: the rest is cut */
            r->cut += st->nframes - i;
            changed = 1;
            break;
        }
        size_t bare = gd_frame_split(fr, &fp) ? 0 : bare_method(fr);
        if (bare) {
            int w = rs_bare(r, ev, fr, bare, err);
            if (w < 0)
                return err->code;
            if (w) {
                changed = 1;
                continue;
            }
        } else if (fp.cls) {
            r->seen++;
            /* without a line the frame is the method that runs (the
             * outermost of its inline chains), nothing to expand */
            if (fp.line >= 0 ? gd_retrace_frame(r->m, fp.cls, fp.clen, fp.method, fp.mlen, fp.line,
                                                &r->res, err)
                             : gd_retrace_method(r->m, fp.cls, fp.clen, fp.method, fp.mlen, &r->res,
                                                 err))
                return err->code;
            if (r->res.nalt && (nd = gd_retrace_distinct(&r->res)) > 1)
                r->inner.skip(r->inner.ctx, GD_SKIP(RETRACE_AMBIGUOUS), ev->line, 0);
            if (!r->res.nalt && !r->res.dropped)
                r->unknown++;
            r->cut += r->res.cut;
            if (nd == 1)
                r->retraced++;
        }
        if (nd != 1) { /* not in the mapping, ambiguous, not a Java frame */
            if (rs_frame(r, err) || rs_add(r, fr, strlen(fr), err))
                return err->code;
            continue;
        }
        changed = 1;
        for (size_t k = r->res.alt[0]; k < r->res.alt[1]; k++) {
            const gd_rframe *f = &r->res.f[k];
            if (r->noffs >= GD_RETRACE_MAX_STACK || k - r->res.alt[0] >= GD_RETRACE_MAX_INLINE) {
                r->cut += r->res.alt[1] - k;
                break;
            }
            char num[32] = "";
            if (f->line >= 0) /* the line to print (R8: original 0 is none) */
                snprintf(num, sizeof num, ":%ld", f->line);
            if (rs_frame(r, err) || rs_add(r, fp.module, fp.modlen, err) ||
                rs_add(r, f->cls, strlen(f->cls), err) || rs_add(r, ".", 1, err) ||
                (f->method ? rs_add(r, f->method, strlen(f->method), err)
                           : rs_add(r, fp.method, fp.mlen, err)) ||
                rs_add(r, "(", 1, err) || rs_add(r, f->file, strlen(f->file), err) ||
                rs_add(r, num, strlen(num), err) || rs_add(r, ")", 1, err) ||
                rs_add(r, fp.rest, strlen(fp.rest), err))
                return err->code;
        }
    }
    if (!changed)
        return r->inner.event(r->inner.ctx, ev, err);
    if (gd_grow((void **)&r->frames, &r->fcap, r->noffs + 1, sizeof *r->frames, err))
        return err->code;
    for (size_t i = 0; i < r->noffs; i++)
        r->frames[i] = r->buf + r->offs[i];
    gd_event e = *ev;
    e.u.stack.frames = r->frames;
    e.u.stack.nframes = r->noffs;
    return r->inner.event(r->inner.ctx, &e, err);
}

/* Copies s (n bytes) into *dst with '.' as '/' when slash. */
static int rs_copy(char **dst, size_t *cap, const char *s, size_t n, int slash, gd_error *err)
{
    if (gd_grow((void **)dst, cap, n + 1, 1, err))
        return err->code;
    for (size_t i = 0; i < n; i++)
        (*dst)[i] = slash && s[i] == '.' ? '/' : s[i];
    (*dst)[n] = 0;
    return GD_OK;
}

static int rs_method(gd_retrace_sink *r, const gd_event *ev, gd_error *err)
{
    const gd_method_ev *me = &ev->u.method;
    if (!me->cls || !me->method)
        return r->inner.event(r->inner.ctx, ev, err);
    size_t clen = strlen(me->cls);
    int slash = strchr(me->cls, '/') != NULL;
    if (rs_copy(&r->cls, &r->clscap, me->cls, clen, 0, err))
        return err->code;
    for (char *p = r->cls; slash && *p; p++)
        if (*p == '/')
            *p = '.';
    if (gd_retrace_method(r->m, r->cls, clen, me->method, strlen(me->method), &r->res, err))
        return err->code;
    r->seen++;
    if (!r->res.nalt) {
        r->unknown++;
        return r->inner.event(r->inner.ctx, ev, err);
    }
    if (gd_retrace_distinct(&r->res) > 1) {
        r->inner.skip(r->inner.ctx, GD_SKIP(RETRACE_AMBIGUOUS), ev->line, 0);
        return r->inner.event(r->inner.ctx, ev, err);
    }
    r->retraced++;
    const gd_rframe *f = &r->res.f[0];
    const char *mn = f->method ? f->method : me->method;
    if (rs_copy(&r->cls, &r->clscap, f->cls, strlen(f->cls), slash, err) ||
        rs_copy(&r->meth, &r->methcap, mn, strlen(mn), 0, err))
        return err->code;
    gd_event e = *ev;
    e.u.method.cls = r->cls;
    e.u.method.method = r->meth;
    return r->inner.event(r->inner.ctx, &e, err);
}

static int rs_event(void *ctx, const gd_event *ev, gd_error *err)
{
    gd_retrace_sink *r = ctx;
    if (ev->kind == GD_EV_STACK && ev->u.stack.nframes)
        return rs_stack(r, ev, err);
    if (ev->kind == GD_EV_METHOD)
        return rs_method(r, ev, err);
    return r->inner.event(r->inner.ctx, ev, err);
}
static int rs_meta(void *ctx, const gd_meta *m, gd_error *err)
{
    gd_retrace_sink *r = ctx;
    return r->inner.meta(r->inner.ctx, m, err);
}
static void rs_skip(void *ctx, const char *reason, long line, long col)
{
    gd_retrace_sink *r = ctx;
    r->inner.skip(r->inner.ctx, reason, line, col);
}

void gd_retrace_sink_free(gd_retrace_sink *r)
{
    gd_retrace_res_free(&r->res);
    free(r->buf);
    free(r->offs);
    free(r->frames);
    free(r->cls);
    free(r->meth);
}

const gd_sink *gd_retrace_sink_wrap(gd_retrace_sink *r, const gd_sink *inner, const gd_mapping *m)
{
    r->inner = *inner;
    r->m = m;
    r->outer = (gd_sink){r, rs_meta, rs_event, rs_skip};
    return &r->outer;
}
