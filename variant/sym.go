package variant

import (
	"math/bits"
	"sync/atomic"

	"github.com/nqueens/nqueens/board"
)

// symmetry is a symmetry of the board (of g's rows × cols): a map of
// squares that maps attacks to attacks.
type symmetry struct {
	Name string
	Map  func(r, c int) (int, int)
}

// symmetries returns the board's symmetry group, identity first: the 8 of
// the square (the torus included: its lines are mapped to lines too) or
// the 4 of a rectangle, those of package board that keep g's rows × cols.
func (g *geom) symmetries() []symmetry {
	var out []symmetry
	for _, s := range board.Symmetries {
		if s.OnRect(g.rows, g.cols) {
			out = append(out, symmetry{s.String(), func(r, c int) (int, int) { return s.MapRect(g.rows, g.cols, r, c) }})
		}
	}
	return out
}

// attackRow returns the squares of row r2 that a piece at (r, c) attacks,
// its own square included when r2 = r. Cost O(1).
func (g *geom) attackRow(r, c, r2 int) uint64 {
	if r2 == r {
		return g.full
	}
	bit := uint64(1) << uint(c)
	d := r2 - r
	if g.torus {
		d = ((d % g.rows) + g.rows) % g.rows
		if d == 0 {
			return g.full
		}
	}
	var a uint64
	if d > 0 {
		a = bit | g.shl(bit, d) | g.shr(bit, d)
	} else {
		a = bit | g.shl(bit, -d) | g.shr(bit, -d)
	}
	if g.super {
		dist := []int{d, -d}
		if g.torus {
			dist = []int{d, g.rows - d}
		}
		for _, e := range dist {
			switch e {
			case 1:
				a |= g.shl(bit, 2) | g.shr(bit, 2)
			case 2:
				a |= g.shl(bit, 1) | g.shr(bit, 1)
			}
		}
	}
	return a
}

// fixedSearch counts the placements that one symmetry maps to themselves.
// Such a placement is a union of orbits of squares, so the search places
// whole orbits: the lowest row without a piece takes a piece with all its
// images, or stays empty, and then so do its images. The tree is about the
// square root of the full one for a half turn and smaller still for the
// others.
type fixedSearch struct {
	g     *geom
	sym   symmetry
	stop  *atomic.Bool
	nodes uint64
}

// fixedBoard is the state of a fixedSearch: per row, the squares a piece
// may no longer take (attacked, or forbidden as the image of an empty
// row), and the rows that hold a piece.
type fixedBoard struct {
	taken  [MaxSide]uint64
	pieces uint64
}

// place puts pieces on the orbit of (r, c) and reports false when the
// orbit cannot be placed: a square of it is taken or attacked (which covers
// two squares of one orbit attacking each other).
func (f *fixedSearch) place(b *fixedBoard, r, c int, placed *int) bool {
	r0, c0 := r, c
	for {
		if b.taken[r]&(1<<uint(c)) != 0 {
			return false
		}
		for r2 := range f.g.rows {
			b.taken[r2] |= f.g.attackRow(r, c, r2)
		}
		b.pieces |= 1 << uint(r)
		*placed++
		r, c = f.sym.Map(r, c)
		if r == r0 && c == c0 {
			return true
		}
	}
}

// empty leaves row r empty: it forbids the row and every image of its
// squares.
func (f *fixedSearch) empty(b *fixedBoard, r int) {
	for c := range f.g.cols {
		for r2, c2 := f.sym.Map(r, c); r2 != r || c2 != c; r2, c2 = f.sym.Map(r2, c2) {
			b.taken[r2] |= 1 << uint(c2)
		}
	}
	b.taken[r] = f.g.full
}

// count returns the fixed placements that complete b, whose rows above r
// are decided, with placed pieces so far; false if stopped.
func (f *fixedSearch) count(b *fixedBoard, r, placed int) (uint64, bool) {
	g := f.g
	if placed == g.k {
		return 1, true
	}
	f.nodes++
	if f.nodes&(stopEvery-1) == 0 && f.stop != nil && f.stop.Load() {
		return 0, false
	}
	for r < g.rows && b.pieces&(1<<uint(r)) != 0 {
		r++
	}
	room := 0 // rows from r on that can still take a piece
	for r2 := r; r2 < g.rows; r2++ {
		if b.pieces&(1<<uint(r2)) == 0 && b.taken[r2] != g.full {
			room++
		}
	}
	if r == g.rows || room < g.k-placed {
		return 0, true
	}
	var total uint64
	for a := g.full &^ b.taken[r]; a != 0; a &= a - 1 {
		child, p := *b, placed
		if f.place(&child, r, bits.TrailingZeros64(a), &p) && p <= g.k {
			n, ok := f.count(&child, r+1, p)
			if !ok {
				return 0, false
			}
			total += n
		}
	}
	// Row r empty: it took no piece, so none of its images does either.
	if b.taken[r] == g.full || room-1 >= g.k-placed {
		child := *b
		f.empty(&child, r)
		n, ok := f.count(&child, r+1, placed)
		if !ok {
			return 0, false
		}
		total += n
	}
	return total, true
}

// countFixed returns the placements of g's variant that sym maps to
// themselves, the nodes spent, and false if stopped.
func (g *geom) countFixed(sym symmetry, stop *atomic.Bool) (uint64, uint64, bool) {
	f := &fixedSearch{g: g, sym: sym, stop: stop}
	var b fixedBoard
	n, ok := f.count(&b, 0, 0)
	return n, f.nodes, ok
}
