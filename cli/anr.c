/* anr.c - `godeye anr` and `godeye issues`: ANR dumps (main thread state,
 * lock holder, deadlocks) and the findings tools reported as they are. */
#include <stdio.h>
#include <string.h>

#include "builtins.h"

/* BLOCKED BY: the lock holder of the main thread, and where the chain of
 * lock waits ends when it ends at a thread in a binder call. */
static const char *blocked_by_text(const json_t *row, char *buf, size_t size)
{
    json_t *main = json_object_get(row, "main");
    if (!json_is_object(main) || !json_object_get(main, "held_by"))
        return NULL;
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

/* a readable summary of each dump (JSON keeps the whole object) */
static const gd_column anr_columns[] = {
    {"trace", "TRACE", GD_COL_INT, 0, 0},
    {"ts_ms", "DUMP", GD_COL_TIME, 0, 0},
    {"pid", "PID", GD_COL_INT, 0, 1},
    {"state", "MAIN STATE", GD_COL_TEXT, 0, 0, .path = "main.state"},
    {"blocked_by", "BLOCKED BY", GD_COL_TEXT, 0, 0, .text = blocked_by_text},
    {"cycle", "DEADLOCK", GD_COL_TEXT, 1, 0, .text = cycle_text},
    {"top", "MAIN AT", GD_COL_TEXT, 1, 0, .text = top_text},
};

int cmd_anr(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL;
    gd_int_list traces = {0};
    const gd_option opts[] = {OPT_LISTING(&format, &traces), OPT_END_()};
    int nargs, rc = gd_parse_options(argc, argv, opts, "godeye anr [OPTIONS]", &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        fprintf(stderr, "godeye anr: unexpected argument '%s'\n", argv[0]);
        return GD_EXIT_USAGE;
    }
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, "anr", &traces, &s)))
        return rc;
    gd_renderer *r = gd_cli_renderer(ctx, s, gd_cli_mode(format), anr_columns,
                                     sizeof anr_columns / sizeof anr_columns[0]);
    gd_filter f = gd_cli_filter(&traces);
    gd_error err = {0};
    rc = gd_store_anr(s, &f, gd_cli_render_cb, r, &err);
    int wrc = gd_render_end(r);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail("anr", &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
