// edgecompiler's HTML report: everything is drawn from the JSON in #report-data
// (core/render/html_report.cpp). No network, no other file.
'use strict';
(function () {
  const D = JSON.parse(document.getElementById('report-data').textContent);
  const SVG = 'http://www.w3.org/2000/svg';
  const $ = (id) => document.getElementById(id);
  const nOps = D.ops.length;
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const sv = (tag, attrs) => {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  };
  const fmt = (v, d) => (v === null || v === undefined) ? '\u2013' : (typeof v === 'number' ? v.toFixed(d === undefined ? 2 : d) : String(v));
  const table = (head, rows, numeric) => {
    const t = el('table');
    const tr = el('tr');
    head.forEach((h, i) => tr.appendChild(el('th', numeric && numeric[i] ? { class: 'num' } : {}, h)));
    t.appendChild(tr);
    for (const r of rows) {
      const row = el('tr');
      r.forEach((c, i) => {
        const td = el('td', numeric && numeric[i] ? { class: 'num' } : {});
        if (c instanceof Node) td.appendChild(c); else td.textContent = c === null || c === undefined ? '' : String(c);
        row.appendChild(td);
      });
      t.appendChild(row);
    }
    return t;
  };
  const kv = (pairs) => {
    const dl = el('dl', { class: 'kv' });
    for (const [k, v] of pairs) { dl.appendChild(el('dt', {}, k)); dl.appendChild(el('dd', {}, v)); }
    return dl;
  };
  const empty = (id, text) => { const s = $(id); s.classList.add('empty'); s.appendChild(el('p', {}, text)); };

  // --- summary ---------------------------------------------------------------------
  $('title').textContent = (D.model.name || 'model') + ' \u2014 edgecompiler report';
  (function summary() {
    const s = D.summary || {}, body = $('summary-body');
    const m = s.model || {};
    const pairs = [['Model', D.model.path || D.model.name], ['Ops', String(nOps)]];
    if (m.producer) pairs.push(['Producer', m.producer]);
    if (m.opset) pairs.push(['Opset', m.opset]);
    if (s.parameters) pairs.push(['Parameters', String(s.parameters.count !== undefined ? s.parameters.count : JSON.stringify(s.parameters))]);
    if (s.compute) {
      if (s.compute.macs !== undefined) pairs.push(['MACs', String(s.compute.macs)]);
      if (s.compute.flops !== undefined) pairs.push(['FLOPs', String(s.compute.flops)]);
    }
    body.appendChild(kv(pairs));
    const io = [];
    const ty = (x) => (x.dtype || '') + (Array.isArray(x.shape) ? '[' + x.shape.join(',') + ']' : (x.shape || ''));
    for (const x of (s.inputs || [])) io.push(['input', x.name, ty(x)]);
    for (const x of (s.outputs || [])) io.push(['output', x.name, ty(x)]);
    if (io.length) { body.appendChild(el('h3', {}, 'Inputs and outputs')); body.appendChild(table(['', 'name', 'type'], io)); }
    const byType = (s.ops && s.ops.by_type) || {};
    const rows = Object.keys(byType).sort((a, b) => byType[b] - byType[a]).map((k) => [k, byType[k]]);
    if (rows.length) { body.appendChild(el('h3', {}, 'Ops by type')); body.appendChild(table(['type', 'count'], rows, [false, true])); }
  })();

  // --- graph -------------------------------------------------------------------------
  const overlayNames = { none: 'Category', placement: 'Placement', sqnr: 'SQNR', latency: 'Latency', diff: 'Pass diff' };
  const overlaySel = $('overlay'), sceneSel = $('scene');
  overlaySel.appendChild(el('option', { value: 'none' }, overlayNames.none));
  for (const k of ['placement', 'sqnr', 'latency', 'diff'])
    if (D.overlays[k]) overlaySel.appendChild(el('option', { value: k }, overlayNames[k]));
  D.scenes.forEach((s, i) => sceneSel.appendChild(el('option', { value: String(i) }, s.name)));

  const svg = $('graph-svg'), vp = $('viewport');
  let scene = 0, overlay = 'none', view = { x: 0, y: 0, k: 1 };
  let opNodes = new Map();  // op index -> <g>
  const setView = () => vp.setAttribute('transform', `translate(${view.x},${view.y}) scale(${view.k})`);

  function opFill(i) {
    const o = D.overlays[overlay];
    if (!o) return D.items[i][3];
    return o.fill[i] || '#f0f0f0';
  }
  function recolour() {
    for (const [i, g] of opNodes) g.firstChild.setAttribute('fill', opFill(i));
    const lg = $('legend');
    lg.textContent = '';
    const o = D.overlays[overlay];
    if (!o) {
      for (const [c, l] of [['#9cc3e6', 'convolution'], ['#8fb8de', 'linear'], ['#f3c28c', 'activation'], ['#e8e19a', 'element-wise'], ['#b5d9a8', 'pooling'], ['#e0e0e8', 'data movement']]) {
        const s = el('span'); const sw = el('span', { class: 'sw' }); sw.style.background = c; s.appendChild(sw); s.appendChild(document.createTextNode(l)); lg.appendChild(s);
      }
      return;
    }
    lg.appendChild(el('strong', {}, o.title));
    for (const [c, l] of o.legend) {
      const s = el('span'); const sw = el('span', { class: 'sw' }); sw.style.background = c; s.appendChild(sw); s.appendChild(document.createTextNode(l)); lg.appendChild(s);
    }
  }

  function text(x, y, size, str, bold, cls) {
    const t = sv('text', { x, y, 'font-size': size });
    if (bold) t.setAttribute('font-weight', 'bold');
    if (cls) t.setAttribute('class', cls);
    t.textContent = str;
    return t;
  }

  function render() {
    const s = D.scenes[scene];
    vp.textContent = '';
    opNodes = new Map();
    const frames = sv('g'), edges = sv('g'), boxes = sv('g');
    vp.appendChild(frames); vp.appendChild(edges); vp.appendChild(boxes);
    for (const [kind, id, x, y, w, h] of s.nodes) {
      if (kind === 2) {
        const g = sv('g', { class: 'frame', 'data-group': id });
        g.appendChild(sv('rect', { x, y, width: w, height: h, rx: 6 }));
        const label = text(x + 8, y + 15, 11, D.groups[id][0], false, 'label');
        label.addEventListener('click', (ev) => { ev.stopPropagation(); collapse(id); });
        g.appendChild(label);
        frames.appendChild(g);
      } else if (kind === 1) {
        const g = sv('g', { class: 'group', 'data-group': id });
        g.appendChild(sv('rect', { x, y, width: w, height: h, rx: 6 }));
        g.appendChild(text(x + 8, y + 17, 12, D.groups[id][0], true));
        g.appendChild(text(x + 8, y + 30, 10, D.groups[id][3] + ' ops'));
        g.addEventListener('click', (ev) => { ev.stopPropagation(); expand(id); });
        boxes.appendChild(g);
      } else {
        const it = D.items[id];
        const isOp = id < nOps;
        const g = sv('g', { class: isOp ? 'op' : 'io' });
        if (isOp) g.setAttribute('data-op', id);
        const r = sv('rect', { x, y, width: w, height: h, rx: isOp ? 4 : 10, fill: isOp ? opFill(id) : '#fff', stroke: '#4a5260' });
        g.appendChild(r);
        let ty = y + 16;
        g.appendChild(text(x + 8, ty, 12, it[0], true));
        for (const line of [it[1], it[2]]) if (line) { ty += 13; g.appendChild(text(x + 8, ty, 10, line)); }
        if (isOp) {
          opNodes.set(id, g);
          g.addEventListener('mousemove', (ev) => tip(ev, id));
          g.addEventListener('mouseleave', () => { $('tooltip').style.display = 'none'; });
        }
        boxes.appendChild(g);
      }
    }
    for (const pts of s.edges) {
      let d = 'M' + pts[0] + ' ' + pts[1];
      for (let i = 2; i < pts.length; i += 2) d += 'L' + pts[i] + ' ' + pts[i + 1];
      edges.appendChild(sv('path', { d, class: 'edge' }));
    }
    recolour();
    highlight();
  }

  function fit() {
    const s = D.scenes[scene], r = svg.getBoundingClientRect();
    const W = r.width || 1000, H = r.height || 600;
    view.k = Math.min(W / (s.w + 40), H / (s.h + 40), 1.5);
    view.x = (W - s.w * view.k) / 2;
    view.y = 20 * view.k;
    setView();
  }
  function centreOn(x, y) {
    const r = svg.getBoundingClientRect();
    view.k = Math.max(view.k, 0.8);
    view.x = (r.width || 1000) / 2 - x * view.k;
    view.y = (r.height || 600) / 2 - y * view.k;
    setView();
  }
  function nodeBox(kind, id) {
    for (const n of D.scenes[scene].nodes) if (n[0] === kind && n[1] === id) return n;
    return null;
  }
  function showScene(i, focusKind, focusId) {
    scene = i;
    sceneSel.value = String(i);
    render();
    const n = focusKind !== undefined ? nodeBox(focusKind, focusId) : null;
    if (n) centreOn(n[2] + n[4] / 2, n[3] + n[5] / 2); else fit();
  }
  // Expanding a group: the first scene (fewest boxes) where it is expanded.
  function expand(group) {
    for (let i = 0; i < D.scenes.length; ++i) if (D.scenes[i].expanded.includes(group)) return showScene(i, 2, group);
  }
  // Collapsing a group: the last scene before the current one where it is collapsed.
  function collapse(group) {
    for (let i = scene - 1; i >= 0; --i) if (!D.scenes[i].expanded.includes(group)) return showScene(i, 1, group);
  }

  function tip(ev, i) {
    const op = D.ops[i], it = D.items[i];
    const lines = [op[0] || '(unnamed)', it[0] + (it[2] ? '  \u2192 ' + it[2] : '')];
    if (op[2]) lines.push('inputs: ' + op[2]);
    if (op[1]) lines.push('attributes: ' + op[1]);
    for (const k of ['placement', 'sqnr', 'latency', 'diff']) {
      const o = D.overlays[k];
      if (o && o.note[i]) lines.push(overlayNames[k] + ': ' + o.note[i]);
    }
    const t = $('tooltip');
    t.textContent = lines.join('\n');
    t.style.display = 'block';
    t.style.left = Math.min(ev.clientX + 14, window.innerWidth - 470) + 'px';
    t.style.top = (ev.clientY + 14) + 'px';
  }

  // Pan and zoom.
  let drag = null;
  svg.addEventListener('mousedown', (ev) => { drag = { x: ev.clientX - view.x, y: ev.clientY - view.y }; $('canvas').classList.add('dragging'); });
  window.addEventListener('mouseup', () => { drag = null; $('canvas').classList.remove('dragging'); });
  window.addEventListener('mousemove', (ev) => { if (drag) { view.x = ev.clientX - drag.x; view.y = ev.clientY - drag.y; setView(); } });
  svg.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const r = svg.getBoundingClientRect(), mx = ev.clientX - r.left, my = ev.clientY - r.top;
    const f = Math.exp(-ev.deltaY * 0.0015), k = Math.min(Math.max(view.k * f, 0.02), 8);
    view.x = mx - (mx - view.x) * (k / view.k); view.y = my - (my - view.y) * (k / view.k); view.k = k;
    setView();
  }, { passive: false });

  // Search: ops whose name or type contains the text; the first is brought into view.
  let matches = [];
  function highlight() {
    for (const g of opNodes.values()) g.classList.remove('match');
    for (const i of matches) { const g = opNodes.get(i); if (g) g.classList.add('match'); }
  }
  $('search').addEventListener('input', () => {
    const q = $('search').value.trim().toLowerCase();
    matches = [];
    if (q) for (let i = 0; i < nOps; ++i) if ((D.ops[i][0] || '').toLowerCase().includes(q) || D.items[i][0].toLowerCase().includes(q)) matches.push(i);
    $('search-status').textContent = q ? matches.length + ' match' + (matches.length === 1 ? '' : 'es') : '';
    if (matches.length && !opNodes.has(matches[0])) { showScene(D.scenes.length - 1); }
    highlight();
    if (matches.length) { const n = nodeBox(0, matches[0]); if (n) centreOn(n[2] + n[4] / 2, n[3] + n[5] / 2); }
  });
  overlaySel.addEventListener('change', () => { overlay = overlaySel.value; recolour(); });
  sceneSel.addEventListener('change', () => showScene(Number(sceneSel.value)));
  $('fit').addEventListener('click', fit);
  showScene(0);

  // --- charts (plain SVG) -------------------------------------------------------------
  function barChart(values, labels, opts) {
    const W = opts.width || 900, H = opts.height || 180, pad = 34;
    const s = sv('svg', { width: W, height: H + 30, class: 'chart' });
    const max = Math.max(1e-9, ...values.filter((v) => v !== null && isFinite(v)));
    const bw = (W - pad) / Math.max(values.length, 1);
    s.appendChild(sv('line', { x1: pad, y1: H, x2: W, y2: H, class: 'axis' }));
    const t0 = sv('text', { x: 2, y: 10 }); t0.textContent = fmt(max, 1) + (opts.unit || ''); s.appendChild(t0);
    values.forEach((v, i) => {
      if (v === null || !isFinite(v)) return;
      const h = Math.max(1, (v / max) * (H - 12));
      const r = sv('rect', { x: pad + i * bw, y: H - h, width: Math.max(bw - 1, 1), height: h, class: 'bar' + (opts.bad && opts.bad(v) ? ' bad' : '') });
      const ti = sv('title'); ti.textContent = (labels[i] || '') + ': ' + fmt(v, 2) + (opts.unit || ''); r.appendChild(ti);
      s.appendChild(r);
    });
    if (opts.xlabel) { const t = sv('text', { x: pad, y: H + 24 }); t.textContent = opts.xlabel; s.appendChild(t); }
    return s;
  }

  // --- partition and timeline -----------------------------------------------------------
  (function partition() {
    const c = D.compile;
    if (!c) { empty('partition-body', 'No compile report: run `edgecompile compile ... --report R.json` and pass --compile-report R.json.'); empty('timeline-body', 'No compile report.'); return; }
    const body = $('partition-body'), p = c.partition || {};
    body.appendChild(kv([['Backend', c.backend || ''], ['Target', (c.target || '') + (c.target_reason ? ' \u2014 ' + c.target_reason : '')],
      ['Ops on target', String(p.ops_on_target)], ['Ops on CPU', String(p.ops_on_cpu)], ['Segments', String(p.segments)], ['Counted in', p.counted_in || ''],
      ['Quantisation', c.quantize || ''], ['Artefact', c.output || '(none)']]));
    if (c.status_table && c.status_table.length) {
      body.appendChild(el('h3', {}, 'Operator / Count / Status'));
      body.appendChild(table(['Operator', 'Count', 'Status'], c.status_table.map((r) => [r.operator, r.count, r.status]), [false, true, false]));
    }
    if (c.ops && c.ops.length) {
      body.appendChild(el('h3', {}, 'Every op'));
      const wrap = el('div', { class: 'scroll' });
      wrap.appendChild(table(['name', 'type', 'placement', 'cause', 'status', 'reason'],
        c.ops.map((r) => [r.name, r.type || r.ir_type, r.unit || r.placement, r.cause, r.status, r.reason])));
      body.appendChild(wrap);
    }
    const tl = c.backend_timeline || [], tb = $('timeline-body');
    if (!tl.length) { empty('timeline-body', 'The backend recorded no attempts.'); return; }
    const failed = tl.filter((r) => !r.ok).length;
    tb.appendChild(el('p', {}, tl.length + ' attempts, ' + failed + ' failed.'));
    tb.appendChild(barChart(tl.map((r) => r.duration_ms), tl.map((r) => r.unit + ' ' + r.stage), { unit: ' ms', height: 120, bad: () => false, xlabel: 'attempts in order (duration)' }));
    const wrap = el('div', { class: 'scroll' });
    wrap.appendChild(table(['unit', 'stage', 'ok', 'duration ms', 'reason'],
      tl.map((r) => [r.unit, r.stage, el('span', { class: r.ok ? 'ok' : 'fail' }, r.ok ? 'ok' : 'failed'), fmt(r.duration_ms, 3), r.reason]), [false, false, false, true, false]));
    tb.appendChild(wrap);
  })();

  // --- quantisation -----------------------------------------------------------------------
  (function quant() {
    const q = D.quant;
    if (!q) { empty('quant-body', 'No quantisation report: run `edgecompile quantize ... --report Q.json` and pass --quant-report Q.json.'); return; }
    const body = $('quant-body');
    body.appendChild(kv([['Strategy', q.strategy || ''], ['Per channel', String(q.per_channel)], ['Data', q.data_source || 'none']]));
    if (q.outputs && q.outputs.length)
      body.appendChild(table(['output', 'SQNR dB', 'max abs error', 'top-1 agreement'], q.outputs.map((o) => [o.output, fmt(o.sqnr_db), fmt(o.max_abs_error, 6), fmt(o.top1_agreement, 3)]), [false, true, true, true]));
    const layers = q.layers || [];
    if (layers.length) {
      body.appendChild(el('h3', {}, 'Output SQNR per layer (dB)'));
      body.appendChild(barChart(layers.map((l) => l.output_sqnr_db), layers.map((l) => l.op), { unit: ' dB', bad: (v) => v < 20, xlabel: 'layers in graph order' }));
      // Per-channel heatmap: a row per layer, a column per output channel, red (low SQNR) to green.
      const rows = layers.filter((l) => l.channel_sqnr_db && l.channel_sqnr_db.length);
      if (rows.length) {
        body.appendChild(el('h3', {}, 'Per-channel weight SQNR (rows: layers, columns: output channels)'));
        const cols = Math.max(...rows.map((l) => l.channel_sqnr_db.length));
        const cw = Math.max(1, Math.min(6, Math.floor(900 / cols))), ch = Math.max(2, Math.min(8, Math.floor(600 / rows.length)));
        const cv = el('canvas', { width: cols * cw, height: rows.length * ch, class: 'heatmap' });
        const ctx = cv.getContext('2d');
        rows.forEach((l, r) => l.channel_sqnr_db.forEach((v, c) => {
          const t = Math.max(0, Math.min(1, ((v === null ? 0 : v) - 10) / 40));
          ctx.fillStyle = `hsl(${Math.round(t * 120)},70%,50%)`;
          ctx.fillRect(c * cw, r * ch, cw, ch);
        }));
        cv.title = 'red: 10 dB or less, green: 50 dB or more';
        body.appendChild(cv);
      }
    }
    if (q.float_ops && q.float_ops.length) {
      body.appendChild(el('h3', {}, 'Ops kept in float'));
      body.appendChild(table(['op', 'type', 'reason'], q.float_ops.map((f) => [f.op, f.op_type, f.reason])));
    }
  })();

  // --- benchmark ------------------------------------------------------------------------
  (function bench() {
    const b = D.bench;
    if (!b) { empty('bench-body', 'No benchmark: pass --bench B.json (edgecompile bench --json) or --run ID.'); return; }
    const body = $('bench-body');
    body.appendChild(table(['', 'ms'], [['init', fmt(b.init_ms, 3)], ['first inference', fmt(b.first_inference_ms, 3)], ['mean', fmt(b.mean_ms, 3)], ['stdev', fmt(b.stdev_ms, 3)],
      ['min', fmt(b.min_ms, 3)], ['p50', fmt(b.p50_ms, 3)], ['p90', fmt(b.p90_ms, 3)], ['p95', fmt(b.p95_ms, 3)], ['p99', fmt(b.p99_ms, 3)], ['max', fmt(b.max_ms, 3)]], [false, true]));
    body.appendChild(kv([['Iterations', String(b.iterations)], ['Throughput', fmt(b.throughput_per_s, 1) + ' /s'], ['Threads', String(b.threads)], ['Peak memory', fmt(b.peak_memory_mib, 1) + ' MiB']]));
    const lat = b.latencies_ms || [];
    if (lat.length) {
      const lo = Math.min(...lat), hi = Math.max(...lat), bins = 30, counts = new Array(bins).fill(0);
      for (const v of lat) counts[Math.min(bins - 1, Math.floor(((v - lo) / Math.max(hi - lo, 1e-9)) * bins))]++;
      body.appendChild(el('h3', {}, 'Latency histogram (' + lat.length + ' timed runs, ' + fmt(lo, 3) + '\u2013' + fmt(hi, 3) + ' ms)'));
      body.appendChild(barChart(counts, counts.map((_, i) => fmt(lo + (i * (hi - lo)) / bins, 3) + ' ms'), { height: 140, xlabel: 'latency (ms), ' + bins + ' bins' }));
    }
    if (b.top_ops && b.top_ops.length) {
      body.appendChild(el('h3', {}, 'Slowest ops'));
      body.appendChild(table(['op', 'type', 'ms'], b.top_ops.map((o) => [o.name, o.op_type, fmt(o.ms, 4)]), [false, false, true]));
    }
  })();
})();
