/* diff_answer.c - `godeye diff` for a reader (#52): headline, then a block
 * per changed row with its figures and the test that decided, wrapped. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "diff_answer.h"

/* Bytes of s that fill at most `cols` columns (whole characters). */
static size_t bytes_for(const char *s, size_t cols)
{
    size_t i = 0, c = 0;
    while (s[i]) {
        size_t j = i + 1;
        while (((unsigned char)s[j] & 0xC0) == 0x80)
            j++;
        if (++c > cols)
            break;
        i = j;
    }
    return i;
}

/* Writes text (already escaped) after `lead` spaces, wrapped at spaces to
 * `width` columns, a word too long for a line broken inside; following
 * lines indented by `more` spaces.  Nothing is left out. */
static void put_wrapped(FILE *out, int lead, int more, const char *text, int width)
{
    size_t avail = width > lead + 10 ? (size_t)(width - lead) : 10;
    int ind = lead;
    while (*text) {
        size_t n = bytes_for(text, avail);
        if (text[n]) { /* break before the last " · " that fits, else the last space */
            size_t k = n, sp = 0;
            while (k > 0 && strncmp(text + k, " · ", 4) != 0) {
                if (!sp && text[k] == ' ')
                    sp = k;
                k--;
            }
            n = k > 0 ? k : sp > 0 ? sp : n;
        }
        fprintf(out, "%*s%.*s\n", ind, "", (int)n, text);
        text += n;
        if (strncmp(text, " · ", 4) == 0)
            text += 4;
        while (*text == ' ')
            text++;
        ind = more;
        avail = width > more + 10 ? (size_t)(width - more) : 10;
    }
}

static const char *str(const json_t *row, const char *key)
{
    const char *s = json_string_value(json_object_get(row, key));
    return s ? s : "";
}

/* A duration for a reader: "235 ms", "5.5 s", "-" when null. */
static const char *ms_text(const json_t *v, char *buf, size_t n)
{
    if (!json_is_number(v))
        return "-";
    double ms = json_number_value(v);
    if (fabs(ms) >= 1000)
        snprintf(buf, n, "%.3g s", ms / 1000.0);
    else
        snprintf(buf, n, "%.0f ms", ms);
    return buf;
}

static const char *num_text(const json_t *v, const char *fmt, char *buf, size_t n)
{
    if (!json_is_number(v))
        return "-";
    snprintf(buf, n, fmt, json_number_value(v));
    return buf;
}

/* "base → head" of field `key` of the two sides, or the one side's value
 * alone (side 'b' or 'h') for a name on one side only. */
static int pair(char *buf, size_t n, const char *label, const json_t *row, const char *key, int side, int ms)
{
    char x[2][32];
    const json_t *b = json_object_get(json_object_get(row, "base"), key);
    const json_t *h = json_object_get(json_object_get(row, "head"), key);
    const char *bt = ms ? ms_text(b, x[0], 32) : num_text(b, "%.3g", x[0], 32);
    const char *ht = ms ? ms_text(h, x[1], 32) : num_text(h, "%.3g", x[1], 32);
    const char *pct = strstr(key, "pct") ? "%" : "";
    if (side)
        return snprintf(buf, n, " · %s %s%s", label, side == 'b' ? bt : ht, pct);
    return snprintf(buf, n, " · %s %s%s → %s%s", label, bt, pct, ht, pct);
}

/* The figures that matter for the row's kind, base → head. */
static void figures(const json_t *row, char *buf, size_t n)
{
    const char *kind = str(row, "kind"), *st = str(row, "status");
    int side = strcmp(st, "new") == 0 ? 'h' : strcmp(st, "gone") == 0 ? 'b' : 0;
    int frames = strcmp(kind, "frames") == 0, anr = strncmp(kind, "anr", 3) == 0;
    size_t len = 0;
    len += pair(buf + len, n - len, "count", row, "count", side, 0);
    if (frames) {
        len += pair(buf + len, n - len, "slow", row, "slow_pct", side, 0);
        len += pair(buf + len, n - len, "frozen", row, "frozen_pct", side, 0);
    } else if (!anr) {
        len += pair(buf + len, n - len, "p50", row, "p50_ms", side, 1);
        len += pair(buf + len, n - len, "p95", row, "p95_ms", side, 1);
    }
    if ((anr || strcmp(kind, "group") == 0) && json_is_number(json_object_get(json_object_get(row, "head"), "per_min")))
        len += pair(buf + len, n - len, "per min", row, "per_min", side, 0);
    char x[32];
    if (json_is_number(json_object_get(row, "impact_ms_per_min")) && len < n)
        snprintf(buf + len, n - len, " · ms/min %s", num_text(json_object_get(row, "impact_ms_per_min"), "%+.0f", x, 32));
    memmove(buf, buf + 4, strlen(buf + 4) + 1); /* the first " · " */
}

/* The effect size: the Hodges–Lehmann shift with its interval, else the
 * change of the p50 (or the slow share); "" when there is none. */
static void effect(const json_t *row, char *buf, size_t n)
{
    char x[3][32];
    buf[0] = 0;
    const json_t *sh = json_object_get(row, "shift_ms"), *ch = json_object_get(row, "change_pct");
    if (strcmp(str(row, "decided_by"), "rate") == 0) {
        snprintf(buf, n, "effect: %s a minute", num_text(json_object_get(row, "per_min_change"), "%+.3g", x[0], 32));
    } else if (json_is_number(sh)) {
        int len = snprintf(buf, n, "effect: shift %s%s", json_number_value(sh) > 0 ? "+" : "", ms_text(sh, x[0], 32));
        if (json_is_number(json_object_get(row, "shift_ci_low_ms")))
            snprintf(buf + len, n - len, " (95%% CI %s to %s)", ms_text(json_object_get(row, "shift_ci_low_ms"), x[1], 32),
                     ms_text(json_object_get(row, "shift_ci_high_ms"), x[2], 32));
    } else if (json_is_number(ch)) {
        snprintf(buf, n, "effect: %s %s%%", strcmp(str(row, "kind"), "frames") == 0 ? "slow share" : "p50",
                 num_text(ch, "%+.3g", x[0], 32));
    }
}

static void headline(FILE *out, const gd_diff_answer *a)
{
    char buf[300];
    const gd_diff_summary *s = &a->sum;
    snprintf(buf, sizeof buf,
             "%ld regression%s · %ld new · %ld gone · %ld improved · %ld inconclusive · %ld the same",
             s->regressions, s->regressions == 1 ? "" : "s", s->new_rows, s->gone, s->improved, s->inconclusive,
             s->same);
    put_wrapped(out, 0, 2, buf, a->width);
}

int gd_diff_answer_row(FILE *out, const gd_renderer *r, json_t *row, void *ctx)
{
    gd_diff_answer *a = ctx;
    (void)r;
    if (!a->headed) {
        headline(out, a);
        a->headed = 1;
    }
    const char *st = str(row, "status");
    if (strcmp(st, "same") == 0 || strcmp(st, "inconclusive") == 0)
        return ferror(out) ? -1 : 0;
    char head[128], buf[512];
    snprintf(head, sizeof head, "%s%s %s%s%s", st, json_is_true(json_object_get(row, "regression")) &&
             strcmp(st, "regressed") != 0 ? " (a regression)" : "", str(row, "kind"),
             json_is_string(json_object_get(row, "metric")) ? " " : "", str(row, "metric"));
    fputc('\n', out);
    put_wrapped(out, 0, 2, head, a->width);
    /* the name comes from a capture: escaped, whole */
    const char *name = json_is_string(json_object_get(row, "name")) ? str(row, "name") : "(no name)";
    size_t cap = strlen(name) * 6 + 1;
    char *esc = malloc(cap);
    if (!esc)
        return -1;
    put_wrapped(out, 2, 4, gd_escape_ctrl(name, esc, cap), a->width);
    free(esc);
    figures(row, buf, sizeof buf);
    put_wrapped(out, 2, 4, buf, a->width);
    effect(row, buf, sizeof buf);
    if (buf[0])
        put_wrapped(out, 2, 4, buf, a->width);
    snprintf(buf, sizeof buf, "test: %s", str(row, "test_text"));
    put_wrapped(out, 2, 4, buf, a->width);
    return ferror(out) ? -1 : 0;
}

int gd_diff_answer_end(FILE *out, gd_diff_answer *a)
{
    if (!a->headed)
        headline(out, a);
    long rest = a->sum.inconclusive + a->sum.same;
    if (rest) {
        char buf[200];
        if (a->headed)
            fputc('\n', out);
        snprintf(buf, sizeof buf, "%ld inconclusive and %ld the same not shown: --format table lists every row",
                 a->sum.inconclusive, a->sum.same);
        put_wrapped(out, 0, 2, buf, a->width);
    }
    return ferror(out) ? -1 : 0;
}
