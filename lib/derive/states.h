/* derive/states.h - a thread's scheduling states inside a time range (a block): the one rule. */
#ifndef GD_DERIVE_STATES_H
#define GD_DERIVE_STATES_H

#include <stdint.h>

#include "store/store_int.h"

#define GD_STATES_FN_MAX 128

/* Time (ms) thread tid of trace spent in each state class inside
 * [start, end), from the stored thread_state rows (an interval without an
 * end counts nowhere):
 *   running         "Running"
 *   runnable        "R", "R+"
 *   sleeping        "S", "I"
 *   uninterruptible "D" and its combinations ("DK"...)
 *   other           any other state ("T", "X", "P"..., or an invalid one)
 * covered = their sum; coverage = covered / (end - start), 0 when the
 * thread has no scheduling data there.  dominant names the class with the
 * most time ("Running", "R", "S", "D" or "other"), function the kernel
 * function the D time was mostly spent in (or ""). */
typedef struct gd_state_share {
    double running, runnable, sleeping, uninterruptible, other, covered, coverage;
    const char *dominant;            /* NULL when covered is 0 */
    double dominant_ms;
    char function[GD_STATES_FN_MAX]; /* "" when none */
} gd_state_share;

/* The class of a state name: 0 running, 1 runnable, 2 sleeping,
 * 3 uninterruptible, 4 other (NULL: other). */
int gd_state_class(const char *state);

/* Fills *out; GD_OK or GD_ERR_IO with err set. */
int gd_states_in(gd_store *s, int64_t trace, int64_t tid, double start, double end,
                 gd_state_share *out, gd_error *err);

/* Time (ms) thread tid of trace spent inside [start, end) waiting in its
 * own synchronous binder calls (binder_txn rows with a reply), and the
 * process it waited on most (*server_pid, -1 when none; *server_name its
 * main thread's name, or "" when unknown). */
typedef struct gd_binder_share {
    double ms;
    int64_t server_pid;
    char server_name[64];
} gd_binder_share;
int gd_binder_in(gd_store *s, int64_t trace, int64_t tid, double start, double end,
                 gd_binder_share *out, gd_error *err);

/* "62% D in fsync" (the dominant class's share of the range, the kernel
 * function without its offset), or "" when there is no data. */
void gd_states_text(const gd_state_share *sh, double range_ms, char *buf, size_t n);

#endif
