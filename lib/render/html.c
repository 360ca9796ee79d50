/* html.c - the report as one self-contained HTML page (data as inline JSON, drawn by inline JS). */
#include <stdio.h>
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

/* Adds "<key>_text" beside every time of `v` and below, shown with the
 * clock of the nearest enclosing object's "trace" (`cur` above it). */
static void add_time_texts(json_t *v, const json_t *doc, const gd_clock *cur, int tz_min)
{
    if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e)
            if (json_is_object(e) || json_is_array(e))
                add_time_texts(e, doc, cur, tz_min);
        return;
    }
    if (!json_is_object(v))
        return;
    gd_clock own;
    json_t *t = json_object_get(v, "trace");
    if (json_is_integer(t)) {
        own = gd_report_clock(doc, json_integer_value(t));
        cur = &own;
    }
    static const char *const keys[] = {"start_ms", "end_ms", "ts_ms"};
    char key[32], buf[96];
    for (size_t i = 0; cur && i < sizeof keys / sizeof keys[0]; i++) {
        json_t *e = json_object_get(v, keys[i]);
        if (!json_is_number(e))
            continue;
        snprintf(key, sizeof key, "%s_text", keys[i]);
        json_object_set_new(v, key,
                            json_string(gd_time_label(json_number_value(e), cur, tz_min, buf, sizeof buf)));
    }
    const char *k;
    json_t *e;
    json_object_foreach(v, k, e)
        if ((json_is_object(e) || json_is_array(e)) && strcmp(k, "flame") != 0)
            add_time_texts(e, doc, cur, tz_min);
}

/* The report's times as text: per trace by its clock; the summary's start
 * only when every trace shares one wall clock. */
static void time_texts(json_t *doc, int tz_min)
{
    const char *k;
    json_t *e;
    json_object_foreach(doc, k, e)
        if (strcmp(k, "summary") != 0)
            add_time_texts(e, doc, NULL, tz_min);
    json_t *m = json_object_get(doc, "summary");
    gd_clock c;
    char buf[96];
    if (json_is_object(m) && json_is_number(json_object_get(m, "start_ms")) &&
        gd_report_shared_clock(doc, &c))
        json_object_set_new(m, "start_ms_text",
                            json_string(gd_time_label(json_number_value(json_object_get(m, "start_ms")),
                                                      &c, tz_min, buf, sizeof buf)));
}

int gd_render_html(FILE *out, json_t *doc, int tz_min)
{
    time_texts(doc, tz_min);
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
          "<nav><a href=\"#top\">Fix first</a><a href=\"#summary\">Summary</a><a href=\"#anrs\">ANRs</a>"
          "<a href=\"#startups\">Startup</a><a href=\"#frames\">Frames</a><a href=\"#groups\">Block groups</a><a href=\"#others\">Other processes</a>"
          "<a href=\"#timeline\">Timeline</a><a href=\"#versions\">Versions</a><a href=\"#locks\">Locks</a><a href=\"#issues\">Findings</a>"
          "<a href=\"#pages\">Pages</a><a href=\"#overdraw\">Overdraw</a><a href=\"#images\">Images</a></nav>\n"
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
