/* input.c - buffered byte streams with gzip, content hashing and lines. */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "io/input_int.h"

static uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static void hash_word(gd_input *in, uint64_t w)
{
    in->h1 = rotl64((in->h1 ^ w) * 0x9E3779B185EBCA87ULL, 31) * 0xC2B2AE3D27D4EB4FULL;
    in->h2 = rotl64(in->h2 + w * 0x165667B19E3779F9ULL, 27) * 0x94D049BB133111EBULL + 0x27D4EB2F165667C5ULL;
}

void gd_input_hash_update(gd_input *in, const unsigned char *p, size_t n)
{
    in->hlen += n;
    while (n && in->htail_n) {
        in->htail[in->htail_n++] = *p++;
        n--;
        if (in->htail_n == 8) {
            uint64_t w;
            memcpy(&w, in->htail, 8);
            hash_word(in, w);
            in->htail_n = 0;
        }
    }
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        hash_word(in, w);
        p += 8;
        n -= 8;
    }
    while (n) {
        in->htail[in->htail_n++] = *p++;
        n--;
    }
}

static uint64_t fmix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

void gd_input_hash_hex(const gd_input *in, char out[33])
{
    uint64_t h1 = in->h1, h2 = in->h2, t = 0;
    memcpy(&t, in->htail, in->htail_n);
    h1 ^= fmix(t ^ in->hlen);
    h2 ^= fmix(t + 0x9E3779B97F4A7C15ULL * (in->hlen + 1));
    h1 = fmix(h1 + h2);
    h2 = fmix(h2 + h1);
    static const char hx[] = "0123456789abcdef";
    for (int i = 0; i < 8; i++) {
        out[i * 2] = hx[(h1 >> (60 - i * 8)) & 15];
        out[i * 2 + 1] = hx[(h1 >> (56 - i * 8)) & 15];
        out[16 + i * 2] = hx[(h2 >> (60 - i * 8)) & 15];
        out[16 + i * 2 + 1] = hx[(h2 >> (56 - i * 8)) & 15];
    }
    out[32] = 0;
}

static gd_input *alloc_input(int src)
{
    gd_input *in = calloc(1, sizeof *in);
    if (!in)
        return NULL;
    in->src = src;
    in->fd = -1;
    in->gz = -1;
    in->enc = INPUT_ENC_UNKNOWN;
    in->raw_size = -1;
    in->h1 = 0x243F6A8885A308D3ULL;
    in->h2 = 0x13198A2E03707344ULL;
    in->rbuf = malloc(INPUT_RBUF);
    in->dbuf = malloc(INPUT_DBUF + 1);
    if (!in->rbuf || !in->dbuf) {
        free(in->rbuf);
        free(in->dbuf);
        free(in);
        return NULL;
    }
    return in;
}

int gd_input_open_path(gd_input *in, const char *path, gd_error *err)
{
    struct stat st;
    if (strcmp(path, "-") == 0) {
        in->fd = 0;
        in->own_fd = 0;
        return GD_OK;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot open: %s", strerror(errno));
    if (fstat(fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            close(fd);
            return gd_error_set(err, GD_ERR_IO, 0, 0, "is a directory");
        }
        if (S_ISREG(st.st_mode))
            in->raw_size = (in->raw_size < 0 ? 0 : in->raw_size) + st.st_size;
    }
    in->fd = fd;
    in->own_fd = 1;
    return GD_OK;
}

int gd_input_open_file(gd_input **out, const char *path, gd_error *err)
{
    gd_input *in = alloc_input(INPUT_SRC_FD);
    if (!in)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    int rc = gd_input_open_path(in, path, err);
    if (rc) {
        gd_input_close(in);
        return rc;
    }
    *out = in;
    return GD_OK;
}

int gd_input_open_files(gd_input **out, char *const *paths, size_t n, gd_error *err)
{
    gd_input *in = alloc_input(INPUT_SRC_FILES);
    if (!in)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    in->paths = calloc(n ? n : 1, sizeof *in->paths);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        in->paths[i] = strdup(paths[i]);
        if (stat(paths[i], &st) == 0 && S_ISREG(st.st_mode))
            in->raw_size = (in->raw_size < 0 ? 0 : in->raw_size) + st.st_size;
    }
    in->npaths = n;
    if (n) {
        int64_t total = in->raw_size; /* already summed above */
        int rc = gd_input_open_path(in, in->paths[0], err);
        in->raw_size = total;
        if (rc) {
            gd_input_close(in);
            return rc;
        }
        in->path_i = 1;
    }
    *out = in;
    return GD_OK;
}

int gd_input_open_mem(gd_input **out, const void *data, size_t n, gd_error *err)
{
    gd_input *in = alloc_input(INPUT_SRC_MEM);
    if (!in)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    in->mem = data;
    in->mem_len = n;
    in->raw_size = (int64_t)n;
    *out = in;
    return GD_OK;
}

int gd_input_open_pull(gd_input **out, gd_pull_fn fn, void *ctx, gd_error *err)
{
    gd_input *in = alloc_input(INPUT_SRC_PULL);
    if (!in)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    in->pull = fn;
    in->pull_ctx = ctx;
    *out = in;
    return GD_OK;
}

void gd_input_close(gd_input *in)
{
    if (!in)
        return;
    if (in->own_fd && in->fd >= 0)
        close(in->fd);
    if (in->z_init)
        inflateEnd(&in->z);
    for (size_t i = 0; i < in->npaths; i++)
        free(in->paths[i]);
    free(in->paths);
    free(in->rbuf);
    free(in->dbuf);
    free(in->ubuf);
    free(in->pend);
    free(in->lbuf);
    free(in);
}

const unsigned char *gd_input_peek(gd_input *in, size_t *n, int *eof, gd_error *err)
{
    /* <=: with exactly GD_INPUT_PEEK bytes, one more fill tells the end */
    while (!in->eof && in->d_len - in->d_pos <= GD_INPUT_PEEK) {
        int r = gd_input_fill(in, err);
        if (r < 0)
            return NULL;
        if (r == 0)
            break;
    }
    *n = in->d_len - in->d_pos;
    if (*n > GD_INPUT_PEEK)
        *n = GD_INPUT_PEEK;
    *eof = in->eof && in->d_len - in->d_pos <= GD_INPUT_PEEK;
    in->dbuf[in->d_len] = 0;
    return in->dbuf + in->d_pos;
}

ssize_t gd_input_read(gd_input *in, void *buf, size_t n, gd_error *err)
{
    if (in->d_pos == in->d_len) {
        int r = gd_input_fill(in, err);
        if (r < 0)
            return -1;
        if (r == 0 && in->d_pos == in->d_len)
            return 0;
    }
    size_t k = in->d_len - in->d_pos;
    if (k > n)
        k = n;
    memcpy(buf, in->dbuf + in->d_pos, k);
    in->d_pos += k;
    return (ssize_t)k;
}

int gd_input_getline(gd_input *in, char **line, size_t *len, gd_error *err)
{
    size_t acc = 0; /* bytes already copied into lbuf */
    for (;;) {
        unsigned char *p = in->dbuf + in->d_pos;
        size_t avail = in->d_len - in->d_pos;
        unsigned char *nl = avail ? memchr(p, '\n', avail) : NULL;
        if (nl) {
            size_t k = (size_t)(nl - p);
            if (acc + k > GD_INPUT_MAX_LINE) {
                gd_error_set(err, GD_ERR_DATA, in->lineno + 1, 0,
                             "line longer than %zu MiB", GD_INPUT_MAX_LINE >> 20);
                return -1;
            }
            char *s;
            size_t total;
            if (acc == 0) {
                *nl = 0;
                s = (char *)p;
                total = k;
            } else {
                if (acc + k + 1 > in->l_cap) {
                    size_t cap = (acc + k + 1) * 2;
                    char *nb = realloc(in->lbuf, cap);
                    if (!nb)
                        return gd_error_set(err, GD_ERR_NOMEM, in->lineno + 1, 0, "out of memory"), -1;
                    in->lbuf = nb;
                    in->l_cap = cap;
                }
                memcpy(in->lbuf + acc, p, k);
                total = acc + k;
                in->lbuf[total] = 0;
                s = in->lbuf;
            }
            in->d_pos += k + 1;
            in->cut = 0;
            if (total && s[total - 1] == '\r')
                s[--total] = 0;
            in->lineno++;
            *line = s;
            *len = total;
            return 1;
        }
        /* no newline in the buffer: keep what we have, refill */
        if (avail) {
            if (acc + avail > GD_INPUT_MAX_LINE) {
                gd_error_set(err, GD_ERR_DATA, in->lineno + 1, 0,
                             "line longer than %zu MiB", GD_INPUT_MAX_LINE >> 20);
                return -1;
            }
            if (acc + avail + 1 > in->l_cap) {
                size_t cap = (acc + avail + 1) * 2;
                char *nb = realloc(in->lbuf, cap);
                if (!nb)
                    return gd_error_set(err, GD_ERR_NOMEM, in->lineno + 1, 0, "out of memory"), -1;
                in->lbuf = nb;
                in->l_cap = cap;
            }
            memcpy(in->lbuf + acc, p, avail);
            acc += avail;
            in->d_pos = in->d_len;
        }
        int r = gd_input_fill(in, err);
        if (r < 0) {
            if (err && err->line == 0)
                err->line = in->lineno + 1;
            return -1;
        }
        if (r == 0 && in->d_pos == in->d_len) {
            if (acc == 0)
                return 0;
            in->lbuf[acc] = 0;
            in->cut = 1;
            if (in->lbuf[acc - 1] == '\r')
                in->lbuf[--acc] = 0;
            in->lineno++;
            *line = in->lbuf;
            *len = acc;
            return 1;
        }
    }
}

long gd_input_lineno(const gd_input *in) { return in->lineno; }
int gd_input_line_cut(const gd_input *in) { return in->cut; }
int gd_input_file_fd(const gd_input *in)
{
    struct stat st;
    if (in->src != INPUT_SRC_FD || in->fd < 0 || in->gz == 1 || in->enc > INPUT_ENC_ASIS || fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    return in->fd;
}

int gd_input_is_gzip(const gd_input *in) { return in->gz == 1; }
const char *gd_input_encoding(const gd_input *in)
{
    return in->enc == INPUT_ENC_UTF16LE   ? "UTF-16LE"
           : in->enc == INPUT_ENC_UTF16BE ? "UTF-16BE"
                                          : NULL;
}
uint64_t gd_input_raw_bytes(const gd_input *in) { return in->raw_bytes; }
int64_t gd_input_raw_size(const gd_input *in) { return in->raw_size; }
