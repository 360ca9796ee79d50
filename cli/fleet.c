/* fleet.c - connecting to ClickHouse with the credentials `push` takes, for every command that reads or writes a fleet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "core/escape.h"
#include "fleet/clickhouse.h"
#include "io/fetch.h"

int gd_cli_ch_fail(const gd_ctx *ctx, const gd_cli_ch *o, gd_error *err)
{
    if (!err->source[0]) {
        char shown[1024]; /* the URL as messages show it: no credentials */
        gd_url_redact(o->url, shown, sizeof shown);
        snprintf(err->source, sizeof err->source, "%.500s", shown);
    }
    return gd_cli_fail(ctx, err);
}

int gd_cli_ch_open(const gd_ctx *ctx, const gd_cli_ch *o, gd_ch **out)
{
    const char *cmd = ctx->cmd;
    int create = (ctx->flags & GD_CMD_WRITES) != 0;
    *out = NULL;
    if (o->timeout < 0) {
        fprintf(stderr, "godeye %s: --timeout must be 0 or more seconds\n", cmd);
        return GD_EXIT_USAGE;
    }
    const char *user = o->user ? o->user : getenv("GODEYE_CLICKHOUSE_USER");
    char password[512];
    const char *pw = getenv("GODEYE_CLICKHOUSE_PASSWORD");
    if (o->pwfile) {
        FILE *f = fopen(o->pwfile, "r");
        if (!f || !fgets(password, sizeof password, f)) {
            fprintf(stderr, "godeye %s: cannot read the password from '", cmd);
            gd_fputs_escaped(o->pwfile, stderr);
            fputs("'\n", stderr);
            if (f)
                fclose(f);
            return GD_EXIT_FAIL;
        }
        fclose(f);
        password[strcspn(password, "\r\n")] = 0;
        pw = password;
    }
    gd_error err = {0};
    /* ingest's URL limits: connect 10 s, no byte for 30 s = stalled */
    gd_fetch_opts limits = {.timeout_s = o->timeout};
    if (gd_ch_open(out, o->url, o->database, user, pw, &limits, create, &err))
        return gd_cli_ch_fail(ctx, o, &err);
    return 0;
}

int gd_cli_fleet_listing(gd_ctx *ctx, const gd_cli_ch *o, gd_out_mode mode, const gd_column *cols, size_t ncols,
                         gd_cli_fleet_query q, void *arg)
{
    gd_ch *c;
    int rc = gd_cli_ch_open(ctx, o, &c);
    if (rc)
        return rc;
    gd_error err = {0};
    gd_renderer *r = gd_cli_renderer(ctx, NULL, mode, cols, ncols);
    rc = q(c, gd_cli_render_cb, r, arg, &err);
    int wrc = gd_cli_render_end(ctx, r);
    gd_ch_close(c);
    if (rc)
        return gd_cli_ch_fail(ctx, o, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
