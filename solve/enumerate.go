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
// column sequence, one core, row by row: the reference [List] is held to
// ([List] gives the same on every core, several times faster). Each
// yielded placement is a fresh copy the caller may keep.
// Stopping the loop stops the search. Cost: proportional to the backtracking
// tree, about n! / 2.5^n nodes. The first solution in lexicographic order
// comes within milliseconds up to n ≈ 30 but takes hours for some n near 60:
// [Construct] or [Random] give one solution fast. An n out of
// 1..[MaxEnumerateN] is the only pair, with a *[board.SizeError] (the
// convention of package board).
func All(n int) iter.Seq2[board.Placement, error] {
	return func(yield func(board.Placement, error) bool) {
		if err := CheckEnumerateN(n); err != nil {
			yield(nil, err)
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
				if !yield(cols.Clone(), nil) {
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

// Class is one class of solutions under the 8 symmetries of the square:
// its canonical board, the lexicographically smallest of the orbit, and the
// orbit's size (1, 2, 4 or 8).
type Class struct {
	Canonical board.Placement
	Size      int
}

// Unique yields one [Class] per class of solutions (OEIS A002562), in the
// lexicographic order of their canonical boards; an n out of range is the
// only pair, as for [All]. It filters All with [board.Canonical], so it
// costs about 8n more per solution.
func Unique(n int) iter.Seq2[Class, error] {
	return func(yield func(Class, error) bool) {
		for p, err := range All(n) {
			if err != nil {
				yield(Class{}, err)
				return
			}
			c, size, err := board.Canonical(p)
			if err != nil || !c.Equal(p) {
				continue
			}
			if !yield(Class{Canonical: p, Size: size}, nil) {
				return
			}
		}
	}
}

// CheckEnumerateN says why n cannot be enumerated (a *[board.SizeError]),
// or nil.
func CheckEnumerateN(n int) error { return board.CheckSize(n, "enumeration", MaxEnumerateN) }
