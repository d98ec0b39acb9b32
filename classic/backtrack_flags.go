package classic

import (
	"strconv"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
)

// flags marks the lines already taken: a column, a ↘ diagonal (row-col
// constant) and a ↙ diagonal (row+col constant) each have one flag, so a
// square is tested in at most three reads.
type flags struct {
	n          int
	col        []bool
	diag, anti []bool // indexed row-col+n-1 and row+col
}

func newFlags(n int) *flags {
	return &flags{n: n, col: make([]bool, n), diag: make([]bool, 2*n-1), anti: make([]bool, 2*n-1)}
}

// check reads the column flag, then the ↘ one, then the ↙ one, stopping at
// the first that is set: the number of flags read and the line of the set
// one (0 for a free square).
func (f *flags) check(row, col int) (int, board.ProblemKind) {
	switch {
	case f.col[col]:
		return 1, board.SameColumn
	case f.diag[row-col+f.n-1]:
		return 2, board.Diagonal
	case f.anti[row+col]:
		return 3, board.AntiDiagonal
	}
	return 3, 0
}

func (f *flags) set(row, col int, on bool) {
	f.col[col], f.diag[row-col+f.n-1], f.anti[row+col] = on, on, on
}

// read lists the first k flags of (row, col), as check reads them, for an
// event.
func (f *flags) read(row, col, k int) []Flag {
	all := []Flag{{"cols", col, f.col[col]}, {"diag", row - col + f.n - 1, f.diag[row-col+f.n-1]}, {"anti", row + col, f.anti[row+col]}}
	return all[:k]
}

// queenOn finds the queen of queens on the line through (row, col) that a
// set flag stands for.
func queenOn(queens board.Placement, row, col int, how board.ProblemKind) board.Square {
	for r, c := range queens {
		if c == board.Empty || r == row {
			continue
		}
		if how == board.SameColumn && int(c) == col || how == board.Diagonal && r-int(c) == row-col ||
			how == board.AntiDiagonal && r+int(c) == row+col {
			return board.Square{Row: r, Col: int(c)}
		}
	}
	return board.Square{Row: board.Empty, Col: board.Empty}
}

// backtrackFlags is recursive backtracking with the three flag arrays.
//
// A search costs O(1) per try.
var backtrackFlags = backtracking{
	name:   "backtrack-flags",
	quiet:  searchFlags[quiet],
	traced: searchFlags[traced],
	teach:  &lessonFlags,
}

func searchFlags[M mode](s *search) {
	n := s.n
	f := newFlags(n)
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
			k, how := f.check(row, col)
			s.c.Reads += uint64(k)
			if how != 0 {
				s.rejected()
				if tracing[M]() {
					s.event(Event{Kind: Reject, Row: row, Col: col, By: queenOn(queens, row, col, how), Attack: how, Flags: f.read(row, col, k)})
				}
				continue
			}
			var read []Flag
			if tracing[M]() {
				read = f.read(row, col, k)
			}
			f.set(row, col, true)
			queens[row] = int32(col)
			if !s.placed() || tracing[M]() && !s.event(Event{Kind: Place, Row: row, Col: col, Flags: read}) {
				return
			}
			solve(row + 1)
			if s.stop {
				return
			}
			f.set(row, col, false)
			queens[row] = board.Empty
			s.c.Backtracks++
			if tracing[M]() {
				s.event(Event{Kind: Remove, Row: row, Col: col})
			}
		}
	}
	solve(0)
}

var lessonFlags = lesson{
	name: "backtrack-flags",
	// The event that runs each line of the pseudocode, whose text is the
	// message algo.backtrack-flags.code.LINE.
	code: []EventKind{0, Solution, 0, Reject, Place, 0, Remove, Done},
	say:  sayFlags,
}

// flagNames names the three flags of (row, col), 1-based: "cols[2],
// diag[10] and anti[5]".
func flagNames(p *i18n.Printer, row, col, n int) string {
	return p.T("trace.flags.names", i18n.Args{"C": col + 1, "D": row - col + n, "A": row + col + 1})
}

// flagReads are the messages of one, two or three flags read.
var flagReads = [...]string{"", "trace.flags.read1", "trace.flags.read2", "trace.flags.read3"}

// flagsRead says what a try read: "cols[2] = 0, diag[10] = 1".
func flagsRead(p *i18n.Printer, fs []Flag) string {
	args := i18n.Args{}
	for i, f := range fs {
		v := 0
		if f.Set {
			v = 1
		}
		args[string(rune('A'+i))] = f.Array + "[" + strconv.Itoa(f.Index+1) + "] = " + strconv.Itoa(v)
	}
	return p.T(flagReads[len(fs)], args)
}

func sayFlags(p *i18n.Printer, e *Event, f field, _ EventKind) string {
	n := f.n
	if s, ok := sayCommon(p, e); ok {
		return s
	}
	r, c := e.Row, e.Col
	switch e.Kind {
	case Reject:
		return p.T("trace.flags.reject", i18n.Args{"Square": f.square(p, r, c), "Flags": flagsRead(p, e.Flags),
			"By": f.square(p, e.By.Row, e.By.Col), "Line": lineName(p, e.Attack), "Next": next(p, r, c, f)})
	case Place:
		return p.T("trace.flags.place", i18n.Args{"Square": f.square(p, r, c), "Flags": flagNames(p, r, c, n),
			"Row": r + 1, "Col": c + 1, "Down": down(p, r, f)})
	case Remove:
		return p.T("trace.flags.remove", i18n.Args{"Back": backFrom(p, e, f), "Row": r + 1, "Flags": flagNames(p, r, c, n),
			"Next": next(p, r, c, f)})
	}
	return e.Kind.String()
}

// backtrackFlagsIterative is backtrackFlags without recursion: a row pointer
// moves down after a placement and up when a row runs out of columns, and
// queens[row] remembers where to resume.
//
// A search costs O(1) per try.
var backtrackFlagsIterative = backtracking{
	name:   "backtrack-flags-iterative",
	quiet:  searchFlagsIterative[quiet],
	traced: searchFlagsIterative[traced],
	teach:  &lessonFlagsIterative,
}

func searchFlagsIterative[M mode](s *search) {
	n := s.n
	f := newFlags(n)
	queens := board.New(n)
	if tracing[M]() {
		s.view = queens
	}
	row := 0
	for row >= 0 && !s.stop {
		// Resume the row: take its queen off, if any, and go on to the
		// right of it.
		col := 0
		if q := int(queens[row]); q != board.Empty {
			f.set(row, q, false)
			queens[row] = board.Empty
			s.c.Backtracks++
			if tracing[M]() && !s.event(Event{Kind: Remove, Row: row, Col: q}) {
				return
			}
			col = q + 1
		}
		for ; col < n; col++ {
			if tracing[M]() && !s.opens(row, col) {
				continue
			}
			k, how := f.check(row, col)
			s.c.Reads += uint64(k)
			if how == 0 {
				break
			}
			s.rejected()
			if tracing[M]() && !s.event(Event{Kind: Reject, Row: row, Col: col, By: queenOn(queens, row, col, how), Attack: how, Flags: f.read(row, col, k)}) {
				return
			}
		}
		if col == n {
			row-- // the row is exhausted: back to the queen above
			continue
		}
		var read []Flag
		if tracing[M]() {
			read = f.read(row, col, 3)
		}
		f.set(row, col, true)
		queens[row] = int32(col)
		if !s.placed() || tracing[M]() && !s.event(Event{Kind: Place, Row: row, Col: col, Flags: read}) {
			return
		}
		if row == n-1 {
			s.solved(queens) // stay: the next pass moves this queen on
			if tracing[M]() {
				s.event(Event{Kind: Solution, Row: board.Empty, Col: board.Empty})
			}
		} else {
			row++
		}
	}
}

var lessonFlagsIterative = lesson{
	name: "backtrack-flags-iterative",
	// The event that runs each line of the pseudocode, whose text is the
	// message algo.backtrack-flags-iterative.code.LINE.
	code: []EventKind{0, 0, 0, Remove, Reject, 0, Place, Solution, 0, Done},
	say:  sayFlagsIterative,
}

func sayFlagsIterative(p *i18n.Printer, e *Event, f field, last EventKind) string {
	if e.Kind != Remove {
		return sayFlags(p, e, f, last)
	}
	n := f.n
	r, c := e.Row, e.Col
	why := p.T("trace.flags.iterative.why", i18n.Args{"Below": r + 2, "Row": r + 1})
	if r == n-1 {
		why = p.T("trace.back.solution", i18n.Args{"Solution": e.Counters.Solutions})
	}
	return p.T("trace.flags.iterative.remove", i18n.Args{"Why": why, "Row": r + 1, "Col": c + 1,
		"Flags": flagNames(p, r, c, n), "Next": next(p, r, c, f)})
}
