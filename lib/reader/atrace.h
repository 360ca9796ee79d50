/* atrace.h - slices from atrace markers (systrace text, Perfetto ftrace
 * print events, Perfetto TrackEvent slices) turned into godeye events.
 *
 * Shared by the systrace and perfetto readers.  The caller feeds
 * begin/end pairs per thread or per track (or raw marker text,
 * "B|pid|name", "E|pid", "C|..."), in time order per thread; this module
 * pairs them with the one begin/end tracker (slicetrack.h, keyed by track:
 * the thread for atrace, the track uuid for TrackEvent) and emits:
 *   - a top-level slice on an app's main thread (tid == pid) as
 *     GD_EV_DISPATCH (ts = begin ms, dur, msg = the slice name);
 *   - every other slice (nested on the main thread, or on any other
 *     thread) as a complete GD_EV_METHOD (phase UNKNOWN, cls/method split
 *     at '#' or the last '.', depth = nesting below the dispatch on the
 *     main thread, nesting from 0 elsewhere);
 *   - each Choreographer#doFrame slice on a main thread also as GD_EV_FRAME
 *     (ts, dur, window = the process name);
 *   - "monitor contention with owner ..." / "Lock contention on ..."
 *     slices also as GD_EV_ISSUE tool "android", type "lock_contention";
 *   - system_server's async "launching: PKG" slice (S/F markers, or the
 *     track form G/H of newer releases) as GD_EV_STARTUP: total = the
 *     slice, kind cold when a bindApplication slice began during it, warm
 *     when an activityStart did (and no bindApplication), else hot.
 * Events come out when a slice ends (slices still open at the end come out
 * from gd_atrace_finish as unfinished dispatches / open methods).
 *
 * Memory: per-thread state for at most ATRACE_MAX_THREADS threads (and as
 * many tracks), stacks ATRACE_MAX_DEPTH deep, names capped at
 * ATRACE_MAX_NAME bytes, and the open slices of all tracks together at most
 * ATRACE_MAX_OPEN_BYTES (names and stack entries): a begin past a bound is
 * dropped, counted "slices nested too deep" (once per run), "slice dropped:
 * open slices over 16 MiB" (each) or "too many tracks, later ones not
 * tracked" (once), and the end that matches it closes nothing. */
#ifndef GD_READER_ATRACE_H
#define GD_READER_ATRACE_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

#define ATRACE_MAX_THREADS 65536
#define ATRACE_MAX_DEPTH 128
#define ATRACE_MAX_NAME 1024
#define ATRACE_MAX_OPEN_BYTES ((size_t)16 << 20)

typedef struct gd_atrace gd_atrace;

/* A new pairing state emitting to `sink`; `prefix` starts the skip reasons
 * ("systrace", "perfetto").  NULL when out of memory. */
gd_atrace *gd_atrace_new(const gd_sink *sink, const char *prefix);
void gd_atrace_free(gd_atrace *a);

/* Names a process (pid) or a thread (tid, with its pid when known, else -1).
 * Names already known are replaced.  0, or GD_ERR_IO when out of memory. */
int gd_atrace_process_name(gd_atrace *a, int64_t pid, const char *name, size_t len, gd_error *err);
int gd_atrace_thread_name(gd_atrace *a, int64_t tid, int64_t pid, const char *name, size_t len,
                          gd_error *err);

/* A new thread took tid (task_newtask, #51), of process pid (-1: not
 * known yet, nothing changes): when the tid was another process's thread,
 * what was known of it (its name, a process name under that id) is
 * forgotten, as Perfetto's thread table starts a new row.  Always 0. */
int gd_atrace_thread_start(gd_atrace *a, int64_t tid, int64_t pid);

/* One atrace marker written by thread `tid` (its process `tgid`, or -1 when
 * unknown) at `ts_ms`: "B|pid|name", "E|pid" or "E", counters and async
 * markers (counted as skips).  A trailing newline is ignored.  `line` is
 * the source position for messages.  0 or the sink's error code. */
int gd_atrace_marker(gd_atrace *a, double ts_ms, int64_t tid, int64_t tgid, const char *buf,
                     size_t len, long line, gd_error *err);

/* A slice begins / ends on thread tid of process pid (pid -1: unknown). */
int gd_atrace_begin(gd_atrace *a, double ts_ms, int64_t pid, int64_t tid, const char *name,
                    size_t len, long line, gd_error *err);
int gd_atrace_end(gd_atrace *a, double ts_ms, int64_t tid, long line, gd_error *err);
/* The same on a track of its own (a Perfetto TrackEvent track uuid) run by
 * thread tid: paired apart from the thread's atrace slices (slicetrack.h). */
int gd_atrace_track_begin(gd_atrace *a, uint64_t track, double ts_ms, int64_t pid, int64_t tid,
                          const char *name, size_t len, long line, gd_error *err);
int gd_atrace_track_end(gd_atrace *a, uint64_t track, double ts_ms, int64_t tid, long line,
                        gd_error *err);

/* Flushes the slices still open (ended at the last time seen) and emits the
 * meta: clock "monotonic", app = the process whose main thread had the most
 * slices, pid/main_tid.  0 or the sink's error code. */
int gd_atrace_finish(gd_atrace *a, gd_error *err);

/* What the markers and descriptors said of thread tid: 1 with *pid (-1
 * unknown) and *name (NULL unknown) set, 0 when the thread is unknown;
 * *name comes in as the scheduler's comm or NULL (a main thread whose comm
 * is its process's name cut gets the process's name, #30).
 * A gd_sched_lookup_fn (ftrace_sched.h); ctx is the gd_atrace. */
int gd_atrace_thread_info(void *ctx, int64_t tid, int64_t *pid, const char **name);

/* The name the trace gives process pid (its process tree or descriptor
 * name, Perfetto's process name: cmdline's first argument or
 * process_name; else its main thread's name), NULL unknown.  A
 * gd_binder_process_fn (ftrace_binder.h); ctx is the gd_atrace. */
const char *gd_atrace_process_of(void *ctx, int64_t pid);

/* Events emitted so far. */
unsigned long gd_atrace_events(const gd_atrace *a);

#endif
