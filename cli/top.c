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

/* The entries' columns (query/top.h); MS/MIN, the milliseconds users lost
 * per minute of capture (ANRs rank first whatever it says), shows
 * score_text; PROCESS: --wide, the title names it. */
enum { GD_TOP_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_TOP_COLS, GD_TOP_TABLE);
static gd_column columns[] = {GD_TOP_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};

typedef struct top_opts {
    long limit;
    int all_processes;
} top_opts;

static int top_check(gd_ctx *ctx, gd_cmd_spec *spec, gd_listing *l)
{
    long limit = ((top_opts *)spec->arg)->limit;
    (void)l;
    if (limit < 1 || limit > GD_TOP_MAX) {
        gd_cli_say(ctx, "--limit wants 1 to %d, not %ld", GD_TOP_MAX, limit);
        return GD_EXIT_USAGE;
    }
    return 0;
}

static int top_query(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err)
{
    json_t *top = NULL;
    const top_opts *o = arg;
    int rc = gd_top_build_focus(s, &l->filter, (int)o->limit, !o->all_processes, &top, err);
    if (rc)
        return rc;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(top, "entries"), i, e)
        if (gd_render_row(r, e))
            break;
    json_decref(top);
    return 0;
}

int cmd_top(int argc, char **argv, gd_ctx *ctx)
{
    top_opts o = {10, 0};
    columns[GD_TAB_TP_SCORE].text = score_text;
    const gd_option opts[] = {
        OPT_INT_(0, "limit", &o.limit, "N", "the first N entries (default 10, at most 50)"),
        OPT_BOOL_(0, "all-processes", &o.all_processes, "rank every process alike (no default focus on the traces' apps)"),
        OPT_END_(),
    };
    gd_cmd_spec spec = {.usage = "godeye top [OPTIONS]", .opts = opts, .arg = &o, .check = top_check,
                        .cols = columns, .ncols = sizeof columns / sizeof columns[0], .query = top_query,
                        .data_name = "nothing to rank: no ANR, deadlock, block, launch, frame or lock passed its threshold",
                        .samples_hint = 1};
    return gd_cli_run(ctx, argc, argv, &spec);
}
