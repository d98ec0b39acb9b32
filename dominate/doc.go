// Package dominate finds the fewest queens that occupy or attack every
// square of an N × N board: the domination number of the queens' graph
// (OEIS A075458), and with independent queens, which also attack no other,
// the independent domination number (A075324); with one such set and the
// number of minimum sets, every placement counted (A002564, A002568).
//
// Up to [ExactReach] the answer is proved by exhaustive search (no set of
// one queen fewer dominates; for independent queens, no independent set of
// any size from the plain minimum up), run on count's parallel runner
// (internal/runner) in units two queens deep. The search branches on the
// undominated square with the fewest squares that could dominate it,
// forbidding in each branch the candidates of the branches before it, so
// each set is met once, and prunes when the queens left, even on the
// squares that dominate most, cannot cover what is undominated.
//
// Past ExactReach, [Solve] returns the smallest set a greedy choice and a
// local search find, with the proved lower bound ⌈(N − 1)/2⌉ beside it
// ([Result.LowerBound]): the gap between the two is what is not known
// here. Every set returned is checked square by square by [Check].
//
// Tests hold the results against a brute force over all sets of squares
// for N ≤ 6 and against the OEIS terms for N ≤ 12 (the terms are in
// ../internal/oeis/oeis.tsv, with their sources).
package dominate
