// The lesson: a guided path through the articles, one idea a chapter, with
// a live board beside the text (js/chapters.js lists the chapters).
//   /?panel=lesson&chapter=6&step=200
// Each chapter shows one to three short paragraphs whose numbers the
// project computes (facts.js), its board playing a real search (the trace
// of /api/trace, as the watch panel reads it) or boards built from the
// project's answers, one question to predict what comes next, answered
// from the trace or the answers themselves, and a line that says why the
// chapter's method costs what it costs. The board steps back and forward
// and plays at a speed; the keyboard does all of it (← and → step, space
// plays, the board's squares answer with Enter).

import { attackers, Board } from './board.js';
import { chapters } from './chapters.js';
import { Facts } from './facts.js';
import { int, t, tn } from './i18n.js';
import { fill } from './lang.js';
import * as strategies from './strategies.js';
import { $, setStatus } from './text.js';
import { Pace } from './timeline.js';
import { loadTrace } from './trace.js';
import { PLACE, REJECT, TraceStore } from './tracestore.js';

const counterNames = ['placed', 'rejected', 'tries', 'reads', 'solutions'];

// Where the board stands above the text (style.css), and the reader's
// wish for no motion.
const stacked = matchMedia('(max-width: 56rem)');
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

// The speed slider: 0 → 1 step a second, 100 → 200, on a log scale.
const stepsPerSecond = (v) => Math.round(200 ** (v / 100));

export class LessonPanel {
  constructor(limits, onURL) {
    this.onURL = onURL;
    this.limits = limits;
    this.facts = new Facts(limits);
    this.k = 0;          // the chapter shown, 0-based
    this.pos = -1;       // the step (trace) or board shown
    this.length = 0;
    this.playing = false;
    this.pace = new Pace();
    this.asking = false; // the board waits for the learner's square
    this.board = new Board($('lesson-board'), { labelKey: 'lesson.board.label', onActivate: (r, c) => this.answerSquare(r, c) });
    this.board.el.classList.remove('clickable');
    this.tick = this.tick.bind(this);
    $('lesson-back').addEventListener('click', () => { this.pause(); this.go(this.pos - 1); });
    $('lesson-step').addEventListener('click', () => { this.pause(); this.go(this.pos + 1); });
    $('lesson-play').addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    $('lesson-start').addEventListener('click', () => { this.pause(); this.go(-1); });
    $('lesson-speed').addEventListener('input', () => this.readSpeed());
    $('lesson-ask').addEventListener('click', () => this.ask());
    $('lesson-chapters').addEventListener('click', (e) => {
      const a = e.target.closest('a[data-chapter]');
      if (!a || e.ctrlKey || e.metaKey || e.shiftKey) return;
      e.preventDefault();
      this.show(Number(a.dataset.chapter) - 1);
    });
    for (const id of ['lesson-prev', 'lesson-next']) {
      $(id).addEventListener('click', (e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey) return;
        e.preventDefault();
        this.show(Number($(id).dataset.chapter) - 1);
      });
    }
    document.addEventListener('keydown', (e) => this.keys(e));
    this.readSpeed();
  }

  readSpeed() {
    this.speed = stepsPerSecond(Number($('lesson-speed').value));
    const text = t('lesson.speed', { Steps: this.speed });
    $('lesson-speed-value').textContent = text;
    $('lesson-speed').setAttribute('aria-valuetext', text);
  }

  enter(params) {
    const k = Math.min(chapters.length, Math.max(1, Number(params.get('chapter')) || this.k + 1)) - 1;
    const step = Number(params.get('step'));
    if (k !== this.k || !this.loaded) this.show(k, Number.isInteger(step) && step > 0 ? step - 1 : -1);
  }

  leave() { this.pause(); }

  // relang writes the chapter again in the language chosen.
  async relang() {
    this.readSpeed();
    this.refresh();
    await this.show(this.k, this.pos);
  }

  urlState() {
    const q = { chapter: this.k + 1 };
    if (this.pos >= 0) q.step = this.pos + 1;
    return q;
  }

  // show opens chapter k (0-based) at position pos.
  async show(k, pos = -1) {
    this.pause();
    this.k = k;
    this.loaded = true;
    const ch = chapters[k];
    const token = (this.token = {});
    $('lesson').dataset.state = 'loading';
    $('lesson').dataset.chapter = String(k + 1);
    this.drawNav();
    this.asking = false;
    this.answered = null;
    $('lesson-answer').textContent = '';
    $('lesson-answer').className = 'status';
    // Its short title until its facts, which the full one names, are in.
    $('lesson-chapter-title').textContent = t('lesson.title.short', { K: k + 1, Title: t(`lesson.${ch.key}.short`) });
    this.onURL();
    let args;
    try {
      args = await ch.facts(this.facts);
      if (token !== this.token) return;
      this.args = args;
      $('lesson-chapter-title').textContent = t(`lesson.${ch.key}.title`, { ...args, K: k + 1 });
      const paragraphs = typeof ch.paragraphs === 'function' ? ch.paragraphs(args) : ch.paragraphs;
      $('lesson-body').replaceChildren(...paragraphs.map((p) => para(`lesson.${ch.key}.${p}`, { ...args, ...links(ch, p) })));
      $('lesson-cost').textContent = t(`lesson.${ch.key}.cost`, args);
      await this.load(ch, args, token);
    } catch (err) {
      if (token === this.token) {
        setStatus($('lesson-status'), err.message, 'error');
        $('lesson').dataset.state = 'error';
      }
      return;
    }
    if (token !== this.token) return;
    this.drawQuestion(ch, args);
    this.go(Math.min(pos, this.length - 1));
    $('lesson').dataset.state = 'ready';
  }

  // load fills the board's source: the chapter's trace, or its boards.
  async load(ch, args, token) {
    setStatus($('lesson-status'), t('lesson.loading'));
    if (ch.source.trace) {
      const { algo, n } = ch.source.trace;
      await strategies.load();
      const trace = new TraceStore(n);
      if (this.abort) this.abort.abort();
      this.abort = new AbortController();
      this.board.setSize(n);
      const got = await loadTrace({ n, algo, limit: Math.min(this.limits.max_trace_events, 100000) }, trace, () => {}, { signal: this.abort.signal });
      if (token !== this.token) return;
      if (!got.end) throw new Error(got.error || t('lesson.lost'));
      Object.assign(this, { trace, boards: null, n, algo, length: trace.length });
      setStatus($('lesson-status'), t('lesson.loaded.trace', { Algo: algo, N: n, Steps: trace.length }));
      $('lesson-counters').hidden = false;
    } else {
      const boards = await ch.source.boards(this.facts);
      if (token !== this.token) return;
      const n = boards[0].queens.length;
      this.board.setSize(n);
      Object.assign(this, { trace: null, boards, n, algo: '', length: boards.length });
      setStatus($('lesson-status'), tn('lesson.loaded.boards', boards.length));
      $('lesson-counters').hidden = true;
    }
  }

  drawNav() {
    const ol = document.createElement('ol');
    chapters.forEach((ch, i) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `?panel=lesson&chapter=${i + 1}`;
      a.dataset.chapter = String(i + 1);
      a.textContent = t(`lesson.${ch.key}.short`);
      if (i === this.k) a.setAttribute('aria-current', 'step');
      li.append(a);
      ol.append(li);
    });
    $('lesson-chapters').replaceChildren(ol);
    const link = (id, i, key) => {
      const a = $(id);
      a.hidden = i < 0 || i >= chapters.length;
      if (a.hidden) return;
      a.href = `?panel=lesson&chapter=${i + 1}`;
      a.dataset.chapter = String(i + 1);
      a.textContent = t(key, { K: i + 1, Title: t(`lesson.${chapters[i].key}.short`) });
    };
    link('lesson-prev', this.k - 1, 'lesson.prev');
    link('lesson-next', this.k + 1, 'lesson.next');
  }

  // drawQuestion writes the chapter's question, and its choices if it has
  // some.
  drawQuestion(ch, args) {
    const p = ch.predict;
    this.question = p;
    $('lesson-question').textContent = t(`lesson.${ch.key}.q`, { ...args, ...this.questionArgs(p) });
    const box = $('lesson-choices');
    box.replaceChildren();
    $('lesson-ask').hidden = p.kind === 'choice';
    if (p.kind === 'verdict') {
      for (const yes of [true, false]) box.append(choice(t(yes ? 'lesson.verdict.yes' : 'lesson.verdict.no'), () => this.answerVerdict(yes)));
    }
    if (p.kind === 'choice') {
      p.choices(args).forEach((v, i) => box.append(choice(t('lesson.times', { X: v }), () => this.answerChoice(i, v))));
    }
    box.hidden = !box.childElementCount;
  }

  // questionArgs are what a question names of the moment it asks at.
  questionArgs(p) {
    if (!this.trace || p.at === undefined) return {};
    const e = this.trace.event(p.at(this.trace));
    return e ? { Step: e.step, Candidate: e.candidate || 0, Row: e.row || 0, Col: e.col || 0 } : {};
  }

  // ask goes to the question's moment and waits for the learner's square.
  ask() {
    const p = this.question;
    this.pause();
    this.go(p.at ? p.at(this.trace) : p.board);
    $('lesson').dataset.askedAt = String(this.pos + 1); // the step asked about, for tests and screen readers' users alike
    this.asking = p.kind === 'next' || p.kind === 'square';
    this.bare = p.kind === 'verdict';
    this.board.el.classList.toggle('clickable', this.asking);
    this.draw();
    say($('lesson-answer'), t(this.asking ? 'lesson.ask.square' : 'lesson.ask.choose'), '');
    if (this.asking) this.board.focusSquare(1, 1);
    else if ($('lesson-choices').firstChild) $('lesson-choices').firstChild.focus();
  }

  // answerSquare takes the learner's square: right or wrong, and why.
  answerSquare(r, c) {
    if (!this.asking) return;
    const p = this.question;
    const ch = chapters[this.k];
    this.asking = false;
    this.board.el.classList.remove('clickable');
    if (p.kind === 'next') {
      const at = this.pos;
      let next = at + 1;
      while (next < this.length && ![PLACE, REJECT].includes(this.trace.kind(next))) next++;
      const e = this.trace.event(next);
      const right = e.row === r && e.col === c;
      this.go(next);
      say($('lesson-answer'), t(right ? 'lesson.next.right' : 'lesson.next.wrong', { Row: e.row, Col: e.col, Text: e.text }), right ? 'good' : 'error');
      return;
    }
    const a = p.answer(this.args, this.boards);
    const right = a.row === r && a.col === c;
    this.draw(); // the rows hidden while asking come back
    say($('lesson-answer'), t(`lesson.${ch.key}.${right ? 'right' : 'wrong'}`, { ...this.args, ...a.args, Row: a.row, Col: a.col }), right ? 'good' : 'error');
  }

  answerVerdict(yes) {
    const p = this.question;
    const at = p.at(this.trace);
    this.go(at);
    this.bare = false;
    this.draw();
    const e = this.trace.event(at);
    const right = yes === (e.kind === 'solution');
    say($('lesson-answer'), t(right ? 'lesson.verdict.right' : 'lesson.verdict.wrong', { Text: e.text }), right ? 'good' : 'error');
  }

  answerChoice(i, v) {
    const ch = chapters[this.k];
    const right = i === ch.predict.right;
    say($('lesson-answer'), t(`lesson.${ch.key}.${right ? 'right' : 'wrong'}`, { ...this.args, X: v }), right ? 'good' : 'error');
  }

  go(pos) {
    this.pos = Math.max(-1, Math.min(this.length - 1, pos));
    if (this.asking && this.question.kind === 'next' && this.pos !== (this.question.at(this.trace))) this.stopAsking();
    this.draw();
    this.onURL();
  }

  stopAsking() {
    this.asking = false;
    this.board.el.classList.remove('clickable');
  }

  play() {
    if (this.pos >= this.length - 1) this.pos = -1;
    this.stopAsking();
    this.bare = false;
    this.playing = true;
    this.pace.start();
    this.refresh();
    this.inView();
    requestAnimationFrame(this.tick);
  }

  // inView brings, where the board stands above the text (a narrow
  // screen), the player, the board, its sentence and its counters into
  // the window when Play starts, if they are not in it already.
  inView() {
    if (!stacked.matches) return;
    const top = $('lesson-player').getBoundingClientRect().top;
    const bottom = $('lesson-counters').getBoundingClientRect().bottom;
    if (top >= 0 && bottom <= window.innerHeight) return;
    window.scrollBy({ top: top - 4, behavior: reducedMotion.matches ? 'instant' : 'smooth' });
  }

  pause() {
    this.playing = false;
    this.refresh();
  }

  tick(now) {
    if (!this.playing) return;
    const steps = this.pace.due(now, this.speed);
    if (steps > 0) {
      this.go(this.pos + steps);
      if (this.pos >= this.length - 1) this.pause();
    }
    if (this.playing) requestAnimationFrame(this.tick);
  }

  refresh() {
    const play = $('lesson-play');
    play.textContent = t(this.playing ? 'lesson.pause' : 'lesson.play');
    play.setAttribute('aria-pressed', String(this.playing));
    $('lesson-back').disabled = this.pos < 0;
    $('lesson-start').disabled = this.pos < 0;
    $('lesson-step').disabled = this.pos >= this.length - 1;
    $('lesson').dataset.playing = String(this.playing);
  }

  // draw shows the step or board at pos, its sentence and its counters.
  draw() {
    this.refresh();
    if (this.trace) this.drawStep(this.trace.event(this.pos));
    else if (this.boards) this.drawBoard(this.boards[Math.max(this.pos, 0)]);
  }

  drawStep(e) {
    const n = this.n;
    const queens = e ? e.queens : new Array(n).fill(0);
    const at = (x, r, c) => x && x.row === r && x.col === c;
    const bare = this.bare;
    const brute = e && e.candidate !== undefined;
    this.board.draw({
      square: (r, c) => {
        if (queens[r - 1] === c) {
          const placed = !bare && e && e.kind === 'place' && at(e, r, c);
          const attacker = !bare && e && e.kind === 'reject' && (at(e.by, r, c) || (brute && at(e, r, c)));
          return { classes: ['queen', ...(placed ? ['placed'] : []), ...(attacker ? ['attacker'] : [])], label: t(attacker ? 'lesson.square.attacker' : 'lesson.square.queen') };
        }
        if (!bare && !brute && e && e.kind === 'reject' && at(e, r, c)) return { classes: ['rejected', 'attacked'], label: t('lesson.square.rejected', { Row: e.by.row }) };
        if (!bare && e && e.kind === 'remove' && at(e, r, c)) return { classes: ['removed'], label: t('lesson.square.removed') };
        const by = brute ? [] : attackers(queens, r, c);
        return by.length ? { classes: ['attacked'], label: t('lesson.square.attacked', { Row: by[0].row }) } : { classes: [], label: t('lesson.square.empty') };
      },
      lines: !bare && e && e.kind === 'reject' ? [{ from: [e.by.row, e.by.col], to: [e.row, e.col], kind: 'attack' }] : [],
    });
    this.board.el.classList.toggle('solved', !!e && e.kind === 'solution');
    $('lesson-event').textContent = e ? t('lesson.step', { Step: e.step, Steps: this.length }) : t('lesson.step.empty', { Steps: this.length });
    $('lesson-sentence').textContent = bare ? t('lesson.verdict.hidden', { Candidate: e.candidate }) : e ? e.text : t('lesson.empty', { N: n, Algo: this.algo });
    const c = e ? e.counters : {};
    for (const k of counterNames) $(`lesson-counter-${k}`).textContent = int(c[k] || 0);
  }

  drawBoard(b) {
    const marked = new Set((b.marked || []).map(([r, c]) => r * 1000 + c));
    const p = this.question;
    const hide = this.asking && p && p.hideFrom ? p.hideFrom(this.args) : Infinity;
    this.board.draw({
      square: (r, c) => {
        if (b.queens[r - 1] !== c || r >= hide) return { classes: [], label: t('lesson.square.empty') };
        const edge = marked.has(r * 1000 + c);
        return { classes: ['queen', ...(edge ? ['given'] : [])], label: t(edge ? 'lesson.square.border' : 'lesson.square.queen') };
      },
      lines: [],
    });
    this.board.el.classList.remove('solved');
    $('lesson-event').textContent = t('lesson.board', { K: Math.max(this.pos, 0) + 1, Boards: this.length });
    $('lesson-sentence').textContent = t(...b.caption);
  }

  // keys: ← and → step, space plays, Home goes to the start, while the
  // lesson is shown; keys of a focused control are left to it.
  keys(e) {
    if ($('lesson').hidden || e.ctrlKey || e.metaKey || e.altKey) return;
    const own = e.key === ' ' ? 'input, select, textarea, button, a, [role=grid], summary' : 'input, select, textarea, [role=grid]';
    if (e.target.closest && e.target.closest(own)) return;
    const actions = {
      ' ': () => (this.playing ? this.pause() : this.play()),
      ArrowRight: () => { this.pause(); this.go(this.pos + 1); },
      ArrowLeft: () => { this.pause(); this.go(this.pos - 1); },
      Home: () => { this.pause(); this.go(-1); },
      End: () => { this.pause(); this.go(this.length - 1); },
    };
    if (!actions[e.key]) return;
    e.preventDefault();
    actions[e.key]();
  }
}

// para is a paragraph of message key; an element among args stands where
// its placeholder is (a link inside a sentence).
function para(key, args) {
  const p = document.createElement('p');
  fill(p, key, args);
  return p;
}

// links are the links a chapter's paragraph p holds: for each placeholder,
// its text (a message) and its address.
function links(ch, p) {
  const out = {};
  for (const [name, [key, href]] of Object.entries((ch.links && ch.links[p]) || {})) {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = t(key);
    out[name] = a;
  }
  return out;
}

function choice(text, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.addEventListener('click', onClick);
  return b;
}

// say writes an answer line; kind is '', 'good' or 'error'.
function say(el, text, kind) { setStatus(el, text, kind); }
