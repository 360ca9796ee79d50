/* query/blocks.h - the traces, their clocks, blocks and block groups
 * (`godeye traces`, `godeye blocks`; query/blocks.c). */
#ifndef GD_QUERY_BLOCKS_H
#define GD_QUERY_BLOCKS_H

#include <stdint.h>

#include "analysis/blocks.h"
#include "query/columns.h"
#include "store/store.h"

/* A trace's fields, declared once (query/columns.h): godeye-traces(1). */
#define GD_TRACES_COLS(X, J)                                                                            \
    X(TR_ID, "t.id", "trace", "TRACE", INT, GD_QC_ASIS)                                                 \
    X(TR_SOURCE, "t.source", "source", "SOURCE", TEXT, GD_QC_ASIS | GD_QC_WIDE | GD_QC_CUT)            \
    X(TR_FORMAT, "t.format", "format", "FORMAT", TEXT, GD_QC_ASIS)                                      \
    X(TR_APP, "t.app", "app", "APP", TEXT, GD_QC_ASIS)                                                  \
    X(TR_DEVICE, "t.device", "device", "DEVICE", TEXT, GD_QC_ASIS | GD_QC_AUTO)                         \
    X(TR_START, "t.start_ms", "start_ms", "START", TIME, 0)                                             \
    X(TR_END, "t.end_ms", "end_ms", "END", TIME, GD_QC_HIDDEN)                                          \
    X(TR_EVENTS, "t.events", "events", "EVENTS", INT, GD_QC_ASIS)                                       \
    X(TR_VERSION, "t.version_name", "version_name", "VERSION", TEXT, GD_QC_ASIS | GD_QC_AUTO)           \
    X(TR_SKIPPED, "t.skipped", "skipped", "SKIPPED", INT, GD_QC_ASIS | GD_QC_HIDDEN)                    \
    J(TR_INGESTED, "t.ingested_at", "ingested_at", NULL, TEXT, GD_QC_ASIS)                              \
    X(TR_DISPATCHES, "(SELECT count(*) FROM dispatch d WHERE d.trace = t.id)", "dispatches", "DISPATCHES", \
      INT, GD_QC_ASIS)                                                                                  \
    X(TR_BLOCKS, "(SELECT count(*) FROM block b WHERE b.trace = t.id)", "blocks", "BLOCKS", INT, GD_QC_ASIS) \
    J(TR_HASH, "t.hash", "hash", NULL, TEXT, GD_QC_ASIS)                                                \
    X(TR_CLOCK, "t.clock", "clock", "CLOCK", TEXT, GD_QC_ASIS) /* what the times are */                 \
    J(TR_UTC_OFFSET, "t.utc_offset_min", "utc_offset_min", NULL, INT, GD_QC_ASIS)                       \
    X(TR_BUILD, "t.build", "build", "BUILD", TEXT, GD_QC_ASIS | GD_QC_AUTO) /* tags diff selects by */  \
    /* #51: the span the per-minute figures use, and what it left out */                                \
    X(TR_EXPOSURE, "t.exposure_ms", "exposure_ms", "SPAN USED", MS, 0)                                  \
    X(TR_LEFT_OUT, "t.span_left_out", "left_out", "LEFT OUT", TEXT, GD_QC_ASIS | GD_QC_AUTO)
/* The table's and csv's order (new columns go last: csv readers count columns). */
#define GD_TRACES_TABLE(T)                                                                              \
    T(TR_ID) T(TR_SOURCE) T(TR_FORMAT) T(TR_APP) T(TR_DEVICE) T(TR_START) T(TR_END) T(TR_EVENTS)        \
    T(TR_DISPATCHES) T(TR_BLOCKS) T(TR_SKIPPED) T(TR_CLOCK) T(TR_VERSION) T(TR_BUILD) T(TR_EXPOSURE)    \
    T(TR_LEFT_OUT)

/* The traces, by id: the fields of GD_TRACES_COLS. */
int gd_query_traces(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err);
/* What every trace's times are, for showing them: rows {trace, clock,
 * utc_offset_min, start_ms} (clock and utc_offset_min null when unknown).
 * Cheap: reads the trace table only. */
int gd_query_trace_clocks(gd_store *s, gd_row_fn fn, void *ctx, gd_error *err);

typedef struct gd_blocks_query {
    gd_filter filter;
    double threshold;       /* NAN: each trace's short threshold          */
    gd_block_kind kind;     /* GD_KIND_NONE: any                          */
    int stacks;             /* add "stacks": [{ts_ms, frames[]}] per block */
    int64_t limit;          /* > 0: only the `limit` longest blocks (ties: *
                             * the earlier), still by trace then start    */
} gd_blocks_query;

/* Blocks (contract fields of `godeye blocks`), by trace then start. */
int gd_query_blocks(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx,
                    gd_error *err);
/* The same rows as plain values (the same fields in the same order). */
int gd_query_block_values(gd_store *s, const gd_blocks_query *q, gd_values_fn fn, void *ctx,
                          gd_error *err);
/* Block groups (`godeye blocks --group`), by total_ms descending. */
int gd_query_block_groups(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err);

/* gd_query_blocks' rows without the message text, thread name and memory
 * snapshot (what block groups and diff read: id, trace, times, kind,
 * key_frame, group...). */
int gd_query_blocks_light(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err);

#endif
