/* html.c - the report as one self-contained HTML page (data as inline JSON, drawn by inline JS). */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_assets.h"

char *gd_html_script_json(const char *json)
{
    size_t n = 0;
    for (const char *p = json; *p; p++)
        n += (*p == '<' || *p == '>' || *p == '&') ? 6 : 1;
    char *o = malloc(n + 1), *q = o;
    if (!o)
        return NULL;
    for (const char *p = json; *p; p++) {
        const char *rep = *p == '<' ? "\\u003c" : *p == '>' ? "\\u003e" : *p == '&' ? "\\u0026" : NULL;
        if (rep) {
            memcpy(q, rep, 6);
            q += 6;
        } else {
            *q++ = *p;
        }
    }
    *q = 0;
    return o;
}

int gd_render_html(FILE *out, const json_t *doc)
{
    char *raw = json_dumps(doc, JSON_COMPACT | JSON_ENSURE_ASCII);
    char *data = raw ? gd_html_script_json(raw) : NULL;
    free(raw);
    if (!data)
        return -1;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"godeye\">\n"
          "<title>godeye report</title>\n<style>\n",
          out);
    fputs(GD_REPORT_CSS, out);
    fputs("</style>\n</head>\n<body>\n<header><h1>godeye report</h1><span class=\"sub\" id=\"sub\"></span>"
          "<input id=\"search\" type=\"search\" placeholder=\"filter blocks by frame text\" "
          "aria-label=\"filter blocks by frame text\"></header>\n"
          "<nav><a href=\"#summary\">Summary</a><a href=\"#timeline\">Timeline</a>"
          "<a href=\"#groups\">Block groups</a><a href=\"#pages\">Pages</a>"
          "<a href=\"#overdraw\">Overdraw</a><a href=\"#images\">Images</a><a href=\"#frames\">Frames</a>"
          "<a href=\"#startups\">Startup</a></nav>\n"
          "<main><div id=\"errors\"></div><noscript>This report is drawn by JavaScript; "
          "the data is in the page as JSON (script#godeye-data).</noscript>"
          "<div id=\"content\"></div></main>\n"
          "<script type=\"application/json\" id=\"godeye-data\">",
          out);
    fputs(data, out);
    free(data);
    fputs("</script>\n<script>\n", out);
    fputs(GD_REPORT_JS, out);
    fputs("</script>\n</body>\n</html>\n", out);
    return ferror(out) ? -1 : 0;
}
