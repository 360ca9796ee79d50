/* ingest/pairing.c - Looper prints paired into dispatch rows as they stream in, or sorted at the end. */
#include "ingest/pairing.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/blocks.h"
#include "core/tmpfile.h"
#include "core/util.h"

/* One thread's streaming pairing state. */
struct gd_pairing_thr {
    int64_t pid, tid;
    double last_ts;
    gd_pair p;
};
typedef gd_pairing_thr stream_thr;

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
    if (!*f && !(*f = gd_tmpfile(err)))
        return err->code;
    if (fwrite(rec, n, 1, *f) != 1)
        return gd_tmp_write_error(err, errno);
    return GD_OK;
}

/* Rewinds a temporary file for reading its records back. */
static int tmp_rewind(FILE *f, gd_error *err)
{
    if (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0)
        return gd_tmp_write_error(err, errno);
    return GD_OK;
}

/* Past this many threads with Looper prints, pairing falls back to the
 * sorted temp table (it keeps the streaming state's memory bounded). */
#define STREAM_MAX_THREADS 256

static int insert_paired(gd_pairing *pg, sqlite3_stmt *ins, int64_t pid, int64_t tid, const gd_paired *d,
                         gd_error *err)
{
    sqlite3_bind_int64(ins, 1, pg->trace);
    sqlite3_bind_int64(ins, 2, pid);
    sqlite3_bind_int64(ins, 3, tid);
    sqlite3_bind_double(ins, 4, d->start);
    sqlite3_bind_double(ins, 5, d->end - d->start);
    gd_bind_opt_double(ins, 6, d->thread_ms);
    sqlite3_bind_int(ins, 7, d->unfinished);
    gd_bind_opt_int(ins, 8, d->msg);
    return gd_store_step(pg->s, ins, err);
}

/* Stops streaming: the dispatches paired so far are deleted (while
 * streaming they are all this trace has) and the prints, all in the temp
 * file, are paired at the end in (pid, tid, ts) order instead. */
static int stream_stop(gd_pairing *pg, gd_error *err)
{
    pg->stream_on = 0;
    free(pg->thr);
    pg->thr = NULL;
    pg->nthr = pg->thr_cap = 0;
    if (!pg->stream_first)
        return GD_OK;
    char sql[96];
    snprintf(sql, sizeof sql, "DELETE FROM dispatch WHERE id >= %lld", (long long)pg->stream_first);
    pg->stream_first = 0;
    return gd_store_exec(pg->s, sql, err);
}

/* Pairs one print now.  Exactly what pair_prints does at the end, as long
 * as each thread's prints arrive in time order (ties in arrival order, as
 * pair_prints' rowid order has them) and name their thread; the first
 * print that does not stops streaming. */
static int stream_print(gd_pairing *pg, int64_t pid, int64_t tid, double ts, int phase, double tts,
                        int64_t msg, gd_error *err)
{
    if (pid == -1 || tid == -1)
        return stream_stop(pg, err);
    stream_thr *t = NULL;
    if (pg->thr_last < pg->nthr && pg->thr[pg->thr_last].pid == pid && pg->thr[pg->thr_last].tid == tid) {
        t = &pg->thr[pg->thr_last];
    } else {
        for (size_t i = 0; i < pg->nthr; i++)
            if (pg->thr[i].pid == pid && pg->thr[i].tid == tid) {
                t = &pg->thr[i];
                pg->thr_last = i;
                break;
            }
    }
    if (!t) {
        if (pg->nthr == STREAM_MAX_THREADS)
            return stream_stop(pg, err);
        if (gd_grow((void **)&pg->thr, &pg->thr_cap, pg->nthr + 1, sizeof *pg->thr, err))
            return err->code;
        t = &pg->thr[pg->nthr];
        pg->thr_last = pg->nthr++;
        t->pid = pid;
        t->tid = tid;
        t->last_ts = ts;
        gd_pair_init(&t->p);
    }
    if (ts < t->last_ts)
        return stream_stop(pg, err);
    t->last_ts = ts;
    gd_paired d;
    if (!gd_pair_feed(&t->p, gd_pair_phase(&t->p, (gd_phase)phase, NULL), ts, tts, msg, &d))
        return GD_OK;
    int rc = insert_paired(pg, pg->dispatch_ins, pid, tid, &d, err);
    if (!rc && !pg->stream_first)
        pg->stream_first = gd_store_last_id(pg->s);
    return rc;
}

/* Ends streaming: each thread's still-open begins become unfinished
 * dispatches, as pair_prints' per-thread flush makes them. */
static int stream_finish(gd_pairing *pg, double cap_end, gd_error *err)
{
    long ends_without = 0, dropped = 0;
    gd_paired d;
    int rc = GD_OK;
    for (size_t i = 0; i < pg->nthr && !rc; i++) {
        stream_thr *t = &pg->thr[i];
        while (!rc && gd_pair_finish(&t->p, cap_end, &d))
            rc = insert_paired(pg, pg->dispatch_ins, t->pid, t->tid, &d, err);
        ends_without += t->p.ends_without_begin;
        dropped += t->p.begins_dropped;
    }
    pg->ends_without_begin += ends_without;
    pg->begins_dropped += dropped;
    return rc;
}

/* The columns of a Looper print read back from temp.looper_tmp (after
 * the first, pid). */
#define PRINT_COLS(X)                                                                           \
    X(P_TID, "tid")                                                                             \
    X(P_TS, "ts")                                                                               \
    X(P_PHASE, "phase")                                                                         \
    X(P_THREAD_TS, "thread_ts")                                                                 \
    X(P_MSG, "msg")
enum { P_PID = 0, PRINT_COLS(GD_COL_ENUM) P_NCOLS };

/* Pairs the Looper prints of this trace, thread by thread, in time order. */
static int pair_prints(gd_pairing *pg, double cap_end, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(
        pg->s, "SELECT pid" PRINT_COLS(GD_COL_SQL) " FROM temp.looper_tmp"
              " ORDER BY pid, tid, ts, rowid", err);
    if (!q)
        return err->code;
    sqlite3_stmt *ins = pg->dispatch_ins;
    gd_pair p;
    gd_pair_init(&p);
    int64_t cur_pid = 0, cur_tid = 0;
    int have = 0, rc = GD_OK, step;
    long ends_without = 0, dropped = 0;
    gd_paired d;
#define FLUSH_THREAD()                                                                          \
    do {                                                                                       \
        while (gd_pair_finish(&p, cap_end, &d)) {                                               \
            if ((rc = insert_paired(pg, ins, cur_pid, cur_tid, &d, err)))                        \
                goto out;                                                                      \
        }                                                                                      \
        ends_without += p.ends_without_begin;                                                  \
        dropped += p.begins_dropped;                                                           \
        gd_pair_init(&p);                                                                      \
    } while (0)
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t pid = sqlite3_column_int64(q, P_PID), tid = sqlite3_column_int64(q, P_TID);
        if (!have || pid != cur_pid || tid != cur_tid) {
            if (have)
                FLUSH_THREAD();
            cur_pid = pid;
            cur_tid = tid;
            have = 1;
        }
        double ts = sqlite3_column_double(q, P_TS);
        gd_phase ph = gd_pair_phase(&p, (gd_phase)sqlite3_column_int(q, P_PHASE), NULL);
        double tts = sqlite3_column_type(q, P_THREAD_TS) == SQLITE_NULL ? GD_NONE
                                                                          : sqlite3_column_double(q, P_THREAD_TS);
        int64_t msg = sqlite3_column_type(q, P_MSG) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, P_MSG);
        if (gd_pair_feed(&p, ph, ts, tts, msg, &d)) {
            if ((rc = insert_paired(pg, ins, pid, tid, &d, err)))
                goto out;
        }
    }
    if (step != SQLITE_DONE) {
        rc = gd_store_fail(pg->s, err, "database read");
        goto out;
    }
    if (have)
        FLUSH_THREAD();
#undef FLUSH_THREAD
    pg->ends_without_begin += ends_without;
    pg->begins_dropped += dropped;
out:
    sqlite3_finalize(q);
    return rc;
}

/* Reads a temp file's records back in order (each into rec, n bytes) and
 * hands them to put. */
static int tmp_replay(gd_pairing *pg, FILE *f, void *rec, size_t n,
                      int (*put)(gd_pairing *, const void *, gd_error *), gd_error *err)
{
    if (!f)
        return GD_OK;
    int rc = tmp_rewind(f, err);
    while (!rc && fread(rec, n, 1, f) == 1)
        rc = put(pg, rec, err);
    if (!rc && ferror(f))
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "temporary file: %s", strerror(errno));
    return rc;
}

static int put_print_row(gd_pairing *pg, const void *rec, gd_error *err)
{
    const print_rec *pr = rec;
    sqlite3_stmt *st = pg->looper_ins;
    sqlite3_bind_int64(st, 1, pr->pid);
    sqlite3_bind_int64(st, 2, pr->tid);
    sqlite3_bind_double(st, 3, pr->ts);
    sqlite3_bind_int(st, 4, pr->phase);
    gd_bind_opt_double(st, 5, pr->thread_ts);
    gd_bind_opt_int(st, 6, pr->msg);
    return gd_store_step(pg->s, st, err);
}

static int put_direct_row(gd_pairing *pg, const void *rec, gd_error *err)
{
    const disp_rec *d = rec;
    sqlite3_stmt *st = pg->dispatch_ins;
    sqlite3_bind_int64(st, 1, pg->trace);
    sqlite3_bind_int64(st, 2, d->pid);
    sqlite3_bind_int64(st, 3, d->tid);
    sqlite3_bind_double(st, 4, d->ts);
    sqlite3_bind_double(st, 5, d->dur);
    gd_bind_opt_double(st, 6, d->thread_dur);
    sqlite3_bind_int(st, 7, d->unfinished);
    gd_bind_opt_int(st, 8, d->msg);
    return gd_store_step(pg->s, st, err);
}

int gd_pairing_open(gd_pairing *p, gd_store *s, int64_t trace, gd_error *err)
{
    memset(p, 0, sizeof *p);
    p->s = s;
    p->trace = trace;
    p->stream_on = 1;
    int rc = gd_store_exec(s, "CREATE TEMP TABLE IF NOT EXISTS looper_tmp(pid INTEGER, tid INTEGER,"
                              " ts REAL, phase INTEGER, thread_ts REAL, msg INTEGER);"
                              "DELETE FROM temp.looper_tmp;", err);
    if (rc)
        return rc;
    p->dispatch_ins = gd_store_prepare(
        s, "INSERT INTO dispatch(trace, pid, tid, start_ms, dur_ms, thread_ms, unfinished, message)"
           " VALUES (?,?,?,?,?,?,?,?)", err);
    p->looper_ins = p->dispatch_ins ? gd_store_prepare(s, "INSERT INTO temp.looper_tmp(pid, tid, ts, phase,"
                                                          " thread_ts, msg) VALUES (?,?,?,?,?,?)", err)
                                    : NULL;
    return p->looper_ins ? GD_OK : err->code;
}

void gd_pairing_close(gd_pairing *p)
{
    sqlite3_finalize(p->dispatch_ins);
    sqlite3_finalize(p->looper_ins);
    free(p->thr);
    if (p->prints)
        fclose(p->prints);
    if (p->directs)
        fclose(p->directs);
    memset(p, 0, sizeof *p);
}

int gd_pairing_print(gd_pairing *p, int64_t pid, int64_t tid, double ts, int phase, double thread_ts,
                     int64_t msg, gd_error *err)
{
    print_rec pr = {pid, tid, msg, ts, thread_ts, phase, 0};
    if (pid == -1 || tid == -1)
        p->unresolved = 1;
    int rc = tmp_put(&p->prints, &pr, sizeof pr, err);
    if (rc || !p->stream_on)
        return rc;
    return stream_print(p, pid, tid, ts, phase, thread_ts, msg, err);
}

int gd_pairing_dispatch(gd_pairing *p, int64_t pid, int64_t tid, int64_t msg, double ts, double dur,
                        double thread_dur, int unfinished, gd_error *err)
{
    /* inserted at the end (put_direct_row): while streaming, the dispatch
     * rows of this trace are only the streamed ones */
    disp_rec dr = {pid, tid, msg, ts, dur, thread_dur, unfinished ? 1 : 0, 0};
    if (pid == -1 || tid == -1)
        p->unresolved = 1;
    return tmp_put(&p->directs, &dr, sizeof dr, err);
}

/* Writes what was kept: the prints into temp.looper_tmp when streaming
 * stopped, the dispatch events into dispatch. */
static int load_kept(gd_pairing *p, gd_error *err)
{
    print_rec pr;
    disp_rec dr;
    int rc = GD_OK;
    if (!p->stream_on)
        rc = tmp_replay(p, p->prints, &pr, sizeof pr, put_print_row, err);
    return rc ? rc : tmp_replay(p, p->directs, &dr, sizeof dr, put_direct_row, err);
}

/* A pid or tid of -1 in the loaded prints and this trace's dispatch rows
 * becomes the main thread's (streamed rows never have one: such a print
 * stops streaming). */
static int resolve_main(gd_pairing *p, int64_t main_pid, int64_t main_tid, gd_error *err)
{
    static const struct { const char *sql; int is_tid; } upd[] = {
        {"UPDATE temp.looper_tmp SET pid = ?1 WHERE pid = -1", 0},
        {"UPDATE temp.looper_tmp SET tid = ?1 WHERE tid = -1", 1},
        {"UPDATE dispatch SET pid = ?1 WHERE trace = ?2 AND pid = -1", 0},
        {"UPDATE dispatch SET tid = ?1 WHERE trace = ?2 AND tid = -1", 1},
    };
    int rc = GD_OK;
    for (size_t i = 0; i < sizeof upd / sizeof *upd && !rc; i++) {
        sqlite3_stmt *st = gd_store_prepare(p->s, upd[i].sql, err);
        if (!st)
            return err->code;
        sqlite3_bind_int64(st, 1, upd[i].is_tid ? main_tid : main_pid);
        if (sqlite3_bind_parameter_count(st) == 2) /* the temp table holds this trace alone */
            sqlite3_bind_int64(st, 2, p->trace);
        rc = gd_store_step(p->s, st, err);
        sqlite3_finalize(st);
    }
    return rc;
}

int gd_pairing_finish(gd_pairing *p, double capture_end, int64_t main_pid, int64_t main_tid,
                      gd_error *err)
{
    int rc = load_kept(p, err);
    if (!rc && p->unresolved)
        rc = resolve_main(p, main_pid, main_tid, err);
    if (!rc)
        rc = p->stream_on ? stream_finish(p, capture_end, err) : pair_prints(p, capture_end, err);
    return rc ? rc : gd_store_exec(p->s, "DELETE FROM temp.looper_tmp", err);
}
