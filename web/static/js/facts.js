// The facts the lesson states, each asked of the project once: the
// candidates of the brute-force methods (GET /api/algorithms?n=), the
// counters of every strategy (GET /api/compare), the solutions and their
// classes (GET /api/solutions), the published counts (GET /api/reference),
// the engines of the counter (GET /api/limits, count_engines) and the
// construction (GET /api/construction). The lesson types in no number of
// its own: every number it shows is one of these, or worked out from them.
// Two are the articles' own claims, which the lesson sets against the
// project's: article 003's 42 classes for n = 8, and article 000's list of
// columns for n = 8 (which /api/construction builds, article).

import * as api from './api.js';
import { image } from './symmetry.js';

// article003Classes is the number of classes article 003 claims for n = 8
// (the project counts 12, OEIS A002562).
export const article003Classes = 42;

// classesUnder counts the classes of the solutions under a group of the
// square's symmetries (names), by Burnside's lemma: the mean over the
// group of the solutions each fixes.
export function classesUnder(solutions, group) {
  let fixed = 0;
  for (const name of group) {
    for (const q of solutions) if (image(name, q).join() === q.join()) fixed++;
  }
  return fixed / group.length;
}

// fixedBy counts the solutions that the symmetry name leaves unchanged.
export const fixedBy = (solutions, name) => solutions.filter((q) => image(name, q).join() === q.join()).length;

export class Facts {
  constructor(limits) {
    this.limits = limits;
    this.cache = new Map();
  }

  // once asks path with params once, whatever the language: none of these
  // answers' numbers depends on it.
  once(path, params = {}) {
    const key = api.href(path, params);
    if (!this.cache.has(key)) {
      const p = api.getJSON(path, params);
      p.catch(() => this.cache.delete(key)); // asked again next time
      this.cache.set(key, p);
    }
    return this.cache.get(key);
  }

  // candidates are the brute-force methods' candidates for n, by name
  // (BigInts).
  async candidates(n) {
    const list = await this.once('/api/algorithms', { n });
    return Object.fromEntries(list.filter((a) => a.candidates !== undefined).map((a) => [a.name, BigInt(a.candidates)]));
  }

  // counters are the final counters of algo's whole search of n.
  async counters(algo, n) {
    const rows = await this.once('/api/compare', { n, algos: algo });
    const row = rows.find((r) => r.algorithm === algo);
    if (!row || row.status !== 'ok') throw new Error(`${algo}, n = ${n}: ${row ? row.status : 'no row'}`);
    return row.counters;
  }

  // solutions are the solutions of n: {total, unique, classes: [{canonical,
  // orbit, boards}]}.
  solutions(n) { return this.once('/api/solutions', { n }); }

  // reference is the published table: [{n, total, unique}].
  reference() { return this.once('/api/reference'); }

  // construction is /api/construction for n, asked each time: its rule is
  // in the page's language, which may have changed.
  construction(n) { return api.getJSON('/api/construction', { n }); }

  // engines are the runs of N each engine of the counter counts.
  engines() { return this.limits.count_engines || []; }
}
