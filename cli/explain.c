/* explain.c - `godeye explain`: one item of `godeye top`, its figures,
 * evidence, definitions and the commands that show more (query/explain.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "core/escape.h"
#include "query/explain.h"
#include "query/top.h"

/* one fact a row (query/explain.h); md: a pipe table, cells escaped */
static const gd_column columns[] = {
    {"section", "SECTION", GD_COL_TEXT, .flex = 0, .hidden = 0},
    {"name", "NAME", GD_COL_TEXT, .flex = 0, .hidden = 0},
    {"value", "VALUE", GD_COL_TEXT, .flex = 1, .hidden = 0},
    {"source", "SOURCE", GD_COL_TEXT, .flex = 0, .hidden = 0},
};

typedef struct explain_opts {
    long top;
    const char *item;
    int all_processes;
    gd_explain_query q;
    char last[16]; /* table: the section whose heading was printed ("": none yet) */
} explain_opts;

static const char *heading(const char *section)
{
    static const char *const names[][2] = {{"item", "What it is"}, {"figure", "Figures"}, {"evidence", "Evidence"},
                                           {"definition", "Definitions"}, {"more", "Commands that show more"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(section, names[i][0]) == 0)
            return names[i][1];
    return section;
}

/* Table mode (a terminal): the facts as a short document, a heading per
 * section, every text escaped. */
static int print_fact(FILE *out, const gd_renderer *r, json_t *row, void *ctx)
{
    explain_opts *o = ctx;
    const char *sec = json_string_value(json_object_get(row, "section"));
    const char *name = json_string_value(json_object_get(row, "name"));
    const char *src = json_string_value(json_object_get(row, "source"));
    json_t *v = json_object_get(row, "value");
    (void)r;
    if (!sec || !name)
        return 0;
    if (strcmp(o->last, sec) != 0)
        fprintf(out, "%s%s\n", o->last[0] ? "\n" : "", heading(sec));
    snprintf(o->last, sizeof o->last, "%s", sec);
    char *text = json_is_string(v) ? NULL : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(16));
    fputs(strcmp(sec, "more") == 0 ? "  $ " : "  ", out);
    if (strcmp(sec, "more") == 0) {
        gd_fputs_escaped(json_string_value(v), out);
        fputs("   # ", out);
        gd_fputs_escaped(name, out);
    } else {
        gd_fputs_escaped(name, out);
        fputs(": ", out);
        gd_fputs_escaped(text ? text : json_string_value(v), out);
        if (src) {
            fputs(strcmp(sec, "definition") == 0 ? "  (" : "  [", out);
            gd_fputs_escaped(src, out);
            fputs(strcmp(sec, "definition") == 0 ? ")" : "]", out);
        }
    }
    fputc('\n', out);
    free(text);
    return 0;
}

static int explain_check(gd_ctx *ctx, gd_cmd_spec *spec, gd_listing *l)
{
    explain_opts *o = spec->arg;
    (void)l;
    if (!o->item == !o->top) {
        gd_cli_say(ctx, "wants one of --top N or --item SEL");
        return GD_EXIT_USAGE;
    }
    if (o->top && (o->top < 1 || o->top > GD_TOP_MAX)) {
        gd_cli_say(ctx, "--top wants 1 to %d, not %ld", GD_TOP_MAX, o->top);
        return GD_EXIT_USAGE;
    }
    gd_error err = {0};
    if (o->item && gd_explain_parse(o->item, &o->q, &err)) {
        gd_cli_say(ctx, "%s, not '%.200s'", err.msg, o->item);
        return GD_EXIT_USAGE;
    }
    return 0;
}

static int explain_query(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err)
{
    explain_opts *o = arg;
    o->q.filter = l->filter;
    o->q.focus = !o->all_processes;
    o->q.top = o->top;
    gd_render_lines(r, print_fact, o);
    return gd_query_explain(s, &o->q, gd_cli_render_cb, r, err);
}

int cmd_explain(int argc, char **argv, gd_ctx *ctx)
{
    explain_opts o = {0};
    static const char *const formats[] = {"table", "md", "json", "jsonl", "csv", NULL};
    const gd_option format = OPT_CHOICE_(0, "format", NULL, "FMT",
                                         "output: table (a short document), md (a Markdown table), json, jsonl or csv",
                                         formats);
    const gd_option opts[] = {
        OPT_INT_(0, "top", &o.top, "N", "the Nth entry of 'godeye top' (the same --trace, --app)"),
        OPT_STRING_(0, "item", &o.item, "SEL", "anr:ID (an ANR dump, as 'anr --id') or group:NAME (a block group)"),
        OPT_BOOL_(0, "all-processes", &o.all_processes, "rank as 'godeye top --all-processes' does"),
        OPT_END_(),
    };
    gd_cmd_spec spec = {.usage = "godeye explain (--top N | --item SEL) [OPTIONS]",
                        .opts = opts,
                        .arg = &o,
                        .check = explain_check,
                        .cols = columns,
                        .ncols = sizeof columns / sizeof columns[0],
                        .query = explain_query,
                        .data_name = "nothing to explain",
                        .format = &format};
    return gd_cli_run(ctx, argc, argv, &spec);
}
