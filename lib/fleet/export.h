/* fleet/export.h - a trace's rows laid out for an analytics database
 * (`godeye push`): one export per ClickHouse table of schemas/clickhouse.sql. */
#ifndef GD_STORE_EXPORT_H
#define GD_STORE_EXPORT_H

#include "store/store.h"

/* The exported tables, NULL-terminated, in the order a push sends them:
 * "traces" comes last, so that a trace's row there means all its rows are. */
const char *const *gd_store_export_tables(void);

/* Calls fn with {"trace": id, "trace_uid": content hash} for each finished
 * trace (all, or those of the filter; an unknown id is GD_ERR_DATA). */
int gd_store_export_traces(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx,
                           gd_error *err);

/* Calls fn with each row of `table` for one trace, keys = the ClickHouse
 * columns (trace_uid, seq, day 'YYYY-MM-DD', app, version_name, ...), in
 * seq order.  seq numbers the trace's rows of that table in ingest order,
 * so it is the same wherever identical content is ingested.  Unknown table:
 * GD_ERR_USAGE.  Rows are borrowed (valid during the call). */
int gd_store_export(gd_store *s, const char *table, int64_t trace, gd_row_fn fn, void *ctx,
                    gd_error *err);

#endif
