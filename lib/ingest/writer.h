/* ingest/writer.h - writing one trace: the sink readers send events to,
 * turned into rows inside the ingest's transaction (ingest/writer.c, with
 * pairing.c, views.c, findings.c, traceinfo.c), and what its ingest
 * measured. */
#ifndef GD_INGEST_WRITER_H
#define GD_INGEST_WRITER_H

#include <stdint.h>

#include "core/event.h"
#include "derive/blocks.h"
#include "store/store.h"

typedef struct gd_writer gd_writer;

/* Where one input's ingest spent its time: wall-clock seconds. */
typedef struct gd_ingest_timings {
    double read;        /* reading, decompressing and parsing the input  */
    double write;       /* turning events into rows (the writer's sink)  */
    double analyse;     /* pairing prints, CPU ratios, deriving blocks   */
} gd_ingest_timings;

typedef struct gd_ingest_result {
    int64_t trace;
    int duplicate;      /* identical content was already ingested        */
    int tags_differ;    /* ... and --set named tags that trace does not hold */
    long events, skipped, dispatches, blocks;
    long log_lines;     /* log_line rows kept (not events)               */
    gd_ingest_timings timings;  /* read is filled by gd_ingest            */
} gd_ingest_result;

/* Starts a trace inside the open transaction (a savepoint). */
int gd_writer_open(gd_writer **out, gd_store *s, const char *source, const char *format,
                   gd_error *err);
/* The clock of the trace's times ("utc", "local", "monotonic": see
 * gd_meta.clock) when no meta of the capture names one: the format's. */
void gd_writer_default_clock(gd_writer *w, const char *clock);
/* Tags the user states at ingest (`godeye ingest --set KEY=VALUE`): each
 * non-NULL one replaces what the capture says (version is version_name;
 * build goes to trace.build). */
typedef struct gd_trace_tags {
    const char *app, *version, *device, *build;
} gd_trace_tags;
/* The tags of the trace (borrowed until gd_writer_finish; NULL: none). */
/* Nonzero: the time spent in the sink is measured (gd_ingest_opts.timings). */
void gd_writer_time_events(gd_writer *w, int on);
void gd_writer_set_tags(gd_writer *w, const gd_trace_tags *tags);
/* The sink readers send events to. */
const gd_sink *gd_writer_sink(gd_writer *w);
/* Pairs Looper prints, derives blocks, records stats and the content hash.
 * When a trace with the same hash exists, everything of this one is undone
 * and res->duplicate/res->trace name the existing trace. */
/* Events taken so far (skipped ones not counted). */
long gd_writer_events(const gd_writer *w);
/* Log lines kept as rows so far (GD_EV_LOG: context, not events). */
long gd_writer_log_lines(const gd_writer *w);
int gd_writer_finish(gd_writer *w, const char *hash, gd_ingest_result *res, gd_error *err);
/* Progress of gd_writer_finish's analysis: fn(ctx, done, total) with the
 * dispatches analysed for blocks so far and how many there are to analyse
 * (0 of total first, total of total last, increasing between). */
typedef gd_derive_progress_fn gd_writer_progress_fn;
void gd_writer_progress(gd_writer *w, gd_writer_progress_fn fn, void *ctx);
/* Undoes everything written for this trace (rollback to its savepoint).
 * GD_OK (also for NULL or a writer already finished), or GD_ERR_* with
 * err set (err may be NULL) when the rollback failed: the whole
 * transaction is then rolled back, so no half trace is ever kept. */
int gd_writer_abort(gd_writer *w, gd_error *err);
void gd_writer_free(gd_writer *w);
/* Calls fn for each skip/ignore reason counted so far. */
void gd_writer_foreach_stat(gd_writer *w, void (*fn)(void *ctx, const char *reason, long count,
                                                     long first_line),
                            void *ctx);

#endif
