#!/usr/bin/env python3
"""jmod_lib.py JMOD OUT.jar - library classes ProGuard 6.2 can read.

ProGuard 6.2 reads class files up to Java 13 (major 57); a newer JDK's
java.base.jmod holds major 61+.  Library classes are only read for their
hierarchy and member signatures, so the classes of java.lang, java.io and
java.util are copied with their major version set to 52 (Java 8).  A jmod
is a zip behind a 4-byte "JM\\1\\0" header."""
import io
import sys
import zipfile

jmod, out = sys.argv[1], sys.argv[2]
data = open(jmod, "rb").read()
z = zipfile.ZipFile(io.BytesIO(data[4:] if data[:2] == b"JM" else data))
n = 0
with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as o:
    for name in z.namelist():
        if not name.startswith("classes/") or not name.endswith(".class"):
            continue
        rel = name[len("classes/"):]
        if rel.endswith("module-info.class") or not rel.startswith(("java/lang/", "java/io/", "java/util/")):
            continue
        b = bytearray(z.read(name))
        if b[:4] != b"\xca\xfe\xba\xbe":
            continue
        if int.from_bytes(b[6:8], "big") > 57:
            b[6:8] = (52).to_bytes(2, "big")
        o.writestr(rel, bytes(b))
        n += 1
print(n, "library classes")
sys.exit(0 if n else 1)
