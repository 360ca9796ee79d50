/* ingest/traceinfo.h - what a trace's own rows say: its meta merged over the stream (the trace row), its skip reasons (ingest_stat rows). */
#ifndef GD_INGEST_TRACEINFO_H
#define GD_INGEST_TRACEINFO_H

#include <stdint.h>

#include "ingest/writer.h"
#include "store/sql.h"

/* Meta merged over the stream (first value wins), owned copies. */
typedef struct gd_ti_meta {
    char *app, *version_name, *device, *session, *json, *build;
    const char *clock;      /* a static name: "utc", "local", "monotonic" */
    int64_t version_code, api_level, cpu_cores, pid, main_tid, clk_tck, max_depth;
    int64_t utc_offset_min; /* INT64_MIN: unknown */
    int sampled;            /* 1 when any meta said so */
    double long_ms, short_ms, interval_ms;
    char *concern[GD_MAX_CONCERN];
    size_t nconcern;
} gd_ti_meta;

void gd_ti_meta_init(gd_ti_meta *a);
/* Takes what m names and a does not have yet. */
void gd_ti_meta_take(gd_ti_meta *a, const gd_meta *m);
void gd_ti_meta_free(gd_ti_meta *a);
/* Replaces the fields the tags name (the user's word over the capture's). */
void gd_ti_meta_tag(gd_ti_meta *a, const gd_trace_tags *t);

/* The trace row's own figures, beside its meta. */
typedef struct gd_ti_row {
    int64_t id;
    const char *source, *format, *hash;
    const char *default_clock; /* when the meta names none */
    double start_ms, end_ms, interval_ms; /* GD_NONE: unknown */
    long events, skipped;
    /* #51: the dense span (analysis/span.h) and the times it left out */
    double span_start_ms, span_end_ms;    /* GD_NONE: unknown */
    long left_clock, left_lone;
    int app_tagged;                       /* --set app= gave the app: no rule decides it */
} gd_ti_row;

/* Inserts the trace row (thresholds through gd_thresholds_resolve; the
 * concern packages, or the app's, as a JSON array) and sets its exposure
 * (GD_SQL_TRACE_EXPOSURE) and, unless r->app_tagged, its app
 * (GD_SQL_TRACE_APP): call it once the trace's rows are written. */
int gd_ti_insert_trace(gd_store *s, const gd_ti_meta *a, const gd_ti_row *r, gd_error *err);

/* Skip reasons with their counts and first line, newest first. */
typedef struct gd_ti_stat {
    char *reason;
    long count, first_line;
    struct gd_ti_stat *next;
} gd_ti_stat;

/* Adds n to reason's count (a new reason remembers line). */
void gd_ti_count(gd_ti_stat **list, const char *reason, long n, long line);
void gd_ti_stats_free(gd_ti_stat **list);
/* One ingest_stat row per reason of `trace`. */
int gd_ti_save_stats(gd_store *s, int64_t trace, const gd_ti_stat *list, gd_error *err);

/* The stored name of a clock ("utc", "local", "monotonic", as a static
 * string), NULL for NULL or any other text. */
const char *gd_ti_clock_name(const char *clock);

#endif
