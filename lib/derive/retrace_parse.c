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
    if (!(k.orig = gd_retrace_str_intern(m, os, (size_t)(oe - os), err)) ||
        !(k.obf = gd_retrace_str_intern(m, bs, (size_t)(be - bs), err)) ||
        gd_retrace_derived_files(m, os, (size_t)(oe - os), &k.djava, &k.dkt, err))
        return err->code;
    if (gd_retrace_class_find(m, bs, (size_t)(be - bs)))
        return perr(p, line, bs, "obfuscated class named twice", err);
    m->cls[m->ncls] = k;
    if (gd_retrace_ctab_put(m, k.obf, (uint32_t)m->ncls, err))
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
        if (mb.b < mb.a) { /* R8 reads 5:3 as 3:5 */
            int32_t t = mb.a;
            mb.a = mb.b;
            mb.b = t;
        }
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
    if (mb.c >= 0 && mb.d >= 0 && mb.d < mb.c) { /* as R8 reads 5:2 */
        int32_t t = mb.c;
        mb.c = mb.d;
        mb.d = t;
    }
    const char *rs = s; /* the return type */
    /* a qualified name: code moved in from another class */
    const char *dot = NULL;
    for (const char *x = ns; x < ne; x++)
        if (*x == '.')
            dot = x;
    if (dot) {
        if (dot == ns || dot + 1 == ne)
            return perr(p, line, ns, "bad qualified method name", err);
        if (!(mb.ocls = gd_retrace_str_intern(m, ns, (size_t)(dot - ns), err)) ||
            gd_retrace_derived_files(m, ns, (size_t)(dot - ns), &mb.djava, &mb.dkt, err))
            return err->code;
        ns = dot + 1;
    }
    char sig[1024];
    size_t rl = (size_t)(sp - rs), nl = (size_t)(ne - ns), al = (size_t)(close + 1 - paren);
    if (rl + nl + al + 2 < sizeof sig) { /* "ret name(a,b)", as R8 prints it */
        memcpy(sig, rs, rl);
        sig[rl] = ' ';
        memcpy(sig + rl + 1, ns, nl);
        size_t k = rl + 1 + nl;
        for (const char *x = paren; x <= close; x++)
            if (!isspace((unsigned char)*x))
                sig[k++] = *x;
        if (!(mb.sig = gd_retrace_str_intern(m, sig, k, err)))
            return err->code;
    }
    if (!(mb.name = gd_retrace_str_intern(m, ns, (size_t)(ne - ns), err)) ||
        !(mb.obf = gd_retrace_str_intern(m, os, (size_t)(oe - os), err)))
        return err->code;
    mb.cls = (uint32_t)(m->ncls - 1);
    mb.seq = p->seq++;
    if (gd_grow((void **)&m->mem, &m->memcap, m->nmem + 1, sizeof *m->mem, err))
        return err->code;
    m->mem[m->nmem++] = mb;
    p->last_member = 1;
    return GD_OK;
}

/* R8's lenient JSON (single-quoted strings, bare keys) as strict JSON in
 * out (cap bytes); 0 when it does not fit. */
static size_t lenient_json(const char *s, size_t n, char *out, size_t cap)
{
    size_t o = 0;
#define PUT(c) do { if (o + 1 >= cap) return 0; out[o++] = (c); } while (0)
    for (size_t i = 0; i < n;) {
        char c = s[i];
        if (c == '"' || c == '\'') {
            char q = c;
            PUT('"');
            for (i++; i < n && s[i] != q; i++) {
                if (s[i] == '\\' && i + 1 < n) {
                    PUT(s[i]);
                    PUT(s[++i]);
                } else if (s[i] == '"') {
                    PUT('\\');
                    PUT('"');
                } else {
                    PUT(s[i]);
                }
            }
            PUT('"');
            i++;
        } else if (isalpha((unsigned char)c) || c == '_' || c == '$') {
            size_t j = i;
            while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_' || s[j] == '$' || s[j] == '.'))
                j++;
            int word = (j - i == 4 && (!memcmp(s + i, "true", 4) || !memcmp(s + i, "null", 4))) ||
                       (j - i == 5 && !memcmp(s + i, "false", 5));
            if (!word)
                PUT('"');
            for (; i < j; i++)
                PUT(s[i]);
            if (!word)
                PUT('"');
        } else {
            PUT(c);
            i++;
        }
    }
#undef PUT
    out[o] = 0;
    return o;
}

/* rewriteFrame: the class of throws(Lx/y/Z;) (dotted) and the count of
 * removeInnerFrames(N), when both are there. */
static int parse_rewrite(pstate *p, json_t *o, gd_error *err)
{
    gd_mapping *m = p->m;
    if (!p->last_member || !m->nmem)
        return GD_OK;
    json_t *conds = json_object_get(o, "conditions"), *acts = json_object_get(o, "actions");
    size_t i;
    json_t *v;
    uint32_t thr = 0;
    json_array_foreach(conds, i, v) {
        const char *c = json_string_value(v);
        size_t l = c ? strlen(c) : 0;
        if (l > 10 && !strncmp(c, "throws(L", 8) && !strcmp(c + l - 2, ";)")) {
            char buf[512];
            size_t k = l - 10 < sizeof buf ? l - 10 : sizeof buf - 1;
            for (size_t j = 0; j < k; j++)
                buf[j] = c[8 + j] == '/' ? '.' : c[8 + j];
            if (!(thr = gd_retrace_str_intern(m, buf, k, err)))
                return err->code;
        }
    }
    json_array_foreach(acts, i, v) {
        const char *a = json_string_value(v);
        int n = 0;
        if (thr && a && sscanf(a, "removeInnerFrames(%d)", &n) == 1 && n > 0) {
            m->mem[m->nmem - 1].rw_throws = thr;
            m->mem[m->nmem - 1].rw_remove = (uint8_t)(n > 255 ? 255 : n);
        }
    }
    return GD_OK;
}

/* outlineCallsite: {"positions": {"1": 4, ...}} on the member before. */
static int parse_callsite(pstate *p, json_t *o, gd_error *err)
{
    gd_mapping *m = p->m;
    json_t *pos = json_object_get(o, "positions");
    if (!p->last_member || !m->nmem || !json_is_object(pos))
        return GD_OK;
    rt_member *mb = &m->mem[m->nmem - 1];
    mb->cs_first = (uint32_t)(m->ncs / 2);
    mb->cs_n = 0;
    const char *key;
    json_t *v;
    json_object_foreach(pos, key, v) {
        if (!json_is_integer(v) || mb->cs_n == UINT16_MAX)
            continue;
        if (gd_grow((void **)&m->cs, &m->cscap, m->ncs + 2, sizeof *m->cs, err))
            return err->code;
        long long kv = strtoll(key, NULL, 10), vv = json_integer_value(v);
        m->cs[m->ncs++] = (int32_t)(kv < 0 ? -1 : kv > INT32_MAX ? INT32_MAX : kv);
        m->cs[m->ncs++] = (int32_t)(vv < 0 ? -1 : vv > INT32_MAX ? INT32_MAX : vv);
        mb->cs_n++;
    }
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
    if (!o) {
        char buf[4096];
        size_t n = lenient_json(s, (size_t)(end - s), buf, sizeof buf);
        if (n)
            o = json_loadb(buf, n, 0, &je);
    }
    const char *id = o ? json_string_value(json_object_get(o, "id")) : NULL;
    if (!id) {
        json_decref(o);
        return GD_OK; /* not metadata */
    }
    if (!strcmp(id, "com.android.tools.r8.mapping")) {
        const char *v = json_string_value(json_object_get(o, "version"));
        if (v && !m->version && !(m->version = strdup(v))) {
            json_decref(o);
            return gd_error_oom(err);
        }
    } else if (!strcmp(id, "sourceFile")) {
        const char *f = json_string_value(json_object_get(o, "fileName"));
        if (f && p->have_class && !p->last_member) {
            uint32_t fo = gd_retrace_str_intern(m, f, strlen(f), err);
            if (!fo) {
                json_decref(o);
                return err->code;
            }
            m->cls[m->ncls - 1].file = fo;
        }
    } else if (!strcmp(id, "com.android.tools.r8.outline")) {
        if (p->last_member && m->nmem)
            m->mem[m->nmem - 1].outline = 1;
    } else if (!strcmp(id, "com.android.tools.r8.outlineCallsite")) {
        if (parse_callsite(p, o, err)) {
            json_decref(o);
            return err->code;
        }
    } else if (!strcmp(id, "com.android.tools.r8.rewriteFrame")) {
        if (parse_rewrite(p, o, err)) {
            json_decref(o);
            return err->code;
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
                return gd_error_oom(err);
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
        return gd_error_oom(err);
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
    /* an empty mapping is a mapping (R8 and ProGuard retrace nothing) */
    if (!code)
        code = gd_retrace_otab_build(m, err);
    if (code) {
        gd_mapping_free(m);
        return code;
    }
    gd_sort(m->mem, m->nmem, sizeof *m->mem, cmp_member);
    /* an inline chain, as R8 reads it: members of one name whose range
     * equals that of the member of that name before (other names between
     * them do not matter) */
    for (size_t i = 1; i < m->nmem; i++) {
        const rt_member *prev = &m->mem[i - 1], *mb = &m->mem[i];
        m->mem[i].cont = prev->cls == mb->cls && prev->obf == mb->obf && mb->a >= 0 &&
                         prev->a == mb->a && prev->b == mb->b;
    }
    for (size_t i = 0; i < m->nmem;) {
        size_t j = i;
        while (j < m->nmem && m->mem[j].cls == m->mem[i].cls)
            j++;
        m->cls[m->mem[i].cls].first = (uint32_t)i;
        m->cls[m->mem[i].cls].count = (uint32_t)(j - i);
        i = j;
    }
    /* code moved in from another class: that class's sourceFile */
    for (size_t i = 0; i < m->nmem; i++) {
        const rt_klass *k = gd_retrace_class_find_orig(m, m->mem[i].ocls);
        if (k && k->file)
            m->mem[i].file = k->file;
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
