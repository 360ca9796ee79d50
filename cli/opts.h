/* opts.h - one option table per command: it parses argv and prints -h. */
#ifndef GD_CLI_OPTS_H
#define GD_CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    OPT_END = 0,
    OPT_BOOL,        /* int *: set to 1                                    */
    OPT_INT,         /* long *                                             */
    OPT_DOUBLE,      /* double * (a number of ms, ratios...)               */
    OPT_STRING,      /* const char **                                      */
    OPT_INT_LIST,    /* gd_int_list *: repeatable                          */
    OPT_STRING_LIST, /* gd_str_list *: repeatable                          */
    OPT_CHOICE,      /* const char ** restricted to `choices`              */
    OPT_GROUP        /* a heading in -h output                             */
} gd_opt_type;

typedef struct gd_int_list {
    int64_t v[64];
    size_t n;
} gd_int_list;

typedef struct gd_str_list {
    const char *v[16];
    size_t n;
} gd_str_list;

typedef struct gd_option {
    gd_opt_type type;
    char short_name;
    const char *long_name;
    void *value;
    const char *argh;          /* argument name in -h, e.g. "MS"         */
    const char *help;
    const char *const *choices; /* OPT_CHOICE: NULL-terminated           */
} gd_option;

#define OPT_BOOL_(s, l, v, h) {OPT_BOOL, (s), (l), (v), NULL, (h), NULL}
#define OPT_INT_(s, l, v, a, h) {OPT_INT, (s), (l), (v), (a), (h), NULL}
#define OPT_DOUBLE_(s, l, v, a, h) {OPT_DOUBLE, (s), (l), (v), (a), (h), NULL}
#define OPT_STRING_(s, l, v, a, h) {OPT_STRING, (s), (l), (v), (a), (h), NULL}
#define OPT_INT_LIST_(s, l, v, a, h) {OPT_INT_LIST, (s), (l), (v), (a), (h), NULL}
#define OPT_STRING_LIST_(s, l, v, a, h) {OPT_STRING_LIST, (s), (l), (v), (a), (h), NULL}
#define OPT_CHOICE_(s, l, v, a, h, c) {OPT_CHOICE, (s), (l), (v), (a), (h), (c)}
#define OPT_END_() {OPT_END, 0, NULL, NULL, NULL, NULL, NULL}

extern const char *const gd_format_choices[];

/* Options every listing command takes: --format, --trace and --wide (which
 * sets the command's own `ctx->wide`: the macro is used where a command's
 * gd_ctx *ctx is in scope), and OPT_APP.  Declared here once: the command
 * runner (gd_cli_run, cli/common.h) adds both after a command's own
 * options; a command it does not run puts them in its own table. */
#define OPT_LISTING(fmt, traces)                                                              \
    OPT_CHOICE_(0, "format", (fmt), "FMT", "output: table, csv, json or jsonl", gd_format_choices), \
    OPT_INT_LIST_(0, "trace", (traces), "ID", "only this trace (repeatable)"),                 \
    OPT_BOOL_(0, "wide", &ctx->wide, "tables cut nothing (else they fit the terminal)")
/* --app PKG: only the rows of app PKG's processes (PKG and PKG:name). */
#define OPT_APP(app) OPT_STRING_(0, "app", (app), "PKG", "only app PKG's processes (PKG and PKG:name)")

/* Parses argv[1..] (argv[0] is the command name).  Non-option arguments
 * are moved to the front of argv; *nargs receives their count.  Returns 0
 * to go on, 1 when -h was printed (exit 0), 2 on a usage error (printed to
 * stderr as "godeye CMD: ..."). */
int gd_parse_options(int argc, char **argv, const gd_option *opts, const char *usage,
                     int *nargs);
/* Levenshtein distance of two short strings (99 when either is over 32
 * bytes): how near an unknown command or option is to a known one. */
size_t gd_edit_distance(const char *a, const char *b);
/* Prints the usage line and the option table. */
void gd_print_usage(FILE *out, const char *usage, const gd_option *opts);

#endif
