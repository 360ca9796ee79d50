/* query/report_int.h - what the report's query files share (block columns, the block row); not a public API. */
#ifndef GD_QUERY_REPORT_INT_H
#define GD_QUERY_REPORT_INT_H

#include <jansson.h>
#include <sqlite3.h>

#include "store/sql.h"

/* Columns 0-12 of a block (all folded stacks need), then what gd_report_block_row
 * shows: thread, blame and the Looper message (BLOCK_MSG joins it once). */
#define BLOCK_CORE                                                                          \
    "d.trace, d.id, d.tid, d.start_ms, d.dur_ms, t.long_ms, t.anr_ms, b.samples, b.key_frame," \
    " b.grp, b.cpu_busy, d.unfinished, d.pid"
#define BLOCK_COLS BLOCK_CORE ", " GD_SQL_THREAD_OF("d", "t") ", b.blame, m.handler, m.callback, m.what"
#define BLOCK_MSG " LEFT JOIN message m ON m.id = d.message"

/* The row of a block selected with BLOCK_COLS: trace, id, tid, start_ms,
 * duration_ms, kind, samples, key_frame, group, cpu_busy, unfinished, thread,
 * blame, handler, callback, what (query/report_series.c). */
json_t *gd_report_block_row(sqlite3_stmt *q);

#endif
