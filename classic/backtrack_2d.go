package classic

import (
	"context"
	"iter"

	"github.com/nqueens/nqueens/board"
)

// backtrack2D is recursive backtracking on an n×n grid of booleans, testing
// a square by scanning its whole row, column and both diagonals, as the
// articles first write it.
type backtrack2D struct{}

func (backtrack2D) Name() string { return "backtrack-2d" }
func (backtrack2D) Description() string {
	return "recursive backtracking on an n×n grid, scanning the row, column and diagonals of each square"
}

// Solve costs O(n) per try for the scans, plus O(n²) per solution to read
// the grid into a placement.
func (b backtrack2D) Solve(ctx context.Context, n int, visit func(board.Placement) bool) (Counters, error) {
	return solveWith(ctx, b, n, visit)
}

func (b backtrack2D) Trace(ctx context.Context, n int) iter.Seq2[Event, error] {
	return traceWith(ctx, b, n)
}

// grid is the board as the articles draw it: grid[row][col] holds a queen.
type grid [][]bool

func (g grid) N() int { return len(g) }

// Col scans the row, so a grid is a board.Columns for events. Cost O(n).
func (g grid) Col(row int) int {
	for c, q := range g[row] {
		if q {
			return c
		}
	}
	return board.Empty
}

// safe scans every square that shares a line with (row, col).
func (g grid) safe(row, col int) bool {
	n := len(g)
	for i := range n {
		if g[row][i] || g[i][col] {
			return false
		}
	}
	for _, d := range [4][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}} {
		for r, c := row+d[0], col+d[1]; r >= 0 && r < n && c >= 0 && c < n; r, c = r+d[0], c+d[1] {
			if g[r][c] {
				return false
			}
		}
	}
	return true
}

func (backtrack2D) run(s *search, n int) {
	g := make(grid, n)
	for r := range g {
		g[r] = make([]bool, n)
	}
	s.view = &g
	solution := make(board.Placement, n)
	var solve func(row int)
	solve = func(row int) {
		if row == n {
			for r := range n {
				solution[r] = int32(g.Col(r))
			}
			s.solution(solution)
			return
		}
		for col := 0; col < n && !s.stop; col++ {
			if !g.safe(row, col) {
				s.reject(row, col)
				continue
			}
			g[row][col] = true
			if s.place(row, col) {
				solve(row + 1)
			}
			g[row][col] = false
			s.remove(row, col)
		}
	}
	solve(0)
}
