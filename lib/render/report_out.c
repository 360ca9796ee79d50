/* report_out.c - the report document written in one of its formats. */
#include <string.h>

#include "render/report.h"

/* The report's JSON: the document itself, one field a line. */
static int report_json(FILE *out, json_t *doc, int tz_min)
{
    (void)tz_min;
    return json_dumpf(doc, out, JSON_INDENT(1)) || fputc('\n', out) == EOF;
}

static int report_md(FILE *out, json_t *doc, int tz_min)
{
    return gd_render_md(out, doc, tz_min);
}

static const struct {
    const char *name;
    int (*write)(FILE *out, json_t *doc, int tz_min);
} report_modes[] = {
    {"html", gd_render_html},
    {"md", report_md},
    {"json", report_json},
};

int gd_render_report(FILE *out, const char *format, json_t *doc, int tz_min)
{
    for (size_t i = 0; i < sizeof report_modes / sizeof report_modes[0]; i++)
        if (strcmp(format, report_modes[i].name) == 0)
            return report_modes[i].write(out, doc, tz_min) ? -1 : 0;
    return -1;
}
