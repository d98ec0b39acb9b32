package recount

import (
	"context"
	"errors"
	"fmt"
)

// checkEvery is how many nodes the search takes between looks at its
// context: about a millisecond's work.
const checkEvery = 1 << 16

// search is the plain backtracking search every count of this package
// runs: an N×N board, some queens placed beforehand, and for each other
// row the columns its queen may take. Rows are filled top to bottom; a
// square is free when no queen stands in its column or on its two
// diagonals, which are kept as flags, one bool per line.
type search struct {
	n     int
	open  [][]int // the columns open to each row, in order
	queen []int   // queen[r] is the column of row r's queen, −1 while empty
	col   []bool  // col[c]: a queen stands in column c
	down  []bool  // down[r−c+n−1]: a queen stands on that diagonal
	up    []bool  // up[r+c]: a queen stands on that anti-diagonal

	ctx   context.Context
	nodes uint64 // queens placed by the search
	err   error  // ctx's error once it ended
}

// newSearch returns the search of an n×n board with no queen placed and
// every column open to every row.
func newSearch(ctx context.Context, n int) *search {
	s := &search{n: n, open: make([][]int, n), queen: make([]int, n),
		col: make([]bool, n), down: make([]bool, 2*n-1), up: make([]bool, 2*n-1), ctx: ctx}
	all := make([]int, n)
	for r := range n {
		s.queen[r] = -1
		all[r] = r
	}
	for r := range n {
		s.open[r] = all
	}
	return s
}

// free reports whether a queen may stand on (r, c).
func (s *search) free(r, c int) bool {
	return s.queen[r] < 0 && !s.col[c] && !s.down[r-c+s.n-1] && !s.up[r+c]
}

func (s *search) set(r, c int, on bool) {
	if on {
		s.queen[r] = c
	} else {
		s.queen[r] = -1
	}
	s.col[c], s.down[r-c+s.n-1], s.up[r+c] = on, on, on
}

// place puts a queen on (r, c) before the search, and reports whether
// it was free (a square off the board is not).
func (s *search) place(r, c int) bool {
	if r < 0 || r >= s.n || c < 0 || c >= s.n || !s.free(r, c) {
		return false
	}
	s.set(r, c, true)
	return true
}

// count returns the ways to fill every empty row from row r down, each
// with a queen on a free square of its open columns, or 0 once ctx ended
// (s.err says so).
func (s *search) count(r int) uint64 {
	for r < s.n && s.queen[r] >= 0 {
		r++
	}
	if r == s.n {
		return 1
	}
	var total uint64
	d0 := r + s.n - 1
	for _, c := range s.open[r] {
		if s.col[c] || s.down[d0-c] || s.up[r+c] {
			continue
		}
		s.nodes++
		if s.nodes%checkEvery == 0 {
			if s.err = s.ctx.Err(); s.err != nil {
				return 0
			}
		}
		s.queen[r], s.col[c], s.down[d0-c], s.up[r+c] = c, true, true, true
		total += s.count(r + 1)
		s.queen[r], s.col[c], s.down[d0-c], s.up[r+c] = -1, false, false, false
		if s.err != nil {
			return 0
		}
	}
	return total
}

// run counts the completions of the placed queens, or returns ctx's error.
func (s *search) run() (uint64, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	total := s.count(0)
	if s.err != nil {
		return 0, s.err
	}
	return total, nil
}

// ErrOverflow reports a weighted count past 64 bits.
var ErrOverflow = errors.New("the weighted count passes 64 bits")

// addWeighted returns sum + w·x, or ErrOverflow.
func addWeighted(sum, x uint64, w int) (uint64, error) {
	if w < 0 || x != 0 && uint64(w) > (^uint64(0))/x {
		return 0, ErrOverflow
	}
	p := x * uint64(w)
	if sum+p < sum {
		return 0, ErrOverflow
	}
	return sum + p, nil
}

// checkSize rejects a board this package does not take.
func checkSize(n int) error {
	if n < 1 || n > MaxN {
		return fmt.Errorf("the recount takes boards of 1 to %d rows, not %d", MaxN, n)
	}
	return nil
}

// MaxN is the largest board the recount takes (rows sets are uint32).
const MaxN = 32
