// The race: two to four strategies search the same board side by side, each
// on its own board (the same ARIA grid as the trace panel's), in lock step
// by reads, the one unit of work they share: at every moment each board
// shows its search after the same number of reads. The cheap check finishes
// while the costly one is still scanning. The summary at the end sets the
// reads beside the time each strategy takes, measured on one whole untraced
// run (GET /api/compare, as the cost view).
//   /?panel=race&n=8&algos=backtrack-2d,backtrack-flags,bitmask

import * as api from './api.js';
import { Board } from './board.js';
import { readInt, setRange } from './field.js';
import * as strategies from './strategies.js';
import { $, group, runTime, setStatus } from './text.js';
import { loadTrace } from './trace.js';
import { TraceStore } from './tracestore.js';

// lastReads is the reads counter at the last step of trace, 0 for none.
const lastReads = (trace) => (trace.length ? trace.reads(trace.length - 1) : 0);

const defaults = ['backtrack-2d', 'backtrack-flags', 'bitmask'];

export class RacePanel {
  constructor(limits, onURL) {
    this.onURL = onURL;
    this.limits = limits;
    this.range = setRange('race-n', 1, Math.min(limits.max_trace_n, 12));
    this.lanes = [];
    this.clock = 0;
    this.playing = false;
    this.tick = this.tick.bind(this);
    $('race-form').addEventListener('submit', (e) => { e.preventDefault(); this.load(); });
    $('race-play').addEventListener('click', () => (this.playing ? this.pause() : this.play()));
  }

  enter(params) {
    const box = $('race-algos');
    if (!box.querySelector('input')) {
      for (const a of strategies.completers()) {
        const label = document.createElement('label');
        const input = document.createElement('input');
        input.type = 'checkbox';
        input.value = a.name;
        label.append(input, ` ${a.name}`);
        box.append(label);
      }
    }
    const algos = (params.get('algos') || '').split(',').filter(Boolean);
    const want = algos.length ? algos : (this.algos || defaults);
    for (const input of box.querySelectorAll('input')) input.checked = want.includes(input.value);
    if (params.get('n')) $('race-n').value = params.get('n');
    if (!this.lanes.length || params.get('algos')) this.load();
  }

  leave() { this.pause(); }

  urlState() { return { n: this.n, algos: (this.algos || []).join(',') }; }

  async load() {
    const n = readInt('race-n', ...this.range);
    const algos = [...$('race-algos').querySelectorAll('input:checked')].map((i) => i.value);
    if (n === null) return;
    if (algos.length < 2 || algos.length > 4) {
      setStatus($('race-status'), 'Choose two to four strategies to race.', 'error');
      return;
    }
    this.pause();
    if (this.abort) this.abort.abort();
    const abort = new AbortController();
    Object.assign(this, { abort, n, algos, clock: 0, measured: null });
    // The times, measured while the traces load; the summary waits for them.
    api.getJSON('/api/compare', { n, algos: algos.join(',') }, { signal: abort.signal })
      .then((rows) => { this.measured = new Map(rows.map((r) => [r.algorithm, r])); })
      .catch((err) => { if (!abort.signal.aborted) this.measured = err; })
      .finally(() => { if (!abort.signal.aborted) this.draw(); });
    this.onURL();
    $('race').dataset.state = 'loading';
    setStatus($('race-status'), 'Loading the searches…');
    const boxes = $('race-boards');
    boxes.replaceChildren();
    this.lanes = algos.map((algo) => {
      const fig = document.createElement('section');
      fig.className = 'lane box';
      fig.dataset.algo = algo;
      const h = document.createElement('h3');
      h.textContent = `${algo} (${strategies.lesson(algo).title})`;
      const board = document.createElement('div');
      const counters = document.createElement('p');
      counters.className = 'lane-counters';
      fig.append(h, board, counters);
      boxes.append(fig);
      const b = new Board(board, { label: `Board of ${algo}` });
      b.setSize(n);
      return { algo, board: b, counters, trace: new TraceStore(n), shown: -1 };
    });
    const limit = Math.min(this.limits.max_trace_events, 100000);
    try {
      // Each trace is read in a worker (trace.js), off the page's thread.
      await Promise.all(this.lanes.map(async (lane) => {
        const got = await loadTrace({ n, algo: lane.algo, limit }, lane.trace, () => {}, { signal: abort.signal });
        lane.end = got.end;
        if (!got.end && got.error) throw new Error(got.error);
      }));
    } catch (err) {
      if (!abort.signal.aborted) setStatus($('race-status'), err.message, 'error');
      return;
    }
    if (abort.signal.aborted) return;
    this.total = Math.max(...this.lanes.map((l) => lastReads(l.trace)));
    $('race').dataset.state = 'ready';
    setStatus($('race-status'), `Ready: ${algos.join(', ')} on ${n}×${n}. Play runs them in lock step, by reads.`);
    this.draw();
  }

  play() {
    if (!this.lanes.length || this.clock >= this.total) return;
    this.playing = true;
    this.last = performance.now();
    $('race-play').textContent = '❚❚ Pause';
    $('race').dataset.state = 'playing';
    requestAnimationFrame(this.tick);
  }

  pause() {
    this.playing = false;
    $('race-play').textContent = '▶ Play';
    if (this.lanes.length) $('race').dataset.state = this.clock >= this.total ? 'end' : 'paused';
  }

  // tick moves the reads clock so that the whole race takes about ten
  // seconds, however many reads the slowest needs.
  tick(now) {
    if (!this.playing) return;
    this.clock = Math.min(this.total, this.clock + (now - this.last) / 10000 * this.total);
    this.last = now;
    this.draw();
    if (this.clock >= this.total) this.pause();
    else requestAnimationFrame(this.tick);
  }

  // draw shows each lane at the last step whose reads are within the clock.
  draw() {
    for (const lane of this.lanes) {
      const trace = lane.trace;
      let lo = -1;
      let hi = trace.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (trace.reads(mid) <= this.clock) lo = mid;
        else hi = mid - 1;
      }
      lane.shown = lo;
      const e = trace.event(lo);
      const queens = e ? e.queens : new Array(this.n).fill(0);
      lane.board.draw({
        square: (r, c) => (queens[r - 1] === c ? { classes: ['queen'], label: 'queen' } : { classes: [], label: 'empty' }),
        lines: e && e.kind === 'reject' ? [{ from: [e.by.row, e.by.col], to: [e.row, e.col], kind: 'attack' }] : [],
      });
      const c = e ? e.counters : { reads: 0, placed: 0, rejected: 0, solutions: 0 };
      const done = lo === trace.length - 1 && lane.end && lane.end.complete;
      lane.counters.textContent = `${group(c.reads)} reads, ${group(c.placed)} placements, ${group(c.rejected)} rejected, ${group(c.solutions)} solutions${done ? ': done' : ''}`;
      lane.board.el.classList.toggle('solved', !!done);
    }
    $('race-summary').textContent = this.clock >= this.total && this.lanes.length ? this.summary() : '';
  }

  // summary compares the strategies by reads and by the time measured.
  summary() {
    const ends = this.lanes.map((l) => ({ algo: l.algo, reads: lastReads(l.trace), complete: l.end && l.end.complete }));
    ends.sort((a, b) => a.reads - b.reads);
    const best = ends[0];
    const times = this.measured instanceof Map ? this.measured : null;
    const time = (a) => (times && times.get(a) && times.get(a).status === 'ok' ? times.get(a).seconds : null);
    const fastest = ends.filter((x) => time(x.algo)).sort((a, b) => time(a.algo) - time(b.algo))[0];
    const ratio = (v, w) => `${(v / Math.max(w, 1e-12)).toFixed(1)} ×`;
    const parts = ends.map((x) => {
      let s = `${x.algo}: ${group(x.reads)} reads${x === best ? '' : ` (${ratio(x.reads, best.reads)} ${best.algo})`}`;
      if (time(x.algo)) s += `, ${runTime(time(x.algo))} a run${x === fastest ? '' : ` (${ratio(time(x.algo), time(fastest.algo))} ${fastest.algo})`}`;
      return s + (x.complete ? '' : ', cut off');
    });
    const where = api.kind === 'wasm' ? 'in this browser' : 'on the server';
    let note = `Times: one whole run without the trace, measured ${where} (short runs repeated and averaged).`;
    if (!this.measured) note = 'Measuring the times…';
    else if (!times) note = `The times could not be measured: ${this.measured.message}.`;
    return `All done. ${parts.join('; ')}. ${note}`;
  }
}
