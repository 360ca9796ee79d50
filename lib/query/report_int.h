/* query/report_int.h - what the report's query files share (block columns, the block row); not a public API. */
#ifndef GD_QUERY_REPORT_INT_H
#define GD_QUERY_REPORT_INT_H

#include <jansson.h>
#include <sqlite3.h>

#include "store/sql.h"
#include "store/store.h"

/* Columns 0-12 of a block (all folded stacks need: BLOCK_CORE), then what gd_report_block_row
 * shows: thread, blame and the Looper message (BLOCK_MSG joins it once). */
#define REPORT_BLOCK_CORE(X)                                                             \
    X(RB_ID, "d.id") X(RB_TID, "d.tid") X(RB_START, "d.start_ms") X(RB_DUR, "d.dur_ms")  \
    X(RB_LONG, "t.long_ms") X(RB_ANR, "t.anr_ms") X(RB_SAMPLES, "b.samples")             \
    X(RB_KEY_FRAME, "b.key_frame") X(RB_GRP, "b.grp") X(RB_CPU_BUSY, "b.cpu_busy")       \
    X(RB_UNFINISHED, "d.unfinished") X(RB_PID, "d.pid")
#define REPORT_BLOCK_SHOWN(X)                                                            \
    X(RB_THREAD, GD_SQL_THREAD_OF("d", "t")) X(RB_BLAME, "b.blame") X(RB_HANDLER, "m.handler") \
    X(RB_CALLBACK, "m.callback") X(RB_WHAT, "m.what")
/* Their positions, read by name: RB_TRACE (d.trace) first; RB_THREAD..
 * only in BLOCK_COLS. */
enum { RB_TRACE = 0, REPORT_BLOCK_CORE(GD_COL_ENUM) REPORT_BLOCK_SHOWN(GD_COL_ENUM) RB_NCOLS };
#define BLOCK_CORE "d.trace" REPORT_BLOCK_CORE(GD_COL_SQL)
#define BLOCK_COLS BLOCK_CORE REPORT_BLOCK_SHOWN(GD_COL_SQL)
#define BLOCK_MSG " LEFT JOIN message m ON m.id = d.message"

/* The row of a block selected with BLOCK_COLS: trace, id, tid, start_ms,
 * duration_ms, kind, samples, key_frame, group, cpu_busy, unfinished, thread,
 * blame, handler, callback, what (query/report_series.c). */
json_t *gd_report_block_row(sqlite3_stmt *q);

/* #47 item 6 (query/report_focus.c): doc's frames, startups, groups (with
 * the flames by position) and anrs get "focus" (the row's trace's app, else
 * --app or the selected traces' apps: godeye-report(1), FOCUS) and are
 * sorted stably app first; doc gets focus_apps, other_processes ({frames,
 * startups}: the rows at the end of those that the page folds), and
 * sources_root with each trace's source_rel.  0, or an error in err. */
int gd_report_focus(gd_store *s, const gd_filter *f, json_t *doc, gd_error *err);

#endif
