/* diffstacks.c - `godeye diff --stacks BASE HEAD` (#52): differential flame
 * graphs: the frames of two selections' stacks and method calls compared. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "fleet/stacks.h"
#include "query/diffstacks.h"
#include "render/diffstacks.h"

enum { GD_DS_FRAME_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_DS_FRAME_COLS, GD_DS_FRAME_TABLE);
static const gd_column columns[] = {GD_DS_FRAME_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};

static const char *const ds_formats[] = {"tree", "table", "csv", "json", "jsonl", "md", NULL};
static const char *const ds_norms[] = {"time", "samples", NULL};

typedef struct ds_opts {
    const char *format, *app, *norm;
    int folded, stacks;
    double alpha;
    long min_samples, top;
} ds_opts;

static int folded_cb(void *ctx, json_t *row) { return gd_render_ds_folded(ctx, row) ? 1 : 0; }

/* Writes the answer in the asked form; GD_EXIT_*. */
static int ds_write(gd_ctx *ctx, const ds_opts *o, const gd_diffstacks *d)
{
    gd_error err = {0};
    int rc;
    if (o->folded) {
        rc = gd_ds_rows(d, 1, folded_cb, stdout, &err);
        return rc ? gd_cli_fail(ctx, &err) : (fflush(stdout) || ferror(stdout) ? GD_EXIT_FAIL : GD_EXIT_OK);
    }
    if (!o->format || strcmp(o->format, "tree") == 0) {
        json_t *sum = gd_ds_summary(d);
        if (!sum) {
            gd_cli_say(ctx, GD_ERR_NOMEM_MSG);
            return GD_EXIT_FAIL;
        }
        rc = gd_render_ds_tree(stdout, sum);
        json_decref(sum);
        return rc || fflush(stdout) ? GD_EXIT_FAIL : GD_EXIT_OK;
    }
    gd_renderer *r = gd_cli_renderer(ctx, NULL, gd_cli_mode(o->format), columns, sizeof columns / sizeof columns[0]);
    rc = gd_ds_rows(d, 0, gd_cli_render_cb, r, &err);
    int wrc = gd_cli_render_end(ctx, r);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}

static int ds_check(gd_ctx *ctx, const ds_opts *o, int nargs)
{
    if (nargs != 2) {
        gd_cli_say(ctx, "expected BASE and HEAD selectors (see 'godeye diff --stacks -h')");
        return GD_EXIT_USAGE;
    }
    if (!isnan(o->alpha) && !(o->alpha > 0 && o->alpha < 1)) {
        gd_cli_say(ctx, "--alpha must be between 0 and 1");
        return GD_EXIT_USAGE;
    }
    if (o->min_samples != -1 && o->min_samples < 2) {
        gd_cli_say(ctx, "--min-samples must be 2 or more");
        return GD_EXIT_USAGE;
    }
    if (o->top != -1 && o->top < 1) {
        gd_cli_say(ctx, "--top must be 1 or more");
        return GD_EXIT_USAGE;
    }
    if (o->folded && o->format) {
        gd_cli_say(ctx, "--folded and --format do not go together");
        return GD_EXIT_USAGE;
    }
    return GD_EXIT_OK;
}

/* #52 item 4: both sides from the fleet's stack_paths (fleet/stacks.h):
 * the same analysis, the same answer. */
static int ds_fleet(gd_ctx *ctx, const gd_cli_ch *co, char **argv, const char *app, gd_diffstacks_query *q,
                    gd_diffstacks **d)
{
    gd_selection base = {0}, head = {0};
    gd_error err = {0};
    gd_ch *c;
    int rc = gd_cli_diff_fleet_open(ctx, co, argv, app, &c, &base, &head);
    if (rc)
        return rc;
    q->base = &base;
    q->head = &head;
    rc = gd_fleet_diffstacks(c, q, d, &err);
    gd_cli_diff_fleet_close(c, &base, &head);
    if (!rc)
        return GD_EXIT_OK;
    return err.code == GD_ERR_DATA ? gd_cli_fail(ctx, &err) : gd_cli_ch_fail(ctx, co, &err);
}

static int ds_local(gd_ctx *ctx, char **argv, const char *app, gd_diffstacks_query *q, gd_diffstacks **d)
{
    gd_selection base = {0}, head = {0};
    gd_error err = {0};
    gd_store *s;
    int rc = gd_cli_diff_open(ctx, argv, app, &s, &base, &head);
    if (rc)
        return rc;
    q->base = &base;
    q->head = &head;
    rc = gd_query_diffstacks(s, q, d, &err);
    gd_cli_diff_close(s, &base, &head);
    return rc ? gd_cli_fail(ctx, &err) : GD_EXIT_OK;
}

int cmd_diff_stacks(int argc, char **argv, gd_ctx *ctx)
{
    ds_opts o = {.alpha = NAN, .min_samples = -1, .top = -1};
    gd_cli_ch co = {0};
    const gd_option opts[] = {
        OPT_BOOL_(0, "stacks", &o.stacks, "compare stacks and method calls frame by frame"),
        OPT_BOOL_(0, "folded", &o.folded, "write FlameGraph's two-column folded lines (stack base head)"),
        OPT_CHOICE_(0, "norm", &o.norm, "BY", "normalise head by capture time or samples (default: time when known)",
                    ds_norms),
        OPT_INT_(0, "top", &o.top, "N", "regressed frames in the tree (default 10)"),
        OPT_DOUBLE_(0, "alpha", &o.alpha, "P", "significance level of the test (default 0.01)"),
        OPT_INT_(0, "min-samples", &o.min_samples, "N", "fewest captures per side for the test (default 5)"),
        OPT_CHOICE_(0, "format", &o.format, "FMT", "output: tree, table, csv, json, jsonl or md", ds_formats),
        OPT_APP(&o.app),
        OPT_CLICKHOUSE(&co),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye diff --stacks [OPTIONS] BASE HEAD", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if ((rc = ds_check(ctx, &o, nargs)))
        return rc;
    gd_diffstacks_query q = {NULL, NULL, o.alpha, o.min_samples,
                             !o.norm ? GD_DS_NORM_AUTO : o.norm[0] == 't' ? GD_DS_NORM_TIME : GD_DS_NORM_SAMPLES,
                             o.top};
    gd_diffstacks *d = NULL;
    if ((rc = co.url ? ds_fleet(ctx, &co, argv, o.app, &q, &d) : ds_local(ctx, argv, o.app, &q, &d)))
        return rc;
    rc = ds_write(ctx, &o, d);
    gd_ds_free(d);
    return rc;
}
