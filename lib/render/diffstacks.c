/* render/diffstacks.c - `godeye diff --stacks` as text (#52). */
#include "render/diffstacks.h"

#include <math.h>

#include "core/escape.h"

static double num(const json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void side_line(FILE *out, const char *name, const json_t *s, int by_time)
{
    long n = (long)json_integer_value(json_object_get(s, "captures"));
    fprintf(out, "%s: %ld capture%s, %.1f ms of stacks", name, n, n == 1 ? "" : "s", num(s, "ms"));
    if (by_time)
        fprintf(out, " over %.3g min", num(s, "minutes"));
    long calls = (long)json_integer_value(json_object_get(s, "calls"));
    if (calls)
        fprintf(out, " (%ld from method calls)", calls);
    long uw = (long)json_integer_value(json_object_get(s, "unweighted_samples"));
    if (uw)
        fprintf(out, "; %ld sample%s without a sampling interval left out", uw, uw == 1 ? "" : "s");
    fputc('\n', out);
}

static void tree_line(FILE *out, const json_t *r)
{
    long depth = (long)json_integer_value(json_object_get(r, "depth"));
    double p = num(r, "p_value");
    fprintf(out, "%+10.1f %10.1f -> %-10.1f", num(r, "delta_ms"), num(r, "base_ms"), num(r, "head_ms"));
    if (isnan(p))
        fputs("            ", out);
    else
        fprintf(out, "  p=%-8.2g", p);
    for (long i = 1; i < depth && i < 40; i++)
        fputs("  ", out);
    if (depth > 40)
        fprintf(out, "[%ld] ", depth);
    gd_fputs_escaped(json_string_value(json_object_get(r, "frame")), out);
    double sd = num(r, "self_delta_ms");
    if (sd > 0)
        fprintf(out, "  (self %+.1f)", sd);
    fputc('\n', out);
}

int gd_render_ds_tree(FILE *out, const json_t *summary)
{
    const char *norm = json_string_value(json_object_get(summary, "normalised"));
    int by_time = norm && norm[0] == 'c';
    side_line(out, "base", json_object_get(summary, "base"), by_time);
    side_line(out, "head", json_object_get(summary, "head"), by_time);
    fprintf(out, "normalised by %s: head ms x %.4g\n", norm ? norm : "?", num(summary, "head_scale"));
    const json_t *test = json_object_get(summary, "test");
    if (json_is_string(test))
        fprintf(out, "test: %s, alpha %g\n", json_string_value(test), num(summary, "alpha"));
    else
        fprintf(out, "test: none (fewer than %lld captures a side)\n",
                (long long)json_integer_value(json_object_get(summary, "min_captures")));
    const json_t *tree = json_object_get(summary, "tree");
    if (!json_array_size(tree)) {
        fputs("no frame is slower in head\n", out);
        return ferror(out) ? -1 : 0;
    }
    fputs("\ntop regressed paths (ms, inclusive; delta = head - base):\n", out);
    fprintf(out, "%10s %10s    %-10s  %-10s%s\n", "DELTA", "BASE", "HEAD", "P", "FRAME");
    size_t i;
    json_t *r;
    json_array_foreach(tree, i, r)
        tree_line(out, r);
    return ferror(out) ? -1 : 0;
}

/* A folded line's count: a decimal without sign or exponent, the number
 * difffolded.pl and flamegraph.pl read (\d+(?:\.\d*)?); no count is
 * negative (a NAN or a rounding's -0 is 0). */
static void ms_text(FILE *out, double v)
{
    if (isnan(v) || v <= 0)
        v = 0;
    if (v == floor(v))
        fprintf(out, " %.0f", v);
    else
        fprintf(out, " %.3f", v);
}

int gd_render_ds_folded(FILE *out, const json_t *row)
{
    gd_fputs_escaped(json_string_value(json_object_get(row, "stack")), out);
    ms_text(out, num(row, "base_self_ms"));
    ms_text(out, num(row, "head_self_ms"));
    fputc('\n', out);
    return ferror(out) ? -1 : 0;
}
