package kernel

import (
	"math/bits"
	"sync/atomic"
)

// MaxNarrowN is the largest N that count22 takes: its masks span 3N − 2
// bits of one word.
const MaxNarrowN = 22

// count22 is count32 for N ≤ [MaxNarrowN], with the masks laid out so that
// the free squares of a row cost one shift amount instead of two: the
// board's columns sit at bits N−1 … 2N−2 of every mask, the diagonal set
// holds bit c−r+N−1 for a queen (r, c) and the anti-diagonal set bit
// r+c+N−1, so row r is free where ^(occ | diag<<r | anti>>r) is set. The
// 3N − 2 positions that a diagonal can reach from the board's rows must fit
// in the word, hence the bound. It visits the same nodes in the same order
// as count32, a tenth to a fifth faster (BenchmarkKernels).
func count22(b *Board, stop *atomic.Bool) (sols, nodes uint64, ok bool) {
	if bits.OnesCount64(b.Rows) <= 3 {
		return countSmall(b), 0, true
	}
	off := uint(b.N - 1)
	mask := uint64(1)<<uint(b.N) - 1
	occ := ^((mask &^ b.Cols) << off)
	diag, anti, rem := b.Diag, b.Anti<<off, b.Rows
	rank := ranks(b.N)
	key := uint64(1 << 62)
	for x := rem; x != 0; x &= x - 1 {
		r := uint64(bits.TrailingZeros64(x)) & 63
		a := ^(occ | diag<<r | anti>>r)
		key = bmin(key, uint64(bits.OnesCount64(a))<<12|rank[r])
	}
	row := key & 63
	avail := ^(occ | diag<<row | anti>>row)
	rem &^= 1 << row
	var stack [32]frame
	d := 0
	for {
		if avail == 0 {
			if d == 0 {
				break
			}
			d--
			f := &stack[d&31]
			occ, diag, anti, rem, avail, row = f.occ, f.diag, f.anti, f.rem, f.avail, f.row
			continue
		}
		bit := avail & -avail
		avail ^= bit
		nodes++
		if nodes&(stopEvery-1) == 0 && stop != nil && stop.Load() {
			return sols, nodes, false
		}
		no := occ | bit
		nd := diag | bit>>row
		na := anti | bit<<row
		x := rem & (rem - 1)
		if y := x & (x - 1); y&(y-1) == 0 {
			r1 := uint64(bits.TrailingZeros64(rem)) & 63
			r2 := uint64(bits.TrailingZeros64(x)) & 63
			r3 := uint64(bits.TrailingZeros64(y)) & 63
			A := ^(no | nd<<r1 | na>>r1)
			B := ^(no | nd<<r2 | na>>r2)
			C := ^(no | nd<<r3 | na>>r3)
			sols += last3(A, B, C, ^no, r1, r2, r3)
			continue
		}
		key := uint64(1 << 62)
		var cover uint64
		for x := rem; x != 0; x &= x - 1 {
			r := uint64(bits.TrailingZeros64(x)) & 63
			a := ^(no | nd<<r | na>>r)
			cover |= a
			key = bmin(key, uint64(bits.OnesCount64(a))<<12|rank[r])
		}
		if key < 1<<12 || cover != ^no {
			continue
		}
		f := &stack[d&31]
		f.occ, f.diag, f.anti, f.rem, f.avail, f.row = occ, diag, anti, rem, avail, row
		d++
		row = key & 63
		occ, diag, anti, rem = no, nd, na, rem&^(1<<row)
		avail = ^(occ | diag<<row | anti>>row)
	}
	return sols, nodes, true
}
