// Timeline: the position in a trace and the controls that move it — a
// slider over every step received, back and forward, play and pause at a
// speed, and "pause at each solution". It knows nothing of boards: it calls
// onChange(pos) whenever the position moves (pos -1 is the empty board).

import { t } from './i18n.js';
import { $ } from './text.js';

// Pace turns a player's animation frames into steps at a speed (steps a
// second), drawing once a frame however many steps came due: the watch
// panel's timeline and the lesson's player both play so.
export class Pace {
  constructor() { this.last = 0; this.budget = 0; }

  // start is called when Play starts: the next step is due at once.
  start() {
    this.last = performance.now();
    this.budget = 1;
  }

  // due is how many whole steps have come due at frame time now; the
  // fraction left carries over to the next frame.
  due(now, speed) {
    this.budget += (now - this.last) / 1000 * speed;
    this.last = now;
    const steps = Math.floor(this.budget);
    this.budget -= steps;
    return steps;
  }

  // idle forgets what came due: waiting costs no steps.
  idle() { this.budget = 0; }
}

export class Timeline {
  constructor(onChange) {
    this.onChange = onChange;
    this.pos = -1;
    this.length = 0;       // steps received
    this.loading = false;  // more steps may come
    this.playing = false;
    this.speed = 10;       // steps per second
    this.pace = new Pace();
    this.isSolution = () => false;
    this.beforePlay = () => true; // false: the panel does something else first
    this.onPlay = () => {};       // called when Play starts
    this.slider = $('watch-timeline');
    this.slider.addEventListener('input', () => { this.pause(); this.go(Number(this.slider.value) - 1); });
    $('watch-play').addEventListener('click', () => { if (this.beforePlay()) this.toggle(); });
    $('watch-step').addEventListener('click', () => { this.pause(); this.go(this.pos + 1); });
    $('watch-back').addEventListener('click', () => { this.pause(); this.go(this.pos - 1); });
    $('watch-start').addEventListener('click', () => { this.pause(); this.go(-1); });
    $('watch-end').addEventListener('click', () => { this.pause(); this.go(this.length - 1); });
    $('watch-speed').addEventListener('input', () => this.readSpeed());
    this.readSpeed();
    this.tick = this.tick.bind(this);
  }

  readSpeed() {
    // Logarithmic: 0 → 1 step/s, 100 → 2000 steps/s.
    this.speed = Math.round(Math.pow(2000, Number($('watch-speed').value) / 100));
    $('watch-speed-value').textContent = t('page.speed', { Speed: this.speed });
    // A screen reader says the speed, not the slider's position.
    $('watch-speed').setAttribute('aria-valuetext', t('page.speed.long', { Speed: this.speed }));
  }

  // setLength is called as steps arrive and when the stream ends.
  setLength(length, loading) {
    this.length = length;
    this.loading = loading;
    this.slider.max = Math.max(length, 1);
    this.slider.disabled = length === 0;
    this.refresh();
  }

  // setMarks marks the steps at positions (the solutions) along the slider.
  setMarks(positions) {
    this.marks = positions;
    const box = $('watch-marks');
    const max = Math.max(this.length, 1);
    box.replaceChildren(...positions.map((p) => {
      const tick = document.createElement('span');
      tick.className = 'tick';
      tick.style.left = `${(100 * (p + 1)) / max}%`;
      tick.title = t('page.mark', { Step: p + 1 });
      return tick;
    }));
  }

  // relang writes the controls' words in the language just chosen.
  relang() {
    this.readSpeed();
    if (this.marks) this.setMarks(this.marks);
    this.refresh();
  }

  get atEnd() { return this.pos >= this.length - 1 && !this.loading; }

  go(pos) {
    const next = Math.max(-1, Math.min(this.length - 1, pos));
    const moved = next !== this.pos;
    this.pos = next;
    this.refresh();
    this.onChange(this.pos);
    return moved;
  }

  toggle() { return this.playing ? this.pause() : this.play(); }

  play() {
    if (this.atEnd) return;
    this.playing = true;
    this.pace.start();
    requestAnimationFrame(this.tick);
    this.refresh();
    this.onPlay();
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.refresh();
    this.onChange(this.pos);
  }

  // tick moves speed × elapsed steps, drawing once a frame however many that
  // is, and stops on a solution when asked to.
  tick(now) {
    if (!this.playing) return;
    const steps = this.pace.due(now, this.speed);
    if (steps > 0) {
      let next = Math.min(this.length - 1, this.pos + steps);
      if ($('watch-pause-solution').checked) {
        for (let p = this.pos + 1; p <= next; p++) {
          if (this.isSolution(p)) {
            next = p;
            this.playing = false;
            break;
          }
        }
      }
      if (next === this.pos) this.pace.idle(); // waiting for the stream costs no steps
      this.pos = next;
      if (this.atEnd) this.playing = false;
      this.refresh();
      this.onChange(this.pos);
    }
    if (this.playing) requestAnimationFrame(this.tick);
  }

  refresh() {
    this.slider.value = this.pos + 1;
    this.slider.setAttribute('aria-valuetext', this.pos < 0 ? t('page.slider.empty') : t('page.slider.step', { Step: this.pos + 1, Total: this.length }));
    $('watch-back').disabled = this.pos < 0;
    $('watch-start').disabled = this.pos < 0;
    $('watch-step').disabled = this.pos >= this.length - 1;
    $('watch-end').disabled = this.pos >= this.length - 1;
    const play = $('watch-play');
    play.textContent = this.playing ? t('page.pause') : t('page.play');
    play.setAttribute('aria-pressed', String(this.playing));
    play.disabled = this.atEnd && !this.playing;
    $('watch').dataset.state = this.atEnd ? 'end' : (this.playing ? 'playing' : 'paused');
  }
}
