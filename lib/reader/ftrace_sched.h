/* ftrace_sched.h - thread states from the kernel's scheduling events, as
 * Perfetto's trace processor defines them (its thread_state table).
 *
 * Shared by the perfetto reader (ftrace protobuf events, compact_sched) and
 * the systrace reader (the same events as ftrace text lines).  The caller
 * feeds the events in time order; this module keeps one open state per
 * thread and emits GD_EV_THREAD_STATE through the sink as each interval
 * closes:
 *   - sched_switch at ts on cpu: the previous thread's interval closes and
 *     its prev_state opens ("R" runnable, "R+" preempted, "S", "D", ...);
 *     the next thread's interval closes and "Running" opens on cpu.  A
 *     switch out of a thread whose last state was not Running means lost
 *     data: that interval comes out without an end (dur NONE), as Perfetto
 *     leaves it;
 *   - sched_waking of a blocked thread (any state but Running, R, R+):
 *     the sleep closes, "R" opens with the waker; a waking of a running or
 *     runnable thread changes nothing (Perfetto's spurious wakeup);
 *     a waking of a thread never seen opens "R" (nothing is invented
 *     before it);
 *   - task_newtask: a new thread (gd_sched_thread_start): "R" opens for
 *     it, woken by its parent;
 *   - sched_blocked_reason sets io_wait and the blocked function of the
 *     thread's last blocked interval (still open, or closed but not yet
 *     followed by Running: it is held back until then);
 *   - at the end (gd_sched_finish) every state still open comes out with
 *     dur NONE.
 * The idle task (tid 0) has no states.  Times are CLOCK_BOOTTIME /
 * MONOTONIC ns, emitted as ms since boot.
 *
 * Skips (counted, prefix "<prefix>: "): an event older than the last one
 * ("sched: event out of time order"), more than GD_SCHED_MAX_THREADS
 * threads ("sched: too many threads").
 *
 * Memory: per-thread state for at most GD_SCHED_MAX_THREADS threads (one
 * open and one held interval each), interned blocked-function names (at
 * most GD_SCHED_MAX_NAMES). */
#ifndef GD_READER_FTRACE_SCHED_H
#define GD_READER_FTRACE_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

#define GD_SCHED_MAX_THREADS 262144
#define GD_SCHED_MAX_NAMES 65536
#define GD_SCHED_MAX_FN 128

/* A task state as parsed flags (the letters sched_switch prints). */
enum {
    GD_TS_S = 0x1, GD_TS_D = 0x2, GD_TS_T = 0x4, GD_TS_t = 0x8, GD_TS_X = 0x10, GD_TS_Z = 0x20,
    GD_TS_P = 0x40, GD_TS_x = 0x80, GD_TS_K = 0x100, GD_TS_W = 0x200, GD_TS_N = 0x400,
    GD_TS_I = 0x800, GD_TS_PREEMPT = 0x1000, GD_TS_INVALID = 0x8000
};

typedef struct gd_sched gd_sched;

/* Who a thread is when the caller knows better than the sched events
 * (process trees, track descriptors): 1 with *pid (-1 unknown) and *name
 * (NULL unknown) set, 0 when it does not know the thread.  *name comes in
 * as the sched events' own name (comm) for the thread, or NULL. */
typedef int (*gd_sched_lookup_fn)(void *ctx, int64_t tid, int64_t *pid, const char **name);

/* A new tracker emitting to `sink`; `prefix` starts the skip reasons.
 * NULL when out of memory. */
gd_sched *gd_sched_new(const gd_sink *sink, const char *prefix);
void gd_sched_free(gd_sched *s);
void gd_sched_set_lookup(gd_sched *s, gd_sched_lookup_fn fn, void *ctx);

/* prev_state of a binary sched_switch (the kernel's bitmask) as flags, by
 * the kernel version's layout (major 0: unknown, read as 4.4 the way
 * Perfetto does); GD_TS_INVALID when the bits make no sense. */
int gd_sched_state_from_raw(int64_t raw, int kmajor, int kminor);
/* prev_state as ftrace text prints it ("R", "R+", "S", "D", "DK"...). */
int gd_sched_state_from_text(const char *s, size_t n);

/* Names thread tid (its comm) and its process (pid -1: unknown). 0, or
 * GD_ERR_IO when out of memory (with err set). */
int gd_sched_name(gd_sched *s, int64_t tid, const char *comm, size_t len, gd_error *err);
/* The same with comm a string gd_sched_intern returned (NULL: none):
 * cheaper when a thread is named as before. */
int gd_sched_name_interned(gd_sched *s, int64_t tid, const char *comm, gd_error *err);
int gd_sched_pid(gd_sched *s, int64_t tid, int64_t pid, gd_error *err);
/* A stable copy of a blocked function's name, or NULL when the table is
 * full or out of memory. */
const char *gd_sched_intern(gd_sched *s, const char *name, size_t len);

/* The events; `line` is the source position for skips.  0 or the sink's
 * error code. */
int gd_sched_switch(gd_sched *s, int64_t ts_ns, int cpu, int64_t prev_tid, int prev_state,
                    int64_t next_tid, long line, gd_error *err);
int gd_sched_waking(gd_sched *s, int64_t ts_ns, int64_t tid, int64_t waker_tid, long line,
                    gd_error *err);
/* task_newtask: thread tid begins, created by thread parent_tid, named
 * comm.  It is a new thread, as Perfetto's thread table makes one: what
 * the tracker knew of an earlier thread of that tid (its process, its
 * name) is forgotten and that thread's open state comes out without an
 * end.  Without GD_CLONE_THREAD in clone_flags it is a process of its own
 * (pid = tid); with it, it joins the parent's process, and when that is
 * not known yet, the process the parent turns out to have (resolved as
 * its states come out).  *pid: its process now, -1 unknown. */
#define GD_CLONE_THREAD 0x10000u
int gd_sched_thread_start(gd_sched *s, int64_t ts_ns, int64_t tid, int64_t parent_tid,
                          uint64_t clone_flags, const char *comm, size_t len, int64_t *pid,
                          long line, gd_error *err);
int gd_sched_blocked(gd_sched *s, int64_t ts_ns, int64_t tid, int io_wait, const char *fn,
                     long line, gd_error *err);

/* One ftrace text event (systrace): FUNC and PAYLOAD of a line written by
 * thread tid of process tgid (-1 unknown) on cpu at ts_ns.  *used = 1 when
 * it is a scheduling event this module reads (sched_switch, sched_waking,
 * sched_blocked_reason, task_newtask, task_rename), else 0.  A sched line
 * whose fields do not parse is counted ("<prefix>: sched event
 * unparsable").  0 or the sink's error code. */
int gd_sched_text(gd_sched *s, int64_t ts_ns, int cpu, int64_t tid, int64_t tgid, const char *func,
                  size_t flen, const char *payload, size_t plen, long line, int *used,
                  gd_error *err);

/* Emits every state still held or open.  0 or the sink's error code. */
int gd_sched_finish(gd_sched *s, gd_error *err);

/* Scheduling events fed so far and intervals emitted. */
unsigned long gd_sched_events(const gd_sched *s);
unsigned long gd_sched_states(const gd_sched *s);

#endif
