/* check_icache.c - the bounded string -> id cache. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/icache.h"
#include "testutil.h"

START_TEST(test_get_put_overwrite)
{
    gd_icache *c = gd_icache_new(100, 4096);
    ck_assert_ptr_nonnull(c);
    int64_t id = 0;
    ck_assert_int_eq(gd_icache_get(c, "main", 4, &id), 0);
    gd_icache_put(c, "main", 4, 7);
    gd_icache_put(c, "render", 6, 8);
    ck_assert_uint_eq(gd_icache_count(c), 2);
    ck_assert_int_eq(gd_icache_get(c, "main", 4, &id), 1);
    ck_assert_int_eq(id, 7);
    ck_assert_int_eq(gd_icache_get(c, "render", 6, &id), 1);
    ck_assert_int_eq(id, 8);
    /* a prefix is another key */
    ck_assert_int_eq(gd_icache_get(c, "mai", 3, &id), 0);
    ck_assert_int_eq(gd_icache_get(c, "main!", 5, &id), 0);
    /* overwrite keeps one entry */
    gd_icache_put(c, "main", 4, -5);
    ck_assert_uint_eq(gd_icache_count(c), 2);
    ck_assert_int_eq(gd_icache_get(c, "main", 4, &id), 1);
    ck_assert_int_eq(id, -5);
    /* the empty key is a key */
    gd_icache_put(c, "", 0, 99);
    ck_assert_int_eq(gd_icache_get(c, "", 0, &id), 1);
    ck_assert_int_eq(id, 99);
    ck_assert_uint_eq(gd_icache_count(c), 3);
    gd_icache_free(c);
}
END_TEST

START_TEST(test_nul_bytes_in_keys)
{
    gd_icache *c = gd_icache_new(10, 1024);
    int64_t id = 0;
    gd_icache_put(c, "a\0b", 3, 1);
    gd_icache_put(c, "a\0c", 3, 2);
    gd_icache_put(c, "a", 1, 3);
    gd_icache_put(c, "\0\0", 2, 4);
    gd_icache_put(c, "\0", 1, 5);
    ck_assert_uint_eq(gd_icache_count(c), 5);
    ck_assert_int_eq(gd_icache_get(c, "a\0b", 3, &id), 1);
    ck_assert_int_eq(id, 1);
    ck_assert_int_eq(gd_icache_get(c, "a\0c", 3, &id), 1);
    ck_assert_int_eq(id, 2);
    ck_assert_int_eq(gd_icache_get(c, "a", 1, &id), 1);
    ck_assert_int_eq(id, 3);
    ck_assert_int_eq(gd_icache_get(c, "\0\0", 2, &id), 1);
    ck_assert_int_eq(id, 4);
    ck_assert_int_eq(gd_icache_get(c, "\0", 1, &id), 1);
    ck_assert_int_eq(id, 5);
    ck_assert_int_eq(gd_icache_get(c, "a\0", 2, &id), 0);
    gd_icache_free(c);
}
END_TEST

START_TEST(test_entry_bound)
{
    /* 4 entries at most: the 5th empties the cache, which keeps working */
    gd_icache *c = gd_icache_new(4, 1 << 20);
    char k[16];
    int64_t id;
    for (int i = 0; i < 4; i++) {
        snprintf(k, sizeof k, "k%d", i);
        gd_icache_put(c, k, strlen(k), 100 + i);
    }
    ck_assert_uint_eq(gd_icache_count(c), 4);
    for (int i = 0; i < 4; i++) {
        snprintf(k, sizeof k, "k%d", i);
        ck_assert_int_eq(gd_icache_get(c, k, strlen(k), &id), 1);
        ck_assert_int_eq(id, 100 + i);
    }
    gd_icache_put(c, "k4", 2, 104);
    ck_assert_uint_eq(gd_icache_count(c), 1);
    ck_assert_int_eq(gd_icache_get(c, "k0", 2, &id), 0);
    ck_assert_int_eq(gd_icache_get(c, "k3", 2, &id), 0);
    ck_assert_int_eq(gd_icache_get(c, "k4", 2, &id), 1);
    ck_assert_int_eq(id, 104);
    /* many more keys than the bound: never more than 4, last one present */
    for (int i = 0; i < 10000; i++) {
        snprintf(k, sizeof k, "key-%d", i);
        gd_icache_put(c, k, strlen(k), i);
        ck_assert_uint_le(gd_icache_count(c), 4);
        ck_assert_int_eq(gd_icache_get(c, k, strlen(k), &id), 1);
        ck_assert_int_eq(id, i);
    }
    /* counts run 2,3,4,1,2,... after "k4": key-i leaves (i + 1) % 4 + 1 */
    ck_assert_uint_eq(gd_icache_count(c), 1);
    gd_icache_free(c);
}
END_TEST

START_TEST(test_byte_bound)
{
    /* 40 bytes of keys: keys of 10 bytes, so 4 fit, the 5th empties it */
    gd_icache *c = gd_icache_new(1000, 40);
    int64_t id;
    const char *keys[] = {"aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "dddddddddd", "eeeeeeeeee"};
    for (int i = 0; i < 4; i++)
        gd_icache_put(c, keys[i], 10, i + 1);
    ck_assert_uint_eq(gd_icache_count(c), 4);
    ck_assert_int_eq(gd_icache_get(c, keys[3], 10, &id), 1);
    ck_assert_int_eq(id, 4);
    gd_icache_put(c, keys[4], 10, 5);
    ck_assert_uint_eq(gd_icache_count(c), 1);
    ck_assert_int_eq(gd_icache_get(c, keys[0], 10, &id), 0);
    ck_assert_int_eq(gd_icache_get(c, keys[4], 10, &id), 1);
    ck_assert_int_eq(id, 5);
    /* keys longer than a quarter of the bytes are not cached at all */
    gd_icache_put(c, "0123456789A", 11, 6);
    ck_assert_int_eq(gd_icache_get(c, "0123456789A", 11, &id), 0);
    ck_assert_uint_eq(gd_icache_count(c), 1);
    gd_icache_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("icache");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60); /* the bound tests fill the cache */
    tcase_add_test(tc, test_get_put_overwrite);
    tcase_add_test(tc, test_nul_bytes_in_keys);
    tcase_add_test(tc, test_entry_bound);
    tcase_add_test(tc, test_byte_bound);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
