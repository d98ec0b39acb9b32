package board

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Empty marks a row that holds no queen.
const Empty = -1

// MaxN is the largest board a [Placement] can describe: columns are stored
// as int32 so that a board of 10^9 rows takes 4 GB, not 8.
const MaxN = 1<<31 - 1

// Placement is an n×n board with at most one queen a row: p[row] is the
// 0-based column of the queen in that row, or [Empty]. People read rows and
// columns 1-based; every printed form and error message converts.
type Placement []int32

// Columns is a read-only view of a board with at most one queen a row.
// Formatters and [Verify] take a Columns so that a constructed board can be
// streamed row by row without ever being stored.
type Columns interface {
	N() int          // number of rows (and columns)
	Col(row int) int // 0-based column of the queen in row, or Empty
}

// New returns an n×n board with no queens. Cost O(n).
func New(n int) Placement {
	p := make(Placement, n)
	for i := range p {
		p[i] = Empty
	}
	return p
}

// FromColumns builds a placement from 0-based columns (Empty for none).
func FromColumns(cols ...int) Placement {
	p := make(Placement, len(cols))
	for i, c := range cols {
		p[i] = int32(c)
	}
	return p
}

// FromOneBased builds a placement from 1-based columns, 0 for an empty row,
// as people write them ("2 4 1 3").
func FromOneBased(cols ...int) Placement {
	p := make(Placement, len(cols))
	for i, c := range cols {
		p[i] = int32(c - 1)
	}
	return p
}

// OneBased returns the columns as people write them, the inverse of
// [FromOneBased]: 1-based, 0 for an empty row. Cost O(n).
func (p Placement) OneBased() []int32 {
	out := make([]int32, len(p))
	for i, c := range p {
		out[i] = c + 1
	}
	return out
}

// Collect copies any [Columns] into a Placement. Cost O(n) time and memory.
func Collect(c Columns) Placement {
	if p, ok := c.(Placement); ok {
		return p.Clone()
	}
	n := c.N()
	p := make(Placement, n)
	for r := range n {
		p[r] = int32(c.Col(r))
	}
	return p
}

// N is the board size.
func (p Placement) N() int { return len(p) }

// Col is the 0-based column of the queen in row, or Empty.
func (p Placement) Col(row int) int { return int(p[row]) }

// Queens counts the rows that hold a queen.
func (p Placement) Queens() int {
	k := 0
	for _, c := range p {
		if c != Empty {
			k++
		}
	}
	return k
}

// Clone returns an independent copy.
func (p Placement) Clone() Placement { return append(Placement(nil), p...) }

// Equal reports whether two placements are the same board.
func (p Placement) Equal(q Placement) bool { return slices.Equal(p, q) }

// Less orders placements lexicographically by their column sequences, the
// order in which [Canonical] picks the smallest board of an orbit.
func (p Placement) Less(q Placement) bool {
	for i := 0; i < len(p) && i < len(q); i++ {
		if p[i] != q[i] {
			return p[i] < q[i]
		}
	}
	return len(p) < len(q)
}

// String is the 1-based column list, 0 for an empty row: "2 4 1 3".
func (p Placement) String() string {
	var b strings.Builder
	for i, c := range p {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(int(c) + 1))
	}
	return b.String()
}

// Square is a cell of the board, 0-based.
type Square struct{ Row, Col int }

func (s Square) String() string { return fmt.Sprintf("(row %d, col %d)", s.Row+1, s.Col+1) }
