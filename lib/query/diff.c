/* query/diff.c - `godeye diff`: two selections compared, from the same queries the listing commands use. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mannwhitney.h"
#include "analysis/stats.h"
#include "query/blocks.h"
#include "query/diff.h"
#include "query/diff_int.h"
#include "query/frames.h"
#include "query/issues.h"
#include "query/startup.h"
#include "query/views.h"
#include "store/sql.h"
#include "core/util.h"

#define DEFAULT_ALPHA 0.01
#define DEFAULT_MIN_SAMPLES 5
/* The smallest effect a verdict may rest on (#53 item 9; godeye-diff(1)
 * "The rule of the status"): with thousands of samples a test finds
 * differences nobody would act on, so p below alpha alone is not a change.
 * Durations: the Hodges-Lehmann shift at least MIN_SHIFT_PCT of the base
 * median and at least MIN_SHIFT_MS; rates and frame shares: head and base
 * at least MIN_RATIO apart (either way). */
#define MIN_SHIFT_PCT 5.0
#define MIN_SHIFT_MS 1.0
#define MIN_RATIO 1.10

/* ---- samples per name, one side ----------------------------------------- */

static series *set_get(series_set *st, const char *name)
{
    const char *key = name ? name : "\x01(none)";
    json_t *pos = json_object_get(st->index, key);
    if (pos)
        return &st->s[json_integer_value(pos)];
    if (gd_grow((void **)&st->s, &st->cap, st->n + 1, sizeof *st->s, NULL)) {
        st->oom = 1;
        return NULL;
    }
    series *e = &st->s[st->n];
    memset(e, 0, sizeof *e);
    e->max = NAN;
    if (name && !(e->name = strdup(name))) {
        st->oom = 1;
        return NULL;
    }
    json_object_set_new(st->index, key, json_integer((json_int_t)st->n));
    st->n++;
    return e;
}

static void series_push(series_set *st, series *e, double v)
{
    if (!e)
        return;
    if (!e->sampled)
        e->count++;
    if (isnan(v))
        return;
    if (!e->sampled)
        e->sum += v;
    if (gd_grow((void **)&e->v, &e->cap, e->n + 1, sizeof *e->v, NULL)) {
        st->oom = 1;
        return;
    }
    e->v[e->n++] = v;
    st->values++;
}

/* 1 (sd->over set) when a fleet side holds more than its caps allow. */
static int over_caps(side *sd)
{
    if (!sd->capped)
        return 0;
    const series_set *sets[] = {&sd->groups, &sd->draw, &sd->load, &sd->frames, &sd->startups};
    size_t names = 0, values = 0;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        names += sets[i]->n;
        values += sets[i]->values;
    }
    for (int i = 0; i < GD_DIFF_NSTATES; i++)
        values += sd->states[i].values;
    if (names > GD_DIFF_FLEET_MAX_NAMES)
        sd->over = 1;
    else if (values > GD_DIFF_FLEET_MAX_VALUES)
        sd->over = 2;
    return sd->over != 0;
}

static void set_free(series_set *st)
{
    for (size_t i = 0; i < st->n; i++) {
        free(st->s[i].name);
        free(st->s[i].v);
    }
    free(st->s);
    json_decref(st->index);
    memset(st, 0, sizeof *st);
}

static double num(const json_t *row, const char *key)
{
    json_t *v = json_object_get(row, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *const gd_diff_state_metrics[GD_DIFF_NSTATES] = {
    "running_ms", "runnable_ms", "sleeping_ms", "uninterruptible_ms", "binder_ms", "lock_ms"};

static int on_block(void *ctx, json_t *row)
{
    side *sd = ctx;
    const char *grp = json_string_value(json_object_get(row, "group"));
    series_push(&sd->groups, set_get(&sd->groups, grp), num(row, "duration_ms"));
    /* #26: a block with data in a metric counts in that metric's series */
    for (int i = 0; i < GD_DIFF_NSTATES; i++) {
        double v = num(row, gd_diff_state_metrics[i]);
        if (!isnan(v)) {
            series_push(&sd->states[i], set_get(&sd->states[i], grp), v);
            if (sd->states[i].oom)
                return 1;
        }
    }
    const char *kind = json_string_value(json_object_get(row, "kind"));
    if (!sd->stats && kind && (strcmp(kind, "long") == 0 || strcmp(kind, "anr") == 0)) {
        sd->long_blocks++;
        series *e = set_get(&sd->groups, grp);
        if (e && !e->sampled)
            e->over++;
    }
    return sd->groups.oom || over_caps(sd);
}

/* A source's exact figures of a group whose blocks come as a sample. */
static int on_group_stats(void *ctx, json_t *row)
{
    side *sd = ctx;
    series *e = set_get(&sd->groups, json_string_value(json_object_get(row, "group")));
    if (!e)
        return 1;
    double c = num(row, "count"), t = num(row, "total_ms"), l = num(row, "long");
    e->count = isnan(c) ? 0 : (long)c;
    e->sum = isnan(t) ? 0 : t;
    e->max = num(row, "max_ms");
    e->over = isnan(l) ? 0 : (long)l;
    e->sampled = 1;
    sd->long_blocks += isnan(l) ? 0 : (long)l;
    sd->stats = 1;
    return over_caps(sd);
}

static int on_anr(void *ctx, json_t *row)
{
    side *sd = ctx;
    double t = num(row, "total");
    sd->anr_total += isnan(t) ? 0 : (long)t;
    return 0;
}

/* #48: one ANR group of gd_query_anr_groups: a series of its count */
static int on_anr_group(void *ctx, json_t *row)
{
    side *sd = ctx;
    series *e = set_get(&sd->anr_groups, json_string_value(json_object_get(row, "signature")));
    if (!e)
        return 1;
    e->count += (long)json_integer_value(json_object_get(row, "count"));
    return 0;
}

static int on_page(void *ctx, json_t *row)
{
    side *sd = ctx;
    const char *page = json_string_value(json_object_get(row, "page"));
    double d = num(row, "draw_ms"), l = num(row, "load_ms");
    if (!isnan(d))
        series_push(&sd->draw, set_get(&sd->draw, page), d);
    if (!isnan(l))
        series_push(&sd->load, set_get(&sd->load, page), l);
    return sd->draw.oom || sd->load.oom || over_caps(sd);
}

static int on_frames(void *ctx, json_t *row)
{
    side *sd = ctx;
    const char *src = json_string_value(json_object_get(row, "source"));
    if (!src || strcmp(src, "frames") != 0)
        return 0;
    /* #51: a legacy table's placeholder durations (the device's summary
     * leads) are no frame times: left out, as push leaves them out of the
     * fleet (fleet/export.c) */
    const char *lead = json_string_value(json_object_get(row, "lead"));
    if (lead && strcmp(lead, "device") == 0)
        return 0;
    series *e = set_get(&sd->frames, json_string_value(json_object_get(row, "window")));
    if (!e)
        return 1;
    double f = num(row, "frames"), sl = num(row, "slow"), fr = num(row, "frozen"), mx = num(row, "max_ms");
    e->count += isnan(f) ? 0 : (long)f;
    e->slow += isnan(sl) ? 0 : (long)sl;
    e->frozen += isnan(fr) ? 0 : (long)fr;
    if (!isnan(mx) && (isnan(e->max) || mx > e->max))
        e->max = mx;
    return over_caps(sd);
}

static int on_startup(void *ctx, json_t *row)
{
    side *sd = ctx;
    const char *app = json_string_value(json_object_get(row, "app"));
    const char *kind = json_string_value(json_object_get(row, "kind"));
    char name[600];
    snprintf(name, sizeof name, "%.500s %s", app ? app : "-", kind ? kind : "unknown");
    double t = num(row, "total_ms");
    series_push(&sd->startups, set_get(&sd->startups, name), t);
    static const char *const kinds[] = {"cold", "warm", "hot"};
    for (int i = 0; i < 3; i++)
        if (kind && strcmp(kind, kinds[i]) == 0 && !isnan(t) && (isnan(sd->startup_max[i]) || t > sd->startup_max[i]))
            sd->startup_max[i] = t;
    return sd->startups.oom || over_caps(sd);
}


void gd_diff_side_free(side *sd)
{
    set_free(&sd->groups);
    set_free(&sd->draw);
    set_free(&sd->load);
    set_free(&sd->frames);
    set_free(&sd->startups);
    set_free(&sd->anr);
    set_free(&sd->anr_groups);
    for (int i = 0; i < GD_DIFF_NSTATES; i++)
        set_free(&sd->states[i]);
}

/* Reads everything of one selection through the listing queries, or
 * from src: the same row handlers either way. */
int gd_diff_side_load_from(gd_store *s, const gd_side_source *src, const gd_selection *sel, side *sd,
                           gd_error *err)
{
    memset(sd, 0, sizeof *sd);
    sd->sel = sel;
    sd->startup_max[0] = sd->startup_max[1] = sd->startup_max[2] = NAN;
    sd->anr_user = NAN;
    series_set *sets[] = {&sd->groups, &sd->draw, &sd->load, &sd->frames, &sd->startups, &sd->anr,
                          &sd->anr_groups};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (!(sets[i]->index = json_object()))
            return gd_error_oom(err);
    for (int i = 0; i < GD_DIFF_NSTATES; i++)
        if (!(sd->states[i].index = json_object()))
            return gd_error_oom(err);
    int rc;
    if (src) {
        sd->capped = 1;
        if ((rc = src->rows(src->ctx, sel, "group_stats", on_group_stats, sd, err)) ||
            (rc = src->rows(src->ctx, sel, "blocks", on_block, sd, err)) ||
            (rc = src->rows(src->ctx, sel, "pages", on_page, sd, err)) ||
            (rc = src->rows(src->ctx, sel, "frames", on_frames, sd, err)) ||
            (rc = src->rows(src->ctx, sel, "startups", on_startup, sd, err)) ||
            (rc = src->rows(src->ctx, sel, "anr", on_anr, sd, err)) ||
            (rc = src->rows(src->ctx, sel, "anr_groups", on_anr_group, sd, err))) {
            if (sd->over) /* the answer was stopped here, not out of memory */
                return gd_error_set(err, GD_ERR_DATA, 0, 0,
                                    sd->over == 1 ? "a selection has more than %d block groups, pages, windows and"
                                                    " launches (the fleet cap of godeye-diff(1)): narrow it"
                                                  : "a selection has more than %d durations to compare (the fleet"
                                                    " cap of godeye-diff(1)): narrow it or lower"
                                                    " GODEYE_FLEET_SAMPLE",
                                    sd->over == 1 ? GD_DIFF_FLEET_MAX_NAMES : GD_DIFF_FLEET_MAX_VALUES);
            return rc;
        }
    } else {
        gd_filter f = {sel->ids, sel->n, sel->app};
        gd_blocks_query bq = {.filter = f, .threshold = NAN, .kind = GD_KIND_NONE};
        gd_pages_query pq = {.filter = f, .min_ms = NAN, .over_ms = NAN};
        gd_frames_query fq = {.filter = f, .app_only = 1}; /* the fleet's rule: an app's frames */
        gd_startup_query sq = {.filter = f, .app = sel->app};
        if ((rc = gd_query_blocks_light(s, &bq, on_block, sd, err)) ||
            (rc = gd_query_pages(s, &pq, on_page, sd, err)) || (rc = gd_query_frames(s, &fq, on_frames, sd, err)) ||
            (rc = gd_query_startups(s, &sq, on_startup, sd, err)))
            return rc;
        /* #28: the ANR count of every output (never the snapshot dumps) */
        gd_anr_counts ac;
        if ((rc = gd_query_anr_count(s, &f, &ac, err)))
            return rc;
        sd->anr_total = ac.total;
        sd->anr_user = (double)ac.user_perceived;
        /* #48: the ANR groups (a fleet's: its pushed signatures, above) */
        gd_anr_query gq = {.filter = f, .app = sel->app, .all = 1};
        if ((rc = gd_query_anr_groups(s, &gq, on_anr_group, sd, err)))
            return rc;
    }
    if (sd->anr_total) {
        series *e = set_get(&sd->anr, "ANRs");
        if (e)
            e->count = sd->anr_total;
    }
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        if (sets[i]->oom)
            return gd_error_oom(err);
        for (size_t j = 0; j < sets[i]->n; j++)
            gd_stats_sort(sets[i]->s[j].v, sets[i]->s[j].n);
    }
    for (int i = 0; i < GD_DIFF_NSTATES; i++) {
        if (sd->states[i].oom)
            return gd_error_oom(err);
        for (size_t j = 0; j < sd->states[i].n; j++)
            gd_stats_sort(sd->states[i].s[j].v, sd->states[i].s[j].n);
    }
    return GD_OK;
}

int gd_diff_side_load(gd_store *s, const gd_selection *sel, side *sd, gd_error *err)
{
    return gd_diff_side_load_from(s, NULL, sel, sd, err);
}

/* ---- diff rows ---------------------------------------------------------- */

static const char *const kind_names[] = {"group", "page", "frames", "startup", "anr", "anr_group"};

static double sum_of(const series *e)
{
    return e ? e->sum : 0;
}

enum { GD_DIFF_SIDE_COLS(GD_QC_ID, GD_QC_ID) DS_NCOLS };
GD_QCOLS_DEFINE(side_cols, GD_DIFF_SIDE_COLS);
enum { GD_DIFF_COLS(GD_QC_ID, GD_QC_ID) DF_NCOLS };
GD_QCOLS_DEFINE(diff_cols, GD_DIFF_COLS);

/* A p-value with 4 significant digits (NAN: null). */
static void p_value(gd_value *v, double p)
{
    if (isnan(p)) {
        gd_qv_null(v);
        return;
    }
    char buf[32];
    snprintf(buf, sizeof buf, "%.4g", p);
    gd_qv_real(v, strtod(buf, NULL));
}

/* A share of count in percent, rounded (null when count is 0). */
static void pct(gd_value *v, long x, long count)
{
    gd_qv_num(v, count ? gd_diff_r6(100.0 * (double)x / (double)count) : NAN);
}

/* A side's figures of a row of kind k (GD_DIFF_SIDE_COLS) in f, their
 * nested object in *v (r filled: it and f live until the row is built). */
static void side_fields(gd_value *v, gd_row *r, row_kind k, const series *e, double minutes, gd_value *f)
{
    long count = e ? e->count : 0;
    gd_qv_int(&f[DS_COUNT], count);
    gd_qv_num(&f[DS_PER_MIN], gd_diff_r6(gd_diff_per_min(count, minutes)));
    if (k == K_FRAMES) {
        gd_qv_null(&f[DS_P50]);
        gd_qv_null(&f[DS_P95]);
        gd_qv_ms(&f[DS_MAX], e ? e->max : NAN);
        gd_qv_null(&f[DS_TOTAL]);
        gd_qv_int(&f[DS_SLOW], e ? e->slow : 0);
        gd_qv_int(&f[DS_FROZEN], e ? e->frozen : 0);
        pct(&f[DS_SLOW_PCT], e ? e->slow : 0, count);
        pct(&f[DS_FROZEN_PCT], e ? e->frozen : 0, count);
        gd_qv_row(v, r, &side_cols, f);
        return;
    }
    /* other rows: the fields before the frames' own */
    gd_qcols plain_side = gd_qcols_sub(&side_cols, 0, DS_SLOW);
    int has = e && e->n;
    gd_qv_ms(&f[DS_P50], has ? gd_percentile(e->v, e->n, 50) : NAN);
    gd_qv_ms(&f[DS_P95], has ? gd_percentile(e->v, e->n, 95) : NAN);
    gd_qv_ms(&f[DS_MAX], e && e->sampled && !isnan(e->max) ? e->max : has ? e->v[e->n - 1] : NAN);
    gd_qv_ms(&f[DS_TOTAL], k == K_ANR || k == K_ANR_GROUP ? NAN : sum_of(e));
    gd_qv_row(v, r, &plain_side, f);
}

static double rel_change(double b, double h)
{
    return b > 0 && !isnan(h) ? gd_diff_r6(100.0 * (h - b) / b) : NAN;
}


/* The status of a row and why (godeye-diff(1) STATUSES: the one home of
 * these rules).  dir: +1 worse, -1 better, 0 no significant change. */
typedef struct verdict {
    const char *status;
    char note[200];
    double p, rp;
    gd_hl_result hl;     /* the duration shift (NAN when not both sides) */
    const char *test;    /* #52 decided_by: the test the status rests on  */
    char text[240];      /* #52 test_text: that test's figures in words    */
    int regression;      /* regressed, or new and an ANR or over a bar     */
} verdict;

/* The words of the tests (decided_by) and their names in test_text. */
#define T_MW "mann-whitney"
#define T_RATE "rate"
#define T_SLOW "slow-share"
#define T_FROZEN "frozen-share"
#define T_TIME "ms-per-min"
#define T_PRESENCE "presence"

/* 1 when a and b (rates or shares, >= 0) are at least MIN_RATIO apart. */
static int ratio_big(double a, double b)
{
    if (a == b)
        return 0;
    if (a <= 0 || b <= 0)
        return 1;
    return a / b >= MIN_RATIO || b / a >= MIN_RATIO;
}

/* 1 when a duration shift is past the floor for a base of median med. */
static int shift_big(double shift, double med)
{
    if (isnan(shift))
        return 0;
    double floor_ms = isnan(med) ? MIN_SHIFT_MS : fmax(MIN_SHIFT_MS, med * MIN_SHIFT_PCT / 100.0);
    return fabs(shift) >= floor_ms;
}

/* A duration for the words of test_text: "420 ms", "5.5 s". */
static const char *ms_words(double ms, char *buf, size_t n)
{
    if (isnan(ms))
        snprintf(buf, n, "-");
    else if (fabs(ms) >= 1000)
        snprintf(buf, n, "%.3g s", ms / 1000.0);
    else
        snprintf(buf, n, "%.3g ms", ms);
    return buf;
}

/* "p = 0.0051" (p < 0.0001 under that). */
static const char *p_words(double p, char *buf, size_t n)
{
    if (p < 0.0001)
        snprintf(buf, n, "p < 0.0001");
    else
        snprintf(buf, n, "p = %.2g", p);
    return buf;
}

/* A name on one side only (#52): new (head only) or gone (base only),
 * whatever its count, sized in test_text; a new ANR group, ANR count or
 * block group with a block over its long bar is a regression. */
static void judge_one_side(verdict *v, row_kind k, const series *e, int head_only)
{
    static const char *const unit[][2] = {[K_GROUP] = {"block", "blocks"}, [K_PAGE] = {"visit", "visits"},
                                          [K_FRAMES] = {"frame", "frames"}, [K_STARTUP] = {"launch", "launches"},
                                          [K_ANR] = {"ANR", "ANRs"}, [K_ANR_GROUP] = {"ANR", "ANRs"}};
    const char *word = head_only ? "new" : "gone";
    long c = e->count;
    char mx[32];
    v->status = word;
    v->test = T_PRESENCE;
    v->regression = head_only && (k == K_ANR || k == K_ANR_GROUP || (k == K_GROUP && e->over > 0));
    int len = snprintf(v->text, sizeof v->text, "%s: %ld %s", word, c, unit[k][c != 1]);
    if (k == K_FRAMES)
        snprintf(v->text + len, sizeof v->text - len, ", %ld slow, %ld frozen", e->slow, e->frozen);
    else if (e->n && k != K_ANR && k != K_ANR_GROUP)
        len += snprintf(v->text + len, sizeof v->text - len, c == 1 ? " of %s" : ", the longest %s",
                        ms_words(e->v[e->n - 1], mx, sizeof mx));
    if (k == K_GROUP && len < (int)sizeof v->text)
        snprintf(v->text + len, sizeof v->text - len, e->over ? ", over the long-block bar"
                                                              : ", under the long-block bar");
}

/* What the duration test, the rate test and the frame shares found. */
typedef struct found {
    int dir, tested, small;
    int dur_dir, rate_dir;
} found;

static void judge_frames(verdict *v, found *f, const series *b, const series *h, double alpha, long min_samples)
{
    long cb = b->count, ch = h->count;
    if (cb < min_samples || ch < min_samples)
        return;
    f->tested = 1;
    v->p = gd_prop_test(b->slow, cb, h->slow, ch);
    v->rp = gd_prop_test(b->frozen, cb, h->frozen, ch);
    double sb_ = (double)b->slow / (double)cb, sh_ = (double)h->slow / (double)ch;
    double fb = (double)b->frozen / (double)cb, fh = (double)h->frozen / (double)ch;
    int frozen = !(v->p < alpha && ratio_big(sh_, sb_)) && v->rp < alpha && ratio_big(fh, fb);
    if (v->p < alpha && ratio_big(sh_, sb_))
        f->dir = sh_ > sb_ ? 1 : -1;
    else if (frozen)
        f->dir = fh > fb ? 1 : -1;
    else if (v->p < alpha || v->rp < alpha)
        f->small = 1;
    char pw[32];
    v->test = frozen ? T_FROZEN : T_SLOW;
    snprintf(v->text, sizeof v->text, "%s frames %.3g%% → %.3g%%, %s, two-proportion z test",
             frozen ? "frozen" : "slow", 100 * (frozen ? fb : sb_), 100 * (frozen ? fh : sh_),
             p_words(frozen ? v->rp : v->p, pw, sizeof pw));
}

/* The durations: Mann–Whitney and the Hodges–Lehmann shift past the
 * floor.  -1 when out of memory. */
static int judge_durations(verdict *v, found *f, const series *b, const series *h, double alpha,
                           long min_samples)
{
    if ((long)b->n < min_samples || (long)h->n < min_samples)
        return 0;
    f->tested = 1;
    gd_mw_result mw;
    if (gd_mannwhitney(b->v, b->n, h->v, h->n, &mw))
        return -1;
    v->p = mw.p;
    if (v->p < alpha && shift_big(v->hl.shift, gd_percentile(b->v, b->n, 50)))
        f->dur_dir = mw.direction;
    else if (v->p < alpha)
        f->small = 1;
    char sw[32], b50[32], h50[32], pw[32];
    v->test = T_MW;
    snprintf(v->text, sizeof v->text, "shift %s%s (p50 %s → %s), %s, Mann–Whitney", v->hl.shift > 0 ? "+" : "",
             ms_words(v->hl.shift, sw, sizeof sw), ms_words(gd_percentile(b->v, b->n, 50), b50, sizeof b50),
             ms_words(gd_percentile(h->v, h->n, 50), h50, sizeof h50), p_words(v->p, pw, sizeof pw));
    return 0;
}

/* Blocks and ANRs per minute of capture: the exact rate test, only when
 * both sides' exposure is capture time (rate_ok). */
static void judge_rate(verdict *v, found *f, row_kind k, long cb, double mb, long ch, double mh, double alpha,
                       long min_samples)
{
    v->rp = gd_rate_test(cb, mb, ch, mh);
    if (k == K_ANR && cb >= min_samples && ch >= min_samples)
        f->tested = 1;
    if (v->rp < alpha && ratio_big((double)ch / mh, (double)cb / mb))
        f->rate_dir = (double)ch / mh > (double)cb / mb ? 1 : -1;
    else if (v->rp < alpha)
        f->small = 1;
    if (f->rate_dir || !v->test) {
        char pw[32];
        v->test = T_RATE;
        snprintf(v->text, sizeof v->text, "rate %.3g → %.3g per min, %s, exact rate test", (double)cb / mb,
                 (double)ch / mh, p_words(v->rp, pw, sizeof pw));
    }
}

/* 1 when both the p50 and the p95 of h are under b's (#52: never regressed then). */
static int both_fell(row_kind k, const series *b, const series *h)
{
    if (k == K_FRAMES || k == K_ANR || !b->n || !h->n)
        return 0;
    return gd_percentile(h->v, h->n, 50) < gd_percentile(b->v, b->n, 50) &&
           gd_percentile(h->v, h->n, 95) < gd_percentile(b->v, b->n, 95);
}

/* Durations and rates of a name on both sides; the direction in f. */
static int judge_both(verdict *v, found *f, row_kind k, const series *b, const series *h, double mb, double mh,
                      int rate_ok, double alpha, long min_samples)
{
    if (k != K_ANR && judge_durations(v, f, b, h, alpha, min_samples))
        return -1;
    /* rates: blocks and ANRs happen per minute of use; launches and
     * page visits follow the test script, so only their times count */
    if ((k == K_GROUP || k == K_ANR) && rate_ok)
        judge_rate(v, f, k, b->count, mb, h->count, mh, alpha, min_samples);
    f->dir = f->dur_dir ? f->dur_dir : f->rate_dir;
    if (f->dur_dir && f->rate_dir && f->dur_dir != f->rate_dir) {
        /* longer but rarer (or the reverse): time lost per minute decides */
        double d = sum_of(h) / mh - sum_of(b) / mb;
        char bw[32], hw[32];
        f->dir = d > 0 ? 1 : d < 0 ? -1 : 0;
        v->test = T_TIME;
        snprintf(v->text, sizeof v->text, "%s but %s: %s → %s lost per min", f->dur_dir > 0 ? "longer" : "shorter",
                 f->rate_dir > 0 ? "more often" : "rarer", ms_words(sum_of(b) / mb, bw, sizeof bw),
                 ms_words(sum_of(h) / mh, hw, sizeof hw));
    }
    return 0;
}

static void judge_status(verdict *v, const found *f, row_kind k, const series *b, const series *h,
                         long min_samples)
{
    long nb = k == K_ANR || k == K_FRAMES ? b->count : (long)b->n;
    long nh = k == K_ANR || k == K_FRAMES ? h->count : (long)h->n;
    if (f->dir > 0 && both_fell(k, b, h)) {
        v->status = "inconclusive";
        snprintf(v->note, sizeof v->note, "%.150s says worse, but the p50 and the p95 both fell", v->text);
        v->test = NULL;
    } else if (f->dir) {
        v->status = f->dir > 0 ? "regressed" : "improved";
        v->regression = f->dir > 0;
    } else if (f->tested) {
        v->status = "same";
        if (f->small)
            snprintf(v->note, sizeof v->note,
                     "below alpha but under the effect floor (shift %g%% of the base median and %g ms; "
                     "rate or share %g%%)",
                     MIN_SHIFT_PCT, MIN_SHIFT_MS, (MIN_RATIO - 1) * 100);
    } else {
        v->status = "inconclusive";
        v->test = NULL;
        snprintf(v->note, sizeof v->note, "too few samples: base %ld, head %ld, %ld a side needed", nb, nh,
                 min_samples);
    }
    if (!v->test)
        snprintf(v->text, sizeof v->text, "%s", v->note);
}

/* rate_ok: both sides' exposure is capture time (GD_SQL_EXPOSURE_REAL). */
static void judge(verdict *v, row_kind k, const series *b, const series *h, double mb, double mh, int rate_ok,
                  double alpha, long min_samples)
{
    long cb = b ? b->count : 0, ch = h ? h->count : 0;
    memset(v, 0, sizeof *v);
    v->p = v->rp = NAN;
    v->hl = (gd_hl_result){NAN, NAN, NAN};
    if (cb == 0 || ch == 0) {
        /* #48: an ANR signature is new when the head has it and the base
         * has not (first seen: the way Play Console and Sentry call an
         * issue new in a release), gone the other way; #52: every name */
        judge_one_side(v, k, cb == 0 ? h : b, cb == 0);
        if (rate_ok && k != K_ANR_GROUP && (k == K_GROUP || k == K_ANR))
            v->rp = gd_rate_test(cb, mb, ch, mh);
        return;
    }
    if (k == K_ANR_GROUP) /* on both sides: compared per minute like the ANR count */
        k = K_ANR;
    if (k != K_FRAMES && k != K_ANR)
        gd_hodges_lehmann(b->v, b->n, h->v, h->n, &v->hl);
    found f = {0};
    if (k == K_FRAMES)
        judge_frames(v, &f, b, h, alpha, min_samples);
    else if (judge_both(v, &f, k, b, h, mb, mh, rate_ok, alpha, min_samples))
        return; /* out of memory: status NULL */
    if (k == K_ANR && !rate_ok) {
        v->status = "inconclusive";
        snprintf(v->note, sizeof v->note, "%s", mb > 0 && mh > 0 ? "an issue log's span is no capture time: no rate test"
                                                                 : "exposure unknown: no rate test");
        snprintf(v->text, sizeof v->text, "%s", v->note);
        return;
    }
    judge_status(v, &f, k, b, h, min_samples);
}

/* #52: worst first: regressed, new, gone, improved, inconclusive, same. */
static int status_rank(const char *status)
{
    static const char *const order[] = {"same", "inconclusive", "improved", "gone", "new", "regressed"};
    for (int i = 0; i < 6; i++)
        if (strcmp(status, order[i]) == 0)
            return i;
    return 0;
}

/* The changes of a row (DF_CHANGE, DF_CHANGE95, DF_RATE_CHANGE,
 * DF_IMPACT) in f; returns the impact (NAN: none). */
static double change_fields(row_kind k, const series *b, const series *h, double mb, double mh, gd_value *f)
{
    long cb = b ? b->count : 0, ch = h ? h->count : 0;
    double change = NAN, change95 = NAN;
    if (k == K_FRAMES) {
        if (cb && ch)
            change = rel_change((double)b->slow / (double)cb, (double)h->slow / (double)ch);
    } else if (b && h && b->n && h->n) {
        change = rel_change(gd_percentile(b->v, b->n, 50), gd_percentile(h->v, h->n, 50));
        change95 = rel_change(gd_percentile(b->v, b->n, 95), gd_percentile(h->v, h->n, 95));
    }
    gd_qv_num(&f[DF_CHANGE], change);
    gd_qv_num(&f[DF_CHANGE95], change95);
    gd_qv_num(&f[DF_RATE_CHANGE], gd_diff_r6(gd_diff_per_min(ch, mh) - gd_diff_per_min(cb, mb)));
    double impact = NAN;
    if (k != K_FRAMES && k != K_ANR && k != K_ANR_GROUP)
        impact = mb > 0 && mh > 0 ? sum_of(h) / mh - sum_of(b) / mb : sum_of(h) - sum_of(b);
    gd_qv_num(&f[DF_IMPACT], gd_diff_r6(impact));
    return impact;
}

/* The verdict's fields of a row (status, note, tests, shift) in f. */
static void verdict_fields(const verdict *vd, row_kind k, gd_value *f)
{
    gd_qv_text(&f[DF_STATUS], vd->status);
    gd_qv_text(&f[DF_NOTE], vd->note[0] ? vd->note : NULL);
    p_value(&f[DF_P], vd->p);
    p_value(&f[DF_RATE_P], k == K_FRAMES ? NAN : vd->rp);
    if (k == K_FRAMES)
        p_value(&f[DF_FROZEN_P], vd->rp);
    else
        gd_qv_absent(&f[DF_FROZEN_P]);
    /* the effect: Hodges–Lehmann shift of head against base, 95% interval */
    gd_qv_ms(&f[DF_SHIFT], vd->hl.shift);
    gd_qv_ms(&f[DF_SHIFT_LO], vd->hl.lo);
    gd_qv_ms(&f[DF_SHIFT_HI], vd->hl.hi);
    gd_qv_text(&f[DF_DECIDED], vd->test);
    gd_qv_text(&f[DF_TEST], vd->text);
    gd_qv_bool(&f[DF_REGRESSION], vd->regression);
}

/* One row for `name` of kind k from the two sides' series (either NULL). */
static int diff_row(out_rows *out, row_kind k, const char *metric, const char *name, const series *b,
                    const series *h, const side *sb, const side *sh, double alpha, long min_samples,
                    gd_error *err)
{
    long cb = b ? b->count : 0, ch = h ? h->count : 0;
    if (cb == 0 && ch == 0)
        return GD_OK;
    double mb = sb->sel->minutes, mh = sh->sel->minutes;
    int rate_ok = mb > 0 && mh > 0 && !sb->sel->unexposed && !sh->sel->unexposed; /* #52 */
    verdict vd;
    judge(&vd, k, b, h, mb, mh, rate_ok, alpha, min_samples);
    if (!vd.status)
        return gd_error_oom(err);
    gd_value f[DF_NCOLS], fb[DS_NCOLS], fh[DS_NCOLS];
    gd_row rb, rh;
    gd_qv_text(&f[DF_KIND], kind_names[k]);
    gd_qv_text(&f[DF_NAME], name);
    gd_qv_text(&f[DF_METRIC], metric);
    side_fields(&f[DF_BASE], &rb, k, b, mb, fb);
    side_fields(&f[DF_HEAD], &rh, k, h, mh, fh);
    verdict_fields(&vd, k, f);
    double impact = change_fields(k, b, h, mb, mh, f);
    json_t *row = gd_qcols_json(&diff_cols, f);
    if (!row || gd_grow((void **)&out->r, &out->cap, out->n + 1, sizeof *out->r, err)) {
        json_decref(row);
        return row ? (err->code ? err->code : GD_ERR_IO) : gd_error_oom(err);
    }
    out->r[out->n++] = (out_row){row, status_rank(vd.status), isnan(impact) ? 0 : fabs(impact), (int)k,
                                 json_string_value(json_object_get(row, "name"))};
    return GD_OK;
}

/* Rows for every name in either side's set. */
int gd_diff_sets(out_rows *out, row_kind k, const char *metric, const series_set *b,
                 const series_set *h, const side *sb, const side *sh, double alpha, long min_samples,
                 gd_error *err)
{
    int rc = GD_OK;
    for (size_t i = 0; i < b->n && !rc; i++) {
        const series *e = &b->s[i];
        json_t *pos = json_object_get(h->index, e->name ? e->name : "\x01(none)");
        rc = diff_row(out, k, metric, e->name, e, pos ? &h->s[json_integer_value(pos)] : NULL, sb, sh,
                      alpha, min_samples, err);
    }
    for (size_t i = 0; i < h->n && !rc; i++) {
        const series *e = &h->s[i];
        if (!json_object_get(b->index, e->name ? e->name : "\x01(none)"))
            rc = diff_row(out, k, metric, e->name, NULL, e, sb, sh, alpha, min_samples, err);
    }
    return rc;
}

/* By status (status_rank: regressed, new, gone, improved, inconclusive, same); then ANRs; then the
 * time lost or won per minute (a new or gone name: its own); then frames, startup, page, group; then
 * by name. */
static int cmp_out(const void *x, const void *y)
{
    static const int kind_rank[] = {[K_ANR] = 0, [K_ANR_GROUP] = 0, [K_FRAMES] = 1, [K_STARTUP] = 2, [K_PAGE] = 3,
                                    [K_GROUP] = 4};
    const out_row *a = x, *b = y;
    if (a->changed != b->changed)
        return a->changed > b->changed ? -1 : 1;
    int anr_a = a->kind == K_ANR || a->kind == K_ANR_GROUP, anr_b = b->kind == K_ANR || b->kind == K_ANR_GROUP;
    if (anr_a != anr_b) /* #52: ANRs first within a status */
        return anr_b - anr_a;
    if (a->impact != b->impact)
        return a->impact > b->impact ? -1 : 1;
    if (a->kind != b->kind)
        return kind_rank[a->kind] - kind_rank[b->kind];
    if (!a->name || !b->name)
        return (a->name == NULL) - (b->name == NULL);
    return strcmp(a->name, b->name);
}

/* All diff rows of two loaded sides, sorted (caller frees rows). */
int gd_diff_collect(const side *sb, const side *sh, double alpha, long min_samples, out_rows *out,
                        gd_error *err)
{
    int rc;
    if ((rc = gd_diff_sets(out, K_GROUP, NULL, &sb->groups, &sh->groups, sb, sh, alpha, min_samples, err)) ||
        (rc = gd_diff_sets(out, K_PAGE, "draw", &sb->draw, &sh->draw, sb, sh, alpha, min_samples, err)) ||
        (rc = gd_diff_sets(out, K_PAGE, "load", &sb->load, &sh->load, sb, sh, alpha, min_samples, err)) ||
        (rc = gd_diff_sets(out, K_FRAMES, NULL, &sb->frames, &sh->frames, sb, sh, alpha, min_samples, err)) ||
        (rc = gd_diff_sets(out, K_STARTUP, NULL, &sb->startups, &sh->startups, sb, sh, alpha, min_samples,
                        err)) ||
        (rc = gd_diff_sets(out, K_ANR, NULL, &sb->anr, &sh->anr, sb, sh, alpha, min_samples, err)) ||
        (rc = gd_diff_sets(out, K_ANR_GROUP, NULL, &sb->anr_groups, &sh->anr_groups, sb, sh, alpha, min_samples,
                           err)))
        return rc;
    /* #26: a group's time in each state (and in binder and lock waits) per
     * block, judged by the duration rows' rules; only the changed rows */
    for (int i = 0; i < GD_DIFF_NSTATES; i++) {
        size_t n0 = out->n;
        if ((rc = gd_diff_sets(out, K_GROUP, gd_diff_state_metrics[i], &sb->states[i], &sh->states[i], sb, sh,
                               alpha, min_samples, err)))
            return rc;
        size_t keep = n0;
        for (size_t j = n0; j < out->n; j++) {
            const char *st = json_string_value(json_object_get(out->r[j].row, "status"));
            if (st && (strcmp(st, "regressed") == 0 || strcmp(st, "improved") == 0))
                out->r[keep++] = out->r[j];
            else
                json_decref(out->r[j].row);
        }
        out->n = keep;
    }
    if (out->n > 1)
        gd_sort(out->r, out->n, sizeof *out->r, cmp_out);
    return GD_OK;
}

void gd_diff_summarize(const out_rows *o, gd_diff_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    for (size_t i = 0; i < o->n; i++) {
        const json_t *row = o->r[i].row;
        const char *st = json_string_value(json_object_get(row, "status"));
        long *c[] = {&sum->same, &sum->inconclusive, &sum->improved, &sum->gone, &sum->new_rows, &sum->regressed};
        (*c[status_rank(st)])++;
        sum->regressions += json_is_true(json_object_get(row, "regression"));
        if (strcmp(st, "new") == 0 && (o->r[i].kind == K_GROUP || o->r[i].kind == K_ANR_GROUP))
            sum->new_groups++;
    }
}

void gd_diff_rows_free(out_rows *o)
{
    for (size_t i = 0; i < o->n; i++)
        json_decref(o->r[i].row);
    free(o->r);
}

void gd_diff_resolve(double *alpha, long *min_samples, double a, long m)
{
    *alpha = isnan(a) ? DEFAULT_ALPHA : a;
    *min_samples = m < 0 ? DEFAULT_MIN_SAMPLES : m;
}

int gd_query_diff(gd_store *s, const gd_diff_query *q, gd_row_fn fn, void *ctx, gd_error *err)
{
    double alpha;
    long min_samples;
    gd_diff_resolve(&alpha, &min_samples, q->alpha, q->min_samples);
    side sb, sh;
    out_rows out = {0};
    int rc = gd_diff_side_load_from(s, q->src, q->base, &sb, err);
    if (!rc)
        rc = gd_diff_side_load_from(s, q->src, q->head, &sh, err);
    else
        memset(&sh, 0, sizeof sh);
    if (!rc)
        rc = gd_diff_collect(&sb, &sh, alpha, min_samples, &out, err);
    if (!rc && q->summary)
        gd_diff_summarize(&out, q->summary);
    for (size_t i = 0; !rc && i < out.n; i++)
        if (fn(ctx, out.r[i].row))
            break;
    gd_diff_rows_free(&out);
    gd_diff_side_free(&sb);
    gd_diff_side_free(&sh);
    return rc;
}
