/* query/report_series.h - bounded queries behind `godeye report` and `godeye export`.
 *
 * Every query returns JSON rows through a gd_row_fn, like store.h, and keeps
 * its output bounded whatever the capture size: series are aggregated into
 * bins, lists are capped, stack samples are aggregated by callsite. */
#ifndef GD_QUERY_REPORT_SERIES_H
#define GD_QUERY_REPORT_SERIES_H

#include "query/columns.h"
#include "store/store.h"

/* Counts over the selected traces, one row: traces, dispatches, blocks,
 * short, long, anr, samples, pages (instances), dumps, images, frames,
 * start_ms, end_ms (null when empty). */
int gd_query_report_counts(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err);

/* The `n` longest blocks: trace, id, tid, thread ("main" or the thread's
 * name or null), start_ms, duration_ms, kind, samples, key_frame, group,
 * cpu_busy, unfinished, blame, and the Looper message's handler, callback
 * and what (null when unknown); by duration descending. */
int gd_query_worst_blocks(gd_store *s, const gd_filter *f, int n, gd_row_fn fn, void *ctx,
                          gd_error *err);

/* A trace's timeline, declared once (query/columns.h): a document of the
 * report (no table), every value computed (below, gd_query_timelines). */
#define GD_TIMELINE_COLS(X, J)                                              \
    J(TLR_TRACE, NULL, "trace", NULL, INT, 0)                               \
    J(TLR_APP, NULL, "app", NULL, TEXT, 0)                                  \
    J(TLR_DEVICE, NULL, "device", NULL, TEXT, 0)                            \
    J(TLR_START, NULL, "start_ms", NULL, TIME, 0)                           \
    J(TLR_END, NULL, "end_ms", NULL, TIME, 0)                               \
    J(TLR_SHORT, NULL, "short_ms", NULL, NUM, 0)                            \
    J(TLR_LONG, NULL, "long_ms", NULL, NUM, 0)                              \
    J(TLR_ANR, NULL, "anr_ms", NULL, NUM, 0)                                \
    J(TLR_BINS, NULL, "bins", NULL, INT, 0)                                 \
    J(TLR_BIN_MS, NULL, "bin_ms", NULL, NUM, 0)                             \
    J(TLR_DISPATCH_BINS, NULL, "dispatch_bins", NULL, TEXT, 0)              \
    J(TLR_CPU, NULL, "cpu", NULL, TEXT, 0)                                  \
    J(TLR_MEMORY, NULL, "memory", NULL, TEXT, 0)                            \
    J(TLR_BLOCKS, NULL, "blocks", NULL, TEXT, 0)                            \
    J(TLR_BLOCKS_TOTAL, NULL, "blocks_total", NULL, INT, 0)                 \
    J(TLR_PAGE_EVENTS, NULL, "page_events", NULL, TEXT, 0)                  \
    J(TLR_PAGE_EVENTS_TOTAL, NULL, "page_events_total", NULL, INT, 0)       \
    J(TLR_MAIN_STATES, NULL, "main_states", NULL, TEXT, 0)
/* A page event of a timeline, read from page_event. */
#define GD_TIMELINE_EVENT_COLS(X, J)                                        \
    J(TLE_TS, "ts_ms", "ts_ms", NULL, MS, 0)                                \
    J(TLE_EVENT, "event", "event", NULL, TEXT, 0)                           \
    J(TLE_PAGE, "page_class", "page", NULL, TEXT, 0)                        \
    J(TLE_HASH, "page_hash", "hash", NULL, NUM, 0)

/* One row per trace (GD_TIMELINE_COLS): its thresholds and span, then
 * series on `bins` equal bins of the span (bin_ms wide, bin i starting at
 * start_ms + i * bin_ms):
 *   dispatch_bins [[i, max_ms, count]]   (bins without dispatches omitted)
 *   cpu [[i, total_ratio, app_ratio]]    (means per bin; ratio may be null)
 *   memory [[i, heap_alloc_kb, pss_total_kb]] (maxima per bin)
 *   blocks [{id, tid, thread, start_ms, duration_ms, kind, key_frame}] (longest
 *     `max_blocks`, by start), blocks_total (before the cap)
 *   page_events [{ts_ms, event, page, hash}] (first `max_events`),
 *   page_events_total,
 *   main_states: the main thread's states under its blocks (gd_states_lane). */
int gd_query_timelines(gd_store *s, const gd_filter *f, int bins, int max_blocks, int max_events,
                       gd_row_fn fn, void *ctx, gd_error *err);

typedef struct gd_flame_query {
    gd_filter filter;
    double prune;        /* keep nodes with at least this share of the group's samples */
    int max_blocks;      /* blocks of a group given with their samples (longest first) */
    int max_samples;     /* samples per such block                                      */
    int max_groups;      /* groups (by total_ms); 0 = all                               */
} gd_flame_query;

/* The block groups of gd_query_block_groups (same fields, same order), each
 * with "samples" (all samples of its blocks), "flame" (icicle tree
 * {name, value, children[]} rooted at "all", children by value descending,
 * pruned), "frames" (a string table) and "blocks" [{id, trace, tid,
 * start_ms, duration_ms, kind, samples, key_frame, stacks: [{ts_ms,
 * frames: [index into "frames", innermost first]}]}]. */
int gd_query_group_flames(gd_store *s, const gd_flame_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err);

/* Folded stacks of the samples inside blocks (of group `group` only when
 * not NULL): rows {stack: "root;...;leaf", count}, ';' inside a frame
 * replaced by ','.  The counts sum to the blocks' samples. */
int gd_query_folded(gd_store *s, const gd_filter *f, const char *group, gd_row_fn fn, void *ctx,
                    gd_error *err);
/* Folded stacks of every stack sample of the traces (of f's app's
 * processes with --app), thread by thread: rows {stack: "thread;root;
 * ...;leaf", count}, the thread's name (else its tid) first, as
 * simpleperf's stackcollapse.py writes them; ';' inside a name or frame
 * replaced by ','.  The counts sum to the samples. */
int gd_query_folded_samples(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err);

/* Every dispatch, by trace and start: trace, pid, tid, thread (name or
 * null), start_ms, dur_ms, thread_ms, msg. Streams (constant memory). */
int gd_query_dispatches(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err);

/* Every CPU sample with a ratio, by trace and time: trace, pid (the trace's
 * pid or null), ts_ms, total_ratio, app_ratio. Streams. */
int gd_query_cpu_series(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err);
/* A CPU sample's fields, declared once (query/columns.h). */
#define GD_CPU_SERIES_COLS(X, J)                                                                   \
    X(CPU_TRACE, "c.trace", "trace", "TRACE", INT, 0)                                             \
    X(CPU_PID, "t.pid", "pid", "PID", NUM, 0)                                                     \
    X(CPU_TS, "c.ts_ms", "ts_ms", "TIME", TIME, 0)                                                \
    X(CPU_TOTAL, "c.total_ratio", "total_ratio", "TOTAL", NUM, 0)                                 \
    X(CPU_APP, "c.app_ratio", "app_ratio", "APP", NUM, 0)

/* Rendered frames per trace and window: trace, window, count, janky (over
 * 16 ms, GD_FRAME_VITALS_SLOW_MS: Android vitals' slow frame), frozen (over
 * GD_FRAME_FROZEN_MS, 700 ms), p50_ms, p95_ms, max_ms, hist (the frame-time
 * histogram: [[upper_ms, count]] for frames up to 8, 1000/60, 2000/60 (shown
 * rounded: 16.667, 33.333), 50, 100, 200, 700 ms and [null, count] past 700). */
int gd_query_frame_stats(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err);
/* A window's frame statistics, declared once (query/columns.h): process
 * (#47: whose frames, the frames command's rule); janky, frozen,
 * percentiles, max and hist computed of one read of its frames in order
 * of duration (#50 item 3). */
#define GD_FRAME_STATS_COLS(X, J)                                                                  \
    X(FS_TRACE, "trace", "trace", "TRACE", INT, 0)                                                \
    X(FS_WINDOW, "window", "window", "WINDOW", TEXT, 0)                                           \
    X(FS_PROCESS, NULL, "process", "PROCESS", TEXT, 0)                                            \
    X(FS_COUNT, "count(*)", "count", "FRAMES", INT, 0)                                            \
    X(FS_JANKY, NULL, "janky", "JANKY", INT, 0)                                                   \
    X(FS_FROZEN, NULL, "frozen", "FROZEN", INT, 0)                                                \
    X(FS_P50, NULL, "p50_ms", "P50", MS, 0)                                                       \
    X(FS_P95, NULL, "p95_ms", "P95", MS, 0)                                                       \
    X(FS_MAX, NULL, "max_ms", "MAX", MS, 0)                                                       \
    X(FS_HIST, NULL, "hist", "HIST", TEXT, 0)                                                    \
    X(FS_LEAD, NULL, "lead", "LEAD", TEXT, 0)

#endif
