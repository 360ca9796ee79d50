/* ingest/retrace_sink.h - a sink that retraces stacks and method names through an R8/ProGuard mapping before the writer sees them. */
#ifndef GD_INGEST_RETRACE_SINK_H
#define GD_INGEST_RETRACE_SINK_H

#include "derive/retrace.h"
#include "reader/reader.h"

/* Retrace: wraps the sink to rewrite obfuscated frames (GD_EV_STACK) and
 * method names (GD_EV_METHOD) through the mapping before the writer sees
 * them.  Buffers are reused from event to event. */
typedef struct gd_retrace_sink {
    gd_sink inner;
    gd_sink outer;
    const gd_mapping *m;
    gd_retrace_res res;
    char *buf;             /* the new frames' text                           */
    size_t len, cap;
    size_t *offs;          /* frame i at buf + offs[i]                       */
    size_t noffs, offcap;
    const char **frames;
    size_t fcap;
    char *cls, *meth;      /* GD_EV_METHOD's new names                       */
    size_t clscap, methcap;
    /* what the mapping did (#31): Java frames and method names seen, those
     * retraced, those of a class the mapping does not know, and frames
     * left out by the caps (gd_retrace_res.cut, GD_RETRACE_MAX_STACK) */
    size_t seen, retraced, unknown, cut;
} gd_retrace_sink;

/* At most this many frames in one retraced stack (a hostile mapping can
 * expand each frame 256 times); the rest is cut and counted. */
#define GD_RETRACE_MAX_STACK 4096
/* At most this many frames of one input frame's inline chain in a stored
 * stack, innermost first (#53 item 8: every command that holds a block's
 * samples holds them all, so what a mapping adds must stay a small
 * multiple of the input; 146 KB of hostile input, chains of 2,000, took
 * 268 MB in blocks --stacks with 256 a frame).  `godeye retrace` prints up
 * to GD_RETRACE_MAX_FRAMES; R8's own inline chains are a few frames deep. */
#define GD_RETRACE_MAX_INLINE 32

/* Points r at inner (both outlive the reading) and returns the sink to
 * read into.  A zeroed r needs no wrap to be freed. */
const gd_sink *gd_retrace_sink_wrap(gd_retrace_sink *r, const gd_sink *inner, const gd_mapping *m);
void gd_retrace_sink_free(gd_retrace_sink *r);

#endif
