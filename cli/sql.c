/* sql.c - `godeye sql`: one read-only statement, rows as objects. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "query/sql.h"

typedef struct sql_out {
    gd_out_mode mode;
    gd_renderer *r;
    gd_column *cols;
    size_t ncols;
    json_t *first;
} sql_out;

/* Columns are known only from the first row: build the spec then. */
static int on_row(void *ctx, json_t *row)
{
    sql_out *o = ctx;
    if (!o->r) {
        o->ncols = json_object_size(row);
        o->cols = calloc(o->ncols ? o->ncols : 1, sizeof *o->cols);
        size_t i = 0;
        const char *k;
        json_t *v;
        json_object_foreach(row, k, v) {
            o->cols[i].key = strdup(k);
            o->cols[i].header = o->cols[i].key;
            o->cols[i].type = GD_COL_TEXT;
            o->cols[i].flex = 1;
            i++;
        }
        o->r = gd_render_new(stdout, o->mode, o->cols, o->ncols, gd_cli_width(NULL));
    }
    return gd_render_row(o->r, row) ? 1 : 0;
}

int cmd_sql(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL;
    double timeout = 10;
    const gd_option opts[] = {
        OPT_CHOICE_(0, "format", &format, "FMT", "output: table, csv, json or jsonl", gd_format_choices),
        OPT_DOUBLE_(0, "timeout", &timeout, "SECONDS", "stop the statement after this long (default 10; 0: never)"),
        OPT_END_(),
    };
    const char *usage = "godeye sql [--format FMT] [--timeout SECONDS] QUERY";
    if (gd_cli_describe(ctx, usage, opts, NULL, 0)) /* the statement's own columns */
        return GD_EXIT_OK;
    int nargs, rc = gd_parse_options(argc, argv, opts, usage, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs != 1) {
        gd_cli_say(ctx, "give exactly one query (quote it)");
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_store(ctx, &s)))
        return rc;
    sql_out o = {.mode = gd_cli_mode(format)};
    gd_error err = {0};
    rc = gd_query_sql(s, argv[0], timeout, on_row, &o, &err);
    if (!o.r && !rc)
        o.r = gd_render_new(stdout, o.mode, NULL, 0, gd_cli_width(NULL));
    int wrc = o.r ? gd_cli_render_end(ctx, o.r) : 0;
    for (size_t i = 0; i < o.ncols; i++)
        free((char *)o.cols[i].key);
    free(o.cols);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
