// Package classic implements the classic N-Queens algorithms the articles
// walk through, from brute force to the bitmask search, each as a separate,
// readable [Strategy] with the data structure the articles use, counting the
// work it does in [Counters]. The backtracking strategies are also a
// [Tracer]: their search is a sequence of [Event] (place, reject, remove,
// solution) that the command line draws and a web page can play, an
// iter.Seq2[Event, error] whose last pair may carry the error that ended it
// (the convention of package board).
//
// Strategies, by [Lookup] name:
//
//	brute-combinations         every set of n squares out of n², checked whole: C(n², n) candidates
//	brute-rows                 one queen a row, n^n candidates, checked whole
//	permutations               one queen a row and column, n! candidates, checked for diagonals
//	backtrack-2d               recursive backtracking on an n×n grid, scanning row, column and diagonals
//	backtrack-array            recursive backtracking on the 1-D column array, |Δrow| == |Δcol| check
//	backtrack-flags            recursive, column and two diagonal flag arrays
//	backtrack-flags-iterative  the same flags with an explicit row pointer instead of recursion
//	stack                      iterative, a stack of (row, column) queens
//	bitmask                    recursive on (row, ld, rd) bit masks
//	fast                       the counting engine of package count: counts only
//
// Counting conventions, shared by every backtracking strategy so that their
// counters agree exactly: rows are filled top down and, on a board with k < n
// queens, every column of row k is tried left to right. A try tests one
// square; it is rejected when a queen already placed attacks the square, and
// otherwise a queen is placed there (pushed). Removing a queen to go on with
// the next column is a backtrack, so a search that runs to the end has as
// many backtracks as placements. Nodes are the boards visited: the empty
// board plus one per placement. Tries = placed + rejected. For n = 8 this
// gives 2,057 nodes (Knuth's count of the backtrack tree), 2,056 placements,
// 13,664 rejected tries of 15,720, and 92 solutions.
//
// Brute-force strategies never place a queen on a partial board: they
// generate whole candidate boards and test each once, so for them nodes and
// tries both count candidates, rejected counts the candidates that are not
// solutions, and placed and backtracks stay 0.
//
// A further strategy can be added with [Register]; [CountOnly] wraps a
// counting engine that does not produce placements, as "fast" wraps
// count.Count.
package classic
