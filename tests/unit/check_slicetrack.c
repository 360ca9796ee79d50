/* check_slicetrack.c - tests of the one begin/end tracker (lib/reader/slicetrack.c). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "reader/slicetrack.h"
#include "testutil.h"

static gd_slice *named(gd_slicetrack *st, int ns, uint64_t id, const char *name, double ts, int *status)
{
    gd_slice *f = gd_slicetrack_begin(st, ns, id, 7, strlen(name), status);
    if (f) {
        char *c = malloc(strlen(name) + 1);
        strcpy(c, name);
        gd_slicetrack_name(st, f, c);
        f->ts = ts;
        f->tag = -1;
    }
    return f;
}

/* the same id on a thread and on a uuid track are two stacks: the track's
 * end closes the track's slice (Perfetto's separate-tracks case) */
START_TEST(tracks_apart)
{
    gd_slicetrack *st = gd_slicetrack_new(16, 8, 1 << 20);
    int s, depth;
    const gd_slice *parent;
    ck_assert_ptr_nonnull(named(st, GD_TRACK_UUID, 1, "event2", 20.0, &s));
    ck_assert_ptr_nonnull(named(st, GD_TRACK_THREAD, 1, "atrace", 21.0, &s));
    gd_slice *f = gd_slicetrack_end(st, GD_TRACK_UUID, 1, &depth, &parent, &s);
    ck_assert_int_eq(s, GD_ST_OK);
    ck_assert_str_eq(f->name, "event2");
    ck_assert(f->ts == 20.0);
    ck_assert_int_eq(depth, 0);
    ck_assert_ptr_null(parent);
    gd_slicetrack_release(st, f);
    f = gd_slicetrack_end(st, GD_TRACK_THREAD, 1, &depth, &parent, &s);
    ck_assert_str_eq(f->name, "atrace");
    gd_slicetrack_release(st, f);
    ck_assert_ptr_null(gd_slicetrack_end(st, GD_TRACK_THREAD, 1, &depth, &parent, &s));
    ck_assert_int_eq(s, GD_ST_UNMATCHED);
    ck_assert_ptr_null(gd_slicetrack_end(st, GD_TRACK_UUID, 99, &depth, &parent, &s));
    ck_assert_int_eq(s, GD_ST_UNMATCHED);
    gd_slicetrack_free(st);
}
END_TEST

/* depth 2: the third and fourth begins are dropped (DEEP once, then
 * DROPPED), their two ends close nothing, the next end closes "b" over "a" */
START_TEST(depth_bound)
{
    gd_slicetrack *st = gd_slicetrack_new(16, 2, 1 << 20);
    int s, depth;
    const gd_slice *parent;
    named(st, GD_TRACK_THREAD, 5, "a", 1, &s);
    named(st, GD_TRACK_THREAD, 5, "b", 2, &s);
    ck_assert_ptr_null(named(st, GD_TRACK_THREAD, 5, "c", 3, &s));
    ck_assert_int_eq(s, GD_ST_DEEP);
    ck_assert_ptr_null(named(st, GD_TRACK_THREAD, 5, "d", 4, &s));
    ck_assert_int_eq(s, GD_ST_DROPPED);
    for (int i = 0; i < 2; i++) {
        ck_assert_ptr_null(gd_slicetrack_end(st, GD_TRACK_THREAD, 5, &depth, &parent, &s));
        ck_assert_int_eq(s, GD_ST_DROPPED);
    }
    gd_slice *f = gd_slicetrack_end(st, GD_TRACK_THREAD, 5, &depth, &parent, &s);
    ck_assert_str_eq(f->name, "b");
    ck_assert_int_eq(depth, 1);
    ck_assert_str_eq(parent->name, "a");
    gd_slicetrack_release(st, f);
    /* a run still open at the end is reported once, then forgotten */
    named(st, GD_TRACK_THREAD, 5, "b2", 5, &s);
    named(st, GD_TRACK_THREAD, 5, "c2", 6, &s);
    ck_assert_int_eq(s, GD_ST_DEEP);
    ck_assert_int_eq(gd_slicetrack_forget_dropped(st, GD_TRACK_THREAD, 5), 1);
    ck_assert_int_eq(gd_slicetrack_forget_dropped(st, GD_TRACK_THREAD, 5), 0);
    /* unclosed begins pop innermost first */
    f = gd_slicetrack_pop_open(st, GD_TRACK_THREAD, 5, &depth, &parent);
    ck_assert_str_eq(f->name, "b2");
    ck_assert_int_eq(depth, 1);
    gd_slicetrack_release(st, f);
    f = gd_slicetrack_pop_open(st, GD_TRACK_THREAD, 5, &depth, &parent);
    ck_assert_str_eq(f->name, "a");
    gd_slicetrack_release(st, f);
    ck_assert_ptr_null(gd_slicetrack_pop_open(st, GD_TRACK_THREAD, 5, &depth, &parent));
    gd_slicetrack_free(st);
}
END_TEST

/* bytes: an entry is sizeof(gd_slice) (24) + name + NUL; with 60 bytes two
 * "abc" slices fit (28 each), the third is dropped (MEM) and so is every
 * begin above it, each counted, until its end; then begins fit again */
START_TEST(byte_bound_and_tracks)
{
    ck_assert_uint_eq(sizeof(gd_slice), 24);
    gd_slicetrack *st = gd_slicetrack_new(2, 8, 60);
    int s, depth;
    const gd_slice *parent;
    ck_assert_ptr_nonnull(named(st, GD_TRACK_THREAD, 1, "abc", 1, &s));
    ck_assert_ptr_nonnull(named(st, GD_TRACK_UUID, 1, "abc", 1, &s));
    ck_assert_ptr_null(named(st, GD_TRACK_THREAD, 1, "abc", 2, &s));
    ck_assert_int_eq(s, GD_ST_MEM);
    ck_assert_ptr_null(named(st, GD_TRACK_THREAD, 1, "x", 3, &s));
    ck_assert_int_eq(s, GD_ST_MEM);
    ck_assert_ptr_null(gd_slicetrack_end(st, GD_TRACK_THREAD, 1, &depth, &parent, &s));
    ck_assert_int_eq(s, GD_ST_DROPPED);
    ck_assert_ptr_null(gd_slicetrack_end(st, GD_TRACK_THREAD, 1, &depth, &parent, &s));
    ck_assert_int_eq(s, GD_ST_DROPPED);
    gd_slice *f = gd_slicetrack_end(st, GD_TRACK_UUID, 1, &depth, &parent, &s);
    gd_slicetrack_release(st, f);
    ck_assert_ptr_nonnull(named(st, GD_TRACK_THREAD, 1, "abc", 4, &s));
    /* two tracks at most: a third is FULL once, then FULL_MORE */
    ck_assert_ptr_null(named(st, GD_TRACK_THREAD, 2, "a", 5, &s));
    ck_assert_int_eq(s, GD_ST_FULL);
    ck_assert_ptr_null(named(st, GD_TRACK_THREAD, 3, "a", 5, &s));
    ck_assert_int_eq(s, GD_ST_FULL_MORE);
    size_t it = 0, n = 0;
    int ns;
    uint64_t id;
    int64_t owner;
    while (gd_slicetrack_next(st, &it, &ns, &id, &owner)) {
        ck_assert_int_eq(owner, 7);
        n++;
    }
    ck_assert_uint_eq(n, 2);
    gd_slicetrack_free(st); /* frees the slices still open */
}
END_TEST

/* closing down to a match (ART's exit of method M): tags 10, 20, 30, 20
 * open; an end for 20 closes the inner 20 only (1); an end for 10 closes
 * 30, 20 and 10 (3, popped innermost first at depths 2, 1, 0); then an end
 * with nothing open is UNMATCHED, one with no match NOMATCH; a begin past
 * the slice-count bound (4) is MEM, its end DROPPED whatever its tag */
static gd_slice *tagged(gd_slicetrack *st, int64_t tag, int *status)
{
    gd_slice *f = gd_slicetrack_begin(st, GD_TRACK_THREAD, 9, 9, 0, status);
    if (f)
        f->tag = tag;
    return f;
}

START_TEST(end_match_and_count_bound)
{
    gd_slicetrack *st = gd_slicetrack_new(16, 8, 1 << 20);
    gd_slicetrack_limit_slices(st, 4);
    static const int64_t tags[] = {10, 20, 30, 20};
    int s, depth, n;
    const gd_slice *parent;
    for (int i = 0; i < 4; i++)
        ck_assert_ptr_nonnull(tagged(st, tags[i] | (int64_t)7 << 32, &s));
    ck_assert_ptr_null(tagged(st, 40, &s));
    ck_assert_int_eq(s, GD_ST_MEM);
    ck_assert_int_eq(gd_slicetrack_end_match(st, GD_TRACK_THREAD, 9, 10, 0xffffffff, &s), 0);
    ck_assert_int_eq(s, GD_ST_DROPPED);
    gd_slice *open = gd_slicetrack_open(st, GD_TRACK_THREAD, 9, &n);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(open[2].tag & 0xffffffff, 30);
    ck_assert_int_eq(gd_slicetrack_end_match(st, GD_TRACK_THREAD, 9, 20, 0xffffffff, &s), 1);
    ck_assert_int_eq(s, GD_ST_OK);
    gd_slice *f = gd_slicetrack_pop_open(st, GD_TRACK_THREAD, 9, &depth, &parent);
    ck_assert_int_eq(f->tag, 20 | (int64_t)7 << 32);
    ck_assert_int_eq(depth, 3);
    ck_assert_int_eq(gd_slicetrack_end_match(st, GD_TRACK_THREAD, 9, 10, 0xffffffff, &s), 3);
    for (int want = 2; want >= 0; want--) {
        f = gd_slicetrack_pop_open(st, GD_TRACK_THREAD, 9, &depth, &parent);
        ck_assert_int_eq(depth, want);
        ck_assert_int_eq(f->tag & 0xffffffff, tags[want]);
    }
    ck_assert_ptr_null(gd_slicetrack_open(st, GD_TRACK_THREAD, 9, &n));
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(gd_slicetrack_end_match(st, GD_TRACK_THREAD, 9, 10, 0xffffffff, &s), 0);
    ck_assert_int_eq(s, GD_ST_UNMATCHED);
    ck_assert_int_eq(gd_slicetrack_end_match(st, GD_TRACK_THREAD, 8, 10, 0xffffffff, &s), 0);
    ck_assert_int_eq(s, GD_ST_UNMATCHED);
    tagged(st, 10, &s);
    ck_assert_int_eq(gd_slicetrack_end_match(st, GD_TRACK_THREAD, 9, 11, 0xffffffff, &s), 0);
    ck_assert_int_eq(s, GD_ST_NOMATCH);
    ck_assert_ptr_nonnull(gd_slicetrack_open(st, GD_TRACK_THREAD, 9, &n));
    ck_assert_int_eq(n, 1);
    gd_slicetrack_free(st);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("slicetrack");
    TCase *tc = tcase_create("slicetrack");
    tcase_add_test(tc, tracks_apart);
    tcase_add_test(tc, depth_bound);
    tcase_add_test(tc, byte_bound_and_tracks);
    tcase_add_test(tc, end_match_and_count_bound);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
