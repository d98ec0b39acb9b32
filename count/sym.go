package count

import (
	"math/bits"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/kernel"
)

// countSymmetric returns the number of completions of b that g (a rotation
// fixing b's queens) maps to themselves. Such a completion is a union of
// g-orbits of squares, so the search places whole orbits: the queen of the
// lowest empty row together with its images. The tree is about the square
// root of the full one, and this runs only for the few constellations that
// a rotation fixes.
func countSymmetric(b *kernel.Board, g board.Symmetry) uint64 {
	if b.Rows == 0 {
		return 1
	}
	n := b.N
	r := bits.TrailingZeros64(b.Rows)
	var total uint64
	for a := b.Free(r); a != 0; a &= a - 1 {
		col := bits.TrailingZeros64(a)
		child := *b
		child.Place(r, col)
		ok := true
		for rr, cc := g.Map(n, r, col); ok && (rr != r || cc != col); rr, cc = g.Map(n, rr, cc) {
			if child.Rows&(1<<uint(rr)) == 0 || child.Free(rr)&(1<<uint(cc)) == 0 {
				ok = false
			} else {
				child.Place(rr, cc)
			}
		}
		if ok {
			total += countSymmetric(&child, g)
		}
	}
	return total
}
