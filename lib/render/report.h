/* report.h - renderers of the report document (gd_report_build): HTML page and Markdown. */
#ifndef GD_RENDER_REPORT_H
#define GD_RENDER_REPORT_H

#include <jansson.h>
#include <stdio.h>

/* Writes the self-contained HTML page for `doc` to `out`: inline CSS, JS and
 * SVG, the document embedded as JSON escaped for a <script> element, and a
 * Content-Security-Policy that forbids any network request.  Returns 0, or
 * -1 when writing failed or memory ran out. */
int gd_render_html(FILE *out, const json_t *doc);

/* Writes a Markdown summary of `doc` (for pull-request comments): counts,
 * worst blocks, top groups, slow pages, overdraw, images.  0 or -1. */
int gd_render_md(FILE *out, const json_t *doc);

/* Escapes JSON text for a <script> element in place of `<`, `>`, `&`
 * (as \u003c, \u003e, \u0026); the text must come from json_dumps with
 * JSON_ENSURE_ASCII (which already escapes U+2028/U+2029).  New string
 * (malloc) or NULL. */
char *gd_html_script_json(const char *json);

#endif
