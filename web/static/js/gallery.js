// Gallery: every solution of the N×N board, grouped by symmetry class, each
// board labelled with the symmetry of the square that maps it onto its class
// representative (the canonical board, the smallest of its orbit).

import * as api from './api.js';
import { Board } from './board.js';
import { readInt, setRange } from './field.js';
import { $, group, setStatus } from './text.js';

// The 8 symmetries by the names of `nqueens show --transform`, each as a map
// of a 1-based square (r, c) on the n×n board.
const symmetries = [
  ['identity', 'is the representative', (r, c) => [r, c]],
  ['rot90', 'a quarter turn clockwise', (r, c, n) => [c, n + 1 - r]],
  ['rot180', 'a half turn', (r, c, n) => [n + 1 - r, n + 1 - c]],
  ['rot270', 'a quarter turn anticlockwise', (r, c, n) => [n + 1 - c, r]],
  ['mirror-cols', 'a left-right mirror', (r, c, n) => [r, n + 1 - c]],
  ['mirror-rows', 'a top-bottom mirror', (r, c, n) => [n + 1 - r, c]],
  ['transpose', 'a flip on the main diagonal', (r, c) => [c, r]],
  ['anti-transpose', 'a flip on the anti-diagonal', (r, c, n) => [n + 1 - c, n + 1 - r]],
];

function apply(map, queens) {
  const n = queens.length;
  const out = new Array(n).fill(0);
  queens.forEach((c, i) => {
    const [r2, c2] = map(i + 1, c, n);
    out[r2 - 1] = c2;
  });
  return out;
}

// symmetryTo names the symmetry that maps queens onto target.
export function symmetryTo(queens, target) {
  const want = target.join(',');
  return symmetries.find(([, , map]) => apply(map, queens).join(',') === want);
}

export class GalleryPanel {
  constructor(limits, onURL) {
    this.onURL = onURL;
    this.range = setRange('gallery-n', 1, limits.max_gallery_n);
    this.data = null;
    this.page = 0;
    this.perPage = 24;
    this.n = 0;
    this.abort = null;
    this.large = new Board($('gallery-board'), { label: 'The chosen solution' });
    $('gallery-form').addEventListener('submit', (e) => { e.preventDefault(); this.loadFromForm(); });
  }

  enter(params) {
    const n = params.get('n');
    if (n) $('gallery-n').value = n;
    if (!this.data || Number($('gallery-n').value) !== this.n) this.loadFromForm();
  }

  leave() {}

  urlState() { return { n: this.n || Number($('gallery-n').value) }; }

  async loadFromForm() {
    const n = readInt('gallery-n', ...this.range);
    if (n === null) return;
    if (this.abort) this.abort.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.n = n;
    this.onURL();
    const button = $('gallery-show');
    button.disabled = true;
    setStatus($('gallery-summary'), 'Loading…');
    $('gallery-classes').replaceChildren();
    try {
      this.data = await api.getJSON('/api/solutions', { n }, { signal: abort.signal });
    } catch (err) {
      if (abort.signal.aborted) return;
      this.data = null;
      setStatus($('gallery-summary'), err.message, 'error');
      this.showPage();
      return;
    } finally {
      if (this.abort === abort) button.disabled = false;
    }
    const d = this.data;
    this.page = 0;
    setStatus($('gallery-summary'), d.total === 0
      ? `The ${n}×${n} board has no solution.`
      : `${group(d.total)} solution${d.total === 1 ? '' : 's'} of the ${n}×${n} board in ${group(d.unique)} symmetry class${d.unique === 1 ? '' : 'es'}. The framed board of each class is its representative (the smallest of its orbit); under each other board, the symmetry that turns it into the representative. Click a board to see it large.`);
    this.showPage();
  }

  showPage() {
    const d = this.data;
    const box = $('gallery-classes');
    box.replaceChildren();
    const pages = d ? Math.ceil(d.classes.length / this.perPage) : 0;
    for (const id of ['gallery-pager-top', 'gallery-pager']) this.pager($(id), pages);
    if (!d) return;
    const first = this.page * this.perPage;
    d.classes.slice(first, first + this.perPage).forEach((cls, i) => {
      const div = document.createElement('div');
      div.className = 'class';
      const h = document.createElement('h3');
      h.textContent = `Class ${first + i + 1}: ${cls.orbit} board${cls.orbit === 1 ? '' : 's'}, representative ${cls.canonical.join(' ')}`;
      const orbit = document.createElement('div');
      orbit.className = 'orbit';
      cls.boards.forEach((q, j) => {
        const [name, words] = symmetryTo(q, cls.canonical);
        const fig = document.createElement('figure');
        fig.className = 'thumb-fig';
        const b = document.createElement('button');
        b.type = 'button';
        b.className = j === 0 ? 'thumb canonical' : 'thumb';
        b.setAttribute('aria-label', `solution ${q.join(' ')}: ${j === 0 ? 'the representative' : words + ' maps it to the representative'}`);
        const canvas = document.createElement('canvas');
        drawThumb(canvas, q);
        b.append(canvas);
        b.addEventListener('click', () => this.open(q, first + i + 1, j === 0 ? 'the class representative' : `${words} (${name}) maps it to the representative`));
        const cap = document.createElement('figcaption');
        cap.textContent = j === 0 ? 'representative' : name;
        cap.dataset.symmetry = name;
        fig.append(b, cap);
        orbit.append(fig);
      });
      div.append(h, orbit);
      box.append(div);
    });
  }

  pager(el, pages) {
    el.replaceChildren();
    if (pages <= 1) return;
    const button = (text, disabled, delta) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = text;
      b.disabled = disabled;
      b.addEventListener('click', () => { this.page += delta; this.showPage(); });
      return b;
    };
    const label = document.createElement('span');
    label.textContent = `Page ${this.page + 1} of ${pages}`;
    el.append(button('‹ Previous', this.page === 0, -1), label, button('Next ›', this.page >= pages - 1, 1));
  }

  // open shows one board large, drawn by the page's own board.
  open(queens, classNo, how) {
    $('gallery-dialog-title').textContent = `Class ${classNo}`;
    $('gallery-dialog-symmetry').textContent = `This board: ${how}.`;
    this.large.setSize(queens.length);
    this.large.draw({ square: (r, c) => (queens[r - 1] === c ? { classes: ['queen'], label: 'queen' } : { classes: [], label: 'empty' }) });
    $('gallery-dialog-list').textContent = queens.join(' ');
    $('gallery-dialog').showModal();
  }
}

// drawThumb draws a small board on a canvas: the squares and a dot per queen.
function drawThumb(canvas, queens) {
  const n = queens.length;
  const px = Math.max(4, Math.floor(96 / n));
  const scale = window.devicePixelRatio || 1;
  canvas.width = canvas.height = n * px * scale;
  const g = canvas.getContext('2d');
  g.scale(scale, scale);
  // The board's colours of the page's theme (style.css).
  const css = getComputedStyle(document.documentElement);
  const [light, dark, ink] = ['--light', '--dark', '--ink'].map((v) => css.getPropertyValue(v).trim());
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      g.fillStyle = (r + c) % 2 ? dark : light;
      g.fillRect(c * px, r * px, px, px);
    }
    g.fillStyle = ink;
    g.beginPath();
    g.arc((queens[r] - 0.5) * px, (r + 0.5) * px, px * 0.36, 0, 2 * Math.PI);
    g.fill();
  }
}
