/* query/check.c - budgets (`godeye check`): rules over one selection, and over its diff with a base. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "query/diff.h"
#include "query/diff_int.h"
#include "store/sql.h"
#include "core/util.h"

typedef enum {
    R_ANR_COUNT, R_BLOCK_P95, R_LONG_PER_MIN, R_PAGE_LOAD_P95, R_STARTUP_COLD, R_STARTUP_WARM,
    R_STARTUP_HOT, R_SLOW_PCT, R_FROZEN_PCT, R_NEW_GROUPS, R_REGRESSED_GROUPS, R_USER_ANR, R_COUNT
} rule_id;

static const struct {
    const char *name, *unit;
} rules[R_COUNT] = {
    {"anr_count", "ANRs"},          {"block_p95_ms", "ms"},    {"long_blocks_per_min", "per min"},
    {"page_load_p95_ms", "ms"},     {"startup_cold_ms", "ms"}, {"startup_warm_ms", "ms"},
    {"startup_hot_ms", "ms"},       {"slow_frames_pct", "%"},  {"frozen_frames_pct", "%"},
    {"new_groups", "groups"},       {"regressed_groups", "groups"},
    {"user_perceived_anr_count", "ANRs"},
};

static int rule_of(const char *key)
{
    for (int i = 0; i < R_COUNT; i++)
        if (strcmp(rules[i].name, key) == 0)
            return i;
    return -1;
}

/* Appends `key` to a comma list in buf. */
static void name_append(char *buf, size_t n, const char *key)
{
    size_t l = strlen(buf);
    snprintf(buf + l, n - l, "%s'%.60s'", l ? ", " : "", key);
}

int gd_budget_validate(const json_t *budget, gd_error *err)
{
    if (!json_is_object(budget))
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: expected a JSON object");
    char unknown[512] = "";
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)budget, key, v) {
        if (strcmp(key, "base") == 0) {
            if (!json_is_string(v))
                return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: 'base' must be a selector string");
        } else if (strcmp(key, "app") == 0) {
            if (!json_is_string(v) || !*json_string_value(v))
                return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: 'app' must be a package name string");
        } else if (strcmp(key, "alpha") == 0) {
            if (!json_is_number(v) || !(json_number_value(v) > 0 && json_number_value(v) < 1))
                return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: 'alpha' must be a number in (0, 1)");
        } else if (strcmp(key, "min_samples") == 0) {
            if (!json_is_integer(v) || json_integer_value(v) < 1)
                return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: 'min_samples' must be an integer >= 1");
        } else if (strcmp(key, "optional") == 0) {
            size_t i;
            json_t *e;
            if (!json_is_array(v))
                return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: 'optional' must be an array of rule names");
            json_array_foreach(v, i, e) {
                if (!json_is_string(e))
                    return gd_error_set(err, GD_ERR_USAGE, 0, 0,
                                        "budget: 'optional' must be an array of rule names");
                if (rule_of(json_string_value(e)) < 0)
                    name_append(unknown, sizeof unknown, json_string_value(e));
            }
        } else if (strcmp(key, "max") != 0) {
            name_append(unknown, sizeof unknown, key);
        }
    }
    json_t *max = json_object_get(budget, "max");
    if (!json_is_object(max))
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: expected a \"max\" object of rules");
    json_object_foreach(max, key, v) {
        if (rule_of(key) < 0)
            name_append(unknown, sizeof unknown, key);
        else if (!json_is_number(v) || json_number_value(v) < 0)
            return gd_error_set(err, GD_ERR_USAGE, 0, 0, "budget: rule '%s' needs a number >= 0", key);
    }
    if (unknown[0])
        return gd_error_set(err, GD_ERR_USAGE, 0, 0,
                            "budget: unknown key%s %s", strchr(unknown, ',') ? "s" : "", unknown);
    return GD_OK;
}

/* p95 of every value of every series of a set (NAN when none). */
static double pooled_p95(const series_set *st, gd_error *err, int *oom)
{
    size_t n = 0;
    for (size_t i = 0; i < st->n; i++)
        n += st->s[i].n;
    if (!n)
        return NAN;
    double *v = malloc(n * sizeof *v);
    if (!v) {
        *oom = 1;
        gd_error_oom(err);
        return NAN;
    }
    size_t k = 0;
    for (size_t i = 0; i < st->n; i++)
        for (size_t j = 0; j < st->s[i].n; j++)
            v[k++] = st->s[i].v[j];
    gd_stats_sort(v, n);
    double p = gd_percentile(v, n, 95);
    free(v);
    return p;
}

static double frames_pct(const series_set *st, int frozen)
{
    long frames = 0, x = 0;
    for (size_t i = 0; i < st->n; i++) {
        frames += st->s[i].count;
        x += frozen ? st->s[i].frozen : st->s[i].slow;
    }
    return frames ? 100.0 * (double)x / (double)frames : NAN;
}

/* Block groups `diff` calls regressed (the group rows, not their state metrics). */
static long regressed_groups(const out_rows *diff)
{
    long c = 0;
    for (size_t i = 0; i < diff->n; i++)
        if (diff->r[i].kind == K_GROUP && json_is_null(json_object_get(diff->r[i].row, "metric")) &&
            strcmp(json_string_value(json_object_get(diff->r[i].row, "status")), "regressed") == 0)
            c++;
    return c;
}

/* Whether the budget lets `rule` go without data. */
static int is_optional(const gd_check_query *q, const char *rule)
{
    if (q->allow_missing)
        return 1;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(q->budget, "optional"), i, e)
        if (strcmp(json_string_value(e), rule) == 0)
            return 1;
    return 0;
}

enum { GD_CHECK_COLS(GD_QC_ID, GD_QC_ID) CK_NCOLS };
GD_QCOLS_DEFINE(check_cols, GD_CHECK_COLS);

/* The value of rule r over the head side sh (and diff, sum: the diff's
 * rows and headline with a base); NAN when the traces cannot answer it. */
static double rule_value(rule_id r, const gd_check_query *q, const side *sh, const out_rows *diff,
                         const gd_diff_summary *sum, gd_error *err, int *oom)
{
    switch (r) {
    /* #28: the ANR count of every output, never the snapshot dumps */
    case R_ANR_COUNT: return (double)sh->anr_total;
    /* #48: of them, the input dispatch timeouts (Play's user-perceived) */
    case R_USER_ANR: return sh->anr_user;
    case R_BLOCK_P95: return pooled_p95(&sh->groups, err, oom);
    case R_LONG_PER_MIN: return gd_diff_per_min(sh->long_blocks, q->head->minutes);
    case R_PAGE_LOAD_P95: return pooled_p95(&sh->load, err, oom);
    case R_STARTUP_COLD: return sh->startup_max[0];
    case R_STARTUP_WARM: return sh->startup_max[1];
    case R_STARTUP_HOT: return sh->startup_max[2];
    case R_SLOW_PCT: return frames_pct(&sh->frames, 0);
    case R_FROZEN_PCT: return frames_pct(&sh->frames, 1);
    case R_NEW_GROUPS: return (double)sum->new_groups;
    case R_REGRESSED_GROUPS: return (double)regressed_groups(diff);
    default: return NAN;
    }
}

/* Rule r's row (GD_CHECK_COLS) of value v (NAN: no data) against limit,
 * handed to fn; *broken counts it when broken.  fn's answer (1: stop). */
static int check_row(const gd_check_query *q, int r, double v, double limit, gd_row_fn fn, void *ctx,
                     int *broken)
{
    /* a rule the budget names but the traces cannot answer breaks the
     * gate, unless the budget (or --allow-missing) lets it go */
    int opt = isnan(v) && is_optional(q, rules[r].name);
    int is_broken = !opt && (isnan(v) || v > limit);
    *broken += is_broken;
    gd_value f[CK_NCOLS];
    gd_qv_text(&f[CK_RULE], rules[r].name);
    gd_qv_num(&f[CK_VALUE], v);
    gd_qv_real(&f[CK_LIMIT], limit);
    gd_qv_text(&f[CK_STATUS], isnan(v) ? (opt ? "skipped" : "no data") : v > limit ? "fail" : "pass");
    gd_qv_text(&f[CK_UNIT], rules[r].unit);
    gd_qv_bool(&f[CK_BROKEN], is_broken);
    json_t *row = gd_qcols_json(&check_cols, f);
    int stop = fn(ctx, row);
    json_decref(row);
    return stop;
}

/* The base side and the diff against it that new_groups and
 * regressed_groups count (#52: the rows `diff` shows). */
static int check_diff(gd_store *s, const gd_check_query *q, const side *sh, side *sb, out_rows *diff,
                      gd_error *err)
{
    int rc = gd_diff_side_load_from(s, q->src, q->base, sb, err);
    double alpha;
    long min_samples;
    json_t *a = json_object_get(q->budget, "alpha"), *m = json_object_get(q->budget, "min_samples");
    gd_diff_resolve(&alpha, &min_samples, a ? json_number_value(a) : NAN, m ? (long)json_integer_value(m) : -1);
    if (!rc)
        rc = gd_diff_collect(sb, sh, alpha, min_samples, diff, err);
    return rc;
}

int gd_query_check(gd_store *s, const gd_check_query *q, gd_row_fn fn, void *ctx, int *broken,
                   gd_error *err)
{
    *broken = 0;
    const json_t *max = json_object_get(q->budget, "max");
    int need_base = json_object_get(max, "new_groups") || json_object_get(max, "regressed_groups");
    if (need_base && !q->base)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0,
                            "budget: new_groups and regressed_groups need \"base\" (a selector)");
    side sh, sb;
    memset(&sb, 0, sizeof sb);
    out_rows diff = {0};
    int rc = gd_diff_side_load_from(s, q->src, q->head, &sh, err);
    if (!rc && need_base)
        rc = check_diff(s, q, &sh, &sb, &diff, err);
    gd_diff_summary sum;
    gd_diff_summarize(&diff, &sum);
    int oom = 0;
    for (int r = 0; !rc && r < R_COUNT; r++) {
        json_t *lim = json_object_get(max, rules[r].name);
        if (!lim)
            continue;
        double v = rule_value((rule_id)r, q, &sh, &diff, &sum, err, &oom);
        if (oom) {
            rc = GD_ERR_IO;
            break;
        }
        if (check_row(q, r, gd_diff_r6(v), json_number_value(lim), fn, ctx, broken))
            break;
    }
    gd_diff_rows_free(&diff);
    gd_diff_side_free(&sh);
    gd_diff_side_free(&sb);
    return rc;
}
