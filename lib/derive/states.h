/* derive/states.h - a thread's scheduling states inside a time range (a block): the one rule. */
#ifndef GD_DERIVE_STATES_H
#define GD_DERIVE_STATES_H

#include <stdint.h>

#include <jansson.h>

#include "store/sql.h"

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
 * process it waited on most (*server_pid, -1 when none; *server_name the
 * name the trace gives it, binder_txn.server_process, else its main
 * thread's name, or "" when unknown). */
typedef struct gd_binder_share {
    double ms;
    int64_t server_pid;
    char server_name[64];
    char aidl[128]; /* the AIDL name of its longest call to that process, "" unknown */
} gd_binder_share;
int gd_binder_in(gd_store *s, int64_t trace, int64_t tid, double start, double end,
                 gd_binder_share *out, gd_error *err);

/* Time (ms) thread tid of trace spent inside [start, end) in lock
 * contention (the "monitor contention with owner ..." / "Lock contention
 * on ..." atrace slices, stored as issues android/lock_contention), and the
 * owner it waited on most: *owner_tid (-1 unknown), *owner its thread name
 * as the slice gives it ("" unknown), owner_method the method the owner
 * held the lock in (its longest contention's, "" when not given). */
typedef struct gd_lock_share {
    double ms;
    int64_t owner_tid;
    char owner[64];
    char owner_method[256];
} gd_lock_share;
int gd_lock_in(gd_store *s, int64_t trace, int64_t tid, double start, double end,
               gd_lock_share *out, gd_error *err);

/* Which kinds of "why" data the store holds at all: GD_WHY_SCHED (thread
 * states or binder transactions), GD_WHY_LOCK (lock contention slices).
 * *have = the bits; GD_OK or GD_ERR_IO with err set. */
#define GD_WHY_SCHED 1
#define GD_WHY_LOCK 2
int gd_why_have(gd_store *s, int *have, gd_error *err);

/* The same bits for one trace: a block's shares are data (not "none
 * seen") only when its own trace holds such data, wherever it is stored
 * (one database or a fleet of them: the rule gd_why_values applies). */
int gd_why_have_trace(gd_store *s, int64_t trace, int *have, gd_error *err);

/* A range's "why": its states, binder and lock shares (each left empty when
 * its bit is not in `have`). */
typedef struct gd_why {
    gd_state_share states;
    gd_binder_share binder;
    gd_lock_share lock;
} gd_why;
int gd_why_in(gd_store *s, int have, int64_t trace, int64_t tid, double start, double end,
              gd_why *out, gd_error *err);

/* A block's "why" figures, THE rule of which are data (godeye-blocks(1)
 * fields, unrounded): v[GD_WHY_V_RUNNING..GD_WHY_V_UNINTERRUPTIBLE] the ms
 * in each state class, NAN when the range has no scheduling data;
 * v[GD_WHY_V_COVERED] the ms with scheduling data (0 when none);
 * v[GD_WHY_V_BINDER] the binder wait, NAN unless have has GD_WHY_SCHED;
 * v[GD_WHY_V_LOCK] the lock wait, NAN when have is 0.  `have` is the
 * block's trace's (gd_why_have_trace). */
enum {
    GD_WHY_V_RUNNING,
    GD_WHY_V_RUNNABLE,
    GD_WHY_V_SLEEPING,
    GD_WHY_V_UNINTERRUPTIBLE,
    GD_WHY_V_COVERED,
    GD_WHY_V_BINDER,
    GD_WHY_V_LOCK,
    GD_WHY_NVALUES
};
void gd_why_values(const gd_why *w, int have, double v[GD_WHY_NVALUES]);

/* A block group's shares (godeye-blocks(1), --group): running_share,
 * runnable_share, sleeping_share, uninterruptible_share (null when no
 * block has scheduling data), states_coverage, binder_share (null when
 * `have` lacks GD_WHY_SCHED), lock_share (null when have is 0), each
 * rounded to 4 decimals, set on row from sums[] (gd_why_values' order,
 * NANs counted as 0) over the group's blocks of `total` ms; have is the OR
 * of its blocks' traces' bits.  0, or -1 when out of memory. */
int gd_why_shares_json(json_t *row, const double sums[GD_WHY_NVALUES], double total, int have);

/* The range's cause as text, THE rule of the dominant cause: the largest of
 * the lock time, the binder time and the dominant state's time, where a
 * Sleeping or Runnable dominant state counts only its time outside lock
 * and binder waits (they are the why of that sleep); a tie goes to the
 * lock, then to binder.  "74% lock held by CartSync (14031)", "67% binder
 * to system_server (IPackageManager::getPackageInfo)", "42% D in do_fsync";
 * "" when there is no data. */
void gd_why_text(const gd_why *w, double range_ms, char *buf, size_t n);

/* Names the binder transactions of trace by their AIDL method, as
 * Perfetto's android_binder_txns does: the outermost slice on the server
 * thread while it served the call (a one-way call: from its reception to
 * the next call that thread received) named "AIDL::*Server",
 * "AIDL::*server" or "HIDL::*server".  GD_OK or the store's error. */
int gd_binder_name_aidl(gd_store *s, int64_t trace, gd_error *err);

/* A trace without ftrace binder events but with the atrace slices
 * "binder transaction" (a synchronous call: the slice is the client's
 * wait; dur NULL when still open) and "binder transaction async" (one-way:
 * dur 0) gets a binder_txn row per slice, client side only (the server is
 * unknown without the kernel's events).  GD_OK or the store's error. */
int gd_binder_from_slices(gd_store *s, int64_t trace, gd_error *err);

/* Sets binder_txn.outermost for the calls of trace (lib/sql/binder-
 * outermost.sql), once its calls are all written: gd_binder_in reads it.
 * GD_OK or the store's error. */
int gd_binder_outermost(gd_store *s, int64_t trace, gd_error *err);

/* "IPackageManager::getPackageInfo" of "AIDL::java::IPackageManager::
 * getPackageInfo::server" (Perfetto's interface and method_name: the 3rd
 * and 4th "::" parts), or the name as it is when it has fewer parts. */
void gd_aidl_short(const char *aidl, char *buf, size_t n);

/* The main thread's states of trace as a report lane can show them:
 * consecutive intervals of one class merged, then those shorter than
 * min_ms left out, at most max_n (the first ones); each appended to out as
 * [ts_ms, dur_ms, class] with class "Running", "R", "S", "D" or "other"
 * (gd_state_class).  Intervals without an end count nowhere.  GD_OK, or
 * an error code with err set. */
int gd_states_lane(gd_store *s, int64_t trace, double min_ms, size_t max_n, json_t *out, gd_error *err);

/* "62% D in fsync" (the dominant class's share of the range, the kernel
 * function without its offset), or "" when there is no data. */
void gd_states_text(const gd_state_share *sh, double range_ms, char *buf, size_t n);

#endif
