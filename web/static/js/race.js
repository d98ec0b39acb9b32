// The race: two to four strategies search the same board side by side, each
// on its own board (the same ARIA grid as the trace panel's), in lock step
// by reads, the one unit of work they share: at every moment each board
// shows its search after the same number of reads, and a bar under it grows
// with its reads, all bars on one scale, so that the ratio is seen. The
// cheap check finishes while the costly one is still scanning; a finished
// board keeps its last solution.
//
// The result is a table ranked by the deterministic counters (reads, then
// placements, then tries), which no machine changes. Times come from
// GET /api/compare (as the cost view): the median of many measures of one
// whole untraced run, with its quartiles; a time is shown only where the
// middle half of its measures spans less than the time itself, and a
// ratio of times only between strategies whose quartiles do not overlap,
// for under that the difference is noise.
//   /?panel=race&n=8&algos=backtrack-2d,backtrack-flags,bitmask&speed=50

import * as api from './api.js';
import { Board } from './board.js';
import { readInt, setRange } from './field.js';
import { int, list, t } from './i18n.js';
import * as strategies from './strategies.js';
import { $, runTime, setStatus, status } from './text.js';
import { loadTrace } from './trace.js';
import { TraceStore } from './tracestore.js';

// lastReads is the reads counter at the last step of trace, 0 for none.
const lastReads = (trace) => (trace.length ? trace.reads(trace.length - 1) : 0);

const defaults = ['backtrack-2d', 'backtrack-flags', 'bitmask'];

// The speed slider (0 … 100) sets how long the whole race lasts: 60 s at
// the slowest, 2 s at the fastest, on a log scale.
const raceSeconds = (v) => 60 * (1 / 30) ** (v / 100);

// A time is shown where its measures are at least this many, and the
// middle half of them spans less than the time itself.
const minSamples = 5;

// timeOf reads a compare row's median time and its quartiles, or null.
function timeOf(row) {
  if (!row || row.status !== 'ok' || !row.median_s) return null;
  return { median: row.median_s, q1: row.q1_s, q3: row.q3_s, samples: row.samples || 1 };
}

// clear says whether a time stands out of its noise.
const clear = (tm) => tm && tm.samples >= minSamples && tm.q3 - tm.q1 < tm.median;

export class RacePanel {
  constructor(limits, onURL) {
    this.onURL = onURL;
    this.limits = limits;
    this.range = setRange('race-n', 1, Math.min(limits.max_trace_n, 12));
    this.lanes = [];
    this.clock = 0;
    this.playing = false;
    this.wantPlay = false; // Play was pressed before the race was ready
    this.ready = false;
    this.tick = this.tick.bind(this);
    $('race-form').addEventListener('submit', (e) => { e.preventDefault(); this.load(); });
    $('race-play').addEventListener('click', () => (this.playing || this.wantPlay ? this.pause() : this.play()));
    $('race-speed').addEventListener('input', () => { this.readSpeed(); this.onURL(); });
    this.readSpeed();
  }

  readSpeed() {
    this.seconds = raceSeconds(Number($('race-speed').value));
    const text = t('race.speed', { Seconds: Math.round(this.seconds) });
    $('race-speed-value').textContent = text;
    $('race-speed').setAttribute('aria-valuetext', text);
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
    if (params.get('speed')) {
      $('race-speed').value = params.get('speed');
      this.readSpeed();
    }
    if (!this.lanes.length || params.get('algos')) this.load();
  }

  leave() { this.pause(); }

  // relang writes the panel again in the language chosen: the lanes'
  // titles (the strategies' in that language), the status, the boards.
  async relang() {
    this.readSpeed();
    this.showPlaying(this.playing || this.wantPlay);
    await strategies.load();
    for (const lane of this.lanes) lane.title.textContent = t('race.lane', { Algo: lane.algo, Title: strategies.lesson(lane.algo).title });
    if (this.ready) {
      status($('race-status'), 'race.ready', { List: list(this.algos), N: this.n });
      this.draw();
    }
  }

  urlState() { return { n: this.n, algos: (this.algos || []).join(','), speed: $('race-speed').value }; }

  async load() {
    const n = readInt('race-n', ...this.range);
    const algos = [...$('race-algos').querySelectorAll('input:checked')].map((i) => i.value);
    if (n === null) return;
    if (algos.length < 2 || algos.length > 4) {
      status($('race-status'), 'race.choose', {}, 'error');
      return;
    }
    this.pause();
    if (this.abort) this.abort.abort();
    const abort = new AbortController();
    Object.assign(this, { abort, n, algos, clock: 0, measured: null, ready: false });
    // The times, measured while the traces load; the result waits for them.
    api.getJSON('/api/compare', { n, algos: algos.join(',') }, { signal: abort.signal })
      .then((rows) => { this.measured = new Map(rows.map((r) => [r.algorithm, r])); })
      .catch((err) => { if (!abort.signal.aborted) this.measured = err; })
      .finally(() => { if (!abort.signal.aborted && this.ready) this.draw(); });
    this.onURL();
    $('race').dataset.state = 'loading';
    status($('race-status'), 'race.loading');
    $('race-boards').replaceChildren();
    this.lanes = algos.map((algo) => this.lane(algo, n));
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
    this.ready = true;
    $('race').dataset.state = 'ready';
    status($('race-status'), 'race.ready', { List: list(algos), N: n });
    this.draw();
    if (this.wantPlay) this.play();
  }

  // lane makes the board, bar and counters of one strategy.
  lane(algo, n) {
    const fig = document.createElement('section');
    fig.className = 'lane box';
    fig.dataset.algo = algo;
    const h = document.createElement('h3');
    h.textContent = t('race.lane', { Algo: algo, Title: strategies.lesson(algo).title });
    const board = document.createElement('div');
    const bar = document.createElement('div');
    bar.className = 'race-bar';
    bar.setAttribute('aria-hidden', 'true'); // the counters say it in words
    const fill = document.createElement('span');
    bar.append(fill);
    const counters = document.createElement('p');
    counters.className = 'lane-counters';
    fig.append(h, board, bar, counters);
    $('race-boards').append(fig);
    const b = new Board(board, { labelKey: 'race.board', labelArgs: { Algo: algo } });
    b.setSize(n);
    return { algo, title: h, board: b, fill, counters, trace: new TraceStore(n), shown: -1 };
  }

  play() {
    if (!this.ready) {
      // Pressed while the searches load: the race starts when they are in.
      this.wantPlay = this.lanes.length > 0;
      this.showPlaying(this.wantPlay);
      if (this.wantPlay) status($('race-status'), 'race.loading.play');
      return;
    }
    this.wantPlay = false;
    if (this.clock >= this.total) this.clock = 0; // a finished race runs again
    this.playing = true;
    this.last = performance.now();
    this.showPlaying(true);
    $('race').dataset.state = 'playing';
    requestAnimationFrame(this.tick);
  }

  pause() {
    this.playing = false;
    this.wantPlay = false;
    this.showPlaying(false);
    if (this.ready) $('race').dataset.state = this.clock >= this.total ? 'end' : 'paused';
  }

  showPlaying(on) {
    $('race-play').textContent = on ? t('race.pause') : t('race.play');
    $('race-play').setAttribute('aria-pressed', String(on));
  }

  // tick moves the reads clock so that the whole race takes the time the
  // speed slider sets, however many reads the slowest needs.
  tick(now) {
    if (!this.playing) return;
    this.clock = Math.min(this.total, this.clock + (now - this.last) / (1000 * this.seconds) * this.total);
    this.last = now;
    this.draw();
    if (this.clock >= this.total) this.pause();
    else requestAnimationFrame(this.tick);
  }

  // draw shows each lane at the last step whose reads are within the clock;
  // a lane that has finished shows its last solution.
  draw() {
    for (const lane of this.lanes) this.drawLane(lane);
    this.drawResult();
  }

  drawLane(lane) {
    const trace = lane.trace;
    let lo = -1;
    let hi = trace.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (trace.reads(mid) <= this.clock) lo = mid;
      else hi = mid - 1;
    }
    lane.shown = lo;
    const done = lo === trace.length - 1 && lane.end && lane.end.complete;
    const e = trace.event(lo);
    const sols = trace.solutions;
    const keep = done && sols.length ? trace.event(sols[sols.length - 1]) : e;
    const queens = keep ? keep.queens : new Array(this.n).fill(0);
    lane.board.draw({
      square: (r, c) => (queens[r - 1] === c ? { classes: ['queen'], label: t('race.square.queen') } : { classes: [], label: t('race.square.empty') }),
      lines: !done && e && e.kind === 'reject' ? [{ from: [e.by.row, e.by.col], to: [e.row, e.col], kind: 'attack' }] : [],
    });
    const c = e ? e.counters : { reads: 0, placed: 0, rejected: 0, solutions: 0 };
    const args = { Reads: c.reads, Placed: c.placed, Rejected: c.rejected, Solutions: c.solutions };
    lane.counters.textContent = t(done ? 'race.counters.done' : 'race.counters', args);
    lane.fill.style.width = `${(100 * c.reads) / Math.max(this.total || 1, 1)}%`;
    lane.board.el.classList.toggle('solved', !!done && sols.length > 0);
    lane.board.el.closest('.lane').dataset.done = done ? 'true' : 'false';
  }

  // drawResult ranks the strategies at the end of the race.
  drawResult() {
    const end = this.ready && this.clock >= this.total && this.lanes.length;
    $('race-result').hidden = !end;
    $('race-times').hidden = !end;
    if (!end) {
      $('race-summary').textContent = '';
      return;
    }
    const rows = this.ranked();
    const best = rows[0];
    const worst = rows[rows.length - 1];
    $('race-summary').textContent = t('race.summary', {
      Best: best.algo, Reads: best.reads, Worst: worst.algo, Ratio: ratio(worst.reads, best.reads),
    });
    this.table(rows);
    $('race-times').textContent = this.timesNote();
  }

  // ranked are the lanes' final counters, by reads, then placements, then
  // tries: counts no machine changes.
  ranked() {
    const rows = this.lanes.map((l) => {
      const c = l.trace.event(l.trace.length - 1).counters;
      const row = this.measured instanceof Map ? this.measured.get(l.algo) : null;
      return { algo: l.algo, reads: c.reads, placed: c.placed, tries: c.tries, complete: !!(l.end && l.end.complete), time: timeOf(row) };
    });
    return rows.sort((a, b) => a.reads - b.reads || a.placed - b.placed || a.tries - b.tries);
  }

  // table writes the ranking: one row a strategy, its counters, its reads
  // against the fewest, and its time where it stands out of its noise.
  table(rows) {
    const best = rows[0];
    const fastest = rows.filter((r) => clear(r.time)).sort((a, b) => a.time.median - b.time.median)[0];
    const head = document.createElement('tr');
    for (const k of ['rank', 'strategy', 'reads', 'ratio', 'placed', 'tries', 'time']) head.append(cell('th', t(`race.col.${k}`), 'col'));
    const body = rows.map((r, i) => {
      const tr = document.createElement('tr');
      tr.dataset.algo = r.algo;
      tr.append(cell('td', int(i + 1)), cell('th', r.algo + (r.complete ? '' : ` ${t('race.cut')}`), 'row'), cell('td', int(r.reads)),
        cell('td', r === best ? '1 ×' : `${ratio(r.reads, best.reads)} ×`), cell('td', int(r.placed)), cell('td', int(r.tries)),
        cell('td', this.timeText(r, fastest)));
      return tr;
    });
    const table = $('race-table');
    table.replaceChildren(document.createElement('thead'), document.createElement('tbody'));
    table.tHead.append(head);
    table.tBodies[0].append(...body);
  }

  // timeText is a strategy's time: its median and quartiles where they
  // stand out of the noise, and its ratio to the fastest where their
  // quartiles do not overlap.
  timeText(r, fastest) {
    if (!(this.measured instanceof Map)) return t(this.measured ? 'race.time.failed' : 'race.time.measuring');
    const tm = r.time;
    if (!tm) return t('race.time.none');
    const range = { Q1: runTime(tm.q1), Q3: runTime(tm.q3) };
    if (tm.samples < minSamples) return t('race.time.few', { Time: runTime(tm.median), Samples: tm.samples });
    if (!clear(tm)) return t('race.time.noise', range);
    const text = t('race.time', { Median: runTime(tm.median), ...range });
    if (!fastest || fastest.algo === r.algo || tm.q1 <= fastest.time.q3) return text;
    return t('race.time.ratio', { Time: text, Ratio: ratio(tm.median, fastest.time.median), Fastest: fastest.algo });
  }

  timesNote() {
    if (!this.measured) return t('race.times.measuring');
    if (!(this.measured instanceof Map)) return t('race.times.failed', { Error: this.measured.message });
    const samples = Math.min(...[...this.measured.values()].map((r) => r.samples || 1));
    return t(api.kind === 'wasm' ? 'race.times.browser' : 'race.times.server', { Samples: samples });
  }
}

function cell(tag, text, scope) {
  const el = document.createElement(tag);
  if (scope) el.scope = scope;
  el.textContent = text;
  return el;
}

// ratio writes v / w to one decimal.
const ratio = (v, w) => (v / Math.max(w, 1e-12)).toFixed(1);
