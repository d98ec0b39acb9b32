package solve

import (
	"iter"
	"math/bits"

	"github.com/nqueens/nqueens/board"
)

// MaxEnumerateN is the largest n whose solutions [All] can enumerate: the
// search keeps columns and diagonals in 64-bit masks.
const MaxEnumerateN = 64

// All yields every solution of the n×n board in lexicographic order of the
// column sequence. Each yielded placement is a fresh copy the caller may keep.
// Stopping the loop stops the search. Cost: proportional to the backtracking
// tree, about n! / 2.5^n nodes. The first solution in lexicographic order
// comes within milliseconds up to n ≈ 30 but takes hours for some n near 60:
// [Construct] or [Random] give one solution fast. For n < 1 or
// n > MaxEnumerateN it yields nothing; use [CheckEnumerateN].
func All(n int) iter.Seq[board.Placement] {
	return func(yield func(board.Placement) bool) {
		if CheckEnumerateN(n) != nil {
			return
		}
		full := ^uint64(0) >> (64 - n)
		cols := make(board.Placement, n)
		// Explicit stack of the masks still to try in each row; ld and rd
		// are the diagonals attacked in the row, shifted as rows advance.
		avail := make([]uint64, n)
		colm := make([]uint64, n+1)
		ldm := make([]uint64, n+1)
		rdm := make([]uint64, n+1)
		row := 0
		avail[0] = full
		for row >= 0 {
			a := avail[row]
			if a == 0 {
				row--
				continue
			}
			bit := a & -a
			avail[row] = a ^ bit
			cols[row] = int32(bits.TrailingZeros64(bit))
			if row == n-1 {
				if !yield(cols.Clone()) {
					return
				}
				continue
			}
			colm[row+1] = colm[row] | bit
			ldm[row+1] = (ldm[row] | bit) << 1
			rdm[row+1] = (rdm[row] | bit) >> 1
			row++
			avail[row] = full &^ (colm[row] | ldm[row] | rdm[row])
		}
	}
}

// Unique yields one solution per class under the 8 symmetries of the square
// (OEIS A002562): the lexicographically smallest board of each orbit, in
// lexicographic order, with the orbit's size (1, 2, 4 or 8). It filters [All]
// with [board.Canonical], so it costs about 8n more per solution.
func Unique(n int) iter.Seq2[board.Placement, int] {
	return func(yield func(board.Placement, int) bool) {
		for p := range All(n) {
			c, size, err := board.Canonical(p)
			if err != nil || !c.Equal(p) {
				continue
			}
			if !yield(p, size) {
				return
			}
		}
	}
}

// CheckEnumerateN says why n cannot be enumerated (a *[board.SizeError]),
// or nil.
func CheckEnumerateN(n int) error { return board.CheckSize(n, "enumeration", MaxEnumerateN) }
