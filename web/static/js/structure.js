// The strategy's own data, drawn beside the board for the step shown: what
// makes each strategy what it is. Each view is built from the event's board
// (the queens after the step), so any step can be shown without replaying.

const el = (tag, props = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  e.append(...kids);
  return e;
};

import { candidates } from './strategies.js';
import { group } from './text.js';

// drawStructure fills box for strategy algo at event e (null: the empty
// board) on the n×n board; focus is a square [r, c] the user points at.
export function drawStructure(box, algo, e, n, focus) {
  const queens = e ? e.queens : new Array(n).fill(0);
  const views = {
    'backtrack-2d': gridView, 'backtrack-array': arrayView, 'backtrack-flags': flagsView,
    'backtrack-flags-iterative': flagsView, stack: stackView, bitmask: bitsView,
  };
  if (e && e.kind === 'done') {
    box.replaceChildren(el('p', { class: 'caption', text: `The search is over: ${algo} has emptied its data and counted ${e.counters.solutions} solution${e.counters.solutions === 1 ? '' : 's'}.` }));
    return;
  }
  const view = e && e.candidate !== undefined ? candidateView : (views[algo] || stackView);
  box.replaceChildren(...view({ algo, e, n, queens, focus }));
}

// cur is the square the step is about: the try, the placement or the removal.
const cur = (e) => (e && e.kind !== 'solution' ? [e.row, e.col] : null);

function gridView({ e, n, queens }) {
  const at = cur(e);
  const rows = [];
  for (let r = 1; r <= n; r++) {
    const tds = [];
    for (let c = 1; c <= n; c++) {
      let cls = queens[r - 1] === c ? 'one' : '';
      if (at && at[0] === r && at[1] === c) cls += ' now';
      if (e && e.by && e.by.row === r && e.by.col === c) cls += ' by';
      tds.push(el('td', { class: cls.trim(), text: queens[r - 1] === c ? '1' : '0' }));
    }
    rows.push(el('tr', {}, el('th', { scope: 'row', text: String(r) }), ...tds));
  }
  return [el('p', { class: 'caption', text: 'grid[row][col]: 1 where a queen stands' }),
    el('table', { class: 'bits grid2d', 'aria-label': 'the 2-D array grid, row by row' }, el('tbody', {}, ...rows))];
}

function arrayView({ e, n, queens }) {
  const at = cur(e);
  const head = [el('th', { text: 'row' })];
  const vals = [el('th', { text: 'queens' })];
  for (let r = 1; r <= n; r++) {
    const now = at && at[0] === r ? 'now' : '';
    const by = e && e.by && e.by.row === r ? 'by' : '';
    const read = e && e.compared && e.compared.includes(r) ? 'read' : '';
    head.push(el('th', { scope: 'col', text: String(r) }));
    vals.push(el('td', { class: [now, by, read, queens[r - 1] ? 'one' : ''].join(' ').trim(), text: String(queens[r - 1]) }));
  }
  const k = e && e.compared ? e.compared.length : 0;
  return [el('p', { class: 'caption', text: `queens[row] = the column of the queen in that row, 0 for none. This try compared ${k} element${k === 1 ? '' : 's'} (underlined).` }),
    el('table', { class: 'bits array', 'aria-label': 'the 1-D array queens' }, el('tbody', {}, el('tr', {}, ...head), el('tr', {}, ...vals)))];
}

function flagsView({ e, n, queens, focus }) {
  const cols = new Array(n + 1).fill(false);
  const diag = new Array(2 * n).fill(false);
  const anti = new Array(2 * n).fill(false);
  queens.forEach((c, i) => {
    if (!c) return;
    const r = i + 1;
    cols[c] = true;
    diag[r - c + n] = true;
    anti[r + c - 1] = true;
  });
  const at = focus || cur(e);
  const pick = at ? { cols: at[1], diag: at[0] - at[1] + n, anti: at[0] + at[1] - 1 } : {};
  const read = new Set(!focus && e && e.flags ? e.flags.map((f) => `${f.array}[${f.index}]`) : []);
  const row = (name, flags, len, title) => {
    const cells = [el('th', { scope: 'row', text: name, title })];
    for (let i = 1; i <= len; i++) {
      const cls = [flags[i] ? 'one' : '', pick[name] === i ? 'now' : '', read.has(`${name}[${i}]`) ? 'read' : ''].join(' ').trim();
      cells.push(el('td', { class: cls, title: `${name}[${i}]`, text: flags[i] ? '1' : '0' }));
    }
    return el('tr', {}, ...cells);
  };
  const where = at
    ? `Row ${at[0]}, column ${at[1]} → cols[${pick.cols}], diag[${pick.diag}], anti[${pick.anti}]${focus ? ' (the square you point at)' : ''}.`
    : 'Hover or focus a square to see its three flags.';
  return [el('p', { class: 'caption', text: 'A flag per column, per ↘ diagonal (row − column + n) and per ↙ diagonal (row + column − 1); 1 = taken.' }),
    el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': 'The flag arrays (scroll sideways)' }, el('table', { class: 'bits flags', 'aria-label': 'the flag arrays' }, el('tbody', {},
      row('cols', cols, n, 'columns'), row('diag', diag, 2 * n - 1, '↘ diagonals'), row('anti', anti, 2 * n - 1, '↙ diagonals')))),
    el('p', { class: 'caption', text: where })];
}

function bitsView({ e, n }) {
  // The words of every call on the stack as they are at this step, from the
  // trace itself: the current call's from the step, each caller's from its
  // own last step. Column 1 (bit 0) is on the left.
  const frames = (e && e.frames) || [];
  const trs = [el('tr', {}, ...['call', 'cols', 'ld ↘', 'rd ↙', 'free left'].map((t) => el('th', { scope: 'col', text: t })))];
  frames.forEach((m, i) => {
    const now = i === frames.length - 1;
    trs.push(el('tr', { class: now ? 'now' : '' }, el('th', { scope: 'row', text: `row ${i + 1}${now ? ' ←' : ''}` }),
      ...[['cols', m.cols], ['ld ↘', m.ld], ['rd ↙', m.rd], ['free left', m.free]].map(([name, bits]) => el('td', { class: 'mask', 'data-label': name, text: bits }))));
  });
  const caption = frames.length
    ? `The calls on the stack, the current one marked ←: their masks now, column 1 (bit 0) on the left. ${n} bits a word.`
    : 'No call yet: solve(1, 0, 0, 0) starts with every mask 0.';
  return [el('p', { class: 'caption', text: caption }),
    el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': 'The bit masks (scroll sideways)' }, el('table', { class: 'bits masks', 'aria-label': 'the bit masks of each call' }, el('tbody', {}, ...trs)))];
}

function stackView({ e, n, queens }) {
  const frames = [];
  queens.forEach((c, i) => { if (c) frames.push([i + 1, c]); });
  const items = frames.reverse().map(([r, c], i) => el('li', { class: i === 0 ? 'top' : '', text: `(${r}, ${c})${i === 0 ? ' ← top' : ''}` }));
  let next = '';
  if (e && (e.kind === 'reject' || e.kind === 'remove')) {
    next = e.col < n ? `next try: (${e.row}, ${e.col + 1})` : `row ${e.row} has no column left: pop next`;
  } else if (frames.length < n) next = `next try: (${frames.length + 1}, 1)`;
  return [el('p', { class: 'caption', text: `The stack of (row, column) frames, ${frames.length} high; ${next || 'full: a solution'}.` }),
    el('ol', { class: 'frames', reversed: '', 'aria-label': 'the stack, top first' }, ...items)];
}

function candidateView({ algo, e, n }) {
  const total = candidates(algo, n);
  const k = BigInt(e.candidate);
  const list = e.squares ? e.squares.map((q) => `(${q.row}, ${q.col})`).join(' ') : e.queens.join(' ');
  const of = total === null || total === undefined ? `Candidate ${group(k)}.` : `Candidate ${group(k)} of ${group(total)}; ${group(total - k)} remain.`;
  return [el('p', { class: 'caption', text: of }),
    el('p', { class: 'caption' }, e.squares ? 'Squares: ' : 'Columns, row by row: ', el('code', { text: list }))];
}
