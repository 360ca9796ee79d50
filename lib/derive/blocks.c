/* derive/blocks.c - block details derived from stored rows, the same code at ingest and at query time. */
#include "derive/blocks.h"
#include "derive/states.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "derive/methods.h"

/* ---- trace configuration ------------------------------------------------ */

/* A trace's thresholds and concern packages, read by name. */
#define CFG_COLS(X)                                                                                \
    X(CF_LONG, "long_ms") X(CF_ANR, "anr_ms") X(CF_INTERVAL, "dump_interval_ms") X(CF_CONCERN, "concern")
enum { CF_SHORT = 0, CFG_COLS(GD_COL_ENUM) CF_NCOLS };

int gd_trace_cfg_load(gd_store *s, int64_t trace, gd_trace_cfg *cfg, gd_error *err)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->id = trace;
    sqlite3_stmt *q = gd_store_prepare(
        s, "SELECT short_ms" CFG_COLS(GD_COL_SQL) " FROM trace WHERE id = ?", err);
    if (!q)
        return err->code;
    sqlite3_bind_int64(q, 1, trace);
    if (sqlite3_step(q) != SQLITE_ROW) {
        sqlite3_finalize(q);
        return gd_error_set(err, GD_ERR_DATA, 0, 0, "no trace %lld", (long long)trace);
    }
    cfg->short_ms = sqlite3_column_double(q, CF_SHORT);
    cfg->long_ms = sqlite3_column_double(q, CF_LONG);
    cfg->anr_ms = sqlite3_column_double(q, CF_ANR);
    cfg->interval_ms =
        sqlite3_column_type(q, CF_INTERVAL) == SQLITE_NULL ? GD_NONE : sqlite3_column_double(q, CF_INTERVAL);
    const char *con = (const char *)sqlite3_column_text(q, CF_CONCERN);
    json_t *a = con ? gd_json_load_text(con, strlen(con), 0) : NULL;
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v)
        if (json_is_string(v) && cfg->nconcern < GD_MAX_CONCERN)
            cfg->concern[cfg->nconcern++] = strdup(json_string_value(v));
    json_decref(a);
    sqlite3_finalize(q);
    return GD_OK;
}

void gd_trace_cfg_free(gd_trace_cfg *cfg)
{
    for (size_t i = 0; i < cfg->nconcern; i++)
        free(cfg->concern[i]);
    cfg->nconcern = 0;
}

/* ---- block derivation --------------------------------------------------- */

#define CS_SLOTS 65536

typedef struct cs_slot {
    int64_t id, parent;
    char *text;
} cs_slot;

/* The deriver's statements' columns, read by name: a sample in the block
 * (SM_), a callsite's parent and frame (CH_), a CPU sample (CU_), the
 * memory snapshot before or after (MM_), a message's text (MS_). */
#define SAMPLE_COLS(X) X(SM_CALLSITE, "callsite")
enum { SM_TS = 0, SAMPLE_COLS(GD_COL_ENUM) SM_NCOLS };
#define CHAIN_COLS(X) X(CH_TEXT, "f.text")
enum { CH_PARENT = 0, CHAIN_COLS(GD_COL_ENUM) CH_NCOLS };
#define CPU_COLS(X) X(CU_BUSY, "busy") X(CU_TOTAL, "total") X(CU_RATIO, "total_ratio")
enum { CU_TS = 0, CPU_COLS(GD_COL_ENUM) CU_NCOLS };
#define MEM_COLS(X) X(MM_TS, "ts_ms")
enum { MM_ID = 0, MEM_COLS(GD_COL_ENUM) MM_NCOLS };
enum { MS_TEXT = 0 };

struct gd_deriver {
    gd_store *s;
    sqlite3_stmt *samples, *chain, *cpu, *mem_before, *mem_after, *message;
    cs_slot *cs;
    int64_t calls_trace; /* the trace has_calls is for, -1 none yet */
    int has_calls;       /* it has method calls: blame can be non-empty */
    int64_t why_trace;   /* the trace why_have is for, -1 none yet */
    int why_have;        /* gd_why_have's bits (derive/states.h) */
};

gd_deriver *gd_deriver_new(gd_store *s, gd_error *err)
{
    gd_deriver *d = calloc(1, sizeof *d);
    if (!d) {
        gd_error_oom(err);
        return NULL;
    }
    d->s = s;
    d->calls_trace = -1;
    d->why_trace = -1;
    /* d->cs, 1.5 MiB, is made at the first stack walked: a deriver per
     * file of a folder of small files would clear and free it each time */
    d->samples = gd_store_prepare(s, "SELECT ts_ms" SAMPLE_COLS(GD_COL_SQL) " FROM sample"
                                     " WHERE trace = ? AND tid = ? AND pid = ? AND ts_ms > ? AND ts_ms < ?"
                                     " ORDER BY ts_ms, id", err);
    d->chain = gd_store_prepare(s, "SELECT c.parent" CHAIN_COLS(GD_COL_SQL) " FROM callsite c JOIN frame f"
                                   " ON f.id = c.frame WHERE c.id = ?", err);
    d->cpu = gd_store_prepare(s, "SELECT ts_ms" CPU_COLS(GD_COL_SQL) " FROM cpu WHERE trace = ?"
                                 " AND ts_ms >= ? AND ts_ms <= ? ORDER BY ts_ms, id", err);
    d->mem_before = gd_store_prepare(s, "SELECT id" MEM_COLS(GD_COL_SQL) " FROM memory"
                                        " WHERE trace = ? AND ts_ms <= ? ORDER BY ts_ms DESC LIMIT 1", err);
    d->mem_after = gd_store_prepare(s, "SELECT id" MEM_COLS(GD_COL_SQL) " FROM memory"
                                       " WHERE trace = ? AND ts_ms > ? ORDER BY ts_ms LIMIT 1", err);
    d->message = gd_store_prepare(s, "SELECT text FROM message WHERE id = ?", err);
    if (!d->samples || !d->chain || !d->cpu || !d->mem_before || !d->mem_after || !d->message) {
        gd_deriver_free(d);
        return NULL;
    }
    return d;
}

void gd_deriver_free(gd_deriver *d)
{
    if (!d)
        return;
    sqlite3_finalize(d->samples);
    sqlite3_finalize(d->chain);
    sqlite3_finalize(d->cpu);
    sqlite3_finalize(d->mem_before);
    sqlite3_finalize(d->mem_after);
    sqlite3_finalize(d->message);
    if (d->cs)
        for (size_t i = 0; i < CS_SLOTS; i++)
            free(d->cs[i].text);
    free(d->cs);
    free(d);
}

/* The callsite's parent and frame text (cached, direct-mapped). */
static const char *callsite_frame(gd_deriver *d, int64_t id, int64_t *parent, gd_error *err)
{
    if (!d->cs && !(d->cs = calloc(CS_SLOTS, sizeof *d->cs))) {
        gd_error_oom(err);
        return NULL;
    }
    cs_slot *sl = &d->cs[(uint64_t)id % CS_SLOTS];
    if (sl->text && sl->id == id) {
        *parent = sl->parent;
        return sl->text;
    }
    sqlite3_bind_int64(d->chain, 1, id);
    if (sqlite3_step(d->chain) != SQLITE_ROW) {
        sqlite3_reset(d->chain);
        gd_error_set(err, GD_ERR_DATA, 0, 0, "database: callsite %lld missing", (long long)id);
        return NULL;
    }
    free(sl->text);
    sl->id = id;
    sl->parent = sqlite3_column_int64(d->chain, CH_PARENT);
    sl->text = strdup((const char *)sqlite3_column_text(d->chain, CH_TEXT));
    sqlite3_reset(d->chain);
    *parent = sl->parent;
    return sl->text;
}


/* The samples in the block's interval: each stack walked innermost first,
 * its frames fed to the key-frame rule (and to `stacks` when wanted). */
static int derive_samples(gd_deriver *d, const gd_trace_cfg *cfg, int64_t pid, int64_t tid,
                          double start, double end, int unfinished, gd_kf_acc *kf, json_t *stacks,
                          gd_block_info *out, gd_error *err)
{
    int rc = GD_OK;
    sqlite3_stmt *q = d->samples;
    sqlite3_bind_int64(q, 1, cfg->id);
    sqlite3_bind_int64(q, 2, tid);
    sqlite3_bind_int64(q, 3, pid);
    sqlite3_bind_double(q, 4, start);
    sqlite3_bind_double(q, 5, unfinished ? nextafter(end, INFINITY) : end);
    /* a hand-written loop, not gd_store_each_reuse: a sample's walk up its
     * callsites ends the loop on an error of its own (callsite_frame) and
     * feeds two accumulators; the deriver's statement is reset below */
    while (sqlite3_step(q) == SQLITE_ROW) {
        double ts = sqlite3_column_double(q, SM_TS);
        int64_t cs = sqlite3_column_int64(q, SM_CALLSITE);
        json_t *frames = stacks ? json_array() : NULL;
        gd_kf_next_sample(kf);
        /* walk from the innermost callsite to the root: innermost first;
         * each frame goes to the key-frame rule (which copies what it
         * keeps) before the callsite cache can evict it */
        int guard = 0;
        for (size_t j = 0; cs != 0 && guard++ < 100000; j++) {
            int64_t parent;
            const char *t = callsite_frame(d, cs, &parent, err);
            if (!t) {
                rc = err->code;
                break;
            }
            if (gd_kf_add_frame(kf, t, j)) {
                rc = gd_error_oom(err);
                break;
            }
            if (frames)
                json_array_append_new(frames, json_string(t));
            cs = parent;
        }
        if (!rc && frames)
            json_array_append_new(stacks, json_pack("{s:f s:o}", "ts_ms", gd_ms_round(ts), "frames", frames));
        else
            json_decref(frames);
        if (rc)
            break;
        out->samples++;
    }
    sqlite3_reset(q);
    return rc;
}

/* The method blamed for the block, when the trace has method calls. */
static int derive_blame(gd_deriver *d, const gd_trace_cfg *cfg, int64_t pid, int64_t tid,
                        double start, double end, gd_block_info *out, gd_error *err)
{
    int rc = GD_OK;
    if (d->calls_trace != cfg->id) {
        /* most captures have no method trace: no call window to look up */
        sqlite3_stmt *hq = gd_store_cached(d->s, "SELECT 1 FROM call WHERE trace = ? LIMIT 1", err);
        if (!hq)
            return err->code;
        sqlite3_bind_int64(hq, 1, cfg->id);
        int step = sqlite3_step(hq);
        if (step != SQLITE_ROW && step != SQLITE_DONE)
            rc = gd_store_fail(d->s, err, "database read");
        gd_store_release(d->s, hq);
        if (rc)
            return rc;
        d->has_calls = step == SQLITE_ROW;
        d->calls_trace = cfg->id;
    }
    if (!d->has_calls)
        return GD_OK;
    return gd_methods_blame(d->s, cfg->id, (const char *const *)cfg->concern, cfg->nconcern, pid, tid,
                            start, end, out->blame, sizeof out->blame, err);
}

/* No stack sample and no method: the blame is the block's dominant cause
 * (a lock owner, a binder peer, a state: gd_why_text, #26). */
static int derive_why_blame(gd_deriver *d, const gd_trace_cfg *cfg, int64_t tid, double start,
                            double end, gd_block_info *out, gd_error *err)
{
    int rc;
    if (d->why_trace != cfg->id) {
        if ((rc = gd_why_have(d->s, &d->why_have, err)))
            return rc;
        d->why_trace = cfg->id;
    }
    if (!d->why_have)
        return GD_OK;
    gd_why w;
    if ((rc = gd_why_in(d->s, d->why_have, cfg->id, tid, start, end, &w, err)))
        return rc;
    gd_why_text(&w, end - start, out->blame, sizeof out->blame);
    return GD_OK;
}

/* derive_cpu's rows, gathered (gd_store_each_reuse's callback) */
typedef struct {
    gd_cpu_point *pts;
    size_t n, cap;
} cpu_acc;

static int cpu_row(void *ctx, sqlite3_stmt *c)
{
    cpu_acc *a = ctx;
    if (gd_grow((void **)&a->pts, &a->cap, a->n + 1, sizeof *a->pts, NULL))
        return GD_EACH_STOP; /* out of memory: the points so far */
    gd_cpu_point *p = &a->pts[a->n++];
    p->ts = sqlite3_column_double(c, CU_TS);
    p->has_raw = sqlite3_column_type(c, CU_TOTAL) != SQLITE_NULL;
    p->busy = (uint64_t)sqlite3_column_int64(c, CU_BUSY);
    p->total = (uint64_t)sqlite3_column_int64(c, CU_TOTAL);
    p->ratio = sqlite3_column_type(c, CU_RATIO) == SQLITE_NULL ? GD_NONE : sqlite3_column_double(c, CU_RATIO);
    return GD_OK;
}

/* CPU busy of [start, end] from the samples since start - interval (a read
 * error ends the points there, as an allocation failure does). */
static int derive_cpu(gd_deriver *d, const gd_trace_cfg *cfg, double start, double end)
{
    double lo = gd_has(cfg->interval_ms) && cfg->interval_ms > 0 ? start - cfg->interval_ms : start;
    cpu_acc a = {0};
    sqlite3_stmt *c = d->cpu;
    sqlite3_bind_int64(c, 1, cfg->id);
    sqlite3_bind_double(c, 2, lo);
    sqlite3_bind_double(c, 3, end);
    /* the deriver's statement, run again for every block: only reset */
    gd_store_each_reuse(d->s, c, cpu_row, &a, NULL);
    int busy = gd_cpu_busy_of(a.pts, a.n, start, end, cfg->interval_ms);
    free(a.pts);
    return busy;
}

/* The memory snapshot nearest to `end` (the earlier on a tie), -1 none. */
static int64_t derive_memory(gd_deriver *d, const gd_trace_cfg *cfg, double end)
{
    int64_t id_b = -1, id_a = -1;
    double t_b = 0, t_a = 0;
    sqlite3_bind_int64(d->mem_before, 1, cfg->id);
    sqlite3_bind_double(d->mem_before, 2, end);
    if (sqlite3_step(d->mem_before) == SQLITE_ROW) {
        id_b = sqlite3_column_int64(d->mem_before, MM_ID);
        t_b = sqlite3_column_double(d->mem_before, MM_TS);
    }
    sqlite3_reset(d->mem_before);
    sqlite3_bind_int64(d->mem_after, 1, cfg->id);
    sqlite3_bind_double(d->mem_after, 2, end);
    if (sqlite3_step(d->mem_after) == SQLITE_ROW) {
        id_a = sqlite3_column_int64(d->mem_after, MM_ID);
        t_a = sqlite3_column_double(d->mem_after, MM_TS);
    }
    sqlite3_reset(d->mem_after);
    if (id_b >= 0 && (id_a < 0 || end - t_b <= t_a - end))
        return id_b;
    return id_a;
}

/* The group of a block without a key frame: from its message's text. */
static void derive_fallback_group(gd_deriver *d, int64_t message, gd_block_info *out)
{
    if (message < 0)
        return;
    sqlite3_bind_int64(d->message, 1, message);
    if (sqlite3_step(d->message) == SQLITE_ROW)
        out->group_rule = gd_group_fallback((const char *)sqlite3_column_text(d->message, MS_TEXT), out->group,
                                            sizeof out->group);
    sqlite3_reset(d->message);
}

int gd_deriver_block(gd_deriver *d, const gd_trace_cfg *cfg, int64_t pid, int64_t tid, double start,
                     double end, int unfinished, int64_t message, gd_block_info *out,
                     json_t **want_stacks, gd_error *err)
{
    memset(out, 0, sizeof *out);
    out->cpu_busy = -1;
    out->memory = -1;
    int rc = GD_OK;
    /* frames are fed one at a time to the key-frame rule: memory grows with
     * the block's distinct frames, not with its samples */
    gd_kf_acc *kf = gd_kf_new((const char *const *)cfg->concern, cfg->nconcern);
    json_t *stacks = want_stacks ? json_array() : NULL;
    if (!kf || (want_stacks && !stacks)) {
        rc = gd_error_oom(err);
        goto out;
    }
    if ((rc = derive_samples(d, cfg, pid, tid, start, end, unfinished, kf, stacks, out, err)))
        goto out;
    const char *k = gd_kf_result(kf);
    if (k) {
        snprintf(out->key_frame, sizeof out->key_frame, "%s", k);
        gd_group_of(k, out->group, sizeof out->group);
        out->group_rule = GD_GROUP_KEY_FRAME;
    } else {
        derive_fallback_group(d, message, out);
    }
    if ((rc = derive_blame(d, cfg, pid, tid, start, end, out, err)))
        goto out;
    if (!out->blame[0] && !out->samples && (rc = derive_why_blame(d, cfg, tid, start, end, out, err)))
        goto out;
    if (want_stacks) {
        *want_stacks = stacks;
        stacks = NULL;
    }
    out->cpu_busy = derive_cpu(d, cfg, start, end);
    out->memory = derive_memory(d, cfg, end);
out:
    gd_kf_free(kf);
    json_decref(stacks);
    return rc;
}

/* How many dispatches of `trace` last at least short_ms. */
enum { CC_COUNT = 0 }; /* its one column */
static int count_candidates(gd_store *s, int64_t trace, double short_ms, int64_t *total, gd_error *err)
{
    sqlite3_stmt *c = gd_store_prepare(s, "SELECT count(*) FROM dispatch WHERE trace = ? AND dur_ms >= ?", err);
    if (!c)
        return err->code ? err->code : GD_ERR_IO;
    sqlite3_bind_int64(c, 1, trace);
    sqlite3_bind_double(c, 2, short_ms);
    if (sqlite3_step(c) == SQLITE_ROW)
        *total = sqlite3_column_int64(c, CC_COUNT);
    sqlite3_finalize(c);
    return GD_OK;
}

/* A dispatch at or past the short threshold, read by name. */
#define DISPATCH_COLS(X)                                                                           \
    X(DP_PID, "pid") X(DP_TID, "tid") X(DP_START, "start_ms") X(DP_DUR, "dur_ms")                  \
    X(DP_UNFINISHED, "unfinished") X(DP_MESSAGE, "coalesce(message, -1)")
enum { DP_ID = 0, DISPATCH_COLS(GD_COL_ENUM) DP_NCOLS };

/* gd_derive_blocks' loop: the deriver, the INSERT and the count so far. */
typedef struct blocks_ctx {
    gd_store *s;
    gd_deriver *dv;
    const gd_trace_cfg *cfg;
    sqlite3_stmt *ins;
    long *nblocks;
    int64_t total;
    gd_derive_progress_fn progress;
    void *progress_ctx;
    gd_error *err;
} blocks_ctx;

/* One dispatch: its block derived and stored. */
static int block_row(void *ctx, sqlite3_stmt *q)
{
    blocks_ctx *c = ctx;
    sqlite3_stmt *ins = c->ins;
    gd_block_info bi;
    double start = sqlite3_column_double(q, DP_START);
    int rc = gd_deriver_block(c->dv, c->cfg, sqlite3_column_int64(q, DP_PID), sqlite3_column_int64(q, DP_TID),
                              start, start + sqlite3_column_double(q, DP_DUR),
                              sqlite3_column_int(q, DP_UNFINISHED), sqlite3_column_int64(q, DP_MESSAGE), &bi,
                              NULL, c->err);
    if (rc)
        return rc;
    sqlite3_bind_int64(ins, 1, sqlite3_column_int64(q, DP_ID));
    sqlite3_bind_int64(ins, 2, c->cfg->id);
    sqlite3_bind_double(ins, 9, sqlite3_column_double(q, DP_DUR));
    sqlite3_bind_int64(ins, 3, bi.samples);
    gd_bind_text(ins, 4, bi.key_frame[0] ? bi.key_frame : NULL);
    gd_bind_text(ins, 5, bi.group[0] ? bi.group : NULL);
    if (bi.cpu_busy >= 0)
        sqlite3_bind_int(ins, 6, bi.cpu_busy);
    else
        sqlite3_bind_null(ins, 6);
    gd_bind_opt_int(ins, 7, bi.memory);
    gd_bind_text(ins, 8, bi.blame[0] ? bi.blame : NULL);
    gd_bind_text(ins, 10, gd_group_rule_name(bi.group_rule));
    sqlite3_bind_int64(ins, 11, sqlite3_column_int64(q, DP_PID));
    if ((rc = gd_store_step(c->s, ins, c->err)))
        return rc;
    (*c->nblocks)++;
    if (c->progress && (*c->nblocks & 0x3ff) == 0)
        c->progress(c->progress_ctx, (uint64_t)*c->nblocks, c->total);
    return GD_OK;
}

int gd_derive_blocks(gd_store *s, int64_t trace, gd_derive_progress_fn progress, void *progress_ctx,
                     long *nblocks, gd_error *err)
{
    gd_trace_cfg cfg;
    int rc = gd_trace_cfg_load(s, trace, &cfg, err);
    if (rc)
        return rc;
    gd_deriver *dv = gd_deriver_new(s, err);
    sqlite3_stmt *q = gd_store_prepare(
        s, "SELECT id" DISPATCH_COLS(GD_COL_SQL) " FROM dispatch WHERE trace = ?"
           " AND dur_ms >= ?"
           " ORDER BY start_ms", err);
    sqlite3_stmt *ins = gd_store_prepare(
        s, "INSERT INTO block(dispatch, trace, samples, key_frame, grp, cpu_busy, memory, blame,"
           " dur_ms, grp_rule, pid) VALUES (?,?,?,?,?,?,?,?,?,?,?)", err);
    if (!dv || !q || !ins) {
        rc = err->code ? err->code : GD_ERR_IO;
        goto out;
    }
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_double(q, 2, cfg.short_ms);
    blocks_ctx c = {.s = s, .dv = dv, .cfg = &cfg, .ins = ins, .nblocks = nblocks,
                    .progress = progress, .progress_ctx = progress_ctx, .err = err};
    if (progress) { /* how many dispatches the analysis goes through */
        if ((rc = count_candidates(s, trace, cfg.short_ms, &c.total, err)))
            goto out;
        progress(progress_ctx, 0, c.total);
    }
    rc = gd_store_each(s, q, block_row, &c, err);
    q = NULL; /* finalized by gd_store_each */
    if (!rc && progress)
        progress(progress_ctx, (uint64_t)*nblocks, c.total);
out:
    sqlite3_finalize(q);
    sqlite3_finalize(ins);
    gd_deriver_free(dv);
    gd_trace_cfg_free(&cfg);
    return rc;
}
