package board

import "fmt"

// ProblemKind names why a placement is not a solution.
type ProblemKind uint8

const (
	OutOfRange   ProblemKind = iota + 1 // a column outside 1..n
	EmptyRow                            // a row without a queen (full solutions only)
	SameColumn                          // two queens in one column
	Diagonal                            // two queens on one ↘ diagonal (row-col equal)
	AntiDiagonal                        // two queens on one ↙ diagonal (row+col equal)
	Blocked                             // a queen on a blocked square (partial boards)
)

var kindNames = [...]string{"", "column out of range", "empty row", "same column", "same diagonal", "same anti-diagonal", "blocked square"}

func (k ProblemKind) String() string {
	if int(k) < len(kindNames) && k > 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("ProblemKind(%d)", k)
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
	default:
		what := map[ProblemKind]string{SameColumn: "column", Diagonal: "diagonal (↘)", AntiDiagonal: "anti-diagonal (↙)"}[p.Kind]
		return fmt.Sprintf("queens at row %d, column %d and row %d, column %d attack each other on the same %s",
			p.Row2+1, p.Col2+1, p.Row+1, p.Col+1, what)
	}
}

// Verify reports whether c is a full solution: nil if so, else a *[Problem]
// for the first row (top down) where something is wrong. Cost O(n) time and
// 5n bits of memory, so boards of 10^9 rows can be checked.
func Verify(c Columns) error { return check(c, true) }

// Check is [Verify] for partial boards: empty rows are allowed, every placed
// queen must be in range and attack no other.
func Check(c Columns) error { return check(c, false) }

func check(c Columns, full bool) error {
	n := c.N()
	cols := newBits(n)
	diag := newBits(2*n - 1) // index row-col+n-1
	anti := newBits(2*n - 1) // index row+col
	for r := range n {
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
