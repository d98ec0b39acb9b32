package classic

import (
	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
)

// firstAttacker compares (row, col) with the queens of rows 0..row-1 of
// queens in order and returns the row of the first that attacks it (row
// itself for none) and the line; the rows compared are 0..that row.
func firstAttacker(queens board.Placement, row, col int) (int, board.ProblemKind) {
	for r := range row {
		switch c := int(queens[r]); {
		case c == col:
			return r, board.SameColumn
		case row-r == col-c:
			return r, board.Diagonal
		case row-r == c-col:
			return r, board.AntiDiagonal
		}
	}
	return row, 0
}

// upTo lists the rows 0..k-1 (nil for none).
func upTo(k int) []int {
	if k == 0 {
		return nil
	}
	rows := make([]int, k)
	for i := range rows {
		rows[i] = i
	}
	return rows
}

// backtrackArray is recursive backtracking on the 1-D column array:
// queens[row] is the column of the queen in that row, so two queens can
// never share a row, and a try compares the square with the earlier queens
// one by one, from row 1, until one attacks it (same column, or |Δrow| ==
// |Δcol|).
//
// A search costs O(row) per try.
var backtrackArray = backtracking{
	name:   "backtrack-array",
	quiet:  searchArray[quiet],
	traced: searchArray[traced],
	teach:  &lessonArray,
}

func searchArray[M mode](s *search) {
	n := s.n
	queens := board.New(n)
	if tracing[M]() {
		s.view = queens
	}
	var solve func(row int)
	solve = func(row int) {
		if row == n {
			s.solved(queens)
			if tracing[M]() {
				s.event(Event{Kind: Solution, Row: board.Empty, Col: board.Empty})
			}
			return
		}
		for col := 0; col < n && !s.stop; col++ {
			if tracing[M]() && !s.opens(row, col) {
				continue
			}
			r, how := firstAttacker(queens, row, col)
			if r < row {
				s.c.Reads += uint64(r + 1)
				s.rejected()
				if tracing[M]() {
					s.event(Event{Kind: Reject, Row: row, Col: col, By: board.Square{Row: r, Col: int(queens[r])}, Attack: how, Compared: upTo(r + 1)})
				}
				continue
			}
			s.c.Reads += uint64(row)
			queens[row] = int32(col)
			if !s.placed() || tracing[M]() && !s.event(Event{Kind: Place, Row: row, Col: col, Compared: upTo(row)}) {
				return
			}
			solve(row + 1)
			if s.stop {
				return
			}
			queens[row] = board.Empty
			s.c.Backtracks++
			if tracing[M]() {
				s.event(Event{Kind: Remove, Row: row, Col: col})
			}
		}
	}
	solve(0)
}

var lessonArray = lesson{
	name: "backtrack-array",
	// The event that runs each line of the pseudocode, whose text is the
	// message algo.backtrack-array.code.LINE.
	code: []EventKind{0, Solution, 0, 0, Reject, Place, 0, Remove, Done},
	say:  sayArray,
}

// compared says which earlier queens a try was compared with.
func compared(p *i18n.Printer, rows []int) string {
	switch len(rows) {
	case 0:
		return p.T("trace.array.compared.none", nil)
	case 1:
		return p.T("trace.array.compared.one", nil)
	case 2:
		return p.T("trace.array.compared.two", nil)
	}
	return p.T("trace.array.compared.range", i18n.Args{"Last": len(rows)})
}

// attackWhy says why the queen at by attacks (row, col), in the array's terms.
func attackWhy(p *i18n.Printer, row, col int, by board.Square, how board.ProblemKind) string {
	if how == board.SameColumn {
		return p.T("trace.array.why.column", i18n.Args{"ByRow": by.Row + 1, "ByCol": by.Col + 1})
	}
	return p.T("trace.array.why.diagonal", i18n.Args{"Row": row + 1, "ByRow": by.Row + 1, "Col": col + 1,
		"ByCol": by.Col + 1, "Line": lineName(p, how)})
}

func sayArray(p *i18n.Printer, e *Event, f field, _ EventKind) string {
	if s, ok := sayCommon(p, e); ok {
		return s
	}
	r, c := e.Row, e.Col
	switch e.Kind {
	case Reject:
		return p.T("trace.array.reject", i18n.Args{"Square": f.square(p, r, c), "Compared": compared(p, e.Compared),
			"By": f.square(p, e.By.Row, e.By.Col), "Why": attackWhy(p, r, c, e.By, e.Attack), "Next": next(p, r, c, f)})
	case Place:
		key := "trace.array.place"
		if r == 0 {
			key = "trace.array.place.first"
		}
		return p.T(key, i18n.Args{"Square": f.square(p, r, c), "Compared": compared(p, e.Compared), "Row": r + 1,
			"Col": c + 1, "Down": down(p, r, f)})
	case Remove:
		return p.T("trace.array.remove", i18n.Args{"Back": backFrom(p, e, f), "Row": r + 1, "Square": f.square(p, r, c),
			"Next": next(p, r, c, f)})
	}
	return e.Kind.String()
}
