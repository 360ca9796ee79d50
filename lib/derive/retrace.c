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
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
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
uint32_t rt_str_intern(gd_mapping *m, const char *s, size_t n, gd_error *err)
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

int rt_ctab_put(gd_mapping *m, uint32_t obf, uint32_t idx, gd_error *err)
{
    if ((m->ncls + 1) * 2 > m->ccap) {
        size_t ncap = m->ccap ? m->ccap * 2 : 256;
        uint32_t *t = calloc(ncap, sizeof *t);
        if (!t)
            return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
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

const rt_klass *rt_class_find(const gd_mapping *m, const char *s, size_t n)
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

/* "Foo.java" for class a.b.Foo$Inner (ProGuard's rule). */
uint32_t rt_derived_file(gd_mapping *m, const char *cls, size_t n, gd_error *err)
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
    memcpy(buf + k, ".java", 6);
    return rt_str_intern(m, buf, k + 5, err);
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
    free(m->cls);
    free(m->mem);
    free(m->version);
    free(m->unknown_id);
    free(m);
}

const char *gd_mapping_class(const gd_mapping *m, const char *obf, size_t len)
{
    const rt_klass *k = rt_class_find(m, obf, len);
    return k ? S(m, k->orig) : NULL;
}

/* ---- retrace ---- */

void gd_retrace_res_free(gd_retrace_res *r)
{
    free(r->f);
    free(r->alt);
    memset(r, 0, sizeof *r);
}

static long map_line(const rt_member *mb, long line)
{
    if (line < 0)
        return mb->c >= 0 && (mb->d < 0 || mb->d == mb->c) ? mb->c : -1;
    if (mb->c < 0)
        return line;
    if (mb->d < 0 || mb->d == mb->c || mb->a < 0)
        return mb->c;
    return mb->c + (line - mb->a);
}

static int push_frame(gd_retrace_res *r, gd_rframe f, gd_error *err)
{
    if (gd_grow((void **)&r->f, &r->cap, r->n + 1, sizeof *r->f, err))
        return err->code;
    r->f[r->n++] = f;
    return GD_OK;
}

static int close_alt(gd_retrace_res *r, gd_error *err)
{
    if (gd_grow((void **)&r->alt, &r->altcap, r->nalt + 2, sizeof *r->alt, err))
        return err->code;
    r->nalt++;
    r->alt[r->nalt] = r->n;
    return GD_OK;
}

static gd_rframe member_frame(const gd_mapping *m, const rt_klass *k, const rt_member *mb,
                              long line)
{
    gd_rframe f = {mb->ocls ? S(m, mb->ocls) : S(m, k->orig), S(m, mb->name),
                   mb->file ? S(m, mb->file) : S(m, k->file), line};
    return f;
}

static int synthesized(const rt_klass *k, const rt_member *mb)
{
    return mb->synth || (!mb->ocls && k->synth);
}

/* Adds the inline chain starting at g (up to `end`) as one alternative. */
static int add_chain(const gd_mapping *m, const rt_klass *k, const rt_member *g,
                     const rt_member *end, long line, gd_retrace_res *r, gd_error *err)
{
    const rt_member *e = g + 1;
    while (e < end && e->cont)
        e++;
    size_t kept = 0;
    for (const rt_member *x = g; x < e; x++)
        kept += !synthesized(k, x);
    for (const rt_member *x = g; x < e; x++) {
        if (kept && synthesized(k, x))
            continue;
        if (push_frame(r, member_frame(m, k, x, x == g ? map_line(x, line) : map_line(x, -1)), err))
            return err->code;
    }
    return close_alt(r, err);
}

static int retrace(const gd_mapping *m, const char *cls, size_t clen, const char *method,
                   size_t mlen, long line, int outer_only, gd_retrace_res *r, gd_error *err)
{
    r->n = 0;
    r->nalt = 0;
    r->member_known = 0;
    if (gd_grow((void **)&r->alt, &r->altcap, 2, sizeof *r->alt, err))
        return err->code;
    r->alt[0] = 0;
    const rt_klass *k = rt_class_find(m, cls, clen);
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
            if (push_frame(r, member_frame(m, k, x, -1), err) || close_alt(r, err))
                return err->code;
        }
        r->member_known = 1;
        return GD_OK;
    }
    if (lo != hi && line < 0) {
        /* no line: every original with that name is an alternative, in
         * file order (synthesized ones only when nothing else is left) */
        int any = 0;
        for (const rt_member *x = lo; x < hi; x++)
            any |= !synthesized(k, x);
        for (const rt_member *x = lo; x < hi; x++) {
            if (any && synthesized(k, x))
                continue;
            if (push_frame(r, member_frame(m, k, x, -1), err) || close_alt(r, err))
                return err->code;
        }
        r->member_known = 1;
        return GD_OK;
    }
    /* the chains whose range holds the line, and those without a range */
    for (const rt_member *g = lo; g < hi; g++) {
        if (g->cont)
            continue;
        if ((g->a < 0 || (line >= g->a && line <= g->b)) && add_chain(m, k, g, hi, line, r, err))
            return err->code;
    }
    if (r->nalt) {
        r->member_known = 1;
        return GD_OK;
    }
    /* the class is known, the member (at that line) is not: keep its name
     * and line, as ProGuard does */
    gd_rframe f = {S(m, k->orig), NULL, S(m, k->file), line};
    if (push_frame(r, f, err))
        return err->code;
    return close_alt(r, err);
}

int gd_retrace_frame(const gd_mapping *m, const char *cls, size_t clen, const char *method,
                     size_t mlen, long line, gd_retrace_res *r, gd_error *err)
{
    return retrace(m, cls, clen, method, mlen, line, 0, r, err);
}

int gd_retrace_method(const gd_mapping *m, const char *cls, size_t clen, const char *method,
                      size_t mlen, gd_retrace_res *r, gd_error *err)
{
    return retrace(m, cls, clen, method, mlen, -1, 1, r, err);
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
    const char *dot = NULL;
    for (const char *x = frame; x < paren; x++) {
        if (isspace((unsigned char)*x) || *x == ':' || *x == '"' || *x == '/' || *x == ')')
            return 0;
        if (*x == '.')
            dot = x;
    }
    if (!dot || dot == frame || dot + 1 == paren)
        return 0;
    const char *close = strchr(paren, ')');
    if (!close)
        return 0;
    p->cls = frame;
    p->clen = (size_t)(dot - frame);
    p->method = dot + 1;
    p->mlen = (size_t)(paren - dot - 1);
    p->file = paren + 1;
    p->flen = (size_t)(close - paren - 1);
    p->line = -1;
    const char *colon = NULL;
    for (const char *x = p->file; x < close; x++)
        if (*x == ':')
            colon = x;
    if (colon && colon + 1 < close) {
        long v = 0;
        const char *x = colon + 1;
        while (x < close && isdigit((unsigned char)*x) && v < 100000000)
            v = v * 10 + (*x++ - '0');
        if (x == close) {
            p->line = v;
            p->flen = (size_t)(colon - p->file);
        }
    }
    p->rest = close + 1;
    return 1;
}
