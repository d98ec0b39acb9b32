package classic

import (
	"context"
	"iter"

	"github.com/nqueens/nqueens/board"
)

// flags marks the lines already taken: a column, a ↘ diagonal (row-col
// constant) and a ↙ diagonal (row+col constant) each have one flag, so a
// square is tested in O(1).
type flags struct {
	n          int
	col        []bool
	diag, anti []bool // indexed row-col+n-1 and row+col
}

func newFlags(n int) *flags {
	return &flags{n: n, col: make([]bool, n), diag: make([]bool, 2*n-1), anti: make([]bool, 2*n-1)}
}

func (f *flags) free(row, col int) bool {
	return !f.col[col] && !f.diag[row-col+f.n-1] && !f.anti[row+col]
}

func (f *flags) set(row, col int, on bool) {
	f.col[col], f.diag[row-col+f.n-1], f.anti[row+col] = on, on, on
}

// backtrackFlags is recursive backtracking with the three flag arrays.
type backtrackFlags struct{}

func (backtrackFlags) Name() string { return "backtrack-flags" }
func (backtrackFlags) Description() string {
	return "recursive backtracking with column and two diagonal flag arrays, O(1) per try"
}

// Solve costs O(1) per try.
func (b backtrackFlags) Solve(ctx context.Context, n int, visit func(board.Placement) bool) (Counters, error) {
	return solveWith(ctx, b, n, visit)
}

func (b backtrackFlags) Trace(ctx context.Context, n int) iter.Seq2[Event, error] {
	return traceWith(ctx, b, n)
}

func (backtrackFlags) run(s *search, n int) {
	f := newFlags(n)
	queens := board.New(n)
	s.view = queens
	var solve func(row int)
	solve = func(row int) {
		if row == n {
			s.solution(queens)
			return
		}
		for col := 0; col < n && !s.stop; col++ {
			if !f.free(row, col) {
				s.reject(row, col)
				continue
			}
			f.set(row, col, true)
			queens[row] = int32(col)
			if s.place(row, col) {
				solve(row + 1)
			}
			f.set(row, col, false)
			queens[row] = board.Empty
			s.remove(row, col)
		}
	}
	solve(0)
}

// backtrackFlagsIterative is backtrackFlags without recursion: a row pointer
// moves down after a placement and up when a row runs out of columns, and
// queens[row] remembers where to resume.
type backtrackFlagsIterative struct{}

func (backtrackFlagsIterative) Name() string { return "backtrack-flags-iterative" }
func (backtrackFlagsIterative) Description() string {
	return "the flag arrays with an explicit row pointer instead of recursion"
}

// Solve costs O(1) per try.
func (b backtrackFlagsIterative) Solve(ctx context.Context, n int, visit func(board.Placement) bool) (Counters, error) {
	return solveWith(ctx, b, n, visit)
}

func (b backtrackFlagsIterative) Trace(ctx context.Context, n int) iter.Seq2[Event, error] {
	return traceWith(ctx, b, n)
}

func (backtrackFlagsIterative) run(s *search, n int) {
	f := newFlags(n)
	queens := board.New(n)
	s.view = queens
	row := 0
	for row >= 0 && !s.stop {
		// Resume the row: take its queen off, if any, and go on to the
		// right of it.
		col := 0
		if q := int(queens[row]); q != board.Empty {
			f.set(row, q, false)
			queens[row] = board.Empty
			s.remove(row, q)
			col = q + 1
		}
		for col < n && !f.free(row, col) {
			s.reject(row, col)
			col++
		}
		if col == n || s.stop {
			row-- // the row is exhausted: back to the queen above
			continue
		}
		f.set(row, col, true)
		queens[row] = int32(col)
		if !s.place(row, col) {
			break
		}
		if row == n-1 {
			s.solution(queens) // stay: the next pass moves this queen on
		} else {
			row++
		}
	}
}
