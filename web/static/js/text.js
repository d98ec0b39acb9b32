// Numbers, durations and status lines as the page writes them, in the
// page's language (the catalogs' page.unit.* messages).

import { tn, t } from './i18n.js';
import { say } from './lang.js';

export const $ = (id) => document.getElementById(id);

// group writes a whole number with its thousands grouped: 1,234,567. It
// takes numbers, BigInts and the decimal strings big counts arrive as (which
// must not go through Number), and the page groups every number with it.
export function group(v) {
  const [whole, fraction] = String(v).split('.');
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (fraction === undefined ? '' : `.${fraction}`);
}

// setStatus writes a status line of text as it is (a message of the
// server's, in the language asked for); kind is '', 'error' or 'good'.
export function setStatus(el, text, kind = '') {
  delete el.dataset.i18n; // a language switch leaves it as it is
  delete el.dataset.i18nArgs;
  el.textContent = text;
  el.className = 'status' + (kind ? ' ' + kind : '');
}

// status writes the message key with args as a status line, rendered again
// when the language changes (lang.js say).
export function status(el, key, args = {}, kind = '') {
  say(el, key, args);
  el.className = 'status' + (kind ? ' ' + kind : '');
}

// duration writes seconds as "12 s", "3 min 5 s", "2 h 10 min", "41 days"
// or "3,270 years" (in Chinese 12 秒, 3 分 5 秒 …).
export function duration(s) {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return t('page.unit.s', { S: Math.max(0, Math.round(s)) });
  if (s < 3600) return t('page.unit.min', { M: Math.floor(s / 60), S: Math.round(s % 60) });
  if (s < 2 * 86400) return t('page.unit.h', { H: Math.floor(s / 3600), M: Math.round((s % 3600) / 60) });
  if (s < 2 * 365.25 * 86400) return tn('page.unit.days', Math.round(s / 86400));
  return tn('page.unit.years', Math.round(s / (365.25 * 86400)));
}

// The units of runTime, by the power of a thousand under a second.
const runUnits = [[1e-6, 1e9, 'page.unit.ns'], [1e-3, 1e6, 'page.unit.us'], [1, 1e3, 'page.unit.ms'], [10, 1, 'page.unit.sec']];

// runTime writes a measured time of a run, short or long: "850 ns",
// "12 µs", "3.4 ms", "1.2 s", then as duration does.
export function runTime(s) {
  if (!Number.isFinite(s)) return '?';
  const unit = runUnits.find(([below]) => s < below);
  if (!unit) return duration(s);
  const v = s * unit[1];
  return t(unit[2], { V: v < 10 ? v.toFixed(1) : String(Math.round(v)) });
}
