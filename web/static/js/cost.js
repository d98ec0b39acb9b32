// The cost chart: the reads (and the measured time) of every classic
// strategy for N = 4 … 12, on a log scale, with the same numbers in a
// table, one row per strategy. The server (or, in the static build, this
// browser's WebAssembly) runs each strategy as `nqueens compare N` does; a
// brute-force method that would take over a second is out of reach, and
// its number of candidates is given instead.

import * as api from './api.js';
import { $, group, setStatus } from './text.js';

const SVG = 'http://www.w3.org/2000/svg';
const NS = [4, 5, 6, 7, 8, 9, 10, 11, 12];

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
          td.textContent = `out of reach: ${group(r.candidates)} candidates, about ${group(Math.round(r.estimate_s))} s`;
        } else {
          td.textContent = `${group(r.counters.reads)} reads, ${ms(r.seconds)}${r.status === 'timeout' ? ' (cut at 1 s)' : ''}`;
        }
        return td;
      }));
      return tr;
    });
    $('cost-table').replaceChildren(Object.assign(document.createElement('thead'), {}), document.createElement('tbody'));
    $('cost-table').tHead.append(head);
    $('cost-table').tBodies[0].append(...body);
    this.chart();
  }

  // chart draws log10(reads) against N, one line per strategy.
  chart() {
    const W = 640;
    const H = 320;
    const pad = 48;
    const all = [...this.rows.values()].flatMap((m) => [...m.values()]).filter((r) => r.counters && r.counters.reads > 0);
    const top = Math.ceil(Math.log10(Math.max(10, ...all.map((r) => r.counters.reads))));
    const x = (n) => pad + (n - NS[0]) / (NS[NS.length - 1] - NS[0]) * (W - 2 * pad);
    const y = (v) => H - pad - Math.log10(Math.max(v, 1)) / top * (H - 2 * pad);
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', 'Reads against N, log scale, one line per strategy; the table below has the numbers');
    const add = (tag, attrs, text) => {
      const el = document.createElementNS(SVG, tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      if (text) el.textContent = text;
      svg.append(el);
      return el;
    };
    for (let p = 0; p <= top; p += 2) {
      add('line', { x1: pad, x2: W - pad, y1: y(10 ** p), y2: y(10 ** p), class: 'grid' });
      add('text', { x: pad - 6, y: y(10 ** p) + 4, 'text-anchor': 'end' }, `10^${p}`);
    }
    for (const n of NS) add('text', { x: x(n), y: H - pad + 18, 'text-anchor': 'middle' }, String(n));
    add('text', { x: W / 2, y: H - 8, 'text-anchor': 'middle' }, 'N');
    let i = 0;
    for (const [algo, byN] of this.rows) {
      const pts = NS.map((n) => byN.get(n)).filter((r) => r && r.counters && r.status === 'ok');
      if (!pts.length) continue;
      const d = NS.filter((n) => byN.get(n) && byN.get(n).counters && byN.get(n).status === 'ok')
        .map((n, k) => `${k ? 'L' : 'M'}${x(n).toFixed(1)},${y(byN.get(n).counters.reads).toFixed(1)}`).join(' ');
      add('path', { d, class: `series s${i % 9}`, 'data-algo': algo });
      const lastN = NS.filter((n) => byN.get(n) && byN.get(n).status === 'ok').pop();
      add('text', { x: x(lastN) + 4, y: y(byN.get(lastN).counters.reads) + 4, class: `label s${i % 9}` }, algo);
      i++;
    }
    $('cost-chart').replaceChildren(svg);
  }
}

function th(text, scope) {
  const el = document.createElement('th');
  el.scope = scope;
  el.textContent = text;
  return el;
}

const ms = (s) => (s < 0.001 ? `${(s * 1e6).toFixed(0)} µs` : `${(s * 1000).toFixed(s < 0.1 ? 2 : 0)} ms`);
