package classic

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
)

// The strategies' checks, written again from their definitions on a plain
// column array, slowly and plainly: what a try at (row, col) reads and which
// queen it finds. q holds the queens of rows 0..row-1.

// tryOracle is what a try by strategy name at (row, col) of board q reads
// and finds: the reads counted, the attacker (row Empty for none), the line,
// and the read details the event must carry.
func tryOracle(name string, q board.Placement, row, col int) (reads int, by board.Square, how board.ProblemKind, detail Event) {
	none := board.Square{Row: board.Empty, Col: board.Empty}
	n := len(q)
	switch name {
	case "backtrack-2d":
		var s Scan
		rays := []struct {
			dc   int
			k    *int
			line board.ProblemKind
		}{{0, &s.Column, board.SameColumn}, {-1, &s.Diagonal, board.Diagonal}, {1, &s.AntiDiagonal, board.AntiDiagonal}}
		for _, ray := range rays {
			for r, c := row-1, col+ray.dc; r >= 0 && c >= 0 && c < n; r, c = r-1, c+ray.dc {
				*ray.k++
				if int(q[r]) == c {
					return s.Cells(), board.Square{Row: r, Col: c}, ray.line, Event{Scan: &s}
				}
			}
		}
		return s.Cells(), none, 0, Event{Scan: &s}
	case "backtrack-array", "stack":
		per := 1
		if name == "stack" {
			per = 2 // a stack entry is a row and a column
		}
		for r := 0; r < row; r++ {
			c := int(q[r])
			if k := lineOf(r, c, row, col); k != 0 {
				return per * (r + 1), board.Square{Row: r, Col: c}, k, Event{Compared: upTo(r + 1)}
			}
		}
		return per * row, none, 0, Event{Compared: upTo(row)}
	case "backtrack-flags", "backtrack-flags-iterative":
		taken := func(line board.ProblemKind) (board.Square, bool) {
			for r := 0; r < row; r++ {
				if lineOf(r, int(q[r]), row, col) == line {
					return board.Square{Row: r, Col: int(q[r])}, true
				}
			}
			return none, false
		}
		var fs []Flag
		for i, f := range []struct {
			array string
			index int
			line  board.ProblemKind
		}{{"cols", col, board.SameColumn}, {"diag", row - col + n - 1, board.Diagonal}, {"anti", row + col, board.AntiDiagonal}} {
			sq, set := taken(f.line)
			fs = append(fs, Flag{f.array, f.index, set})
			if set {
				return i + 1, sq, f.line, Event{Flags: fs}
			}
		}
		return 3, none, 0, Event{Flags: fs}
	}
	panic(name)
}

// lineOf is the line along which the queen at (r, c) attacks (row, col), 0
// for none.
func lineOf(r, c, row, col int) board.ProblemKind {
	switch {
	case c == col:
		return board.SameColumn
	case row-r == col-c:
		return board.Diagonal
	case row-r == c-col:
		return board.AntiDiagonal
	}
	return 0
}

// masksOf are the bitmask words of row on board q (rows 0..row-1): the
// columns taken, and those a queen above attacks along ↘ and ↙.
func masksOf(q board.Placement, row int) Masks {
	var m Masks
	n := len(q)
	for r := 0; r < row; r++ {
		c := int(q[r])
		m.Cols |= 1 << c
		if d := c + row - r; d < n {
			m.LD |= 1 << d
		}
		if a := c - (row - r); a >= 0 {
			m.RD |= 1 << a
		}
	}
	return m
}

var indexed = regexp.MustCompile(`\b(queens|grid|cols|diag|anti)\[(\d+)\](?:\[(\d+)\])?`)

// checkNumbers checks that every row and column an English sentence names
// is on the n×n board, and every array index it names within its array.
func checkNumbers(t *testing.T, where, text string, n int) {
	t.Helper()
	checkNumbersIn(t, sayer(i18n.English), where, text, n)
}

// checkNumbersIn is checkNumbers for a sentence in s's language.
func checkNumbersIn(t *testing.T, s says, where, text string, n int) {
	t.Helper()
	in := func(v string, hi int) bool { k, err := strconv.Atoi(v); return err == nil && k >= 1 && k <= hi }
	if !hasNoKey(text) {
		t.Fatalf("%s: %q shows a message key", where, text)
	}
	for _, m := range s.numbered.FindAllStringSubmatch(text, -1) {
		v := m[2]
		if s.p.Lang() == i18n.Chinese {
			v = m[1]
		}
		if !in(v, n) {
			t.Fatalf("%s: %q names %s, off the %d×%d board", where, text, m[0], n, n)
		}
	}
	for _, m := range s.listed.FindAllStringSubmatch(text, -1) {
		for _, v := range regexp.MustCompile(`\d+`).FindAllString(m[1], -1) {
			if !in(v, n) {
				t.Fatalf("%s: %q lists column %s, off the board", where, text, v)
			}
		}
	}
	for _, m := range indexed.FindAllStringSubmatch(text, -1) {
		hi := n
		if m[1] == "diag" || m[1] == "anti" {
			hi = 2*n - 1
		}
		if !in(m[2], hi) || m[3] != "" && !in(m[3], n) {
			t.Fatalf("%s: %q indexes %s out of range", where, text, m[0])
		}
	}
}

// replay checks each event of a backtracking trace against the board its
// predecessors leave, with the strategy's check written again above: a
// place puts a queen on a free square of the next row, a reject names the
// queen the strategy's own check meets first and carries what it read, a
// remove takes off the last queen, a dead end is a row with no free square,
// a solution is a full valid board, the last event is Done; the counters
// move by what the step did, reads included; and the sentence says what
// happened, with every row and column on the board.
func replay(t *testing.T, name string, n int, events []Event) {
	t.Helper()
	replayOn(t, name, field{n: n}, events)
}

// replayOn is replay on the board f, which a search started from a partial
// board (TraceFrom) has: each row tried only on the columns it offers, in
// order, and the bitmask's free word within them.
func replayOn(t *testing.T, name string, f field, events []Event) {
	t.Helper()
	replayIn(t, sayer(i18n.English), name, f, events)
}

// replayIn is replayOn for the sentences of a trace in s's language.
func replayIn(t *testing.T, s says, name string, f field, events []Event) {
	t.Helper()
	n := f.n
	q := board.New(n)
	var c Counters
	var last EventKind
	all := ^uint64(0) >> (64 - n)
	open := func(row int) uint64 {
		if f.open == nil {
			return all
		}
		return f.open[row]
	}
	want := f.first(0, 0) // the column the next try must be, in row q.Queens()
	for i, e := range events {
		where := fmt.Sprintf("%s n=%d step %d (%v)", name, n, i+1, e)
		if e.Step != uint64(i+1) {
			t.Fatalf("%s: step %d", where, e.Step)
		}
		row := q.Queens() // the row being filled
		has := func(parts ...string) {
			t.Helper()
			for _, p := range parts {
				if !strings.Contains(strings.ToLower(e.Text), strings.ToLower(p)) {
					t.Fatalf("%s: the sentence %q does not say %q", where, e.Text, p)
				}
			}
		}
		checkNumbersIn(t, s, where, e.Text, n)
		if e.Line < 1 {
			t.Fatalf("%s: no line of pseudocode", where)
		}
		sq := s.square(e.Row, e.Col)
		if (e.Kind == Place || e.Kind == Reject) && name != "bitmask" {
			if e.Col != want {
				t.Fatalf("%s: tries column %d, the row's next column is %d", where, e.Col+1, want+1)
			}
			want = f.first(row, e.Col+1)
			if e.Kind == Place && row+1 < n {
				want = f.first(row+1, 0)
			}
		}
		switch e.Kind {
		case Place:
			q[row] = int32(e.Col)
			if e.Row != row || board.Check(q) != nil || !f.opens(row, e.Col) {
				t.Fatalf("%s: placed on an attacked square or out of turn", where)
			}
			c.Placed++
			c.Tries++
			c.Nodes++
			if name == "bitmask" {
				m := masksOf(q, row)
				free := open(row) &^ (m.Cols | m.LD | m.RD) &^ (2<<e.Col - 1)
				m.Free = free
				if *e.Masks != m {
					t.Fatalf("%s: masks %+v, want %+v", where, *e.Masks, m)
				}
				c.Reads++
				if last != Remove {
					c.Reads += 3
				}
				has(s.f(s.rowStart, row+1), s.f(s.lowest, e.Col+1), s.freeKeeps+setColumns(s.p, free))
				break
			}
			reads, _, _, d := tryOracle(name, q, row, e.Col)
			c.Reads += uint64(reads)
			checkDetail(t, where, e, d)
			has(s.try + sq)
		case Reject:
			if name == "bitmask" {
				t.Fatalf("%s: the bitmask search never rejects a try", where)
			}
			reads, by, how, d := tryOracle(name, q, row, e.Col)
			if e.Row != row || by != e.By || how != e.Attack {
				t.Fatalf("%s: the strategy's check meets the queen at %v (%v) first", where, by, how)
			}
			checkDetail(t, where, e, d)
			c.Reads += uint64(reads)
			c.Rejected++
			c.Tries++
			has(s.try+sq, s.square(by.Row, by.Col), s.rejected)
			if d.Flags != nil {
				has(flagsRead(s.p, d.Flags))
			}
		case Remove:
			if row == 0 || e.Row != row-1 || q[e.Row] != int32(e.Col) {
				t.Fatalf("%s: removes a queen that is not on top", where)
			}
			q[e.Row] = board.Empty
			c.Backtracks++
			want = f.first(e.Row, e.Col+1)
			if e.Row == n-1 {
				has(s.lastMoves, s.f(s.solution, c.Solutions))
			} else {
				has(s.f(s.row, e.Row+2))
			}
			switch {
			case name == "bitmask":
				m := masksOf(q, e.Row)
				m.Free = open(e.Row) &^ (m.Cols | m.LD | m.RD) &^ (2<<e.Col - 1)
				if *e.Masks != m {
					t.Fatalf("%s: masks %+v, want %+v", where, *e.Masks, m)
				}
				if m.Free != 0 {
					has(s.freeHolds + setColumns(s.p, m.Free))
				} else {
					has(s.freeZero)
				}
			case want < n:
				has(s.next + s.square(e.Row, want))
			default:
				has(s.f(s.noColumn, e.Row+1))
			}
		case DeadEnd:
			m := masksOf(q, row)
			if name != "bitmask" || e.Row != row || open(row)&^(m.Cols|m.LD|m.RD) != 0 || *e.Masks != m {
				t.Fatalf("%s: not a dead end of row %d (masks %+v)", where, row+1, m)
			}
			c.Reads += 3
			has(s.f(s.rowStart, row+1), s.deadend[0]+setColumns(s.p, m.Cols), s.deadend[1]+setColumns(s.p, m.LD), s.deadend[2]+setColumns(s.p, m.RD))
		case Solution:
			if board.Verify(q) != nil {
				t.Fatalf("%s: not a solution", where)
			}
			c.Solutions++
			has(s.f(s.solution, c.Solutions), q.String())
		case Done:
			if i != len(events)-1 || q.Queens() != 0 {
				t.Fatalf("%s: Done is not the last event on an empty board", where)
			}
			has(s.doneWith(c.Solutions))
		}
		if !q.Equal(e.Queens) || c != e.Counters {
			t.Fatalf("%s: board %v counters %v, want %v and %v", where, e.Queens, e.Counters, q, c)
		}
		last = e.Kind
	}
	if len(events) == 0 || events[len(events)-1].Kind != Done {
		t.Fatalf("%s n=%d: the trace does not end with Done", name, n)
	}
}

// checkDetail compares what an event says its try read with the oracle's.
func checkDetail(t *testing.T, where string, e, want Event) {
	t.Helper()
	ok := fmt.Sprint(e.Scan, e.Compared, e.Flags) == fmt.Sprint(want.Scan, want.Compared, want.Flags)
	if want.Scan != nil {
		ok = e.Scan != nil && *e.Scan == *want.Scan
	}
	if !ok {
		t.Fatalf("%s: read scan %v compared %v flags %v, want %v %v %v", where, e.Scan, e.Compared, e.Flags, want.Scan, want.Compared, want.Flags)
	}
}
