package complete

import (
	"context"
	"math/bits"
)

// checkEvery is how many nodes of the exact search go by between two looks
// at the context: a node costs tens of nanoseconds, so 16 K nodes stop the
// search within a millisecond and cost nothing.
const checkEvery = 1 << 14

// ExactLimit is the largest n the exact search handles: a row, a column set
// and a window of diagonals each fit one 64-bit word.
const ExactLimit = 64

// exact is the state of the bit-parallel backtracking search. Bit c of a
// row's mask is column c; diagonals are 128-bit sets, ↘ ones indexed
// c-r+n-1 and ↙ ones r+c, so that the diagonals crossing row r are one
// 64-bit window of each set and a row's free squares take a few word
// operations.
type exact struct {
	n       int
	blocked [ExactLimit]uint64 // blocked squares of each row
	rows    uint64             // rows without a queen
	cols    uint64             // columns without a queen
	diag    [2]uint64          // ↘ diagonals holding a queen
	anti    [2]uint64          // ↙ diagonals holding a queen
	place   [ExactLimit]int8   // column of each row's queen, or -1
	ctx     context.Context
	err     error // set when ctx ends the search
	nodes   uint64
	// progress, if set, gets the nodes so far every checkEvery nodes.
	progress func(nodes uint64)
}

// newExact sets up the search for an n×n board (n ≤ ExactLimit) holding
// queens (col per row, -1 for none) and blocked squares; the caller has
// checked that no two queens attack each other.
func newExact(ctx context.Context, n int, queens []int32, blocked [][2]int) *exact {
	e := &exact{n: n, ctx: ctx}
	full := uint64(1)<<n - 1
	if n == 64 {
		full = ^uint64(0)
	}
	e.rows, e.cols = full, full
	for r := range n {
		e.place[r] = -1
	}
	for _, sq := range blocked {
		e.blocked[sq[0]] |= 1 << sq[1]
	}
	for r, c := range queens {
		if c >= 0 {
			e.put(r, int(c))
		}
	}
	return e
}

func set128(x *[2]uint64, i int)   { x[i>>6] |= 1 << (i & 63) }
func clear128(x *[2]uint64, i int) { x[i>>6] &^= 1 << (i & 63) }

// window returns bits s..s+63 of x (0 ≤ s < 64); Go defines a shift by 64
// as 0, which is what s = 0 needs.
func window(x [2]uint64, s int) uint64 { return x[0]>>s | x[1]<<(64-s) }

func (e *exact) put(r, c int) {
	e.place[r] = int8(c)
	e.rows &^= 1 << r
	e.cols &^= 1 << c
	set128(&e.diag, c-r+e.n-1)
	set128(&e.anti, r+c)
}

func (e *exact) take(r, c int) {
	e.place[r] = -1
	e.rows |= 1 << r
	e.cols |= 1 << c
	clear128(&e.diag, c-r+e.n-1)
	clear128(&e.anti, r+c)
}

// free returns the squares of row r a new queen may take.
func (e *exact) free(r int) uint64 {
	return e.cols &^ e.blocked[r] &^ window(e.diag, e.n-1-r) &^ window(e.anti, r)
}

// search calls found for every completion of the current board and returns
// false as soon as found does (or the context ends). It branches as
// [exact.choose] says, so each completion is found exactly once.
func (e *exact) search(found func() bool) bool {
	if e.rows == 0 {
		return found()
	}
	e.nodes++
	if e.nodes%checkEvery == 0 {
		if e.progress != nil {
			e.progress(e.nodes)
		}
		if err := e.ctx.Err(); err != nil {
			e.err = err
			return false
		}
	}
	b, ok := e.choose()
	if !ok {
		return true
	}
	for m := b.squares; m != 0; m &= m - 1 {
		r, c := b.square(bits.TrailingZeros64(m))
		if !e.try(r, c, found) {
			return false
		}
	}
	return true
}

// branch is how the search splits a node: a line that every completion
// must fill, and the free squares left on it. A row's squares are columns,
// a column's are rows.
type branch struct {
	line    int
	column  bool
	squares uint64
}

// square is the k-th square of b's line: row and column.
func (b branch) square(k int) (r, c int) {
	if b.column {
		return k, b.line
	}
	return b.line, k
}

// choose is the branching of a node with rows left, or false for a dead
// end: a free row or column with no square left. It takes a column with a
// single square left at once, so forced moves cost no branching; else the
// row with the fewest free squares, or a column with two when every row
// has more.
func (e *exact) choose() (branch, bool) {
	var avail [ExactLimit]uint64
	best, bestCount := -1, ExactLimit+1
	var once, twice, thrice uint64 // columns free in at least one row, two, three
	for rs := e.rows; rs != 0; rs &= rs - 1 {
		r := bits.TrailingZeros64(rs)
		a := e.free(r)
		k := bits.OnesCount64(a)
		if k == 0 {
			return branch{}, false
		}
		if k < bestCount {
			best, bestCount = r, k
		}
		avail[r] = a
		thrice |= twice & a
		twice |= once & a
		once |= a
	}
	if e.cols&^once != 0 {
		return branch{}, false // a column no free row can reach
	}
	column := func(c int) branch {
		b := branch{line: c, column: true}
		for rs := e.rows; rs != 0; rs &= rs - 1 {
			if r := bits.TrailingZeros64(rs); avail[r]&(1<<c) != 0 {
				b.squares |= 1 << r
			}
		}
		return b
	}
	if single := e.cols &^ twice; bestCount > 1 && single != 0 {
		return column(bits.TrailingZeros64(single)), true
	}
	if pair := e.cols & twice &^ thrice; bestCount > 2 && pair != 0 {
		return column(bits.TrailingZeros64(pair)), true // two branches instead of more
	}
	return branch{line: best, squares: avail[best]}, true
}

func (e *exact) try(r, c int, found func() bool) bool {
	e.put(r, c)
	ok := e.search(found)
	e.take(r, c)
	return ok
}

// columns copies the current board into a new slice.
func (e *exact) columns() []int32 {
	out := make([]int32, e.n)
	for r := range e.n {
		out[r] = int32(e.place[r])
	}
	return out
}
