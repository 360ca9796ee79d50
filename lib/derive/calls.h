/* derive/calls.h - a thread's stored calls over a window: method names, the window's calls, per-method sums (shared by blame and the method queries). */
#ifndef GD_DERIVE_CALLS_H
#define GD_DERIVE_CALLS_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/calltree.h"
#include "store/sql.h"

typedef struct gd_mname {
    char *cls, *name, *desc;
} gd_mname;

/* Names of a method id (owned copies in *out, freed with gd_calls_name_free);
 * *q caches the statement (the caller finalizes it); GD_ERR_DATA when missing. */
int gd_calls_name(gd_store *s, sqlite3_stmt **q, int64_t id, gd_mname *out, gd_error *err);
void gd_calls_name_free(gd_mname *m);
/* "class.name" of m into buf; returns buf. */
char *gd_calls_dotted(const gd_mname *m, char *buf, size_t n);

/* The call in columns col..col+6 of q: id, parent, method, start, end, depth, open. */
void gd_calls_at(sqlite3_stmt *q, int col, gd_call *c);
/* Feeds the calls of one thread that overlap [a, b] to fn, in pre-order:
 * the calls running at `a` and the calls started inside (a, b). */
int gd_calls_window(gd_store *s, int64_t trace, int64_t pid, int64_t tid, double a, double b,
                    gd_call_fn fn, void *ctx, gd_error *err);
/* The window's calls through a call walker clipped to [a, b] (gd_ctw): out
 * gets each call with its clipped times. 0, out's value, -1 when the walker
 * ran out of memory, or a gd_err code (err set). */
int gd_calls_walk(gd_store *s, int64_t trace, int64_t pid, int64_t tid, double a, double b,
                  gd_call_fn out, void *ctx, gd_error *err);

/* Per-method sums of a window's clipped calls. */
typedef struct gd_calls_acc {
    int64_t method;
    long count, open;
    double total, self, max;
    double *durs;        /* completed calls' clipped totals                  */
    size_t n, cap;
} gd_calls_acc;

typedef struct gd_calls_accs {
    gd_calls_acc *v;
    size_t n, cap;
    int oom;             /* set when a sum could not be recorded             */
    size_t *slot;        /* open-addressed index: method -> 1 + its place in v
                          * (0 = empty), nslot a power of two > 2n: O(1) lookups */
    size_t nslot;
    size_t probes;       /* slots compared so far: O(1) per call (tests bound it) */
} gd_calls_accs;

/* A gd_call_fn for gd_calls_walk: adds a clipped call to the gd_calls_accs
 * ctx; -1 (and oom set) when out of memory. */
int gd_calls_acc_call(void *ctx, const gd_call *c);
void gd_calls_accs_free(gd_calls_accs *a);

#endif
