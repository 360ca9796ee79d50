/* query/report_int.h - what the report's query files share (block columns, the block row); not a public API. */
#ifndef GD_QUERY_REPORT_INT_H
#define GD_QUERY_REPORT_INT_H

#include <jansson.h>
#include <sqlite3.h>

#include "query/columns.h"
#include "store/sql.h"
#include "store/store.h"

/* What the stacks' aggregator reads of a block (query/report_flames.c:
 * folded stacks, flames) and what its kind is of, raw by position: the
 * first columns of a report block query (BLOCK_CORE: d.trace, RB_TRACE,
 * first). */
#define REPORT_BLOCK_CORE(X)                                                              \
    X(RB_PID, "d.pid") X(RB_TID, "d.tid") X(RB_START, "d.start_ms") X(RB_DUR, "d.dur_ms") \
    X(RB_UNFINISHED, "d.unfinished") X(RB_LONG, "t.long_ms") X(RB_ANR, "t.anr_ms")
enum { RB_TRACE = 0, REPORT_BLOCK_CORE(GD_COL_ENUM) RB_NCORE };
#define BLOCK_CORE "d.trace" REPORT_BLOCK_CORE(GD_COL_SQL)
/* A report block row's fields, declared once (query/columns.h), read
 * after BLOCK_CORE from dispatch d, trace t, block b and the Looper message
 * m (BLOCK_MSG joins it once); kind computed (gd_block_kind_at). */
#define GD_REPORT_BLOCK_COLS(X, J)                                            \
    J(RBF_TRACE, "d.trace", "trace", NULL, INT, 0)                            \
    J(RBF_ID, "d.id", "id", NULL, INT, 0)                                     \
    J(RBF_TID, "d.tid", "tid", NULL, INT, 0)                                  \
    J(RBF_START, "d.start_ms", "start_ms", NULL, TIME, 0)                     \
    J(RBF_DUR, "d.dur_ms", "duration_ms", NULL, MS, 0)                        \
    J(RBF_KIND, NULL, "kind", NULL, TEXT, 0)                                  \
    J(RBF_SAMPLES, "b.samples", "samples", NULL, INT, 0)                      \
    J(RBF_KEY_FRAME, "b.key_frame", "key_frame", NULL, TEXT, 0)               \
    J(RBF_GROUP, "b.grp", "group", NULL, TEXT, 0)                             \
    J(RBF_CPU_BUSY, "b.cpu_busy", "cpu_busy", NULL, BOOL, 0)                  \
    J(RBF_UNFINISHED, "d.unfinished", "unfinished", NULL, BOOL, 0)            \
    J(RBF_THREAD, GD_SQL_THREAD_OF("d", "t"), "thread", NULL, TEXT, 0)        \
    J(RBF_BLAME, "b.blame", "blame", NULL, TEXT, 0)                           \
    J(RBF_HANDLER, "m.handler", "handler", NULL, TEXT, 0)                     \
    J(RBF_CALLBACK, "m.callback", "callback", NULL, TEXT, 0)                  \
    J(RBF_WHAT, "m.what", "what", NULL, TEXT, 0)
#define BLOCK_MSG " LEFT JOIN message m ON m.id = d.message"

/* The SELECT list of a report block: BLOCK_CORE, then the fields of
 * GD_REPORT_BLOCK_COLS; 0, or -1 when it does not fit in n bytes. */
int gd_report_block_select(char *buf, size_t n);
/* The row of a block selected with gd_report_block_select: the fields of
 * GD_REPORT_BLOCK_COLS (query/report_series.c); NULL when out of memory. */
json_t *gd_report_block_row(sqlite3_stmt *q);

/* #47 item 6 (query/report_focus.c): doc's frames, startups, groups (with
 * the flames by position) and anrs get "focus" (the row's trace's app, else
 * --app or the selected traces' apps: godeye-report(1), FOCUS) and are
 * sorted stably app first; doc gets focus_apps, other_processes ({frames,
 * startups}: the rows at the end of those that the page folds), and
 * sources_root with each trace's source_rel.  0, or an error in err. */
int gd_report_focus(gd_store *s, const gd_filter *f, json_t *doc, gd_error *err);

#endif
