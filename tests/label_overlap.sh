#!/bin/sh
# label_overlap.sh REPORT.html WIDTH... - loads a report page in headless
# Chromium at each window width and fails (exit 1, the overlapping pairs
# named) when two text labels of one timeline SVG overlap on screen: the
# boxes of their rendered text (getBoundingClientRect) meet by more than
# 1 px across and 2 px down (two 11 px lines 12 px apart touch by a font's
# descent, not by ink).  Exit 77 when chromium is absent (ctest: skipped).
set -eu
[ $# -ge 2 ] || { echo "usage: label_overlap.sh REPORT.html WIDTH..." >&2; exit 2; }
command -v chromium >/dev/null 2>&1 || { echo "label_overlap: no chromium: skipped"; exit 77; }
page=$1; shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the check, run once the page has drawn; its verdict as a <pre> in the DOM
cat >"$tmp/check.js" <<'JS'
<script>
window.addEventListener('load', function () { setTimeout(function () {
  var out = [], n = 0;
  document.querySelectorAll('#timeline svg').forEach(function (svg, si) {
    var ts = [].slice.call(svg.querySelectorAll('text')).filter(function (t) { return t.textContent.trim() !== ''; });
    var r = ts.map(function (t) { return t.getBoundingClientRect(); });
    n += ts.length;
    for (var i = 0; i < ts.length; i++)
      for (var j = i + 1; j < ts.length; j++) {
        var a = r[i], b = r[j];
        if (!a.width || !b.width) continue;
        var dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        var dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (dx > 1 && dy > 2)
          out.push('svg ' + si + ': "' + ts[i].textContent + '" meets "' + ts[j].textContent + '" (' + dx.toFixed(1) + ' x ' + dy.toFixed(1) + ' px)');
      }
  });
  var p = document.createElement('pre');
  p.id = 'gd-overlap';
  p.textContent = 'LABELS ' + n + ' OVERLAPS ' + out.length + '\n' + out.join('\n') + '\nEND';
  document.body.appendChild(p);
}, 200); });
</script>
JS
sed -e "/<\/body>/{r $tmp/check.js" -e "}" "$page" >"$tmp/page.html"
grep -q 'gd-overlap' "$tmp/page.html" || { echo "label_overlap: '$page' has no </body>" >&2; exit 1; }
rc=0
for w in "$@"; do
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$tmp/profile" --hide-scrollbars --force-device-scale-factor=1 \
        --window-size="$w,1200" --virtual-time-budget=5000 --dump-dom "file://$tmp/page.html" \
        2>/dev/null >"$tmp/dom.html" || true
    verdict=$(sed -n '/<pre id="gd-overlap">/,/END/p' "$tmp/dom.html" | sed 's/<pre id="gd-overlap">//; s/END<\/pre>.*$/END/')
    first=$(printf '%s\n' "$verdict" | head -1)
    case "$first" in
    "LABELS 0 "*) echo "$w px: no timeline label drawn"; rc=1 ;;
    *" OVERLAPS 0") echo "$w px: $(echo "$first" | cut -d" " -f2) labels, none overlap" ;;
    LABELS*) echo "$w px: $first"; printf '%s\n' "$verdict" | sed -n '2,/END/p' | grep -v '^END$' | sed 's/&quot;/"/g; s/&amp;/\&/g'; rc=1 ;;
    *) echo "$w px: the page did not run the check"; rc=1 ;;
    esac
done
exit $rc
