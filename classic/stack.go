package classic

import (
	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
)

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

// attacker compares (row, col) with the queens on the stack from the
// bottom and returns the index of the first that attacks it (the height for
// none) and the line. Each queen compared is two reads, its row and column.
func (q *queenStack) attacker(row, col int) (int, board.ProblemKind) {
	for i, p := range q.queens {
		switch {
		case p.col == col:
			return i, board.SameColumn
		case row-p.row == col-p.col:
			return i, board.Diagonal
		case row-p.row == p.col-col:
			return i, board.AntiDiagonal
		}
	}
	return len(q.queens), 0
}

// stack is the articles' iterative search: the queens placed so far are a
// stack of (row, column) pairs, the next row is the stack's height, and a
// try compares the square with the queens on the stack, from the bottom,
// until one attacks it. For n = 8 it pushes 2,056 queens, rejects 13,664
// tries and finds 92 solutions.
//
// A search costs O(stack height) per try.
var stack = backtracking{
	name:   "stack",
	quiet:  searchStack[quiet],
	traced: searchStack[traced],
	teach:  &lessonStack,
}

func searchStack[M mode](s *search) {
	n := s.n
	st := &queenStack{n: n, queens: make([]queen, 0, n)}
	if tracing[M]() {
		s.view = st
	}
	solution := make(board.Placement, n)
	col := 0 // the next column to try in row len(st.queens)
	for !s.stop {
		row := len(st.queens)
		if row == n {
			for i, q := range st.queens {
				solution[i] = int32(q.col)
			}
			s.solved(solution)
			if tracing[M]() && !s.event(Event{Kind: Solution, Row: board.Empty, Col: board.Empty}) {
				return
			}
			col = n // nothing more in this row: pop below
		} else if col < n {
			if tracing[M]() && !s.opens(row, col) {
				col++
				continue
			}
			i, how := st.attacker(row, col)
			if i < row {
				s.c.Reads += 2 * uint64(i+1)
				s.rejected()
				if tracing[M]() {
					s.event(Event{Kind: Reject, Row: row, Col: col, By: board.Square{Row: i, Col: st.queens[i].col}, Attack: how, Compared: upTo(i + 1)})
				}
				col++
				continue
			}
			s.c.Reads += 2 * uint64(row)
			st.queens = append(st.queens, queen{row, col})
			if !s.placed() || tracing[M]() && !s.event(Event{Kind: Place, Row: row, Col: col, Compared: upTo(row)}) {
				return
			}
			col = 0
			continue
		}
		// Row exhausted (or full board): pop and move that queen right.
		if len(st.queens) == 0 {
			return
		}
		top := st.queens[len(st.queens)-1]
		st.queens = st.queens[:len(st.queens)-1]
		s.c.Backtracks++
		if tracing[M]() {
			s.event(Event{Kind: Remove, Row: top.row, Col: top.col})
		}
		col = top.col + 1
	}
}

var lessonStack = lesson{
	name: "stack",
	// The event that runs each line of the pseudocode, whose text is the
	// message algo.stack.code.LINE.
	code: []EventKind{0, 0, 0, Solution, 0, Reject, 0, Place, Done, Remove},
	say:  sayStack,
}

func sayStack(p *i18n.Printer, e *Event, f field, _ EventKind) string {
	if s, ok := sayCommon(p, e); ok {
		return s
	}
	r, c := e.Row, e.Col
	sq := f.square(p, r, c)
	switch e.Kind {
	case Reject:
		return p.T("trace.stack.reject", i18n.Args{"Square": sq, "By": f.square(p, e.By.Row, e.By.Col),
			"Line": lineName(p, e.Attack), "Next": next(p, r, c, f)})
	case Place:
		compared := p.T("trace.stack.empty", nil)
		if len(e.Compared) > 0 {
			compared = p.N("trace.stack.compared", len(e.Compared), nil)
		}
		key := "trace.stack.place"
		if r == 0 {
			key = "trace.stack.place.first"
		}
		return p.T(key, i18n.Args{"Square": sq, "Compared": compared, "Down": down(p, r, f)})
	case Remove:
		why := p.T("trace.stack.why.all", i18n.Args{"Below": r + 2})
		switch {
		case r == f.n-1:
			why = p.T("trace.stack.why.solution", i18n.Args{"Solution": e.Counters.Solutions})
		case f.closes(r + 1):
			why = p.T("trace.stack.why.offered", i18n.Args{"Below": r + 2})
		}
		return p.T("trace.stack.pop", i18n.Args{"Square": sq, "Why": why, "Next": next(p, r, c, f)})
	}
	return e.Kind.String()
}
