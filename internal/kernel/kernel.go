package kernel

import (
	"math/bits"
	"sync/atomic"
)

// MaxN is the largest board the kernels handle: rows and columns are bits of
// a uint64.
const MaxN = 64

// Board is a partial placement on an N×N board, N ≤ [MaxN].
//
// Diag holds bit c−r+N−1 and Anti bit r+c for every queen (r, c) placed; both
// need 2N−1 bits, so boards with N > 32 keep the high halves in DiagHi and
// AntiHi (bits 64 and up).
type Board struct {
	N              int
	Cols           uint64 // occupied columns
	Rows           uint64 // rows still to fill
	Diag, Anti     uint64
	DiagHi, AntiHi uint64
}

// Place adds a queen at (r, c) without any check.
func (b *Board) Place(r, c int) {
	b.Cols |= 1 << uint(c)
	b.Rows &^= 1 << uint(r)
	d := c - r + b.N - 1
	a := r + c
	if d < 64 {
		b.Diag |= 1 << uint(d)
	} else {
		b.DiagHi |= 1 << uint(d-64)
	}
	if a < 64 {
		b.Anti |= 1 << uint(a)
	} else {
		b.AntiHi |= 1 << uint(a-64)
	}
}

// Free returns the squares of row r attacked by no queen of b.
func (b *Board) Free(r int) uint64 {
	mask := ^uint64(0) >> uint(64-b.N)
	s1 := uint(b.N - 1 - r)
	return mask &^ (b.Cols | shr128(b.Diag, b.DiagHi, s1) | shr128(b.Anti, b.AntiHi, uint(r)))
}

// shr128 returns the low 64 bits of (hi:lo) >> s, s < 128.
func shr128(lo, hi uint64, s uint) uint64 {
	if s >= 64 {
		return hi >> (s - 64)
	}
	if s == 0 {
		return lo
	}
	return lo>>s | hi<<(64-s)
}

// stopEvery is how many pushes pass between two looks at the stop flag.
const stopEvery = 1 << 16

// Count returns the number of ways to complete b and the number of search
// nodes (queens placed by the loop; the last two rows are counted in closed
// form and add none). It gives up early, returning ok = false, once stop is
// set; stop may be nil. Cost: proportional to the nodes, at a few times N
// machine instructions each; no allocation.
func Count(b *Board, stop *atomic.Bool) (solutions, nodes uint64, ok bool) {
	if b.N > 32 {
		return countWide(b, stop)
	}
	return count32(b, stop)
}

type frame struct {
	cols, diag, anti, rem, avail, row uint64
}

// count32 is the search for N ≤ 32, where both diagonal sets fit in one word.
func count32(b *Board, stop *atomic.Bool) (sols, nodes uint64, ok bool) {
	mask := ^uint64(0) >> uint(64-b.N)
	n1 := uint64(b.N - 1)
	cols, diag, anti, rem := b.Cols, b.Diag, b.Anti, b.Rows
	switch bits.OnesCount64(rem) {
	case 0:
		return 1, 0, true
	case 1, 2:
		s, nd := countSmall(b)
		return s, nd, true
	}
	// Row with the fewest free squares; key packs (free count, row).
	key := uint64(1 << 62)
	for x := rem; x != 0; x &= x - 1 {
		r := uint64(bits.TrailingZeros64(x))
		a := mask &^ (cols | diag>>((n1-r)&63) | anti>>(r&63))
		key = min(key, uint64(bits.OnesCount64(a))<<6|r)
	}
	row := key & 63
	avail := mask &^ (cols | diag>>((n1-row)&63) | anti>>(row&63))
	rem &^= 1 << row
	var stack [64]frame
	d := 0
	budget := stopEvery
	for {
		if avail == 0 {
			if d == 0 {
				break
			}
			d--
			f := &stack[d&63]
			cols, diag, anti, rem, avail, row = f.cols, f.diag, f.anti, f.rem, f.avail, f.row
			continue
		}
		bit := avail & -avail
		avail ^= bit
		nodes++
		nc := cols | bit
		nd := diag | bit<<((n1-row)&63)
		na := anti | bit<<(row&63)
		if x := rem & (rem - 1); x&(x-1) == 0 {
			// Two rows left (rem never drops below two here): both free
			// columns u < v go one to each row, in either order, unless the
			// two queens would share a diagonal.
			r1 := uint64(bits.TrailingZeros64(rem))
			r2 := uint64(bits.TrailingZeros64(x))
			A := mask &^ (nc | nd>>((n1-r1)&63) | na>>(r1&63))
			B := mask &^ (nc | nd>>((n1-r2)&63) | na>>(r2&63))
			F := mask &^ nc
			u := F & -F
			v := F ^ u
			c := b2u(A&u != 0 && B&v != 0) + b2u(A&v != 0 && B&u != 0)
			if v == u<<((r2-r1)&63) {
				c = 0
			}
			sols += c
			continue
		}
		key := uint64(1 << 62)
		for x := rem; x != 0; x &= x - 1 {
			r := uint64(bits.TrailingZeros64(x))
			a := mask &^ (nc | nd>>((n1-r)&63) | na>>(r&63))
			if a == 0 { // an empty row has no free square: dead end
				key = 0
				break
			}
			key = min(key, uint64(bits.OnesCount64(a))<<6|r)
		}
		if key < 64 {
			continue
		}
		budget--
		if budget == 0 {
			budget = stopEvery
			if stop != nil && stop.Load() {
				return sols, nodes, false
			}
		}
		stack[d&63] = frame{cols, diag, anti, rem, avail, row}
		d++
		row = key & 63
		cols, diag, anti, rem = nc, nd, na, rem&^(1<<row)
		avail = mask &^ (cols | diag>>((n1-row)&63) | anti>>(row&63))
	}
	return sols, nodes, true
}

func b2u(b bool) uint64 {
	var x uint64
	if b {
		x = 1
	}
	return x
}

// countSmall finishes a board with at most two empty rows by plain
// enumeration, top row first.
func countSmall(b *Board) (sols, nodes uint64) {
	if b.Rows == 0 {
		return 1, 0
	}
	r := bits.TrailingZeros64(b.Rows)
	for a := b.Free(r); a != 0; a &= a - 1 {
		c := bits.TrailingZeros64(a)
		child := *b
		child.Place(r, c)
		s, nd := countSmall(&child)
		sols += s
		nodes += nd + 1
	}
	return sols, nodes
}

// Probe follows one random path of the tree that [Count] searches, choosing
// uniformly among the children at each node, and returns Knuth's unbiased
// estimates of Count's node and solution numbers for b (the products of the
// branching factors met on the way). pick(k) must return a uniform integer in
// [0, k). Cost O(N²) per probe.
func Probe(b *Board, pick func(k int) int) (nodes, solutions float64) {
	cur := *b
	if bits.OnesCount64(cur.Rows) <= 2 {
		s, nd := countSmall(&cur)
		return float64(nd), float64(s)
	}
	prod := 1.0
	for bits.OnesCount64(cur.Rows) > 2 {
		row, avail := cur.choose()
		k := bits.OnesCount64(avail)
		if k == 0 {
			return nodes, 0
		}
		prod *= float64(k)
		nodes += prod
		for i := pick(k); i > 0; i-- {
			avail &= avail - 1
		}
		cur.Place(row, bits.TrailingZeros64(avail))
	}
	s, _ := countSmall(&cur)
	return nodes, prod * float64(s)
}
