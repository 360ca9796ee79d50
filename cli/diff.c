/* diff.c - `godeye diff BASE HEAD`: two selections of traces compared per
 * block group, page class, frame window, launch kind and ANR count. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "diff_answer.h"
#include "fleet/clickhouse.h"
#include "fleet/gate.h"
#include "query/diff.h"

/* The table's columns: GD_DIFF_TABLE's order, a side's field twice (S:
 * base then head, at "base.KEY" and "head.KEY"). */
#define SIDE_TAB(id) GD_TAB_BASE_##id, GD_TAB_HEAD_##id,
#define SIDE_COL(id, e, k, h, t, f)                      \
    [GD_TAB_BASE_##id] = GD_CLI_COL(id, e, "base." k, "BASE " h, t, f) \
    [GD_TAB_HEAD_##id] = GD_CLI_COL(id, e, "head." k, "HEAD " h, t, f)
#define NO_TAB(id)
enum { GD_DIFF_TABLE(GD_CLI_TAB, SIDE_TAB) };
_Static_assert(0 GD_DIFF_COLS(GD_CLI_ONE, GD_CLI_JSON_ONLY) == 0 GD_DIFF_TABLE(GD_CLI_ONE_T, NO_TAB),
               "GD_DIFF_TABLE names the columns of GD_DIFF_COLS");
_Static_assert(0 GD_DIFF_SIDE_COLS(GD_CLI_ONE, GD_CLI_JSON_ONLY) == 0 GD_DIFF_TABLE(NO_TAB, GD_CLI_ONE_T),
               "GD_DIFF_TABLE names the columns of GD_DIFF_SIDE_COLS");
static const gd_column columns[] = {GD_DIFF_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)
                                        GD_DIFF_SIDE_COLS(SIDE_COL, GD_CLI_JSON_ONLY)};

static const char *const diff_formats[] = {"table", "csv", "json", "jsonl", "md", NULL};

/* The renderer of the rows; #52: with no --format, the answer of
 * diff_answer.h (a headline, a block per changed row) instead of the table. */
static gd_renderer *diff_renderer(gd_ctx *ctx, gd_store *s, const char *format, gd_diff_answer *a)
{
    gd_renderer *r = gd_cli_renderer(ctx, s, gd_cli_mode(format), columns, sizeof columns / sizeof columns[0]);
    a->width = gd_cli_width(ctx);
    if (r && !format)
        gd_render_lines(r, gd_diff_answer_row, a);
    return r;
}

/* The end of the output: the answer's last lines, then the renderer's. */
static int diff_render_end(gd_ctx *ctx, gd_renderer *r, const char *format, gd_diff_answer *a, int rc)
{
    int arc = !rc && !format ? gd_diff_answer_end(stdout, a) : 0;
    return gd_cli_render_end(ctx, r) || arc;
}

int gd_cli_diff_open(gd_ctx *ctx, char **argv, const char *app, gd_store **s, gd_selection *base,
                     gd_selection *head)
{
    int rc = gd_cli_open_store(ctx, s);
    if (rc)
        return rc;
    gd_error err = {0};
    if ((rc = gd_query_select(*s, argv[0], base, &err)) || (rc = gd_query_select(*s, argv[1], head, &err))) {
        gd_cli_diff_close(*s, base, head);
        return gd_cli_fail(ctx, &err);
    }
    base->app = head->app = app && *app ? app : NULL; /* #47 */
    return 0;
}

void gd_cli_diff_close(gd_store *s, gd_selection *base, gd_selection *head)
{
    gd_selection_free(base);
    gd_selection_free(head);
    gd_store_close(s);
}

int gd_cli_diff_fleet_open(gd_ctx *ctx, const gd_cli_ch *co, char **argv, const char *app, gd_ch **c,
                           gd_selection *base, gd_selection *head)
{
    int rc = gd_cli_ch_open(ctx, co, c);
    if (rc)
        return rc;
    gd_error err = {0};
    if ((rc = gd_fleet_select(*c, argv[0], base, &err)) || (rc = gd_fleet_select(*c, argv[1], head, &err))) {
        gd_cli_diff_fleet_close(*c, base, head);
        return err.code == GD_ERR_USAGE || err.code == GD_ERR_DATA ? gd_cli_fail(ctx, &err)
                                                                   : gd_cli_ch_fail(ctx, co, &err);
    }
    base->app = head->app = app && *app ? app : NULL; /* #47: the app's processes' rows */
    return 0;
}

void gd_cli_diff_fleet_close(gd_ch *c, gd_selection *base, gd_selection *head)
{
    gd_selection_free(base);
    gd_selection_free(head);
    gd_ch_close(c);
}

/* The same diff with both sides read from the fleet in ClickHouse. */
static int diff_fleet(gd_ctx *ctx, const gd_cli_ch *co, char **argv, const char *app, const char *format,
                      double alpha, long min_samples)
{
    gd_ch *c;
    gd_selection base = {0}, head = {0};
    int rc = gd_cli_diff_fleet_open(ctx, co, argv, app, &c, &base, &head);
    if (rc)
        return rc;
    gd_error err = {0};
    gd_side_source src = gd_fleet_source(c);
    gd_diff_answer a = {0};
    gd_renderer *r = diff_renderer(ctx, NULL, format, &a);
    gd_diff_query q = {.base = &base, .head = &head, .alpha = alpha, .min_samples = min_samples, .src = &src,
                       .summary = &a.sum};
    rc = gd_query_diff(NULL, &q, gd_cli_render_cb, r, &err);
    int wrc = diff_render_end(ctx, r, format, &a, rc);
    gd_cli_diff_fleet_close(c, &base, &head);
    if (rc)
        return gd_cli_ch_fail(ctx, co, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}

int cmd_diff(int argc, char **argv, gd_ctx *ctx)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (strcmp(argv[i], "--stacks") == 0)
            return cmd_diff_stacks(argc, argv, ctx); /* #52: cli/diffstacks.c */
    const char *format = NULL, *app = NULL;
    double alpha = NAN;
    long min_samples = -1;
    gd_cli_ch co = {0};
    const gd_option opts[] = {
        OPT_DOUBLE_(0, "alpha", &alpha, "P", "significance level of the tests (default 0.01)"),
        OPT_INT_(0, "min-samples", &min_samples, "N", "fewest durations per side for a duration test (default 5)"),
        OPT_CHOICE_(0, "format", &format, "FMT", "output: table, csv, json, jsonl or md (default: a summary)",
                    diff_formats),
        OPT_BOOL_(0, "wide", &ctx->wide, "--format table cuts nothing (else it fits the terminal)"),
        OPT_APP(&app),
        OPT_CLICKHOUSE(&co),
        OPT_END_(),
    };
    const char *usage = "godeye diff [OPTIONS] BASE HEAD";
    if (gd_cli_describe(ctx, usage, opts, columns, sizeof columns / sizeof columns[0]))
        return GD_EXIT_OK;
    int nargs, rc = gd_parse_options(argc, argv, opts, usage, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs != 2) {
        gd_cli_say(ctx, "expected BASE and HEAD selectors (see 'godeye diff -h')");
        return GD_EXIT_USAGE;
    }
    if (!isnan(alpha) && !(alpha > 0 && alpha < 1)) {
        gd_cli_say(ctx, "--alpha must be between 0 and 1");
        return GD_EXIT_USAGE;
    }
    if (min_samples != -1 && min_samples < 1) {
        gd_cli_say(ctx, "--min-samples must be 1 or more");
        return GD_EXIT_USAGE;
    }
    if (co.url)
        return diff_fleet(ctx, &co, argv, app, format, alpha, min_samples);
    gd_store *s;
    gd_selection base = {0}, head = {0};
    if ((rc = gd_cli_diff_open(ctx, argv, app, &s, &base, &head)))
        return rc;
    gd_error err = {0};
    gd_diff_answer a = {0};
    gd_renderer *r = diff_renderer(ctx, s, format, &a);
    gd_diff_query q = {.base = &base, .head = &head, .alpha = alpha, .min_samples = min_samples,
                       .summary = &a.sum};
    rc = gd_query_diff(s, &q, gd_cli_render_cb, r, &err);
    int wrc = diff_render_end(ctx, r, format, &a, rc);
    gd_cli_diff_close(s, &base, &head);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
