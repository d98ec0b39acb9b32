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

// candidates is the number of boards a brute-force strategy tests, exactly.
export function candidates(algo, n) {
  const N = BigInt(n);
  let v = 1n;
  if (algo === 'brute-rows') return N ** N;
  if (algo === 'permutations') {
    for (let i = 2n; i <= N; i++) v *= i;
    return v;
  }
  for (let i = 0n; i < N; i++) v = v * (N * N - i) / (i + 1n); // C(n², n)
  return v;
}

const group = (v) => v.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');

// drawStructure fills box for strategy algo at event e (null: the empty
// board) on the n×n board; focus is a square [r, c] the user points at.
export function drawStructure(box, algo, e, n, focus) {
  const queens = e ? e.queens : new Array(n).fill(0);
  const views = {
    'backtrack-2d': gridView, 'backtrack-array': arrayView, 'backtrack-flags': flagsView,
    'backtrack-flags-iterative': flagsView, stack: stackView, bitmask: bitsView,
  };
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
    head.push(el('th', { scope: 'col', text: String(r) }));
    vals.push(el('td', { class: [now, by, queens[r - 1] ? 'one' : ''].join(' ').trim(), text: String(queens[r - 1]) }));
  }
  return [el('p', { class: 'caption', text: 'queens[row] = the column of the queen in that row, 0 for none' }),
    el('table', { class: 'bits', 'aria-label': 'the 1-D array queens' }, el('tbody', {}, el('tr', {}, ...head), el('tr', {}, ...vals)))];
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
  const row = (name, flags, len, title) => {
    const cells = [el('th', { scope: 'row', text: name, title })];
    for (let i = 1; i <= len; i++) {
      const cls = [flags[i] ? 'one' : '', pick[name] === i ? 'now' : ''].join(' ').trim();
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

function bitsView({ e, n, queens }) {
  // Masks as the recursion enters each row: bit c (shown as column c, on
  // the left for column 1) is set when the square is attacked.
  const depth = queens.findIndex((c) => !c);
  const rowsShown = Math.min(n, depth < 0 ? n : depth + 1);
  const bits = (set) => Array.from({ length: n }, (_, i) => (set.has(i + 1) ? '1' : '0')).join('');
  const trs = [el('tr', {}, ...['row', 'cols', 'ld ↘', 'rd ↙', 'free'].map((t) => el('th', { scope: 'col', text: t })))];
  for (let d = 1; d <= rowsShown; d++) {
    const cols = new Set();
    const ld = new Set();
    const rd = new Set();
    for (let i = 1; i < d; i++) {
      const q = queens[i - 1];
      cols.add(q);
      if (q + (d - i) <= n) ld.add(q + (d - i));
      if (q - (d - i) >= 1) rd.add(q - (d - i));
    }
    const free = new Set();
    for (let c = 1; c <= n; c++) if (!cols.has(c) && !ld.has(c) && !rd.has(c)) free.add(c);
    const now = e && e.kind !== 'solution' && e.row === d;
    trs.push(el('tr', { class: now ? 'now' : '' }, el('th', { scope: 'row', text: String(d) }),
      ...[cols, ld, rd, free].map((s) => el('td', { class: 'mask', text: bits(s) }))));
  }
  return [el('p', { class: 'caption', text: 'The masks as the recursion enters each row, column 1 (bit 0) on the left: ld moves one column right and rd one left per row down.' }),
    el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': 'The bit masks (scroll sideways)' }, el('table', { class: 'bits masks', 'aria-label': 'the bit masks row by row' }, el('tbody', {}, ...trs)))];
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
  return [el('p', { class: 'caption', text: `Candidate ${group(k)} of ${group(total)}; ${group(total - k)} remain.` }),
    el('p', { class: 'caption' }, e.squares ? 'Squares: ' : 'Columns, row by row: ', el('code', { text: list }))];
}
