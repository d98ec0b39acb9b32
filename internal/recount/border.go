package recount

import (
	"context"
	"fmt"
	"slices"
)

// Border is the position of a solution's border queens, as package count
// names its units: the queen of row 0 in column Top, of row N−1 in column
// Bottom, of column 0 in row Left and of column N−1 in row Right.
type Border struct{ Top, Bottom, Left, Right int }

// square is a (row, column) pair.
type square struct{ r, c int }

// squares returns b's queens, a corner queen once, sorted.
func (b Border) squares(n int) []square {
	q := []square{{0, b.Top}, {n - 1, b.Bottom}, {b.Left, 0}, {b.Right, n - 1}}
	slices.SortFunc(q, func(x, y square) int {
		if x.r != y.r {
			return x.r - y.r
		}
		return x.c - y.c
	})
	return slices.Compact(q)
}

// placeBorder puts b's queens on s's board, and reports whether they fit:
// one queen per row and column, none attacking another, and a corner
// queen the border queen of both its row and its column.
func (s *search) placeBorder(b Border) bool {
	n := s.n
	for _, v := range [4]int{b.Top, b.Bottom, b.Left, b.Right} {
		if v < 0 || v >= n {
			return false
		}
	}
	if (b.Top == 0) != (b.Left == 0) || (b.Top == n-1) != (b.Right == 0) ||
		(b.Bottom == 0) != (b.Left == n-1) || (b.Bottom == n-1) != (b.Right == n-1) {
		return false
	}
	for _, q := range b.squares(n) {
		if !s.place(q.r, q.c) {
			return false
		}
	}
	return true
}

// The symmetries of the square, as maps of (row, column) on an n×n board:
// the identity, the three turns, and the four mirrors.
var symmetries = [8]func(n int, q square) square{
	func(n int, q square) square { return q },
	func(n int, q square) square { return square{q.c, n - 1 - q.r} },
	func(n int, q square) square { return square{n - 1 - q.r, n - 1 - q.c} },
	func(n int, q square) square { return square{n - 1 - q.c, q.r} },
	func(n int, q square) square { return square{q.r, n - 1 - q.c} },
	func(n int, q square) square { return square{n - 1 - q.r, q.c} },
	func(n int, q square) square { return square{q.c, q.r} },
	func(n int, q square) square { return square{n - 1 - q.c, n - 1 - q.r} },
}

// Quarter and half turns, indexes into symmetries.
const (
	quarterTurn = 1
	halfTurn    = 2
)

// imageOf returns the squares of b's queens moved by symmetry g, sorted.
func (b Border) imageOf(n, g int) []square {
	var out []square
	for _, q := range b.squares(n) {
		out = append(out, symmetries[g](n, q))
	}
	slices.SortFunc(out, func(x, y square) int {
		if x.r != y.r {
			return x.r - y.r
		}
		return x.c - y.c
	})
	return out
}

// Orbit returns the number of distinct images of b's queens under the 8
// symmetries of the square: the solutions with a border in b's orbit are
// that many times those with border b.
func (b Border) Orbit(n int) int {
	var seen [][]square
	for g := range symmetries {
		im := b.imageOf(n, g)
		if !slices.ContainsFunc(seen, func(s []square) bool { return slices.Equal(s, im) }) {
			seen = append(seen, im)
		}
	}
	return len(seen)
}

// fixedBy reports whether symmetry g maps b's queens onto themselves.
func (b Border) fixedBy(n, g int) bool { return slices.Equal(b.imageOf(n, 0), b.imageOf(n, g)) }

// Count returns the number of solutions of the n×n board with border b
// and, when row ≥ 0, the queen of that row in column col; and the queens
// its search placed, or ctx's error.
func (b Border) Count(ctx context.Context, n, row, col int) (solutions, nodes uint64, err error) {
	if err := checkSize(n); err != nil {
		return 0, 0, err
	}
	s := newSearch(ctx, n)
	if !s.placeBorder(b) {
		return 0, 0, fmt.Errorf("the border queens %+v do not fit a board of %d rows", b, n)
	}
	if row >= 0 && (row >= n || s.queen[row] != col && !s.place(row, col)) {
		return 0, 0, nil // the split queen's square is taken
	}
	total, err := s.run()
	return total, s.nodes, err
}

// Rotations returns the number of solutions with border b that a half
// turn maps to themselves, and of those the number a quarter turn does,
// and the queens its searches placed, or ctx's error. Each is a search of
// the symmetric solutions alone: a queen placed with all its images under
// the turn.
func (b Border) Rotations(ctx context.Context, n int) (rot180, rot90, nodes uint64, err error) {
	for _, g := range [2]int{halfTurn, quarterTurn} {
		if !b.fixedBy(n, g) {
			continue // no solution with border b is fixed by g
		}
		s := newSearch(ctx, n)
		if !s.placeBorder(b) {
			return 0, 0, 0, fmt.Errorf("the border queens %+v do not fit a board of %d rows", b, n)
		}
		if err := s.ctx.Err(); err != nil {
			return 0, 0, 0, err
		}
		c := s.countSymmetric(0, g)
		if s.err != nil {
			return 0, 0, 0, s.err
		}
		nodes += s.nodes
		if g == halfTurn {
			rot180 = c
		} else {
			rot90 = c
		}
	}
	return rot180, rot90, nodes, nil
}

// countSymmetric returns the ways to fill every empty row from row r
// down so that symmetry g maps the board onto itself: each queen goes
// down together with its images under g, every one on a free square.
func (s *search) countSymmetric(r, g int) uint64 {
	for r < s.n && s.queen[r] >= 0 {
		r++
	}
	if r == s.n {
		return 1
	}
	var total uint64
	var placed []square
	for c := range s.n {
		placed = placed[:0]
		q := square{r, c}
		for {
			if !s.free(q.r, q.c) {
				break
			}
			s.set(q.r, q.c, true)
			placed = append(placed, q)
			if q = symmetries[g](s.n, q); q == (square{r, c}) {
				s.nodes++
				if s.nodes%checkEvery == 0 && s.err == nil {
					s.err = s.ctx.Err()
				}
				if s.err == nil {
					total += s.countSymmetric(r+1, g)
				}
				break
			}
		}
		for _, p := range placed {
			s.set(p.r, p.c, false)
		}
		if s.err != nil {
			return 0
		}
	}
	return total
}
