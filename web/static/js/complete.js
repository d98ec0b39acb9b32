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
import { t, tn } from './i18n.js';
import * as strategies from './strategies.js';
import { $, setStatus, status } from './text.js';

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
    this.board = new Board($('complete-board'), { labelKey: 'page.complete.board', onActivate: (r, c) => this.activate(r, c) });
    $('complete-form').addEventListener('submit', (e) => { e.preventDefault(); this.play(); });
    $('complete-count').addEventListener('click', () => this.count());
    $('complete-hint').addEventListener('click', () => this.showHint());
    $('complete-clear').addEventListener('click', () => this.reset());
    $('complete-cancel').addEventListener('click', () => { if (this.abort) this.abort.abort(); });
    $('complete-n').addEventListener('change', () => this.reset());
    for (const id of ['complete-torus', 'complete-super']) $(id).addEventListener('change', () => this.variantChanged());
  }

  // drawStrategies lists the strategies that start from a board, in the
  // words of the server's answer.
  drawStrategies() {
    const select = $('complete-algo');
    const chosen = select.value || 'stack';
    select.replaceChildren(...strategies.completers().map((a) => {
      const opt = document.createElement('option');
      opt.value = a.name;
      opt.textContent = t('page.strategy.option', { Name: a.name, Title: a.title });
      return opt;
    }));
    select.value = chosen;
  }

  // relang shows the panel in the language just chosen: the strategies'
  // names and the squares' labels again, and a hint, whose sentence is the
  // strategy's, asked for again.
  async relang() {
    await strategies.load();
    if ($('complete-algo').options.length) this.drawStrategies();
    if (this.n) this.draw();
    if (this.hinted && !this.busy) this.showHint(false);
  }

  enter(params) {
    const select = $('complete-algo');
    if (!select.options.length) this.drawStrategies();
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

  // variant names the board's variant: 'torus', 'super', 'both', or '' for
  // the plain one.
  variant() {
    const { torus, super: sup } = this.rule();
    return torus && sup ? 'both' : torus ? 'torus' : sup ? 'super' : '';
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
    const said = { torus: ['page.complete.variant.torus'], super: ['page.complete.variant.super'], both: ['page.complete.variant.both'], '': ['page.complete.variant.plain'] };
    this.setState('editing', said[this.variant()]);
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
    this.setState('editing', ['page.complete.start']);
  }

  // own is the board without the solver's queens.
  own() {
    return this.queens.map((c, i) => (this.added.has(`${i + 1},${c}`) ? 0 : c));
  }

  // setState shows the panel's state and its line: a message [key, args],
  // or a text as it is (the server's).
  setState(state, said, kind = '') {
    $('complete').dataset.state = state;
    if (Array.isArray(said)) status($('complete-status'), said[0], said[1] || {}, kind);
    else setStatus($('complete-status'), said, kind);
    this.hinted = '';
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
      ? ['page.complete.conflicts', { Count: conflicts }]
      : ['page.complete.placed', { Count: this.queens.filter((x) => x).length }], conflicts ? 'error' : '');
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
      const solved = { torus: 'page.complete.solved.torus', super: 'page.complete.solved.super', both: 'page.complete.solved.both' };
      const not = { torus: 'page.complete.unsolved.torus', super: 'page.complete.unsolved.super', both: 'page.complete.unsolved.both' };
      if (res.ok) this.setState('solved', [solved[v]], 'good');
      else this.setState('editing', [not[v], { Error: res.error }], 'error');
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
      const by = (row) => (how.line === 'knight' ? t('page.sq.attacked.by.knight', { Row: row }) : t('page.sq.attacked.by', { Row: row }));
      if (!hurt.has(b.join())) hurt.set(b.join(), by(a[0]));
      if (!hurt.has(a.join())) hurt.set(a.join(), by(b[0]));
    }
    this.board.draw({
      square: (r, c) => {
        const key = `${r},${c}`;
        if (this.queens[r - 1] === c) {
          const classes = ['queen'];
          let label = this.added.has(key) ? t('page.sq.added') : t('page.sq.yours');
          if (this.added.has(key)) classes.push('added');
          if (hurt.has(key)) { classes.push('attacker'); label = t('page.sq.and', { A: label, B: hurt.get(key) }); }
          return { classes, label };
        }
        if (this.blocked.has(key)) return { classes: ['blocked'], label: t('page.sq.blocked') };
        if (this.hint && this.hint.row === r && this.hint.col === c) {
          const label = this.hint.kind === 'reject'
            ? t('page.sq.hint.rejected', { Algo: this.hint.algo, Row: this.hint.by.row })
            : t('page.sq.hint.place', { Algo: this.hint.algo });
          return { classes: ['hint'], label };
        }
        const by = attackers(this.queens, r, c, this.rule());
        if (!by.length) return { classes: [], label: t('page.sq.empty') };
        return { classes: ['attacked'], label: this.attackedBy(by) };
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

  // attackedBy says which queens attack a square: the first, how (a
  // knight's move, round the edge of a torus), and how many more.
  attackedBy(by) {
    const a = by[0];
    const args = { Row: a.row, Count: by.length - 1 };
    const edge = segments(this.n, a.row, a.col, a.dr, a.dc).length > 1;
    if (by.length === 1) {
      if (a.line === 'knight') return t('page.sq.attacked.knight', args);
      return edge ? t('page.sq.attacked.edge', args) : t('page.sq.attacked.by', args);
    }
    if (a.line === 'knight') return tn('page.sq.attacked.knight.more', by.length - 1, args);
    return edge ? tn('page.sq.attacked.edge.more', by.length - 1, args) : tn('page.sq.attacked.more', by.length - 1, args);
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
  async busyWith(state, said, work) {
    if (this.busy) return;
    const abort = new AbortController();
    this.busy = true;
    this.abort = abort;
    this.refresh();
    this.setState(state, said);
    try {
      await work(abort.signal);
    } catch (err) {
      if (abort.signal.aborted) this.setState('editing', ['page.complete.cancelled']);
      else this.setState('error', err.said || err.message, 'error');
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
      this.setState('editing', ['page.complete.conflict'], 'error');
      return false;
    }
    if (this.queens.every((c) => c)) {
      this.setState('editing', ['page.complete.solution'], 'good');
      return false;
    }
    return true;
  }

  // showHint shows the chosen strategy's next try from this board, in the
  // strategy's own sentence, and moves the focus there if focus is set.
  showHint(focus = true) {
    if (!this.ready()) return;
    const algo = $('complete-algo').value;
    this.busyWith('searching', ['page.complete.asking', { Algo: algo }], async (signal) => {
      const e = await this.firstTry(algo, signal);
      if (!e) throw Object.assign(new Error(), { said: ['page.complete.notry', { Algo: algo }] });
      const said = ['page.complete.hint.text', { Algo: algo, Text: e.text }];
      if (e.kind === 'dead-end') {
        this.setState('editing', said, 'error');
      } else {
        this.hint = e;
        this.setState('editing', said);
        if (focus) this.board.focusSquare(e.row, e.col);
      }
      this.hinted = algo;
    });
  }

  // play shows the chosen strategy's search from this board in the watch
  // panel's player, from the step that has the learner's queens above, and
  // plays it to its first solution.
  play() {
    if (!this.ready()) return;
    const algo = $('complete-algo').value;
    this.busyWith('searching', ['page.complete.starting', { Algo: algo }], async (signal) => {
      const e = await this.firstTry(algo, signal);
      const q = new URLSearchParams({ n: this.n, algo, ...this.urlState(), step: e ? e.steps : 0 });
      this.setState('editing', ['page.complete.playing', { Algo: algo }]);
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
      this.setState('solved', ['page.complete.completed', { Algo: algo, Count: this.added.size }], 'good');
    } else if (whole) {
      this.setState('none', ['page.complete.none', { Algo: algo }], 'error');
    } else {
      this.setState('editing', ['page.complete.notyet', { Algo: algo }]);
    }
  }

  // count counts the completions with the counting engine.
  count() {
    this.queens = this.own();
    this.added.clear();
    this.hint = null;
    this.busyWith('searching', ['page.complete.counting'], async (signal) => {
      const res = await api.postJSON('/api/complete', { ...this.partial(), count: true }, { signal });
      this.setState('counted', res.exists
        ? ['page.complete.ways', { Count: res.completions }]
        : ['page.complete.noway'], res.exists ? 'good' : 'error');
    });
  }
}
