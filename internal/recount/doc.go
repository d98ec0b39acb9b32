// Package recount counts a unit of package count again by code that
// shares nothing with the engines that counted it: a plain backtracking
// search, row by row, each queen on a square whose column and diagonals
// are free, kept as one bool per line (no bit sets, tables or vector
// loops, nothing of internal/join or internal/kernel).
//
// A unit of the join of half boards is a run of keys ([Key]: the rows of
// the left half's queens and the separator's placement); the recount
// searches each key's solutions restricted to it and weighs them by the
// key's images under the mirrors and the half turn, which it works out
// itself ([Key.Weight]) and checks against the join's weight. A unit of
// the tree search, and a rotation unit of the join, is a border
// constellation ([Border]): the recount searches the completions of its
// border queens, or only those a half or quarter turn maps to themselves,
// and weighs them by the border's orbit ([Border.Orbit]).
//
// It is slow by design: it finds every solution one by one, placing 20 to
// 50 queens per solution, 2 to 8 µs per solution on one core of the
// shared project machine, some thousand times the join's time (a middle
// unit of N = 20 took 130 s, against 0.5 s by the join). A wrong total
// that it checks then needs two unrelated programs to agree on it.
package recount
