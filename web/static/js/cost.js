// The cost view: what every classic strategy pays for N = 4 … 12, as two
// charts on log scales, its reads (the elementary reads of its check) and
// the measured time of one whole run, with the same numbers in a table,
// one row per strategy, and a sentence a strategy that says why: what one
// step of it reads, and by how much each N multiplies its work, both worked
// out from the rows. The server (or, in the static build, this browser's
// WebAssembly) runs each strategy as `nqueens compare N --json` does, and
// answers its rows (docs/json.md, "A comparison"). A brute-force method
// that would take over a second is not run: its candidates are given by its
// formula, and its time estimated from the rate measured, in the table
// only; the time chart shows what was measured, the median of one run with
// the middle half of its measures.
//
// The lines differ in their marker and their dashes as well as their
// colour, and are named in a column at the right, each name joined to the
// end of its line, so that no two names overlap.

import * as api from './api.js';
import { int, t } from './i18n.js';
import { $, duration, runTime, setStatus } from './text.js';

const SVG = 'http://www.w3.org/2000/svg';
const NS = [4, 5, 6, 7, 8, 9, 10, 11, 12];

// The growth of a strategy's work is measured over its last five N at most.
const growthSpan = 4;

// Superscript digits, for the powers of ten of the axis.
const sup = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
export const power = (p) => `10${String(p).split('').map((d) => sup[d]).join('')}`;

// formulaText writes a formula of the server's ("n^n") with its exponent
// raised ("nⁿ").
const formulaText = (f) => String(f || '').replace(/\^([n\d]+)/g, (all, e) => e.split('').map((d) => (d === 'n' ? 'ⁿ' : sup[d])).join(''));

// The two charts: the value each plots of a row, its spread (the quartiles
// of a time), and how its axis reads.
const charts = {
  reads: {
    value: (r) => (r.status === 'ok' ? Number(r.counters.reads) : null),
    label: power,
    name: 'cost.chart.reads',
  },
  time: {
    value: (r) => (r.status === 'ok' ? r.median_s || r.seconds : null),
    spread: (r) => (r.status === 'ok' && r.samples > 1 ? [r.q1_s, r.q3_s] : null),
    label: (p) => axisTime(10 ** p),
    name: 'cost.chart.time',
  },
};

// Each line's dashes and marker, by its place in the list: no two lines
// share both, and neither is a colour.
const dashes = ['', '7 3', '2 3', '9 3 2 3', '4 4', '12 4', '2 2 6 2', '1 5', '6 2 2 2 2 2'];
const markers = ['circle', 'square', 'triangle', 'diamond', 'down', 'cross', 'plus', 'star', 'bar'];

export class CostPanel {
  constructor(limits, onURL) {
    this.onURL = onURL;
    this.rows = null;
  }

  enter() { if (!this.rows) this.load(); }
  leave() {}
  urlState() { return {}; }

  // relang writes the panel again in the language chosen, from the rows it
  // holds: nothing is measured again.
  relang() {
    if (this.rows && this.rows.size) this.draw();
    if (this.done) this.sayDone();
  }

  async load() {
    this.rows = new Map(); // algo → {n → row}
    this.done = false;
    const where = api.kind === 'wasm' ? 'browser' : 'server';
    $('cost').dataset.state = 'loading';
    for (const n of NS) {
      setStatus($('cost-status'), t(`cost.measuring.${where}`, { N: n }));
      let list;
      try {
        list = await api.getJSON('/api/compare', { n });
      } catch (err) {
        setStatus($('cost-status'), err.message, 'error');
        $('cost').dataset.state = 'error';
        return;
      }
      for (const r of list) {
        if (!this.rows.has(r.algorithm)) this.rows.set(r.algorithm, new Map());
        this.rows.get(r.algorithm).set(n, r);
      }
      this.draw();
    }
    this.done = true;
    this.sayDone();
    $('cost').dataset.state = 'done';
  }

  sayDone() {
    setStatus($('cost-status'), t(api.kind === 'wasm' ? 'cost.done.browser' : 'cost.done.server'), 'good');
  }

  draw() {
    this.drawTable();
    for (const [what, chart] of Object.entries(charts)) $(`cost-chart-${what}`).replaceChildren(this.chart(chart));
    this.drawWhy();
  }

  // drawTable writes one row per strategy, reads and time for each N.
  drawTable() {
    const head = document.createElement('tr');
    // "N = 8" is a formula, the same in every language.
    head.append(th(t('cost.col.strategy'), 'col'), ...NS.map((n) => th(`N = ${n}`, 'col')));
    const body = [...this.rows].map(([algo, byN]) => {
      const tr = document.createElement('tr');
      tr.dataset.algo = algo;
      tr.append(th(algo, 'row'), ...NS.map((n) => {
        const td = document.createElement('td');
        const r = byN.get(n);
        if (!r) return td;
        if (r.status === 'skipped') {
          td.className = 'out';
          td.textContent = t('cost.cell.skipped', { Formula: formulaText(r.formula), Candidates: int(r.candidates), Time: duration(r.estimate_s) });
        } else if (r.status === 'timeout') {
          td.className = 'out';
          td.textContent = t('cost.cell.timeout', { Reads: int(r.counters.reads) });
        } else {
          td.textContent = t('cost.cell', { Reads: int(r.counters.reads), Time: runTime(r.median_s || r.seconds) });
        }
        return td;
      }));
      return tr;
    });
    $('cost-table').replaceChildren(document.createElement('thead'), document.createElement('tbody'));
    $('cost-table').tHead.append(head);
    $('cost-table').tBodies[0].append(...body);
  }

  // why works out, for each strategy, what one step reads and how much
  // each N multiplies its work: {algo, n, perStep, growth, from, to,
  // formula, candidates}, or null where the rows do not tell. A step is a
  // try (for a brute-force method, a candidate board; for bitmask, which
  // tries no attacked square, a placement): its reads are reads / tries at
  // the largest N it ran. The work is its reads; for a brute-force method
  // out of reach at the last N, its candidates, exact by their formula,
  // each of which costs it about that many reads. The factor is the
  // geometric mean of the growth from one N to the next over the last
  // growthSpan steps.
  why(algo) {
    const byN = this.rows.get(algo);
    const ok = (m) => byN.get(m) && byN.get(m).status === 'ok';
    const ran = NS.filter(ok);
    if (!ran.length) return null;
    const n = ran[ran.length - 1];
    const c = byN.get(n).counters;
    const perStep = Number(c.reads) / Math.max(Number(c.tries), 1);
    const measured = NS.filter((m) => byN.get(m));
    const last = measured[measured.length - 1];
    const candidates = byN.get(last).status === 'skipped';
    const work = candidates
      ? (m) => Number(byN.get(m).status === 'skipped' ? byN.get(m).candidates : byN.get(m).counters.tries)
      : (m) => Number(byN.get(m).counters.reads);
    const top = candidates ? last : n;
    const span = measured.filter((m) => m >= top - growthSpan && m <= top && (ok(m) || (candidates && byN.get(m).status === 'skipped')));
    if (span.length < 2) return null;
    const [from, to] = [span[0], span[span.length - 1]];
    const growth = (work(to) / work(from)) ** (1 / (to - from));
    return { algo, n, perStep, growth, from, to, formula: candidates ? formulaText(byN.get(last).formula) : '', candidates };
  }

  // drawWhy writes the sentence of each strategy.
  drawWhy() {
    const items = [...this.rows.keys()].map((a) => this.why(a)).filter(Boolean);
    const box = $('cost-why');
    box.hidden = !items.length;
    if (!items.length) return;
    const lead = document.createElement('p');
    lead.textContent = t('cost.why.lead');
    const ul = document.createElement('ul');
    ul.append(...items.map((w) => {
      const li = document.createElement('li');
      li.dataset.algo = w.algo;
      const known = ['brute-combinations', 'brute-rows', 'permutations', 'backtrack-2d', 'backtrack-array', 'backtrack-flags',
        'backtrack-flags-iterative', 'stack', 'bitmask'].includes(w.algo);
      li.textContent = t(`cost.why.${known ? w.algo : 'other'}${w.candidates ? '.candidates' : ''}`, {
        Algo: w.algo, N: w.n, PerStep: w.perStep.toFixed(1), Growth: w.growth.toFixed(1), From: w.from, To: w.to, Formula: w.formula,
      });
      return li;
    }));
    box.replaceChildren(lead, ul);
  }

  // chart draws log10 of a chart's value against N, one line per strategy,
  // each with its marker and dashes, and names the lines in a column at the
  // right.
  chart({ value, spread = () => null, label, name }) {
    const W = 660;
    const H = 340;
    const [left, right, top, bottom] = [64, 190, 14, 44]; // room for the axis and the lines' names
    const rows = [...this.rows.values()].flatMap((m) => [...m.values()]);
    const points = rows.flatMap((r) => [value(r), ...(spread(r) || [])]).filter((v) => v > 0);
    const lo = Math.floor(Math.log10(Math.min(...points, 1)));
    const hi = Math.ceil(Math.log10(Math.max(...points, 10)));
    const x = (n) => left + (n - NS[0]) / (NS[NS.length - 1] - NS[0]) * (W - left - right);
    const y = (v) => H - bottom - (Math.log10(v) - lo) / Math.max(hi - lo, 1) * (H - top - bottom);
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', t(name));
    const add = (tag, attrs, text) => {
      const el = document.createElementNS(SVG, tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      if (text) el.textContent = text;
      svg.append(el);
      return el;
    };
    const step = Math.max(1, Math.ceil((hi - lo) / 6));
    for (let p = Math.ceil(lo / step) * step; p <= hi; p += step) {
      add('line', { x1: left, x2: W - right, y1: y(10 ** p), y2: y(10 ** p), class: 'grid' });
      add('text', { x: left - 6, y: y(10 ** p) + 4, 'text-anchor': 'end', class: 'axis' }, label(p));
    }
    for (const n of NS) add('text', { x: x(n), y: H - bottom + 18, 'text-anchor': 'middle', class: 'axis' }, String(n));
    add('text', { x: (left + W - right) / 2, y: H - 8, 'text-anchor': 'middle', class: 'axis' }, 'N');
    const ends = [];
    let i = 0;
    for (const [algo, byN] of this.rows) {
      const k = i++;
      const cls = `s${k % 9}`;
      const run = NS.filter((n) => byN.get(n) && value(byN.get(n)) > 0);
      if (!run.length) continue;
      const g = add('g', { class: `series-group ${cls}`, 'data-algo': algo });
      const path = run.map((n, j) => `${j ? 'L' : 'M'}${x(n).toFixed(1)},${y(value(byN.get(n))).toFixed(1)}`).join(' ');
      g.append(el('path', { d: path, class: 'series', 'stroke-dasharray': dashes[k % dashes.length] }));
      for (const n of run) {
        const s = spread(byN.get(n));
        if (s && s[0] > 0 && s[1] > 0) g.append(el('line', { x1: x(n), x2: x(n), y1: y(s[0]), y2: y(s[1]), class: 'whisker' }));
        g.append(marker(markers[k % markers.length], x(n), y(value(byN.get(n)))));
      }
      const n = run[run.length - 1];
      ends.push({ x: x(n), y: y(value(byN.get(n))), cls, algo, k });
    }
    // The names, in a column at the right, in the order the lines end
    // from top to bottom, moved apart by gap units at least and kept within
    // the chart; each joined to its line's end.
    ends.sort((a, b) => a.y - b.y);
    const gap = 17; // a line of text, with room to spare at every width the chart takes
    ends.forEach((e, j) => { e.ly = Math.max(e.y, j ? ends[j - 1].ly + gap : top + 4); });
    const over = ends.length ? ends[ends.length - 1].ly - (H - bottom) : 0;
    if (over > 0) ends.forEach((e) => { e.ly -= over; });
    ends.forEach((e, j) => { if (j && e.ly < ends[j - 1].ly + gap) e.ly = ends[j - 1].ly + gap; });
    const lx = W - right + 22;
    for (const e of ends) {
      const g = add('g', { class: `name ${e.cls}`, 'data-algo': e.algo });
      g.append(el('line', { x1: e.x + 5, y1: e.y, x2: lx - 12, y2: e.ly, class: 'leader' }));
      g.append(marker(markers[e.k % markers.length], lx - 6, e.ly));
      g.append(el('text', { x: lx + 2, y: e.ly + 4, class: 'label' }, e.algo));
    }
    return svg;
  }
}

// el makes an SVG element.
function el(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

// marker draws a point of a line: one shape per line, 4 units across.
function marker(kind, cx, cy) {
  const r = 4;
  const poly = (pts) => el('polygon', { points: pts.map(([dx, dy]) => `${(cx + dx).toFixed(1)},${(cy + dy).toFixed(1)}`).join(' '), class: 'marker' });
  switch (kind) {
    case 'square': return el('rect', { x: cx - r + 0.5, y: cy - r + 0.5, width: 2 * r - 1, height: 2 * r - 1, class: 'marker' });
    case 'triangle': return poly([[0, -r - 1], [r, r - 1], [-r, r - 1]]);
    case 'down': return poly([[0, r + 1], [r, -r + 1], [-r, -r + 1]]);
    case 'diamond': return poly([[0, -r - 1], [r + 1, 0], [0, r + 1], [-r - 1, 0]]);
    case 'cross': return el('path', { d: `M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx - r},${cy + r}L${cx + r},${cy - r}`, class: 'marker open' });
    case 'plus': return el('path', { d: `M${cx - r - 1},${cy}L${cx + r + 1},${cy}M${cx},${cy - r - 1}L${cx},${cy + r + 1}`, class: 'marker open' });
    case 'star': return poly([...Array(10)].map((_, j) => {
      const a = -Math.PI / 2 + (j * Math.PI) / 5;
      const d = j % 2 ? r / 2 : r + 1;
      return [d * Math.cos(a), d * Math.sin(a)];
    }));
    case 'bar': return el('rect', { x: cx - r - 1, y: cy - 1.5, width: 2 * r + 2, height: 3, class: 'marker' });
    default: return el('circle', { cx, cy, r, class: 'marker hollow' });
  }
}

function th(text, scope) {
  const e = document.createElement('th');
  e.scope = scope;
  e.textContent = text;
  return e;
}

// axisTime names a power of ten of seconds briefly, for an axis: "1 µs",
// "100 ms", "17 min", "12 days", "32 years".
function axisTime(s) {
  if (s < 100) return runTime(s).replace(/^(\d+)\.0 /, '$1 ');
  return duration(s);
}
