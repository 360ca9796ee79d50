/* blocks.c - `godeye blocks`: blocks re-cut at any threshold, or their groups. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "fleet/clickhouse.h"
#include "fleet/gate.h"
#include "core/escape.h"
#include "query/blocks.h"

static const gd_column block_columns[] = {GD_BLOCKS_COLS(GD_CLI_COL, GD_CLI_JSON_ONLY)};

/* A group no rule could name (godeye-blocks(1), GROUPS). */
static const char *group_text(const json_t *row, char *buf, size_t n)
{
    const char *g = json_string_value(json_object_get(row, "group"));
    snprintf(buf, n, "%s", g ? g : "(no app frame)");
    return buf;
}

/* A group's PROCESS: its longest block's process, "+N" for the others. */
static const char *group_process_text(const json_t *row, char *buf, size_t n)
{
    const char *p = json_string_value(json_object_get(row, "process"));
    size_t more = json_array_size(json_object_get(row, "processes"));
    if (!p)
        return NULL;
    if (more > 1)
        snprintf(buf, n, "%s +%zu", p, more - 1);
    else
        snprintf(buf, n, "%s", p);
    return buf;
}

enum { GD_BLOCK_GROUP_TABLE(GD_CLI_TAB) GD_TAB_NGROUP };
GD_CLI_TABLE_CHECK(GD_BLOCK_GROUP_COLS, GD_BLOCK_GROUP_TABLE);
/* The group columns of the query's declaration; GROUP and PROCESS shown by
 * the texts above (set by group_texts before any use).  The columns
 * before GROUP fill 90; PROCESS is hidden in tables, as the blocks' own. */
static gd_column group_columns[] = {GD_BLOCK_GROUP_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};

static void group_texts(void)
{
    group_columns[GD_TAB_BG_GROUP].text = group_text;
    group_columns[GD_TAB_BG_PROCESS].text = group_process_text;
}

/* Table mode with --stacks: each block, a line, followed by its samples. */
static int print_with_stacks(FILE *out, const gd_renderer *r, json_t *row, void *ctx)
{
    char buf[256];
    (void)ctx;
    json_t *th = json_object_get(row, "thread");
    fprintf(out, "block %lld  trace %lld  tid %lld",
            (long long)json_integer_value(json_object_get(row, "id")),
            (long long)json_integer_value(json_object_get(row, "trace")),
            (long long)json_integer_value(json_object_get(row, "tid")));
    if (json_is_string(th)) {
        /* a thread name comes from the capture */
        fputs(" (", out);
        gd_fputs_escaped(json_string_value(th), out);
        fputc(')', out);
    }
    fprintf(out, "  %s  %.1f ms  %s%s  key frame: ",
            gd_render_time(r, row, json_object_get(row, "start_ms"), buf, sizeof buf),
            json_number_value(json_object_get(row, "duration_ms")),
            json_string_value(json_object_get(row, "kind")),
            json_is_true(json_object_get(row, "unfinished")) ? " (unfinished)" : "");
    /* frames come from the capture: shown escaped, one line each */
    json_t *kf = json_object_get(row, "key_frame");
    gd_fputs_escaped(json_is_string(kf) ? json_string_value(kf) : "-", out);
    fputc('\n', out);
    size_t i, j;
    json_t *s, *f;
    json_array_foreach(json_object_get(row, "stacks"), i, s) {
        fprintf(out, "  sample %zu at %s\n", i + 1,
                gd_render_time(r, row, json_object_get(s, "ts_ms"), buf, sizeof buf));
        json_array_foreach(json_object_get(s, "frames"), j, f) {
            fputs("      at ", out);
            gd_fputs_escaped(json_string_value(f), out);
            fputc('\n', out);
        }
    }
    fputc('\n', out);
    return 0;
}

typedef struct fleet_kind {
    const char *kind, *app;
    long limit;
} fleet_kind;

static int fleet_groups(gd_ch *c, gd_row_fn fn, void *fn_ctx, void *arg, gd_error *err)
{
    const fleet_kind *k = arg;
    gd_selection all = {.app = k->app}; /* #47: --app keeps the app's processes' blocks */
    return gd_fleet_block_groups(c, k->app ? &all : NULL, k->kind, k->limit, fn, fn_ctx, err);
}

/* --group over the fleet in ClickHouse, with --kind and --limit (the other options need one database). */
static int blocks_fleet(gd_ctx *ctx, const gd_cli_ch *co, int group, const gd_int_list *traces, double threshold,
                        const char *kind, const char *app, long limit, gd_out_mode mode)
{
    if (!group || traces->n || !isnan(threshold)) {
        fprintf(stderr, "godeye blocks: --clickhouse goes with --group (and --kind, --limit, --app; no --trace,"
                        " --threshold)\n");
        return GD_EXIT_USAGE;
    }
    fleet_kind fk = {kind, app && *app ? app : NULL, limit};
    return gd_cli_fleet_listing(ctx, co, mode, group_columns, sizeof group_columns / sizeof group_columns[0],
                                fleet_groups, &fk);
}

int cmd_blocks(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL, *kind = NULL, *app = NULL;
    gd_int_list traces = {0};
    double threshold = NAN;
    int group = 0, stacks = 0;
    long limit = 0;
    gd_cli_ch co = {0};
    static const char *const kinds[] = {"short", "long", "anr", NULL};
    const gd_option opts[] = {
        OPT_DOUBLE_(0, "threshold", &threshold, "MS", "minimum duration (default: each trace's short threshold)"),
        OPT_DOUBLE_(0, "min-ms", &threshold, "MS", "the same as --threshold (every command's name for 'at least MS')"),
        OPT_CHOICE_(0, "kind", &kind, "KIND", "only blocks of this kind: short, long or anr", kinds),
        OPT_BOOL_(0, "group", &group, "aggregate blocks by group (key frame, else handler, else slice name)"),
        OPT_BOOL_(0, "stacks", &stacks, "include the stack samples of each block"),
        OPT_INT_(0, "limit", &limit, "N", "only the N longest blocks (or the first N groups)"),
        OPT_INT_(0, "top", &limit, "N", "the same as --limit"),
        OPT_LISTING(&format, &traces),
        OPT_APP(&app),
        OPT_CLICKHOUSE(&co),
        OPT_END_(),
    };
    const char *usage = "godeye blocks [OPTIONS]";
    group_texts();
    gd_cli_describe_variant(ctx, "group", group_columns, sizeof group_columns / sizeof group_columns[0], 1);
    if (gd_cli_describe(ctx, usage, opts, block_columns, sizeof block_columns / sizeof block_columns[0]))
        return GD_EXIT_OK;
    int nargs, rc = gd_parse_options(argc, argv, opts, usage, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    if (!isnan(threshold) && threshold < 0) {
        gd_cli_say(ctx, "--threshold must be 0 or more");
        return GD_EXIT_USAGE;
    }
    if (limit < 0) {
        gd_cli_say(ctx, "--limit must be 0 (all) or more");
        return GD_EXIT_USAGE;
    }
    if (group && stacks) {
        gd_cli_say(ctx, "--group and --stacks do not go together");
        return GD_EXIT_USAGE;
    }
    if (co.url)
        return blocks_fleet(ctx, &co, group, &traces, threshold, kind, app, limit, gd_cli_mode(format));
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s)))
        return rc;
    gd_blocks_query q = {.filter = gd_cli_filter_app(&traces, app), .threshold = threshold,
                         .kind = gd_block_kind_parse(kind), .stacks = stacks, .limit = limit};
    gd_out_mode mode = gd_cli_mode(format);
    gd_error err = {0};
    gd_renderer *r;
    if (group) {
        r = gd_cli_renderer(ctx, s, mode, group_columns, sizeof group_columns / sizeof group_columns[0]);
        rc = gd_query_block_groups(s, &q, gd_cli_render_cb, r, &err);
    } else {
        r = gd_cli_renderer(ctx, s, mode, block_columns, sizeof block_columns / sizeof block_columns[0]);
        if (stacks)
            gd_render_lines(r, print_with_stacks, NULL);
        rc = gd_query_block_values(s, &q, gd_cli_values_cb, r, &err);
    }
    size_t rows = gd_render_rows(r);
    int wrc = gd_cli_render_end(ctx, r);
    if (!rc && !wrc && !rows &&
        !gd_cli_say_empty(ctx, s, &q.filter, "dispatch", "main-thread dispatches (looper or slice data)"))
        gd_cli_say_samples_hint(ctx, s, &q.filter);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
