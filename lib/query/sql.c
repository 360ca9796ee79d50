/* query/sql.c - `godeye sql`: one read-only statement under an authorizer and a deadline. */
#include <string.h>
#include <time.h>

#include "query/sql.h"
#include "store/sql.h"

/* PRAGMAs that only read: without an argument, or (the second list) with a
 * table or index name as their argument. */
static const char *const readonly_pragmas[] = {
    "user_version", "schema_version", "page_count", "page_size", "freelist_count",
    "integrity_check", "quick_check", "database_list", "compile_options", "function_list",
    "pragma_list", "table_list", "collation_list", "module_list", "encoding", NULL,
};
static const char *const introspect_pragmas[] = {
    "table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list", NULL,
};

/* SQL functions a query may call: SQLite's core, date, math, JSON, window
 * and aggregate functions, and godeye's own gd_block_kind (the one kind
 * rule, registered by the store).  Anything else (fts3_tokenizer, load_extension,
 * readfile, functions an extension might add) is refused. */
static const char *const allowed_functions[] = {
    "abs", "char", "coalesce", "concat", "concat_ws", "format", "glob", "hex", "ifnull", "iif",
    "instr", "length", "like", "likelihood", "likely", "lower", "ltrim", "max", "min", "nullif",
    "octet_length", "printf", "quote", "replace", "round", "rtrim", "sign", "soundex",
    "sqlite_version", "substr", "substring", "trim", "typeof", "unhex", "unicode", "unlikely",
    "upper", "zeroblob", "random",
    "avg", "count", "group_concat", "string_agg", "sum", "total",
    "date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff",
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos", "cosh",
    "degrees", "exp", "floor", "ln", "log", "log10", "log2", "mod", "pi", "pow", "power",
    "radians", "sin", "sinh", "sqrt", "tan", "tanh", "trunc",
    "json", "jsonb", "json_array", "jsonb_array", "json_array_length", "json_error_position",
    "json_extract", "jsonb_extract", "json_insert", "jsonb_insert", "json_object", "jsonb_object",
    "json_patch", "jsonb_patch", "json_pretty", "json_remove", "jsonb_remove", "json_replace",
    "jsonb_replace", "json_set", "jsonb_set", "json_type", "json_valid", "json_quote",
    "json_group_array", "jsonb_group_array", "json_group_object", "jsonb_group_object",
    "json_each", "json_tree",
    "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead",
    "first_value", "last_value", "nth_value",
    "gd_block_kind",
    NULL,
};

static int listed(const char *name, const char *const *list)
{
    for (const char *const *p = list; name && *p; p++)
        if (sqlite3_stricmp(name, *p) == 0)
            return 1;
    return 0;
}

static int authorize(void *ctx, int action, const char *a, const char *b, const char *db,
                     const char *trigger)
{
    (void)ctx, (void)db, (void)trigger;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        return listed(b, allowed_functions) ? SQLITE_OK : SQLITE_DENY;
    case SQLITE_PRAGMA:
        if (listed(a, introspect_pragmas))
            return SQLITE_OK;
        /* any other pragma with an argument may write */
        return !b && listed(a, readonly_pragmas) ? SQLITE_OK : SQLITE_DENY;
    default:
        return SQLITE_DENY; /* writes, ATTACH, DETACH, schema changes, ... */
    }
}

/* Progress handler: stops a statement that runs past its deadline. */
static int past_deadline(void *ctx)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9 > *(const double *)ctx;
}

int gd_query_sql(gd_store *s, const char *sql, double timeout_s, gd_row_fn fn, void *ctx, gd_error *err)
{
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    /* fts3_tokenizer(): off whatever the statement (it leaks a pointer) */
    sqlite3_db_config(gd_store_db(s), SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, NULL);
    sqlite3_set_authorizer(gd_store_db(s), authorize, NULL);
    int prc = sqlite3_prepare_v2(gd_store_db(s), sql, -1, &st, &tail);
    sqlite3_set_authorizer(gd_store_db(s), NULL, NULL);
    if (prc != SQLITE_OK) {
        int denied = prc == SQLITE_AUTH || strstr(sqlite3_errmsg(gd_store_db(s)), "not authorized") != NULL;
        gd_error_set(err, GD_ERR_USAGE, 0, 0, "%s%s",
                     denied ? "refused: only one read-only statement is allowed (" : "",
                     sqlite3_errmsg(gd_store_db(s)));
        if (denied)
            strncat(err->msg, ")", sizeof err->msg - strlen(err->msg) - 1);
        return GD_ERR_USAGE;
    }
    if (!st)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "empty statement");
    /* only whitespace and comments may follow */
    if (tail) {
        sqlite3_stmt *next = NULL;
        sqlite3_prepare_v2(gd_store_db(s), tail, -1, &next, NULL);
        if (next) {
            sqlite3_finalize(next);
            sqlite3_finalize(st);
            return gd_error_set(err, GD_ERR_USAGE, 0, 0, "refused: one statement at a time");
        }
    }
    if (!sqlite3_stmt_readonly(st)) {
        sqlite3_finalize(st);
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "refused: the statement would write");
    }
    int n = sqlite3_column_count(st), step, rc = GD_OK;
    double deadline = 0;
    if (timeout_s > 0) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        deadline = (double)t.tv_sec + (double)t.tv_nsec / 1e9 + timeout_s;
        sqlite3_progress_handler(gd_store_db(s), 10000, past_deadline, &deadline);
    }
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        json_t *row = json_object();
        for (int i = 0; i < n; i++)
            json_object_set_new(row, sqlite3_column_name(st, i), gd_col_json(st, i));
        int stop = fn(ctx, row);
        json_decref(row);
        if (stop)
            break;
    }
    if (step == SQLITE_INTERRUPT)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "stopped after %g s (--timeout)", timeout_s);
    else if (step != SQLITE_ROW && step != SQLITE_DONE)
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "%s", sqlite3_errmsg(gd_store_db(s)));
    sqlite3_progress_handler(gd_store_db(s), 0, NULL, NULL);
    sqlite3_finalize(st);
    return rc;
}
