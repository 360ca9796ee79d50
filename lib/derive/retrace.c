/* retrace.c - R8/ProGuard mapping parser, its index, and frame retrace. */
#include "retrace.h"

#include <ctype.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "derive/retrace_int.h"

static uint64_t hash_bytes(const char *s, size_t n) { return gd_fnv1a(s, n); }

static uint64_t hash_u32(uint32_t v)
{
    uint64_t h = v * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
}

/* Offset of s[0..n) in the intern table, or 0. */
static uint32_t str_find(const gd_mapping *m, const char *s, size_t n)
{
    if (!m->scap)
        return 0;
    size_t mask = m->scap - 1;
    for (size_t i = hash_bytes(s, n) & mask;; i = (i + 1) & mask) {
        uint32_t o = m->strs[i];
        if (!o)
            return 0;
        if (memcmp(m->arena + o, s, n) == 0 && m->arena[o + n] == 0)
            return o;
    }
}

static int str_rehash(gd_mapping *m, gd_error *err)
{
    size_t ncap = m->scap ? m->scap * 2 : 1024;
    uint32_t *t = calloc(ncap, sizeof *t);
    if (!t)
        return gd_error_oom(err);
    for (size_t i = 0; i < m->scap; i++) {
        uint32_t o = m->strs[i];
        if (!o)
            continue;
        size_t j = hash_bytes(m->arena + o, strlen(m->arena + o)) & (ncap - 1);
        while (t[j])
            j = (j + 1) & (ncap - 1);
        t[j] = o;
    }
    free(m->strs);
    m->strs = t;
    m->scap = ncap;
    return GD_OK;
}

/* Interns s[0..n); 0 (with err) when out of memory or over 4 GiB. */
uint32_t gd_retrace_str_intern(gd_mapping *m, const char *s, size_t n, gd_error *err)
{
    uint32_t o = str_find(m, s, n);
    if (o)
        return o;
    if ((m->nstrs + 1) * 2 > m->scap && str_rehash(m, err))
        return 0;
    if (m->alen + n + 1 > UINT32_MAX) {
        gd_error_set(err, GD_ERR_DATA, 0, 0, "mapping over 4 GiB of names");
        return 0;
    }
    if (gd_grow((void **)&m->arena, &m->acap, m->alen + n + 1, 1, err))
        return 0;
    o = (uint32_t)m->alen;
    memcpy(m->arena + o, s, n);
    m->arena[o + n] = 0;
    m->alen += n + 1;
    size_t mask = m->scap - 1;
    size_t i = hash_bytes(s, n) & mask;
    while (m->strs[i])
        i = (i + 1) & mask;
    m->strs[i] = o;
    m->nstrs++;
    return o;
}

static const char *S(const gd_mapping *m, uint32_t o)
{
    return o ? m->arena + o : NULL;
}

int gd_retrace_ctab_put(gd_mapping *m, uint32_t obf, uint32_t idx, gd_error *err)
{
    if ((m->ncls + 1) * 2 > m->ccap) {
        size_t ncap = m->ccap ? m->ccap * 2 : 256;
        uint32_t *t = calloc(ncap, sizeof *t);
        if (!t)
            return gd_error_oom(err);
        for (size_t i = 0; i < m->ccap; i++) {
            if (!m->ctab[i])
                continue;
            size_t j = hash_u32(m->cls[m->ctab[i] - 1].obf) & (ncap - 1);
            while (t[j])
                j = (j + 1) & (ncap - 1);
            t[j] = m->ctab[i];
        }
        free(m->ctab);
        m->ctab = t;
        m->ccap = ncap;
    }
    size_t mask = m->ccap - 1;
    size_t j = hash_u32(obf) & mask;
    while (m->ctab[j])
        j = (j + 1) & mask;
    m->ctab[j] = idx + 1;
    return GD_OK;
}

const rt_klass *gd_retrace_class_find(const gd_mapping *m, const char *s, size_t n)
{
    uint32_t o = str_find(m, s, n);
    if (!o || !m->ccap)
        return NULL;
    size_t mask = m->ccap - 1;
    for (size_t j = hash_u32(o) & mask; m->ctab[j]; j = (j + 1) & mask)
        if (m->cls[m->ctab[j] - 1].obf == o)
            return &m->cls[m->ctab[j] - 1];
    return NULL;
}

/* The file names R8 and ProGuard derive for class a.b.Foo$Inner: the outer
 * simple name with ".java" (or ".kt" when the frame's file is a Kotlin
 * one); a Kotlin facade class FooKt gives Foo.kt either way. */
int gd_retrace_derived_files(gd_mapping *m, const char *cls, size_t n, uint32_t *java, uint32_t *kt,
                     gd_error *err)
{
    size_t s = n;
    while (s > 0 && cls[s - 1] != '.')
        s--;
    size_t e = s;
    while (e < n && cls[e] != '$')
        e++;
    if (e == s)
        e = n;
    char buf[512];
    size_t k = e - s < sizeof buf - 6 ? e - s : sizeof buf - 6;
    memcpy(buf, cls + s, k);
    if (k > 2 && buf[k - 2] == 'K' && buf[k - 1] == 't') {
        memcpy(buf + k - 2, ".kt", 4);
        if (!(*java = *kt = gd_retrace_str_intern(m, buf, k + 1, err)))
            return err->code;
        return GD_OK;
    }
    memcpy(buf + k, ".java", 6);
    if (!(*java = gd_retrace_str_intern(m, buf, k + 5, err)))
        return err->code;
    memcpy(buf + k, ".kt", 4);
    if (!(*kt = gd_retrace_str_intern(m, buf, k + 3, err)))
        return err->code;
    return GD_OK;
}

int gd_retrace_otab_build(gd_mapping *m, gd_error *err)
{
    size_t cap = 16;
    while (cap < m->ncls * 2)
        cap *= 2;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t)
        return gd_error_oom(err);
    for (size_t i = 0; i < m->ncls; i++) {
        size_t j = hash_u32(m->cls[i].orig) & (cap - 1);
        while (t[j])
            j = (j + 1) & (cap - 1);
        t[j] = (uint32_t)i + 1;
    }
    free(m->otab);
    m->otab = t;
    m->ocap = cap;
    return GD_OK;
}

const rt_klass *gd_retrace_class_find_orig(const gd_mapping *m, uint32_t orig)
{
    if (!orig || !m->ocap)
        return NULL;
    size_t mask = m->ocap - 1;
    for (size_t j = hash_u32(orig) & mask; m->otab[j]; j = (j + 1) & mask)
        if (m->cls[m->otab[j] - 1].orig == orig)
            return &m->cls[m->otab[j] - 1];
    return NULL;
}

const char *gd_mapping_hash(const gd_mapping *m) { return m->hash; }
size_t gd_mapping_classes(const gd_mapping *m) { return m->ncls; }
size_t gd_mapping_members(const gd_mapping *m) { return m->nmem; }
const char *gd_mapping_version(const gd_mapping *m) { return m->version; }

size_t gd_mapping_unknown_ids(const gd_mapping *m, const char **first_id, long *first_line)
{
    if (first_id)
        *first_id = m->unknown_id;
    if (first_line)
        *first_line = m->unknown_line;
    return m->nunknown;
}

void gd_mapping_free(gd_mapping *m)
{
    if (!m)
        return;
    free(m->arena);
    free(m->strs);
    free(m->ctab);
    free(m->otab);
    free(m->cs);
    free(m->cls);
    free(m->mem);
    free(m->version);
    free(m->unknown_id);
    free(m);
}

const char *gd_mapping_class(const gd_mapping *m, const char *obf, size_t len)
{
    const rt_klass *k = gd_retrace_class_find(m, obf, len);
    return k ? S(m, k->orig) : NULL;
}

/* ---- retrace ---- */

void gd_retrace_res_free(gd_retrace_res *r)
{
    free(r->f);
    free(r->alt);
    memset(r, 0, sizeof *r);
}

/* A line to print: original line 0 is "no line" (R8). */
static long nz(long v) { return v > 0 ? v : -1; }

static int push_frame(gd_retrace_res *r, gd_rframe f, gd_error *err)
{
    if (r->n >= GD_RETRACE_MAX_FRAMES) {
        r->cut++;
        return GD_OK;
    }
    if (gd_grow((void **)&r->f, &r->cap, r->n + 1, sizeof *r->f, err))
        return err->code;
    r->f[r->n++] = f;
    return GD_OK;
}

/* Closes the alternative begun at alt[nalt]; an empty one (every frame
 * dropped) is not kept. */
static int close_alt(gd_retrace_res *r, gd_error *err)
{
    if (r->alt[r->nalt] == r->n)
        return GD_OK;
    if (gd_grow((void **)&r->alt, &r->altcap, r->nalt + 2, sizeof *r->alt, err))
        return err->code;
    r->nalt++;
    r->alt[r->nalt] = r->n;
    return GD_OK;
}

static const char *frame_file(const gd_mapping *m, const rt_klass *k, const rt_member *mb, int kotlin)
{
    if (mb && mb->ocls)
        return S(m, mb->file ? mb->file : kotlin ? mb->dkt : mb->djava);
    return S(m, k->file ? k->file : kotlin ? k->dkt : k->djava);
}

static gd_rframe member_frame(const gd_mapping *m, const rt_klass *k, const rt_member *mb,
                              long line, int kotlin)
{
    gd_rframe f = {mb->ocls ? S(m, mb->ocls) : S(m, k->orig), S(m, mb->name),
                   frame_file(m, k, mb, kotlin), S(m, mb->sig), line};
    return f;
}

static int synthesized(const rt_klass *k, const rt_member *mb)
{
    return mb->synth || (!mb->ocls && k->synth);
}

/* How the candidates were chosen (R8's rules):
 *   RANGE    the frame's line is in the member's obfuscated range
 *   NORANGE  a line, no range holds it: the members without a range
 *   ZERO     no line: the 0:0 ranges and the members without a range
 *   OUTER    no line and none of those: the outermost member of each
 *            inline chain (R8 assumes nothing was inlined) */
enum { M_RANGE, M_NORANGE, M_ZERO, M_OUTER };

static int thrown_matches(const gd_mapping *m, const rt_member *y, const gd_retrace_in *in)
{
    if (!y->rw_throws || !in || !in->thrown)
        return 0;
    const char *t = S(m, y->rw_throws);
    return strlen(t) == in->thrown_len && !memcmp(t, in->thrown, in->thrown_len);
}

/* Adds the candidate chain g .. e-1 (innermost first) as one alternative,
 * or one per original line when a single obfuscated line stands for a
 * span of original lines. */
static int add_candidate(const gd_mapping *m, const rt_klass *k, const rt_member *g,
                         const rt_member *e, int mode, long line, size_t ncand,
                         const gd_retrace_in *in, gd_retrace_res *r, gd_error *err)
{
    const rt_member *first = mode == M_OUTER ? e - 1 : g, *x = first;
    long v0 = -1, v1 = -1;
    int nocallers = 0, all = in && in->all_lines;
    switch (mode) {
    case M_RANGE:
        if (x->c < 0)
            v0 = line;
        else if (x->d < 0 || x->d == x->c)
            v0 = x->c;
        else if (x->a == x->b && x->d > x->c) {
            v0 = x->c;
            v1 = x->d;
        } else
            v0 = x->c + (line - x->a);
        break;
    case M_NORANGE:
        if (x->c < 0)
            v0 = line;
        else if (x->d > x->c) {
            v0 = x->c;
            v1 = x->d;
        } else
            v0 = ncand == 1 || all ? x->c : -1;
        break;
    case M_ZERO:
        if (x->c >= 0 && x->d > x->c && all) {
            v0 = x->c;
            v1 = x->d;
        } else if (x->c >= 0 && x->d > x->c)
            nocallers = 1;
        else if (x->c >= 0)
            v0 = x->a >= 0 || ncand == 1 || all ? x->c : -1;
        break;
    default: /* a guess of R8's: no line (ProGuard prints none either) */
        break;
    }
    if (v1 < v0)
        v1 = v0;
    size_t remove = 0;
    if (mode != M_OUTER)
        for (const rt_member *y = g; y < e; y++)
            if (thrown_matches(m, y, in) && y->rw_remove > remove)
                remove = y->rw_remove;
    int kotlin = in && in->kotlin;
    /* A span can be 2^31 lines wide (fuzz_mapping).  At most MAX_ALTS of
     * its lines are tried, whatever they yield: an alternative whose frames
     * are all dropped (synthesized, an outline) is not kept and so never
     * reaches the alternatives cap; the lines past it are cut at once. */
    if (v1 > v0 && v1 - v0 >= GD_RETRACE_MAX_ALTS) {
        r->cut += (size_t)(e - first) * (size_t)(v1 - v0 + 1 - GD_RETRACE_MAX_ALTS);
        v1 = v0 + GD_RETRACE_MAX_ALTS - 1;
    }
    for (long v = v0; v <= v1; v++) {
        if (r->nalt >= GD_RETRACE_MAX_ALTS) {
            r->cut += (size_t)(e - first) * (size_t)(v1 - v + 1);
            break;
        }
        size_t skipped = 0;
        for (const rt_member *y = first; y < e; y++) {
            if (skipped < remove) {
                skipped++;
                continue;
            }
            if (synthesized(k, y)) {
                r->dropped = 1;
                continue;
            }
            if (y->outline) { /* the outline itself: its position goes on */
                r->outline = 1;
                r->dropped = 1;
                continue;
            }
            long ln = y == first ? v : nocallers ? -1 : y->c >= 0 ? y->c : line;
            if (push_frame(r, member_frame(m, k, y, nz(ln), kotlin), err))
                return err->code;
        }
        if (close_alt(r, err))
            return err->code;
    }
    return GD_OK;
}

static const rt_member *chain_end(const rt_member *g, const rt_member *hi)
{
    const rt_member *e = g + 1;
    while (e < hi && e->cont)
        e++;
    return e;
}

static int retrace(const gd_mapping *m, const char *cls, size_t clen, const char *method,
                   size_t mlen, long line, int outer_only, const gd_retrace_in *in,
                   gd_retrace_res *r, gd_error *err)
{
    r->n = 0;
    r->nalt = 0;
    r->member_known = 0;
    r->outline = 0;
    r->dropped = 0;
    r->cut = 0;
    r->line = line;
    if (gd_grow((void **)&r->alt, &r->altcap, 2, sizeof *r->alt, err))
        return err->code;
    r->alt[0] = 0;
    const rt_klass *k = gd_retrace_class_find(m, cls, clen);
    if (!k)
        return GD_OK;
    uint32_t o = str_find(m, method, mlen);
    const rt_member *lo = NULL, *hi = NULL;
    if (o && k->count) {
        /* binary search of the first member named o */
        size_t a = k->first, b = (size_t)k->first + k->count;
        while (a < b) {
            size_t mid = a + (b - a) / 2;
            if (m->mem[mid].obf < o)
                a = mid + 1;
            else
                b = mid;
        }
        lo = hi = &m->mem[a];
        const rt_member *kend = &m->mem[k->first + k->count];
        while (hi < kend && hi->obf == o)
            hi++;
    }
    if (lo != hi && outer_only) {
        /* a method as it exists at run time: the outermost member of each
         * inline chain (the method the others were inlined into) */
        for (const rt_member *x = lo; x < hi; x++) {
            if (x + 1 < hi && x[1].cont)
                continue;
            if (push_frame(r, member_frame(m, k, x, -1, 0), err) || close_alt(r, err))
                return err->code;
        }
        r->member_known = 1;
        return GD_OK;
    }
    /* after an outline frame: its position, through this frame's
     * outlineCallsite table, is the line to retrace */
    if (in && in->outline_pos >= 0 && line > 0) {
        for (const rt_member *x = lo; x < hi; x++) {
            if (!x->cs_n || x->a < 0 || line < x->a || line > x->b)
                continue;
            for (uint32_t i = 0; i < x->cs_n; i++)
                if (m->cs[2 * (x->cs_first + i)] == in->outline_pos) {
                    line = m->cs[2 * (x->cs_first + i) + 1];
                    break;
                }
            break;
        }
    }
    r->line = line;
    long want = line > 0 ? line : 0;
    int mode = line > 0 ? M_RANGE : M_ZERO;
    size_t ncand = 0;
    for (int pass = 0; pass < 2 && !ncand; pass++) {
        if (pass)
            mode = line > 0 ? M_NORANGE : M_OUTER;
        for (const rt_member *g = lo; g < hi; g++) {
            if (g->cont)
                continue;
            if (mode == M_RANGE ? g->a >= 0 && want >= g->a && want <= g->b
                : mode == M_NORANGE ? g->a < 0
                : mode == M_ZERO ? g->a < 0 || (want >= g->a && want <= g->b)
                : 1)
                ncand++;
        }
    }
    if (ncand) {
        r->member_known = 1;
        for (const rt_member *g = lo; g < hi; g++) {
            if (g->cont)
                continue;
            if (mode == M_RANGE ? g->a >= 0 && want >= g->a && want <= g->b
                : mode == M_NORANGE ? g->a < 0
                : mode == M_ZERO ? g->a < 0 || (want >= g->a && want <= g->b)
                : 1) {
                if (add_candidate(m, k, g, chain_end(g, hi), mode, line, ncand, in, r, err))
                    return err->code;
            }
        }
        if (r->outline)
            r->outline_pos = line;
        return GD_OK;
    }
    /* the class is known, the member (at that line) is not: keep its name
     * and line, as R8 and ProGuard do */
    gd_rframe f = {S(m, k->orig), NULL, frame_file(m, k, NULL, in && in->kotlin), NULL, line};
    if (push_frame(r, f, err))
        return err->code;
    return close_alt(r, err);
}

int gd_retrace_frame_in(const gd_mapping *m, const char *cls, size_t clen, const char *method,
                        size_t mlen, long line, const gd_retrace_in *in, gd_retrace_res *r,
                        gd_error *err)
{
    return retrace(m, cls, clen, method, mlen, line, 0, in, r, err);
}

int gd_retrace_frame(const gd_mapping *m, const char *cls, size_t clen, const char *method,
                     size_t mlen, long line, gd_retrace_res *r, gd_error *err)
{
    return retrace(m, cls, clen, method, mlen, line, 0, NULL, r, err);
}

int gd_retrace_method(const gd_mapping *m, const char *cls, size_t clen, const char *method,
                      size_t mlen, gd_retrace_res *r, gd_error *err)
{
    return retrace(m, cls, clen, method, mlen, -1, 1, NULL, r, err);
}

static int alt_equal(const gd_retrace_res *r, size_t i, size_t j)
{
    size_t ni = r->alt[i + 1] - r->alt[i], nj = r->alt[j + 1] - r->alt[j];
    if (ni != nj)
        return 0;
    for (size_t k = 0; k < ni; k++) {
        const gd_rframe *a = &r->f[r->alt[i] + k], *b = &r->f[r->alt[j] + k];
        if (a->cls != b->cls || a->method != b->method || a->line != b->line)
            return 0;
    }
    return 1;
}

size_t gd_retrace_distinct(const gd_retrace_res *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nalt; i++) {
        size_t j = 0;
        while (j < i && !alt_equal(r, i, j))
            j++;
        n += j == i;
    }
    return n;
}

/* ---- frame text ---- */

int gd_frame_split(const char *frame, gd_frame_parts *p)
{
    memset(p, 0, sizeof *p);
    const char *paren = strchr(frame, '(');
    if (!paren || paren == frame)
        return 0;
    const char *start = frame, *dot = NULL;
    for (const char *x = frame; x < paren; x++) {
        if (isspace((unsigned char)*x) || *x == '"' || *x == ')')
            return 0;
        if (*x == '/') /* a module or class loader prefix */
            start = x + 1;
    }
    for (const char *x = start; x < paren; x++) {
        if (*x == ':')
            return 0;
        if (*x == '.')
            dot = x;
    }
    if (!dot || dot == start || dot + 1 == paren)
        return 0;
    /* the last ')': a file may hold parentheses (Play services' modules) */
    const char *close = strrchr(paren, ')');
    if (!close)
        return 0;
    p->module = frame;
    p->modlen = (size_t)(start - frame);
    p->cls = start;
    p->clen = (size_t)(dot - start);
    p->method = dot + 1;
    p->mlen = (size_t)(paren - dot - 1);
    p->file = paren + 1;
    p->flen = (size_t)(close - paren - 1);
    p->line = -1;
    const char *colon = NULL;
    for (const char *x = p->file; x < close; x++)
        if (*x == ':')
            colon = x;
    if (colon) {
        long v = 0;
        const char *x = colon + 1;
        while (x < close && isdigit((unsigned char)*x) && v < 100000000)
            v = v * 10 + (*x++ - '0');
        if (x == close) { /* "File:12", or "File:" (no line) */
            p->line = x > colon + 1 ? v : -1;
            p->flen = (size_t)(colon - p->file);
        }
    }
    p->rest = close + 1;
    return 1;
}
