/* anr.c - `godeye anr` and `godeye issues`: ANR dumps (main thread state,
 * lock holder, deadlocks) and the findings tools reported as they are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "capture/capture.h" /* gd_capture_parse_duration */
#include "query/anr_context.h"
#include "query/issues.h"

/* BLOCKED BY: the lock holder of the main thread, and where the chain of
 * lock waits ends when it ends at a thread in a binder call. */
static const char *blocked_by_text(const json_t *row, char *buf, size_t size)
{
    json_t *main = json_object_get(row, "main");
    json_t *peer = json_object_get(row, "binder_peer");
    if (json_is_object(main) && !json_object_get(main, "held_by") && json_is_object(peer)) {
        /* main in a binder call the bugreport's snapshot proves (#28) */
        const char *by = json_string_value(json_object_get(json_object_get(peer, "waits_on"), "held_by_name"));
        int n = snprintf(buf, size, "binder %lld:%lld %s", (long long)json_integer_value(json_object_get(peer, "pid")),
                         (long long)json_integer_value(json_object_get(peer, "tid")),
                         json_is_string(json_object_get(peer, "thread"))
                             ? json_string_value(json_object_get(peer, "thread")) : "?");
        if (by && n > 0 && (size_t)n < size)
            n += snprintf(buf + n, size - (size_t)n, " -> waits on %s", by);
        if (json_is_true(json_object_get(row, "cross_process_cycle")) && n > 0 && (size_t)n < size)
            snprintf(buf + n, size - (size_t)n, " (%s)", json_string_value(json_object_get(row, "binder_reason")));
        return buf;
    }
    if (!json_is_object(main) || !json_object_get(main, "held_by"))
        return NULL;
    if (!json_is_integer(json_object_get(main, "held_by"))) {
        /* the dump names a holder it does not list */
        snprintf(buf, size, "thread %lld (not in the dump)",
                 (long long)json_integer_value(json_object_get(main, "held_by_dalvik_tid")));
        return buf;
    }
    json_int_t held = json_integer_value(json_object_get(main, "held_by"));
    const char *name = json_string_value(json_object_get(main, "held_by_name"));
    int n = snprintf(buf, size, "%s (%lld)", name ? name : "?", (long long)held);
    json_t *bw, *w;
    size_t i, k;
    json_array_foreach(json_object_get(row, "binder_waits"), i, bw) {
        json_t *h = json_object_get(bw, "holder");
        json_array_foreach(json_object_get(bw, "waiters"), k, w)
            if (json_equal(json_object_get(w, "tid"), json_object_get(main, "tid")) && n > 0 &&
                (size_t)n < size) {
                if (json_integer_value(json_object_get(h, "tid")) == held)
                    snprintf(buf + n, size - (size_t)n, " in a binder call");
                else
                    snprintf(buf + n, size - (size_t)n, " -> %s (%lld) in a binder call",
                             json_string_value(json_object_get(h, "name")),
                             (long long)json_integer_value(json_object_get(h, "tid")));
            }
    }
    return buf;
}

/* DEADLOCK: the first cycle of lock waits, "a -> b -> a". */
static const char *cycle_text(const json_t *row, char *buf, size_t size)
{
    json_t *cycle = json_array_get(json_object_get(row, "deadlocks"), 0), *th;
    if (!cycle)
        return NULL;
    size_t used = 0, i;
    buf[0] = 0;
    json_array_foreach(cycle, i, th)
        used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "%s -> ",
                                 json_string_value(json_object_get(th, "name")));
    if (used < size)
        snprintf(buf + used, size - used, "%s", json_string_value(json_object_get(json_array_get(cycle, 0), "name")));
    return buf;
}

/* MAIN AT: the first Java frame (native ones read "native:..."); the
 * innermost frame when the stack has no Java frame */
static const char *top_text(const json_t *row, char *buf, size_t size)
{
    json_t *stack = json_object_get(row, "main_stack"), *fr, *top = json_array_get(stack, 0);
    size_t k;
    (void)buf, (void)size;
    json_array_foreach(stack, k, fr) {
        const char *f = json_string_value(fr);
        if (f && strncmp(f, "native:", 7) != 0) {
            top = fr;
            break;
        }
    }
    return json_string_value(top);
}

/* HOLDER AT: the first Java frame of the thread holding main's lock */
static const char *holder_text(const json_t *row, char *buf, size_t size)
{
    json_t *stack = json_object_get(row, "holder_stack"), *fr, *top;
    if (!json_is_array(stack)) /* the holder of main's binder peer's lock (#28) */
        stack = json_object_get(json_object_get(json_object_get(row, "binder_peer"), "waits_on"), "holder_stack");
    top = json_array_get(stack, 0);
    size_t k;
    (void)buf, (void)size;
    json_array_foreach(stack, k, fr) {
        const char *f = json_string_value(fr);
        if (f && strncmp(f, "native:", 7) != 0) {
            top = fr;
            break;
        }
    }
    return json_string_value(top);
}

/* a readable summary of each dump (JSON keeps the whole object): the
 * headline of an ANR is app, time, reason, main state, where main is, who
 * blocks it */
static const gd_column anr_columns[] = {
    {"trace", "TRACE", GD_COL_INT, 0, 0},
    {"ts_ms", "DUMP", GD_COL_TIME, 0, 0},
    {"pid", "PID", GD_COL_INT, 0, 1},
    {"process", "APP", GD_COL_TEXT, 1, 0},
    {"anr", "ANR", GD_COL_BOOL, 0, 0, .words = "ANR|-"},
    {"reason", "REASON", GD_COL_TEXT, 1, 0, .auto_hide = 1},
    {"state", "MAIN STATE", GD_COL_TEXT, 0, 0, .path = "main.state"},
    {"top", "MAIN AT", GD_COL_TEXT, 1, 0, .text = top_text},
    {"blocked_by", "BLOCKED BY", GD_COL_TEXT, 0, 0, .text = blocked_by_text},
    {"holder_at", "HOLDER AT", GD_COL_TEXT, 1, 0, .auto_hide = 1, .text = holder_text},
    {"cycle", "DEADLOCK", GD_COL_TEXT, 1, 0, .auto_hide = 1, .text = cycle_text},
};

/* --context: what the database holds before each ANR */
static const gd_column context_columns[] = {
    {"anr_trace", "ANR TRACE", GD_COL_INT, 0, 1},
    {"anr_pid", "PID", GD_COL_INT, 0, 0},
    {"process", "APP", GD_COL_TEXT, 1, 0},
    {"trace", "TRACE", GD_COL_INT, 0, 0},
    {"ts_ms", "TIME", GD_COL_TIME, 0, 0},
    {"before_ms", "BEFORE MS", GD_COL_MS, 0, 0},
    {"kind", "KIND", GD_COL_TEXT, 0, 0},
    {"tid", "TID", GD_COL_INT, 0, 0},
    {"dur_ms", "MS", GD_COL_MS, 0, 0},
    {"block", "BLOCK", GD_COL_TEXT, 0, 0, .auto_hide = 1},
    {"what", "WHAT", GD_COL_TEXT, 1, 0},
};

/* The ANR dumps listed (bounded: their trace, pid, time and process). */
typedef struct anr_list {
    gd_anr_context_query *a;
    size_t n, cap;
    int oom;
} anr_list;

static int collect_anr(void *ctx, json_t *row)
{
    anr_list *l = ctx;
    if (!json_is_true(json_object_get(row, "anr")))
        return 0;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        gd_anr_context_query *a = realloc(l->a, cap * sizeof *a);
        if (!a) {
            l->oom = 1;
            return 1;
        }
        l->a = a;
        l->cap = cap;
    }
    gd_anr_context_query *q = &l->a[l->n++];
    memset(q, 0, sizeof *q);
    q->trace = json_integer_value(json_object_get(row, "trace"));
    q->pid = json_integer_value(json_object_get(row, "pid"));
    q->ts_ms = json_number_value(json_object_get(row, "ts_ms"));
    const char *p = json_string_value(json_object_get(row, "process"));
    q->process = p ? strdup(p) : NULL;
    if (p && !q->process) {
        l->oom = 1;
        return 1;
    }
    return 0;
}

static int anr_context(gd_ctx *ctx, gd_store *s, gd_out_mode mode, const gd_anr_query *q, double window_ms)
{
    anr_list l = {0};
    gd_error err = {0};
    int rc = gd_query_anr_list(s, q, collect_anr, &l, &err);
    if (!rc && l.oom)
        rc = gd_error_set(&err, GD_ERR_NOMEM, 0, 0, "out of memory");
    gd_renderer *r = NULL;
    if (!rc)
        r = gd_cli_renderer(ctx, s, mode, context_columns, sizeof context_columns / sizeof context_columns[0]);
    for (size_t i = 0; !rc && i < l.n; i++) {
        l.a[i].filter = q->filter;
        l.a[i].window_ms = window_ms;
        rc = gd_query_anr_context(s, &l.a[i], gd_cli_render_cb, r, &err);
    }
    int wrc = r ? gd_render_end(r) : 0;
    for (size_t i = 0; i < l.n; i++)
        free((char *)l.a[i].process);
    free(l.a);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}

int cmd_anr(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL, *app = NULL, *context = NULL;
    int all = 0;
    gd_int_list traces = {0};
    const gd_option opts[] = {
        OPT_APP(&app),
        OPT_BOOL_(0, "all", &all, "list every dump, the quiet snapshot dumps too"),
        OPT_STRING_(0, "context", &context, "DUR",
                    "what the database holds for each ANR's process in the DUR (10s, 500ms, 1m) before its dump"),
        OPT_LISTING(&format, &traces),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye anr [OPTIONS]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    double window_ms = 0;
    if (context && gd_capture_parse_duration(context, &window_ms)) {
        gd_cli_say(ctx, "--context wants a duration (10s, 500ms, 1m), not '%s'", context);
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s)))
        return rc;
    gd_out_mode mode = gd_cli_mode(format);
    if (context) {
        gd_anr_query cq = {.filter = gd_cli_filter(&traces), .app = app, .all = 1};
        return anr_context(ctx, s, mode, &cq, window_ms);
    }
    gd_renderer *r = gd_cli_renderer(ctx, s, mode, anr_columns, sizeof anr_columns / sizeof anr_columns[0]);
    gd_anr_counts counts = {0}, total = {0};
    gd_anr_query q = {.filter = gd_cli_filter(&traces), .app = app, .all = all, .counts = &counts};
    gd_error err = {0};
    rc = gd_query_anr_list(s, &q, gd_cli_render_cb, r, &err);
    if (!rc)
        rc = gd_query_anr_count(s, &q.filter, &total, &err);
    int wrc = gd_render_end(r);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    if (mode == GD_OUT_TABLE && !wrc) {
        /* the count every output gives (gd_query_anr_count), then what was folded */
        printf("%s%lld ANR%s: %lld dump%s the system took for an ANR, %lld main-thread block%s of kind anr;"
               " %lld other dump%s (snapshots, never counted)\n",
               app ? "every app: " : "", (long long)total.total, total.total == 1 ? "" : "s", (long long)total.dumps,
               total.dumps == 1 ? "" : "s", (long long)total.blocks, total.blocks == 1 ? "" : "s",
               (long long)total.snapshots, total.snapshots == 1 ? "" : "s");
        if (counts.folded)
            printf("%lld quiet snapshot dump%s not shown (not the ANR, no lock wait, no deadlock): --all lists them\n",
                   (long long)counts.folded, counts.folded == 1 ? "" : "s");
    }
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
