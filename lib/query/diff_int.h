/* query/diff_int.h - what diff.c and check.c share: a side's series, the diff rows (not a public API). */
#ifndef GD_QUERY_DIFF_INT_H
#define GD_QUERY_DIFF_INT_H

#include <math.h>

#include <jansson.h>

#include "query/diff.h"

typedef struct series {
    char *name;          /* NULL: no name (a block without key frame)      */
    double *v;           /* durations                                      */
    size_t n, cap;
    long count;          /* events (frames: frames)                        */
    long slow, frozen;   /* frames only                                    */
    double max;          /* frames only: the largest frame, NAN when none  */
    double sum;          /* Σ durations (of all `count`, v may be a sample) */
    int sampled;         /* sum and count set by a source's group_stats     */
    long over;           /* groups: blocks over their long bar (kind long or *
                          * anr), #52                                       */
} series;

typedef struct series_set {
    series *s;
    size_t n, cap;
    json_t *index;       /* key -> position */
    int oom;
    size_t values;       /* durations held over all of s (the caps below) */
} series_set;

/* What one side read from a fleet source may hold (#53 item 7): names
 * (block groups, pages, windows, launches together) and durations over
 * all of them (8 bytes each); past either the diff stops with one line
 * (godeye-diff(1)) instead of growing without bound. */
#define GD_DIFF_FLEET_MAX_NAMES 20000
#define GD_DIFF_FLEET_MAX_VALUES 4000000

/* The per-block "why" metrics a group's states are compared by (#26):
 * block fields of godeye-blocks(1), in this order. */
#define GD_DIFF_NSTATES 6
extern const char *const gd_diff_state_metrics[GD_DIFF_NSTATES];

/* Everything one side contributes. */
typedef struct side {
    const gd_selection *sel;
    series_set groups, draw, load, frames, startups, anr;
    series_set anr_groups; /* #48: ANRs of record by signature              */
    series_set states[GD_DIFF_NSTATES]; /* per group: each block's ms in the metric */
    long long_blocks;      /* blocks of kind long or anr                   */
    long anr_total;        /* gd_query_anr_count's total                   */
    double anr_user;       /* its user-perceived ANRs (#48); NAN when the  *
                            * source cannot tell (a fleet)                 */
    int stats;             /* groups' counts, sums, long_blocks came from a
                              source's group_stats: block rows add samples */
    double startup_max[3]; /* slowest cold, warm, hot launch; NAN when none */
    int capped;            /* read from a fleet source: the caps apply      */
    int over;              /* 1: past GD_DIFF_FLEET_MAX_NAMES, 2: _VALUES   */
} side;

typedef enum { K_GROUP, K_PAGE, K_FRAMES, K_STARTUP, K_ANR, K_ANR_GROUP } row_kind;

typedef struct out_row {
    json_t *row;
    int changed;         /* #52: 5 regressed, 4 new, 3 gone, 2 improved, 1 inconclusive, 0 same */
    double impact;
    int kind;
    const char *name;
} out_row;

typedef struct out_rows {
    out_row *r;
    size_t n, cap;
} out_rows;

/* Reads everything of one selection through the listing queries into sd
 * (freed with gd_diff_side_free, also on failure). */
int gd_diff_side_load(gd_store *s, const gd_selection *sel, side *sd, gd_error *err);
/* The same from a source (src NULL: gd_diff_side_load). */
int gd_diff_side_load_from(gd_store *s, const gd_side_source *src, const gd_selection *sel, side *sd,
                           gd_error *err);
void gd_diff_side_free(side *sd);

/* Appends the rows of kind k for every name in either side's set (b, h)
 * to out; the caller frees them with gd_diff_rows_free. */
int gd_diff_sets(out_rows *out, row_kind k, const char *metric, const series_set *b, const series_set *h,
                 const side *sb, const side *sh, double alpha, long min_samples, gd_error *err);
void gd_diff_rows_free(out_rows *o);
/* Every row of `godeye diff` over two loaded sides, sorted (#52: `check`
 * counts from the same rows); the caller frees them. */
int gd_diff_collect(const side *sb, const side *sh, double alpha, long min_samples, out_rows *out,
                    gd_error *err);
/* The headline counts of rows (gd_diff_summary, diff.h): the one home of
 * what `diff` calls new and `check` counts as new_groups. */
void gd_diff_summarize(const out_rows *o, gd_diff_summary *sum);

/* The test level and the sample floor: a and m, or the defaults when NAN / < 0. */
void gd_diff_resolve(double *alpha, long *min_samples, double a, long m);

static inline double gd_diff_per_min(long count, double minutes)
{
    return minutes > 0 ? (double)count / minutes : NAN;
}

static inline json_t *gd_diff_num_json(double v)
{
    return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/* Rounded to 1e-6 for stable output. */
static inline double gd_diff_r6(double v)
{
    return isnan(v) || isinf(v) ? v : round(v * 1e6) / 1e6;
}

#endif
