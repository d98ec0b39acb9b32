package count

import (
	"fmt"
	"math/bits"
	"sort"
	"sync"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/kernel"
)

// Constellation is the position of the border queens of a solution: the
// queen of the top row (row 0) stands in column Top, the queen of the bottom
// row (row N−1) in column Bottom, the queen of the left column (column 0) in
// row Left and the queen of the right column (column N−1) in row Right, all
// 0-based. A corner queen is both a row's and a column's border queen.
type Constellation struct{ Top, Bottom, Left, Right int }

// squares returns the distinct border queens as (row, column) pairs.
func (c Constellation) squares(n int) [][2]int {
	q := [4][2]int{{0, c.Top}, {n - 1, c.Bottom}, {c.Left, 0}, {c.Right, n - 1}}
	out := make([][2]int, 0, 4)
	for _, a := range q {
		dup := false
		for _, b := range out {
			dup = dup || a == b
		}
		if !dup {
			out = append(out, a)
		}
	}
	return out
}

// Placement returns the border queens as a board with the other rows empty.
func (c Constellation) Placement(n int) board.Placement {
	p := board.New(n)
	for _, q := range c.squares(n) {
		p[q[0]] = int32(q[1])
	}
	return p
}

// valid reports whether the border queens are consistent (a corner queen
// belongs to its row and its column) and attack no one.
func (c Constellation) valid(n int) bool {
	for _, v := range [4]int{c.Top, c.Bottom, c.Left, c.Right} {
		if v < 0 || v >= n {
			return false
		}
	}
	if (c.Top == 0) != (c.Left == 0) || (c.Top == n-1) != (c.Right == 0) ||
		(c.Bottom == 0) != (c.Left == n-1) || (c.Bottom == n-1) != (c.Right == n-1) {
		return false
	}
	q := c.squares(n)
	for a := range q {
		for b := a + 1; b < len(q); b++ {
			r1, c1, r2, c2 := q[a][0], q[a][1], q[b][0], q[b][1]
			if r1 == r2 || c1 == c2 || r1-c1 == r2-c2 || r1+c1 == r2+c2 {
				return false
			}
		}
	}
	return true
}

// image returns the constellation of g·S for any solution S with
// constellation c: the border queens move with the board.
func (c Constellation) image(n int, g board.Symmetry) Constellation {
	var o Constellation
	for _, q := range c.squares(n) {
		r, col := g.Map(n, q[0], q[1])
		if r == 0 {
			o.Top = col
		}
		if r == n-1 {
			o.Bottom = col
		}
		if col == 0 {
			o.Left = r
		}
		if col == n-1 {
			o.Right = r
		}
	}
	return o
}

func (c Constellation) less(d Constellation) bool {
	if c.Top != d.Top {
		return c.Top < d.Top
	}
	if c.Bottom != d.Bottom {
		return c.Bottom < d.Bottom
	}
	if c.Left != d.Left {
		return c.Left < d.Left
	}
	return c.Right < d.Right
}

// orbit returns the number of distinct images of c under D4 (its orbit size:
// 1, 2, 4 or 8) and whether c is the smallest of them, the representative
// this engine searches.
func (c Constellation) orbit(n int) (size int, canonical bool) {
	var seen [8]Constellation
	canonical = true
	for _, g := range board.Symmetries {
		im := c.image(n, g)
		canonical = canonical && !im.less(c)
		dup := false
		for _, s := range seen[:size] {
			dup = dup || s == im
		}
		if !dup {
			seen[size] = im
			size++
		}
	}
	return size, canonical
}

// fixedBy reports whether g maps c to itself.
func (c Constellation) fixedBy(n int, g board.Symmetry) bool { return c.image(n, g) == c }

// SplitFrom and SplitTo bound the N whose units are split. For them a unit
// is one constellation together with the column of the queen in the row
// that the search branches on first (the row with the fewest free squares,
// as the engine chooses it), one unit per free square of that row. At
// N = 17 this takes the largest unit from 0.24% of all the work to 0.032%,
// for 8.6 times as many units; from N = 25 on an unsplit unit can take a
// core days to months (see docs/cluster.md), and past 32 no count is within
// reach while the unit table would grow to millions.
const (
	SplitFrom = 25
	SplitTo   = 32
)

// UnitSpec is what one work unit searches: the completions of a
// constellation's border queens and, when N is split (see [SplitFrom]),
// only those with the queen of row Row in column Col. Row and Col are −1
// when the unit is the whole constellation.
type UnitSpec struct {
	Constellation
	Row, Col int
	// first marks the constellation's first unit, which also counts the
	// solutions that a rotation fixes (few, and found by their own search).
	first bool
}

// split reports whether the units of n are split.
func split(n int) bool { return n >= SplitFrom && n <= SplitTo }

// whole returns the unit of a whole constellation.
func whole(c Constellation) UnitSpec { return UnitSpec{c, -1, -1, true} }

func (s UnitSpec) less(t UnitSpec) bool {
	if s.Constellation != t.Constellation {
		return s.Constellation.less(t.Constellation)
	}
	return s.Col < t.Col
}

// board returns the kernel board of the unit: the border queens, and the
// split queen if there is one, with the nodes that placing it is worth
// (1 for a split unit: a node of the unsplit search, which the unit's own
// search does not count).
func (s UnitSpec) board(n int) (b kernel.Board, nodes uint64) {
	b = startBoard(n, s.Constellation)
	if s.Row >= 0 {
		b.Place(s.Row, s.Col)
		nodes = 1
	}
	return b, nodes
}

// unitTable caches the units per N.
var unitTable sync.Map // int → []UnitSpec

// units returns the units of n in order. Cost O(N⁴) on first use per N
// (times N for split N), then O(1).
func units(n int) []UnitSpec {
	if v, ok := unitTable.Load(n); ok {
		return v.([]UnitSpec)
	}
	v, _ := unitTable.LoadOrStore(n, buildUnits(n, split(n)))
	return v.([]UnitSpec)
}

// buildUnits lists the units of n: the constellation representatives in
// lexicographic order of (Top, Bottom, Left, Right), each split by the
// column of its first branching row when split is set. A constellation
// whose first branching row has no free square has no completion and no
// split unit; one whose border queens fill the board stays whole.
func buildUnits(n int, split bool) []UnitSpec {
	var out []UnitSpec
	// The representative is the smallest image, and some image puts the
	// border queen nearest a corner in the top row's left half, so Top ≤ N/2.
	for top := 0; top <= n/2 && top < n; top++ {
		for bottom := 0; bottom < n; bottom++ {
			for left := 0; left < n; left++ {
				for right := 0; right < n; right++ {
					c := Constellation{top, bottom, left, right}
					if !c.valid(n) {
						continue
					}
					if _, ok := c.orbit(n); !ok {
						continue
					}
					b := startBoard(n, c)
					if !split || b.Rows == 0 { // nothing left to split on
						out = append(out, whole(c))
						continue
					}
					row, avail := b.Branch()
					for first := true; avail != 0; avail &= avail - 1 {
						out = append(out, UnitSpec{c, row, bits.TrailingZeros64(avail), first})
						first = false
					}
				}
			}
		}
	}
	return out
}

// Units returns the number of work units for an N×N board. For N counted
// by the tree search: one per constellation representative, so about N⁴/8
// (2237 for N = 13), or one per representative and free square of its
// first branching row for the split N from [SplitFrom] to [SplitTo]. For
// N counted by the join ([JoinFrom] to [JoinTo]): about 4096 runs of keys
// and one unit per constellation a half turn fixes. The numbering is the
// same on every machine for a given N and [EngineVersion]. Cost O(N⁴) on
// first use per N (the join: about 2·10⁷ tests for N = 23), then O(1).
func Units(n int) int {
	if n < 1 || n > MaxN {
		return 0
	}
	return schemeOf(n).len()
}

// Unit returns what unit index of a board counted by the tree search
// searches. It is the inverse of [UnitIndex]. Cost O(1) after the first
// call for n.
func Unit(n, index int) (UnitSpec, error) {
	if n < 1 || n > MaxN {
		return UnitSpec{}, errSize(n)
	}
	if usesJoin(n) {
		return UnitSpec{}, fmt.Errorf("N = %d is counted by the join of half boards, whose units are no constellations", n)
	}
	u := units(n)
	if index < 0 || index >= len(u) {
		return UnitSpec{}, fmt.Errorf("unit %d is outside 0..%d for N = %d", index, len(u)-1, n)
	}
	return u[index], nil
}

// UnitIndex returns the index of unit s, and false when s is no unit of n
// (an inconsistent, attacking or non-canonical constellation, or a split
// that the scheme of n does not make). Cost O(log units).
func UnitIndex(n int, s UnitSpec) (int, bool) {
	if n < 1 || n > MaxN || usesJoin(n) {
		return 0, false
	}
	return indexIn(units(n), s)
}

// indexIn finds s in the unit list u by binary search.
func indexIn(u []UnitSpec, s UnitSpec) (int, bool) {
	i := sort.Search(len(u), func(i int) bool { return !u[i].less(s) })
	if i < len(u) && u[i].Constellation == s.Constellation && u[i].Row == s.Row && u[i].Col == s.Col {
		return i, true
	}
	return 0, false
}

// startBoard returns the kernel board with c's queens placed and every other
// row to fill.
func startBoard(n int, c Constellation) kernel.Board {
	b := kernel.Board{N: n}
	for r := 0; r < n; r++ {
		b.Rows |= 1 << uint(r)
	}
	for _, q := range c.squares(n) {
		b.Place(q[0], q[1])
	}
	return b
}
