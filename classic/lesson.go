package classic

import (
	"fmt"
	"strings"

	"github.com/nqueens/nqueens/board"
)

// Lesson is what a strategy teaches: a short title, a paragraph on what it
// shows, and its pseudocode, whose lines the events of its trace point at
// ([Event.Line]). Rows and columns count from 1 in all of it.
type Lesson struct {
	Title   string   `json:"title"`
	Summary string   `json:"summary"`
	Code    []string `json:"pseudocode"`
}

// LessonOf returns the lesson of a built-in strategy; false for the others.
func LessonOf(s Strategy) (Lesson, bool) {
	t, ok := s.(teacher)
	if !ok {
		return Lesson{}, false
	}
	l := t.lesson()
	out := Lesson{Title: l.title, Summary: l.summary}
	for _, c := range l.code {
		out.Code = append(out.Code, c.text)
	}
	return out, true
}

// teacher is a strategy with a lesson.
type teacher interface{ lesson() *lesson }

// lesson is a strategy's pseudocode, each executable line marked with the
// kind of event that runs it, and say, which writes an event's sentence.
type lesson struct {
	title, summary string
	code           []codeLine
	// say writes the sentence of e (complete but for Text) on the board f;
	// last is the kind of the event before (0 for the first).
	say func(e *Event, f field, last EventKind) string
}

// field is the board a search runs on, as its sentences need it: its size
// and, for a search started from a partial board ([Completer]), the
// columns each row offers (nil: every column of every row).
type field struct {
	n    int
	open []uint64
}

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

type codeLine struct {
	text string
	kind EventKind // the event whose step runs this line; 0 for none
}

// line is the 1-based line of the pseudocode that an event of kind k runs.
func (l *lesson) line(k EventKind) int {
	for i, c := range l.code {
		if c.kind == k {
			return i + 1
		}
	}
	return 0
}

// Phrases shared by the sentences, 1-based.

func square(r, c int) string { return fmt.Sprintf("row %d, column %d", r+1, c+1) }

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
func lineName(k board.ProblemKind) string {
	switch k {
	case board.SameColumn:
		return "its column"
	case board.Diagonal:
		return "its ↘ diagonal"
	case board.AntiDiagonal:
		return "its ↙ diagonal"
	case board.SameRow:
		return "its row"
	}
	return k.String()
}

// next says where the search goes after the try or the queen at (row, col)
// is done with: the next column the row offers, or back to the row above
// when there is none.
func next(row, col int, f field) string {
	switch {
	case f.first(row, col+1) < f.n:
		return "next: " + square(row, f.first(row, col+1))
	case row > 0:
		return fmt.Sprintf("row %d has no column left: back to row %d", row+1, row)
	}
	return "row 1 has no column left: the search ends"
}

// down says where the search goes after a queen is placed in row.
func down(row int, f field) string {
	switch {
	case row+1 == f.n:
		return "every row now holds a queen"
	case f.first(row+1, 0) == f.n:
		return fmt.Sprintf("next: row %d, which offers no column", row+2)
	}
	return fmt.Sprintf("next: row %d, from column %d", row+2, f.first(row+1, 0)+1)
}

// backFrom opens the sentence of a queen taken off row: after a solution
// (the last row), or after every column of the row below was tried.
func backFrom(e *Event, f field) string {
	switch {
	case e.Row == f.n-1:
		return fmt.Sprintf("Solution %d is reported and the last queen moves on", e.Counters.Solutions)
	case f.closes(e.Row + 1):
		return fmt.Sprintf("Every column row %d offers has been tried: back in row %d", e.Row+2, e.Row+1)
	}
	return fmt.Sprintf("Every column of row %d has been tried: back in row %d", e.Row+2, e.Row+1)
}

// columns lists 0-based columns 1-based: "column 3", "columns 3 and 5",
// "columns 1, 4 and 6".
func columns(cs []int) string {
	if len(cs) == 1 {
		return fmt.Sprintf("column %d", cs[0]+1)
	}
	var s []string
	for _, c := range cs {
		s = append(s, fmt.Sprint(c+1))
	}
	return "columns " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// sayCommon writes the sentences every backtracking strategy shares.
func sayCommon(e *Event) (string, bool) {
	switch e.Kind {
	case Solution:
		return fmt.Sprintf("Every row holds a queen and none attacks another: solution %d, queens at %s (the column of each row).",
			e.Counters.Solutions, e.Queens), true
	case Done:
		return fmt.Sprintf("The search is over: %s, after %s and %s.", plural(e.Counters.Solutions, "solution"),
			plural(e.Counters.Placed, "placement"), plural(e.Counters.Rejected, "rejected try")), true
	}
	return "", false
}
