/* derive/methods.c - method events into the store: interned methods, calls rebuilt per thread at the end of ingest. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltree.h"
#include "core/icache.h"
#include "core/tmpfile.h"
#include "store/sql.h"
#include "derive/methods.h"

enum { MS_TMP, MS_M_INS, MS_M_SEL, MS_CALL, MS__COUNT };

static const char *const ms_sql[MS__COUNT] = {
    "INSERT INTO temp.method_tmp(pid, tid, ts, phase, method, end_ts, depth, open, seq)"
    " VALUES (?,?,?,?,?,?,?,?,?)",
    "INSERT OR IGNORE INTO method(class, name, desc) VALUES (?,?,?)",
    "SELECT id FROM method WHERE class = ? AND name = ? AND desc IS ?",
    "INSERT INTO call(id, trace, pid, tid, depth, parent, method, start_ms, end_ms, self_ms, open,"
    " rec) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
};

/* A buffered method event.  Up to MW_MEM_ROWS of them wait in memory;
 * each time that fills, they are sorted and written to a temporary file as
 * a run, and the runs are merged at the end, so memory stays bounded
 * whatever the input.  When a run's order cannot be known before the end
 * (it would hold an event of pid or tid -1: they become the main thread's
 * at the end), or from a time that is NaN on (SQLite stores NULL), every
 * event goes to temp.method_tmp instead and SQLite sorts them.  Both give
 * the same order. */
typedef struct mw_row {
    int64_t pid, tid, method;
    double ts, end;
    uint64_t seq;        /* arrival order                                    */
    int32_t depth;
    uint8_t phase, open; /* 0 complete, 1 enter, 2 exit                      */
} mw_row;

#define MW_MEM_ROWS ((size_t)(16u << 20) / sizeof(mw_row))
/* rows read from a run at a time during the merge */
#define MW_RUN_CHUNK 1024

struct gd_mw {
    gd_store *s;
    int64_t trace;
    sqlite3_stmt *st[MS__COUNT];
    gd_icache *methods;
    long buffered;
    mw_row *rows;        /* in memory while !spilled                        */
    size_t nrows, caprows, mem_rows;
    FILE *runs;          /* the sorted runs, one after another              */
    size_t *run_n, nruns, capruns; /* rows in each run                      */
    int unknown_ids;     /* a row in memory has pid or tid -1               */
    int spilled;         /* the events are in temp.method_tmp               */
    /* during finish */
    int64_t pid, tid, next_id;
    gd_mw_stats *stats;
    gd_error *err;
};

int gd_mw_open(gd_mw **out, gd_store *s, int64_t trace, gd_error *err)
{
    *out = NULL;
    gd_mw *m = calloc(1, sizeof *m);
    if (!m)
        return gd_error_oom(err);
    m->s = s;
    m->trace = trace;
    m->mem_rows = MW_MEM_ROWS;
    int rc = gd_store_exec(s, "CREATE TEMP TABLE IF NOT EXISTS method_tmp(pid INTEGER, tid INTEGER,"
                              " ts REAL, phase INTEGER, method INTEGER, end_ts REAL, depth INTEGER,"
                              " open INTEGER, seq INTEGER);"
                              "DELETE FROM temp.method_tmp;",
                           err);
    for (int i = 0; !rc && i < MS__COUNT; i++)
        if (!(m->st[i] = gd_store_prepare(s, ms_sql[i], err)))
            rc = err->code ? err->code : GD_ERR_IO;
    if (!rc && !(m->methods = gd_icache_new(65536, 8 << 20)))
        rc = gd_error_oom(err);
    if (!rc) /* #50: the call's trace bound once; pid, tid once a thread (feed) */
        sqlite3_bind_int64(m->st[MS_CALL], 2, trace);
    if (rc) {
        gd_mw_free(m);
        return rc;
    }
    *out = m;
    return GD_OK;
}

void gd_mw_set_mem_rows(gd_mw *m, size_t rows)
{
    m->mem_rows = rows;
}

void gd_mw_free(gd_mw *m)
{
    if (!m)
        return;
    for (int i = 0; i < MS__COUNT; i++)
        sqlite3_finalize(m->st[i]);
    gd_icache_free(m->methods);
    free(m->rows);
    free(m->run_n);
    if (m->runs)
        fclose(m->runs);
    free(m);
}

/* Appends k bytes of s to key[len..], at most up to cap bytes in all; the new length. */
static size_t key_put(char *key, size_t len, size_t cap, const char *s, size_t k)
{
    if (k > cap - len)
        k = cap - len;
    memcpy(key + len, s, k);
    return len + k;
}

static int intern_method(gd_mw *m, const char *cls, const char *name, const char *desc, int64_t *id,
                         gd_error *err)
{
    char key[2048];
    char dotted[1024];
    gd_ct_dotted(cls ? cls : "", dotted, sizeof dotted);
    /* dotted NUL name NUL desc flag, cut at sizeof key - 1 bytes (this runs per method event,
     * so it is not snprintf) */
    size_t klen = 0;
    klen = key_put(key, klen, sizeof key - 1, dotted, strlen(dotted) + 1);
    klen = key_put(key, klen, sizeof key - 1, name, strlen(name) + 1);
    klen = key_put(key, klen, sizeof key - 1, desc ? desc : "", desc ? strlen(desc) : 0);
    klen = key_put(key, klen, sizeof key - 1, desc ? "\1" : "", 1);
    if (gd_icache_get(m->methods, key, klen, id))
        return GD_OK;
    sqlite3_stmt *ins = m->st[MS_M_INS], *sel = m->st[MS_M_SEL];
    int rc = GD_OK;
    for (int i = 0; i < 2; i++) {
        sqlite3_stmt *st = i ? ins : sel;
        sqlite3_bind_text(st, 1, dotted, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
        if (desc)
            sqlite3_bind_text(st, 3, desc, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(st, 3);
    }
    if (sqlite3_step(sel) == SQLITE_ROW) {
        *id = sqlite3_column_int64(sel, 0);
    } else if ((rc = gd_store_step(m->s, ins, err)) == GD_OK) {
        *id = gd_store_last_id(m->s);
    }
    sqlite3_reset(sel);
    sqlite3_clear_bindings(ins);
    sqlite3_clear_bindings(sel);
    if (!rc)
        gd_icache_put(m->methods, key, klen, *id);
    return rc;
}

static int tmp_insert(gd_mw *m, const mw_row *r, gd_error *err)
{
    sqlite3_stmt *st = m->st[MS_TMP];
    sqlite3_bind_int64(st, 1, r->pid);
    sqlite3_bind_int64(st, 2, r->tid);
    sqlite3_bind_double(st, 3, r->ts);
    sqlite3_bind_int(st, 4, r->phase);
    sqlite3_bind_int64(st, 5, r->method);
    sqlite3_bind_double(st, 6, r->end);
    sqlite3_bind_int(st, 7, r->depth);
    sqlite3_bind_int(st, 8, r->open);
    sqlite3_bind_int64(st, 9, (sqlite3_int64)r->seq);
    return gd_store_step(m->s, st, err);
}

static int row_cmp(const void *pa, const void *pb);

static void drop_runs(gd_mw *m)
{
    if (m->runs)
        fclose(m->runs);
    m->runs = NULL;
    m->nruns = 0;
}

/* Frees the events' buffer (it grows again from 1,024 rows if needed). */
static void drop_rows(gd_mw *m)
{
    free(m->rows);
    m->rows = NULL;
    m->nrows = m->caprows = 0;
}

/* Moves the events of the runs and those waiting in memory to the temp
 * table (the order they go in does not matter: seq keeps arrival). */
static int spill(gd_mw *m, gd_error *err)
{
    int rc = GD_OK;
    if (m->nruns && (fflush(m->runs) || fseek(m->runs, 0, SEEK_SET)))
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "cannot read the temporary file of method events");
    mw_row chunk[64];
    for (size_t k = 0; !rc && k < m->nruns; k++)
        for (size_t left = m->run_n[k]; !rc && left;) {
            size_t want = left < 64 ? left : 64;
            if (fread(chunk, sizeof *chunk, want, m->runs) != want) {
                rc = gd_error_set(err, GD_ERR_IO, 0, 0, "cannot read the temporary file of method events");
                break;
            }
            for (size_t i = 0; !rc && i < want; i++)
                rc = tmp_insert(m, &chunk[i], err);
            left -= want;
        }
    drop_runs(m);
    for (size_t i = 0; !rc && i < m->nrows; i++)
        rc = tmp_insert(m, &m->rows[i], err);
    drop_rows(m);
    m->spilled = 1;
    return rc;
}

/* The rows in memory, sorted, become a run (or, when that cannot be done,
 * everything goes to the temp table). */
static int flush_run(gd_mw *m, gd_error *err)
{
    if (m->unknown_ids || !m->nrows)
        return spill(m, err);
    if (m->nruns == m->capruns) {
        size_t nc = m->capruns ? m->capruns * 2 : 16;
        size_t *n = realloc(m->run_n, nc * sizeof *n);
        if (!n)
            return spill(m, err);
        m->run_n = n;
        m->capruns = nc;
    }
    if (!m->runs && !(m->runs = gd_tmpfile(NULL))) /* the temp table instead */
        return spill(m, err);
    qsort(m->rows, m->nrows, sizeof *m->rows, row_cmp);
    if (fwrite(m->rows, sizeof *m->rows, m->nrows, m->runs) != m->nrows) {
        /* what was written of this run is past the last counted one */
        return spill(m, err);
    }
    m->run_n[m->nruns++] = m->nrows;
    m->nrows = 0;
    return GD_OK;
}

int gd_mw_put(gd_mw *m, const gd_event *ev, gd_error *err)
{
    const gd_method_ev *me = &ev->u.method;
    if (!me->method || !*me->method)
        return GD_OTHER_RULE;
    int64_t id;
    int rc = intern_method(m, me->cls, me->method, me->desc, &id, err);
    if (rc)
        return rc;
    mw_row r = {ev->pid, ev->tid, id, ev->ts, ev->ts, (uint64_t)m->buffered, me->depth,
                me->phase == GD_PHASE_BEGIN ? 1 : me->phase == GD_PHASE_END ? 2 : 0, me->open ? 1 : 0};
    if (me->phase == GD_PHASE_UNKNOWN && gd_has(me->end_ts))
        r.end = me->end_ts;
    m->buffered++;
    if (!m->spilled && isnan(r.ts) && (rc = spill(m, err)))
        return rc;
    if (!m->spilled && m->nrows >= m->mem_rows && (rc = flush_run(m, err)))
        return rc;
    if (!m->spilled && m->nrows == m->caprows) {
        size_t nc = m->caprows ? m->caprows * 2 : 1024;
        nc = nc < m->mem_rows ? nc : m->mem_rows;
        mw_row *n = realloc(m->rows, nc * sizeof *n);
        if (!n && (rc = spill(m, err)))
            return rc;
        if (n) {
            m->rows = n;
            m->caprows = nc;
        }
    }
    if (m->spilled)
        return tmp_insert(m, &r, err);
    m->rows[m->nrows++] = r;
    m->unknown_ids |= r.pid == -1 || r.tid == -1;
    return GD_OK;
}

static int put_call(void *ctx, const gd_call *c)
{
    gd_mw *m = ctx;
    sqlite3_stmt *st = m->st[MS_CALL];
    sqlite3_bind_int64(st, 1, c->id);
    sqlite3_bind_int(st, 5, c->depth);
    if (c->parent > 0)
        sqlite3_bind_int64(st, 6, c->parent);
    else
        sqlite3_bind_null(st, 6);
    sqlite3_bind_int64(st, 7, c->method);
    sqlite3_bind_double(st, 8, c->start);
    sqlite3_bind_double(st, 9, c->end);
    sqlite3_bind_double(st, 10, c->self < 0 ? 0 : c->self);
    sqlite3_bind_int(st, 11, c->open);
    sqlite3_bind_int(st, 12, c->rec);
    m->stats->calls++;
    return gd_store_step(m->s, st, m->err) ? 1 : 0;
}

static void add_stats(gd_mw_stats *st, const gd_ctb *b)
{
    st->unbalanced += b->unbalanced;
    st->unclosed += b->unclosed;
    st->too_deep += b->too_deep;
}

/* temp.method_tmp's columns as the rebuild reads them, by name */
#define TMP_COLS(X)                                                                        \
    X(T_TID, "tid") X(T_TS, "ts") X(T_PHASE, "phase") X(T_METHOD, "method") X(T_END, "end_ts") \
    X(T_DEPTH, "depth") X(T_OPEN, "open")
enum { T_PID = 0, TMP_COLS(GD_COL_ENUM) T_NCOLS };

/* One pass over the buffered events of one phase kind: the current
 * thread's call builder. */
typedef struct mw_pass {
    gd_mw *m;
    gd_ctb b;
    int have;
    double cap_end;
} mw_pass;

static int pass_begin(mw_pass *p, gd_mw *m, double cap_end, gd_error *err)
{
    p->m = m;
    p->have = 0;
    p->cap_end = cap_end;
    if (gd_ctb_init(&p->b, &m->next_id, put_call, m))
        return gd_error_oom(err);
    return GD_OK;
}

/* One event, in its pass's order (thread by thread): 0, or the call
 * builder's -1 (out of memory) or 1 (put_call failed). */
static int feed(mw_pass *p, const mw_row *r)
{
    gd_mw *m = p->m;
    if (!p->have || r->pid != m->pid || r->tid != m->tid) {
        int rc = p->have ? gd_ctb_finish(&p->b, p->cap_end) : 0;
        if (rc)
            return rc;
        m->pid = r->pid;
        m->tid = r->tid;
        sqlite3_bind_int64(m->st[MS_CALL], 3, m->pid);
        sqlite3_bind_int64(m->st[MS_CALL], 4, m->tid);
        p->have = 1;
    }
    if (r->phase == 1)
        return gd_ctb_enter(&p->b, r->method, r->ts);
    if (r->phase == 2)
        return gd_ctb_exit(&p->b, r->method, r->ts);
    return gd_ctb_call(&p->b, r->method, r->ts, r->end, r->depth, r->open);
}

/* Closes a pass: rc is feed's (or a gd_err code); returns a gd_err code. */
static int pass_end(mw_pass *p, int rc, gd_error *err)
{
    if (!rc && p->have)
        rc = gd_ctb_finish(&p->b, p->cap_end);
    if (rc == -1)
        rc = gd_error_oom(err);
    else if (rc == 1) /* put_call failed: err is filled */
        rc = err->code ? err->code : GD_ERR_IO;
    add_stats(p->m->stats, &p->b);
    gd_ctb_free(&p->b);
    return rc;
}

/* One pass over the events of one phase kind in the temp table. */
static int rebuild(gd_mw *m, int complete, double cap_end, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(
        m->s,
        complete ? "SELECT pid" TMP_COLS(GD_COL_SQL) " FROM temp.method_tmp"
                   " WHERE phase = 0 ORDER BY pid, tid, ts, depth, end_ts DESC, seq"
                 : "SELECT pid" TMP_COLS(GD_COL_SQL) " FROM temp.method_tmp"
                   " WHERE phase != 0 ORDER BY pid, tid, ts, seq",
        err);
    if (!q)
        return err->code ? err->code : GD_ERR_IO;
    mw_pass p;
    int rc = pass_begin(&p, m, cap_end, err), step = SQLITE_DONE;
    if (rc) {
        sqlite3_finalize(q);
        return rc;
    }
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        mw_row r = {sqlite3_column_int64(q, T_PID), sqlite3_column_int64(q, T_TID),
                    sqlite3_column_int64(q, T_METHOD), sqlite3_column_double(q, T_TS),
                    sqlite3_column_double(q, T_END), 0, sqlite3_column_int(q, T_DEPTH),
                    (uint8_t)sqlite3_column_int(q, T_PHASE), (uint8_t)sqlite3_column_int(q, T_OPEN)};
        if ((rc = feed(&p, &r)))
            break;
    }
    if (!rc && step != SQLITE_DONE)
        rc = gd_store_fail(m->s, err, "database read");
    rc = pass_end(&p, rc, err);
    sqlite3_finalize(q);
    return rc;
}

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)

/* The temp table's two orders in one: enter/exit events first, by thread,
 * time and arrival; then complete calls by thread, start, depth, end
 * (latest first) and arrival. */
static int row_cmp(const void *pa, const void *pb)
{
    const mw_row *x = pa, *y = pb;
    int xc = x->phase == 0, yc = y->phase == 0, c;
    if ((c = xc - yc) || (c = CMP(x->pid, y->pid)) || (c = CMP(x->tid, y->tid)) || (c = CMP(x->ts, y->ts)))
        return c;
    if (xc && ((c = CMP(x->depth, y->depth)) || (c = CMP(y->end, x->end))))
        return c;
    return CMP(x->seq, y->seq);
}

/* One sorted source of the merge: a run read back in chunks, or the rows
 * in memory. */
typedef struct mw_src {
    mw_row *buf;
    size_t n, at;        /* rows in buf, the next one                        */
    size_t left;         /* rows of the run not read yet                     */
    long long off;       /* where they are in the file                       */
} mw_src;

/* The source's next row, reading its next chunk when needed: 1, 0 when it
 * is done, -1 on a read error. */
static int src_ready(FILE *f, mw_src *s)
{
    if (s->at < s->n)
        return 1;
    if (!s->left)
        return 0;
    size_t want = s->left < MW_RUN_CHUNK ? s->left : MW_RUN_CHUNK;
    if (fseeko(f, (off_t)s->off, SEEK_SET) || fread(s->buf, sizeof *s->buf, want, f) != want)
        return -1;
    s->off += (long long)(want * sizeof *s->buf);
    s->left -= want;
    s->n = want;
    s->at = 0;
    return 1;
}

static int src_less(const mw_src *a, const mw_src *b)
{
    return row_cmp(&a->buf[a->at], &b->buf[b->at]) < 0;
}

/* Restores the min-heap of source indexes h[0..n) below position i. */
static void heap_down(mw_src *src, size_t *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && src_less(&src[h[l]], &src[h[m]]))
            m = l;
        if (r < n && src_less(&src[h[r]], &src[h[m]]))
            m = r;
        if (m == i)
            return;
        size_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* Both passes over the events of the runs and in memory, merged in order
 * (enter/exit events sort before complete calls). */
static int rebuild_rows(gd_mw *m, int64_t main_pid, int64_t main_tid, double cap_end, gd_error *err)
{
    for (size_t i = 0; i < m->nrows; i++) { /* never in a run (flush_run) */
        if (m->rows[i].pid == -1)
            m->rows[i].pid = main_pid;
        if (m->rows[i].tid == -1)
            m->rows[i].tid = main_tid;
    }
    qsort(m->rows, m->nrows, sizeof *m->rows, row_cmp);
    size_t ns = m->nruns + 1, nh = 0;
    mw_src *src = calloc(ns, sizeof *src);
    size_t *heap = calloc(ns, sizeof *heap);
    mw_row *chunks = m->nruns ? malloc(m->nruns * MW_RUN_CHUNK * sizeof *chunks) : NULL;
    int rc = GD_OK;
    if (!src || !heap || (m->nruns && !chunks))
        rc = gd_error_oom(err);
    else if (m->nruns && fflush(m->runs))
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "cannot write the temporary file of method events");
    long long off = 0;
    for (size_t k = 0; !rc && k < ns; k++) {
        if (k < m->nruns) {
            src[k] = (mw_src){chunks + k * MW_RUN_CHUNK, 0, 0, m->run_n[k], off};
            off += (long long)(m->run_n[k] * sizeof *chunks);
        } else {
            src[k] = (mw_src){m->rows, m->nrows, 0, 0, 0};
        }
        int r = src_ready(m->runs, &src[k]);
        if (r < 0)
            rc = gd_error_set(err, GD_ERR_IO, 0, 0, "cannot read the temporary file of method events");
        else if (r)
            heap[nh++] = k;
    }
    for (size_t i = nh; !rc && i-- > 0;)
        heap_down(src, heap, nh, i);
    mw_pass p;
    int complete = 0, begun = 0;
    if (!rc && !(rc = pass_begin(&p, m, cap_end, err)))
        begun = 1;
    while (!rc && nh) {
        mw_src *top = &src[heap[0]];
        const mw_row *r = &top->buf[top->at];
        if (r->phase == 0 && !complete) {
            complete = 1;
            begun = 0;
            if ((rc = pass_end(&p, rc, err)) || (rc = pass_begin(&p, m, cap_end, err)))
                break;
            begun = 1;
        }
        if ((rc = feed(&p, r)))
            break;
        top->at++;
        int more = src_ready(m->runs, top);
        if (more < 0) {
            rc = gd_error_set(err, GD_ERR_IO, 0, 0, "cannot read the temporary file of method events");
            break;
        }
        if (!more)
            heap[0] = heap[--nh];
        heap_down(src, heap, nh, 0);
    }
    if (begun)
        rc = pass_end(&p, rc, err);
    free(src);
    free(heap);
    free(chunks);
    drop_runs(m);
    return rc;
}

/* The first free call id. */
static int next_call_id(gd_mw *m, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(m->s, "SELECT coalesce(max(id), 0) + 1 FROM call", err);
    if (!q)
        return err->code ? err->code : GD_ERR_IO;
    m->next_id = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 1;
    sqlite3_finalize(q);
    return GD_OK;
}

int gd_mw_finish(gd_mw *m, int64_t main_pid, int64_t main_tid, double cap_end, gd_mw_stats *st,
                 gd_error *err)
{
    memset(st, 0, sizeof *st);
    if (m->buffered == 0)
        return GD_OK;
    m->stats = st;
    m->err = err;
    int rc;
    if (!m->spilled) {
        if ((rc = next_call_id(m, err)) || (rc = rebuild_rows(m, main_pid, main_tid, cap_end, err)))
            return rc;
        m->buffered = 0;
        m->unknown_ids = 0;
        drop_rows(m);
        return GD_OK;
    }
    char sql[256];
    snprintf(sql, sizeof sql,
             "UPDATE temp.method_tmp SET pid = %lld WHERE pid = -1;"
             "UPDATE temp.method_tmp SET tid = %lld WHERE tid = -1;",
             (long long)main_pid, (long long)main_tid);
    if ((rc = gd_store_exec(m->s, sql, err)) || (rc = next_call_id(m, err)) ||
        (rc = rebuild(m, 0, cap_end, err)) || (rc = rebuild(m, 1, cap_end, err)))
        return rc;
    m->buffered = 0;
    m->spilled = 0;
    m->unknown_ids = 0;
    return gd_store_exec(m->s, "DELETE FROM temp.method_tmp;", err);
}
