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
// two-word diagonal sets, up to [MaxN]. On amd64 [Count] runs count32's
// loop written in assembly (loop_amd64.s, for CPUs with POPCNT): the Go
// compiler, held to the x86-64 baseline, tests for POPCNT at every use and
// spills the loop's registers, and the assembly loop takes about a sixth
// less time; count32 stays the reference, and the loop on other machines.
// Tests check all of them against brute force and against each other,
// node for node, the assembly loop also when it is stopped and resumed
// every few nodes.
//
// The minimum is taken without a branch (bmin), and the popcounts stay in
// the loop: a jump there is mispredicted about as often as it is taken.
package kernel
