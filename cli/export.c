/* export.c - `godeye export`: Chrome trace-event JSON and folded stacks for other viewers. */
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "analysis/blocks.h"
#include "builtins.h"
#include "core/escape.h"
#include "query/blocks.h"
#include "query/report_series.h"

typedef struct chrome_out {
    FILE *f;
    long n;
    json_t *named;   /* "pid/tid" of every track whose name was written */
    int failed;
} chrome_out;

/* 1 the first time a track (pid, tid) is seen: its name is to be written. */
static int first_sight(chrome_out *o, json_int_t pid, json_int_t tid)
{
    char key[48];
    snprintf(key, sizeof key, "%lld/%lld", (long long)pid, (long long)tid);
    if (json_object_get(o->named, key))
        return 0;
    json_object_set_new(o->named, key, json_true());
    return 1;
}

/* Writes one trace event (comma-separated array elements). */
static int emit(chrome_out *o, json_t *ev)
{
    if (o->n++ && fputs(",\n", o->f) == EOF)
        o->failed = 1;
    if (json_dumpf(ev, o->f, JSON_COMPACT | JSON_REAL_PRECISION(17)))
        o->failed = 1;
    json_decref(ev);
    return o->failed;
}

static double us(json_t *ms)
{
    return json_number_value(ms) * 1000.0;
}

static int on_dispatch(void *ctx, json_t *row)
{
    chrome_out *o = ctx;
    json_int_t pid = json_integer_value(json_object_get(row, "pid"));
    json_int_t tid = json_integer_value(json_object_get(row, "tid"));
    json_t *thread = json_object_get(row, "thread");
    if (json_is_string(thread) && first_sight(o, pid, tid)) {
        if (emit(o, json_pack("{s:s s:s s:I s:I s:{s:O}}", "name", "thread_name", "ph", "M", "pid", pid,
                              "tid", tid, "args", "name", thread)))
            return 1;
    }
    json_t *msg = json_object_get(row, "msg");
    /* the slice's name: a Looper message by its handler and callback
     * (the group rule's form), any other slice by its own name */
    char name[1024];
    const char *text = json_string_value(msg);
    if (gd_group_fallback(text, name, sizeof name) != GD_GROUP_HANDLER)
        snprintf(name, sizeof name, "%.1000s", text && *text ? text : "dispatch");
    json_t *ev = json_pack("{s:s s:s s:s s:f s:f s:I s:I s:{s:O s:O s:O}}", "name", name, "cat", "looper",
                           "ph", "X", "ts", us(json_object_get(row, "start_ms")), "dur",
                           us(json_object_get(row, "dur_ms")), "pid", pid, "tid", tid, "args", "msg", msg,
                           "thread_ms", json_object_get(row, "thread_ms"), "trace", json_object_get(row, "trace"));
    return emit(o, ev);
}

/* Blocks go on a track of their own beside their thread's: tid + this. */
#define BLOCK_TRACK_TID 1000000000

static int on_block(void *ctx, json_t *row)
{
    chrome_out *o = ctx;
    json_int_t pid = json_integer_value(json_object_get(row, "pid"));
    json_int_t tid = json_integer_value(json_object_get(row, "tid")) + BLOCK_TRACK_TID;
    if (first_sight(o, pid, tid)) {
        json_t *thread = json_object_get(row, "thread");
        char track[300];
        if (json_is_string(thread))
            snprintf(track, sizeof track, "blocks of %.250s", json_string_value(thread));
        else
            snprintf(track, sizeof track, "blocks of tid %lld", (long long)(tid - BLOCK_TRACK_TID));
        if (emit(o, json_pack("{s:s s:s s:I s:I s:{s:s}}", "name", "thread_name", "ph", "M", "pid", pid, "tid",
                              tid, "args", "name", track)))
            return 1;
    }
    char name[1100];
    const char *g = json_string_value(json_object_get(row, "group"));
    snprintf(name, sizeof name, "%s block%s%.1000s", json_string_value(json_object_get(row, "kind")),
             g ? ": " : "", g ? g : "");
    json_t *ev = json_pack("{s:s s:s s:s s:f s:f s:I s:I s:{s:O s:O s:O s:O s:O}}", "name", name, "cat", "block",
                           "ph", "X", "ts", us(json_object_get(row, "start_ms")), "dur",
                           us(json_object_get(row, "duration_ms")), "pid", pid, "tid", tid, "args",
                           "duration_ms", json_object_get(row, "duration_ms"), "key_frame",
                           json_object_get(row, "key_frame"), "group", json_object_get(row, "group"), "samples",
                           json_object_get(row, "samples"), "block", json_object_get(row, "id"));
    return emit(o, ev);
}

static int on_cpu(void *ctx, json_t *row)
{
    chrome_out *o = ctx;
    json_t *args = json_object();
    json_t *t = json_object_get(row, "total_ratio"), *a = json_object_get(row, "app_ratio");
    if (json_is_number(t))
        json_object_set_new(args, "total", json_real(json_number_value(t) * 100.0));
    if (json_is_number(a))
        json_object_set_new(args, "app", json_real(json_number_value(a) * 100.0));
    json_t *pid = json_object_get(row, "pid");
    json_t *ev = json_pack("{s:s s:s s:f s:O s:o}", "name", "CPU %", "ph", "C", "ts",
                           us(json_object_get(row, "ts_ms")), "pid", json_is_integer(pid) ? pid : json_integer(0),
                           "args", args);
    return emit(o, ev);
}

static int export_chrome(gd_store *s, const gd_filter *f, FILE *out, gd_error *err)
{
    chrome_out o = {out, 0, json_object(), 0};
    fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", out);
    int rc = gd_query_dispatches(s, f, on_dispatch, &o, err);
    gd_blocks_query bq = {.filter = *f, .threshold = NAN, .kind = GD_KIND_NONE};
    if (!rc && !o.failed)
        rc = gd_query_blocks(s, &bq, on_block, &o, err);
    if (!rc && !o.failed)
        rc = gd_query_cpu_series(s, f, on_cpu, &o, err);
    fputs("\n]}\n", out);
    json_decref(o.named);
    if (!rc && o.failed)
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "write failed");
    return rc;
}

typedef struct folded_out {
    FILE *f;
    long lines;
} folded_out;

static int on_folded(void *ctx, json_t *row)
{
    folded_out *o = ctx;
    o->lines++;
    /* one sample, one line: a newline inside a frame is shown escaped */
    gd_fputs_escaped(json_string_value(json_object_get(row, "stack")), o->f);
    return fprintf(o->f, " %lld\n", (long long)json_integer_value(json_object_get(row, "count"))) < 0;
}

int cmd_export(int argc, char **argv, gd_ctx *ctx)
{
    const char *chrome = NULL, *folded = NULL, *group = NULL, *app = NULL;
    int samples = 0;
    gd_int_list traces = {0};
    const gd_option opts[] = {
        OPT_STRING_(0, "chrome", &chrome, "FILE", "Chrome trace-event JSON (Perfetto UI, chrome://tracing); - for stdout"),
        OPT_STRING_(0, "folded", &folded, "FILE", "folded stacks of the block samples (FlameGraph, speedscope)"),
        OPT_STRING_(0, "group", &group, "G", "--folded: only the blocks of group G"),
        OPT_BOOL_(0, "samples", &samples, "--folded: every stack sample, each under its thread's name (a CPU profile)"),
        OPT_INT_LIST_(0, "trace", &traces, "ID", "only this trace (repeatable)"),
        OPT_APP(&app),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts,
                                     "godeye export (--chrome FILE | --folded FILE [--group G | --samples]) [--trace ID ...] [--app PKG]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    if (!chrome == !folded) {
        gd_cli_say(ctx, "give one of --chrome FILE or --folded FILE");
        return GD_EXIT_USAGE;
    }
    if ((group || samples) && !folded) {
        gd_cli_say(ctx, "%s goes with --folded", group ? "--group" : "--samples");
        return GD_EXIT_USAGE;
    }
    if (group && samples) {
        gd_cli_say(ctx, "--group and --samples exclude each other (a group is of blocks)");
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s)))
        return rc;
    const char *path = chrome ? chrome : folded;
    gd_error err = {0};
    char tmp[4096];
    FILE *out = gd_cli_out_open(path, tmp, sizeof tmp);
    if (!out) {
        gd_store_close(s);
        gd_error_set(&err, GD_ERR_IO, 0, 0, "cannot write '%s'", path);
        return gd_cli_fail(ctx, &err);
    }
    gd_filter f = gd_cli_filter_app(&traces, app);
    folded_out fo = {out, 0};
    rc = chrome    ? export_chrome(s, &f, out, &err)
         : samples ? gd_query_folded_samples(s, &f, on_folded, &fo, &err)
                   : gd_query_folded(s, &f, group, on_folded, &fo, &err);
    if (!rc && folded && fo.lines == 0) /* no file of nothing: say so, exit 1 */
        rc = samples ? gd_error_set(&err, GD_ERR_DATA, 0, 0, "nothing to export: no stack samples%s%s",
                                    app ? " of app " : "", app ? app : "")
                     : gd_error_set(&err, GD_ERR_DATA, 0, 0, "nothing to export: no block%s%s%s has stack samples",
                                    group ? " of group '" : "", group ? group : "", group ? "'" : "");
    gd_store_close(s);
    int wfail = gd_cli_out_close(out, tmp, path, rc == 0) != 0;
    if (rc)
        return gd_cli_fail(ctx, &err);
    if (wfail) {
        gd_error_set(&err, GD_ERR_IO, 0, 0, "cannot write '%s'", path);
        return gd_cli_fail(ctx, &err);
    }
    return GD_EXIT_OK;
}
