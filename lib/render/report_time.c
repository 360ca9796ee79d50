/* report_time.c - which clock a report document's times follow (its "traces" rows). */
#include "render/report.h"

#include "render/render.h"

gd_clock gd_report_clock(const json_t *doc, json_int_t id)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(doc, "traces"), i, t)
        if (json_integer_value(json_object_get(t, "trace")) == id)
            return gd_clock_of_trace_row(t);
    return gd_clock_unknown();
}

int gd_report_shared_clock(const json_t *doc, gd_clock *out)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(doc, "traces"), i, t) {
        gd_clock c = gd_clock_of_trace_row(t);
        if (c.kind == GD_CLOCK_MONOTONIC)
            return 0;
        if (i > 0 && (c.kind != out->kind || c.utc_offset_min != out->utc_offset_min))
            return 0;
        *out = c;
    }
    return json_array_size(json_object_get(doc, "traces")) > 0;
}
