/* query/blocks.h - the traces, their clocks, blocks and block groups
 * (`godeye traces`, `godeye blocks`; query/blocks.c). */
#ifndef GD_QUERY_BLOCKS_H
#define GD_QUERY_BLOCKS_H

#include <stdint.h>

#include "analysis/blocks.h"
#include "store/store.h"

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
