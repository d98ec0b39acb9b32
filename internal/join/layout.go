package join

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
)

// MaxN is the largest board the join takes: rows are bits of a uint32.
const MaxN = 32

// Layout is how the join cuts a board of one size: the columns of the two
// halves and of the separator between them, the separator placements, the
// keys and their grouping into units. It is cheap to make (no quarter
// tables) and read-only once made.
type Layout struct {
	N  int // board size
	S  int // separator columns between the halves
	CL int // columns of each half: the left half is columns [0, CL)
	TR int // rows of the top quarters: a half is joined from rows [0, TR) and [TR, N)
	M  int // the crossing diagonals, bits of a half's pattern: 4·CL − 2

	seps []sep
	// subsets[k] lists the column sets of size k of a half, in order.
	subsets [][]uint32
	// cw0[r][c], cw1[r][c]: what a queen at (r, c) of the left half adds
	// to a quarter placement's words (see [Layout.contrib]).
	cw0, cw1 [MaxN][MaxN / 2]uint64
	keys     []Key
	// units[u] … units[u+1]−1 are the keys of unit u (N < RankedFrom).
	units []int32
	// Ranked layouts (N ≥ RankedFrom): unit u is the rows sets of ranks
	// [u·per, (u+1)·per) of sets, nunits units.
	sets, per uint64
	nunits    int
}

// sep is one placement of the separator columns [CL, CL+S): the row of
// the queen in each column, packed 5 bits a column, first column highest.
type sep struct {
	code   uint32
	rows   uint32
	mask   uint64 // the queens' squares, in the separator bits of a quarter's w0
	mirror uint16 // index of the placement mirrored in the middle column
	flip   uint16 // index of the placement mirrored in the middle row
}

// Key is one term of the join: the rows E of the left half's queens and a
// separator placement. It stands for Weight keys, its images under the
// symmetries that keep the halves apart (the mirrors in the middle column
// and the middle row, and the half turn), whose counts are the same.
type Key struct {
	E      uint32
	Sep    uint16 // index of the separator placement
	Weight uint8  // 1, 2 or 4
}

// ErrSize reports a board the join does not take.
var ErrSize = errors.New("the join takes boards of 4 to 32 rows")

// unitTarget is about how many units a layout has: keys with the same
// rows E stay in one unit (the left half is built once for them), and
// units take runs of such groups.
const unitTarget = 4096

// NewLayout returns the layout of an N×N board with s separator columns
// (N − s even, s ≤ 2, and at most 64 bits of what a quarter placement must
// avoid). Cost: one test per rows set and separator placement (about
// 2·10⁷ for N = 23).
func NewLayout(n, s int) (*Layout, error) { return newLayout(n, s, n >= RankedFrom) }

// newLayout is NewLayout, ranked or not (the tests rank small boards).
func newLayout(n, s int, ranked bool) (*Layout, error) {
	if n < 4 || n > MaxN {
		return nil, ErrSize
	}
	if s < 0 || s > 2 || (n-s)%2 != 0 {
		return nil, fmt.Errorf("a board of %d rows cannot be cut into two halves and %d separator columns", n, s)
	}
	cl := (n - s) / 2
	if 2*cl-2+s*n > 64 {
		return nil, fmt.Errorf("a board of %d rows with %d separator columns needs more than 64 bits per quarter placement", n, s)
	}
	l := &Layout{N: n, S: s, CL: cl, TR: n / 2, M: 4*cl - 2}
	l.seps = l.separators()
	l.subsets = make([][]uint32, cl+1)
	for c := uint32(0); c < 1<<cl; c++ {
		k := bits.OnesCount32(c)
		l.subsets[k] = append(l.subsets[k], c)
	}
	for r := range n {
		for c := range cl {
			l.cw0[r][c], l.cw1[r][c] = l.contrib(r, c)
		}
	}
	if ranked {
		l.ranked()
		return l, nil
	}
	l.keys = l.canonicalKeys()
	l.units = l.group()
	return l, nil
}

// Units returns the number of units.
func (l *Layout) Units() int {
	if l.Ranked() {
		return l.nunits
	}
	return len(l.units) - 1
}

// Keys returns all the keys, unit after unit (none for a ranked layout).
// The slice is shared; do not change it.
func (l *Layout) Keys() []Key { return l.keys }

// UnitKeys returns the keys of unit u, sorted by rows and separator. The
// slice is shared; do not change it. A ranked layout makes them: about
// N·per canonical tests.
func (l *Layout) UnitKeys(u int) []Key {
	if l.Ranked() {
		return l.rankedUnitKeys(u)
	}
	return l.keys[l.units[u]:l.units[u+1]]
}

// separators lists the placements of the separator columns in the order of
// their codes, with the indexes of their mirror images.
func (l *Layout) separators() []sep {
	n, cl, s := l.N, l.CL, l.S
	var out []sep
	var walk func(j int, cur sep, d, a uint64)
	walk = func(j int, cur sep, d, a uint64) {
		if j == s {
			out = append(out, cur)
			return
		}
		c := cl + j
		for r := range n {
			v, w := c-r+n-1, c+r
			if cur.rows>>r&1 != 0 || d>>v&1 != 0 || a>>w&1 != 0 {
				continue
			}
			next := sep{code: cur.code<<5 | uint32(r), rows: cur.rows | 1<<r, mask: cur.mask | 1<<uint(2*cl-2+j*n+r)}
			walk(j+1, next, d|1<<v, a|1<<w)
		}
	}
	walk(0, sep{}, 0, 0)
	index := func(code uint32) uint16 {
		i, ok := slices.BinarySearchFunc(out, code, func(s sep, c uint32) int { return int(s.code) - int(c) })
		if !ok {
			panic("join: a mirrored separator placement is missing")
		}
		return uint16(i)
	}
	for i := range out {
		var mirror, flip uint32
		for j := range s {
			r := out[i].code >> (5 * j) & 31
			mirror = mirror<<5 | r
		}
		for j := s - 1; j >= 0; j-- {
			r := out[i].code >> (5 * j) & 31
			flip = flip<<5 | (uint32(n-1) - r)
		}
		out[i].mirror, out[i].flip = index(mirror), index(flip)
	}
	return out
}

// revRows mirrors a set of rows in the middle row.
func (l *Layout) revRows(e uint32) uint32 { return bits.Reverse32(e) >> (32 - l.N) }

// canonicalKeys lists the keys that come first among their images: the
// smallest separator code, then the largest rows set (so that for S = 1
// the keys with the queen of the middle column above the middle row all
// have the bottom row in E, and group by E). They are sorted by rows and
// separator.
func (l *Layout) canonicalKeys() []Key {
	var out []Key
	full := uint32(1)<<l.N - 1
	for si := range l.seps {
		sp := &l.seps[si]
		m := &l.seps[sp.mirror]
		if int(sp.mirror) < si || int(sp.flip) < si || int(m.flip) < si {
			continue // an image has a smaller code
		}
		for e := range subsetsOf(full&^sp.rows, l.CL) {
			if weight, ok := l.canonical(e, si); ok {
				out = append(out, Key{E: e, Sep: uint16(si), Weight: uint8(weight)})
			}
		}
	}
	slices.SortFunc(out, func(a, b Key) int {
		if a.E != b.E {
			return int(int64(a.E) - int64(b.E))
		}
		return int(a.Sep) - int(b.Sep)
	})
	return out
}

// canonical reports whether the key (e, si) comes first among its images
// (see canonicalKeys), and the number of its distinct images; the rows of
// e and of the separator placement si are disjoint.
func (l *Layout) canonical(e uint32, si int) (weight int, ok bool) {
	sp := &l.seps[si]
	m := &l.seps[sp.mirror]
	if int(sp.mirror) < si || int(sp.flip) < si || int(m.flip) < si {
		return 0, false
	}
	f := (uint32(1)<<l.N - 1) &^ sp.rows &^ e
	imgs := [4][2]uint32{{e, uint32(si)}, {l.revRows(e), uint32(sp.flip)}, {f, uint32(sp.mirror)}, {l.revRows(f), uint32(m.flip)}}
	for i, im := range imgs {
		if im[1] == uint32(si) && im[0] > e {
			return 0, false
		}
		if !slices.Contains(imgs[:i], im) {
			weight++
		}
	}
	return weight, true
}

// group cuts the keys into units of whole rows groups, about unitTarget
// units.
func (l *Layout) group() []int32 {
	groups := 0
	for i := range l.keys {
		if i == 0 || l.keys[i].E != l.keys[i-1].E {
			groups++
		}
	}
	per := max(1, (groups+unitTarget-1)/unitTarget)
	units := []int32{0}
	g := 0
	for i := range l.keys {
		if i > 0 && l.keys[i].E != l.keys[i-1].E {
			g++
			if g%per == 0 {
				units = append(units, int32(i))
			}
		}
	}
	if len(l.keys) > 0 {
		units = append(units, int32(len(l.keys)))
	}
	return units
}

// subsetsOf yields the subsets of set with k elements, in increasing
// order.
func subsetsOf(set uint32, k int) func(yield func(uint32) bool) {
	return func(yield func(uint32) bool) {
		var idx [32]uint32
		n := 0
		for x := set; x != 0; x &= x - 1 {
			idx[n] = x & -x
			n++
		}
		if k > n {
			return
		}
		if k == 0 {
			yield(0)
			return
		}
		// Gosper's hack over the positions 0 … n−1, mapped onto set's
		// bits (in order, so the subsets come out increasing).
		for c := uint64(1)<<k - 1; c < 1<<n; {
			var e uint32
			for x := c; x != 0; x &= x - 1 {
				e |= idx[bits.TrailingZeros64(x)]
			}
			if !yield(e) {
				return
			}
			lo := c & -c
			hi := c + lo
			c = ((hi ^ c) >> 2 / lo) | hi
		}
	}
}
