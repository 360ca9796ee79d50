/* keytab.c - the keyed table of keytab.h. */
#include "core/keytab.h"

#include <stdlib.h>

static size_t slot_of(uint64_t key, uint32_t kind, size_t cap)
{
    uint64_t h = (key ^ ((uint64_t)kind << 56)) * 0x9E3779B97F4A7C15ull;
    return (size_t)((h ^ (h >> 29)) & (cap - 1));
}

gd_keytab_ent *gd_keytab_find(const gd_keytab *t, uint64_t key, uint32_t kind)
{
    if (!t || !t->cap)
        return NULL;
    /* at most half the slots are used: the probe meets an empty one */
    for (size_t i = slot_of(key, kind, t->cap), k = 0; k < t->cap; i = (i + 1) & (t->cap - 1), k++) {
        if (!t->t[i].used)
            return NULL;
        if (t->t[i].key == key && t->t[i].kind == kind)
            return &t->t[i];
    }
    return NULL;
}

static int grow(gd_keytab *t)
{
    size_t nc = t->cap ? t->cap * 2 : 64;
    gd_keytab_ent *nt = calloc(nc, sizeof *nt);
    if (!nt)
        return -1;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->t[i].used)
            continue;
        size_t h = slot_of(t->t[i].key, t->t[i].kind, nc);
        while (nt[h].used)
            h = (h + 1) & (nc - 1);
        nt[h] = t->t[i];
    }
    free(t->t);
    t->t = nt;
    t->cap = nc;
    return 0;
}

gd_keytab_ent *gd_keytab_put(gd_keytab *t, uint64_t key, uint32_t kind, int *fresh)
{
    *fresh = 0;
    gd_keytab_ent *e = gd_keytab_find(t, key, kind);
    if (e)
        return e;
    if (t->n >= GD_KEYTAB_MAX)
        return NULL;
    if ((t->n + 1) * 2 > t->cap && grow(t))
        return NULL;
    size_t h = slot_of(key, kind, t->cap);
    while (t->t[h].used)
        h = (h + 1) & (t->cap - 1);
    t->t[h] = (gd_keytab_ent){.key = key, .kind = kind, .used = 1};
    t->n++;
    *fresh = 1;
    return &t->t[h];
}

void gd_keytab_clear(gd_keytab *t)
{
    free(t->t);
    t->t = NULL;
    t->cap = t->n = 0;
}
