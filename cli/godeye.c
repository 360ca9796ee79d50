/* godeye.c - the driver: global options, the command table, plugins. */
#include <errno.h>
#include "core/escape.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"

#define DB GD_CMD_STORE
#define WRITES GD_CMD_WRITES
#define CH GD_CMD_CLICKHOUSE
#define LIST GD_CMD_LISTING

/* name, function, what it does with the database and a fleet (GD_CMD_*),
 * the line of `godeye --help` */
static const gd_command commands[] = {
    {"capture", cmd_capture, 0, "collect logcat, frames, CPU and views from a phone over adb into a folder"},
    {"ingest", cmd_ingest, DB | WRITES, "read captures (files, folders, URLs, stdin) into the database"},
    {"traces", cmd_traces, DB | LIST, "list ingested traces"},
    {"top", cmd_top, DB | LIST, "what to fix first: ANRs, block groups, launches, frames, locks, ranked"},
    {"explain", cmd_explain, DB | LIST, "one item of top explained: figures, evidence, definitions, commands"},
    {"blocks", cmd_blocks, DB | CH | LIST, "main-thread blocks, re-cut at any threshold; --group for groups"},
    {"pages", cmd_pages, DB | LIST, "page load timelines: draw and load times per page instance"},
    {"overdraw", cmd_overdraw, DB | LIST, "exact overdraw areas and depth of each view dump"},
    {"images", cmd_images, DB | LIST, "bitmaps too large, too small or hidden, by wasted bytes"},
    {"methods", cmd_methods, DB | LIST, "slow methods, call trees and evil methods from method traces"},
    {"startup", cmd_startup, DB | LIST, "app launches (cold/warm/hot) against Android vitals' bars"},
    {"threads", cmd_threads, DB | LIST, "each thread's time Running, Runnable, Sleeping, in D (scheduling data)"},
    {"rm", cmd_rm, DB | WRITES, "remove traces from the database (one transaction)"},
    {"retrace", cmd_retrace, 0, "obfuscated stack traces back to original names (R8/ProGuard mapping)"},
    {"frames", cmd_frames, DB | LIST, "frame times per window: slow, frozen, percentiles, drop levels"},
    {"report", cmd_report, DB | LIST, "one self-contained HTML page (or Markdown/JSON summary) of the traces"},
    {"export", cmd_export, DB | LIST, "Chrome trace-event JSON or folded stacks for other viewers"},
    {"anr", cmd_anr, DB | LIST, "ANR dumps: main thread state, lock holder, deadlock cycles"},
    {"issues", cmd_issues, DB | LIST, "findings as the tools reported them (Matrix, GodEye, logcat, ANR)"},
    {"diff", cmd_diff, DB | CH | LIST, "compare two sets of traces: new, gone, regressed and improved groups"},
    {"check", cmd_check, DB | CH | LIST, "performance budgets for CI: exit 3 when a rule is broken"},
    {"sql", cmd_sql, DB, "run one read-only SQL statement"},
    {"mcp", cmd_mcp, 0, "a Model Context Protocol server over stdio: the commands as tools for agents"},
    {"push", cmd_push, DB | WRITES | CH, "send traces to a ClickHouse server"},
    {NULL, NULL, 0, NULL},
};
#undef DB
#undef WRITES
#undef CH
#undef LIST

static void usage(FILE *out)
{
    fprintf(out, "usage: godeye [--db PATH] [--tz ZONE] COMMAND [OPTIONS] [ARGS]\n"
                 "       godeye --version | --help\n\ncommands:\n");
    for (const gd_command *c = commands; c->name; c++)
        fprintf(out, "    %-10s %s\n", c->name, c->summary);
    fprintf(out, "\nAny 'godeye-NAME' program in godeye's exec directory or on PATH runs as\n"
                 "'godeye NAME'. The database is --db, else $GODEYE_DB, else ./godeye.db.\n"
                 "--tz UTC|+HH:MM shows wall-clock times in that zone (else $GODEYE_TZ).\n"
                 "'godeye COMMAND -h' shows a command's options; man godeye for more.\n");
}

/* Runs godeye-NAME from the exec directory or PATH; returns only on failure. */
static void run_plugin(const char *name, int argc, char **argv, const gd_ctx *ctx)
{
    char prog[256], path[PATH_MAX + 300];
    snprintf(prog, sizeof prog, "godeye-%s", name);
    if (ctx->db_path)
        setenv("GODEYE_DB", ctx->db_path, 1);
    if (ctx->tz_arg)
        setenv("GODEYE_TZ", ctx->tz_arg, 1);
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args)
        return;
    args[0] = prog;
    for (int i = 1; i < argc; i++)
        args[i] = argv[i];
    /* 1. beside the godeye binary; 2. the installed exec directory; 3. PATH */
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = 0;
            snprintf(path, sizeof path, "%s/%s", self, prog);
            if (access(path, X_OK) == 0)
                execv(path, args);
        }
    }
    snprintf(path, sizeof path, "%s/%s", GODEYE_EXEC_DIR, prog);
    if (access(path, X_OK) == 0)
        execv(path, args);
    execvp(prog, args);
    free(args);
}

static void not_a_command(const char *name)
{
    fputs("godeye: '", stderr);
    gd_fputs_escaped(name, stderr);
    fputs("' is not a godeye command. See 'godeye --help'.\n", stderr);
}

int main(int argc, char **argv)
{
    gd_ctx ctx = {.commands = commands, .db_path = NULL, .argv0 = argv[0], .tz_min = GD_TZ_NONE};
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--tz") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "godeye: option '--tz' needs a value\n");
                return GD_EXIT_USAGE;
            }
            ctx.tz_arg = argv[++i];
        } else if (strncmp(a, "--tz=", 5) == 0) {
            ctx.tz_arg = a + 5;
        } else if (strcmp(a, "--db") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "godeye: option '--db' needs a value\n");
                return GD_EXIT_USAGE;
            }
            ctx.db_path = argv[++i];
        } else if (strncmp(a, "--db=", 5) == 0) {
            ctx.db_path = a + 5;
        } else if (strcmp(a, "--version") == 0) {
            printf("godeye %s\n", GODEYE_VERSION);
            return GD_EXIT_OK;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return GD_EXIT_OK;
        } else if (a[0] == '-') {
            fputs("godeye: unknown option '", stderr);
            gd_fputs_escaped(a, stderr);
            fputs("'\n", stderr);
            usage(stderr);
            return GD_EXIT_USAGE;
        } else {
            break;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return GD_EXIT_USAGE;
    }
    const char *tz_from = "--tz";
    if (!ctx.tz_arg && getenv("GODEYE_TZ") && *getenv("GODEYE_TZ")) {
        ctx.tz_arg = getenv("GODEYE_TZ");
        tz_from = "GODEYE_TZ";
    }
    if (ctx.tz_arg && gd_tz_parse(ctx.tz_arg, &ctx.tz_min)) {
        fprintf(stderr, "godeye: %s '", tz_from);
        gd_fputs_escaped(ctx.tz_arg, stderr);
        fputs("' is not a zone (give UTC or +HH:MM)\n", stderr);
        return GD_EXIT_USAGE;
    }
    if (!ctx.db_path)
        ctx.db_path = getenv("GODEYE_DB");
    if (!ctx.db_path || !*ctx.db_path)
        ctx.db_path = "godeye.db";
    const char *name = argv[i];
    if (strcmp(name, "help") == 0) {
        /* 'godeye help CMD' is 'godeye CMD -h' */
        if (i + 1 < argc && argv[i + 1][0] != '-') {
            char help_opt[] = "-h";
            char *sub[3] = {argv[i + 1], help_opt, NULL};
            const gd_command *c = gd_cli_enter(&ctx, argv[i + 1]);
            if (c)
                return c->fn(2, sub, &ctx);
            run_plugin(argv[i + 1], 2, sub, &ctx);
            not_a_command(argv[i + 1]);
            return GD_EXIT_USAGE;
        }
        usage(stdout);
        return GD_EXIT_OK;
    }
    const gd_command *c = gd_cli_enter(&ctx, name);
    if (c)
        return c->fn(argc - i, argv + i, &ctx);
    run_plugin(name, argc - i, argv + i, &ctx);
    not_a_command(name);
    const char *best = NULL;
    size_t bd = 3;
    for (const gd_command *c = commands; c->name; c++) {
        size_t d = gd_edit_distance(name, c->name);
        if (d < bd || (strncmp(name, c->name, strlen(name)) == 0 && strlen(name) >= 2)) {
            bd = d < bd ? d : bd;
            best = c->name;
        }
    }
    if (best)
        fprintf(stderr, "\nThe most similar command is\n\t%s\n", best);
    return GD_EXIT_USAGE;
}
