/* report.js - draws the report page from the embedded JSON (no network, no libraries). */
(function () {
  'use strict';
  var errs = [];
  window.addEventListener('error', function (e) {
    errs.push(String(e.message || e));
    var el = document.getElementById('errors');
    if (el) el.textContent = 'report error: ' + errs.join('\n');
    document.body.dataset.errors = String(errs.length);
  });
  var D = JSON.parse(document.getElementById('godeye-data').textContent);
  var SVGNS = 'http' + ':' + '/' + '/www.w3.org/2000/svg';
  var KIND = { short: '#e6a700', long: '#e0601b', anr: '#c5221f' };
  var OD = ['rgba(0,0,0,0)', 'rgba(60,90,255,0.55)', 'rgba(40,190,60,0.55)', 'rgba(255,110,190,0.65)', 'rgba(230,30,30,0.7)'];

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function sv(tag, attrs, title) {
    var e = document.createElementNS(SVGNS, tag);
    if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (title) { var t = document.createElementNS(SVGNS, 'title'); t.textContent = title; e.appendChild(t); }
    return e;
  }
  // a flame graph frame's name inside its box (cut with an ellipsis), when
  // the box is wide enough to hold some of it
  function frameLabel(svg, name, x, y, w) {
    if (w <= 40) return;
    var tx = sv('text', { x: x + 3, y: y + 12 });
    var maxc = Math.floor((w - 6) / 6);
    tx.textContent = name.length > maxc ? name.slice(0, Math.max(maxc - 1, 1)) + '\u2026' : name;
    svg.appendChild(tx);
  }

  function ms(v) { return v === null || v === undefined ? '-' : (v >= 1000 ? (v / 1000).toFixed(2) + ' s' : v.toFixed(1) + ' ms'); }
  function num(v) { return v === null || v === undefined ? '-' : String(v); }
  function bytes(v) { if (v === null || v === undefined) return '-'; var u = ['B', 'KB', 'MB', 'GB'], i = 0; while (v >= 1024 && i < 3) { v /= 1024; i++; } return v.toFixed(i ? 1 : 0) + ' ' + u[i]; }
  /* a time as godeye wrote it beside the number (o[k + '_text']): one rule for every output, by the trace's clock */
  function at(o, k) { var t = o ? o[k + '_text'] : null; return typeof t === 'string' ? t : (o && o[k] !== null && o[k] !== undefined ? String(o[k]) : '-'); }
  function since(ms) { return '+' + (ms / 1000).toFixed(2) + ' s'; }
  function sect(id, title) {
    var s = el('section', { id: id }); s.appendChild(el('h2', null, title));
    document.getElementById('content').appendChild(s); return s;
  }

  /* a sortable table: cols [{key, label, type: n|f|t, fmt}] */
  function table(rows, cols, onrow) {
    var t = el('table'), th = el('thead'), hr = el('tr'), tb = el('tbody');
    cols.forEach(function (c, ci) {
      var h = el('th', null, c.label);
      h.addEventListener('click', function () { sortBy(ci, h); });
      hr.appendChild(h);
    });
    th.appendChild(hr); t.appendChild(th); t.appendChild(tb);
    var items = rows.map(function (r, i) { return { r: r, i: i }; });
    function fill() {
      while (tb.firstChild) tb.removeChild(tb.firstChild);
      items.forEach(function (it) {
        var tr = el('tr');
        cols.forEach(function (c) {
          var v = it.r[c.key], td = el('td', { 'class': c.type || '' });
          if (c.cell) c.cell(td, it.r); else td.textContent = c.fmt ? c.fmt(v, it.r) : num(v);
          tr.appendChild(td);
        });
        tb.appendChild(tr);
        if (onrow) onrow(tr, it.r, tb);
      });
    }
    var dir = {};
    function sortBy(ci, h) {
      var c = cols[ci], d = dir[ci] = dir[ci] === 'desc' ? 'asc' : 'desc';
      Array.prototype.forEach.call(hr.children, function (x) { x.className = ''; });
      h.className = 'sorted-' + d;
      items.sort(function (a, b) {
        var x = c.sortv ? c.sortv(a.r) : a.r[c.key], y = c.sortv ? c.sortv(b.r) : b.r[c.key];
        if (x === y) return a.i - b.i;
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        var r = x < y ? -1 : 1;
        return d === 'asc' ? r : -r;
      });
      fill();
    }
    fill();
    return t;
  }

  /* ---- summary ---- */
  function summary() {
    var s = sect('summary', 'Summary'), m = D.summary || {}, cards = el('div', { 'class': 'cards' });
    var tr = D.traces || [];
    /* each trace's own app, version and device, never one trace's app with
     * another's device: the distinct triples, the first three named */
    var seen = {}, who = [];
    tr.forEach(function (t) {
      if (!t.app && !t.device) return;
      var w = (t.app || 'unknown app') + (t.version_name ? ' ' + t.version_name : '') + (t.device ? ' on ' + t.device : '');
      if (!seen[w]) { seen[w] = 1; who.push(w); }
    });
    var named = who.length ? who.slice(0, 3).join('; ') + (who.length > 3 ? '; +' + (who.length - 3) + ' more' : '') : 'unknown app';
    document.getElementById('sub').textContent = named +
      /* start and span only when the traces share a clock (one trace: its span) */
      (m.start_ms && (m.start_ms_text || tr.length === 1) ? ' \u2014 ' + (m.start_ms_text ? m.start_ms_text + ', ' : '') + ms(m.end_ms - m.start_ms) : '');
    [['traces', m.traces], ['dispatches', m.dispatches], ['blocks', m.blocks], ['long', m.long], ['ANR', m.anr],
     ['samples', m.samples], ['pages', m.pages], ['view dumps', m.dumps], ['images', m.images], ['frames', m.frames]]
      .forEach(function (c) { var d = el('div', { 'class': 'card' }); d.appendChild(el('b', null, num(c[1]))); d.appendChild(el('span', null, c[0])); cards.appendChild(d); });
    s.appendChild(cards);
    s.appendChild(el('h3', null, 'Traces'));
    /* #47: sources relative to their common folder, the full path on hover */
    if (D.sources_root) s.appendChild(el('div', { 'class': 'mute' }, 'Sources under ' + D.sources_root));
    s.appendChild(table(tr, [
      { key: 'trace', label: 'trace', type: 'n' }, { key: 'source', label: 'source', type: 'f', cell: function (td, r) {
        td.textContent = r.source_rel === undefined ? String(r.source) : String(r.source_rel); td.setAttribute('title', String(r.source)); td.className = 'f src';
      } },
      { key: 'format', label: 'format', fmt: String }, { key: 'app', label: 'app', fmt: num },
      { key: 'version_name', label: 'version', fmt: num }, { key: 'device', label: 'device', fmt: num },
      { key: 'clock', label: 'clock', fmt: num },
      { key: 'start_ms', label: 'start', fmt: function (v, r) { return at(r, 'start_ms'); } },
      { key: 'end_ms', label: 'span', type: 'n', fmt: function (v, r) { return ms(v - r.start_ms); }, sortv: function (r) { return r.end_ms - r.start_ms; } },
      { key: 'dispatches', label: 'dispatches', type: 'n' }, { key: 'blocks', label: 'blocks', type: 'n' }]));
    s.appendChild(el('h3', null, 'Worst blocks'));
    var wt = table(D.worst_blocks || [], blockCols(), function (tr, r) { tr.dataset.search = (r.key_frame || '') + ' ' + (r.group || ''); tr.className = 'srch'; });
    s.appendChild(wt);
  }
  /* what a block's key frame cell says when it has none */
  function keyFrame(r) { return r.key_frame !== null && r.key_frame !== undefined ? r.key_frame : r.samples ? '(no app frame in the samples)' : 'no samples'; }
  function threadOf(r) { return (r.thread || 'tid ' + r.tid) + (r.thread === 'main' || !r.thread ? '' : ' (' + r.tid + ')'); }
  /* the Looper message: handler, callback, what */
  function message(r) {
    if (!r.handler && !r.callback && (r.what === null || r.what === undefined)) return '-';
    return (r.handler || '?') + (r.callback ? ' \u00b7 ' + r.callback : '') + (r.what !== null && r.what !== undefined ? ' \u00b7 what ' + r.what : '');
  }
  function blockCols() {
    return [
      { key: 'id', label: 'block', type: 'n' }, { key: 'trace', label: 'trace', type: 'n' },
      { key: 'thread', label: 'thread', fmt: function (v, r) { return threadOf(r); } },
      { key: 'start_ms', label: 'start', fmt: function (v, r) { return at(r, 'start_ms'); } }, { key: 'duration_ms', label: 'duration', type: 'n', fmt: ms },
      { key: 'kind', label: 'kind', cell: function (td, r) { td.textContent = r.kind + (r.unfinished ? ' (unfinished)' : ''); td.className = 'kind-' + r.kind; } },
      { key: 'cpu_busy', label: 'cpu busy', fmt: function (v) { return v === null ? '-' : v ? 'yes' : 'no'; } },
      { key: 'samples', label: 'samples', type: 'n' }, { key: 'key_frame', label: 'key frame', type: 'f', fmt: function (v, r) { return keyFrame(r); } },
      { key: 'blame', label: 'blame (methods)', type: 'f', fmt: function (v) { return v === null || v === undefined ? '-' : v; } },
      { key: 'handler', label: 'message (handler \u00b7 callback \u00b7 what)', type: 'f', fmt: function (v, r) { return message(r); } }];
  }

  /* ---- timelines ---- */
  function timelines() {
    var tl = D.timelines || [];
    if (!tl.length) return;
    var s = sect('timeline', 'Timeline');
    var lg = el('div', { 'class': 'legend' });
    [['#5b7bd5', 'max dispatch per bin'], [KIND.short, 'short block'], [KIND.long, 'long block'], [KIND.anr, 'ANR'],
     ['#1e8e3e', 'CPU total'], ['#8e24aa', 'CPU app'], ['#00838f', 'heap alloc'], ['#555', 'page event']].forEach(function (l) {
      var sp = el('span'); sp.appendChild(el('span', { 'class': 'sw', style: 'background:' + l[0] })); sp.appendChild(document.createTextNode(l[1])); lg.appendChild(sp);
    });
    s.appendChild(lg);
    s.appendChild(el('div', { 'class': 'mute noprint' }, 'Drag across a chart to zoom in; double-click to zoom out.'));
    if (D.timelines_total > tl.length)
      s.appendChild(el('div', { 'class': 'mute' }, 'Timelines of the first ' + tl.length + ' of ' + D.timelines_total +
        ' traces; godeye report --trace ID draws any other.'));
    /* traces with nothing over time (an ANR dump, am start output) have no timeline */
    tl.forEach(function (t) { if (t.dispatch_bins.length || t.cpu.length || t.memory.length || t.blocks.length || t.page_events.length) timeline(s, t); });
  }
  /* the main thread's states as the report document gives them
   * ([ts_ms, dur_ms, class], merged and bounded by the query), a legend */
  var STATE_COLOR = { Running: '#1e8e3e', R: '#5b7bd5', S: '#cfd6e4', D: '#e8710a', other: '#888888' };
  var STATE_NAME = { Running: 'Running', R: 'Runnable', S: 'Sleeping', D: 'D (uninterruptible)', other: 'other' };
  function stateLane(svg, st, y, lh, L, PW, xt, span) {
    svg.appendChild(sv('text', { x: 4, y: y + 13 })).textContent = 'main state';
    svg.appendChild(sv('rect', { x: L, y: y, width: PW, height: lh - 2, fill: '#f7f8fb' }));
    st.forEach(function (iv) {
      var x = xt(iv[0]), w = Math.max(iv[1] / span * PW, 1);
      if (x + w < L || x > L + PW) return;
      svg.appendChild(sv('rect', { x: Math.max(x, L), y: y, width: Math.min(w, L + PW - Math.max(x, L)), height: lh - 2,
        fill: STATE_COLOR[iv[2]] || '#888888' }, (STATE_NAME[iv[2]] || iv[2]) + ': ' + ms(iv[1])));
    });
    var lx = L;
    ['Running', 'R', 'S', 'D', 'other'].forEach(function (k) {
      svg.appendChild(sv('rect', { x: lx, y: y + lh + 2, width: 10, height: 10, fill: STATE_COLOR[k] }));
      var tx = sv('text', { x: lx + 14, y: y + lh + 11, 'class': 'mute' });
      tx.textContent = STATE_NAME[k];
      svg.appendChild(tx);
      lx += 24 + STATE_NAME[k].length * 6.5;
    });
  }
  function timeline(s, t) {
    s.appendChild(el('h3', null, 'Trace ' + t.trace + (t.app ? ' \u2014 ' + t.app : '') + ' (' + t.blocks_total + ' blocks' +
      (t.blocks_total > t.blocks.length ? ', longest ' + t.blocks.length + ' shown' : '') + ')'));
    /* one lane of blocks per thread, the main thread first */
    var lanes = [], laneOf = {};
    t.blocks.forEach(function (b) {
      if (!(b.tid in laneOf)) { laneOf[b.tid] = lanes.length; lanes.push({ tid: b.tid, name: b.thread, main: b.thread === 'main' }); }
    });
    lanes.sort(function (a, b) { return a.main !== b.main ? (a.main ? -1 : 1) : a.tid - b.tid; });
    lanes.forEach(function (l, i) { laneOf[l.tid] = i; });
    /* drawn at the page's own width (text stays 11 px on a phone), at most
     * 1200; a lane with no rows (no CPU, no memory, no page events, no
     * blocks) is not drawn */
    var W = Math.round(Math.min(1200, Math.max(340, (s.clientWidth || 1200) - 2)));
    var L = 110, R = 10, PW = W - L - R, H1 = W < 700 ? 110 : 150, LH = 18, gap = 16;
    var HB = lanes.length * LH, HC = t.cpu.length ? 60 : 0, HM = t.memory.length ? 60 : 0, HP = t.page_events.length ? 34 : 0;
    /* #26: the main thread's states, a lane under the blocks (drawn by stateLane) */
    var ST = t.main_states || [], HS = ST.length ? LH + 16 : 0;
    var y0 = 8, yB = y0 + H1 + 6, yC = yB + HB + HS + (HB || HS ? gap : 0), yM = yC + HC + (HC ? gap : 0),
      yP = yM + HM + (HM ? gap : 0),
      yEnd = HP ? yP + HP : HM ? yM + HM : HC ? yC + HC : HB || HS ? yB + HB + HS : y0 + H1, H = yEnd + 18;

    var svg = sv('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, 'class': 'tl', preserveAspectRatio: 'xMinYMin meet' });
    s.appendChild(svg);
    var b0 = 0, b1 = t.bins;
    var dmax = t.long_ms;
    t.dispatch_bins.forEach(function (b) { if (b[1] > dmax) dmax = b[1]; });
    var mmax = 1;
    t.memory.forEach(function (m) { if (m[1] > mmax) mmax = m[1]; });
    function draw() {
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      var span = (b1 - b0) * t.bin_ms, tstart = t.start_ms + b0 * t.bin_ms;
      function xb(i) { return L + (i - b0) / (b1 - b0) * PW; }
      function xt(ts) { return L + (ts - tstart) / span * PW; }
      var bw = Math.max(PW / (b1 - b0), 1);
      function yd(v) { return y0 + H1 - Math.sqrt(v / dmax) * H1; }

      t.dispatch_bins.forEach(function (b) {
        if (b[0] < b0 || b[0] >= b1) return;
        var y = yd(b[1]);
        svg.appendChild(sv('rect', { x: xb(b[0]), y: y, width: bw, height: y0 + H1 - y, fill: '#5b7bd5' },
          since(b[0] * t.bin_ms) + ': ' + b[2] + ' dispatches, max ' + ms(b[1])));
      });
      /* left labels never overlap: a threshold's label only where no other
       * is within 13 px (its dashed line is always drawn), the lane's name
       * (two lines) in the first free place from its middle */
      var taken = [];
      function free(y, h) { return taken.every(function (u) { return y + h + 13 <= u[0] || y >= u[0] + u[1] + 13; }); }
      [['anr', t.anr_ms], ['long', t.long_ms], ['short', t.short_ms]].forEach(function (th) {
        if (th[1] > dmax) return;
        var y = yd(th[1]);
        svg.appendChild(sv('line', { x1: L, x2: L + PW, y1: y, y2: y, stroke: KIND[th[0]], 'stroke-dasharray': '4 3' }));
        if (!free(y + 4, 0)) return;
        taken.push([y + 4, 0]);
        svg.appendChild(sv('text', { x: 4, y: y + 4, fill: KIND[th[0]] })).textContent = th[0] + ' ' + th[1] + ' ms';
      });
      var yl = null;
      for (var d = 0; d <= H1 && yl === null; d += 6)
        [y0 + H1 / 2 + d, y0 + H1 / 2 - d].forEach(function (y) { if (yl === null && y >= y0 + 10 && y + 12 <= y0 + H1 && free(y, 12)) yl = y; });
      if (yl !== null) {
        svg.appendChild(sv('text', { x: 4, y: yl })).textContent = 'dispatch';
        svg.appendChild(sv('text', { x: 4, y: yl + 12 })).textContent = '(\u221a ms)';
      }
      lanes.forEach(function (l, i) {
        var nm = l.main ? 'main' : l.name || 'tid ' + l.tid;
        svg.appendChild(sv('text', { x: 4, y: yB + i * LH + 13 }, (l.name || 'thread') + ' (tid ' + l.tid + ')')).textContent = nm.length > 17 ? nm.slice(0, 16) + '\u2026' : nm;
        svg.appendChild(sv('rect', { x: L, y: yB + i * LH, width: PW, height: LH - 2, fill: i % 2 ? '#fafbfd' : '#f1f3f8' }));
      });
      t.blocks.forEach(function (b) {
        var x = xt(b.start_ms), w = Math.max(b.duration_ms / span * PW, 2);
        if (x + w < L || x > L + PW) return;
        var r = sv('rect', { x: Math.max(x, L), y: yB + laneOf[b.tid] * LH, width: Math.min(w, L + PW - Math.max(x, L)), height: LH - 2, fill: KIND[b.kind] || '#888' },
          b.kind + ' block ' + b.id + ' on ' + threadOf(b) + ': ' + ms(b.duration_ms) + '\n' + keyFrame(b));
        svg.appendChild(r);
      });
      if (HS) stateLane(svg, ST, yB + HB + 2, LH, L, PW, xt, span);
      if (HC) {
      svg.appendChild(sv('text', { x: 4, y: yC + 12 })).textContent = 'CPU';
      svg.appendChild(sv('text', { x: 4, y: yC + 24, 'class': 'mute' })).textContent = '% of all cores';
      svg.appendChild(sv('rect', { x: L, y: yC, width: PW, height: HC, fill: 'none', stroke: '#d9dee8' }));
      [0, 50, 100].forEach(function (p) {
        var y = yC + HC - p / 100 * HC;
        svg.appendChild(sv('line', { x1: L - 4, x2: L + PW, y1: y, y2: y, stroke: '#000', 'stroke-opacity': p % 100 ? 0.08 : 0.2 }));
        /* 0 and 100 % labelled; the 50 % line's label would meet "% of all cores" */
        if (p % 100 === 0) svg.appendChild(sv('text', { x: L - 8, y: y + 4, 'text-anchor': 'end' })).textContent = p + ' %';
      });
      [[1, '#1e8e3e'], [2, '#8e24aa']].forEach(function (c) {
        var pts = [];
        t.cpu.forEach(function (p) { if (p[0] >= b0 && p[0] < b1 && p[c[0]] !== null) pts.push(xb(p[0] + 0.5).toFixed(1) + ',' + (yC + HC - p[c[0]] * HC).toFixed(1)); });
        if (pts.length) svg.appendChild(sv('polyline', { points: pts.join(' '), fill: 'none', stroke: c[1], 'stroke-width': 1.5 }));
      });
      }
      if (HM) {
      svg.appendChild(sv('text', { x: 4, y: yM + 12 })).textContent = 'memory';
      svg.appendChild(sv('text', { x: 4, y: yM + 24, 'class': 'mute' })).textContent = (mmax / 1024).toFixed(0) + ' MB';
      svg.appendChild(sv('rect', { x: L, y: yM, width: PW, height: HM, fill: 'none', stroke: '#d9dee8' }));
      var mp = [];
      t.memory.forEach(function (p) { if (p[0] >= b0 && p[0] < b1 && p[1] !== null) mp.push(xb(p[0] + 0.5).toFixed(1) + ',' + (yM + HM - p[1] / mmax * HM).toFixed(1)); });
      if (mp.length) svg.appendChild(sv('polyline', { points: mp.join(' '), fill: 'none', stroke: '#00838f', 'stroke-width': 1.5 }));
      }
      if (HP) svg.appendChild(sv('text', { x: 4, y: yP + 12 })).textContent = 'pages';
      t.page_events.forEach(function (e) {
        var x = xt(e.ts_ms);
        if (x < L || x > L + PW) return;
        var draw = e.event === 'ON_DRAW' || e.event === 'ON_LOAD';
        svg.appendChild(sv('line', { x1: x, x2: x, y1: yP, y2: yP + HP, stroke: draw ? '#1e8e3e' : '#555', 'stroke-width': draw ? 2 : 1 },
          at(e, 'ts_ms') + ' ' + (e.event || '') + ' ' + (e.page || '')));
      });
      svg.appendChild(sv('text', { x: 4, y: H - 4, 'class': 'mute' })).textContent = 'time since start';
      /* time ticks: labels centred on their tick, the last ending at the
       * plot's edge, so ticks 1.5 widest labels apart (the last label, ~6.5
       * px a character at 11 px, and a 16 px gap), at most 6: labels never meet */
      var NT = Math.max(1, Math.min(6, Math.floor(PW / (1.5 * (since(tstart - t.start_ms + span).length * 6.5 + 16)))));
      for (var k = 0; k <= NT; k++) {
        var x = L + k * PW / NT;
        svg.appendChild(sv('line', { x1: x, x2: x, y1: y0, y2: yEnd, stroke: '#000', 'stroke-opacity': 0.08 }));
        /* the last label ends at the plot's edge, the others are centred */
        if (k) svg.appendChild(sv('text', { x: x, y: H - 4, 'text-anchor': k === NT ? 'end' : 'middle' })).textContent = since(tstart - t.start_ms + k * span / NT);
      }
      brush = sv('rect', { x: 0, y: y0, width: 0, height: yEnd - y0, fill: 'rgba(91,123,213,0.2)' });
      svg.appendChild(brush);
    }
    var brush, drag = null;
    function binAt(ev) {
      var r = svg.getBoundingClientRect(), x = (ev.clientX - r.left) * W / r.width;
      return b0 + Math.min(Math.max((x - L) / PW, 0), 1) * (b1 - b0);
    }
    svg.addEventListener('mousedown', function (ev) { drag = binAt(ev); ev.preventDefault(); });
    svg.addEventListener('mousemove', function (ev) {
      if (drag === null) return;
      var a = binAt(ev), lo = Math.min(a, drag), hi = Math.max(a, drag);
      brush.setAttribute('x', L + (lo - b0) / (b1 - b0) * PW);
      brush.setAttribute('width', (hi - lo) / (b1 - b0) * PW);
    });
    window.addEventListener('mouseup', function (ev) {
      if (drag === null) return;
      var a = binAt(ev), lo = Math.floor(Math.min(a, drag)), hi = Math.ceil(Math.max(a, drag));
      drag = null;
      if (hi - lo >= 2) { b0 = lo; b1 = hi; }
      draw();
    });
    svg.addEventListener('dblclick', function () { b0 = 0; b1 = t.bins; draw(); });
    draw();
  }

  /* ---- block groups with flame graphs ---- */
  function flameSvg(g) {
    var W = 1100, RH = 17, depth = 0;
    (function d(n, k) { if (k > depth) depth = k; n.children.forEach(function (c) { d(c, k + 1); }); })(g.flame, 0);
    var svg = sv('svg', { width: W, height: (depth + 1) * RH + 2, viewBox: '0 0 ' + W + ' ' + ((depth + 1) * RH + 2), 'class': 'flame' });
    var total = g.flame.value || 1;
    (function lay(n, x, k) {
      var w = n.value / total * W;
      var hue = n.name === 'all' ? 220 : (/^(android|java|javax|kotlin|dalvik|com\.android)\./.test(n.name) ? 200 : 25);
      var light = 55 + (k * 7) % 25;
      svg.appendChild(sv('rect', { x: x, y: k * RH, width: Math.max(w, 0.5), height: RH - 1, fill: 'hsl(' + hue + ',70%,' + light + '%)' },
        n.name + ' \u2014 ' + n.value + ' of ' + total + ' samples (' + (100 * n.value / total).toFixed(1) + '%)'));
      frameLabel(svg, n.name, x, k * RH, w);
      var cx = x;
      n.children.forEach(function (c) { lay(c, cx, k + 1); cx += c.value / total * W; });
    })(g.flame, 0, 0);
    return svg;
  }
  function groupDetail(g, nofl) {
    var box = el('div');
    if (!g) { box.appendChild(el('div', { 'class': 'mute' }, 'No samples kept for this group (only the first groups are detailed).')); return box; }
    box.appendChild(el('div', { 'class': 'mute' }, g.samples + ' stack samples in ' + g.count + ' blocks; frames under 0.5% of the samples are left out.'));
    if (g.samples && !nofl) box.appendChild(flameSvg(g));
    g.blocks.forEach(function (b) {
      var d = el('details'), sm = el('summary');
      sm.appendChild(el('span', { 'class': 'kind-' + b.kind }, b.kind));
      sm.appendChild(document.createTextNode(' block ' + b.id + ' (trace ' + b.trace + ', ' + threadOf(b) + ') at ' + at(b, 'start_ms') + ': ' + ms(b.duration_ms) + ', ' + b.samples + ' samples'));
      d.appendChild(sm);
      b.stacks.forEach(function (st, i) {
        d.appendChild(el('div', { 'class': 'mute' }, 'sample ' + (i + 1) + ' at ' + at(st, 'ts_ms')));
        var pre = el('div', { 'class': 'stack mono' });
        pre.textContent = st.frames.map(function (f) { return 'at ' + g.frames[f]; }).join('\n');
        pre.style.whiteSpace = 'pre-wrap';
        d.appendChild(pre);
      });
      if (b.samples > b.stacks.length) d.appendChild(el('div', { 'class': 'mute' }, (b.samples - b.stacks.length) + ' more samples not shown'));
      box.appendChild(d);
    });
    if (g.count > g.blocks.length) box.appendChild(el('div', { 'class': 'mute' }, (g.count - g.blocks.length) + ' shorter blocks not shown'));
    return box;
  }
  function groups() {
    var s = sect('groups', 'Block groups');
    var gs = D.groups || [], fl = D.flames || [];
    s.appendChild(el('div', { 'class': 'mute' }, 'Blocks grouped by key frame (the innermost app frame, without line number). Click a row for its flame graph and its blocks\u2019 samples.' +
      (D.groups_total > gs.length ? ' ' + gs.length + ' of ' + D.groups_total + ' groups shown.' : '')));
    gs.forEach(function (g, i) { g.rank = i; });
    var t = table(gs, [
      { key: 'count', label: 'count', type: 'n' }, { key: 'total_ms', label: 'total', type: 'n', fmt: ms },
      { key: 'p50_ms', label: 'p50', type: 'n', fmt: ms }, { key: 'p95_ms', label: 'p95', type: 'n', fmt: ms },
      { key: 'max_ms', label: 'max', type: 'n', fmt: ms }, { key: 'traces', label: 'traces', type: 'n' },
      { key: 'group', label: 'group (key frame, else handler, else slice name)', type: 'f', fmt: function (v) { return v === null ? '(no app frame, no handler, no name)' : v; } }],
      function (tr, g, tb) {
        var f = fl[g.rank] || null;
        tr.className = 'grp srch';
        tr.dataset.search = (g.group || '') + ' ' + (g.key_frame || '') + ' ' + (f ? f.frames.join(' ') : '');
        tr.addEventListener('click', function () {
          var nx = tr.nextSibling;
          if (nx && nx.className === 'detail') { tb.removeChild(nx); return; }
          var dr = el('tr', { 'class': 'detail' }), td = el('td', { colspan: 7 });
          td.appendChild(groupDetail(f, true)); dr.appendChild(td);
          tb.insertBefore(dr, tr.nextSibling);
        });
      });
    s.appendChild(t);
    /* the flame graphs of the heaviest groups, open on the page (and in print) */
    var shown = 0;
    gs.forEach(function (g, i) {
      var f = fl[i];
      if (!f || !f.samples || shown >= 6) return;
      shown++;
      var fb = el('div', { 'class': 'flamebox' });
      fb.appendChild(el('h3', { 'class': 'mono' }, (g.group === null ? '(blocks without a key frame)' : g.group)));
      fb.appendChild(el('div', { 'class': 'mute' }, g.count + (g.count === 1 ? ' block, ' : ' blocks, ') + ms(g.total_ms) + ' in all, max ' + ms(g.max_ms) + '; ' + f.samples + ' stack samples (outermost frame on top; frames under 0.5% left out; app frames orange, framework blue)'));
      fb.appendChild(flameSvg(f));
      s.appendChild(fb);
    });
    if (!shown) s.appendChild(el('div', { 'class': 'mute' }, 'No stack samples inside blocks: no flame graph.'));
  }

  /* ---- ANRs: the main thread's state, the lock owner, deadlock cycles ---- */
  function cycleSvg(cyc) {
    var n = cyc.length, W = 420, H = n > 2 ? 240 : 150, cx = W / 2, cy = H / 2, rad = n > 2 ? 80 : 0;
    var svg = sv('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, 'class': 'cycle' });
    var pos = cyc.map(function (th, i) {
      if (n === 2) return [i ? W - 90 : 90, cy];
      var a = -Math.PI / 2 + i * 2 * Math.PI / n; return [cx + rad * 1.6 * Math.cos(a), cy + rad * Math.sin(a)];
    });
    cyc.forEach(function (th, i) {
      var a = pos[i], b = pos[(i + 1) % n], dx = b[0] - a[0], dy = b[1] - a[1], d = Math.sqrt(dx * dx + dy * dy) || 1;
      var off = n === 2 ? (i ? 14 : -14) : 0, ux = dx / d, uy = dy / d;
      var x1 = a[0] + ux * 62, y1 = a[1] + uy * 22 + off, x2 = b[0] - ux * 62, y2 = b[1] - uy * 22 + off;
      svg.appendChild(sv('line', { x1: x1, y1: y1, x2: x2, y2: y2, stroke: '#c5221f', 'stroke-width': 1.5 },
        th.name + ' waits for ' + (th.lock || th.waiting_on || 'a lock') + ' held by ' + (cyc[(i + 1) % n].name)));
      /* the arrowhead, drawn (no markers: the page has no references to other resources) */
      var hx = x2 - ux * 9, hy = y2 - uy * 9;
      svg.appendChild(sv('polygon', { points: x2 + ',' + y2 + ' ' + (hx - uy * 4) + ',' + (hy + ux * 4) + ' ' + (hx + uy * 4) + ',' + (hy - ux * 4), fill: '#c5221f' }));
      var lt = sv('text', { x: (x1 + x2) / 2, y: (y1 + y2) / 2 + (off < 0 ? -5 : off > 0 ? 13 : -5), 'text-anchor': 'middle', 'class': 'lk' });
      var lk = th.lock || th.waiting_on || '';
      lt.textContent = lk.length > 34 ? '\u2026' + lk.slice(-33) : lk;
      svg.appendChild(lt);
    });
    cyc.forEach(function (th, i) {
      var p = pos[i];
      svg.appendChild(sv('rect', { x: p[0] - 60, y: p[1] - 18, width: 120, height: 36, rx: 6, fill: th.name === 'main' ? '#fdecea' : '#eef3ff', stroke: '#1d2330' }));
      var t1 = sv('text', { x: p[0], y: p[1] - 2, 'text-anchor': 'middle' }); t1.textContent = th.name.length > 18 ? th.name.slice(0, 17) + '\u2026' : th.name; svg.appendChild(t1);
      var t2 = sv('text', { x: p[0], y: p[1] + 12, 'text-anchor': 'middle', 'class': 'mute' }); t2.textContent = 'tid ' + th.tid; svg.appendChild(t2);
    });
    return svg;
  }
  function anrs() {
    var as = D.anrs || [];
    if (!as.length) return;
    var s = sect('anrs', 'ANRs');
    var sm = D.summary || {};
    function pl(n, w) { return num(n) + ' ' + w + (n === 1 ? '' : 's'); }
    s.appendChild(el('div', { 'class': 'mute' }, pl(sm.anr, 'ANR') + ' (' + pl(sm.anr_dumps, 'dump') + ' the system took for an ANR, ' +
      pl(sm.anr_blocks, 'main-thread block') + ' of kind anr); ' + pl(sm.snapshot_dumps, 'other dump') + ': snapshots, never counted' +
      (D.anrs_quiet ? ', ' + D.anrs_quiet + ' of them quiet (no lock wait, no deadlock) and not shown' : '') + '.'));
    if (D.anrs_total > as.length) s.appendChild(el('div', { 'class': 'mute' }, as.length + ' of ' + D.anrs_total + ' dumps shown.'));
    /* #48: the ANRs of record in groups of one signature (godeye anr --group) */
    var gs = D.anr_groups || [];
    if (gs.length) {
      s.appendChild(el('div', { 'class': 'mute' }, pl(D.anr_groups_total, 'ANR group') + ' (one signature: type, main\'s top app frames, the lock holder\'s top app frame; godeye anr --group)' +
        (D.anr_groups_total > gs.length ? '; ' + gs.length + ' shown' : '') + ':'));
      s.appendChild(table(gs, [
        { key: 'count', label: 'dumps', type: 'n', fmt: num },
        { key: 'type_label', label: 'type', fmt: function (x) { return x || '-'; } },
        { key: 'apps', label: 'apps', fmt: function (x) { return (x || []).join(', '); } },
        { key: 'first_version', label: 'versions', fmt: function (x, r) { return !x ? '-' : x === r.last_version ? x : x + '..' + r.last_version; } },
        { key: 'id', label: 'dump', type: 'n', fmt: num },
        { key: 'signature', label: 'signature', type: 'f', fmt: function (x) { return x; } }]));
    }
    function stackBox(title, all) {
      var st = (all || []).filter(function (f) { return String(f).indexOf('native:') !== 0; });
      if (!st.length) st = all || []; /* no Java frame: the native ones */
      var d = el('div', { 'class': 'anrstack' });
      if (!st.length) return d;
      var nat = (all || []).length - st.length;
      d.appendChild(el('div', { 'class': 'mute' }, title + ' (innermost first' + (st.length > 12 ? ', 12 of ' + st.length + ' Java frames' : '') +
        (nat ? '; ' + nat + ' native frames left out' : '') + ')'));
      d.appendChild(el('div', { 'class': 'stack mono' }, st.slice(0, 12).map(function (f) { return 'at ' + f; }).join('\n'))).style.whiteSpace = 'pre-wrap';
      return d;
    }
    as.forEach(function (a) {
      var box = el('div', { 'class': 'anr' }), m = a.main || {};
      box.appendChild(el('h3', null, (a.anr ? 'ANR: ' : 'Snapshot: ') + (a.process || 'pid ' + num(a.pid)) + ' (trace ' + a.trace + ', pid ' + num(a.pid) + '), dumped ' + at(a, 'ts_ms') + (a.deadlock ? ' \u2014 deadlock' : '')));
      var facts = el('table', { 'class': 'kv' });
      function kv(k, v) { var tr = el('tr'); tr.appendChild(el('th', null, k)); tr.appendChild(el('td', { 'class': 'f' }, v)); facts.appendChild(tr); }
      if (a.reason) kv('reason', a.reason);
      if (a.type) kv('type', (a.type_label || a.type) + ' (' + a.type + (a.user_perceived ? ', user-perceived' : '') + ')' +
        (a.timeout_ms !== null && a.timeout_ms !== undefined ? '; the platform\'s timeout ' + num(a.timeout_ms) + ' ms' : ''));
      /* #48: the record's evidence when the Java dump failed, and its figures */
      if (m.wchan) kv('main in the kernel', (m.kernel_state || '?') + ' ' + m.wchan + (m.from === 'waiting_channels' ? ' (Waiting Channels)' : ''));
      var wc = a.wchan;
      if (wc) kv('wait channels', num(wc.threads) + ' threads, ' + num(wc.d_count) + ' in D (uninterruptible)' +
        (wc.d_threads || []).map(function (d) { return '; tid ' + d.tid + ' D ' + d.wchan; }).join('') + (wc.d_more ? '; ' + wc.d_more + ' more' : ''));
      Object.keys(a.pressure || {}).forEach(function (k) {
        var p = a.pressure[k] || {}, sm = p.some || {}, fu = p.full || {};
        function pc(x) { return x === null || x === undefined ? '-' : Number(x).toFixed(2) + '%'; }
        kv(k + ' pressure', 'some ' + pc(sm.avg10) + ', full ' + pc(fu.avg10) + ' over 10 s (some ' + pc(sm.avg60) + ' over 60 s)');
      });
      var mk = Object.keys(a.memory_kb || {});
      if (mk.length) kv('memory', mk.map(function (k) { return k.replace(/Kb$/, '') + ' ' + (a.memory_kb[k] / 1024).toFixed(1) + ' MB'; }).join(', '));
      var lr = a.log_report;
      if (lr) {
        if (lr.cpu_total_pct !== null && lr.cpu_total_pct !== undefined)
          kv('CPU at the ANR', 'total ' + lr.cpu_total_pct + '%' + (lr.cpu_app_pct !== null && lr.cpu_app_pct !== undefined ? ', the app ' + lr.cpu_app_pct + '%' : '') +
            (lr.cpu_window ? ' (' + lr.cpu_window + ')' : ''));
        if (lr.load) kv('load', lr.load);
      }
      if (a.section) kv('taken', a.section + (a.dump_index !== null && a.dump_index !== undefined ? ', dump ' + (a.dump_index + 1) : ''));
      kv('main thread state', m.state || '-');
      if (m.lock || m.waiting_on) kv('waiting for', (m.lock || '') + (m.waiting_on ? ' <' + m.waiting_on + '>' : ''));
      if (m.held_by !== undefined && m.held_by !== null) kv('lock held by', (m.held_by_name || '?') + ' (tid ' + m.held_by + (m.holder_state ? ', ' + m.holder_state : '') + ')');
      else if (m.held_by_dalvik_tid !== undefined) kv('lock held by', 'thread ' + m.held_by_dalvik_tid + ', not in the dump');
      (a.binder_waits || []).forEach(function (bw) {
        kv('binder call', (bw.holder ? (bw.holder.name || '?') + ' (tid ' + bw.holder.tid + ')' : '?') + ' is in a binder call; waiting on it: ' +
          (bw.waiters || []).map(function (w) { return (w.name || '?') + ' (' + w.tid + ')'; }).join(', '));
      });
      var bp = a.binder_peer, bwo = bp ? bp.waits_on : null;
      if (bp) kv('binder call', 'main \u2192 binder ' + bp.pid + ':' + bp.tid + ' ' + (bp.thread || '?') + (bp.process ? ' of ' + bp.process : '') +
        (bp.state ? ' (' + bp.state + ', transaction ' + bp.txn_id + ')' : '') + (bwo && bwo.held_by_name ? ' \u2192 waits on ' + bwo.held_by_name : '') +
        (a.binder_reason ? ' (' + a.binder_reason + ')' : ''));
      else if (a.binder_reason) kv('binder call', a.binder_reason);
      box.appendChild(facts);
      (a.deadlocks || []).forEach(function (c) {
        box.appendChild(el('div', { 'class': 'mute' }, 'Deadlock: ' + c.map(function (th) { return th.name; }).join(' \u2192 ') + ' \u2192 ' + (c[0] ? c[0].name : '')));
        box.appendChild(cycleSvg(c));
      });
      /* main and the holder of its lock side by side */
      var pair = el('div', { 'class': 'anrpair' });
      pair.appendChild(stackBox('main thread stack', a.main_stack));
      if (a.holder_stack) pair.appendChild(stackBox('lock holder ' + (m.held_by_name || '?') + ' stack', a.holder_stack));
      if (bwo && bwo.holder_stack) pair.appendChild(stackBox('binder peer\'s lock holder ' + (bwo.held_by_name || '?') + ' (pid ' + bp.pid + ') stack', bwo.holder_stack));
      box.appendChild(pair);
      s.appendChild(box);
    });
  }

  /* ---- pages ---- */
  function pages() {
    var ps = D.pages || [];
    if (!ps.length) return;
    var s = sect('pages', 'Pages');
    s.appendChild(el('div', { 'class': 'mute' }, 'Draw and load times: green up to ' + D.thresholds.page_ok_ms + ' ms, amber up to ' + D.thresholds.page_slow_ms + ' ms, red beyond.' +
      (D.pages_total > ps.length ? ' ' + ps.length + ' of ' + D.pages_total + ' page instances shown.' : '')));
    var t0 = Infinity, t1 = -Infinity;
    ps.forEach(function (p) { p.events.forEach(function (e) { if (e.ts_ms < t0) t0 = e.ts_ms; if (e.ts_ms > t1) t1 = e.ts_ms; }); });
    var W = 1200, L = 330, PW = W - L - 210, RH = 20, H = ps.length * RH + 24, span = Math.max(t1 - t0, 1);
    var svg = sv('svg', { width: W, height: H });
    function x(ts) { return L + (ts - t0) / span * PW; }
    var col = { ok: '#1e8e3e', warn: '#e6a700', slow: '#c5221f' };
    ps.forEach(function (p, i) {
      var y = i * RH + 4, ev = p.events;
      var name = p.page || '?', short = name.length > 48 ? '\u2026' + name.slice(-47) : name;
      svg.appendChild(sv('text', { x: 4, y: y + 12 }, name + ' #' + p.hash)).textContent = short;
      if (!ev.length) return;
      var a = x(ev[0].ts_ms), b = x(ev[ev.length - 1].ts_ms);
      svg.appendChild(sv('rect', { x: a, y: y + 3, width: Math.max(b - a, 2), height: RH - 8, fill: '#c9d3ea' }));
      if (p.draw_ms !== null) svg.appendChild(sv('rect', { x: a, y: y + 3, width: Math.max(p.draw_ms / span * PW, 2), height: 5, fill: col[p.draw_rating] }, 'draw ' + ms(p.draw_ms)));
      if (p.load_ms !== null) svg.appendChild(sv('rect', { x: a, y: y + 9, width: Math.max(p.load_ms / span * PW, 2), height: 4, fill: col[p.load_rating] }, 'load ' + ms(p.load_ms)));
      ev.forEach(function (e) { var xx = x(e.ts_ms); svg.appendChild(sv('line', { x1: xx, x2: xx, y1: y + 1, y2: y + RH - 3, stroke: '#333' }, e.event + ' at ' + at(e, 'ts_ms'))); });
      var lab = sv('text', { x: L + PW + 8, y: y + 12 });
      lab.textContent = 'draw ' + ms(p.draw_ms) + ' \u00b7 load ' + ms(p.load_ms);
      lab.setAttribute('fill', col[p.load_rating || p.draw_rating] || '#1d2330');
      svg.appendChild(lab);
    });
    s.appendChild(svg);
    s.appendChild(table(ps, [
      { key: 'page', label: 'page', type: 'f', fmt: num }, { key: 'type', label: 'type', fmt: num }, { key: 'trace', label: 'trace', type: 'n' },
      { key: 'draw_ms', label: 'draw', type: 'n', cell: function (td, r) { td.textContent = ms(r.draw_ms); td.className = 'n r-' + r.draw_rating; } },
      { key: 'load_ms', label: 'load', type: 'n', cell: function (td, r) { td.textContent = ms(r.load_ms); td.className = 'n r-' + r.load_rating; } }]));
  }

  /* ---- overdraw ---- */
  function overdraw() {
    var ds = D.overdraw || [];
    if (!ds.length) return;
    var s = sect('overdraw', 'Overdraw');
    var lg = el('div', { 'class': 'legend' });
    ['1\u00d7', '2\u00d7', '3\u00d7', '4\u00d7+'].forEach(function (l, i) { var sp = el('span'); sp.appendChild(el('span', { 'class': 'sw', style: 'background:' + OD[i + 1] })); sp.appendChild(document.createTextNode(l + ' overdrawn')); lg.appendChild(sp); });
    var sp = el('span'); sp.appendChild(el('span', { 'class': 'sw', style: 'background:#c5221f' })); sp.appendChild(document.createTextNode('view past max depth')); lg.appendChild(sp);
    s.appendChild(lg);
    var box = el('div', { 'class': 'dumps' });
    ds.forEach(function (d) {
      var c = el('div', { 'class': 'dump' });
      c.appendChild(el('div', { 'class': 'mono' }, d.page || d.window || '(no page)'));
      var px = d.overdraw_px || {};
      c.appendChild(el('div', { 'class': 'mute' }, 'dump ' + d.dump + ' \u00b7 ' + d.views + ' views \u00b7 depth ' + d.max_depth + '/' + d.depth_limit +
        (d.has_paint ? ' \u00b7 ratio ' + (d.overdraw_ratio || 0).toFixed(2) + ' \u00b7 px 1\u00d7 ' + num(px['1']) + ', 2\u00d7 ' + num(px['2']) + ', 3\u00d7 ' + num(px['3']) + ', 4\u00d7+ ' + num(px['4+']) : ' \u00b7 no paint data') +
        (d.broken ? ' \u00b7 broken: ' + d.broken : '') + (d.areas_truncated ? ' \u00b7 areas truncated' : '')));
      var sw = (d.screen && d.screen[0]) || 1080, sh = (d.screen && d.screen[1]) || 1920, k = 220 / sw, w = 220, h = Math.round(sh * k);
      var row = el('div', { style: 'display:flex;gap:8px' });
      var a = sv('svg', { width: w, height: h, viewBox: '0 0 ' + sw + ' ' + sh });
      (d.areas || []).forEach(function (r) {
        a.appendChild(sv('rect', { x: r.rect[0], y: r.rect[1], width: r.rect[2] - r.rect[0], height: r.rect[3] - r.rect[1], fill: OD[Math.min(r.times, 4)] }, r.times + '\u00d7 overdrawn'));
      });
      var b = sv('svg', { width: w, height: h, viewBox: '0 0 ' + sw + ' ' + sh });
      var deep = {};
      (d.deep_views || []).forEach(function (v) { deep[v] = 1; });
      (d.view_list || []).forEach(function (v) {
        if (!v.rect) return;
        var isd = deep[v.id];
        b.appendChild(sv('rect', { x: v.rect[0], y: v.rect[1], width: Math.max(v.rect[2] - v.rect[0], 0), height: Math.max(v.rect[3] - v.rect[1], 0),
          fill: isd ? 'rgba(197,34,31,0.45)' : 'none', stroke: isd ? '#c5221f' : 'rgba(29,35,48,0.35)', 'stroke-width': 3 },
          (v.class || '?') + (v.res_id ? ' #' + v.res_id : '') + (isd ? ' (past max depth)' : '')));
      });
      var ca = el('div'); ca.appendChild(el('div', { 'class': 'mute' }, 'overdraw')); ca.appendChild(a);
      var cb = el('div'); cb.appendChild(el('div', { 'class': 'mute' }, 'depth')); cb.appendChild(b);
      row.appendChild(ca); row.appendChild(cb); c.appendChild(row); box.appendChild(c);
    });
    s.appendChild(box);
    if (D.overdraw_total > ds.length) s.appendChild(el('div', { 'class': 'mute' }, ds.length + ' of ' + D.overdraw_total + ' dumps shown.'));
  }

  /* ---- images and frames ---- */
  function images() {
    var im = D.images || [];
    if (!im.length) return;
    var s = sect('images', 'Images');
    if (D.images_total > im.length) s.appendChild(el('div', { 'class': 'mute' }, im.length + ' of ' + D.images_total + ' issues shown.'));
    function wh(v) { return v ? v[0] + '\u00d7' + v[1] : '-'; }
    s.appendChild(table(im, [
      { key: 'wasted_bytes', label: 'wasted', type: 'n', fmt: bytes }, { key: 'issue', label: 'issue', fmt: num },
      { key: 'bitmap', label: 'bitmap', type: 'n', fmt: wh, sortv: function (r) { return r.bitmap ? r.bitmap[0] * r.bitmap[1] : null; } },
      { key: 'view', label: 'view', type: 'n', fmt: wh, sortv: function (r) { return r.view ? r.view[0] * r.view[1] : null; } },
      { key: 'count', label: 'seen', type: 'n' }, { key: 'page', label: 'page', type: 'f', fmt: num }, { key: 'source', label: 'source', type: 'f', fmt: num }]));
  }
  /* #47: the rows the query put last and counted in other_processes[key]
   * (other processes': drawn folded, in otherProcesses) or the others */
  function part(key, other) {
    var rows = D[key] || [], n = (D.other_processes || {})[key] || 0;
    return other ? rows.slice(rows.length - n) : rows.slice(0, rows.length - n);
  }
  function frames() {
    var fr = part('frames', false);
    if (!fr.length) return;
    var s = sect('frames', 'Frames');
    s.appendChild(el('div', { 'class': 'mute' }, 'Slow frames take over 16 ms, frozen ones over 700 ms: Android vitals\u2019 definitions, whatever the display\u2019s rate. ' +
      '`godeye frames` also counts frames over the display\u2019s refresh interval (SLOW>VSYNC), the platform\u2019s jank (MISSED: FrameTimeline deadline missed) and shows the device\u2019s own gfxinfo summary beside.'));
    frameTable(s, fr);
  }
  function frameTable(s, fr) {
    function pct(n, of) { return of ? ' (' + (100 * n / of).toFixed(1) + ' %)' : ''; }
    s.appendChild(table(fr, [
      { key: 'trace', label: 'trace', type: 'n' }, { key: 'window', label: 'window', type: 'f', fmt: function (v) { return v === null ? '(all)' : v; } }, { key: 'count', label: 'frames', type: 'n' },
      { key: 'janky', label: 'slow (> 16 ms)', type: 'n', cell: function (td, r) { td.textContent = r.janky + pct(r.janky, r.count); td.className = 'n' + (r.janky ? ' r-warn' : ''); } },
      { key: 'frozen', label: 'frozen (> 700 ms)', type: 'n', cell: function (td, r) { td.textContent = r.frozen + pct(r.frozen, r.count); td.className = 'n' + (r.frozen ? ' r-slow' : ''); } },
      { key: 'p50_ms', label: 'p50', type: 'n', fmt: ms }, { key: 'p95_ms', label: 'p95', type: 'n', fmt: ms }, { key: 'max_ms', label: 'max', type: 'n', fmt: ms },
      { key: 'lead', label: 'figures that lead', type: 'f', fmt: function (v) { return v === 'device' ? 'the device\u2019s summary (these rows are a placeholder, not frame times: godeye frames)' : 'these rows'; } }]));
    var box = el('div', { 'class': 'dumps' });
    fr.forEach(function (r) { if (r.hist) box.appendChild(histSvg(r)); });
    s.appendChild(box);
  }
  /* frame-time histogram of one window: bars per bucket, count on top */
  function histSvg(r) {
    var c = el('div', { 'class': 'dump hist' });
    c.appendChild(el('div', { 'class': 'mono' }, 'trace ' + r.trace + ' \u00b7 ' + (r.window === null ? 'all windows' : r.window)));
    var W = 360, H = 150, L = 34, B = 30, n = r.hist.length, bw = (W - L - 6) / n, max = 1;
    r.hist.forEach(function (h) { if (h[1] > max) max = h[1]; });
    var svg = sv('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H });
    var lo = 0;
    r.hist.forEach(function (h, i) {
      var hh = h[1] / max * (H - B - 16), x = L + i * bw, y = H - B - hh;
      var lab = h[0] === null ? '> ' + lo : '\u2264 ' + (h[0] % 1 ? h[0].toFixed(1) : h[0]);
      var col = h[0] !== null && h[0] <= 16.667 ? '#1e8e3e' : h[0] === null ? '#c5221f' : '#e6a700';
      svg.appendChild(sv('rect', { x: x + 2, y: y, width: bw - 4, height: Math.max(hh, h[1] ? 1 : 0), fill: col }, h[1] + ' frames ' + lab + ' ms'));
      svg.appendChild(sv('text', { x: x + bw / 2, y: y - 3, 'text-anchor': 'middle' })).textContent = String(h[1]);
      svg.appendChild(sv('text', { x: x + bw / 2, y: H - B + 13, 'text-anchor': 'middle', 'class': 'ax' })).textContent = lab;
      if (h[0] !== null) lo = h[0] % 1 ? h[0].toFixed(1) : h[0];
    });
    svg.appendChild(sv('line', { x1: L, x2: W - 4, y1: H - B, y2: H - B, stroke: '#1d2330' }));
    svg.appendChild(sv('text', { x: W / 2, y: H - 4, 'text-anchor': 'middle', 'class': 'mute' })).textContent = 'frame time (ms)';
    svg.appendChild(sv('text', { x: 2, y: 12, 'class': 'mute' })).textContent = 'frames';
    c.appendChild(svg);
    return c;
  }

  /* ---- lock contention and the tools' own findings ---- */
  function issueCols() {
    return [
      { key: 'trace', label: 'trace', type: 'n' }, { key: 'ts_ms', label: 'time', fmt: function (v, r) { return at(r, 'ts_ms'); } },
      { key: 'tool', label: 'tool', fmt: num }, { key: 'type', label: 'type', fmt: num }, { key: 'detail', label: 'detail', fmt: num },
      { key: 'cost_ms', label: 'cost', type: 'n', fmt: ms }, { key: 'content', label: 'content', type: 'f', fmt: function (v) {
        if (v === null || v === undefined) return '-';
        if (typeof v !== 'object' || Array.isArray(v)) return typeof v === 'string' ? v : JSON.stringify(v);
        /* the tool's fields as "key: value", one after the other */
        return Object.keys(v).map(function (k) { var x = v[k]; return k + ': ' + (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x)); }).join(' \u00b7 ');
      } }];
  }
  function locks() {
    var ls = D.locks || [];
    if (!ls.length) return;
    var s = sect('locks', 'Lock contention');
    s.appendChild(el('div', { 'class': 'mute' }, 'Monitor contention reported by ART in Perfetto or systrace traces, longest first' +
      (D.locks_total > ls.length ? '; ' + ls.length + ' of ' + D.locks_total + ' shown.' : '.')));
    var sorted = ls.slice().sort(function (a, b) { return (b.cost_ms || 0) - (a.cost_ms || 0); });
    function c(r) { return r.content && typeof r.content === 'object' ? r.content : {}; }
    function txt(v) { return v === null || v === undefined ? '-' : String(v); }
    s.appendChild(table(sorted, [
      { key: 'cost_ms', label: 'waited', type: 'n', fmt: ms }, { key: 'trace', label: 'trace', type: 'n' },
      { key: 'ts_ms', label: 'time', fmt: function (v, r) { return at(r, 'ts_ms'); } },
      { key: 'main', label: 'waiting thread', fmt: function (v, r) { return c(r).main === true ? 'main' : c(r).main === false ? 'other' : '-'; }, sortv: function (r) { return c(r).main ? 1 : 0; } },
      { key: 'blocked', label: 'blocked in', type: 'f', fmt: function (v, r) { return txt(c(r).blocked_method); } },
      { key: 'owner', label: 'lock owner', fmt: function (v, r) { return txt(c(r).owner) + (c(r).owner_tid !== undefined ? ' (' + c(r).owner_tid + ')' : ''); } },
      { key: 'owner_method', label: 'owner at', type: 'f', fmt: function (v, r) { return txt(c(r).owner_method || (c(r).owner ? null : c(r).slice)); } },
      { key: 'waiters', label: 'other waiters', type: 'n', fmt: function (v, r) { return txt(c(r).waiters); } }]));
  }
  function issues() {
    var is = (D.issues || []).filter(function (i) { return i.type !== 'lock_contention'; });
    if (!is.length) return;
    var s = sect('issues', 'Findings of the on-device tools');
    s.appendChild(el('div', { 'class': 'mute' }, 'As the tools reported them (godeye issues)' +
      (D.issues_total > (D.issues || []).length ? '; ' + D.issues.length + ' of ' + D.issues_total + ' shown.' : '.')));
    s.appendChild(table(is, issueCols()));
  }

  /* ---- launches against Android vitals' bars ---- */
  function startups() {
    var st = part('startups', false);
    if (!st.length) return;
    var s = sect('startups', 'Startup');
    if (D.startups_total > D.startups.length) s.appendChild(el('div', { 'class': 'mute' }, D.startups.length + ' of ' + D.startups_total + ' launches shown.'));
    startupTable(s, st);
  }
  function startupTable(s, st) {
    var th = D.thresholds || {};
    var bars = { cold: th.startup_cold_ms, warm: th.startup_warm_ms, hot: th.startup_hot_ms };
    s.appendChild(el('div', { 'class': 'mute' }, 'Android vitals count a launch as slow at ' + ms(bars.cold) + ' cold, ' +
      ms(bars.warm) + ' warm, ' + ms(bars.hot) + ' hot.'));
    s.appendChild(table(st, [
      { key: 'trace', label: 'trace', type: 'n' }, { key: 'ts_ms', label: 'time', type: 't', fmt: function (v, r) { return at(r, 'ts_ms'); } },
      { key: 'app', label: 'app', type: 'f', fmt: num }, { key: 'kind', label: 'kind', fmt: function (v, r) { return v === null ? 'unknown (graded as ' + r.graded_as + ')' : v; } },
      { key: 'total_ms', label: 'total', type: 'n', cell: function (td, r) { td.textContent = r.total_ms.toFixed(1) + ' ms'; td.className = 'n' + (r.slow === true ? ' r-slow' : r.slow === false ? ' r-ok' : ''); } },
      { key: 'slow', label: 'vitals bar', cell: function (td, r) {
        var b = bars[r.graded_as];
        td.textContent = r.slow === null || b === undefined ? '-' : (r.slow ? 'slow: \u2265 ' : 'ok: < ') + ms(b);
        td.className = r.slow === true ? 'r-slow' : r.slow === false ? 'r-ok' : '';
      } },
      { key: 'wait_ms', label: 'wait', type: 'n', fmt: ms }, { key: 'source', label: 'source', fmt: num },
      { key: 'activity', label: 'activity', type: 'f', fmt: num }]));
    /* #27: launches read from a trace's slices, phase by phase (startup_phase rows) */
    var bd = st.filter(function (r) { return r.phases && Object.keys(r.phases).length; });
    if (!bd.length) return;
    s.appendChild(el('div', { 'class': 'mute' }, 'Breakdown from the trace\'s slices (godeye startup --breakdown; godeye-startup(1)): each phase\'s duration, and the main thread\'s time Running and runnable during the launch.'));
    var phase = function (name, label) {
      return { key: name, label: label, type: 'n', fmt: function (v, r) { var p = r.phases[name]; return p ? ms(p.dur_ms) : '-'; } };
    };
    s.appendChild(table(bd, [
      { key: 'app', label: 'app', type: 'f', fmt: num }, { key: 'total_ms', label: 'total', type: 'n', fmt: ms },
      phase('before_process_start', 'before proc'), phase('start_process', 'start proc'),
      phase('bind_application', 'bindApplication'), phase('activity_start', 'activityStart'),
      phase('activity_resume', 'activityResume'), phase('first_frame', 'first frame'),
      phase('fully_drawn', 'reportFullyDrawn'),
      { key: 'running', label: 'main running', type: 'n', fmt: function (v, r) { var l = r.phases.launch; return l ? ms(l.running_ms) : '-'; } },
      { key: 'runnable', label: 'main runnable', type: 'n', fmt: function (v, r) { var l = r.phases.launch; return l ? ms(l.runnable_ms) : '-'; } }]));
  }

  /* #47: other apps' and system processes' launches and frames (system
   * layers: status bar, navigation bar, animation leashes), folded */
  function otherProcesses() {
    var st = part('startups', true), fr = part('frames', true);
    if (!st.length && !fr.length) return;
    var s = sect('others', 'Other processes'), d = el('details'), box = el('div'), fa = D.focus_apps || [];
    d.appendChild(el('summary', null, st.length + (st.length === 1 ? ' launch and ' : ' launches and ') + fr.length +
      (fr.length === 1 ? ' frame window' : ' frame windows') + ' of processes other than ' + (fa.length > 3 ? 'the traces\u2019 ' + fa.length + ' apps' : fa.join(', ') || 'the app') +
      ': other apps, system apps and system layers (click to open)'));
    if (st.length) { box.appendChild(el('h3', null, 'Startup')); startupTable(box, st); }
    if (fr.length) { box.appendChild(el('h3', null, 'Frames')); frameTable(box, fr); }
    d.appendChild(box); s.appendChild(d);
  }

  /* ---- what to fix first (godeye top): one ranked list across the kinds ---- */
  function fixFirst() {
    var t = D.top || [];
    if (!t.length) return;
    var s = sect('top', 'What to fix first');
    s.appendChild(el('div', { 'class': 'mute' }, 'Ranked by the time users lost: ANRs first, then milliseconds lost per minute of capture (godeye top; godeye-top(1), SCORING).' +
      (D.top_more ? ' ' + D.top_more + ' more: godeye top --limit 50.' : '')));
    /* three columns, so that it fits a phone: the command under its line */
    s.appendChild(table(t, [
      { key: 'rank', label: '#', type: 'n', fmt: num },
      { key: 'score_ms_per_min', label: 'ms/min', type: 'n', fmt: function (x) { return x === null || x === undefined ? '-' : x.toFixed(1); } },
      { key: 'title', label: 'what, and what shows more', type: 'f', cell: function (td, r) {
        td.appendChild(el('div', null, r.title));
        td.appendChild(el('div', { 'class': 'mute' }, r.command));
      } }]));
  }

  /* ---- the differential flame graph of the versions (#52, godeye diff --stacks) ---- */
  function diffFlameSvg(f, q, W) {
    var RH = 17, depth = 0;
    (function d(n, k) { if (k > depth) depth = k; n.children.forEach(function (c) { d(c, k + 1); }); })(f, 0);
    var H = (depth + 1) * RH + 2;
    var svg = sv('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, 'class': 'flame dflame' });
    function big(n) { return Math.max(n.base || 0, n.head || 0); }
    var total = big(f) || 1;
    (function lay(n, x, k) {
      var v = big(n), w = v / total * W, dl = (n.head || 0) - (n.base || 0), r = v > 0 ? dl / v : 0;
      /* red: slower in head, blue: faster; the stronger, the larger the change */
      var fill = Math.abs(r) < 0.005 ? 'hsl(0,0%,88%)' : r > 0 ? 'hsl(0,80%,' + (92 - 42 * r).toFixed(0) + '%)'
        : 'hsl(215,80%,' + (92 + 42 * r).toFixed(0) + '%)';
      var hit = q && n.name.toLowerCase().indexOf(q) >= 0;
      var rect = sv('rect', { x: x, y: k * RH, width: Math.max(w, 0.5), height: RH - 1, fill: fill,
        'class': hit ? 'hit' : q ? 'dim' : '' },
        n.name + ' \u2014 base ' + ms(n.base) + ', head ' + ms(n.head) + ' (' + (dl >= 0 ? '+' : '') + ms(dl) + ')');
      svg.appendChild(rect);
      frameLabel(svg, n.name, x, k * RH, w);
      var cx = x;
      n.children.forEach(function (c) { lay(c, cx, k + 1); cx += big(c) / total * W; });
    })(f, 0, 0);
    return svg;
  }
  function diffFlame(s, v) {
    var f = v.flame;
    if (!f) return;
    var box = el('div', { 'class': 'flamebox', id: 'dflame' });
    box.appendChild(el('h3', null, 'Stacks: ' + v.base + ' \u2192 ' + v.head + ' (differential flame graph)'));
    box.appendChild(el('div', { 'class': 'mute' }, 'Stack samples and method calls of both versions merged by frame (godeye diff --stacks), head normalised by ' +
      f.normalised + '. Width: the larger side; red: slower in ' + v.head + ', blue: faster; grey: the same. Frames under 0.5% left out.'));
    var inp = el('input', { type: 'search', placeholder: 'find a frame', 'class': 'dfind', 'aria-label': 'find a frame' });
    box.appendChild(inp);
    var holder = el('div');
    box.appendChild(holder);
    s.appendChild(box);
    /* drawn at the page's width (a phone's too), labels sized to it, and
     * drawn again when that width changes (a phone turned, a window resized) */
    function width() { return Math.max(200, Math.min(1100, Math.floor(holder.getBoundingClientRect().width) || 1100)); }
    var W = width();
    function draw() { holder.replaceChild(diffFlameSvg(f, inp.value.toLowerCase(), W), holder.firstChild); }
    holder.appendChild(diffFlameSvg(f, '', W));
    inp.addEventListener('input', draw);
    function resized() { var w = width(); if (w !== W) { W = w; draw(); } }
    window.addEventListener('resize', resized);
    if (typeof ResizeObserver === 'function') new ResizeObserver(resized).observe(holder);
  }

  /* ---- the oldest and the newest app version compared (godeye diff) ---- */
  function versions() {
    var v = D.versions;
    if (!v) return;
    var s = sect('versions', 'Versions');
    s.appendChild(el('div', { 'class': 'mute' }, D.versions.count + ' app versions in the database; ' + v.base + ' (base) against ' +
      v.head + ' (head), as godeye diff version=' + v.base + ' version=' + v.head + ' compares them: ' + v.changed_total +
      ' changed, ' + v.same + ' the same, ' + v.inconclusive + ' inconclusive' + (v.changed_total > v.changed.length ? '; ' + v.changed.length + ' shown.' : '.')));
    diffFlame(s, v);
    if (!v.changed.length) return;
    function side(k, f) { return function (x, r) { var o = r[k] || {}; return f(o); }; }
    s.appendChild(table(v.changed, [
      { key: 'status', label: 'status', cell: function (td, r) { td.textContent = r.status; td.className = r.status === 'regressed' || r.status === 'new' ? 'r-slow' : 'r-ok'; } },
      { key: 'kind', label: 'kind', fmt: num }, { key: 'name', label: 'name', type: 'f', fmt: num },
      { key: 'base', label: 'base count', type: 'n', fmt: side('base', function (o) { return num(o.count); }), sortv: function (r) { return (r.base || {}).count; } },
      { key: 'head', label: 'head count', type: 'n', fmt: side('head', function (o) { return num(o.count); }), sortv: function (r) { return (r.head || {}).count; } },
      { key: 'base_p95', label: 'base p95', type: 'n', fmt: side('base', function (o) { return ms(o.p95_ms); }), sortv: function (r) { return (r.base || {}).p95_ms; } },
      { key: 'head_p95', label: 'head p95', type: 'n', fmt: side('head', function (o) { return ms(o.p95_ms); }), sortv: function (r) { return (r.head || {}).p95_ms; } },
      { key: 'change_pct', label: 'p50 change', type: 'n', fmt: function (x) { return x === null || x === undefined ? '-' : (x > 0 ? '+' : '') + x.toFixed(1) + ' %'; } },
      { key: 'p_value', label: 'p', type: 'n', fmt: function (x) { return x === null || x === undefined ? '-' : x.toPrecision(2); } }]));
  }

  function search() {
    var box = document.getElementById('search');
    box.addEventListener('input', function () {
      var q = box.value.toLowerCase();
      Array.prototype.forEach.call(document.querySelectorAll('tr.srch'), function (tr) {
        tr.classList.toggle('hidden', q !== '' && (tr.dataset.search || '').toLowerCase().indexOf(q) < 0);
      });
    });
  }

  /* top-down by question: what to fix first, ANRs, launches, frames, block
   * groups, then the per-data-type sections */
  fixFirst(); summary(); anrs(); startups(); frames(); groups(); otherProcesses(); timelines(); versions(); locks(); issues(); pages(); overdraw(); images(); search();
  /* the menu names only the sections this page has */
  Array.prototype.forEach.call(document.querySelectorAll('nav a'), function (a) {
    if (!document.getElementById((a.getAttribute('href') || '').slice(1))) a.style.display = 'none';
  });
  if (!errs.length) document.body.dataset.ready = '1';
})();
