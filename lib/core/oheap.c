/* oheap.c - a min-heap of fixed-size entries, moving keys (oheap.h). */
#include "oheap.h"

#include <stdlib.h>
#include <string.h>

#define SLOT_MASK ((uint64_t)GD_OHEAP_MAX - 1)
#define NO_SLOT UINT32_MAX
#define NO_ORD UINT64_MAX

void gd_oheap_init(gd_oheap *h, size_t elem)
{
    memset(h, 0, sizeof *h);
    h->elem = elem;
}

void gd_oheap_init_lanes(gd_oheap *h, size_t elem, size_t nlanes)
{
    gd_oheap_init(h, elem);
    h->nlanes = nlanes;
}

static int less(const gd_oheap_key *a, const gd_oheap_key *b)
{
    return a->key < b->key || (a->key == b->key && a->ord < b->ord);
}

static int grow_to(void **p, size_t n, size_t size)
{
    void *q = realloc(*p, n * size);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

/* The lanes' arrays: per slot (cap) and, at the first growth, per lane. */
static int grow_lanes(gd_oheap *h, size_t nc)
{
    if (grow_to((void **)&h->sk, nc, sizeof *h->sk) || grow_to((void **)&h->next, nc, sizeof *h->next))
        return -1;
    if (h->lane)
        return 0;
    if (!(h->lane = malloc(h->nlanes * sizeof *h->lane)))
        return -1;
    for (size_t i = 0; i < h->nlanes; i++)
        h->lane[i] = NO_ORD;
    return 0;
}

/* The heap, the slots and the free list grow together: nslots - nfree = n < cap. */
static int grow(gd_oheap *h)
{
    size_t nc = h->cap ? h->cap * 2 : 1024;
    if (nc > GD_OHEAP_MAX || grow_to((void **)&h->k, nc, sizeof *h->k) ||
        grow_to((void **)&h->slots, nc, h->elem) || grow_to((void **)&h->free, nc, sizeof *h->free) ||
        (h->nlanes && grow_lanes(h, nc)))
        return -1;
    h->cap = nc;
    return 0;
}

/* A free slot for the entry of `key` (its key in *x, the slot in its
 * ord's low bits); -1 when full. */
static inline int take_slot(gd_oheap *h, uint64_t key, gd_oheap_key *x)
{
    if (h->n == h->cap && grow(h))
        return -1;
    uint32_t slot = h->nfree ? h->free[--h->nfree] : (uint32_t)h->nslots++;
    *x = (gd_oheap_key){key, h->seq++ << GD_OHEAP_SLOT_BITS | slot};
    h->n++;
    return 0;
}

/* x into the heap of runs at its end, k[i], as a run of its own. */
static inline void sift_up(gd_oheap *h, gd_oheap_key x, size_t i)
{
    while (i > 0 && less(&x, &h->k[(i - 1) / 2])) {
        h->k[i] = h->k[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->k[i] = x;
}

void *gd_oheap_push(gd_oheap *h, uint64_t key)
{
    gd_oheap_key x;
    if (take_slot(h, key, &x))
        return NULL;
    sift_up(h, x, h->n - 1);
    return h->slots + (size_t)(x.ord & SLOT_MASK) * h->elem;
}

void *gd_oheap_push_lane(gd_oheap *h, uint64_t key, size_t lane)
{
    gd_oheap_key x;
    if (take_slot(h, key, &x))
        return NULL;
    uint32_t slot = (uint32_t)(x.ord & SLOT_MASK);
    h->sk[slot] = x;
    h->next[slot] = NO_SLOT;
    uint64_t last = lane < h->nlanes ? h->lane[lane] : NO_ORD;
    uint32_t ls = (uint32_t)(last & SLOT_MASK);
    /* the lane's last entry still waits, the last of its run: this one follows it */
    if (last != NO_ORD && h->sk[ls].ord == last && h->sk[ls].key <= key)
        h->next[ls] = slot;
    else
        sift_up(h, x, h->nk++);
    if (lane < h->nlanes)
        h->lane[lane] = x.ord;
    return h->slots + (size_t)slot * h->elem;
}

/* The top run's next entry x takes its place at the top. */
static void replace_top(gd_oheap *h, gd_oheap_key x)
{
    size_t n = h->nk, i = 0, c;
    while ((c = 2 * i + 1) < n) {
        c += c + 1 < n && less(&h->k[c + 1], &h->k[c]);
        if (!less(&h->k[c], &x))
            break;
        h->k[i] = h->k[c];
        i = c;
    }
    h->k[i] = x;
}

/* Floyd's pop: the hole left at the top sinks along the smaller children
 * to a leaf (one compare a level, not two), then the last key rises from
 * there to its place, which is near the bottom as a rule (#50: the 4 MB
 * slices trace's 136,510 pops 58.7 -> 44.0 M instructions). */
static inline void pop_run(gd_oheap *h, size_t n)
{
    size_t i = 0, c;
    if (!n)
        return;
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

/* With lanes: the top entry (in slot) is taken out; 1 when its run goes
 * on (the next entry now on top), 0 when it ends. */
static int next_in_run(gd_oheap *h, uint32_t slot)
{
    uint32_t nx = h->next[slot];
    h->sk[slot].ord = NO_ORD; /* taken out: no lane's last entry now */
    if (nx == NO_SLOT)
        return 0;
    replace_top(h, h->sk[nx]);
    return 1;
}

void gd_oheap_pop(gd_oheap *h, void *out)
{
    uint32_t slot = (uint32_t)(h->k[0].ord & SLOT_MASK);
    h->n--;
    if (!h->next)
        pop_run(h, h->n);
    else if (!next_in_run(h, slot))
        pop_run(h, --h->nk);
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
    free(h->sk);
    free(h->next);
    free(h->lane);
    gd_oheap_init_lanes(h, h->elem, h->nlanes);
}
