/* check_input.c - byte streams: gzip, hashing, lines, peek, files, pull. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "io/input.h"
#include "testutil.h"

/* gzip of data (one member), malloc'ed; *out_n its size. */
static unsigned char *gz(const void *data, size_t n, size_t *out_n)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&z, n) + 64;
    unsigned char *out = malloc(cap);
    z.next_in = (unsigned char *)data;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    *out_n = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

/* Reads the whole input into a malloc'ed buffer; returns the read status of
 * the last call (0 at a clean end, -1 on error). */
static int slurp(gd_input *in, unsigned char **out, size_t *n, gd_error *err)
{
    size_t cap = 1 << 16, len = 0;
    unsigned char *b = malloc(cap);
    ssize_t k;
    for (;;) {
        if (cap - len < 4096)
            b = realloc(b, cap *= 2);
        k = gd_input_read(in, b + len, 4096, err);
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    *out = b;
    *n = len;
    return (int)k;
}

static const char sample[] = "first line\nsecond\r\n\nlast without newline";

START_TEST(test_plain_and_gzip_same_bytes_and_hash)
{
    size_t zn;
    unsigned char *z = gz(sample, strlen(sample), &zn);
    gd_input *a, *b;
    gd_error err;
    ck_assert_int_eq(gd_input_open_mem(&a, sample, strlen(sample), &err), 0);
    ck_assert_int_eq(gd_input_open_mem(&b, z, zn, &err), 0);
    unsigned char *da, *db;
    size_t na, nb;
    ck_assert_int_eq(slurp(a, &da, &na, &err), 0);
    ck_assert_int_eq(slurp(b, &db, &nb, &err), 0);
    ck_assert_uint_eq(na, strlen(sample));
    ck_assert_uint_eq(nb, strlen(sample));
    ck_assert_mem_eq(da, sample, na);
    ck_assert_mem_eq(db, sample, nb);
    ck_assert_int_eq(gd_input_is_gzip(a), 0);
    ck_assert_int_eq(gd_input_is_gzip(b), 1);
    ck_assert_uint_eq(gd_input_raw_bytes(a), strlen(sample));
    ck_assert_uint_eq(gd_input_raw_bytes(b), zn);
    ck_assert_int_eq(gd_input_raw_size(b), (int64_t)zn);
    char ha[33], hb[33];
    gd_input_hash_hex(a, ha);
    gd_input_hash_hex(b, hb);
    ck_assert_uint_eq(strlen(ha), 32);
    ck_assert_str_eq(ha, hb);
    free(da);
    free(db);
    free(z);
    gd_input_close(a);
    gd_input_close(b);
}
END_TEST

static void hash_of(const void *d, size_t n, char out[33])
{
    gd_input *in;
    gd_error err;
    unsigned char *b;
    size_t k;
    ck_assert_int_eq(gd_input_open_mem(&in, d, n, &err), 0);
    ck_assert_int_eq(slurp(in, &b, &k, &err), 0);
    gd_input_hash_hex(in, out);
    free(b);
    gd_input_close(in);
}

START_TEST(test_hash_pinned_and_distinct)
{
    /* The hash identifies already ingested inputs across versions: pinned. */
    char h[33], h2[33], h3[33];
    hash_of("", 0, h);
    ck_assert_str_eq(h, "48765f32a9e4ef16277e0443d4def058");
    hash_of("hello\n", 6, h);
    ck_assert_str_eq(h, "f0e3120918664eab9e0ad5f2cad8fa54");
    /* length matters (a trailing zero byte), and so does order */
    hash_of("hello\n\0", 7, h2);
    ck_assert_str_ne(h, h2);
    hash_of("abcdefgh12345678", 16, h2);
    hash_of("12345678abcdefgh", 16, h3);
    ck_assert_str_ne(h2, h3);
    /* reading in pieces gives the hash of the whole */
    gd_input *in;
    gd_error err;
    char buf[3];
    ck_assert_int_eq(gd_input_open_mem(&in, "abcdefgh12345678", 16, &err), 0);
    while (gd_input_read(in, buf, sizeof buf, &err) > 0)
        ;
    gd_input_hash_hex(in, h3);
    ck_assert_str_eq(h2, h3);
    gd_input_close(in);
}
END_TEST

START_TEST(test_gzip_concatenated_members)
{
    size_t n1, n2;
    unsigned char *z1 = gz("abc\n", 4, &n1), *z2 = gz("def", 3, &n2);
    unsigned char *cat = malloc(n1 + n2);
    memcpy(cat, z1, n1);
    memcpy(cat + n1, z2, n2);
    gd_input *in;
    gd_error err;
    ck_assert_int_eq(gd_input_open_mem(&in, cat, n1 + n2, &err), 0);
    unsigned char *d;
    size_t n;
    ck_assert_int_eq(slurp(in, &d, &n, &err), 0);
    ck_assert_uint_eq(n, 7);
    ck_assert_mem_eq(d, "abc\ndef", 7);
    char h1[33], h2[33];
    gd_input_hash_hex(in, h1);
    hash_of("abc\ndef", 7, h2);
    ck_assert_str_eq(h1, h2);
    free(d);
    gd_input_close(in);
    free(z1);
    free(z2);
    free(cat);
}
END_TEST

START_TEST(test_gzip_truncated_is_an_error)
{
    /* 200 KB of varied text, cut in the middle and just before the trailer */
    size_t n = 200000, zn;
    char *d = malloc(n);
    for (size_t i = 0; i < n; i++)
        d[i] = (char)('a' + (i * 7 + i / 13) % 26);
    unsigned char *z = gz(d, n, &zn);
    size_t cuts[] = {zn / 2, zn - 4, 12};
    for (int c = 0; c < 3; c++) {
        gd_input *in;
        gd_error err;
        gd_error_clear(&err);
        ck_assert_int_eq(gd_input_open_mem(&in, z, cuts[c], &err), 0);
        unsigned char *out;
        size_t got;
        ck_assert_int_eq(slurp(in, &out, &got, &err), -1);
        ck_assert_int_eq(err.code, GD_ERR_DATA);
        ck_assert_str_eq(err.msg, "truncated gzip stream");
        ck_assert_uint_le(got, n); /* the cut trailer loses no content */
        if (c != 1)
            ck_assert_uint_lt(got, n);
        free(out);
        gd_input_close(in);
    }
    /* and getline reports it with the line it was in */
    gd_input *in;
    gd_error err;
    gd_error_clear(&err);
    ck_assert_int_eq(gd_input_open_mem(&in, z, zn / 2, &err), 0);
    char *line;
    size_t len;
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), -1);
    ck_assert_str_eq(err.msg, "truncated gzip stream");
    ck_assert_int_eq(err.line, 1);
    gd_input_close(in);
    free(z);
    free(d);
}
END_TEST

START_TEST(test_gzip_corrupt)
{
    size_t zn;
    unsigned char *z = gz(sample, strlen(sample), &zn);
    z[3] = 0xE0; /* reserved header flag bits */
    gd_input *in;
    gd_error err;
    gd_error_clear(&err);
    ck_assert_int_eq(gd_input_open_mem(&in, z, zn, &err), 0);
    char buf[64];
    ck_assert_int_eq(gd_input_read(in, buf, sizeof buf, &err), -1);
    ck_assert_int_eq(err.code, GD_ERR_DATA);
    ck_assert_str_eq(err.msg, "corrupt gzip data (unknown header flags set)");
    gd_input_close(in);
    free(z);
}
END_TEST

START_TEST(test_getline_endings)
{
    static const char d[] = "a\r\nbb\n\n\r\nccc\nlast";
    gd_input *in;
    gd_error err;
    char *line;
    size_t len;
    ck_assert_int_eq(gd_input_open_mem(&in, d, strlen(d), &err), 0);
    ck_assert_int_eq(gd_input_lineno(in), 0);
    static const char *const want[] = {"a", "bb", "", "", "ccc", "last"};
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
        ck_assert_str_eq(line, want[i]);
        ck_assert_uint_eq(len, strlen(want[i]));
        ck_assert_int_eq(gd_input_lineno(in), i + 1);
    }
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 0);
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 0);
    ck_assert_int_eq(gd_input_lineno(in), 6);
    gd_input_close(in);

    /* last line "x\r" without newline loses its \r too; an empty input has no line */
    ck_assert_int_eq(gd_input_open_mem(&in, "x\r", 2, &err), 0);
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
    ck_assert_str_eq(line, "x");
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 0);
    gd_input_close(in);
    ck_assert_int_eq(gd_input_open_mem(&in, "", 0, &err), 0);
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 0);
    ck_assert_int_eq(gd_input_lineno(in), 0);
    gd_input_close(in);
}
END_TEST

/* 1.6 MB of lines whose lengths cross the 256 KiB read and 512 KiB line
 * buffers: short lines, a 700000-byte line (longer than the buffer), and
 * lines straddling 512 KiB and 1 MiB. */
static const size_t big_lens[] = {10, 300000, 224270, 5, 700000, 0, 300000, 99999, 3};
#define NBIG (sizeof big_lens / sizeof big_lens[0])

static char *big_input(size_t *n)
{
    size_t total = 0;
    for (size_t i = 0; i < NBIG; i++)
        total += big_lens[i] + 1;
    char *d = malloc(total), *p = d;
    for (size_t i = 0; i < NBIG; i++) {
        for (size_t k = 0; k < big_lens[i]; k++)
            *p++ = (char)('A' + (i + k) % 26);
        *p++ = '\n';
    }
    *n = total;
    return d;
}

static void check_big_lines(gd_input *in)
{
    char *line;
    size_t len;
    gd_error err;
    for (size_t i = 0; i < NBIG; i++) {
        ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
        ck_assert_uint_eq(len, big_lens[i]);
        ck_assert_uint_eq(strlen(line), big_lens[i]);
        for (size_t k = 0; k < len; k++)
            if (line[k] != (char)('A' + (i + k) % 26))
                ck_abort_msg("line %zu byte %zu differs", i + 1, k);
        ck_assert_int_eq(gd_input_lineno(in), (long)i + 1);
    }
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 0);
}

START_TEST(test_getline_across_buffers)
{
    size_t n, zn;
    char *d = big_input(&n);
    ck_assert_uint_gt(n, (size_t)1 << 20);
    gd_input *in;
    gd_error err;
    ck_assert_int_eq(gd_input_open_mem(&in, d, n, &err), 0);
    check_big_lines(in);
    gd_input_close(in);
    unsigned char *z = gz(d, n, &zn);
    ck_assert_int_eq(gd_input_open_mem(&in, z, zn, &err), 0);
    check_big_lines(in);
    gd_input_close(in);
    free(z);
    free(d);
}
END_TEST

START_TEST(test_getline_cap)
{
    /* exactly GD_INPUT_MAX_LINE bytes: a line; one more: an error */
    size_t max = GD_INPUT_MAX_LINE;
    char *d = malloc(max + 2);
    memset(d, 'a', max + 2);
    d[max] = '\n';
    gd_input *in;
    gd_error err;
    char *line;
    size_t len;
    ck_assert_int_eq(gd_input_open_mem(&in, d, max + 1, &err), 0);
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
    ck_assert_uint_eq(len, max);
    ck_assert_int_eq(line[max - 1], 'a');
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 0);
    gd_input_close(in);

    d[max] = 'a';
    d[max + 1] = '\n';
    gd_error_clear(&err);
    ck_assert_int_eq(gd_input_open_mem(&in, d, max + 2, &err), 0);
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), -1);
    ck_assert_int_eq(err.code, GD_ERR_DATA);
    ck_assert_int_eq(err.line, 1);
    ck_assert_str_eq(err.msg, "line longer than 16 MiB");
    gd_input_close(in);
    free(d);

    /* 65 MiB without any newline, after a short first line */
    size_t n = (size_t)65 << 20;
    d = malloc(n);
    memset(d, 'a', n);
    memcpy(d, "ok\n", 3);
    gd_error_clear(&err);
    ck_assert_int_eq(gd_input_open_mem(&in, d, n, &err), 0);
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
    ck_assert_str_eq(line, "ok");
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), -1);
    ck_assert_int_eq(err.line, 2);
    ck_assert_str_eq(err.msg, "line longer than 16 MiB");
    gd_input_close(in);
    free(d);
}
END_TEST

START_TEST(test_peek)
{
    gd_input *in;
    gd_error err;
    size_t n;
    int eof;
    char *line;
    size_t len;
    ck_assert_int_eq(gd_input_open_mem(&in, "hello\nworld", 11, &err), 0);
    const unsigned char *h = gd_input_peek(in, &n, &eof, &err);
    ck_assert_ptr_nonnull(h);
    ck_assert_uint_eq(n, 11);
    ck_assert_int_eq(eof, 1);
    ck_assert_mem_eq(h, "hello\nworld", 11);
    ck_assert_int_eq(h[11], 0); /* NUL-terminated */
    /* twice: same, nothing consumed */
    h = gd_input_peek(in, &n, &eof, &err);
    ck_assert_uint_eq(n, 11);
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
    ck_assert_str_eq(line, "hello");
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
    ck_assert_str_eq(line, "world");
    gd_input_close(in);

    /* larger than the peek window: GD_INPUT_PEEK bytes, not the end */
    size_t big = GD_INPUT_PEEK * 3;
    char *d = malloc(big);
    for (size_t i = 0; i < big; i++)
        d[i] = (char)('0' + i % 10);
    ck_assert_int_eq(gd_input_open_mem(&in, d, big, &err), 0);
    h = gd_input_peek(in, &n, &eof, &err);
    ck_assert_uint_eq(n, GD_INPUT_PEEK);
    ck_assert_int_eq(eof, 0);
    ck_assert_mem_eq(h, d, n);
    unsigned char *all;
    size_t got;
    ck_assert_int_eq(slurp(in, &all, &got, &err), 0);
    ck_assert_uint_eq(got, big);
    ck_assert_mem_eq(all, d, big);
    free(all);
    gd_input_close(in);

    /* exactly GD_INPUT_PEEK bytes: the whole stream, so eof */
    ck_assert_int_eq(gd_input_open_mem(&in, d, GD_INPUT_PEEK, &err), 0);
    h = gd_input_peek(in, &n, &eof, &err);
    ck_assert_uint_eq(n, GD_INPUT_PEEK);
    ck_assert_int_eq(eof, 1);
    gd_input_close(in);
    /* one byte more: not */
    ck_assert_int_eq(gd_input_open_mem(&in, d, GD_INPUT_PEEK + 1, &err), 0);
    h = gd_input_peek(in, &n, &eof, &err);
    ck_assert_uint_eq(n, GD_INPUT_PEEK);
    ck_assert_int_eq(eof, 0);
    gd_input_close(in);

    /* gzip small input: decompressed bytes, eof */
    size_t zn;
    unsigned char *z = gz("{\"a\":1}\n", 8, &zn);
    ck_assert_int_eq(gd_input_open_mem(&in, z, zn, &err), 0);
    h = gd_input_peek(in, &n, &eof, &err);
    ck_assert_uint_eq(n, 8);
    ck_assert_int_eq(eof, 1);
    ck_assert_mem_eq(h, "{\"a\":1}\n", 8);
    gd_input_close(in);
    /* empty input */
    ck_assert_int_eq(gd_input_open_mem(&in, "", 0, &err), 0);
    h = gd_input_peek(in, &n, &eof, &err);
    ck_assert_ptr_nonnull(h);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(eof, 1);
    gd_input_close(in);
    free(z);
    free(d);
}
END_TEST

/* Writes data to a new file in dir; returns its malloc'ed path. */
static char *write_file(const char *dir, const char *name, const void *data, size_t n)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *p = malloc(len);
    snprintf(p, len, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    fclose(f);
    return p;
}

START_TEST(test_files)
{
    char dir[] = "/tmp/gd_check_input_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *paths[4];
    paths[0] = write_file(dir, "1", "a\n", 2);
    paths[1] = write_file(dir, "2", "b", 1); /* no newline: joins the next */
    paths[2] = write_file(dir, "3", "", 0);
    paths[3] = write_file(dir, "4", "c\nd\n", 4);
    gd_input *in;
    gd_error err;
    char *line;
    size_t len;
    ck_assert_int_eq(gd_input_open_files(&in, paths, 4, &err), 0);
    ck_assert_int_eq(gd_input_raw_size(in), 7);
    static const char *const want[] = {"a", "bc", "d"};
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
        ck_assert_str_eq(line, want[i]);
    }
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 0);
    ck_assert_uint_eq(gd_input_raw_bytes(in), 7);
    ck_assert_int_eq(gd_input_raw_size(in), 7);
    gd_input_close(in);

    /* a single file */
    ck_assert_int_eq(gd_input_open_file(&in, paths[3], &err), 0);
    ck_assert_int_eq(gd_input_raw_size(in), 4);
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
    ck_assert_str_eq(line, "c");
    gd_input_close(in);

    /* a directory and a missing file */
    gd_error_clear(&err);
    in = NULL;
    ck_assert_int_eq(gd_input_open_file(&in, dir, &err), GD_ERR_IO);
    ck_assert_ptr_null(in);
    ck_assert_str_eq(err.msg, "is a directory");
    char missing[512];
    snprintf(missing, sizeof missing, "%s/nope", dir);
    gd_error_clear(&err);
    ck_assert_int_eq(gd_input_open_file(&in, missing, &err), GD_ERR_IO);
    ck_assert_str_eq(err.msg, "cannot open: No such file or directory");
    /* a missing member of a list fails when it is reached */
    char *two[2] = {paths[0], missing};
    gd_error_clear(&err);
    ck_assert_int_eq(gd_input_open_files(&in, two, 2, &err), 0);
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), 1);
    ck_assert_str_eq(line, "a");
    ck_assert_int_eq(gd_input_getline(in, &line, &len, &err), -1);
    ck_assert_str_eq(err.msg, "cannot open: No such file or directory");
    gd_input_close(in);
    /* a missing first member fails at open */
    char *first_missing[2] = {missing, paths[0]};
    gd_error_clear(&err);
    ck_assert_int_eq(gd_input_open_files(&in, first_missing, 2, &err), GD_ERR_IO);
    ck_assert_str_eq(err.msg, "cannot open: No such file or directory");

    for (int i = 0; i < 4; i++) {
        unlink(paths[i]);
        free(paths[i]);
    }
    rmdir(dir);
}
END_TEST

typedef struct pull_src {
    const unsigned char *d;
    size_t n, pos;
    int fail_at_end; /* -1 with a message instead of 0 at the end */
    int calls;
} pull_src;

static ssize_t pull_one(void *ctx, void *buf, size_t n, gd_error *err)
{
    pull_src *s = ctx;
    s->calls++;
    if (s->pos == s->n) {
        if (s->fail_at_end)
            return gd_error_set(err, GD_ERR_IO, 0, 0, "connection reset"), -1;
        return 0;
    }
    ck_assert_uint_gt(n, 0);
    *(unsigned char *)buf = s->d[s->pos++];
    return 1;
}

START_TEST(test_pull_one_byte_at_a_time)
{
    size_t n;
    char *d = big_input(&n);
    pull_src s = {(unsigned char *)d, n, 0, 0, 0};
    gd_input *in;
    gd_error err;
    ck_assert_int_eq(gd_input_open_pull(&in, pull_one, &s, &err), 0);
    ck_assert_int_eq(gd_input_raw_size(in), -1);
    check_big_lines(in);
    ck_assert_uint_eq(gd_input_raw_bytes(in), n);
    char h1[33], h2[33];
    gd_input_hash_hex(in, h1);
    gd_input_close(in);
    hash_of(d, n, h2);
    ck_assert_str_eq(h1, h2);

    /* gzip through the pull, one byte at a time */
    size_t zn;
    unsigned char *z = gz(sample, strlen(sample), &zn);
    pull_src sz = {z, zn, 0, 0, 0};
    ck_assert_int_eq(gd_input_open_pull(&in, pull_one, &sz, &err), 0);
    unsigned char *out;
    size_t got;
    ck_assert_int_eq(slurp(in, &out, &got, &err), 0);
    ck_assert_uint_eq(got, strlen(sample));
    ck_assert_mem_eq(out, sample, got);
    ck_assert_int_eq(gd_input_is_gzip(in), 1);
    free(out);
    gd_input_close(in);
    free(z);
    free(d);
}
END_TEST

START_TEST(test_pull_error)
{
    /* plain: the callback's error comes through */
    pull_src s = {(const unsigned char *)"abc", 3, 0, 1, 0};
    gd_input *in;
    gd_error err;
    gd_error_clear(&err);
    ck_assert_int_eq(gd_input_open_pull(&in, pull_one, &s, &err), 0);
    unsigned char *out;
    size_t got;
    ck_assert_int_eq(slurp(in, &out, &got, &err), -1);
    ck_assert_uint_eq(got, 3);
    ck_assert_str_eq(err.msg, "connection reset");
    free(out);
    gd_input_close(in);

    /* gzip: an error right after a complete member is still an error */
    size_t zn;
    unsigned char *z = gz(sample, strlen(sample), &zn);
    pull_src sz = {z, zn, 0, 1, 0};
    gd_error_clear(&err);
    ck_assert_int_eq(gd_input_open_pull(&in, pull_one, &sz, &err), 0);
    ck_assert_int_eq(slurp(in, &out, &got, &err), -1);
    ck_assert_int_eq(err.code, GD_ERR_IO);
    ck_assert_str_eq(err.msg, "connection reset");
    free(out);
    gd_input_close(in);
    free(z);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("input");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_plain_and_gzip_same_bytes_and_hash);
    tcase_add_test(tc, test_hash_pinned_and_distinct);
    tcase_add_test(tc, test_gzip_concatenated_members);
    tcase_add_test(tc, test_gzip_truncated_is_an_error);
    tcase_add_test(tc, test_gzip_corrupt);
    tcase_add_test(tc, test_getline_endings);
    tcase_add_test(tc, test_getline_across_buffers);
    tcase_add_test(tc, test_getline_cap);
    tcase_add_test(tc, test_peek);
    tcase_add_test(tc, test_files);
    tcase_add_test(tc, test_pull_one_byte_at_a_time);
    tcase_add_test(tc, test_pull_error);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
