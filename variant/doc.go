// Package variant counts, lists and checks the variants of the N-Queens
// problem that researchers and puzzle books study next, with one engine
// parameterised by the board, the piece and the number of pieces
// ([Spec]):
//
//   - toroidal queens, whose diagonals wrap round the edges (OEIS A051906;
//     solutions exist only when gcd(N, 6) = 1, Pólya);
//   - superqueens (amazons), which also move as a knight (OEIS A051223,
//     classes A051224; the first solutions are at N = 10);
//   - K pieces on an N × N board (OEIS A036464, A047659, A061994, A108792
//     for K = 2 … 5) or on N rows × M columns (N queens, one a row: the
//     triangle A269133), and any combination of these that is defined (a
//     torus must be square).
//
// [Count] gives the exact total and the classes under the board's
// symmetries; [Spec.OEIS] names the sequences the numbers are terms of;
// [Solutions] enumerates the placements and [Unique] one of each class
// (the first of its [Orbit]); [Find] makes one placement, by construction
// or search, or says why there is none; [Verify] and [Check] check one;
// [EstimateTree] and [MeasureRate] predict a count's work and time.
//
// # Method
//
// Search. Rows are filled top down, each with one piece or, while the rows
// left can still take the pieces to come, none. A row's free squares are
// one word: the columns taken, the ↘ and ↙ diagonals (shifted one column
// per row; rotated within the row on a torus), and for a superqueen the
// knight's squares of the pieces one and two rows up (on a torus also those
// of rows 0 and 1, a knight's move round the edge from the last two rows).
// The last piece is counted in closed form: the free squares of its row
// and of every row below. The search keeps an explicit stack and allocates
// nothing. A board with more rows than columns is searched transposed.
//
// Units and symmetry. The count is cut into work units by the decisions of
// the first rows (the first piece's row and column, then every choice of
// the next few rows, deep enough for about a thousand units), which run in
// parallel on count's runner (internal/runner). Every unit's first piece
// stands where a symmetry puts it: on a torus in column 0, as turning the
// columns round (c → c + t mod N) maps placements to placements and moves
// the first piece, so each placement is one of exactly N alike (the unit
// weighs N); elsewhere in the left half or on the middle column, by the
// left-right mirror (weight 2, or 1 on the middle column).
//
// Unique count. Classes are counted under the symmetries of the board: the
// 8 of the square (the torus included, whose rows and columns may also be
// turned round: those translations are not merged here, so the torus's
// classes are those of D4 alone, a larger number than OEIS A053994's), or
// the 4 of a rectangle (the two mirrors and the half turn). By Burnside's
// lemma the number of classes is the mean over the symmetries of the
// placements each fixes. The identity fixes them all; for each other
// symmetry a separate search places whole orbits of squares (a piece with
// its images; a row left empty forbids its images), a tree of about the
// square root of the full one. The sum must divide exactly, or the count is
// an error. [Result.Fixed] holds the fixed counts.
//
// Exactness. Sums are 128-bit; a unit's count times its weight past 64
// bits is an error. Tests hold every count against a brute force over all
// sets of squares, with the attack rule written square by square, for
// boards up to 7 × 7 and 6 × 7; every count is checked against its
// published OEIS term where there is one ([Spec.Reference], from the
// table embedded in package internal/oeis, which says where each came
// from), and a
// difference is an error.
package variant
