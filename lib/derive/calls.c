/* derive/calls.c - a thread's stored calls over a window: method names, the window's calls, per-method sums. */
#include "derive/calls.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#include "calls_window_sql.h" /* GD_SQL_CALLS_WINDOW: lib/sql/calls-window.sql, generated */

/* ---- method names ------------------------------------------------------------ */

/* method's name columns, by name */
#define NAME_COLS(X) X(MN_NAME, "name") X(MN_DESC, "desc")
enum { MN_CLASS = 0, NAME_COLS(GD_COL_ENUM) MN__COUNT };

/* Names of a method id (owned copies in *out); GD_ERR_DATA when missing. */
int gd_calls_name(gd_store *s, sqlite3_stmt **q, int64_t id, gd_mname *out, gd_error *err)
{
    memset(out, 0, sizeof *out);
    if (!*q && !(*q = gd_store_prepare(s, "SELECT class" NAME_COLS(GD_COL_SQL) " FROM method WHERE id = ?", err)))
        return err->code ? err->code : GD_ERR_IO;
    sqlite3_bind_int64(*q, 1, id);
    int rc = GD_OK;
    if (sqlite3_step(*q) == SQLITE_ROW) {
        out->cls = strdup((const char *)sqlite3_column_text(*q, MN_CLASS));
        out->name = strdup((const char *)sqlite3_column_text(*q, MN_NAME));
        const unsigned char *d = sqlite3_column_text(*q, MN_DESC);
        out->desc = d ? strdup((const char *)d) : NULL;
        if (!out->cls || !out->name)
            rc = gd_error_oom(err);
    } else {
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "database: method %lld missing", (long long)id);
    }
    sqlite3_reset(*q);
    return rc;
}

void gd_calls_name_free(gd_mname *m)
{
    free(m->cls);
    free(m->name);
    free(m->desc);
    memset(m, 0, sizeof *m);
}

char *gd_calls_dotted(const gd_mname *m, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s", m->cls, m->cls[0] ? "." : "", m->name);
    return buf;
}

/* ---- the calls of a window ---------------------------------------------------- */

void gd_calls_at(sqlite3_stmt *q, int col, gd_call *c)
{
    memset(c, 0, sizeof *c);
    c->id = sqlite3_column_int64(q, col);
    c->parent = sqlite3_column_type(q, col + 1) == SQLITE_NULL ? 0 : sqlite3_column_int64(q, col + 1);
    c->method = sqlite3_column_int64(q, col + 2);
    c->start = sqlite3_column_double(q, col + 3);
    c->end = sqlite3_column_double(q, col + 4);
    c->depth = sqlite3_column_int(q, col + 5);
    c->open = sqlite3_column_int(q, col + 6);
}

/* Feeds the calls of one thread that overlap [a, b] to fn, in pre-order:
 * the calls running at `a` (the ancestors of the last call started by
 * then) and the calls started inside (a, b). */
int gd_calls_window(gd_store *s, int64_t trace, int64_t pid, int64_t tid, double a, double b,
                    gd_call_fn fn, void *ctx, gd_error *err)
{
    sqlite3_stmt *q = gd_store_cached(s, GD_SQL_CALLS_WINDOW, err);
    if (!q)
        return err->code ? err->code : GD_ERR_IO;
    sqlite3_bind_int64(q, 1, trace);
    sqlite3_bind_int64(q, 2, pid);
    sqlite3_bind_int64(q, 3, tid);
    sqlite3_bind_double(q, 4, a);
    sqlite3_bind_double(q, 5, b);
    int rc = GD_OK, step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        gd_call c;
        gd_calls_at(q, 0, &c);
        if ((rc = fn(ctx, &c)))
            break;
    }
    if (!rc && step != SQLITE_DONE)
        rc = gd_store_fail(s, err, "database read");
    gd_store_release(s, q);
    return rc;
}

/* Window calls into a walker (fn for gd_calls_window). */
static int feed_walker(void *ctx, const gd_call *c) { return gd_ctw_add(ctx, c); }

int gd_calls_walk(gd_store *s, int64_t trace, int64_t pid, int64_t tid, double a, double b,
                  gd_call_fn out, void *ctx, gd_error *err)
{
    gd_ctw w;
    gd_ctw_init(&w, a, b, out, ctx);
    int rc = gd_calls_window(s, trace, pid, tid, a, b, feed_walker, &w, err);
    if (!rc)
        rc = gd_ctw_finish(&w);
    gd_ctw_free(&w);
    return rc;
}

/* ---- per-method sums of a window ---------------------------------------------- */

static size_t acc_hash(int64_t method, size_t mask)
{
    uint64_t x = (uint64_t)method * 0x9E3779B97F4A7C15ull;
    return (size_t)(x ^ (x >> 29)) & mask;
}

/* Doubles the index (rehashing every method); -1 when out of memory. */
static int acc_rehash(gd_calls_accs *a)
{
    size_t n = a->nslot ? a->nslot * 2 : 64;
    size_t *slot = calloc(n, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < a->n; i++) {
        size_t h = acc_hash(a->v[i].method, n - 1);
        while (slot[h])
            h = (h + 1) & (n - 1);
        slot[h] = i + 1;
    }
    free(a->slot);
    a->slot = slot;
    a->nslot = n;
    return 0;
}

static gd_calls_acc *acc_get(gd_calls_accs *a, int64_t method)
{
    if ((a->n + 1) * 2 > a->nslot && acc_rehash(a))
        return NULL;
    size_t h = acc_hash(method, a->nslot - 1);
    for (; a->slot[h]; h = (h + 1) & (a->nslot - 1), a->probes++)
        if (a->v[a->slot[h] - 1].method == method)
            return &a->v[a->slot[h] - 1];
    if (gd_grow((void **)&a->v, &a->cap, a->n + 1, sizeof *a->v, NULL))
        return NULL;
    gd_calls_acc *e = &a->v[a->n++];
    memset(e, 0, sizeof *e);
    e->method = method;
    e->max = NAN;
    a->slot[h] = a->n;
    return e;
}

void gd_calls_accs_free(gd_calls_accs *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i].durs);
    free(a->v);
    free(a->slot);
}

/* Walker output: per-method sums of clipped times. */
int gd_calls_acc_call(void *ctx, const gd_call *c)
{
    gd_calls_accs *a = ctx;
    gd_calls_acc *e = acc_get(a, c->method);
    if (!e) {
        a->oom = 1;
        return -1;
    }
    e->self += c->self;
    if (!c->rec)
        e->total += c->total;
    if (c->open) {
        e->open++;
        return 0;
    }
    e->count++;
    if (isnan(e->max) || c->total > e->max)
        e->max = c->total;
    if (gd_grow((void **)&e->durs, &e->cap, e->n + 1, sizeof *e->durs, NULL)) {
        a->oom = 1;
        return -1;
    }
    e->durs[e->n++] = c->total;
    return 0;
}
