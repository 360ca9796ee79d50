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
/* A trace clock row's fields, declared once (query/columns.h). */
#define GD_TRACE_CLOCK_COLS(X, J)                                          \
    J(K_ID, "id", "trace", NULL, INT, GD_QC_ASIS)                          \
    J(K_CLOCK, "clock", "clock", NULL, TEXT, GD_QC_ASIS)                   \
    J(K_UTC_OFFSET, "utc_offset_min", "utc_offset_min", NULL, INT, GD_QC_ASIS) \
    J(K_START, "start_ms", "start_ms", NULL, TIME, 0)
/* What every trace's times are, for showing them: rows of
 * GD_TRACE_CLOCK_COLS (clock and utc_offset_min null when unknown).
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

/* A block's fields, declared once (query/columns.h): godeye-blocks(1)
 * OUTPUT, in its order.  Read from dispatch d, trace t, block b (NULL
 * when the block is derived at query time: then computed), message;
 * end_ms and kind computed; memory (#45: a nested object) the
 * GD_BLOCK_MEMORY_COLS of the snapshot b.memory, null without one; the
 * "why" fields (#26) computed from the thread states, binder and lock
 * data; stacks (--stacks only, last) computed. */
#define GD_BLOCKS_COLS(X, J)                                                                         \
    X(B_ID, "d.id", "id", "ID", INT, 0)                                                              \
    X(B_TRACE, "d.trace", "trace", "TRACE", INT, 0)                                                  \
    X(B_PID, "d.pid", "pid", "PID", INT, GD_QC_HIDDEN)                                               \
    X(B_PROCESS, GD_SQL_PROCESS_OF("d", "t"), "process", "PROCESS", TEXT, GD_QC_ASIS | GD_QC_AUTO)    \
    X(B_TID, "d.tid", "tid", "TID", INT, 0)                                                          \
    X(B_THREAD, GD_SQL_THREAD_OF("d", "t"), "thread", "THREAD", TEXT, GD_QC_ASIS)                    \
    X(B_START, "d.start_ms", "start_ms", "START", TIME, 0)                                           \
    X(B_END, NULL, "end_ms", "END", TIME, GD_QC_HIDDEN)                                              \
    X(B_DUR, "d.dur_ms", "duration_ms", "MS", MS, 0)                                                 \
    X(B_THREAD_MS, "d.thread_ms", "thread_ms", "CPU MS", MS, 0)                                      \
    X(B_KIND, NULL, "kind", "KIND", TEXT, 0)                                                         \
    X(B_UNFINISHED, "d.unfinished", "unfinished", "UNFINISHED", BOOL, GD_QC_HIDDEN)                  \
    X(B_CPU_BUSY, "b.cpu_busy", "cpu_busy", "BUSY", BOOL, 0)                                         \
    X(B_SAMPLES, "b.samples", "samples", "N", INT, GD_QC_ASIS)                                       \
    X(B_KEY_FRAME, "b.key_frame", "key_frame", "KEY FRAME", TEXT, GD_QC_ASIS | GD_QC_WIDE)           \
    X(B_GROUP, "b.grp", "group", "GROUP", TEXT, GD_QC_ASIS | GD_QC_HIDDEN)                           \
    X(B_GROUP_RULE, "b.grp_rule", "group_rule", "GROUP RULE", TEXT, GD_QC_ASIS | GD_QC_HIDDEN)       \
    J(B_MEMORY, "b.memory", "memory", NULL, INT, 0)                                                  \
    X(B_MSG, "(SELECT text FROM message WHERE id = d.message)", "msg", "MSG", TEXT,                  \
      GD_QC_ASIS | GD_QC_HIDDEN)                                                                     \
    X(B_BLAME, "b.blame", "blame", "BLAME", TEXT, GD_QC_ASIS | GD_QC_WIDE | GD_QC_AUTO)              \
    J(B_RUNNING, NULL, "running_ms", NULL, MS, 0)                                                    \
    J(B_RUNNABLE, NULL, "runnable_ms", NULL, MS, 0)                                                  \
    J(B_SLEEPING, NULL, "sleeping_ms", NULL, MS, 0)                                                  \
    J(B_D, NULL, "uninterruptible_ms", NULL, MS, 0)                                                  \
    J(B_COVERAGE, NULL, "states_coverage", NULL, NUM, 0)                                             \
    J(B_BINDER_MS, NULL, "binder_ms", NULL, MS, 0)                                                   \
    J(B_BINDER_PID, NULL, "binder_server_pid", NULL, INT, 0)                                         \
    J(B_BINDER_SERVER, NULL, "binder_server", NULL, TEXT, 0)                                         \
    J(B_BINDER_AIDL, NULL, "binder_aidl", NULL, TEXT, 0)                                             \
    J(B_LOCK_MS, NULL, "lock_ms", NULL, MS, 0)                                                       \
    J(B_LOCK_TID, NULL, "lock_owner_tid", NULL, INT, 0)                                              \
    J(B_LOCK_OWNER, NULL, "lock_owner", NULL, TEXT, 0)                                               \
    J(B_LOCK_METHOD, NULL, "lock_owner_method", NULL, TEXT, 0)                                       \
    X(B_DOMINANT, NULL, "dominant_state", "STATES", TEXT, GD_QC_AUTO)                                \
    J(B_STACKS, NULL, "stacks", NULL, TEXT, 0)
/* A block's "memory" object: the snapshot mm (table memory) nearest to
 * its end. */
#define GD_BLOCK_MEMORY_COLS(X, J)                                              \
    J(MM_TS, "mm.ts_ms", "ts_ms", NULL, TIME, 0)                                \
    J(MM_HEAP_ALLOC, "mm.heap_alloc_kb", "heap_alloc_kb", NULL, INT, GD_QC_ASIS) \
    J(MM_HEAP_MAX, "mm.heap_max_kb", "heap_max_kb", NULL, INT, GD_QC_ASIS)      \
    J(MM_HEAP_FREE, "mm.heap_free_kb", "heap_free_kb", NULL, INT, GD_QC_ASIS)   \
    J(MM_PSS, "mm.pss_total_kb", "pss_total_kb", NULL, INT, GD_QC_ASIS)         \
    J(MM_RAM_AVAIL, "mm.ram_avail_kb", "ram_avail_kb", NULL, INT, GD_QC_ASIS)   \
    J(MM_RAM_TOTAL, "mm.ram_total_kb", "ram_total_kb", NULL, INT, GD_QC_ASIS)   \
    J(MM_RAM_LOW, "mm.ram_is_low", "ram_is_low", NULL, BOOL, 0)

/* Blocks (contract fields of `godeye blocks`), by trace then start. */
int gd_query_blocks(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx,
                    gd_error *err);
/* The same rows as plain values (the same fields in the same order). */
int gd_query_block_values(gd_store *s, const gd_blocks_query *q, gd_values_fn fn, void *ctx,
                          gd_error *err);
/* A block group's fields, declared once (query/columns.h): godeye-blocks(1)
 * GROUPS.  All computed from its blocks; process its longest block's,
 * processes every one (at most 8); the shares (#26) are
 * gd_why_shares_json's (derive/states.h, the one rule), in its order. */
#define GD_BLOCK_GROUP_COLS(X, J)                                             \
    X(BG_GROUP, NULL, "group", "GROUP", TEXT, GD_QC_WIDE)                     \
    X(BG_KEY_FRAME, NULL, "key_frame", "KEY FRAME", TEXT, GD_QC_HIDDEN)       \
    X(BG_RULE, NULL, "group_rule", "RULE", TEXT, GD_QC_HIDDEN)                \
    X(BG_COUNT, NULL, "count", "COUNT", INT, 0)                               \
    X(BG_TOTAL, NULL, "total_ms", "TOTAL MS", MS, 0)                          \
    X(BG_MAX, NULL, "max_ms", "MAX MS", MS, 0)                                \
    X(BG_P50, NULL, "p50_ms", "P50 MS", MS, 0)                                \
    X(BG_P95, NULL, "p95_ms", "P95 MS", MS, 0)                                \
    X(BG_TRACES, NULL, "traces", "TRACES", INT, 0)                            \
    X(BG_PROCESS, NULL, "process", "PROCESS", TEXT, GD_QC_HIDDEN)             \
    J(BG_PROCESSES, NULL, "processes", NULL, TEXT, 0)                         \
    X(BG_FIRST, NULL, "first_version", "FIRST", TEXT, GD_QC_AUTO)             \
    X(BG_LAST, NULL, "last_version", "LAST", TEXT, GD_QC_AUTO)                \
    J(BG_RUNNING, NULL, "running_share", NULL, NUM, 0)                        \
    J(BG_RUNNABLE, NULL, "runnable_share", NULL, NUM, 0)                      \
    J(BG_SLEEPING, NULL, "sleeping_share", NULL, NUM, 0)                      \
    J(BG_D, NULL, "uninterruptible_share", NULL, NUM, 0)                      \
    J(BG_COVERAGE, NULL, "states_coverage", NULL, NUM, 0)                     \
    J(BG_BINDER, NULL, "binder_share", NULL, NUM, 0)                          \
    J(BG_LOCK, NULL, "lock_share", NULL, NUM, 0)
/* The table's and csv's order (process last: csv readers count columns). */
#define GD_BLOCK_GROUP_TABLE(T)                                                               \
    T(BG_COUNT) T(BG_TOTAL) T(BG_MAX) T(BG_P50) T(BG_P95) T(BG_TRACES) T(BG_FIRST) T(BG_LAST) \
    T(BG_RULE) T(BG_GROUP) T(BG_KEY_FRAME) T(BG_PROCESS)

/* Block groups (`godeye blocks --group`), by total_ms descending. */
int gd_query_block_groups(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err);

/* gd_query_blocks' rows with msg, thread and memory null, not read (what
 * block groups and diff read: id, trace, times, kind, key_frame, group...). */
int gd_query_blocks_light(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err);

#endif
