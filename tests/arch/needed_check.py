#!/usr/bin/env python3
"""needed_check.py - the godeye binary binds neither libcurl nor libzip at start (#50).

libcurl and the ~30 libraries it pulls in cost every command ~15 M
instructions in the dynamic loader, libzip (with libcrypto and libbz2)
~3 M; io/curl_dl.c loads libcurl with dlopen in the commands that speak
http(s), io/zip_dl.c libzip when a zip is first read.  This fails when
the binary names either among its NEEDED libraries again (a -lcurl or
-lzip back in the link), and when it names none of the ones it must
(readelf not reading it).

    needed_check.py BINARY
"""
import subprocess
import sys


def main():
    binary = sys.argv[1]
    out = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True, check=True).stdout
    needed = [line.split("[", 1)[1].rstrip("]") for line in out.splitlines() if "(NEEDED)" in line]
    bad = []
    if not any(n.startswith("libsqlite3.so") for n in needed):
        bad.append(f"no libsqlite3 among NEEDED {needed}: readelf did not read the binary")
    loaded = {"libcurl": "io/curl_dl.c", "libzip": "io/zip_dl.c"}
    bad += [f"'{binary}' needs {n} at start: {lib} is loaded on first use ({src})"
            for n in needed for lib, src in loaded.items() if n.startswith(lib + ".so")]
    for b in bad:
        print(f"needed_check: {b}", file=sys.stderr)
    print(f"needed_check: {len(needed)} NEEDED libraries: {' '.join(needed)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
