package classic

import (
	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
)

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

// scan reads the cells above (row, col) on its three lines, in the order
// column, ↖ diagonal, ↗ diagonal, and stops at the first queen: the cells
// it read, the queen (row Empty for none) and the line.
func (g grid) scan(row, col int) (Scan, board.Square, board.ProblemKind) {
	var s Scan
	for r := row - 1; r >= 0; r-- {
		s.Column++
		if g[r][col] {
			return s, board.Square{Row: r, Col: col}, board.SameColumn
		}
	}
	for r, c := row-1, col-1; r >= 0 && c >= 0; r, c = r-1, c-1 {
		s.Diagonal++
		if g[r][c] {
			return s, board.Square{Row: r, Col: c}, board.Diagonal
		}
	}
	for r, c := row-1, col+1; r >= 0 && c < len(g); r, c = r-1, c+1 {
		s.AntiDiagonal++
		if g[r][c] {
			return s, board.Square{Row: r, Col: c}, board.AntiDiagonal
		}
	}
	return s, board.Square{Row: board.Empty, Col: board.Empty}, 0
}

// backtrack2D is recursive backtracking on an n×n grid of booleans, as the
// articles first write it: a try scans the grid from the square up its
// column, then up its two diagonals, cell by cell, until a queen or the
// edge (the rows below are still empty).
//
// A search costs O(n) per try for the scans, plus O(n²) per solution to read
// the grid into a placement.
var backtrack2D = backtracking{
	name:   "backtrack-2d",
	quiet:  search2D[quiet],
	traced: search2D[traced],
	teach:  &lesson2D,
}

func search2D[M mode](s *search) {
	n := s.n
	g := make(grid, n)
	for r := range g {
		g[r] = make([]bool, n)
	}
	if tracing[M]() {
		s.view = g
	}
	solution := make(board.Placement, n)
	var solve func(row int)
	solve = func(row int) {
		if row == n {
			for r := range n {
				solution[r] = int32(g.Col(r))
			}
			s.solved(solution)
			if tracing[M]() {
				s.event(Event{Kind: Solution, Row: board.Empty, Col: board.Empty})
			}
			return
		}
		for col := 0; col < n && !s.stop; col++ {
			if tracing[M]() && !s.opens(row, col) {
				continue
			}
			scan, by, how := g.scan(row, col)
			s.c.Reads += uint64(scan.Cells())
			if by.Row != board.Empty {
				s.rejected()
				if tracing[M]() {
					s.event(Event{Kind: Reject, Row: row, Col: col, By: by, Attack: how, Scan: ptr(scan)})
				}
				continue
			}
			g[row][col] = true
			if !s.placed() || tracing[M]() && !s.event(Event{Kind: Place, Row: row, Col: col, Scan: ptr(scan)}) {
				return
			}
			solve(row + 1)
			if s.stop {
				return
			}
			g[row][col] = false
			s.c.Backtracks++
			if tracing[M]() {
				s.event(Event{Kind: Remove, Row: row, Col: col})
			}
		}
	}
	solve(0)
}

var lesson2D = lesson{
	name: "backtrack-2d",
	// The event that runs each line of the pseudocode, whose text is the
	// message algo.backtrack-2d.code.LINE.
	code: []EventKind{0, Solution, 0, Reject, Place, 0, Remove, 0, 0, Done},
	say:  say2D,
}

// scanned says what a 2-D scan read, up to the line where it met a queen
// (0 for none): "2 cells up the column", "3 cells up the column, then 1 up
// the ↖ diagonal", …
func scanned(p *i18n.Printer, s Scan, row int, met board.ProblemKind) string {
	if row == 0 {
		return p.T("trace.2d.scan.none", nil)
	}
	switch met {
	case board.SameColumn:
		return p.N("trace.2d.scan.column", s.Column, nil)
	case board.Diagonal:
		return p.N("trace.2d.scan.diag", s.Column, i18n.Args{"Diag": s.Diagonal})
	}
	return p.N("trace.2d.scan.all", s.Column, i18n.Args{"Diag": s.Diagonal, "Anti": s.AntiDiagonal})
}

func say2D(p *i18n.Printer, e *Event, f field, _ EventKind) string {
	if s, ok := sayCommon(p, e); ok {
		return s
	}
	r, c := e.Row, e.Col
	switch e.Kind {
	case Reject:
		return p.T("trace.2d.reject", i18n.Args{"Square": f.square(p, r, c), "Scan": scanned(p, *e.Scan, r, e.Attack),
			"By": f.square(p, e.By.Row, e.By.Col), "Line": lineName(p, e.Attack), "Next": next(p, r, c, f)})
	case Place:
		return p.T("trace.2d.place", i18n.Args{"Square": f.square(p, r, c), "Scan": scanned(p, *e.Scan, r, 0),
			"Row": r + 1, "Col": c + 1, "Down": down(p, r, f)})
	case Remove:
		return p.T("trace.2d.remove", i18n.Args{"Back": backFrom(p, e, f), "Row": r + 1, "Col": c + 1,
			"Square": f.square(p, r, c), "Next": next(p, r, c, f)})
	}
	return e.Kind.String()
}
