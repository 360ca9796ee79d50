/* top.c - what to fix first: ANRs, block groups, slow launches, janky frames
 * and main-thread lock contention in one list, ranked by the time users lost. */
#include "core/row.h"
#include "query/blocks.h"
#include "query/frames.h"
#include "query/issues.h"
#include "query/startup.h"
#include "query/top.h"

#include "analysis/app.h"
#include "query/apps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/frames.h"
#include "analysis/vitals.h"
#include "core/util.h"
#include "store/sql.h"

enum { GD_TOP_COLS(GD_QC_ID, GD_QC_ID) TP_NCOLS };
GD_QCOLS_DEFINE(top_cols, GD_TOP_COLS);

/* #48: an ANR entry's anr_rank (by_rank), declared once. */
#define ANR_RANK_COLS(X, J)                                  \
    X(AR_DEADLOCK, NULL, "main_deadlock", NULL, BOOL, 0)      \
    X(AR_RECORD, NULL, "record", NULL, BOOL, 0)               \
    X(AR_USER, NULL, "user_perceived", NULL, BOOL, 0)         \
    X(AR_BLOCKED, NULL, "blocked_ms", NULL, NUM, 0)           \
    X(AR_SEQ, NULL, "seq", NULL, INT, 0)
enum { ANR_RANK_COLS(GD_QC_ID, GD_QC_ID) AR_NCOLS };
GD_QCOLS_DEFINE(anr_rank_cols, ANR_RANK_COLS);

/* One entry (GD_TOP_COLS) being ranked. */
typedef struct top_entry {
    const char *kind;
    int tier;
    double score;            /* NAN: null                                   */
    json_t *trace;           /* an integer, or NULL (null)                  */
    json_t *title, *command; /* JSON strings                                */
    json_t *evidence;
    json_t *process;         /* the evidence's (a string), or NULL (null)   */
    int ranked;              /* an ANR: the fields below are its anr_rank   */
    int main_deadlock, record, user_perceived;
    double blocked_ms;       /* NAN: null                                   */
    int64_t seq;
    const char *focus;       /* NULL: no focus field                        */
    int64_t rank;
} top_entry;

/* #48: one ANR group of dumps (name_anr_groups): its entry, the length of
 * the entry's title's head, how many dumps in which traces. */
typedef struct anr_sig {
    size_t index;
    int head;
    int64_t count;
    json_t *traces, *signature;
} anr_sig;

/* The entries gathered so far and what scoring needs. */
typedef struct top_acc {
    gd_store *s;
    top_entry *e;
    size_t n, cap;
    json_t *dumps_of_blocks; /* "trace/pid/ts_ms" of the ANR dumps an ANR block entry names */
    const char *set;         /* the selected traces, "(SELECT id FROM trace ...)" */
    double minutes;     /* of capture, over the selected traces (>= 1/60) */
    json_t *anr_groups; /* group -> number of ANR-kind blocks in it        */
    gd_error *err;
    json_t *anr_sig_of; /* #48: "what|process|signature" -> its index in sigs */
    anr_sig *sigs;
    size_t nsigs, capsigs;
} top_acc;

static const char *str(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* #47: names the process an entry is about in its evidence (NULL: none). */
static void set_process(json_t *evidence, const char *process)
{
    if (evidence && process && *process)
        json_object_set_new(evidence, "process", json_string(process));
}

static void entry_free(top_entry *e)
{
    json_decref(e->trace);
    json_decref(e->title);
    json_decref(e->command);
    json_decref(e->evidence);
    json_decref(e->process);
}

/* Appends one entry; steals trace and evidence.  Its "process" is the
 * evidence's (set_process), else null. */
static int add(top_acc *a, const char *kind, int tier, double lost_ms, json_t *trace,
               const char *title, json_t *evidence, const char *command)
{
    double score = lost_ms / a->minutes; /* NAN: not measured in time (a dump) */
    if (!isfinite(lost_ms) && tier == 0)
        score = NAN; /* an ANR without a duration says "ANR", never 0 ms/min */
    if (gd_grow((void **)&a->e, &a->cap, a->n + 1, sizeof *a->e, a->err)) {
        json_decref(trace);
        json_decref(evidence);
        return a->err->code;
    }
    json_t *proc = json_object_get(evidence, "process");
    top_entry *e = &a->e[a->n++];
    /* title and command hold names read from the database: mended, so a
     * NULL here is out of memory (#53 item 1) */
    *e = (top_entry){.kind = kind, .tier = tier, .score = isfinite(score) ? round(score * 10) / 10 : NAN,
                     .trace = json_is_integer(trace) ? trace : (json_decref(trace), NULL),
                     .title = gd_json_str(title), .command = gd_json_str(command), .evidence = evidence,
                     .process = json_is_string(proc) ? json_incref(proc) : NULL, .blocked_ms = NAN};
    if (!e->title || !e->command || !e->evidence)
        return gd_error_oom(a->err);
    return 0;
}

/* The entry's row (GD_TOP_COLS; NULL when out of memory). */
static json_t *entry_row(const top_acc *a, const top_entry *e)
{
    gd_value v[TP_NCOLS], r[AR_NCOLS];
    gd_qv_text(&v[TP_KIND], e->kind);
    gd_qv_int(&v[TP_TIER], e->tier);
    if (isnan(e->score))
        gd_qv_null(&v[TP_SCORE]);
    else
        gd_qv_real(&v[TP_SCORE], e->score);
    gd_qv_real(&v[TP_CAPTURE], round(a->minutes * 1000) / 1000);
    gd_qv_json(&v[TP_TRACE], e->trace); /* borrowed, as every JSON value below */
    gd_qv_json(&v[TP_TITLE], e->title);
    gd_qv_json(&v[TP_EVIDENCE], e->evidence);
    gd_qv_json(&v[TP_COMMAND], e->command);
    gd_qv_json(&v[TP_PROCESS], e->process);
    gd_qv_bool(&r[AR_DEADLOCK], e->main_deadlock);
    gd_qv_bool(&r[AR_RECORD], e->record);
    gd_qv_bool(&r[AR_USER], e->user_perceived);
    if (isnan(e->blocked_ms))
        gd_qv_null(&r[AR_BLOCKED]);
    else
        gd_qv_real(&r[AR_BLOCKED], e->blocked_ms);
    gd_qv_int(&r[AR_SEQ], e->seq);
    json_t *rank = e->ranked ? gd_qcols_json(&anr_rank_cols, r) : NULL;
    if (e->ranked && !rank)
        return NULL;
    if (rank)
        gd_qv_json(&v[TP_ANR_RANK], rank);
    else
        gd_qv_absent(&v[TP_ANR_RANK]);
    if (e->focus)
        gd_qv_text(&v[TP_FOCUS], e->focus);
    else
        gd_qv_absent(&v[TP_FOCUS]);
    gd_qv_int(&v[TP_RANK], e->rank);
    json_t *row = gd_qcols_json(&top_cols, v);
    json_decref(rank);
    return row;
}

/* The innermost frame worth naming: the key frame, else the blame, else
 * the Looper message. */
static const char *place_of(json_t *b)
{
    const char *k = str(b, "key_frame");
    if (k && *k)
        return k;
    json_t *bl = json_object_get(b, "blame");
    if (json_is_string(bl) && *json_string_value(bl))
        return json_string_value(bl);
    if (json_is_object(bl) && str(bl, "method"))
        return str(bl, "method");
    k = str(b, "msg");
    return k && *k ? k : "(no key frame, no message)";
}

/* #48: what ranks an entry among the ANRs (tier 0; by_rank): a main
 * thread in a deadlock first, then the ANRs of record, then dumps whose
 * main waits in app code; user-perceived types first; the longest blocked
 * (where the capture says how long) first; never by name. */
static void anr_rank(top_acc *a, int record, int user_perceived, int main_deadlock, double blocked_ms)
{
    top_entry *e = &a->e[a->n - 1];
    e->ranked = 1;
    e->main_deadlock = main_deadlock;
    e->record = record;
    e->user_perceived = user_perceived;
    e->blocked_ms = isfinite(blocked_ms) ? blocked_ms : NAN;
    e->seq = (int64_t)a->n;
}

/* An ANR-kind block: the main thread did not come back for 5 s. */
static int on_anr_block(void *ctx, json_t *b)
{
    top_acc *a = ctx;
    double dur = num(b, "duration_ms");
    char title[1400], cmd[96];
    /* #47: every title names its process */
    const char *bp = str(b, "process");
    snprintf(title, sizeof title, "ANR%s%.200s: the main thread was blocked %.0f ms in %.1100s", bp ? " of " : "",
             bp ? bp : "", dur, place_of(b));
    long long trace = (long long)json_integer_value(json_object_get(b, "trace"));
    snprintf(cmd, sizeof cmd, "godeye blocks --kind anr --trace %lld", trace);
    const char *g = str(b, "group");
    if (g) {
        json_int_t n = json_integer_value(json_object_get(a->anr_groups, g));
        json_object_set_new(a->anr_groups, g, json_integer(n + 1));
    }
    json_t *ev = json_pack("{s:O s:f s:O s:O s:O s:O s:O}", "block", json_object_get(b, "id"),
                           "duration_ms", dur, "key_frame", json_object_get(b, "key_frame"), "msg",
                           json_object_get(b, "msg"), "thread", json_object_get(b, "thread"),
                           "samples", json_object_get(b, "samples"), "dominant_state",
                           json_object_get(b, "dominant_state") ? json_object_get(b, "dominant_state")
                                                                : json_null());
    set_process(ev, str(b, "process"));
    /* the ANR dump of the same freeze joins this entry (GD_SQL_DUMP_OF_BLOCK) */
#define BLOCK_DUMP_COLS(X) X(V_PID, "v.pid AS pid") X(V_TS, "v.ts_ms AS ts_ms") X(V_PROCESS, "v.process AS process")
    enum { V_TRACE = 0, BLOCK_DUMP_COLS(GD_COL_ENUM) V_NCOLS };
    char sql[5000];
    snprintf(sql, sizeof sql,
             "SELECT v.trace AS trace" BLOCK_DUMP_COLS(GD_COL_SQL) " FROM anr_dump v"
             " JOIN dispatch d ON d.id = ?1"
             " JOIN trace t ON t.id = d.trace WHERE v.trace IN %s AND " GD_SQL_DUMP_OF_BLOCK("v", "d", "t")
             " ORDER BY v.ts_ms LIMIT 1", a->set);
    sqlite3_stmt *q = gd_store_prepare(a->s, sql, a->err);
    if (!q)
        return a->err->code ? a->err->code : GD_ERR_IO;
    sqlite3_bind_int64(q, 1, json_integer_value(json_object_get(b, "id")));
    if (sqlite3_step(q) == SQLITE_ROW) {
        char key[96];
        snprintf(key, sizeof key, "%lld/%lld/%.3f", (long long)sqlite3_column_int64(q, V_TRACE),
                 (long long)sqlite3_column_int64(q, V_PID), sqlite3_column_double(q, V_TS));
        /* the entry this block is about to be (add below): a dump of a
         * main-thread deadlock ranks it first (on_anr_dump) */
        json_object_set_new(a->dumps_of_blocks, key, json_integer((json_int_t)a->n));
        json_object_set_new(ev, "dump", json_pack("{s:I s:I s:f s:s?}", "trace", (json_int_t)sqlite3_column_int64(q, V_TRACE),
                                                  "pid", (json_int_t)sqlite3_column_int64(q, V_PID), "ts_ms",
                                                  sqlite3_column_double(q, V_TS), "process",
                                                  (const char *)sqlite3_column_text(q, V_PROCESS)));
        size_t tl = strlen(title);
        snprintf(title + tl, sizeof title - tl, " (its ANR dump: trace %lld)", (long long)sqlite3_column_int64(q, V_TRACE));
    }
    sqlite3_finalize(q);
    int rc = add(a, "anr", 0, dur, json_incref(json_object_get(b, "trace")), title, ev, cmd);
    if (!rc) /* #48: a main thread blocked past the ANR threshold: what a user sees */
        anr_rank(a, 1, 1, 0, dur);
    return rc;
}

/* A dump counts when it is the ANR (its row's `anr`: the anr_dump view's
 * rule, godeye-anr(1)); a snapshot never does. */
static int dump_is_anr(json_t *d)
{
    return json_is_true(json_object_get(d, "anr"));
}

/* #48: joins dump d to the entry of its group when there is one (1). */
static int join_anr_group(top_acc *a, json_t *d, const char *key)
{
    json_t *at = json_object_get(a->anr_sig_of, key);
    if (!at)
        return 0;
    anr_sig *g = &a->sigs[json_integer_value(at)];
    top_entry *e = &a->e[g->index];
    json_t *tr = g->traces;
    g->count++;
    if (json_integer_value(json_array_get(tr, json_array_size(tr) - 1)) != json_integer_value(json_object_get(d, "trace")))
        json_array_append(tr, json_object_get(d, "trace"));
    if (json_is_true(json_object_get(d, "user_perceived")))
        e->user_perceived = 1;
    double w = num(d, "waited_ms");
    if (isfinite(w) && !(e->blocked_ms >= w))
        e->blocked_ms = w;
    return 1;
}

/* #48: a new group of one dump, its entry the last one. */
static int new_anr_group(top_acc *a, json_t *d, const char *key, int head)
{
    if (gd_grow((void **)&a->sigs, &a->capsigs, a->nsigs + 1, sizeof *a->sigs, a->err))
        return a->err->code;
    anr_sig *g = &a->sigs[a->nsigs];
    *g = (anr_sig){a->n - 1, head, 1, json_pack("[O]", json_object_get(d, "trace")),
                   json_incref(json_object_get(d, "signature"))};
    if (!g->traces || json_object_set_new(a->anr_sig_of, key, json_integer((json_int_t)a->nsigs)))
        return gd_error_oom(a->err);
    a->nsigs++;
    return 0;
}

/* An ANR dump entry's evidence, declared once. */
#define DUMP_EVIDENCE_COLS(X, J)                          \
    X(DE_PID, NULL, "pid", NULL, INT, 0)                  \
    X(DE_STATE, NULL, "state", NULL, TEXT, 0)             \
    X(DE_LOCK, NULL, "lock", NULL, TEXT, 0)               \
    X(DE_HELD_BY, NULL, "held_by", NULL, TEXT, 0)         \
    X(DE_DEADLOCK, NULL, "deadlock", NULL, BOOL, 0)       \
    X(DE_WHERE, NULL, "where", NULL, TEXT, 0)             \
    X(DE_PROCESS, NULL, "process", NULL, TEXT, 0)         \
    X(DE_ID, NULL, "id", NULL, INT, 0)                    \
    X(DE_TYPE, NULL, "type", NULL, TEXT, 0)
enum { DUMP_EVIDENCE_COLS(GD_QC_ID, GD_QC_ID) DE_NCOLS };
GD_QCOLS_DEFINE(dump_evidence_cols, DUMP_EVIDENCE_COLS);

/* A process name as set_process names it: absent when none. */
static void process_field(gd_value *v, const char *process)
{
    if (process && *process)
        gd_qv_text(v, process);
    else
        gd_qv_absent(v);
}

static json_t *dump_evidence(json_t *d, const char *state, const char *lock, const char *holder)
{
    gd_value v[DE_NCOLS];
    json_t *st = json_object_get(d, "main_stack");
    gd_qv_json(&v[DE_PID], json_object_get(d, "pid"));
    gd_qv_text(&v[DE_STATE], state);
    gd_qv_text(&v[DE_LOCK], lock);
    gd_qv_text(&v[DE_HELD_BY], holder);
    if (json_object_get(d, "deadlock"))
        gd_qv_json(&v[DE_DEADLOCK], json_object_get(d, "deadlock"));
    else
        gd_qv_bool(&v[DE_DEADLOCK], 0);
    gd_qv_json(&v[DE_WHERE], json_array_size(st) ? json_array_get(st, 0) : NULL);
    process_field(&v[DE_PROCESS], str(d, "process"));
    gd_qv_json(&v[DE_ID], json_object_get(d, "id"));
    gd_qv_json(&v[DE_TYPE], json_object_get(d, "type"));
    return gd_qcols_json(&dump_evidence_cols, v);
}

static int on_anr_dump(void *ctx, json_t *d)
{
    top_acc *a = ctx;
    /* #48: a main thread in a deadlock, or waiting in app code at a dump,
     * is listed even when the dump is not the ANR of record */
    /* a cross-process cycle main waits on (every edge proven) is a deadlock too */
    int record = dump_is_anr(d), dl = json_is_true(json_object_get(d, "main_deadlock")) ||
                                      json_is_true(json_object_get(d, "cross_process_cycle"));
    if (!record && !dl && !json_is_true(json_object_get(d, "main_waits_in_app")))
        return 0;
    char id[96];
    snprintf(id, sizeof id, "%lld/%lld/%.3f", (long long)json_integer_value(json_object_get(d, "trace")),
             (long long)json_integer_value(json_object_get(d, "pid")), num(d, "ts_ms"));
    json_t *blk = json_object_get(a->dumps_of_blocks, id);
    if (blk) { /* listed with the ANR block of the same freeze */
        top_entry *e = &a->e[json_integer_value(blk)];
        if (dl && e->ranked)
            e->main_deadlock = 1;
        return 0;
    }
    /* #48: the same ANR in many dumps is one entry (its group: the row's
     * signature, gd_query_anr_groups, of one process and one role) */
    const char *what = record ? "ANR dump" : dl ? "deadlock in a dump" : "frozen main in a dump";
    char key[2400];
    snprintf(key, sizeof key, "%s|%.200s|%.2000s", what, str(d, "process") ? str(d, "process") : "",
             str(d, "signature") ? str(d, "signature") : "");
    if (join_anr_group(a, d, key))
        return 0;
    json_t *m = json_object_get(d, "main");
    char title[1400], cmd[96];
    const char *state = m ? str(m, "state") : NULL;
    const char *lock = m ? str(m, "lock") : NULL;
    const char *holder = m ? str(m, "held_by_name") : NULL;
    const char *proc = str(d, "process");
    /* a main thread the OS renamed ("samples.android") is named */
    char mst[200];
    const char *mname = json_is_object(m) ? str(m, "name") : NULL;
    snprintf(mst, sizeof mst, "%s%.60s%s%.40s", mname && strcmp(mname, "main") != 0 ? "(" : "",
             mname && strcmp(mname, "main") != 0 ? mname : "", mname && strcmp(mname, "main") != 0 ? ") " : "",
             state ? state : json_is_object(m) ? "state not given" : "(no main thread)");
    const char *tl = str(d, "type_label");
    int n = snprintf(title, sizeof title, "%s%s%s%s of %.200s: main %s", what, tl ? " (" : "", tl ? tl : "",
                     tl ? ")" : "", proc ? proc : "pid", mst);
    if (!proc)
        n = snprintf(title, sizeof title, "%s%s%s%s of pid %lld: main %s", what, tl ? " (" : "", tl ? tl : "",
                     tl ? ")" : "", (long long)json_integer_value(json_object_get(d, "pid")), mst);
    int head = n > 0 ? (int)strlen(title) - (int)strlen(": main ") - (int)strlen(mst) : 0;
    if (lock && n > 0 && (size_t)n < sizeof title)
        n += snprintf(title + n, sizeof title - (size_t)n, " on %.300s", lock);
    if (holder && n > 0 && (size_t)n < sizeof title)
        n += snprintf(title + n, sizeof title - (size_t)n, " held by %.200s", holder);
    if (json_is_true(json_object_get(d, "deadlock")) && n > 0 && (size_t)n < sizeof title)
        n += snprintf(title + n, sizeof title - (size_t)n, " (deadlock)");
    if (json_is_true(json_object_get(d, "cross_process_cycle")) && n > 0 && (size_t)n < sizeof title)
        snprintf(title + n, sizeof title - (size_t)n, " (binder %.200s)", str(d, "binder_reason") ? str(d, "binder_reason") : "cycle");
    /* a dump has no duration: no score ("ANR"); its reason may say how long main was waited for */
    snprintf(cmd, sizeof cmd, "godeye anr --id %lld", (long long)json_integer_value(json_object_get(d, "id")));
    int rc = add(a, "anr_dump", 0, NAN, json_incref(json_object_get(d, "trace")), title,
                 dump_evidence(d, state, lock, holder), cmd);
    if (!rc)
        anr_rank(a, record, json_is_true(json_object_get(d, "user_perceived")), dl, num(d, "waited_ms"));
    return rc ? rc : new_anr_group(a, d, key, head);
}

/* #48: each ANR group of more than one dump says its count in its title
 * ("ANR dump of com.example.shop (10 dumps in 10 captures): main ...")
 * and carries the group in its evidence: {signature, count, traces}. */
static int name_anr_groups(top_acc *a)
{
    for (size_t i = 0; i < a->nsigs; i++) {
        anr_sig *g = &a->sigs[i];
        top_entry *e = &a->e[g->index];
        json_t *tr = g->traces;
        if (json_object_set_new(e->evidence, "group",
                                json_pack("{s:O s:I s:O}", "signature", g->signature ? g->signature : json_null(),
                                          "count", (json_int_t)g->count, "traces", tr)))
            return gd_error_oom(a->err);
        if (g->count < 2)
            continue;
        const char *t = json_string_value(e->title);
        size_t head = (size_t)g->head;
        char title[1600];
        snprintf(title, sizeof title, "%.*s (%lld dumps in %zu capture%s)%s", (int)head, t, (long long)g->count,
                 json_array_size(tr), json_array_size(tr) == 1 ? "" : "s", t + head);
        json_decref(e->title);
        if (!(e->title = json_string(title)))
            return gd_error_oom(a->err);
    }
    return 0;
}

static int on_group(void *ctx, json_t *g)
{
    top_acc *a = ctx;
    const char *name = str(g, "group");
    json_int_t count = json_integer_value(json_object_get(g, "count"));
    json_int_t anrs = name ? json_integer_value(json_object_get(a->anr_groups, name)) : 0;
    if (count <= anrs) /* every block of it is listed as an ANR already */
        return 0;
    double total = num(g, "total_ms");
    char title[1400];
    const char *kf = str(g, "key_frame");
    const char *gp = str(g, "process"); /* #47: the title names it */
    snprintf(title, sizeof title, "%lld main-thread block%s%s%.200s, %.0f ms in all (p95 %.0f ms)%s: %.1000s",
             (long long)count, count == 1 ? "" : "s", gp ? " of " : "", gp ? gp : "", total, num(g, "p95_ms"),
             anrs ? " incl. an ANR" : "", kf ? kf : name ? name : "(no app frame, no handler, no name)");
    json_t *ev = json_pack("{s:O s:O s:I s:f s:O s:O s:O}", "group", json_object_get(g, "group"), "key_frame",
                           json_object_get(g, "key_frame"), "count", count, "total_ms", total, "p95_ms",
                           json_object_get(g, "p95_ms"), "max_ms", json_object_get(g, "max_ms"), "traces",
                           json_object_get(g, "traces"));
    set_process(ev, str(g, "process"));
    return add(a, "block_group", 1, total, NULL, title, ev, "godeye blocks --group");
}

/* Slow launches by (trace, app, activity, kind): time over the bar. */
typedef struct launch {
    json_t *trace, *app, *activity; /* as the launch rows hold them */
    char *kind;
    int64_t count;
    double worst_ms, over_ms, bar_ms;
} launch;

/* A slow launch group's evidence (and the groups' accumulator's fields), declared once. */
#define LAUNCH_EVIDENCE_COLS(X, J)                        \
    X(LE_KIND, NULL, "kind", NULL, TEXT, 0)               \
    X(LE_GRADED, NULL, "graded_as", NULL, TEXT, 0)        \
    X(LE_COUNT, NULL, "count", NULL, INT, 0)              \
    X(LE_WORST, NULL, "worst_ms", NULL, NUM, 0)           \
    X(LE_BAR, NULL, "bar_ms", NULL, NUM, 0)               \
    X(LE_OVER, NULL, "over_ms", NULL, NUM, 0)             \
    X(LE_APP, NULL, "app", NULL, TEXT, 0)                 \
    X(LE_PROCESS, NULL, "process", NULL, TEXT, 0)         \
    X(LE_ACTIVITY, NULL, "activity", NULL, TEXT, 0)
enum { LAUNCH_EVIDENCE_COLS(GD_QC_ID, GD_QC_ID) LE_NCOLS };
GD_QCOLS_DEFINE(launch_evidence_cols, LAUNCH_EVIDENCE_COLS);

/* Groups of one key each (launches, lock waits): key text -> index in
 * the caller's array g of n (cap) elements of elem bytes, the first
 * failure, and what releases an element's own values. */
typedef struct groups {
    json_t *at;
    void *g;
    size_t n, cap, elem;
    int oom;
    void (*drop)(void *);
} groups;

static void groups_free(groups *by)
{
    for (size_t i = 0; i < by->n; i++)
        by->drop((char *)by->g + i * by->elem);
    free(by->g);
    json_decref(by->at);
}

/* The index of key's group, or n when it is new (grown to hold it:
 * the caller fills it); (size_t)-1 when out of memory. */
static size_t group_index(groups *gs, const char *key)
{
    size_t elem = gs->elem;
    json_t *at = json_object_get(gs->at, key);
    if (at)
        return (size_t)json_integer_value(at);
    if (gd_grow(&gs->g, &gs->cap, gs->n + 1, elem, NULL) ||
        json_object_set_new(gs->at, key, json_integer((json_int_t)gs->n))) {
        gs->oom = 1;
        return (size_t)-1;
    }
    memset((char *)gs->g + gs->n * elem, 0, elem);
    return gs->n++;
}

static int on_startup(void *ctx, json_t *l)
{
    groups *la = ctx;
    if (!json_is_true(json_object_get(l, "slow")))
        return 0;
    /* the bar of the kind startup graded it as (cold for an unknown kind,
     * analysis/vitals.h): the row's slow says it is over */
    const char *kind = str(l, "kind");
    double bar = gd_startup_bar_ms(str(l, "graded_as")), total = num(l, "total_ms");
    if (!isfinite(bar) || !isfinite(total))
        return 0;
    char key[1200];
    snprintf(key, sizeof key, "%lld|%.400s|%.400s|%s", (long long)json_integer_value(json_object_get(l, "trace")),
             str(l, "app") ? str(l, "app") : "", str(l, "activity") ? str(l, "activity") : "", kind ? kind : "");
    size_t n = la->n, i = group_index(la, key);
    if (i == (size_t)-1)
        return 1;
    launch *e = &((launch *)la->g)[i];
    if (i == n) {
        *e = (launch){json_incref(json_object_get(l, "trace")), json_incref(json_object_get(l, "app")),
                      json_incref(json_object_get(l, "activity")), kind ? strdup(kind) : NULL, 0, 0.0, 0.0, bar};
        if (kind && !e->kind)
            return la->oom = 1;
    }
    e->count++;
    if (total > e->worst_ms)
        e->worst_ms = total;
    e->over_ms += total - bar;
    return 0;
}

static json_t *launch_evidence(const launch *e)
{
    gd_value v[LE_NCOLS];
    gd_qv_text(&v[LE_KIND], e->kind);
    gd_qv_text(&v[LE_GRADED], gd_startup_graded_kind(e->kind));
    gd_qv_int(&v[LE_COUNT], e->count);
    gd_qv_real(&v[LE_WORST], e->worst_ms);
    gd_qv_real(&v[LE_BAR], e->bar_ms);
    gd_qv_real(&v[LE_OVER], e->over_ms);
    gd_qv_json(&v[LE_APP], e->app);
    process_field(&v[LE_PROCESS], json_string_value(e->app));
    /* the launches' activity (null: none named), as explain selects them */
    gd_qv_json(&v[LE_ACTIVITY], e->activity);
    return gd_qcols_json(&launch_evidence_cols, v);
}

static int add_launches(top_acc *a, groups *by)
{
    for (size_t i = 0; i < by->n; i++) {
        const launch *e = &((launch *)by->g)[i];
        char title[1200], cmd[600];
        const char *app = json_string_value(e->app), *act = json_string_value(e->activity);
        char kind[64] = "", graded[64] = "";
        if (e->kind)
            snprintf(kind, sizeof kind, "%.40s ", e->kind);
        else
            snprintf(graded, sizeof graded, " (kind unknown, graded as %s)", gd_startup_graded_kind(NULL));
        snprintf(title, sizeof title, "%slaunch of %.300s%s%.300s%s: %.0f ms, over the %.0f ms bar (%lld launch%s)",
                 kind, app ? app : "the app", act ? "/" : "", act ? act : "", graded, e->worst_ms, e->bar_ms,
                 (long long)e->count, e->count == 1 ? "" : "es");
        snprintf(cmd, sizeof cmd, "godeye startup --trace %lld", (long long)json_integer_value(e->trace));
        int rc = add(a, "startup", 1, e->over_ms, json_incref(e->trace), title, launch_evidence(e), cmd);
        if (rc)
            return rc;
    }
    return 0;
}

static void launch_drop(void *p)
{
    launch *e = p;
    json_decref(e->trace);
    json_decref(e->app);
    json_decref(e->activity);
    free(e->kind);
}

/* Janky frames per window: the time past each slow frame's deadline; its
 * columns after trace (J_TRACE). */
#define JANK_COLS(X)                                                                          \
    X(J_WINDOW, "window AS window") X(J_N, "count(*) AS n")                                      \
    X(J_SLOW, "sum(dur_ms > ?1 AND " GD_SQL_FRAME_TIMED ") AS slow")                              \
    X(J_FROZEN, "sum(dur_ms > ?2 AND " GD_SQL_FRAME_TIMED ") AS frozen")                          \
    X(J_LOST, "sum(CASE WHEN " GD_SQL_FRAME_TIMED " THEN max(dur_ms - ?1, 0) ELSE 0 END) AS lost") \
    X(J_PID, "max(CASE WHEN pid > 0 THEN pid END) AS pid")
enum { J_TRACE = 0, JANK_COLS(GD_COL_ENUM) J_NCOLS };
/* A window with slow frames, added as an entry (gd_store_each's callback). */
static int jank_row(void *ctx, sqlite3_stmt *q)
{
    top_acc *a = ctx;
    long long trace = sqlite3_column_int64(q, J_TRACE), n = sqlite3_column_int64(q, J_N),
              slow = sqlite3_column_int64(q, J_SLOW), frozen = sqlite3_column_int64(q, J_FROZEN);
    const char *win = (const char *)sqlite3_column_text(q, J_WINDOW);
    double lost = sqlite3_column_double(q, J_LOST);
    char title[1300], cmd[64];
    /* #47: whose frames: their pid's process (the trace's app without one) */
    char proc[256];
    if (gd_query_process_of(a->s, trace, sqlite3_column_type(q, J_PID) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, J_PID),
                            proc, sizeof proc, a->err))
        return a->err->code;
    /* the title names the process when the window does not */
    int named = !*proc || (win && strstr(win, proc));
    snprintf(title, sizeof title, "frames %s%.250s%sof %.600s: %lld of %lld slow (%.1f%%), %lld frozen",
             named ? "" : "(", named ? "" : proc, named ? "" : ") ", win ? win : "the app", slow, n,
             100.0 * (double)slow / (double)n, frozen);
    snprintf(cmd, sizeof cmd, "godeye frames --trace %lld", trace);
    json_t *ev = json_pack("{s:s s:o s:I s:I s:I s:f}", "source", "godeye", "window", gd_json_str(win), "frames",
                           (json_int_t)n, "slow", (json_int_t)slow, "frozen", (json_int_t)frozen,
                           "lost_ms", round(lost * 1000) / 1000);
    set_process(ev, proc);
    return add(a, "frames", 1, lost, json_integer(trace), title, ev, cmd);
}

static int add_frames(gd_store *s, top_acc *a, const char *set)
{
    char sql[4600];
    snprintf(sql, sizeof sql,
             "SELECT * FROM (SELECT trace AS trace" JANK_COLS(GD_COL_SQL) " FROM frame_time"
             " WHERE trace IN %s AND " GD_APP_FRAMES_SHOWN_SQL " GROUP BY trace, window HAVING slow > 0) g"
             " WHERE NOT " GD_SQL_DEVICE_LEADS("g.trace", "g.window", "g.pid"),
             set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, a->err);
    if (!q)
        return a->err->code ? a->err->code : GD_ERR_IO;
    sqlite3_bind_double(q, 1, GD_FRAME_VSYNC_MS);
    sqlite3_bind_double(q, 2, GD_FRAME_FROZEN_MS);
    return gd_store_each(s, q, jank_row, a, a->err);
}

/* #51: frames known from the device's summary alone, where its figures
 * lead (GD_SQL_DEVICE_LEADS: every frame row of the summary's scope is a
 * placeholder, or it has none): a window's "Window:" summary, or a
 * process's when none of its windows printed one; ranked by the time past
 * the interval in its HISTOGRAM (gd_frame_histogram), titled with the
 * device's own "Janky frames". */
#define DEVICE_COLS(X)                                                                               \
    X(DS_WINDOW, "s.window AS window") X(DS_PID, "e.pid AS pid")                                      \
    X(DS_TOTAL, "(SELECT value FROM frame_figure x WHERE x.summary = s.id"                            \
                " AND x.name = 'Total frames rendered') AS total")                                   \
    X(DS_JANKY, "(SELECT value FROM frame_figure x WHERE x.summary = s.id AND x.name = 'Janky frames') AS janky") \
    X(DS_HIST, "(SELECT value FROM frame_figure x WHERE x.summary = s.id AND x.name = 'HISTOGRAM') AS hist")
enum { DS_TRACE = 0, DEVICE_COLS(GD_COL_ENUM) DS_NCOLS };
static int device_row(void *ctx, sqlite3_stmt *q)
{
    top_acc *a = ctx;
    gd_frame_hist h;
    if (gd_frame_histogram((const char *)sqlite3_column_text(q, DS_HIST), &h) || h.slow == 0)
        return GD_OK; /* no time lost to rank it by */
    long long trace = sqlite3_column_int64(q, DS_TRACE);
    const char *win = (const char *)sqlite3_column_text(q, DS_WINDOW);
    double pct, janky = gd_frame_figure_number((const char *)sqlite3_column_text(q, DS_JANKY), &pct),
                total = gd_frame_figure_number((const char *)sqlite3_column_text(q, DS_TOTAL), NULL);
    char proc[256], title[1400], said[96], cmd[64];
    if (gd_query_process_of(a->s, trace, sqlite3_column_type(q, DS_PID) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, DS_PID),
                            proc, sizeof proc, a->err))
        return a->err->code;
    said[0] = '\0';
    if (isfinite(janky) && isfinite(total))
        snprintf(said, sizeof said, "%.0f of %.0f janky (%.2f%%), ", janky, total, pct);
    snprintf(title, sizeof title,
             "frames of %.600s%s%.250s, the device's summary: %shistogram %lld of %lld over %.2f ms, %lld frozen",
             win ? win : *proc ? proc : "the app", win && *proc && !strstr(win, proc) ? " in " : "",
             win && *proc && !strstr(win, proc) ? proc : "", said, (long long)h.slow, (long long)h.frames,
             GD_FRAME_VSYNC_MS, (long long)h.frozen);
    snprintf(cmd, sizeof cmd, "godeye frames --trace %lld --summary", trace);
    /* the device's own figures as printed, left out where it printed none */
    json_t *ev = json_pack("{s:s s:o s:I s:I s:I s:f s:o* s:o* s:o*}", "source", "device", "window", gd_json_str(win),
                           "frames", (json_int_t)h.frames, "slow", (json_int_t)h.slow, "frozen", (json_int_t)h.frozen,
                           "lost_ms", round(h.lost_ms * 1000) / 1000, "device_frames",
                           isfinite(total) ? json_integer((json_int_t)total) : NULL, "device_janky",
                           isfinite(janky) ? json_integer((json_int_t)janky) : NULL, "device_janky_pct",
                           isfinite(pct) ? json_real(pct) : NULL);
    set_process(ev, proc);
    return add(a, "frames", 1, h.lost_ms, json_integer(trace), title, ev, cmd);
}

static int add_device_frames(gd_store *s, top_acc *a, const char *set)
{
    char sql[4600];
    snprintf(sql, sizeof sql,
             "SELECT s.trace AS trace" DEVICE_COLS(GD_COL_SQL) " FROM frame_summary s JOIN raw_event e ON e.id = s.id"
             " WHERE s.trace IN %s"
             " AND (s.window IS NOT NULL OR NOT EXISTS (SELECT 1 FROM frame_summary w JOIN raw_event we ON we.id = w.id"
             " WHERE w.trace = s.trace AND w.window IS NOT NULL AND we.pid IS e.pid"
             " AND EXISTS (SELECT 1 FROM frame_figure wf WHERE wf.summary = w.id AND wf.name = 'HISTOGRAM')))"
             " AND NOT EXISTS (SELECT 1 FROM frame_time t WHERE t.trace = s.trace"
             " AND (CASE WHEN s.window IS NULL THEN t.pid IS e.pid ELSE t.window IS s.window END)"
             " AND NOT " GD_SQL_FRAMES_PLACEHOLDER("t.trace", "t.window") ")"
             " ORDER BY s.id",
             set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, a->err);
    if (!q)
        return a->err->code ? a->err->code : GD_ERR_IO;
    return gd_store_each(s, q, device_row, a, a->err);
}

/* Main-thread lock contention by (owner, blocked method, owner's method):
 * a group's fields, its evidence, declared once. */
#define LOCK_COLS(X, J)                                           \
    X(LK_OWNER, NULL, "owner", NULL, TEXT, 0)                     \
    X(LK_BLOCKED, NULL, "blocked_method", NULL, TEXT, 0)          \
    X(LK_OWNER_METHOD, NULL, "owner_method", NULL, TEXT, 0)       \
    X(LK_COUNT, NULL, "count", NULL, INT, 0)                      \
    X(LK_TOTAL, NULL, "total_ms", NULL, NUM, 0)                   \
    X(LK_MAX, NULL, "max_ms", NULL, NUM, 0)
enum { LOCK_COLS(GD_QC_ID, GD_QC_ID) LK_NCOLS };
GD_QCOLS_DEFINE(lock_cols, LOCK_COLS);

typedef struct lock_group {
    json_t *owner, *blocked_method, *owner_method; /* as the findings hold them */
    char *process;  /* the waiting main thread's process (GD_SQL_PROCESS_OF), or NULL */
    int64_t count;
    double total_ms, max_ms;
} lock_group;

/* on_issue's context: the groups, the store that names a pid's process,
 * and the last pid named (a trace's waits come mostly from one process:
 * one look-up a run of them, not one a row) */
typedef struct lock_acc {
    groups *by;
    top_acc *a;
    int64_t trace, pid;
    char proc[512];
} lock_acc;

static int on_issue(void *ctx, json_t *i)
{
    lock_acc *lc = ctx;
    groups *la = lc->by;
    if (!str(i, "type") || strcmp(str(i, "type"), "lock_contention") != 0)
        return 0;
    json_t *c = json_object_get(i, "content");
    double dur = num(c, "dur_ms");
    if (!json_is_true(json_object_get(c, "main")) || !(dur > 0))
        return 0;
    /* #47: whose main thread waited: its pid's process, so --app keeps only
     * the app's (a lock of no known process stays) */
    json_t *pj = json_object_get(i, "pid");
    int64_t trace = json_integer_value(json_object_get(i, "trace"));
    int64_t pid = json_is_integer(pj) ? json_integer_value(pj) : -1;
    if (trace != lc->trace || pid != lc->pid) {
        if (gd_query_process_of(lc->a->s, trace, pid, lc->proc, sizeof lc->proc, lc->a->err))
            return 1;
        lc->trace = trace;
        lc->pid = pid;
    }
    const char *proc = lc->proc;
    char key[2400];
    snprintf(key, sizeof key, "%.300s|%.600s|%.700s|%.700s", proc, str(c, "owner") ? str(c, "owner") : "",
             str(c, "blocked_method") ? str(c, "blocked_method") : "",
             str(c, "owner_method") ? str(c, "owner_method") : "");
    size_t n = la->n, k = group_index(la, key);
    if (k == (size_t)-1)
        return 1;
    lock_group *e = &((lock_group *)la->g)[k];
    if (k == n)
        *e = (lock_group){json_incref(json_object_get(c, "owner")), json_incref(json_object_get(c, "blocked_method")),
                          json_incref(json_object_get(c, "owner_method")), proc[0] ? strdup(proc) : NULL, 0, 0.0,
                          0.0};
    e->count++;
    e->total_ms += dur;
    if (dur > e->max_ms)
        e->max_ms = dur;
    return 0;
}

static json_t *lock_evidence(const lock_group *e)
{
    gd_value v[LK_NCOLS];
    gd_qv_json(&v[LK_OWNER], e->owner);
    gd_qv_json(&v[LK_BLOCKED], e->blocked_method);
    gd_qv_json(&v[LK_OWNER_METHOD], e->owner_method);
    gd_qv_int(&v[LK_COUNT], e->count);
    gd_qv_real(&v[LK_TOTAL], e->total_ms);
    gd_qv_real(&v[LK_MAX], e->max_ms);
    return gd_qcols_json(&lock_cols, v);
}

static int add_locks(top_acc *a, groups *by)
{
    for (size_t i = 0; i < by->n; i++) {
        const lock_group *e = &((lock_group *)by->g)[i];
        const char *owner = json_string_value(e->owner), *om = json_string_value(e->owner_method),
                   *bm = json_string_value(e->blocked_method);
        char title[2400];
        snprintf(title, sizeof title,
                 "main%s%.300s waited for a lock held by %.200s (in %.600s): %lld time%s, %.0f ms in all, at %.600s",
                 e->process ? " of " : "", e->process ? e->process : "", owner ? owner : "another thread",
                 om ? om : "?", (long long)e->count, e->count == 1 ? "" : "s", e->total_ms, bm ? bm : "?");
        json_t *ev = lock_evidence(e);
        set_process(ev, e->process);
        int rc = add(a, "lock", 1, e->total_ms, NULL, title, ev, "godeye issues --tool android");
        if (rc)
            return rc;
    }
    return 0;
}

static void lock_drop(void *p)
{
    lock_group *e = p;
    free(e->process);
    json_decref(e->owner);
    json_decref(e->blocked_method);
    json_decref(e->owner_method);
}

/* #47 item 4: a trace with scheduling data but no app slices still
 * answers, from its thread states: the main thread of the app (--app, else
 * the trace's app: the process named so, pid = tid) of a trace where that
 * thread has no dispatch; its columns trace, pid, process, short_ms. */
#define TOP_MAIN_CTE                                                                              \
    "WITH m AS (SELECT t.id AS trace, th.pid AS pid, th.name AS process, t.short_ms AS short_ms" \
    " FROM trace t JOIN thread th ON th.trace = t.id AND th.tid = th.pid AND th.name = coalesce(?1, t.app)" \
    " WHERE t.id IN %s AND NOT EXISTS (SELECT 1 FROM dispatch d WHERE d.trace = t.id AND d.tid = th.pid)) "

/* The main thread's time by state: its columns after trace (M_TRACE). */
#define MSTATE_COLS(X)                                                                                   \
    X(M_PROCESS, "m.process AS process") X(M_PID, "m.pid AS pid")                                       \
    X(M_RUN, "total(CASE WHEN s.state = 'Running' THEN s.dur_ms END) AS running")                       \
    X(M_RQ, "total(CASE WHEN s.state IN ('R', 'R+') THEN s.dur_ms END) AS runnable")                    \
    X(M_S, "total(CASE WHEN s.state = 'S' THEN s.dur_ms END) AS sleeping")                              \
    X(M_D, "total(CASE WHEN s.state = 'D' THEN s.dur_ms END) AS uninterruptible")                       \
    X(M_ALL, "total(s.dur_ms) AS all_ms")
enum { M_TRACE = 0, MSTATE_COLS(GD_COL_ENUM) M_NCOLS };

static int mstate_row(void *ctx, sqlite3_stmt *q)
{
    top_acc *a = ctx;
    long long trace = sqlite3_column_int64(q, M_TRACE);
    const char *proc = (const char *)sqlite3_column_text(q, M_PROCESS);
    double run = sqlite3_column_double(q, M_RUN), rq = sqlite3_column_double(q, M_RQ),
           sl = sqlite3_column_double(q, M_S), d = sqlite3_column_double(q, M_D);
    char title[800], cmd[400];
    /* what it is scored by first: a cut title still says it (#47) */
    snprintf(title, sizeof title, "Runnable %.0f ms, D %.0f ms, Running %.0f ms, Sleeping %.0f ms of %.0f ms on the main "
             "thread (%.300s; no app slices: thread states)", rq, d, run, sl, sqlite3_column_double(q, M_ALL), proc);
    snprintf(cmd, sizeof cmd, "godeye threads --trace %lld --app %.300s", trace, proc);
    json_t *ev = json_pack("{s:I s:f s:f s:f s:f}", "pid", (json_int_t)sqlite3_column_int64(q, M_PID), "running_ms",
                           run, "runnable_ms", rq, "sleeping_ms", sl, "uninterruptible_ms", d);
    set_process(ev, proc);
    /* scored by the time main wanted the CPU or waited in D */
    return add(a, "main_states", 1, rq + d, json_integer(trace), title, ev, cmd);
}

/* Long stretches of one state on that main thread (at least the trace's
 * short block threshold), grouped like blocks by state, blocked function
 * and waker (a Runnable row's own; a Sleeping or D row's: the next row's). */
#define STRETCH_COLS(X)                                                                                 \
    X(S_PROCESS, "process AS process") X(S_STATE, "state AS state") X(S_FUNC, "func AS func")          \
    X(S_WAKER, "CASE wtid WHEN 0 THEN 'an interrupt' ELSE (SELECT w.name FROM thread w WHERE w.trace = x.trace" \
      " AND w.tid = x.wtid LIMIT 1) END AS waker")                                                      \
    X(S_N, "count(*) AS n") X(S_TOTAL, "total(dur_ms) AS total_ms") X(S_MAX, "max(dur_ms) AS max_ms")  \
    X(S_SHORT, "short_ms AS short_ms")
enum { S_TRACE = 0, STRETCH_COLS(GD_COL_ENUM) S_NCOLS };

static const char *state_label(const char *st)
{
    return !st ? "?" : !strcmp(st, "S") ? "Sleeping" : !strcmp(st, "D") ? "in D (uninterruptible)"
                       : !strcmp(st, "R+") ? "Runnable (preempted)" : !strcmp(st, "R") ? "Runnable" : st;
}

static int stretch_row(void *ctx, sqlite3_stmt *q)
{
    top_acc *a = ctx;
    long long trace = sqlite3_column_int64(q, S_TRACE), n = sqlite3_column_int64(q, S_N);
    const char *proc = (const char *)sqlite3_column_text(q, S_PROCESS), *st = (const char *)sqlite3_column_text(q, S_STATE),
               *fn = (const char *)sqlite3_column_text(q, S_FUNC), *wk = (const char *)sqlite3_column_text(q, S_WAKER);
    double total = sqlite3_column_double(q, S_TOTAL), mx = sqlite3_column_double(q, S_MAX);
    char title[1200], cmd[400];
    /* the state first: a cut title still says it (#47) */
    snprintf(title, sizeof title, "%s %lld time%s over %.0f ms on the main thread (%.300s), %.0f ms in all (longest %.1f ms)%s%.200s%s%.200s",
             state_label(st), n, n == 1 ? "" : "s", sqlite3_column_double(q, S_SHORT), proc, total, mx,
             fn ? " in " : "", fn ? fn : "", wk ? ", woken by " : "", wk ? wk : "");
    snprintf(cmd, sizeof cmd, "godeye threads --trace %lld --app %.300s", trace, proc);
    json_t *ev = json_pack("{s:s s:o s:o s:I s:f s:f}", "state", st ? st : "?", "blocked_function", gd_json_str(fn),
                           "waker", gd_json_str(wk), "count", (json_int_t)n, "total_ms", total, "max_ms", mx);
    set_process(ev, proc);
    /* a Sleeping stretch has no score: without app slices it cannot be
     * told from the looper waiting for work (idle) */
    return add(a, "main_state", 1, st && !strcmp(st, "S") ? NAN : total, json_integer(trace), title, ev, cmd);
}

/* That main thread's synchronous binder calls (the outermost, #53) by the
 * process called. */
#define BINDER_COLS(X)                                                                                  \
    X(C_PROCESS, "m.process AS process")                                                               \
    X(C_SERVER, "coalesce(b.server_process, 'pid ' || b.server_pid, 'an unknown process') AS server")  \
    X(C_N, "count(*) AS n") X(C_TOTAL, "total(b.dur_ms) AS total_ms") X(C_MAX, "max(b.dur_ms) AS max_ms")
enum { C_TRACE = 0, BINDER_COLS(GD_COL_ENUM) C_NCOLS };

static int binder_row(void *ctx, sqlite3_stmt *q)
{
    top_acc *a = ctx;
    long long trace = sqlite3_column_int64(q, C_TRACE), n = sqlite3_column_int64(q, C_N);
    const char *proc = (const char *)sqlite3_column_text(q, C_PROCESS), *srv = (const char *)sqlite3_column_text(q, C_SERVER);
    double total = sqlite3_column_double(q, C_TOTAL), mx = sqlite3_column_double(q, C_MAX);
    char title[900], cmd[64];
    snprintf(title, sizeof title, "main thread of %.300s in binder calls to %.300s: %lld call%s, %.0f ms in all (longest %.1f ms)",
             proc, srv, n, n == 1 ? "" : "s", total, mx);
    snprintf(cmd, sizeof cmd, "godeye sql \"SELECT * FROM binder_txn WHERE trace = %lld\"", trace);
    json_t *ev = json_pack("{s:s s:I s:f s:f}", "server", srv, "count", (json_int_t)n, "total_ms", total, "max_ms", mx);
    set_process(ev, proc);
    return add(a, "binder", 1, total, json_integer(trace), title, ev, cmd);
}

/* Runs one of the three statements above over the selected traces.  Each
 * reads m CROSS JOIN the big table (#50): m (a few rows, often none) first,
 * then that main thread's rows by their key (trace, tid); a plain JOIN let
 * the planner read every thread_state or binder row of the trace first and
 * look m's thread up for each (2.4 s on a 256 MB sched-heavy trace). */
static int states_query(top_acc *a, const char *app, const char *body, gd_step_fn fn)
{
    char sql[9000];
    snprintf(sql, sizeof sql, TOP_MAIN_CTE "%s", a->set, body);
    sqlite3_stmt *q = gd_store_prepare(a->s, sql, a->err);
    if (!q)
        return a->err->code ? a->err->code : GD_ERR_IO;
    if (app)
        sqlite3_bind_text(q, 1, app, -1, SQLITE_TRANSIENT);
    return gd_store_each(a->s, q, fn, a, a->err);
}

static int add_states(top_acc *a, const char *app)
{
    int rc = states_query(a, app, "SELECT m.trace AS trace" MSTATE_COLS(GD_COL_SQL)
                          " FROM m CROSS JOIN thread_state s ON s.trace = m.trace AND s.tid = m.pid GROUP BY m.trace, m.pid", mstate_row);
    if (!rc)
        rc = states_query(a, app, "SELECT trace AS trace" STRETCH_COLS(GD_COL_SQL) " FROM (SELECT m.trace AS trace,"
                          " m.process AS process, m.short_ms AS short_ms, s.state AS state, s.blocked_function AS func,"
                          " s.dur_ms AS dur_ms, CASE WHEN s.state IN ('R', 'R+') THEN s.waker_tid ELSE (SELECT n.waker_tid"
                          " FROM thread_state n WHERE n.trace = s.trace AND n.tid = s.tid AND n.ts_ms > s.ts_ms"
                          " ORDER BY n.ts_ms LIMIT 1) END AS wtid FROM m CROSS JOIN thread_state s ON s.trace = m.trace"
                          " AND s.tid = m.pid WHERE s.state IN ('S', 'D', 'R', 'R+') AND s.dur_ms >= m.short_ms) x"
                          " GROUP BY trace, process, state, func, waker", stretch_row);
    if (!rc)
        rc = states_query(a, app, "SELECT m.trace AS trace" BINDER_COLS(GD_COL_SQL) " FROM m CROSS JOIN binder_txn b"
                          " ON b.trace = m.trace AND b.client_tid = m.pid AND b.outermost = 1"
                          " GROUP BY m.trace, m.pid, server", binder_row);
    return rc;
}

static int by_rank(const void *x, const void *y)
{
    const top_entry *a = *(const top_entry *const *)x, *b = *(const top_entry *const *)y;
    if (a->tier != b->tier)
        return a->tier < b->tier ? -1 : 1;
    if (a->ranked && b->ranked) {
        int fa[] = {a->main_deadlock, a->record, a->user_perceived}, fb[] = {b->main_deadlock, b->record, b->user_perceived};
        for (size_t i = 0; i < sizeof fa / sizeof *fa; i++)
            if ((fa[i] != 0) != (fb[i] != 0))
                return fa[i] ? -1 : 1;
        double da = isnan(a->blocked_ms) ? -1 : a->blocked_ms; /* not said: after every known duration */
        double db = isnan(b->blocked_ms) ? -1 : b->blocked_ms;
        if (da != db)
            return da > db ? -1 : 1;
        json_int_t xa = json_integer_value(a->trace), xb = json_integer_value(b->trace);
        if (xa != xb)
            return xa < xb ? -1 : 1;
        return a->seq < b->seq ? -1 : a->seq > b->seq;
    }
    double sa = isnan(a->score) ? -1 : a->score; /* no score: after every scored entry of its tier */
    double sb = isnan(b->score) ? -1 : b->score;
    if (sa != sb)
        return sa > sb ? -1 : 1;
    return strcmp(json_string_value(a->title), json_string_value(b->title));
}

/* Minutes of capture (#30): the selected traces' exposures added up
 * (trace.exposure_ms, GD_SQL_TRACE_EXPOSURE: the rule diff and check and
 * the fleet add up too), at least one second, the divisor of a ranking (a
 * capture without a span, such as one ANR dump, counts as 1 s). */
static int capture_minutes(gd_store *s, const char *set, double *minutes, gd_error *err)
{
    char sql[4400];
    snprintf(sql, sizeof sql, "SELECT total(exposure_ms) AS ms FROM trace WHERE id IN %s", set);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code ? err->code : GD_ERR_IO;
    int rc = sqlite3_step(q);
    enum { E_MS = 0 }; /* the one column, ms */
    double ms = rc == SQLITE_ROW ? sqlite3_column_double(q, E_MS) : 0;
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "capture minutes: %s", gd_store_errmsg(s));
    *minutes = (ms > 1000 ? ms : 1000) / 60000.0;
    return GD_OK;
}

static int focus_rank(const top_entry *e)
{
    const char *f = e->focus;
    if (!f)
        return 0;
    return strcmp(f, "anr") == 0 ? 0 : strcmp(f, "app") == 0 ? 1 : strcmp(f, "other") == 0 ? 2 : 3;
}

static int by_focus(const void *x, const void *y)
{
    int fa = focus_rank(*(const top_entry *const *)x), fb = focus_rank(*(const top_entry *const *)y);
    return fa != fb ? (fa < fb ? -1 : 1) : by_rank(x, y);
}

int gd_top_build(gd_store *s, const gd_filter *f, int max, json_t **out, gd_error *err)
{
    return gd_top_build_focus(s, f, max, 1, out, err);
}

/* The entries gathered over the traces of f (every kind), unranked. */
static int gather(top_acc *a, const gd_filter *f)
{
    groups la = {json_object(), NULL, 0, 0, sizeof(launch), 0, launch_drop},
           lk = {json_object(), NULL, 0, 0, sizeof(lock_group), 0, lock_drop};
    gd_error *err = a->err;
    int rc = capture_minutes(a->s, a->set, &a->minutes, err);
    gd_blocks_query anr = {.filter = *f, .threshold = NAN, .kind = GD_KIND_ANR};
    gd_blocks_query all = {.filter = *f, .threshold = NAN, .kind = GD_KIND_NONE};
    gd_startup_query sq = {.filter = *f};
    if (!rc)
        rc = gd_query_blocks(a->s, &anr, on_anr_block, a, err);
    if (!rc)
        rc = gd_query_anr(a->s, f, on_anr_dump, a, err);
    if (!rc)
        rc = name_anr_groups(a);
    if (!rc)
        rc = gd_query_block_groups(a->s, &all, on_group, a, err);
    if (!rc)
        rc = gd_query_startups(a->s, &sq, on_startup, &la, err);
    if (!rc && la.oom)
        rc = gd_error_oom(err);
    if (!rc)
        rc = add_launches(a, &la);
    if (!rc)
        rc = add_frames(a->s, a, a->set);
    if (!rc)
        rc = add_device_frames(a->s, a, a->set);
    if (!rc)
        rc = gd_query_issues(a->s, f, NULL, on_issue, &(lock_acc){.by = &lk, .a = a, .trace = -1, .pid = -2}, err);
    if (!rc && lk.oom)
        rc = gd_error_oom(err);
    if (!rc)
        rc = add_locks(a, &lk);
    if (!rc)
        rc = add_states(a, f ? f->app : NULL);
    groups_free(&la);
    groups_free(&lk);
    return rc;
}

/* #47 default focus (godeye-top(1), FOCUS): without --app and
 * --all-processes, when the traces name apps, their rows rank first, then
 * other apps', then system processes'; ANRs and deadlocks of any process
 * stay on top.  v the n entries kept. */
static int set_focus(top_acc *a, top_entry **v, size_t n)
{
    json_t *apps = gd_query_trace_apps(a->s, a->set, a->err);
    if (!apps)
        return a->err->code ? a->err->code : GD_ERR_IO;
    if (json_array_size(apps))
        for (size_t i = 0; i < n; i++)
            v[i]->focus = v[i]->tier == 0 ? "anr" : gd_query_focus_of(json_string_value(v[i]->process), apps);
    json_decref(apps);
    return GD_OK;
}

/* The first max of the n entries v (ranked) as {minutes, entries, more}. */
static int ranked_doc(top_acc *a, top_entry **v, size_t n, size_t max, json_t **out)
{
    json_t *ranked = json_array();
    for (size_t i = 0; ranked && i < n && i < max; i++) {
        v[i]->rank = (int64_t)i + 1;
        if (json_array_append_new(ranked, entry_row(a, v[i]))) {
            json_decref(ranked);
            ranked = NULL;
        }
    }
    *out = ranked ? json_pack("{s:f s:o s:I}", "minutes", round(a->minutes * 1000) / 1000, "entries", ranked, "more",
                              (json_int_t)(n > max ? n - max : 0))
                  : NULL;
    return *out ? GD_OK : gd_error_oom(a->err);
}

int gd_top_build_focus(gd_store *s, const gd_filter *f, int max, int focus, json_t **out, gd_error *err)
{
    *out = NULL;
    if (max <= 0)
        max = GD_TOP_MAX;
    char fl[4096], set[4200];
    gd_store_filter_sql(f, "id", fl, sizeof fl);
    snprintf(set, sizeof set, "(SELECT id FROM trace WHERE 1 %s)", fl);
    top_acc a = {.s = s, .dumps_of_blocks = json_object(), .set = set, .minutes = 1, .anr_groups = json_object(),
                 .err = err, .anr_sig_of = json_object()};
    int rc = gather(&a, f);
    json_decref(a.anr_groups);
    json_decref(a.anr_sig_of);
    json_decref(a.dumps_of_blocks);
    for (size_t i = 0; i < a.nsigs; i++) {
        json_decref(a.sigs[i].traces);
        json_decref(a.sigs[i].signature);
    }
    free(a.sigs);
    top_entry **v = !rc && a.n ? malloc(a.n * sizeof *v) : NULL;
    if (!rc && a.n && !v)
        rc = gd_error_oom(err);
    /* --app (#47): an entry about another process goes (one naming none
     * stays: its trace holds the app) */
    size_t n = 0;
    for (size_t i = 0; !rc && i < a.n; i++) {
        const char *p = json_string_value(a.e[i].process);
        if (!f || !f->app || !p || gd_app_match(p, f->app))
            v[n++] = &a.e[i];
    }
    if (!rc && focus && !(f && f->app))
        rc = set_focus(&a, v, n);
    if (!rc)
        gd_sort(v, n, sizeof *v, by_focus);
    if (!rc)
        rc = ranked_doc(&a, v, n, (size_t)max, out);
    free(v);
    for (size_t i = 0; i < a.n; i++)
        entry_free(&a.e[i]);
    free(a.e);
    return rc;
}
