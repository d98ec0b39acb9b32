// The chapters of the lesson, in the articles' order: what each one plays
// on its board, the numbers its text states (asked of the project through
// facts.js, never typed in), its question and the line that says why it
// costs what it costs. Their sentences are the messages lesson.chK.* of
// i18n/locales/LANG/lesson.json; js/lesson.js shows them.
//
// A chapter's board plays either a real trace (source.trace: the search of
// a strategy, as the watch panel plays it) or a few boards it builds from
// the project's answers (source.boards). Its question is one of:
//   next     at a step of the trace, which square the search tries next:
//            the learner clicks it; the trace's next try answers
//   verdict  at a candidate of a brute-force trace, is it a solution?
//   square   on a board of the chapter, click the square of an answer
//   choice   one of a few values, the right one worked out from the facts

import { article003Classes, classesUnder, fixedBy } from './facts.js';
import { list, t } from './i18n.js';
import { image, symmetryTo } from './symmetry.js';
import { PLACE, REMOVE } from './tracestore.js';

// Superscript digits, for a power written as the books write it (8⁸).
const sup = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
const power = (base, exp) => `${base}${String(exp).split('').map((d) => sup[d]).join('')}`;

// nth is the position of the k-th step (1-based) of kind in trace, or -1.
function nth(trace, kind, k = 1) {
  for (let p = 0; p < trace.length; p++) if (trace.kind(p) === kind && --k === 0) return p;
  return -1;
}

// ratio writes a / b to one decimal.
const ratio = (a, b) => (Number(a) / Math.max(Number(b), 1)).toFixed(1);

// strategyFacts are the counters of algo at N = 8, with what a try reads.
async function strategyFacts(f, algo, than) {
  const c = await f.counters(algo, 8);
  const out = { N: 8, Placed: c.placed, Rejected: c.rejected, Tries: c.tries, Reads: c.reads, Solutions: c.solutions, PerTry: ratio(c.reads, c.tries) };
  if (than) out.Ratio = ratio((await f.counters(than, 8)).reads, c.reads);
  return out;
}

// The ranges of N an engine counts, as "14 to 23" (or "5"), listed.
function ranges(engines, name) {
  return list(engines.filter((e) => e.engine === name).map((e) => (e.from === e.to ? String(e.from) : t('lesson.range', { From: e.from, To: e.to }))));
}

export const chapters = [
  {
    // The problem and the brute force: the three sizes for n = 8.
    key: 'ch1',
    source: { trace: { algo: 'permutations', n: 4 } },
    paragraphs: ['p1', 'p2', 'p3'],
    async facts(f) {
      const c = await f.candidates(8);
      const perm = await f.counters('permutations', 8);
      return {
        N: 8, Squares: 8 * 8, Combinations: c['brute-combinations'], Rows: c['brute-rows'], Permutations: c.permutations,
        CombinationsFormula: 'C(64, 8)', RowsFormula: power(8, 8), PermutationsFormula: '8!',
        Small: 4, SmallCount: (await f.candidates(4)).permutations, Reads: perm.reads, Solutions: perm.solutions,
        PerCandidate: ratio(perm.reads, perm.tries),
      };
    },
    predict: { kind: 'verdict', at: (trace) => trace.solutions[0] },
  },
  {
    // Backtracking on the 2-D grid: scanning cells.
    key: 'ch2',
    source: { trace: { algo: 'backtrack-2d', n: 6 } },
    paragraphs: ['p1', 'p2'],
    facts: async (f) => ({ ...(await strategyFacts(f, 'backtrack-2d')), Small: 6, Boards: (await f.candidates(8))['brute-rows'] }),
    predict: { kind: 'next', at: (trace) => nth(trace, REMOVE) },
  },
  {
    // The 1-D array of columns: comparing with the earlier queens.
    key: 'ch3',
    source: { trace: { algo: 'backtrack-array', n: 6 } },
    paragraphs: ['p1', 'p2'],
    facts: async (f) => ({ ...(await strategyFacts(f, 'backtrack-array', 'backtrack-2d')), Small: 6, Cells: 8 * 8 }),
    predict: { kind: 'next', at: (trace) => trace.solutions[0] },
  },
  {
    // Flag arrays: three lookups.
    key: 'ch4',
    source: { trace: { algo: 'backtrack-flags', n: 6 } },
    paragraphs: ['p1', 'p2'],
    facts: async (f) => ({ ...(await strategyFacts(f, 'backtrack-flags', 'backtrack-array')), Small: 6 }),
    predict: { kind: 'next', at: (trace) => nth(trace, REMOVE, 2) },
  },
  {
    // The bit masks (row, ld, rd): no attacked square is ever tried.
    key: 'ch5',
    source: { trace: { algo: 'bitmask', n: 6 } },
    paragraphs: ['p1', 'p2'],
    async facts(f) {
      const out = await strategyFacts(f, 'bitmask', 'backtrack-flags');
      return { ...out, Small: 6, Free: 'free = all & ~(cols | ld | rd)', Masks: '(row, ld, rd)', PerPlace: ratio(out.Reads, out.Placed) };
    },
    predict: { kind: 'next', at: (trace) => nth(trace, PLACE, 3) },
  },
  {
    // Recursion and the explicit stack: 2,056 placements, 13,664 tries.
    key: 'ch6',
    source: { trace: { algo: 'stack', n: 8 } },
    paragraphs: ['p1', 'p2'],
    facts: (f) => strategyFacts(f, 'stack'),
    predict: { kind: 'next', at: (trace) => Math.min(199, trace.length - 2) },
  },
  {
    // Symmetry: 92 solutions in 12 classes, and why 42 is wrong.
    key: 'ch7',
    source: { boards: symmetryBoards },
    paragraphs: ['p1', 'p2'],
    async facts(f) {
      const s = await f.solutions(8);
      const all = s.classes.flatMap((c) => c.boards);
      const sizes = s.classes.map((c) => c.orbit);
      return {
        N: 8, Total: s.total, Unique: s.unique, Article: article003Classes, Seq: 'A002562',
        Big: Math.max(...sizes), Small: Math.min(...sizes),
        Bigs: sizes.filter((k) => k === Math.max(...sizes)).length, Smalls: sizes.filter((k) => k === Math.min(...sizes)).length,
        Turns: classesUnder(all, ['identity', 'rot90', 'rot180', 'rot270']),
        HalfTurn: classesUnder(all, ['identity', 'rot180']),
        Mirror: classesUnder(all, ['identity', 'mirror-cols']),
        Rot180: fixedBy(all, 'rot180'), Rot90: fixedBy(all, 'rot90'),
      };
    },
    predict: { kind: 'square', board: 0, answer: rot90Answer },
  },
  {
    // Counting big N: the engines, and how Q(N) grows.
    key: 'ch8',
    source: { boards: constellationBoards },
    paragraphs: (a) => (a.HasJoin ? ['p1', 'p2', 'p3'] : ['p1', 'p3']),
    async facts(f) {
      const ref = (await f.reference()).filter((r) => Number(r.total) > 0);
      const last = ref[ref.length - 1];
      const from = ref[ref.length - 8];
      const growth = (Number(last.total) / Number(from.total)) ** (1 / (last.n - from.n));
      const engines = f.engines();
      const at = (n) => ref.find((r) => r.n === n);
      return {
        From: from.n, To: last.n, QFrom: from.total, QTo: last.total, Growth: growth.toFixed(1),
        Join: ranges(engines, 'join'), Tree: ranges(engines, 'tree'), HasJoin: engines.some((e) => e.engine === 'join'),
        Q12: at(12).total, Q13: at(13).total, Step: ratio(at(13).total, at(12).total),
      };
    },
    predict: {
      kind: 'choice',
      // The right factor and two others, a few times off.
      choices: (a) => [Number(a.Step) / 2.6, Number(a.Step), Number(a.Step) * 2.4].map((v) => Math.max(1, Math.round(v))),
      right: 1,
    },
  },
  {
    // One solution for any n: the rule by n mod 6, and article 000's board.
    key: 'ch9',
    source: { boards: constructionBoards },
    paragraphs: (a) => ['p1', 'p2', a.SameClass ? 'p3same' : 'p3'],
    links: { p2: { Panel: ['lesson.ch9.panel', '?panel=huge&n=1000000&method=construct'] } },
    async facts(f) {
      const c = await f.construction(8);
      const k = Math.floor(c.n / 2); // where article 000's list starts
      return {
        N: c.n, Rule: c.rule, Rest: c.n % 6, Page: c.columns.join(' '), Article: c.article.join(' '), K: k, K3: k + 3, Row: 5, Col: c.columns[4],
        SameClass: symmetryTo(c.article, c.columns) !== '', Max: f.limits.max_solve_n,
      };
    },
    // The board hides the rows from the one asked about.
    predict: { kind: 'square', board: 0, hideFrom: (a) => a.Row, answer: (a) => ({ row: a.Row, col: a.Col }) },
  },
];

// symmetryBoards are one class of the solutions of 8, board by board, each
// with the symmetry that makes it from the first.
async function symmetryBoards(f) {
  const s = await f.solutions(8);
  const first = s.classes.find((c) => c.orbit === 8) || s.classes[0];
  const q = first.canonical;
  return ['identity', 'rot90', 'rot180', 'rot270', 'mirror-cols', 'mirror-rows', 'transpose', 'anti-transpose']
    .map((name) => ({ queens: image(name, q), caption: ['lesson.ch7.board', { Symmetry: t(`huge.symmetry.${name}`), Board: image(name, q).join(' ') }] }));
}

// rot90Answer: where the queen of row 1 of the chapter's first board goes
// under a quarter turn clockwise.
function rot90Answer(a, boards) {
  const q = boards[0].queens;
  const turned = image('rot90', q);
  const col = q[0];
  return { row: col, col: turned[col - 1], args: { Col: col, Row: col, To: turned[col - 1], N: q.length } };
}

// constellationBoards are the first solutions of 8, each with its border
// queens: the ones in the top row, the bottom row, the left and the right
// column, which the tree search fixes first.
async function constellationBoards(f) {
  const s = await f.solutions(8);
  return s.classes.slice(0, 4).map((c) => {
    const q = c.canonical;
    const n = q.length;
    const left = q.indexOf(1) + 1;
    const right = q.indexOf(n) + 1;
    return {
      queens: q,
      marked: [[1, q[0]], [n, q[n - 1]], [left, 1], [right, n]],
      caption: ['lesson.ch8.board', { Top: q[0], Bottom: q[n - 1], Left: left, Right: right, Board: q.join(' ') }],
    };
  });
}

// constructionBoards are the construction's board of 8 and article 000's.
async function constructionBoards(f) {
  const c = await f.construction(8);
  return [
    { queens: c.columns, caption: ['lesson.ch9.board.page', { Board: c.columns.join(' ') }] },
    { queens: c.article, caption: ['lesson.ch9.board.article', { Board: c.article.join(' ') }] },
  ];
}
