// Huge N: one solution of a huge board, with download links. The
// construction is explained (its rule by n mod 6, from the server's Go code)
// and drawn exactly for every n (GET /api/construction): on a board small
// enough to see its squares, one square a queen, with a line through each
// staircase of queens (one row down and two columns right of the one
// before); past that, each staircase as one vector line, sharp at any zoom.
// It says how the board differs from the one seed article 000 prints (the
// other classic construction, solve.ConstructHalf). The address names it
// whole, /?panel=huge&n=1000&method=construct, and the panel draws it at
// once. A random solution has no such shape: it is drawn by the server as a
// picture shown pixel for pixel (queen density per pixel past 1000 rows),
// and only when Solve is pressed (it may take seconds). Files come through
// the transport (api.fileURL, api.downloadLink), which in the static build
// makes them in the browser.

import * as api from './api.js';
import { readInt, setRange } from './field.js';
import { t, tn } from './i18n.js';
import { say } from './lang.js';
import { symmetryTo } from './symmetry.js';
import { $, group, setStatus, status } from './text.js';

const SVG = 'http://www.w3.org/2000/svg';

// svgEl makes an SVG element with attributes.
function svgEl(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

// The longest board drawn a square a queen: past it a square is under a
// pixel of the drawing.
const cellsUpTo = 64;

export class HugePanel {
  constructor(limits, onURL) {
    this.onURL = onURL;
    this.range = setRange('huge-n', 1, Math.min(limits.max_solve_n, limits.max_render_n));
    this.seedRange = setRange('huge-seed', 0, 2 ** 31 - 1);
    this.shown = null; // {n, method, seed} of what the panel shows
    $('huge-form').addEventListener('submit', (e) => { e.preventDefault(); this.solve(); });
    const seed = () => { $('huge-seed').disabled = $('huge-method').value !== 'random'; };
    $('huge-method').addEventListener('change', seed);
    seed();
  }

  // enter shows what the address names; a construction, instant, is drawn
  // at once.
  enter(params) {
    for (const k of ['n', 'method', 'seed']) if (params.get(k)) $('huge-' + k).value = params.get(k);
    $('huge-seed').disabled = $('huge-method').value !== 'random';
    const n = Number($('huge-n').value);
    if ($('huge-method').value === 'construct' && !(this.shown && this.shown.n === n && this.shown.method === 'construct')) this.solve();
  }

  leave() {}

  // relang writes the panel again in the language chosen: a construction
  // is asked for again (its rule is the server's text); a random solution's
  // status and caption are rewritten by translate (lang.js say), its
  // picture's text here.
  relang() {
    if (!this.shown) return;
    if (this.shown.method === 'construct') this.solve();
    else $('huge-img').alt = t('huge.alt.random', { N: group(this.shown.n) });
  }

  urlState() {
    const q = { n: $('huge-n').value, method: $('huge-method').value };
    if (q.method === 'random') q.seed = $('huge-seed').value;
    return q;
  }

  async solve() {
    const n = readInt('huge-n', ...this.range);
    const method = $('huge-method').value;
    const seed = method === 'random' ? readInt('huge-seed', ...this.seedRange, t('huge.seed')) : undefined;
    if (n === null || seed === null) return;
    this.onURL();
    const q = { n, method, seed };
    this.shown = { n, method, seed };
    if (method === 'construct') {
      await this.construct(n, q);
      return;
    }
    $('huge-svg').replaceChildren();
    $('huge-rule').hidden = true;
    $('huge-article').hidden = true;
    $('huge-img').hidden = false;
    const img = $('huge-img');
    const go = $('huge-go');
    const t0 = performance.now();
    go.disabled = true;
    status($('huge-status'), 'huge.solving', { N: group(n) });
    $('huge-figure').hidden = true;
    $('huge-downloads').hidden = true;
    img.onload = () => {
      go.disabled = false;
      const s = ((performance.now() - t0) / 1000).toFixed(2);
      status($('huge-status'), 'huge.solved', { N: group(n), Seconds: s }, 'good');
      const block = Math.ceil(n / img.naturalWidth);
      if (block > 1) say($('huge-caption'), 'huge.caption.random.blocks', { N: group(n), Block: group(block) });
      else say($('huge-caption'), 'huge.caption.random', { N: group(n) });
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
      let msg = t('huge.draw-failed');
      try {
        await api.getJSON('/api/solve', { ...q, format: 'json' });
      } catch (err) {
        msg = err.message;
      }
      failed(msg);
    };
    $('huge').dataset.state = 'loading';
    img.alt = t('huge.alt.random', { N: group(n) });
    URL.revokeObjectURL(img.src); // the last picture's, if the browser made it
    try {
      img.src = await api.fileURL('/api/solve', { ...q, format: 'png' });
    } catch (err) {
      failed(err.message);
      return;
    }
    this.downloads(q);
  }

  downloads(q) {
    const downloadFailed = (err) => setStatus($('huge-status'), err.message, 'error');
    for (const f of ['list', 'json', 'png']) api.downloadLink($('huge-dl-' + f), '/api/solve', { ...q, format: f, download: 1 }, downloadFailed);
  }

  // construct explains and draws the construction for n: the rule in words,
  // every queen to scale in one SVG, and how article 000's board differs.
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
    if (!this.shown || this.shown.n !== n || this.shown.method !== 'construct') return; // asked for another since
    $('huge-rule').textContent = c.rule;
    $('huge-rule').hidden = false;
    const small = n <= cellsUpTo;
    $('huge-svg').replaceChildren(small ? drawCells(c) : drawLines(c));
    const longest = Math.max(...c.runs.map((r) => r.count));
    say($('huge-caption'), small ? 'huge.caption.cells' : 'huge.caption.lines', { Count: c.runs.length, N: group(n), Longest: group(longest) });
    this.article(c);
    $('huge-figure').hidden = false;
    $('huge-downloads').hidden = false;
    setStatus($('huge-status'), t('huge.constructed', { N: group(n) }), 'good');
    $('huge').dataset.state = 'done';
    this.downloads(q);
  }

  // article says how the board of seed article 000's construction differs
  // from this one: for a small n both lists and whether a turn or a mirror
  // of the square maps one onto the other.
  article(c) {
    const el = $('huge-article');
    const rest = c.n % 6;
    el.hidden = c.n < 4;
    if (c.same_as_article) {
      el.textContent = t('huge.article.same', { N: group(c.n), Rest: rest });
      return;
    }
    if (!c.article) {
      el.textContent = t('huge.article.differs', { N: group(c.n), Rest: rest, K: group(Math.floor(c.n / 2)), K3: group(Math.floor(c.n / 2) + 3) });
      return;
    }
    const sym = symmetryTo(c.article, c.columns);
    el.textContent = t(sym ? 'huge.article.list.same-class' : 'huge.article.list', {
      N: group(c.n), Rest: rest, K: Math.floor(c.n / 2), Article: c.article.join(' '), Page: c.columns.join(' '),
      Symmetry: sym ? t(`huge.symmetry.${sym}`) : '', K3: Math.floor(c.n / 2) + 3,
    });
  }
}

// drawCells draws the board of a construction a square a queen: the
// squares, a line through each staircase and a disc on each queen.
function drawCells(c) {
  const { n } = c;
  const svg = svgEl('svg', { viewBox: `0 0 ${n} ${n}`, role: 'img', 'aria-label': t('huge.alt.cells', { N: group(n) }), 'data-cells': 'true' });
  for (let r = 0; r < n; r++) {
    for (let col = 0; col < n; col++) {
      svg.append(svgEl('rect', { x: col, y: r, width: 1, height: 1, class: (r + col) % 2 ? 'sq dark' : 'sq' }));
    }
  }
  for (const run of c.runs) {
    const end = run.count - 1;
    if (end > 0) {
      svg.append(svgEl('line', { x1: run.col - 0.5, y1: run.row - 0.5, x2: run.col - 0.5 + 2 * end, y2: run.row - 0.5 + end, class: 'run' }));
    }
    for (let i = 0; i < run.count; i++) {
      svg.append(svgEl('circle', { cx: run.col - 0.5 + 2 * i, cy: run.row - 0.5 + i, r: 0.36, class: 'queen' }));
    }
  }
  return svg;
}

// drawLines draws each staircase of a construction as one line, too small
// a square to see.
function drawLines(c) {
  const { n } = c;
  const svg = svgEl('svg', { viewBox: `0 0 ${n} ${n}`, role: 'img', 'aria-label': tn('huge.alt.lines', c.runs.length, { N: group(n) }) });
  for (const run of c.runs) {
    const end = run.count - 1;
    svg.append(svgEl('line', {
      x1: run.col - 0.5, y1: run.row - 0.5, x2: run.col - 0.5 + 2 * end, y2: run.row - 0.5 + end, class: 'run',
      'vector-effect': 'non-scaling-stroke', 'stroke-linecap': 'round',
    }));
  }
  return svg;
}
