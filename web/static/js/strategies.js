// What the page teaches about each strategy: its pseudocode, with the line
// each kind of event comes from, one sentence per event, and a paragraph on
// what the strategy shows. Rows and columns count from 1, as on the board.
// The numbers quoted are those of `nqueens count 8 --algo NAME --stats`.

// Each line is [text, kind]: kind is the event ('start', 'place', 'reject',
// 'remove', 'solution') whose step the line is marked for.
const code = {
  'backtrack-2d': [
    ['solve(row):', 'start'],
    ['  if row > n:', ''],
    ['    report the grid as a solution; return', 'solution'],
    ['  for col in 1..n:', ''],
    ['    if a 1 is in column col, or on a diagonal, of grid:', 'reject'],
    ['      continue            # attacked: try the next column', ''],
    ['    grid[row][col] = 1', 'place'],
    ['    solve(row + 1)', ''],
    ['    grid[row][col] = 0    # back: lift the queen', 'remove'],
  ],
  'backtrack-array': [
    ['solve(row):', 'start'],
    ['  if row > n:', ''],
    ['    report queens; return', 'solution'],
    ['  for col in 1..n:', ''],
    ['    if some r < row has queens[r] == col', 'reject'],
    ['       or |row − r| == |col − queens[r]|: continue', ''],
    ['    queens[row] = col', 'place'],
    ['    solve(row + 1)', ''],
    ['    queens[row] = 0       # back: lift the queen', 'remove'],
  ],
  'backtrack-flags': [
    ['solve(row):', 'start'],
    ['  if row > n:', ''],
    ['    report queens; return', 'solution'],
    ['  for col in 1..n:', ''],
    ['    if cols[col] or diag[row − col + n] or anti[row + col − 1]:', 'reject'],
    ['      continue            # a flag is set: attacked', ''],
    ['    queens[row] = col; set the three flags', 'place'],
    ['    solve(row + 1)', ''],
    ['    clear the three flags; queens[row] = 0', 'remove'],
  ],
  'backtrack-flags-iterative': [
    ['row = 1', 'start'],
    ['while row ≥ 1:', ''],
    ['  if queens[row] ≠ 0: clear its flags, col = queens[row] + 1, queens[row] = 0', 'remove'],
    ['  else: col = 1', ''],
    ['  while col ≤ n and a flag of (row, col) is set: col += 1', 'reject'],
    ['  if col > n: row −= 1; continue     # row exhausted: back up', ''],
    ['  queens[row] = col; set the three flags', 'place'],
    ['  if row == n: report queens', 'solution'],
    ['  else: row += 1', ''],
  ],
  stack: [
    ['stack = []; col = 1', 'start'],
    ['loop:', ''],
    ['  row = height(stack) + 1', ''],
    ['  if row > n: report the stack; col = n + 1', 'solution'],
    ['  else if col ≤ n and a queen on the stack attacks (row, col):', 'reject'],
    ['    col += 1; continue', ''],
    ['  else if col ≤ n: push (row, col); col = 1; continue', 'place'],
    ['  if the stack is empty: stop', ''],
    ['  (r, c) = pop(); col = c + 1          # backtrack', 'remove'],
  ],
  bitmask: [
    ['solve(row, cols, ld, rd):', 'start'],
    ['  if row > n: report a solution; return', 'solution'],
    ['  free = all & ~(cols | ld | rd)', ''],
    ['  # attacked columns are not in free: skipped, only counted', 'reject'],
    ['  while free ≠ 0:', ''],
    ['    bit = free & −free; free ^= bit    # lowest free column', 'place'],
    ['    solve(row + 1, cols | bit, (ld | bit) << 1, (rd | bit) >> 1)', ''],
    ['    # back from the call: the queen is lifted', 'remove'],
  ],
  'brute-rows': [
    ['for each board with one queen a row (n^n, an odometer on the columns):', 'start'],
    ['  if two queens share a column or a diagonal: next board', 'reject'],
    ['  else: report the board', 'solution'],
  ],
  permutations: [
    ['for each permutation of the columns (n!, one queen a row and a column):', 'start'],
    ['  if two queens share a diagonal: next permutation', 'reject'],
    ['  else: report the board', 'solution'],
  ],
  'brute-combinations': [
    ['for each set of n squares out of n² (C(n², n) of them):', 'start'],
    ['  if two queens share a row, a column or a diagonal: next set', 'reject'],
    ['  else: report the board', 'solution'],
  ],
};

export const paragraphs = {
  'brute-combinations': 'The most naive search: choose any n squares of the n² and check the board whole. For n = 8 that is C(64, 8) = 4,426,165,368 candidates for 92 solutions; most put two queens in one row, which the smallest insight rules out.',
  'brute-rows': 'One queen in each row, every column for each: n^n candidates, 16,777,216 for n = 8, each checked whole. Knowing that a row holds one queen already divides the work by about 264, and still nothing is learnt from a failed board.',
  permutations: 'One queen a row and a column: the n! permutations (40,320 for n = 8), so only the diagonals need checking. Counting the candidates shows what each piece of knowledge about the problem saves.',
  'backtrack-2d': 'Backtracking as the articles first write it: the board is an n×n grid of 0s and 1s, and each try scans the column and both diagonals for a 1. A partial board that is already attacked is abandoned at once: for n = 8 only 2,056 queens are ever placed, with 13,664 rejected tries.',
  'backtrack-array': 'The same search on a 1-D array: queens[row] is the column of that row\'s queen, so two queens can never share a row, and a try compares the new square with each earlier queen (same column, or |Δrow| = |Δcolumn|).',
  'backtrack-flags': 'Three arrays of flags, one per column and one per diagonal of each direction, answer "is this square attacked?" in one look: a ↘ diagonal keeps row − column constant, a ↙ one row + column. Hover a square to see its three flags.',
  'backtrack-flags-iterative': 'The flag arrays without recursion: a row pointer goes down after a placement and back up when a row runs out of columns, and queens[row] remembers where to resume. The same 2,056 placements and 13,664 rejected tries as the recursion.',
  stack: 'The explicit stack of the articles: the queens placed so far are a stack of (row, column) pairs, the next row is its height, and each new square is tested against every queen on it. For n = 8 it pushes 2,056 queens, rejects 13,664 tries and finds 92 solutions.',
  bitmask: 'The fastest classic: the columns and the two diagonal directions are bits of three words, so the free squares of a row are one word, all & ~(cols | ld | rd). Going down a row shifts the ↘ diagonals one column right and the ↙ ones one column left; attacked squares are never looked at, only counted.',
};

export function pseudocode(algo) {
  return code[algo] || code.stack;
}

// lineFor is the index of the pseudocode line of event e (null: the start).
export function lineFor(algo, e) {
  const kind = e ? e.kind : 'start';
  return pseudocode(algo).findIndex(([, k]) => k === kind);
}

const sq = (r, c) => `(${r}, ${c})`;
// lineWord says along which line an attack runs, whatever the spelling of
// the attack's name ("anti-diagonal", "same anti-diagonal", …).
const lineWord = (attack) => {
  const a = String(attack);
  if (a.includes('anti')) return 'on a ↙ diagonal';
  if (a.includes('diag')) return 'on a ↘ diagonal';
  if (a.includes('row')) return 'on its row';
  return 'on its column';
};
const lineWords = new Proxy({}, { get: (_, k) => lineWord(k) });

// flagOf names the flag that a queen at by sets and (r, c) finds set.
function flagOf(e, n) {
  const line = lineWord(e.attack);
  if (line.includes('↙')) return `anti[${e.row + e.col - 1}]`;
  if (line.includes('↘')) return `diag[${e.row - e.col + n}]`;
  return `cols[${e.col}]`;
}

// explain says in one sentence what event e means for strategy algo.
export function explain(algo, e, n) {
  if (!e) return `The empty ${n}×${n} board: the search starts in row 1, column 1.`;
  if (e.candidate !== undefined) return explainCandidate(algo, e, n);
  const { row: r, col: c } = e;
  const by = e.by ? `the queen in row ${e.by.row}, column ${e.by.col}` : '';
  if (e.kind === 'solution') {
    return `Every row holds a queen and none attacks another: solution ${e.counters.solutions}.`;
  }
  const next = r < n ? `row ${r + 1}` : 'a full board';
  const say = (sentences) => sentences[e.kind]();
  switch (algo) {
    case 'stack':
      return say({
        place: () => `Push ${sq(r, c)}: no queen on the stack attacks it. Next: ${next}, from column 1.`,
        reject: () => `${sq(r, c)} is attacked by ${by} ${lineWords[e.attack]}: ${c < n ? `move right to column ${c + 1}` : `row ${r} has no column left`}.`,
        remove: () => `Pop ${sq(r, c)}: nothing below it worked; try row ${r} from column ${c + 1}.`,
      });
    case 'bitmask':
      return say({
        place: () => `Column ${c} is the lowest free bit of row ${r}: place it, then shift ld left and rd right for ${next}.`,
        reject: () => `Column ${c} of row ${r} is not in free: ${by} set its bit ${lineWords[e.attack]}. Skipped, only counted.`,
        remove: () => `Back from row ${r + 1}: clear the bit of column ${c} and take the next free bit of row ${r}.`,
      });
    case 'backtrack-flags': case 'backtrack-flags-iterative':
      return say({
        place: () => `cols[${c}], diag[${r - c + n}] and anti[${r + c - 1}] are all false: place the queen and set them.`,
        reject: () => `${flagOf(e, n)} is set by ${by}: row ${r}, column ${c} is attacked.`,
        remove: () => `Lift the queen of row ${r}: clear cols[${c}], diag[${r - c + n}], anti[${r + c - 1}] and go on from column ${c + 1}.`,
      });
    case 'backtrack-array':
      return say({
        place: () => `queens[${r}] = ${c}: no earlier queen shares its column or a diagonal.`,
        reject: () => lineWord(e.attack) === 'on its column'
          ? `queens[${e.by.row}] = ${e.by.col}: same column as ${sq(r, c)}.`
          : `|${r} − ${e.by.row}| = |${c} − ${e.by.col}|: ${by} is on a diagonal of ${sq(r, c)}.`,
        remove: () => `queens[${r}] = 0: nothing below worked; try column ${c + 1}.`,
      });
    default: // backtrack-2d
      return say({
        place: () => `grid[${r}][${c}] = 1: the scans of its column and diagonals found no 1.`,
        reject: () => `The scan from ${sq(r, c)} finds the 1 at ${sq(e.by.row, e.by.col)} ${lineWords[e.attack]}.`,
        remove: () => `grid[${r}][${c}] = 0: nothing below worked; try column ${c + 1}.`,
      });
  }
}

function explainCandidate(algo, e, n) {
  const what = { 'brute-rows': 'board', permutations: 'permutation', 'brute-combinations': 'set of squares' }[algo] || 'candidate';
  if (e.kind === 'solution') return `Candidate ${e.candidate.toLocaleString('en-US')} is a solution: no two queens attack each other.`;
  const how = lineWord(e.attack).replace('on its', 'share a').replace('on a', 'share a');
  return `Candidate ${e.candidate.toLocaleString('en-US')} fails: the queens at ${sq(e.by.row, e.by.col)} and ${sq(e.row, e.col)} ${how}. On to the next ${what} of the ${n}×${n} board.`;
}
