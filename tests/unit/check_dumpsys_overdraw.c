/* check_dumpsys_overdraw.c - oracle: generated `dumpsys activity top` dumps of
 * ~300 views, ingested through the reader and the store, give exactly the
 * overdraw pixels a brute-force per-pixel count of the generated tree gives. */
#include <check.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest/ingest.h"
#include "query/views.h"
#include "store/store.h"
#include "testutil.h"

#define SW 360
#define SH 640
#define MAXV 400
#define NVIEWS 300

/* One generated view, as the generator knows it (never read back from text). */
typedef struct gview {
    int parent;            /* index, -1 for the DecorView                     */
    int depth;
    int abs[4];            /* absolute l, t, r, b                            */
    char vis;              /* 'V', 'I', 'G'; the DecorView: 'V'              */
    int draws;             /* 'D' flag; the DecorView paints its background   */
} gview;

typedef struct gen {
    uint64_t rng;
    gview v[MAXV];
    int n;
    char *text;
    size_t len, cap;
} gen;

static uint32_t rnd(gen *g, uint32_t n)
{
    g->rng = g->rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(g->rng >> 33) % n;
}

static void put(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(gen *g, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(g->text + g->len, g->cap - g->len, fmt, ap);
        va_end(ap);
        if ((size_t)k < g->cap - g->len) {
            g->len += (size_t)k;
            return;
        }
        g->cap = g->cap * 2 + (size_t)k + 64;
        g->text = realloc(g->text, g->cap);
        ck_assert_ptr_nonnull(g->text);
    }
}

static const char *const classes[] = {"android.widget.FrameLayout", "android.widget.LinearLayout",
                                      "android.widget.TextView", "android.widget.ImageView",
                                      "androidx.recyclerview.widget.RecyclerView", "android.view.View"};

/* Writes view `i` (already filled) at its depth, then generates its children. */
static void emit_subtree(gen *g, int i, int rel[4])
{
    gview *v = &g->v[i];
    char f1[10];
    f1[0] = v->vis;
    f1[1] = rnd(g, 3) ? '.' : 'F';
    f1[2] = 'E';
    f1[3] = v->draws ? 'D' : '.';
    f1[4] = rnd(g, 4) ? '.' : 'H';
    f1[5] = rnd(g, 4) ? '.' : 'V';
    f1[6] = rnd(g, 3) ? '.' : 'C';
    f1[7] = rnd(g, 5) ? '.' : 'L';
    f1[8] = '.';
    f1[9] = 0;
    put(g, "%*s%s{%07x %s %s %d,%d-%d,%d", 8 + 2 * v->depth, "", classes[rnd(g, 6)],
        (unsigned)rnd(g, 0xfffffff), f1, rnd(g, 2) ? "......ID" : "........", rel[0], rel[1], rel[2], rel[3]);
    if (rnd(g, 2))
        put(g, " #7f0a%04x app:id/v%d", (unsigned)i, i);
    put(g, "}\n");
    int pw = v->abs[2] - v->abs[0], ph = v->abs[3] - v->abs[1];
    int kids = v->depth < 11 ? (int)rnd(g, 5) : 0;
    for (int k = 0; k < kids && g->n < NVIEWS; k++) {
        int c = g->n++;
        gview *cv = &g->v[c];
        cv->parent = i;
        cv->depth = v->depth + 1;
        uint32_t r = rnd(g, 20);
        cv->vis = r < 2 ? 'G' : r < 4 ? 'I' : 'V';
        cv->draws = rnd(g, 10) < 7;
        int cr[4];
        /* relative bounds: mostly inside the parent, some past its edges or empty */
        uint32_t qw = (uint32_t)(pw > 4 ? pw / 2 : 2), qh = (uint32_t)(ph > 4 ? ph / 2 : 2);
        cr[0] = (int)rnd(g, qw + 10) - 10;
        cr[1] = (int)rnd(g, qh + 10) - 10;
        cr[2] = cr[0] + (rnd(g, 12) ? (int)(qw / 2 + rnd(g, qw + qw / 2 + 20)) : 0);
        cr[3] = cr[1] + (rnd(g, 12) ? (int)(qh / 2 + rnd(g, qh + qh / 2 + 20)) : 0);
        for (int e = 0; e < 4; e++)
            cv->abs[e] = cr[e] + (e % 2 ? v->abs[1] : v->abs[0]);
        emit_subtree(g, c, cr);
    }
}

/* A TASK/ACTIVITY section with a flagless DecorView over two children. */
static void generate(gen *g, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->rng = seed;
    g->v[0] = (gview){-1, -1, {0, 0, SW, SH}, 'V', 1}; /* union of the two children below */
    g->n = 1;
    /* the content root fills the screen but the nav bar: generated until NVIEWS */
    int root = g->n++;
    g->v[root] = (gview){0, 0, {0, 0, SW, SH - 40}, 'V', (int)rnd(g, 2)};
    int rel[4] = {0, 0, SW, SH - 40};
    while (g->n < NVIEWS - 1) {
        /* keep adding subtrees under the root until there are enough views */
        g->len = 0;
        g->n = 2;
        put(g, "TASK 10175:com.example.gen id=444 userId=0\n"
               "  ACTIVITY com.example.gen/.MainActivity 1a2b3c pid=4321\n"
               "    Local Activity ba78f44 State:\n"
               "      mResumed=true mStopped=false mFinished=false\n"
               "    View Hierarchy:\n"
               "      DecorView@d2252f5[MainActivity]\n");
        emit_subtree(g, root, rel);
    }
    int nav = g->n++;
    g->v[nav] = (gview){0, 0, {0, SH - 40, SW, SH}, 'V', 1};
    int nrel[4] = {0, SH - 40, SW, SH};
    emit_subtree(g, nav, nrel);
    put(g, "    Looper (main, tid 2) {fcc85d5}\n");
}

/* Brute force: paint count per pixel from the generated tree. */
static void brute_force(const gen *g, uint64_t px[4])
{
    static uint16_t count[SW * SH];
    memset(count, 0, sizeof count);
    for (int i = 0; i < g->n; i++) {
        int r[4] = {0, 0, SW, SH}, visible = 1;
        for (int a = i; a >= 0; a = g->v[a].parent) {
            const gview *av = &g->v[a];
            visible &= av->vis == 'V';
            if (av->abs[0] > r[0]) r[0] = av->abs[0];
            if (av->abs[1] > r[1]) r[1] = av->abs[1];
            if (av->abs[2] < r[2]) r[2] = av->abs[2];
            if (av->abs[3] < r[3]) r[3] = av->abs[3];
        }
        if (!visible || !g->v[i].draws)
            continue;
        for (int y = r[1]; y < r[3]; y++)
            for (int x = r[0]; x < r[2]; x++)
                count[y * SW + x]++;
    }
    memset(px, 0, 4 * sizeof *px);
    for (int p = 0; p < SW * SH; p++)
        if (count[p] >= 2)
            px[count[p] - 1 >= 4 ? 3 : count[p] - 2]++;
}

typedef struct got {
    int rows;
    long views;
    uint64_t px[4];
    int has_paint;
} got;

static int on_row(void *ctx, json_t *row)
{
    got *g = ctx;
    g->rows++;
    g->views = (long)json_integer_value(json_object_get(row, "views"));
    g->has_paint = json_is_true(json_object_get(row, "has_paint"));
    static const char *const keys[4] = {"1", "2", "3", "4+"};
    for (int i = 0; i < 4; i++)
        g->px[i] = (uint64_t)json_integer_value(json_object_get(json_object_get(row, "overdraw_px"), keys[i]));
    return 0;
}

/* Writes `text` (UTF-8, or UTF-16LE with a BOM and CRLF), ingests it into a
 * fresh store and reads back godeye overdraw's row. */
static void ingest_and_read(const char *text, int utf16, got *out)
{
    char dir[] = "/tmp/godeye-check-od-XXXXXX", path[300], db[300];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/top.txt", dir);
    snprintf(db, sizeof db, "%s/g.db", dir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    if (!utf16) {
        fputs(text, f);
    } else {
        fputc(0xff, f);
        fputc(0xfe, f);
        for (const char *p = text; *p; p++) {
            if (*p == '\n') {
                fputc('\r', f);
                fputc(0, f);
            }
            fputc(*p, f);
            fputc(0, f);
        }
    }
    fclose(f);
    gd_store *s = NULL;
    gd_error err = {0};
    ck_assert_int_eq(gd_store_open(&s, db, GD_STORE_RW, &err), 0);
    char *inputs[] = {path};
    ck_assert_msg(gd_ingest(s, inputs, 1, NULL, NULL, NULL, &err) == 0, "%s", err.msg);
    memset(out, 0, sizeof *out);
    ck_assert_int_eq(gd_query_overdraw(s, NULL, 0, on_row, out, &err), 0);
    gd_store_close(s);
    unlink(path);
    unlink(db);
    rmdir(dir);
}

static void check_seed(uint64_t seed, uint64_t total[4])
{
    gen g;
    generate(&g, seed);
    ck_assert_int_ge(g.n, NVIEWS);
    uint64_t want[4];
    brute_force(&g, want);
    for (int i = 0; i < 4; i++)
        total[i] += want[i];
    if (getenv("GD_DUMP_GENERATED")) {
        FILE *f = fopen(getenv("GD_DUMP_GENERATED"), "w");
        if (f) {
            fputs(g.text, f);
            fclose(f);
        }
    }
    for (int utf16 = 0; utf16 < 2; utf16++) {
        got r;
        ingest_and_read(g.text, utf16, &r);
        ck_assert_int_eq(r.rows, 1);
        ck_assert_int_eq(r.views, g.n);
        ck_assert(r.has_paint);
        for (int i = 0; i < 4; i++)
            ck_assert_msg(r.px[i] == want[i], "seed %llu utf16 %d bucket %d: store %llu, brute force %llu",
                          (unsigned long long)seed, utf16, i, (unsigned long long)r.px[i],
                          (unsigned long long)want[i]);
    }
    free(g.text);
}

START_TEST(generated_dumps_match_brute_force)
{
    uint64_t total[4] = {0};
    for (uint64_t seed = 1; seed <= 8; seed++)
        check_seed(seed * 7919, total);
    /* the generated dumps must exercise every bucket */
    for (int i = 0; i < 4; i++)
        ck_assert_msg(total[i] > 1000, "bucket %d: only %llu px", i, (unsigned long long)total[i]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dumpsys_overdraw");
    TCase *tc = tcase_create("oracle");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, generated_dumps_match_brute_force);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
