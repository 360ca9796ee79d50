/* store/bulk.c - bulk load: the secondary indexes of the big tables are
 * dropped while the first trace of a new database streams in and rebuilt
 * (one sort each) before its analyses need them.  An index kept during the
 * load costs a B-tree descent per row, out of order (dispatch_trace is by
 * thread, rows come by time); one sort at the end is linear and cheaper.
 * (thread_state has no index to drop: it is clustered by its key, #50.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"

/* The indexes to drop: their CREATE texts (kept in the gd_bulk) and names. */
struct indexes {
    gd_bulk *b;
    char **names; /* names[i] is the name of b->sql[first + i] */
    size_t first;
    gd_error *err;
};

/* gd_store_each row: keeps one index's name and CREATE text. */
static int add_index(void *ctx, sqlite3_stmt *q)
{
    enum { IX_NAME, IX_SQL }; /* the SELECT's ix_name, ix_sql */
    struct indexes *ix = ctx;
    gd_bulk *b = ix->b;
    char **ns = realloc(b->sql, (b->n + 1) * sizeof *ns);
    if (ns)
        b->sql = ns;
    char **nn = ns ? realloc(ix->names, (b->n - ix->first + 1) * sizeof *nn) : NULL;
    if (nn)
        ix->names = nn;
    if (!ns || !nn)
        return gd_error_oom(ix->err);
    b->sql[b->n] = strdup((const char *)sqlite3_column_text(q, IX_SQL));
    ix->names[b->n - ix->first] = strdup((const char *)sqlite3_column_text(q, IX_NAME));
    b->n++;
    if (!b->sql[b->n - 1] || !ix->names[b->n - 1 - ix->first])
        return gd_error_oom(ix->err);
    return GD_OK;
}

/* The connection's page cache, and so each sort's memory, in KiB. */
static int set_cache(gd_store *s, int kib, gd_error *err)
{
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA cache_size=-%d", kib);
    return gd_store_exec(s, pragma, err);
}

/* The load's tables, by their GD_BULK_* number. */
static const char *const load_tables[GD_BULK__COUNT] = {
    [GD_BULK_DISPATCH] = "'dispatch'",
    [GD_BULK_SAMPLE] = "'sample'",
    [GD_BULK_CPU] = "'cpu'",
    [GD_BULK_FRAME] = "'frame_time'", /* #50: binder_txn's three are kept row by row:
                                       * a drop and three builds cost more than they
                                       * save below a few thousand rows */
};

/* Bounds the cache for a load; 1 in *empty when the database holds no trace yet. */
static int begin(gd_store *s, gd_bulk *b, int sort_kib, int *empty, gd_error *err)
{
    memset(b, 0, sizeof *b);
    b->sort_kib = sort_kib;
    /* a load's page cache and each of its sorts (ORDER BY, CREATE INDEX)
     * stay within 16 MiB, whatever the input's size */
    int rc = set_cache(s, GD_BULK_CACHE_KIB, err);
    if (rc)
        return rc;
    sqlite3_stmt *q = gd_store_prepare(s, "SELECT EXISTS (SELECT 1 FROM trace)", err);
    if (!q)
        return err->code;
    *empty = sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0) == 0;
    sqlite3_finalize(q);
    return GD_OK;
}

/* Drops the secondary indexes of `tables` (an SQL list of quoted names),
 * their CREATE texts added to b's. */
static int drop_indexes(gd_store *s, gd_bulk *b, const char *tables, gd_error *err)
{
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT name AS ix_name, sql AS ix_sql FROM sqlite_schema"
                              " WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (%s)"
                              " ORDER BY rowid", tables);
    sqlite3_stmt *q = gd_store_prepare(s, sql, err);
    if (!q)
        return err->code;
    size_t first = b->n;
    struct indexes ix = {b, NULL, first, err};
    int rc = gd_store_each(s, q, add_index, &ix, err);
    char **names = ix.names;
    /* dropped once the schema query is finished (a running one locks it) */
    for (size_t i = 0; i < b->n - first && !rc; i++) {
        char drop[256];
        snprintf(drop, sizeof drop, "DROP INDEX \"%s\"", names[i]);
        rc = gd_store_exec(s, drop, err);
    }
    for (size_t i = 0; i < b->n - first; i++)
        free(names[i]);
    free(names);
    return rc;
}

int gd_bulk_begin(gd_store *s, gd_bulk *b, gd_error *err)
{
    int empty = 0, rc = begin(s, b, GD_BULK_SORT_KIB, &empty, err);
    if (!rc && empty)
        b->todo = (1u << GD_BULK__COUNT) - 1;
    return rc;
}

int gd_bulk_begin_tables(gd_store *s, gd_bulk *b, const char *tables, int sort_kib, gd_error *err)
{
    int empty = 0, rc = begin(s, b, sort_kib, &empty, err);
    return rc || !empty ? rc : drop_indexes(s, b, tables, err);
}

int gd_bulk_touch(gd_store *s, gd_bulk *b, int table, gd_error *err)
{
    if (!(b->todo & (1u << table)) || ++b->rows[table] < GD_BULK_MIN_ROWS)
        return GD_OK;
    b->todo &= ~(1u << table);
    return drop_indexes(s, b, load_tables[table], err);
}

int gd_bulk_end(gd_store *s, gd_bulk *b, gd_error *err)
{
    /* CREATE INDEX sorts in memory up to the cache size: with the load's
     * 16 MiB that is a sort buffer growing with the input (8 MiB for a
     * 100 MB capture, 16 MiB for 200 MB) on top of the page cache.  At
     * 2 MiB (GD_BULK_SORT_KIB) the sort spills to temp files in sorted runs
     * and the index builds stay under the load's own peak at any input
     * size.  The calls' builds run after the method events' buffer is
     * freed and sort in 16 MiB (GD_BULK_SORT_CALLS_KIB): the 296k calls of
     * the 24 MB synthetic Perfetto trace in one in-memory sort, 16% fewer
     * instructions than merging 2 MiB runs, and the peak is not raised. */
    int rc = b->n ? set_cache(s, b->sort_kib, err) : GD_OK;
    for (size_t i = 0; i < b->n && !rc; i++)
        rc = gd_store_exec(s, b->sql[i], err);
    if (b->n && !rc)
        rc = set_cache(s, GD_BULK_CACHE_KIB, err);
    gd_bulk_free(b);
    return rc;
}

void gd_bulk_free(gd_bulk *b)
{
    b->todo = 0;
    for (size_t i = 0; i < b->n; i++)
        free(b->sql[i]);
    free(b->sql);
    b->sql = NULL;
    b->n = 0;
}
