/* query/blocks.c - the read queries behind traces, blocks and block groups. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/row.h"
#include "derive/states.h"
#include "analysis/stats.h"
#include "analysis/version.h"
#include "query/blocks.h"
#include "store/sql.h"
#include "derive/blocks.h"
#include "core/util.h"

/* ---- traces ------------------------------------------------------------- */

enum { GD_TRACES_COLS(GD_QC_ID, GD_QC_ID) TR_NCOLS };
GD_QCOLS_DEFINE(trace_cols, GD_TRACES_COLS);

static json_t *trace_row(sqlite3_stmt *q)
{
    gd_value v[TR_NCOLS];
    gd_qcols_read(&trace_cols, q, 0, v);
    json_t *row = gd_qcols_json(&trace_cols, v);
    gd_qcols_clear(&trace_cols, v);
    return row;
}

int gd_query_traces(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx, gd_error *err)
{
    char filt[4096], sql[8192], fields[2048];
    gd_store_filter_sql(f, "t.id", filt, sizeof filt);
    if (gd_qcols_select(&trace_cols, fields, sizeof fields))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "traces: the SELECT list is too long");
    snprintf(sql, sizeof sql, "SELECT %s FROM trace t WHERE 1 %s ORDER BY trace", fields, filt);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    return gd_store_stream(s, q, trace_row, fn, ctx, err);
}

/* The columns of a trace's clock row, after id (K_ID). */
#define CLOCK_COLS(X) X(K_CLOCK, "clock") X(K_UTC_OFFSET, "utc_offset_min") X(K_START, "start_ms")
enum { K_ID = 0, CLOCK_COLS(GD_COL_ENUM) K_NCOLS };

static json_t *clock_row(sqlite3_stmt *q)
{
    json_t *row = json_object();
    json_object_set_new(row, "trace", gd_col_json(q, K_ID));
    json_object_set_new(row, "clock", gd_col_json(q, K_CLOCK));
    json_object_set_new(row, "utc_offset_min", gd_col_json(q, K_UTC_OFFSET));
    json_object_set_new(row, "start_ms", gd_col_ms(q, K_START));
    return row;
}

int gd_query_trace_clocks(gd_store *s, gd_row_fn fn, void *ctx, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(s,
                                       "SELECT id" CLOCK_COLS(GD_COL_SQL) " FROM trace ORDER BY id",
                                       err);
    if (!q)
        return err->code;
    return gd_store_stream(s, q, clock_row, fn, ctx, err);
}

/* ---- blocks ------------------------------------------------------------- */

/* Per-query cache of trace configurations (few traces per query). */
typedef struct cfg_list {
    gd_trace_cfg *cfgs;
    size_t n, cap;
} cfg_list;

static const gd_trace_cfg *cfg_get(gd_store *s, cfg_list *l, int64_t id, gd_error *err)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->cfgs[i].id == id)
            return &l->cfgs[i];
    if (gd_grow((void **)&l->cfgs, &l->cap, l->n + 1, sizeof *l->cfgs, NULL))
        return NULL;
    if (gd_trace_cfg_load(s, id, &l->cfgs[l->n], err))
        return NULL;
    return &l->cfgs[l->n++];
}

static void cfg_list_free(cfg_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        gd_trace_cfg_free(&l->cfgs[i]);
    free(l->cfgs);
}

static const char *const memory_names[] = {"ts_ms", "heap_alloc_kb", "heap_max_kb", "heap_free_kb",
                                           "pss_total_kb", "ram_avail_kb", "ram_total_kb",
                                           "ram_is_low"};

/* The columns of a memory snapshot, in memory_names' order, after ts_ms
 * (M_TS): read as 8 consecutive columns from the first. */
#define MEMORY_COLS(X)                                                                   \
    X(M_HEAP_ALLOC, "heap_alloc_kb") X(M_HEAP_MAX, "heap_max_kb") X(M_HEAP_FREE, "heap_free_kb") \
    X(M_PSS, "pss_total_kb") X(M_RAM_AVAIL, "ram_avail_kb") X(M_RAM_TOTAL, "ram_total_kb")     \
    X(M_RAM_LOW, "ram_is_low")
enum { M_TS = 0, MEMORY_COLS(GD_COL_ENUM) M_NCOLS };
_Static_assert(M_NCOLS == sizeof memory_names / sizeof *memory_names, "memory columns");

/* The memory object from 8 consecutive columns starting at `first`. */
static json_t *memory_cols(sqlite3_stmt *q, int first)
{
    json_t *o = json_object();
    for (int i = 0; i < 8; i++)
        json_object_set_new(o, memory_names[i], i == 0 ? gd_col_ms(q, first) : gd_col_json(q, first + i));
    json_t *low = json_object_get(o, "ram_is_low");
    if (json_is_integer(low))
        json_object_set_new(o, "ram_is_low", json_boolean(json_integer_value(low)));
    return o;
}

/* The memory snapshot `id` through *q, prepared on first use and kept by
 * the caller for the next rows (finalized by it). */
static json_t *memory_json(gd_store *s, sqlite3_stmt **q, int64_t id)
{
    if (!*q && !(*q = gd_store_prepare(s, "SELECT ts_ms" MEMORY_COLS(GD_COL_SQL) " FROM memory WHERE id = ?",
                                       NULL)))
        return json_null();
    sqlite3_bind_int64(*q, 1, id);
    json_t *o = sqlite3_step(*q) == SQLITE_ROW ? memory_cols(*q, M_TS) : json_null();
    sqlite3_reset(*q);
    return o;
}

typedef int (*block_fn)(void *ctx, const gd_row *row, double dur);

/* The block's "why" (#26, derive/states.c): the time in each state class,
 * the share with scheduling data, binder and lock waits, the dominant cause
 * as text. */
static int set_states(gd_store *s, gd_rowb *f, int have, int64_t trace, int64_t tid,
                      double start, double dur, gd_error *err)
{
    gd_why w;
    int rc = gd_why_in(s, have, trace, tid, start, start + dur, &w, err);
    if (rc)
        return rc;
    const gd_state_share sh = w.states;
    const gd_binder_share bs = w.binder;
    double v[GD_WHY_NVALUES];
    gd_why_values(&w, have, v); /* which are data: the one rule */
    const char *names[4] = {"running_ms", "runnable_ms", "sleeping_ms", "uninterruptible_ms"};
    for (int i = 0; i < 4; i++) {
        if (!isnan(v[i]))
            gd_rowb_real(f, names[i], gd_ms_round(v[i]));
        else
            gd_rowb_add(f, names[i]);
    }
    gd_rowb_real(f, "states_coverage", round(sh.coverage * 10000.0) / 10000.0);
    if (!isnan(v[GD_WHY_V_BINDER]))
        gd_rowb_real(f, "binder_ms", gd_ms_round(v[GD_WHY_V_BINDER]));
    else
        gd_rowb_add(f, "binder_ms");
    if (bs.server_pid >= 0)
        gd_rowb_int(f, "binder_server_pid", bs.server_pid);
    else
        gd_rowb_add(f, "binder_server_pid");
    /* the row keeps these texts after this function: JSON values it owns */
    json_t *j = bs.server_name[0] ? gd_json_str(bs.server_name) : NULL;
    gd_rowb_json(f, "binder_server", j ? j : json_null());
    j = bs.aidl[0] ? gd_json_str(bs.aidl) : NULL;
    gd_rowb_json(f, "binder_aidl", j ? j : json_null());
    if (!isnan(v[GD_WHY_V_LOCK]))
        gd_rowb_real(f, "lock_ms", gd_ms_round(v[GD_WHY_V_LOCK]));
    else
        gd_rowb_add(f, "lock_ms");
    if (w.lock.owner_tid >= 0)
        gd_rowb_int(f, "lock_owner_tid", w.lock.owner_tid);
    else
        gd_rowb_add(f, "lock_owner_tid");
    j = w.lock.owner[0] ? gd_json_str(w.lock.owner) : NULL;
    gd_rowb_json(f, "lock_owner", j ? j : json_null());
    j = w.lock.owner_method[0] ? gd_json_str(w.lock.owner_method) : NULL;
    gd_rowb_json(f, "lock_owner_method", j ? j : json_null());
    char txt[448];
    gd_why_text(&w, dur, txt, sizeof txt);
    j = txt[0] ? gd_json_str(txt) : NULL;
    gd_rowb_json(f, "dominant_state", j ? j : json_null());
    return GD_OK;
}

/* One block row of plain values, filled field by field in contract order. */
typedef struct block_row {
    gd_rowb b;
    gd_value mem[8];
    gd_row memrow;
} block_row;

/* The columns of a block row (block_sql), after d.id AS id (B_ID).  The
 * aliases trace, start_ms and id order the --limit rows.  The three
 * "%s" are the message text, the thread and the process: NULL in the
 * light (group) rows.  B_MM_TS.. are the memory snapshot (MEMORY_COLS'
 * order), NULL with none joined. */
#define BLOCK_COLS(X)                                                                      \
    X(B_TRACE, "d.trace AS trace") X(B_PID, "d.pid") X(B_TID, "d.tid")                     \
    X(B_START, "d.start_ms AS start_ms")                                                   \
    X(B_DUR, "d.dur_ms") X(B_THREAD_MS, "d.thread_ms") X(B_UNFINISHED, "d.unfinished")     \
    X(B_MSG, "%s") X(B_SHORT, "t.short_ms") X(B_LONG, "t.long_ms") X(B_ANR, "t.anr_ms")    \
    X(B_HAVE, "b.dispatch IS NOT NULL") X(B_SAMPLES, "b.samples")                          \
    X(B_KEY_FRAME, "b.key_frame") X(B_GRP, "b.grp") X(B_CPU_BUSY, "b.cpu_busy")            \
    X(B_MEMORY, "b.memory") X(B_BLAME, "b.blame") X(B_MM_TS, "mm.ts_ms")                   \
    X(B_MM_HEAP_ALLOC, "mm.heap_alloc_kb") X(B_MM_HEAP_MAX, "mm.heap_max_kb")              \
    X(B_MM_HEAP_FREE, "mm.heap_free_kb") X(B_MM_PSS, "mm.pss_total_kb")                    \
    X(B_MM_RAM_AVAIL, "mm.ram_avail_kb") X(B_MM_RAM_TOTAL, "mm.ram_total_kb")              \
    X(B_MM_RAM_LOW, "mm.ram_is_low") X(B_THREAD, "%s") X(B_GRP_RULE, "b.grp_rule")         \
    X(B_MESSAGE, "coalesce(d.message, -1)") X(B_PROCESS, "%s")
enum { B_ID = 0, BLOCK_COLS(GD_COL_ENUM) B_NCOLS };
_Static_assert(B_MM_RAM_LOW - B_MM_TS == M_RAM_LOW - M_TS, "memory columns in a block row");

/* A millisecond column (gd_col_ms). */
static void set_ms(gd_rowb *b, const char *name, sqlite3_stmt *q, int i)
{
    if (sqlite3_column_type(q, i) == SQLITE_NULL)
        gd_rowb_add(b, name);
    else
        gd_rowb_real(b, name, gd_ms_round(sqlite3_column_double(q, i)));
}

/* The memory object from 8 consecutive columns starting at `first`
 * (memory_cols, as values). */
static void set_memory(block_row *b, sqlite3_stmt *q, int first)
{
    gd_value *v = gd_rowb_add(&b->b, "memory");
    if (sqlite3_column_type(q, B_MEMORY) == SQLITE_NULL)
        return;
    for (int i = 0; i < 8; i++)
        gd_col_value(q, first + i, &b->mem[i]);
    if (b->mem[0].kind != GD_V_NULL) {
        b->mem[0].kind = GD_V_REAL;
        b->mem[0].u.d = gd_ms_round(sqlite3_column_double(q, first));
    }
    if (b->mem[7].kind == GD_V_INT) {
        b->mem[7].kind = GD_V_BOOL;
        b->mem[7].u.i = b->mem[7].u.i != 0;
    }
    b->memrow = (gd_row){memory_names, b->mem, 8};
    v->kind = GD_V_ROW;
    v->u.row = &b->memrow;
}

static void block_row_clear(block_row *b)
{
    for (size_t i = 0; i < 8; i++)
        if (b->mem[i].kind == GD_V_JSON)
            json_decref(b->mem[i].u.json);
    memset(b->mem, 0, sizeof b->mem);
    gd_rowb_clear(&b->b);
}

/* The kind filter over dispatch d (or block b) of trace t: ?3 is the kind's
 * name, NULL for every kind. */
#define KIND_FILTER(d) " AND (?3 IS NULL OR " GD_SQL_BLOCK_KIND(d, "t") " = ?3)"

/* The one column of a SELECT of one aggregate over trace. */
enum { S_VALUE = 0 };

/* The lowest short threshold (min) or the highest (max) over the stored
 * traces; with none, the default. */
static double short_over_traces(gd_store *s, int highest, gd_error *err)
{
    sqlite3_stmt *m = gd_store_prepare(s, highest ? "SELECT max(short_ms) FROM trace"
                                                  : "SELECT min(short_ms) FROM trace", err);
    double v = GD_NONE;
    if (m && sqlite3_step(m) == SQLITE_ROW && sqlite3_column_type(m, S_VALUE) != SQLITE_NULL)
        v = sqlite3_column_double(m, S_VALUE);
    sqlite3_finalize(m);
    return gd_thresholds_resolve(v, GD_NONE, GD_NONE).short_ms;
}

/* The lowest duration a block of kind k can have in any trace: the bound
 * that lets the dur_ms index skip everything shorter. */
static double kind_bound(gd_store *s, gd_block_kind k, double bound)
{
    const char *col = k == GD_KIND_ANR ? "anr_ms" : k == GD_KIND_LONG ? "long_ms" : NULL;
    if (!col)
        return bound;
    char sql[64];
    snprintf(sql, sizeof sql, "SELECT min(%s) FROM trace", col);
    sqlite3_stmt *m = gd_store_prepare(s, sql, NULL);
    if (m && sqlite3_step(m) == SQLITE_ROW && sqlite3_column_type(m, S_VALUE) != SQLITE_NULL &&
        sqlite3_column_double(m, S_VALUE) > bound)
        bound = sqlite3_column_double(m, S_VALUE);
    sqlite3_finalize(m);
    return bound;
}

/* The blocks query: dispatches at or over ?1 (each trace's short threshold
 * when ?2 is 0) with their stored block rows and memory snapshots, by trace
 * and start, of kind ?3 (any when NULL); with a limit (?4) the longest first, then put back in order. */
static void block_sql(char *sql, size_t n, const gd_blocks_query *bq, int light, const char *filt,
                      double bound)
{
    snprintf(sql, n,
             /* --limit: the longest `limit` blocks, listed in the listing's order */
             "%sSELECT d.id AS id" BLOCK_COLS(GD_COL_SQL)
             /* CROSS JOIN keeps dispatch the outer loop, read through its
              * dur_ms index: a few blocks out of millions of dispatches */
             " FROM dispatch d CROSS JOIN trace t ON t.id = d.trace"
             " LEFT JOIN block b ON b.dispatch = d.id"
             " LEFT JOIN memory mm ON mm.id = b.memory"
             " WHERE d.dur_ms >= ?1 AND (?2 OR d.dur_ms >= t.short_ms)"
             " %s%s" KIND_FILTER("d")
             " ORDER BY %s%s",
             bq->limit > 0 ? "SELECT * FROM (" : "", light ? "NULL" : "(SELECT text FROM message WHERE id = d.message)",
             /* the thread column: not read by the light (group) rows */
             light ? "NULL" : GD_SQL_THREAD_OF("d", "t"),
             /* the process column (#30; the groups name theirs, #47) */
             GD_SQL_PROCESS_OF("d", "t"), filt,
             /* the dur_ms index holds dispatches from GD_DUR_INDEXED_MS up */
             bound >= GD_DUR_INDEXED_MS ? GD_SQL_DUR_INDEXED("d") : "",
             bq->limit > 0 ? "d.dur_ms DESC, d.trace, d.start_ms, d.id LIMIT ?4" : "d.trace, d.start_ms, d.id",
             bq->limit > 0 ? ") ORDER BY trace, start_ms, id" : "");
}

/* each_block's rows, each filled (from the stored block or derived now)
 * and handed to fn (gd_store_each's callback) */
struct each_ctx {
    gd_store *s;
    const gd_blocks_query *bq;
    int light;
    cfg_list cfgs;
    gd_deriver *dv;
    sqlite3_stmt *mem_q; /* memory of blocks derived on the fly */
    block_row b;
    int have_states; /* which "why" data is stored at all (#26) */
    int have_t;      /* ...in the trace have_trace */
    int64_t have_trace;
    block_fn fn;
    void *ctx;
    gd_error *err;
};

static int each_block_row(void *ctx, sqlite3_stmt *q)
{
    struct each_ctx *c = ctx;
    gd_store *s = c->s;
    gd_error *err = c->err;
    gd_rowb *f = &c->b.b;
    int rc = GD_OK;
    double dur = sqlite3_column_double(q, B_DUR);
    /* the kind filter in the SQL (KIND_FILTER) is the same rule */
    gd_block_kind k = gd_block_kind_at(dur, sqlite3_column_double(q, B_LONG),
                                       sqlite3_column_double(q, B_ANR));
    int64_t trace = sqlite3_column_int64(q, B_TRACE);
    gd_col_value(q, B_ID, gd_rowb_add(f, "id"));
    gd_col_value(q, B_TRACE, gd_rowb_add(f, "trace"));
    gd_col_value(q, B_PID, gd_rowb_add(f, "pid"));
    gd_col_value(q, B_PROCESS, gd_rowb_add(f, "process"));
    gd_col_value(q, B_TID, gd_rowb_add(f, "tid"));
    gd_col_value(q, B_THREAD, gd_rowb_add(f, "thread"));
    double start = sqlite3_column_double(q, B_START);
    gd_rowb_real(f, "start_ms", gd_ms_round(start));
    gd_rowb_real(f, "end_ms", gd_ms_round(start + dur));
    gd_rowb_real(f, "duration_ms", gd_ms_round(dur));
    set_ms(f, "thread_ms", q, B_THREAD_MS);
    gd_rowb_text(f, "kind", gd_block_kind_name(k));
    gd_rowb_bool(f, "unfinished", sqlite3_column_int(q, B_UNFINISHED));
    int have = sqlite3_column_int(q, B_HAVE);
    json_t *stacks = NULL;
    gd_block_info bi;
    if (have && !c->bq->stacks) {
        if (sqlite3_column_type(q, B_CPU_BUSY) == SQLITE_NULL)
            gd_rowb_add(f, "cpu_busy");
        else
            gd_rowb_bool(f, "cpu_busy", sqlite3_column_int(q, B_CPU_BUSY));
        gd_col_value(q, B_SAMPLES, gd_rowb_add(f, "samples"));
        gd_col_value(q, B_KEY_FRAME, gd_rowb_add(f, "key_frame"));
        gd_col_value(q, B_GRP, gd_rowb_add(f, "group"));
        gd_col_value(q, B_GRP_RULE, gd_rowb_add(f, "group_rule"));
        if (!c->light)
            set_memory(&c->b, q, B_MM_TS);
        gd_col_value(q, B_MSG, gd_rowb_add(f, "msg"));
        gd_col_value(q, B_BLAME, gd_rowb_add(f, "blame"));
    } else {
        /* below the ingest-time cut (or stacks wanted): derive now */
        const gd_trace_cfg *cfg = cfg_get(s, &c->cfgs, trace, err);
        if (!cfg || (!c->dv && !(c->dv = gd_deriver_new(s, err))))
            return err->code ? err->code : GD_ERR_IO;
        if ((rc = gd_deriver_block(c->dv, cfg, sqlite3_column_int64(q, B_PID), sqlite3_column_int64(q, B_TID),
                                   start, start + dur, sqlite3_column_int(q, B_UNFINISHED),
                                   sqlite3_column_int64(q, B_MESSAGE), &bi, c->bq->stacks ? &stacks : NULL,
                                   err)))
            return rc;
        if (bi.cpu_busy < 0)
            gd_rowb_add(f, "cpu_busy");
        else
            gd_rowb_bool(f, "cpu_busy", bi.cpu_busy);
        gd_rowb_int(f, "samples", bi.samples);
        gd_rowb_text(f, "key_frame", bi.key_frame);
        gd_rowb_text(f, "group", bi.group);
        gd_rowb_text(f, "group_rule", gd_group_rule_name(bi.group_rule));
        if (!c->light)
            gd_rowb_json(f, "memory", bi.memory < 0 ? json_null() : memory_json(s, &c->mem_q, bi.memory));
        gd_rowb_text(f, "blame", bi.blame);
        gd_col_value(q, B_MSG, gd_rowb_add(f, "msg"));
    }
    /* the block's own trace's data decides which shares are data */
    if (c->have_states && trace != c->have_trace) {
        if ((rc = gd_why_have_trace(s, trace, &c->have_t, err))) {
            json_decref(stacks);
            return rc;
        }
        c->have_trace = trace;
    }
    if ((rc = set_states(s, f, c->have_states ? c->have_t : 0, trace, sqlite3_column_int64(q, B_TID), start, dur,
                         err))) {
        json_decref(stacks);
        return rc;
    }
    if (stacks)
        gd_rowb_json(f, "stacks", stacks);
    int stop = c->fn(c->ctx, &f->row, dur);
    block_row_clear(&c->b);
    return stop ? GD_EACH_STOP : GD_OK;
}

static int each_block(gd_store *s, const gd_blocks_query *bq, block_fn fn, void *ctx, int light,
                      gd_error *err)
{
    char filt[4096], sql[8192], app[512];
    gd_store_filter_sql(&bq->filter, "d.trace", filt, sizeof filt);
    /* --app: the blocks of the app's own processes */
    gd_store_app_sql(&bq->filter, GD_SQL_PROCESS_OF("d", "t"), app, sizeof app);
    strncat(filt, app, sizeof filt - strlen(filt) - 1);
    /* the threshold bound lets SQLite use the dur_ms index */
    double bound = bq->threshold;
    if (!gd_has(bound)) {
        bound = short_over_traces(s, 0, err);
        if (err->code)
            return err->code;
    }
    bound = kind_bound(s, bq->kind, bound);
    block_sql(sql, sizeof sql, bq, light, filt, bound);
    /* with no memory snapshot joined, columns B_MM_TS.. are NULL */
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    sqlite3_bind_double(q, 1, bound);
    sqlite3_bind_int(q, 2, gd_has(bq->threshold) ? 1 : 0);
    gd_bind_text(q, 3, gd_block_kind_name(bq->kind));
    if (bq->limit > 0)
        sqlite3_bind_int64(q, 4, bq->limit);
    int rc;
    struct each_ctx c = {.s = s, .bq = bq, .light = light, .have_trace = -1, .fn = fn, .ctx = ctx, .err = err};
    gd_rowb_init(&c.b.b);
    if ((rc = gd_why_have(s, &c.have_states, err))) {
        sqlite3_finalize(q);
        return rc;
    }
    rc = gd_store_each(s, q, each_block_row, &c, err);
    block_row_clear(&c.b);
    sqlite3_finalize(c.mem_q);
    gd_deriver_free(c.dv);
    cfg_list_free(&c.cfgs);
    return rc;
}

/* The caller's callback: rows as JSON (fn) or as plain values (values). */
typedef struct pass_ctx {
    gd_row_fn fn;
    gd_values_fn values;
    void *ctx;
} pass_ctx;

static int pass_row(void *ctx, const gd_row *row, double dur)
{
    pass_ctx *p = ctx;
    if (p->values)
        return p->values(p->ctx, row);
    json_t *j = gd_row_json(row);
    int stop = j ? p->fn(p->ctx, j) : 1;
    json_decref(j);
    return stop;
}

int gd_query_block_values(gd_store *s, const gd_blocks_query *q, gd_values_fn fn, void *ctx,
                          gd_error *err)
{
    pass_ctx p = {NULL, fn, ctx};
    return each_block(s, q, pass_row, &p, 0, err);
}

int gd_query_blocks(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx, gd_error *err)
{
    pass_ctx p = {fn, NULL, ctx};
    return each_block(s, q, pass_row, &p, 0, err);
}

int gd_query_blocks_light(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err)
{
    pass_ctx p = {fn, NULL, ctx};
    return each_block(s, q, pass_row, &p, 1, err);
}

/* ---- block groups ------------------------------------------------------- */

#define GD_GROUP_PROCS 8 /* processes named per group (godeye-blocks(1)) */
typedef struct group_acc {
    char *group, *key_frame, *rule; /* rule: block.grp_rule of its longest block */
    double *durs;
    size_t n, cap;
    double total;
    int64_t *traces;
    size_t ntraces;
    double st[GD_WHY_NVALUES]; /* Σ of its blocks' gd_why_values (#26), NANs as 0 */
    int have;                  /* the OR of its blocks' traces' gd_why_have_trace bits */
    char *procs[GD_GROUP_PROCS]; /* #47: its blocks' processes, the longest block's first */
    size_t nprocs;
    double proc_max;           /* the duration of the block that named procs[0] */
} group_acc;

typedef struct groups {
    group_acc *g;
    size_t n, cap;
    json_t *index; /* group text -> position */
    int oom;
    int have;      /* gd_why_have's bits: which shares have data (#26) */
    json_t *trace_have; /* trace id -> gd_why_have_trace's bits */
} groups;

/* A new, empty group at the end of gs; NULL when out of memory. */
static group_acc *group_new(groups *gs, const char *grp, const char *key_frame, const char *rule)
{
    if (gd_grow((void **)&gs->g, &gs->cap, gs->n + 1, sizeof *gs->g, NULL)) {
        gs->oom = 1;
        return NULL;
    }
    group_acc *g = &gs->g[gs->n++];
    memset(g, 0, sizeof *g);
    g->group = grp ? strdup(grp) : NULL;
    g->key_frame = key_frame ? strdup(key_frame) : NULL;
    g->rule = rule ? strdup(rule) : NULL;
    return g;
}

/* Adds `process` (a block's, NULL unknown) to g's processes: the longest
 * block's first, at most GD_GROUP_PROCS; 0, or 1 when out of memory. */
static int group_process(group_acc *g, const char *process, double dur)
{
    if (!process)
        return 0;
    size_t i = 0;
    while (i < g->nprocs && strcmp(g->procs[i], process) != 0)
        i++;
    if (i == g->nprocs) {
        if (g->nprocs == GD_GROUP_PROCS)
            return 0;
        if (!(g->procs[g->nprocs] = strdup(process)))
            return 1;
        g->nprocs++;
    }
    if (dur > g->proc_max) { /* the longest block's process goes first */
        char *t = g->procs[0];
        g->procs[0] = g->procs[i];
        g->procs[i] = t;
        g->proc_max = dur;
    }
    return 0;
}

/* Adds one block of `dur` ms in `trace` to g; 0, or 1 when out of memory. */
static int group_add(groups *gs, group_acc *g, double dur, int64_t trace, const double *st, int have)
{
    for (int k = 0; st && k < GD_WHY_NVALUES; k++)
        if (!isnan(st[k]))
            g->st[k] += st[k];
    g->have |= have;
    if (gd_grow((void **)&g->durs, &g->cap, g->n + 1, sizeof *g->durs, NULL)) {
        gs->oom = 1;
        return 1;
    }
    g->durs[g->n++] = dur;
    g->total += dur;
    size_t i;
    for (i = 0; i < g->ntraces && g->traces[i] != trace; i++)
        ;
    if (i == g->ntraces) {
        size_t cap = g->ntraces;
        if (gd_grow((void **)&g->traces, &cap, g->ntraces + 1, sizeof *g->traces, NULL)) {
            gs->oom = 1;
            return 1;
        }
        g->traces[g->ntraces++] = trace;
    }
    return 0;
}

static int add_json_to_group(groups *gs, json_t *row, double dur)
{
    const char *grp = json_string_value(json_object_get(row, "group"));
    const char *key = grp ? grp : "";
    json_t *pos = json_object_get(gs->index, key);
    group_acc *g;
    if (pos) {
        g = &gs->g[json_integer_value(pos)];
    } else {
        if (!(g = group_new(gs, grp, json_string_value(json_object_get(row, "key_frame")),
                            json_string_value(json_object_get(row, "group_rule")))))
            return 1;
        json_object_set_new(gs->index, key, json_integer((json_int_t)(gs->n - 1)));
    }
    double st[GD_WHY_NVALUES];
    static const char *const names[4] = {"running_ms", "runnable_ms", "sleeping_ms", "uninterruptible_ms"};
    for (int k = 0; k < 4; k++)
        st[k] = json_number_value(json_object_get(row, names[k]));
    st[GD_WHY_V_COVERED] = json_number_value(json_object_get(row, "states_coverage")) * dur;
    json_t *binder = json_object_get(row, "binder_ms"), *lock = json_object_get(row, "lock_ms");
    st[GD_WHY_V_BINDER] = json_number_value(binder);
    st[GD_WHY_V_LOCK] = json_number_value(lock);
    /* the row's nulls are gd_why_values' (its trace has no such data) */
    int have = (json_is_number(binder) ? GD_WHY_SCHED : 0) | (json_is_number(lock) ? GD_WHY_LOCK : 0);
    if (group_process(g, json_string_value(json_object_get(row, "process")), dur)) {
        gs->oom = 1;
        return 1;
    }
    return group_add(gs, g, dur, json_integer_value(json_object_get(row, "trace")), st, have);
}

static int add_to_group(void *ctx, const gd_row *values, double dur)
{
    json_t *row = gd_row_json(values);
    int rc = !row || add_json_to_group(ctx, row, dur);
    json_decref(row);
    return rc;
}

static int cmp_group_total(const void *a, const void *b)
{
    const group_acc *x = a, *y = b;
    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    if (!x->group || !y->group)
        return x->group ? -1 : (y->group ? 1 : 0);
    return strcmp(x->group, y->group);
}

/* gd_why_have_trace's bits of trace, looked up once per trace. */
static int trace_have(gd_store *s, groups *gs, int64_t trace, int *have, gd_error *err)
{
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)trace);
    json_t *v = json_object_get(gs->trace_have, id);
    if (v) {
        *have = (int)json_integer_value(v);
        return GD_OK;
    }
    int rc = gd_why_have_trace(s, trace, have, err);
    if (!rc && json_object_set_new(gs->trace_have, id, json_integer(*have)))
        rc = gd_error_oom(err);
    return rc;
}

/* The columns of groups_stored's scan, after b.grp (G_GRP); the "%s" are
 * the dispatch's tid and start, NULL without "why" data; and of its key
 * frame lookup. */
#define GROUP_COLS(X) X(G_DUR, "b.dur_ms") X(G_TRACE, "b.trace") X(G_TID, "%s") X(G_START, "%s") \
    X(G_PROCESS, GD_SQL_PROCESS_OF("d", "t"))
enum { G_GRP = 0, GROUP_COLS(GD_COL_ENUM) G_NCOLS };
#define KEY_FRAME_COLS(X) X(KF_RULE, "grp_rule")
enum { KF_FRAME = 0, KEY_FRAME_COLS(GD_COL_ENUM) KF_NCOLS };

/* groups_stored's blocks, added to their groups (gd_store_each's
 * callback); kf, the query of a group's key frame */
struct stored_ctx {
    gd_store *s;
    groups *gs;
    sqlite3_stmt *kf;
    group_acc *g; /* the group being filled */
    int have_states;
    gd_error *err;
};

static int stored_row(void *ctx, sqlite3_stmt *st)
{
    struct stored_ctx *c = ctx;
    groups *gs = c->gs;
    const char *grp = (const char *)sqlite3_column_text(st, G_GRP);
    if (!c->g || (grp == NULL) != (c->g->group == NULL) || (grp && strcmp(grp, c->g->group) != 0)) {
        /* the key frame of the group's longest block stands for it */
        if (grp)
            sqlite3_bind_text(c->kf, 1, grp, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(c->kf, 1);
        int found = sqlite3_step(c->kf) == SQLITE_ROW;
        const char *frame = found ? (const char *)sqlite3_column_text(c->kf, KF_FRAME) : NULL;
        const char *rule = found ? (const char *)sqlite3_column_text(c->kf, KF_RULE) : NULL;
        c->g = group_new(gs, grp, frame, rule);
        sqlite3_reset(c->kf);
        if (!c->g)
            return GD_EACH_STOP; /* gs->oom */
    }
    double sh[GD_WHY_NVALUES] = {0};
    int have = 0;
    if (c->have_states) {
        gd_why w;
        double dur = sqlite3_column_double(st, G_DUR), start = sqlite3_column_double(st, G_START);
        int64_t trace = sqlite3_column_int64(st, G_TRACE);
        if (trace_have(c->s, gs, trace, &have, c->err) ||
            gd_why_in(c->s, have, trace, sqlite3_column_int64(st, G_TID), start, start + dur, &w, c->err))
            return c->err->code ? c->err->code : GD_EACH_STOP;
        gd_why_values(&w, have, sh);
    }
    if (group_process(c->g, (const char *)sqlite3_column_text(st, G_PROCESS), sqlite3_column_double(st, G_DUR))) {
        gs->oom = 1;
        return GD_EACH_STOP;
    }
    if (group_add(gs, c->g, sqlite3_column_double(st, G_DUR), sqlite3_column_int64(st, G_TRACE), sh, have))
        return GD_EACH_STOP; /* gs->oom */
    return GD_OK;
}

/* Groups from the stored block rows in one scan ordered by (group,
 * duration): one group's durations in memory at a time.  Used when every
 * selected dispatch has a stored block row (threshold at or above each
 * trace's short threshold). */
static int groups_stored(gd_store *s, const gd_blocks_query *q, double bound, groups *gs,
                         gd_error *err)
{
    char filt[4096], sql[8192], app[512];
    gd_store_filter_sql(&q->filter, "b.trace", filt, sizeof filt);
    /* --app: the blocks of the app's own processes (their dispatch's pid) */
    gd_store_app_sql(&q->filter, GD_SQL_PROCESS_OF("d", "t"), app, sizeof app);
    strncat(filt, app, sizeof filt - strlen(filt) - 1);
    /* block_grp (grp, dur_ms, trace) covers the scan; the kind needs the
     * trace's thresholds (a small table) */
    int have_states = gs->have; /* which "why" data is stored at all (#26) */
    snprintf(sql, sizeof sql,
             "SELECT b.grp" GROUP_COLS(GD_COL_SQL) " FROM block b JOIN trace t ON t.id = b.trace%s"
             " WHERE b.dur_ms >= ?1 AND (?2 OR b.dur_ms >= t.short_ms)"
             " %s" KIND_FILTER("b") " ORDER BY b.grp, b.dur_ms",
             have_states ? "d.tid" : "NULL", have_states ? "d.start_ms" : "NULL",
             " JOIN dispatch d ON d.id = b.dispatch", filt);
    sqlite3_stmt *st = gd_store_prepare(s, sql, err);
    if (!st)
        return err->code;
    sqlite3_bind_double(st, 1, bound);
    sqlite3_bind_int(st, 2, gd_has(q->threshold) ? 1 : 0);
    gd_bind_text(st, 3, gd_block_kind_name(q->kind));
    sqlite3_stmt *kf = gd_store_prepare(s, "SELECT key_frame" KEY_FRAME_COLS(GD_COL_SQL) " FROM block WHERE grp IS ?1"
                                           " ORDER BY dur_ms DESC LIMIT 1", err);
    if (!kf) {
        sqlite3_finalize(st);
        return err->code;
    }
    struct stored_ctx c = {s, gs, kf, NULL, have_states, err};
    int rc = gd_store_each(s, st, stored_row, &c, err);
    sqlite3_finalize(kf);
    return rc;
}

/* A trace's app version, by its id, into the object ctx (gd_store_each's
 * callback). */
enum { V_ID, V_NAME }; /* "SELECT id, version_name FROM trace ..." */
static int version_row(void *ctx, sqlite3_stmt *vq)
{
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)sqlite3_column_int64(vq, V_ID));
    json_object_set_new(ctx, id, gd_col_text(vq, V_NAME));
    return GD_OK;
}

int gd_query_block_groups(gd_store *s, const gd_blocks_query *q, gd_row_fn fn, void *ctx,
                          gd_error *err)
{
    groups gs = {0};
    gs.index = json_object();
    gs.trace_have = json_object();
    int rc;
    if ((rc = gd_why_have(s, &gs.have, err))) {
        json_decref(gs.index);
        json_decref(gs.trace_have);
        return rc;
    }
    gd_blocks_query lq = *q;
    lq.stacks = 0;
    lq.limit = 0; /* groups are made of every block; the limit cuts groups */
    /* stored block rows cover the query when the threshold is at or above
     * every trace's short threshold (the ingest-time cut) */
    double max_short = short_over_traces(s, 1, NULL);
    if (!gd_has(q->threshold) || q->threshold >= max_short)
        rc = groups_stored(s, &lq, kind_bound(s, q->kind, gd_has(q->threshold) ? q->threshold : 0),
                           &gs, err);
    else
        rc = each_block(s, &lq, add_to_group, &gs, 1, err);
    if (!rc && gs.oom)
        rc = gd_error_oom(err);
    /* each trace's app version, for the first and last version a group
     * was seen in */
    json_t *versions = json_object();
    if (!rc) {
        sqlite3_stmt *vq = gd_store_prepare(s, "SELECT id, version_name FROM trace"
                                               " WHERE version_name IS NOT NULL", err);
        if (!vq)
            rc = err->code;
        else /* a read error leaves versions unknown (as before) */
            gd_store_each(s, vq, version_row, versions, NULL);
    }
    if (!rc) {
        if (gs.n) /* gd_sort(NULL, 0) is undefined */
            gd_sort(gs.g, gs.n, sizeof *gs.g, cmp_group_total);
        /* --limit: the first groups (the largest totals) */
        size_t n = q->limit > 0 && (uint64_t)q->limit < gs.n ? (size_t)q->limit : gs.n;
        for (size_t i = 0; i < n; i++) {
            group_acc *g = &gs.g[i];
            if (g->n > 1)
                gd_stats_sort(g->durs, g->n);
            json_t *row = json_object();
            json_object_set_new(row, "group", gd_json_str(g->group));
            json_object_set_new(row, "key_frame", gd_json_str(g->key_frame));
            json_object_set_new(row, "group_rule", gd_json_str(g->rule));
            json_object_set_new(row, "count", json_integer((json_int_t)g->n));
            json_object_set_new(row, "total_ms", json_real(gd_ms_round(g->total)));
            json_object_set_new(row, "max_ms", json_real(gd_ms_round(g->durs[g->n - 1])));
            json_object_set_new(row, "p50_ms", json_real(gd_ms_round(gd_percentile(g->durs, g->n, 50))));
            json_object_set_new(row, "p95_ms", json_real(gd_ms_round(gd_percentile(g->durs, g->n, 95))));
            json_object_set_new(row, "traces", json_integer((json_int_t)g->ntraces));
            /* #47: whose blocks: the longest one's process, and every
             * process of them (at most GD_GROUP_PROCS) */
            json_t *procs = json_array();
            for (size_t k = 0; k < g->nprocs; k++)
                json_array_append_new(procs, json_string(g->procs[k]));
            json_object_set_new(row, "process", g->nprocs ? json_string(g->procs[0]) : json_null());
            json_object_set_new(row, "processes", procs);
            const char *first = NULL, *last = NULL;
            for (size_t t = 0; t < g->ntraces; t++) {
                char id[32];
                snprintf(id, sizeof id, "%lld", (long long)g->traces[t]);
                const char *v = json_string_value(json_object_get(versions, id));
                if (v && (!first || gd_version_cmp(v, first) < 0))
                    first = v;
                if (v && (!last || gd_version_cmp(v, last) > 0))
                    last = v;
            }
            json_object_set_new(row, "first_version", gd_json_str(first));
            json_object_set_new(row, "last_version", gd_json_str(last));
            /* #26: the group's time by state, binder and lock waits, as
             * shares of its total (null where none of its traces has such data) */
            if (gd_why_shares_json(row, g->st, g->total, g->have)) {
                json_decref(row);
                rc = gd_error_oom(err);
                break;
            }
            int stop = fn(ctx, row);
            json_decref(row);
            if (stop)
                break;
        }
    }
    for (size_t i = 0; i < gs.n; i++) {
        for (size_t k = 0; k < gs.g[i].nprocs; k++)
            free(gs.g[i].procs[k]);
        free(gs.g[i].group);
        free(gs.g[i].key_frame);
        free(gs.g[i].rule);
        free(gs.g[i].durs);
        free(gs.g[i].traces);
    }
    free(gs.g);
    json_decref(gs.index);
    json_decref(gs.trace_have);
    json_decref(versions);
    return rc;
}
