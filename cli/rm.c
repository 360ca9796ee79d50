/* rm.c - `godeye rm`: remove traces from the database. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "builtins.h"
#include "core/escape.h"

static const char *const usage_line = "godeye rm [--vacuum] TRACE...";

int cmd_rm(int argc, char **argv, gd_ctx *ctx)
{
    int vacuum = 0, quiet = 0;
    const gd_option opts[] = {
        OPT_BOOL_(0, "vacuum", &vacuum, "give the freed space back to the file system (VACUUM)"),
        OPT_BOOL_('q', "quiet", &quiet, "print nothing on success"),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, usage_line, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs == 0) {
        gd_cli_say(ctx, "name the traces to remove (ids from 'godeye traces')");
        gd_print_usage(stderr, usage_line, opts);
        return GD_EXIT_USAGE;
    }
    int64_t *ids = calloc((size_t)nargs, sizeof *ids);
    if (!ids)
        return GD_EXIT_FAIL;
    for (int i = 0; i < nargs; i++) {
        char *end;
        errno = 0;
        long long v = strtoll(argv[i], &end, 10);
        if (*argv[i] == 0 || *end || v < 1 || errno) { /* out of range: never clamped */
            fputs("godeye rm: not a trace id: '", stderr);
            gd_fputs_escaped(argv[i], stderr);
            fputs("'\n", stderr);
            free(ids);
            return GD_EXIT_USAGE;
        }
        ids[i] = v;
    }
    gd_store *s;
    if ((rc = gd_cli_open_store(ctx, &s))) {
        free(ids);
        return rc;
    }
    gd_error err = {0};
    rc = gd_store_rm(s, ids, (size_t)nargs, 0, &err);
    if (rc) {
        gd_store_close(s);
        free(ids);
        return gd_cli_fail(ctx, &err);
    }
    /* the removal is committed: say so before the vacuum, which may fail
     * on its own (a full disk) and then leaves the database as it is now */
    if (!quiet)
        for (int i = 0; i < nargs; i++)
            printf("removed trace %lld\n", (long long)ids[i]);
    fflush(stdout);
    free(ids);
    /* the removal stands whatever the vacuum does: a failed compaction
     * (a full disk, a file-size limit) is one warning line, exit 0 (#53
     * item 8; SQLite rolls the VACUUM back, the database is as after the
     * removal) */
    if (vacuum && (rc = gd_store_vacuum(s, &err))) {
        gd_store_close(s);
        char what[600];
        snprintf(what, sizeof what, "%s", err.msg);
        snprintf(err.msg, sizeof err.msg, "warning: vacuum failed, the traces are removed: %.400s", what);
        gd_cli_fail(ctx, &err);
        return GD_EXIT_OK;
    }
    gd_store_close(s);
    return GD_EXIT_OK;
}
