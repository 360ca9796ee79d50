/* query/issues.h - the tools' findings and the ANR dumps, the one ANR count
 * (`godeye issues`, `godeye anr`; query/issues.c). */
#ifndef GD_QUERY_ISSUES_H
#define GD_QUERY_ISSUES_H

#include <stdint.h>

#include "query/columns.h"
#include "store/store.h"

/* A finding's fields, declared once (query/columns.h): cost_ms a number as
 * the event JSON holds it (an integer when whole, core/event_json.c's
 * rule); content the finding's JSON; pid 0 when unknown. */
#define GD_ISSUES_COLS(X, J)                                                          \
    X(IS_TRACE, "i.trace", "trace", "TRACE", INT, 0)                                  \
    X(IS_TS, "e.ts_ms", "ts_ms", "TIME", TIME, 0)                                     \
    J(IS_PID, "ifnull(e.pid, 0)", "pid", NULL, INT, 0)                                \
    J(IS_TID, "ifnull(e.tid, 0)", "tid", NULL, INT, 0)                                \
    X(IS_TOOL, "i.tool", "tool", "TOOL", TEXT, 0)                                     \
    X(IS_TYPE, "i.type", "type", "TYPE", TEXT, 0)                                     \
    X(IS_DETAIL, "i.detail", "detail", "DETAIL", TEXT, 0)                             \
    X(IS_COST, GD_SQL_WHOLE_AS_INT("i.cost_ms"), "cost_ms", "COST MS", MS, GD_QC_ASIS) \
    X(IS_CONTENT, "i.content", "content", "CONTENT", TEXT, GD_QC_WIDE | GD_QC_PARSE)
/* A real as an integer when whole (below 9e15), else as it is. */
#define GD_SQL_WHOLE_AS_INT(x)                                                                \
    "CASE WHEN abs(" x ") < 9e15 AND " x " = CAST(" x " AS INTEGER) THEN CAST(" x " AS INTEGER)" \
    " ELSE " x " END"

/* Findings kept as reported by on-device tools (Matrix, AndroidGodEye,
 * logcat warnings, ANR dumps), optionally of one tool only: the fields of
 * GD_ISSUES_COLS. */
int gd_query_issues(gd_store *s, const gd_filter *f, const char *tool, gd_row_fn fn, void *ctx,
                    gd_error *err);

/* An ANR dump's row, declared once (query/columns.h): a document of the
 * dump's findings (the anr reader's content: main, locks_held, deadlocks,
 * ... as they are), the stacks and the view's figures; every field is in
 * every row (null when the dump does not say it).  Described below and in
 * godeye-anr(1) OUTPUT. */
#define GD_ANR_COLS(X, J)                                                     \
    J(AN_ID, NULL, "id", NULL, INT, 0)                                        \
    X(AN_TRACE, NULL, "trace", "TRACE", INT, 0)                                  \
    X(AN_PID, NULL, "pid", "PID", INT, GD_QC_HIDDEN)                                      \
    X(AN_TS, NULL, "ts_ms", "DUMP", TIME, 0)                                    \
    X(AN_ANR, NULL, "anr", "ANR", BOOL, 0)                                     \
    X(AN_PROCESS, NULL, "process", "APP", TEXT, GD_QC_WIDE)                             \
    J(AN_SECTION, NULL, "section", NULL, TEXT, 0)                             \
    J(AN_DUMP_INDEX, NULL, "dump_index", NULL, INT, 0)                        \
    J(AN_SUBJECT, NULL, "subject", NULL, TEXT, 0)                             \
    J(AN_THREADS, NULL, "threads", NULL, INT, 0)                              \
    J(AN_HEAP, NULL, "heap", NULL, TEXT, 0)                                   \
    J(AN_LOCKS_HELD, NULL, "locks_held", NULL, TEXT, 0)                       \
    J(AN_MAIN, NULL, "main", NULL, TEXT, 0)                                   \
    J(AN_DEADLOCKS, NULL, "deadlocks", NULL, TEXT, 0)                         \
    J(AN_BINDER_WAITS, NULL, "binder_waits", NULL, TEXT, 0)                   \
    J(AN_WCHAN, NULL, "wchan", NULL, TEXT, 0)                                 \
    J(AN_EVIDENCE, NULL, "evidence", NULL, TEXT, 0)                           \
    J(AN_PRESSURE, NULL, "pressure", NULL, TEXT, 0)                           \
    J(AN_MEMORY_KB, NULL, "memory_kb", NULL, TEXT, 0)                         \
    J(AN_MAIN_STACK, NULL, "main_stack", NULL, TEXT, 0)                       \
    J(AN_HOLDER_STACK, NULL, "holder_stack", NULL, TEXT, 0)                   \
    J(AN_DEADLOCK, NULL, "deadlock", NULL, BOOL, 0)                           \
    X(AN_REASON, NULL, "reason", "REASON", TEXT, GD_QC_WIDE | GD_QC_AUTO)                               \
    J(AN_LOG_REPORT, NULL, "log_report", NULL, TEXT, 0)                       \
    J(AN_AM_ANR, NULL, "am_anr", NULL, TEXT, 0)                               \
    J(AN_BINDER_PEER, NULL, "binder_peer", NULL, TEXT, 0)                     \
    J(AN_BINDER_CHAIN, NULL, "binder_chain", NULL, TEXT, 0)                   \
    J(AN_CYCLE, NULL, "cross_process_cycle", NULL, BOOL, 0)                   \
    J(AN_BINDER_REASON, NULL, "binder_reason", NULL, TEXT, 0)                 \
    J(AN_TYPE, NULL, "type", NULL, TEXT, 0)                                   \
    X(AN_TYPE_LABEL, NULL, "type_label", "TYPE", TEXT, GD_QC_AUTO)                       \
    J(AN_USER_PERCEIVED, NULL, "user_perceived", NULL, BOOL, 0)               \
    J(AN_TIMEOUT, NULL, "timeout_ms", NULL, INT, 0)                           \
    J(AN_WAITED, NULL, "waited_ms", NULL, MS, 0)                              \
    J(AN_REASON_PROCESS, NULL, "reason_process", NULL, TEXT, 0)               \
    J(AN_SIGNATURE, NULL, "signature", NULL, TEXT, 0)                         \
    J(AN_MAIN_WAITS_IN_APP, NULL, "main_waits_in_app", NULL, BOOL, 0)         \
    J(AN_MAIN_DEADLOCK, NULL, "main_deadlock", NULL, BOOL, 0)                 \
    J(AN_QUIET, NULL, "quiet", NULL, BOOL, 0)
/* The table's and csv's order: the X fields and columns computed for
 * reading (P, path NULL: cli/anr.c's cell functions make their text). */
#define GD_ANR_TABLE(T, P)                                                              \
    T(AN_TRACE) T(AN_TS) T(AN_PID) T(AN_PROCESS) T(AN_ANR) T(AN_TYPE_LABEL) T(AN_REASON)   \
    P(AN_T_STATE, NULL, "state", "MAIN STATE", TEXT, 0)                                   \
    P(AN_T_PRESSURE, NULL, "pressure", "PRESSURE", TEXT, GD_QC_AUTO)                      \
    P(AN_T_MEMORY, NULL, "memory", "MEMORY", TEXT, GD_QC_AUTO)                            \
    P(AN_T_TOP, NULL, "top", "MAIN AT", TEXT, GD_QC_WIDE)                                 \
    P(AN_T_BLOCKED_BY, NULL, "blocked_by", "BLOCKED BY", TEXT, 0)                         \
    P(AN_T_HOLDER_AT, NULL, "holder_at", "HOLDER AT", TEXT, GD_QC_WIDE | GD_QC_AUTO)      \
    P(AN_T_CYCLE, NULL, "cycle", "DEADLOCK", TEXT, GD_QC_WIDE | GD_QC_AUTO)

/* One row per ANR dump (GD_ANR_COLS), the dumps the system took for an ANR first (then
 * by trace and time): trace, pid, ts_ms, anr (bool: the anr_dump view's
 * rule; null for a database ingested before it), process, section,
 * dump_index, subject, threads, heap ({free_pct, used_bytes, ...} or null),
 * locks_held ([{name, tid, locks, more}]), main ({name, tid, state,
 * locks_held, waiting_on, lock, held_by, held_by_name, holder_state,
 * holder_locks_held, holder_waiting_on} or null), main_stack (frames,
 * innermost first), holder_stack (the frames of main's lock holder, or
 * null), deadlocks (arrays of {name, tid, lock, held_by, stack...}
 * cycles), binder_waits ({holder, waiters} objects: a lock holder in an
 * outgoing binder call), deadlock (bool), quiet (bool: not the ANR, no
 * deadlock, no binder wait, main waits for no lock, main not waiting or
 * sleeping in app code: quiet_dump), id (the dump's anr_dump finding: `anr
 * --id`), type, type_label, user_perceived, timeout_ms, waited_ms (of
 * the ANR's reason: gd_anr_kind_of), reason_process (the process the
 * reason names), wchan ({threads, main {tid, state, wchan}, d_count,
 * d_threads, d_more}: a kept Waiting Channels section, or null), evidence
 * ("stacks" | "waiting_channels" with wchan, else null), pressure and
 * memory_kb (an ANR record's /proc/pressure and Rss figures, on its first
 * dump, else null), main_waits_in_app (bool: main waits or sleeps with an
 * app frame on its stack), main_deadlock (bool: main is in a cycle),
 * signature (gd_query_anr_groups). */
int gd_query_anr(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err);

/* What `godeye anr` left out. */
typedef struct gd_anr_counts {
    int64_t dumps;      /* dumps the system took for an ANR (anr_dump.anr = 1) */
    int64_t blocks;     /* main-thread blocks of kind anr that no ANR dump of  *
                         * their pid falls in (start .. end + anr_ms)          */
    int64_t total;      /* THE ANR count of every output: dumps + blocks       */
    int64_t snapshots;  /* the other dumps (never counted as ANRs)             */
    int64_t folded;     /* gd_query_anr_list: quiet dumps not listed           */
    int64_t user_perceived; /* #48: of total, the input dispatch timeouts (the *
                             * dumps' type, gd_anr_kind_of) and the ANR blocks *
                             * (a main thread that did not come back)          */
} gd_anr_counts;

typedef struct gd_anr_query {
    gd_filter filter;
    const char *app;        /* only dumps of this process (or "app:..."), or NULL */
    int all;                /* 0: quiet dumps are left out and counted         */
    gd_anr_counts *counts;  /* NULL, or where `folded` is counted              */
    int64_t id;             /* > 0: only the dump whose row "id" is this       */
} gd_anr_query;

/* gd_query_anr's rows, filtered by q. */
int gd_query_anr_list(gd_store *s, const gd_anr_query *q, gd_row_fn fn, void *ctx, gd_error *err);

/* #48: the ANRs of record (rows whose anr is true) of q's selection in
 * groups of one signature (the row's "signature": type, main's top app
 * frames, the lock holder's top app frame), the largest first, then by
 * their first dump's id: signature, type, type_label, count, apps,
 * first_version, last_version (of the traces' version_name, compared as
 * versions; null when untagged), devices, traces, id (the first dump's:
 * `anr --id`), reason (the first dump's). */
/* An ANR group's row, declared once (query/columns.h). */
#define GD_ANR_GROUPS_COLS(X, J)                                   \
    X(AG_SIGNATURE, NULL, "signature", "SIGNATURE", TEXT, GD_QC_WIDE)              \
    J(AG_TYPE, NULL, "type", NULL, TEXT, 0)                        \
    X(AG_TYPE_LABEL, NULL, "type_label", "TYPE", TEXT, 0)            \
    X(AG_COUNT, NULL, "count", "COUNT", INT, 0)                       \
    X(AG_APPS, NULL, "apps", "APPS", TEXT, GD_QC_WIDE)                        \
    J(AG_FIRST_VERSION, NULL, "first_version", NULL, TEXT, 0)      \
    J(AG_LAST_VERSION, NULL, "last_version", NULL, TEXT, 0)        \
    X(AG_DEVICES, NULL, "devices", "DEVICES", TEXT, GD_QC_WIDE | GD_QC_AUTO)                  \
    J(AG_TRACES, NULL, "traces", NULL, TEXT, 0)                    \
    X(AG_ID, NULL, "id", "ID", INT, 0)                             \
    J(AG_REASON, NULL, "reason", NULL, TEXT, 0)
/* --group's table and csv order (VERSIONS: first..last, made by cli/anr.c) */
#define GD_ANR_GROUPS_TABLE(T, P)                                                       \
    T(AG_COUNT) T(AG_TYPE_LABEL) T(AG_APPS)                                             \
    P(AG_T_VERSIONS, NULL, "versions", "VERSIONS", TEXT, GD_QC_AUTO)                    \
    T(AG_DEVICES) T(AG_ID) T(AG_SIGNATURE)
int gd_query_anr_groups(gd_store *s, const gd_anr_query *q, gd_row_fn fn, void *ctx, gd_error *err);

/* The ANR count every output reports (#28: one definition): an ANR is a
 * dump the system took for an ANR (the anr_dump view's anr = 1) or a
 * main-thread block of kind anr (once: a block in which, or within the
 * trace's anr_ms after which, an ANR dump of its pid was taken is that
 * dump's ANR), never a snapshot dump.  Fills *out
 * (folded = 0); GD_OK or an error code with err set. */
int gd_query_anr_count(gd_store *s, const gd_filter *f, gd_anr_counts *out, gd_error *err);

#endif
