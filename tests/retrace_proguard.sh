#!/bin/sh
# retrace_proguard.sh GODEYE - compares `godeye retrace` with ProGuard's own
# retrace, frame by frame, on real obfuscated stack traces.
#
# A small Java program (tests/retrace/java: deep chains of small methods,
# exceptions thrown deep inside, an obfuscated exception class, an inner
# class on another thread) is compiled with javac --release 8, shrunk,
# optimised (inlining) and obfuscated by Debian's ProGuard 6.2
# (proguard-cli) with -printmapping, and run to record its stack traces.
# Both tools then read those traces and variants of them (no line numbers,
# "Unknown Source", lines outside every range, exception lines naming each
# obfuscated class); their outputs must be identical, except for frames
# without a line, where godeye follows R8's rules (the outermost member of
# each inline chain, "<OR> " alternatives) and each frame it prints must be
# one ProGuard lists there (tests/retrace/pg_compare.py).  Exit 77 (skipped)
# when java, javac or ProGuard are missing.
set -eu
godeye=$1
here=$(cd "$(dirname "$0")" && pwd)
pg=/usr/share/java/proguard.jar
rt=/usr/share/java/retrace.jar
for t in java javac python3; do
  command -v $t >/dev/null 2>&1 || { echo "skip: $t missing (scripts/deps.sh --test)"; exit 77; }
done
[ -r $pg ] && [ -r $rt ] || { echo "skip: ProGuard missing (apt-get install proguard-cli)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# library classes: a JDK 8 rt.jar as is, else java.base.jmod made readable
jhome=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')
if [ -r "$jhome/lib/rt.jar" ]; then
  lib="$jhome/lib/rt.jar"
elif [ -r "$jhome/jre/lib/rt.jar" ]; then
  lib="$jhome/jre/lib/rt.jar"
elif [ -r "$jhome/jmods/java.base.jmod" ]; then
  python3 "$here/retrace/jmod_lib.py" "$jhome/jmods/java.base.jmod" lib.jar >/dev/null
  lib=lib.jar
else
  echo "skip: no rt.jar or jmods in $jhome (a JDK, not a JRE, is needed)"; exit 77
fi

mkdir classes
javac --release 8 -g -d classes $(find "$here/retrace/java" -name '*.java')
cat > app.pro <<PRO
-injars classes
-outjars out.jar
-libraryjars $lib
-dontwarn java.**
-dontnote **
-keep public class com.example.app.Main { public static void main(java.lang.String[]); }
-keepattributes SourceFile,LineNumberTable
-renamesourcefileattribute SourceFile
-optimizationpasses 3
-allowaccessmodification
-printmapping mapping.txt
PRO
java -jar $pg @app.pro >proguard.log 2>&1 || { cat proguard.log; exit 1; }

# the real obfuscated traces
for a in 0 1 2 3; do java -cp out.jar com.example.app.Main $a; done 2>traces.txt || true
grep -q 'SourceFile:' traces.txt || { echo "no obfuscated frames recorded"; cat traces.txt; exit 1; }
# inlining must have happened: a chain in the mapping
awk '$1 ~ /^[0-9]+:[0-9]+:/ { if ($1 == prev && $NF == pn) chain = 1; prev = $1; pn = $NF } END { exit !chain }' mapping.txt \
  || { echo "ProGuard inlined nothing: no chain in mapping.txt"; exit 1; }

# variants
sed 's/(SourceFile:[0-9]*)/(SourceFile)/' traces.txt >noline.txt
sed 's/(SourceFile:[0-9]*)/(Unknown Source)/' traces.txt >unknown.txt
awk '{ if (match($0, /\(SourceFile:[0-9]+\)/)) { n = substr($0, RSTART + 12, RLENGTH - 13) + 7000;
       $0 = substr($0, 1, RSTART - 1) "(SourceFile:" n ")" substr($0, RSTART + RLENGTH) } print }' traces.txt >outside.txt
awk '/^[^ #].* -> .*:$/ { c = $3; sub(/:$/, "", c);
       print "Caused by: " c ": message"; print "Exception in thread \"main\" " c; print c; print "text " c }' mapping.txt >classes.txt

status=0
frames=0
for f in traces noline unknown outside classes; do
  java -jar $rt mapping.txt $f.txt >$f.proguard
  "$godeye" retrace --mapping mapping.txt $f.txt >$f.godeye
  case $f in
  noline|unknown)
    # without a line godeye follows R8, not ProGuard: its frames must be
    # among those ProGuard lists (tests/retrace/pg_compare.py)
    python3 "$here/retrace/pg_compare.py" $f.proguard $f.godeye >$f.cmp ||
      { echo "FAIL: $f.txt: $(cat $f.cmp)"; status=1; }
    continue;;
  esac
  if ! cmp -s $f.proguard $f.godeye; then
    echo "FAIL: $f.txt: godeye retrace differs from ProGuard's retrace:"
    diff -u $f.proguard $f.godeye || true
    status=1
  fi
  frames=$((frames + $(grep -c '^[[:space:]]' $f.proguard || true)))
done
# the retrace did something real (not two identities agreeing)
grep -q 'at com.example.util.Checker.fail(Checker.java:14)' traces.godeye || { echo "FAIL: Checker.fail not retraced"; status=1; }
grep -q 'at com.example.app.Main.inner(Main.java:45)' traces.godeye || { echo "FAIL: inline chain not expanded"; status=1; }
grep -q 'com.example.app.AppException: wrapped 1' traces.godeye || { echo "FAIL: exception class not retraced"; status=1; }
[ $status -eq 0 ] && echo "ok: $frames frame lines over 5 inputs: identical to ProGuard 6.2's retrace for 3, among ProGuard's alternatives for the 2 without lines"
exit $status
