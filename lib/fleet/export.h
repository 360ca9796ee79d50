/* fleet/export.h - a trace's rows laid out for an analytics database
 * (`godeye push`): one export per ClickHouse table of schemas/clickhouse.sql. */
#ifndef GD_FLEET_EXPORT_H
#define GD_FLEET_EXPORT_H

#include "fleet/tsv.h"
#include "store/store.h"

/* The exported tables, NULL-terminated, in the order a push sends them:
 * "traces" comes last, so that a trace's row there means all its rows are. */
const char *const *gd_fleet_export_tables(void);

/* Calls fn with {"trace": id, "trace_uid": content hash} for each finished
 * trace (all, or those of the filter; an unknown id is GD_ERR_DATA). */
int gd_fleet_export_traces(gd_store *s, const gd_filter *f, gd_row_fn fn, void *ctx,
                           gd_error *err);

/* Calls fn with each row of `table` for one trace, keys = the ClickHouse
 * columns (trace_uid, seq, day 'YYYY-MM-DD', app, version_name, ...), in
 * seq order.  seq numbers the trace's rows of that table in ingest order,
 * so it is the same wherever identical content is ingested.  Unknown table:
 * GD_ERR_USAGE.  Rows are borrowed (valid during the call). */
int gd_fleet_export(gd_store *s, const char *table, int64_t trace, gd_row_fn fn, void *ctx,
                    gd_error *err);

/* The rows of `table` for one trace (the rows gd_fleet_export gives), one
 * at a time, written in ClickHouse's TabSeparated format.  *out is NULL for a
 * table whose rows come from an analysis (gd_fleet_export gives those). */
typedef struct gd_fleet_export_rows gd_fleet_export_rows;
int gd_fleet_export_rows_open(gd_store *s, const char *table, int64_t trace, gd_fleet_export_rows **out,
                        gd_error *err);
int gd_fleet_export_rows_ncols(const gd_fleet_export_rows *r);
const char *gd_fleet_export_rows_name(const gd_fleet_export_rows *r, int i);
/* The ClickHouse type of each column (ncols of them), as gd_tsv_col_of reads it. */
void gd_fleet_export_rows_types(gd_fleet_export_rows *r, const gd_tsv_col *cols);
/* Writes the next row: 1 as a TabSeparated line to tsv, 2 as a JSONEachRow
 * line to json when one of its values has no TabSeparated form that
 * ClickHouse reads as it reads the JSON value; 0 after the last row, -1 on a
 * database error (err). */
int gd_fleet_export_rows_next(gd_fleet_export_rows *r, gd_tsv *tsv, gd_tsv *json, gd_error *err);
void gd_fleet_export_rows_close(gd_fleet_export_rows *r);
/* The rows of traces[0..n), one trace after another, in one stream (#53
 * item 9: push sends a batch of traces in one INSERT per table). */
int gd_fleet_export_rows_open_many(gd_store *s, const char *table, const int64_t *traces, size_t n,
                                   gd_fleet_export_rows **out, gd_error *err);
/* Rows read so far of traces[i]; *json: of those, rows in JSONEachRow. */
long long gd_fleet_export_rows_count(const gd_fleet_export_rows *r, size_t i, long long *json);

#endif
