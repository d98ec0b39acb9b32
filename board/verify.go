package board

import (
	"strconv"

	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nqueens/nqueens/i18n"
)

// ProblemKind names why a placement is not a solution. Its String is the
// one spelling used in messages, in JSON (see [ProblemKind.MarshalJSON])
// and by every package: a trace's attack along a line is a ProblemKind too.
type ProblemKind uint8

const (
	OutOfRange   ProblemKind = iota + 1 // "column out of range": a column outside 1..n
	EmptyRow                            // "empty row": a row without a queen (full solutions only)
	SameColumn                          // "same column": two queens in one column
	Diagonal                            // "same diagonal": two queens on one ↘ diagonal (row-col equal)
	AntiDiagonal                        // "same anti-diagonal": two queens on one ↙ diagonal (row+col equal)
	Blocked                             // "blocked square": a queen on a blocked square (partial boards)
	// SameRow, "same row", is two queens in one row: never a verdict of
	// [Verify], as a Placement cannot hold them, but a line along which the
	// queens of a set of squares attack (classic's brute-combinations).
	SameRow
	// KnightMove, "knight's move", is two superqueens a knight's move
	// apart (package variant); never a verdict of [Verify].
	KnightMove
)

var kindNames = [...]string{"", "column out of range", "empty row", "same column", "same diagonal", "same anti-diagonal", "blocked square", "same row", "knight's move"}

func (k ProblemKind) String() string {
	if int(k) < len(kindNames) && k > 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("ProblemKind(%d)", k)
}

// IsAttack reports whether k is two queens on one line.
func (k ProblemKind) IsAttack() bool {
	return k == SameRow || k == SameColumn || k == Diagonal || k == AntiDiagonal || k == KnightMove
}

// ParseProblemKind accepts the names String prints.
func ParseProblemKind(name string) (ProblemKind, error) {
	for i, s := range kindNames {
		if i > 0 && s == name {
			return ProblemKind(i), nil
		}
	}
	return 0, errT("board.problemkind.unknown", i18n.Args{"Name": strconv.Quote(name), "Names": strings.Join(kindNames[1:], ", ")})
}

// MarshalJSON writes the kind as its name, "same diagonal".
func (k ProblemKind) MarshalJSON() ([]byte, error) {
	if k == 0 || int(k) >= len(kindNames) {
		return nil, fmt.Errorf("board: no JSON name for %v", k)
	}
	return json.Marshal(k.String())
}

// UnmarshalJSON reads the name MarshalJSON writes.
func (k *ProblemKind) UnmarshalJSON(data []byte) error {
	var name string
	if err := json.Unmarshal(data, &name); err != nil {
		return err
	}
	v, err := ParseProblemKind(name)
	if err == nil {
		*k = v
	}
	return err
}

// Problem says exactly why a placement is not a solution. Rows and columns
// are 0-based; Error prints them 1-based. For attacks, (Row, Col) is the later
// queen and (Row2, Col2) the earlier one it attacks.
type Problem struct {
	Kind       ProblemKind
	N          int
	Row, Col   int
	Row2, Col2 int
}

func (p *Problem) Error() string {
	switch p.Kind {
	case OutOfRange:
		return fmt.Sprintf("row %d: column %d is out of range 1..%d", p.Row+1, p.Col+1, p.N)
	case EmptyRow:
		return fmt.Sprintf("row %d has no queen", p.Row+1)
	case Blocked:
		return fmt.Sprintf("queen at row %d, column %d stands on a blocked square", p.Row+1, p.Col+1)
	case KnightMove:
		return fmt.Sprintf("superqueens at row %d, column %d and row %d, column %d attack each other by a knight's move",
			p.Row2+1, p.Col2+1, p.Row+1, p.Col+1)
	}
	return fmt.Sprintf("queens at row %d, column %d and row %d, column %d attack each other on the %s",
		p.Row2+1, p.Col2+1, p.Row+1, p.Col+1, p.Kind)
}

// Localize is the problem in p's language: the catalogs' board.problem.….
func (p *Problem) Localize(pr *i18n.Printer) string {
	args := i18n.Args{"Row": p.Row + 1, "Col": p.Col + 1, "Row2": p.Row2 + 1, "Col2": p.Col2 + 1, "N": strconv.Itoa(p.N)}
	switch p.Kind {
	case OutOfRange:
		return pr.T("board.problem.range", args)
	case EmptyRow:
		return pr.T("board.problem.empty", args)
	case Blocked:
		return pr.T("board.problem.blocked", args)
	case KnightMove:
		return pr.T("board.problem.knight", args)
	case SameColumn:
		args["Line"] = pr.T("board.line.column", nil)
	case Diagonal:
		args["Line"] = pr.T("board.line.diag", nil)
	case AntiDiagonal:
		args["Line"] = pr.T("board.line.anti", nil)
	case SameRow:
		args["Line"] = pr.T("board.line.row", nil)
	default:
		return p.Error()
	}
	return pr.T("board.problem.attack", args)
}

// ProblemJSON is the JSON form of a [Problem], 1-based, the one form a
// problem takes in nqueens (verify --json and /api/verify):
// {"kind":"same column","row":4,"col":4,"row2":2,"col2":4}. Col is 0 for
// an empty row; Row2 and Col2 are the earlier queen of an attack and absent
// otherwise.
type ProblemJSON struct {
	Kind string `json:"kind"`
	Row  int    `json:"row"`
	Col  int    `json:"col"`
	Row2 int    `json:"row2,omitempty"`
	Col2 int    `json:"col2,omitempty"`
}

// JSON returns the JSON form of p.
func (p *Problem) JSON() ProblemJSON {
	j := ProblemJSON{Kind: p.Kind.String(), Row: p.Row + 1, Col: p.Col + 1}
	if p.Kind == EmptyRow {
		j.Col = 0
	}
	if p.Kind.IsAttack() {
		j.Row2, j.Col2 = p.Row2+1, p.Col2+1
	}
	return j
}

// MarshalJSON writes [ProblemJSON].
func (p *Problem) MarshalJSON() ([]byte, error) { return json.Marshal(p.JSON()) }

// Verify reports whether c is a full solution: nil if so, else a *[Problem]
// for the first row (top down) where something is wrong. Cost O(n) time and
// 5n bits of memory, so boards of 10^9 rows can be checked.
func Verify(c Columns) error { return check(context.Background(), c, true, nil) }

// VerifyContext is [Verify] that stops with ctx.Err() when ctx ends: a
// board of 10^9 rows takes seconds.
func VerifyContext(ctx context.Context, c Columns) error { return check(ctx, c, true, nil) }

// VerifyProgress is [VerifyContext] that calls progress with the rows
// checked so far about every million rows, on the caller's goroutine.
func VerifyProgress(ctx context.Context, c Columns, progress func(rows int)) error {
	return check(ctx, c, true, progress)
}

// VerifyMemory is the memory in bytes that [Verify] takes for n rows.
func VerifyMemory(n int) int64 { return 8 * int64((n+63)/64+2*((2*n-1+63)/64)) }

// Check is [Verify] for partial boards: empty rows are allowed, every placed
// queen must be in range and attack no other.
func Check(c Columns) error { return check(context.Background(), c, false, nil) }

// checkRows is how many rows check runs between two looks at its context.
const checkRows = 1 << 20

func check(ctx context.Context, c Columns, full bool, progress func(rows int)) error {
	n := c.N()
	cols := newBits(n)
	diag := newBits(2*n - 1) // index row-col+n-1
	anti := newBits(2*n - 1) // index row+col
	for r := range n {
		if r%checkRows == checkRows-1 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(r + 1)
			}
		}
		col := c.Col(r)
		if col == Empty {
			if full {
				return &Problem{Kind: EmptyRow, N: n, Row: r, Col: Empty}
			}
			continue
		}
		if col < 0 || col >= n {
			return &Problem{Kind: OutOfRange, N: n, Row: r, Col: col}
		}
		kind := ProblemKind(0)
		switch {
		case cols.has(col):
			kind = SameColumn
		case diag.has(r - col + n - 1):
			kind = Diagonal
		case anti.has(r + col):
			kind = AntiDiagonal
		}
		if kind != 0 {
			// Rare path: a second scan finds the earlier queen, so the
			// common path keeps only bits, not row numbers.
			for r2 := range r {
				c2 := c.Col(r2)
				if c2 != Empty && attackKind(r, col, r2, c2) == kind {
					return &Problem{Kind: kind, N: n, Row: r, Col: col, Row2: r2, Col2: c2}
				}
			}
		}
		cols.set(col)
		diag.set(r - col + n - 1)
		anti.set(r + col)
	}
	return nil
}

// Attacks reports whether queens on two distinct squares attack each other.
func Attacks(a, b Square) bool { return attackKind(a.Row, a.Col, b.Row, b.Col) != 0 }

func attackKind(r1, c1, r2, c2 int) ProblemKind {
	switch {
	case c1 == c2:
		return SameColumn
	case r1-c1 == r2-c2:
		return Diagonal
	case r1+c1 == r2+c2:
		return AntiDiagonal
	}
	return 0
}

type bits []uint64

func newBits(n int) bits      { return make(bits, (n+63)/64) }
func (b bits) has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }
func (b bits) set(i int)      { b[i>>6] |= 1 << (uint(i) & 63) }

// CheckBlocked reports the first queen that stands on a blocked square, as a
// *[Problem] of kind [Blocked], or nil. Cost O(len(blocked)).
func CheckBlocked(q Placement, blocked []Square) error {
	for _, s := range blocked {
		if s.Row >= 0 && s.Row < len(q) && int(q[s.Row]) == s.Col {
			return &Problem{Kind: Blocked, N: len(q), Row: s.Row, Col: s.Col}
		}
	}
	return nil
}
