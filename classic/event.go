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
)

var kindNames = [...]string{"", "place", "reject", "remove", "solution"}

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
	return 0, fmt.Errorf("unknown event kind %q (want place, reject, remove or solution)", name)
}

// Event is one step of a traced search. Rows and columns are 0-based here
// and 1-based in the JSON form and in [Event.String].
type Event struct {
	Kind EventKind
	Step uint64 // 1 for the first event of the search
	// Row and Col are the square placed, tried or removed; both are
	// [board.Empty] for a solution.
	Row, Col int
	// By is the attacking queen of a rejected try: the topmost one when
	// several attack the square. Attack says along which line:
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
}

// CandidateTracer is a brute-force strategy whose candidates can be watched
// one by one. Each candidate is one event: a Solution, or a Reject whose
// (Row, Col) and By are the first pair of its queens that attack each other,
// in the order the strategy's own check finds them, with Queens the
// candidate itself.
type CandidateTracer interface {
	Estimator
	// TraceCandidates returns the candidates as a sequence of events, like
	// [Tracer.Trace]. Cost: that of Solve plus O(n) per candidate.
	TraceCandidates(ctx context.Context, n int) iter.Seq2[Event, error]
}

// String describes the event in one line, 1-based:
// "reject row 3, col 1: attacked by queen at row 1, col 1 (same column)",
// or for a brute-force candidate "candidate 7: reject row 2, col 1: …".
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
	// Added for brute-force candidates; absent from backtracking events.
	Candidate uint64     `json:"candidate,omitempty"`
	Squares   []squareJS `json:"squares,omitempty"`
}

type squareJS struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

// MarshalJSON writes {"step":3,"kind":"reject","row":2,"col":1,
// "by":{"row":1,"col":1},"attack":"same column","queens":[1,0,0,0],"counters":{…}}
// with 1-based rows and columns and 0 for a row without a queen. A solution
// has no row and col.
func (e Event) MarshalJSON() ([]byte, error) {
	j := eventJSON{Step: e.Step, Kind: e.Kind.String(), Counters: e.Counters, Queens: make([]int32, len(e.Queens)),
		Candidate: e.Candidate}
	for _, q := range e.Squares {
		j.Squares = append(j.Squares, squareJS{q.Row + 1, q.Col + 1})
	}
	j.Counters.Elapsed = 0
	if e.Kind != Solution {
		j.Row, j.Col = e.Row+1, e.Col+1
	}
	if e.Kind == Reject {
		j.By = &squareJS{e.By.Row + 1, e.By.Col + 1}
		j.Attack = e.Attack.String()
	}
	for i, c := range e.Queens {
		j.Queens[i] = c + 1
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the form MarshalJSON writes and checks it: a known
// kind, squares and queens on the board, an attacker for a reject.
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
		Queens: make(board.Placement, n), Candidate: j.Candidate}
	for i, c := range j.Queens {
		if c < 0 || int(c) > n {
			return fmt.Errorf("queens[%d] = %d is out of range 0..%d", i, c, n)
		}
		out.Queens[i] = c - 1
	}
	inBoard := func(r, c int) bool { return r >= 1 && r <= n && c >= 1 && c <= n }
	for _, q := range j.Squares {
		if !inBoard(q.Row, q.Col) {
			return fmt.Errorf("squares: (row %d, col %d) is off the %d×%d board", q.Row, q.Col, n, n)
		}
		out.Squares = append(out.Squares, board.Square{Row: q.Row - 1, Col: q.Col - 1})
	}
	if kind != Solution {
		if !inBoard(j.Row, j.Col) {
			return fmt.Errorf("%s event: square (row %d, col %d) is off the %d×%d board", kind, j.Row, j.Col, n, n)
		}
		out.Row, out.Col = j.Row-1, j.Col-1
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
	*e = out
	return nil
}

// attacker finds the topmost queen of q that attacks (row, col), and how.
// It is only called while tracing, so every strategy reports the same
// attacker whatever its own test found first. Cost O(n).
func attacker(q board.Columns, row, col int) (board.Square, board.ProblemKind) {
	for r := range q.N() {
		c := q.Col(r)
		if c == board.Empty || r == row {
			continue
		}
		switch {
		case c == col:
			return board.Square{Row: r, Col: c}, board.SameColumn
		case r-c == row-col:
			return board.Square{Row: r, Col: c}, board.Diagonal
		case r+c == row+col:
			return board.Square{Row: r, Col: c}, board.AntiDiagonal
		}
	}
	return board.Square{Row: board.Empty, Col: board.Empty}, 0
}

// traceCandidates runs a brute-force strategy for TraceCandidates: run tests
// every candidate through t, which emits one event for each.
func traceCandidates(ctx context.Context, s Strategy, n int, run func(t *candidates, n int)) iter.Seq2[Event, error] {
	return traced(ctx, s, n, func(emit func(Event) bool) error {
		t := newCandidates(ctx, nil)
		t.emit = emit
		run(t, n)
		return t.err
	})
}

// event is the event of the candidate p just counted by test. Cost O(n²)
// for a rejected candidate, as the strategies' own checks.
func (t *candidates) event(p board.Placement, solution bool) Event {
	e := Event{Kind: Solution, Step: t.c.Nodes, Candidate: t.c.Nodes, Row: board.Empty, Col: board.Empty,
		Queens: p.Clone(), Counters: t.c}
	n := len(p)
	for _, sq := range t.pick {
		e.Squares = append(e.Squares, board.Square{Row: sq / n, Col: sq % n})
	}
	if solution {
		return e
	}
	e.Kind = Reject
	at, by, how := firstAttack(p, e.Squares)
	e.Row, e.Col, e.By, e.Attack = at.Row, at.Col, by, how
	return e
}

// firstAttack finds the first pair of queens that attack each other, as the
// brute-force checks do: two of squares (in their order) in one row, else
// rows i < j of p in the order i, then j. It returns the later queen, the
// earlier one and the line.
func firstAttack(p board.Placement, squares []board.Square) (at, by board.Square, how board.ProblemKind) {
	for k := 1; k < len(squares); k++ {
		if squares[k].Row == squares[k-1].Row {
			return squares[k], squares[k-1], board.SameRow
		}
	}
	for i := range p {
		for j := i + 1; j < len(p); j++ {
			if p[i] == board.Empty || p[j] == board.Empty {
				continue
			}
			a, b := board.Square{Row: j, Col: int(p[j])}, board.Square{Row: i, Col: int(p[i])}
			switch d := int(p[j] - p[i]); {
			case d == 0:
				return a, b, board.SameColumn
			case d == j-i:
				return a, b, board.Diagonal
			case d == i-j:
				return a, b, board.AntiDiagonal
			}
		}
	}
	return board.Square{Row: board.Empty, Col: board.Empty}, board.Square{Row: board.Empty, Col: board.Empty}, 0
}
