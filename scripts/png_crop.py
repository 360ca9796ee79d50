#!/usr/bin/env python3
"""png_crop.py - keeps the left WIDTH pixels of a PNG, in place.

    png_crop.py FILE WIDTH

For scripts/report-shots.sh: headless Chromium lays a page out at least
500 px wide, so a phone-width page is drawn in an iframe of that width and
the screenshot cut to it.  8-bit RGB or RGBA, not interlaced (what Chromium
writes); anything else is refused with one line (exit 1)."""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def main():
    path, width = sys.argv[1], int(sys.argv[2])
    data = open(path, "rb").read()
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", ihdr)
    if depth != 8 or ctype not in (2, 6) or interlace:
        print(f"png_crop: '{path}': not an 8-bit RGB(A) non-interlaced PNG", file=sys.stderr)
        return 1
    bpp = 3 if ctype == 2 else 4
    raw, stride, out, prev = zlib.decompress(idat), w * bpp, bytearray(), bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            c = prev[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + (0, a, prev[i], (a + prev[i]) // 2, paeth(a, prev[i], c))[f]) & 255
        out += b"\0" + line[:min(width, w) * bpp]
        prev = line

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    hdr = struct.pack(">IIBBBBB", min(width, w), h, 8, ctype, 0, 0, 0)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", hdr) + chunk(b"IDAT", zlib.compress(bytes(out), 9)) + chunk(b"IEND", b""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
