/* ingest/pairing.h - the writer's Looper prints and dispatch events into dispatch rows: paired as they stream in, or sorted at the end. */
#ifndef GD_INGEST_PAIRING_H
#define GD_INGEST_PAIRING_H

#include <stdint.h>
#include <stdio.h>

#include "store/sql.h"

typedef struct gd_pairing_thr gd_pairing_thr;

/* One trace's pairing state (owned by its writer).  Prints are paired per
 * thread as they arrive while each thread's come in time order; the first
 * print that does not (or names no thread, or one thread too many) stops
 * streaming, and every print is paired at the end from the temp table
 * temp.looper_tmp, sorted by (pid, tid, ts).  That table is this module's
 * alone (#24 item 8): gd_pairing_open creates and empties it,
 * gd_pairing_finish fills, resolves, reads and empties it. */
typedef struct gd_pairing {
    gd_store *s;
    int64_t trace;
    sqlite3_stmt *dispatch_ins, *looper_ins;
    /* while stream_on, every dispatch row of this trace came from here */
    int stream_on;
    FILE *prints;         /* every print, in arrival order */
    FILE *directs;        /* dispatch events, inserted at the end */
    int64_t stream_first; /* id of the first dispatch streamed, 0 none yet */
    gd_pairing_thr *thr;
    size_t nthr, thr_cap, thr_last;
    int unresolved;       /* a print or dispatch named no pid or no tid */
    long ends_without_begin; /* counted by gd_pairing_finish */
    long begins_dropped;     /* nesting past GD_PAIR_MAX_DEPTH */
} gd_pairing;

/* Creates (or empties) temp.looper_tmp and prepares the statements; on
 * failure fills err and returns its code (gd_pairing_close still safe). */
int gd_pairing_open(gd_pairing *p, gd_store *s, int64_t trace, gd_error *err);
void gd_pairing_close(gd_pairing *p);
/* One Looper print: phase BEGIN, END or UNKNOWN (alternating); msg the
 * interned message id or -1; thread_ts GD_NONE when absent. */
int gd_pairing_print(gd_pairing *p, int64_t pid, int64_t tid, double ts, int phase, double thread_ts,
                     int64_t msg, gd_error *err);
/* One dispatch already paired by its tool (thread_dur GD_NONE unknown). */
int gd_pairing_dispatch(gd_pairing *p, int64_t pid, int64_t tid, int64_t msg, double ts, double dur,
                        double thread_dur, int unfinished, gd_error *err);
/* Ends the trace's pairing: writes what was kept (the prints into
 * temp.looper_tmp when streaming stopped, the dispatch events into
 * dispatch), gives a pid or tid of -1 in both the capture's main_pid and
 * main_tid, pairs what is left (still-open begins become unfinished
 * dispatches ending at capture_end) and empties temp.looper_tmp.  Fills
 * ends_without_begin and begins_dropped; on failure fills err and returns
 * its code (the caller rolls the trace back). */
int gd_pairing_finish(gd_pairing *p, double capture_end, int64_t main_pid, int64_t main_tid,
                      gd_error *err);

#endif
