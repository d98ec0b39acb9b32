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

// stopEvery is how many nodes pass between two looks at the stop flag; a
// power of two.
const stopEvery = 1 << 16

// A row's key orders the rows to branch on: its free squares above
// keyShift bits of rank (rankOf: the distance from the middle above
// rankShift bits of row number). noKey is above every key.
const (
	keyShift  = 12
	rankShift = 6
	noKey     = 1 << 62
)

// Count returns the number of ways to complete b and the number of search
// nodes: queens placed by the loop while more than three rows were empty
// (the last three rows are counted in closed form and add none). It gives
// up early, returning ok = false, once stop is set; stop may be nil. Cost:
// proportional to the nodes, at a few times N machine instructions each; no
// allocation.
func Count(b *Board, stop *atomic.Bool) (solutions, nodes uint64, ok bool) {
	if b.N <= 32 {
		return count32Loop(b, stop)
	}
	return countWide(b, stop)
}

// count32Loop is the search Count runs for N ≤ 32: count32, or a faster
// search of the same tree where this machine has one (loop_amd64.go).
var count32Loop = count32

// implementation is one of the loops that search the tree of [Count];
// each visits the same nodes and finds the same completions.
type implementation struct {
	name  string
	count func(*Board, *atomic.Bool) (sols, nodes uint64, ok bool)
	maxN  int  // the largest board it takes
	ok    bool // this CPU runs it
}

// implementations lists every loop once: the Go ones here, the others
// beside their assembly (loop_amd64.go). The tests run each one this CPU
// runs against the others.
var implementations = []implementation{
	{"count32", count32, 32, true},
	{"countBatchGo", countBatchGo, 32, true},
	{"countWide", countWide, MaxN, true},
}

// CountReference is [Count] run by the Go loops only, never the assembly
// one, so that tests elsewhere can hold the two against each other.
func CountReference(b *Board) (solutions, nodes uint64) {
	if b.N <= 32 {
		solutions, nodes, _ = count32(b, nil)
	} else {
		solutions, nodes, _ = countWide(b, nil)
	}
	return solutions, nodes
}

type frame struct {
	occ, diag, anti, rem, avail uint64
	row                         int
}

// count32 is the search for N ≤ 32, where every mask fits in one word.
//
// Columns are bits 0 … N−1, and occ also holds every bit from N up. A queen
// (r, c) sets bit (c − r) mod 64 of diag and bit c + r of anti, so the
// squares that the queens attack in row r are rotl(diag, r) | rotr(anti, r):
// one rotation each, by the same amount. Rotation wraps, but harmlessly: a
// diagonal reaches the columns −(N−1) … 2N−2 from the board's rows, and
// for N ≤ 32 none of those off the board lands on bits 0 … N−1 mod 64.
func count32(b *Board, stop *atomic.Bool) (sols, nodes uint64, ok bool) {
	if bits.OnesCount64(b.Rows) <= 3 {
		return countSmall(b), 0, true
	}
	occ := b.Cols | ^uint64(0)<<uint(b.N)
	diag, anti, rem := bits.RotateLeft64(b.Diag, 1-b.N), b.Anti, b.Rows
	rank := ranks(b.N)
	row, avail := firstRow(occ, diag, anti, rem, &rank)
	rem &^= 1 << uint(row)
	// Each level fills a row and leaves at least three, so d < N − 3.
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
		nd := diag | bits.RotateLeft64(bit, -row)
		na := anti | bits.RotateLeft64(bit, row)
		x := rem & (rem - 1)
		if y := x & (x - 1); y&(y-1) == 0 {
			// Three rows r1 < r2 < r3 left (rem never drops below three
			// here).
			r1 := bits.TrailingZeros64(rem) & 63
			r2 := bits.TrailingZeros64(x) & 63
			r3 := bits.TrailingZeros64(y) & 63
			A := ^(no | bits.RotateLeft64(nd, r1) | bits.RotateLeft64(na, -r1))
			B := ^(no | bits.RotateLeft64(nd, r2) | bits.RotateLeft64(na, -r2))
			C := ^(no | bits.RotateLeft64(nd, r3) | bits.RotateLeft64(na, -r3))
			sols += last3(A, B, C, ^no, uint64(r1), uint64(r2), uint64(r3))
			continue
		}
		key := uint64(noKey)
		var cover uint64
		for x := rem; x != 0; x &= x - 1 {
			r := bits.TrailingZeros64(x) & 63
			a := ^(no | bits.RotateLeft64(nd, r) | bits.RotateLeft64(na, -r))
			cover |= a
			key = bmin(key, uint64(bits.OnesCount64(a))<<keyShift|rank[r])
		}
		// A row with no free square, or a free column that no row can
		// take, is a dead end.
		if key < 1<<keyShift || cover != ^no {
			continue
		}
		// Field by field: a composite literal is built on the stack and
		// copied in 16-byte moves, which stall on store forwarding.
		f := &stack[d&31]
		f.occ, f.diag, f.anti, f.rem, f.avail, f.row = occ, diag, anti, rem, avail, row
		d++
		row = int(key & (1<<rankShift - 1))
		occ, diag, anti, rem = no, nd, na, rem&^(1<<uint(row))
		avail = ^(occ | bits.RotateLeft64(diag, row) | bits.RotateLeft64(anti, -row))
	}
	return sols, nodes, true
}

// firstRow returns the row count32 branches on first, the empty row of
// rem with the fewest free squares (ties by rank), and those squares.
func firstRow(occ, diag, anti, rem uint64, rank *[64]uint64) (row int, avail uint64) {
	key := uint64(noKey)
	for x := rem; x != 0; x &= x - 1 {
		r := bits.TrailingZeros64(x) & 63
		a := ^(occ | bits.RotateLeft64(diag, r) | bits.RotateLeft64(anti, -r))
		key = bmin(key, uint64(bits.OnesCount64(a))<<keyShift|rank[r])
	}
	row = int(key & (1<<rankShift - 1))
	return row, ^(occ | bits.RotateLeft64(diag, row) | bits.RotateLeft64(anti, -row))
}

// last3 counts the ways to finish a board with three empty rows r1 < r2 <
// r3, whose free squares are A, B and C, and three free columns f: branch
// on r1's column u, then the other two columns v < w go one to each row,
// either way round, unless v and w share a diagonal. Branch-free apart from
// the loop, as its outcomes are hard to predict.
func last3(A, B, C, f, r1, r2, r3 uint64) (sols uint64) {
	d12, d13, d23 := (r2-r1)&63, (r3-r1)&63, (r3-r2)&63
	for ; A != 0; A &= A - 1 {
		u := A & -A
		bb := B &^ (u | u<<d12 | u>>d12)
		cc := C &^ (u | u<<d13 | u>>d13)
		g := f ^ u
		v := g & -g
		w := g ^ v
		sols += (b2u(bb&v != 0)&b2u(cc&w != 0) + b2u(bb&w != 0)&b2u(cc&v != 0)) & -b2u(w != v<<d23)
	}
	return sols
}

// rankOf is the tie-break order of row r of n: it packs r's distance from
// the middle of the board (in half rows) above r itself, so among rows with
// as few free squares the most central, then the lowest, is taken.
func rankOf(n, r int) uint64 {
	return uint64(max(2*r-(n-1), n-1-2*r))<<rankShift | uint64(r)
}

// ranks tabulates [rankOf] for the hot loop.
func ranks(n int) (rank [64]uint64) {
	for r := range n {
		rank[r] = rankOf(n, r)
	}
	return rank
}

// bmin is min(a, b) for a, b < 2⁶³ without a branch: the compiler may
// turn min into a jump, which the search mispredicts.
func bmin(a, b uint64) uint64 {
	t := b - a
	return a + t&uint64(int64(t)>>63)
}

func b2u(b bool) uint64 {
	var x uint64
	if b {
		x = 1
	}
	return x
}

// countSmall finishes a board by plain enumeration, top row first; the
// engines use it for three empty rows or fewer.
func countSmall(b *Board) uint64 {
	if b.Rows == 0 {
		return 1
	}
	r := bits.TrailingZeros64(b.Rows)
	var sols uint64
	for a := b.Free(r); a != 0; a &= a - 1 {
		child := *b
		child.Place(r, bits.TrailingZeros64(a))
		sols += countSmall(&child)
	}
	return sols
}

// Probe follows one random path of the tree that [Count] searches, choosing
// uniformly among the children at each node, and returns Knuth's unbiased
// estimates of Count's node and solution numbers for b (the products of the
// branching factors met on the way). pick(k) must return a uniform integer in
// [0, k). Cost O(N²) per probe.
func Probe(b *Board, pick func(k int) int) (nodes, solutions float64) {
	cur := *b
	if bits.OnesCount64(cur.Rows) <= 3 {
		return 0, float64(countSmall(&cur))
	}
	prod := 1.0
	for first := true; bits.OnesCount64(cur.Rows) > 3; first = false {
		row, avail, covered := cur.choose()
		k := bits.OnesCount64(avail)
		if k == 0 || !first && !covered {
			return nodes, 0
		}
		prod *= float64(k)
		nodes += prod
		for i := pick(k); i > 0; i-- {
			avail &= avail - 1
		}
		cur.Place(row, bits.TrailingZeros64(avail))
	}
	return nodes, prod * float64(countSmall(&cur))
}
