/* derive/cpu.c - what the CPU samples of a trace give at ingest: ratios from raw counters, the sampler's interval. */
#include "derive/cpu.h"

#include <stdlib.h>

#include "core/util.h"

/* Ratios of raw CPU samples from the delta to the previous sample. */
int gd_derive_cpu_ratios(gd_store *s, int64_t trace, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(
        s, "SELECT id, busy, total, app FROM cpu WHERE trace = ? AND total IS NOT NULL"
           " ORDER BY ts_ms, id", err);
    sqlite3_stmt *u = gd_store_prepare(
        s, "UPDATE cpu SET total_ratio = coalesce(total_ratio, ?),"
           " app_ratio = coalesce(app_ratio, ?) WHERE id = ?", err);
    int rc = GD_OK;
    if (!q || !u) {
        rc = err->code;
        goto out;
    }
    sqlite3_bind_int64(q, 1, trace);
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
            if ((rc = gd_store_step(s, u, err)))
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
double gd_derive_cpu_interval(gd_store *s, int64_t trace)
{
    sqlite3_stmt *q = gd_store_prepare(
        s, "SELECT g FROM (SELECT ts_ms - lag(ts_ms) OVER (ORDER BY ts_ms) AS g FROM cpu"
           " WHERE trace = ?) WHERE g > 0 ORDER BY g", NULL);
    double *gaps = NULL, g = GD_NONE;
    size_t n = 0, cap = 0;
    if (!q)
        return g;
    sqlite3_bind_int64(q, 1, trace);
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
