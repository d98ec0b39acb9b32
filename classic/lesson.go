package classic

import (
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
)

// Lesson is what a strategy teaches: a short title, a paragraph on what it
// shows, and its pseudocode, whose lines the events of its trace point at
// ([Event.Line]). Rows and columns count from 1 in all of it.
type Lesson struct {
	Title   string   `json:"title"`
	Summary string   `json:"summary"`
	Code    []string `json:"pseudocode"`
}

// LessonOf returns the lesson of a built-in strategy, in English; false
// for the others.
func LessonOf(s Strategy) (Lesson, bool) { return LessonIn(i18n.For(i18n.English), s) }

// LessonIn is LessonOf in p's language: the messages algo.NAME.title,
// .summary and .code.1, .code.2, … of the catalogs (algorithms.json).
// The pseudocode's keywords and variables are the same in every language.
func LessonIn(p *i18n.Printer, s Strategy) (Lesson, bool) {
	t, ok := s.(teacher)
	if !ok {
		return Lesson{}, false
	}
	l := t.lesson()
	key := "algo." + l.name
	out := Lesson{Title: p.T(key+".title", nil), Summary: p.T(key+".summary", nil), Code: make([]string, len(l.code))}
	for i := range l.code {
		out.Code[i] = p.T(key+".code."+strconv.Itoa(i+1), nil)
	}
	return out, true
}

// Describe is s's one-line description in p's language: the message
// algo.NAME.description of a built-in strategy, s.Description() for one
// the catalogs lack.
func Describe(p *i18n.Printer, s Strategy) string {
	if key := "algo." + s.Name() + ".description"; p.Has(key) {
		return p.T(key, nil)
	}
	return s.Description()
}

// description is a built-in strategy's Description: its message in English.
func description(name string) string {
	key := "algo." + name + ".description"
	return i18n.For(i18n.English).T(key, nil)
}

// teacher is a strategy with a lesson.
type teacher interface{ lesson() *lesson }

// lesson is a strategy's pseudocode, each executable line marked with the
// kind of event that runs it, and say, which writes an event's sentence;
// its texts are the catalogs' messages algo.NAME.… (LessonIn).
type lesson struct {
	name string
	code []EventKind // the event whose step runs each line; 0 for none
	// say writes the sentence of e (complete but for Text) on the board f,
	// in p's language;
	// last is the kind of the event before (0 for the first).
	say func(p *i18n.Printer, e *Event, f field, last EventKind) string
}

// field is the board a search runs on, as its sentences need it: its size
// and, for a search started from a partial board ([Completer]), the
// columns each row offers (nil: every column of every row).
type field struct {
	n    int
	open []uint64
	// names caches the squares' names (n×n, "" until said): a trace says
	// them again and again, and a message costs an allocation or two.
	names []string
}

// newField is the field of a search on the n×n board, with its cache.
func newField(n int, open []uint64) field { return field{n: n, open: open, names: make([]string, n*n)} }

// opens reports whether row offers col to the search.
func (f field) opens(row, col int) bool { return f.open == nil || f.open[row]>>col&1 == 1 }

// closes reports whether the board closes some square of row.
func (f field) closes(row int) bool {
	return row < len(f.open) && f.open[row] != ^uint64(0)>>(64-f.n)
}

// first is the first column of row from col on that the row offers; n for
// none.
func (f field) first(row, col int) int {
	for ; col < f.n && !f.opens(row, col); col++ {
	}
	return col
}

// line is the 1-based line of the pseudocode that an event of kind k runs.
func (l *lesson) line(k EventKind) int {
	for i, c := range l.code {
		if c == k {
			return i + 1
		}
	}
	return 0
}

// Phrases shared by the sentences, 1-based, each a message of the
// catalogs (i18n/locales/LANG/trace.json) in p's language.

// square names (r, c) in p's language, from f's cache when f has one.
func (f field) square(p *i18n.Printer, r, c int) string {
	if f.names == nil {
		return square(p, r, c)
	}
	k := r*f.n + c
	if f.names[k] == "" {
		f.names[k] = square(p, r, c)
	}
	return f.names[k]
}

func square(p *i18n.Printer, r, c int) string {
	return p.T("trace.square", i18n.Args{"Row": r + 1, "Col": c + 1})
}

// plural is k and the English noun one, plural unless k is 1: Event.String's
// words, which are the program's and not a person's sentence.
func plural(k uint64, one string) string {
	switch {
	case k == 1:
		return "1 " + one
	case strings.HasSuffix(one, "try"):
		return Group(k) + " " + strings.TrimSuffix(one, "y") + "ies"
	}
	return Group(k) + " " + one + "s"
}

// lineName names the line along which a queen attacks.
func lineName(p *i18n.Printer, k board.ProblemKind) string {
	switch k {
	case board.SameColumn:
		return p.T("trace.line.column", nil)
	case board.Diagonal:
		return p.T("trace.line.diag", nil)
	case board.AntiDiagonal:
		return p.T("trace.line.anti", nil)
	case board.SameRow:
		return p.T("trace.line.row", nil)
	}
	return k.String()
}

// next says where the search goes after the try or the queen at (row, col)
// is done with: the next column the row offers, or back to the row above
// when there is none.
func next(p *i18n.Printer, row, col int, f field) string {
	switch {
	case f.first(row, col+1) < f.n:
		return p.T("trace.next.square", i18n.Args{"Square": f.square(p, row, f.first(row, col+1))})
	case row > 0:
		return p.T("trace.next.up", i18n.Args{"Row": row + 1, "Up": row})
	}
	return p.T("trace.next.end", nil)
}

// down says where the search goes after a queen is placed in row.
func down(p *i18n.Printer, row int, f field) string {
	switch {
	case row+1 == f.n:
		return p.T("trace.down.full", nil)
	case f.first(row+1, 0) == f.n:
		return p.T("trace.down.closed", i18n.Args{"Row": row + 2})
	}
	return p.T("trace.down.next", i18n.Args{"Row": row + 2, "Col": f.first(row+1, 0) + 1})
}

// backFrom opens the sentence of a queen taken off row: after a solution
// (the last row), or after every column of the row below was tried.
func backFrom(p *i18n.Printer, e *Event, f field) string {
	switch {
	case e.Row == f.n-1:
		return p.T("trace.back.solution", i18n.Args{"Solution": e.Counters.Solutions})
	case f.closes(e.Row + 1):
		return p.T("trace.back.offered", i18n.Args{"Below": e.Row + 2, "Row": e.Row + 1})
	}
	return p.T("trace.back.all", i18n.Args{"Below": e.Row + 2, "Row": e.Row + 1})
}

// columns lists 0-based columns 1-based: "column 3", "columns 3 and 5",
// "columns 1, 4 and 6" (the language's list pattern).
func columns(p *i18n.Printer, cs []int) string {
	if len(cs) == 1 {
		return p.T("trace.column", i18n.Args{"Col": cs[0] + 1})
	}
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = strconv.Itoa(c + 1)
	}
	return p.T("trace.columns", i18n.Args{"List": p.List(s)})
}

// sayCommon writes the sentences every backtracking strategy shares.
func sayCommon(p *i18n.Printer, e *Event) (string, bool) {
	switch e.Kind {
	case Solution:
		return p.T("trace.solution", i18n.Args{"Solution": e.Counters.Solutions, "Queens": e.Queens.String()}), true
	case Done:
		return p.T("trace.done", i18n.Args{
			"Solutions": p.N("trace.done.solutions", e.Counters.Solutions, nil),
			"Placed":    p.N("trace.done.placed", e.Counters.Placed, nil),
			"Rejected":  p.N("trace.done.rejected", e.Counters.Rejected, nil),
		}), true
	}
	return "", false
}
