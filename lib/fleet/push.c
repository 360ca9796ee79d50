/* push.c - streaming a store's traces into ClickHouse, batch by batch. */
#include "push.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/export.h"

typedef struct batcher {
    gd_ch *c;
    const char *table;
    size_t batch;
    char *buf;
    size_t len, cap;
    size_t rows;              /* rows in buf                              */
    long long sent;           /* rows of this table accepted so far        */
    gd_error *err;
    int rc;
} batcher;

static int flush(batcher *b)
{
    if (!b->rows)
        return GD_OK;
    b->rc = gd_ch_insert(b->c, b->table, b->buf, b->len, b->err);
    if (b->rc)
        return b->rc; /* rows stay counted for the error message */
    b->sent += (long long)b->rows;
    b->len = b->rows = 0;
    return GD_OK;
}

static int on_row(void *ctx, json_t *row)
{
    batcher *b = ctx;
    char *line = json_dumps(row, JSON_COMPACT | JSON_REAL_PRECISION(17));
    if (!line) {
        b->rc = gd_error_set(b->err, GD_ERR_IO, 0, 0, "out of memory");
        return 1;
    }
    size_t n = strlen(line);
    if (b->len + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 1 << 20;
        while (nc < b->len + n + 1)
            nc *= 2;
        char *nb = realloc(b->buf, nc);
        if (!nb) {
            free(line);
            b->rc = gd_error_set(b->err, GD_ERR_IO, 0, 0, "out of memory");
            return 1;
        }
        b->buf = nb;
        b->cap = nc;
    }
    memcpy(b->buf + b->len, line, n);
    b->buf[b->len + n] = '\n';
    b->len += n + 1;
    free(line);
    if (++b->rows >= b->batch && flush(b))
        return 1;
    return 0;
}

typedef struct trace_list {
    int64_t *id;
    char (*uid)[40];
    size_t n, cap;
} trace_list;

static int on_trace(void *ctx, json_t *row)
{
    trace_list *l = ctx;
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 16;
        int64_t *ni = realloc(l->id, nc * sizeof *ni);
        if (ni)
            l->id = ni;
        char(*nu)[40] = realloc(l->uid, nc * sizeof *nu);
        if (nu)
            l->uid = nu;
        if (!ni || !nu)
            return 1;
        l->cap = nc;
    }
    l->id[l->n] = json_integer_value(json_object_get(row, "trace"));
    snprintf(l->uid[l->n], sizeof l->uid[0], "%s", json_string_value(json_object_get(row, "trace_uid")));
    l->n++;
    return 0;
}

/* "dispatches 7, blocks 6" of what was accepted for the trace so far. */
static void sent_summary(json_t *tables, char *out, size_t n)
{
    const char *k;
    json_t *v;
    size_t used = 0;
    out[0] = 0;
    json_object_foreach(tables, k, v)
        if (used < n)
            used += (size_t)snprintf(out + used, n - used, "%s%s %lld", used ? ", " : "", k,
                                     (long long)json_integer_value(v));
    if (!used)
        snprintf(out, n, "nothing");
}

static int push_trace(gd_store *s, gd_ch *c, int64_t trace, const char *uid, size_t batch,
                      batcher *b, gd_push_report *rep, gd_error *err)
{
    char q[256], ans[64];
    for (const char *p = uid; *p; p++)
        if (!strchr("0123456789abcdefABCDEF", *p))
            return gd_error_set(err, GD_ERR_DATA, 0, 0, "trace %lld: bad content hash '%s'",
                                (long long)trace, uid);
    snprintf(q, sizeof q, "SELECT count() FROM traces WHERE trace_uid = '%s'", uid);
    int rc = gd_ch_query(c, q, ans, sizeof ans, err);
    if (rc)
        return rc;
    if (atoll(ans) > 0) {
        rep->already = 1;
        return GD_OK;
    }
    for (const char *const *t = gd_store_export_tables(); *t && !rc; t++) {
        b->table = *t;
        b->batch = batch;
        b->len = b->rows = 0;
        b->sent = 0;
        b->rc = GD_OK;
        rc = gd_store_export(s, *t, trace, on_row, b, err);
        if (rc == GD_ERR_ABORT)
            rc = b->rc;
        else if (!rc)
            rc = flush(b);
        if (rc) {
            /* say exactly what was sent before the failure */
            char msg[sizeof err->msg], done[200];
            json_object_set_new(rep->tables, *t, json_integer(b->sent));
            sent_summary(rep->tables, done, sizeof done);
            snprintf(msg, sizeof msg,
                     "%.240s (trace %lld: rows %lld..%lld of '%s' refused; accepted for it: %s;"
                     " its traces row was not sent, so a new push sends it again)",
                     err->msg, (long long)trace, b->sent + 1, b->sent + (long long)b->rows, *t,
                     done);
            snprintf(err->msg, sizeof err->msg, "%s", msg);
            return rc;
        }
        json_object_set_new(rep->tables, *t, json_integer(b->sent));
        rep->rows += b->sent;
    }
    return rc;
}

int gd_push(gd_store *s, gd_ch *c, const gd_push_opts *opts, gd_push_report_fn fn, void *ctx,
            gd_error *err)
{
    int rc = gd_ch_create_tables(c, err);
    if (rc)
        return rc;
    trace_list l = {0};
    rc = gd_store_export_traces(s, &opts->filter, on_trace, &l, err);
    if (rc == GD_ERR_ABORT)
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "out of memory");
    batcher b = {.c = c, .err = err};
    for (size_t i = 0; i < l.n && !rc; i++) {
        gd_push_report rep = {.trace = l.id[i], .trace_uid = l.uid[i], .tables = json_object()};
        rc = push_trace(s, c, l.id[i], l.uid[i], opts->batch ? opts->batch : 10000, &b, &rep, err);
        if (!rc && fn)
            fn(ctx, &rep);
        json_decref(rep.tables);
    }
    free(b.buf);
    free(l.id);
    free(l.uid);
    return rc;
}
