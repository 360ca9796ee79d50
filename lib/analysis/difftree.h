/* difftree.h - two sides' stacks merged into one tree by frame path, for
 * differential flame graphs (`godeye diff --stacks`, #52).
 *
 * Pure: no SQL, no I/O.  The caller feeds, capture by capture, each
 * stack's self time (ms) under a path of frame keys (root first); the
 * tree keeps per node and side the self and inclusive ms, and per capture
 * the node's inclusive ms, so that a node can be tested over captures. */
#ifndef GD_ANALYSIS_DIFFTREE_H
#define GD_ANALYSIS_DIFFTREE_H

#include <stddef.h>

/* Most nodes one tree holds; past it gd_dt_add fails with -2 (the caller
 * says so in one line) instead of growing without bound. */
#define GD_DT_MAX_NODES 2000000

typedef struct gd_dt_cap {
    unsigned cap;        /* capture index on its side                      */
    double ms;           /* the node's inclusive ms in that capture        */
} gd_dt_cap;

typedef struct gd_dt_node {
    char *frame;         /* the key; "" for the root                        */
    size_t parent;       /* index; the root is 0 and its own parent         */
    size_t child, next;  /* first child, next sibling (0: none)             */
    int depth;           /* 0 for the root                                  */
    double self[2], total[2]; /* ms, side 0 base, 1 head                    */
    gd_dt_cap *caps[2];  /* per capture (captures where it is absent: 0)    */
    size_t ncaps[2], capcap[2];
    double cur;          /* scratch: this capture's inclusive ms            */
    int touched;         /* scratch: in this capture's touched list         */
} gd_dt_node;

typedef struct gd_dt gd_dt;

gd_dt *gd_dt_new(void);
void gd_dt_free(gd_dt *t);
/* Starts capture `cap` of side (0 base, 1 head); captures of a side are
 * numbered 0.. in feeding order and are fed one at a time. */
void gd_dt_begin(gd_dt *t, int side, unsigned cap);
/* Adds ms of self time under frames[0..n) (root first).  The node of the
 * path is returned in *node (for a caller that adds under one path often:
 * gd_dt_add_at).  0, -1 out of memory, -2 past GD_DT_MAX_NODES. */
int gd_dt_add(gd_dt *t, const char *const *frames, size_t n, double ms, size_t *node);
/* The child `frame` of node `parent`, made when absent: 0, -1, -2 as above. */
int gd_dt_child(gd_dt *t, size_t parent, const char *frame, size_t *out);
/* Adds ms of self time at node (from gd_dt_add or gd_dt_child). */
void gd_dt_add_at(gd_dt *t, size_t node, double ms);
/* Ends the capture: inclusive ms propagated, one per-capture value kept on
 * every node the capture touched.  0 or -1 out of memory. */
int gd_dt_end(gd_dt *t);
/* Scales side 1 (head) by f: its self and inclusive ms (not the captures'). */
void gd_dt_scale_head(gd_dt *t, double f);
size_t gd_dt_count(const gd_dt *t);
const gd_dt_node *gd_dt_node_at(const gd_dt *t, size_t i);

#endif
