// Package recount counts a unit of package count again by code that
// shares nothing with the engines that counted it: backtracking searches
// that place one queen at a time on a square whose row, column and
// diagonals are free (no quarter tables, half lists, pattern matching or
// vector loops, nothing of internal/join or internal/kernel).
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
// A key has two searches. [Key.Count], the one a recount uses, keeps the
// rows and diagonals taken as bits of three words and fills first the
// column with the fewest free rows: 0.2 to 0.4 µs per solution on one
// core of the shared project machine in units of many solutions at
// N = 20 to 24 (2 µs at N = 22 and 12 µs at N = 24 in units of few,
// searching keys that have none), 50 to 250 times the join's time per
// unit. [Key.CountPlain] is
// the plain search it is checked against, one bool per line, column by
// column from the left, 10 to 80 times slower still. Borders have the plain search only:
// their units are those of N ≤ 13 and the symmetric solutions of the
// rotation units, all small. Either way every solution is found one by
// one, so a wrong total that the recount checks needs two unrelated
// programs to agree on it.
package recount
