/* retrace.c - `godeye retrace`: obfuscated stack-trace text back to the
 * original names through an R8/ProGuard mapping (a filter, like retrace);
 * the matching is derive/retrace_text.c's, this file reads and writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"
#include "core/escape.h"
#include "derive/retrace.h"
#include "derive/retrace_text.h"

static const char *const usage_line = "godeye retrace --mapping FILE [--verbose] [FILE...]";

typedef struct rt_out {
    FILE *f;
    int tty;             /* control characters escaped (tabs kept)           */
} rt_out;

/* One output line (gd_retrace_line_fn): on a terminal, control characters
 * escaped, tabs kept. */
static int put_line(void *ctx, const char *s)
{
    rt_out *o = ctx;
    if (!o->tty) {
        fputs(s, o->f);
    } else {
        for (const char *p = s; *p;) {
            size_t k = strcspn(p, "\t");
            char seg[4096];
            while (k) {
                size_t n = k < 1000 ? k : 1000;
                memcpy(seg, p, n);
                seg[n] = 0;
                gd_fputs_escaped(seg, o->f);
                p += n;
                k -= n;
            }
            if (*p == '\t')
                fputc(*p++, o->f);
        }
    }
    fputc('\n', o->f);
    return 0;
}

static int filter(gd_retrace_text *t, gd_input *in, rt_out *o, gd_error *err)
{
    char *line;
    size_t len;
    int r, rc = GD_OK;
    while (!rc && (r = gd_input_getline(in, &line, &len, err)) > 0) {
        if (memchr(line, 0, len)) { /* not text: copied as it is */
            for (size_t i = 0; i <= len; i += strlen(line + i) + 1) {
                if (i && o->tty)
                    fputs("\\x00", o->f);
                else if (i)
                    fputc(0, o->f);
                if (o->tty)
                    gd_fputs_escaped(line + i, o->f);
                else
                    fputs(line + i, o->f);
            }
            fputc('\n', o->f);
            continue;
        }
        rc = gd_retrace_text_line(t, line, put_line, o, err);
    }
    if (rc)
        return rc;
    if (r < 0)
        return err->code ? err->code : GD_ERR_IO;
    return err->code;
}

int cmd_retrace(int argc, char **argv, gd_ctx *ctx)
{
    (void)ctx;
    const char *mapping = NULL;
    int verbose = 0;
    const gd_option opts[] = {
        OPT_STRING_(0, "mapping", &mapping, "FILE", "R8/ProGuard mapping.txt of the build (required)"),
        OPT_BOOL_(0, "verbose", &verbose, "methods with their return and argument types, as R8's --verbose"),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, usage_line, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (!mapping) {
        gd_cli_say(ctx, "--mapping FILE is required");
        gd_print_usage(stderr, usage_line, opts);
        return GD_EXIT_USAGE;
    }
    gd_error err = {0};
    gd_mapping *m;
    if (gd_mapping_load_file(&m, mapping, &err)) {
        snprintf(err.source, sizeof err.source, "%s", mapping);
        return gd_cli_fail_line(ctx, &err);
    }
    const char *uid;
    long uline;
    size_t nunk = gd_mapping_unknown_ids(m, &uid, &uline);
    if (nunk) {
        fputs("godeye retrace: warning: '", stderr);
        gd_fputs_escaped(mapping, stderr);
        fprintf(stderr, "':%ld: %zu metadata line(s) with an unknown id ignored (first: '", uline, nunk);
        gd_fputs_escaped(uid, stderr);
        fputs("')\n", stderr);
    }
    rt_out o = {.f = stdout, .tty = isatty(1)};
    gd_retrace_text *t = gd_retrace_text_new(m, verbose);
    if (!t) {
        gd_mapping_free(m);
        gd_cli_say(ctx, GD_ERR_NOMEM_MSG);
        return GD_EXIT_FAIL;
    }
    const char *dash = "-";
    char **files = nargs ? argv : (char **)&dash;
    int n = nargs ? nargs : 1;
    rc = GD_EXIT_OK;
    for (int i = 0; i < n && rc == GD_EXIT_OK; i++) {
        gd_input *in = NULL;
        int code = gd_input_open_file(&in, files[i], &err);
        if (!code) {
            code = filter(t, in, &o, &err);
            gd_input_close(in);
        }
        if (code) {
            snprintf(err.source, sizeof err.source, "%s", files[i]);
            rc = gd_cli_fail(ctx, &err);
        }
    }
    gd_retrace_text_free(t);
    gd_mapping_free(m);
    if (fflush(stdout) && rc == GD_EXIT_OK) {
        gd_cli_say(ctx, "cannot write the output");
        rc = GD_EXIT_FAIL;
    }
    return rc;
}
