/* store/rm.c - removing traces: every row that belongs to them, in one
 * transaction, so the store stays consistent. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"

/* Runs `sql` (one parameter: the ids as a JSON array). */
static int run_with_ids(gd_store *s, const char *sql, const char *ids, gd_error *err)
{
    sqlite3_stmt *d = gd_store_prepare(s, sql, err);
    if (!d)
        return err->code;
    sqlite3_bind_text(d, 1, ids, -1, SQLITE_STATIC);
    int rc = gd_store_step(s, d, err);
    sqlite3_finalize(d);
    return rc;
}

struct names {
    json_t *list;
    gd_error *err;
};

/* gd_store_each row: appends the table name (the query's one column). */
static int add_name(void *ctx, sqlite3_stmt *q)
{
    struct names *n = ctx;
    json_t *name = json_string((const char *)sqlite3_column_text(q, 0));
    if (!name || json_array_append_new(n->list, name))
        return gd_error_oom(n->err);
    return GD_OK;
}

/* Deletes the rows of the traces `ids` (a JSON array) from every table with
 * a `trace` column (found from the schema, so a new table is never
 * forgotten), the view rows of their dumps, and the traces: one statement
 * per table for all the ids. */
static int rm_all(gd_store *s, const char *ids, gd_error *err)
{
#define IDS "(SELECT value FROM json_each(?1))"
    /* rows that point at a trace's rows rather than at the trace */
    int rc = run_with_ids(s, "DELETE FROM view WHERE dump IN (SELECT id FROM view_dump WHERE trace IN " IDS ")",
                          ids, err);
    if (!rc) /* a launch's phases (#27) */
        rc = run_with_ids(s, "DELETE FROM startup_phase WHERE startup IN (SELECT id FROM startup"
                             " WHERE trace IN " IDS ")", ids, err);
    if (rc)
        return rc;
    sqlite3_stmt *t = gd_store_prepare(
        s,
        "SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND m.name != 'trace'"
        " AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'trace')"
        " ORDER BY m.name",
        err);
    if (!t)
        return err->code;
    struct names n = {json_array(), err};
    if (!n.list) {
        sqlite3_finalize(t);
        return gd_error_oom(err);
    }
    /* the names first: no table is written while the schema is read */
    if ((rc = gd_store_each(s, t, add_name, &n, err))) {
        json_decref(n.list);
        return rc;
    }
    json_t *names = n.list;
    size_t i;
    json_t *name;
    json_array_foreach(names, i, name) {
        char sql[256];
        snprintf(sql, sizeof sql, "DELETE FROM \"%.63s\" WHERE trace IN " IDS, json_string_value(name));
        if ((rc = run_with_ids(s, sql, ids, err)))
            break;
    }
    json_decref(names);
    return rc ? rc : run_with_ids(s, "DELETE FROM trace WHERE id IN " IDS, ids, err);
#undef IDS
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
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, json_integer((json_int_t)ids[i]));
    char *list = json_dumps(arr, JSON_COMPACT);
    json_decref(arr);
    if (!list)
        return gd_error_oom(err);
    int rc = gd_store_begin(s, err);
    if (!rc)
        rc = rm_all(s, list, err);
    free(list);
    if (rc) {
        gd_store_rollback(s);
        return rc;
    }
    if ((rc = gd_store_commit(s, err)))
        return rc;
    return vacuum ? gd_store_vacuum(s, err) : GD_OK;
}

int gd_store_vacuum(gd_store *s, gd_error *err)
{
    return gd_store_exec(s, "VACUUM", err);
}
