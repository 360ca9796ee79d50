/* mcp.c - `godeye mcp` (#49): a Model Context Protocol server over stdio
 * (JSON-RPC 2.0, one message a line).  Tools come from the command table
 * (mcp_tools.c), each call runs as a child godeye (mcp_exec.c); stdout
 * carries protocol messages only, and no input ends the server but EOF. */
#define _GNU_SOURCE /* open_memstream */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtins.h"
#include "mcp.h"

#define LINE_MAX_BYTES (1u << 20) /* a message longer than this is refused */

/* The revisions spoken, newest first: an initialize asking for one of
 * them gets it, any other the newest (the specification's lifecycle). */
static const char *const versions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", NULL};

enum {
    RPC_PARSE = -32700,
    RPC_REQUEST = -32600,
    RPC_METHOD = -32601,
    RPC_PARAMS = -32602,
    RPC_INTERNAL = -32603,
    RPC_NO_RESOURCE = -32002
};

typedef struct mcp_server {
    gd_ctx *ctx;
    gd_mcp_tools tools;
    char self[PATH_MAX];
    gd_mcp_limits lim;
    char ingest_root[PATH_MAX]; /* --allow-ingest, its real path; "" without */
} mcp_server;

/* A request's answer: a result, or a JSON-RPC error. */
typedef struct reply {
    json_t *result;
    int code;
    char msg[512];
} reply;

static void reply_error(reply *r, int code, const char *fmt, const char *arg)
{
    r->code = code;
    snprintf(r->msg, sizeof r->msg, fmt, arg ? arg : "");
}

static void send_msg(json_t *m)
{
    char *s = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    if (!s)
        return;
    fputs(s, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    free(s);
}

static void send_reply(json_t *id, const reply *r)
{
    json_t *m = json_pack("{s:s, s:O}", "jsonrpc", "2.0", "id", id ? id : json_null());
    if (r->result)
        json_object_set(m, "result", r->result);
    else
        json_object_set_new(m, "error", json_pack("{s:i, s:s}", "code", r->code, "message", r->msg));
    send_msg(m);
}

/* ---- tool results ---- */

static json_t *text_content(const char *text)
{
    return json_pack("[{s:s, s:s}]", "type", "text", "text", text);
}

static json_t *tool_error(const char *msg)
{
    return json_pack("{s:o, s:b}", "content", text_content(msg), "isError", 1);
}

/* The columns the call's rows have: those of a flag the arguments set
 * (`anr --group`), else the tool's. */
static const gd_column *call_columns(const gd_mcp_tool *t, json_t *args, size_t *n)
{
    for (size_t i = 0; i < t->desc.nvariants; i++) {
        const gd_cmd_variant *v = &t->desc.variants[i];
        if (!v->tool && json_is_true(json_object_get(args, v->flag))) {
            *n = v->ncols;
            return v->cols;
        }
    }
    *n = t->ncols;
    return t->cols;
}

/* The shown columns the first row holds: a table of those, else NULL
 * (fewer than half of them: the rows are of another shape). */
static char *table_text(const gd_mcp_tool *t, json_t *args, json_t *rows)
{
    json_t *first = json_array_get(rows, 0);
    gd_column sel[64];
    size_t n = 0, shown = 0, ncols;
    const gd_column *cols = call_columns(t, args, &ncols);
    char buf[256], field[128];
    for (size_t i = 0; first && i < ncols && n < 64; i++) {
        const gd_column *c = &cols[i];
        snprintf(field, sizeof field, "%s", c->path ? c->path : c->key);
        field[strcspn(field, ".")] = 0;
        shown += !c->hidden;
        if (!c->hidden && (c->text ? c->text(first, buf, sizeof buf) != NULL : json_object_get(first, field) != NULL))
            sel[n++] = *c;
    }
    if (n < 2 || n * 2 < shown)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    gd_renderer *r = gd_render_new(f, GD_OUT_TABLE, sel, n, 160);
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
        if (r && gd_render_row(r, row))
            break;
    if (r)
        gd_render_end(r);
    fclose(f);
    return text;
}

/* The rows as text: the table, else one JSON object a line. */
static void rows_text(FILE *f, const gd_mcp_tool *t, json_t *args, json_t *rows)
{
    char *table = table_text(t, args, rows);
    if (table) {
        fputs(table, f);
        free(table);
        return;
    }
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        char *s = json_dumps(row, JSON_COMPACT);
        if (s)
            fprintf(f, "%s\n", s);
        free(s);
    }
}

/* The command line the call ran, without --db: what a person would type. */
static void command_line(FILE *f, char **argv)
{
    fputs("$ godeye", f);
    for (char **p = argv + 1; *p; p++)
        if (strncmp(*p, "--db=", 5) != 0)
            fprintf(f, " %s", *p);
    fputc('\n', f);
}

static json_t *rows_result(const gd_mcp_tool *t, json_t *args, char **argv, const gd_mcp_answer *a)
{
    size_t kept = json_array_size(a->rows), more = a->total - kept;
    char *text = NULL, narrow[160];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return tool_error(GD_ERR_NOMEM_MSG);
    command_line(f, argv);
    fprintf(f, "%zu row%s", a->total, a->total == 1 ? "" : "s");
    if (more)
        fprintf(f, "; %zu more row%s not shown: narrow with %s", more, more == 1 ? "" : "s",
                gd_mcp_tool_narrowing(t, narrow, sizeof narrow));
    fputc('\n', f);
    if (a->err[0])
        fputs(a->err, f); /* the empty answer's reason, check's broken rules */
    rows_text(f, t, args, a->rows);
    fclose(f);
    json_t *sc = json_pack("{s:O, s:I, s:I}", "rows", a->rows, "total", (json_int_t)a->total, "more", (json_int_t)more);
    json_t *res = json_pack("{s:o, s:o, s:b}", "content", text_content(text ? text : ""), "structuredContent", sc,
                            "isError", 0);
    free(text);
    return res;
}

/* godeye's own message(s), else what became of the child */
static json_t *failed_result(const gd_mcp_tool *t, const gd_mcp_answer *a, const char *name, double timeout_s)
{
    char msg[4400], narrow[160];
    size_t n = strlen(a->err);
    while (n && (a->err[n - 1] == '\n' || a->err[n - 1] == ' '))
        n--;
    if (a->timed_out)
        snprintf(msg, sizeof msg, "godeye %s: stopped after %g s (godeye mcp --timeout): narrow with %s", name,
                 timeout_s, t ? gd_mcp_tool_narrowing(t, narrow, sizeof narrow) : "fewer files");
    else if (n)
        snprintf(msg, sizeof msg, "%.*s", (int)n, a->err);
    else if (a->status < 0)
        snprintf(msg, sizeof msg, "godeye %s: the command died (a signal) without a message", name);
    else
        snprintf(msg, sizeof msg, "godeye %s: exit status %d without a message", name, a->status);
    return tool_error(msg);
}

static json_t *call_tool(mcp_server *S, const gd_mcp_tool *t, json_t *args)
{
    char msg[512];
    char **argv = gd_mcp_tool_argv(S->ctx, t, args, msg, sizeof msg);
    if (!argv) {
        char line[600];
        snprintf(line, sizeof line, "godeye %s: %s", t->name, msg);
        return tool_error(line);
    }
    gd_mcp_answer a;
    json_t *res;
    if (gd_mcp_exec(S->self, argv, t->format, &S->lim, &a))
        res = tool_error(a.err);
    else if (a.timed_out || (a.status != GD_EXIT_OK && a.status != GD_EXIT_BROKEN))
        res = failed_result(t, &a, t->cmd->name, S->lim.timeout_s);
    else
        res = rows_result(t, args, argv, &a);
    gd_mcp_answer_free(&a);
    gd_mcp_argv_free(argv);
    return res;
}

/* ---- ingest (--allow-ingest DIR) ---- */

static json_t *ingest_def(const mcp_server *S)
{
    char desc[PATH_MAX + 200];
    snprintf(desc, sizeof desc, "read capture files or folders under %s into the database (godeye ingest; one"
             " transaction per file)", S->ingest_root);
    return json_pack("{s:s, s:s, s:s, s:{s:s, s:{s:{s:s, s:{s:s}, s:i, s:i, s:s}}, s:[s], s:b}, s:{s:b, s:b, s:b, s:b}}",
                     "name", "ingest", "title", "godeye ingest", "description", desc, "inputSchema", "type", "object",
                     "properties", "paths", "type", "array", "items", "type", "string", "minItems", 1, "maxItems", 64,
                     "description", "files or folders under the allowed folder (relative paths start there)",
                     "required", "paths", "additionalProperties", 0, "annotations", "readOnlyHint", 0,
                     "destructiveHint", 0, "idempotentHint", 1, "openWorldHint", 0);
}

/* The real path of p when it lies under the allowed folder, else NULL with msg. */
static char *allowed_path(const mcp_server *S, const char *p, char *msg, size_t n)
{
    char joined[PATH_MAX * 2];
    snprintf(joined, sizeof joined, "%s%s%s", p[0] == '/' ? "" : S->ingest_root, p[0] == '/' ? "" : "/", p);
    char *real = realpath(joined, NULL);
    size_t rl = strlen(S->ingest_root);
    if (!real) {
        snprintf(msg, n, "godeye ingest: cannot read '%s'", p);
        return NULL;
    }
    if (strcmp(S->ingest_root, "/") != 0 && strcmp(real, S->ingest_root) != 0 &&
        (strncmp(real, S->ingest_root, rl) != 0 || real[rl] != '/')) {
        snprintf(msg, n, "godeye ingest: '%s' is not under '%s' (godeye mcp --allow-ingest)", p, S->ingest_root);
        free(real);
        return NULL;
    }
    return real;
}

static json_t *call_ingest(mcp_server *S, json_t *args)
{
    json_t *paths = json_object_get(args, "paths"), *p;
    char msg[PATH_MAX * 2 + 100];
    if (json_object_size(args) != 1 || !json_is_array(paths) || !json_array_size(paths) || json_array_size(paths) > 64)
        return tool_error("godeye ingest: give 'paths', an array of 1 to 64 files or folders");
    char **argv = calloc(json_array_size(paths) + 8, sizeof *argv);
    size_t n = 0, i;
    json_t *res = NULL;
    argv[n++] = strdup("godeye");
    if (asprintf(&argv[n], "--db=%s", S->ctx->db_path) >= 0)
        n++;
    argv[n++] = strdup("ingest");
    argv[n++] = strdup("--");
    json_array_foreach(paths, i, p) {
        if (!json_is_string(p)) {
            res = tool_error("godeye ingest: 'paths' wants strings");
            break;
        }
        if (!(argv[n] = allowed_path(S, json_string_value(p), msg, sizeof msg))) {
            res = tool_error(msg);
            break;
        }
        n++;
    }
    if (!res) {
        gd_mcp_limits lim = S->lim;
        lim.timeout_s = lim.timeout_s < 600 ? 600 : lim.timeout_s;
        gd_mcp_answer a;
        if (gd_mcp_exec(S->self, argv, NULL, &lim, &a))
            res = tool_error(a.err);
        else if (a.timed_out || (a.status != GD_EXIT_OK && a.status != GD_EXIT_SOME))
            res = failed_result(NULL, &a, "ingest", lim.timeout_s);
        else {
            snprintf(msg, sizeof msg, "%s%s", a.out ? a.out : "", a.err);
            res = json_pack("{s:o, s:b}", "content", text_content(msg), "isError", 0);
        }
        gd_mcp_answer_free(&a);
    }
    gd_mcp_argv_free(argv);
    return res;
}

/* ---- resources: godeye://trace/N ---- */

/* Runs godeye with the arguments given (NULL ended) on the database, rows mode. */
static int run_rows(mcp_server *S, gd_mcp_limits *lim, gd_mcp_answer *a, const char *cmd, const char *a1,
                    const char *a2)
{
    char db[PATH_MAX + 8];
    snprintf(db, sizeof db, "--db=%s", S->ctx->db_path);
    char *argv[] = {"godeye", db, (char *)cmd, "--format=jsonl", (char *)a1, (char *)a2, NULL};
    return gd_mcp_exec(S->self, argv, "jsonl", lim, a) || a->timed_out || a->status != GD_EXIT_OK;
}

static void resources_list(mcp_server *S, json_t *params, reply *r)
{
    json_t *cur = json_object_get(params, "cursor");
    char *end = NULL;
    long off = json_is_string(cur) ? strtol(json_string_value(cur), &end, 10) : 0;
    if (cur && (!json_is_string(cur) || *end || off < 0))
        return reply_error(r, RPC_PARAMS, "invalid cursor", NULL);
    gd_mcp_limits lim = {100, 1u << 20, (size_t)off, S->lim.timeout_s};
    gd_mcp_answer a;
    if (run_rows(S, &lim, &a, "traces", NULL, NULL)) {
        reply_error(r, RPC_INTERNAL, "godeye traces failed: %.400s", a.err);
        gd_mcp_answer_free(&a);
        return;
    }
    json_t *list = json_array(), *row;
    size_t i;
    json_array_foreach(a.rows, i, row) {
        json_int_t id = json_integer_value(json_object_get(row, "trace"));
        char uri[64], name[32], desc[1024];
        snprintf(uri, sizeof uri, "godeye://trace/%" JSON_INTEGER_FORMAT, id);
        snprintf(name, sizeof name, "trace %" JSON_INTEGER_FORMAT, id);
        const char *app = json_string_value(json_object_get(row, "app"));
        snprintf(desc, sizeof desc, "%s from %s (%s)%s%s", json_string_value(json_object_get(row, "format")),
                 json_string_value(json_object_get(row, "source")), app ? app : "no app named",
                 json_is_string(json_object_get(row, "device")) ? " on " : "",
                 json_is_string(json_object_get(row, "device")) ? json_string_value(json_object_get(row, "device")) : "");
        json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s}", "uri", uri, "name", name, "description", desc,
                                              "mimeType", "application/json"));
    }
    r->result = json_pack("{s:o}", "resources", list);
    if ((size_t)off + json_array_size(a.rows) < a.total && json_array_size(a.rows)) {
        char next[32];
        snprintf(next, sizeof next, "%zu", (size_t)off + json_array_size(a.rows));
        json_object_set_new(r->result, "nextCursor", json_string(next));
    }
    gd_mcp_answer_free(&a);
}

static void resources_read(mcp_server *S, json_t *params, reply *r)
{
    const char *uri = json_string_value(json_object_get(params, "uri"));
    long long id;
    int used = 0;
    if (!uri)
        return reply_error(r, RPC_PARAMS, "resources/read wants a 'uri'", NULL);
    if (sscanf(uri, "godeye://trace/%lld%n", &id, &used) != 1 || uri[used] || id < 1)
        return reply_error(r, RPC_NO_RESOURCE, "no resource '%s' (godeye://trace/N)", uri);
    char tr[48];
    snprintf(tr, sizeof tr, "--trace=%lld", id);
    gd_mcp_limits lim = {1, 1u << 20, 0, S->lim.timeout_s}, tlim = {5, 1u << 18, 0, S->lim.timeout_s};
    gd_mcp_answer a, top;
    int bad = run_rows(S, &lim, &a, "traces", tr, NULL);
    if (bad || !json_array_size(a.rows)) {
        reply_error(r, RPC_NO_RESOURCE, "no resource '%s'", uri);
        gd_mcp_answer_free(&a);
        return;
    }
    run_rows(S, &tlim, &top, "top", tr, "--limit=5");
    json_t *doc = json_pack("{s:O, s:O}", "trace", json_array_get(a.rows, 0), "top", top.rows);
    char *text = json_dumps(doc, JSON_INDENT(1));
    r->result = json_pack("{s:[{s:s, s:s, s:s}]}", "contents", "uri", uri, "mimeType", "application/json", "text",
                          text ? text : "{}");
    free(text);
    json_decref(doc);
    gd_mcp_answer_free(&a);
    gd_mcp_answer_free(&top);
}

/* ---- methods ---- */

static void initialize(mcp_server *S, json_t *params, reply *r)
{
    const char *want = json_string_value(json_object_get(params, "protocolVersion"));
    if (!want)
        return reply_error(r, RPC_PARAMS, "initialize wants a 'protocolVersion'", NULL);
    const char *v = versions[0];
    for (const char *const *p = versions; *p; p++)
        if (strcmp(*p, want) == 0)
            v = *p;
    r->result = json_pack("{s:s, s:{s:{s:b}, s:{s:b, s:b}}, s:{s:s, s:s, s:s}, s:s}", "protocolVersion", v,
                          "capabilities", "tools", "listChanged", 0, "resources", "subscribe", 0, "listChanged", 0,
                          "serverInfo", "name", "godeye", "title", "godeye", "version", GODEYE_VERSION, "instructions",
                          "godeye's database of Android performance captures, read-only. Start with the tool 'top'"
                          " (what to fix first, ranked); its MORE column names the command that shows more. Every"
                          " answer is capped: narrow with trace, app or limit. Resources godeye://trace/N summarize"
                          " each trace. Definitions: docs/agents.md and the man pages godeye-CMD(1).");
    (void)S;
}

static void tools_list(mcp_server *S, reply *r)
{
    json_t *list = json_array();
    for (size_t i = 0; i < S->tools.n; i++)
        json_array_append_new(list, gd_mcp_tool_def(&S->tools.v[i]));
    if (S->ingest_root[0])
        json_array_append_new(list, ingest_def(S));
    r->result = json_pack("{s:o}", "tools", list);
}

static void tools_call(mcp_server *S, json_t *params, reply *r)
{
    const char *name = json_string_value(json_object_get(params, "name"));
    json_t *args = json_object_get(params, "arguments");
    if (!name)
        return reply_error(r, RPC_PARAMS, "tools/call wants a 'name'", NULL);
    if (args && !json_is_object(args))
        return reply_error(r, RPC_PARAMS, "tools/call: 'arguments' must be an object", NULL);
    json_t *empty = json_object();
    const gd_mcp_tool *t = gd_mcp_tool_find(&S->tools, name);
    if (t)
        r->result = call_tool(S, t, args ? args : empty);
    else if (S->ingest_root[0] && strcmp(name, "ingest") == 0)
        r->result = call_ingest(S, args ? args : empty);
    else
        reply_error(r, RPC_PARAMS, "unknown tool '%s' (tools/list names them)", name);
    json_decref(empty);
}

static void dispatch(mcp_server *S, const char *method, json_t *params, reply *r)
{
    if (strcmp(method, "initialize") == 0)
        initialize(S, params, r);
    else if (strcmp(method, "ping") == 0)
        r->result = json_object();
    else if (strcmp(method, "tools/list") == 0)
        tools_list(S, r);
    else if (strcmp(method, "tools/call") == 0)
        tools_call(S, params, r);
    else if (strcmp(method, "resources/list") == 0)
        resources_list(S, params, r);
    else if (strcmp(method, "resources/read") == 0)
        resources_read(S, params, r);
    else if (strcmp(method, "resources/templates/list") == 0)
        r->result = json_pack("{s:[{s:s, s:s, s:s, s:s}]}", "resourceTemplates", "uriTemplate", "godeye://trace/{id}",
                              "name", "trace", "description", "a trace's row (godeye traces) and its top 5",
                              "mimeType", "application/json");
    else
        reply_error(r, RPC_METHOD, "method '%s' not found", method);
}

/* A message's shape: 0 a request to dispatch, 1 an error set in r, -1
 * nothing to answer (a notification, a response to nothing we asked). */
static int check_message(json_t *m, reply *r)
{
    json_t *id = json_object_get(m, "id"), *method = json_object_get(m, "method");
    json_t *params = json_object_get(m, "params"), *v = json_object_get(m, "jsonrpc");
    if (!json_is_object(m))
        reply_error(r, RPC_REQUEST, json_is_array(m) ? "invalid request: batches are not supported"
                                                     : "invalid request: not an object", NULL);
    else if (!json_is_string(v) || strcmp(json_string_value(v), "2.0") != 0)
        reply_error(r, RPC_REQUEST, "invalid request: \"jsonrpc\" must be \"2.0\"", NULL);
    else if (id && !json_is_string(id) && !json_is_integer(id))
        reply_error(r, RPC_REQUEST, "invalid request: \"id\" must be a string or an integer", NULL);
    else if (!method && (json_object_get(m, "result") || json_object_get(m, "error")))
        return -1;
    else if (!json_is_string(method))
        reply_error(r, RPC_REQUEST, "invalid request: \"method\" must be a string", NULL);
    else if (params && !json_is_object(params))
        reply_error(r, RPC_PARAMS, "invalid params: \"params\" must be an object", NULL);
    else
        return id ? 0 : -1;
    return 1;
}

/* One line: a request answered, a notification or a client's response
 * passed over, anything else answered with a JSON-RPC error. */
static void handle(mcp_server *S, const char *line, size_t len)
{
    json_error_t jerr;
    reply r = {0};
    json_t *m = json_loadb(line, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!m) {
        reply_error(&r, RPC_PARSE, "parse error: %s", jerr.text);
        return send_reply(NULL, &r);
    }
    json_t *id = json_object_get(m, "id"), *params = json_object_get(m, "params");
    int rc = check_message(m, &r);
    if (rc == 0) {
        json_t *none = json_object();
        dispatch(S, json_string_value(json_object_get(m, "method")), params ? params : none, &r);
        json_decref(none);
    }
    if (rc >= 0) /* an id that is no id is answered with null */
        send_reply(json_is_string(id) || json_is_integer(id) ? id : NULL, &r);
    json_decref(r.result);
    json_decref(m);
}

/* Reads one line into buf (cap bytes); *over when it was longer (the rest
 * read and dropped).  -1 at EOF with nothing read. */
static int read_line(FILE *in, char *buf, size_t cap, size_t *len, int *over)
{
    int c;
    size_t n = 0;
    *over = 0;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n < cap)
            buf[n++] = (char)c;
        else
            *over = 1;
    }
    *len = n;
    return c == EOF && n == 0 && !*over ? -1 : 0;
}

static int serve(mcp_server *S)
{
    char *buf = malloc(LINE_MAX_BYTES);
    if (!buf)
        return GD_EXIT_FAIL;
    size_t len;
    int over;
    while (read_line(stdin, buf, LINE_MAX_BYTES, &len, &over) == 0) {
        while (len && (buf[len - 1] == '\r' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
            len--;
        if (over) {
            reply r = {0};
            reply_error(&r, RPC_PARSE, "parse error: a message over 1 MB", NULL);
            send_reply(NULL, &r);
        } else if (len) {
            handle(S, buf, len);
        }
    }
    free(buf);
    return GD_EXIT_OK;
}

int cmd_mcp(int argc, char **argv, gd_ctx *ctx)
{
    const char *db = NULL, *allow = NULL;
    long max_rows = 50, max_bytes = 65536;
    double timeout = 60;
    const gd_option opts[] = {
        OPT_STRING_(0, "db", &db, "PATH", "the database (else godeye's --db, $GODEYE_DB, ./godeye.db)"),
        OPT_STRING_(0, "allow-ingest", &allow, "DIR", "add the tool 'ingest', for files under DIR only"),
        OPT_INT_(0, "max-rows", &max_rows, "N", "rows an answer holds at most (default 50)"),
        OPT_INT_(0, "max-bytes", &max_bytes, "N", "bytes of rows an answer holds at most (default 65536)"),
        OPT_DOUBLE_(0, "timeout", &timeout, "SECONDS", "a call's command is stopped after this long (default 60)"),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye mcp [--db PATH] [--allow-ingest DIR] [OPTIONS]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    if (max_rows < 1 || max_bytes < 1024 || !(timeout > 0)) {
        gd_cli_say(ctx, "--max-rows wants 1 or more, --max-bytes 1024 or more, --timeout more than 0");
        return GD_EXIT_USAGE;
    }
    static mcp_server S;
    S.ctx = ctx;
    S.lim = (gd_mcp_limits){(size_t)max_rows, (size_t)max_bytes, 0, timeout};
    if (db)
        ctx->db_path = db;
    struct stat st;
    if (allow && (!realpath(allow, S.ingest_root) || stat(S.ingest_root, &st) || !S_ISDIR(st.st_mode))) {
        gd_cli_say(ctx, "--allow-ingest '%s' is not a folder", allow);
        return GD_EXIT_USAGE;
    }
    ssize_t n = readlink("/proc/self/exe", S.self, sizeof S.self - 1);
    if (n <= 0) {
        gd_cli_say(ctx, "cannot find its own program (/proc/self/exe)");
        return GD_EXIT_FAIL;
    }
    S.self[n] = 0;
    if (gd_mcp_tools_build(ctx, &S.tools)) {
        gd_cli_say(ctx, GD_ERR_NOMEM_MSG);
        return GD_EXIT_FAIL;
    }
    signal(SIGPIPE, SIG_IGN); /* a client gone: writes fail, EOF follows */
    gd_cli_say(ctx, "serving '%s' on stdin/stdout: %zu tools%s", ctx->db_path, S.tools.n + (allow != NULL),
               allow ? ", ingest allowed" : ", read-only");
    rc = serve(&S);
    gd_mcp_tools_free(&S.tools);
    return rc;
}
