// Inputs are checked in the browser against the server's limits before
// anything is sent or drawn: a field that fails shows its message beside it
// (aria-invalid, aria-describedby) and the action does not run.
import { say } from './lang.js';
import { $ } from './text.js';

// readInt reads the number field id as an integer in lo..hi, or returns
// null and shows why. what names the quantity in the message.
export function readInt(id, lo, hi, what = 'N') {
  const input = $(id);
  const raw = input.value.trim();
  let why = null;
  if (raw === '' || !/^-?\d+$/.test(raw)) {
    why = ['page.field.whole', { What: what, Lo: lo, Hi: hi }];
  } else {
    const v = Number(raw);
    if (v < lo || v > hi) why = ['page.field.range', { What: what, Value: raw, Lo: lo, Hi: hi }];
  }
  if (why) say(errorBox(input), ...why);
  mark(input, !!why);
  return why ? null : Number(raw);
}

// showError shows msg beside the field (none if msg is empty), followed by
// command, if given, in a code element.
export function showError(input, msg, command = '') {
  const el = errorBox(input);
  delete el.dataset.i18n; // text as it is: a language switch leaves it
  delete el.dataset.i18nArgs;
  el.textContent = msg;
  if (msg && command) {
    const code = document.createElement('code');
    code.textContent = command;
    el.append(' ', code);
  }
  mark(input, !!msg);
}

// errorBox is the field's message, made the first time.
function errorBox(input) {
  const id = input.id + '-error';
  let el = document.getElementById(id);
  if (!el) {
    el = document.createElement('p');
    el.id = id;
    el.className = 'field-error';
    el.setAttribute('role', 'alert');
    input.closest('form, .controls').after(el);
  }
  return el;
}

// mark shows or hides the field's message and marks the field invalid.
function mark(input, invalid) {
  const el = errorBox(input);
  el.hidden = !invalid;
  if (invalid) {
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', el.id);
  } else {
    input.removeAttribute('aria-invalid');
  }
}

// setRange sets a number field's bounds and remembers them for readInt.
export function setRange(id, lo, hi) {
  const input = $(id);
  input.min = lo;
  input.max = hi;
  return [lo, hi];
}
