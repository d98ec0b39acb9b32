// Try it yourself, the strategies' playground: the learner places queens
// (and blocks squares) by click or keyboard; conflicts show at once as
// lines. The chosen strategy's own search, started from this board (GET
// /api/trace with the board), gives the hint, its next try from here in its
// own words, and "Complete from here" plays that search in the watch
// panel's player up to its first solution, which comes back here. The
// counting engine counts the ways to complete the board.
//
// On a torus (diagonals wrap round the edges) or with superqueens (which
// also move as a knight) the learner places the queens alone: the attack
// lines go off one edge and come back at the other, knight's moves are
// dashed, and a full board is checked by the server (POST /api/verify with
// the variant). The classic strategies and the completion solver search
// the plain board only, so Hint, Complete and Count wait for it.

import * as api from './api.js';
import { Board, attackers, boardFromParams, boardParams, segments } from './board.js';
import { readInt, setRange } from './field.js';
import * as strategies from './strategies.js';
import { $, group, plural, setStatus } from './text.js';

// The largest board the panel draws: past it squares would be too small to
// click, and the page must never build a huge grid.
const DRAW_MAX = 32;

// A try of the search, or a row it finds without a free square.
const tries = new Set(['place', 'reject', 'dead-end']);

export class CompletePanel {
  // open(query) shows the panel the query names, and returns it.
  constructor(limits, onURL, open) {
    this.onURL = onURL;
    this.open = open;
    this.range = setRange('complete-n', 1, Math.min(limits.max_complete_n, DRAW_MAX));
    this.n = 0;
    this.queens = [];
    this.blocked = new Set();
    this.added = new Set();
    this.hint = null;
    this.busy = false;
    this.abort = null;
    this.board = new Board($('complete-board'), { label: 'Your board', onActivate: (r, c) => this.activate(r, c) });
    $('complete-form').addEventListener('submit', (e) => { e.preventDefault(); this.play(); });
    $('complete-count').addEventListener('click', () => this.count());
    $('complete-hint').addEventListener('click', () => this.showHint());
    $('complete-clear').addEventListener('click', () => this.reset());
    $('complete-cancel').addEventListener('click', () => { if (this.abort) this.abort.abort(); });
    $('complete-n').addEventListener('change', () => this.reset());
    for (const id of ['complete-torus', 'complete-super']) $(id).addEventListener('change', () => this.variantChanged());
  }

  enter(params) {
    const select = $('complete-algo');
    if (!select.options.length) {
      for (const a of strategies.completers()) {
        const opt = document.createElement('option');
        opt.value = a.name;
        opt.textContent = `${a.name} (${a.title})`;
        select.append(opt);
      }
      select.value = 'stack';
    }
    if (params.get('n')) $('complete-n').value = params.get('n');
    if (params.get('n')) {
      $('complete-torus').checked = params.get('torus') === '1';
      $('complete-super').checked = params.get('super') === '1';
    }
    if ([...select.options].some((o) => o.value === params.get('algo'))) select.value = params.get('algo');
    if (!this.n || params.get('n')) this.reset(params);
  }

  leave() {}

  urlState() {
    const q = { n: this.n, algo: $('complete-algo').value, ...boardParams(this.partial()) };
    if (this.rule().torus) q.torus = 1;
    if (this.rule().super) q.super = 1;
    return q;
  }

  // rule is the variant of the board: {torus, super}.
  rule() { return { torus: $('complete-torus').checked, super: $('complete-super').checked }; }

  // variant names the board's variant for sentences, '' for the plain one.
  variant() {
    const { torus, super: sup } = this.rule();
    return [sup ? 'superqueens' : '', torus ? 'a torus' : ''].filter(Boolean).join(' on ');
  }

  // refresh turns the buttons on and off: all but Cancel while busy; on a
  // variant the strategies' and the solver's, which search the plain board.
  refresh() {
    const plain = !this.variant();
    for (const id of ['complete-go', 'complete-count', 'complete-hint']) $(id).disabled = this.busy || !plain;
    $('complete-clear').disabled = this.busy;
    $('complete-cancel').disabled = !this.busy;
    $('complete-algo').disabled = !plain;
    $('complete-variant-legend').hidden = plain;
  }

  variantChanged() {
    this.queens = this.own();
    this.added.clear();
    this.hint = null;
    this.refresh();
    const v = this.variant();
    this.setState('editing', v
      ? `Queens on ${v === 'superqueens' ? 'the board as superqueens' : v}: place them yourself, and the board is checked by the variant's rules when every row holds one. The strategies and the solver search the plain board only; the Count panel counts this variant.`
      : 'The plain board: the strategies and the solver are back.');
    this.check();
  }

  // partial is the learner's board: {queens (1-based, 0 for none), blocked: [[r, c]]}.
  partial() { return { queens: this.own(), blocked: [...this.blocked].map((k) => k.split(',').map(Number)) }; }

  // reset starts an empty board of the size in the N field, or the board of
  // params (queens=2,0,4 and blocked=1-2,3-3) when given.
  reset(params) {
    const n = readInt('complete-n', ...this.range);
    if (n === null) return;
    const { queens, blocked } = boardFromParams(params || new URLSearchParams(), n);
    Object.assign(this, { n, queens, blocked: new Set(blocked.map((b) => b.join())), added: new Set(), hint: null });
    this.board.setSize(n);
    this.refresh();
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
    this.check();
  }

  // check has the server check a full board of a variant by its rules.
  async check() {
    const v = this.variant();
    if (!v || this.queens.some((c) => !c) || this.conflicts().length) return;
    const { torus, super: sup } = this.rule();
    const queens = this.queens.slice();
    try {
      const res = await api.postJSON('/api/verify', { queens, blocked: this.partial().blocked, torus, super: sup });
      if (v !== this.variant() || queens.join() !== this.queens.join()) return; // the board moved on
      if (res.ok) this.setState('solved', `A solution with ${v}: every row holds a queen and none attacks another${torus ? ', round the edges included' : ''}${sup ? ', nor by a knight\'s move' : ''} (checked by the server).`, 'good');
      else this.setState('editing', `Not a solution with ${v}: ${res.error}.`, 'error');
    } catch (err) {
      this.setState('error', err.message, 'error');
    }
  }

  // conflicts lists the pairs of queens that attack each other, the upper
  // queen first.
  conflicts() {
    const out = [];
    this.queens.forEach((c, i) => {
      if (!c) return;
      for (const a of attackers(this.queens, i + 1, c, this.rule())) if (a.row < i + 1) out.push([[a.row, a.col], [i + 1, c], a]);
    });
    return out;
  }

  draw() {
    const conflicts = this.conflicts();
    const hurt = new Map();
    for (const [a, b, how] of conflicts) {
      const knight = how.line === 'knight' ? ' (a knight\'s move)' : '';
      if (!hurt.has(b.join())) hurt.set(b.join(), `${a[0]}${knight}`);
      if (!hurt.has(a.join())) hurt.set(a.join(), `${b[0]}${knight}`);
    }
    this.board.draw({
      square: (r, c) => {
        const key = `${r},${c}`;
        if (this.queens[r - 1] === c) {
          const classes = ['queen'];
          let label = this.added.has(key) ? 'queen added by the strategy' : 'your queen';
          if (this.added.has(key)) classes.push('added');
          if (hurt.has(key)) { classes.push('attacker'); label += `, attacked by the queen in row ${hurt.get(key)}`; }
          return { classes, label };
        }
        if (this.blocked.has(key)) return { classes: ['blocked'], label: 'blocked' };
        if (this.hint && this.hint.row === r && this.hint.col === c) {
          const label = this.hint.kind === 'reject'
            ? `hint: the next square ${this.hint.algo} tries, rejected: the queen in row ${this.hint.by.row} attacks it`
            : `hint: the next square ${this.hint.algo} tries, where it places a queen`;
          return { classes: ['hint'], label };
        }
        const by = attackers(this.queens, r, c, this.rule());
        if (!by.length) return { classes: [], label: 'empty' };
        const how = (a) => (a.line === 'knight' ? `by a knight's move of the queen in row ${a.row}` : `by the queen in row ${a.row}${segments(this.n, a.row, a.col, a.dr, a.dc).length > 1 ? ', round the edge' : ''}`);
        return { classes: ['attacked'], label: `attacked ${how(by[0])}${by.length > 1 ? ` and ${by.length - 1} more` : ''}` };
      },
      lines: [...conflicts.flatMap(([, , a]) => segments(this.n, a.row, a.col, a.dr, a.dc)
        .map((s) => ({ ...s, kind: a.line === 'knight' ? 'conflict knight' : 'conflict' }))),
        ...(this.hint && this.hint.kind === 'reject' ? [{ from: [this.hint.by.row, this.hint.by.col], to: [this.hint.row, this.hint.col], kind: 'attack' }] : [])],
    });
    const st = $('complete').dataset.state;
    this.board.el.classList.toggle('solved', st === 'solved');
    this.board.el.classList.toggle('stuck', st === 'none');
    $('complete-list').textContent = this.queens.join(' ');
  }

  // firstTry asks for the chosen strategy's search from this board up to
  // its first step in a row the learner left empty: its next try from here
  // (or a row with no free square), and how many steps lead to it (the
  // learner's queens above, placed by the search).
  async firstTry(algo, signal) {
    const given = new Set(this.queens.flatMap((c, i) => (c ? [i + 1] : [])));
    let found = null;
    let steps = 0;
    // Every step before it places a queen of the rows above: n + 1 steps
    // hold it.
    await api.stream('/api/trace', { n: this.n, algo, board: JSON.stringify(this.partial()), limit: this.n + 1 }, (name, e) => {
      if (name !== 'message' || found) return;
      if (tries.has(e.kind) && !given.has(e.row)) found = e;
      else steps++;
    }, { signal });
    return found && { ...found, algo, steps };
  }

  // busyWith runs work with the buttons off and Cancel on.
  async busyWith(state, text, work) {
    if (this.busy) return;
    const abort = new AbortController();
    this.busy = true;
    this.abort = abort;
    this.refresh();
    this.setState(state, text);
    try {
      await work(abort.signal);
    } catch (err) {
      this.setState(abort.signal.aborted ? 'editing' : 'error', abort.signal.aborted ? 'Cancelled.' : err.message, abort.signal.aborted ? '' : 'error');
    } finally {
      this.busy = false;
      this.abort = null;
      this.refresh();
    }
  }

  // ready takes the solver's queens off and says whether the chosen
  // strategy can start from the board: not with queens that attack each
  // other, and there is nothing to do on a full board.
  ready() {
    this.queens = this.own();
    this.added.clear();
    this.hint = null;
    if (this.conflicts().length) {
      this.setState('editing', 'Two of your queens attack each other: the strategy never places a queen on an attacked square. Take one away first.', 'error');
      return false;
    }
    if (this.queens.every((c) => c)) {
      this.setState('editing', 'Every row holds a queen and none attacks another: a solution!', 'good');
      return false;
    }
    return true;
  }

  // showHint shows the chosen strategy's next try from this board, in the
  // strategy's own sentence.
  showHint() {
    if (!this.ready()) return;
    const algo = $('complete-algo').value;
    this.busyWith('searching', `Asking ${algo} for its next step…`, async (signal) => {
      const e = await this.firstTry(algo, signal);
      if (!e) throw new Error(`${algo} makes no try from this board.`);
      if (e.kind === 'dead-end') {
        this.setState('editing', `Hint, the next step of ${algo}: ${e.text}`, 'error');
        return;
      }
      this.hint = e;
      this.setState('editing', `Hint, the next step of ${algo}: ${e.text}`);
      this.board.focusSquare(e.row, e.col);
    });
  }

  // play shows the chosen strategy's search from this board in the watch
  // panel's player, from the step that has the learner's queens above, and
  // plays it to its first solution.
  play() {
    if (!this.ready()) return;
    const algo = $('complete-algo').value;
    this.busyWith('searching', `Starting ${algo} from your board…`, async (signal) => {
      const e = await this.firstTry(algo, signal);
      const q = new URLSearchParams({ n: this.n, algo, ...this.urlState(), step: e ? e.steps : 0 });
      this.setState('editing', `${algo} is playing its search from your board in “Watch a search”.`);
      this.open(q).playFrom(this.queens.slice(), [...this.blocked]);
    });
  }

  // completed shows what the player brings back: the first solution of the
  // strategy's search from this board (null for none), and whether the
  // search was played to its end.
  completed(algo, solution, whole) {
    if (solution) {
      solution.forEach((c, i) => { if (this.queens[i] === 0) this.added.add(`${i + 1},${c}`); });
      this.queens = solution.slice();
      this.setState('solved', `Completed by ${algo}: its search from your board added ${plural(this.added.size, 'queen')} (green), its first solution.`, 'good');
    } else if (whole) {
      this.setState('none', `No completion exists: ${algo} searched every way on from your board and found none.`, 'error');
    } else {
      this.setState('editing', `${algo} had not found a solution yet in the steps played.`);
    }
  }

  // count counts the completions with the counting engine.
  count() {
    this.queens = this.own();
    this.added.clear();
    this.hint = null;
    this.busyWith('searching', 'Counting the completions…', async (signal) => {
      const res = await api.postJSON('/api/complete', { ...this.partial(), count: true }, { signal });
      this.setState('counted', res.exists
        ? `${group(res.completions)} way${res.completions === 1 ? '' : 's'} to complete this board.`
        : 'No completion exists: these queens and blocks leave no way to fill every row.', res.exists ? 'good' : 'error');
    });
  }
}
