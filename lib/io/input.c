/* input.c - buffered byte streams with gzip, content hashing and lines. */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <stddef.h>
#include <stdint.h>

#define INPUT_RBUF (256 * 1024)
#define INPUT_DBUF (512 * 1024)

enum { INPUT_SRC_FD, INPUT_SRC_MEM, INPUT_SRC_PULL, INPUT_SRC_FILES };
enum { INPUT_ENC_UNKNOWN = -1, INPUT_ENC_ASIS = 0, INPUT_ENC_UTF16LE, INPUT_ENC_UTF16BE };

struct gd_input {
    int src;
    int fd;
    int own_fd;
    const unsigned char *mem;
    size_t mem_len, mem_pos;
    gd_pull_fn pull;
    void *pull_ctx;
    char **paths;
    size_t npaths, path_i;

    unsigned char *rbuf;   /* raw (maybe compressed) bytes */
    size_t r_pos, r_len;
    int raw_eof;

    int gz;                /* 1 gzip, 0 plain, -1 not yet known */
    int z_init;
    z_stream z;

    unsigned char *dbuf;   /* decompressed bytes */
    size_t d_pos, d_len;
    int eof;               /* no more decompressed bytes will come */

    char *lbuf;            /* line assembly */
    size_t l_cap;
    long lineno;
    int cut;           /* the last line returned had no "\n" (input ended) */

    uint64_t raw_bytes;
    int64_t raw_size;

    /* text encoding of the decompressed bytes (see input.h): when UTF-16,
     * ubuf holds them and dbuf their UTF-8 transcoding */
    int enc;               /* ENC_*; INPUT_ENC_UNKNOWN until the first fill */
    unsigned char *ubuf;
    size_t u_pos, u_len;
    int u_eof;
    gd_error *pend;        /* a read error met while looking ahead for the
                            * encoding, returned once the bytes before it
                            * are consumed */

    /* content hash: two 64-bit lanes over 8-byte words, tail buffered */
    uint64_t h1, h2, hlen;
    unsigned char htail[8];
    size_t htail_n;
};

static int gd_input_fill(gd_input *in, gd_error *err);
static int gd_input_fill_dec(gd_input *in, gd_error *err);
void gd_input_hash_update(gd_input *in, const unsigned char *p, size_t n);
int gd_input_open_path(gd_input *in, const char *path, gd_error *err);
static void gd_input_pass_error(gd_error *err, const gd_error *e);

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
        return gd_error_oom(err);
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
        return gd_error_oom(err);
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
        return gd_error_oom(err);
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
        return gd_error_oom(err);
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
                        return gd_error_oom_at(err, in->lineno + 1, 0), -1;
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
                    return gd_error_oom_at(err, in->lineno + 1, 0), -1;
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

/* ==== the raw bytes of an input and their gzip decompression. ==== */

/* Reads more raw bytes into rbuf (appending after r_len). */
static int raw_fill(gd_input *in, gd_error *err)
{
    if (in->raw_eof)
        return 0;
    if (in->r_pos > 0) {
        memmove(in->rbuf, in->rbuf + in->r_pos, in->r_len - in->r_pos);
        in->r_len -= in->r_pos;
        in->r_pos = 0;
    }
    size_t room = INPUT_RBUF - in->r_len;
    if (room == 0)
        return 1;
    ssize_t got = 0;
    for (;;) {
        switch (in->src) {
        case INPUT_SRC_MEM: {
            size_t left = in->mem_len - in->mem_pos;
            size_t k = left < room ? left : room;
            memcpy(in->rbuf + in->r_len, in->mem + in->mem_pos, k);
            in->mem_pos += k;
            got = (ssize_t)k;
            break;
        }
        case INPUT_SRC_PULL:
            got = in->pull(in->pull_ctx, in->rbuf + in->r_len, room, err);
            if (got < 0)
                return -1;
            break;
        default:
            got = read(in->fd, in->rbuf + in->r_len, room);
            if (got < 0) {
                if (errno == EINTR)
                    continue;
                gd_error_set(err, GD_ERR_IO, 0, 0, "read failed: %s", strerror(errno));
                return -1;
            }
            if (got == 0 && in->src == INPUT_SRC_FILES && in->path_i < in->npaths) {
                if (in->own_fd)
                    close(in->fd);
                in->fd = -1;
                long save = in->raw_size;
                if (gd_input_open_path(in, in->paths[in->path_i++], err))
                    return -1;
                in->raw_size = save;
                continue;
            }
            break;
        }
        break;
    }
    if (got == 0) {
        in->raw_eof = 1;
        return 0;
    }
    in->r_len += (size_t)got;
    in->raw_bytes += (uint64_t)got;
    return 1;
}

/* err gets the code, position and message of e (its source stays) */
static void gd_input_pass_error(gd_error *err, const gd_error *e)
{
    if (!err)
        return;
    err->code = e->code;
    err->line = e->line;
    err->col = e->col;
    memcpy(err->msg, e->msg, sizeof err->msg);
}

/* Appends decompressed bytes to dbuf; returns >0 added, 0 at end, -1 error. */
static int gd_input_fill_dec(gd_input *in, gd_error *err)
{
    if (in->pend) {
        gd_input_pass_error(err, in->pend);
        free(in->pend);
        in->pend = NULL;
        return -1;
    }
    if (in->eof)
        return 0;
    if (in->d_pos > 0 && in->d_pos == in->d_len)
        in->d_pos = in->d_len = 0;
    if (in->d_len == INPUT_DBUF) {
        if (in->d_pos == 0)
            return 1; /* full: caller must consume */
        memmove(in->dbuf, in->dbuf + in->d_pos, in->d_len - in->d_pos);
        in->d_len -= in->d_pos;
        in->d_pos = 0;
    }
    if (in->gz < 0) {
        while (in->r_len - in->r_pos < 2) {
            int r = raw_fill(in, err);
            if (r < 0)
                return -1;
            if (r == 0)
                break;
        }
        in->gz = (in->r_len - in->r_pos >= 2 && in->rbuf[in->r_pos] == 0x1f &&
                  in->rbuf[in->r_pos + 1] == 0x8b);
        if (in->gz) {
            memset(&in->z, 0, sizeof in->z);
            if (inflateInit2(&in->z, 15 + 32) != Z_OK) {
                gd_error_set(err, GD_ERR_IO, 0, 0, "zlib init failed");
                return -1;
            }
            in->z_init = 1;
        }
    }
    size_t before = in->d_len;
    while (in->d_len == before) {
        if (in->r_pos == in->r_len) {
            in->r_pos = in->r_len = 0;
            int r = raw_fill(in, err);
            if (r < 0)
                return -1;
            if (r == 0) {
                if (in->gz && in->z_init == 1) {
                    gd_error_set(err, GD_ERR_DATA, 0, 0, "truncated gzip stream");
                    return -1;
                }
                in->eof = 1;
                return 0;
            }
        }
        if (!in->gz) {
            size_t k = in->r_len - in->r_pos;
            size_t room = INPUT_DBUF - in->d_len;
            if (k > room)
                k = room;
            memcpy(in->dbuf + in->d_len, in->rbuf + in->r_pos, k);
            in->r_pos += k;
            in->d_len += k;
        } else {
            in->z.next_in = in->rbuf + in->r_pos;
            in->z.avail_in = (uInt)(in->r_len - in->r_pos);
            in->z.next_out = in->dbuf + in->d_len;
            in->z.avail_out = (uInt)(INPUT_DBUF - in->d_len);
            int zr = inflate(&in->z, Z_NO_FLUSH);
            in->r_pos = in->r_len - in->z.avail_in;
            in->d_len = INPUT_DBUF - in->z.avail_out;
            if (zr == Z_STREAM_END) {
                in->z_init = 2; /* member finished cleanly */
                int more = in->r_pos == in->r_len ? raw_fill(in, err) : 1;
                if (more < 0)
                    return -1;
                if (more == 0) {
                    if (in->d_len == before) {
                        in->eof = 1;
                        return 0;
                    }
                    break;
                }
                inflateReset(&in->z); /* concatenated member follows */
                in->z_init = 1;
            } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
                gd_error_set(err, GD_ERR_DATA, 0, 0, "corrupt gzip data (%s)",
                             in->z.msg ? in->z.msg : "inflate failed");
                return -1;
            }
        }
    }
    gd_input_hash_update(in, in->dbuf + before, in->d_len - before);
    return (int)(in->d_len - before > 0);
}

/* ==== the text encoding of an input: UTF-8 BOM dropped, UTF-16 to UTF-8. ==== */

/* ---- text encodings ------------------------------------------------------ */

/* 1 for the bytes a UTF-16 text without a BOM has in its low halves: the
 * printable ASCII characters and whitespace */
static int texty(unsigned char c)
{
    return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r';
}

/* The encoding of a decompressed head: a UTF-16 BOM, or UTF-16 without one
 * when at least GD_INPUT_UTF16_SAMPLE bytes (up to 512 looked at) are all
 * ASCII text with a NUL beside every character; never for binary data
 * (gzip is already undone; zip, protobuf, ART and perf.data heads have
 * non-text bytes or no NULs there). */
static int detect_enc(const unsigned char *p, size_t n)
{
    if (n >= 2 && p[0] == 0xff && p[1] == 0xfe)
        return INPUT_ENC_UTF16LE;
    if (n >= 2 && p[0] == 0xfe && p[1] == 0xff)
        return INPUT_ENC_UTF16BE;
    if (n < GD_INPUT_UTF16_SAMPLE)
        return INPUT_ENC_ASIS;
    size_t m = n < 512 ? n & ~(size_t)1 : 512;
    int le = 1, be = 1;
    for (size_t i = 0; i < m && (le || be); i += 2) {
        le = le && texty(p[i]) && p[i + 1] == 0;
        be = be && p[i] == 0 && texty(p[i + 1]);
    }
    return le ? INPUT_ENC_UTF16LE : be ? INPUT_ENC_UTF16BE : INPUT_ENC_ASIS;
}

/* fill_dec into ubuf (the UTF-16 bytes) instead of dbuf */
static int fill_u(gd_input *in, gd_error *err)
{
#define SWAP(T, a, b) do { T t_ = a; a = b; b = t_; } while (0)
    SWAP(unsigned char *, in->dbuf, in->ubuf);
    SWAP(size_t, in->d_pos, in->u_pos);
    SWAP(size_t, in->d_len, in->u_len);
    SWAP(int, in->eof, in->u_eof);
    int r = gd_input_fill_dec(in, err);
    SWAP(unsigned char *, in->dbuf, in->ubuf);
    SWAP(size_t, in->d_pos, in->u_pos);
    SWAP(size_t, in->d_len, in->u_len);
    SWAP(int, in->eof, in->u_eof);
#undef SWAP
    return r;
}

static size_t put_utf8(unsigned char *o, unsigned c)
{
    if (c < 0x80) {
        o[0] = (unsigned char)c;
        return 1;
    }
    if (c < 0x800) {
        o[0] = (unsigned char)(0xc0 | (c >> 6));
        o[1] = (unsigned char)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        o[0] = (unsigned char)(0xe0 | (c >> 12));
        o[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
        o[2] = (unsigned char)(0x80 | (c & 0x3f));
        return 3;
    }
    o[0] = (unsigned char)(0xf0 | (c >> 18));
    o[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
    o[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
    o[3] = (unsigned char)(0x80 | (c & 0x3f));
    return 4;
}

/* Transcodes what ubuf holds into dbuf (as much as fits); an unpaired
 * surrogate or a last odd byte becomes U+FFFD; U+FEFF is dropped (a
 * folder's files are read as one stream, each with its BOM). */
static void transcode(gd_input *in)
{
    const unsigned char *u = in->ubuf;
    int le = in->enc == INPUT_ENC_UTF16LE;
    while (in->u_len - in->u_pos >= 2 && INPUT_DBUF - in->d_len >= 4) {
        const unsigned char *b = u + in->u_pos;
        unsigned c = le ? (unsigned)b[0] | (unsigned)b[1] << 8 : (unsigned)b[0] << 8 | b[1];
        size_t used = 2;
        if (c >= 0xd800 && c <= 0xdbff) {
            if (in->u_len - in->u_pos < 4 && !in->u_eof)
                break; /* its pair comes with the next bytes */
            unsigned d = in->u_len - in->u_pos < 4 ? 0
                         : le ? (unsigned)b[2] | (unsigned)b[3] << 8
                              : (unsigned)b[2] << 8 | b[3];
            if (d >= 0xdc00 && d <= 0xdfff) {
                c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
                used = 4;
            } else {
                c = 0xfffd;
            }
        } else if (c >= 0xdc00 && c <= 0xdfff) {
            c = 0xfffd;
        }
        in->u_pos += used;
        if (c == 0xfeff)
            continue; /* the BOM of the next file of a concatenation */
        in->d_len += put_utf8(in->dbuf + in->d_len, c);
    }
    if (in->u_eof && in->u_len - in->u_pos == 1 && INPUT_DBUF - in->d_len >= 4) {
        in->u_pos++;
        in->d_len += put_utf8(in->dbuf + in->d_len, 0xfffd);
    }
}

/* Decides the encoding from the first bytes: a UTF-8 BOM is dropped,
 * UTF-16 is moved to ubuf to be transcoded.  0 or -1 on error. */
static int settle_enc(gd_input *in, gd_error *err)
{
    while (!in->eof && in->d_len - in->d_pos < 512) {
        gd_error e = {0};
        int r = gd_input_fill_dec(in, &e);
        if (r < 0 && in->d_len == in->d_pos) {
            gd_input_pass_error(err, &e);
            return -1;
        }
        if (r < 0) { /* the bytes before the error come first */
            in->pend = malloc(sizeof *in->pend);
            if (!in->pend) {
                gd_error_oom(err);
                return -1;
            }
            *in->pend = e;
            break;
        }
        if (r == 0)
            break;
    }
    const unsigned char *p = in->dbuf + in->d_pos;
    size_t n = in->d_len - in->d_pos;
    if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
        in->d_pos += 3;
        in->enc = INPUT_ENC_ASIS;
        return 0;
    }
    int enc = detect_enc(p, n);
    if (enc == INPUT_ENC_ASIS) {
        in->enc = INPUT_ENC_ASIS;
        return 0;
    }
    unsigned char *nb = malloc(INPUT_DBUF + 1);
    if (!nb) {
        gd_error_oom(err);
        return -1;
    }
    in->enc = enc;
    in->ubuf = in->dbuf;
    in->u_pos = in->d_pos;
    in->u_len = in->d_len;
    in->u_eof = in->eof;
    if (n >= 2 && (p[0] == 0xff || p[0] == 0xfe) && (p[1] == 0xff || p[1] == 0xfe))
        in->u_pos += 2; /* the BOM */
    in->dbuf = nb;
    in->d_pos = in->d_len = 0;
    in->eof = 0;
    return 0;
}

/* Appends decoded (UTF-8) bytes to dbuf: >0 added, 0 at end, -1 error. */
static int gd_input_fill(gd_input *in, gd_error *err)
{
    if (in->enc == INPUT_ENC_UNKNOWN) {
        size_t had = in->d_len - in->d_pos;
        if (settle_enc(in, err))
            return -1;
        if (in->enc == INPUT_ENC_ASIS)
            return in->d_len - in->d_pos > had ? 1 : gd_input_fill_dec(in, err);
    }
    if (in->enc == INPUT_ENC_ASIS)
        return gd_input_fill_dec(in, err);
    if (in->eof)
        return 0;
    if (in->d_pos > 0 && in->d_pos == in->d_len)
        in->d_pos = in->d_len = 0;
    if (INPUT_DBUF - in->d_len < 4) {
        if (in->d_pos == 0)
            return 1; /* full: caller must consume */
        memmove(in->dbuf, in->dbuf + in->d_pos, in->d_len - in->d_pos);
        in->d_len -= in->d_pos;
        in->d_pos = 0;
    }
    size_t before = in->d_len;
    for (;;) {
        transcode(in);
        if (in->d_len > before)
            return 1;
        if (in->u_eof) {
            in->eof = 1;
            return 0;
        }
        if (fill_u(in, err) < 0)
            return -1;
    }
}
