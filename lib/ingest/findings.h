/* ingest/findings.h - issues, marks and gfxinfo summaries into their typed tables at ingest. */
#ifndef GD_INGEST_FINDINGS_H
#define GD_INGEST_FINDINGS_H

#include <jansson.h>
#include <stdint.h>

#include "core/event.h"
#include "store/store.h"

/* Writes the typed row(s) of the event just stored as raw_event row
 * `raw_id` of `trace`, from `ev_json`, its capture-format JSON
 * (gd_event_to_json): an issue (issue; a Matrix Trace_FPS issue also
 * issue_fps), a mark (mark) or a frame summary (frame_summary and its
 * frame_figure rows).  Other kinds write nothing.  GD_OK or GD_ERR_* with
 * err set. */
int gd_findings_put(gd_store *s, int64_t trace, int64_t raw_id, gd_event_kind kind, const json_t *ev_json,
                    gd_error *err);

#endif
