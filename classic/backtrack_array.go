package classic

import (
	"context"
	"iter"

	"github.com/nqueens/nqueens/board"
)

// backtrackArray is recursive backtracking on the 1-D column array:
// queens[row] is the column of the queen in that row, so two queens can
// never share a row, and a square is safe when no earlier queen is in its
// column or at |Δrow| == |Δcol|.
type backtrackArray struct{}

func (backtrackArray) Name() string { return "backtrack-array" }
func (backtrackArray) Description() string {
	return "recursive backtracking on the 1-D column array, |Δrow| == |Δcol| checks against earlier queens"
}

// Solve costs O(row) per try.
func (b backtrackArray) Solve(ctx context.Context, n int, visit func(board.Placement) bool) (Counters, error) {
	return solveWith(ctx, b, n, visit)
}

func (b backtrackArray) Trace(ctx context.Context, n int) iter.Seq2[Event, error] {
	return traceWith(ctx, b, n)
}

// safeInArray reports whether (row, col) is attacked by none of the queens
// in rows 0..row-1 of queens.
func safeInArray(queens board.Placement, row, col int) bool {
	for r := range row {
		c := int(queens[r])
		if c == col || row-r == col-c || row-r == c-col {
			return false
		}
	}
	return true
}

func (backtrackArray) run(s *search, n int) {
	queens := board.New(n)
	s.view = queens
	var solve func(row int)
	solve = func(row int) {
		if row == n {
			s.solution(queens)
			return
		}
		for col := 0; col < n && !s.stop; col++ {
			if !safeInArray(queens, row, col) {
				s.reject(row, col)
				continue
			}
			queens[row] = int32(col)
			if s.place(row, col) {
				solve(row + 1)
			}
			queens[row] = board.Empty
			s.remove(row, col)
		}
	}
	solve(0)
}
