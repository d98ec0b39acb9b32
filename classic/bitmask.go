package classic

import (
	"math/bits"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
)

// bitmask is the recursion on (row, cols, ld, rd) with the columns as bits
// of a word: bit c of cols, ld and rd is set when column c of the current
// row is attacked along a column, a ↘ diagonal or a ↙ diagonal. Moving down
// a row shifts ld left and rd right. The free squares of a row are one
// word, free = all &^ (cols | ld | rd), and the search takes its bits one by
// one: it never looks at an attacked square, so it has no rejected tries.
//
// A search costs O(1) per placement.
var bitmask = backtracking{
	name:   "bitmask",
	quiet:  searchBitmask[quiet],
	traced: searchBitmask[traced],
	teach:  &lessonBitmask,
}

// Each call reads three words (cols, ld, rd) to form free, and one more,
// free, for each bit it takes.
func searchBitmask[M mode](s *search) {
	n := s.n
	all := ^uint64(0) >> (64 - n)
	queens := board.New(n)
	if tracing[M]() {
		s.view = queens
	}
	var solve func(row int, cols, ld, rd uint64)
	solve = func(row int, cols, ld, rd uint64) {
		if row == n {
			s.solved(queens)
			if tracing[M]() {
				s.event(Event{Kind: Solution, Row: board.Empty, Col: board.Empty, Masks: &Masks{Cols: cols, LD: ld, RD: rd}})
			}
			return
		}
		free := all &^ (cols | ld | rd)
		if tracing[M]() && s.open != nil {
			free &= s.open[row]
		}
		s.c.Reads += 3
		if tracing[M]() && free == 0 {
			s.event(Event{Kind: DeadEnd, Row: row, Col: board.Empty, Masks: &Masks{Cols: cols, LD: ld, RD: rd}})
		}
		for free != 0 && !s.stop {
			bit := free & -free
			free ^= bit
			s.c.Reads++
			col := bits.TrailingZeros64(bit)
			queens[row] = int32(col)
			if !s.placed() || tracing[M]() && !s.event(Event{Kind: Place, Row: row, Col: col, Masks: &Masks{cols, ld, rd, free}}) {
				return
			}
			solve(row+1, cols|bit, (ld|bit)<<1&all, (rd|bit)>>1)
			if s.stop {
				return
			}
			queens[row] = board.Empty
			s.c.Backtracks++
			if tracing[M]() {
				s.event(Event{Kind: Remove, Row: row, Col: col, Masks: &Masks{cols, ld, rd, free}})
			}
		}
	}
	solve(0, 0, 0, 0)
}

var lessonBitmask = lesson{
	name: "bitmask",
	// The event that runs each line of the pseudocode, whose text is the
	// message algo.bitmask.code.LINE.
	code: []EventKind{0, Solution, 0, DeadEnd, Place, 0, Remove, Done},
	say:  sayBitmask,
}

// setColumns lists the columns of mask: "columns 2 and 5", "no column".
func setColumns(p *i18n.Printer, mask uint64) string {
	var cs []int
	for m := mask; m != 0; m &= m - 1 {
		cs = append(cs, bits.TrailingZeros64(m))
	}
	if len(cs) == 0 {
		return p.T("trace.columns.none", nil)
	}
	return columns(p, cs)
}

func sayBitmask(p *i18n.Printer, e *Event, f field, last EventKind) string {
	n := f.n
	switch e.Kind {
	case Solution:
		s, _ := sayCommon(p, e)
		return s
	case Done:
		return p.T("trace.bitmask.done", i18n.Args{"Solutions": p.N("trace.done.solutions", e.Counters.Solutions, nil),
			"Placed": p.N("trace.done.placed", e.Counters.Placed, nil)})
	}
	r, c, m := e.Row, e.Col, e.Masks
	switch e.Kind {
	case DeadEnd:
		key := "trace.bitmask.deadend"
		switch {
		case r == 0: // only a given board closes every square of row 1
			key = "trace.bitmask.deadend.first"
		case f.closes(r):
			key = "trace.bitmask.deadend.closed"
		}
		return p.T(key, i18n.Args{"Row": r + 1, "Cols": setColumns(p, m.Cols), "LD": setColumns(p, m.LD),
			"RD": setColumns(p, m.RD), "Up": r})
	case Place:
		src := "trace.bitmask.source"
		switch {
		case last == Remove:
			src = "trace.bitmask.source.again"
		case f.closes(r):
			src = "trace.bitmask.source.closed"
		}
		then := p.T("trace.down.full", nil)
		if r+1 < n {
			then = p.T("trace.bitmask.down", i18n.Args{"Next": r + 2})
		}
		return p.T("trace.bitmask.place", i18n.Args{
			"Source": p.T(src, i18n.Args{"Row": r + 1, "Columns": setColumns(p, m.Free|1<<c)}),
			"Col":    c + 1, "Row": r + 1, "Free": setColumns(p, m.Free), "Then": then})
	case Remove:
		from := p.T("trace.bitmask.back", i18n.Args{"Row": r + 1, "Below": r + 2})
		if r == n-1 {
			from = p.T("trace.back.solution", i18n.Args{"Solution": e.Counters.Solutions})
		}
		var then string
		switch {
		case m.Free == 0 && r > 0:
			then = p.T("trace.bitmask.free.up", i18n.Args{"Row": r + 1, "Up": r})
		case m.Free == 0:
			then = p.T("trace.bitmask.free.end", nil)
		default:
			then = p.T("trace.bitmask.free.left", i18n.Args{"Columns": setColumns(p, m.Free)})
		}
		return p.T("trace.bitmask.remove", i18n.Args{"From": from, "Row": r + 1, "Then": then})
	}
	return e.Kind.String()
}
