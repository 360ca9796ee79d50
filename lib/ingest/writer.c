/* ingest/writer.c - the writer: one trace from the event stream into the store. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/span.h"
#include "analysis/vitals.h"
#include "core/bigmem.h"
#include "core/icache.h"
#include "core/skip_reasons.h"
#include "reader/procstat.h"
#include "ingest/views.h"
#include "store/spool.h"
#include "store/sql.h"
#include "core/util.h"
#include "derive/blocks.h"
#include "derive/cpu.h"
#include "derive/startups.h"
#include "derive/methods.h"
#include "derive/states.h"
#include "ingest/findings.h"
#include "ingest/pairing.h"
#include "ingest/traceinfo.h"

enum {
    ST_FRAME_INS,
    ST_FRAME_SEL,
    ST_CS_INS,
    ST_CS_SEL,
    ST_SAMPLE,
    ST_CPU,
    ST_MEMORY,
    ST_RAW,
    ST_MSG_INS,
    ST_MSG_TEXT,
    ST_THREAD,
    ST_STARTUP,
    ST_BINDER,       /* #26 */
    ST_LOG,          /* #28 */
    ST__COUNT
};

static const char *const stmt_sql[ST__COUNT] = {
    "INSERT OR IGNORE INTO frame(text) VALUES (?)",
    "SELECT id FROM frame WHERE text = ?",
    "INSERT OR IGNORE INTO callsite(parent, frame, depth) VALUES (?,?,?)",
    "SELECT id FROM callsite WHERE parent = ? AND frame = ?",
    "INSERT INTO sample(trace, pid, tid, ts_ms, callsite, state, source) VALUES (?,?,?,?,?,?,?)",
    "INSERT INTO cpu(trace, ts_ms, busy, total, app, user_j, nice_j, system_j, idle_j, iowait_j,"
    " irq_j, softirq_j, total_ratio, app_ratio, user_ratio, sys_ratio, iowait_ratio)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO memory(trace, ts_ms, heap_free_kb, heap_max_kb, heap_alloc_kb, pss_total_kb,"
    " pss_dalvik_kb, pss_native_kb, pss_other_kb, ram_avail_kb, ram_total_kb,"
    " ram_low_threshold_kb, ram_is_low) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO raw_event(trace, kind, ts_ms, pid, tid, json) VALUES (?,?,?,?,?,?)",
    "INSERT INTO message(text, handler, callback, what) VALUES (?,?,?,?)",
    "SELECT text FROM message WHERE id = ?",
    /* a thread's latest name is its name (a task_rename, #51); pid NULL:
     * a thread of no process, one row per tid (schema 9, #51) */
    "INSERT INTO thread(trace, pid, tid, name) VALUES (?,?,?,?)"
    " ON CONFLICT(trace, pid, tid) DO UPDATE SET name = excluded.name WHERE name IS NOT excluded.name"
    " ON CONFLICT(trace, tid) WHERE pid IS NULL DO UPDATE SET name = excluded.name WHERE name IS NOT excluded.name",
    "INSERT INTO startup(trace, app, activity, kind, total_ms, wait_ms, source, ts_ms, ttfd_ms, activity_ms)"
    " VALUES (?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO binder_txn(trace, client_pid, client_tid, ts_ms, dur_ms, server_pid, server_tid,"
    " server_ts_ms, server_dur_ms, oneway, code, flags, txn_id, reply_status, server_process)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO log_line(trace, ts_ms, pid, tid, level, tag, msg, id) VALUES (?,?,?,?,?,?,?,?)",
};

/* #28: at most this many log lines of one trace are kept as log_line rows
 * (the first ones; the others are counted, GD_LOG_DROPPED). */
#define GD_LOG_LINES_MAX 200000
/* #50: a trace's thread states, held in a spool (store/spool.h) by
 * thread, then written in thread_state's key order by one statement */
#define GD_STATE_COLS 10
static const char state_drain_sql[] =
    "INSERT INTO thread_state(trace, pid, tid, ts_ms, dur_ms, state, io_wait, blocked_function, cpu,"
    " waker_tid, id) SELECT ?1, c2, c3, c0, c4, c5, c6, c7, c8, c9, c1 FROM gd_spool(?2)";

#define GD_LOG_DROPPED "log_line: past the " GD_STR(GD_LOG_LINES_MAX) " lines kept a trace (not kept as rows)"

struct gd_writer {
    gd_store *s;
    gd_sink sink;
    gd_mend mend;    /* texts made UTF-8 as they enter (#53 item 1) */
    int64_t trace;   /* reserved id; the row is written at the end */
    char *source, *format;
    sqlite3_stmt *st[ST__COUNT];
    gd_icache *frames, *callsites, *messages;
    gd_icache *stacks; /* a reader's stack key -> its innermost callsite (#53) */
    /* every message text this ingest wrote, by its 64-bit hash: hash and row
     * id per slot, 4-way buckets (a newer text takes a slot), fixed size, so
     * memory stays flat; a hit is confirmed by the row's text (a primary-key
     * read), never trusted on the hash alone (#25 item 12) */
    struct msg_slot { uint64_t hash; int64_t id; } *msg_seen;
    gd_views_writer *views;
    gd_mw *methods;
    gd_ti_stat *stats;
    gd_ti_meta meta;
    const gd_trace_tags *tags;
    long events, skipped;
    double min_ts, max_ts;
    gd_span span; /* #51: the dense span, of the events and log lines */
    int64_t last_thread_pid, last_thread_tid;
    char last_thread_name[64]; /* the last thread row's name ("" when longer) */
    int open;
    double write_s;  /* time spent in the sink (when timed) */
    int timed;
    gd_writer_progress_fn progress; /* analysis progress, or NULL */
    void *progress_ctx;
    const char *default_clock; /* the format's clock, when no meta names one */
    long unresolved; /* rows written with pid or tid -1 (resolve_main's work) */
    gd_bulk bulk;    /* indexes dropped for the load of a new database */
    gd_pairing pairing; /* Looper prints and dispatch events -> dispatch rows */
    long log_lines;  /* log_line rows written (#28) */
    double log_min, log_max; /* their span, part of the trace's */
    long states_nopid, binder_nopid; /* rows written with their pid unknown (#26's fill) */
    int64_t states;  /* thread_state rows written: the next one's id is states + 1 (#50) */
    gd_spool *state_spool; /* the states until the end (#50), NULL before the first */
    sqlite3_stmt *process_st; /* GD_EV_PROCESS's insert, prepared at the first */
    long method_events; /* events the methods writer took: no call rows without them (#50) */
    long binder_rows;   /* binder_txn rows written (the slices' come from call rows) */
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void count_reason_n(gd_writer *w, const char *reason, long n, long line)
{
    gd_ti_count(&w->stats, reason, n, line);
}

static void count_reason(gd_writer *w, const char *reason, long line)
{
    count_reason_n(w, reason, 1, line);
}

static int on_meta(void *ctx, const gd_meta *m, gd_error *err)
{
    gd_writer *w = ctx;
    const gd_meta *mm = gd_meta_mend(&w->mend, m);
    if (!mm)
        return gd_error_oom(err);
    if (mm != m)
        count_reason(w, GD_SKIP(IGNORED_TEXT_NOT_UTF8), 0);
    gd_ti_meta_take(&w->meta, mm);
    return 0;
}

static void on_skip(void *ctx, const char *reason, long line, long col)
{
    gd_writer *w = ctx;
    count_reason(w, reason, line);
    if (strncmp(reason, "ignored:", 8) != 0)
        w->skipped++;
}

/* What a put_* function returns for an event it handled without keeping
 * it as one (skipped, or merged into a row already written): put_event
 * counts an event once, when its put_* returns GD_OK.  Never a sink's
 * code (those are GD_OK, GD_OTHER_RULE and the positive GD_ERR_*). */
#define NOT_COUNTED (-2)

/* A skipped event: its reason counted, the event not. */
static int skip_event(gd_writer *w, const char *reason, long line)
{
    on_skip(w, reason, line, 0);
    return NOT_COUNTED;
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
    if (gd_store_changes(w->s) > 0) {
        *id = gd_store_last_id(w->s);
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

/* Slots of the writer's message hash table (16 bytes each: 16 MiB). */
#define GD_MSG_SEEN ((size_t)1 << 20)

static int intern_msg(gd_writer *w, const char *msg, int64_t *id, gd_error *err)
{
    char h[256], c[256], wh[256]; /* filled up to sizeof h each */
    size_t len = strlen(msg);
    /* one pass over the text: the hash table's FNV-1a gives the cache's */
    uint64_t hv = gd_fnv1a(msg, len), hc = gd_icache_hash_of_fnv(hv);
    if (gd_icache_get_h(w->messages, hc, msg, len, id))
        return GD_OK;
    /* the bounded cache forgot it (or never saw it): the hash table of this
     * ingest's rows, then the row itself to confirm */
    /* a bucket of 4 slots: texts whose hashes share a bucket do not push
     * each other out (direct-mapped, 1 in 700 of 40k texts did) */
    struct msg_slot *b = w->msg_seen ? &w->msg_seen[(hv & (GD_MSG_SEEN / 4 - 1)) * 4] : NULL, *slot = NULL;
    for (int i = 0; b && i < 4; i++) {
        if (b[i].id <= 0) {
            slot = slot ? slot : &b[i];
            continue;
        }
        if (b[i].hash != hv)
            continue;
        sqlite3_stmt *sel = w->st[ST_MSG_TEXT];
        sqlite3_bind_int64(sel, 1, b[i].id);
        int step = sqlite3_step(sel);
        int same = step == SQLITE_ROW && (size_t)sqlite3_column_bytes(sel, 0) == len &&
                   memcmp(sqlite3_column_text(sel, 0), msg, len) == 0;
        sqlite3_reset(sel);
        if (step != SQLITE_ROW && step != SQLITE_DONE)
            return gd_store_fail(w->s, err, "database lookup");
        if (same) {
            *id = b[i].id;
            gd_icache_put_h(w->messages, hc, msg, len, *id);
            return GD_OK;
        }
    }
    if (b && !slot)
        slot = &b[(hv >> 60) & 3]; /* a full bucket: a newer text takes a slot */
    /* a text this ingest has not written: a new row (no index on the text;
     * see the message table in schemas/godeye.sql) */
    gd_looper_msg_parse(msg, h, c, wh, sizeof h);
    sqlite3_stmt *ins = w->st[ST_MSG_INS];
    sqlite3_bind_text(ins, 1, msg, (int)len, SQLITE_STATIC);
    gd_bind_text(ins, 2, h[0] ? h : NULL);
    gd_bind_text(ins, 3, c[0] ? c : NULL);
    gd_bind_text(ins, 4, wh[0] ? wh : NULL);
    int rc = gd_store_step(w->s, ins, err);
    sqlite3_clear_bindings(ins);
    if (rc)
        return rc;
    *id = gd_store_last_id(w->s);
    gd_icache_put_h(w->messages, hc, msg, len, *id);
    if (slot)
        *slot = (struct msg_slot){hv, *id};
    return GD_OK;
}

static int note_thread(gd_writer *w, const gd_event *ev, gd_error *err)
{
    /* a thread state's pid -1 is a process the trace has not given (its
     * event's rule), never the capture's: a thread of no process (#51),
     * remembered as pid -2 */
    int noproc = ev->kind == GD_EV_THREAD_STATE && ev->pid < 0;
    int64_t pid = noproc ? -2 : ev->pid;
    if (!ev->thread || (pid == w->last_thread_pid && ev->tid == w->last_thread_tid &&
                        strcmp(ev->thread, w->last_thread_name) == 0))
        return GD_OK;
    w->last_thread_pid = pid;
    w->last_thread_tid = ev->tid;
    if (strlen(ev->thread) < sizeof w->last_thread_name)
        strcpy(w->last_thread_name, ev->thread);
    else
        w->last_thread_name[0] = 0;
    if (!noproc && (ev->pid == -1 || ev->tid == -1))
        w->unresolved++;
    sqlite3_stmt *st = w->st[ST_THREAD];
    if (noproc)
        sqlite3_bind_null(st, 2);
    else
        sqlite3_bind_int64(st, 2, ev->pid);
    sqlite3_bind_int64(st, 3, ev->tid);
    sqlite3_bind_text(st, 4, ev->thread, -1, SQLITE_STATIC);
    return gd_store_step(w->s, st, err);
}

static int put_stack(gd_writer *w, const gd_event *ev, gd_error *err)
{
    const gd_stack_ev *s = &ev->u.stack;
    int64_t parent = 0;
    /* frames the reader gave before under the same key: their callsite */
    int known = s->key && gd_icache_get(w->stacks, &s->key, sizeof s->key, &parent);
    /* outermost first: frames[n-1] is the root */
    for (size_t k = known ? 0 : s->nframes; k-- > 0;) {
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
    if (s->key && !known)
        gd_icache_put(w->stacks, &s->key, sizeof s->key, parent);
    sqlite3_stmt *st = w->st[ST_SAMPLE];
    sqlite3_bind_int64(st, 2, ev->pid);
    sqlite3_bind_int64(st, 3, ev->tid);
    sqlite3_bind_double(st, 4, ev->ts);
    sqlite3_bind_int64(st, 5, parent);
    gd_bind_text(st, 6, s->state);
    gd_bind_text(st, 7, s->source ? s->source : w->format); /* #26 */
    return gd_store_step(w->s, st, err);
}

static int put_cpu(gd_writer *w, const gd_event *ev, gd_error *err)
{
    const gd_cpu_ev *c = &ev->u.cpu;
    sqlite3_stmt *st = w->st[ST_CPU];
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
    if (!txt) {
        json_decref(j);
        return gd_error_oom_at(err, ev->line, 0);
    }
    sqlite3_stmt *st = w->st[ST_RAW];
    sqlite3_bind_text(st, 2, gd_event_kind_name(ev->kind), -1, SQLITE_STATIC);
    gd_bind_opt_double(st, 3, ev->ts);
    sqlite3_bind_int64(st, 4, ev->pid);
    sqlite3_bind_int64(st, 5, ev->tid);
    sqlite3_bind_text(st, 6, txt, -1, free);
    int rc = gd_store_step(w->s, st, err);
    if (!rc) /* issues, marks, frame summaries: their typed rows too */
        rc = gd_findings_put(w->s, w->trace, gd_store_last_id(w->s), ev->kind, j, err);
    json_decref(j);
    return rc;
}

/* A "Fully drawn" report: the time to full display of the last launch of
 * its app and activity read before it (#27); NOT_COUNTED when written. */
static int put_fully_drawn(gd_writer *w, const gd_event *ev, gd_error *err)
{
    const gd_startup_ev *u = &ev->u.startup;
    sqlite3_stmt *q = gd_store_cached(w->s,
                                      "UPDATE startup SET ttfd_ms = ?1 WHERE id = (SELECT id FROM startup"
                                      " WHERE trace = ?2 AND app IS ?3 AND activity IS ?4 AND ttfd_ms IS NULL"
                                      " AND (?5 IS NULL OR ts_ms IS NULL OR ts_ms <= ?5)"
                                      " ORDER BY ts_ms DESC, id DESC LIMIT 1)",
                                      err);
    if (!q)
        return err->code;
    sqlite3_bind_double(q, 1, u->ttfd_ms);
    sqlite3_bind_int64(q, 2, w->trace);
    gd_bind_text(q, 3, u->app);
    gd_bind_text(q, 4, u->activity);
    gd_bind_opt_double(q, 5, ev->ts);
    int rc = gd_store_step(w->s, q, err);
    int changed = gd_store_changes(w->s);
    gd_store_release(w->s, q);
    if (rc)
        return rc;
    if (!changed)
        count_reason(w, GD_SKIP(IGNORED_STARTUP_FULLY_DRAWN_OF_NO_LAUNCH), ev->line);
    return NOT_COUNTED; /* a figure of a launch, not an event of its own */
}

/* One launch; a kind other than cold/warm/hot is stored as unknown.  A
 * launch reported twice (a bugreport's main and events buffers, logcat's
 * Displayed and *_activity_launch_time lines) is kept once: same app,
 * activity and duration (the total) within 1 s, kinds equal or one unknown
 * (the known one is kept, and so is an activity_ms only the second
 * gives), the second NOT_COUNTED.  A trace's launch slices report each
 * launch once: two of them are two launches, however alike (#51 item 4:
 * Perfetto's metrics/startup android_startup_hsc, 14 warm launches of 65,
 * 50 or 45 ns, two of each of seven apps, 1 us apart). */
#define SLICE_LAUNCH_SOURCES "('perfetto', 'systrace')"
static int put_startup(gd_writer *w, const gd_event *ev, gd_error *err)
{
    const gd_startup_ev *u = &ev->u.startup;
    const char *kind = u->kind;
    const char *bad = gd_startup_time_bad(u->fully_drawn ? u->ttfd_ms : u->total_ms);
    if (!bad && gd_has(u->ttfd_ms))
        bad = gd_startup_time_bad(u->ttfd_ms);
    if (bad) {
        char why[96];
        snprintf(why, sizeof why, "startup: %s", bad);
        return skip_event(w, why, ev->line);
    }
    if (u->fully_drawn)
        return put_fully_drawn(w, ev, err);
    if (kind && strcmp(kind, "cold") != 0 && strcmp(kind, "warm") != 0 && strcmp(kind, "hot") != 0) {
        count_reason(w, GD_SKIP(IGNORED_STARTUP_UNKNOWN_KIND), ev->line);
        kind = NULL;
    }
    if (gd_has(ev->ts)) {
        enum { SU_ID, SU_KIND, SU_OWN }; /* the SELECT's columns */
        sqlite3_stmt *q = gd_store_cached(w->s,
                                          "SELECT id, kind, activity_ms FROM startup WHERE trace = ?1 AND app IS ?2"
                                          " AND activity IS ?3 AND total_ms = ?4 AND abs(ts_ms - ?5) <= 1000"
                                          /* a range of startup_trace: not every launch (#53) */
                                          " AND ts_ms BETWEEN ?5 - 1001 AND ?5 + 1001"
                                          " AND (kind IS ?6 OR kind IS NULL OR ?6 IS NULL)"
                                          " AND (source IS NOT ?7 OR coalesce(?7, '') NOT IN " SLICE_LAUNCH_SOURCES ") LIMIT 1",
                                          err);
        if (!q)
            return err->code;
        sqlite3_bind_int64(q, 1, w->trace);
        gd_bind_text(q, 2, u->app);
        gd_bind_text(q, 3, u->activity);
        sqlite3_bind_double(q, 4, u->total_ms);
        sqlite3_bind_double(q, 5, ev->ts);
        gd_bind_text(q, 6, kind);
        gd_bind_text(q, 7, u->source);
        int seen = sqlite3_step(q) == SQLITE_ROW;
        int64_t id = seen ? sqlite3_column_int64(q, SU_ID) : 0;
        int fill = seen && ((kind && sqlite3_column_type(q, SU_KIND) == SQLITE_NULL) ||
                            (gd_has(u->activity_ms) && sqlite3_column_type(q, SU_OWN) == SQLITE_NULL));
        gd_store_release(w->s, q);
        if (seen) {
            count_reason(w, GD_SKIP(IGNORED_STARTUP_SAME_LAUNCH_TWICE), ev->line);
            if (!fill)
                return NOT_COUNTED;
            sqlite3_stmt *k = gd_store_cached(
                w->s, "UPDATE startup SET kind = coalesce(kind, ?1), activity_ms = coalesce(activity_ms, ?3)"
                      " WHERE id = ?2", err);
            if (!k)
                return err->code;
            gd_bind_text(k, 1, kind);
            sqlite3_bind_int64(k, 2, id);
            gd_bind_opt_double(k, 3, u->activity_ms);
            int rc = gd_store_step(w->s, k, err);
            gd_store_release(w->s, k);
            return rc ? rc : NOT_COUNTED;
        }
    }
    sqlite3_stmt *st = w->st[ST_STARTUP];
    gd_bind_text(st, 2, u->app);
    gd_bind_text(st, 3, u->activity);
    gd_bind_text(st, 4, kind);
    sqlite3_bind_double(st, 5, u->total_ms);
    gd_bind_opt_double(st, 6, u->wait_ms >= 0 ? u->wait_ms : GD_NONE);
    gd_bind_text(st, 7, u->source);
    gd_bind_opt_double(st, 8, ev->ts);
    gd_bind_opt_double(st, 9, u->ttfd_ms);
    gd_bind_opt_double(st, 10, u->activity_ms);
    return gd_store_step(w->s, st, err);
}

static gd_value opt_int(int64_t v) { return v >= 0 ? (gd_value){.kind = GD_V_INT, .u.i = v} : (gd_value){0}; }
static gd_value opt_text(const char *t)
{
    return t ? (gd_value){.kind = GD_V_TEXT, .u.t = {t, strlen(t)}} : (gd_value){0};
}

/* One scheduling interval (#26); its pid is the thread's own or unknown,
 * never the capture's.  Its id numbers it in the trace (#50: the clustered
 * key's last column, which keeps the order written among equal times).
 * Held in the spool by thread until the end (write_states). */
static int put_thread_state(gd_writer *w, const gd_event *ev, gd_error *err)
{
    const gd_thread_state_ev *u = &ev->u.thread_state;
    if (!w->state_spool && !(w->state_spool = gd_spool_new(w->s, GD_STATE_COLS, state_drain_sql, w->trace, 0)))
        return gd_error_oom(err);
    if (ev->pid < 0)
        w->states_nopid++;
    int64_t id = ++w->states;
    const gd_value v[GD_STATE_COLS] = {
        /* the order in a thread's rows: time, id */
        {.kind = GD_V_REAL, .u.d = ev->ts},
        {.kind = GD_V_INT, .u.i = id},
        opt_int(ev->pid),
        {.kind = GD_V_INT, .u.i = ev->tid},
        gd_has(u->dur) ? (gd_value){.kind = GD_V_REAL, .u.d = u->dur} : (gd_value){0},
        opt_text(u->state),
        opt_int(u->io_wait),
        opt_text(u->blocked_function),
        opt_int(u->cpu),
        opt_int(u->waker_tid),
    };
    return gd_spool_put(w->state_spool, ev->tid, v, err);
}

/* The spooled states into thread_state, in its key order (#50). */
static int write_states(gd_writer *w, gd_error *err)
{
    return gd_spool_rows(w->state_spool) ? gd_spool_drain(w->state_spool, err) : GD_OK;
}

/* One binder transaction (#26). */
static int put_binder(gd_writer *w, const gd_event *ev, gd_error *err)
{
    const gd_binder_ev *u = &ev->u.binder;
    sqlite3_stmt *st = w->st[ST_BINDER];
    gd_bind_opt_int(st, 2, ev->pid);
    if (ev->pid < 0)
        w->binder_nopid++;
    sqlite3_bind_int64(st, 3, ev->tid);
    sqlite3_bind_double(st, 4, ev->ts);
    gd_bind_opt_double(st, 5, u->dur);
    gd_bind_opt_int(st, 6, u->server_pid);
    gd_bind_opt_int(st, 7, u->server_tid);
    gd_bind_opt_double(st, 8, u->server_ts);
    gd_bind_opt_double(st, 9, u->server_dur);
    sqlite3_bind_int(st, 10, u->oneway != 0);
    gd_bind_opt_int(st, 11, u->code);
    gd_bind_opt_int(st, 12, u->flags);
    gd_bind_opt_int(st, 13, u->txn_id);
    gd_bind_text(st, 14, u->reply_status);
    gd_bind_text(st, 15, u->server_process);
    w->binder_rows++;
    return gd_store_step(w->s, st, err);
}

/* One log line as a row (#28): no event of the count, no thread, no part
 * of the trace's start..end (but of its dense span, #51); past
 * GD_LOG_LINES_MAX lines counted, not kept. */
static int put_log(gd_writer *w, const gd_event *ev, gd_error *err)
{
    if (!gd_has(ev->ts) || gd_event_out_of_range(ev))
        return 0; /* the line's own rules counted it */
    if (ev->ts > 0)
        gd_span_add(&w->span, ev->ts, ev->ts);
    if (w->log_lines >= GD_LOG_LINES_MAX) {
        on_skip(w, GD_LOG_DROPPED, ev->line, 0);
        return 0;
    }
    w->log_lines++;
    if (!gd_has(w->log_min) || ev->ts < w->log_min)
        w->log_min = ev->ts;
    if (!gd_has(w->log_max) || ev->ts > w->log_max)
        w->log_max = ev->ts;
    const gd_log_ev *u = &ev->u.log;
    sqlite3_stmt *st = w->st[ST_LOG];
    sqlite3_bind_double(st, 2, ev->ts);
    gd_bind_opt_int(st, 3, ev->pid);
    gd_bind_opt_int(st, 4, ev->tid);
    gd_bind_text(st, 5, u->level);
    gd_bind_text(st, 6, u->tag);
    gd_bind_text(st, 7, u->msg);
    sqlite3_bind_int64(st, 8, w->log_lines); /* its number in the trace (#50) */
    return gd_store_step(w->s, st, err);
}

/* Writes one event's rows: GD_OK when it was kept (counted there),
 * NOT_COUNTED when skipped or merged, else an error code. */
/* The table of the bulk load (GD_BULK_*) an event of kind k writes rows
 * of, -1 for none: before each of its rows, gd_bulk_touch (#50). */
static int bulk_table(gd_event_kind k)
{
    switch (k) {
    case GD_EV_LOOPER:
    case GD_EV_DISPATCH:
        return GD_BULK_DISPATCH;
    case GD_EV_STACK:
        return GD_BULK_SAMPLE;
    case GD_EV_CPU:
        return GD_BULK_CPU;
    case GD_EV_FRAME:
        return GD_BULK_FRAME;
    default:
        return -1;
    }
}

static int touch_bulk(gd_writer *w, gd_event_kind k, gd_error *err)
{
    int table = bulk_table(k);
    return table < 0 ? GD_OK : gd_bulk_touch(w->s, &w->bulk, table, err);
}

static int put_rows(gd_writer *w, const gd_event *ev, gd_error *err)
{
    int rc;
    gd_event resolved;
    if (w->bulk.todo && (rc = touch_bulk(w, ev->kind, err)))
        return rc;
    switch (ev->kind) {
    case GD_EV_CPU:
    case GD_EV_MEMORY:
    case GD_EV_LIFECYCLE:
    case GD_EV_VIEW_DUMP:
    case GD_EV_IMAGE:
    case GD_EV_FRAME:
    case GD_EV_STARTUP:
    case GD_EV_THREAD_STATE:
    case GD_EV_BINDER:
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
        const char *m = ev->u.looper.msg;
        int ph = ev->u.looper.phase;
        if (ph == GD_PHASE_UNKNOWN && m)
            ph = gd_looper_prefix(m);
        /* a begin's text (or an unknown print's) is its dispatch's message */
        int64_t msg = -1;
        if (m && ph != GD_PHASE_END && (rc = intern_msg(w, m, &msg, err)))
            return rc;
        return gd_pairing_print(&w->pairing, ev->pid, ev->tid, ev->ts, ph, ev->u.looper.thread_ts, msg, err);
    }
    case GD_EV_DISPATCH: {
        const gd_dispatch_ev *d = &ev->u.dispatch;
        if (!gd_has(d->dur) || d->dur < 0)
            return skip_event(w, GD_SKIP(DISPATCH_NEGATIVE_DURATION), ev->line);
        int64_t msg = -1;
        if (d->msg && (rc = intern_msg(w, d->msg, &msg, err)))
            return rc;
        return gd_pairing_dispatch(&w->pairing, ev->pid, ev->tid, msg, ev->ts, d->dur, d->thread_dur,
                                   d->unfinished, err);
    }
    case GD_EV_STACK:
        if (ev->u.stack.nframes == 0)
            return skip_event(w, GD_SKIP(STACK_NO_FRAMES), ev->line);
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
        if ((rc = gd_mw_put(w->methods, ev, err)) == GD_OTHER_RULE)
            return skip_event(w, GD_SKIP(METHOD_NO_METHOD_NAME), ev->line);
        w->method_events += rc == GD_OK;
        return rc;
    case GD_EV_STARTUP:
        if (!gd_has(ev->u.startup.total_ms) || ev->u.startup.total_ms < 0)
            return skip_event(w, GD_SKIP(STARTUP_NO_TOTAL_TIME), ev->line);
        return put_startup(w, ev, err);
    case GD_EV_THREAD_STATE:
        return put_thread_state(w, ev, err);
    case GD_EV_BINDER:
        return put_binder(w, ev, err);
    default:
        return put_raw(w, ev, err);
    }
}

/* A process the trace names: the row of its main thread (tid = pid) when
 * no event gave that thread a name (an event's name stands: the comm a
 * thread runs under); no event of the count, no time. */
static int put_process(gd_writer *w, const gd_event *ev, gd_error *err)
{
    if (ev->pid < 0 || !ev->thread || !*ev->thread)
        return GD_OK;
    if (!w->process_st &&
        !(w->process_st = gd_store_prepare(
              w->s, "INSERT INTO thread(trace, pid, tid, name) VALUES (?1, ?2, ?2, ?3)"
                    " ON CONFLICT(trace, pid, tid) DO UPDATE SET name = excluded.name WHERE name IS NULL OR name = ''",
              err)))
        return err->code;
    sqlite3_bind_int64(w->process_st, 1, w->trace);
    sqlite3_bind_int64(w->process_st, 2, ev->pid);
    sqlite3_bind_text(w->process_st, 3, ev->thread, -1, SQLITE_STATIC);
    return gd_store_step(w->s, w->process_st, err);
}

/* One event from the reader: counted once, when its rows were kept. */
static int put_event(gd_writer *w, const gd_event *ev, gd_error *err)
{
    if (ev->kind == GD_EV_LOG)
        return put_log(w, ev, err);
    if (ev->kind == GD_EV_PROCESS)
        return put_process(w, ev, err);
    if (!gd_has(ev->ts) && ev->kind != GD_EV_FRAME_SUMMARY && ev->kind != GD_EV_ISSUE &&
        ev->kind != GD_EV_STARTUP) { /* am start -W prints no time */
        on_skip(w, "event without a time", ev->line, 0);
        return 0;
    }
    if (gd_event_out_of_range(ev)) { /* never a broken row: counted */
        on_skip(w, "number out of range", ev->line, 0);
        return 0;
    }
    /* a skipped event's time still widens the trace's span */
    double end = ev->ts;
    if (ev->kind == GD_EV_DISPATCH && gd_has(ev->u.dispatch.dur) && ev->u.dispatch.dur > 0)
        end = ev->ts + ev->u.dispatch.dur;
    if (ev->kind == GD_EV_METHOD && gd_has(ev->u.method.end_ts) && ev->u.method.end_ts > ev->ts)
        end = ev->u.method.end_ts;
    if (ev->kind == GD_EV_FRAME_SUMMARY && gd_has(ev->u.frame_summary.until) && ev->u.frame_summary.until > ev->ts)
        end = ev->u.frame_summary.until; /* the figures cover the time up to the dump */
    if (gd_has(ev->ts) && ev->ts > 0) { /* 0: a reader's "time unknown" */
        if (!gd_has(w->min_ts) || ev->ts < w->min_ts)
            w->min_ts = ev->ts;
        if (!gd_has(w->max_ts) || end > w->max_ts)
            w->max_ts = end;
        gd_span_add(&w->span, ev->ts, end);
    }
    int rc = note_thread(w, ev, err);
    if (rc)
        return rc;
    rc = put_rows(w, ev, err);
    if (rc == GD_OK)
        w->events++;
    return rc == NOT_COUNTED ? GD_OK : rc;
}

static int on_event(void *ctx, const gd_event *ev, gd_error *err)
{
    gd_writer *w = ctx;
    const gd_event *mended = gd_event_mend(&w->mend, ev);
    if (!mended)
        return gd_error_oom(err);
    if (mended != ev)
        count_reason(w, GD_SKIP(IGNORED_TEXT_NOT_UTF8), ev->line);
    ev = mended;
    if (!w->timed)
        return put_event(w, ev, err);
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
        return gd_error_oom(err);
    w->s = s;
    w->min_ts = w->max_ts = GD_NONE;
    w->log_min = w->log_max = GD_NONE;
    gd_span_init(&w->span);
    w->last_thread_pid = w->last_thread_tid = INT64_MIN;
    gd_ti_meta_init(&w->meta);
    w->sink = (gd_sink){w, on_meta, on_event, on_skip};
    int rc;
    if ((rc = gd_store_exec(s, "SAVEPOINT gd_trace", err)))
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
        rc = gd_error_oom(err);
        goto fail;
    }
    for (int i = 0; i < ST__COUNT; i++)
        if (!(w->st[i] = gd_store_prepare(s, stmt_sql[i], err))) {
            rc = err->code;
            goto fail;
        }
    /* #50: the trace, the first parameter of these rows, bound once */
    static const int of_trace[] = {ST_SAMPLE,  ST_CPU,          ST_MEMORY, ST_RAW, ST_THREAD,
                                   ST_STARTUP, ST_BINDER, ST_LOG};
    for (size_t i = 0; i < sizeof of_trace / sizeof *of_trace; i++)
        sqlite3_bind_int64(w->st[of_trace[i]], 1, w->trace);
    if ((rc = gd_pairing_open(&w->pairing, s, w->trace, err)))
        goto fail;
    w->frames = gd_icache_new(65536, 8 << 20);
    w->callsites = gd_icache_new(131072, 4 << 20);
    w->messages = gd_icache_new(16384, 4 << 20);
    w->stacks = gd_icache_new(65536, 1 << 20);
    w->msg_seen = gd_big_calloc(GD_MSG_SEEN * sizeof *w->msg_seen); /* NULL: texts are not shared beyond the cache */
    w->views = gd_views_writer_new(s, err);
    if (!w->views) {
        rc = err->code;
        goto fail;
    }
    if ((rc = gd_mw_open(&w->methods, s, w->trace, err)))
        goto fail;
    if (!w->frames || !w->callsites || !w->messages || !w->stacks) {
        rc = gd_error_oom(err);
        goto fail;
    }
    *out = w;
    return GD_OK;
fail:
    gd_writer_abort(w, NULL); /* err holds the first failure */
    gd_writer_free(w);
    return rc;
}

void gd_writer_default_clock(gd_writer *w, const char *clock)
{
    w->default_clock = gd_ti_clock_name(clock);
}

void gd_writer_set_tags(gd_writer *w, const gd_trace_tags *tags) { w->tags = tags; }

void gd_writer_time_events(gd_writer *w, int on) { w->timed = on; }

const gd_sink *gd_writer_sink(gd_writer *w) { return &w->sink; }

long gd_writer_events(const gd_writer *w) { return w->events; }

long gd_writer_log_lines(const gd_writer *w) { return w->log_lines; }

int gd_writer_abort(gd_writer *w, gd_error *err)
{
    if (!w || !w->open)
        return GD_OK;
    w->open = 0;
    int rc = gd_store_exec(w->s, "ROLLBACK TO gd_trace; RELEASE gd_trace;", err);
    if (rc) /* never half a trace kept: the whole transaction goes */
        gd_store_rollback(w->s);
    return rc;
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
    sqlite3_finalize(w->process_st);
    gd_pairing_close(&w->pairing);
    gd_icache_free(w->frames);
    gd_icache_free(w->callsites);
    gd_icache_free(w->stacks);
    gd_icache_free(w->messages);
    gd_big_free(w->msg_seen, GD_MSG_SEEN * sizeof *w->msg_seen);
    gd_views_writer_free(w->views);
    gd_mw_free(w->methods);
    gd_mend_free(&w->mend);
    gd_bulk_free(&w->bulk);
    gd_spool_free(w->state_spool);
    gd_ti_stats_free(&w->stats);
    gd_ti_meta_free(&w->meta);
    free(w->source);
    free(w->format);
    free(w);
}

void gd_writer_foreach_stat(gd_writer *w, void (*fn)(void *, const char *, long, long), void *ctx)
{
    for (const gd_ti_stat *e = w->stats; e; e = e->next)
        fn(ctx, e->reason, e->count, e->first_line);
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

/* 1 when the ingest's --set tags name a value the existing trace `id`
 * does not hold (tags are not part of the content hash: #53 item 9). */
static int tags_differ(gd_writer *w, int64_t id)
{
    if (!w->tags)
        return 0;
    gd_error e = {0};
    sqlite3_stmt *q = gd_store_prepare(w->s, "SELECT app, version_name, device, build FROM trace WHERE id = ?", &e);
    if (!q)
        return 0;
    sqlite3_bind_int64(q, 1, id);
    int differ = 0;
    if (sqlite3_step(q) == SQLITE_ROW) {
        const char *want[4] = {w->tags->app, w->tags->version, w->tags->device, w->tags->build};
        for (int i = 0; i < 4; i++) {
            const char *have = (const char *)sqlite3_column_text(q, i);
            if (want[i] && (!have || strcmp(have, want[i]) != 0))
                differ = 1;
        }
    }
    sqlite3_finalize(q);
    return differ;
}

/* The capture's main process and thread: what an event naming none
 * belongs to. */
static void main_thread(const gd_writer *w, int64_t *pid, int64_t *tid)
{
    *pid = w->meta.pid >= 0 ? w->meta.pid : 0;
    *tid = w->meta.main_tid >= 0 ? w->meta.main_tid : *pid;
}

/* Rows without tid/pid belong to the capture's main thread/process (the
 * pairing resolves its own tables, dispatch and temp.looper_tmp). */
static int resolve_main(gd_writer *w, gd_error *err)
{
    /* thread: a row that would then repeat one is left as it was */
    static const char *const updates[] = {"UPDATE sample", "UPDATE OR IGNORE thread", "UPDATE raw_event"};
    static const char *const cols[] = {"pid", "tid"};
    if (!w->unresolved)
        return GD_OK;
    int64_t id[2];
    main_thread(w, &id[0], &id[1]);
    int rc = GD_OK;
    for (size_t t = 0; t < sizeof updates / sizeof *updates && !rc; t++)
        for (size_t c = 0; c < 2 && !rc; c++) {
            char sql[128];
            snprintf(sql, sizeof sql, "%s SET %s = ?1 WHERE trace = ?2 AND %s = -1", updates[t], cols[c], cols[c]);
            sqlite3_stmt *st = gd_store_prepare(w->s, sql, err);
            if (!st)
                return err->code;
            sqlite3_bind_int64(st, 1, id[c]);
            sqlite3_bind_int64(st, 2, w->trace);
            rc = gd_store_step(w->s, st, err);
            sqlite3_finalize(st);
        }
    return rc;
}

/* Rebuilds the method calls (before blocks, whose blame reads them). */
static int finish_methods(gd_writer *w, gd_error *err)
{
    int64_t pid, tid;
    main_thread(w, &pid, &tid);
    gd_mw_stats st;
    int rc = gd_mw_finish(w->methods, pid, tid, w->max_ts, &st, err);
    if (rc)
        return rc;
    if (st.unbalanced)
        count_reason_n(w, GD_SKIP(METHOD_EXIT_WITHOUT_ENTER), st.unbalanced, 0);
    if (st.too_deep)
        count_reason_n(w, GD_SKIP(METHOD_NESTING_TOO_DEEP), st.too_deep, 0);
    if (st.unclosed)
        count_reason_n(w, GD_SKIP(IGNORED_METHOD_EXIT_MISSING_CLOSED_WITH_CALLER), st.unclosed, 0);
    w->skipped += st.unbalanced + st.too_deep;
    return GD_OK;
}
static int finish(gd_writer *w, const char *hash, gd_ingest_result *res, gd_error *err);

/* #26: the thread_state and binder_txn rows written before their thread's
 * process was known take it from the thread rows (the smallest pid >= 0
 * of the tid, as the first match of thread's (trace, pid, tid) key), through
 * one tid -> pid map built once: no pass at all when every row had its pid,
 * and no scan of thread per row when some did not. */
static int fill_pids(gd_writer *w, gd_error *err)
{
    if (!w->states_nopid && !w->binder_nopid)
        return GD_OK;
    char sql[1024];
    snprintf(sql, sizeof sql,
             "CREATE TEMP TABLE IF NOT EXISTS tid_pid(tid INTEGER PRIMARY KEY, pid INTEGER NOT NULL);"
             "DELETE FROM temp.tid_pid;"
             "INSERT INTO temp.tid_pid SELECT tid, min(pid) FROM thread WHERE trace = %lld AND pid >= 0"
             " GROUP BY tid;",
             (long long)w->trace);
    int rc = gd_store_exec(w->s, sql, err);
    /* the states of a tid that has a process after all (given later, or
     * by another source) take it; a thread of no process whose tid has
     * one loses its name row (#51) */
    if (!rc && w->states_nopid) {
        snprintf(sql, sizeof sql,
                 "DELETE FROM thread WHERE trace = %lld AND pid IS NULL AND tid IN (SELECT tid FROM temp.tid_pid);"
                 "UPDATE thread_state SET pid = (SELECT m.pid FROM temp.tid_pid m WHERE m.tid = thread_state.tid)"
                 " WHERE trace = %lld AND pid IS NULL;",
                 (long long)w->trace, (long long)w->trace);
        rc = gd_store_exec(w->s, sql, err);
    }
    if (!rc && w->binder_nopid) {
        snprintf(sql, sizeof sql,
                 "UPDATE binder_txn SET client_pid = (SELECT m.pid FROM temp.tid_pid m"
                 " WHERE m.tid = binder_txn.client_tid) WHERE trace = %lld AND client_pid IS NULL",
                 (long long)w->trace);
        rc = gd_store_exec(w->s, sql, err);
    }
    return rc ? rc : gd_store_exec(w->s, "DELETE FROM temp.tid_pid;", err);
}

int gd_writer_finish(gd_writer *w, const char *hash, gd_ingest_result *res, gd_error *err)
{
    double t0 = now_s();
    int rc = finish(w, hash, res, err);
    res->timings.write = w->write_s;
    res->timings.analyse = now_s() - t0;
    return rc;
}

/* The binder passes (#26, #53); a trace without binder rows or calls (the
 * slices' binder rows) has nothing for them (#50). */
static int derive_binder(gd_writer *w, gd_error *err)
{
    int rc = GD_OK;
    if (!w->binder_rows && !w->method_events)
        return GD_OK;
    if ((w->method_events && (rc = gd_binder_from_slices(w->s, w->trace, err))) ||
        (rc = gd_binder_outermost(w->s, w->trace, err)))
        return rc;
    return gd_binder_name_aidl(w->s, w->trace, err);
}

/* The trace's dispatch rows, into *n. */
static int count_dispatches(gd_writer *w, long *n, gd_error *err)
{
    sqlite3_stmt *c = gd_store_prepare(w->s, "SELECT count(*) FROM dispatch WHERE trace = ?", err);
    if (!c)
        return err->code;
    sqlite3_bind_int64(c, 1, w->trace);
    if (sqlite3_step(c) == SQLITE_ROW)
        *n = (long)sqlite3_column_int64(c, 0);
    sqlite3_finalize(c);
    return GD_OK;
}

static int finish(gd_writer *w, const char *hash, gd_ingest_result *res, gd_error *err)
{
    memset(res, 0, sizeof *res);
    int64_t existing;
    int rc;
    int dup = existing_trace(w, hash, &existing, err);
    if (dup < 0)
        return err->code;
    if (dup) {
        if ((rc = gd_writer_abort(w, err)))
            return rc;
        res->trace = existing;
        res->duplicate = 1;
        res->tags_differ = tags_differ(w, existing);
        return GD_OK;
    }
    long nd = 0, nb = 0;
    int64_t main_pid, main_tid;
    if ((rc = write_states(w, err)))
        return rc;
    main_thread(w, &main_pid, &main_tid);
    if ((rc = gd_pairing_finish(&w->pairing, w->max_ts, main_pid, main_tid, err)) ||
        (rc = resolve_main(w, err)) || (rc = gd_bulk_end(w->s, &w->bulk, err)))
        return rc;
    if (w->pairing.ends_without_begin)
        count_reason_n(w, GD_SKIP(LOOPER_END_WITHOUT_BEGIN), w->pairing.ends_without_begin, 0);
    if (w->pairing.begins_dropped)
        count_reason_n(w, GD_SKIP(LOOPER_NESTING_TOO_DEEP), w->pairing.begins_dropped, 0);
    w->skipped += w->pairing.ends_without_begin + w->pairing.begins_dropped;
    /* the calls stream in sorted by thread: their indexes built after
     * (a trace without method events writes no call: nothing to drop) */
    if ((w->method_events &&
         (rc = gd_bulk_begin_tables(w->s, &w->bulk, "'call'", GD_BULK_SORT_CALLS_KIB, err))) ||
        (rc = finish_methods(w, err)) ||
        (rc = gd_bulk_end(w->s, &w->bulk, err)))
        return rc;
    /* #26: a thread's states written before its process was known */
    if ((rc = fill_pids(w, err)))
        return rc;
    if ((rc = derive_binder(w, err)))
        return rc;
    if ((rc = gd_derive_cpu_ratios(w->s, w->trace, err)) ||
        (rc = gd_derive_startup_phases(w->s, w->trace, err))) /* #27 */
        return rc;
    gd_span_result dense = gd_span_finish(&w->span); /* #51 */
    gd_ti_row row = {.id = w->trace, .source = w->source, .format = w->format, .hash = hash,
                     .default_clock = w->default_clock, .start_ms = w->min_ts, .end_ms = w->max_ts,
                     .interval_ms = w->meta.interval_ms, .events = w->events, .skipped = w->skipped,
                     .span_start_ms = isnan(dense.start_ms) ? GD_NONE : dense.start_ms,
                     .span_end_ms = isnan(dense.end_ms) ? GD_NONE : dense.end_ms,
                     .left_clock = dense.left_clock, .left_lone = dense.left_lone,
                     .app_tagged = w->tags && w->tags->app};
    /* the log lines' span is the capture's too (a logcat whose few events
     * are minutes into its hour of lines watched that hour) */
    row.start_ms = fmin(row.start_ms, w->log_min); /* fmin/fmax: an absent (NaN) side gives the other */
    row.end_ms = fmax(row.end_ms, w->log_max);
    if (!gd_has(row.interval_ms))
        row.interval_ms = gd_derive_cpu_interval(w->s, w->trace);
    gd_ti_meta_tag(&w->meta, w->tags);
    if ((rc = count_dispatches(w, &nd, err)))
        return rc;
    /* blocks are dispatches: none to derive without them (#50), unless a
     * progress display is to show the (empty) analysis */
    if ((rc = gd_ti_insert_trace(w->s, &w->meta, &row, err)) ||
        ((nd || w->progress) &&
         (rc = gd_derive_blocks(w->s, w->trace, w->progress, w->progress_ctx, &nb, err))) ||
        (rc = gd_ti_save_stats(w->s, w->trace, w->stats, err)))
        return rc;
    if ((rc = gd_store_exec(w->s, "RELEASE gd_trace", err)))
        return rc;
    w->open = 0;
    res->trace = w->trace;
    res->events = w->events;
    res->skipped = w->skipped;
    res->dispatches = nd;
    res->blocks = nb;
    res->log_lines = w->log_lines;
    return GD_OK;
}
