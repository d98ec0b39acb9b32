package classic

import (
	"encoding/json"
	"errors"
	"fmt"

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
	// board.SameColumn, board.Diagonal (↘) or board.AntiDiagonal (↙).
	By     board.Square
	Attack board.ProblemKind
	// Queens is the board after the event, a copy the consumer may keep,
	// so that nobody has to replay the events to know the stack.
	Queens board.Placement
	// Counters after the event; Elapsed is always zero so that a trace
	// is the same from run to run.
	Counters Counters
}

var attackNames = map[board.ProblemKind]string{
	board.SameColumn:   "column",
	board.Diagonal:     "diagonal",
	board.AntiDiagonal: "anti-diagonal",
}

// String describes the event in one line, 1-based:
// "reject row 3, col 1: attacked by queen at row 1, col 1 (column)".
func (e Event) String() string {
	switch e.Kind {
	case Place, Remove:
		return fmt.Sprintf("%s row %d, col %d", e.Kind, e.Row+1, e.Col+1)
	case Reject:
		return fmt.Sprintf("reject row %d, col %d: attacked by queen at row %d, col %d (%s)",
			e.Row+1, e.Col+1, e.By.Row+1, e.By.Col+1, attackNames[e.Attack])
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
}

type squareJS struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

// MarshalJSON writes {"step":3,"kind":"reject","row":2,"col":1,
// "by":{"row":1,"col":1},"attack":"column","queens":[1,0,0,0],"counters":{…}}
// with 1-based rows and columns and 0 for a row without a queen. A solution
// has no row and col.
func (e Event) MarshalJSON() ([]byte, error) {
	j := eventJSON{Step: e.Step, Kind: e.Kind.String(), Counters: e.Counters, Queens: make([]int32, len(e.Queens))}
	j.Counters.Elapsed = 0
	if e.Kind != Solution {
		j.Row, j.Col = e.Row+1, e.Col+1
	}
	if e.Kind == Reject {
		j.By = &squareJS{e.By.Row + 1, e.By.Col + 1}
		j.Attack = attackNames[e.Attack]
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
		Queens: make(board.Placement, n)}
	for i, c := range j.Queens {
		if c < 0 || int(c) > n {
			return fmt.Errorf("queens[%d] = %d is out of range 0..%d", i, c, n)
		}
		out.Queens[i] = c - 1
	}
	inBoard := func(r, c int) bool { return r >= 1 && r <= n && c >= 1 && c <= n }
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
		for k, name := range attackNames {
			if name == j.Attack {
				out.Attack = k
			}
		}
		if out.Attack == 0 {
			return fmt.Errorf("unknown attack %q (want column, diagonal or anti-diagonal)", j.Attack)
		}
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
