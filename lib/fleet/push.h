/* push.h - sending traces from the store to ClickHouse (`godeye push`). */
#ifndef GD_FLEET_PUSH_H
#define GD_FLEET_PUSH_H

#include <jansson.h>
#include <stddef.h>

#include "clickhouse.h"
#include "store/store.h"

/* Rows per INSERT by default: ClickHouse's own block size (max_insert_block_size). */
#define GD_PUSH_BATCH 1048576

typedef struct gd_push_opts {
    gd_filter filter;      /* traces to push (all when empty)               */
    size_t batch;          /* rows per INSERT; 0 = GD_PUSH_BATCH            */
    int json;              /* every row as JSONEachRow (else TabSeparated
                              where the value's form is exact)              */
} gd_push_opts;

/* What happened to one trace. */
typedef struct gd_push_report {
    int64_t trace;
    const char *trace_uid;
    int already;           /* its traces row was there, with the same tags:
                              nothing sent                                  */
    int replaced;          /* its traces row was there with other tags
                              (ingest --set): its old rows were deleted from
                              every table, then it was sent in full        */
    long long rows;        /* rows sent, all tables                          */
    long long json_rows;   /* of those, rows sent as JSONEachRow: the analyses'
                              tables (pages, overdraw, image_issues,
                              startups), values without an exact TabSeparated
                              form, tables lacking an exported column      */
    json_t *tables;        /* {"table": rows sent} (borrowed)                */
} gd_push_report;

typedef void (*gd_push_report_fn)(void *ctx, const gd_push_report *r);

/* Creates the tables if missing, then for each trace not yet in `traces`
 * (or held there with other tags -- app, version_name, version_code,
 * device, build: its rows deleted first, see `replaced`; the server's
 * traces rows are read up front, one query per 500 traces)
 * streams its rows table by table, up to 256 traces in the same INSERTs
 * (#53 item 9), (schemas/clickhouse.sql; INSERTs of
 * opts->batch rows, TabSeparated bodies rendered while they are sent, so
 * memory stays small whatever the batch or the trace) and its
 * batch's `traces` rows last.  On failure err names the batch's traces, which
 * rows of which table were being sent and what had been accepted for the
 * batch before; a trace
 * without its `traces` row is sent again in full by the next push (its
 * copies collapse in the ReplacingMergeTree tables). */
int gd_push(gd_store *s, gd_ch *c, const gd_push_opts *opts, gd_push_report_fn fn, void *ctx,
            gd_error *err);

#endif
