/* art_trace_bin.c - the binary part of an ART/Dalvik method trace. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltree.h"
#include "reader.h"
#include "core/util.h"
#include "reader/art_trace_int.h"

/* ---- binary part ---------------------------------------------------------- */

int gd_art_bin_header(art *a, int streaming_expected)
{
    unsigned char h[18];
    int r = gd_art_rd(a, h, 16);
    if (r < 0)
        return a->err->code;
    if (r != 1 || memcmp(h, ART_MAGIC, 4) != 0)
        return gd_art_bad(a, "no \"SLOW\" data header");
    uint32_t ver = gd_art_le16(h + 4), off = gd_art_le16(h + 6);
    a->streaming = (ver & 0xF0) == 0xF0;
    int v = (int)(ver & 0x0F);
    if ((ver & 0xFF00) || (ver & 0xF0 && !a->streaming) || v < 1 || v > 3 ||
        (streaming_expected >= 0 && a->streaming != streaming_expected))
        return gd_error_set(a->err, GD_ERR_DATA, 0, 0,
                            "art method trace: unsupported data version 0x%x at byte 4 "
                            "(versions 1 to 3 are read)", ver);
    a->start_us = (uint64_t)gd_art_le32(h + 8) | (uint64_t)gd_art_le32(h + 12) << 32;
    a->version = v; /* the record layout follows the data header */
    uint32_t rs = 0;
    size_t at = 16;
    if (v >= 3) {
        if ((r = gd_art_rd(a, h + 16, 2)) != 1)
            return r < 0 ? a->err->code : gd_art_bad(a, "data header cut short");
        rs = gd_art_le16(h + 16);
        at = 18;
    }
    if (off < at || off > 4096)
        return gd_art_bad(a, "data offset out of range");
    if ((r = gd_art_rd(a, NULL, off - at)) != 1 && off > at)
        return r < 0 ? a->err->code : gd_art_bad(a, "data header cut short");
    if (v == 1)
        rs = 9;
    else if (v == 2)
        rs = 10;
    else if (rs == 0)
        rs = a->clock == ART_CLK_DUAL ? 14 : 10;
    if (rs < (v == 1 ? 9u : 10u) || rs > 64)
        return gd_error_set(a->err, GD_ERR_DATA, 0, 0,
                            "art method trace: record size %u out of range at byte 16", rs);
    a->recsize = (int)rs;
    if (v < 3 && a->clock == ART_CLK_DUAL)
        a->clock = ART_CLK_WALL;
    if (rs >= 14 && (a->streaming || !a->have_clock))
        a->clock = ART_CLK_DUAL;
    else if (rs < 14 && a->clock == ART_CLK_DUAL)
        a->clock = ART_CLK_WALL;
    /* a streaming trace's pid comes with its summary, at the end */
    return a->streaming ? 0 : gd_art_send_meta(a);
}

/* One record after its thread id (already read: tid, and the first bytes
 * in p).  0 or an error. */
static int bin_record(art *a, unsigned tid, unsigned char *p, size_t have)
{
    size_t rest = (size_t)a->recsize - have;
    int r = gd_art_rd(a, p + have, rest);
    if (r < 0)
        return a->err->code;
    if (r != 1) {
        gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0);
        return 1;
    }
    size_t m = a->version == 1 ? 1 : 2;
    uint32_t mv = gd_art_le32(p + m), t1 = gd_art_le32(p + m + 4), t2 = a->recsize >= 14 ? gd_art_le32(p + m + 8) : 0;
    uint32_t cpu = a->clock == ART_CLK_DUAL ? t1 : a->clock == ART_CLK_CPU ? t1 : 0;
    uint32_t wall = a->clock == ART_CLK_DUAL ? t2 : t1;
    return gd_art_record(a, tid, mv, cpu, wall);
}

int gd_art_classic_records(art *a)
{
    unsigned char p[64];
    for (;;) {
        int r = gd_art_rd(a, p, 1);
        if (r < 0)
            return a->err->code;
        if (r == 0)
            return 0;
        unsigned tid = p[0];
        size_t have = 1;
        if (a->version != 1) {
            if ((r = gd_art_rd(a, p + 1, 1)) != 1) {
                if (r < 0)
                    return a->err->code;
                gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0);
                return 0;
            }
            tid = gd_art_le16(p);
            have = 2;
        }
        int rc = bin_record(a, tid, p, have);
        if (rc)
            return rc == 1 ? 0 : rc;
    }
}

int gd_art_streaming_records(art *a)
{
    unsigned char p[64];
    for (;;) {
        int r = gd_art_rd(a, p, 2);
        if (r < 0)
            return a->err->code;
        if (r == 0)
            return 0;
        if (r == 2) {
            gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0);
            return 0;
        }
        unsigned tid = gd_art_le16(p);
        if (tid) {
            int rc = bin_record(a, tid, p, 2);
            if (rc)
                return rc == 1 ? 0 : rc;
            continue;
        }
        uint64_t at = a->off - 2;
        if ((r = gd_art_rd(a, p, 1)) != 1)
            return r < 0 ? a->err->code : (gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0), 0);
        unsigned op = p[0];
        if (op == 1 || op == 2) {
            size_t hn = op == 1 ? 2 : 4;
            if ((r = gd_art_rd(a, p, hn)) != 1)
                return r < 0 ? a->err->code : (gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0), 0);
            size_t n = gd_art_le16(p + hn - 2);
            if ((r = gd_art_rd(a, a->line, n)) != 1)
                return r < 0 ? a->err->code : (gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0), 0);
            a->line[n] = 0;
            int rc;
            if (op == 2) {
                rc = gd_art_thread_name(a, gd_art_le16(p), a->line, n);
            } else {
                while (n && (a->line[n - 1] == '\n' || a->line[n - 1] == '\r'))
                    a->line[--n] = 0;
                rc = memchr(a->line, 0, n) ? (gd_sink_skip(a->sink, "art: method line unparsable", 0, 0), 0)
                                           : gd_art_method_line(a, a->line, 0);
            }
            if (rc)
                return rc;
        } else if (op == 3) {
            if ((r = gd_art_rd(a, p, 4)) != 1)
                return r < 0 ? a->err->code : (gd_sink_skip(a->sink, "art: record cut short at the end", 0, 0), 0);
            uint64_t limit = gd_art_le32(p);
            int sec = ART_SEC_NONE, first = 0;
            long lineno = 0;
            a->pid = -1;
            while ((r = gd_art_text_line(a, &limit, ++lineno)) == 1) {
                int rc = gd_art_header_line(a, &sec, &first, lineno);
                if (rc)
                    return rc;
            }
            if (r < 0)
                return a->err->code;
            if (limit)
                gd_sink_skip(a->sink, "art: summary cut short at the end", 0, 0);
            /* anything after the summary is not part of the trace */
            if (gd_art_fill(a) > 0)
                gd_sink_skip(a->sink, "art: bytes after the summary", 0, 0);
            return 0;
        } else {
            a->off = at;
            return gd_error_set(a->err, GD_ERR_DATA, 0, 0,
                                "art method trace: unknown special record %u at byte %llu", op,
                                (unsigned long long)at);
        }
    }
}
