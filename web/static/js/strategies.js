// What the page teaches about each strategy comes from the server
// (GET /api/algorithms: its title, summary and pseudocode, written once in
// Go beside the strategy's code), and each step's sentence and pseudocode
// line come with the step itself (the trace's "text" and "line"). This
// module only keeps them at hand.

import * as api from './api.js';
import { lang } from './i18n.js';

let algos = [];
let asked = null; // the request of the strategies in asked.lang

// load fetches the strategies once for each language the page is shown
// in (their titles and lessons are in its words); the panels that ask at
// once share one request.
export function load() {
  if (!asked || asked.lang !== lang()) {
    const request = api.getJSON('/api/algorithms').then((list) => { if (asked.request === request) algos = list; return list; });
    asked = { lang: lang(), request };
    request.catch(() => { if (asked.request === request) asked = null; });
  }
  return asked.request;
}

// all lists the strategies loaded.
export const all = () => algos;

// lesson is the lesson of the strategy name: {title, summary, pseudocode}.
export function lesson(name) {
  return algos.find((a) => a.name === name) || { title: name, summary: '', pseudocode: [] };
}

// classics lists the strategies that have a lesson (the classic ones).
export const classics = () => algos.filter((a) => a.pseudocode);

// completers lists the backtracking strategies: they fill the board row by
// row, and their search can start from a partial board.
export const completers = () => algos.filter((a) => a.completes);

const counts = new Map(); // n → {name: candidates as a BigInt}

// loadCandidates fetches, once per n, the number of candidate boards of each
// brute-force strategy (exact, computed by the server's Go code).
export async function loadCandidates(n) {
  if (!counts.has(n)) {
    const list = await api.getJSON('/api/algorithms', { n });
    counts.set(n, Object.fromEntries(list.filter((a) => a.candidates).map((a) => [a.name, BigInt(a.candidates)])));
  }
  return counts.get(n);
}

// candidates is the number loaded for (name, n), or null before it is.
export const candidates = (name, n) => (counts.has(n) ? counts.get(n)[name] : null);
