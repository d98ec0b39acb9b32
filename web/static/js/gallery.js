// Gallery: every solution of the N×N board, grouped by symmetry class, each
// board labelled with the symmetry of the square that maps it onto its class
// representative (the canonical board, the smallest of its orbit).

import * as api from './api.js';
import { Board } from './board.js';
import { readInt, setRange } from './field.js';
import { t, tn } from './i18n.js';
import { fill } from './lang.js';
import { symmetryTo } from './symmetry.js';
import { $, setStatus, status } from './text.js';

// The 8 symmetries (symmetry.js) with what each does in words and its short
// name under a board.
const described = (name) => [name, () => t(`page.sym.${name}`), () => t(`page.sym.short.${name}`)];

// symmetryOf names the symmetry that maps queens onto target: [name,
// words(), short()].
function symmetryOf(queens, target) {
  return described(symmetryTo(queens, target));
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
    this.large = new Board($('gallery-board'), { labelKey: 'page.gallery.large' });
    $('gallery-form').addEventListener('submit', (e) => { e.preventDefault(); this.loadFromForm(); });
  }

  enter(params) {
    const n = params.get('n');
    if (n) $('gallery-n').value = n;
    if (!this.data || Number($('gallery-n').value) !== this.n) this.loadFromForm();
  }

  leave() {}

  // relang writes what the panel shows in the language just chosen.
  relang() {
    if (!this.data) return;
    this.summarize();
    this.showPage();
  }

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
    status($('gallery-summary'), 'page.gallery.loading');
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
    this.page = 0;
    this.summarize();
    this.showPage();
  }

  // summarize says how many solutions and classes the board has, and how
  // the classes are drawn.
  summarize() {
    const d = this.data;
    const n = this.n;
    let text = t('page.gallery.none', { N: n });
    if (d.total === 1) text = t('page.gallery.one', { N: n });
    else if (d.total > 1) text = tn('page.gallery.summary', d.unique, { Total: d.total, N: n });
    if (d.total > 0) text = t('page.sentences', { A: text, B: t('page.gallery.how') });
    setStatus($('gallery-summary'), text);
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
      h.textContent = tn('page.gallery.class', cls.orbit, { K: first + i + 1, List: cls.canonical.join(' ') });
      const orbit = document.createElement('div');
      orbit.className = 'orbit';
      cls.boards.forEach((q, j) => {
        const [name, words, short] = symmetryOf(q, cls.canonical);
        const fig = document.createElement('figure');
        fig.className = 'thumb-fig';
        const b = document.createElement('button');
        b.type = 'button';
        b.className = j === 0 ? 'thumb canonical' : 'thumb';
        b.setAttribute('aria-label', j === 0 ? t('page.gallery.thumb.rep', { List: q.join(' ') }) : t('page.gallery.thumb', { List: q.join(' '), How: words() }));
        const canvas = document.createElement('canvas');
        drawThumb(canvas, q);
        b.append(canvas);
        b.addEventListener('click', () => this.open(q, first + i + 1, j === 0 ? null : [name, words()]));
        const cap = document.createElement('figcaption');
        cap.textContent = j === 0 ? t('page.gallery.rep') : short();
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
    label.textContent = t('page.gallery.page', { Page: this.page + 1, Pages: pages });
    el.append(button(t('page.gallery.prev'), this.page === 0, -1), label, button(t('page.gallery.next'), this.page >= pages - 1, 1));
  }

  // open shows one board large, drawn by the page's own board; how is the
  // symmetry that maps it onto its class's representative, [name, words],
  // or null for the representative. (The dialog is modal: the language
  // cannot change while it is open.)
  open(queens, classNo, how) {
    $('gallery-dialog-title').textContent = t('page.gallery.dialog', { K: classNo });
    if (how) fill($('gallery-dialog-symmetry'), 'page.gallery.dialog.how', { How: how[1], Name: Object.assign(document.createElement('code'), { textContent: how[0] }) });
    else fill($('gallery-dialog-symmetry'), 'page.gallery.dialog.rep');
    this.large.setSize(queens.length);
    this.large.draw({ square: (r, c) => (queens[r - 1] === c ? { classes: ['queen'], label: t('page.sq.queen') } : { classes: [], label: t('page.sq.empty') }) });
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
