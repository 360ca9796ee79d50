/* input_gzip.c - the raw bytes of an input and their gzip decompression. */
#include "input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "io/input_int.h"

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
void gd_input_pass_error(gd_error *err, const gd_error *e)
{
    if (!err)
        return;
    err->code = e->code;
    err->line = e->line;
    err->col = e->col;
    memcpy(err->msg, e->msg, sizeof err->msg);
}

/* Appends decompressed bytes to dbuf; returns >0 added, 0 at end, -1 error. */
int gd_input_fill_dec(gd_input *in, gd_error *err)
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
