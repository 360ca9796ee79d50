/* opts.c - parsing argv against a command's option table. */
#include "opts.h"

#include "core/escape.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const gd_format_choices[] = {"table", "csv", "json", "jsonl", NULL};

size_t gd_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 32 || lb > 32)
        return 99;
    size_t d[33][33];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

/* The long option nearest to the unknown NAME (without its dashes): an edit
 * prefix of exactly one option, else the one option within an edit distance
 * of 2; NULL when nothing is that close or two options are equally near. */
static const char *nearest_option(const gd_option *opts, const char *name, size_t len)
{
    char want[64];
    snprintf(want, sizeof want, "%.*s", (int)len, name);
    const char *best = NULL;
    size_t bd = 3;
    int ties = 0, prefixed = 0;
    const char *prefix_of = NULL;
    for (const gd_option *p = opts; p && p->type != OPT_END; p++) {
        if (!p->long_name || p->type == OPT_GROUP)
            continue;
        size_t d = gd_edit_distance(want, p->long_name);
        if (d < bd) {
            bd = d;
            best = p->long_name;
            ties = 0;
        } else if (d == bd && best && strcmp(best, p->long_name) != 0) {
            ties = 1;
        }
        if (len >= 2 && strncmp(p->long_name, want, len) == 0) {
            prefixed++;
            prefix_of = p->long_name;
        }
    }
    if (prefixed == 1)
        return prefix_of;
    return best && !ties ? best : NULL;
}

static int bad(const char *cmd, const char *fmt, const char *a, const char *b)
{
    char buf[4096];
    snprintf(buf, sizeof buf, fmt, a, b); /* a and b may be the user's text: escaped */
    fprintf(stderr, "godeye %s: ", cmd);
    gd_fputs_escaped(buf, stderr);
    fprintf(stderr, "\n(see 'godeye %s -h')\n", cmd);
    return 2;
}

static int set_value(const char *cmd, const gd_option *o, const char *arg, const char *name)
{
    char *end;
    switch (o->type) {
    case OPT_INT: {
        errno = 0;
        long v = strtol(arg, &end, 10);
        if (errno || *end || end == arg)
            return bad(cmd, "option '%s' wants an integer, not '%s'", name, arg);
        *(long *)o->value = v;
        return 0;
    }
    case OPT_DOUBLE: {
        errno = 0;
        double v = strtod(arg, &end);
        if (errno || *end || end == arg || v != v)
            return bad(cmd, "option '%s' wants a number, not '%s'", name, arg);
        *(double *)o->value = v;
        return 0;
    }
    case OPT_STRING:
        *(const char **)o->value = arg;
        return 0;
    case OPT_INT_LIST: {
        gd_int_list *l = o->value;
        errno = 0;
        long long v = strtoll(arg, &end, 10);
        if (errno || *end || end == arg)
            return bad(cmd, "option '%s' wants an integer, not '%s'", name, arg);
        if (l->n >= sizeof l->v / sizeof l->v[0])
            return bad(cmd, "too many '%s' options%s", name, "");
        l->v[l->n++] = v;
        return 0;
    }
    case OPT_STRING_LIST: {
        gd_str_list *l = o->value;
        if (l->n >= sizeof l->v / sizeof l->v[0])
            return bad(cmd, "too many '%s' options%s", name, "");
        l->v[l->n++] = arg;
        return 0;
    }
    case OPT_CHOICE:
        for (const char *const *c = o->choices; *c; c++)
            if (strcmp(*c, arg) == 0) {
                *(const char **)o->value = *c;
                return 0;
            }
        {
            char list[256] = "";
            for (const char *const *c = o->choices; *c; c++) {
                strncat(list, *c, sizeof list - strlen(list) - 1);
                if (c[1])
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
            }
            fprintf(stderr, "godeye %s: option '%s' wants one of %s, not '", cmd, name, list);
            gd_fputs_escaped(arg, stderr);
            fputs("'\n", stderr);
            return 2;
        }
    default:
        return 0;
    }
}

void gd_print_usage(FILE *out, const char *usage, const gd_option *opts)
{
    fprintf(out, "usage: %s\n\n", usage);
    for (const gd_option *o = opts; o && o->type != OPT_END; o++) {
        char left[64];
        if (o->type == OPT_GROUP) {
            fprintf(out, "\n%s\n", o->help);
            continue;
        }
        int k = 0;
        if (o->short_name && o->long_name)
            k = snprintf(left, sizeof left, "-%c, --%s", o->short_name, o->long_name);
        else if (o->short_name)
            k = snprintf(left, sizeof left, "-%c", o->short_name);
        else
            k = snprintf(left, sizeof left, "    --%s", o->long_name);
        if (o->type != OPT_BOOL && o->argh && k > 0 && (size_t)k < sizeof left)
            snprintf(left + k, sizeof left - (size_t)k, " %s", o->argh);
        fprintf(out, "    %-28s %s\n", left, o->help);
    }
    fprintf(out, "    %-28s %s\n", "-h, --help", "show this help");
}

int gd_parse_options(int argc, char **argv, const gd_option *opts, const char *usage, int *nargs)
{
    const char *cmd = argv[0];
    int nfree = 0, only_args = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (only_args || a[0] != '-' || strcmp(a, "-") == 0) {
            argv[nfree++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_args = 1;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            gd_print_usage(stdout, usage, opts);
            return 1;
        }
        const gd_option *o = NULL;
        const char *inline_val = NULL;
        char name[64];
        if (a[1] == '-') {
            const char *eq = strchr(a + 2, '=');
            size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
            snprintf(name, sizeof name, "--%.*s", (int)len, a + 2);
            for (const gd_option *p = opts; p && p->type != OPT_END; p++)
                if (p->long_name && strlen(p->long_name) == len && strncmp(p->long_name, a + 2, len) == 0)
                    o = p;
            if (eq)
                inline_val = eq + 1;
        } else {
            snprintf(name, sizeof name, "-%c", a[1]);
            for (const gd_option *p = opts; p && p->type != OPT_END; p++)
                if (p->short_name && p->short_name == a[1])
                    o = p;
            if (o && a[2])
                inline_val = a + 2;
        }
        if ((!o || o->type == OPT_GROUP) && a[1] == '-') {
            const char *near = nearest_option(opts, name + 2, strlen(name + 2));
            if (near) {
                char hint[96];
                snprintf(hint, sizeof hint, "; did you mean '--%s'?", near);
                return bad(cmd, "unknown option '%s'%s", name, hint);
            }
        }
        if (!o || o->type == OPT_GROUP)
            return bad(cmd, "unknown option '%s'%s", name, "");
        if (o->type == OPT_BOOL) {
            if (inline_val)
                return bad(cmd, "option '%s' takes no value%s", name, "");
            *(int *)o->value = 1;
            continue;
        }
        const char *val = inline_val;
        if (!val) {
            if (i + 1 >= argc)
                return bad(cmd, "option '%s' needs a value%s", name, "");
            val = argv[++i];
        }
        int rc = set_value(cmd, o, val, name);
        if (rc)
            return rc;
    }
    *nargs = nfree;
    argv[nfree] = NULL;
    return 0;
}
