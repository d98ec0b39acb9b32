// Try it yourself: the learner places queens (and blocks squares) by click or
// keyboard; conflicts show at once as lines; a hint names the next safe
// square the chosen strategy would try; the server completes the board from
// here, or counts the ways to.

import * as api from './api.js';
import { Board, attackers } from './board.js';
import { readInt, setRange } from './field.js';
import { $, group, plural, setStatus } from './text.js';

// The largest board the panel draws: past it squares would be too small to
// click, and the page must never build a huge grid.
const DRAW_MAX = 32;

const hintWhy = {
  stack: 'no queen on the stack attacks it',
  bitmask: 'it is the lowest bit of free = all & ~(cols | ld | rd)',
  'backtrack-2d': 'the scans of its column and diagonals find no 1',
  'backtrack-array': 'no earlier queens[r] shares its column or a diagonal',
  'backtrack-flags': 'its three flags are all false',
  'backtrack-flags-iterative': 'its three flags are all false',
};

export class CompletePanel {
  constructor(limits, onURL) {
    this.onURL = onURL;
    this.range = setRange('complete-n', 1, Math.min(limits.max_complete_n, DRAW_MAX));
    this.n = 0;
    this.queens = [];
    this.blocked = new Set();
    this.added = new Set();
    this.hint = null;
    this.busy = false;
    this.abort = null;
    this.board = new Board($('complete-board'), { label: 'Your board', onActivate: (r, c) => this.activate(r, c) });
    $('complete-form').addEventListener('submit', (e) => { e.preventDefault(); this.complete(false); });
    $('complete-count').addEventListener('click', () => this.complete(true));
    $('complete-hint').addEventListener('click', () => this.showHint());
    $('complete-clear').addEventListener('click', () => this.reset());
    $('complete-cancel').addEventListener('click', () => { if (this.abort) this.abort.abort(); });
    $('complete-n').addEventListener('change', () => this.reset());
  }

  enter(params) {
    if (params.get('n')) $('complete-n').value = params.get('n');
    if (params.get('algo')) $('complete-algo').value = params.get('algo');
    if (!this.n || params.get('n')) this.reset(params);
  }

  leave() {}

  urlState() {
    const q = { n: this.n, algo: $('complete-algo').value };
    if (this.queens.some((c) => c)) q.queens = this.own().join(',');
    if (this.blocked.size) q.blocked = [...this.blocked].map((k) => k.replace(',', '-')).join(',');
    return q;
  }

  // reset starts an empty board of the size in the N field, or the board of
  // params (queens=2,0,4 and blocked=1-2,3-3) when given.
  reset(params) {
    const n = readInt('complete-n', ...this.range);
    if (n === null) return;
    Object.assign(this, { n, queens: new Array(n).fill(0), blocked: new Set(), added: new Set(), hint: null });
    if (params && params.get('queens')) {
      params.get('queens').split(',').slice(0, n).forEach((v, i) => {
        const c = Number(v);
        if (Number.isInteger(c) && c >= 1 && c <= n) this.queens[i] = c;
      });
    }
    if (params && params.get('blocked')) {
      for (const pair of params.get('blocked').split(',')) {
        const [r, c] = pair.split('-').map(Number);
        if (r >= 1 && r <= n && c >= 1 && c <= n && this.queens[r - 1] !== c) this.blocked.add(`${r},${c}`);
      }
    }
    this.board.setSize(n);
    this.setState('editing', 'Click squares (or move with the arrow keys and press Enter) to place queens or blocks.');
  }

  // own is the board without the solver's queens.
  own() {
    return this.queens.map((c, i) => (this.added.has(`${i + 1},${c}`) ? 0 : c));
  }

  setState(state, text, kind = '') {
    $('complete').dataset.state = state;
    setStatus($('complete-status'), text, kind);
    this.draw();
    this.onURL();
  }

  activate(r, c) {
    if (this.busy) return;
    this.queens = this.own();
    this.added.clear();
    this.hint = null;
    const key = `${r},${c}`;
    if (document.querySelector('input[name="complete-mode"]:checked').value === 'block') {
      if (this.blocked.has(key)) this.blocked.delete(key);
      else {
        this.blocked.add(key);
        if (this.queens[r - 1] === c) this.queens[r - 1] = 0;
      }
    } else {
      this.queens[r - 1] = this.queens[r - 1] === c ? 0 : c;
      this.blocked.delete(key);
    }
    const conflicts = this.conflicts().length;
    this.setState('editing', conflicts
      ? `${plural(conflicts, 'pair')} of queens attack each other (red lines).`
      : `${plural(this.queens.filter((x) => x).length, 'queen')} placed, none attacked.`, conflicts ? 'error' : '');
  }

  // conflicts lists the pairs of queens that attack each other, the upper
  // queen first.
  conflicts() {
    const out = [];
    this.queens.forEach((c, i) => {
      if (!c) return;
      for (const a of attackers(this.queens, i + 1, c)) if (a.row < i + 1) out.push([[a.row, a.col], [i + 1, c], a.line]);
    });
    return out;
  }

  draw() {
    const conflicts = this.conflicts();
    const hurt = new Map();
    for (const [a, b] of conflicts) {
      if (!hurt.has(b.join())) hurt.set(b.join(), a[0]);
      if (!hurt.has(a.join())) hurt.set(a.join(), b[0]);
    }
    this.board.draw({
      square: (r, c) => {
        const key = `${r},${c}`;
        if (this.queens[r - 1] === c) {
          const classes = ['queen'];
          let label = this.added.has(key) ? 'queen added by the solver' : 'your queen';
          if (this.added.has(key)) classes.push('added');
          if (hurt.has(key)) { classes.push('attacker'); label += `, attacked by the queen in row ${hurt.get(key)}`; }
          return { classes, label };
        }
        if (this.blocked.has(key)) return { classes: ['blocked'], label: 'blocked' };
        if (this.hint && this.hint[0] === r && this.hint[1] === c) return { classes: ['hint'], label: 'hint: the next square the strategy would try' };
        const by = attackers(this.queens, r, c);
        return by.length ? { classes: ['attacked'], label: `attacked by the queen in row ${by[0].row}` } : { classes: [], label: 'empty' };
      },
      lines: conflicts.map(([a, b]) => ({ from: a, to: b, kind: 'conflict' })),
    });
    const st = $('complete').dataset.state;
    this.board.el.classList.toggle('solved', st === 'solved');
    this.board.el.classList.toggle('stuck', st === 'none');
    $('complete-list').textContent = this.queens.join(' ');
  }

  // showHint finds the square a backtracking strategy tries next from this
  // board: the first empty row from the top, its leftmost column that no
  // queen attacks and that is not blocked.
  showHint() {
    this.queens = this.own();
    this.added.clear();
    const algo = $('complete-algo').value;
    if (this.conflicts().length) {
      this.hint = null;
      this.setState('editing', 'Two of your queens attack each other: the strategy never places a queen on an attacked square. Take one away first.', 'error');
      return;
    }
    const row = this.queens.findIndex((c) => !c) + 1;
    if (row === 0) {
      this.hint = null;
      this.setState('editing', 'Every row holds a queen and none attacks another: a solution!', 'good');
      return;
    }
    for (let c = 1; c <= this.n; c++) {
      if (this.blocked.has(`${row},${c}`) || attackers(this.queens, row, c).length) continue;
      this.hint = [row, c];
      this.setState('editing', `Hint: ${algo} would try row ${row}, column ${c} next, because ${hintWhy[algo]}.`);
      this.board.focusSquare(row, c);
      return;
    }
    this.hint = null;
    this.setState('editing', `Row ${row} has no safe square: ${algo} would backtrack here and move the queen of an earlier row.`, 'error');
  }

  async complete(count) {
    if (this.busy) return;
    this.queens = this.own();
    this.added.clear();
    this.hint = null;
    const blocked = [...this.blocked].map((k) => k.split(',').map(Number));
    const abort = new AbortController();
    this.busy = true;
    this.abort = abort;
    for (const id of ['complete-go', 'complete-count', 'complete-hint', 'complete-clear']) $(id).disabled = true;
    $('complete-cancel').disabled = false;
    this.setState('searching', count ? 'Counting the completions…' : 'Searching…');
    try {
      const res = await api.postJSON('/api/complete', { queens: this.queens, blocked, count }, { signal: abort.signal });
      if (count) {
        this.setState('counted', res.exists
          ? `${group(res.completions)} way${res.completions === '1' ? '' : 's'} to complete this board.`
          : 'No completion exists: these queens and blocks leave no way to fill every row.', res.exists ? 'good' : 'error');
      } else if (res.exists) {
        res.queens.forEach((c, i) => { if (this.queens[i] === 0) this.added.add(`${i + 1},${c}`); });
        this.queens = res.queens;
        this.setState('solved', `Completed: the solver added ${plural(this.added.size, 'queen')} (green).`, 'good');
      } else {
        this.setState('none', 'No completion exists: these queens and blocks leave no way to fill every row.', 'error');
      }
    } catch (err) {
      this.setState(abort.signal.aborted ? 'editing' : 'error', abort.signal.aborted ? 'Cancelled.' : err.message, abort.signal.aborted ? '' : 'error');
    } finally {
      this.busy = false;
      this.abort = null;
      for (const id of ['complete-go', 'complete-count', 'complete-hint', 'complete-clear']) $(id).disabled = false;
      $('complete-cancel').disabled = true;
    }
  }
}
