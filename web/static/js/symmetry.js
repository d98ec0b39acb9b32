// The 8 symmetries of the square, by the names of `nqueens show
// --transform`, each a map of a 1-based square (r, c) of the n×n board: the
// one copy the page keeps of them (the gallery names each board's, the
// lesson and the construction compare boards with them). The server's
// own are board.Symmetries; TestLessonPage works the lesson's figures out
// again with those.

export const symmetries = {
  identity: (r, c) => [r, c],
  rot90: (r, c, n) => [c, n + 1 - r],
  rot180: (r, c, n) => [n + 1 - r, n + 1 - c],
  rot270: (r, c, n) => [n + 1 - c, r],
  'mirror-cols': (r, c, n) => [r, n + 1 - c],
  'mirror-rows': (r, c, n) => [n + 1 - r, c],
  transpose: (r, c) => [c, r],
  'anti-transpose': (r, c, n) => [n + 1 - c, n + 1 - r],
};

// image is the board of queens (1-based columns, row by row) under the
// symmetry name.
export function image(name, queens) {
  const n = queens.length;
  const out = new Array(n).fill(0);
  queens.forEach((c, i) => {
    const [r2, c2] = symmetries[name](i + 1, c, n);
    out[r2 - 1] = c2;
  });
  return out;
}

// symmetryTo names the symmetry that maps queens onto target, '' for none.
export function symmetryTo(queens, target) {
  const want = target.join(',');
  return Object.keys(symmetries).find((name) => image(name, queens).join(',') === want) || '';
}
