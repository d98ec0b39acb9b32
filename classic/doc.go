// Package classic implements the classic N-Queens algorithms the articles
// walk through, from brute force to the bitmask search, each as a separate,
// readable [Strategy] with the data structure the articles use, counting the
// work it does in [Counters]. Each is also traceable: its search is a
// sequence of [Event] (place, reject, remove, solution, dead-end, done) that
// its own code emits, each with what its check read, the line of its
// pseudocode ([Lesson]) and a sentence; the command line prints them and a
// web page plays them. A trace is an iter.Seq2[Event, error] whose last pair
// may carry the error that ended it (the convention of package board). The
// tracing costs the untraced search nothing: each search is compiled twice,
// quiet and traced, from one generic function.
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
// counters compare: rows are filled top down and, on a board with k < n
// queens, the columns of row k are taken left to right. A try tests one
// square; it is rejected when a queen already placed attacks the square, and
// otherwise a queen is placed there (pushed). Removing a queen to go on with
// the next column is a backtrack, so a search that runs to the end has as
// many backtracks as placements. Nodes are the placements: the boards the
// search visits below the empty board, which is not counted. Tries = placed
// + rejected. The bitmask search never tries an attacked square: its tries
// are its placements and it rejects nothing. For n = 8 every backtracking
// strategy places 2,056 queens and finds 92 solutions; all but bitmask
// reject 13,664 tries of 15,720.
//
// Reads are the elementary reads a strategy's check makes, the one unit in
// which all of them can be compared: cells of the grid for backtrack-2d,
// queens of the array for backtrack-array, (row, column) halves of a stack
// entry for stack, flags for the flag strategies, words for bitmask (three
// to form a row's free mask, one for each bit taken), and columns of the
// candidate for brute force. For n = 8: backtrack-2d 81,318, backtrack-array
// 46,752, backtrack-flags 24,648, bitmask 7,951.
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
