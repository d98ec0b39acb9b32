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
// Four loops share that rule and visit the same nodes. count32, for
// N ≤ 32, keeps its masks in single words and rotates the diagonals into
// place by the row number (one amount for both families); countWide, with
// two-word diagonal sets, goes up to [MaxN]. count32Asm is count32's loop
// in assembly (loop_amd64.s, for CPUs with POPCNT): the Go compiler, held
// to the x86-64 baseline, tests for POPCNT at every use and spills the
// loop's registers. countBatch (batch.go, batch_amd64.go) walks count32's
// tree level by level: nodes with as many rows left wait in a buffer of
// 256, whose rows are then scanned eight nodes at a time in AVX2
// (batch_amd64.s), with no branch that depends on a node; the children go
// out in rounds, the first one of each node left-packed by the same vector
// code, and the nodes with three rows left are finished four at a time;
// countBatchGo does the same in Go. On amd64 [Count] runs countBatch where
// the CPU has AVX2 (about 0.4 of count32Asm's time per node; N = 32 goes
// to count32Asm), else count32Asm; count32 stays the reference, and the
// loop on other machines. Tests check all of them against brute force and
// against each other, node for node, the assembly loop also when it is
// stopped and resumed every few nodes.
//
// The minimum is taken without a branch (bmin), and the popcounts stay in
// the loop: a jump there is mispredicted about as often as it is taken.
//
// The assembly reads struct fields and constants through go_asm.h; its
// tables come from make_tables.go (go generate); the CPU features come
// from golang.org/x/sys/cpu; the build tag purego leaves the assembly out
// and runs the Go loops everywhere. [implementations] lists every loop
// once, and the tests run each one the CPU has against the others.
package kernel

//go:generate go run make_tables.go
