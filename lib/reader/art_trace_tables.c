/* art_trace_tables.c - the method and thread tables of an ART/Dalvik method trace. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltree.h"
#include "reader.h"
#include "core/util.h"
#include "reader/art_trace_int.h"
#include "core/skip_reasons.h"

/* ---- tables --------------------------------------------------------------- */

static uint32_t mhash(uint32_t id) { return (id >> 2) * 2654435761u; }

int gd_art_method_find(const art *a, uint32_t id, const char **cls, const char **name,
                    const char **desc)
{
    if (!a->mcap)
        return 0;
    size_t mask = a->mcap - 1;
    for (size_t i = mhash(id) & mask;; i = (i + 1) & mask) {
        if (a->mval[i] == UINT32_MAX)
            return 0;
        if (a->mkey[i] == id) {
            *cls = a->names + a->mval[i];
            *name = *cls + strlen(*cls) + 1;
            *desc = *name + strlen(*name) + 1;
            return 1;
        }
    }
}

static int method_grow(art *a)
{
    size_t nc = a->mcap ? a->mcap * 2 : 4096;
    uint32_t *k = malloc(nc * sizeof *k), *v = malloc(nc * sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return gd_error_oom(a->err);
    }
    memset(v, 0xff, nc * sizeof *v);
    for (size_t i = 0; i < a->mcap; i++) {
        if (a->mval[i] == UINT32_MAX)
            continue;
        size_t j = mhash(a->mkey[i]) & (nc - 1);
        while (v[j] != UINT32_MAX)
            j = (j + 1) & (nc - 1);
        k[j] = a->mkey[i];
        v[j] = a->mval[i];
    }
    free(a->mkey);
    free(a->mval);
    a->mkey = k;
    a->mval = v;
    a->mcap = nc;
    return 0;
}

/* "0xID<TAB>class<TAB>name<TAB>signature[<TAB>file...]" (ID may be "0"). */
int gd_art_method_line(art *a, char *s, long lineno)
{
    char *f[4];
    int nf = 0;
    char *p = s;
    while (nf < 4) {
        f[nf++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = 0;
        p = t + 1;
    }
    char *e;
    unsigned long long id = strtoull(f[0], &e, 0);
    if (nf < 3 || e == f[0] || *e || id > UINT32_MAX || !*f[2]) {
        gd_sink_skip(a->sink, GD_SKIP(ART_METHOD_LINE_UNPARSABLE), lineno, 1);
        return 0;
    }
    const char *sig = nf >= 4 ? f[3] : "";
    size_t need = strlen(f[1]) + strlen(f[2]) + strlen(sig) + 3;
    if (a->mcount >= ART_MAX_METHODS || a->nlen + need > ART_MAX_NAMES) {
        gd_sink_skip(a->sink, GD_SKIP(ART_METHOD_TABLE_TOO_LARGE), lineno, 1);
        return 0;
    }
    const char *oc, *on, *od;
    if (gd_art_method_find(a, (uint32_t)id & ~3u, &oc, &on, &od)) {
        gd_sink_skip(a->sink, GD_SKIP(ART_METHOD_ID_DEFINED_TWICE), lineno, 1);
        return 0;
    }
    if ((a->mcount + 1) * 2 > a->mcap && method_grow(a))
        return a->err->code;
    if (gd_grow((void **)&a->names, &a->ncap, a->nlen + need, 1, a->err))
        return a->err->code;
    uint32_t at = (uint32_t)a->nlen;
    char *d = a->names + a->nlen;
    d += sprintf(d, "%s", f[1]) + 1;
    d += sprintf(d, "%s", f[2]) + 1;
    sprintf(d, "%s", sig);
    a->nlen += need;
    size_t j = mhash((uint32_t)id & ~3u) & (a->mcap - 1);
    while (a->mval[j] != UINT32_MAX)
        j = (j + 1) & (a->mcap - 1);
    a->mkey[j] = (uint32_t)id & ~3u;
    a->mval[j] = at;
    a->mcount++;
    return 0;
}

art_thread *gd_art_thread_get(art *a, unsigned tid)
{
    if (tid >= ART_MAX_THREADS)
        return NULL;
    if (!a->th[tid] && (a->th[tid] = calloc(1, sizeof(art_thread))) != NULL)
        a->used[a->nused++] = (uint16_t)tid;
    return a->th[tid];
}

int gd_art_thread_name(art *a, unsigned tid, const char *name, size_t n)
{
    art_thread *t = gd_art_thread_get(a, tid);
    if (!t)
        return gd_error_oom(a->err);
    char *c = malloc(n + 1);
    if (!c)
        return gd_error_oom(a->err);
    memcpy(c, name, n);
    c[n] = 0;
    free(t->name);
    t->name = c;
    if (n == 4 && memcmp(name, "main", 4) == 0 && a->main_tid < 0)
        a->main_tid = tid;
    return 0;
}
