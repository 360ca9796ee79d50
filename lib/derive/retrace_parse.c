/* retrace_parse.c - the R8/ProGuard mapping.txt parser into the mapping index. */
#include "retrace.h"

#include <ctype.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "derive/retrace_int.h"

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
    rt_klass k = {0};
    if (!(k.orig = rt_str_intern(m, os, (size_t)(oe - os), err)) ||
        !(k.obf = rt_str_intern(m, bs, (size_t)(be - bs), err)) ||
        !(k.file = rt_derived_file(m, os, (size_t)(oe - os), err)))
        return err->code;
    if (rt_class_find(m, bs, (size_t)(be - bs)))
        return perr(p, line, bs, "obfuscated class named twice", err);
    m->cls[m->ncls] = k;
    if (rt_ctab_put(m, k.obf, (uint32_t)m->ncls, err))
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
    rt_member mb = {.a = -1, .b = -1, .c = -1, .d = -1};
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
        if (!(mb.ocls = rt_str_intern(m, ns, (size_t)(dot - ns), err)) ||
            !(mb.file = rt_derived_file(m, ns, (size_t)(dot - ns), err)))
            return err->code;
        ns = dot + 1;
    }
    if (!(mb.name = rt_str_intern(m, ns, (size_t)(ne - ns), err)) ||
        !(mb.obf = rt_str_intern(m, os, (size_t)(oe - os), err)))
        return err->code;
    mb.cls = (uint32_t)(m->ncls - 1);
    mb.seq = p->seq++;
    if (p->last_member && m->nmem) {
        const rt_member *prev = &m->mem[m->nmem - 1];
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
            return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
        }
    } else if (!strcmp(id, "sourceFile")) {
        const char *f = json_string_value(json_object_get(o, "fileName"));
        if (f && p->have_class && !p->last_member) {
            uint32_t fo = rt_str_intern(m, f, strlen(f), err);
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
                return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
            }
        }
    }
    json_decref(o);
    return GD_OK;
}

static int cmp_member(const void *x, const void *y)
{
    const rt_member *a = x, *b = y;
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
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
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
