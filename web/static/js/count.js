// Count: the counting engine as a job on the server, with live progress, an
// estimate of the time left, and a Cancel that stops what was started. An N
// past the page's limit that the command line counts gets that command. A
// server that goes away while it counts (its stream breaks, or the page's
// heartbeat goes unanswered) stops the count: the panel says so, with the
// work done, and offers to count again.
//
// The panel says which engine counts the N in its field, and what that
// engine's work is: the server's /api/limits lists the engine of every N
// (count_engines, from count.Engine), and every event of a count names
// its engine. The join of half boards compares pairs of half boards; the
// tree search and the variants' search visit nodes of a search tree. The
// lesson's chapter 8 explains both.

import * as api from './api.js';
import { readInt, setRange, showError } from './field.js';
import { t, tn } from './i18n.js';
import { $, duration, group, setStatus, status } from './text.js';

// engineOf is the engine that counts n by the server's table, '' outside it.
export function engineOf(limits, n) {
  const r = (limits.count_engines || []).find((e) => n >= e.from && n <= e.to);
  return r ? r.engine : '';
}

// The engines' names as the catalogs key them: the variants' search is
// a search tree too.
const engineKey = (engine) => (engine === 'join' ? 'join' : engine === 'variant' ? 'variant' : 'tree');

export class CountPanel {
  constructor(limits, onURL) {
    this.onURL = onURL;
    this.limits = limits;
    this.range = setRange('count-n', 1, limits.max_count_n);
    this.engineMaxN = limits.engine_max_n; // the largest N the command line counts
    for (const id of ['count-n', 'count-torus', 'count-super']) $(id).addEventListener('input', () => this.how());
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
    this.how();
  }

  // relang writes the panel again in the language chosen: how it counts,
  // and the last result.
  relang() {
    this.how();
    if (this.last && !this.job) this.result(this.last);
  }

  // how says which engine counts the N of the field and what its work is,
  // with a link to the lesson's chapter on counting.
  how() {
    const n = Number($('count-n').value);
    const el = $('count-how');
    const variant = $('count-torus').checked || $('count-super').checked;
    const engine = variant ? 'variant' : engineOf(this.limits, n);
    el.dataset.engine = engine;
    const link = document.createElement('a');
    link.href = '?panel=lesson&chapter=8';
    link.textContent = t('count.how.link');
    if (!engine) {
      el.replaceChildren(t('count.how.none'), ' ', link);
      return;
    }
    el.replaceChildren(t(`count.how.${engineKey(engine)}`, { N: n }), ' ', link);
    $('count-nodes').previousElementSibling.textContent = t(`count.work.${engineKey(engine)}`);
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
    this.how();
    this.lost = false;
    this.done = null;
    $('count-retry').hidden = true;
    this.setRunning(true);
    this.onURL();
    $('count-result').hidden = true;
    $('count-progress').value = 0;
    status($('count-status'), 'count.starting');
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
    const flags = Object.keys(this.variant()).map((f) => ` --${f}`).join('');
    showError($('count-n'), t(api.kind === 'wasm' ? 'count.too-big.browser' : 'count.too-big.server', { N: n, Max: max }), `nqueens count ${n}${flags}`);
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
    const who = api.kind === 'wasm' ? 'solver' : 'server';
    const args = { N: this.lastN };
    if (d) Object.assign(args, { Done: d.units_done, Units: d.units, Seconds: d.seconds.toFixed(1) });
    setStatus($('count-status'), t(`count.lost.${who}${d ? '.after' : ''}`, args), 'error');
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
    let eta = t('count.eta.estimating');
    if (d.units_done > 0 && d.seconds > 0) {
      const left = d.seconds / d.units_done * (d.units - d.units_done);
      eta = t('count.eta.left', { Time: duration(left) });
    }
    setStatus($('count-status'), t(`count.progress.${engineKey(d.engine)}`,
      { N: d.n, Done: d.units_done, Units: d.units, Work: group(d.nodes), Seconds: d.seconds.toFixed(1), Eta: eta }));
    $('count-eta').textContent = eta;
  }

  result(d) {
    this.last = d;
    $('count-progress').value = $('count-progress').max;
    $('count-total').textContent = group(d.total);
    $('count-unique').textContent = group(d.unique);
    $('count-nodes').textContent = group(d.nodes);
    $('count-nodes').previousElementSibling.textContent = t(`count.work.${engineKey(d.engine)}`);
    $('count-seconds').textContent = d.seconds.toFixed(3);
    if (d.piece === undefined) {
      $('count-reference-name').textContent = t('count.reference.name');
      $('count-reference').textContent = t(d.reference === null ? 'count.reference.none' : d.matches ? 'count.reference.matches' : 'count.reference.differs', { Total: 'A000170', Unique: 'A002562' });
      setStatus($('count-status'), tn('count.counted', d.workers, { N: d.n }), 'good');
    } else {
      // A variant: the sequences its numbers are terms of, whether the
      // server checked them against the published terms (a count that
      // differs fails), and which symmetries its classes are counted under.
      const what = `${d.piece}${d.torus ? '.torus' : ''}`;
      const both = d.oeis_unique && d.reference && d.reference.unique !== null;
      $('count-reference-name').textContent = 'OEIS';
      $('count-reference').textContent = !d.oeis ? t(`count.oeis.none.${what}`)
        : d.matches ? t(`count.oeis.matches${both ? '.both' : ''}.${what}`, { Seq: d.oeis, Classes: d.oeis_unique })
          : t(`count.oeis.unpublished.${what}`, { Seq: d.oeis });
      $('count-unique').textContent = t(d.torus ? 'count.unique.torus' : 'count.unique.square', { Unique: group(d.unique), Symmetries: d.symmetries });
      setStatus($('count-status'), tn(`count.counted.${what}`, d.workers, { N: d.n }), 'good');
    }
    $('count-result').hidden = false;
    $('count-eta').textContent = '';
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
        status($('count-status'), api.kind === 'wasm' ? 'count.cancelled.solver' : 'count.cancelled.server', { State: t(`count.state.${st.state}`) });
      } catch (err) {
        setStatus($('count-status'), err.message, 'error');
      }
    } else {
      status($('count-status'), 'count.cancelled.before');
    }
    $('count-eta').textContent = '';
    this.setRunning(false);
    $('count').dataset.state = 'cancelled';
  }
}
