/* godeye_fast.c - tokenizer for the hot event kinds (looper, stack, cpu) of
 * the godeye capture format; anything unusual goes to the jansson path. */
#include "godeye_fast.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/capture_format.h"
#include "procstat.h"

enum { V_ABSENT, V_NULL, V_STR, V_NUM, V_INT, V_OTHER, V_FRAMES };

typedef struct val {
    int t;
    const char *s;   /* V_STR: decoded, NUL-terminated in the scratch */
    double d;        /* V_NUM, V_INT */
    int64_t i;       /* V_INT */
} val;

typedef struct parser {
    const char *p, *end;
    char *out;       /* next free byte of the scratch buffer */
    gd_fast_scratch *sc;
    size_t nframes;
} parser;

static void ws(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

/* 1 for the bytes a string may hold as they are: printable ASCII but '"' and '\\'. */
static const unsigned char plain[256] = {[0x20 ... 0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0x7f] = 1};

/* At '"': decodes into the scratch. 0 ok, -1 not for the fast path. */
static int string(parser *ps, const char **out)
{
    const char *p = ps->p + 1;
    char *o = ps->out;
    *out = o;
    while (p < ps->end) {
        /* runs of plain printable ASCII, copied in one go */
        const char *run = p;
        while (p < ps->end && plain[(unsigned char)*p])
            p++;
        memcpy(o, run, (size_t)(p - run));
        o += p - run;
        if (p >= ps->end)
            break;
        unsigned char ch = (unsigned char)*p++;
        if (ch == '"') {
            *o++ = 0;
            ps->out = o;
            ps->p = p;
            return 0;
        }
        if (ch < 0x20 || ch >= 0x80)
            return -1;
        if (ch != '\\') {
            *o++ = (char)ch;
            continue;
        }
        if (p >= ps->end)
            return -1;
        switch (*p++) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        default: return -1; /* \u and invalid escapes: jansson decides */
        }
    }
    return -1;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Powers of ten exact in a double. */
static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                               1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* A number in strict JSON grammar, read in place (at most 19 significant
 * digits worth 2^53 or less and a power of ten up to 22 exactly, as in
 * Clinger's fast path; else strtod). 0 ok, -1 not for the fast path. */
static int number(parser *ps, val *v)
{
    const char *p = ps->p, *s = p;
    int is_int = 1, neg = 0, ndig = 0, frac = 0, exp = 0, eneg = 0, edig = 0;
    uint64_t m = 0; /* the significant digits, while there are at most 19 */
    if (p < ps->end && *p == '-')
        p++, neg = 1;
    if (p >= ps->end || !is_digit(*p))
        return -1;
    if (*p == '0') {
        p++;
    } else {
        for (; p < ps->end && is_digit(*p); p++, ndig++)
            m = m * 10 + (uint64_t)(*p - '0');
    }
    if (p < ps->end && *p == '.') {
        is_int = 0;
        p++;
        if (p >= ps->end || !is_digit(*p))
            return -1;
        for (; p < ps->end && is_digit(*p); p++, frac++) {
            if (m || *p != '0')
                ndig++;
            m = m * 10 + (uint64_t)(*p - '0');
        }
    }
    if (p < ps->end && (*p == 'e' || *p == 'E')) {
        is_int = 0;
        p++;
        if (p < ps->end && (*p == '+' || *p == '-'))
            eneg = *p++ == '-';
        if (p >= ps->end || !is_digit(*p))
            return -1;
        for (; p < ps->end && is_digit(*p); p++, edig++)
            exp = edig < 6 ? exp * 10 + (*p - '0') : exp;
    }
    size_t n = (size_t)(p - s);
    if (is_int) {
        if (ndig > 18)
            return -1; /* near the int64 limits: jansson decides */
        v->t = V_INT;
        v->i = neg ? -(int64_t)m : (int64_t)m;
        v->d = (double)v->i;
        ps->p = p;
        return 0;
    }
    int e = (eneg ? -exp : exp) - frac;
    if (ndig <= 19 && m <= ((uint64_t)1 << 53) && edig <= 5 && e >= -22 && e <= 22) {
        /* m and 10^|e| are exact doubles: one rounding, as strtod does */
        double d = e >= 0 ? (double)m * pow10[e] : (double)m / pow10[-e];
        v->d = neg ? -d : d;
    } else {
        char tmp[64];
        if (n >= sizeof tmp)
            return -1;
        memcpy(tmp, s, n);
        tmp[n] = 0;
        errno = 0;
        char *end;
        v->d = strtod(tmp, &end);
        if (errno == ERANGE || end != tmp + n)
            return -1;
    }
    v->t = V_NUM;
    ps->p = p;
    return 0;
}

static int literal(parser *ps, const char *word, int t, val *v)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return -1;
    ps->p += n;
    v->t = t;
    return 0;
}

/* Any scalar value, or with frames_ok an array of strings. */
static int value(parser *ps, val *v, int frames_ok)
{
    if (ps->p >= ps->end)
        return -1;
    switch (*ps->p) {
    case '"':
        v->t = V_STR;
        return string(ps, &v->s);
    case 'n':
        return literal(ps, "null", V_NULL, v);
    case 't':
        return literal(ps, "true", V_OTHER, v);
    case 'f':
        return literal(ps, "false", V_OTHER, v);
    case '[': {
        if (!frames_ok)
            return -1;
        gd_fast_scratch *sc = ps->sc;
        size_t n = 0;
        ps->p++;
        ws(ps);
        if (ps->p < ps->end && *ps->p == ']') {
            ps->p++;
        } else {
            for (;;) {
                ws(ps);
                if (ps->p >= ps->end || *ps->p != '"')
                    return -1;
                if (n == sc->frames_cap) {
                    size_t nc = sc->frames_cap ? sc->frames_cap * 2 : 64;
                    const char **nf = realloc(sc->frames, nc * sizeof *nf);
                    if (!nf)
                        return -2;
                    sc->frames = nf;
                    sc->frames_cap = nc;
                }
                if (string(ps, &sc->frames[n]))
                    return -1;
                n++;
                ws(ps);
                if (ps->p < ps->end && *ps->p == ',') {
                    ps->p++;
                    continue;
                }
                if (ps->p < ps->end && *ps->p == ']') {
                    ps->p++;
                    break;
                }
                return -1;
            }
        }
        ps->nframes = n;
        v->t = V_FRAMES;
        return 0;
    }
    default:
        return number(ps, v);
    }
}

/* The keys the fast path knows: the fields of every event and of the fast
 * kinds in the format's table (lib/core/capture_format.def), one slot per
 * name; built once per read. */
static void build_keys(gd_fast_scratch *sc)
{
    for (int g = 0; g < GD_CFG__COUNT; g++) {
        if (g != GD_CFG_EVENT && !(gd_cf_groups[g].flags & GD_CF_FAST))
            continue;
        for (unsigned i = gd_cf_group_first[g]; i < gd_cf_group_first[g + 1]; i++) {
            const gd_cf_field *f = &gd_cf_fields[i];
            if ((f->flags & GD_CF_OUT) || sc->nfields == GD_FAST_MAX_KEYS)
                continue;
            int k = 0;
            while (k < sc->nkeys && strcmp(sc->keys[k].name, f->key) != 0)
                k++;
            if (k == sc->nkeys) {
                if (k == GD_FAST_MAX_KEYS)
                    continue;
                sc->keys[k].name = f->key;
                sc->keys[k].len = f->len;
                sc->keys[k].frames = f->handler == GD_CF_FRAMES;
                if (f->handler == GD_CF_TYPE)
                    sc->type_slot = k;
                sc->nkeys++;
            }
            sc->fields[sc->nfields].field = (unsigned short)i;
            sc->fields[sc->nfields].group = (unsigned char)g;
            sc->fields[sc->nfields].slot = (unsigned char)k;
            sc->nfields++;
        }
    }
}

/* The slot of the key text [k, k + n), or -1. */
static int key_slot(const gd_fast_scratch *sc, const char *k, size_t n)
{
    for (int i = 0; i < sc->nkeys; i++)
        if (sc->keys[i].len == n && sc->keys[i].name[0] == k[0] && memcmp(sc->keys[i].name, k, n) == 0)
            return i;
    return -1;
}

/* At '"': the slot of the key (-1 unknown); -2 when not for the fast path. */
static int key(parser *ps)
{
    const char *p = ps->p + 1, *s = p;
    while (p < ps->end && plain[(unsigned char)*p])
        p++;
    if (p < ps->end && *p == '"') {
        ps->p = p + 1;
        return key_slot(ps->sc, s, (size_t)(p - s));
    }
    /* escapes and the rest: decoded as a string value is */
    const char *k;
    char *mark = ps->out;
    if (string(ps, &k))
        return -2;
    ps->out = mark; /* the key text is not kept */
    return key_slot(ps->sc, k, strlen(k));
}

/* Optional string field: absent or null -> NULL; other types refuse. */
static int opt_s(const val *v, const char **out)
{
    if (v->t == V_ABSENT || v->t == V_NULL) {
        *out = NULL;
        return 0;
    }
    if (v->t != V_STR)
        return -1;
    *out = v->s;
    return 0;
}

static int opt_d(const val *v, double *out)
{
    if (v->t == V_ABSENT || v->t == V_NULL) {
        *out = GD_NONE;
        return 0;
    }
    if (v->t != V_NUM && v->t != V_INT)
        return -1;
    *out = v->d;
    return 0;
}

/* One field of the table from its value; 0 when the general path must read it. */
static int apply(const gd_cf_field *f, const val *v, gd_fast_scratch *sc, size_t nframes, gd_event *ev)
{
    switch (f->handler) {
    case GD_CF_TYPE:
        return 1;
    case GD_CF_TS:
        if (v->t != V_NUM && v->t != V_INT)
            return 0;
        *GD_CF_AT(ev, f, double) = v->d;
        return 1;
    case GD_CF_TID:
        if (v->t == V_INT)
            *GD_CF_AT(ev, f, int64_t) = v->i;
        return v->t == V_INT || v->t == V_ABSENT || v->t == V_NULL;
    case GD_CF_PID:
        if (v->t == V_INT)
            *GD_CF_AT(ev, f, int64_t) = v->i;
        return 1;
    case GD_CF_STR:
        return opt_s(v, GD_CF_AT(ev, f, const char *)) == 0;
    case GD_CF_NUM:
        return opt_d(v, GD_CF_AT(ev, f, double)) == 0;
    case GD_CF_PHASE_BE: {
        const char *ph;
        gd_phase *p = GD_CF_AT(ev, f, gd_phase);
        if (opt_s(v, &ph))
            return 0;
        if (ph && strcmp(ph, "begin") == 0)
            *p = GD_PHASE_BEGIN;
        else if (ph && strcmp(ph, "end") == 0)
            *p = GD_PHASE_END;
        return !ph || *p != GD_PHASE_UNKNOWN;
    }
    case GD_CF_FRAMES: {
        gd_stack_ev *st = GD_CF_AT(ev, f, gd_stack_ev);
        if (v->t != V_FRAMES)
            return 0;
        st->frames = sc->frames;
        st->nframes = nframes;
        return 1;
    }
    case GD_CF_STAT:
    case GD_CF_PID_STAT: {
        const char *s;
        gd_cpu_counters *raw = GD_CF_AT(ev, f, gd_cpu_counters);
        if (opt_s(v, &s))
            return 0;
        if (s && f->handler == GD_CF_STAT)
            return gd_procstat_parse_stat(s, raw) == 0;
        return !s || gd_procstat_parse_pid_stat(s, raw, NULL, NULL, 0) == 0;
    }
    default:
        return 0; /* a handler the fast path does not know */
    }
}

/* The event from the values of its keys: 1, or 0 for the general path. */
static int fill(gd_fast_scratch *sc, const val *f, size_t nframes, gd_event *ev)
{
    const val *type = &f[sc->type_slot];
    if (type->t != V_STR)
        return 0;
    int kind = gd_event_kind_from_name(type->s);
    gd_cf_group_id g = kind < 0 ? GD_CFG_NONE : gd_cf_kind_group((gd_event_kind)kind);
    if (g == GD_CFG_NONE || !(gd_cf_groups[g].flags & GD_CF_FAST))
        return 0;
    gd_event_init(ev, (gd_event_kind)kind);
    for (int i = 0; i < sc->nfields; i++)
        if ((sc->fields[i].group == GD_CFG_EVENT || sc->fields[i].group == g) &&
            !apply(&gd_cf_fields[sc->fields[i].field], &f[sc->fields[i].slot], sc, nframes, ev))
            return 0;
    return gd_cf_check(ev) ? 0 : 1; /* the general path counts the skip */
}

int gd_fast_event(const char *text, size_t len, gd_fast_scratch *sc, gd_event *ev)
{
    if (sc->cap < len + 16) {
        size_t nc = len + 16 > 4096 ? len + 16 : 4096;
        char *nb = realloc(sc->buf, nc);
        if (!nb)
            return -1;
        sc->buf = nb;
        sc->cap = nc;
    }
    if (!sc->nkeys)
        build_keys(sc);
    parser ps = {text, text + len, sc->buf, sc, 0};
    val f[GD_FAST_MAX_KEYS];
    for (int i = 0; i < sc->nkeys; i++)
        f[i].t = V_ABSENT;
    ws(&ps);
    if (ps.p >= ps.end || *ps.p != '{')
        return 0;
    ps.p++;
    ws(&ps);
    if (ps.p < ps.end && *ps.p == '}')
        return 0;
    for (;;) {
        ws(&ps);
        if (ps.p >= ps.end || *ps.p != '"')
            return 0;
        int ki = key(&ps);
        if (ki == -2)
            return 0;
        ws(&ps);
        if (ps.p >= ps.end || *ps.p != ':')
            return 0;
        ps.p++;
        ws(&ps);
        val v;
        int r = value(&ps, &v, ki >= 0 && sc->keys[ki].frames);
        if (r == -2)
            return -1;
        if (r)
            return 0;
        if (ki >= 0)
            f[ki] = v;
        ws(&ps);
        if (ps.p < ps.end && *ps.p == ',') {
            ps.p++;
            continue;
        }
        if (ps.p < ps.end && *ps.p == '}') {
            ps.p++;
            break;
        }
        return 0;
    }
    ws(&ps);
    if (ps.p != ps.end)
        return 0;
    return fill(sc, f, ps.nframes, ev);
}

void gd_fast_scratch_free(gd_fast_scratch *sc)
{
    free(sc->buf);
    free(sc->frames);
    sc->buf = NULL;
    sc->frames = NULL;
    sc->cap = sc->frames_cap = 0;
}
