// Package complete finishes partly filled boards: given queens already
// placed and squares that may not be used, it finds a full solution that
// keeps the queens and avoids the squares ([Complete]), every such solution
// ([All]), or their number ([Count]); or it proves that there is none
// ([ErrNoCompletion]). n-Queens Completion is NP-complete (Gent, Jefferson
// and Nightingale, JAIR 2017), so no method is fast on every board.
//
// Boards up to [ExactLimit] = 64 are searched exactly by bit-parallel
// backtracking in the spirit of their shiftqueens: a row, the free columns
// and the diagonals crossing a row are 64-bit words, so the free squares of
// a row take a few word operations. The search fills the row with the
// fewest free squares first, fills a column with a single free square at
// once, and stops as soon as any row or column has no free square left.
//
// Larger boards, up to [MaxLocalN] rows, get the repair search of
// solve.Random (they share it) with the placed queens fixed, paying for every
// collision and blocked square; it is fast when few queens are placed, but
// it cannot prove that no completion exists, so its failure is a
// *[TooLargeError]. A board past MaxLocalN is refused at once.
//
// [ExcludedDiagonals] generates test boards of the family with whole
// diagonals blocked; near [HardDiagonals] blocked diagonals they are at
// their hardest.
//
// Example:
//
//	p := board.Partial{Queens: board.FromOneBased(2, 0, 0, 0)} // queen at row 1, column 2
//	sol, err := complete.Complete(ctx, p, complete.Options{})  // 2 4 1 3
package complete
