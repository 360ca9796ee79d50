/* godeye_fast.c - tokenizer for the hot event kinds (looper, stack, cpu) of
 * the godeye capture format; anything unusual goes to the jansson path. */
#include "godeye_fast.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* At '"': decodes into the scratch. 0 ok, -1 not for the fast path. */
static int string(parser *ps, const char **out)
{
    const char *p = ps->p + 1;
    char *o = ps->out;
    *out = o;
    while (p < ps->end) {
        /* runs of plain printable ASCII, copied in one go */
        const char *run = p;
        while (p < ps->end && (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x80 && *p != '"' &&
               *p != '\\')
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

/* A number in strict JSON grammar. 0 ok, -1 not for the fast path. */
static int number(parser *ps, val *v)
{
    const char *p = ps->p, *s = p;
    int is_int = 1;
    if (p < ps->end && *p == '-')
        p++;
    if (p >= ps->end || !is_digit(*p))
        return -1;
    if (*p == '0') {
        p++;
    } else {
        while (p < ps->end && is_digit(*p))
            p++;
    }
    if (p < ps->end && *p == '.') {
        is_int = 0;
        p++;
        if (p >= ps->end || !is_digit(*p))
            return -1;
        while (p < ps->end && is_digit(*p))
            p++;
    }
    if (p < ps->end && (*p == 'e' || *p == 'E')) {
        is_int = 0;
        p++;
        if (p < ps->end && (*p == '+' || *p == '-'))
            p++;
        if (p >= ps->end || !is_digit(*p))
            return -1;
        while (p < ps->end && is_digit(*p))
            p++;
    }
    size_t n = (size_t)(p - s);
    if (is_int) {
        size_t digits = n - (*s == '-');
        if (digits > 18)
            return -1; /* near the int64 limits: jansson decides */
        int64_t x = 0;
        for (const char *q = s + (*s == '-'); q < p; q++)
            x = x * 10 + (*q - '0');
        v->t = V_INT;
        v->i = *s == '-' ? -x : x;
        v->d = (double)v->i;
    } else {
        char tmp[64];
        if (n >= sizeof tmp)
            return -1;
        memcpy(tmp, s, n);
        tmp[n] = 0;
        errno = 0;
        char *e;
        v->d = strtod(tmp, &e);
        if (errno == ERANGE || e != tmp + n)
            return -1;
        v->t = V_NUM;
    }
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

enum { K_TYPE, K_TS, K_TID, K_PID, K_THREAD, K_PHASE, K_THREAD_TS, K_MSG, K_FRAMES, K_STATE,
       K_STAT, K_PID_STAT, K_TOTAL, K_APP, K_USER, K_SYS, K_IOWAIT, K__COUNT };
static const char *const key_names[K__COUNT] = {
    "type", "ts", "tid", "pid", "thread", "phase", "thread_ts", "msg", "frames", "state",
    "stat", "pid_stat", "total", "app", "user", "sys", "iowait"};

static int key_of(const char *k)
{
    /* the first letter narrows it to at most five names */
    for (int i = 0; i < K__COUNT; i++)
        if (k[0] == key_names[i][0] && strcmp(k, key_names[i]) == 0)
            return i;
    return -1;
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
    parser ps = {text, text + len, sc->buf, sc, 0};
    val f[K__COUNT];
    for (int i = 0; i < K__COUNT; i++)
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
        const char *k;
        char *mark = ps.out;
        if (string(&ps, &k))
            return 0;
        int ki = key_of(k);
        ps.out = mark; /* the key text is not kept */
        ws(&ps);
        if (ps.p >= ps.end || *ps.p != ':')
            return 0;
        ps.p++;
        ws(&ps);
        val v;
        int r = value(&ps, &v, ki == K_FRAMES);
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

    if (f[K_TYPE].t != V_STR)
        return 0;
    const char *type = f[K_TYPE].s;
    gd_event_kind kind;
    if (strcmp(type, "looper") == 0)
        kind = GD_EV_LOOPER;
    else if (strcmp(type, "stack") == 0)
        kind = GD_EV_STACK;
    else if (strcmp(type, "cpu") == 0)
        kind = GD_EV_CPU;
    else
        return 0;
    gd_event_init(ev, kind);
    if (f[K_TS].t != V_NUM && f[K_TS].t != V_INT)
        return 0;
    ev->ts = f[K_TS].d;
    if (f[K_TID].t == V_INT)
        ev->tid = f[K_TID].i;
    else if (f[K_TID].t != V_ABSENT && f[K_TID].t != V_NULL)
        return 0;
    if (f[K_PID].t == V_INT)
        ev->pid = f[K_PID].i;
    if (opt_s(&f[K_THREAD], &ev->thread))
        return 0;
    switch (kind) {
    case GD_EV_LOOPER: {
        const char *ph;
        if (opt_s(&f[K_PHASE], &ph))
            return 0;
        if (ph && strcmp(ph, "begin") == 0)
            ev->u.looper.phase = GD_PHASE_BEGIN;
        else if (ph && strcmp(ph, "end") == 0)
            ev->u.looper.phase = GD_PHASE_END;
        else if (ph)
            return 0;
        if (opt_d(&f[K_THREAD_TS], &ev->u.looper.thread_ts) || opt_s(&f[K_MSG], &ev->u.looper.msg))
            return 0;
        return 1;
    }
    case GD_EV_STACK:
        if (f[K_FRAMES].t != V_FRAMES)
            return 0;
        ev->u.stack.frames = sc->frames;
        ev->u.stack.nframes = ps.nframes;
        if (opt_s(&f[K_STATE], &ev->u.stack.state))
            return 0;
        return 1;
    default: {
        gd_cpu_ev *cpu = &ev->u.cpu;
        const char *st, *pst;
        if (opt_s(&f[K_STAT], &st) || opt_s(&f[K_PID_STAT], &pst))
            return 0;
        if (st && gd_procstat_parse_stat(st, &cpu->raw) != 0)
            return 0;
        if (pst && gd_procstat_parse_pid_stat(pst, &cpu->raw, NULL, NULL, 0) != 0)
            return 0;
        if (opt_d(&f[K_TOTAL], &cpu->total) || opt_d(&f[K_APP], &cpu->app) ||
            opt_d(&f[K_USER], &cpu->user) || opt_d(&f[K_SYS], &cpu->sys) ||
            opt_d(&f[K_IOWAIT], &cpu->iowait))
            return 0;
        if (!cpu->raw.has_stat && !gd_has(cpu->total) && !gd_has(cpu->app))
            return 0;
        return 1;
    }
    }
}

void gd_fast_scratch_free(gd_fast_scratch *sc)
{
    free(sc->buf);
    free(sc->frames);
    sc->buf = NULL;
    sc->frames = NULL;
    sc->cap = sc->frames_cap = 0;
}
