/* slicetrack.h - the one begin/end tracker: nested slices paired per track.
 *
 * Every reader with begin/end intervals (atrace markers, Perfetto TrackEvent
 * slices, Chrome JSON B/E events, ART method enter/exit records) pairs them here, keyed by track: (ns, id) where ns says what the
 * id is (GD_TRACK_THREAD: a tid; GD_TRACK_UUID: a Perfetto track uuid), so a
 * TrackEvent slice on its own track never closes an atrace slice of the
 * same thread (Perfetto's track_event_with_atrace_separate_tracks).
 *
 * This module is the one place that decides what a begin past a bound, an
 * unmatched end and an unclosed begin mean; the caller counts the status it
 * gets back under its own reason strings:
 *   - at most max_keys tracks (GD_ST_FULL once, then GD_ST_FULL_MORE);
 *   - at most max_depth open slices per track: a begin deeper is dropped,
 *     GD_ST_DEEP for the first of a run, GD_ST_DROPPED for the others;
 *   - the open slices of every track together at most max_open bytes
 *     (names and entries), and, when gd_slicetrack_limit_slices set one, at
 *     most max_slices of them: a begin past it is dropped, GD_ST_MEM each
 *     time, and so is every begin above a dropped one until the run closes;
 *   - an end that matches a dropped begin closes nothing (GD_ST_DROPPED);
 *     an end on a track with nothing open is GD_ST_UNMATCHED;
 *   - an end that closes down to a match (gd_slicetrack_end_match: ART's
 *     exit of method M) closes the innermost open slice whose tag matches
 *     and every slice above it (their ends were not recorded); with slices
 *     open but none matching it is GD_ST_NOMATCH and closes nothing: the
 *     call tree's exit rule, asked of analysis/calltree.h's
 *     gd_ct_exit_closes (the one home it shares with the call builder);
 *   - slices still open at the end are popped innermost first by
 *     gd_slicetrack_pop_open (their end is the caller's: the trace's last
 *     time), tracks in the order of gd_slicetrack_next. */
#ifndef GD_READER_SLICETRACK_H
#define GD_READER_SLICETRACK_H

#include <stddef.h>
#include <stdint.h>

enum { GD_TRACK_THREAD = 0, GD_TRACK_UUID = 1 };

enum {
    GD_ST_NOMEM = -1,  /* out of memory */
    GD_ST_OK = 0,
    GD_ST_DEEP,        /* begin dropped: too deep, first of its run (count it) */
    GD_ST_MEM,         /* begin dropped: open slices over the byte bound (count each) */
    GD_ST_DROPPED,     /* begin dropped above a dropped one / end of a dropped begin */
    GD_ST_FULL,        /* too many tracks: first time (count it) */
    GD_ST_FULL_MORE,   /* too many tracks again */
    GD_ST_UNMATCHED,   /* end with nothing open on its track */
    GD_ST_NOMATCH      /* end_match: slices open, none with its tag */
};

typedef struct gd_slice {
    char *name;        /* the caller's copy (malloc), freed by gd_slicetrack_release */
    double ts;
    int64_t tag;       /* the caller's: atrace the process the begin named (-1
                        * unknown), Chrome JSON 1 when the slice is a dispatch,
                        * ART the method id (low 32 bits) and the first method
                        * it called (high 32 bits, 0 none yet) */
} gd_slice;

typedef struct gd_slicetrack gd_slicetrack;

/* NULL when out of memory. */
gd_slicetrack *gd_slicetrack_new(size_t max_keys, int max_depth, size_t max_open);
void gd_slicetrack_free(gd_slicetrack *st);
/* Also bounds the number of slices open on every track together (0: no
 * bound; a begin past it is GD_ST_MEM, as the byte bound). */
void gd_slicetrack_limit_slices(gd_slicetrack *st, size_t max_slices);

/* A begin on track (ns, id), which belongs to thread `owner` (the last
 * begin says), whose name will take `len` bytes (+1): on
 * GD_ST_OK the new open slice, which the caller fills (ts, tag) and
 * names with gd_slicetrack_name; NULL with *status set otherwise. */
gd_slice *gd_slicetrack_begin(gd_slicetrack *st, int ns, uint64_t id, int64_t owner, size_t len,
                              int *status);
/* Gives slice s (just begun) its name, a malloc'd copy owned from now on. */
void gd_slicetrack_name(gd_slicetrack *st, gd_slice *s, char *name);

/* An end on track (ns, id): on GD_ST_OK the slice it closes (valid until
 * the next begin on that track; release it), *depth = open slices below
 * it, *parent the one right below or NULL; NULL with *status otherwise. */
gd_slice *gd_slicetrack_end(gd_slicetrack *st, int ns, uint64_t id, int *depth,
                            const gd_slice **parent, int *status);
/* An end that closes down to a match on track (ns, id): the innermost open
 * slice with (tag & mask) == tag and every slice above it. On GD_ST_OK the
 * number of slices it closes (>= 1), which the caller pops one by one with
 * gd_slicetrack_pop_open (all but the last are slices whose end is
 * missing); 0 with *status GD_ST_DROPPED, GD_ST_UNMATCHED or GD_ST_NOMATCH
 * otherwise (nothing closed). */
int gd_slicetrack_end_match(gd_slicetrack *st, int ns, uint64_t id, int64_t tag, int64_t mask,
                            int *status);
/* The slices open on track (ns, id), outermost first, *n of them (the
 * caller may change their ts and tag); NULL when none. Valid until the
 * next begin on that track. */
gd_slice *gd_slicetrack_open(gd_slicetrack *st, int ns, uint64_t id, int *n);
/* Frees s's name and returns its bytes to the bound. */
void gd_slicetrack_release(gd_slicetrack *st, gd_slice *s);

/* Tracks in table order: *iter starts at 0; 1 with (ns, id) and the
 * track's owner thread set, 0 at the end. */
int gd_slicetrack_next(const gd_slicetrack *st, size_t *iter, int *ns, uint64_t *id,
                       int64_t *owner);
/* 1 when track (ns, id) still had a too-deep run open that was not a byte
 * drop (the caller counts it once); forgets the dropped run. */
int gd_slicetrack_forget_dropped(gd_slicetrack *st, int ns, uint64_t id);
/* The innermost slice still open on (ns, id), popped as gd_slicetrack_end
 * does; NULL when none is open. */
gd_slice *gd_slicetrack_pop_open(gd_slicetrack *st, int ns, uint64_t id, int *depth,
                                 const gd_slice **parent);

#endif
