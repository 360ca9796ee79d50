/* check.c - `godeye check --budget FILE [SELECTOR]`: performance budgets for
 * CI; exit 3 when a rule is broken. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "core/escape.h"
#include "render/junit.h"
#include "fleet/clickhouse.h"
#include "fleet/gate.h"
#include "query/diff.h"

enum { GD_CHECK_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_CHECK_COLS, GD_CHECK_TABLE);
static const gd_column columns[] = {GD_CHECK_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};

static const char *const check_formats[] = {"table", "csv", "json", "jsonl", "md", "junit", NULL};

static int collect(void *ctx, json_t *row)
{
    return json_array_append(ctx, row) ? 1 : 0;
}

int cmd_check(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL, *budget_path = NULL, *base_arg = NULL, *app = NULL;
    int allow_missing = 0;
    gd_cli_ch co = {0};
    const gd_option opts[] = {
        OPT_STRING_(0, "budget", &budget_path, "FILE", "the budget (JSON, see godeye-check(1))"),
        OPT_STRING_(0, "base", &base_arg, "SELECTOR", "compare with these traces (default: the budget's \"base\")"),
        OPT_BOOL_(0, "allow-missing", &allow_missing, "a rule without data does not break the gate"),
        OPT_CHOICE_(0, "format", &format, "FMT", "output: table, csv, json, jsonl, md or junit", check_formats),
        OPT_APP(&app),
        OPT_CLICKHOUSE(&co),
        OPT_END_(),
    };
    const char *usage = "godeye check --budget FILE [OPTIONS] [SELECTOR]";
    if (gd_cli_describe(ctx, usage, opts, columns, sizeof columns / sizeof columns[0]))
        return GD_EXIT_OK;
    int nargs, rc = gd_parse_options(argc, argv, opts, usage, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (!budget_path) {
        gd_cli_say(ctx, "--budget FILE is required (see 'godeye check -h')");
        return GD_EXIT_USAGE;
    }
    if (nargs > 1) {
        fprintf(stderr, "godeye check: unexpected argument '");
        gd_fputs_escaped(argv[1], stderr);
        fprintf(stderr, "'\n");
        return GD_EXIT_USAGE;
    }
    FILE *bf = fopen(budget_path, "rb");
    if (!bf) {
        fprintf(stderr, "godeye check: cannot read '");
        gd_fputs_escaped(budget_path, stderr);
        fprintf(stderr, "': %s\n", strerror(errno));
        return GD_EXIT_FAIL;
    }
    json_error_t jerr;
    json_t *budget = json_loadf(bf, JSON_REJECT_DUPLICATES, &jerr);
    fclose(bf);
    gd_error err = {0};
    if (!budget) {
        gd_error_set(&err, GD_ERR_USAGE, 0, 0, "budget: %s", jerr.text);
        snprintf(err.source, sizeof err.source, "%s", budget_path);
        err.line = jerr.line;
        err.col = jerr.column;
        return gd_cli_fail(ctx, &err);
    }
    if (gd_budget_validate(budget, &err)) {
        json_decref(budget);
        return gd_cli_fail(ctx, &err);
    }
    /* #47: --app, else the budget's "app" */
    if (!app || !*app)
        app = json_string_value(json_object_get(budget, "app"));
    gd_store *s = NULL;
    gd_ch *c = NULL;
    gd_side_source src;
    if (co.url ? (rc = gd_cli_ch_open(ctx, &co, &c)) : (rc = gd_cli_open_store(ctx, &s))) {
        json_decref(budget);
        return rc;
    }
    if (c)
        src = gd_fleet_source(c);
    gd_selection head = {0}, base = {0};
    const char *base_sel = base_arg ? base_arg : json_string_value(json_object_get(budget, "base"));
    json_t *rows = json_array();
    int broken = 0;
    if (c ? (nargs ? gd_fleet_select(c, argv[0], &head, &err) : gd_fleet_select_newest(c, &head, &err))
          : (nargs ? gd_query_select(s, argv[0], &head, &err) : gd_query_select_newest(s, &head, &err)))
        rc = 1;
    else if (base_sel && (c ? gd_fleet_select(c, base_sel, &base, &err) : gd_query_select(s, base_sel, &base, &err)))
        rc = 1;
    else {
        head.app = base.app = app; /* #47: the app's processes only */
        gd_check_query q = {.budget = budget, .head = &head, .base = base_sel ? &base : NULL,
                            .allow_missing = allow_missing, .src = c ? &src : NULL};
        rc = gd_query_check(s, &q, collect, rows, &broken, &err) ? 1 : 0;
    }
    int wrc = 0;
    if (!rc) {
        gd_renderer *r = gd_cli_renderer(ctx, s, gd_cli_mode(format), columns, sizeof columns / sizeof columns[0]);
        size_t i;
        json_t *row;
        json_array_foreach(rows, i, row)
            if (gd_render_row(r, row))
                break;
        wrc = gd_cli_render_end(ctx, r);
        /* the broken rules, one line each, whatever the format */
        char line[512];
        json_array_foreach(rows, i, row)
            if (json_is_true(json_object_get(row, "broken")))
                gd_cli_say(ctx, "broken: %s", gd_check_line(row, line, sizeof line));
    }
    json_decref(rows);
    json_decref(budget);
    gd_selection_free(&head);
    gd_selection_free(&base);
    gd_store_close(s);
    int fleet = co.url != NULL;
    gd_ch_close(c);
    if (rc && fleet && err.code == GD_ERR_IO)
        return gd_cli_ch_fail(ctx, &co, &err);
    if (rc)
        return gd_cli_fail(ctx, &err);
    if (wrc)
        return GD_EXIT_FAIL;
    return broken ? GD_EXIT_BROKEN : GD_EXIT_OK;
}
