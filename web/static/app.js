// nqueens page: plain JavaScript, no framework, no build step. It talks to
// the server only through the JSON API under /api/ (docs/api.md). Rows and
// columns are 1-based everywhere here, as in the API.
'use strict';

const $ = (id) => document.getElementById(id);
const fmt = (v) => Number(v).toLocaleString('en-US');
// Big counts arrive as decimal strings; group their digits without Number.
const fmtBig = (s) => String(s).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

let limits = null; // GET /api/limits

// ---------------------------------------------------------------- API ---

// api fetches a JSON endpoint and throws an Error carrying the server's
// message for any status other than 2xx.
async function api(path, options = {}) {
  const res = await fetch(path, options);
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    throw new Error((body && body.error) || `${res.status} ${res.statusText}`);
  }
  return body;
}

function postJSON(path, value, signal) {
  return api(path, {
    method: 'POST', signal,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(value),
  });
}

// streamEvents reads a text/event-stream response with fetch (rather than
// EventSource, which reconnects by itself when a stream ends) and calls
// onEvent(name, data) for each event. It resolves when the stream ends.
async function streamEvents(url, onEvent, signal) {
  const res = await fetch(url, { signal });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw new Error((body && body.error) || `${res.status} ${res.statusText}`);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += value;
    let start = 0;
    let end;
    while ((end = buf.indexOf('\n\n', start)) >= 0) {
      let name = 'message';
      let data = '';
      for (const line of buf.slice(start, end).split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      start = end + 2;
      if (data) onEvent(name, JSON.parse(data));
    }
    buf = buf.slice(start);
  }
}

function setStatus(el, text, kind = '') {
  el.textContent = text;
  el.className = 'status' + (kind ? ' ' + kind : '');
}

// --------------------------------------------------------------- Grid ---

// Grid is an n×n board of cells in a CSS grid. Cells are buttons when the
// board is clickable (one tab stop, arrow keys move between cells).
class Grid {
  constructor(el, onClick) {
    this.el = el;
    this.onClick = onClick;
    this.n = 0;
    this.cells = [];
    if (onClick) {
      el.addEventListener('keydown', (e) => this.keydown(e));
    }
  }

  setSize(n) {
    if (n === this.n) return;
    this.n = n;
    this.el.style.setProperty('--n', n);
    this.el.replaceChildren();
    this.cells = [];
    for (let r = 1; r <= n; r++) {
      for (let c = 1; c <= n; c++) {
        const cell = document.createElement(this.onClick ? 'button' : 'div');
        cell.className = (r + c) % 2 ? 'cell dark' : 'cell';
        cell.dataset.row = r;
        cell.dataset.col = c;
        if (this.onClick) {
          cell.type = 'button';
          cell.tabIndex = r === 1 && c === 1 ? 0 : -1;
          cell.setAttribute('aria-label', `row ${r}, column ${c}`);
          cell.addEventListener('click', () => this.onClick(r, c));
        }
        this.cells.push(cell);
        this.el.append(cell);
      }
    }
  }

  cell(r, c) { return this.cells[(r - 1) * this.n + (c - 1)]; }

  // draw shows queens (1-based column per row, 0 for none) with the
  // squares they attack shaded; marks maps "r,c" to extra classes.
  draw(queens, marks = {}, shade = true) {
    const n = this.n;
    for (let r = 1; r <= n; r++) {
      for (let c = 1; c <= n; c++) {
        const cell = this.cell(r, c);
        const cls = [(r + c) % 2 ? 'cell dark' : 'cell'];
        if (queens[r - 1] === c) cls.push('queen');
        else if (shade && attacked(queens, r, c)) cls.push('attacked');
        const m = marks[r + ',' + c];
        if (m) cls.push(m);
        const name = cls.join(' ');
        if (cell.className !== name) cell.className = name;
      }
    }
  }

  keydown(e) {
    const cell = e.target.closest('.cell');
    if (!cell) return;
    let r = Number(cell.dataset.row);
    let c = Number(cell.dataset.col);
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (!moves[e.key]) return;
    e.preventDefault();
    e.stopPropagation();
    r = Math.min(this.n, Math.max(1, r + moves[e.key][0]));
    c = Math.min(this.n, Math.max(1, c + moves[e.key][1]));
    cell.tabIndex = -1;
    const next = this.cell(r, c);
    next.tabIndex = 0;
    next.focus();
  }
}

// attacked reports whether a queen of the board attacks square (r, c).
function attacked(queens, r, c) {
  for (let qr = 1; qr <= queens.length; qr++) {
    const qc = queens[qr - 1];
    if (qc === 0 || qr === r) continue;
    if (qc === c || qr - qc === r - c || qr + qc === r + c) return true;
  }
  return false;
}

// --------------------------------------------------------- Board view ---

// The board view plays a classic search from the events of GET /api/trace.
// Every event carries the whole board and the counters after it, so that
// stepping back is showing the previous event.
const trace = {
  grid: null,
  events: [],   // every event received so far
  pos: -1,      // index of the event shown; -1 is the empty board
  n: 6,
  loading: false,
  end: null,    // the stream's "end" event
  playing: false,
  speed: 10,    // events per second
  budget: 0,    // fractional steps owed by the player
  last: 0,
  abort: null,
};

// The counters before the first event: the empty board is one node.
const zeroCounters = { nodes: 1, tries: 0, placed: 0, rejected: 0, backtracks: 0, solutions: 0 };

function describe(e) {
  switch (e.kind) {
    case 'place': case 'remove':
      return `${e.kind} row ${e.row}, col ${e.col}`;
    case 'reject':
      return `reject row ${e.row}, col ${e.col}: attacked by queen at row ${e.by.row}, col ${e.by.col} (${e.attack})`;
    case 'solution':
      return `solution ${e.counters.solutions}: ${e.queens.join(' ')}`;
  }
  return e.kind;
}

function showTrace() {
  const e = trace.pos >= 0 ? trace.events[trace.pos] : null;
  const queens = e ? e.queens : new Array(trace.n).fill(0);
  const marks = {};
  if (e && e.kind === 'reject') {
    marks[e.row + ',' + e.col] = 'rejected';
    marks[e.by.row + ',' + e.by.col] = 'attacker';
  }
  trace.grid.draw(queens, marks);
  trace.grid.el.classList.toggle('solved', !!e && e.kind === 'solution');
  const total = trace.loading ? `${fmt(trace.events.length)}+` : fmt(trace.events.length);
  $('trace-step').textContent = e ? `Step ${fmt(e.step)} of ${total}: ${describe(e)}` : `Empty board (${total} steps)`;
  const c = e ? e.counters : zeroCounters;
  $('c-placed').textContent = fmt(c.placed);
  $('c-rejected').textContent = fmt(c.rejected);
  $('c-backtracks').textContent = fmt(c.backtracks);
  $('c-solutions').textContent = fmt(c.solutions);
  $('c-nodes').textContent = fmt(c.nodes);
  $('c-tries').textContent = fmt(c.tries);
  const stack = $('trace-stack');
  const items = [];
  queens.forEach((col, i) => {
    if (col > 0) {
      const li = document.createElement('li');
      li.textContent = `row ${i + 1}, col ${col}`;
      items.push(li);
    }
  });
  stack.replaceChildren(...items);
  const atEnd = trace.pos === trace.events.length - 1 && !trace.loading;
  $('btn-back').disabled = trace.pos < 0;
  $('btn-reset').disabled = trace.pos < 0;
  $('btn-step').disabled = atEnd;
  const play = $('btn-play');
  play.textContent = trace.playing ? '❚❚ Pause' : '▶ Play';
  play.disabled = atEnd && !trace.playing;
  $('board').dataset.state = atEnd ? 'end' : (trace.playing ? 'playing' : 'paused');
}

function stepTrace(delta) {
  const next = Math.max(-1, Math.min(trace.events.length - 1, trace.pos + delta));
  if (next === trace.pos) return false;
  trace.pos = next;
  return true;
}

function setPlaying(on) {
  trace.playing = on;
  if (on) {
    if (trace.pos === trace.events.length - 1 && !trace.loading) return setPlaying(false);
    trace.last = performance.now();
    trace.budget = 1; // show the next step at once
    requestAnimationFrame(tick);
  }
  showTrace();
}

// tick advances the player by speed × elapsed time, drawing once a frame
// however many steps that is.
function tick(now) {
  if (!trace.playing) return;
  trace.budget += (now - trace.last) / 1000 * trace.speed;
  trace.last = now;
  const steps = Math.floor(trace.budget);
  if (steps > 0) {
    trace.budget -= steps;
    // Waiting for the stream to catch up costs no steps later.
    if (!stepTrace(steps)) trace.budget = 0;
    if (trace.pos === trace.events.length - 1 && !trace.loading) {
      trace.playing = false;
    }
    showTrace();
  }
  if (trace.playing) requestAnimationFrame(tick);
}

function setSpeed() {
  // The slider is logarithmic: 0 → 1 event/s, 100 → 2000 events/s.
  const v = Number($('speed').value);
  trace.speed = Math.round(Math.pow(2000, v / 100));
  $('speed-value').textContent = `${fmt(trace.speed)} steps/s`;
}

async function loadTrace() {
  const n = Number($('trace-n').value);
  const algo = $('trace-algo').value || 'stack';
  if (trace.abort) trace.abort.abort();
  const abort = new AbortController();
  Object.assign(trace, { abort, events: [], pos: -1, n, loading: true, end: null, playing: false });
  trace.grid.setSize(n);
  setStatus($('trace-status'), 'Loading the search…');
  showTrace();
  const limit = Math.min(limits.max_trace_events, 100000);
  let cutOff = '';
  try {
    await streamEvents(`/api/trace?n=${n}&algo=${encodeURIComponent(algo)}&limit=${limit}`, (name, data) => {
      if (name === 'end') {
        trace.end = data;
      } else if (name === 'error') {
        cutOff = data.error;
      } else {
        trace.events.push(data);
      }
    }, abort.signal);
    trace.loading = false;
    const end = trace.end;
    if (!end) {
      // The stream ended without its "end" event: the server's stream time
      // limit, or a lost connection. The steps received can still be played.
      setStatus($('trace-status'), `${cutOff || 'The connection was lost'}; ${fmt(trace.events.length)} steps received.`, 'error');
    } else if (end.truncated) {
      setStatus($('trace-status'), `The first ${fmt(end.events)} steps of the search: the page plays at most ${fmt(limit)}.`);
    } else {
      setStatus($('trace-status'), `${algo} on ${n}×${n}: the whole search, ${fmt(trace.events.length)} steps.`);
    }
  } catch (err) {
    if (abort.signal.aborted) return;
    trace.loading = false;
    setStatus($('trace-status'), err.message, 'error');
  }
  if (trace.abort === abort) trace.abort = null;
  showTrace();
}

async function initBoard() {
  trace.grid = new Grid($('trace-board'));
  $('trace-n').max = limits.max_trace_n;
  const algos = await api('/api/algorithms');
  const select = $('trace-algo');
  for (const a of algos.filter((a) => a.traceable)) {
    const opt = document.createElement('option');
    opt.value = a.name;
    opt.textContent = a.name;
    opt.title = a.description;
    if (a.name === 'stack') opt.selected = true;
    select.append(opt);
  }
  $('trace-form').addEventListener('submit', (e) => { e.preventDefault(); loadTrace(); });
  select.addEventListener('change', loadTrace);
  $('btn-play').addEventListener('click', () => setPlaying(!trace.playing));
  $('btn-step').addEventListener('click', () => { setPlaying(false); stepTrace(1); showTrace(); });
  $('btn-back').addEventListener('click', () => { setPlaying(false); stepTrace(-1); showTrace(); });
  $('btn-reset').addEventListener('click', () => { setPlaying(false); trace.pos = -1; showTrace(); });
  $('speed').addEventListener('input', setSpeed);
  setSpeed();
  document.addEventListener('keydown', boardKeys);
  await loadTrace();
}

// boardKeys: space plays and pauses, arrows step, Home resets, End jumps to
// the last step; keys typed into a form field are left alone.
function boardKeys(e) {
  if ($('board').hidden || e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t.closest && t.closest('input, select, textarea, dialog')) return;
  const actions = {
    ' ': () => setPlaying(!trace.playing),
    ArrowRight: () => { setPlaying(false); stepTrace(1); },
    ArrowLeft: () => { setPlaying(false); stepTrace(-1); },
    Home: () => { setPlaying(false); trace.pos = -1; },
    End: () => { setPlaying(false); trace.pos = trace.events.length - 1; },
  };
  const act = actions[e.key];
  if (!act) return;
  e.preventDefault();
  act();
  showTrace();
}

// ------------------------------------------------------------ Gallery ---

const gallery = { data: null, page: 0, perPage: 24 };

// drawThumb draws a small board on a canvas: the squares and a dot per queen.
function drawThumb(canvas, queens) {
  const n = queens.length;
  const px = Math.max(4, Math.floor(96 / n));
  const scale = window.devicePixelRatio || 1;
  canvas.width = canvas.height = n * px * scale;
  const g = canvas.getContext('2d');
  g.scale(scale, scale);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      g.fillStyle = (r + c) % 2 ? '#b58863' : '#f0d9b5';
      g.fillRect(c * px, r * px, px, px);
    }
    g.fillStyle = '#1d2230';
    g.beginPath();
    g.arc((queens[r] - 0.5) * px, (r + 0.5) * px, px * 0.36, 0, 2 * Math.PI);
    g.fill();
  }
}

async function loadGallery() {
  const n = Number($('gallery-n').value);
  setStatus($('gallery-summary'), 'Loading…');
  $('gallery-classes').replaceChildren();
  try {
    gallery.data = await api(`/api/solutions?n=${n}`);
  } catch (err) {
    gallery.data = null;
    setStatus($('gallery-summary'), err.message, 'error');
    showGalleryPage();
    return;
  }
  const d = gallery.data;
  gallery.page = 0;
  setStatus($('gallery-summary'), d.total === 0
    ? `The ${n}×${n} board has no solution.`
    : `${fmt(d.total)} solution${d.total === 1 ? '' : 's'} of the ${n}×${n} board in ${fmt(d.unique)} symmetry class${d.unique === 1 ? '' : 'es'}. The framed board of each class is its canonical one (the smallest); click any board to see it large.`);
  showGalleryPage();
}

function showGalleryPage() {
  const d = gallery.data;
  const box = $('gallery-classes');
  box.replaceChildren();
  const pages = d ? Math.ceil(d.classes.length / gallery.perPage) : 0;
  for (const id of ['gallery-pager-top', 'gallery-pager']) renderPager($(id), pages);
  if (!d) return;
  const first = gallery.page * gallery.perPage;
  d.classes.slice(first, first + gallery.perPage).forEach((cls, i) => {
    const div = document.createElement('div');
    div.className = 'class';
    const h = document.createElement('h3');
    h.textContent = `Class ${first + i + 1}: ${cls.size} board${cls.size === 1 ? '' : 's'}, canonical ${cls.canonical.join(' ')}`;
    const orbit = document.createElement('div');
    orbit.className = 'orbit';
    cls.orbit.forEach((q, j) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = j === 0 ? 'thumb canonical' : 'thumb';
      b.setAttribute('aria-label', `solution ${q.join(' ')}${j === 0 ? ' (canonical)' : ''}`);
      const canvas = document.createElement('canvas');
      drawThumb(canvas, q);
      b.append(canvas);
      b.addEventListener('click', () => showSolution(q, first + i + 1, j === 0));
      orbit.append(b);
    });
    div.append(h, orbit);
    box.append(div);
  });
}

function renderPager(el, pages) {
  el.replaceChildren();
  if (pages <= 1) return;
  const prev = document.createElement('button');
  prev.type = 'button';
  prev.textContent = '‹ Previous';
  prev.disabled = gallery.page === 0;
  prev.addEventListener('click', () => { gallery.page--; showGalleryPage(); });
  const next = document.createElement('button');
  next.type = 'button';
  next.textContent = 'Next ›';
  next.disabled = gallery.page >= pages - 1;
  next.addEventListener('click', () => { gallery.page++; showGalleryPage(); });
  const label = document.createElement('span');
  label.textContent = `Page ${gallery.page + 1} of ${pages}`;
  el.append(prev, label, next);
}

// showSolution opens one board large, drawn by the server (GET /api/render).
function showSolution(queens, classNo, canonical) {
  const list = queens.join(' ');
  $('gallery-dialog-title').textContent = `Class ${classNo}${canonical ? ', canonical board' : ''}`;
  const img = $('gallery-dialog-img');
  img.src = `/api/render?queens=${queens.join(',')}&format=svg`;
  img.alt = `Solution ${list}`;
  $('gallery-dialog-list').textContent = list;
  $('gallery-dialog').showModal();
}

function initGallery() {
  $('gallery-n').max = limits.max_gallery_n;
  $('gallery-form').addEventListener('submit', (e) => { e.preventDefault(); loadGallery(); });
  return loadGallery();
}

// -------------------------------------------------------------- Count ---

const counting = { id: null, abort: null };

async function startCount() {
  const n = Number($('count-n').value);
  $('count-result').hidden = true;
  $('count-progress').value = 0;
  setStatus($('count-status'), 'Starting…');
  let job;
  try {
    job = await postJSON('/api/count', { n });
  } catch (err) {
    setStatus($('count-status'), err.message, 'error');
    return;
  }
  const abort = new AbortController();
  Object.assign(counting, { id: job.id, abort });
  $('count-start').disabled = true;
  $('count-cancel').disabled = false;
  $('count').dataset.state = 'running';
  let state = 'running';
  try {
    // A stream cut off by the server's stream time limit ends with an
    // "error" event while the job runs on: connect again to follow it.
    for (let cut = true; cut && state === 'running' && !abort.signal.aborted;) {
      cut = false;
      await streamEvents(job.events, (name, d) => {
        if (name === 'progress') {
          $('count-progress').max = d.units;
          $('count-progress').value = d.units_done;
          setStatus($('count-status'), `Counting N = ${d.n}: ${fmt(d.units_done)} of ${fmt(d.units)} work units, ${fmtBig(d.nodes)} nodes, ${d.seconds.toFixed(1)} s`);
        } else if (name === 'result') {
          state = 'done';
          $('count-progress').value = $('count-progress').max;
          $('count-total').textContent = fmtBig(d.total);
          $('count-unique').textContent = fmtBig(d.unique);
          $('count-nodes').textContent = fmtBig(d.nodes);
          $('count-seconds').textContent = d.seconds.toFixed(3);
          $('count-reference').textContent = { ok: 'matches OEIS A000170 and A002562', mismatch: 'DOES NOT MATCH the published count', none: 'not published' }[d.reference];
          $('count-result').hidden = false;
          setStatus($('count-status'), `Counted N = ${d.n} on ${d.workers} worker${d.workers === 1 ? '' : 's'}.`, 'good');
        } else if (name === 'stopped') {
          state = d.state;
          setStatus($('count-status'), d.error, d.state === 'cancelled' ? '' : 'error');
        } else if (name === 'error') {
          cut = true;
        }
      }, abort.signal);
    }
    if (state === 'running' && !abort.signal.aborted) {
      state = 'error';
      setStatus($('count-status'), 'The connection to the server was lost; the count stops when nobody follows it.', 'error');
    }
  } catch (err) {
    if (!abort.signal.aborted) setStatus($('count-status'), err.message, 'error');
  }
  if (counting.abort === abort) {
    Object.assign(counting, { id: null, abort: null });
    $('count-start').disabled = false;
    $('count-cancel').disabled = true;
    $('count').dataset.state = state;
  }
}

async function cancelCount() {
  const { id, abort } = counting;
  if (!id) return;
  $('count-cancel').disabled = true;
  try {
    const st = await api(`/api/count/${id}`, { method: 'DELETE' });
    setStatus($('count-status'), `Cancelled: the server stopped the count (${st.state}).`);
  } catch (err) {
    setStatus($('count-status'), err.message, 'error');
  }
  abort.abort();
  Object.assign(counting, { id: null, abort: null });
  $('count-start').disabled = false;
  $('count').dataset.state = 'cancelled';
}

function initCount() {
  $('count-n').max = limits.max_count_n;
  $('count-form').addEventListener('submit', (e) => { e.preventDefault(); startCount(); });
  $('count-cancel').addEventListener('click', cancelCount);
}

// ------------------------------------------------------------- Huge N ---

function hugeQuery() {
  const n = Number($('huge-n').value);
  const method = $('huge-method').value;
  let q = `n=${n}&method=${method}`;
  if (method === 'random') q += `&seed=${Number($('huge-seed').value) || 0}`;
  return q;
}

function solveHuge() {
  const q = hugeQuery();
  const n = Number($('huge-n').value);
  const img = $('huge-img');
  const t0 = performance.now();
  setStatus($('huge-status'), `Solving N = ${fmt(n)}…`);
  $('huge-figure').hidden = true;
  $('huge-downloads').hidden = true;
  img.onload = () => {
    const s = ((performance.now() - t0) / 1000).toFixed(2);
    setStatus($('huge-status'), `Solved and verified N = ${fmt(n)} in ${s} s (picture included).`, 'good');
    $('huge-caption').textContent = n > 1000
      ? `The ${fmt(n)}×${fmt(n)} board, downsampled: each pixel is a block of squares, dark where it holds a queen.`
      : `The ${fmt(n)}×${fmt(n)} board.`;
    $('huge-figure').hidden = false;
    $('huge-downloads').hidden = false;
    $('huge').dataset.state = 'done';
  };
  img.onerror = async () => {
    // An <img> does not show the error body; ask again for the message.
    let msg = 'The server could not draw this board.';
    try {
      const res = await fetch(`/api/solve?${q}&format=png`);
      const body = await res.json();
      msg = body.error || msg;
    } catch (_) { /* keep the generic message */ }
    setStatus($('huge-status'), msg, 'error');
    $('huge').dataset.state = 'error';
  };
  $('huge').dataset.state = 'loading';
  img.alt = `One solution of the ${n}×${n} board`;
  img.src = `/api/solve?${q}&format=png`;
  $('huge-dl-list').href = `/api/solve?${q}&format=list&download=1`;
  $('huge-dl-json').href = `/api/solve?${q}&format=json&download=1`;
  $('huge-dl-png').href = `/api/solve?${q}&format=png&download=1`;
}

function initHuge() {
  $('huge-n').max = Math.min(limits.max_solve_n, limits.max_render_n);
  $('huge-form').addEventListener('submit', (e) => { e.preventDefault(); solveHuge(); });
  const seed = () => { $('huge-seed').disabled = $('huge-method').value !== 'random'; };
  $('huge-method').addEventListener('change', seed);
  seed();
}

// ----------------------------------------------------------- Complete ---

const completion = { grid: null, n: 8, queens: [], blocked: new Set(), added: new Set() };

function resetCompletion() {
  const n = Number($('complete-n').value);
  Object.assign(completion, { n, queens: new Array(n).fill(0), blocked: new Set(), added: new Set() });
  completion.grid.setSize(n);
  $('complete').dataset.state = 'editing';
  setStatus($('complete-status'), 'Click squares to place queens (or blocks), then Complete.');
  showCompletion();
}

function showCompletion() {
  const marks = {};
  for (const key of completion.blocked) marks[key] = 'blocked';
  for (const key of completion.added) marks[key] = 'added';
  completion.grid.draw(completion.queens, marks);
  $('complete-list').textContent = completion.queens.join(' ');
  const st = $('complete').dataset.state;
  completion.grid.el.classList.toggle('solved', st === 'solved');
  completion.grid.el.classList.toggle('stuck', st === 'none');
}

function clickSquare(r, c) {
  const key = r + ',' + c;
  const mode = document.querySelector('input[name="complete-mode"]:checked').value;
  // Editing starts again from the user's own queens.
  for (const k of completion.added) completion.queens[Number(k.split(',')[0]) - 1] = 0;
  completion.added.clear();
  if (mode === 'block') {
    if (completion.blocked.has(key)) completion.blocked.delete(key);
    else {
      completion.blocked.add(key);
      if (completion.queens[r - 1] === c) completion.queens[r - 1] = 0;
    }
  } else {
    completion.queens[r - 1] = completion.queens[r - 1] === c ? 0 : c;
    completion.blocked.delete(key);
  }
  $('complete').dataset.state = 'editing';
  setStatus($('complete-status'), 'Click squares to place queens (or blocks), then Complete.');
  showCompletion();
}

async function completeBoard() {
  for (const k of completion.added) completion.queens[Number(k.split(',')[0]) - 1] = 0;
  completion.added.clear();
  const blocked = [...completion.blocked].map((k) => k.split(',').map(Number));
  setStatus($('complete-status'), 'Searching…');
  $('complete').dataset.state = 'searching';
  try {
    const res = await postJSON('/api/complete', { queens: completion.queens, blocked });
    if (res.exists) {
      res.queens.forEach((c, i) => {
        if (completion.queens[i] === 0) completion.added.add((i + 1) + ',' + c);
      });
      completion.queens = res.queens;
      $('complete').dataset.state = 'solved';
      setStatus($('complete-status'), `Completed: the solver added ${completion.added.size} queen${completion.added.size === 1 ? '' : 's'} (green).`, 'good');
    } else {
      $('complete').dataset.state = 'none';
      setStatus($('complete-status'), 'No completion exists: these queens and blocks leave no way to fill every row.', 'error');
    }
  } catch (err) {
    $('complete').dataset.state = 'error';
    setStatus($('complete-status'), err.message, 'error');
  }
  showCompletion();
}

function initComplete() {
  completion.grid = new Grid($('complete-board'), clickSquare);
  $('complete-n').max = Math.min(limits.max_complete_n, 20);
  $('complete-n').addEventListener('change', resetCompletion);
  $('complete-form').addEventListener('submit', (e) => { e.preventDefault(); completeBoard(); });
  $('complete-clear').addEventListener('click', resetCompletion);
  resetCompletion();
}

// ------------------------------------------------------------- Panels ---

const panels = ['board', 'gallery', 'count', 'huge', 'complete'];
const started = {};
const inits = { board: initBoard, gallery: initGallery, count: initCount, huge: initHuge, complete: initComplete };

// showPanel shows the panel named by the URL's #fragment, starting it the
// first time.
async function showPanel() {
  const name = panels.includes(location.hash.slice(1)) ? location.hash.slice(1) : 'board';
  for (const p of panels) $(p).hidden = p !== name;
  for (const a of document.querySelectorAll('nav a')) {
    if (a.dataset.panel === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (name !== 'board' && trace.playing) setPlaying(false);
  if (!started[name]) {
    started[name] = true;
    try {
      await inits[name]();
    } catch (err) {
      console.error(err);
    }
    $(name).dataset.ready = 'true';
  }
}

async function main() {
  try {
    limits = await api('/api/limits');
  } catch (err) {
    document.querySelector('main').textContent = `The server does not answer: ${err.message}`;
    return;
  }
  window.addEventListener('hashchange', showPanel);
  await showPanel();
  document.body.dataset.ready = 'true';
}

main();
