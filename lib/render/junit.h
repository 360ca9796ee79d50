/* junit.h - `godeye check` rows as JUnit XML, the report CI systems show. */
#ifndef GD_RENDER_JUNIT_H
#define GD_RENDER_JUNIT_H

#include <jansson.h>
#include <stdio.h>

/* Writes one <testsuite name="suite"> with a <testcase> per row of
 * `rows` (objects with rule, value, limit, status, unit as
 * gd_query_check gives them): a <failure> for a broken rule (fail, or
 * no data for a rule not optional), <skipped> for "skipped".  All text is XML-escaped (control characters other than
 * tab and newline, which XML 1.0 cannot carry, become '?').  0, or -1 when
 * writing failed. */
int gd_render_junit(FILE *out, const char *suite, const json_t *rows);

/* The one-line verdict of a check row, e.g. "block_p95_ms is 950.3 ms,
 * over the limit 800 ms" (failures), "... within the limit ..." (passes),
 * "no data for ..." (rules without data); into buf. */
const char *gd_check_line(const json_t *row, char *buf, size_t n);

#endif
