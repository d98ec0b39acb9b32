package classic

import (
	"fmt"
	"math/bits"

	"github.com/nqueens/nqueens/board"
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
	name:        "bitmask",
	description: "recursion on (row, cols, ld, rd) bit masks: the free squares of a row in one word, no rejected tries",
	quiet:       searchBitmask[quiet],
	traced:      searchBitmask[traced],
	teach:       &lessonBitmask,
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
	title: "bit masks",
	summary: "The fastest classic: the columns and the two diagonal directions under attack in a row are bits of " +
		"three words, so the free squares of the row are one word, free = all & ~(cols | ld | rd). The search takes " +
		"the lowest set bit of free, places that queen and goes down a row, where ld moves one column right and rd " +
		"one left. It never looks at an attacked square: no rejected tries, and a row whose free is 0 is a dead end.",
	code: []codeLine{
		{"solve(row, cols, ld, rd):", 0},
		{"  if row > n: report queens; return", Solution},
		{"  free = all & ~(cols | ld | rd)", 0},
		{"  while free ≠ 0:", DeadEnd},
		{"    bit = free & −free; free = free ^ bit; queens[row] = column of bit", Place},
		{"    solve(row + 1, cols | bit, (ld | bit) << 1, (rd | bit) >> 1)", 0},
		{"    queens[row] = 0", Remove},
		{"solve(1, 0, 0, 0); report the number of solutions", Done},
	},
	say: sayBitmask,
}

// setColumns lists the columns of mask, "none" for 0.
func setColumns(mask uint64) string {
	var cs []int
	for m := mask; m != 0; m &= m - 1 {
		cs = append(cs, bits.TrailingZeros64(m))
	}
	if len(cs) == 0 {
		return "no column"
	}
	return columns(cs)
}

func sayBitmask(e *Event, f field, last EventKind) string {
	n := f.n
	if e.Kind == Solution || e.Kind == Done {
		s, _ := sayCommon(e)
		if e.Kind == Done {
			s = fmt.Sprintf("The search is over: %s, after %s and no rejected try.", plural(e.Counters.Solutions, "solution"),
				plural(e.Counters.Placed, "placement"))
		}
		return s
	}
	r, c, m := e.Row, e.Col, e.Masks
	switch e.Kind {
	case DeadEnd:
		closed := ""
		if f.closes(r) {
			closed = " with the squares the given board closes"
		}
		return fmt.Sprintf("Row %d: cols holds %s, ld %s and rd %s: together%s every column, so free = 0. A dead end: back to row %d.",
			r+1, setColumns(m.Cols), setColumns(m.LD), setColumns(m.RD), closed, r)
	case Place:
		src := fmt.Sprintf("Row %d: free = all & ~(cols | ld | rd) holds %s", r+1, setColumns(m.Free|1<<c))
		if f.closes(r) {
			src = fmt.Sprintf("Row %d: free = all & ~(cols | ld | rd), less the squares the given board closes, holds %s", r+1, setColumns(m.Free|1<<c))
		}
		if last == Remove {
			src = fmt.Sprintf("Row %d: free still holds %s", r+1, setColumns(m.Free|1<<c))
		}
		then := "every row now holds a queen"
		if r+1 < n {
			then = fmt.Sprintf("next: the call for row %d, with the bit added to cols, ld and rd", r+2)
		}
		return fmt.Sprintf("%s; its lowest bit is column %d: queens[%d] = %d, free keeps %s; %s.",
			src, c+1, r+1, c+1, setColumns(m.Free), then)
	case Remove:
		from := fmt.Sprintf("Back in row %d from the call for row %d", r+1, r+2)
		if r == n-1 {
			from = fmt.Sprintf("Solution %d is reported and the last queen moves on", e.Counters.Solutions)
		}
		then := fmt.Sprintf("free still holds %s: its lowest bit is next", setColumns(m.Free))
		switch {
		case m.Free == 0 && r > 0:
			then = fmt.Sprintf("free is 0: row %d is done, back to row %d", r+1, r)
		case m.Free == 0:
			then = "free is 0: row 1 is done and the search ends"
		}
		return fmt.Sprintf("%s: queens[%d] = 0; cols, ld and rd of row %d are as they were (passed by value); %s.",
			from, r+1, r+1, then)
	}
	return e.Kind.String()
}
