/* report.h - renderers of the report document (gd_report_build): HTML page and Markdown. */
#ifndef GD_RENDER_REPORT_H
#define GD_RENDER_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "render/timefmt.h"

/* Writes the self-contained HTML page for `doc` to `out`: inline CSS, JS and
 * SVG, the document embedded as JSON escaped for a <script> element, and a
 * Content-Security-Policy that forbids any network request.  Every time in
 * it ("start_ms", "end_ms", "ts_ms" of an object under a trace) gains its
 * text "<key>_text" by gd_time_label with that trace's clock and display
 * zone `tz_min` (GD_TZ_NONE: none given): `doc` is changed.  Returns 0, or
 * -1 when writing failed or memory ran out. */
int gd_render_html(FILE *out, json_t *doc, int tz_min);

/* Writes a Markdown summary of `doc` (for pull-request comments): traces
 * with their start, counts, worst blocks with their start, top groups, slow
 * pages, overdraw, images.  Times as gd_time_label shows them in display
 * zone `tz_min`.  0 or -1. */
int gd_render_md(FILE *out, const json_t *doc, int tz_min);

/* Writes the report document in `format` ("html", "md" or "json"); -1
 * when writing failed or the format is none of those. */
int gd_render_report(FILE *out, const char *format, json_t *doc, int tz_min);

/* The clock of trace `id` as the document's "traces" rows describe it
 * (unknown when it is not there). */
gd_clock gd_report_clock(const json_t *doc, json_int_t id);
/* 1 and *out when every trace of `doc` has the same wall clock (kind and
 * own zone, not monotonic): the summary's start then means something. */
int gd_report_shared_clock(const json_t *doc, gd_clock *out);

/* Escapes JSON text for a <script> element in place of `<`, `>`, `&`
 * (as \u003c, \u003e, \u0026); the text must come from json_dumps with
 * JSON_ENSURE_ASCII (which already escapes U+2028/U+2029).  New string
 * (malloc) or NULL. */
char *gd_html_script_json(const char *json);

#endif
