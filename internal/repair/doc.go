// Package repair is the local search that solve.Random and complete's
// search beyond the exact limit share: a board with one queen a row and a
// column, some rows of which may move (Board.Movable), is repaired by
// swapping the columns of an attacked row and a random movable row while
// that lowers the cost, the number of collisions (queens beyond the first on
// a diagonal) plus the queens standing on blocked squares. Diagonal
// occupancy prices a swap in O(1), and the random stream (wyrand) is the
// same on every machine, so a seed gives the same board everywhere.
//
// The caller places the queens and keeps whatever heuristic it likes for
// the first board; Board.Repair takes it from there.
package repair
