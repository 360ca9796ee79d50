/* query/issues.c - findings kept as reported (issues) and the ANR view built
 * from them: main thread state, lock holder, deadlock cycles, main stack. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query/issues.h"
#include "analysis/anrtype.h"
#include "analysis/blocks.h" /* gd_frame_is_app */
#include "analysis/version.h"
#include "core/util.h"
#include "store/sql.h"

enum { GD_ISSUES_COLS(GD_QC_ID, GD_QC_ID) IS_NCOLS };
GD_QCOLS_DEFINE(issue_cols, GD_ISSUES_COLS);

_Static_assert(IS_NCOLS <= GD_QCOLS_MAX, "gd_qcols_row reads every field");

static json_t *issue_row(sqlite3_stmt *q)
{
    return gd_qcols_row(&issue_cols, q);
}

int gd_query_issues(gd_store *s, const gd_filter *f, const char *tool, gd_row_fn fn, void *ctx,
                    gd_error *err)
{
    char filt[4096], sql[8192], fields[2048];
    gd_store_filter_sql(f, "i.trace", filt, sizeof filt);
    if (gd_qcols_select(&issue_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "issues: the SELECT list is too long");
    snprintf(sql, sizeof sql,
             "SELECT %s FROM issue i JOIN raw_event e ON e.id = i.id"
             " WHERE (?1 IS NULL OR i.tool = ?1) %s ORDER BY trace, ts_ms, i.id", fields, filt);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    if (tool)
        sqlite3_bind_text(q, 1, tool, -1, SQLITE_STATIC);
    return gd_store_stream(s, q, issue_row, fn, ctx, err);
}

/* The one column of thread_stack's query. */
enum { ST_TEXT };

static int stack_frame(void *ctx, sqlite3_stmt *q)
{
    json_array_append_new(ctx, gd_col_text(q, ST_TEXT)); /* #53 item 1: mended */
    return GD_OK;
}

/* A thread's frames at one dump (innermost first), or an empty array. */
static json_t *thread_stack(gd_store *s, int64_t trace, int64_t pid, int64_t tid, double ts)
{
    json_t *frames = json_array();
    sqlite3_stmt *q = gd_store_prepare(
        s, "WITH RECURSIVE up(id, parent, frame, depth) AS ("
           " SELECT c.id, c.parent, c.frame, c.depth FROM callsite c WHERE c.id ="
           "  (SELECT callsite FROM sample WHERE trace = ?1 AND pid = ?2 AND tid = ?3 AND abs(ts_ms - ?4) < 0.001"
           "   ORDER BY id LIMIT 1)"
           " UNION ALL SELECT c.id, c.parent, c.frame, c.depth FROM callsite c JOIN up ON c.id = up.parent)"
           " SELECT f.text AS text FROM up JOIN frame f ON f.id = up.frame ORDER BY up.depth DESC", NULL);
    if (!q)
        return frames;
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_int64(q, 2, pid);
    sqlite3_bind_int64(q, 3, tid);
    sqlite3_bind_double(q, 4, ts);
    gd_store_each(s, q, stack_frame, frames, NULL);
    return frames;
}

enum { GD_ANR_COLS(GD_QC_ID, GD_QC_ID) AN_NCOLS };
GD_QCOLS_DEFINE(anr_cols, GD_ANR_COLS);

typedef struct anr_acc {
    gd_store *s;
    const gd_anr_query *q;
    gd_row_fn fn;
    void *ctx;
    gd_value cur[AN_NCOLS]; /* the dump being collected (have: there is one) */
    int have;
    int stop;
    const char *filt; /* the traces searched for log reports (SQL on "i.trace") */
} anr_acc;

/* Field k of an ANR row as JSON (the rows' values are JSON, or null: NULL). */
static json_t *fld(const gd_value *r, int k)
{
    return r[k].kind == GD_V_JSON ? r[k].u.json : NULL;
}

/* Sets field k to j (taken; NULL: null), the old value released. */
static void put(gd_value *r, int k, json_t *j)
{
    if (r[k].kind == GD_V_JSON)
        json_decref(r[k].u.json);
    gd_qv_json(&r[k], j);
}

/* The window in which the system's own report of an ANR (logcat's
 * ActivityManager "ANR in" block, the event log's am_anr) is the report of
 * a dump: same pid, logged from 30 s before the dump's time (am_anr is
 * written before the traces are dumped) to 60 s after it ("ANR in" is
 * logged once they are); the nearest of each kind wins.  godeye-anr(1). */
#define ANR_LOG_BEFORE_MS 30000.0
#define ANR_LOG_AFTER_MS 60000.0

/* The columns of log_reports' query, after i.trace (LR_TRACE). */
#define LOG_REPORT_COLS(X)  \
    X(LR_TS, "e.ts_ms AS ts_ms") \
    X(LR_TYPE, "i.type AS type") \
    X(LR_CONTENT, "i.content AS content")
enum { LR_TRACE = 0, LOG_REPORT_COLS(GD_COL_ENUM) LR_NCOLS };

/* The nearest report of each kind found so far (log_report_row). */
typedef struct log_report_acc {
    json_t *rep, *am;
} log_report_acc;

static int log_report_row(void *ctx, sqlite3_stmt *q)
{
    log_report_acc *l = ctx;
    const char *type = (const char *)sqlite3_column_text(q, LR_TYPE);
    const char *content = (const char *)sqlite3_column_text(q, LR_CONTENT);
    json_t **slot = type && strcmp(type, "am_anr") == 0 ? &l->am : &l->rep;
    if (!json_is_null(*slot))
        return GD_OK;
    json_t *c = content ? gd_json_load_text(content, strlen(content), 0) : NULL;
    if (!json_is_object(c)) {
        json_decref(c);
        return GD_OK;
    }
    json_object_del(c, "reporter_pid");
    json_object_set_new(c, "trace", json_integer(sqlite3_column_int64(q, LR_TRACE)));
    json_object_set_new(c, "ts_ms", gd_col_ms(q, LR_TS));
    *slot = c;
    return GD_OK;
}

/* Sets "log_report", "am_anr" (each the nearest such report, or null) and
 * "reason" (the record's Subject:, else the log report's Reason:, else
 * am_anr's reason, else null) on an ANR dump's row. */
static void log_reports(anr_acc *a, gd_value *r, int64_t pid, double ts)
{
    log_report_acc l = {json_null(), json_null()};
    if (json_is_true(fld(r, AN_ANR))) {
        char sql[8192];
        snprintf(sql, sizeof sql,
                 "SELECT i.trace AS trace" LOG_REPORT_COLS(GD_COL_SQL)
                 " FROM issue i JOIN raw_event e ON e.id = i.id"
                 " WHERE i.tool = 'android' AND i.type IN ('anr_report', 'am_anr') AND e.pid = ?1"
                 " AND e.ts_ms >= ?2 - %.1f AND e.ts_ms <= ?2 + %.1f %s"
                 " ORDER BY abs(e.ts_ms - ?2), i.id",
                 ANR_LOG_BEFORE_MS, ANR_LOG_AFTER_MS, a->filt ? a->filt : "");
        sqlite3_stmt *q = gd_store_prepare(a->s, sql, NULL);
        if (q) {
            sqlite3_bind_int64(q, 1, pid);
            sqlite3_bind_double(q, 2, ts);
            gd_store_each(a->s, q, log_report_row, &l, NULL);
        }
    }
    json_t *rep = l.rep, *am = l.am;
    json_t *reason = fld(r, AN_SUBJECT);
    if (!json_is_string(reason))
        reason = json_object_get(rep, "reason");
    if (!json_is_string(reason))
        reason = json_object_get(am, "reason");
    put(r, AN_REASON, json_is_string(reason) ? json_copy(reason) : NULL);
    put(r, AN_LOG_REPORT, rep);
    put(r, AN_AM_ANR, am);
}

/* The dump's process is `app`, or a process of it ("app:remote"). */
static int of_app(const gd_value *r, const char *app)
{
    const char *p = json_string_value(fld(r, AN_PROCESS));
    size_t n = strlen(app);
    return p && strncmp(p, app, n) == 0 && (p[n] == 0 || p[n] == ':');
}

/* Main waits or sleeps inside the app's code at the dump (#48): a waiting
 * state word and an app frame (gd_frame_is_app) on its stack. */
static int main_waits_in_app(const gd_value *r)
{
    json_t *main = fld(r, AN_MAIN), *f;
    size_t i;
    if (!json_is_object(main) || !gd_anr_waiting_state(json_string_value(json_object_get(main, "state"))))
        return 0;
    json_array_foreach(fld(r, AN_MAIN_STACK), i, f)
        if (gd_frame_is_app(json_string_value(f)))
            return 1;
    return 0;
}

/* A dump that is not the ANR and shows nothing wrong (#48: never hides a
 * frozen main): no deadlock, no binder wait, no binder peer, main not
 * waiting for a lock, main not waiting or sleeping in app code; a Java
 * main is idle in its looper (gd_anr_main_idle); a dump without Java
 * frames on main (a native process) shows no more than that (`godeye anr`
 * folds these). */
static int quiet_dump(const gd_value *r)
{
    json_t *main = fld(r, AN_MAIN), *st = fld(r, AN_MAIN_STACK), *f;
    if (json_is_true(fld(r, AN_ANR)) || json_array_size(fld(r, AN_DEADLOCKS)) ||
        json_array_size(fld(r, AN_BINDER_WAITS)) || json_is_object(fld(r, AN_BINDER_PEER)) ||
        (json_is_object(main) && json_object_get(main, "waiting_on")) || main_waits_in_app(r))
        return 0;
    size_t n = json_array_size(st), i, java = 0;
    const char *fr[64];
    json_array_foreach(st, i, f) {
        const char *t = json_string_value(f);
        if (i < 64)
            fr[i] = t;
        java += t && !gd_frame_is_native(t);
    }
    return java == 0 || gd_anr_main_idle(fr, n < 64 ? n : 64) || !json_is_object(main) ||
           !gd_anr_waiting_state(json_string_value(json_object_get(main, "state")));
}

/* #48: the ANR's signature, the way Play Console and Sentry cluster ANRs:
 * its type, then main's top app frames (framework and native frames
 * skipped; at most ANR_SIG_FRAMES), then, when main waits for a lock, the
 * holder's top app frame; without an app frame, main's first Java frame;
 * without stacks, main's kernel state and wait channel. */
#define ANR_SIG_FRAMES 3

static const char *first_app_frame(const json_t *stack)
{
    json_t *f;
    size_t i;
    json_array_foreach(stack, i, f)
        if (gd_frame_is_app(json_string_value(f)))
            return json_string_value(f);
    return NULL;
}

static void anr_signature(gd_value *r)
{
    char sig[2048];
    const char *type = json_string_value(fld(r, AN_TYPE));
    size_t n = (size_t)snprintf(sig, sizeof sig, "%s", type ? type : "ANR");
    json_t *stack = fld(r, AN_MAIN_STACK), *f, *main = fld(r, AN_MAIN);
    size_t i;
    int k = 0;
    json_array_foreach(stack, i, f) {
        const char *t = json_string_value(f);
        if (k < ANR_SIG_FRAMES && gd_frame_is_app(t) && n < sizeof sig)
            n += (size_t)snprintf(sig + n, sizeof sig - n, "%s%.400s", k++ ? " < " : " | ", t);
    }
    if (!k) {
        json_array_foreach(stack, i, f) {
            const char *t = json_string_value(f);
            if (t && !gd_frame_is_native(t) && n < sizeof sig) {
                n += (size_t)snprintf(sig + n, sizeof sig - n, " | %.400s", t);
                k = 1;
                break;
            }
        }
    }
    if (!k && json_array_size(stack) && n < sizeof sig)
        n += (size_t)snprintf(sig + n, sizeof sig - n, " | %.400s", json_string_value(json_array_get(stack, 0)));
    else if (!json_array_size(stack) && json_is_string(json_object_get(main, "wchan")) && n < sizeof sig)
        n += (size_t)snprintf(sig + n, sizeof sig - n, " | main %s %.100s",
                              json_string_value(json_object_get(main, "kernel_state"))
                                  ? json_string_value(json_object_get(main, "kernel_state")) : "?",
                              json_string_value(json_object_get(main, "wchan")));
    const char *h = first_app_frame(fld(r, AN_HOLDER_STACK));
    if (!h)
        h = first_app_frame(json_object_get(json_object_get(fld(r, AN_BINDER_PEER), "waits_on"), "holder_stack"));
    if (h && n < sizeof sig)
        snprintf(sig + n, sizeof sig - n, " | held by %.400s", h);
    put(r, AN_SIGNATURE, json_string(sig));
}

/* The ANR's type (gd_anr_kind_of) from its reason, and the process the
 * reason names, on the row (#48). */
static void anr_kind(gd_value *r)
{
    const char *reason = json_string_value(fld(r, AN_REASON));
    const char *proc = json_string_value(fld(r, AN_PROCESS));
    gd_anr_kind k;
    int anr = json_is_true(fld(r, AN_ANR));
    gd_anr_kind_of(anr ? reason : NULL, proc, &k);
    char named[256];
    put(r, AN_TYPE, k.type ? json_string(k.type) : NULL);
    put(r, AN_TYPE_LABEL, k.label ? json_string(k.label) : NULL);
    put(r, AN_USER_PERCEIVED, k.type ? json_boolean(k.user_perceived) : NULL);
    put(r, AN_TIMEOUT, k.timeout_ms >= 0 ? json_integer((json_int_t)k.timeout_ms) : NULL);
    put(r, AN_WAITED, k.waited_ms >= 0 ? json_real(k.waited_ms) : NULL);
    put(r, AN_REASON_PROCESS, anr && gd_anr_reason_process(reason, named, sizeof named) ? json_string(named) : NULL);
}

/* ---- #28 item 2: the binder chain across the dumps of one bugreport ----
 *
 * A bugreport's binder snapshot ("binder_txn" issues of tool "bugreport",
 * bugreport_binder.c) proves an edge "main -> server thread" when main's
 * own dump shows it in an outgoing binder call (its innermost binder frame
 * BinderProxy.transact, transactNative or IPCThreadState: the anr reader's
 * "binder_call" of the main state) and the snapshot holds an outgoing
 * transaction from main's tid to a thread of a process that has a dump,
 * that thread in it.  From there the chain follows proven edges only: a
 * lock wait whose holder the dump lists ("lock_waits" of anr_dump), or an
 * outgoing transaction of the thread to a thread in a dump; it closes
 * ("cross_process_cycle" true) when it comes back to a thread already on
 * it.  Anything else leaves it open, with "binder_reason" saying why.
 * godeye-anr(1). */
#define BINDER_MAX_HOPS 32

/* The one column of outgoing_txn's query. */
enum { OT_CONTENT };

/* The outgoing transaction of pid:tid in the trace's snapshot, or NULL. */
static json_t *outgoing_txn(gd_store *s, int64_t trace, int64_t pid, int64_t tid)
{
    sqlite3_stmt *q = gd_store_cached(
        s, "SELECT i.content AS content FROM issue i JOIN raw_event e ON e.id = i.id WHERE i.trace = ?1"
           " AND i.tool = 'bugreport' AND i.type = 'binder_txn' AND i.detail = 'outgoing'"
           " AND e.pid = ?2 AND e.tid = ?3 ORDER BY i.id LIMIT 1", NULL);
    json_t *c = NULL;
    if (!q)
        return NULL;
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_int64(q, 2, pid);
    sqlite3_bind_int64(q, 3, tid);
    if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, OT_CONTENT))
        c = gd_json_load_text((const char *)sqlite3_column_text(q, OT_CONTENT),
                               (size_t)sqlite3_column_bytes(q, OT_CONTENT), 0);
    gd_store_release(s, q);
    if (c && !json_is_object(c)) {
        json_decref(c);
        c = NULL;
    }
    return c;
}

/* The trace holds a binder snapshot. */
static int has_snapshot(gd_store *s, int64_t trace)
{
    sqlite3_stmt *q = gd_store_cached(
        s, "SELECT 1 FROM issue WHERE trace = ?1 AND tool = 'bugreport' AND type = 'binder_txn' LIMIT 1", NULL);
    if (!q)
        return 0;
    sqlite3_bind_int64(q, 1, trace);
    int r = sqlite3_step(q) == SQLITE_ROW;
    gd_store_release(s, q);
    return r;
}

/* The columns of dump_of's query. */
enum { DO_TS, DO_CONTENT };

/* The dump of pid in the trace (the one of the same section first, then
 * the nearest in time): its anr_dump content with "ts_ms" set, or NULL. */
static json_t *dump_of(gd_store *s, int64_t trace, int64_t pid, const char *section, double ts)
{
    sqlite3_stmt *q = gd_store_cached(
        s, "SELECT e.ts_ms AS ts_ms, i.content AS content FROM issue i JOIN raw_event e ON e.id = i.id WHERE i.trace = ?1"
           " AND i.tool = 'anr' AND i.type = 'anr_dump' AND e.pid = ?2"
           " ORDER BY json_extract(i.content, '$.section') IS NOT ?3, abs(e.ts_ms - ?4), i.id LIMIT 1", NULL);
    json_t *c = NULL;
    if (!q)
        return NULL;
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_int64(q, 2, pid);
    if (section)
        sqlite3_bind_text(q, 3, section, -1, SQLITE_STATIC);
    sqlite3_bind_double(q, 4, ts);
    if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, DO_CONTENT)) {
        c = gd_json_load_text((const char *)sqlite3_column_text(q, DO_CONTENT),
                               (size_t)sqlite3_column_bytes(q, DO_CONTENT), 0);
        if (json_is_object(c))
            json_object_set_new(c, "ts_ms", gd_col_ms(q, DO_TS));
        else {
            json_decref(c);
            c = NULL;
        }
    }
    gd_store_release(s, q);
    return c;
}

/* The columns of thread_in_dump's query. */
enum { TD_STATE, TD_NAME };

/* Name and state of pid:tid in its dump at ts (1), or 0 when the dump does
 * not list that thread. */
static int thread_in_dump(gd_store *s, int64_t trace, int64_t pid, int64_t tid, double ts, json_t **name,
                          json_t **state)
{
    sqlite3_stmt *q = gd_store_cached(
        s, "SELECT s.state AS state, (SELECT t.name FROM thread t WHERE t.trace = s.trace AND t.pid = s.pid"
           " AND t.tid = s.tid) AS name FROM sample s WHERE s.trace = ?1 AND s.pid = ?2 AND s.tid = ?3"
           " AND abs(s.ts_ms - ?4) < 0.001 ORDER BY s.id LIMIT 1", NULL);
    int found = 0;
    if (!q)
        return 0;
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_int64(q, 2, pid);
    sqlite3_bind_int64(q, 3, tid);
    sqlite3_bind_double(q, 4, ts);
    if (sqlite3_step(q) == SQLITE_ROW) {
        found = 1;
        *state = gd_col_text(q, TD_STATE);
        *name = gd_col_text(q, TD_NAME);
    }
    gd_store_release(s, q);
    return found;
}

/* The lock wait of tid in a dump's content, or NULL. */
static json_t *lock_wait_of(const json_t *dump, int64_t tid)
{
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(dump, "lock_waits"), i, w)
        if (json_integer_value(json_object_get(w, "tid")) == tid)
            return w;
    return NULL;
}

/* The one column of holder_call's query. */
enum { HC_CALL };

/* 1 when pid:tid's dump shows it, a lock holder, in an outgoing binder
 * call (a "binder_wait" issue of the anr reader): its innermost binder
 * frame in call. */
static int holder_call(gd_store *s, int64_t trace, int64_t pid, int64_t tid, char *call, size_t n)
{
    sqlite3_stmt *q = gd_store_cached(
        s, "SELECT json_extract(i.content, '$.holder.call') AS call FROM issue i JOIN raw_event e ON e.id = i.id"
           " WHERE i.trace = ?1 AND i.tool = 'anr' AND i.type = 'binder_wait' AND e.pid = ?2"
           " AND json_extract(i.content, '$.holder.tid') = ?3 ORDER BY i.id LIMIT 1", NULL);
    int found = 0;
    if (!q)
        return 0;
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_int64(q, 2, pid);
    sqlite3_bind_int64(q, 3, tid);
    if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, HC_CALL)) {
        snprintf(call, n, "%s", (const char *)sqlite3_column_text(q, HC_CALL));
        found = 1;
    }
    gd_store_release(s, q);
    return found;
}

/* A node of the binder chain and the binder peer (the server thread main
 * waits on), declared once; main's own node (the first) has no state. */
#define CHAIN_NODE_COLS(X, J)                       \
    J(CN_PID, NULL, "pid", NULL, INT, 0)            \
    J(CN_TID, NULL, "tid", NULL, INT, 0)            \
    J(CN_THREAD, NULL, "thread", NULL, TEXT, 0)     \
    J(CN_STATE, NULL, "state", NULL, TEXT, 0)       \
    J(CN_VIA, NULL, "via", NULL, TEXT, 0)
enum { CHAIN_NODE_COLS(GD_QC_ID, GD_QC_ID) CN_NCOLS };
GD_QCOLS_DEFINE(chain_node_cols, CHAIN_NODE_COLS);
#define BINDER_PEER_COLS(X, J)                      \
    J(BP_TXN, NULL, "txn_id", NULL, INT, 0)         \
    J(BP_PID, NULL, "pid", NULL, INT, 0)            \
    J(BP_TID, NULL, "tid", NULL, INT, 0)            \
    J(BP_PROCESS, NULL, "process", NULL, TEXT, 0)   \
    J(BP_THREAD, NULL, "thread", NULL, TEXT, 0)     \
    J(BP_STATE, NULL, "state", NULL, TEXT, 0)       \
    J(BP_WAITS_ON, NULL, "waits_on", NULL, TEXT, 0)
enum { BINDER_PEER_COLS(GD_QC_ID, GD_QC_ID) BP_NCOLS };
GD_QCOLS_DEFINE(binder_peer_cols, BINDER_PEER_COLS);

/* A chain node (thread and state borrowed; state NULL: main's node,
 * without one; via NULL: null). */
static json_t *chain_node(int64_t pid, int64_t tid, json_t *thread, json_t *state, const char *via)
{
    gd_value v[CN_NCOLS];
    gd_qv_int(&v[CN_PID], pid);
    gd_qv_int(&v[CN_TID], tid);
    gd_qv_json(&v[CN_THREAD], thread);
    if (state)
        gd_qv_json(&v[CN_STATE], state);
    else
        gd_qv_absent(&v[CN_STATE]);
    gd_qv_text(&v[CN_VIA], via);
    return gd_qcols_json(&chain_node_cols, v);
}

/* The binder peer: the server thread pid:tid (node) of main's
 * transaction txn in its process's dump, and the lock it waits on (w, or
 * NULL) with its holder's stack. */
static json_t *binder_peer(anr_acc *a, int64_t trace, const json_t *txn, json_t *dump, const json_t *w,
                           const json_t *node)
{
    gd_value v[BP_NCOLS];
    json_t *wo = NULL;
    if (w) {
        wo = json_deep_copy(w);
        json_object_del(wo, "tid");
        json_object_del(wo, "name");
        json_object_del(wo, "state");
        json_t *h = json_object_get(w, "held_by");
        json_object_set_new(wo, "holder_stack",
                            json_is_integer(h) ? thread_stack(a->s, trace, json_integer_value(json_object_get(node, "pid")),
                                                              json_integer_value(h),
                                                              json_number_value(json_object_get(dump, "ts_ms")))
                                               : json_null());
    }
    gd_qv_int(&v[BP_TXN], json_integer_value(json_object_get(txn, "txn_id")));
    gd_qv_json(&v[BP_PID], json_object_get(node, "pid"));
    gd_qv_json(&v[BP_TID], json_object_get(node, "tid"));
    gd_qv_json(&v[BP_PROCESS], json_object_get(dump, "process"));
    gd_qv_json(&v[BP_THREAD], json_object_get(node, "thread"));
    gd_qv_json(&v[BP_STATE], json_object_get(node, "state"));
    gd_qv_json(&v[BP_WAITS_ON], wo);
    json_t *peer = gd_qcols_json(&binder_peer_cols, v);
    json_decref(wo);
    return peer;
}

static void binder_chain(anr_acc *a, gd_value *r, int64_t trace, int64_t pid, double ts)
{
    char why[256] = "";
    json_t *peer = NULL, *chain = json_array();
    int cycle = 0;
    json_t *main = fld(r, AN_MAIN);
    const char *section = json_string_value(fld(r, AN_SECTION));
    json_t *txn = NULL, *dump = NULL;
    if (!json_is_object(main))
        goto done;
    int64_t mtid = json_integer_value(json_object_get(main, "tid")), cp, ct;
    const char *edge;
    int from_lock = 0;
    if (!json_is_string(json_object_get(main, "binder_call"))) {
        /* #48: main waits for a lock its dump shows held: the chain starts
         * there, when the capture has a binder snapshot to follow a holder
         * in a binder call through */
        if (!json_is_integer(json_object_get(main, "held_by")) || !has_snapshot(a->s, trace))
            goto done;
        cp = pid;
        ct = json_integer_value(json_object_get(main, "held_by"));
        edge = "lock";
        from_lock = 1;
    } else {
        txn = outgoing_txn(a->s, trace, pid, mtid);
        if (!txn) {
            if (!has_snapshot(a->s, trace))
                goto done;  /* nothing to check the call against */
            snprintf(why, sizeof why, "no outgoing transaction of %lld:%lld in the binder snapshot", (long long)pid,
                     (long long)mtid);
            goto done;
        }
        cp = json_integer_value(json_object_get(txn, "to_pid"));
        ct = json_integer_value(json_object_get(txn, "to_tid"));
        edge = "binder";
    }
    json_array_append_new(chain, chain_node(pid, mtid, json_object_get(main, "name"), NULL, NULL));
    for (int hop = 0; hop < BINDER_MAX_HOPS; hop++) {
        if (ct <= 0) {
            snprintf(why, sizeof why, "transaction to %lld not yet taken by a thread", (long long)cp);
            goto done;
        }
        /* back on the chain: closed */
        size_t i;
        json_t *n;
        json_array_foreach(chain, i, n)
            if (json_integer_value(json_object_get(n, "pid")) == cp &&
                json_integer_value(json_object_get(n, "tid")) == ct) {
                cycle = 1;
                char pids[160] = "";
                size_t len = 0;
                for (size_t k = i; k < json_array_size(chain) && len < sizeof pids - 24; k++) {
                    long long p = json_integer_value(json_object_get(json_array_get(chain, k), "pid"));
                    int dup = 0;
                    for (size_t m = i; m < k; m++)
                        dup |= json_integer_value(json_object_get(json_array_get(chain, m), "pid")) == p;
                    if (!dup)
                        len += (size_t)snprintf(pids + len, sizeof pids - len, "%s%lld", len ? ", " : "", p);
                }
                snprintf(why, sizeof why, "%s %s", strchr(pids, ',') ? "cycle across" : "deadlock in", pids);
                goto done;
            }
        if (!dump || json_integer_value(json_object_get(dump, "pid_")) != cp) {
            json_decref(dump);
            dump = dump_of(a->s, trace, cp, section, ts);
            if (dump)
                json_object_set_new(dump, "pid_", json_integer(cp));
        }
        json_t *name = NULL, *state = NULL;
        if (!dump || !thread_in_dump(a->s, trace, cp, ct, json_number_value(json_object_get(dump, "ts_ms")), &name,
                                     &state)) {
            snprintf(why, sizeof why, "%s %lld:%lld not in the dumps", dump ? "thread" : "process of", (long long)cp,
                     (long long)ct);
            goto done;
        }
        json_t *w = lock_wait_of(dump, ct);
        json_t *node = chain_node(cp, ct, name, state, edge);
        json_decref(name);
        json_decref(state);
        if (json_array_size(chain) == 1 && !from_lock) /* the server thread main waits on */
            peer = binder_peer(a, trace, txn, dump, w, node);
        json_array_append_new(chain, node);
        if (w) {
            json_t *h = json_object_get(w, "held_by");
            if (!json_is_integer(h)) {
                snprintf(why, sizeof why, "holder of the lock %lld:%lld waits on is not in its dump", (long long)cp,
                         (long long)ct);
                goto done;
            }
            ct = json_integer_value(h);
            edge = "lock";
            continue;
        }
        json_t *t2 = outgoing_txn(a->s, trace, cp, ct);
        if (!t2) {
            /* #48: a holder of main's own dump in a binder call the snapshot
             * does not hold (a dump older than the snapshot): said so */
            char call[160];
            if (holder_call(a->s, trace, cp, ct, call, sizeof call))
                snprintf(why, sizeof why, "%lld:%lld is in a binder call (%.120s) the binder snapshot does not hold",
                         (long long)cp, (long long)ct, call);
            else
                snprintf(why, sizeof why, "chain ends at %lld:%lld, waiting on no lock or binder call", (long long)cp,
                         (long long)ct);
            goto done;
        }
        cp = json_integer_value(json_object_get(t2, "to_pid"));
        ct = json_integer_value(json_object_get(t2, "to_tid"));
        json_decref(t2);
        edge = "binder";
    }
    snprintf(why, sizeof why, "chain longer than %d hops", BINDER_MAX_HOPS);
done:
    json_decref(txn);
    json_decref(dump);
    put(r, AN_BINDER_PEER, peer);
    put(r, AN_BINDER_CHAIN, json_array_size(chain) ? chain : (json_decref(chain), NULL));
    gd_qv_bool(&r[AN_CYCLE], cycle);
    put(r, AN_BINDER_REASON, why[0] ? json_string(why) : NULL);
}

/* The stacks of the dump's main thread, of the holder of its lock and of
 * each thread of a deadlock cycle. */
static void anr_stacks(anr_acc *a, gd_value *r, int64_t trace, int64_t pid, double ts)
{
    json_t *main = fld(r, AN_MAIN);
    json_t *holder = json_is_object(main) ? json_object_get(main, "held_by") : NULL;
    put(r, AN_MAIN_STACK, json_is_object(main)
                              ? thread_stack(a->s, trace, pid, json_integer_value(json_object_get(main, "tid")), ts)
                              : json_array());
    put(r, AN_HOLDER_STACK,
        json_is_integer(holder) ? thread_stack(a->s, trace, pid, json_integer_value(holder), ts) : NULL);
    /* each thread of a deadlock cycle with its frames */
    json_t *cycle, *th;
    size_t i, k;
    json_array_foreach(fld(r, AN_DEADLOCKS), i, cycle)
        json_array_foreach(cycle, k, th)
            json_object_set_new(th, "stack",
                                thread_stack(a->s, trace, pid, json_integer_value(json_object_get(th, "tid")), ts));
}

/* #48: main is a thread of a deadlock cycle. */
static int main_in_cycle(const gd_value *r)
{
    json_t *mn = fld(r, AN_MAIN), *cycle, *th;
    size_t i, k;
    int main_cycle = 0;
    json_array_foreach(fld(r, AN_DEADLOCKS), i, cycle)
        json_array_foreach(cycle, k, th)
            main_cycle |= json_is_object(mn) && json_equal(json_object_get(th, "tid"), json_object_get(mn, "tid"));
    return main_cycle;
}

/* The dump collected is complete: its figures computed, its row handed
 * on when the query keeps it. */
static void anr_flush(anr_acc *a)
{
    if (!a->have)
        return;
    gd_value *r = a->cur;
    int64_t trace = json_integer_value(fld(r, AN_TRACE)), pid = json_integer_value(fld(r, AN_PID));
    double ts = json_number_value(fld(r, AN_TS));
    anr_stacks(a, r, trace, pid, ts);
    gd_qv_bool(&r[AN_DEADLOCK], json_array_size(fld(r, AN_DEADLOCKS)) > 0);
    log_reports(a, r, pid, ts);
    binder_chain(a, r, trace, pid, ts);
    anr_kind(r);
    anr_signature(r);
    /* #48: what ranks a dump in `top` without the ANR's role */
    gd_qv_bool(&r[AN_MAIN_WAITS_IN_APP], main_waits_in_app(r));
    gd_qv_bool(&r[AN_MAIN_DEADLOCK], main_in_cycle(r));
    int quiet = quiet_dump(r);
    gd_qv_bool(&r[AN_QUIET], quiet);
    int shown = !a->q || ((!a->q->app || of_app(r, a->q->app)) && (a->q->all || !quiet));
    if (a->q && a->q->counts && (!a->q->app || of_app(r, a->q->app)) && !shown)
        a->q->counts->folded++;
    if (shown && !a->stop) {
        json_t *row = gd_qcols_json(&anr_cols, r);
        a->stop = row ? a->fn(a->ctx, row) : 1;
        json_decref(row);
    }
    gd_qcols_clear(&anr_cols, r);
    a->have = 0;
}

/* Sets field k to v (borrowed) when there is one (else leaves it). */
static void put_given(gd_value *r, int k, json_t *v)
{
    if (v)
        put(r, k, json_incref(v));
}

/* The content keys a dump's anr_dump finding gives its row, under the
 * same names. */
static const int dump_keys[] = {AN_PROCESS, AN_SECTION, AN_SUBJECT, AN_THREADS, AN_HEAP,
                                AN_LOCKS_HELD, AN_WCHAN, AN_EVIDENCE, AN_PRESSURE, AN_MEMORY_KB};

/* A new dump's row: its finding's trace, pid, time and role, empty lists
 * of deadlocks and binder waits, the rest null. */
static void anr_begin(anr_acc *a, json_t *row)
{
    gd_value *r = a->cur;
    for (size_t k = 0; k < AN_NCOLS; k++)
        gd_qv_null(&r[k]);
    json_t *anr = json_object_get(row, "anr");
    put(r, AN_TRACE, json_incref(json_object_get(row, "trace")));
    put(r, AN_PID, json_incref(json_object_get(row, "pid")));
    put(r, AN_TS, json_incref(json_object_get(row, "ts_ms")));
    put(r, AN_ANR, json_is_integer(anr) ? json_boolean(json_integer_value(anr)) : NULL);
    put(r, AN_DEADLOCKS, json_array());
    put(r, AN_BINDER_WAITS, json_array());
    a->have = 1;
}

static int anr_row(void *ctx, json_t *row)
{
    anr_acc *a = ctx;
    gd_value *r = a->cur;
    if (a->have && (!json_equal(fld(r, AN_TRACE), json_object_get(row, "trace")) ||
                    !json_equal(fld(r, AN_PID), json_object_get(row, "pid")) ||
                    !json_equal(fld(r, AN_TS), json_object_get(row, "ts_ms"))))
        anr_flush(a);
    if (!a->have)
        anr_begin(a, row);
    const char *type = json_string_value(json_object_get(row, "type"));
    json_t *content = json_object_get(row, "content");
    if (type && strcmp(type, "anr_dump") == 0 && json_is_object(content)) {
        for (size_t i = 0; i < sizeof dump_keys / sizeof dump_keys[0]; i++)
            put_given(r, dump_keys[i], json_object_get(content, anr_cols.keys[dump_keys[i]]));
        put_given(r, AN_DUMP_INDEX, json_object_get(content, "index"));
        put_given(r, AN_ID, json_object_get(row, "id"));
    } else if (type && strcmp(type, "anr_main_state") == 0 && json_is_object(content))
        put(r, AN_MAIN, json_incref(content));
    else if (type && strcmp(type, "deadlock") == 0 && json_is_object(content))
        json_array_append(fld(r, AN_DEADLOCKS), json_object_get(content, "threads"));
    else if (type && strcmp(type, "binder_wait") == 0 && json_is_object(content))
        json_array_append(fld(r, AN_BINDER_WAITS), content);
    return a->stop;
}

/* gd_query_anr_list's rows: a finding's fields (GD_ISSUES_COLS, every one
 * read from SQL), then the view's role of its dump. */
enum { I_ANR = IS_NCOLS, I_ID };

static json_t *anr_issue_row(sqlite3_stmt *q)
{
    json_t *row = issue_row(q);
    json_object_set_new(row, "id", json_integer(sqlite3_column_int64(q, I_ID)));
    json_object_set_new(row, "anr", sqlite3_column_type(q, I_ANR) == SQLITE_NULL
                                        ? json_null()
                                        : json_integer(sqlite3_column_int64(q, I_ANR)));
    return row;
}

int gd_query_anr_list(gd_store *s, const gd_anr_query *q, gd_row_fn fn, void *ctx, gd_error *err)
{
    char filt[4096], sql[8192], fields[2048];
    gd_store_filter_sql(q ? &q->filter : NULL, "i.trace", filt, sizeof filt);
    if (gd_qcols_select(&issue_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "anr: the SELECT list is too long");
    /* a dump's issues share its trace, pid and time; its role is the view's */
    snprintf(sql, sizeof sql,
             "SELECT * FROM (SELECT %s,"
             " (SELECT max(v.anr) FROM anr_dump v WHERE v.trace = i.trace AND v.pid IS e.pid"
             "  AND v.ts_ms IS e.ts_ms) AS anr, i.id AS id"
             " FROM issue i JOIN raw_event e ON e.id = i.id WHERE i.tool = 'anr' %s"
             " AND (?1 IS NULL OR EXISTS (SELECT 1 FROM issue i3 JOIN raw_event e3 ON e3.id = i3.id"
             "  WHERE i3.id = ?1 AND i3.tool = 'anr' AND i3.type = 'anr_dump' AND i3.trace = i.trace"
             "  AND e3.pid IS e.pid AND e3.ts_ms IS e.ts_ms)))"
             " ORDER BY coalesce(anr, 0) DESC, trace, ts_ms, id", fields, filt);
    sqlite3_stmt *st = gd_store_prepare(s, sql, err);
    if (!st)
        return err->code;
    if (q && q->id > 0)
        sqlite3_bind_int64(st, 1, q->id);
    anr_acc a = {.s = s, .q = q, .fn = fn, .ctx = ctx, .filt = filt};
    int rc = gd_store_stream(s, st, anr_issue_row, anr_row, &a, err);
    if (!rc)
        anr_flush(&a);
    if (a.have)
        gd_qcols_clear(&anr_cols, a.cur);
    return rc;
}

int gd_query_anr(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err)
{
    gd_anr_query q = {.all = 1};
    if (f)
        q.filter = *f;
    return gd_query_anr_list(s, &q, fn, ctx, err);
}

/* The columns of gd_query_anr_count's two queries. */
enum { AC_ANR, AC_OTHER };
enum { AC_BLOCKS };

/* gd_query_anr_count's one row of each query (gd_store_each's callbacks);
 * `found` says there was one. */
struct anr_count_ctx {
    gd_anr_counts *out;
    int found;
};

static int anr_dumps_row(void *ctx, sqlite3_stmt *q)
{
    struct anr_count_ctx *c = ctx;
    c->out->dumps = sqlite3_column_int64(q, AC_ANR);
    c->out->snapshots = sqlite3_column_int64(q, AC_OTHER);
    c->found = 1;
    return GD_EACH_STOP;
}

static int anr_blocks_row(void *ctx, sqlite3_stmt *q)
{
    struct anr_count_ctx *c = ctx;
    c->out->blocks = sqlite3_column_int64(q, AC_BLOCKS);
    c->found = 1;
    return GD_EACH_STOP;
}

/* The columns of the user-perceived count's query. */
enum { AU_REASON, AU_PROCESS };

static int anr_user_row(void *ctx, sqlite3_stmt *q)
{
    gd_anr_counts *out = ctx;
    gd_anr_kind k;
    gd_anr_kind_of((const char *)sqlite3_column_text(q, AU_REASON), (const char *)sqlite3_column_text(q, AU_PROCESS),
                   &k);
    out->user_perceived += k.user_perceived;
    return GD_OK;
}

int gd_query_anr_count(gd_store *s, const gd_filter *f, gd_anr_counts *out, gd_error *err)
{
    char filt[4096], sql[12288];
    memset(out, 0, sizeof *out);
    char app[512];
    gd_store_filter_sql(f, "trace", filt, sizeof filt);
    /* --app (#47): the ANRs of the app's own processes */
    gd_store_app_sql(f, "process", app, sizeof app);
    strncat(filt, app, sizeof filt - strlen(filt) - 1);
    snprintf(sql, sizeof sql, "SELECT coalesce(sum(anr = 1), 0) AS anr, coalesce(sum(anr = 0), 0) AS other"
                              " FROM anr_dump WHERE 1 %s", filt);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    struct anr_count_ctx c = {out, 0};
    int rc = gd_store_each(s, q, anr_dumps_row, &c, err);
    if (rc || !c.found)
        return rc ? rc : gd_store_fail(s, err, "database read");
    /* an ANR-kind block is the same ANR as a dump of its process taken
     * during it or within the trace's ANR threshold after its end (the
     * system dumps once its timeout fired; an unfinished block ends with
     * the capture): then it is not counted again.  The kind and --app
     * read the block's own dur_ms and pid (schema 10, #50), so only an
     * ANR-kind block's dispatch row is looked up (for its start) */
    char vfilt[4096];
    gd_store_filter_sql(f, "b.trace", filt, sizeof filt);
    gd_store_app_sql(f, GD_SQL_PROCESS_OF("b", "t"), app, sizeof app);
    strncat(filt, app, sizeof filt - strlen(filt) - 1);
    gd_store_filter_sql(f, "v.trace", vfilt, sizeof vfilt);
    snprintf(sql, sizeof sql,
             "SELECT count(*) AS n FROM block b JOIN trace t ON t.id = b.trace JOIN dispatch d ON d.id = b.dispatch"
             " WHERE " GD_SQL_BLOCK_KIND("b", "t") " = 'anr' %s AND NOT EXISTS (SELECT 1 FROM anr_dump v"
             " WHERE " GD_SQL_DUMP_OF_BLOCK("v", "d", "t") " %s)", filt, vfilt);
    if (!(q = gd_store_prepare(s, sql, err)))
        return err->code;
    c.found = 0;
    if ((rc = gd_store_each(s, q, anr_blocks_row, &c, err)) || !c.found)
        return rc ? rc : gd_store_fail(s, err, "database read");
    out->total = out->dumps + out->blocks;
    /* #48: the user-perceived ones: each ANR dump's type from its reason
     * (the row's rule: the subject, else the nearest log report's, else
     * am_anr's), every ANR block */
    gd_store_filter_sql(f, "v.trace", vfilt, sizeof vfilt);
    gd_store_app_sql(f, "v.process", app, sizeof app);
    strncat(vfilt, app, sizeof vfilt - strlen(vfilt) - 1);
    snprintf(sql, sizeof sql,
             /* the outer row's columns in a derived table: SQLite does not
              * resolve them in the ORDER BY of a subquery over a view */
             "SELECT coalesce(v.subject, (SELECT r FROM (SELECT json_extract(i.content, '$.reason') AS r,"
             " i.type = 'am_anr' AS k, abs(e.ts_ms - v.ts_ms) AS d, i.id AS n FROM issue i"
             " JOIN raw_event e ON e.id = i.id WHERE i.tool = 'android' AND i.type IN ('anr_report', 'am_anr')"
             " AND e.pid = v.pid AND e.ts_ms >= v.ts_ms - %.1f AND e.ts_ms <= v.ts_ms + %.1f"
             " AND json_extract(i.content, '$.reason') IS NOT NULL) ORDER BY k, d, n LIMIT 1)) AS reason,"
             " v.process AS process"
             " FROM anr_dump v WHERE v.anr = 1 %s", ANR_LOG_BEFORE_MS, ANR_LOG_AFTER_MS, vfilt);
    if (!(q = gd_store_prepare(s, sql, err)))
        return err->code;
    out->user_perceived = out->blocks;
    return gd_store_each(s, q, anr_user_row, out, err);
}

/* ---- #48: ANR groups (`godeye anr --group`) ---- */

enum { GD_ANR_GROUPS_COLS(GD_QC_ID, GD_QC_ID) AG_NCOLS };
GD_QCOLS_DEFINE(anr_group_cols, GD_ANR_GROUPS_COLS);

/* One group of ANRs: its fields (GD_ANR_GROUPS_COLS) being filled. */
typedef struct anr_group {
    gd_value v[AG_NCOLS]; /* JSON values (the group's own), the count an integer */
} anr_group;

typedef struct anr_group_acc {
    gd_store *s;
    json_t *by;      /* signature -> its index in g */
    anr_group *g;    /* in the order first seen */
    size_t n, cap;
    int oom;
    json_t *traces;  /* "trace id" -> {version, device} */
} anr_group_acc;

/* The columns of trace_tags' query. */
enum { TT_VERSION, TT_DEVICE };

static json_t *trace_tags(anr_group_acc *g, json_int_t trace)
{
    char key[32];
    snprintf(key, sizeof key, "%lld", (long long)trace);
    json_t *t = json_object_get(g->traces, key);
    if (t)
        return t;
    t = json_pack("{s:n s:n}", "version", "device");
    sqlite3_stmt *q = gd_store_cached(g->s, "SELECT version_name AS version, device AS device FROM trace WHERE id = ?1", NULL);
    if (q) {
        sqlite3_bind_int64(q, 1, trace);
        if (sqlite3_step(q) == SQLITE_ROW) {
            json_object_set_new(t, "version", gd_col_json(q, TT_VERSION));
            json_object_set_new(t, "device", gd_col_json(q, TT_DEVICE));
        }
        gd_store_release(g->s, q);
    }
    json_object_set_new(g->traces, key, t);
    return t;
}

/* Adds s to a sorted set (a JSON array of distinct strings). */
static void set_add(json_t *set, const char *s)
{
    json_t *e;
    size_t i;
    if (!s)
        return;
    json_array_foreach(set, i, e)
        if (strcmp(json_string_value(e), s) == 0)
            return;
    json_array_append_new(set, json_string(s));
}

/* The group of signature sig, made of row r (its first dump) when new;
 * NULL when out of memory. */
static anr_group *anr_group_of(anr_group_acc *g, const char *sig, json_t *r)
{
    json_t *at = json_object_get(g->by, sig);
    if (at)
        return &g->g[json_integer_value(at)];
    if (gd_grow((void **)&g->g, &g->cap, g->n + 1, sizeof *g->g, NULL) ||
        json_object_set_new(g->by, sig, json_integer((json_int_t)g->n)))
        return NULL;
    gd_value *v = g->g[g->n++].v;
    static const int from_row[][2] = {{AG_TYPE, AN_TYPE}, {AG_TYPE_LABEL, AN_TYPE_LABEL}, {AG_ID, AN_ID},
                                      {AG_REASON, AN_REASON}};
    for (size_t k = 0; k < AG_NCOLS; k++)
        gd_qv_null(&v[k]);
    gd_qv_json(&v[AG_SIGNATURE], json_string(sig));
    gd_qv_int(&v[AG_COUNT], 0);
    for (size_t k = 0; k < sizeof from_row / sizeof from_row[0]; k++)
        gd_qv_json(&v[from_row[k][0]], json_incref(json_object_get(r, anr_cols.keys[from_row[k][1]])));
    gd_qv_json(&v[AG_APPS], json_array());
    gd_qv_json(&v[AG_DEVICES], json_array());
    gd_qv_json(&v[AG_TRACES], json_array());
    return v[AG_APPS].kind == GD_V_JSON && v[AG_DEVICES].kind == GD_V_JSON && v[AG_TRACES].kind == GD_V_JSON
               ? &g->g[g->n - 1] : NULL;
}

/* The version v widens the group's first .. last versions. */
static void widen_versions(gd_value *gv, const char *v)
{
    const char *fv = json_string_value(fld(gv, AG_FIRST_VERSION));
    const char *lv = json_string_value(fld(gv, AG_LAST_VERSION));
    if (!fv || gd_version_cmp(v, fv) < 0)
        put(gv, AG_FIRST_VERSION, json_string(v));
    if (!lv || gd_version_cmp(v, lv) > 0)
        put(gv, AG_LAST_VERSION, json_string(v));
}

static int group_row(void *ctx, json_t *r)
{
    anr_group_acc *g = ctx;
    if (!json_is_true(json_object_get(r, "anr")))
        return 0;
    const char *sig = json_string_value(json_object_get(r, "signature"));
    if (!sig)
        return 0;
    anr_group *e = anr_group_of(g, sig, r);
    if (!e)
        return g->oom = 1;
    gd_value *gv = e->v;
    gv[AG_COUNT].u.i++;
    set_add(fld(gv, AG_APPS), json_string_value(json_object_get(r, "process")));
    json_int_t trace = json_integer_value(json_object_get(r, "trace"));
    json_t *tags = trace_tags(g, trace);
    const char *v = json_string_value(json_object_get(tags, "version"));
    if (v)
        widen_versions(gv, v);
    set_add(fld(gv, AG_DEVICES), json_string_value(json_object_get(tags, "device")));
    json_t *tr = fld(gv, AG_TRACES);
    if (!json_array_size(tr) || json_integer_value(json_array_get(tr, json_array_size(tr) - 1)) != trace)
        json_array_append_new(tr, json_integer(trace));
    return 0;
}

static int by_count(const void *x, const void *y)
{
    const gd_value *a = ((const anr_group *)x)->v, *b = ((const anr_group *)y)->v;
    int64_t ca = a[AG_COUNT].u.i, cb = b[AG_COUNT].u.i;
    if (ca != cb)
        return ca > cb ? -1 : 1;
    json_int_t ia = json_integer_value(fld(a, AG_ID)), ib = json_integer_value(fld(b, AG_ID));
    return ia < ib ? -1 : ia > ib;
}

int gd_query_anr_groups(gd_store *s, const gd_anr_query *q, gd_row_fn fn, void *ctx, gd_error *err)
{
    anr_group_acc g = {.s = s, .by = json_object(), .traces = json_object()};
    gd_anr_query all = *q;
    all.all = 1;
    all.counts = NULL;
    int rc = gd_query_anr_list(s, &all, group_row, &g, err);
    if (!rc && g.oom)
        rc = gd_error_oom(err);
    if (!rc)
        gd_sort(g.g, g.n, sizeof *g.g, by_count);
    for (size_t i = 0; !rc && i < g.n; i++) {
        json_t *row = gd_qcols_json(&anr_group_cols, g.g[i].v);
        int stop = row ? fn(ctx, row) : (rc = gd_error_oom(err));
        json_decref(row);
        if (stop)
            break;
    }
    for (size_t i = 0; i < g.n; i++)
        gd_qcols_clear(&anr_group_cols, g.g[i].v);
    free(g.g);
    json_decref(g.by);
    json_decref(g.traces);
    return rc;
}
