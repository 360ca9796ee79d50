/* query/sql.h - one read-only statement of the user (`godeye sql`; query/sql.c). */
#ifndef GD_QUERY_SQL_H
#define GD_QUERY_SQL_H

#include "store/store.h"

/* Runs one read-only statement; each row as an object keyed by column name.
 * Refuses (GD_ERR_USAGE) anything that is not a single read-only statement:
 * writes, ATTACH, PRAGMAs that write, extension loading. */
int gd_query_sql(gd_store *s, const char *sql, double timeout_s, gd_row_fn fn, void *ctx,
                 gd_error *err);

#endif
