/* calltree.c - method call trees: rebuilding, clipping, merging by path, Matrix stack keys, Java names. */
#include "analysis/calltree.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* ---- the exit rule ------------------------------------------------------- */

int gd_ct_exit_closes(const void *open, int n, size_t size, size_t off, int64_t tag, int64_t mask)
{
    const unsigned char *p = open;
    for (int k = n; k > 0; k--) {
        int64_t key;
        memcpy(&key, p + (size_t)(k - 1) * size + off, sizeof key);
        if ((key & mask) == tag)
            return n - k + 1;
    }
    return 0;
}

/* ---- builder ------------------------------------------------------------- */

int gd_ctb_init(gd_ctb *b, int64_t *next_id, gd_call_fn fn, void *ctx)
{
    memset(b, 0, sizeof *b);
    b->stk = malloc(GD_CT_MAX_DEPTH * sizeof *b->stk);
    b->next_id = next_id;
    b->fn = fn;
    b->ctx = ctx;
    return b->stk ? 0 : -1;
}

void gd_ctb_free(gd_ctb *b)
{
    free(b->stk);
    b->stk = NULL;
}

static int ctb_push(gd_ctb *b, int64_t method, double start, double end, int open)
{
    if (b->n >= GD_CT_MAX_DEPTH) {
        b->too_deep++;
        return 1;
    }
    gd_ct_frame *f = &b->stk[b->n];
    memset(f, 0, sizeof *f);
    f->c.id = (*b->next_id)++;
    f->c.parent = b->n ? b->stk[b->n - 1].c.id : 0;
    f->c.method = method;
    f->c.start = start;
    f->c.end = end;
    f->c.depth = b->n;
    f->c.open = open;
    for (int i = 0; i < b->n; i++)
        if (b->stk[i].c.method == method) {
            f->c.rec = 1;
            break;
        }
    b->n++;
    return 0;
}

/* Pops the innermost call, ending it at `end` (NAN: keep its own end). */
static int ctb_pop(gd_ctb *b, double end, int open)
{
    gd_ct_frame *f = &b->stk[--b->n];
    if (!isnan(end))
        f->c.end = end < f->c.start ? f->c.start : end;
    if (open)
        f->c.open = 1;
    f->c.total = f->c.end - f->c.start;
    f->c.self = f->c.total - f->kids;
    f->c.seq = 0;
    if (b->n)
        b->stk[b->n - 1].kids += f->c.total;
    return b->fn ? b->fn(b->ctx, &f->c) : 0;
}

int gd_ctb_enter(gd_ctb *b, int64_t method, double ts)
{
    if (b->dropped_open > 0 || ctb_push(b, method, ts, NAN, 0)) {
        /* too deep: this enter and everything inside it wait for exits */
        if (b->dropped_open > 0)
            b->too_deep++;
        b->dropped_open++;
    }
    return 0;
}

int gd_ctb_exit(gd_ctb *b, int64_t method, double ts)
{
    if (b->dropped_open > 0) {
        b->dropped_open--;
        return 0;
    }
    int k = gd_ct_exit_closes(b->stk, b->n, sizeof *b->stk, offsetof(gd_ct_frame, c.method),
                              method < 0 ? 0 : method, method < 0 ? 0 : -1);
    if (k == 0)
        b->unbalanced++;
    else
        b->unclosed += k - 1;
    int rc = 0;
    while (!rc && k-- > 0)
        rc = ctb_pop(b, ts, 0);
    return rc;
}

int gd_ctb_call(gd_ctb *b, int64_t method, double start, double end, int depth, int open)
{
    if (end < start)
        end = start;
    /* the given depth of an open complete call is kept in its seq */
    while (b->n > 0) {
        const gd_call *top = &b->stk[b->n - 1].c;
        int inside = depth >= 0 ? top->seq < depth : (top->start <= start && end <= top->end);
        if (inside)
            break;
        int rc = ctb_pop(b, NAN, 0);
        if (rc)
            return rc;
    }
    if (ctb_push(b, method, start, end, open))
        return 0;
    b->stk[b->n - 1].c.seq = depth >= 0 ? depth : b->n - 1;
    return 0;
}

int gd_ctb_finish(gd_ctb *b, double cap_end)
{
    while (b->n > 0) {
        gd_call *c = &b->stk[b->n - 1].c;
        int open = isnan(c->end);
        int rc = ctb_pop(b, open ? cap_end : NAN, open);
        if (rc)
            return rc;
    }
    b->dropped_open = 0;
    return 0;
}

/* ---- walker -------------------------------------------------------------- */

void gd_ctw_init(gd_ctw *w, double lo, double hi, gd_call_fn fn, void *ctx)
{
    memset(w, 0, sizeof *w);
    w->lo = lo;
    w->hi = hi;
    w->fn = fn;
    w->ctx = ctx;
}

void gd_ctw_free(gd_ctw *w)
{
    free(w->stk);
    w->stk = NULL;
    w->n = w->cap = 0;
}

static double clip(double s, double e, double lo, double hi)
{
    double a = s > lo ? s : lo, z = e < hi ? e : hi;
    return z > a ? z - a : 0;
}

static int ctw_pop(gd_ctw *w)
{
    gd_ct_frame *f = &w->stk[--w->n];
    f->c.self = f->c.total - f->kids;
    if (f->c.self < 0)
        f->c.self = 0;
    if (w->n)
        w->stk[w->n - 1].kids += f->c.total;
    return w->fn ? w->fn(w->ctx, &f->c) : 0;
}

int gd_ctw_add(gd_ctw *w, const gd_call *c)
{
    int rc;
    size_t k = w->n;
    while (k > 0 && w->stk[k - 1].c.id != c->parent)
        k--;
    while (w->n > k)
        if ((rc = ctw_pop(w)))
            return rc;
    if (gd_grow((void **)&w->stk, &w->cap, w->n + 1, sizeof *w->stk, NULL))
        return -1;
    gd_ct_frame *f = &w->stk[w->n];
    f->c = *c;
    f->kids = 0;
    f->c.total = clip(c->start, c->end, w->lo, w->hi);
    f->c.seq = w->seq++;
    f->c.rec = 0;
    for (size_t i = 0; i < w->n; i++)
        if (w->stk[i].c.method == c->method) {
            f->c.rec = 1;
            break;
        }
    w->n++;
    return 0;
}

int gd_ctw_finish(gd_ctw *w)
{
    int rc;
    while (w->n > 0)
        if ((rc = ctw_pop(w)))
            return rc;
    return 0;
}

/* ---- tree ------------------------------------------------------------------ */

typedef struct tstk {
    int64_t id;
    gd_ct_node *node;
} tstk;

struct gd_ctt {
    gd_ct_node root;
    double lo, hi;
    tstk *stk;
    size_t n, cap;
    /* every node by (parent, method): open addressing, nslot a power of
     * two > 2 * nnode, so finding a child is O(1) whatever its siblings */
    gd_ct_node **slot;
    size_t nslot, nnode;
    size_t probes;       /* slots compared so far (gd_ctt_probes)           */
};

static size_t node_hash(const gd_ct_node *parent, int64_t method, size_t mask)
{
    uint64_t x = ((uint64_t)(uintptr_t)parent >> 4) * 0x9E3779B97F4A7C15ull ^ (uint64_t)method * 0xC2B2AE3D27D4EB4Full;
    return (size_t)(x ^ (x >> 31)) & mask;
}

/* Doubles the node index; -1 when out of memory. */
static int ctt_rehash(gd_ctt *t)
{
    size_t n = t->nslot ? t->nslot * 2 : 256;
    gd_ct_node **slot = calloc(n, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < t->nslot; i++)
        if (t->slot[i]) {
            size_t h = node_hash(t->slot[i]->parent, t->slot[i]->method, n - 1);
            while (slot[h])
                h = (h + 1) & (n - 1);
            slot[h] = t->slot[i];
        }
    free(t->slot);
    t->slot = slot;
    t->nslot = n;
    return 0;
}

/* parent's child for method, created (last among its siblings) when absent;
 * NULL when out of memory. */
static gd_ct_node *ctt_child(gd_ctt *t, gd_ct_node *parent, int64_t method)
{
    if ((t->nnode + 1) * 2 > t->nslot && ctt_rehash(t))
        return NULL;
    size_t h = node_hash(parent, method, t->nslot - 1);
    for (; t->slot[h]; h = (h + 1) & (t->nslot - 1), t->probes++)
        if (t->slot[h]->parent == parent && t->slot[h]->method == method)
            return t->slot[h];
    gd_ct_node *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->method = method;
    n->parent = parent;
    /* pushed at the head: gd_ctt_finish orders siblings by a total order
     * (total, then method, distinct among siblings), not by arrival */
    n->next = parent->child;
    parent->child = n;
    t->slot[h] = n;
    t->nnode++;
    return n;
}

gd_ctt *gd_ctt_new(double lo, double hi)
{
    gd_ctt *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->root.method = -1;
    t->lo = lo;
    t->hi = hi;
    return t;
}

static void node_free(gd_ct_node *n)
{
    gd_ct_node *c = n->child;
    while (c) {
        gd_ct_node *next = c->next;
        node_free(c);
        free(c);
        c = next;
    }
}

void gd_ctt_free(gd_ctt *t)
{
    if (!t)
        return;
    node_free(&t->root);
    free(t->stk);
    free(t->slot);
    free(t);
}

int gd_ctt_add(gd_ctt *t, const gd_call *c)
{
    if (!(c->end > t->lo && c->start < t->hi) && !(c->start == c->end && c->start >= t->lo &&
                                                   c->start <= t->hi))
        return 0;
    while (t->n > 0 && t->stk[t->n - 1].id != c->parent)
        t->n--;
    gd_ct_node *parent = t->n ? t->stk[t->n - 1].node : &t->root;
    gd_ct_node *n = ctt_child(t, parent, c->method);
    if (!n)
        return -1;
    n->count++;
    n->open += c->open ? 1 : 0;
    n->total += clip(c->start, c->end, t->lo, t->hi);
    if (gd_grow((void **)&t->stk, &t->cap, t->n + 1, sizeof *t->stk, NULL))
        return -1;
    t->stk[t->n].id = c->id;
    t->stk[t->n].node = n;
    t->n++;
    return 0;
}

static int cmp_node(const void *a, const void *b)
{
    const gd_ct_node *x = *(gd_ct_node *const *)a, *y = *(gd_ct_node *const *)b;
    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    return x->method < y->method ? -1 : x->method > y->method;
}

static void node_finish(gd_ct_node *n)
{
    double kids = 0;
    size_t k = 0;
    for (gd_ct_node *c = n->child; c; c = c->next) {
        node_finish(c);
        kids += c->total;
        k++;
    }
    n->self = n->total - kids;
    if (n->self < 0)
        n->self = 0;
    if (k < 2)
        return;
    gd_ct_node **v = malloc(k * sizeof *v);
    if (!v)
        return; /* keeps the insertion order */
    k = 0;
    for (gd_ct_node *c = n->child; c; c = c->next)
        v[k++] = c;
    gd_sort(v, k, sizeof *v, cmp_node);
    for (size_t i = 0; i + 1 < k; i++)
        v[i]->next = v[i + 1];
    v[k - 1]->next = NULL;
    n->child = v[0];
    free(v);
}

size_t gd_ctt_probes(const gd_ctt *t) { return t->probes; }

const gd_ct_node *gd_ctt_finish(gd_ctt *t)
{
    double total = 0;
    node_finish(&t->root);
    for (gd_ct_node *c = t->root.child; c; c = c->next)
        total += c->total;
    t->root.total = total;
    t->root.self = 0;
    return &t->root;
}

/* ---- Matrix's stack key ----------------------------------------------------- */

long gd_ct_stack_key(const gd_ct_item *items, size_t n, double stack_cost, int64_t dispatch_method)
{
    if (n == 0)
        return -1;
    double limit = floor(stack_cost * 0.3);
    /* the stable sort's first element, and its second when the first is
     * the dispatch: a max search keeping the earliest on ties */
    long best = -1, second = -1;
    double bv = 0, sv = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(items[i].cost >= limit))
            continue;
        double v = (items[i].depth + 1) * items[i].cost;
        if (best < 0 || v > bv) {
            second = best;
            sv = bv;
            best = (long)i;
            bv = v;
        } else if (second < 0 || v > sv) {
            second = (long)i;
            sv = v;
        }
    }
    if (best < 0)
        return 0;
    if (second >= 0 && items[best].method == dispatch_method)
        return second;
    return best;
}

/* ---- names -------------------------------------------------------------------- */

char *gd_ct_dotted(const char *cls, char *buf, size_t n)
{
    size_t i = 0;
    if (n == 0)
        return buf;
    for (; cls && cls[i] && i + 1 < n; i++)
        buf[i] = cls[i] == '/' ? '.' : cls[i];
    buf[i] = 0;
    return buf;
}

typedef struct sbuf {
    char *p;
    size_t n, len;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t k)
{
    for (size_t i = 0; i < k && b->len + 1 < b->n; i++)
        b->p[b->len++] = s[i];
    b->p[b->len] = 0;
}

/* One field type at *d; advances *d.  0 ok, -1 malformed. */
static int put_type(sbuf *b, const char **d)
{
    int dims = 0;
    while (**d == '[') {
        dims++;
        (*d)++;
    }
    static const char codes[] = "BCDFIJSZV";
    static const char *const names[] = {"byte", "char", "double", "float", "int",
                                        "long", "short", "boolean", "void"};
    const char *c = **d ? strchr(codes, **d) : NULL;
    if (c) {
        const char *nm = names[c - codes];
        sb_put(b, nm, strlen(nm));
        (*d)++;
    } else if (**d == 'L') {
        const char *semi = strchr(*d, ';');
        if (!semi || semi == *d + 1)
            return -1;
        for (const char *q = *d + 1; q < semi; q++)
            sb_put(b, *q == '/' ? "." : q, 1);
        *d = semi + 1;
    } else {
        return -1;
    }
    while (dims-- > 0)
        sb_put(b, "[]", 2);
    return 0;
}

char *gd_ct_java_name(const char *cls, const char *method, const char *desc, char *buf, size_t n)
{
    if (n == 0)
        return buf;
    sbuf b = {buf, n, 0};
    buf[0] = 0;
    if (cls && *cls) {
        for (const char *q = cls; *q; q++)
            sb_put(&b, *q == '/' ? "." : q, 1);
        sb_put(&b, ".", 1);
    }
    if (method)
        sb_put(&b, method, strlen(method));
    if (!desc || desc[0] != '(')
        return buf;
    size_t mark = b.len;
    sb_put(&b, "(", 1);
    const char *d = desc + 1;
    int first = 1;
    while (*d && *d != ')') {
        if (!first)
            sb_put(&b, ", ", 2);
        first = 0;
        if (*d == 'V' || put_type(&b, &d)) {
            b.len = mark; /* malformed: no parameter list */
            buf[mark] = 0;
            return buf;
        }
    }
    if (*d != ')') {
        b.len = mark;
        buf[mark] = 0;
        return buf;
    }
    sb_put(&b, ")", 1);
    return buf;
}

/* ---- streamed percentile ------------------------------------------------------ */

static double pct_rank(size_t n, double p)
{
    if (p <= 0)
        return 0;
    if (p >= 100)
        return (double)(n - 1);
    return (double)(n - 1) * p / 100.0;
}

void gd_ct_pct_ranks(size_t n, double p, size_t *lo, size_t *hi)
{
    if (n == 0) {
        *lo = *hi = 0;
        return;
    }
    double r = pct_rank(n, p);
    *lo = (size_t)floor(r);
    *hi = *lo + 1 < n ? *lo + 1 : n - 1;
}

double gd_ct_pct_mix(size_t n, double p, double v_lo, double v_hi)
{
    if (n == 0)
        return NAN;
    double r = pct_rank(n, p);
    double frac = r - floor(r);
    if ((size_t)floor(r) + 1 >= n)
        return v_lo;
    return v_lo + (v_hi - v_lo) * frac;
}
