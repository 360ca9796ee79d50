/* push.c - `godeye push`: send traces to a ClickHouse server. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtins.h"
#include "io/fetch.h"
#include "fleet/push.h"

static const char *const usage_line =
    "godeye push --clickhouse URL [--database NAME] [--trace ID ...] [--batch N] [OPTIONS]";

static const gd_column columns[] = {
    {"trace", "TRACE", GD_COL_INT, .flex = 0, .hidden = 0},
    {"trace_uid", "TRACE_UID", GD_COL_TEXT, .flex = 0, .hidden = 0},
    {"pushed", "PUSHED", GD_COL_BOOL, .flex = 0, .hidden = 0},
    {"rows", "ROWS", GD_COL_INT, .flex = 0, .hidden = 0},
    {"replaced", "REPLACED", GD_COL_BOOL, .flex = 0, .hidden = 0},
};

typedef struct push_out {
    gd_renderer *r;
    long long rows, json_rows;
} push_out;

static void on_report(void *ctx, const gd_push_report *rep)
{
    push_out *o = ctx;
    json_t *row = json_pack("{s:I s:s s:b s:I s:b s:O}", "trace", (json_int_t)rep->trace, "trace_uid",
                            rep->trace_uid, "pushed", !rep->already, "rows", (json_int_t)rep->rows,
                            "replaced", rep->replaced, "tables", rep->tables);
    if (row)
        gd_render_row(o->r, row);
    json_decref(row);
    o->rows += rep->rows;
    o->json_rows += rep->json_rows;
}

int cmd_push(int argc, char **argv, gd_ctx *ctx)
{
    const char *url = NULL, *database = NULL, *format = NULL, *user = NULL, *pwfile = NULL;
    gd_int_list traces = {0};
    long batch = GD_PUSH_BATCH, timeout = 600;
    int timings = 0, json_rows = 0;
    const gd_option opts[] = {
        OPT_STRING_(0, "clickhouse", &url, "URL", "ClickHouse HTTP interface, e.g. http://host:8123"),
        OPT_STRING_(0, "database", &database, "NAME", "database (created if missing; default: the server's)"),
        OPT_STRING_(0, "user", &user, "NAME", "ClickHouse user (default: $GODEYE_CLICKHOUSE_USER)"),
        OPT_STRING_(0, "password-file", &pwfile, "FILE", "read the password from FILE (default: $GODEYE_CLICKHOUSE_PASSWORD)"),
        OPT_INT_(0, "batch", &batch, "N", "rows per INSERT (default 1048576)"),
        OPT_INT_(0, "timeout", &timeout, "SECONDS", "time limit of each request to the server (default 600)"),
        OPT_BOOL_(0, "json-rows", &json_rows, "send every row as JSONEachRow (slower; to compare)"),
        OPT_BOOL_(0, "timings", &timings, "print the time spent and rows per second"),
        OPT_LISTING(&format, &traces),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, usage_line, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    if (!url) {
        gd_cli_say(ctx, "--clickhouse URL is required");
        gd_print_usage(stderr, usage_line, opts);
        return GD_EXIT_USAGE;
    }
    if (batch < 1) {
        gd_cli_say(ctx, "--batch must be at least 1");
        return GD_EXIT_USAGE;
    }
    if (timeout < 1 || timeout > 86400) {
        gd_cli_say(ctx, "--timeout takes 1..86400 seconds");
        return GD_EXIT_USAGE;
    }
    gd_error err = {0};
    char shown[1024]; /* the URL as messages show it: no credentials */
    gd_url_redact(url, shown, sizeof shown);
    gd_cli_ch co = {url, database, user, pwfile, 0};
    gd_ch *c;
    co.timeout = timeout;
    if ((rc = gd_cli_ch_open(ctx, &co, &c)))
        return rc;
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s))) {
        gd_ch_close(c);
        return rc;
    }
    push_out out = {.r = gd_render_new(stdout, gd_cli_mode(format), columns,
                                       sizeof columns / sizeof columns[0], gd_cli_width(ctx))};
    gd_push_opts po = {.filter = gd_cli_filter(&traces), .batch = (size_t)batch, .json = json_rows};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = gd_push(s, c, &po, on_report, &out, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int wrc = gd_cli_render_end(ctx, out.r);
    gd_store_close(s);
    gd_ch_close(c);
    if (rc) {
        if (!err.source[0])
            snprintf(err.source, sizeof err.source, "%.500s", shown);
        return gd_cli_fail(ctx, &err);
    }
    if (timings) {
        double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        gd_cli_say(ctx, "%lld rows in %.3f s (%.0f rows/s; %lld as JSONEachRow)",
                out.rows, secs, secs > 0 ? (double)out.rows / secs : 0.0, out.json_rows);
    }
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
