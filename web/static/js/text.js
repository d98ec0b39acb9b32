// Numbers and status lines as the page writes them.

export const $ = (id) => document.getElementById(id);

// group writes a whole number with its thousands grouped: 1,234,567. It
// takes numbers, BigInts and the decimal strings big counts arrive as (which
// must not go through Number), and the page groups every number with it.
export function group(v) {
  const [whole, fraction] = String(v).split('.');
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (fraction === undefined ? '' : `.${fraction}`);
}

export const plural = (k, one, many = one + 's') => `${group(k)} ${k === 1 ? one : many}`;

// setStatus writes a status line; kind is '', 'error' or 'good'.
export function setStatus(el, text, kind = '') {
  el.textContent = text;
  el.className = 'status' + (kind ? ' ' + kind : '');
}

// duration writes seconds as "12 s", "3 min 5 s", "2 h 10 min", "41 days"
// or "3,270 years".
export function duration(s) {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${Math.max(0, Math.round(s))} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  if (s < 2 * 86400) return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
  if (s < 2 * 365.25 * 86400) return plural(Math.round(s / 86400), 'day');
  return plural(Math.round(s / (365.25 * 86400)), 'year');
}

// runTime writes a measured time of a run, short or long: "850 ns",
// "12 µs", "3.4 ms", "1.2 s", then as duration does.
export function runTime(s) {
  if (!Number.isFinite(s)) return '?';
  if (s >= 10) return duration(s);
  const [v, unit] = s < 1e-6 ? [s * 1e9, 'ns'] : s < 1e-3 ? [s * 1e6, 'µs'] : s < 1 ? [s * 1e3, 'ms'] : [s, 's'];
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${unit}`;
}
