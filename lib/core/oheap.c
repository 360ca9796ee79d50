/* oheap.c - a min-heap of fixed-size entries, moving keys (oheap.h). */
#include "oheap.h"

#include <stdlib.h>
#include <string.h>

#define SLOT_MASK ((uint64_t)GD_OHEAP_MAX - 1)

void gd_oheap_init(gd_oheap *h, size_t elem)
{
    memset(h, 0, sizeof *h);
    h->elem = elem;
}

static int less(const gd_oheap_key *a, const gd_oheap_key *b)
{
    return a->key < b->key || (a->key == b->key && a->ord < b->ord);
}

/* The heap, the slots and the free list grow together: nslots - nfree = n < cap. */
static int grow(gd_oheap *h)
{
    size_t nc = h->cap ? h->cap * 2 : 1024;
    if (nc > GD_OHEAP_MAX)
        return -1;
    gd_oheap_key *k = realloc(h->k, nc * sizeof *k);
    if (!k)
        return -1;
    h->k = k;
    unsigned char *s = realloc(h->slots, nc * h->elem);
    if (!s)
        return -1;
    h->slots = s;
    uint32_t *f = realloc(h->free, nc * sizeof *f);
    if (!f)
        return -1;
    h->free = f;
    h->cap = nc;
    return 0;
}

void *gd_oheap_push(gd_oheap *h, uint64_t key)
{
    if (h->n == h->cap && grow(h))
        return NULL;
    uint32_t slot = h->nfree ? h->free[--h->nfree] : (uint32_t)h->nslots++;
    gd_oheap_key x = {key, h->seq++ << GD_OHEAP_SLOT_BITS | slot};
    size_t i = h->n++;
    while (i > 0 && less(&x, &h->k[(i - 1) / 2])) {
        h->k[i] = h->k[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->k[i] = x;
    return h->slots + (size_t)slot * h->elem;
}

/* Floyd's pop: the hole left at the top sinks along the smaller children
 * to a leaf (one compare a level, not two), then the last key rises from
 * there to its place, which is near the bottom as a rule (#50: the 4 MB
 * slices trace's 136,510 pops 58.7 -> 44.0 M instructions). */
void gd_oheap_pop(gd_oheap *h, void *out)
{
    uint32_t slot = (uint32_t)(h->k[0].ord & SLOT_MASK);
    size_t n = --h->n, i = 0, c;
    if (n) {
        while ((c = 2 * i + 1) + 1 < n) {
            c += less(&h->k[c + 1], &h->k[c]);
            h->k[i] = h->k[c];
            i = c;
        }
        if (c < n) {
            h->k[i] = h->k[c];
            i = c;
        }
        gd_oheap_key x = h->k[n];
        while (i > 0 && less(&x, &h->k[(i - 1) / 2])) {
            h->k[i] = h->k[(i - 1) / 2];
            i = (i - 1) / 2;
        }
        h->k[i] = x;
    }
    memcpy(out, h->slots + (size_t)slot * h->elem, h->elem);
    h->free[h->nfree++] = slot;
}

void *gd_oheap_at(const gd_oheap *h, size_t i)
{
    return h->slots + (size_t)(h->k[i].ord & SLOT_MASK) * h->elem;
}

void gd_oheap_clear(gd_oheap *h)
{
    free(h->k);
    free(h->slots);
    free(h->free);
    gd_oheap_init(h, h->elem);
}
