/* check_calltree.c - tests of call-tree rebuilding, clipping, merging, Matrix stack keys and Java names. */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltree.h"
#include "analysis/stats.h"

typedef struct got {
    gd_call c[64];
    int n;
} got;

static int collect(void *ctx, const gd_call *c)
{
    got *g = ctx;
    ck_assert_int_lt(g->n, 64);
    g->c[g->n++] = *c;
    return 0;
}

/* the collected call of a method starting at `start` */
static const gd_call *find(const got *g, int64_t method, double start)
{
    for (int i = 0; i < g->n; i++)
        if (g->c[i].method == method && g->c[i].start == start)
            return &g->c[i];
    ck_abort_msg("no call of %lld at %g", (long long)method, start);
    return NULL;
}

static void check_call(const gd_call *c, double end, int depth, double total, double self, int open,
                       int rec)
{
    ck_assert_double_eq_tol(c->end, end, 1e-9);
    ck_assert_int_eq(c->depth, depth);
    ck_assert_double_eq_tol(c->total, total, 1e-9);
    ck_assert_double_eq_tol(c->self, self, 1e-9);
    ck_assert_int_eq(c->open, open);
    ck_assert_int_eq(c->rec, rec);
}

enum { A = 1, B, C, FIB, ORPHAN, W1, W2 };

/* Main thread: A(0-100){ B(10-40){ C(20-30) } FIB(50-90){ FIB(60-80){ FIB(65-70) } } },
 * an exit of ORPHAN at 95 (unbalanced), A(200-) still open at the end (300).
 * Worker: W1(5-50){ W2(10-20) } with W1's exit closing W2 missing (W2 entered
 * again at 30, closed by W1's exit at 50). */
START_TEST(builder_enter_exit_two_threads)
{
    got g = {0};
    int64_t next = 1;
    gd_ctb m, w;
    ck_assert_int_eq(gd_ctb_init(&m, &next, collect, &g), 0);
    ck_assert_int_eq(gd_ctb_init(&w, &next, collect, &g), 0);
    gd_ctb_enter(&m, A, 0);
    gd_ctb_enter(&w, W1, 5);
    gd_ctb_enter(&m, B, 10);
    gd_ctb_enter(&w, W2, 10);
    gd_ctb_enter(&m, C, 20);
    gd_ctb_exit(&w, W2, 20);
    gd_ctb_exit(&m, C, 30);
    gd_ctb_enter(&w, W2, 30);
    gd_ctb_exit(&m, B, 40);
    gd_ctb_exit(&w, W1, 50);
    gd_ctb_enter(&m, FIB, 50);
    gd_ctb_enter(&m, FIB, 60);
    gd_ctb_enter(&m, FIB, 65);
    gd_ctb_exit(&m, FIB, 70);
    gd_ctb_exit(&m, FIB, 80);
    gd_ctb_exit(&m, FIB, 90);
    gd_ctb_exit(&m, ORPHAN, 95);
    gd_ctb_exit(&m, A, 100);
    gd_ctb_enter(&m, A, 200);
    ck_assert_int_eq(gd_ctb_finish(&m, 300), 0);
    ck_assert_int_eq(gd_ctb_finish(&w, 300), 0);
    ck_assert_int_eq(g.n, 10);
    ck_assert_int_eq(m.unbalanced, 1);
    ck_assert_int_eq(m.unclosed, 0);
    ck_assert_int_eq(w.unclosed, 1);
    ck_assert_int_eq(w.unbalanced, 0);
    const gd_call *a = find(&g, A, 0);
    check_call(a, 100, 0, 100, 100 - 30 - 40, 0, 0);
    ck_assert_int_eq(a->parent, 0);
    const gd_call *b = find(&g, B, 10);
    check_call(b, 40, 1, 30, 20, 0, 0);
    ck_assert_int_eq(b->parent, a->id);
    const gd_call *c = find(&g, C, 20);
    check_call(c, 30, 2, 10, 10, 0, 0);
    ck_assert_int_eq(c->parent, b->id);
    const gd_call *f1 = find(&g, FIB, 50), *f2 = find(&g, FIB, 60), *f3 = find(&g, FIB, 65);
    check_call(f1, 90, 1, 40, 20, 0, 0);
    check_call(f2, 80, 2, 20, 15, 0, 1);
    check_call(f3, 70, 3, 5, 5, 0, 1);
    ck_assert_int_eq(f2->parent, f1->id);
    ck_assert_int_eq(f3->parent, f2->id);
    check_call(find(&g, A, 200), 300, 0, 100, 100, 1, 0);
    const gd_call *w1 = find(&g, W1, 5);
    check_call(w1, 50, 0, 45, 45 - 10 - 20, 0, 0);
    check_call(find(&g, W2, 10), 20, 1, 10, 10, 0, 0);
    check_call(find(&g, W2, 30), 50, 1, 20, 20, 0, 0);
    ck_assert_int_eq(find(&g, W2, 30)->parent, w1->id);
    /* ids are unique across the two threads */
    for (int i = 0; i < g.n; i++)
        for (int j = i + 1; j < g.n; j++)
            ck_assert_int_ne(g.c[i].id, g.c[j].id);
    ck_assert_int_eq(next, 11);
    gd_ctb_free(&m);
    gd_ctb_free(&w);
}
END_TEST

/* The one exit rule over entries of any layout: an exit of M closes the
 * innermost open M and what is above it; mask 0 closes the innermost. */
START_TEST(exit_rule_closes_down_to_innermost_match)
{
    struct ent {
        double ts;
        int64_t key;
    } open[] = {{0, A}, {1, B}, {2, A | (int64_t)W1 << 32}, {3, C}};
    size_t off = offsetof(struct ent, key);
    ck_assert_int_eq(gd_ct_exit_closes(open, 4, sizeof *open, off, C, -1), 1);
    ck_assert_int_eq(gd_ct_exit_closes(open, 4, sizeof *open, off, B, -1), 3);
    /* A's innermost entry carries a high word: a full key skips it, the
     * low 32 bits (ART's method) match it */
    ck_assert_int_eq(gd_ct_exit_closes(open, 4, sizeof *open, off, A, -1), 4);
    ck_assert_int_eq(gd_ct_exit_closes(open, 4, sizeof *open, off, A, 0xffffffff), 2);
    ck_assert_int_eq(gd_ct_exit_closes(open, 4, sizeof *open, off, ORPHAN, -1), 0);
    ck_assert_int_eq(gd_ct_exit_closes(open, 4, sizeof *open, off, 0, 0), 1);
    ck_assert_int_eq(gd_ct_exit_closes(open, 0, sizeof *open, off, 0, 0), 0);
    ck_assert_int_eq(gd_ct_exit_closes(open, 2, sizeof *open, off, C, -1), 0);
}
END_TEST

/* Matrix's evil stack laid out in pre-order: (depth, method, start, cost). */
START_TEST(builder_complete_calls_by_depth)
{
    got g = {0};
    int64_t next = 1;
    gd_ctb b;
    gd_ctb_init(&b, &next, collect, &g);
    static const struct { int depth; int64_t m; double s, cost; } st[] = {
        {0, 100, 0, 1012}, {1, 2, 0, 1012}, {2, 3, 0, 508}, {3, 6, 0, 508},
        {2, 4, 508, 400}, {3, 99, 508, 150}, {2, 5, 908, 100},
    };
    for (size_t i = 0; i < 7; i++)
        gd_ctb_call(&b, st[i].m, st[i].s, st[i].s + st[i].cost, st[i].depth, 0);
    gd_ctb_finish(&b, 5000);
    ck_assert_int_eq(g.n, 7);
    check_call(find(&g, 100, 0), 1012, 0, 1012, 0, 0, 0);
    check_call(find(&g, 2, 0), 1012, 1, 1012, 4, 0, 0);
    check_call(find(&g, 3, 0), 508, 2, 508, 0, 0, 0);
    check_call(find(&g, 6, 0), 508, 3, 508, 508, 0, 0);
    check_call(find(&g, 4, 508), 908, 2, 400, 250, 0, 0);
    check_call(find(&g, 99, 508), 658, 3, 150, 150, 0, 0);
    check_call(find(&g, 5, 908), 1008, 2, 100, 100, 0, 0);
    ck_assert_int_eq(find(&g, 99, 508)->parent, find(&g, 4, 508)->id);
    ck_assert_int_eq(find(&g, 5, 908)->parent, find(&g, 2, 0)->id);
    gd_ctb_free(&b);
}
END_TEST

/* Without depth: nesting by interval containment; an open flag is kept. */
START_TEST(builder_complete_calls_by_interval)
{
    got g = {0};
    int64_t next = 1;
    gd_ctb b;
    gd_ctb_init(&b, &next, collect, &g);
    gd_ctb_call(&b, A, 0, 500, -1, 0);
    gd_ctb_call(&b, B, 100, 300, -1, 0);
    gd_ctb_call(&b, C, 400, 1000, -1, 1); /* not inside A: a root */
    gd_ctb_finish(&b, 1000);
    check_call(find(&g, A, 0), 500, 0, 500, 300, 0, 0);
    check_call(find(&g, B, 100), 300, 1, 200, 200, 0, 0);
    check_call(find(&g, C, 400), 1000, 0, 600, 600, 1, 0);
    gd_ctb_free(&b);
}
END_TEST

/* Stored calls of one thread: A(0-100){ B(10-40){ C(20-30) } B(50-90) }. */
static const gd_call stored[] = {
    {.id = 1, .parent = 0, .method = A, .start = 0, .end = 100, .depth = 0},
    {.id = 2, .parent = 1, .method = B, .start = 10, .end = 40, .depth = 1},
    {.id = 3, .parent = 2, .method = C, .start = 20, .end = 30, .depth = 2},
    {.id = 4, .parent = 1, .method = B, .start = 50, .end = 90, .depth = 1, .open = 1},
};

START_TEST(walker_clips_to_interval)
{
    got g = {0};
    gd_ctw w;
    gd_ctw_init(&w, 25, 60, collect, &g);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(gd_ctw_add(&w, &stored[i]), 0);
    ck_assert_int_eq(gd_ctw_finish(&w), 0);
    gd_ctw_free(&w);
    ck_assert_int_eq(g.n, 4);
    /* post-order: C, B, B', A */
    ck_assert_int_eq(g.c[0].id, 3);
    ck_assert_int_eq(g.c[3].id, 1);
    ck_assert_double_eq_tol(g.c[0].total, 5, 1e-9);  /* C clipped to 25-30 */
    ck_assert_double_eq_tol(g.c[1].total, 15, 1e-9); /* B 25-40 */
    ck_assert_double_eq_tol(g.c[1].self, 10, 1e-9);
    ck_assert_double_eq_tol(g.c[2].total, 10, 1e-9); /* B' 50-60 */
    ck_assert_int_eq(g.c[2].open, 1);
    ck_assert_double_eq_tol(g.c[3].total, 35, 1e-9); /* A 25-60 */
    ck_assert_double_eq_tol(g.c[3].self, 10, 1e-9);
    ck_assert_int_eq(g.c[0].seq, 2);
}
END_TEST

START_TEST(tree_merges_paths)
{
    gd_ctt *t = gd_ctt_new(-INFINITY, INFINITY);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(gd_ctt_add(t, &stored[i]), 0);
    const gd_ct_node *root = gd_ctt_finish(t);
    const gd_ct_node *a = root->child;
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_null(a->next);
    ck_assert_int_eq(a->method, A);
    ck_assert_int_eq(a->count, 1);
    ck_assert_double_eq_tol(a->total, 100, 1e-9);
    ck_assert_double_eq_tol(a->self, 30, 1e-9);
    const gd_ct_node *b = a->child;
    ck_assert_int_eq(b->method, B);
    ck_assert_int_eq(b->count, 2);
    ck_assert_int_eq(b->open, 1);
    ck_assert_double_eq_tol(b->total, 70, 1e-9);
    ck_assert_double_eq_tol(b->self, 60, 1e-9);
    ck_assert_ptr_null(b->next);
    ck_assert_int_eq(b->child->method, C);
    ck_assert_double_eq_tol(b->child->self, 10, 1e-9);
    gd_ctt_free(t);

    /* clipped to [35, 55]: C (20-30) drops out */
    t = gd_ctt_new(35, 55);
    for (int i = 0; i < 4; i++)
        gd_ctt_add(t, &stored[i]);
    root = gd_ctt_finish(t);
    ck_assert_double_eq_tol(root->child->total, 20, 1e-9);
    ck_assert_double_eq_tol(root->child->self, 10, 1e-9);
    ck_assert_double_eq_tol(root->child->child->total, 10, 1e-9);
    ck_assert_ptr_null(root->child->child->child);
    gd_ctt_free(t);
}
END_TEST

START_TEST(matrix_stack_key)
{
    /* the NORMAL issue of tests/fixtures/matrix/issues.jsonl, pre-order */
    gd_ct_item it[] = {{1048574, 0, 1012}, {2, 1, 1012}, {3, 2, 508}, {6, 3, 508},
                       {4, 2, 400},        {99, 3, 150}, {5, 2, 100}};
    /* limit 303: (depth+1)*cost = 1012, 2024, 1524, 2032, 1200 -> method 6 */
    ck_assert_int_eq(gd_ct_stack_key(it, 7, 1012, 1048574), 3);
    /* the ANR issue: dispatch 5006 at depth 0, B 5006 at depth 1 -> B */
    gd_ct_item anr[] = {{1048574, 0, 5006}, {4, 1, 5006}};
    ck_assert_int_eq(gd_ct_stack_key(anr, 2, 5006, 1048574), 1);
    /* the dispatch first of several is skipped for the next */
    gd_ct_item d[] = {{1048574, 0, 1000}, {7, 0, 400}};
    ck_assert_int_eq(gd_ct_stack_key(d, 2, 1000, 1048574), 1);
    /* alone it stays */
    ck_assert_int_eq(gd_ct_stack_key(d, 1, 1000, 1048574), 0);
    /* nothing reaches 30 %: the first item */
    gd_ct_item low[] = {{8, 0, 10}, {9, 1, 20}};
    ck_assert_int_eq(gd_ct_stack_key(low, 2, 1000, -1), 0);
    /* ties keep the earlier item (stable sort) */
    gd_ct_item tie[] = {{8, 1, 400}, {9, 1, 400}};
    ck_assert_int_eq(gd_ct_stack_key(tie, 2, 1000, -1), 0);
    ck_assert_int_eq(gd_ct_stack_key(tie, 0, 1000, -1), -1);
}
END_TEST

START_TEST(java_names)
{
    char buf[256];
    ck_assert_str_eq(gd_ct_java_name("a/b/C$D", "m", "(I)V", buf, sizeof buf), "a.b.C$D.m(int)");
    ck_assert_str_eq(gd_ct_java_name("a/b/C", "m", "(I[Ljava/lang/String;[[JZ)Ljava/util/List;", buf,
                                     sizeof buf),
                     "a.b.C.m(int, java.lang.String[], long[][], boolean)");
    ck_assert_str_eq(gd_ct_java_name("a/b/C", "<init>", "()V", buf, sizeof buf), "a.b.C.<init>()");
    ck_assert_str_eq(gd_ct_java_name("a.b.C", "m", NULL, buf, sizeof buf), "a.b.C.m");
    ck_assert_str_eq(gd_ct_java_name("a/b/C", "m", "(Lx;", buf, sizeof buf), "a.b.C.m");
    ck_assert_str_eq(gd_ct_java_name("a/b/C", "m", "(Q)V", buf, sizeof buf), "a.b.C.m");
    ck_assert_str_eq(gd_ct_java_name("a/b/C", "m", "(BCDFS)V", buf, sizeof buf),
                     "a.b.C.m(byte, char, double, float, short)");
    ck_assert_str_eq(gd_ct_dotted("com/example/Foo$Bar", buf, sizeof buf), "com.example.Foo$Bar");
    char small[8];
    ck_assert_str_eq(gd_ct_java_name("a/b/C", "method", "(I)V", small, sizeof small), "a.b.C.m");
}
END_TEST

START_TEST(streamed_percentile_matches)
{
    static const double v[] = {1, 2, 4, 8, 16, 32, 64};
    static const double ps[] = {0, 50, 90, 95, 99, 100};
    for (size_t n = 1; n <= 7; n++)
        for (size_t k = 0; k < 6; k++) {
            size_t lo, hi;
            gd_ct_pct_ranks(n, ps[k], &lo, &hi);
            ck_assert_uint_lt(hi, n);
            double got = gd_ct_pct_mix(n, ps[k], v[lo], v[hi]);
            ck_assert_double_eq_tol(got, gd_percentile(v, n, ps[k]), 1e-12);
        }
}
END_TEST


/* #25 item 6: a node with many distinct children finds each in O(1): the
 * slots compared stay a small multiple of the calls (a sibling scan makes
 * them N^2/2), and the merge is still right */
START_TEST(tree_many_children_linear)
{
    enum { N = 50000 };
    gd_ctt *t = gd_ctt_new(-INFINITY, INFINITY);
    gd_call root = {.id = 1, .parent = 0, .method = 1, .start = 0, .end = 2 * N + 10};
    ck_assert_int_eq(gd_ctt_add(t, &root), 0);
    for (int rep = 0; rep < 2; rep++)
        for (int i = 0; i < N; i++) {
            gd_call c = {.id = 2 + rep * N + i, .parent = 1, .method = 100 + i, .start = 1 + i,
                         .end = 1 + i + (i == 7 ? 3 : 0.5), .depth = 1};
            ck_assert_int_eq(gd_ctt_add(t, &c), 0);
        }
    ck_assert_uint_le(gd_ctt_probes(t), (size_t)4 * 2 * N);
    const gd_ct_node *r = gd_ctt_finish(t);
    const gd_ct_node *a = r->child;
    ck_assert_ptr_null(a->next);
    size_t k = 0;
    for (const gd_ct_node *c = a->child; c; c = c->next, k++)
        ck_assert_int_eq(c->count, 2);
    ck_assert_uint_eq(k, N);
    ck_assert_int_eq(a->child->method, 107); /* the longest first */
    ck_assert_double_eq_tol(a->child->total, 6, 1e-9);
    ck_assert_int_eq(a->child->next->method, 100); /* then by method */
    gd_ctt_free(t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("calltree");
    TCase *t = tcase_create("core");
    tcase_add_test(t, builder_enter_exit_two_threads);
    tcase_add_test(t, exit_rule_closes_down_to_innermost_match);
    tcase_add_test(t, builder_complete_calls_by_depth);
    tcase_add_test(t, builder_complete_calls_by_interval);
    tcase_add_test(t, walker_clips_to_interval);
    tcase_add_test(t, tree_merges_paths);
    tcase_add_test(t, matrix_stack_key);
    tcase_add_test(t, java_names);
    tcase_add_test(t, streamed_percentile_matches);
    tcase_add_test(t, tree_many_children_linear);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
