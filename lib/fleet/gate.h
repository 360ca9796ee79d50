/* gate.h - the release gate over a fleet: `godeye diff`/`check` sides read
 * from the ClickHouse tables `godeye push` fills (ClickHouse aggregates,
 * query/diff judges: the same rules as over one database). */
#ifndef GD_FLEET_GATE_H
#define GD_FLEET_GATE_H

#include "clickhouse.h"
#include "query/diff.h"

/* Durations per block group and side fed to the rank test and the
 * percentiles: a group with more blocks is represented by this many
 * (a fixed pseudo-random choice, cityHash64 of trace and row); its count,
 * total and max stay exact (gd_fleet_sample: the cap in force). */
#define GD_FLEET_SAMPLE 20000

/* Resolves a selector over the fleet's traces (deduplicated, FINAL):
 * key=value with the keys of gd_query_select (version, app, device, build,
 * api, source).  Trace ids are GD_ERR_USAGE (they differ from one database
 * to the next: the message says so).  No match is
 * GD_ERR_DATA naming the values present (the first 24).  out->where holds
 * the condition, out->n the traces, out->minutes their exposure;
 * gd_selection_free frees it. */
int gd_fleet_select(gd_ch *c, const char *selector, gd_selection *out, gd_error *err);

/* The newest version_name of the fleet's traces (gd_version_cmp), as
 * gd_query_select_newest; GD_ERR_DATA when the fleet has no trace. */
int gd_fleet_select_newest(gd_ch *c, gd_selection *out, gd_error *err);

/* The side source (query/diff.h) over connection c. */
gd_side_source gd_fleet_source(gd_ch *c);

/* GD_FLEET_SAMPLE, or $GODEYE_FLEET_SAMPLE when it is a number from 1 to
 * GD_FLEET_SAMPLE (a test's small cap). */
long gd_fleet_sample(void);

/* `godeye blocks --group` over the fleet: rows group, key_frame,
 * group_rule, count, total_ms, max_ms, p50_ms, p95_ms (gd_percentile's
 * rule over every block of the group, in ClickHouse), traces (distinct
 * traces), first_version, last_version (gd_version_cmp), in the store's
 * order (total_ms descending, then group; the unnamed group is null), of
 * blocks of `kind` ("short", "long", "anr"; NULL: all), the first `limit`
 * groups (0: all); selection NULL: every trace. */
int gd_fleet_block_groups(gd_ch *c, const gd_selection *sel, const char *kind, long limit, gd_row_fn fn,
                          void *ctx, gd_error *err);

/* #48: `godeye anr --group` over the fleet: gd_query_anr_groups' rows
 * from the anrs table's pushed signatures (the dumps the system took for
 * an ANR): signature, type, type_label, count, apps (sorted), first_version,
 * last_version (gd_version_cmp), devices, traces (their trace_uid, sorted),
 * id and reason null (a dump's id is one database's); the largest first,
 * then by signature; selection NULL: every trace. */
int gd_fleet_anr_groups(gd_ch *c, const gd_selection *sel, gd_row_fn fn, void *ctx, gd_error *err);

#endif
