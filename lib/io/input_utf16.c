/* input_utf16.c - the text encoding of an input: UTF-8 BOM dropped, UTF-16 to UTF-8. */
#include "input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "io/input_int.h"

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
                gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
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
        gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
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
int gd_input_fill(gd_input *in, gd_error *err)
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
