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

import { t } from './i18n.js';
import { fill } from './lang.js';
import { candidates } from './strategies.js';

// code is an identifier of the strategy's code, written as code.
const code = (text) => el('code', { text });

// caption is a caption of the message key, whose args may be elements.
const caption = (key, args = {}) => {
  const p = el('p', { class: 'caption' });
  fill(p, key, args);
  return p;
};

// drawStructure fills box for strategy algo at event e (null: the empty
// board) on the n×n board; focus is a square [r, c] the user points at.
export function drawStructure(box, algo, e, n, focus) {
  const queens = e ? e.queens : new Array(n).fill(0);
  const views = {
    'backtrack-2d': gridView, 'backtrack-array': arrayView, 'backtrack-flags': flagsView,
    'backtrack-flags-iterative': flagsView, stack: stackView, bitmask: bitsView,
  };
  if (e && e.kind === 'done') {
    box.replaceChildren(caption('page.data.done', { Algo: code(algo), Count: e.counters.solutions }));
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
  return [caption('page.data.grid', { Grid: code('grid[row][col]') }),
    el('table', { class: 'bits grid2d', 'aria-label': t('page.data.grid.label') }, el('tbody', {}, ...rows))];
}

function arrayView({ e, n, queens }) {
  const at = cur(e);
  const head = [el('th', { text: t('page.data.row') })];
  const vals = [el('th', {}, code('queens'))];
  for (let r = 1; r <= n; r++) {
    const now = at && at[0] === r ? 'now' : '';
    const by = e && e.by && e.by.row === r ? 'by' : '';
    const read = e && e.compared && e.compared.includes(r) ? 'read' : '';
    head.push(el('th', { scope: 'col', text: String(r) }));
    vals.push(el('td', { class: [now, by, read, queens[r - 1] ? 'one' : ''].join(' ').trim(), text: String(queens[r - 1]) }));
  }
  const k = e && e.compared ? e.compared.length : 0;
  return [caption('page.data.array', { Queens: code('queens[row]'), Count: k }),
    el('table', { class: 'bits array', 'aria-label': t('page.data.array.label') }, el('tbody', {}, el('tr', {}, ...head), el('tr', {}, ...vals)))];
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
    const cells = [el('th', { scope: 'row', title }, code(name))];
    for (let i = 1; i <= len; i++) {
      const cls = [flags[i] ? 'one' : '', pick[name] === i ? 'now' : '', read.has(`${name}[${i}]`) ? 'read' : ''].join(' ').trim();
      cells.push(el('td', { class: cls, title: `${name}[${i}]`, text: flags[i] ? '1' : '0' }));
    }
    return el('tr', {}, ...cells);
  };
  const where = at
    ? caption(focus ? 'page.data.flags.pointed' : 'page.data.flags.where',
      { Row: at[0], Col: at[1], Cols: code(`cols[${pick.cols}]`), Diag: code(`diag[${pick.diag}]`), Anti: code(`anti[${pick.anti}]`) })
    : caption('page.data.flags.hover');
  return [caption('page.data.flags'),
    el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': t('page.data.flags.region') }, el('table', { class: 'bits flags', 'aria-label': t('page.data.flags.label') }, el('tbody', {},
      row('cols', cols, n, t('page.data.flags.cols')), row('diag', diag, 2 * n - 1, t('page.data.flags.diag')), row('anti', anti, 2 * n - 1, t('page.data.flags.anti'))))),
    where];
}

function bitsView({ e, n }) {
  // The words of every call on the stack as they are at this step, from the
  // trace itself: the current call's from the step, each caller's from its
  // own last step. Column 1 (bit 0) is on the left.
  const frames = (e && e.frames) || [];
  const names = [['cols', 'cols'], ['ld ↘', 'ld ↘'], ['rd ↙', 'rd ↙'], ['free', t('page.data.bits.free')]];
  const trs = [el('tr', {}, el('th', { scope: 'col', text: t('page.data.bits.call') }), ...names.map(([id, label]) => el('th', { scope: 'col' }, id === 'free' ? label : code(label))))];
  frames.forEach((m, i) => {
    const now = i === frames.length - 1;
    const call = t('page.data.bits.row', { Row: i + 1 });
    trs.push(el('tr', { class: now ? 'now' : '' }, el('th', { scope: 'row', text: now ? `${call} ←` : call }),
      ...[m.cols, m.ld, m.rd, m.free].map((bits, k) => el('td', { class: 'mask', 'data-label': names[k][1], text: bits }))));
  });
  const head = frames.length ? caption('page.data.bits', { N: n }) : caption('page.data.bits.none', { Call: code('solve(1, 0, 0, 0)') });
  return [head,
    el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': t('page.data.bits.region') }, el('table', { class: 'bits masks', 'aria-label': t('page.data.bits.label') }, el('tbody', {}, ...trs)))];
}

function stackView({ e, n, queens }) {
  const frames = [];
  queens.forEach((c, i) => { if (c) frames.push([i + 1, c]); });
  const items = frames.reverse().map(([r, c], i) => el('li', { class: i === 0 ? 'top' : '', text: i === 0 ? t('page.data.stack.top', { Row: r, Col: c }) : `(${r}, ${c})` }));
  const h = frames.length;
  let head;
  if (e && (e.kind === 'reject' || e.kind === 'remove')) {
    head = e.col < n ? caption('page.data.stack.next', { Height: h, Row: e.row, Col: e.col + 1 }) : caption('page.data.stack.pop', { Height: h, Row: e.row });
  } else if (h < n) {
    head = caption('page.data.stack.next', { Height: h, Row: h + 1, Col: 1 });
  } else {
    head = caption('page.data.stack.full', { Height: h });
  }
  return [head, el('ol', { class: 'frames', reversed: '', 'aria-label': t('page.data.stack.label') }, ...items)];
}

function candidateView({ algo, e, n }) {
  const total = candidates(algo, n);
  const k = BigInt(e.candidate);
  const list = e.squares ? e.squares.map((q) => `(${q.row}, ${q.col})`).join(' ') : e.queens.join(' ');
  const of = total === null || total === undefined ? caption('page.data.candidate', { Candidate: k })
    : caption('page.data.candidate.of', { Candidate: k, Total: total, Remain: total - k });
  return [of, caption(e.squares ? 'page.data.squares' : 'page.columns', { List: code(list) })];
}
