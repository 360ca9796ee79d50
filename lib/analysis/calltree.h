/* calltree.h - method call trees: rebuilding calls from enter/exit or complete records, clipping, merging, names.
 *
 * Pure functions over plain values (no SQL, no I/O).  Methods are opaque
 * int64 handles chosen by the caller (the store's interned method ids).
 *
 * Three pieces, one thread at a time, over the one exit rule
 * (gd_ct_exit_closes):
 *   - gd_ctb (builder): calls from enter/exit events in time order, or from
 *     complete calls (start, end, depth) in pre-order; assigns ids and
 *     parents, computes total and self time, flags calls still open at the
 *     end of the recording;
 *   - gd_ctw (walker): stored calls in pre-order, clipped to a time range:
 *     each call's clipped total and self time (for blame and per-block
 *     statistics);
 *   - gd_ctt (tree): stored calls merged by call path (top-down tree) with
 *     counts, total and self time, clipped to a time range.
 * Self time = total - the sum of the children's totals. */
#ifndef GD_ANALYSIS_CALLTREE_H
#define GD_ANALYSIS_CALLTREE_H

#include <stddef.h>
#include <stdint.h>

/* Deepest nesting kept; deeper enters are counted and dropped. */
#define GD_CT_MAX_DEPTH 512

typedef struct gd_call {
    int64_t id;          /* > 0                                              */
    int64_t parent;      /* parent call's id, 0 for a root                   */
    int64_t method;
    double start, end;   /* epoch ms                                         */
    int depth;           /* 0 for a root                                     */
    int open;            /* still running when the recording stopped         */
    int rec;             /* an ancestor is a call of the same method         */
    double total, self;  /* ms (clipped by the walker)                       */
    long seq;            /* walker: position in the pre-order input          */
} gd_call;

/* Receives one finished call (borrowed). Non-zero stops and is returned. */
typedef int (*gd_call_fn)(void *ctx, const gd_call *c);

/* ---- the exit rule ------------------------------------------------------- */

/* An exit of method M closes the innermost open call of M and every call
 * opened inside it and still open (their exits were missed, e.g. an
 * exception unwound them); an exit that matches no open call closes
 * nothing.  The one home of this rule: the builder (gd_ctb_exit, stored
 * method events) and the slice tracker (gd_slicetrack_end_match, ART
 * method traces) both ask it and count its answer under their own names.
 * `open` holds n open entries, outermost first, each `size` bytes with an
 * int64_t key at byte offset `off`; an entry matches when
 * (key & mask) == tag (mask 0, tag 0: the innermost entry, whatever it
 * is).  Returns how many entries the exit closes, innermost first (all
 * but the last are calls whose exit is missing), or 0 when none matches. */
int gd_ct_exit_closes(const void *open, int n, size_t size, size_t off, int64_t tag, int64_t mask);

/* ---- builder ------------------------------------------------------------- */

typedef struct gd_ct_frame {
    gd_call c;
    double kids;         /* sum of the children's totals so far              */
} gd_ct_frame;

typedef struct gd_ctb {
    gd_ct_frame *stk;
    int n;
    int64_t *next_id;    /* the caller's id counter (shared across threads)  */
    gd_call_fn fn;
    void *ctx;
    long unbalanced;     /* exits whose method was not open: dropped         */
    long unclosed;       /* calls closed by the exit of an outer call        */
    long too_deep;       /* enters/calls past GD_CT_MAX_DEPTH: dropped       */
    long dropped_open;   /* deep enters still waiting for their exit         */
} gd_ctb;

/* Starts an empty builder.  Ids are taken from *next_id (incremented). */
int gd_ctb_init(gd_ctb *b, int64_t *next_id, gd_call_fn fn, void *ctx);
void gd_ctb_free(gd_ctb *b);
/* A method enter at ts (events of one thread in time order). 0, or the
 * callback's non-zero value, or -1 out of memory. */
int gd_ctb_enter(gd_ctb *b, int64_t method, double ts);
/* A method exit at ts, closing what gd_ct_exit_closes says, at ts: the
 * calls closed above the innermost open call of `method` are counted in
 * `unclosed`; an exit that closes nothing in `unbalanced`.  method < 0
 * means "unknown": closes the innermost call. */
int gd_ctb_exit(gd_ctb *b, int64_t method, double ts);
/* A complete call, fed in pre-order (sorted by start, then depth).  With
 * depth >= 0 the parent is the innermost open call of a smaller depth;
 * with depth < 0, the innermost open call whose interval contains it.
 * `open` flags a call the recorder saw still running at its end. */
int gd_ctb_call(gd_ctb *b, int64_t method, double start, double end, int depth, int open);
/* Closes every call still open: enter-only calls end at `cap_end` (or
 * their start when later) and are flagged open. */
int gd_ctb_finish(gd_ctb *b, double cap_end);

/* ---- walker: clipped totals and self times ------------------------------- */

typedef struct gd_ctw {
    gd_ct_frame *stk;
    size_t n, cap;
    double lo, hi;       /* clip range; -INFINITY/INFINITY for none          */
    long seq;
    gd_call_fn fn;
    void *ctx;
} gd_ctw;

/* Starts a walker over [lo, hi]. */
void gd_ctw_init(gd_ctw *w, double lo, double hi, gd_call_fn fn, void *ctx);
void gd_ctw_free(gd_ctw *w);
/* Feeds one stored call in pre-order (start, then depth); its parent, when
 * among the calls fed, must come before it (a parent not fed makes it a
 * root).  Finished calls are passed to fn in post-order with total = the
 * part of [start, end] inside [lo, hi], self = total - the children's
 * clipped totals, rec set, depth kept, seq = pre-order position.
 * 0, the callback's value, or -1 out of memory. */
int gd_ctw_add(gd_ctw *w, const gd_call *c);
int gd_ctw_finish(gd_ctw *w);

/* ---- tree: calls merged by path ------------------------------------------ */

typedef struct gd_ct_node {
    int64_t method;
    long count;          /* calls merged into this node                      */
    long open;           /* of which still open at the end of the recording */
    double total, self;  /* ms, clipped                                      */
    struct gd_ct_node *parent, *child, *next; /* first child, next sibling  */
} gd_ct_node;

typedef struct gd_ctt gd_ctt;

/* A tree of the calls clipped to [lo, hi] (pass -INFINITY/INFINITY for
 * none).  NULL when out of memory. */
gd_ctt *gd_ctt_new(double lo, double hi);
void gd_ctt_free(gd_ctt *t);
/* Adds one stored call, pre-order as for gd_ctw_add.  Calls outside
 * [lo, hi] are ignored.  0 or -1 out of memory. */
int gd_ctt_add(gd_ctt *t, const gd_call *c);
/* Computes self times and orders children by total descending (then
 * method ascending).  Returns the root: a dummy node whose children are
 * the top-level calls. */
const gd_ct_node *gd_ctt_finish(gd_ctt *t);
/* Node slots compared so far while finding children (each add finds its
 * node among its siblings through a hash: O(1) expected, so a test can
 * bound the work without timing it). */
size_t gd_ctt_probes(const gd_ctt *t);

/* ---- Matrix's stack key --------------------------------------------------- */

/* One item of a Matrix-style stack: a call with its depth and cost. */
typedef struct gd_ct_item {
    int64_t method;
    int depth;
    double cost;
} gd_ct_item;

/* Index of the item TraceDataUtils.getTreeKey would pick from `items`
 * (pre-order): items whose cost >= (long)(stack_cost * 0.3), stably ordered
 * by (depth + 1) * cost descending; with none, the first item; when the
 * first of several is `dispatch_method` (Matrix's message pseudo-method;
 * pass -1 for none), the next.  -1 when n == 0. */
long gd_ct_stack_key(const gd_ct_item *items, size_t n, double stack_cost, int64_t dispatch_method);

/* ---- names ----------------------------------------------------------------- */

/* JVM internal class name to dotted form ("a/b/C$D" -> "a.b.C$D") into buf. */
char *gd_ct_dotted(const char *cls, char *buf, size_t n);
/* Java form of a method: "a/b/C$D", "m", "(I[Ljava/lang/String;)V" ->
 * "a.b.C$D.m(int, java.lang.String[])".  A NULL or malformed descriptor
 * gives no parameter list ("a.b.C$D.m").  Returns buf. */
char *gd_ct_java_name(const char *cls, const char *method, const char *desc, char *buf, size_t n);

/* The p-th percentile (0..100) of n sorted values known only by streaming
 * them: the ranks needed (*lo, *hi: the values at those 0-based positions
 * are combined by gd_ct_pct_mix); same result as gd_percentile. */
void gd_ct_pct_ranks(size_t n, double p, size_t *lo, size_t *hi);
double gd_ct_pct_mix(size_t n, double p, double v_lo, double v_hi);

#endif
