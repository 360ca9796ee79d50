/* difftree.c - two sides' stacks merged into one tree by frame path (#52). */
#include "analysis/difftree.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

struct gd_dt {
    gd_dt_node *n;
    size_t nn, ncap;
    size_t *slot;        /* open addressing: node index + 1, 0 empty       */
    size_t nslot;
    size_t *touched;     /* this capture's nodes                           */
    size_t nt, tcap;
    int side;
    unsigned cap;
    int oom;             /* a touch failed: gd_dt_end says so          */
};

static uint64_t key_hash(size_t parent, const char *s)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)parent * 0x9E3779B97F4A7C15ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

gd_dt *gd_dt_new(void)
{
    gd_dt *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->n = calloc(64, sizeof *t->n);
    t->slot = calloc(128, sizeof *t->slot);
    if (!t->n || !t->slot || !(t->n[0].frame = strdup(""))) {
        gd_dt_free(t);
        return NULL;
    }
    t->ncap = 64;
    t->nslot = 128;
    t->nn = 1;
    return t;
}

void gd_dt_free(gd_dt *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nn; i++) {
        free(t->n[i].frame);
        free(t->n[i].caps[0]);
        free(t->n[i].caps[1]);
    }
    free(t->n);
    free(t->slot);
    free(t->touched);
    free(t);
}

void gd_dt_begin(gd_dt *t, int side, unsigned cap)
{
    t->side = side ? 1 : 0;
    t->cap = cap;
    t->nt = 0;
}

static size_t *find_slot(gd_dt *t, size_t parent, const char *frame)
{
    size_t mask = t->nslot - 1;
    for (size_t i = key_hash(parent, frame) & mask;; i = (i + 1) & mask) {
        size_t v = t->slot[i];
        if (!v || (t->n[v - 1].parent == parent && strcmp(t->n[v - 1].frame, frame) == 0))
            return &t->slot[i];
    }
}

static int grow(gd_dt *t)
{
    if (gd_grow((void **)&t->n, &t->ncap, t->nn + 1, sizeof *t->n, NULL))
        return -1;
    if (t->nn * 2 >= t->nslot) {
        size_t *os = t->slot, on = t->nslot;
        t->slot = calloc(on * 2, sizeof *t->slot);
        if (!t->slot) {
            t->slot = os;
            return -1;
        }
        t->nslot = on * 2;
        for (size_t i = 0; i < on; i++)
            if (os[i])
                *find_slot(t, t->n[os[i] - 1].parent, t->n[os[i] - 1].frame) = os[i];
        free(os);
    }
    return 0;
}

int gd_dt_child(gd_dt *t, size_t parent, const char *frame, size_t *out)
{
    size_t *sl = find_slot(t, parent, frame);
    if (*sl) {
        *out = *sl - 1;
        return 0;
    }
    if (t->nn >= GD_DT_MAX_NODES)
        return -2;
    if (grow(t))
        return -1;
    gd_dt_node *c = &t->n[t->nn];
    memset(c, 0, sizeof *c);
    if (!(c->frame = strdup(frame)))
        return -1;
    c->parent = parent;
    c->depth = t->n[parent].depth + 1;
    c->next = t->n[parent].child;
    t->n[parent].child = t->nn;
    *find_slot(t, parent, frame) = t->nn + 1;
    *out = t->nn++;
    return 0;
}

int gd_dt_add(gd_dt *t, const char *const *frames, size_t n, double ms, size_t *node)
{
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        int rc = gd_dt_child(t, at, frames[i], &at);
        if (rc)
            return rc;
    }
    gd_dt_add_at(t, at, ms);
    if (node)
        *node = at;
    return 0;
}

static int touch(gd_dt *t, size_t i)
{
    if (t->n[i].touched)
        return 0;
    if (gd_grow((void **)&t->touched, &t->tcap, t->nt + 1, sizeof *t->touched, NULL))
        return -1;
    t->n[i].touched = 1;
    t->n[i].cur = 0;
    t->touched[t->nt++] = i;
    return 0;
}

void gd_dt_add_at(gd_dt *t, size_t node, double ms)
{
    gd_dt_node *x = &t->n[node];
    x->self[t->side] += ms;
    for (size_t i = node;; i = t->n[i].parent) {
        t->n[i].total[t->side] += ms;
        if (touch(t, i) == 0)
            t->n[i].cur += ms;
        else
            t->oom = 1;
        if (i == 0)
            break;
    }
}

static int keep_cap(gd_dt_node *x, int side, unsigned cap)
{
    if (gd_grow((void **)&x->caps[side], &x->capcap[side], x->ncaps[side] + 1, sizeof *x->caps[side], NULL))
        return -1;
    x->caps[side][x->ncaps[side]++] = (gd_dt_cap){cap, x->cur};
    return 0;
}

int gd_dt_end(gd_dt *t)
{
    int rc = t->oom ? -1 : 0;
    for (size_t k = 0; k < t->nt; k++) {
        gd_dt_node *x = &t->n[t->touched[k]];
        if (!rc && keep_cap(x, t->side, t->cap))
            rc = -1;
        x->touched = 0;
        x->cur = 0;
    }
    t->nt = 0;
    return rc;
}

void gd_dt_scale_head(gd_dt *t, double f)
{
    for (size_t i = 0; i < t->nn; i++) {
        t->n[i].self[1] *= f;
        t->n[i].total[1] *= f;
    }
}

size_t gd_dt_count(const gd_dt *t) { return t->nn; }

const gd_dt_node *gd_dt_node_at(const gd_dt *t, size_t i) { return i < t->nn ? &t->n[i] : NULL; }
