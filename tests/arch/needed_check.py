#!/usr/bin/env python3
"""needed_check.py - the godeye binary does not bind libcurl at start (#50).

libcurl and the ~30 libraries it pulls in cost every command ~15 M
instructions in the dynamic loader; io/curl_dl.c loads it with dlopen in
the commands that speak http(s).  This fails when the binary names
libcurl among its NEEDED libraries again (a -lcurl back in the link), and
when it names none of the ones it must (readelf not reading it).

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
    bad += [f"'{binary}' needs {n} at start: libcurl is loaded on first use (io/curl_dl.c)"
            for n in needed if n.startswith("libcurl")]
    for b in bad:
        print(f"needed_check: {b}", file=sys.stderr)
    print(f"needed_check: {len(needed)} NEEDED libraries: {' '.join(needed)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
