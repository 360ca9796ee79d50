/* ingest/writer.c - the writer: one trace from the event stream into the store. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/icache.h"
#include "reader/procstat.h"
#include "store/store_int.h"
#include "core/util.h"
#include "derive/methods.h"

enum {
    ST_LOOPER,
    ST_DISPATCH,
    ST_FRAME_INS,
    ST_FRAME_SEL,
    ST_CS_INS,
    ST_CS_SEL,
    ST_SAMPLE,
    ST_CPU,
    ST_MEMORY,
    ST_RAW,
    ST_MSG_INS,
    ST_MSG_SEL,
    ST_THREAD,
    ST_STARTUP,
    ST__COUNT
};

static const char *const stmt_sql[ST__COUNT] = {
    "INSERT INTO temp.looper_tmp(pid, tid, ts, phase, thread_ts, msg) VALUES (?,?,?,?,?,?)",
    "INSERT INTO dispatch(trace, pid, tid, start_ms, dur_ms, thread_ms, unfinished, message)"
    " VALUES (?,?,?,?,?,?,?,?)",
    "INSERT OR IGNORE INTO frame(text) VALUES (?)",
    "SELECT id FROM frame WHERE text = ?",
    "INSERT OR IGNORE INTO callsite(parent, frame, depth) VALUES (?,?,?)",
    "SELECT id FROM callsite WHERE parent = ? AND frame = ?",
    "INSERT INTO sample(trace, pid, tid, ts_ms, callsite, state) VALUES (?,?,?,?,?,?)",
    "INSERT INTO cpu(trace, ts_ms, busy, total, app, user_j, nice_j, system_j, idle_j, iowait_j,"
    " irq_j, softirq_j, total_ratio, app_ratio, user_ratio, sys_ratio, iowait_ratio)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO memory(trace, ts_ms, heap_free_kb, heap_max_kb, heap_alloc_kb, pss_total_kb,"
    " pss_dalvik_kb, pss_native_kb, pss_other_kb, ram_avail_kb, ram_total_kb,"
    " ram_low_threshold_kb, ram_is_low) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO raw_event(trace, kind, ts_ms, pid, tid, json) VALUES (?,?,?,?,?,?)",
    "INSERT OR IGNORE INTO message(text, handler, callback, what) VALUES (?,?,?,?)",
    "SELECT id FROM message WHERE text = ?",
    "INSERT OR IGNORE INTO thread(trace, pid, tid, name) VALUES (?,?,?,?)",
    "INSERT INTO startup(trace, app, activity, kind, total_ms, wait_ms, source, ts_ms)"
    " VALUES (?,?,?,?,?,?,?,?)",
};

typedef struct stat_entry {
    char *reason;
    long count, first_line;
    struct stat_entry *next;
} stat_entry;

/* Meta merged over the stream (first value wins), owned copies. */
typedef struct meta_acc {
    char *app, *version_name, *device, *session, *json;
    const char *clock;      /* a static name: "utc", "local", "monotonic" */
    int64_t version_code, api_level, cpu_cores, pid, main_tid, clk_tck, max_depth;
    int64_t utc_offset_min; /* INT64_MIN: unknown */
    double long_ms, short_ms, interval_ms;
    char *concern[GD_MAX_CONCERN];
    size_t nconcern;
} meta_acc;

/* One thread's streaming pairing state. */
typedef struct stream_thr {
    int64_t pid, tid;
    double last_ts;
    gd_pair p;
} stream_thr;

/* A Looper print as kept for the sorted fallback: appended to a temp file
 * (cheaper than a temp table; loaded into one only when streaming stopped). */
typedef struct print_rec {
    int64_t pid, tid, msg;
    double ts, thread_ts; /* thread_ts NONE when absent */
    int32_t phase, pad;
} print_rec;

/* A dispatch event (already paired by its tool), kept until the end. */
typedef struct disp_rec {
    int64_t pid, tid, msg;
    double ts, dur, thread_dur; /* thread_dur NONE when unknown */
    int32_t unfinished, pad;
} disp_rec;

/* Appends one record to a temporary file, created on first use. */
static int tmp_put(FILE **f, const void *rec, size_t n, gd_error *err)
{
    if (!*f && !(*f = tmpfile()))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot create a temporary file: %s", strerror(errno));
    if (fwrite(rec, n, 1, *f) != 1)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "temporary file: %s", strerror(errno));
    return GD_OK;
}

/* Rewinds a temporary file for reading its records back. */
static int tmp_rewind(FILE *f, gd_error *err)
{
    if (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "temporary file: %s", strerror(errno));
    return GD_OK;
}

/* Past this many threads with Looper prints, pairing falls back to the
 * sorted temp table (it keeps the streaming state's memory bounded). */
#define STREAM_MAX_THREADS 256

struct gd_writer {
    gd_store *s;
    gd_sink sink;
    int64_t trace;   /* reserved id; the row is written by save_trace */
    char *source, *format;
    sqlite3_stmt *st[ST__COUNT];
    gd_icache *frames, *callsites, *messages;
    gd_views_writer *views;
    gd_mw *methods;
    stat_entry *stats;
    meta_acc meta;
    long events, skipped;
    double min_ts, max_ts;
    int failed;
    int64_t last_thread_pid, last_thread_tid;
    int open;
    double write_s;  /* time spent in the sink */
    gd_writer_progress_fn progress; /* analysis progress, or NULL */
    void *progress_ctx;
    const char *default_clock; /* the format's clock, when no meta names one */
    long unresolved; /* rows written with pid or tid -1 (resolve_main's work) */
    gd_bulk bulk;    /* indexes dropped for the load of a new database */
    /* Looper prints paired as they arrive, per thread (see stream_print);
     * while stream_on, every dispatch row of this trace came from here */
    int stream_on;
    FILE *prints;         /* every print, in arrival order (print_rec) */
    FILE *directs;        /* dispatch events (disp_rec), inserted at the end */
    int64_t stream_first; /* id of the first dispatch streamed, 0 none yet */
    stream_thr *thr;
    size_t nthr, thr_cap, thr_last;
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void count_reason_n(gd_writer *w, const char *reason, long n, long line)
{
    for (stat_entry *e = w->stats; e; e = e->next)
        if (strcmp(e->reason, reason) == 0) {
            e->count += n;
            return;
        }
    stat_entry *e = calloc(1, sizeof *e);
    if (!e)
        return;
    e->reason = strdup(reason);
    e->count = n;
    e->first_line = line;
    e->next = w->stats;
    w->stats = e;
}

static void count_reason(gd_writer *w, const char *reason, long line)
{
    count_reason_n(w, reason, 1, line);
}

static void on_skip(void *ctx, const char *reason, long line, long col)
{
    gd_writer *w = ctx;
    count_reason(w, reason, line);
    if (strncmp(reason, "ignored:", 8) != 0)
        w->skipped++;
}

static int on_meta(void *ctx, const gd_meta *m, gd_error *err)
{
    gd_writer *w = ctx;
    meta_acc *a = &w->meta;
#define TAKE_S(f, v) if (!a->f && (v)) a->f = strdup(v)
#define TAKE_I(f, v) if (a->f < 0 && (v) >= 0) a->f = (v)
#define TAKE_D(f, v) if (!gd_has(a->f) && gd_has(v)) a->f = (v)
    TAKE_S(app, m->app);
    TAKE_S(version_name, m->version_name);
    TAKE_S(device, m->device);
    TAKE_S(session, m->session);
    TAKE_S(json, m->json);
    TAKE_I(version_code, m->version_code);
    TAKE_I(api_level, m->api_level);
    TAKE_I(cpu_cores, m->cpu_cores);
    TAKE_I(pid, m->pid);
    TAKE_I(main_tid, m->main_tid);
    TAKE_I(clk_tck, m->clk_tck);
    TAKE_I(max_depth, m->max_depth);
    TAKE_D(long_ms, m->long_block_ms);
    TAKE_D(short_ms, m->short_block_ms);
    TAKE_D(interval_ms, m->dump_interval_ms);
    if (!a->clock)
        a->clock = gd_store_clock_name(m->clock);
    if (a->utc_offset_min == INT64_MIN && m->utc_offset_min != INT64_MIN)
        a->utc_offset_min = m->utc_offset_min;
#undef TAKE_S
#undef TAKE_I
#undef TAKE_D
    if (a->nconcern == 0)
        for (size_t i = 0; i < m->nconcern && i < GD_MAX_CONCERN; i++)
            a->concern[a->nconcern++] = strdup(m->concern[i]);
    return 0;
}

/* INSERT OR IGNORE then SELECT: the id of a unique row. */
static int intern(gd_writer *w, gd_icache *cache, int ins, int sel, const void *key, size_t klen,
                  int64_t *id, gd_error *err)
{
    if (cache && gd_icache_get(cache, key, klen, id))
        return GD_OK;
    int rc;
    if ((rc = gd_store_step(w->s, w->st[ins], err)))
        return rc;
    if (sqlite3_changes(w->s->db) > 0) {
        *id = sqlite3_last_insert_rowid(w->s->db);
    } else {
        sqlite3_stmt *st = w->st[sel];
        if (sqlite3_step(st) != SQLITE_ROW) {
            sqlite3_reset(st);
            return gd_store_fail(w->s, err, "database lookup");
        }
        *id = sqlite3_column_int64(st, 0);
        sqlite3_reset(st);
    }
    if (cache)
        gd_icache_put(cache, key, klen, *id);
    return GD_OK;
}

/* Splits ">>>>> Dispatching to Handler (H) {hash} CALLBACK: WHAT". */
static void parse_msg(const char *msg, char *handler, char *callback, char *what, size_t n)
{
    handler[0] = callback[0] = what[0] = 0;
    const char *p = strstr(msg, "Dispatching to ");
    if (!p)
        p = strstr(msg, "Finished to ");
    if (!p)
        return;
    p = strchr(p, ' ');
    p = p ? strchr(p + 1, ' ') : NULL;
    if (!p)
        return;
    p++;
    const char *rest = p;
    if (strncmp(p, "Handler (", 9) == 0) {
        const char *close = strchr(p + 9, ')');
        if (close) {
            snprintf(handler, n, "%.*s", (int)(close - (p + 9)), p + 9);
            const char *brace = strstr(close, "} ");
            rest = brace ? brace + 2 : close + 1;
            while (*rest == ' ')
                rest++;
        }
    }
    const char *colon = strrchr(rest, ':');
    if (colon && colon[1] == ' ') {
        snprintf(callback, n, "%.*s", (int)(colon - rest), rest);
        snprintf(what, n, "%s", colon + 2);
    } else {
        snprintf(callback, n, "%s", rest);
    }
    if (strcmp(callback, "null") == 0)
        callback[0] = 0;
}

static int intern_msg(gd_writer *w, const char *msg, int64_t *id, gd_error *err)
{
    char h[256], c[256], wh[256]; /* parse_msg fills each up to sizeof h */
    size_t len = strlen(msg);
    if (gd_icache_get(w->messages, msg, len, id))
        return GD_OK;
    parse_msg(msg, h, c, wh, sizeof h);
    sqlite3_stmt *ins = w->st[ST_MSG_INS];
    sqlite3_bind_text(ins, 1, msg, (int)len, SQLITE_STATIC);
    gd_bind_text(ins, 2, h[0] ? h : NULL);
    gd_bind_text(ins, 3, c[0] ? c : NULL);
    sqlite3_bind_text(ins, 4, wh[0] ? wh : NULL, -1, SQLITE_TRANSIENT);
    if (!wh[0])
        sqlite3_bind_null(ins, 4);
    sqlite3_bind_text(w->st[ST_MSG_SEL], 1, msg, (int)len, SQLITE_STATIC);
    int rc = intern(w, w->messages, ST_MSG_INS, ST_MSG_SEL, msg, len, id, err);
    sqlite3_clear_bindings(ins);
    return rc;
}

static int note_thread(gd_writer *w, const gd_event *ev, gd_error *err)
{
    if (!ev->thread || (ev->pid == w->last_thread_pid && ev->tid == w->last_thread_tid))
        return GD_OK;
    w->last_thread_pid = ev->pid;
    w->last_thread_tid = ev->tid;
    if (ev->pid == -1 || ev->tid == -1)
        w->unresolved++;
    sqlite3_stmt *st = w->st[ST_THREAD];
    sqlite3_bind_int64(st, 1, w->trace);
    sqlite3_bind_int64(st, 2, ev->pid);
    sqlite3_bind_int64(st, 3, ev->tid);
    sqlite3_bind_text(st, 4, ev->thread, -1, SQLITE_STATIC);
    return gd_store_step(w->s, st, err);
}

static int put_stack(gd_writer *w, const gd_event *ev, gd_error *err)
{
    const gd_stack_ev *s = &ev->u.stack;
    int64_t parent = 0;
    /* outermost first: frames[n-1] is the root */
    for (size_t k = s->nframes; k-- > 0;) {
        const char *f = s->frames[k];
        if (!f)
            f = "?";
        int64_t fid, cid;
        size_t flen = strlen(f);
        sqlite3_bind_text(w->st[ST_FRAME_INS], 1, f, (int)flen, SQLITE_STATIC);
        sqlite3_bind_text(w->st[ST_FRAME_SEL], 1, f, (int)flen, SQLITE_STATIC);
        int rc = intern(w, w->frames, ST_FRAME_INS, ST_FRAME_SEL, f, flen, &fid, err);
        if (rc)
            return rc;
        int64_t key[2] = {parent, fid};
        sqlite3_bind_int64(w->st[ST_CS_INS], 1, parent);
        sqlite3_bind_int64(w->st[ST_CS_INS], 2, fid);
        sqlite3_bind_int64(w->st[ST_CS_INS], 3, (int64_t)(s->nframes - k));
        sqlite3_bind_int64(w->st[ST_CS_SEL], 1, parent);
        sqlite3_bind_int64(w->st[ST_CS_SEL], 2, fid);
        rc = intern(w, w->callsites, ST_CS_INS, ST_CS_SEL, key, sizeof key, &cid, err);
        if (rc)
            return rc;
        parent = cid;
    }
    sqlite3_stmt *st = w->st[ST_SAMPLE];
    sqlite3_bind_int64(st, 1, w->trace);
    sqlite3_bind_int64(st, 2, ev->pid);
    sqlite3_bind_int64(st, 3, ev->tid);
    sqlite3_bind_double(st, 4, ev->ts);
    sqlite3_bind_int64(st, 5, parent);
    gd_bind_text(st, 6, s->state);
    return gd_store_step(w->s, st, err);
}

static int put_cpu(gd_writer *w, const gd_event *ev, gd_error *err)
{
    const gd_cpu_ev *c = &ev->u.cpu;
    sqlite3_stmt *st = w->st[ST_CPU];
    sqlite3_bind_int64(st, 1, w->trace);
    sqlite3_bind_double(st, 2, ev->ts);
    for (int i = 3; i <= 12; i++)
        sqlite3_bind_null(st, i);
    if (c->raw.has_stat) {
        sqlite3_bind_int64(st, 3, (int64_t)gd_cpu_busy(&c->raw));
        sqlite3_bind_int64(st, 4, (int64_t)gd_cpu_total(&c->raw));
        sqlite3_bind_int64(st, 6, (int64_t)c->raw.user);
        sqlite3_bind_int64(st, 7, (int64_t)c->raw.nice);
        sqlite3_bind_int64(st, 8, (int64_t)c->raw.system);
        sqlite3_bind_int64(st, 9, (int64_t)c->raw.idle);
        sqlite3_bind_int64(st, 10, (int64_t)c->raw.iowait);
        sqlite3_bind_int64(st, 11, (int64_t)c->raw.irq);
        sqlite3_bind_int64(st, 12, (int64_t)c->raw.softirq);
    }
    if (c->raw.has_pid_stat)
        sqlite3_bind_int64(st, 5, (int64_t)gd_cpu_app(&c->raw));
    gd_bind_opt_double(st, 13, c->total);
    gd_bind_opt_double(st, 14, c->app);
    gd_bind_opt_double(st, 15, c->user);
    gd_bind_opt_double(st, 16, c->sys);
    gd_bind_opt_double(st, 17, c->iowait);
    return gd_store_step(w->s, st, err);
}

static int put_memory(gd_writer *w, const gd_event *ev, gd_error *err)
{
    const gd_memory_ev *m = &ev->u.memory;
    sqlite3_stmt *st = w->st[ST_MEMORY];
    sqlite3_bind_int64(st, 1, w->trace);
    sqlite3_bind_double(st, 2, ev->ts);
    int64_t v[10] = {m->heap_free_kb, m->heap_max_kb, m->heap_alloc_kb, m->pss_total_kb,
                     m->pss_dalvik_kb, m->pss_native_kb, m->pss_other_kb, m->ram_avail_kb,
                     m->ram_total_kb, m->ram_low_threshold_kb};
    for (int i = 0; i < 10; i++)
        gd_bind_opt_int(st, 3 + i, v[i]);
    gd_bind_opt_int(st, 13, m->ram_is_low);
    return gd_store_step(w->s, st, err);
}

static int put_raw(gd_writer *w, const gd_event *ev, gd_error *err)
{
    json_t *j = gd_event_to_json(ev);
    char *txt = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!txt)
        return gd_error_set(err, GD_ERR_IO, ev->line, 0, "out of memory");
    sqlite3_stmt *st = w->st[ST_RAW];
    sqlite3_bind_int64(st, 1, w->trace);
    sqlite3_bind_text(st, 2, gd_event_kind_name(ev->kind), -1, SQLITE_STATIC);
    gd_bind_opt_double(st, 3, ev->ts);
    sqlite3_bind_int64(st, 4, ev->pid);
    sqlite3_bind_int64(st, 5, ev->tid);
    sqlite3_bind_text(st, 6, txt, -1, free);
    return gd_store_step(w->s, st, err);
}

/* One launch; a kind other than cold/warm/hot is stored as unknown. */
static int put_startup(gd_writer *w, const gd_event *ev, gd_error *err)
{
    const gd_startup_ev *u = &ev->u.startup;
    const char *kind = u->kind;
    if (kind && strcmp(kind, "cold") != 0 && strcmp(kind, "warm") != 0 && strcmp(kind, "hot") != 0) {
        count_reason(w, "ignored: startup: unknown kind", ev->line);
        kind = NULL;
    }
    if (gd_has(ev->ts)) {
        /* one launch logged twice (a bugreport's main and events buffers,
         * read as two sections): same activity and duration within 1 s */
        sqlite3_stmt *q = gd_store_cached(w->s,
                                          "SELECT 1 FROM startup WHERE trace = ? AND activity IS ?"
                                          " AND total_ms = ? AND abs(ts_ms - ?) <= 1000 LIMIT 1",
                                          err);
        if (!q)
            return err->code;
        sqlite3_bind_int64(q, 1, w->trace);
        gd_bind_text(q, 2, u->activity);
        sqlite3_bind_double(q, 3, u->total_ms);
        sqlite3_bind_double(q, 4, ev->ts);
        int seen = sqlite3_step(q) == SQLITE_ROW;
        gd_store_release(w->s, q);
        if (seen) {
            w->events--;
            count_reason(w, "ignored: startup: the same launch reported twice", ev->line);
            return GD_OK;
        }
    }
    sqlite3_stmt *st = w->st[ST_STARTUP];
    sqlite3_bind_int64(st, 1, w->trace);
    gd_bind_text(st, 2, u->app);
    gd_bind_text(st, 3, u->activity);
    gd_bind_text(st, 4, kind);
    sqlite3_bind_double(st, 5, u->total_ms);
    gd_bind_opt_double(st, 6, u->wait_ms >= 0 ? u->wait_ms : GD_NONE);
    gd_bind_text(st, 7, u->source);
    gd_bind_opt_double(st, 8, ev->ts);
    return gd_store_step(w->s, st, err);
}

static int insert_paired(gd_writer *w, sqlite3_stmt *ins, int64_t pid, int64_t tid, const gd_paired *d,
                         gd_error *err);

/* Stops streaming: the dispatches paired so far are deleted (while
 * streaming they are all this trace has) and the prints, all in the temp
 * file, are paired at the end in (pid, tid, ts) order instead. */
static int stream_stop(gd_writer *w, gd_error *err)
{
    w->stream_on = 0;
    free(w->thr);
    w->thr = NULL;
    w->nthr = w->thr_cap = 0;
    if (!w->stream_first)
        return GD_OK;
    char sql[96];
    snprintf(sql, sizeof sql, "DELETE FROM dispatch WHERE id >= %lld", (long long)w->stream_first);
    w->stream_first = 0;
    return gd_store_exec(w->s, sql, err);
}

/* Pairs one print now.  Exactly what pair_prints does at the end, as long
 * as each thread's prints arrive in time order (ties in arrival order, as
 * pair_prints' rowid order has them) and name their thread; the first
 * print that does not stops streaming. */
static int stream_print(gd_writer *w, int64_t pid, int64_t tid, double ts, int phase, double tts,
                        int64_t msg, gd_error *err)
{
    if (pid == -1 || tid == -1)
        return stream_stop(w, err);
    stream_thr *t = NULL;
    if (w->thr_last < w->nthr && w->thr[w->thr_last].pid == pid && w->thr[w->thr_last].tid == tid) {
        t = &w->thr[w->thr_last];
    } else {
        for (size_t i = 0; i < w->nthr; i++)
            if (w->thr[i].pid == pid && w->thr[i].tid == tid) {
                t = &w->thr[i];
                w->thr_last = i;
                break;
            }
    }
    if (!t) {
        if (w->nthr == STREAM_MAX_THREADS)
            return stream_stop(w, err);
        if (gd_grow((void **)&w->thr, &w->thr_cap, w->nthr + 1, sizeof *w->thr, err))
            return err->code;
        t = &w->thr[w->nthr];
        w->thr_last = w->nthr++;
        t->pid = pid;
        t->tid = tid;
        t->last_ts = ts;
        gd_pair_init(&t->p);
    }
    if (ts < t->last_ts)
        return stream_stop(w, err);
    t->last_ts = ts;
    gd_paired d;
    if (!gd_pair_feed(&t->p, gd_pair_phase(&t->p, (gd_phase)phase, NULL), ts, tts, msg, &d))
        return GD_OK;
    int rc = insert_paired(w, w->st[ST_DISPATCH], pid, tid, &d, err);
    if (!rc && !w->stream_first)
        w->stream_first = sqlite3_last_insert_rowid(w->s->db);
    return rc;
}

static int put_event(gd_writer *w, const gd_event *ev, gd_error *err)
{
    if (!gd_has(ev->ts) && ev->kind != GD_EV_FRAME_SUMMARY && ev->kind != GD_EV_ISSUE &&
        ev->kind != GD_EV_STARTUP) { /* am start -W prints no time */
        on_skip(w, "event without a time", ev->line, 0);
        return 0;
    }
    if (gd_event_out_of_range(ev)) { /* never a broken row: counted */
        on_skip(w, "number out of range", ev->line, 0);
        return 0;
    }
    w->events++;
    double end = ev->ts;
    if (ev->kind == GD_EV_DISPATCH && gd_has(ev->u.dispatch.dur) && ev->u.dispatch.dur > 0)
        end = ev->ts + ev->u.dispatch.dur;
    if (ev->kind == GD_EV_METHOD && gd_has(ev->u.method.end_ts) && ev->u.method.end_ts > ev->ts)
        end = ev->u.method.end_ts;
    if (gd_has(ev->ts) && ev->ts > 0) { /* 0: a reader's "time unknown" */
        if (!gd_has(w->min_ts) || ev->ts < w->min_ts)
            w->min_ts = ev->ts;
        if (!gd_has(w->max_ts) || end > w->max_ts)
            w->max_ts = end;
    }
    int rc = note_thread(w, ev, err);
    if (rc)
        return rc;
    gd_event resolved;
    switch (ev->kind) {
    case GD_EV_CPU:
    case GD_EV_MEMORY:
    case GD_EV_LIFECYCLE:
    case GD_EV_VIEW_DUMP:
    case GD_EV_IMAGE:
    case GD_EV_FRAME:
    case GD_EV_STARTUP:
        break;
    default:
        /* the main thread's events, resolved now when the meta already
         * names it, as resolve_main would at the end */
        if ((ev->pid == -1 && w->meta.pid >= 0) || (ev->tid == -1 && w->meta.main_tid >= 0)) {
            resolved = *ev;
            if (resolved.pid == -1 && w->meta.pid >= 0)
                resolved.pid = w->meta.pid;
            if (resolved.tid == -1 && w->meta.main_tid >= 0)
                resolved.tid = w->meta.main_tid;
            ev = &resolved;
        }
        if (ev->pid == -1 || ev->tid == -1)
            w->unresolved++;
        break;
    }
    switch (ev->kind) {
    case GD_EV_LOOPER: {
        int64_t msg = -1;
        const char *m = ev->u.looper.msg;
        int begin = ev->u.looper.phase == GD_PHASE_BEGIN ||
                    (ev->u.looper.phase == GD_PHASE_UNKNOWN && (!m || strncmp(m, "<<<<<", 5) != 0));
        if (m && begin && (rc = intern_msg(w, m, &msg, err)))
            return rc;
        int ph = ev->u.looper.phase;
        if (ph == GD_PHASE_UNKNOWN && m) {
            if (strncmp(m, ">>>>>", 5) == 0)
                ph = GD_PHASE_BEGIN;
            else if (strncmp(m, "<<<<<", 5) == 0)
                ph = GD_PHASE_END;
        }
        print_rec pr = {ev->pid, ev->tid, msg, ev->ts, ev->u.looper.thread_ts, ph, 0};
        if ((rc = tmp_put(&w->prints, &pr, sizeof pr, err)))
            return rc;
        return w->stream_on ? stream_print(w, ev->pid, ev->tid, ev->ts, ph, ev->u.looper.thread_ts,
                                           msg, err)
                            : GD_OK;
    }
    case GD_EV_DISPATCH: {
        const gd_dispatch_ev *d = &ev->u.dispatch;
        if (!gd_has(d->dur) || d->dur < 0) {
            w->events--;
            on_skip(w, "dispatch: negative duration", ev->line, 0);
            return 0;
        }
        int64_t msg = -1;
        if (d->msg && (rc = intern_msg(w, d->msg, &msg, err)))
            return rc;
        /* inserted at the end (put_direct_row): while streaming, the
         * dispatch rows of this trace are only the streamed ones */
        disp_rec dr = {ev->pid, ev->tid, msg, ev->ts, d->dur, d->thread_dur, d->unfinished ? 1 : 0, 0};
        return tmp_put(&w->directs, &dr, sizeof dr, err);
    }
    case GD_EV_STACK:
        if (ev->u.stack.nframes == 0) {
            w->events--;
            on_skip(w, "stack: no frames", ev->line, 0);
            return 0;
        }
        return put_stack(w, ev, err);
    case GD_EV_CPU:
        return put_cpu(w, ev, err);
    case GD_EV_MEMORY:
        return put_memory(w, ev, err);
    case GD_EV_LIFECYCLE:
    case GD_EV_VIEW_DUMP:
    case GD_EV_IMAGE:
    case GD_EV_FRAME:
        return gd_views_put(w->views, w->trace, w->meta.max_depth, ev, on_skip, w, err);
    case GD_EV_METHOD:
        if ((rc = gd_mw_put(w->methods, ev, err)) == 1) {
            w->events--;
            on_skip(w, "method: no method name", ev->line, 0);
            return 0;
        }
        return rc;
    case GD_EV_STARTUP:
        if (!gd_has(ev->u.startup.total_ms) || ev->u.startup.total_ms < 0) {
            w->events--;
            on_skip(w, "startup: no total time", ev->line, 0);
            return 0;
        }
        return put_startup(w, ev, err);
    default:
        return put_raw(w, ev, err);
    }
}

static int on_event(void *ctx, const gd_event *ev, gd_error *err)
{
    gd_writer *w = ctx;
    double t0 = now_s();
    int rc = put_event(w, ev, err);
    w->write_s += now_s() - t0;
    return rc;
}

int gd_writer_open(gd_writer **out, gd_store *s, const char *source, const char *format,
                   gd_error *err)
{
    gd_writer *w = calloc(1, sizeof *w);
    if (!w)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    w->s = s;
    w->min_ts = w->max_ts = GD_NONE;
    w->stream_on = 1;
    w->last_thread_pid = w->last_thread_tid = INT64_MIN;
    meta_acc *a = &w->meta;
    a->version_code = a->api_level = a->cpu_cores = a->pid = a->main_tid = -1;
    a->clk_tck = a->max_depth = -1;
    a->utc_offset_min = INT64_MIN;
    a->long_ms = a->short_ms = a->interval_ms = GD_NONE;
    w->sink = (gd_sink){w, on_meta, on_event, on_skip};
    int rc;
    if ((rc = gd_store_exec(s, "SAVEPOINT gd_trace;"
                               "CREATE TEMP TABLE IF NOT EXISTS looper_tmp(pid INTEGER, tid INTEGER,"
                               " ts REAL, phase INTEGER, thread_ts REAL, msg INTEGER);"
                               "DELETE FROM temp.looper_tmp;",
                            err)))
        goto fail;
    w->open = 1;
    if ((rc = gd_bulk_begin(s, &w->bulk, err)))
        goto fail;
    /* the trace's id, reserved: its row is written once, at the end, when
     * its content hash is known (the ingest transaction is exclusive) */
    sqlite3_stmt *st = gd_store_prepare(s, "SELECT coalesce(max(id), 0) + 1 FROM trace", err);
    if (!st) {
        rc = err->code;
        goto fail;
    }
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        w->trace = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) {
        rc = gd_store_fail(s, err, "database read");
        goto fail;
    }
    if (!(w->source = strdup(source)) || !(w->format = strdup(format))) {
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
        goto fail;
    }
    for (int i = 0; i < ST__COUNT; i++)
        if (!(w->st[i] = gd_store_prepare(s, stmt_sql[i], err))) {
            rc = err->code;
            goto fail;
        }
    w->frames = gd_icache_new(65536, 8 << 20);
    w->callsites = gd_icache_new(131072, 4 << 20);
    w->messages = gd_icache_new(16384, 4 << 20);
    w->views = gd_views_writer_new(s, err);
    if (!w->views) {
        rc = err->code;
        goto fail;
    }
    if ((rc = gd_mw_open(&w->methods, s, w->trace, err)))
        goto fail;
    if (!w->frames || !w->callsites || !w->messages) {
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
        goto fail;
    }
    *out = w;
    return GD_OK;
fail:
    gd_writer_abort(w);
    gd_writer_free(w);
    return rc;
}

const char *gd_store_clock_name(const char *clock)
{
    static const char *const names[] = {"utc", "local", "monotonic"};
    for (size_t i = 0; clock && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(clock, names[i]) == 0)
            return names[i];
    return NULL;
}

void gd_writer_default_clock(gd_writer *w, const char *clock)
{
    w->default_clock = gd_store_clock_name(clock);
}

const gd_sink *gd_writer_sink(gd_writer *w) { return &w->sink; }

long gd_writer_events(const gd_writer *w) { return w->events; }

void gd_writer_abort(gd_writer *w)
{
    if (w && w->open) {
        sqlite3_exec(w->s->db, "ROLLBACK TO gd_trace; RELEASE gd_trace;", NULL, NULL, NULL);
        w->open = 0;
    }
}

void gd_writer_progress(gd_writer *w, gd_writer_progress_fn fn, void *ctx)
{
    w->progress = fn;
    w->progress_ctx = ctx;
}

void gd_writer_free(gd_writer *w)
{
    if (!w)
        return;
    for (int i = 0; i < ST__COUNT; i++)
        sqlite3_finalize(w->st[i]);
    free(w->thr);
    if (w->prints)
        fclose(w->prints);
    if (w->directs)
        fclose(w->directs);
    gd_icache_free(w->frames);
    gd_icache_free(w->callsites);
    gd_icache_free(w->messages);
    gd_views_writer_free(w->views);
    gd_mw_free(w->methods);
    gd_bulk_free(&w->bulk);
    while (w->stats) {
        stat_entry *n = w->stats->next;
        free(w->stats->reason);
        free(w->stats);
        w->stats = n;
    }
    meta_acc *a = &w->meta;
    free(w->source);
    free(w->format);
    free(a->app);
    free(a->version_name);
    free(a->device);
    free(a->session);
    free(a->json);
    for (size_t i = 0; i < a->nconcern; i++)
        free(a->concern[i]);
    free(w);
}

void gd_writer_foreach_stat(gd_writer *w, void (*fn)(void *, const char *, long, long), void *ctx)
{
    for (stat_entry *e = w->stats; e; e = e->next)
        fn(ctx, e->reason, e->count, e->first_line);
}

static int insert_paired(gd_writer *w, sqlite3_stmt *ins, int64_t pid, int64_t tid, const gd_paired *d,
                         gd_error *err)
{
    sqlite3_bind_int64(ins, 1, w->trace);
    sqlite3_bind_int64(ins, 2, pid);
    sqlite3_bind_int64(ins, 3, tid);
    sqlite3_bind_double(ins, 4, d->start);
    sqlite3_bind_double(ins, 5, d->end - d->start);
    gd_bind_opt_double(ins, 6, d->thread_ms);
    sqlite3_bind_int(ins, 7, d->unfinished);
    gd_bind_opt_int(ins, 8, d->msg);
    return gd_store_step(w->s, ins, err);
}

/* Ends streaming: each thread's still-open begins become unfinished
 * dispatches, as pair_prints' per-thread flush makes them. */
static int stream_finish(gd_writer *w, gd_error *err)
{
    long ends_without = 0, dropped = 0;
    gd_paired d;
    int rc = GD_OK;
    for (size_t i = 0; i < w->nthr && !rc; i++) {
        stream_thr *t = &w->thr[i];
        while (!rc && gd_pair_finish(&t->p, w->max_ts, &d))
            rc = insert_paired(w, w->st[ST_DISPATCH], t->pid, t->tid, &d, err);
        ends_without += t->p.ends_without_begin;
        dropped += t->p.begins_dropped;
    }
    if (ends_without)
        count_reason_n(w, "looper: end without begin", ends_without, 0);
    if (dropped)
        count_reason_n(w, "looper: nesting too deep", dropped, 0);
    w->skipped += ends_without + dropped;
    return rc;
}

/* Pairs the Looper prints of this trace, thread by thread, in time order. */
static int pair_prints(gd_writer *w, long *ndispatch, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(
        w->s, "SELECT pid, tid, ts, phase, thread_ts, msg FROM temp.looper_tmp"
              " ORDER BY pid, tid, ts, rowid", err);
    if (!q)
        return err->code;
    sqlite3_stmt *ins = w->st[ST_DISPATCH];
    gd_pair p;
    gd_pair_init(&p);
    int64_t cur_pid = 0, cur_tid = 0;
    int have = 0, rc = GD_OK, step;
    long ends_without = 0, dropped = 0;
    gd_paired d;
    double cap_end = w->max_ts;
#define FLUSH_THREAD()                                                                          \
    do {                                                                                       \
        while (gd_pair_finish(&p, cap_end, &d)) {                                               \
            if ((rc = insert_paired(w, ins, cur_pid, cur_tid, &d, err)))                        \
                goto out;                                                                      \
            (*ndispatch)++;                                                                    \
        }                                                                                      \
        ends_without += p.ends_without_begin;                                                  \
        dropped += p.begins_dropped;                                                           \
        gd_pair_init(&p);                                                                      \
    } while (0)
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t pid = sqlite3_column_int64(q, 0), tid = sqlite3_column_int64(q, 1);
        if (!have || pid != cur_pid || tid != cur_tid) {
            if (have)
                FLUSH_THREAD();
            cur_pid = pid;
            cur_tid = tid;
            have = 1;
        }
        double ts = sqlite3_column_double(q, 2);
        gd_phase ph = gd_pair_phase(&p, (gd_phase)sqlite3_column_int(q, 3), NULL);
        double tts = sqlite3_column_type(q, 4) == SQLITE_NULL ? GD_NONE : sqlite3_column_double(q, 4);
        int64_t msg = sqlite3_column_type(q, 5) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, 5);
        if (gd_pair_feed(&p, ph, ts, tts, msg, &d)) {
            if ((rc = insert_paired(w, ins, pid, tid, &d, err)))
                goto out;
            (*ndispatch)++;
        }
    }
    if (step != SQLITE_DONE) {
        rc = gd_store_fail(w->s, err, "database read");
        goto out;
    }
    if (have)
        FLUSH_THREAD();
#undef FLUSH_THREAD
    if (ends_without)
        count_reason_n(w, "looper: end without begin", ends_without, 0);
    if (dropped)
        count_reason_n(w, "looper: nesting too deep", dropped, 0);
    w->skipped += ends_without + dropped;
out:
    sqlite3_finalize(q);
    return rc;
}

/* Ratios of raw CPU samples from the delta to the previous sample. */
static int derive_cpu_ratios(gd_writer *w, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(
        w->s, "SELECT id, busy, total, app FROM cpu WHERE trace = ? AND total IS NOT NULL"
              " ORDER BY ts_ms, id", err);
    sqlite3_stmt *u = gd_store_prepare(
        w->s, "UPDATE cpu SET total_ratio = coalesce(total_ratio, ?),"
              " app_ratio = coalesce(app_ratio, ?) WHERE id = ?", err);
    int rc = GD_OK;
    if (!q || !u) {
        rc = err->code;
        goto out;
    }
    sqlite3_bind_int64(q, 1, w->trace);
    int64_t pb = -1, pt = -1, pa = -1;
    while (sqlite3_step(q) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(q, 0), b = sqlite3_column_int64(q, 1),
                t = sqlite3_column_int64(q, 2);
        int64_t a = sqlite3_column_type(q, 3) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, 3);
        if (pt >= 0 && t > pt) {
            sqlite3_bind_double(u, 1, (double)(b - pb) / (double)(t - pt));
            if (a >= 0 && pa >= 0)
                sqlite3_bind_double(u, 2, (double)(a - pa) / (double)(t - pt));
            else
                sqlite3_bind_null(u, 2);
            sqlite3_bind_int64(u, 3, id);
            if ((rc = gd_store_step(w->s, u, err)))
                goto out;
        }
        pb = b;
        pt = t;
        pa = a;
    }
out:
    sqlite3_finalize(q);
    sqlite3_finalize(u);
    return rc;
}

/* Median gap between consecutive CPU samples: the sampler's interval. */
static double median_cpu_gap(gd_writer *w)
{
    sqlite3_stmt *q = gd_store_prepare(
        w->s, "SELECT g FROM (SELECT ts_ms - lag(ts_ms) OVER (ORDER BY ts_ms) AS g FROM cpu"
              " WHERE trace = ?) WHERE g > 0 ORDER BY g", NULL);
    double *gaps = NULL, g = GD_NONE;
    size_t n = 0, cap = 0;
    if (!q)
        return g;
    sqlite3_bind_int64(q, 1, w->trace);
    while (sqlite3_step(q) == SQLITE_ROW) {
        if (gd_grow((void **)&gaps, &cap, n + 1, sizeof *gaps, NULL))
            break;
        gaps[n++] = sqlite3_column_double(q, 0);
    }
    if (n)
        g = gaps[(n - 1) / 2];
    free(gaps);
    sqlite3_finalize(q);
    return g;
}

static int derive_blocks(gd_writer *w, long *nblocks, gd_error *err)
{
    gd_trace_cfg cfg;
    int rc = gd_trace_cfg_load(w->s, w->trace, &cfg, err);
    if (rc)
        return rc;
    gd_deriver *dv = gd_deriver_new(w->s, err);
    sqlite3_stmt *q = gd_store_prepare(
        w->s, "SELECT id, pid, tid, start_ms, dur_ms, unfinished FROM dispatch WHERE trace = ?"
              " AND dur_ms >= ?"
              " ORDER BY start_ms", err);
    sqlite3_stmt *ins = gd_store_prepare(
        w->s, "INSERT INTO block(dispatch, trace, samples, key_frame, grp, cpu_busy, memory, blame,"
              " dur_ms) VALUES (?,?,?,?,?,?,?,?,?)", err);
    if (!dv || !q || !ins) {
        rc = err->code ? err->code : GD_ERR_IO;
        goto out;
    }
    sqlite3_bind_int64(q, 1, w->trace);
    sqlite3_bind_double(q, 2, cfg.short_ms);
    int64_t total = 0;
    if (w->progress) { /* how many dispatches the analysis goes through */
        sqlite3_stmt *c = gd_store_prepare(
            w->s, "SELECT count(*) FROM dispatch WHERE trace = ? AND dur_ms >= ?", err);
        if (!c) {
            rc = err->code ? err->code : GD_ERR_IO;
            goto out;
        }
        sqlite3_bind_int64(c, 1, w->trace);
        sqlite3_bind_double(c, 2, cfg.short_ms);
        if (sqlite3_step(c) == SQLITE_ROW)
            total = sqlite3_column_int64(c, 0);
        sqlite3_finalize(c);
        w->progress(w->progress_ctx, 0, total);
    }
    int step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        gd_block_info bi;
        double start = sqlite3_column_double(q, 3);
        if ((rc = gd_deriver_block(dv, &cfg, sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2),
                                   start, start + sqlite3_column_double(q, 4),
                                   sqlite3_column_int(q, 5), &bi, NULL, err)))
            goto out;
        sqlite3_bind_int64(ins, 1, sqlite3_column_int64(q, 0));
        sqlite3_bind_int64(ins, 2, w->trace);
        sqlite3_bind_double(ins, 9, sqlite3_column_double(q, 4));
        sqlite3_bind_int64(ins, 3, bi.samples);
        gd_bind_text(ins, 4, bi.key_frame[0] ? bi.key_frame : NULL);
        gd_bind_text(ins, 5, bi.group[0] ? bi.group : NULL);
        if (bi.cpu_busy >= 0)
            sqlite3_bind_int(ins, 6, bi.cpu_busy);
        else
            sqlite3_bind_null(ins, 6);
        gd_bind_opt_int(ins, 7, bi.memory);
        gd_bind_text(ins, 8, bi.blame[0] ? bi.blame : NULL);
        if ((rc = gd_store_step(w->s, ins, err)))
            goto out;
        (*nblocks)++;
        if (w->progress && (*nblocks & 0x3ff) == 0)
            w->progress(w->progress_ctx, (uint64_t)*nblocks, total);
    }
    if (step != SQLITE_DONE)
        rc = gd_store_fail(w->s, err, "database read");
    else if (w->progress)
        w->progress(w->progress_ctx, (uint64_t)*nblocks, total);
out:
    sqlite3_finalize(q);
    sqlite3_finalize(ins);
    gd_deriver_free(dv);
    gd_trace_cfg_free(&cfg);
    return rc;
}

static int existing_trace(gd_writer *w, const char *hash, int64_t *id, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(w->s, "SELECT id FROM trace WHERE hash = ?", err);
    if (!q)
        return -1;
    sqlite3_bind_text(q, 1, hash, -1, SQLITE_STATIC);
    int found = sqlite3_step(q) == SQLITE_ROW;
    if (found)
        *id = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return found;
}

/* Writes the trace row, once: its content hash, meta and figures. */
static int save_trace(gd_writer *w, const char *hash, double interval_ms, gd_error *err)
{
    meta_acc *a = &w->meta;
    sqlite3_stmt *u = gd_store_prepare(
        w->s, "INSERT INTO trace(hash, app, version_name, version_code, device, api_level,"
              " cpu_cores, pid, main_tid, session, clk_tck, short_ms, long_ms, anr_ms,"
              " dump_interval_ms, max_depth, concern, meta, start_ms, end_ms, events, skipped,"
              " clock, utc_offset_min, id, source, format, ingested_at) VALUES (?,?,?,?,?,?,?,?,"
              "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?, strftime('%Y-%m-%dT%H:%M:%SZ','now'))",
        err);
    if (!u)
        return err->code;
    json_t *con = json_array();
    for (size_t i = 0; i < a->nconcern; i++)
        json_array_append_new(con, json_string(a->concern[i]));
    if (a->nconcern == 0 && a->app)
        json_array_append_new(con, json_string(a->app));
    char *con_txt = json_dumps(con, JSON_COMPACT);
    json_decref(con);
    sqlite3_bind_text(u, 1, hash, -1, SQLITE_STATIC);
    gd_bind_text(u, 2, a->app);
    gd_bind_text(u, 3, a->version_name);
    gd_bind_opt_int(u, 4, a->version_code);
    gd_bind_text(u, 5, a->device);
    gd_bind_opt_int(u, 6, a->api_level);
    gd_bind_opt_int(u, 7, a->cpu_cores);
    gd_bind_opt_int(u, 8, a->pid);
    gd_bind_opt_int(u, 9, a->main_tid);
    gd_bind_text(u, 10, a->session);
    gd_bind_opt_int(u, 11, a->clk_tck);
    sqlite3_bind_double(u, 12, gd_has(a->short_ms) ? a->short_ms : GD_SHORT_MS);
    sqlite3_bind_double(u, 13, gd_has(a->long_ms) ? a->long_ms : GD_LONG_MS);
    sqlite3_bind_double(u, 14, GD_ANR_MS);
    gd_bind_opt_double(u, 15, interval_ms);
    gd_bind_opt_int(u, 16, a->max_depth);
    gd_bind_text(u, 17, con_txt);
    gd_bind_text(u, 18, a->json);
    gd_bind_opt_double(u, 19, w->min_ts);
    gd_bind_opt_double(u, 20, w->max_ts);
    sqlite3_bind_int64(u, 21, w->events);
    sqlite3_bind_int64(u, 22, w->skipped);
    gd_bind_text(u, 23, a->clock ? a->clock : w->default_clock);
    if (a->utc_offset_min != INT64_MIN)
        sqlite3_bind_int64(u, 24, a->utc_offset_min);
    else
        sqlite3_bind_null(u, 24);
    sqlite3_bind_int64(u, 25, w->trace);
    sqlite3_bind_text(u, 26, w->source, -1, SQLITE_STATIC);
    sqlite3_bind_text(u, 27, w->format, -1, SQLITE_STATIC);
    int rc = gd_store_step(w->s, u, err);
    sqlite3_finalize(u);
    free(con_txt);
    return rc;
}

/* Reads a temp file's records back in order (each into rec, n bytes) and
 * hands them to put. */
static int tmp_replay(gd_writer *w, FILE *f, void *rec, size_t n,
                      int (*put)(gd_writer *, const void *, gd_error *), gd_error *err)
{
    if (!f)
        return GD_OK;
    int rc = tmp_rewind(f, err);
    while (!rc && fread(rec, n, 1, f) == 1)
        rc = put(w, rec, err);
    if (!rc && ferror(f))
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "temporary file: %s", strerror(errno));
    return rc;
}

static int put_print_row(gd_writer *w, const void *rec, gd_error *err)
{
    const print_rec *pr = rec;
    sqlite3_stmt *st = w->st[ST_LOOPER];
    sqlite3_bind_int64(st, 1, pr->pid);
    sqlite3_bind_int64(st, 2, pr->tid);
    sqlite3_bind_double(st, 3, pr->ts);
    sqlite3_bind_int(st, 4, pr->phase);
    gd_bind_opt_double(st, 5, pr->thread_ts);
    gd_bind_opt_int(st, 6, pr->msg);
    return gd_store_step(w->s, st, err);
}

static int put_direct_row(gd_writer *w, const void *rec, gd_error *err)
{
    const disp_rec *d = rec;
    sqlite3_stmt *st = w->st[ST_DISPATCH];
    sqlite3_bind_int64(st, 1, w->trace);
    sqlite3_bind_int64(st, 2, d->pid);
    sqlite3_bind_int64(st, 3, d->tid);
    sqlite3_bind_double(st, 4, d->ts);
    sqlite3_bind_double(st, 5, d->dur);
    gd_bind_opt_double(st, 6, d->thread_dur);
    sqlite3_bind_int(st, 7, d->unfinished);
    gd_bind_opt_int(st, 8, d->msg);
    return gd_store_step(w->s, st, err);
}

/* Events without tid/pid belong to the capture's main thread/process. */
static int resolve_main(gd_writer *w, gd_error *err)
{
    if (!w->unresolved)
        return GD_OK;
    int64_t pid = w->meta.pid >= 0 ? w->meta.pid : 0;
    int64_t tid = w->meta.main_tid >= 0 ? w->meta.main_tid : pid;
    char sql[1024];
    snprintf(sql, sizeof sql,
             "UPDATE temp.looper_tmp SET pid = %lld WHERE pid = -1;"
             "UPDATE temp.looper_tmp SET tid = %lld WHERE tid = -1;"
             "UPDATE dispatch SET pid = %lld WHERE trace = %lld AND pid = -1;"
             "UPDATE dispatch SET tid = %lld WHERE trace = %lld AND tid = -1;"
             "UPDATE sample SET pid = %lld WHERE trace = %lld AND pid = -1;"
             "UPDATE sample SET tid = %lld WHERE trace = %lld AND tid = -1;"
             "UPDATE OR IGNORE thread SET pid = %lld WHERE trace = %lld AND pid = -1;"
             "UPDATE OR IGNORE thread SET tid = %lld WHERE trace = %lld AND tid = -1;"
             "UPDATE raw_event SET pid = %lld WHERE trace = %lld AND pid = -1;"
             "UPDATE raw_event SET tid = %lld WHERE trace = %lld AND tid = -1;",
             (long long)pid, (long long)tid, (long long)pid, (long long)w->trace, (long long)tid,
             (long long)w->trace, (long long)pid, (long long)w->trace, (long long)tid,
             (long long)w->trace, (long long)pid, (long long)w->trace, (long long)tid,
             (long long)w->trace, (long long)pid, (long long)w->trace, (long long)tid,
             (long long)w->trace);
    return gd_store_exec(w->s, sql, err);
}

static int save_stats(gd_writer *w, gd_error *err)
{
    sqlite3_stmt *st = gd_store_prepare(
        w->s, "INSERT INTO ingest_stat(trace, reason, count, first_line) VALUES (?,?,?,?)", err);
    if (!st)
        return err->code;
    int rc = GD_OK;
    for (stat_entry *e = w->stats; e && !rc; e = e->next) {
        sqlite3_bind_int64(st, 1, w->trace);
        sqlite3_bind_text(st, 2, e->reason, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, e->count);
        if (e->first_line > 0)
            sqlite3_bind_int64(st, 4, e->first_line);
        else
            sqlite3_bind_null(st, 4);
        rc = gd_store_step(w->s, st, err);
    }
    sqlite3_finalize(st);
    return rc;
}

/* Rebuilds the method calls (before blocks, whose blame reads them). */
static int finish_methods(gd_writer *w, gd_error *err)
{
    int64_t pid = w->meta.pid >= 0 ? w->meta.pid : 0;
    int64_t tid = w->meta.main_tid >= 0 ? w->meta.main_tid : pid;
    gd_mw_stats st;
    int rc = gd_mw_finish(w->methods, pid, tid, w->max_ts, &st, err);
    if (rc)
        return rc;
    if (st.unbalanced)
        count_reason_n(w, "method: exit without enter", st.unbalanced, 0);
    if (st.too_deep)
        count_reason_n(w, "method: nesting too deep", st.too_deep, 0);
    if (st.unclosed)
        count_reason_n(w, "ignored: method: exit missing, closed with its caller", st.unclosed, 0);
    w->skipped += st.unbalanced + st.too_deep;
    return GD_OK;
}
static int finish(gd_writer *w, const char *hash, gd_ingest_result *res, gd_error *err);

int gd_writer_finish(gd_writer *w, const char *hash, gd_ingest_result *res, gd_error *err)
{
    double t0 = now_s();
    int rc = finish(w, hash, res, err);
    res->timings.write = w->write_s;
    res->timings.analyse = now_s() - t0;
    return rc;
}

static int finish(gd_writer *w, const char *hash, gd_ingest_result *res, gd_error *err)
{
    memset(res, 0, sizeof *res);
    int64_t existing;
    int dup = existing_trace(w, hash, &existing, err);
    if (dup < 0)
        return err->code;
    if (dup) {
        gd_writer_abort(w);
        res->trace = existing;
        res->duplicate = 1;
        return GD_OK;
    }
    long nd = 0, nb = 0;
    int rc;
    /* streaming stopped: the prints into the temp table for pair_prints;
     * the dispatch events into their table (both before resolve_main) */
    print_rec pr;
    disp_rec dr;
    if ((!w->stream_on && (rc = tmp_replay(w, w->prints, &pr, sizeof pr, put_print_row, err))) ||
        (rc = tmp_replay(w, w->directs, &dr, sizeof dr, put_direct_row, err)) ||
        (rc = resolve_main(w, err)) ||
        (rc = w->stream_on ? stream_finish(w, err) : pair_prints(w, &nd, err)) ||
        (rc = gd_bulk_end(w->s, &w->bulk, err)))
        return rc;
    if ((rc = finish_methods(w, err)))
        return rc;
    if ((rc = derive_cpu_ratios(w, err)))
        return rc;
    double interval = gd_has(w->meta.interval_ms) ? w->meta.interval_ms : median_cpu_gap(w);
    if ((rc = save_trace(w, hash, interval, err)))
        return rc;
    if ((rc = derive_blocks(w, &nb, err)) || (rc = save_stats(w, err)))
        return rc;
    sqlite3_stmt *c = gd_store_prepare(w->s, "SELECT count(*) FROM dispatch WHERE trace = ?", err);
    if (!c)
        return err->code;
    sqlite3_bind_int64(c, 1, w->trace);
    if (sqlite3_step(c) == SQLITE_ROW)
        nd = (long)sqlite3_column_int64(c, 0);
    sqlite3_finalize(c);
    if ((rc = gd_store_exec(w->s, "DELETE FROM temp.looper_tmp; RELEASE gd_trace;", err)))
        return rc;
    w->open = 0;
    res->trace = w->trace;
    res->events = w->events;
    res->skipped = w->skipped;
    res->dispatches = nd;
    res->blocks = nb;
    return GD_OK;
}
