package variant

import (
	"slices"
)

// bruteAttacks is the rule as a person states it, square against square,
// with no bit masks: same row or column; same diagonal (on a torus,
// row and column differences equal modulo the side); for a superqueen, a
// knight's move (on a torus, modulo the side as well).
func bruteAttacks(s Spec, r1, c1, r2, c2 int) bool {
	dr, dc := r2-r1, c2-c1
	if dr == 0 || dc == 0 {
		return true
	}
	mod := func(x int) int { return ((x % s.Rows) + s.Rows) % s.Rows }
	if s.Torus {
		if mod(dr-dc) == 0 || mod(dr+dc) == 0 {
			return true
		}
	} else if dr == dc || dr == -dc {
		return true
	}
	if s.Piece == Superqueen {
		for _, v := range [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
			if s.Torus && mod(dr-v[0]) == 0 && mod(dc-v[1]) == 0 {
				return true
			}
			if !s.Torus && dr == v[0] && dc == v[1] {
				return true
			}
		}
	}
	return false
}

// bruteSymmetries lists the board's symmetries as maps of (row, column),
// written out for the square and the rectangle separately.
func bruteSymmetries(s Spec) []func(r, c int) (int, int) {
	R, C := s.Rows-1, s.Cols-1
	out := []func(r, c int) (int, int){
		func(r, c int) (int, int) { return r, c },
		func(r, c int) (int, int) { return R - r, c },
		func(r, c int) (int, int) { return r, C - c },
		func(r, c int) (int, int) { return R - r, C - c },
	}
	if s.Rows == s.Cols {
		out = append(out,
			func(r, c int) (int, int) { return c, r },
			func(r, c int) (int, int) { return C - c, R - r },
			func(r, c int) (int, int) { return c, R - r },
			func(r, c int) (int, int) { return C - c, r },
		)
	}
	return out
}

// bruteCount tries every set of Queens squares of the board (as sorted
// square numbers) and returns the sets with no two attacking, and the
// classes of those under the symmetries (a class counted at its smallest
// member).
func bruteCount(s Spec) (total, unique uint64) {
	s = s.Normal()
	cells := s.Rows * s.Cols
	syms := bruteSymmetries(s)
	set := make([]int, s.Queens)
	var rec func(i, from int)
	rec = func(i, from int) {
		if i == len(set) {
			total++
			// The class's smallest member, as a sorted list of squares.
			least := slices.Clone(set)
			for _, f := range syms {
				img := make([]int, len(set))
				for j, q := range set {
					r, c := f(q/s.Cols, q%s.Cols)
					img[j] = r*s.Cols + c
				}
				slices.Sort(img)
				if slices.Compare(img, least) < 0 {
					least = img
				}
			}
			if slices.Equal(least, set) {
				unique++
			}
			return
		}
		for q := from; q < cells; q++ {
			ok := true
			for _, p := range set[:i] {
				if bruteAttacks(s, p/s.Cols, p%s.Cols, q/s.Cols, q%s.Cols) {
					ok = false
					break
				}
			}
			if ok {
				set[i] = q
				rec(i+1, q+1)
			}
		}
	}
	rec(0, 0)
	return total, unique
}
