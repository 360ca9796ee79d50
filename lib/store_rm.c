/* store_rm.c - removing traces: every row that belongs to them, in one
 * transaction, so the store stays consistent. */
#include <stdio.h>
#include <string.h>

#include "store_int.h"

/* Deletes the rows of trace `id` from every table with a `trace` column
 * (found from the schema, so a new table is never forgotten), and the view
 * rows of its dumps. */
static int rm_one(gd_store *s, int64_t id, gd_error *err)
{
    sqlite3_stmt *t = gd_store_prepare(
        s,
        "SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND m.name != 'trace'"
        " AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'trace')"
        " ORDER BY m.name",
        err);
    if (!t)
        return err->code;
    char names[64][64];
    int n = 0, rc = GD_OK;
    while (sqlite3_step(t) == SQLITE_ROW && n < 64)
        snprintf(names[n++], sizeof names[0], "%s", (const char *)sqlite3_column_text(t, 0));
    sqlite3_finalize(t);
    char sql[256];
    /* rows that point at a trace's rows rather than at the trace */
    static const char *const indirect[] = {
        "DELETE FROM view WHERE dump IN (SELECT id FROM view_dump WHERE trace = ?)",
    };
    for (size_t i = 0; i < sizeof indirect / sizeof *indirect && !rc; i++) {
        sqlite3_stmt *d = gd_store_prepare(s, indirect[i], err);
        if (!d)
            return err->code;
        sqlite3_bind_int64(d, 1, id);
        rc = gd_store_step(s, d, err);
        sqlite3_finalize(d);
    }
    for (int i = 0; i < n && !rc; i++) {
        snprintf(sql, sizeof sql, "DELETE FROM \"%.63s\" WHERE trace = ?", names[i]);
        sqlite3_stmt *d = gd_store_prepare(s, sql, err);
        if (!d)
            return err->code;
        sqlite3_bind_int64(d, 1, id);
        rc = gd_store_step(s, d, err);
        sqlite3_finalize(d);
    }
    if (rc)
        return rc;
    sqlite3_stmt *d = gd_store_prepare(s, "DELETE FROM trace WHERE id = ?", err);
    if (!d)
        return err->code;
    sqlite3_bind_int64(d, 1, id);
    rc = gd_store_step(s, d, err);
    sqlite3_finalize(d);
    return rc;
}

int gd_store_rm(gd_store *s, const int64_t *ids, size_t n, int vacuum, gd_error *err)
{
    sqlite3_stmt *q = gd_store_prepare(s, "SELECT 1 FROM trace WHERE id = ?", err);
    if (!q)
        return err->code;
    for (size_t i = 0; i < n; i++) {
        sqlite3_bind_int64(q, 1, ids[i]);
        int found = sqlite3_step(q) == SQLITE_ROW;
        sqlite3_reset(q);
        if (!found) {
            sqlite3_finalize(q);
            return gd_error_set(err, GD_ERR_DATA, 0, 0, "no trace %lld", (long long)ids[i]);
        }
    }
    sqlite3_finalize(q);
    int rc = gd_store_begin(s, err);
    for (size_t i = 0; i < n && !rc; i++)
        rc = rm_one(s, ids[i], err);
    if (rc) {
        gd_store_rollback(s);
        return rc;
    }
    if ((rc = gd_store_commit(s, err)))
        return rc;
    return vacuum ? gd_store_exec(s, "VACUUM", err) : GD_OK;
}
