/* mcp_tools.c - `godeye mcp`'s tools (#49), made from the command table:
 * each command describes its option table and columns (gd_cli_describe),
 * so a new option is a new argument of its tool with no other edit. */
#define _GNU_SOURCE /* vasprintf */
#include "mcp.h"

#include <ctype.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Options a tool never takes: the server chooses the output, and a fleet
 * (a server and a password file) is no business of a read-only agent. */
static const char *const hidden_options[] = {"format", "wide", "clickhouse", "database", "user", "password-file", NULL};

int gd_mcp_tool_takes(const gd_mcp_tool *t, const gd_option *o)
{
    if (o->type == OPT_GROUP || o->type == OPT_END || !o->long_name)
        return 0;
    for (const char *const *h = hidden_options; *h; h++)
        if (strcmp(o->long_name, *h) == 0)
            return 0;
    /* --timeout of a fleet command is the ClickHouse request's (OPT_CLICKHOUSE) */
    if ((t->cmd->flags & GD_CMD_CLICKHOUSE) && strcmp(o->long_name, "timeout") == 0)
        return 0;
    for (const gd_option *p = t->desc.opts; p < o; p++)
        if (p->value && p->value == o->value)
            return 0; /* an alias of an earlier option (--top for --limit) */
    if (t->flag)
        return strcmp(o->long_name, t->flag) != 0;
    for (size_t i = 0; i < t->desc.nvariants; i++)
        if (t->desc.variants[i].tool && strcmp(o->long_name, t->desc.variants[i].flag) == 0)
            return 0; /* the variant's own tool */
    return 1;
}

/* The positional arguments and the required options of a usage line
 * ("godeye diff [OPTIONS] BASE HEAD", "godeye check --budget FILE ...");
 * required options are marked in *req (indexes into desc.opts). */
static void parse_usage(gd_mcp_tool *t, int *req)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", t->desc.usage ? t->desc.usage : "");
    char *save = NULL, *tok = strtok_r(buf, " ", &save);
    int skip = 2, bracket = 0, paren = 0; /* "godeye NAME" */
    for (; tok; tok = strtok_r(NULL, " ", &save)) {
        if (skip) {
            skip--;
            continue;
        }
        if (paren || tok[0] == '(') { /* "(--top N | --item SEL)": options, one of them */
            paren = tok[strlen(tok) - 1] != ')';
            continue;
        }
        if (bracket || strncmp(tok, "[-", 2) == 0 || strcmp(tok, "[OPTIONS]") == 0 || strchr(tok, '|')) {
            bracket = tok[strlen(tok) - 1] != ']';
            continue;
        }
        if (strncmp(tok, "--", 2) == 0) {
            for (size_t i = 0; i < t->desc.nopts; i++)
                if (t->desc.opts[i].long_name && strcmp(t->desc.opts[i].long_name, tok + 2) == 0)
                    req[i] = 1;
            tok = strtok_r(NULL, " ", &save); /* its value */
            if (!tok)
                break;
            continue;
        }
        if (t->npos >= sizeof t->pos / sizeof t->pos[0])
            continue;
        gd_mcp_positional *p = &t->pos[t->npos++];
        p->required = tok[0] != '[';
        size_t k = 0;
        for (const char *c = tok; *c && k + 1 < sizeof p->name; c++)
            if (isalnum((unsigned char)*c) || *c == '_')
                p->name[k++] = (char)tolower((unsigned char)*c);
        p->name[k] = 0;
        p->repeated = strstr(tok, "...") != NULL;
    }
}

static const char *json_format(const gd_cmd_desc *d)
{
    const char *found = NULL;
    for (size_t i = 0; i < d->nopts; i++) {
        const gd_option *o = &d->opts[i];
        if (o->type != OPT_CHOICE || !o->long_name || strcmp(o->long_name, "format") != 0)
            continue;
        for (const char *const *c = o->choices; *c; c++) {
            if (strcmp(*c, "jsonl") == 0)
                return "jsonl";
            if (strcmp(*c, "json") == 0)
                found = "json";
        }
    }
    return found;
}

/* Runs the command's function in describe mode, its output thrown away
 * and a database that cannot be opened: a command that does not know the
 * mode fails harmlessly instead of answering. */
static int describe(const gd_ctx *ctx, const gd_command *c, gd_cmd_desc *d)
{
    gd_ctx dc = *ctx;
    dc.describe = d;
    dc.db_path = "/dev/null/godeye-describe.db";
    dc.cmd = c->name;
    dc.flags = c->flags;
    char name[64];
    snprintf(name, sizeof name, "%s", c->name);
    char *argv[] = {name, NULL};
    fflush(stdout);
    fflush(stderr);
    int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
    if (out < 0 || err < 0 || null < 0)
        return -1;
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    c->fn(1, argv, &dc);
    fflush(stdout);
    fflush(stderr);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    close(out), close(err), close(null);
    return d->described ? 0 : 1;
}

static int add_tool(gd_mcp_tools *out, const gd_command *c, const gd_cmd_desc *d, const gd_cmd_variant *v)
{
    gd_mcp_tool *nv = realloc(out->v, (out->n + 1) * sizeof *nv);
    if (!nv)
        return -1;
    out->v = nv;
    gd_mcp_tool *t = &nv[out->n++];
    memset(t, 0, sizeof *t);
    t->cmd = c;
    t->desc = *d;
    t->flag = v ? v->flag : NULL;
    t->cols = v ? v->cols : d->cols;
    t->ncols = v ? v->ncols : d->ncols;
    t->format = json_format(d);
    int req[64];
    parse_usage(t, req);
    if (v)
        snprintf(t->name, sizeof t->name, "%s_%s", c->name, v->flag);
    else
        snprintf(t->name, sizeof t->name, "%s", c->name);
    return 0;
}

int gd_mcp_tools_build(const gd_ctx *ctx, gd_mcp_tools *out)
{
    out->v = NULL;
    out->n = 0;
    for (const gd_command *c = ctx->commands; c && c->name; c++) {
        if (!(c->flags & GD_CMD_STORE) || (c->flags & GD_CMD_WRITES))
            continue;
        gd_cmd_desc d;
        memset(&d, 0, sizeof d);
        int rc = describe(ctx, c, &d);
        if (rc < 0)
            return -1;
        if (rc || !json_format(&d))
            continue; /* not described, or no rows to hand over */
        if (add_tool(out, c, &d, NULL))
            return -1;
        for (size_t i = 0; i < d.nvariants; i++)
            if (d.variants[i].tool && add_tool(out, c, &d, &d.variants[i]))
                return -1;
    }
    return 0;
}

void gd_mcp_tools_free(gd_mcp_tools *t)
{
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

const gd_mcp_tool *gd_mcp_tool_find(const gd_mcp_tools *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->v[i].name, name) == 0)
            return &t->v[i];
    return NULL;
}

/* ---- schemas ---- */

static json_t *option_schema(const gd_option *o)
{
    json_t *s = json_object();
    switch (o->type) {
    case OPT_BOOL:
        json_object_set_new(s, "type", json_string("boolean"));
        break;
    case OPT_INT:
        json_object_set_new(s, "type", json_string("integer"));
        break;
    case OPT_DOUBLE:
        json_object_set_new(s, "type", json_string("number"));
        break;
    case OPT_INT_LIST:
    case OPT_STRING_LIST: {
        json_t *items = json_object();
        json_object_set_new(items, "type", json_string(o->type == OPT_INT_LIST ? "integer" : "string"));
        json_object_set_new(s, "type", json_string("array"));
        json_object_set_new(s, "items", items);
        json_object_set_new(s, "maxItems", json_integer(o->type == OPT_INT_LIST ? 64 : 16));
        break;
    }
    case OPT_CHOICE: {
        json_t *e = json_array();
        for (const char *const *c = o->choices; c && *c; c++)
            json_array_append_new(e, json_string(*c));
        json_object_set_new(s, "type", json_string("string"));
        json_object_set_new(s, "enum", e);
        break;
    }
    default:
        json_object_set_new(s, "type", json_string("string"));
        break;
    }
    char d[512];
    if (o->type != OPT_BOOL && o->argh)
        snprintf(d, sizeof d, "--%s %s: %s", o->long_name, o->argh, o->help ? o->help : "");
    else
        snprintf(d, sizeof d, "--%s: %s", o->long_name, o->help ? o->help : "");
    json_object_set_new(s, "description", json_string(d));
    return s;
}

static json_t *input_schema(const gd_mcp_tool *t)
{
    json_t *props = json_object(), *req = json_array();
    int required[64] = {0};
    gd_mcp_tool copy = *t;
    copy.npos = 0;
    parse_usage(&copy, required);
    for (size_t i = 0; i < t->desc.nopts; i++) {
        const gd_option *o = &t->desc.opts[i];
        if (!gd_mcp_tool_takes(t, o))
            continue;
        json_object_set_new(props, o->long_name, option_schema(o));
        if (required[i])
            json_array_append_new(req, json_string(o->long_name));
    }
    for (size_t i = 0; i < t->npos; i++) {
        const gd_mcp_positional *p = &t->pos[i];
        json_t *s = json_object();
        char d[160];
        snprintf(d, sizeof d, "the %s argument of 'godeye %s' (see godeye-%s(1))", p->name, t->cmd->name, t->cmd->name);
        if (p->repeated) {
            json_object_set_new(s, "type", json_string("array"));
            json_object_set_new(s, "items", json_pack("{s:s}", "type", "string"));
        } else {
            json_object_set_new(s, "type", json_string("string"));
        }
        json_object_set_new(s, "description", json_string(d));
        json_object_set_new(props, p->name, s);
        if (p->required)
            json_array_append_new(req, json_string(p->name));
    }
    json_t *schema = json_pack("{s:s, s:o, s:b}", "type", "object", "properties", props, "additionalProperties", 0);
    if (json_array_size(req))
        json_object_set_new(schema, "required", req);
    else
        json_decref(req);
    return schema;
}

/* A column's value in a row as JSON Schema types: numbers and booleans as
 * declared (or null); text may be any value (render.h: GD_COL_TEXT). */
static const char *column_type(gd_col_type type)
{
    switch (type) {
    case GD_COL_INT:
        return "integer";
    case GD_COL_MS:
    case GD_COL_TIME:
    case GD_COL_NUM:
    case GD_COL_BYTES:
        return "number";
    case GD_COL_BOOL:
        return "boolean";
    default:
        return NULL;
    }
}

static json_t *row_schema(const gd_mcp_tool *t)
{
    json_t *props = json_object();
    for (size_t i = 0; i < t->ncols; i++) {
        const gd_column *c = &t->cols[i];
        /* a column names a path into the row: its first field is the row's */
        char field[128];
        snprintf(field, sizeof field, "%s", c->path ? c->path : c->key);
        char *dot = strchr(field, '.');
        if (dot)
            *dot = 0;
        if (json_object_get(props, field))
            continue;
        json_t *s = json_object();
        const char *type = dot || c->text ? NULL : column_type(c->type);
        if (type)
            json_object_set_new(s, "type", json_pack("[s,s]", type, "null"));
        json_object_set_new(s, "description", json_string(c->header));
        json_object_set_new(props, field, s);
    }
    return json_pack("{s:s, s:o}", "type", "object", "properties", props);
}

static json_t *output_schema(const gd_mcp_tool *t)
{
    json_t *rows = json_pack("{s:s, s:o, s:s}", "type", "array", "items", row_schema(t), "description",
                             "the rows, as 'godeye --format json' gives them (the first ones, capped)");
    json_t *props = json_pack("{s:o, s:{s:s, s:i, s:s}, s:{s:s, s:i, s:s}}", "rows", rows, "total", "type", "integer",
                              "minimum", 0, "description", "every row of the answer", "more", "type", "integer",
                              "minimum", 0, "description", "rows not shown (the cap): narrow the call");
    return json_pack("{s:s, s:o, s:[s,s,s]}", "type", "object", "properties", props, "required", "rows", "total", "more");
}

json_t *gd_mcp_tool_def(const gd_mcp_tool *t)
{
    char title[96], desc[512];
    snprintf(title, sizeof title, "godeye %s%s%s", t->cmd->name, t->flag ? " --" : "", t->flag ? t->flag : "");
    snprintf(desc, sizeof desc, "%s%s%s%s. Runs '%s --format json' on the database; see godeye-%s(1).",
             t->cmd->summary, t->flag ? " (--" : "", t->flag ? t->flag : "", t->flag ? ")" : "", title, t->cmd->name);
    return json_pack("{s:s, s:s, s:s, s:o, s:o, s:{s:b, s:b, s:b}}", "name", t->name, "title", title, "description",
                     desc, "inputSchema", input_schema(t), "outputSchema", output_schema(t), "annotations",
                     "readOnlyHint", 1, "idempotentHint", 1, "openWorldHint", 0);
}

/* ---- a call's argv ---- */

typedef struct argv_b {
    char **v;
    size_t n, cap;
    int oom;
} argv_b;

static void push(argv_b *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void push(argv_b *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    if (b->n + 2 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 32;
        char **v = realloc(b->v, cap * sizeof *v);
        if (!v) {
            b->oom = 1;
            return;
        }
        b->v = v;
        b->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&b->v[b->n], fmt, ap) < 0)
        b->oom = 1;
    else
        b->v[++b->n] = NULL;
    va_end(ap);
}

void gd_mcp_argv_free(char **argv)
{
    for (char **p = argv; p && *p; p++)
        free(*p);
    free(argv);
}

/* --name=VALUE for one value of option o; 0, or -1 with msg */
static int push_value(argv_b *b, const gd_option *o, json_t *v, char *msg, size_t n)
{
    gd_opt_type type = o->type == OPT_INT_LIST ? OPT_INT : o->type == OPT_STRING_LIST ? OPT_STRING : o->type;
    if (type == OPT_INT && json_is_integer(v))
        push(b, "--%s=%" JSON_INTEGER_FORMAT, o->long_name, json_integer_value(v));
    else if (type == OPT_DOUBLE && json_is_number(v))
        push(b, "--%s=%.17g", o->long_name, json_number_value(v));
    else if ((type == OPT_STRING || type == OPT_CHOICE) && json_is_string(v))
        push(b, "--%s=%s", o->long_name, json_string_value(v));
    else {
        static const char *const want[] = {[OPT_INT] = "an integer", [OPT_DOUBLE] = "a number",
                                           [OPT_STRING] = "a string", [OPT_CHOICE] = "a string"};
        snprintf(msg, n, "argument '%s' wants %s", o->long_name, type < 8 && want[type] ? want[type] : "a value");
        return -1;
    }
    return 0;
}

static int push_option(argv_b *b, const gd_option *o, json_t *v, char *msg, size_t n)
{
    if (o->type == OPT_BOOL) {
        if (!json_is_boolean(v)) {
            snprintf(msg, n, "argument '%s' wants true or false", o->long_name);
            return -1;
        }
        if (json_is_true(v))
            push(b, "--%s", o->long_name);
        return 0;
    }
    if (o->type != OPT_INT_LIST && o->type != OPT_STRING_LIST)
        return push_value(b, o, v, msg, n);
    if (!json_is_array(v)) {
        snprintf(msg, n, "argument '%s' wants an array", o->long_name);
        return -1;
    }
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e)
        if (push_value(b, o, e, msg, n))
            return -1;
    return 0;
}

static const gd_option *tool_option(const gd_mcp_tool *t, const char *name)
{
    for (size_t i = 0; i < t->desc.nopts; i++)
        if (gd_mcp_tool_takes(t, &t->desc.opts[i]) && strcmp(t->desc.opts[i].long_name, name) == 0)
            return &t->desc.opts[i];
    return NULL;
}

static const gd_mcp_positional *tool_positional(const gd_mcp_tool *t, const char *name)
{
    for (size_t i = 0; i < t->npos; i++)
        if (strcmp(t->pos[i].name, name) == 0)
            return &t->pos[i];
    return NULL;
}

static int push_positionals(argv_b *b, const gd_mcp_tool *t, json_t *args, char *msg, size_t n)
{
    int dashes = 0;
    for (size_t i = 0; i < t->npos; i++) {
        json_t *v = json_object_get(args, t->pos[i].name), *e;
        size_t k;
        if (v && !dashes++)
            push(b, "--"); /* a value may start with '-' */
        if (!v && t->pos[i].required) {
            snprintf(msg, n, "argument '%s' is required", t->pos[i].name);
            return -1;
        }
        if (v && t->pos[i].repeated && json_is_array(v)) {
            json_array_foreach(v, k, e) {
                if (!json_is_string(e)) {
                    snprintf(msg, n, "argument '%s' wants strings", t->pos[i].name);
                    return -1;
                }
                push(b, "%s", json_string_value(e));
            }
        } else if (v && json_is_string(v)) {
            push(b, "%s", json_string_value(v));
        } else if (v) {
            snprintf(msg, n, "argument '%s' wants a string", t->pos[i].name);
            return -1;
        }
    }
    return 0;
}

char **gd_mcp_tool_argv(const gd_ctx *ctx, const gd_mcp_tool *t, json_t *args, char *msg, size_t n)
{
    argv_b b = {0};
    push(&b, "godeye");
    push(&b, "--db=%s", ctx->db_path);
    if (ctx->tz_arg)
        push(&b, "--tz=%s", ctx->tz_arg);
    push(&b, "%s", t->cmd->name);
    if (t->flag)
        push(&b, "--%s", t->flag);
    const char *k;
    json_t *v;
    int bad = 0;
    json_object_foreach(args, k, v) {
        const gd_option *o = tool_option(t, k);
        if (!o && !tool_positional(t, k)) {
            snprintf(msg, n, "unknown argument '%s' (tools/list gives this tool's)", k);
            bad = 1;
            break;
        }
        if (o && push_option(&b, o, v, msg, n)) {
            bad = 1;
            break;
        }
    }
    if (!bad) {
        push(&b, "--format=%s", t->format);
        bad = push_positionals(&b, t, args, msg, n);
    }
    if (b.oom && !bad)
        snprintf(msg, n, GD_ERR_NOMEM_MSG);
    if (bad || b.oom) {
        gd_mcp_argv_free(b.v);
        return NULL;
    }
    return b.v;
}

const char *gd_mcp_tool_narrowing(const gd_mcp_tool *t, char *buf, size_t n)
{
    static const char *const narrowing[] = {"limit", "trace", "app", "kind", "threshold", "min-ms", "window",
                                            "tid", "tool", "id", NULL};
    const char *found[8];
    size_t k = 0;
    for (const char *const *p = narrowing; *p && k < 8; p++)
        if (tool_option(t, *p))
            found[k++] = *p;
    if (tool_positional(t, "query") && k == 0)
        found[k++] = "a LIMIT or WHERE in query";
    buf[0] = 0;
    size_t used = 0;
    for (size_t i = 0; i < k && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i == 0 ? "" : i + 1 == k ? " or " : ", ", found[i]);
    if (!k)
        snprintf(buf, n, "fewer arguments");
    return buf;
}
