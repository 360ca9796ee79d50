/* overdraw.c - exact overdraw of one view dump: tree checks, effective rects, sweep line. */
#include "analysis/overdraw.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/* Per-view state while resolving the tree. */
enum { ST_NONE = 0, ST_VALID, ST_SKIP /* + gd_overdraw_skip */ };
#define SKIP_STATE(r) ((uint8_t)(ST_SKIP + (r)))
#define IS_SKIP(s) ((s) >= ST_SKIP)

/* par[] markers beside real indices. */
#define PAR_ROOT ((size_t)-1)
#define PAR_MISSING ((size_t)-2)
#define PAR_NONE ((size_t)-3) /* duplicate views: not linked */

static const char *const skip_names[GD_OVERDRAW_SKIP__COUNT] = {
    "duplicate id", "bad rect", "missing parent", "parent cycle", "under a skipped view",
};

const char *gd_overdraw_skip_name(gd_overdraw_skip r)
{
    return (unsigned)r < GD_OVERDRAW_SKIP__COUNT ? skip_names[r] : NULL;
}

void gd_overdraw_free(gd_overdraw *o)
{
    if (!o)
        return;
    free(o->areas);
    free(o->deep_ids);
    memset(o, 0, sizeof *o);
}

static int oom(gd_error *err)
{
    return gd_error_oom(err);
}

/* ---- tree ------------------------------------------------------------------ */

typedef struct idref {
    int64_t id;
    size_t idx;
} idref;

static int cmp_idref(const void *a, const void *b)
{
    const idref *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Index of the first view with `id`, or PAR_MISSING. */
static size_t find_id(const idref *ix, size_t n, int64_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && ix[lo].id == id ? ix[lo].idx : PAR_MISSING;
}

typedef struct rect {
    int32_t l, t, r, b;
} rect;

static rect intersect(rect a, rect b)
{
    rect x = {a.l > b.l ? a.l : b.l, a.t > b.t ? a.t : b.t, a.r < b.r ? a.r : b.r,
              a.b < b.b ? a.b : b.b};
    return x;
}

static int rect_empty(rect a)
{
    return a.r <= a.l || a.b <= a.t;
}

static rect view_rect(const gd_view *v)
{
    rect x = {v->rect[0], v->rect[1], v->rect[2], v->rect[3]};
    return x;
}

/* Working arrays of the tree pass. */
typedef struct tree {
    size_t n;
    uint8_t *state;
    size_t *par;
    size_t *kid_start, *kids; /* children in CSR form */
    rect *eff;
    uint8_t *vis;
    int64_t *depth;
} tree;

static void tree_free(tree *t)
{
    free(t->state);
    free(t->par);
    free(t->kid_start);
    free(t->kids);
    free(t->eff);
    free(t->vis);
    free(t->depth);
}

/* Resolves parents, duplicates and bad rects; builds the child lists. */
static int tree_link(tree *t, const gd_view *v, size_t n)
{
    idref *ix = malloc(n * sizeof *ix);
    if (!ix)
        return -1;
    for (size_t i = 0; i < n; i++) {
        ix[i].id = v[i].id;
        ix[i].idx = i;
    }
    gd_sort(ix, n, sizeof *ix, cmp_idref);
    for (size_t k = 1; k < n; k++)
        if (ix[k].id == ix[k - 1].id)
            t->state[ix[k].idx] = SKIP_STATE(GD_OVERDRAW_SKIP_DUPLICATE_ID);

    for (size_t i = 0; i < n; i++) {
        if (t->state[i] != ST_NONE) {
            t->par[i] = PAR_NONE;
            continue;
        }
        if (v[i].rect[2] < v[i].rect[0] || v[i].rect[3] < v[i].rect[1])
            t->state[i] = SKIP_STATE(GD_OVERDRAW_SKIP_BAD_RECT);
        if (v[i].parent == 0) {
            t->par[i] = PAR_ROOT;
        } else {
            t->par[i] = find_id(ix, n, v[i].parent);
            if (t->par[i] == PAR_MISSING && t->state[i] == ST_NONE)
                t->state[i] = SKIP_STATE(GD_OVERDRAW_SKIP_NO_PARENT);
        }
    }
    free(ix);

    /* CSR child lists: kid_start[p] .. kid_start[p+1] */
    for (size_t i = 0; i < n; i++)
        if (t->par[i] < n)
            t->kid_start[t->par[i] + 1]++;
    for (size_t i = 0; i < n; i++)
        t->kid_start[i + 1] += t->kid_start[i];
    size_t *fill = malloc((n + 1) * sizeof *fill);
    if (!fill)
        return -1;
    memcpy(fill, t->kid_start, (n + 1) * sizeof *fill);
    for (size_t i = 0; i < n; i++)
        if (t->par[i] < n)
            t->kids[fill[t->par[i]]++] = i;
    free(fill);
    return 0;
}

/* Union of the valid roots' non-empty rects; {0,0,0,0} when none. */
static rect roots_union(const tree *t, const gd_view *v)
{
    rect u = {0, 0, 0, 0};
    int any = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->par[i] != PAR_ROOT || t->state[i] != ST_NONE)
            continue;
        rect r = view_rect(&v[i]);
        if (rect_empty(r))
            continue;
        if (!any) {
            u = r;
            any = 1;
            continue;
        }
        if (r.l < u.l) u.l = r.l;
        if (r.t < u.t) u.t = r.t;
        if (r.r > u.r) u.r = r.r;
        if (r.b > u.b) u.b = r.b;
    }
    return u;
}

/* Iterative DFS from the roots (and from the views whose parent is missing,
 * to mark their subtrees): depth, effective rect and visibility, parents
 * before children.  `stack` holds n entries (each view is pushed once);
 * reached[] is set for every view visited. */
static void tree_walk(tree *t, const gd_view *v, rect screen, size_t *stack, uint8_t *reached)
{
    size_t sp = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->par[i] != PAR_ROOT && t->par[i] != PAR_MISSING)
            continue;
        if (t->state[i] == ST_NONE) { /* a well-formed root */
            t->state[i] = ST_VALID;
            t->depth[i] = 1;
            t->eff[i] = intersect(view_rect(&v[i]), screen);
            t->vis[i] = v[i].visible != 0;
        }
        stack[sp++] = i;
        while (sp) {
            size_t u = stack[--sp];
            reached[u] = 1;
            for (size_t k = t->kid_start[u]; k < t->kid_start[u + 1]; k++) {
                size_t c = t->kids[k];
                if (t->state[c] == ST_NONE) {
                    if (IS_SKIP(t->state[u])) {
                        t->state[c] = SKIP_STATE(GD_OVERDRAW_SKIP_ORPHAN);
                    } else {
                        t->state[c] = ST_VALID;
                        t->depth[c] = t->depth[u] + 1;
                        t->eff[c] = intersect(view_rect(&v[c]), t->eff[u]);
                        t->vis[c] = t->vis[u] && v[c].visible != 0;
                    }
                }
                stack[sp++] = c;
            }
        }
    }
}

/* Views not reached by tree_walk hang on parent cycles: the cycle members are
 * CYCLE, the views hanging below a cycle ORPHAN (own defects kept).  `mark`
 * holds n zeroed entries; done[] is tree_walk's reached[]. */
static void tree_cycles(tree *t, size_t *mark, uint8_t *done)
{
    size_t n = t->n;
    for (size_t i = 0; i < n; i++)
        if (t->par[i] == PAR_NONE)
            done[i] = 1; /* duplicates: already skipped, not linked */
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        size_t s = i + 1, j = i;
        /* Unreached views only link to unreached views (a reached parent
         * would have reached them), so this walk ends on a done view or on
         * one marked by this walk: a new cycle. */
        while (!done[j] && mark[j] == 0) {
            mark[j] = s;
            j = t->par[j];
        }
        if (!done[j] && mark[j] == s) {
            size_t k = j;
            do {
                if (t->state[k] == ST_NONE)
                    t->state[k] = SKIP_STATE(GD_OVERDRAW_SKIP_CYCLE);
                k = t->par[k];
            } while (k != j);
        }
        for (size_t k = i; !done[k]; k = t->par[k]) {
            if (t->state[k] == ST_NONE)
                t->state[k] = SKIP_STATE(GD_OVERDRAW_SKIP_ORPHAN);
            done[k] = 1;
        }
    }
}

/* ---- sweep ----------------------------------------------------------------- */

typedef struct xev {
    int32_t x;
    size_t y0, y1;   /* leaf range [y0, y1) in compressed y */
    int64_t d;       /* +layers at the left edge, −layers at the right */
} xev;

static int cmp_xev(const void *a, const void *b)
{
    const xev *p = a, *q = b;
    return p->x < q->x ? -1 : p->x > q->x;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_area(const void *a, const void *b)
{
    const gd_overdraw_area *p = a, *q = b;
    if (p->rect[1] != q->rect[1])
        return p->rect[1] < q->rect[1] ? -1 : 1;
    return p->rect[0] < q->rect[0] ? -1 : p->rect[0] > q->rect[0];
}

/* A vertical run of uniform paint count inside the current x-slab. */
typedef struct run {
    int32_t y0, y1, x0;
    int64_t count;
} run;

typedef struct runs {
    run *v;
    size_t n, cap;
} runs;

/* Segment tree over the compressed y leaves.  add is not pushed down; mn/mx
 * include the node's own add, so a node's real min is offset + mn. */
typedef struct sweep {
    const int32_t *ys;
    size_t leaves;
    int64_t *add, *mn, *mx;
    runs cur, open;
    gd_overdraw *out;
    size_t areas_cap;
    size_t max_areas;
    double weighted; /* Σ area × times */
    int failed;
} sweep;

static void seg_update(sweep *s, size_t node, size_t lo, size_t hi, size_t a, size_t b, int64_t d)
{
    if (b <= lo || hi <= a)
        return;
    if (a <= lo && hi <= b) {
        s->add[node] += d;
        s->mn[node] += d;
        s->mx[node] += d;
        return;
    }
    size_t mid = lo + (hi - lo) / 2, l = 2 * node, r = l + 1;
    seg_update(s, l, lo, mid, a, b, d);
    seg_update(s, r, mid, hi, a, b, d);
    s->mn[node] = s->add[node] + (s->mn[l] < s->mn[r] ? s->mn[l] : s->mn[r]);
    s->mx[node] = s->add[node] + (s->mx[l] > s->mx[r] ? s->mx[l] : s->mx[r]);
}

static void runs_push(sweep *s, runs *rs, int32_t y0, int32_t y1, int64_t count)
{
    if (rs->n && rs->v[rs->n - 1].y1 == y0 && rs->v[rs->n - 1].count == count) {
        rs->v[rs->n - 1].y1 = y1;
        return;
    }
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? 2 * rs->cap : 64;
        run *v = realloc(rs->v, cap * sizeof *v);
        if (!v) {
            s->failed = 1;
            return;
        }
        rs->v = v;
        rs->cap = cap;
    }
    run r = {y0, y1, 0, count};
    rs->v[rs->n++] = r;
}

/* Appends to s->cur the maximal uniform runs with count >= 2, top to bottom:
 * descends only into nodes that hold overdraw and are not uniform. */
static void seg_walk(sweep *s, size_t node, size_t lo, size_t hi, int64_t off)
{
    if (off + s->mx[node] < 2)
        return;
    if (s->mn[node] == s->mx[node]) {
        runs_push(s, &s->cur, s->ys[lo], s->ys[hi], off + s->mx[node]);
        return;
    }
    size_t mid = lo + (hi - lo) / 2;
    seg_walk(s, 2 * node, lo, mid, off + s->add[node]);
    seg_walk(s, 2 * node + 1, mid, hi, off + s->add[node]);
}

/* Ends an open run at x_end: one area, counted in px and the ratio. */
static void close_run(sweep *s, const run *r, int32_t x_end)
{
    gd_overdraw *o = s->out;
    uint64_t area = (uint64_t)((int64_t)x_end - r->x0) * (uint64_t)((int64_t)r->y1 - r->y0);
    int64_t times = r->count - 1;
    o->px[times >= 4 ? GD_OVERDRAW_4PLUS : times - 1] += area;
    o->overdrawn_px += area;
    s->weighted += (double)area * (double)times;
    if (s->max_areas && o->nareas >= s->max_areas) {
        o->areas_truncated = 1;
        return;
    }
    if (o->nareas == s->areas_cap) {
        size_t cap = s->areas_cap ? 2 * s->areas_cap : 64;
        gd_overdraw_area *v = realloc(o->areas, cap * sizeof *v);
        if (!v) {
            s->failed = 1;
            return;
        }
        o->areas = v;
        s->areas_cap = cap;
    }
    gd_overdraw_area *a = &o->areas[o->nareas++];
    a->rect[0] = r->x0;
    a->rect[1] = r->y0;
    a->rect[2] = x_end;
    a->rect[3] = r->y1;
    a->times = times;
}

/* The runs of the slab starting at x replace the open ones: identical runs
 * (same top, bottom, count) continue, the others are closed at x. */
static void merge_slab(sweep *s, int32_t x)
{
    runs *cur = &s->cur, *open = &s->open;
    size_t p = 0;
    for (size_t i = 0; i < cur->n; i++) {
        run *r = &cur->v[i];
        while (p < open->n && open->v[p].y0 < r->y0)
            close_run(s, &open->v[p++], x);
        if (p < open->n && open->v[p].y0 == r->y0 && open->v[p].y1 == r->y1 &&
            open->v[p].count == r->count)
            r->x0 = open->v[p++].x0;
        else
            r->x0 = x;
    }
    while (p < open->n)
        close_run(s, &open->v[p++], x);
    runs tmp = *open;
    *open = *cur;
    *cur = tmp;
    cur->n = 0;
}

/* Sweeps the painted rects left to right.  0 ok, -1 out of memory. */
static int sweep_rects(const rect *pr, const int64_t *layers, size_t np, gd_overdraw *out,
                       size_t max_areas)
{
    if (np == 0)
        return 0;
    int rc = -1;
    sweep s = {0};
    s.out = out;
    s.max_areas = max_areas;
    int32_t *ys = malloc(2 * np * sizeof *ys);
    xev *ev = malloc(2 * np * sizeof *ev);
    if (!ys || !ev)
        goto done;
    for (size_t i = 0; i < np; i++) {
        ys[2 * i] = pr[i].t;
        ys[2 * i + 1] = pr[i].b;
    }
    gd_sort(ys, 2 * np, sizeof *ys, cmp_i32);
    size_t ny = 1;
    for (size_t i = 1; i < 2 * np; i++)
        if (ys[i] != ys[ny - 1])
            ys[ny++] = ys[i];
    s.ys = ys;
    s.leaves = ny - 1; /* >= 1: every painted rect is non-empty */
    for (size_t i = 0; i < np; i++) {
        const int32_t *lo = bsearch(&pr[i].t, ys, ny, sizeof *ys, cmp_i32);
        const int32_t *hi = bsearch(&pr[i].b, ys, ny, sizeof *ys, cmp_i32);
        xev a = {pr[i].l, (size_t)(lo - ys), (size_t)(hi - ys), layers[i]};
        xev b = {pr[i].r, a.y0, a.y1, -layers[i]};
        ev[2 * i] = a;
        ev[2 * i + 1] = b;
    }
    gd_sort(ev, 2 * np, sizeof *ev, cmp_xev);
    size_t nodes = 4 * s.leaves;
    s.add = calloc(nodes, sizeof *s.add);
    s.mn = calloc(nodes, sizeof *s.mn);
    s.mx = calloc(nodes, sizeof *s.mx);
    if (!s.add || !s.mn || !s.mx)
        goto done;

    size_t i = 0;
    while (i < 2 * np) {
        int32_t x = ev[i].x;
        for (; i < 2 * np && ev[i].x == x; i++)
            seg_update(&s, 1, 0, s.leaves, ev[i].y0, ev[i].y1, ev[i].d);
        if (i < 2 * np)
            seg_walk(&s, 1, 0, s.leaves, 0);
        merge_slab(&s, x);
        if (s.failed)
            goto done;
    }
    if (out->nareas > 1)
        gd_sort(out->areas, out->nareas, sizeof *out->areas, cmp_area);
    rc = 0;
done:
    out->ratio = s.weighted; /* divided by the screen area by the caller */
    free(ys);
    free(ev);
    free(s.add);
    free(s.mn);
    free(s.mx);
    free(s.cur.v);
    free(s.open.v);
    return rc;
}

/* ---- driver ---------------------------------------------------------------- */

static int collect(tree *t, const gd_view *v, size_t n, int64_t limit, gd_overdraw *out)
{
    size_t ndeep = 0;
    for (size_t i = 0; i < n; i++) {
        if (IS_SKIP(t->state[i])) {
            out->skipped[t->state[i] - ST_SKIP]++;
            continue;
        }
        out->views++;
        if (t->depth[i] > out->max_depth)
            out->max_depth = t->depth[i];
        if (t->depth[i] > limit)
            ndeep++;
    }
    for (int r = 0; r < GD_OVERDRAW_SKIP__COUNT; r++) {
        if (out->skipped[r] && !out->broken) {
            out->broken = 1;
            out->broken_reason = skip_names[r];
        }
    }
    if (ndeep) {
        out->deep_ids = malloc(ndeep * sizeof *out->deep_ids);
        if (!out->deep_ids)
            return -1;
        for (size_t i = 0; i < n; i++)
            if (t->state[i] == ST_VALID && t->depth[i] > limit)
                out->deep_ids[out->ndeep++] = v[i].id;
    }
    return 0;
}

/* The screen rect: [0,0,w,h] when both are known, else the roots' union. */
static rect pick_screen(const tree *t, const gd_view *v, const gd_overdraw_opts *opts,
                        gd_overdraw *out)
{
    rect sc = {0, 0, 0, 0};
    if (opts->screen_w > 0 && opts->screen_h > 0) {
        sc.r = opts->screen_w;
        sc.b = opts->screen_h;
        out->screen_known = 1;
    } else if (t->n) {
        sc = roots_union(t, v);
    }
    out->screen[0] = sc.l;
    out->screen[1] = sc.t;
    out->screen[2] = sc.r;
    out->screen[3] = sc.b;
    return sc;
}

static int painted(const tree *t, const gd_view *v, size_t i)
{
    return t->state[i] == ST_VALID && t->vis[i] && v[i].layers > 0 && !rect_empty(t->eff[i]);
}

int gd_overdraw_compute(const gd_view *views, size_t n, const gd_overdraw_opts *opts,
                        gd_overdraw *out, gd_error *err)
{
    if (!out)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "overdraw: no output");
    memset(out, 0, sizeof *out);
    if (!views && n)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "overdraw: no views");
    gd_overdraw_opts def = {0};
    if (!opts)
        opts = &def;
    int64_t limit = opts->max_depth > 0 ? opts->max_depth : GD_OVERDRAW_DEFAULT_MAX_DEPTH;
    out->max_depth_limit = limit;

    tree t = {0};
    t.n = n;
    if (n == 0) {
        pick_screen(&t, views, opts, out);
        return GD_OK;
    }
    size_t *stack = NULL, *mark = NULL;
    uint8_t *done = NULL;
    rect *pr = NULL;
    int64_t *pl = NULL;
    int rc = GD_OK;
    t.state = calloc(n, 1);
    t.par = malloc(n * sizeof *t.par);
    t.kid_start = calloc(n + 1, sizeof *t.kid_start);
    t.kids = malloc(n * sizeof *t.kids);
    t.eff = malloc(n * sizeof *t.eff);
    t.vis = calloc(n, 1);
    t.depth = calloc(n, sizeof *t.depth);
    stack = malloc(n * sizeof *stack);
    mark = calloc(n, sizeof *mark);
    done = calloc(n, 1);
    if (!t.state || !t.par || !t.kid_start || !t.kids || !t.eff || !t.vis || !t.depth ||
        !stack || !mark || !done || tree_link(&t, views, n) < 0)
        goto nomem;

    rect screen = pick_screen(&t, views, opts, out);
    tree_walk(&t, views, screen, stack, done);
    tree_cycles(&t, mark, done);
    if (collect(&t, views, n, limit, out) < 0)
        goto nomem;

    size_t np = 0;
    for (size_t i = 0; i < n; i++)
        np += painted(&t, views, i);
    if (np) {
        pr = malloc(np * sizeof *pr);
        pl = malloc(np * sizeof *pl);
        if (!pr || !pl)
            goto nomem;
        np = 0;
        for (size_t i = 0; i < n; i++) {
            if (painted(&t, views, i)) {
                pr[np] = t.eff[i];
                pl[np++] = views[i].layers;
            }
        }
        if (sweep_rects(pr, pl, np, out, opts->max_areas) < 0)
            goto nomem;
    }
    double sw = (double)((int64_t)screen.r - screen.l), sh = (double)((int64_t)screen.b - screen.t);
    out->ratio = sw > 0 && sh > 0 ? out->ratio / (sw * sh) : 0;
    goto out;
nomem:
    gd_overdraw_free(out);
    rc = oom(err);
out:
    tree_free(&t);
    free(stack);
    free(mark);
    free(done);
    free(pr);
    free(pl);
    return rc;
}
