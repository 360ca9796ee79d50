/* derive/methods.c - method events into the store: interned methods, calls rebuilt per thread at the end of ingest. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltree.h"
#include "core/icache.h"
#include "store/sql.h"
#include "derive/methods.h"

enum { MS_TMP, MS_M_INS, MS_M_SEL, MS_CALL, MS__COUNT };

static const char *const ms_sql[MS__COUNT] = {
    "INSERT INTO temp.method_tmp(pid, tid, ts, phase, method, end_ts, depth, open)"
    " VALUES (?,?,?,?,?,?,?,?)",
    "INSERT OR IGNORE INTO method(class, name, desc) VALUES (?,?,?)",
    "SELECT id FROM method WHERE class = ? AND name = ? AND desc IS ?",
    "INSERT INTO call(id, trace, pid, tid, depth, parent, method, start_ms, end_ms, self_ms, open,"
    " rec) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
};

struct gd_mw {
    gd_store *s;
    int64_t trace;
    sqlite3_stmt *st[MS__COUNT];
    gd_icache *methods;
    long buffered;
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
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    m->s = s;
    m->trace = trace;
    int rc = gd_store_exec(s, "CREATE TEMP TABLE IF NOT EXISTS method_tmp(pid INTEGER, tid INTEGER,"
                              " ts REAL, phase INTEGER, method INTEGER, end_ts REAL, depth INTEGER,"
                              " open INTEGER);"
                              "DELETE FROM temp.method_tmp;",
                           err);
    for (int i = 0; !rc && i < MS__COUNT; i++)
        if (!(m->st[i] = gd_store_prepare(s, ms_sql[i], err)))
            rc = err->code ? err->code : GD_ERR_IO;
    if (!rc && !(m->methods = gd_icache_new(65536, 8 << 20)))
        rc = gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    if (rc) {
        gd_mw_free(m);
        return rc;
    }
    *out = m;
    return GD_OK;
}

void gd_mw_free(gd_mw *m)
{
    if (!m)
        return;
    for (int i = 0; i < MS__COUNT; i++)
        sqlite3_finalize(m->st[i]);
    gd_icache_free(m->methods);
    free(m);
}

static int intern_method(gd_mw *m, const char *cls, const char *name, const char *desc, int64_t *id,
                         gd_error *err)
{
    char key[2048];
    char dotted[1024];
    gd_ct_dotted(cls ? cls : "", dotted, sizeof dotted);
    int klen = snprintf(key, sizeof key, "%s%c%s%c%s%c", dotted, 0, name, 0, desc ? desc : "",
                        desc ? 1 : 0);
    if (klen < 0 || (size_t)klen >= sizeof key)
        klen = (int)sizeof key - 1;
    if (gd_icache_get(m->methods, key, (size_t)klen, id))
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
        *id = sqlite3_last_insert_rowid(gd_store_db(m->s));
    }
    sqlite3_reset(sel);
    sqlite3_clear_bindings(ins);
    sqlite3_clear_bindings(sel);
    if (!rc)
        gd_icache_put(m->methods, key, (size_t)klen, *id);
    return rc;
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
    sqlite3_stmt *st = m->st[MS_TMP];
    sqlite3_bind_int64(st, 1, ev->pid);
    sqlite3_bind_int64(st, 2, ev->tid);
    sqlite3_bind_double(st, 3, ev->ts);
    sqlite3_bind_int(st, 4, me->phase == GD_PHASE_BEGIN ? 1 : me->phase == GD_PHASE_END ? 2 : 0);
    sqlite3_bind_int64(st, 5, id);
    if (me->phase == GD_PHASE_UNKNOWN && gd_has(me->end_ts))
        sqlite3_bind_double(st, 6, me->end_ts);
    else
        sqlite3_bind_double(st, 6, ev->ts);
    sqlite3_bind_int(st, 7, me->depth);
    sqlite3_bind_int(st, 8, me->open ? 1 : 0);
    m->buffered++;
    return gd_store_step(m->s, st, err);
}

static int put_call(void *ctx, const gd_call *c)
{
    gd_mw *m = ctx;
    sqlite3_stmt *st = m->st[MS_CALL];
    sqlite3_bind_int64(st, 1, c->id);
    sqlite3_bind_int64(st, 2, m->trace);
    sqlite3_bind_int64(st, 3, m->pid);
    sqlite3_bind_int64(st, 4, m->tid);
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

/* One pass over the buffered events of one phase kind, thread by thread. */
static int rebuild(gd_mw *m, int complete, double cap_end, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(
        m->s,
        complete ? "SELECT pid" TMP_COLS(GD_COL_SQL) " FROM temp.method_tmp"
                   " WHERE phase = 0 ORDER BY pid, tid, ts, depth, end_ts DESC, rowid"
                 : "SELECT pid" TMP_COLS(GD_COL_SQL) " FROM temp.method_tmp"
                   " WHERE phase != 0 ORDER BY pid, tid, ts, rowid",
        err);
    if (!q)
        return err->code ? err->code : GD_ERR_IO;
    gd_ctb b;
    if (gd_ctb_init(&b, &m->next_id, put_call, m)) {
        sqlite3_finalize(q);
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    }
    int have = 0, rc = 0, step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t pid = sqlite3_column_int64(q, T_PID), tid = sqlite3_column_int64(q, T_TID);
        if (!have || pid != m->pid || tid != m->tid) {
            if (have && (rc = gd_ctb_finish(&b, cap_end)))
                break;
            m->pid = pid;
            m->tid = tid;
            have = 1;
        }
        double ts = sqlite3_column_double(q, T_TS);
        int64_t method = sqlite3_column_int64(q, T_METHOD);
        int phase = sqlite3_column_int(q, T_PHASE);
        if (phase == 1)
            rc = gd_ctb_enter(&b, method, ts);
        else if (phase == 2)
            rc = gd_ctb_exit(&b, method, ts);
        else
            rc = gd_ctb_call(&b, method, ts, sqlite3_column_double(q, T_END), sqlite3_column_int(q, T_DEPTH),
                             sqlite3_column_int(q, T_OPEN));
        if (rc)
            break;
    }
    if (!rc && step != SQLITE_DONE)
        rc = gd_store_fail(m->s, err, "database read");
    if (!rc && have)
        rc = gd_ctb_finish(&b, cap_end);
    if (rc == -1)
        rc = gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    else if (rc == 1) /* put_call failed: err is filled */
        rc = err->code ? err->code : GD_ERR_IO;
    add_stats(m->stats, &b);
    gd_ctb_free(&b);
    sqlite3_finalize(q);
    return rc;
}

int gd_mw_finish(gd_mw *m, int64_t main_pid, int64_t main_tid, double cap_end, gd_mw_stats *st,
                 gd_error *err)
{
    memset(st, 0, sizeof *st);
    if (m->buffered == 0)
        return GD_OK;
    m->stats = st;
    m->err = err;
    char sql[256];
    snprintf(sql, sizeof sql,
             "UPDATE temp.method_tmp SET pid = %lld WHERE pid = -1;"
             "UPDATE temp.method_tmp SET tid = %lld WHERE tid = -1;",
             (long long)main_pid, (long long)main_tid);
    int rc = gd_store_exec(m->s, sql, err);
    if (rc)
        return rc;
    sqlite3_stmt *q = gd_store_prepare(m->s, "SELECT coalesce(max(id), 0) + 1 FROM call", err);
    if (!q)
        return err->code ? err->code : GD_ERR_IO;
    m->next_id = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 1;
    sqlite3_finalize(q);
    if ((rc = rebuild(m, 0, cap_end, err)) || (rc = rebuild(m, 1, cap_end, err)))
        return rc;
    m->buffered = 0;
    return gd_store_exec(m->s, "DELETE FROM temp.method_tmp;", err);
}
