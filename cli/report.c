/* report.c - `godeye report`: the HTML page, or its numbers as Markdown or JSON. */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "render/report.h"
#include "query/report.h"

int cmd_report(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL, *output = NULL, *app = NULL;
    int html = 0;
    gd_int_list traces = {0};
    static const char *const formats[] = {"html", "md", "json", NULL};
    const gd_option opts[] = {
        OPT_BOOL_(0, "html", &html, "write the HTML page (the default)"),
        OPT_CHOICE_(0, "format", &format, "FMT", "html, md (Markdown summary) or json (its numbers)", formats),
        OPT_STRING_('o', "output", &output, "FILE", "write to FILE instead of standard output"),
        OPT_INT_LIST_(0, "trace", &traces, "ID", "only this trace (repeatable)"),
        OPT_APP(&app),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye report [--html | --format FMT] [-o FILE] [--trace ID ...] [--app PKG]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    if (html && format && strcmp(format, "html") != 0) {
        gd_cli_say(ctx, "--html and --format %s do not go together", format);
        return GD_EXIT_USAGE;
    }
    if (!format)
        format = "html";
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s)))
        return rc;
    gd_report_opts o = {gd_cli_filter_app(&traces, app), strcmp(format, "html") == 0};
    gd_error err = {0};
    json_t *doc = NULL;
    rc = gd_report_build(s, &o, &doc, &err);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    char tmp[4096];
    FILE *out = gd_cli_out_open(output ? output : "-", tmp, sizeof tmp);
    if (!out) {
        json_decref(doc);
        gd_error_set(&err, GD_ERR_IO, 0, 0, "cannot write '%s'", output);
        return gd_cli_fail(ctx, &err);
    }
    int wrc = gd_render_report(out, format, doc, ctx->tz_min);
    json_decref(doc);
    if (gd_cli_out_close(out, tmp, output ? output : "-", !wrc))
        wrc = -1;
    if (wrc) {
        gd_error_set(&err, GD_ERR_IO, 0, 0, "cannot write '%s'", output ? output : "standard output");
        return gd_cli_fail(ctx, &err);
    }
    return GD_EXIT_OK;
}
