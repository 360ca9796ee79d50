/* slicetrack.c - the one begin/end tracker: bounded stacks of open slices
 * per track (see slicetrack.h). */
#include "slicetrack.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltree.h"

typedef struct sstack {
    uint64_t id;
    int ns;               /* -1: empty slot */
    int64_t owner;        /* the thread of its last begin */
    gd_slice *v;
    int depth, cap;
    long over;            /* begins dropped (beyond a bound) still open */
    int over_mem;         /* that run began at the byte bound, not the depth */
} sstack;

struct gd_slicetrack {
    sstack *tab;
    size_t cap, n;        /* cap a power of two */
    size_t max_keys, max_open, open_bytes;
    size_t max_slices, open_n; /* open slices of every track: bound (0 none), count */
    int max_depth;
    int full;
};

gd_slicetrack *gd_slicetrack_new(size_t max_keys, int max_depth, size_t max_open)
{
    gd_slicetrack *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->max_keys = max_keys;
    st->max_depth = max_depth;
    st->max_open = max_open;
    return st;
}

void gd_slicetrack_free(gd_slicetrack *st)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->cap; i++) {
        sstack *s = &st->tab[i];
        if (s->ns < 0)
            continue;
        for (int d = 0; d < s->depth; d++)
            free(s->v[d].name);
        free(s->v);
    }
    free(st->tab);
    free(st);
}

static size_t slot_of(int ns, uint64_t id, size_t cap)
{
    uint64_t h = (id + (uint64_t)ns * 0xD6E8FEB86659FD93ull) * 0x9E3779B97F4A7C15ull;
    return (size_t)((h ^ (h >> 31)) & (cap - 1));
}

static int rehash(gd_slicetrack *st, size_t ncap)
{
    sstack *nt = malloc(ncap * sizeof *nt);
    if (!nt)
        return -1;
    for (size_t i = 0; i < ncap; i++)
        nt[i].ns = -1;
    for (size_t i = 0; i < st->cap; i++) {
        if (st->tab[i].ns < 0)
            continue;
        size_t h = slot_of(st->tab[i].ns, st->tab[i].id, ncap);
        while (nt[h].ns >= 0)
            h = (h + 1) & (ncap - 1);
        nt[h] = st->tab[i];
    }
    free(st->tab);
    st->tab = nt;
    st->cap = ncap;
    return 0;
}

static sstack *find(const gd_slicetrack *st, int ns, uint64_t id)
{
    if (!st->cap)
        return NULL;
    size_t h = slot_of(ns, id, st->cap);
    while (st->tab[h].ns >= 0) {
        if (st->tab[h].ns == ns && st->tab[h].id == id)
            return &st->tab[h];
        h = (h + 1) & (st->cap - 1);
    }
    return NULL;
}

static sstack *stack_of(gd_slicetrack *st, int ns, uint64_t id, int *status)
{
    sstack *s = find(st, ns, id);
    if (s)
        return s;
    if (st->n >= st->max_keys) {
        *status = st->full ? GD_ST_FULL_MORE : GD_ST_FULL;
        st->full = 1;
        return NULL;
    }
    if ((st->n + 1) * 2 > st->cap && rehash(st, st->cap ? st->cap * 2 : 256)) {
        *status = GD_ST_NOMEM;
        return NULL;
    }
    size_t h = slot_of(ns, id, st->cap);
    while (st->tab[h].ns >= 0)
        h = (h + 1) & (st->cap - 1);
    s = &st->tab[h];
    memset(s, 0, sizeof *s);
    s->ns = ns;
    s->id = id;
    st->n++;
    return s;
}

static size_t cost_of(const char *name) { return sizeof(gd_slice) + strlen(name) + 1; }

gd_slice *gd_slicetrack_begin(gd_slicetrack *st, int ns, uint64_t id, int64_t owner, size_t len,
                              int *status)
{
    *status = GD_ST_OK;
    sstack *s = stack_of(st, ns, id, status);
    if (!s)
        return NULL;
    s->owner = owner;
    /* every track's open slices together: past the bound a begin is
     * dropped (its end then closes nothing), each one counted; a begin
     * above a dropped one is dropped too */
    int mem = !s->over && s->depth < st->max_depth &&
              (st->open_bytes + sizeof(gd_slice) + len + 1 > st->max_open ||
               (st->max_slices && st->open_n >= st->max_slices));
    if (mem || s->over_mem) {
        s->over_mem = 1;
        s->over++;
        *status = GD_ST_MEM;
        return NULL;
    }
    if (s->depth >= st->max_depth || s->over) {
        *status = s->over == 0 ? GD_ST_DEEP : GD_ST_DROPPED;
        s->over++;
        return NULL;
    }
    if (s->depth == s->cap) {
        int nc = s->cap ? s->cap * 2 : 8;
        gd_slice *nv = realloc(s->v, (size_t)nc * sizeof *nv);
        if (!nv) {
            *status = GD_ST_NOMEM;
            return NULL;
        }
        s->v = nv;
        s->cap = nc;
    }
    gd_slice *f = &s->v[s->depth++];
    st->open_n++;
    memset(f, 0, sizeof *f);
    return f;
}

void gd_slicetrack_name(gd_slicetrack *st, gd_slice *s, char *name)
{
    s->name = name;
    st->open_bytes += cost_of(name);
}

void gd_slicetrack_limit_slices(gd_slicetrack *st, size_t max_slices)
{
    st->max_slices = max_slices;
}

static gd_slice *pop(gd_slicetrack *st, sstack *s, int *depth, const gd_slice **parent)
{
    st->open_n--;
    s->depth--;
    *depth = s->depth;
    *parent = s->depth > 0 ? &s->v[s->depth - 1] : NULL;
    return &s->v[s->depth];
}

gd_slice *gd_slicetrack_end(gd_slicetrack *st, int ns, uint64_t id, int *depth,
                            const gd_slice **parent, int *status)
{
    sstack *s = find(st, ns, id);
    if (s && s->over) {
        if (--s->over == 0)
            s->over_mem = 0;
        *status = GD_ST_DROPPED;
        return NULL;
    }
    if (!s || s->depth == 0) {
        *status = GD_ST_UNMATCHED;
        return NULL;
    }
    *status = GD_ST_OK;
    return pop(st, s, depth, parent);
}

void gd_slicetrack_release(gd_slicetrack *st, gd_slice *s)
{
    if (s->name) {
        st->open_bytes -= cost_of(s->name);
        free(s->name);
        s->name = NULL;
    }
}

int gd_slicetrack_next(const gd_slicetrack *st, size_t *iter, int *ns, uint64_t *id,
                       int64_t *owner)
{
    while (*iter < st->cap) {
        const sstack *s = &st->tab[(*iter)++];
        if (s->ns >= 0) {
            *ns = s->ns;
            *id = s->id;
            *owner = s->owner;
            return 1;
        }
    }
    return 0;
}

int gd_slicetrack_forget_dropped(gd_slicetrack *st, int ns, uint64_t id)
{
    sstack *s = find(st, ns, id);
    if (!s)
        return 0;
    int deep = s->over && !s->over_mem;
    s->over = 0;
    return deep;
}

gd_slice *gd_slicetrack_pop_open(gd_slicetrack *st, int ns, uint64_t id, int *depth,
                                 const gd_slice **parent)
{
    sstack *s = find(st, ns, id);
    if (!s || s->depth == 0)
        return NULL;
    return pop(st, s, depth, parent);
}

int gd_slicetrack_end_match(gd_slicetrack *st, int ns, uint64_t id, int64_t tag, int64_t mask,
                            int *status)
{
    sstack *s = find(st, ns, id);
    if (s && s->over) {
        if (--s->over == 0)
            s->over_mem = 0;
        *status = GD_ST_DROPPED;
        return 0;
    }
    if (!s || s->depth == 0) {
        *status = GD_ST_UNMATCHED;
        return 0;
    }
    int k = gd_ct_exit_closes(s->v, s->depth, sizeof *s->v, offsetof(gd_slice, tag), tag, mask);
    *status = k ? GD_ST_OK : GD_ST_NOMATCH;
    return k;
}

gd_slice *gd_slicetrack_open(gd_slicetrack *st, int ns, uint64_t id, int *n)
{
    sstack *s = find(st, ns, id);
    *n = s ? s->depth : 0;
    return s && s->depth ? s->v : NULL;
}
