// Inputs are checked in the browser against the server's limits before
// anything is sent or drawn: a field that fails shows its message beside it
// (aria-invalid, aria-describedby) and the action does not run.
import { $ } from './text.js';

// readInt reads the number field id as an integer in lo..hi, or returns
// null and shows why. what names the quantity in the message.
export function readInt(id, lo, hi, what = 'N') {
  const input = $(id);
  const raw = input.value.trim();
  let msg = '';
  if (raw === '' || !/^-?\d+$/.test(raw)) {
    msg = `${what} must be a whole number from ${lo} to ${hi}`;
  } else {
    const v = Number(raw);
    if (v < lo || v > hi) msg = `${what} = ${raw} is out of range: this page allows ${lo} to ${hi}`;
  }
  showError(input, msg);
  return msg ? null : Number(raw);
}

// showError shows msg beside the field (none if msg is empty), followed by
// command, if given, in a code element.
export function showError(input, msg, command = '') {
  const id = input.id + '-error';
  let el = document.getElementById(id);
  if (!el) {
    el = document.createElement('p');
    el.id = id;
    el.className = 'field-error';
    el.setAttribute('role', 'alert');
    input.closest('form, .controls').after(el);
  }
  el.textContent = msg;
  if (msg && command) {
    const code = document.createElement('code');
    code.textContent = command;
    el.append(' ', code);
  }
  el.hidden = !msg;
  if (msg) {
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', id);
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
