package classic

import (
	"context"
	"iter"

	"github.com/nqueens/nqueens/board"
)

// stack is the articles' iterative search: the queens placed so far are a
// stack of (row, column) pairs, the next row is the stack's height, and a
// square is tested against every queen on the stack. For n = 8 it pushes
// 2,056 queens, rejects 13,664 tries and finds 92 solutions.
type stack struct{}

func (stack) Name() string { return "stack" }
func (stack) Description() string {
	return "iterative, with a stack of (row, column) queens tested against each new square"
}

// Solve costs O(stack height) per try.
func (b stack) Solve(ctx context.Context, n int, visit func(board.Placement) bool) (Counters, error) {
	return solveWith(ctx, b, n, visit)
}

func (b stack) Trace(ctx context.Context, n int) iter.Seq2[Event, error] {
	return traceWith(ctx, b, n)
}

type queen struct{ row, col int }

// queenStack holds the queens in row order, so stack[i].row == i.
type queenStack struct {
	n      int
	queens []queen
}

func (q *queenStack) N() int { return q.n }

func (q *queenStack) Col(row int) int {
	if row < len(q.queens) {
		return q.queens[row].col
	}
	return board.Empty
}

func (q *queenStack) attacked(row, col int) bool {
	for _, p := range q.queens {
		if p.col == col || row-p.row == col-p.col || row-p.row == p.col-col {
			return true
		}
	}
	return false
}

func (stack) run(s *search, n int) {
	st := &queenStack{n: n, queens: make([]queen, 0, n)}
	s.view = st
	solution := make(board.Placement, n)
	col := 0 // the next column to try in row len(st.queens)
	for !s.stop {
		row := len(st.queens)
		switch {
		case row == n:
			for i, q := range st.queens {
				solution[i] = int32(q.col)
			}
			s.solution(solution)
			col = n // nothing more in this row: pop below
		case col < n && st.attacked(row, col):
			s.reject(row, col)
			col++
			continue
		case col < n:
			st.queens = append(st.queens, queen{row, col})
			s.place(row, col)
			col = 0
			continue
		}
		// Row exhausted (or full board): pop and move that queen right.
		if len(st.queens) == 0 {
			return
		}
		top := st.queens[len(st.queens)-1]
		st.queens = st.queens[:len(st.queens)-1]
		s.remove(top.row, top.col)
		col = top.col + 1
	}
}
