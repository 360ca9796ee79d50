/* derive/blocks.h - block details (samples, key frame, group, CPU busy, memory, blame) derived from stored rows. */
#ifndef GD_DERIVE_BLOCKS_H
#define GD_DERIVE_BLOCKS_H

#include <stdint.h>

#include "analysis/blocks.h"
#include "store/sql.h"

/* What a block needs to know about its trace. */
typedef struct gd_trace_cfg {
    int64_t id;
    double short_ms, long_ms, anr_ms, interval_ms;
    char *concern[GD_MAX_CONCERN];
    size_t nconcern;
} gd_trace_cfg;

/* Loads a trace's thresholds and concern packages. */
int gd_trace_cfg_load(gd_store *s, int64_t trace, gd_trace_cfg *cfg, gd_error *err);
void gd_trace_cfg_free(gd_trace_cfg *cfg);

typedef struct gd_block_info {
    long samples;
    char key_frame[1024];   /* empty = none */
    char group[1024];       /* empty = none */
    gd_group_rule group_rule; /* which rule named the group (analysis/blocks.h) */
    int cpu_busy;           /* -1 unknown */
    int64_t memory;         /* -1 none */
    char blame[1024];       /* empty = none (no method data) */
} gd_block_info;

/* Derives a block's samples, key frame, group, CPU busy, nearest memory
 * snapshot and blame (gd_methods_blame) from stored rows (the same code
 * at ingest and at query time).  The group is the key frame's; a block
 * without one is grouped by its Looper message or slice name `message`
 * (a message row id, -1 none) by gd_group_fallback.
 * Samples are those in the open interval (start, end); for an unfinished
 * dispatch, whose end is only the capture's last event, (start, end].
 * `want_stacks` non-NULL receives a new array of {ts_ms, frames[]}. */
typedef struct gd_deriver gd_deriver;
gd_deriver *gd_deriver_new(gd_store *s, gd_error *err);
void gd_deriver_free(gd_deriver *d);
int gd_deriver_block(gd_deriver *d, const gd_trace_cfg *cfg, int64_t pid, int64_t tid, double start,
                     double end, int unfinished, int64_t message, gd_block_info *out,
                     json_t **want_stacks, gd_error *err);

/* Derives and stores the block row of every dispatch of `trace` at or past
 * its short threshold (the trace row must be written); *nblocks counts
 * them.  progress, when not NULL, hears (done, total) as it goes: the
 * dispatches analysed so far and how many there are (0 of total first,
 * total of total last, increasing between). */
typedef void (*gd_derive_progress_fn)(void *ctx, uint64_t done, int64_t total);
int gd_derive_blocks(gd_store *s, int64_t trace, gd_derive_progress_fn progress, void *progress_ctx,
                     long *nblocks, gd_error *err);

#endif
