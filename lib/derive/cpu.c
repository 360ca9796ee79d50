/* derive/cpu.c - what the CPU samples of a trace give at ingest: ratios from raw counters, the sampler's interval. */
#include "derive/cpu.h"

#include <stdlib.h>

#include "core/util.h"

/* A raw CPU sample, read by name. */
#define RAW_COLS(X) X(R_BUSY, "busy") X(R_TOTAL, "total") X(R_APP, "app")
enum { R_ID = 0, RAW_COLS(GD_COL_ENUM) R_NCOLS };

/* The ratio loop's state: the UPDATE and the previous sample's counters
 * (-1 none). */
typedef struct ratios_ctx {
    gd_store *s;
    sqlite3_stmt *u;
    gd_error *err;
    int64_t pb, pt, pa;
} ratios_ctx;

/* One sample: its ratios from the delta to the previous one. */
static int ratios_row(void *ctx, sqlite3_stmt *q)
{
    ratios_ctx *c = ctx;
    int64_t id = sqlite3_column_int64(q, R_ID), b = sqlite3_column_int64(q, R_BUSY),
            t = sqlite3_column_int64(q, R_TOTAL);
    int64_t a = sqlite3_column_type(q, R_APP) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, R_APP);
    if (c->pt >= 0 && t > c->pt) {
        sqlite3_bind_double(c->u, 1, (double)(b - c->pb) / (double)(t - c->pt));
        if (a >= 0 && c->pa >= 0)
            sqlite3_bind_double(c->u, 2, (double)(a - c->pa) / (double)(t - c->pt));
        else
            sqlite3_bind_null(c->u, 2);
        sqlite3_bind_int64(c->u, 3, id);
        int rc = gd_store_step(c->s, c->u, c->err);
        if (rc)
            return rc;
    }
    c->pb = b;
    c->pt = t;
    c->pa = a;
    return GD_OK;
}

/* Ratios of raw CPU samples from the delta to the previous sample. */
int gd_derive_cpu_ratios(gd_store *s, int64_t trace, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(
        s, "SELECT id" RAW_COLS(GD_COL_SQL) " FROM cpu WHERE trace = ? AND total IS NOT NULL"
           " ORDER BY ts_ms, id", err);
    sqlite3_stmt *u = gd_store_prepare(
        s, "UPDATE cpu SET total_ratio = coalesce(total_ratio, ?),"
           " app_ratio = coalesce(app_ratio, ?) WHERE id = ?", err);
    if (!q || !u) {
        sqlite3_finalize(q);
        sqlite3_finalize(u);
        return err->code;
    }
    sqlite3_bind_int64(q, 1, trace);
    ratios_ctx c = {.s = s, .u = u, .err = err, .pb = -1, .pt = -1, .pa = -1};
    int rc = gd_store_each(s, q, ratios_row, &c, err);
    sqlite3_finalize(u);
    return rc;
}

/* The gaps between samples, sorted (one column). */
enum { GAP_G = 0 };

typedef struct gaps_ctx {
    double *gaps;
    size_t n, cap;
} gaps_ctx;

static int gaps_row(void *ctx, sqlite3_stmt *q)
{
    gaps_ctx *c = ctx;
    if (gd_grow((void **)&c->gaps, &c->cap, c->n + 1, sizeof *c->gaps, NULL))
        return GD_EACH_STOP;
    c->gaps[c->n++] = sqlite3_column_double(q, GAP_G);
    return GD_OK;
}

/* Median gap between consecutive CPU samples: the sampler's interval. */
double gd_derive_cpu_interval(gd_store *s, int64_t trace)
{
    sqlite3_stmt *q = gd_store_prepare(
        s, "SELECT g FROM (SELECT ts_ms - lag(ts_ms) OVER (ORDER BY ts_ms) AS g FROM cpu"
           " WHERE trace = ?) WHERE g > 0 ORDER BY g", NULL);
    gaps_ctx c = {0};
    double g = GD_NONE;
    if (!q)
        return g;
    sqlite3_bind_int64(q, 1, trace);
    gd_store_each(s, q, gaps_row, &c, NULL);
    if (c.n)
        g = c.gaps[(c.n - 1) / 2];
    free(c.gaps);
    return g;
}
