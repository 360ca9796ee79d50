/* retrace.c - R8/ProGuard mapping parser, its index, and frame retrace. */
#include "retrace.h"

#include <ctype.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* A member line.  Strings are offsets into the arena (0 = none). */
typedef struct member {
    uint32_t cls;        /* index of its class                               */
    uint32_t obf;        /* obfuscated name                                  */
    uint32_t name;       /* original method name                             */
    uint32_t ocls;       /* original class when qualified, else 0            */
    uint32_t file;       /* file of ocls, else 0 (the class's)               */
    int32_t a, b, c, d;  /* obfuscated range a:b, original c:d; -1 none      */
    uint32_t seq;        /* file order                                       */
    uint8_t cont;        /* continues the inline chain of the member before  */
    uint8_t synth;       /* R8 synthesized                                   */
} member;

typedef struct klass {
    uint32_t orig, obf, file;
    uint32_t first, count; /* its members after sorting                     */
    uint8_t synth;
} klass;

struct gd_mapping {
    char *arena;
    size_t alen, acap;
    uint32_t *strs;      /* intern table: arena offsets, 0 empty            */
    size_t scap, nstrs;
    uint32_t *ctab;      /* class table by obf offset: class index + 1      */
    size_t ccap;
    klass *cls;
    size_t ncls, clscap;
    member *mem;
    size_t nmem, memcap;
    char hash[33];
    char *version;
    char *unknown_id;
    size_t nunknown;
    long unknown_line;
};

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
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
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
static uint32_t str_intern(gd_mapping *m, const char *s, size_t n, gd_error *err)
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

static int ctab_put(gd_mapping *m, uint32_t obf, uint32_t idx, gd_error *err)
{
    if ((m->ncls + 1) * 2 > m->ccap) {
        size_t ncap = m->ccap ? m->ccap * 2 : 256;
        uint32_t *t = calloc(ncap, sizeof *t);
        if (!t)
            return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
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

static const klass *class_find(const gd_mapping *m, const char *s, size_t n)
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
static uint32_t derived_file(gd_mapping *m, const char *cls, size_t n, gd_error *err)
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
    return str_intern(m, buf, k + 5, err);
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

/* ---- parsing ---- */

typedef struct pstate {
    gd_mapping *m;
    long lineno;
    int have_class;      /* a class line seen                                */
    int last_member;     /* the last non-comment line was a member line      */
    uint32_t seq;
} pstate;

static int perr(pstate *p, const char *line, const char *at, const char *what, gd_error *err)
{
    return gd_error_set(err, GD_ERR_DATA, p->lineno, (long)(at - line) + 1, "%s", what);
}

/* Reads digits at *s into *v (bounded); 1 when at least one digit. */
static int read_int(const char **s, const char *end, int32_t *v)
{
    const char *q = *s;
    long long x = 0;
    while (q < end && isdigit((unsigned char)*q)) {
        if (x < 1000000000)
            x = x * 10 + (*q - '0');
        q++;
    }
    if (q == *s)
        return 0;
    *v = (int32_t)(x > INT32_MAX ? INT32_MAX : x);
    *s = q;
    return 1;
}

static const char *find_arrow(const char *s, const char *end)
{
    const char *found = NULL;
    for (const char *q = s; q + 4 <= end; q++)
        if (q[0] == ' ' && q[1] == '-' && q[2] == '>' && q[3] == ' ')
            found = q;
    return found;
}

static void trim(const char **s, const char **e)
{
    while (*s < *e && isspace((unsigned char)**s))
        (*s)++;
    while (*e > *s && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

static int parse_class(pstate *p, const char *line, size_t len, gd_error *err)
{
    gd_mapping *m = p->m;
    const char *end = line + len;
    const char *arrow = find_arrow(line, end);
    if (!arrow)
        return perr(p, line, line, "expected 'original -> obfuscated:'", err);
    const char *os = line, *oe = arrow, *bs = arrow + 4, *be = end;
    trim(&os, &oe);
    trim(&bs, &be);
    if (be == bs || be[-1] != ':')
        return perr(p, line, be, "expected ':' at the end of a class line", err);
    be--;
    trim(&bs, &be);
    if (os == oe || bs == be)
        return perr(p, line, os == oe ? os : bs, "empty class name", err);
    if (gd_grow((void **)&m->cls, &m->clscap, m->ncls + 1, sizeof *m->cls, err))
        return err->code;
    klass k = {0};
    if (!(k.orig = str_intern(m, os, (size_t)(oe - os), err)) ||
        !(k.obf = str_intern(m, bs, (size_t)(be - bs), err)) ||
        !(k.file = derived_file(m, os, (size_t)(oe - os), err)))
        return err->code;
    if (class_find(m, bs, (size_t)(be - bs)))
        return perr(p, line, bs, "obfuscated class named twice", err);
    m->cls[m->ncls] = k;
    if (ctab_put(m, k.obf, (uint32_t)m->ncls, err))
        return err->code;
    m->ncls++;
    p->have_class = 1;
    p->last_member = 0;
    return GD_OK;
}

static int parse_member(pstate *p, const char *line, size_t len, gd_error *err)
{
    gd_mapping *m = p->m;
    const char *end = line + len, *s = line;
    while (s < end && isspace((unsigned char)*s))
        s++;
    if (!p->have_class)
        return perr(p, line, s, "member line before any class line", err);
    const char *arrow = find_arrow(s, end);
    if (!arrow)
        return perr(p, line, s, "expected 'member -> obfuscated'", err);
    const char *os = arrow + 4, *oe = end;
    trim(&os, &oe);
    if (os == oe)
        return perr(p, line, arrow + 4, "empty obfuscated name", err);
    const char *paren = memchr(s, '(', (size_t)(arrow - s));
    if (!paren) { /* a field: not needed to retrace frames */
        p->last_member = 0;
        return GD_OK;
    }
    member mb = {.a = -1, .b = -1, .c = -1, .d = -1};
    if (isdigit((unsigned char)*s)) {
        if (!read_int(&s, arrow, &mb.a) || s >= arrow || *s != ':')
            return perr(p, line, s, "expected ':' after a line number", err);
        s++;
        if (isdigit((unsigned char)*s)) {
            if (!read_int(&s, arrow, &mb.b) || s >= arrow || *s != ':')
                return perr(p, line, s, "expected ':' after a line range", err);
            s++;
        } else {
            mb.b = mb.a;
        }
        if (mb.b < mb.a)
            return perr(p, line, s, "line range ends before it starts", err);
    }
    /* return type, then the name up to '(' */
    const char *sp = s;
    while (sp < paren && *sp != ' ')
        sp++;
    if (sp >= paren)
        return perr(p, line, s, "expected 'type name(args)'", err);
    const char *ns = sp + 1, *ne = paren;
    trim(&ns, &ne);
    if (ns == ne)
        return perr(p, line, ns, "empty method name", err);
    const char *close = memchr(paren, ')', (size_t)(arrow - paren));
    if (!close)
        return perr(p, line, paren, "expected ')'", err);
    const char *q = close + 1;
    if (q < arrow && *q == ':') {
        q++;
        if (!read_int(&q, arrow, &mb.c))
            return perr(p, line, q, "expected an original line number", err);
        if (q < arrow && *q == ':') {
            q++;
            if (!read_int(&q, arrow, &mb.d))
                return perr(p, line, q, "expected an original line number", err);
        }
    }
    while (q < arrow && isspace((unsigned char)*q))
        q++;
    if (q != arrow)
        return perr(p, line, q, "unexpected text before '->'", err);
    /* a qualified name: code moved in from another class */
    const char *dot = NULL;
    for (const char *x = ns; x < ne; x++)
        if (*x == '.')
            dot = x;
    if (dot) {
        if (dot == ns || dot + 1 == ne)
            return perr(p, line, ns, "bad qualified method name", err);
        if (!(mb.ocls = str_intern(m, ns, (size_t)(dot - ns), err)) ||
            !(mb.file = derived_file(m, ns, (size_t)(dot - ns), err)))
            return err->code;
        ns = dot + 1;
    }
    if (!(mb.name = str_intern(m, ns, (size_t)(ne - ns), err)) ||
        !(mb.obf = str_intern(m, os, (size_t)(oe - os), err)))
        return err->code;
    mb.cls = (uint32_t)(m->ncls - 1);
    mb.seq = p->seq++;
    if (p->last_member && m->nmem) {
        const member *prev = &m->mem[m->nmem - 1];
        if (prev->cls == mb.cls && prev->obf == mb.obf && mb.a >= 0 && prev->a == mb.a &&
            prev->b == mb.b)
            mb.cont = 1;
    }
    if (gd_grow((void **)&m->mem, &m->memcap, m->nmem + 1, sizeof *m->mem, err))
        return err->code;
    m->mem[m->nmem++] = mb;
    p->last_member = 1;
    return GD_OK;
}

static int parse_comment(pstate *p, const char *line, size_t len, gd_error *err)
{
    gd_mapping *m = p->m;
    const char *s = line + 1, *end = line + len;
    while (s < end && isspace((unsigned char)*s))
        s++;
    if (s == end || *s != '{')
        return GD_OK; /* a plain comment */
    json_error_t je;
    json_t *o = json_loadb(s, (size_t)(end - s), 0, &je);
    const char *id = o ? json_string_value(json_object_get(o, "id")) : NULL;
    if (!id) {
        json_decref(o);
        return GD_OK; /* not metadata */
    }
    if (!strcmp(id, "com.android.tools.r8.mapping")) {
        const char *v = json_string_value(json_object_get(o, "version"));
        if (v && !m->version && !(m->version = strdup(v))) {
            json_decref(o);
            return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
        }
    } else if (!strcmp(id, "sourceFile")) {
        const char *f = json_string_value(json_object_get(o, "fileName"));
        if (f && p->have_class && !p->last_member) {
            uint32_t fo = str_intern(m, f, strlen(f), err);
            if (!fo) {
                json_decref(o);
                return err->code;
            }
            m->cls[m->ncls - 1].file = fo;
        }
    } else if (!strcmp(id, "com.android.tools.r8.synthesized")) {
        if (p->last_member && m->nmem)
            m->mem[m->nmem - 1].synth = 1;
        else if (p->have_class)
            m->cls[m->ncls - 1].synth = 1;
    } else {
        if (!m->nunknown++) {
            m->unknown_line = p->lineno;
            if (!(m->unknown_id = strdup(id))) {
                json_decref(o);
                return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
            }
        }
    }
    json_decref(o);
    return GD_OK;
}

static int cmp_member(const void *x, const void *y)
{
    const member *a = x, *b = y;
    if (a->cls != b->cls)
        return a->cls < b->cls ? -1 : 1;
    if (a->obf != b->obf)
        return a->obf < b->obf ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int gd_mapping_load(gd_mapping **out, gd_input *in, gd_error *err)
{
    *out = NULL;
    gd_mapping *m = calloc(1, sizeof *m);
    if (!m)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    /* offset 0 means "none": the arena starts with one NUL */
    if (gd_grow((void **)&m->arena, &m->acap, 1 << 16, 1, err)) {
        free(m);
        return err->code;
    }
    m->arena[0] = 0;
    m->alen = 1;
    pstate p = {.m = m};
    char *line;
    size_t len;
    int r, code = GD_OK;
    while ((r = gd_input_getline(in, &line, &len, err)) > 0) {
        p.lineno = gd_input_lineno(in);
        if (p.lineno == 1 && len >= 3 && !memcmp(line, "\xEF\xBB\xBF", 3)) {
            line += 3;
            len -= 3;
        }
        size_t i = 0;
        while (i < len && isspace((unsigned char)line[i]))
            i++;
        if (i == len)
            continue;
        if (line[i] == '#')
            code = parse_comment(&p, line + i, len - i, err);
        else if (i == 0)
            code = parse_class(&p, line, len, err);
        else
            code = parse_member(&p, line, len, err);
        if (code)
            break;
    }
    if (!code && r < 0)
        code = err->code ? err->code : GD_ERR_IO;
    if (!code && m->ncls == 0)
        code = gd_error_set(err, GD_ERR_DATA, 0, 0, "not a mapping file: no 'original -> obfuscated:' class line");
    if (code) {
        gd_mapping_free(m);
        return code;
    }
    gd_sort(m->mem, m->nmem, sizeof *m->mem, cmp_member);
    for (size_t i = 0; i < m->nmem;) {
        size_t j = i;
        while (j < m->nmem && m->mem[j].cls == m->mem[i].cls)
            j++;
        m->cls[m->mem[i].cls].first = (uint32_t)i;
        m->cls[m->mem[i].cls].count = (uint32_t)(j - i);
        i = j;
    }
    gd_input_hash_hex(in, m->hash);
    *out = m;
    return GD_OK;
}

int gd_mapping_load_file(gd_mapping **out, const char *path, gd_error *err)
{
    gd_input *in;
    *out = NULL;
    int code = gd_input_open_file(&in, path, err);
    if (code)
        return code;
    code = gd_mapping_load(out, in, err);
    gd_input_close(in);
    return code;
}

const char *gd_mapping_class(const gd_mapping *m, const char *obf, size_t len)
{
    const klass *k = class_find(m, obf, len);
    return k ? S(m, k->orig) : NULL;
}

/* ---- retrace ---- */

void gd_retrace_res_free(gd_retrace_res *r)
{
    free(r->f);
    free(r->alt);
    memset(r, 0, sizeof *r);
}

static long map_line(const member *mb, long line)
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

static gd_rframe member_frame(const gd_mapping *m, const klass *k, const member *mb, long line)
{
    gd_rframe f = {mb->ocls ? S(m, mb->ocls) : S(m, k->orig), S(m, mb->name),
                   mb->file ? S(m, mb->file) : S(m, k->file), line};
    return f;
}

static int synthesized(const klass *k, const member *mb)
{
    return mb->synth || (!mb->ocls && k->synth);
}

/* Adds the inline chain starting at g (up to `end`) as one alternative. */
static int add_chain(const gd_mapping *m, const klass *k, const member *g, const member *end,
                     long line, gd_retrace_res *r, gd_error *err)
{
    const member *e = g + 1;
    while (e < end && e->cont)
        e++;
    size_t kept = 0;
    for (const member *x = g; x < e; x++)
        kept += !synthesized(k, x);
    for (const member *x = g; x < e; x++) {
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
    const klass *k = class_find(m, cls, clen);
    if (!k)
        return GD_OK;
    uint32_t o = str_find(m, method, mlen);
    const member *lo = NULL, *hi = NULL;
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
        const member *kend = &m->mem[k->first + k->count];
        while (hi < kend && hi->obf == o)
            hi++;
    }
    if (lo != hi && outer_only) {
        /* a method as it exists at run time: the outermost member of each
         * inline chain (the method the others were inlined into) */
        for (const member *x = lo; x < hi; x++) {
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
        for (const member *x = lo; x < hi; x++)
            any |= !synthesized(k, x);
        for (const member *x = lo; x < hi; x++) {
            if (any && synthesized(k, x))
                continue;
            if (push_frame(r, member_frame(m, k, x, -1), err) || close_alt(r, err))
                return err->code;
        }
        r->member_known = 1;
        return GD_OK;
    }
    /* the chains whose range holds the line, and those without a range */
    for (const member *g = lo; g < hi; g++) {
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
