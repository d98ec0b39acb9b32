package count

import (
	"encoding/binary"
	"fmt"
	"hash"
	"sync"
	"sync/atomic"

	"github.com/nqueens/nqueens/board"
)

// scheme is how the count of one N is cut into numbered units, and how a
// unit is searched and its result checked: the tree search over border
// constellations ([treeScheme]) or the join of half boards ([joinScheme]),
// whichever is faster for that N ([JoinFrom]).
type scheme interface {
	// name is the scheme's name in the fingerprint.
	name() string
	// len is the number of units.
	len() int
	// table writes what defines the units to h, for the fingerprint.
	table(h hash.Hash)
	// count searches unit index; ok is false if stop ended it first.
	count(index int, stop *atomic.Bool) (r UnitResult, ok bool, err error)
	// check reports whether u is a plausible result of its unit, whose
	// index is in range.
	check(u UnitResult) error
	// checkSums checks the results of all units together; got[i] is unit
	// i's.
	checkSums(got []UnitResult) error
}

// schemes caches the scheme of each N.
var schemes sync.Map // int → scheme

// schemeOf returns the scheme of n, 1 ≤ n ≤ MaxN. Cost on first use per N:
// that of its unit table (O(N⁴) for the tree, about 2·10⁷ tests for the
// join of N = 23), then O(1).
func schemeOf(n int) scheme {
	if v, ok := schemes.Load(n); ok {
		return v.(scheme)
	}
	var s scheme
	if usesJoin(n) {
		s = newJoinScheme(n)
	} else {
		s = &treeScheme{n: n, specs: units(n)}
	}
	v, _ := schemes.LoadOrStore(n, s)
	return v.(scheme)
}

// treeScheme counts the completions of each border constellation by the
// tree search of internal/kernel (see the package doc).
type treeScheme struct {
	n     int
	specs []UnitSpec
}

func (t *treeScheme) name() string {
	if split(t.n) {
		return "border-constellations-d4-lexmin-split"
	}
	return "border-constellations-d4-lexmin"
}

func (t *treeScheme) len() int { return len(t.specs) }

func (t *treeScheme) table(h hash.Hash) {
	var buf [4]byte
	for _, u := range t.specs {
		buf[0], buf[1], buf[2], buf[3] = byte(u.Top), byte(u.Bottom), byte(u.Left), byte(u.Right)
		h.Write(buf[:4])
		if u.Row >= 0 {
			buf[0], buf[1] = byte(u.Row), byte(u.Col)
			h.Write(buf[:2])
		}
	}
}

func (t *treeScheme) count(index int, stop *atomic.Bool) (UnitResult, bool, error) {
	return countSpec(t.n, index, t.specs[index], stop)
}

func (t *treeScheme) check(u UnitResult) error { return check(t.n, t.specs[u.Index], u) }

func (t *treeScheme) checkSums(got []UnitResult) error { return checkConstellations(t.n, t.specs, got) }

// writeInts writes each value as 4 little-endian bytes.
func writeInts(h hash.Hash, vs ...int) {
	var buf [4]byte
	for _, v := range vs {
		binary.LittleEndian.PutUint32(buf[:], uint32(v))
		h.Write(buf[:])
	}
}

// rotationUnits lists the constellation representatives of n that a half
// turn fixes: the solutions a rotation fixes all have one of those (see
// the package doc), and are found by their own small search.
func rotationUnits(n int) []UnitSpec {
	// A half turn takes the top queen to the bottom row's column N−1−Top
	// and the left queen to the right column's row N−1−Left, so the
	// constellations it fixes are those of buildUnits with Bottom and Right
	// set by Top and Left, in the same order: N²/2 candidates instead of
	// N⁴/2, a serial part of every count by the join before its tables.
	var out []UnitSpec
	for top := 0; top <= n/2 && top < n; top++ {
		for left := range n {
			c := Constellation{top, n - 1 - top, left, n - 1 - left}
			if !c.valid(n) || !c.fixedBy(n, board.Rotate180) {
				continue
			}
			if _, ok := c.orbit(n); ok {
				out = append(out, whole(c))
			}
		}
	}
	return out
}

// countRotations returns the result of a rotation unit: the completions
// of s's constellation that a half turn, and a quarter turn if it fixes
// the constellation, map to themselves, weighted by its orbit size.
func countRotations(n, index int, s UnitSpec) UnitResult {
	size, _ := s.orbit(n)
	w := uint64(size)
	c := startBoard(n, s.Constellation)
	r := UnitResult{Index: index, Rot180: w * countSymmetric(&c, board.Rotate180)}
	if s.fixedBy(n, board.Rotate90) {
		r.Rot90 = w * countSymmetric(&c, board.Rotate90)
	}
	return r
}

// checkRotations is check for a rotation unit s.
func checkRotations(n int, s UnitSpec, u UnitResult) error {
	bad := func(format string, args ...any) error {
		return &ImplausibleError{N: n, Units: []int{u.Index}, Reason: fmt.Sprintf(format, args...)}
	}
	w, _ := s.orbit(n)
	switch {
	case u.Total != 0:
		return bad("total = %d, but the unit counts only the solutions a rotation fixes", u.Total)
	case u.Rot180%uint64(w) != 0 || u.Rot90%uint64(w) != 0:
		return bad("rot180 = %d and rot90 = %d are not multiples of %d, the size of its constellation's orbit", u.Rot180, u.Rot90, w)
	case u.Rot90 != 0 && !s.fixedBy(n, board.Rotate90):
		return bad("rot90 = %d, but a quarter turn does not fix its constellation", u.Rot90)
	case u.Rot90 > u.Rot180:
		return bad("rot90 = %d exceeds rot180 = %d (a quarter turn fixes only what a half turn fixes)", u.Rot90, u.Rot180)
	case u.Nodes != 0:
		return bad("nodes = %d, but its searches of symmetric solutions report no nodes", u.Nodes)
	}
	return nil
}
