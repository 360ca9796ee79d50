/* derive/methods.h - method traces in the store: calls rebuilt at ingest and a
 * block's blame (the queries over them: query/methods.h). */
#ifndef GD_DERIVE_METHODS_H
#define GD_DERIVE_METHODS_H

#include <stdint.h>

#include "store/store.h"

/* ---- writing (used by the writer, ingest/writer.c) -------------------------- */

typedef struct gd_mw gd_mw;

typedef struct gd_mw_stats {
    long calls;          /* call rows written                              */
    long unbalanced;     /* exits without an open enter: dropped           */
    long unclosed;       /* calls closed by an outer call's exit           */
    long too_deep;       /* enters past the depth bound: dropped           */
} gd_mw_stats;

/* Prepares method-event buffering for `trace` inside the writer's
 * savepoint.  GD_ERR_IO on failure. */
int gd_mw_open(gd_mw **out, gd_store *s, int64_t trace, gd_error *err);
/* The events wait in memory, up to 16 MiB of them (299,593); each time
 * that fills they are sorted into a run in a temporary file, and the runs
 * are merged at the end (bounded memory).  When a run would hold an event
 * of pid or tid -1, or from an event whose time is NaN on, they all wait in
 * a temp table instead and SQLite sorts them.  Each way gives the same
 * calls.  Tests set a smaller bound (rows; before the first event). */
void gd_mw_set_mem_rows(gd_mw *m, size_t rows);
/* Buffers one GD_EV_METHOD event (interning its method).  Events without
 * a method name are counted by the caller as skipped: returns GD_OTHER_RULE
 * then (never an error code). */
int gd_mw_put(gd_mw *m, const gd_event *ev, gd_error *err);
/* Rebuilds the calls thread by thread (enter/exit in time order; complete
 * calls by start then depth), writes them to `call`, fills *st and empties
 * the buffer.  Events of pid/tid -1 belong to main_pid/main_tid; calls
 * still open end at cap_end. */
int gd_mw_finish(gd_mw *m, int64_t main_pid, int64_t main_tid, double cap_end, gd_mw_stats *st,
                 gd_error *err);
void gd_mw_free(gd_mw *m);

/* ---- blame (derive/blame.c; used by block derivation, derive/blocks.c) ----- */

/* The method with the largest self time inside [start, end] on a thread
 * (self time clipped to the interval), among the calls of a class in
 * `concern`; with none, among non-framework classes.  Writes the dotted
 * "pkg.Class.method" into out (empty when the interval has no method data
 * or no candidate with self time > 0). */
int gd_methods_blame(gd_store *s, int64_t trace, const char *const *concern, size_t ncon,
                     int64_t pid, int64_t tid, double start, double end, char *out, size_t n,
                     gd_error *err);

#endif
