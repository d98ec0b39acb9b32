// Package kernel holds the hot search loops of the exact counter. Only
// package count imports it; everything here is allocation-free and works on
// plain bit masks.
//
// A [Board] is a partial placement: the columns and both diagonal families
// occupied by queens already placed, and the set of rows still empty. [Count]
// finishes it by depth-first search that always branches on the empty row
// with the fewest free squares (on ties the one nearest the middle, which
// cuts the nodes by an eighth at N = 16), prunes a node at once when an empty row has
// no free square or a free column has no free square left in any empty row
// (every row and every column needs a queen), and counts the last three rows
// in closed form. Rows can be filled in any order because diagonals are kept
// as absolute sets, not as masks shifted row by row.
//
// Two loops share that rule and visit the same nodes: count32 for N ≤ 32,
// whose masks are single words and whose diagonals are rotated into place
// by the row number (one amount for both families), and countWide, with
// two-word diagonal sets, up to [MaxN]. Tests check both against brute
// force and against each other, node for node.
//
// The minimum is taken without a branch (bmin), and the popcounts stay in
// the loop: a jump there is mispredicted about as often as it is taken.
package kernel
