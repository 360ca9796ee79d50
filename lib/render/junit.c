/* junit.c - check rows as JUnit XML and as one-line verdicts. */
#include "render/junit.h"

#include <string.h>

static void xml_text(FILE *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default:
            if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
                fputc('?', out);
            else
                fputc(*p, out);
        }
    }
}

const char *gd_check_line(const json_t *row, char *buf, size_t n)
{
    const char *rule = json_string_value(json_object_get(row, "rule"));
    const char *status = json_string_value(json_object_get(row, "status"));
    const char *unit = json_string_value(json_object_get(row, "unit"));
    json_t *v = json_object_get(row, "value");
    double limit = json_number_value(json_object_get(row, "limit"));
    if (!rule || !status)
        snprintf(buf, n, "?");
    else if (!json_is_number(v))
        snprintf(buf, n, "%s: no data (limit %g %s)%s", rule, limit, unit ? unit : "",
                 strcmp(status, "skipped") == 0 ? ", optional" : "");
    else
        snprintf(buf, n, "%s is %g %s, %s the limit %g %s", rule, json_number_value(v), unit ? unit : "",
                 strcmp(status, "fail") == 0 ? "over" : "within", limit, unit ? unit : "");
    return buf;
}

int gd_render_junit(FILE *out, const char *suite, const json_t *rows)
{
    size_t i, failures = 0, skipped = 0;
    json_t *row;
    json_array_foreach(rows, i, row) {
        const char *st = json_string_value(json_object_get(row, "status"));
        failures += json_is_true(json_object_get(row, "broken"));
        skipped += st && strcmp(st, "skipped") == 0;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"", out);
    xml_text(out, suite);
    fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
            json_array_size(rows), failures, skipped);
    char line[512];
    json_array_foreach(rows, i, row) {
        const char *st = json_string_value(json_object_get(row, "status"));
        fputs("    <testcase classname=\"godeye.check\" name=\"", out);
        xml_text(out, json_string_value(json_object_get(row, "rule")));
        fputs("\"", out);
        gd_check_line(row, line, sizeof line);
        if (json_is_true(json_object_get(row, "broken"))) {
            fputs(">\n      <failure message=\"", out);
            xml_text(out, line);
            fputs("\" type=\"budget\">", out);
            xml_text(out, line);
            fputs("</failure>\n    </testcase>\n", out);
        } else if (st && strcmp(st, "skipped") == 0) {
            fputs(">\n      <skipped message=\"", out);
            xml_text(out, line);
            fputs("\"/>\n    </testcase>\n", out);
        } else {
            fputs(">\n      <system-out>", out);
            xml_text(out, line);
            fputs("</system-out>\n    </testcase>\n", out);
        }
    }
    fputs("  </testsuite>\n</testsuites>\n", out);
    return ferror(out) || fflush(out) ? -1 : 0;
}
