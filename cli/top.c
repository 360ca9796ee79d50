/* top.c - `godeye top`: what to fix first, one ranked list. */
#include <stdio.h>

#include "builtins.h"
#include "query/top.h"

/* MS/MIN: the score; an ANR without a duration says "ANR" (#48) */
static const char *score_text(const json_t *row, char *buf, size_t size)
{
    json_t *v = json_object_get(row, "score_ms_per_min");
    if (json_is_number(v)) {
        snprintf(buf, size, "%.1f", json_number_value(v));
        return buf;
    }
    return json_integer_value(json_object_get(row, "tier")) == 0 ? "ANR" : NULL;
}

static const gd_column columns[] = {
    {"rank", "#", GD_COL_INT, 0, 0},
    {"kind", "KIND", GD_COL_TEXT, 0, 0},
    /* milliseconds users lost per minute of capture (ANRs rank first whatever it says) */
    {"score_ms_per_min", "MS/MIN", GD_COL_NUM, 0, 0, .text = score_text},
    {"trace", "TRACE", GD_COL_INT, 0, 0, 1},
    {"title", "WHAT", GD_COL_TEXT, 1, 0},
    {"command", "MORE", GD_COL_TEXT, 0, 0},
    {"tier", "TIER", GD_COL_INT, 0, 1},
    {"capture_min", "CAPTURE MIN", GD_COL_NUM, 0, 1},
    {"evidence", "EVIDENCE", GD_COL_TEXT, 0, 1},
};

int cmd_top(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL;
    gd_int_list traces = {0};
    long limit = 10;
    const gd_option opts[] = {
        OPT_INT_(0, "limit", &limit, "N", "the first N entries (default 10, at most 50)"),
        OPT_LISTING(&format, &traces),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye top [OPTIONS]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    if (limit < 1 || limit > GD_TOP_MAX) {
        gd_cli_say(ctx, "--limit wants 1 to %d, not %ld", GD_TOP_MAX, limit);
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s)))
        return rc;
    gd_filter f = gd_cli_filter(&traces);
    gd_error err = {0};
    json_t *top = NULL;
    rc = gd_top_build(s, &f, (int)limit, &top, &err);
    if (rc) {
        gd_store_close(s);
        return gd_cli_fail(ctx, &err);
    }
    gd_renderer *r = gd_cli_renderer(ctx, s, gd_cli_mode(format), columns, sizeof columns / sizeof columns[0]);
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(top, "entries"), i, e)
        if (gd_render_row(r, e))
            break;
    int wrc = gd_cli_render_end(ctx, r);
    gd_store_close(s);
    json_decref(top);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
