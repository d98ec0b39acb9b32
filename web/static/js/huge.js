// Huge N: one solution of a huge board, with download links. The
// construction is explained (its rule by n mod 6, from the server's Go code)
// and drawn exactly for every n as vector staircases (GET
// /api/construction): sharp at any zoom, no resampling. A random solution
// has no such shape: it is drawn by the server as a picture shown pixel for
// pixel (queen density per pixel past 1000 rows). Files come through the
// transport (api.fileURL, api.downloadLink), which in the static build makes
// them in the browser.

import * as api from './api.js';
import { readInt, setRange } from './field.js';
import { $, group, setStatus } from './text.js';

export class HugePanel {
  constructor(limits, onURL) {
    this.onURL = onURL;
    this.range = setRange('huge-n', 1, Math.min(limits.max_solve_n, limits.max_render_n));
    this.seedRange = setRange('huge-seed', 0, 2 ** 31 - 1);
    $('huge-form').addEventListener('submit', (e) => { e.preventDefault(); this.solve(); });
    const seed = () => { $('huge-seed').disabled = $('huge-method').value !== 'random'; };
    $('huge-method').addEventListener('change', seed);
    seed();
  }

  enter(params) {
    for (const k of ['n', 'method', 'seed']) if (params.get(k)) $('huge-' + k).value = params.get(k);
    $('huge-seed').disabled = $('huge-method').value !== 'random';
  }

  leave() {}

  urlState() {
    const q = { n: $('huge-n').value, method: $('huge-method').value };
    if (q.method === 'random') q.seed = $('huge-seed').value;
    return q;
  }

  async solve() {
    const n = readInt('huge-n', ...this.range);
    const method = $('huge-method').value;
    const seed = method === 'random' ? readInt('huge-seed', ...this.seedRange, 'The seed') : undefined;
    if (n === null || seed === null) return;
    this.onURL();
    const q = { n, method, seed };
    if (method === 'construct') {
      await this.construct(n, q);
      return;
    }
    $('huge-svg').replaceChildren();
    $('huge-rule').hidden = true;
    $('huge-img').hidden = false;
    const img = $('huge-img');
    const go = $('huge-go');
    const t0 = performance.now();
    go.disabled = true;
    setStatus($('huge-status'), `Solving N = ${group(n)}…`);
    $('huge-figure').hidden = true;
    $('huge-downloads').hidden = true;
    img.onload = () => {
      go.disabled = false;
      const s = ((performance.now() - t0) / 1000).toFixed(2);
      setStatus($('huge-status'), `Solved and verified N = ${group(n)} in ${s} s (picture included).`, 'good');
      const block = Math.ceil(n / img.naturalWidth);
      $('huge-caption').textContent = block > 1
        ? `A random solution of the ${group(n)}×${group(n)} board, shown pixel for pixel: each pixel is a block of ${group(block)}×${group(block)} squares, darker where it holds more queens.`
        : `A random solution of the ${group(n)}×${group(n)} board, one pixel a square.`;
      $('huge-figure').hidden = false;
      $('huge-downloads').hidden = false;
      $('huge').dataset.state = 'done';
    };
    const failed = (msg) => {
      go.disabled = false;
      setStatus($('huge-status'), msg, 'error');
      $('huge').dataset.state = 'error';
    };
    img.onerror = async () => {
      // An <img> does not show the error body; ask again for the message.
      let msg = 'The server could not draw this board.';
      try {
        await api.getJSON('/api/solve', { ...q, format: 'json' });
      } catch (err) {
        msg = err.message;
      }
      failed(msg);
    };
    $('huge').dataset.state = 'loading';
    img.alt = `One solution of the ${group(n)}×${group(n)} board`;
    URL.revokeObjectURL(img.src); // the last picture's, if the browser made it
    try {
      img.src = await api.fileURL('/api/solve', { ...q, format: 'png' });
    } catch (err) {
      failed(err.message);
      return;
    }
    const downloadFailed = (err) => setStatus($('huge-status'), err.message, 'error');
    for (const f of ['list', 'json', 'png']) api.downloadLink($('huge-dl-' + f), '/api/solve', { ...q, format: f, download: 1 }, downloadFailed);
  }

  // construct explains and draws the construction for n: the rule in words
  // and every queen, as the staircases it lies on (each queen one row down
  // and two columns right of the one before), to scale in one SVG.
  async construct(n, q) {
    const go = $('huge-go');
    go.disabled = true;
    $('huge-img').hidden = true;
    $('huge').dataset.state = 'loading';
    let c;
    try {
      c = await api.getJSON('/api/construction', { n });
    } catch (err) {
      go.disabled = false;
      setStatus($('huge-status'), err.message, 'error');
      $('huge').dataset.state = 'error';
      return;
    }
    go.disabled = false;
    $('huge-rule').textContent = c.rule;
    $('huge-rule').hidden = false;
    const SVG = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${n} ${n}`);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `The ${group(n)} queens of the construction on the ${group(n)}×${group(n)} board, as ${c.runs.length} staircases`);
    const longest = [...c.runs].sort((a, b) => b.count - a.count).slice(0, 2);
    const small = n <= 64;
    for (const run of c.runs) {
      const kind = run === longest[0] ? 'run' : run === longest[1] ? 'run second' : 'run odd-one';
      if (small) {
        for (let i = 0; i < run.count; i++) {
          const sq = document.createElementNS(SVG, 'rect');
          Object.entries({ x: run.col - 1 + 2 * i, y: run.row - 1 + i, width: 1, height: 1, class: kind }).forEach(([k, v]) => sq.setAttribute(k, v));
          sq.style.fill = 'currentColor';
          svg.append(sq);
        }
        continue;
      }
      const line = document.createElementNS(SVG, 'line');
      const end = run.count - 1;
      Object.entries({ x1: run.col - 0.5, y1: run.row - 0.5, x2: run.col - 0.5 + 2 * end, y2: run.row - 0.5 + end, class: kind,
        'stroke-width': 3, 'vector-effect': 'non-scaling-stroke', 'stroke-linecap': 'round' }).forEach(([k, v]) => line.setAttribute(k, v));
      svg.append(line);
    }
    $('huge-svg').replaceChildren(svg);
    const two = longest.length === 2 ? ' The two staircases of the rule are blue and green' : '';
    const odd = c.runs.length > 2 ? `; the ${c.runs.length - 2} short runs in red are the adjustments of the n mod 6 = ${n % 6} case.` : '.';
    $('huge-caption').textContent = small
      ? `All ${group(n)} queens of the ${group(n)}×${group(n)} board, one square each, drawn to scale.${two}${odd}`
      : `All ${group(n)} queens of the ${group(n)}×${group(n)} board, drawn to scale as vector lines: each line is a staircase of queens, one a row, two columns apart, sharp at any zoom.${two}${odd}`;
    $('huge-figure').hidden = false;
    $('huge-downloads').hidden = false;
    setStatus($('huge-status'), `Constructed N = ${group(n)}.`, 'good');
    $('huge').dataset.state = 'done';
    const downloadFailed = (err) => setStatus($('huge-status'), err.message, 'error');
    for (const f of ['list', 'json', 'png']) api.downloadLink($('huge-dl-' + f), '/api/solve', { ...q, format: f, download: 1 }, downloadFailed);
  }
}
