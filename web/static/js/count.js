// Count: the counting engine as a job on the server, with live progress, an
// estimate of the time left, and a Cancel that stops what was started. An N
// past the page's limit that the command line counts gets that command. A
// server that goes away while it counts (its stream breaks, or the page's
// heartbeat goes unanswered) stops the count: the panel says so, with the
// work done, and offers to count again.

import * as api from './api.js';
import { readInt, setRange, showError } from './field.js';
import { $, duration, group, setStatus } from './text.js';

export class CountPanel {
  constructor(limits, onURL) {
    this.onURL = onURL;
    this.range = setRange('count-n', 1, limits.max_count_n);
    this.engineMaxN = limits.engine_max_n; // the largest N the command line counts
    this.job = null;     // {id, abort} of the count running
    this.busy = false;   // a start is on its way: a second click starts nothing
    $('count-form').addEventListener('submit', (e) => { e.preventDefault(); this.start(); });
    $('count-cancel').addEventListener('click', () => this.cancel());
    $('count-retry').addEventListener('click', () => {
      $('count-n').value = this.lastN;
      this.start();
    });
    api.onReachability((up) => {
      if (!up && this.job && this.job.id) {
        this.lost = true;
        this.job.abort.abort();
      }
    });
  }

  enter(params) {
    if (params.get('n')) $('count-n').value = params.get('n');
    $('count-torus').checked = params.get('torus') === '1';
    $('count-super').checked = params.get('super') === '1';
  }

  leave() {}

  urlState() {
    const q = { n: $('count-n').value };
    if ($('count-torus').checked) q.torus = 1;
    if ($('count-super').checked) q.super = 1;
    return q;
  }

  // variant is the board and piece asked for, as /api/count takes them.
  variant() {
    const v = {};
    if ($('count-torus').checked) v.torus = true;
    if ($('count-super').checked) v.super = true;
    return v;
  }

  setRunning(on) {
    $('count-start').disabled = on;
    $('count-cancel').disabled = !on;
  }

  async start() {
    if (this.busy || this.job) return;
    if (this.tooBig()) return;
    const n = readInt('count-n', ...this.range);
    if (n === null) return;
    this.busy = true;
    this.lastN = n;
    this.lost = false;
    this.done = null;
    $('count-retry').hidden = true;
    this.setRunning(true);
    this.onURL();
    $('count-result').hidden = true;
    $('count-progress').value = 0;
    setStatus($('count-status'), 'Starting…');
    const abort = new AbortController();
    this.job = { id: null, abort };
    let job;
    try {
      job = await api.postJSON('/api/count', { n, ...this.variant() }, { signal: abort.signal });
    } catch (err) {
      this.busy = false;
      if (!abort.signal.aborted) setStatus($('count-status'), err.message, 'error');
      this.finish(abort, 'error');
      return;
    }
    this.busy = false;
    if (abort.signal.aborted) {
      // Cancel was pressed while the start was on its way.
      api.deleteJSON(`/api/count/${job.id}`).catch(() => {});
      return;
    }
    this.job.id = job.id;
    $('count').dataset.state = 'running';
    this.finish(abort, await this.follow(job, abort));
  }

  // tooBig says, for an N past this page's limit that the engine counts,
  // where to count it: the command line.
  tooBig() {
    const raw = $('count-n').value.trim();
    const n = Number(raw);
    const max = this.range[1];
    if (!/^\d+$/.test(raw) || n <= max || n > this.engineMaxN) return false;
    const where = api.kind === 'wasm'
      ? `N = ${n} is too big to count in a browser (this page counts up to ${max}).`
      : `N = ${n} is more than this server counts (up to ${max}).`;
    const flags = Object.keys(this.variant()).map((f) => ` --${f}`).join('');
    showError($('count-n'), `${where} Count it on your own machine, on every core, with the command line:`, `nqueens count ${n}${flags}`);
    return true;
  }

  // follow reads the job's events until its end; a stream cut off by the
  // server's stream time limit is connected again.
  async follow(job, abort) {
    let state = 'running';
    try {
      for (let cut = true; cut && state === 'running' && !abort.signal.aborted;) {
        cut = false;
        await api.stream(job.events, {}, (name, d) => {
          if (name === 'progress') this.progress(d);
          else if (name === 'result') { state = 'done'; this.result(d); }
          else if (name === 'stopped') {
            state = d.state;
            setStatus($('count-status'), d.error, d.state === 'cancelled' ? '' : 'error');
          } else if (name === 'error') cut = true;
        }, { signal: abort.signal });
      }
      if (state === 'running' && (!abort.signal.aborted || this.lost)) state = this.stopped();
    } catch (err) {
      if (this.lost || err.status === 0) state = this.stopped();
      else if (!abort.signal.aborted) {
        state = 'error';
        setStatus($('count-status'), err.message, 'error');
      }
    }
    return state;
  }

  // stopped says that the count stopped with the server, how far it got,
  // and offers to count again.
  stopped() {
    const d = this.done;
    const far = d ? ` after ${group(d.units_done)} of ${group(d.units)} work units (${d.seconds.toFixed(1)} s)` : '';
    const who = api.kind === 'wasm' ? 'solver' : 'server';
    setStatus($('count-status'), `The ${who} stopped answering: the count of N = ${this.lastN} stopped${far}. Retry counts it again from the start once the ${who} is back.`, 'error');
    $('count-eta').textContent = '';
    $('count-retry').hidden = false;
    return 'stopped';
  }

  progress(d) {
    this.done = d;
    $('count-progress').max = d.units;
    $('count-progress').value = d.units_done;
    // The time left from this run's rate of work units; units differ in
    // size, so it is rough until many are done.
    let eta = 'estimating the time left…';
    if (d.units_done > 0 && d.seconds > 0) {
      const left = d.seconds / d.units_done * (d.units - d.units_done);
      eta = `about ${duration(left)} left`;
    }
    setStatus($('count-status'), `Counting N = ${d.n}: ${group(d.units_done)} of ${group(d.units)} work units, ${group(d.nodes)} nodes, ${d.seconds.toFixed(1)} s; ${eta}.`);
    $('count-eta').textContent = eta;
  }

  result(d) {
    $('count-progress').value = $('count-progress').max;
    $('count-total').textContent = group(d.total);
    $('count-unique').textContent = group(d.unique);
    $('count-nodes').textContent = group(d.nodes);
    $('count-seconds').textContent = d.seconds.toFixed(3);
    if (d.piece === undefined) {
      $('count-reference-name').textContent = 'published count';
      $('count-reference').textContent = d.reference === null ? 'not published' : d.matches ? 'matches OEIS A000170 and A002562' : 'DOES NOT MATCH the published count';
    } else {
      // A variant: the sequences its numbers are terms of, whether the
      // server checked them against the published terms (a count that
      // differs fails), and which symmetries its classes are counted under.
      const what = `${d.piece}s${d.torus ? ' on a torus' : ''}`;
      const seqs = `${d.oeis}${d.oeis_unique && d.reference && d.reference.unique !== null ? ` and ${d.oeis_unique}` : ''}`;
      $('count-reference-name').textContent = 'OEIS';
      $('count-reference').textContent = !d.oeis ? `no OEIS sequence of ${what} in nqueens' table`
        : d.matches ? `matches ${seqs} (solutions of ${what}${d.oeis_unique ? ', and their classes' : ''})`
          : `solutions of ${what}: a term of ${d.oeis} not published, so not checked`;
      $('count-unique').textContent += ` (under the ${d.symmetries} symmetries of the square${d.torus ? '; turns of the torus not merged' : ''})`;
    }
    $('count-result').hidden = false;
    $('count-eta').textContent = '';
    setStatus($('count-status'), `Counted ${d.piece === undefined ? '' : `${d.piece}s${d.torus ? ' on a torus' : ''}, `}N = ${d.n} on ${d.workers} worker${d.workers === 1 ? '' : 's'}.`, 'good');
  }

  finish(abort, state) {
    if (!this.job || this.job.abort !== abort) return;
    this.job = null;
    this.setRunning(false);
    $('count').dataset.state = state;
  }

  async cancel() {
    const job = this.job;
    if (!job) return;
    $('count-cancel').disabled = true;
    job.abort.abort();
    this.job = null;
    if (job.id) {
      try {
        const st = await api.deleteJSON(`/api/count/${job.id}`);
        setStatus($('count-status'), `Cancelled: the ${api.kind === 'wasm' ? 'solver' : 'server'} stopped the count (${st.state}).`);
      } catch (err) {
        setStatus($('count-status'), err.message, 'error');
      }
    } else {
      setStatus($('count-status'), 'Cancelled before the count started.');
    }
    $('count-eta').textContent = '';
    this.setRunning(false);
    $('count').dataset.state = 'cancelled';
  }
}
