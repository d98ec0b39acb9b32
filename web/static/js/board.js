// Board draws an n×n chessboard as an ARIA grid: role="grid", one role="row"
// per row, one role="gridcell" per square, each labelled with what stands
// there. Cells are square at every size (the board's rows and columns are
// equal fractions of a square box, and the marks are sized from the box, so
// content never stretches a row). Lines (a rejected try and its attacker,
// two queens in conflict) are drawn on an SVG layer above the squares.
//
// One tab stop: arrow keys move the focus between squares, Home and End go
// to the ends of a row; Enter or Space activates the square when the board
// takes clicks. Rows and columns are 1-based.

import { t } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';

export class Board {
  // options: labelKey (the message of the grid's accessible name, with
  // labelArgs; or label, its text), onActivate(r, c) for a board that takes
  // clicks, onFocus(r, c) when a square is hovered or focused (null when the
  // pointer leaves).
  constructor(el, { label = '', labelKey = 'page.board', labelArgs = {}, onActivate = null, onFocus = null } = {}) {
    this.el = el;
    this.onActivate = onActivate;
    this.onFocus = onFocus;
    this.n = 0;
    this.cells = [];
    this.focus = [1, 1];
    el.classList.add('board');
    el.setAttribute('role', 'grid');
    if (label) {
      el.setAttribute('aria-label', label);
    } else {
      // A language switch names it again (lang.js translate).
      el.dataset.i18nAriaLabel = labelKey;
      el.dataset.i18nArgs = JSON.stringify(labelArgs);
      el.setAttribute('aria-label', t(labelKey, labelArgs));
    }
    if (onActivate) el.classList.add('clickable');
    this.svg = document.createElementNS(SVG, 'svg');
    this.svg.setAttribute('class', 'lines');
    this.svg.setAttribute('aria-hidden', 'true');
    this.svg.setAttribute('preserveAspectRatio', 'none');
    el.replaceChildren(this.svg);
    el.addEventListener('keydown', (e) => this.keydown(e));
    el.addEventListener('click', (e) => {
      const cell = e.target.closest('[role=gridcell]');
      if (cell && this.onActivate) this.onActivate(Number(cell.dataset.row), Number(cell.dataset.col));
    });
    if (onFocus) {
      const at = (e) => {
        const cell = e.target.closest && e.target.closest('[role=gridcell]');
        onFocus(cell ? Number(cell.dataset.row) : null, cell ? Number(cell.dataset.col) : null);
      };
      el.addEventListener('pointerover', at);
      el.addEventListener('focusin', at);
      el.addEventListener('pointerleave', () => onFocus(null, null));
    }
  }

  setSize(n) {
    if (n === this.n) return;
    this.n = n;
    this.el.style.setProperty('--n', n);
    this.svg.setAttribute('viewBox', `0 0 ${n} ${n}`);
    const rows = [];
    this.cells = [];
    for (let r = 1; r <= n; r++) {
      const row = document.createElement('div');
      row.setAttribute('role', 'row');
      row.className = 'brow';
      for (let c = 1; c <= n; c++) {
        const cell = document.createElement('div');
        cell.setAttribute('role', 'gridcell');
        cell.dataset.row = r;
        cell.dataset.col = c;
        cell.tabIndex = r === 1 && c === 1 ? 0 : -1;
        cell.className = (r + c) % 2 ? 'cell dark' : 'cell';
        this.cells.push(cell);
        row.append(cell);
      }
      rows.push(row);
    }
    this.focus = [1, 1];
    this.svg.replaceChildren();
    this.el.replaceChildren(...rows, this.svg);
  }

  cell(r, c) { return this.cells[(r - 1) * this.n + (c - 1)]; }

  // draw shows one state. view.squares(r, c) returns {classes: [...],
  // label: 'what is there'} for each square; view.lines is a list of
  // {from: [r, c], to: [r, c], kind} drawn from square centre to centre.
  draw(view) {
    const n = this.n;
    for (let r = 1; r <= n; r++) {
      for (let c = 1; c <= n; c++) {
        const cell = this.cell(r, c);
        const sq = view.square(r, c);
        const name = ((r + c) % 2 ? 'cell dark' : 'cell') + (sq.classes.length ? ' ' + sq.classes.join(' ') : '');
        if (cell.className !== name) cell.className = name;
        const label = t('page.board.square', { Row: r, Col: c, What: sq.label });
        if (cell.getAttribute('aria-label') !== label) cell.setAttribute('aria-label', label);
      }
    }
    const lines = (view.lines || []).map((l) => {
      const line = document.createElementNS(SVG, 'line');
      line.setAttribute('x1', l.from[1] - 0.5);
      line.setAttribute('y1', l.from[0] - 0.5);
      line.setAttribute('x2', l.to[1] - 0.5);
      line.setAttribute('y2', l.to[0] - 0.5);
      line.setAttribute('class', l.kind);
      line.setAttribute('vector-effect', 'non-scaling-stroke');
      return line;
    });
    this.svg.replaceChildren(...lines);
  }

  keydown(e) {
    const cell = e.target.closest('[role=gridcell]');
    if (!cell) return;
    let r = Number(cell.dataset.row);
    let c = Number(cell.dataset.col);
    const n = this.n;
    const moves = {
      ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1],
      Home: [r, 1], End: [r, n], PageUp: [1, c], PageDown: [n, c],
    };
    if (moves[e.key]) {
      e.preventDefault();
      e.stopPropagation();
      [r, c] = moves[e.key].map((v) => Math.min(n, Math.max(1, v)));
      this.focusSquare(r, c);
    } else if ((e.key === 'Enter' || e.key === ' ') && this.onActivate) {
      e.preventDefault();
      e.stopPropagation();
      this.onActivate(r, c);
    }
  }

  focusSquare(r, c) {
    const old = this.cell(...this.focus);
    if (old) old.tabIndex = -1;
    this.focus = [r, c];
    const next = this.cell(r, c);
    next.tabIndex = 0;
    next.focus();
  }
}

// The knight's moves, (rows, columns).
const knight = [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]];

// attack says how a queen at (r1, c1) attacks the square (r2, c2) of
// another row on the n×n board of rule ({torus, super}: diagonals and
// knight's moves wrap round the edges; superqueens also move as a knight):
// {line, dr, dc}, line 'column', 'diagonal' (↘), 'anti-diagonal' (↙) or
// 'knight', and (dr, dc) the move from the queen to the square, which on a
// torus may leave the board at one edge and come back at the other; null
// for none. (The server checks boards by the same rule: variant.Verify.)
export function attack(n, rule, r1, c1, r2, c2) {
  const mod = (x) => (rule.torus ? ((x % n) + n) % n : x);
  const dr = r2 - r1;
  const dc = c2 - c1;
  if (dc === 0) return { line: 'column', dr, dc };
  if (mod(dr - dc) === 0) return { line: 'diagonal', dr, dc: dr };
  if (mod(dr + dc) === 0) return { line: 'anti-diagonal', dr, dc: -dr };
  if (rule.super) {
    const k = knight.find(([vr, vc]) => mod(dr - vr) === 0 && mod(dc - vc) === 0);
    if (k) return { line: 'knight', dr: k[0], dc: k[1] };
  }
  return null;
}

// attackers lists the queens of another row that attack square (r, c):
// [{row, col, line, dr, dc}] as attack gives them (rule as there; the plain
// board by default).
export function attackers(queens, r, c, rule = {}) {
  const out = [];
  for (let qr = 1; qr <= queens.length; qr++) {
    const qc = queens[qr - 1];
    if (!qc || qr === r) continue;
    const a = attack(queens.length, rule, qr, qc, r, c);
    if (a) out.push({ row: qr, col: qc, ...a });
  }
  return out;
}

// segments cuts the straight move (dr, dc) from square (r, c) of the n×n
// board into the pieces that lie on the board: one on a plain board; on a
// torus, where the move leaves one edge and comes back at the other, one
// piece on each side of each crossing. Each is {from: [r, c], to: [r, c]}
// in square units (edges at 0.5 and n + 0.5), as Board.draw takes lines.
export function segments(n, r, c, dr, dc) {
  const cuts = [0, 1];
  for (const [p, d] of [[r, dr], [c, dc]]) {
    for (let k = -2; d && k <= 3; k++) {
      const t = (k * n + 0.5 - p) / d;
      if (t > 0 && t < 1) cuts.push(t);
    }
  }
  cuts.sort((a, b) => a - b);
  const home = (p) => Math.floor((p - 0.5) / n) * n; // the shift that brings p onto the board
  const out = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [t0, t1] = [cuts[i], cuts[i + 1]];
    if (t1 - t0 < 1e-9) continue;
    const sr = home(r + (t0 + t1) / 2 * dr);
    const sc = home(c + (t0 + t1) / 2 * dc);
    out.push({ from: [r + t0 * dr - sr, c + t0 * dc - sc], to: [r + t1 * dr - sr, c + t1 * dc - sc] });
  }
  return out;
}

// boardFromParams reads a partial board of n rows from an address's params
// (queens=2,0,4: 1-based columns, 0 for an empty row; blocked=1-2,3-3: row-
// column pairs), skipping what is off the board: {queens, blocked: [[r, c]]}.
export function boardFromParams(params, n) {
  const queens = new Array(n).fill(0);
  (params.get('queens') || '').split(',').slice(0, n).forEach((v, i) => {
    const c = Number(v);
    if (Number.isInteger(c) && c >= 1 && c <= n) queens[i] = c;
  });
  const blocked = [];
  for (const pair of (params.get('blocked') || '').split(',').filter(Boolean)) {
    const [r, c] = pair.split('-').map(Number);
    if (Number.isInteger(r) && Number.isInteger(c) && r >= 1 && r <= n && c >= 1 && c <= n && queens[r - 1] !== c) blocked.push([r, c]);
  }
  return { queens, blocked };
}

// boardParams writes a partial board as boardFromParams reads it.
export function boardParams({ queens, blocked }) {
  const q = {};
  if (queens.some((c) => c)) q.queens = queens.join(',');
  if (blocked.length) q.blocked = blocked.map((b) => b.join('-')).join(',');
  return q;
}
