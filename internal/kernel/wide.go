package kernel

import (
	"math/bits"
	"sync/atomic"
)

// countWide is count32 for 32 < N ≤ 64, where each diagonal set takes two
// words. It follows the same branching rule, so node counts agree.
func countWide(b *Board, stop *atomic.Bool) (sols, nodes uint64, ok bool) {
	if bits.OnesCount64(b.Rows) <= 3 {
		return countSmall(b), 0, true
	}
	type wframe struct {
		b     Board
		avail uint64
		row   int
	}
	var stack [64]wframe
	cur := *b
	row, avail, _ := cur.choose()
	cur.Rows &^= 1 << uint(row)
	d := 0
	budget := stopEvery
	for {
		if avail == 0 {
			if d == 0 {
				break
			}
			d--
			f := &stack[d&63]
			cur, avail, row = f.b, f.avail, f.row
			continue
		}
		c := bits.TrailingZeros64(avail)
		avail &= avail - 1
		nodes++
		child := cur
		child.Place(row, c)
		if bits.OnesCount64(child.Rows) == 3 {
			sols += countSmall(&child)
			continue
		}
		r, a, covered := child.choose()
		if a == 0 || !covered {
			continue
		}
		budget--
		if budget == 0 {
			budget = stopEvery
			if stop != nil && stop.Load() {
				return sols, nodes, false
			}
		}
		stack[d&63] = wframe{cur, avail, row}
		d++
		cur, avail, row = child, a, r
		cur.Rows &^= 1 << uint(r)
	}
	return sols, nodes, true
}

// Branch returns the row that [Count] branches on first for b, and its free
// squares: the empty row with the fewest free squares, nearest the middle
// on ties. Callers split a count by its children.
func (b *Board) Branch() (row int, avail uint64) {
	row, avail, _ = b.choose()
	return row, avail
}

// choose returns the empty row with the fewest free squares (on ties the
// one nearest the middle, then the lowest, as [rankOf] orders them) and
// those squares, and whether every free column has a free square in some
// empty row.
func (b *Board) choose() (row int, avail uint64, covered bool) {
	best := uint64(noKey)
	var cover uint64
	for x := b.Rows; x != 0; x &= x - 1 {
		r := bits.TrailingZeros64(x)
		a := b.Free(r)
		cover |= a
		if key := uint64(bits.OnesCount64(a))<<keyShift | rankOf(b.N, r); key < best {
			best, row, avail = key, r, a
		}
	}
	mask := ^uint64(0) >> uint(64-b.N)
	return row, avail, cover == mask&^b.Cols
}
