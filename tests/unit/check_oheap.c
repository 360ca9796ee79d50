/* check_oheap.c - the ordered heap of core/oheap.h (#33: one heap for the
 * Perfetto reader's slice and scheduling events, moving keys, not entries). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/oheap.h"
#include "testutil.h"

typedef struct ent {
    double ts;
    int arrival;
    char pad[40]; /* entries bigger than keys, as the reader's are */
} ent;

START_TEST(test_key_order)
{
    /* the maps keep < for signed integers and doubles, -0.0 as 0.0 */
    const int64_t iv[] = {INT64_MIN, -1000000000000LL, -1, 0, 1, 7, INT64_MAX};
    for (size_t i = 0; i + 1 < sizeof iv / sizeof *iv; i++)
        ck_assert_uint_lt(gd_oheap_key_i64(iv[i]), gd_oheap_key_i64(iv[i + 1]));
    const double dv[] = {-INFINITY, -1e300, -2.5, -1e-300, 0.0, 1e-300, 1.0, 10000.1, 1e300, INFINITY};
    for (size_t i = 0; i + 1 < sizeof dv / sizeof *dv; i++)
        ck_assert_uint_lt(gd_oheap_key_f64(dv[i]), gd_oheap_key_f64(dv[i + 1]));
    ck_assert_uint_eq(gd_oheap_key_f64(-0.0), gd_oheap_key_f64(0.0));
}
END_TEST

/* Pushes and pops interleaved (slots reused, the arrays grown) against a
 * reference that scans what waits for the smallest (ts, arrival). */
static void pop_against_scan(gd_oheap *h, ent *wait, size_t *nwait)
{
    size_t m = 0;
    for (size_t j = 1; j < *nwait; j++)
        if (wait[j].ts < wait[m].ts || (wait[j].ts == wait[m].ts && wait[j].arrival < wait[m].arrival))
            m = j;
    ent got;
    gd_oheap_pop(h, &got);
    ck_assert_int_eq(got.arrival, wait[m].arrival);
    ck_assert(got.ts == wait[m].ts);
    ck_assert_int_eq(got.pad[39], (char)(got.arrival & 0xff));
    wait[m] = wait[--*nwait];
}

START_TEST(test_against_scan)
{
    gd_oheap h;
    gd_oheap_init(&h, sizeof(ent));
    enum { N = 6000 };
    ent *wait = malloc(N * sizeof *wait);
    size_t nwait = 0, pops = 0, reused = 0;
    srand(33);
    for (int i = 0; i < N; i++) {
        ent e = {(double)(rand() % 2000) / 4 - 100, i, {0}};
        memset(e.pad, i & 0xff, sizeof e.pad);
        ent *slot = gd_oheap_push(&h, gd_oheap_key_f64(e.ts));
        ck_assert_ptr_nonnull(slot);
        *slot = e;
        wait[nwait++] = e;
        reused += h.nslots < (size_t)i + 1;
        /* take out what is older than the newest by 300, as the reader's window does */
        while (h.n && ((ent *)gd_oheap_at(&h, 0))->ts < e.ts - 300 && !(i % 3 == 0 && i < N / 2))
            pop_against_scan(&h, wait, &nwait), pops++;
        ck_assert_uint_eq(h.n, nwait);
    }
    ck_assert_uint_gt(pops, N / 4);
    while (h.n)
        pop_against_scan(&h, wait, &nwait);
    ck_assert_uint_eq(nwait, 0);
    ck_assert_uint_gt(reused, 0);
    ck_assert_uint_le(h.nslots, h.cap);
    gd_oheap_clear(&h);
    ck_assert_uint_eq(h.n, 0);
    ck_assert_ptr_null(h.k);
    free(wait);
}
END_TEST

/* Without pops in between, everything comes out sorted by (ts, arrival). */
START_TEST(test_full_sort_stable)
{
    gd_oheap h;
    gd_oheap_init(&h, sizeof(ent));
    enum { N = 20000 };
    srand(7);
    for (int i = 0; i < N; i++) {
        ent *slot = gd_oheap_push(&h, gd_oheap_key_f64((double)(rand() % 100)));
        ck_assert_ptr_nonnull(slot);
        *slot = (ent){0, i, {0}};
    }
    /* the keys were 0..99 with many equal: pop order is by key, then arrival */
    ent prev = {-1, -1, {0}};
    uint64_t pk = 0;
    for (int i = 0; i < N; i++) {
        uint64_t k = h.k[0].key;
        ent e;
        gd_oheap_pop(&h, &e);
        ck_assert_uint_ge(k, pk);
        if (k == pk)
            ck_assert_int_gt(e.arrival, prev.arrival);
        pk = k;
        prev = e;
    }
    ck_assert_uint_eq(h.n, 0);
    gd_oheap_clear(&h);
}
END_TEST

/* Lanes (#50): each lane's keys mostly rising (ties across lanes, a step
 * back now and then, one lane past the heap's), pops interleaved: the
 * same order out as one heap of every entry, with far fewer runs than
 * entries in the heap. */
START_TEST(test_lanes_against_scan)
{
    gd_oheap h;
    gd_oheap_init_lanes(&h, sizeof(ent), 7);
    enum { N = 8000, LANES = 8 };
    ent *wait = malloc(N * sizeof *wait);
    double last[LANES] = {0};
    size_t nwait = 0, max_n = 0, max_nk = 0;
    srand(50);
    for (int i = 0; i < N; i++) {
        int lane = rand() % LANES;
        last[lane] += (double)(rand() % 3) - (i % 50 == 0 ? 40 : 0);
        ent e = {last[lane], i, {0}};
        memset(e.pad, i & 0xff, sizeof e.pad);
        ent *slot = gd_oheap_push_lane(&h, gd_oheap_key_f64(e.ts), (size_t)lane);
        ck_assert_ptr_nonnull(slot);
        *slot = e;
        wait[nwait++] = e;
        if (h.n > max_n)
            max_n = h.n, max_nk = h.nk;
        while (h.n && ((ent *)gd_oheap_at(&h, 0))->ts < e.ts - 150 && i % 7)
            pop_against_scan(&h, wait, &nwait);
        ck_assert_uint_eq(h.n, nwait);
    }
    while (h.n)
        pop_against_scan(&h, wait, &nwait);
    ck_assert_uint_eq(h.nk, 0);
    ck_assert_uint_gt(max_n, 300);
    ck_assert_uint_lt(max_nk * 3, max_n); /* runs, not entries */
    gd_oheap_clear(&h);
    ck_assert_uint_eq(h.nlanes, 7);
    free(wait);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("oheap");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_key_order);
    tcase_add_test(tc, test_against_scan);
    tcase_add_test(tc, test_full_sort_stable);
    tcase_add_test(tc, test_lanes_against_scan);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
