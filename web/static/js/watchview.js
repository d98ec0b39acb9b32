// What the watch panel says and draws for a step: the squares' names and
// marks, the lines of a 2-D scan, the step's name, the note under the
// solutions found and the sentence about a search started from a board.
// Every word is a message of the catalogs (page-watch.json).

import { attackers } from './board.js';
import { int, list, t, tn } from './i18n.js';

// squareOf is the board's view of step e (null: the empty board) on the
// n×n board, for Board.draw: each square's classes and label. given is the
// board a search started from ({queens, blocked}), or null.
export function squareOf(e, n, given) {
  const queens = e ? e.queens : new Array(n).fill(0);
  const isQueen = e && e.squares
    ? (() => { const s = new Set(e.squares.map((q) => q.row * 1000 + q.col)); return (r, c) => s.has(r * 1000 + c); })()
    : (r, c) => queens[r - 1] === c;
  const brute = e && e.candidate !== undefined;
  const at = (x, r, c) => x && x.row === r && x.col === c;
  const start = given || { queens: [], blocked: [] };
  const blocked = new Set(start.blocked.map(([r, c]) => r * 1000 + c));
  return (r, c) => {
    const classes = [];
    let label = '';
    if (isQueen(r, c)) {
      classes.push('queen');
      label = t('page.sq.queen');
      if (e && e.kind === 'place' && at(e, r, c)) { classes.push('placed'); label = t('page.sq.placed'); }
      if (e && e.kind === 'reject' && at(e.by, r, c)) { classes.push('attacker'); label = brute ? t('page.sq.attacks.another') : t('page.sq.attacks', { Row: e.row, Col: e.col }); }
      if (brute && e.kind === 'reject' && at(e, r, c)) { classes.push('attacker'); label = t('page.sq.attacked'); }
      return { classes, label };
    }
    if (blocked.has(r * 1000 + c)) return { classes: ['blocked'], label: t('page.sq.blocked.never') };
    if (start.queens[r - 1] === c && queens[r - 1] !== c) { classes.push('given'); label = t('page.sq.given'); }
    if (e && e.kind === 'remove' && at(e, r, c)) { classes.push('removed'); label = t('page.sq.removed'); }
    const by = brute ? [] : attackers(queens, r, c);
    if (e && e.kind === 'reject' && !brute && at(e, r, c)) {
      classes.push('rejected', 'attacked');
      return { classes, label: t('page.sq.rejected', { Row: e.by.row }) };
    }
    if (by.length) {
      classes.push('attacked');
      const attacked = attackedBy(by);
      label = label ? t('page.sq.and', { A: label, B: attacked }) : attacked;
    }
    return { classes, label: label || t('page.sq.empty') };
  };
}

// scanLines are the cells a 2-D try read: from the square up its column,
// then up its ↖ and ↗ diagonals, as far as the scan went (to the queen it
// met, or the edge).
export function scanLines(e) {
  if (!e || !e.scan) return [];
  const { column, diagonal, anti_diagonal: anti } = e.scan;
  const rays = [[column, 0], [diagonal, -1], [anti, 1]];
  return rays.filter(([k]) => k > 0).map(([k, dc]) => ({ from: [e.row, e.col], to: [e.row - k, e.col + dc * k], kind: 'scan' }));
}

// attackedBy says which queens attack a square: the first, and how many
// more.
function attackedBy(by) {
  if (by.length === 1) return t('page.sq.attacked.by', { Row: by[0].row });
  return tn('page.sq.attacked.more', by.length - 1, { Row: by[0].row });
}

// stepTexts name a step of each kind of the trace.
const stepTexts = {
  place: (a) => t('page.step.place', a),
  reject: (a) => t('page.step.reject', a),
  remove: (a) => t('page.step.remove', a),
  solution: (a) => t('page.step.solution', a),
  'dead-end': (a) => t('page.step.dead-end', a),
  done: (a) => t('page.step.done', a),
};

// stepName names a step (e, null for the empty board) of a trace of
// length steps: its number, its kind (as the trace names it: place,
// reject…) and its square.
export function stepName(e, length, loading) {
  const total = loading ? t('page.step.more', { Count: length }) : int(length);
  if (!e) return loading ? t('page.step.empty.more', { Count: length }) : tn('page.step.empty', length);
  const args = { Step: e.step, Total: total, Row: e.row, Col: e.col, Solution: e.counters.solutions, Candidate: e.candidate };
  if (e.candidate !== undefined) return e.kind === 'solution' ? t('page.step.candidate.solution', args) : t('page.step.candidate.rejected', args);
  return stepTexts[e.kind](args);
}

// fromText says, for a search started from start, what the board holds
// and how the search algo treats it: three sentences, each a message (the
// queens kept, the blocks, the play).
export function fromText(start, algo) {
  const rows = start.queens.flatMap((c, i) => (c ? [i + 1] : []));
  const k = start.blocked.length;
  let text = rows.length === 0 ? t('page.watch.from.none', { Algo: algo })
    : tn('page.watch.from.queens', rows.length, { Algo: algo, Rows: list(rows.map(String)) });
  if (k) text = t('page.sentences', { A: text, B: tn('page.watch.from.blocked', k) });
  return t('page.sentences', { A: text, B: t('page.watch.from.play') });
}

// solutionsNote is the line above the solutions found: k of them up to the
// step at pos, found in all so far, of a trace of length steps (loading:
// more may come; truncated: cut at the page's limit) on the n×n board.
export function solutionsNote({ k, pos, n, length, loading, found, truncated }) {
  if (k === 0 && pos >= 0) {
    if (loading || found) return tn('page.watch.notes.yet', pos + 1);
    if (truncated) return tn('page.watch.notes.far', length, { N: n });
    return tn('page.watch.notes.none', length);
  }
  if (k > 200) return tn('page.watch.notes.many', k, { Listed: 200 });
  if (k > 0) return tn('page.watch.notes.some', k);
  return t('page.watch.notes.wait');
}
