// The "Watch a search" panel: a classic search played from the events of the
// trace stream, which a worker reads and keeps in columns (trace.js,
// tracestore.js): any step is rebuilt whole (its board, counters, sentence
// and what its check read) without replaying the ones before; the board, the
// strategy's own data, the pseudocode, the tree and the solutions list all
// draw from the event of the step shown.
//
// A search of a backtracking strategy can start from a board of Try it
// (queens=2,0,4&blocked=1-2,3-3 in the address, as there): a row with one
// of its queens offers only that square, a blocked square is never tried.
// The panel then draws that board's queens and blocks, and takes the first
// solution back to Try it.

import { Board, boardFromParams, boardParams } from './board.js';
import { readInt, setRange } from './field.js';
import { t } from './i18n.js';
import { say } from './lang.js';
import { drawStructure } from './structure.js';
import * as strategies from './strategies.js';
import { $, group, status } from './text.js';
import { Timeline } from './timeline.js';
import { loadTrace } from './trace.js';
import { PLACE, REMOVE, SOLUTION, TraceStore } from './tracestore.js';
import { SearchTree } from './tree.js';
import { fromText, scanLines, solutionsNote, squareOf, stepName } from './watchview.js';

const zero = { nodes: 0, tries: 0, reads: 0, placed: 0, rejected: 0, backtracks: 0, solutions: 0 };
const counterNames = ['placed', 'rejected', 'backtracks', 'solutions', 'nodes', 'tries', 'reads'];

// The screen's width where the board and the pseudocode stack (style.css),
// and the reader's wish for no motion.
const narrow = matchMedia('(max-width: 40rem)');
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

// scrollWithin scrolls box, and only box, so that el is in its view.
function scrollWithin(box, el) {
  if (!el) return;
  const b = box.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
}

// The steps to jump to with the navigation buttons and keys, by their kind.
const jumps = { placement: PLACE, backtrack: REMOVE, solution: SOLUTION };

export class WatchPanel {
  // open(query) shows the panel the query names, and returns it.
  constructor(limits, onURL, open) {
    this.limits = limits;
    this.onURL = onURL;
    this.open = open;
    this.start = null;    // {queens, blocked} of a search started from a board
    this.autoplay = false;
    this.range = setRange('watch-n', 1, limits.max_trace_n);
    this.n = 0;
    this.algo = 'stack';
    this.trace = new TraceStore(0);
    this.loading = false;
    this.end = null;
    this.abort = null;
    this.focus = null;    // the square pointed at, for the flag view
    this.lastLive = 0;
    this.liveTimer = 0;
    this.drawQueued = false;
    this.board = new Board($('watch-board'), {
      labelKey: 'page.watch.board',
      onFocus: (r, c) => { this.focus = r ? [r, c] : null; this.drawSide(); },
    });
    this.timeline = new Timeline((pos) => this.show(pos));
    this.timeline.isSolution = (p) => this.trace.kind(p) === SOLUTION;
    this.timeline.onPlay = () => this.inView();
    // Play with a new N in the field loads that N first.
    this.timeline.beforePlay = () => {
      if (this.timeline.playing || Number($('watch-n').value) === this.n) return true;
      this.loadFromForm();
      return false;
    };
    this.tree = new SearchTree($('watch-tree'), $('watch-tree-summary'), $('watch-tree-legend'), (step) => { this.timeline.pause(); this.timeline.go(step - 1); });
    $('watch-solutions').addEventListener('click', (e) => {
      const b = e.target.closest('button[data-pos]');
      if (b) { this.timeline.pause(); this.timeline.go(Number(b.dataset.pos)); }
    });
    $('watch-form').addEventListener('submit', (e) => { e.preventDefault(); this.loadFromForm(); });
    $('watch-algo').addEventListener('change', () => {
      if (this.start && !strategies.completers().some((a) => a.name === $('watch-algo').value)) this.start = null;
      this.loadFromForm();
    });
    $('watch-from-back').addEventListener('click', () => this.back());
    $('watch-from-clear').addEventListener('click', () => { this.start = null; this.loadFromForm(); });
    // A new N is loaded as soon as it is typed, so that Play never plays
    // the board of the N before.
    $('watch-n').addEventListener('change', () => { this.start = null; this.loadFromForm(); });
    document.addEventListener('keydown', (e) => this.keys(e));
    // A space that plays must not also scroll the page, whichever event the
    // browser scrolls on.
    document.addEventListener('keypress', (e) => { if (e.key === ' ' && this.ownsKey(e)) e.preventDefault(); });
  }

  async init() {
    await strategies.load();
    this.drawStrategies();
    for (const [what, kind] of Object.entries(jumps)) {
      $(`watch-next-${what}`).addEventListener('click', () => this.jump(kind, 1));
      $(`watch-prev-${what}`).addEventListener('click', () => this.jump(kind, -1));
    }
  }

  // drawStrategies lists the strategies, in the menu and in the lessons,
  // in the words of the server's answer.
  drawStrategies() {
    const select = $('watch-algo');
    const chosen = select.value;
    select.replaceChildren(...strategies.all().filter((x) => x.traceable).map((a) => {
      const opt = document.createElement('option');
      opt.value = a.name;
      opt.textContent = t('page.strategy.option', { Name: a.name, Title: a.title || a.description });
      return opt;
    }));
    if (chosen) select.value = chosen;
    $('watch-lesson-list').replaceChildren(...strategies.classics().flatMap((a) => {
      const dt = document.createElement('dt');
      dt.append(Object.assign(document.createElement('code'), { textContent: a.name }));
      const dd = document.createElement('dd');
      dd.textContent = a.summary;
      return [dt, dd];
    }));
  }

  // relang shows the panel in the language just chosen: the strategies'
  // lessons and the trace's sentences are the server's, so both are asked
  // for again, and the trace comes back at the step shown.
  async relang() {
    $('watch').dataset.trace = 'loading';
    this.timeline.pause();
    this.timeline.relang();
    this.tree.relang();
    await strategies.load();
    this.drawStrategies();
    this.drawCode();
    $('watch-lesson').textContent = strategies.lesson(this.algo).summary;
    this.drawFrom();
    if (this.n) this.load(this.n, this.algo, this.timeline.pos + 1);
  }

  // jump goes to the next (dir 1) or previous (dir -1) step of a kind.
  jump(kind, dir) {
    const t = this.timeline;
    t.pause();
    for (let p = t.pos + dir; p >= 0 && p < this.trace.length; p += dir) {
      if (this.trace.kind(p) === kind) { t.go(p); return; }
    }
    if (dir < 0) t.go(-1);
  }

  // enter opens the panel at the state of params (n, algo, step).
  enter(params) {
    const n = Number(params.get('n') || this.n || 6);
    const algo = params.get('algo') || this.algo;
    const raw = params.get('step');
    const step = raw === 'end' ? Infinity : Number(raw || 0);
    $('watch-n').value = n;
    if ([...$('watch-algo').options].some((o) => o.value === algo)) $('watch-algo').value = algo;
    let start = params.get('queens') || params.get('blocked') ? boardFromParams(params, n) : null;
    if (start && !strategies.completers().some((a) => a.name === $('watch-algo').value)) start = null;
    const moved = JSON.stringify(start) !== JSON.stringify(this.start);
    this.start = start;
    if (moved || n !== this.n || $('watch-algo').value !== this.algo || !this.trace.length) this.loadFromForm(step);
    else if (step) this.timeline.go(step - 1);
  }

  leave() { this.timeline.pause(); }

  // playFrom plays the search, as soon as it reaches the step asked for, to
  // its next solution (Try it's "Complete from here").
  playFrom() {
    $('watch-pause-solution').checked = true;
    if (this.loading) this.autoplay = true;
    else this.timeline.play();
  }

  // back takes the board to Try it with the search's first solution up to
  // the step shown.
  back() {
    const { n, algo, trace } = this;
    const first = trace.solutions.find((p) => p <= this.timeline.pos);
    const q = new URLSearchParams({ panel: 'complete', n, algo, ...this.urlState() });
    q.delete('step');
    const whole = !this.loading && this.end && this.end.complete && this.timeline.pos === trace.length - 1;
    this.open(q).completed(algo, first === undefined ? null : trace.queens(first), whole);
  }

  // drawFrom says, for a search started from a board, what the board
  // holds and how the search treats it.
  drawFrom() {
    $('watch-from').hidden = !this.start;
    if (!this.start) return;
    $('watch-from-text').textContent = fromText(this.start, this.algo);
  }

  urlState() {
    const q = { n: this.n, algo: this.algo, ...(this.start ? boardParams(this.start) : {}) };
    if (this.timeline.pos >= 0) q.step = this.timeline.pos + 1;
    return q;
  }

  loadFromForm(step = 0) {
    const n = readInt('watch-n', ...this.range);
    if (n === null) return;
    this.load(n, $('watch-algo').value || 'stack', step);
  }

  async load(n, algo, step) {
    if (this.abort) this.abort.abort();
    const abort = new AbortController();
    const trace = new TraceStore(n);
    Object.assign(this, { abort, n, algo, trace, loading: true, end: null });
    this.timeline.pause();
    this.timeline.pos = -1;
    this.tree.reset(n, trace);
    this.board.setSize(n);
    this.drawCode();
    $('watch-lesson').textContent = strategies.lesson(algo).summary;
    this.drawFrom();
    $('watch').dataset.trace = 'loading';
    status($('watch-status'), 'page.watch.loading');
    this.timeline.setLength(0, true);
    this.show(-1);
    const limit = Math.min(this.limits.max_trace_events, 100000);
    strategies.loadCandidates(n).then(() => this.drawSide()).catch(() => {});
    let got;
    let pending = step;
    try {
      const from = this.start ? { board: JSON.stringify(this.start) } : {};
      got = await loadTrace({ n, algo, limit, ...from }, trace, () => {
        if (pending && trace.length >= pending) {
          this.timeline.setLength(trace.length, true);
          this.timeline.go(pending - 1);
          pending = 0;
          this.inView(); // a shared step: its moment on screen
        }
        if (!pending && this.autoplay) {
          this.autoplay = false;
          this.timeline.setLength(trace.length, true);
          this.timeline.play();
        }
        this.queueLength();
      }, { signal: abort.signal });
    } catch (err) {
      if (abort.signal.aborted) return;
      got = { end: null, error: err.message };
    }
    if (abort.signal.aborted) return;
    this.end = got.end;
    this.loading = false;
    this.abort = null;
    this.timeline.setLength(trace.length, false);
    if (pending) {
      this.timeline.go(Math.min(pending, trace.length) - 1);
      this.inView();
    }
    this.timeline.setMarks(trace.solutions);
    this.reportEnd(got.error, limit);
    $('watch').dataset.trace = 'loaded';
    this.show(this.timeline.pos);
    // The first board the page can play, as the tests measure its start.
    if (!performance.getEntriesByName('nqueens-playable').length) performance.mark('nqueens-playable');
  }

  // queueLength tells the timeline about new steps once a frame, not once
  // a batch.
  queueLength() {
    if (this.drawQueued) return;
    this.drawQueued = true;
    requestAnimationFrame(() => {
      this.drawQueued = false;
      if (this.loading) {
        this.timeline.setLength(this.trace.length, true);
        this.drawNotes();
        this.drawStep();
      }
    });
  }

  reportEnd(cut, limit) {
    const end = this.end;
    const args = { Algo: this.algo, N: this.n };
    const from = this.start ? '.from' : '';
    if (!end) {
      status($('watch-status'), 'page.watch.cut', { Error: cut || t('page.watch.lost'), Count: this.trace.length }, 'error');
    } else if (end.truncated) {
      status($('watch-status'), 'page.watch.truncated' + from, { ...args, Steps: end.events, Limit: limit });
    } else {
      status($('watch-status'), 'page.watch.whole' + from, { ...args, Steps: this.trace.length }, 'good');
    }
  }

  // event is the step at pos, rebuilt once however many views draw it.
  event(pos) {
    if (this.shown && this.shown.trace === this.trace && this.shown.pos === pos) return this.shown.e;
    const e = this.trace.event(pos);
    this.shown = { trace: this.trace, pos, e };
    return e;
  }

  // show draws the step at pos everywhere; the costly views wait while the
  // player runs fast.
  show(pos) {
    const e = this.event(pos);
    this.drawBoard(e);
    this.drawStep();
    this.drawSide();
    this.drawNotes();
    const now = performance.now();
    if (!this.timeline.playing || now - (this.treeAt || 0) > 120) {
      this.treeAt = now;
      this.tree.draw(pos);
    }
    this.announce();
    this.onURL();
  }

  drawBoard(e) {
    this.board.draw({
      square: squareOf(e, this.n, this.start),
      lines: [...scanLines(e), ...(e && e.kind === 'reject' ? [{ from: [e.by.row, e.by.col], to: [e.row, e.col], kind: 'attack' }] : [])],
    });
    this.board.el.classList.toggle('solved', !!e && e.kind === 'solution');
  }

  // stepText names the step shown.
  stepText() {
    return stepName(this.event(this.timeline.pos), this.trace.length, this.loading);
  }

  drawStep() {
    const e = this.event(this.timeline.pos);
    $('watch-event').textContent = this.stepText();
    $('watch-sentence').textContent = e ? e.text : t('page.watch.empty', { N: this.n });
    const c = e ? e.counters : zero;
    for (const k of counterNames) $('watch-counter-' + k).textContent = group(c[k]);
  }

  drawSide() {
    const e = this.event(this.timeline.pos);
    drawStructure($('watch-data'), this.algo, e, this.n, this.focus);
    const line = e ? e.line - 1 : 0;
    [...$('watch-code').children].forEach((li, i) => {
      if (i === line) li.setAttribute('aria-current', 'step');
      else li.removeAttribute('aria-current');
    });
    // Only the phone's code box is short enough to scroll; measuring it
    // costs a layout, so it is done only there, and when the line moves.
    if (narrow.matches && line !== this.codeLine) scrollWithin($('watch-code-box'), $('watch-code').children[line]);
    this.codeLine = line;
  }

  // inView brings the board, the step's sentence and the counters on
  // screen together when Play starts or a shared step opens, under the
  // timeline's buttons: at the top of the window, or on a narrow screen,
  // where the buttons stick to the top (style.css) and the pseudocode
  // comes below the counters, with its current line too. It moves the
  // page only when they are not all in view.
  inView() {
    const board = $('watch-board').getBoundingClientRect();
    const line = $('watch-code').querySelector('[aria-current]') || $('watch-code');
    const last = narrow.matches ? line : $('watch-counters');
    const player = $('watch-player').getBoundingClientRect();
    const top = narrow.matches ? player.height : 0;
    if (board.top >= top && last.getBoundingClientRect().bottom <= window.innerHeight) return;
    // On a wide screen the move is short and made at once, so that a click
    // that follows lands where it was aimed.
    const by = narrow.matches ? board.top - top - 4 : player.top - 4;
    window.scrollBy({ top: by, behavior: reducedMotion.matches || !narrow.matches ? 'instant' : 'smooth' });
  }

  drawCode() {
    const ol = $('watch-code');
    this.codeLine = -1;
    ol.replaceChildren(...strategies.lesson(this.algo).pseudocode.map((text) => {
      // A line keeps its indentation as a margin, so that a long line
      // wraps under itself, a little further in (style.css).
      const li = document.createElement('li');
      li.style.setProperty('--indent', text.length - text.trimStart().length);
      li.textContent = text.trimStart();
      return li;
    }));
    const code = (text) => Object.assign(document.createElement('code'), { textContent: text });
    say($('watch-data-title'), 'page.watch.data.of', { Algo: code(this.algo) });
    say($('watch-code-title'), 'page.watch.code.of', { Algo: code(this.algo) });
  }

  // drawNotes lists the solutions found up to the step shown, or says that
  // there is none yet.
  drawNotes() {
    const pos = this.timeline.pos;
    let k = 0;
    const solutions = this.trace.solutions;
    while (k < solutions.length && solutions[k] <= pos) k++;
    const list = $('watch-solutions');
    if (list.childElementCount !== Math.min(k, 200)) {
      list.replaceChildren(...solutions.slice(0, Math.min(k, 200)).map((p, i) => {
        const li = document.createElement('li');
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.pos = p;
        b.textContent = t('page.watch.solution', { K: i + 1, Queens: this.trace.queens(p).join(' '), Step: p + 1 });
        li.append(b);
        return li;
      }));
    }
    $('watch-solutions-note').textContent = solutionsNote({ k, pos, n: this.n, length: this.trace.length, loading: this.loading, found: solutions.length, truncated: !!(this.end && this.end.truncated) });
  }

  // announce tells a screen reader where the search is: at once when paused,
  // at most once a second while playing.
  announce() {
    clearTimeout(this.liveTimer);
    const say = () => {
      this.lastLive = performance.now();
      $('watch-live').textContent = t('page.watch.live', { Step: this.stepText(), Sentence: $('watch-sentence').textContent });
    };
    const wait = 1000 - (performance.now() - this.lastLive);
    if (!this.timeline.playing || wait <= 0) say();
    else this.liveTimer = setTimeout(say, wait);
  }

  // keys: space plays and pauses, arrows step, Home and End jump; keys for a
  // focused control (a button's Space, a field, the board's arrows) are left
  // to it.
  keys(e) {
    if (!this.ownsKey(e)) return;
    const t = this.timeline;
    const actions = {
      ' ': () => t.toggle(),
      ArrowRight: () => { t.pause(); t.go(t.pos + 1); },
      ArrowLeft: () => { t.pause(); t.go(t.pos - 1); },
      Home: () => { t.pause(); t.go(-1); },
      End: () => { t.pause(); t.go(t.length - 1); },
      p: () => this.jump(jumps.placement, 1), P: () => this.jump(jumps.placement, -1),
      b: () => this.jump(jumps.backtrack, 1), B: () => this.jump(jumps.backtrack, -1),
      s: () => this.jump(jumps.solution, 1), S: () => this.jump(jumps.solution, -1),
    };
    if (!actions[e.key]) return;
    e.preventDefault();
    actions[e.key]();
  }

  // ownsKey: Space belongs to a focused control; arrows, Home and End only
  // to fields, sliders and the board's own grid navigation.
  ownsKey(e) {
    if ($('watch').hidden || e.ctrlKey || e.metaKey || e.altKey) return false;
    const own = e.key === ' ' ? 'input, select, textarea, button, a, dialog, [role=grid], [role=tree], [role=region], summary' : 'input, select, textarea, dialog, [role=grid], [role=tree], [role=region]';
    return !(e.target.closest && e.target.closest(own));
  }
}
