/* input_int.h - the gd_input structure, shared by input.c, input_gzip.c, input_utf16.c. */
#ifndef GD_IO_INPUT_INT_H
#define GD_IO_INPUT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "io/input.h"

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
    char *cur_path;

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

int gd_input_fill(gd_input *in, gd_error *err);
int gd_input_fill_dec(gd_input *in, gd_error *err);
void gd_input_hash_update(gd_input *in, const unsigned char *p, size_t n);
int gd_input_open_path(gd_input *in, const char *path, gd_error *err);
void gd_input_pass_error(gd_error *err, const gd_error *e);

#endif
