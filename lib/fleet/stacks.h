/* stacks.h - `godeye diff --stacks --clickhouse` (#52 item 4): the two sides'
 * stacks read from the fleet's stack_paths and fed to query/diffstacks,
 * the local form's own analysis. */
#ifndef GD_FLEET_STACKS_H
#define GD_FLEET_STACKS_H

#include "clickhouse.h"
#include "query/diffstacks.h"

/* Reads q->base and q->head (gd_fleet_select's selections; sel->app: only
 * rows of that package's processes, gd_app_match) into a new diff (*out,
 * free with gd_ds_free), finished by gd_ds_finish.  Each trace of a side
 * (traces FINAL, by trace_uid: the local form's order) is one capture of
 * exposure_ms / 60000 minutes, fed its stack_paths rows in seq order
 * through gd_ds_feed, so the answer equals the local one on the same
 * traces.  GD_OK, or an error code with err set (GD_ERR_IO from the
 * server; a server without stack_paths is told to push with this godeye). */
int gd_fleet_diffstacks(gd_ch *c, const gd_diffstacks_query *q, gd_diffstacks **out, gd_error *err);

#endif
