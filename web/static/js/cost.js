// The cost view: what every classic strategy pays for N = 4 … 12, as two
// charts on log scales, its reads (the elementary reads of its check) and
// the measured time of one whole run, with the same numbers in a table,
// one row per strategy. The server (or, in the static build, this
// browser's WebAssembly) runs each strategy as `nqueens compare N --json`
// does, and answers its rows (docs/json.md, "A comparison"). A
// brute-force method that would take over a second is not run: its
// candidates are given by its formula, and its time estimated from the
// rate measured, labelled so (dashed and hollow in the chart).

import * as api from './api.js';
import { $, duration, group, runTime, setStatus } from './text.js';

const SVG = 'http://www.w3.org/2000/svg';
const NS = [4, 5, 6, 7, 8, 9, 10, 11, 12];

// The two charts: the value each plots of a row, and how its axis reads.
const charts = {
  reads: {
    value: (r) => (r.status === 'ok' ? r.counters.reads : null),
    label: (p) => `10^${p}`,
    name: 'Reads against N, log scale, one line per strategy',
  },
  time: {
    value: (r) => (r.status === 'ok' ? r.seconds : null),
    estimate: (r) => (r.status === 'skipped' ? r.estimate_s : null),
    label: (p) => axisTime(10 ** p),
    name: 'Time of one whole run against N, log scale, one line per strategy; dashed lines with hollow points are estimates',
  },
};

export class CostPanel {
  constructor(limits, onURL) {
    this.onURL = onURL;
    this.rows = null;
  }

  enter() { if (!this.rows) this.load(); }
  leave() {}
  urlState() { return {}; }

  async load() {
    this.rows = new Map(); // algo → {n → row}
    const where = api.kind === 'wasm' ? 'in this browser (WebAssembly, one core)' : 'on the server';
    $('cost').dataset.state = 'loading';
    for (const n of NS) {
      setStatus($('cost-status'), `Measuring N = ${n} ${where}…`);
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
    setStatus($('cost-status'), `Reads counted exactly; times measured ${where}, one whole run each (short runs repeated and averaged).`, 'good');
    $('cost').dataset.state = 'done';
  }

  draw() {
    // The table: one row per strategy, reads and time for each N.
    const head = document.createElement('tr');
    head.append(th('strategy', 'col'), ...NS.map((n) => th(`N = ${n}`, 'col')));
    const body = [...this.rows].map(([algo, byN]) => {
      const tr = document.createElement('tr');
      tr.dataset.algo = algo;
      tr.append(th(algo, 'row'), ...NS.map((n) => {
        const td = document.createElement('td');
        const r = byN.get(n);
        if (!r) return td;
        if (r.status === 'skipped') {
          td.className = 'out';
          td.textContent = `out of reach: ${r.formula} = ${group(r.candidates)} candidates, about ${duration(r.estimate_s)} (estimate)`;
        } else if (r.status === 'timeout') {
          td.className = 'out';
          td.textContent = `out of reach: cut at 1 s after ${group(r.counters.reads)} reads`;
        } else {
          td.textContent = `${group(r.counters.reads)} reads, ${runTime(r.seconds)}`;
        }
        return td;
      }));
      return tr;
    });
    $('cost-table').replaceChildren(document.createElement('thead'), document.createElement('tbody'));
    $('cost-table').tHead.append(head);
    $('cost-table').tBodies[0].append(...body);
    for (const [what, chart] of Object.entries(charts)) $(`cost-chart-${what}`).replaceChildren(this.chart(chart));
  }

  // chart draws log10 of a chart's value against N, one line per strategy;
  // its estimates, where it has some, continue the line dashed.
  chart({ value, estimate = () => null, label, name }) {
    const W = 640;
    const H = 320;
    const [left, right, top, bottom] = [64, 130, 12, 44]; // room for the axis and the lines' names
    const points = [...this.rows.values()].flatMap((m) => [...m.values()].flatMap((r) => [value(r), estimate(r)]))
      .filter((v) => v > 0);
    const lo = Math.floor(Math.log10(Math.min(...points, 1)));
    const hi = Math.ceil(Math.log10(Math.max(...points, 10)));
    const x = (n) => left + (n - NS[0]) / (NS[NS.length - 1] - NS[0]) * (W - left - right);
    const y = (v) => H - bottom - (Math.log10(v) - lo) / Math.max(hi - lo, 1) * (H - top - bottom);
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `${name}; the table below has the numbers`);
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
      add('text', { x: left - 6, y: y(10 ** p) + 4, 'text-anchor': 'end' }, label(p));
    }
    for (const n of NS) add('text', { x: x(n), y: H - bottom + 18, 'text-anchor': 'middle' }, String(n));
    add('text', { x: W / 2, y: H - 8, 'text-anchor': 'middle' }, 'N');
    const names = [];
    let i = 0;
    for (const [algo, byN] of this.rows) {
      const cls = `s${i % 9}`;
      i++;
      const run = NS.filter((n) => byN.get(n) && value(byN.get(n)) > 0);
      const guess = NS.filter((n) => byN.get(n) && estimate(byN.get(n)) > 0);
      const path = (ns, of) => ns.map((n, k) => `${k ? 'L' : 'M'}${x(n).toFixed(1)},${y(of(byN.get(n))).toFixed(1)}`).join(' ');
      if (run.length) add('path', { d: path(run, value), class: `series ${cls}`, 'data-algo': algo });
      if (guess.length) {
        // From the last measured point on, the estimates.
        const from = run.length ? [run[run.length - 1]] : [];
        const both = (r) => value(r) || estimate(r);
        add('path', { d: path([...from, ...guess], both), class: `series estimate ${cls}`, 'data-algo': algo });
        for (const n of guess) add('circle', { cx: x(n), cy: y(estimate(byN.get(n))), r: 3.5, class: `estimate ${cls}` });
      }
      const last = [...run, ...guess].sort((a, b) => a - b).pop();
      if (last !== undefined) {
        const r = byN.get(last);
        names.push({ x: x(last) + 5, y: y(value(r) || estimate(r)) + 4, cls, algo });
      }
    }
    // The lines' names, moved apart where lines end close together.
    names.sort((a, b) => a.y - b.y);
    names.forEach((t, k) => {
      const above = names.slice(0, k).filter((u) => Math.abs(u.x - t.x) < 90).pop();
      if (above && t.y - above.y < 11) t.y = above.y + 11;
      add('text', { x: t.x, y: t.y, class: `label ${t.cls}` }, t.algo);
    });
    return svg;
  }
}

function th(text, scope) {
  const el = document.createElement('th');
  el.scope = scope;
  el.textContent = text;
  return el;
}

// axisTime names a power of ten of seconds briefly, for an axis: "1 µs",
// "100 ms", "17 min", "12 days", "32 years".
function axisTime(s) {
  if (s < 100) return runTime(s).replace(/^(\d+)\.0 /, '$1 ');
  const [v, unit] = s < 7200 ? [s / 60, 'min'] : s < 2 * 86400 ? [s / 3600, 'h'] : s < 2 * 365.25 * 86400 ? [s / 86400, 'days'] : [s / (365.25 * 86400), 'years'];
  return `${group(Math.round(v))} ${unit}`;
}
