package classic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"

	"github.com/nqueens/nqueens/board"
)

// EventKind is what happened at one step of a traced search.
type EventKind uint8

const (
	Place    EventKind = iota + 1 // a queen was placed at (Row, Col)
	Reject                        // (Row, Col) was tried and is attacked by the queen at By
	Remove                        // the queen at (Row, Col) was taken off (a backtrack)
	Solution                      // Queens is a solution
	DeadEnd                       // bitmask: row Row was entered with no free column
	Done                          // the search is over: the last event of a whole search
)

var kindNames = [...]string{"", "place", "reject", "remove", "solution", "dead-end", "done"}

func (k EventKind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", k)
}

// ParseEventKind accepts the names printed by String.
func ParseEventKind(name string) (EventKind, error) {
	for i, s := range kindNames {
		if i > 0 && s == name {
			return EventKind(i), nil
		}
	}
	return 0, fmt.Errorf("unknown event kind %q (want place, reject, remove, solution, dead-end or done)", name)
}

// Event is one step of a traced search, as the strategy's own code takes
// it: the square it tried, placed or freed, what its check read to decide
// (Scan, Compared, Flags or Masks, by strategy), the line of the strategy's
// pseudocode it ran and a sentence saying all that. Rows and columns are
// 0-based here and 1-based in the JSON form, in Text and in [Event.String].
type Event struct {
	Kind EventKind
	Step uint64 // 1 for the first event of the search
	// Row and Col are the square placed, tried or removed; both are
	// [board.Empty] for a solution and the final event, Col for a dead end.
	Row, Col int
	// By is the attacking queen of a rejected try, the one the strategy's
	// own check met first. Attack says along which line:
	// board.SameColumn, board.Diagonal, board.AntiDiagonal, or board.SameRow
	// (brute-combinations); its String is the name in messages and JSON.
	By     board.Square
	Attack board.ProblemKind
	// Queens is the board after the event, a copy the consumer may keep,
	// so that nobody has to replay the events to know the stack.
	Queens board.Placement
	// Counters after the event; Elapsed is always zero so that a trace
	// is the same from run to run.
	Counters Counters
	// Candidate is set for the events of a brute-force search (see
	// [CandidateTracer]): the number of the candidate board tested, from 1,
	// in the strategy's order. Squares lists the candidate's queens when
	// two may share a row (brute-combinations), which Queens cannot hold;
	// Queens then keeps the first queen of each row.
	Candidate uint64
	Squares   []board.Square

	// Text is the step in one sentence, 1-based, for people: what the
	// code did and why, in the strategy's own terms.
	Text string
	// Line is the 1-based line of the strategy's pseudocode ([Lesson]) that
	// the step ran; 0 when the strategy has none.
	Line int
	// What the try read, by strategy (nil or empty for the others):
	// Scan for backtrack-2d, Compared for backtrack-array and stack (the
	// rows of the queens compared, in order), Flags for the flag
	// strategies, Masks for bitmask (the current call's words).
	Scan     *Scan
	Compared []int
	Flags    []Flag
	Masks    *Masks
}

// Scan is what backtrack-2d read for a try: how many cells up the column,
// then up the ↖ diagonal, then up the ↗ diagonal, each until a queen or the
// edge; it stops at the first queen, the last cell read.
type Scan struct {
	Column       int `json:"column"`
	Diagonal     int `json:"diagonal"`
	AntiDiagonal int `json:"anti_diagonal"`
}

// Cells is the number of cells the scan read.
func (s Scan) Cells() int { return s.Column + s.Diagonal + s.AntiDiagonal }

// Flag is one flag a flag strategy read: Array "cols", "diag" (↘, index
// row − col + n − 1) or "anti" (↙, index row + col), 0-based here and
// 1-based in JSON and text.
type Flag struct {
	Array string
	Index int
	Set   bool
}

// Masks are the words of the bitmask strategy's current call: bit c is
// column c (0-based). Free is what is left of the row's free columns at
// that moment.
type Masks struct {
	Cols, LD, RD, Free uint64
}

// maskString writes mask as n characters '0' or '1', column 1 first (bit 0 on the
// left, where column 1 is on the board).
func maskString(mask uint64, n int) string {
	b := make([]byte, n)
	for c := range n {
		b[c] = '0' + byte(mask>>c&1)
	}
	return string(b)
}

func parseMask(s string, n int) (uint64, error) {
	if len(s) != n {
		return 0, fmt.Errorf("mask %q has %d bits, want %d", s, len(s), n)
	}
	var m uint64
	for c := range n {
		switch s[c] {
		case '1':
			m |= 1 << c
		case '0':
		default:
			return 0, fmt.Errorf("mask %q holds %q, want 0 or 1", s, s[c])
		}
	}
	return m, nil
}

// CandidateTracer is a brute-force strategy whose candidates can be watched
// one by one. Each candidate is one event: a Solution, or a Reject whose
// (Row, Col) and By are the first pair of its queens that attack each other,
// in the order the strategy's own check finds them, with Queens the
// candidate itself; a whole search ends with a Done event.
type CandidateTracer interface {
	Estimator
	// TraceCandidates returns the candidates as a sequence of events, like
	// [Tracer.Trace]. Cost: that of Solve plus O(n) per candidate.
	TraceCandidates(ctx context.Context, n int) iter.Seq2[Event, error]
}

// String describes the event in one line, 1-based:
// "reject row 3, col 1: attacked by queen at row 1, col 1 (same column)",
// or for a brute-force candidate "candidate 7: reject row 2, col 1: …".
// Text says more, in sentences.
func (e Event) String() string {
	if e.Candidate > 0 && e.Kind != Solution {
		c := e
		c.Candidate = 0
		return fmt.Sprintf("candidate %d: %s", e.Candidate, c)
	}
	switch e.Kind {
	case Place, Remove:
		return fmt.Sprintf("%s row %d, col %d", e.Kind, e.Row+1, e.Col+1)
	case Reject:
		return fmt.Sprintf("reject row %d, col %d: attacked by queen at row %d, col %d (%s)",
			e.Row+1, e.Col+1, e.By.Row+1, e.By.Col+1, e.Attack)
	case Solution:
		return fmt.Sprintf("solution %d: %s", e.Counters.Solutions, e.Queens)
	case DeadEnd:
		return fmt.Sprintf("dead-end row %d", e.Row+1)
	case Done:
		return fmt.Sprintf("done: %s", plural(e.Counters.Solutions, "solution"))
	}
	return e.Kind.String()
}

// eventJSON is the stable JSON form of an Event, 1-based, 0 for an empty row.
type eventJSON struct {
	Step     uint64    `json:"step"`
	Kind     string    `json:"kind"`
	Row      int       `json:"row,omitempty"`
	Col      int       `json:"col,omitempty"`
	By       *squareJS `json:"by,omitempty"`
	Attack   string    `json:"attack,omitempty"`
	Queens   []int32   `json:"queens"`
	Counters Counters  `json:"counters"`
	Text     string    `json:"text,omitempty"`
	Line     int       `json:"line,omitempty"`
	// Added for brute-force candidates; absent from backtracking events.
	Candidate uint64     `json:"candidate,omitempty"`
	Squares   []squareJS `json:"squares,omitempty"`
	// What the try read, by strategy.
	Scan     *Scan    `json:"scan,omitempty"`
	Compared []int    `json:"compared,omitempty"`
	Flags    []flagJS `json:"flags,omitempty"`
	Masks    *masksJS `json:"masks,omitempty"`
}

type squareJS struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

type flagJS struct {
	Array string `json:"array"`
	Index int    `json:"index"`
	Set   bool   `json:"set"`
}

type masksJS struct {
	Cols string `json:"cols"`
	LD   string `json:"ld"`
	RD   string `json:"rd"`
	Free string `json:"free"`
}

// MarshalJSON writes {"step":3,"kind":"reject","row":2,"col":1,
// "by":{"row":1,"col":1},"attack":"same column","queens":[1,0,0,0],
// "counters":{…},"text":"…","line":5,…} with 1-based rows, columns, rows
// compared and flag indexes, 0 for a row without a queen, and masks as
// strings of n bits, column 1 first. A solution and the final event have no
// row and col, a dead end no col.
func (e Event) MarshalJSON() ([]byte, error) {
	n := len(e.Queens)
	j := eventJSON{Step: e.Step, Kind: e.Kind.String(), Counters: e.Counters, Queens: make([]int32, n),
		Candidate: e.Candidate, Text: e.Text, Line: e.Line, Scan: e.Scan}
	for _, q := range e.Squares {
		j.Squares = append(j.Squares, squareJS{q.Row + 1, q.Col + 1})
	}
	j.Counters.Elapsed = 0
	if e.Row != board.Empty {
		j.Row = e.Row + 1
	}
	if e.Col != board.Empty {
		j.Col = e.Col + 1
	}
	if e.Kind == Reject {
		j.By = &squareJS{e.By.Row + 1, e.By.Col + 1}
		j.Attack = e.Attack.String()
	}
	for i, c := range e.Queens {
		j.Queens[i] = c + 1
	}
	for _, r := range e.Compared {
		j.Compared = append(j.Compared, r+1)
	}
	for _, f := range e.Flags {
		j.Flags = append(j.Flags, flagJS{f.Array, f.Index + 1, f.Set})
	}
	if m := e.Masks; m != nil {
		j.Masks = &masksJS{maskString(m.Cols, n), maskString(m.LD, n), maskString(m.RD, n), maskString(m.Free, n)}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the form MarshalJSON writes and checks it: a known
// kind, squares and queens on the board, an attacker for a reject, what was
// read within the board.
func (e *Event) UnmarshalJSON(data []byte) error {
	var j eventJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	kind, err := ParseEventKind(j.Kind)
	if err != nil {
		return err
	}
	n := len(j.Queens)
	if n == 0 {
		return errors.New("event has no queens array")
	}
	out := Event{Kind: kind, Step: j.Step, Row: board.Empty, Col: board.Empty, Counters: j.Counters,
		Queens: make(board.Placement, n), Candidate: j.Candidate, Text: j.Text, Line: j.Line, Scan: j.Scan}
	for i, c := range j.Queens {
		if c < 0 || int(c) > n {
			return fmt.Errorf("queens[%d] = %d is out of range 0..%d", i, c, n)
		}
		out.Queens[i] = c - 1
	}
	inRange := func(v int) bool { return v >= 1 && v <= n }
	inBoard := func(r, c int) bool { return inRange(r) && inRange(c) }
	for _, q := range j.Squares {
		if !inBoard(q.Row, q.Col) {
			return fmt.Errorf("squares: (row %d, col %d) is off the %d×%d board", q.Row, q.Col, n, n)
		}
		out.Squares = append(out.Squares, board.Square{Row: q.Row - 1, Col: q.Col - 1})
	}
	switch kind {
	case Place, Reject, Remove:
		if !inBoard(j.Row, j.Col) {
			return fmt.Errorf("%s event: square (row %d, col %d) is off the %d×%d board", kind, j.Row, j.Col, n, n)
		}
		out.Row, out.Col = j.Row-1, j.Col-1
	case DeadEnd:
		if !inRange(j.Row) || j.Col != 0 {
			return fmt.Errorf("dead-end event: row %d, col %d (want a row of the %d×%d board and no col)", j.Row, j.Col, n, n)
		}
		out.Row = j.Row - 1
	default:
		if j.Row != 0 || j.Col != 0 {
			return fmt.Errorf("%s event with a square", kind)
		}
	}
	if kind == Reject {
		if j.By == nil || !inBoard(j.By.Row, j.By.Col) {
			return errors.New("reject event without an attacking queen on the board")
		}
		out.By = board.Square{Row: j.By.Row - 1, Col: j.By.Col - 1}
		k, err := board.ParseProblemKind(j.Attack)
		if err != nil || !k.IsAttack() {
			return fmt.Errorf("unknown attack %q (want same row, same column, same diagonal or same anti-diagonal)", j.Attack)
		}
		out.Attack = k
	}
	if s := j.Scan; s != nil && (s.Column < 0 || s.Diagonal < 0 || s.AntiDiagonal < 0 || s.Cells() > 3*n) {
		return fmt.Errorf("scan %+v is not a scan of the %d×%d board", *s, n, n)
	}
	for _, r := range j.Compared {
		if !inRange(r) {
			return fmt.Errorf("compared: row %d is off the %d×%d board", r, n, n)
		}
		out.Compared = append(out.Compared, r-1)
	}
	for _, f := range j.Flags {
		size := 2*n - 1
		if f.Array == "cols" {
			size = n
		} else if f.Array != "diag" && f.Array != "anti" {
			return fmt.Errorf("unknown flag array %q (want cols, diag or anti)", f.Array)
		}
		if f.Index < 1 || f.Index > size {
			return fmt.Errorf("flag %s[%d] is out of range 1..%d", f.Array, f.Index, size)
		}
		out.Flags = append(out.Flags, Flag{f.Array, f.Index - 1, f.Set})
	}
	if m := j.Masks; m != nil {
		var w [4]uint64
		for i, s := range []string{m.Cols, m.LD, m.RD, m.Free} {
			if w[i], err = parseMask(s, n); err != nil {
				return err
			}
		}
		out.Masks = &Masks{w[0], w[1], w[2], w[3]}
	}
	*e = out
	return nil
}
