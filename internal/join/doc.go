// Package join counts the solutions of the N-Queens problem by joining
// half boards, for package count. The board is cut into a left half
// (columns [0, CL)), S separator columns and a right half, CL = (N−S)/2. A
// key is a set E of rows for the left half's queens and a placement of the
// separator's queens; its solutions are the pairs (left placement on E,
// right placement on the other rows) that avoid the separator and share no
// diagonal. Only the 4·CL − 2 diagonals that cross both halves can be
// shared: they are a placement's pattern.
//
// A half's placements come from the [Tables] of quarter placements (rows
// [0, TR) and [TR, N) of the left half, by rows and columns): for each
// column set of the top quarter, the top placements are joined with the
// bottom ones on the other columns that share no diagonal with them. The
// right half is built as a left half on its rows and mirrored (its pattern
// reversed). A sieve (sieve.go) splits both lists again and again on a
// bit that many patterns of both have, so that the pairs sharing it are
// never looked at (at N = 22 it leaves about one pair in 50 to compare).
// The pairs left are counted by bit-sliced tables: the longer list in
// blocks of 512, each block a table per chunk of up to 9 pattern bits
// whose row v holds the patterns missing every bit of v; a pattern of the
// other list counts the AND of its chunks' rows.
//
// The mirrors in the middle column and the middle row, and the half turn,
// map keys onto keys with the same count; [Layout] keeps one per orbit,
// weighted by its size, and groups the keys into units.
//
// [Worker.CountUnit] is the entry point. The inner loops exist in Go and,
// on amd64 with AVX-512 (with VBMI, VPOPCNTDQ, GFNI and BMI2), in assembly
// (*_amd64.s); allOps lists them, and the tests run each one the CPU
// has against the Go ones. The build tag purego leaves the assembly out.
//
// docs/engine.md walks the join through a 6×6 board, in pictures that
// walk_test.go draws from this package's own tables, halves and matcher,
// and maps each idea to its file; start there.
package join

//go:generate go run make_tables.go
