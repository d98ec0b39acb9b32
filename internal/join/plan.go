package join

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
)

// MaxN is the largest board a plan takes: rows are bits of a uint32.
const MaxN = 32

// Plan is the join of one board size: where the board is cut, the quarter
// tables the halves are built from, the separator placements and the keys.
// A Plan is read-only once made and shared by every worker.
type Plan struct {
	N  int // board size
	S  int // separator columns between the halves
	CL int // columns of each half: the left half is columns [0, CL)
	TR int // rows of the top quarters: the halves are built from rows [0, TR) and [TR, N)
	M  int // crossing diagonals: bits of a half's pattern, 4·CL − 2

	top, bot quarter
	seps     []sep
	// subsets[k] lists the column sets of size k of a half, in order.
	subsets [][]uint32
	keys    []Key
}

// quarter is the table of the placements of one quarter of the left half:
// rows [r0, r0+nr), columns [0, CL), any number of queens. The placements
// with relative rows R and columns C are entries off[i] to off[i+1]−1 for
// i = R<<CL | C; w0 holds what the other quarter and the separator must
// avoid, w1 the half's crossing pattern (see [Plan.encode]).
type quarter struct {
	r0, nr int
	off    []uint32
	w0, w1 []uint64
}

// sep is one placement of the separator columns [CL, CL+S): the row of the
// queen in each column, packed 5 bits a column, first column highest.
type sep struct {
	code uint32
	rows uint32
	mask uint64 // the squares the queens stand on, in the w0 bits of the separator
}

// Key is one term of the join: the rows E of the left half's queens and a
// separator placement, standing for Weight keys that the symmetries
// keeping the halves apart (mirror in the middle column, mirror in the
// middle row, and both: a half turn) map it to, which all have the same
// count.
type Key struct {
	E      uint32
	Sep    uint16 // index of the separator placement
	Weight uint8  // 1, 2 or 4
}

// ErrSize reports a board the join does not take.
var ErrSize = errors.New("the join takes boards of 4 to 32 rows")

// NewPlan makes the plan of an N×N board with s separator columns (N − s
// even, s ≤ 2, and at most 64 bits of what a quarter must avoid). It builds
// the quarter tables: cost proportional to the placements of a CL×TR
// quarter (about 9·10⁵ for N = 18, ×8 per two steps of N) and memory of
// about 16 bytes each plus 4·2^(TR+CL) bytes of index (see [Plan.Bytes]).
func NewPlan(n, s int) (*Plan, error) {
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
	p := &Plan{N: n, S: s, CL: cl, TR: n / 2, M: 4*cl - 2}
	p.subsets = make([][]uint32, cl+1)
	for c := uint32(0); c < 1<<cl; c++ {
		k := bits.OnesCount32(c)
		p.subsets[k] = append(p.subsets[k], c)
	}
	p.top = p.buildQuarter(0, p.TR)
	p.bot = p.buildQuarter(p.TR, n-p.TR)
	p.seps = p.separators()
	p.keys = p.canonicalKeys()
	return p, nil
}

// Bytes returns the memory the plan holds, in bytes.
func (p *Plan) Bytes() int64 {
	q := func(t *quarter) int64 { return int64(len(t.off))*4 + int64(len(t.w0))*16 }
	return q(&p.top) + q(&p.bot) + int64(len(p.keys))*8
}

// Keys returns the canonical keys in their fixed order. The slice is
// shared; do not change it.
func (p *Plan) Keys() []Key { return p.keys }

// encode returns the two words of a quarter placement with queens at
// (r, cols[r]) for the rows r in rows:
//
//   - w0: bits 0 … CL−2 the diagonals c − r = v for v in [1−TR, CL−1−TR]
//     and bits CL−1 … 2CL−3 the anti-diagonals c + r = w for w in [TR,
//     CL+TR−2], the ones shared by the two quarters of a half; then, from
//     bit 2CL−2, N bits per separator column with the rows there that the
//     queens attack along a diagonal;
//   - w1: the half's pattern, bits 0 … 2CL−2 the diagonals v in [1−CL,
//     CL−1] and bits 2CL−1 … 4CL−3 the anti-diagonals w in [CL+S, CL+N−2],
//     the ones that also cross the other half.
func (p *Plan) encode(queens [][2]int) (w0, w1 uint64) {
	n, cl, tr, s := p.N, p.CL, p.TR, p.S
	for _, q := range queens {
		r, c := q[0], q[1]
		if v := c - r; v >= 1-tr && v <= cl-1-tr {
			w0 |= 1 << uint(v-(1-tr))
		}
		if w := c + r; w >= tr && w <= cl+tr-2 {
			w0 |= 1 << uint(cl-1+w-tr)
		}
		for j := range s {
			dist := cl + j - c
			for _, rr := range [2]int{r - dist, r + dist} {
				if rr >= 0 && rr < n {
					w0 |= 1 << uint(2*cl-2+j*n+rr)
				}
			}
		}
		if v := c - r; v >= 1-cl && v <= cl-1 {
			w1 |= 1 << uint(v+cl-1)
		}
		if w := c + r; w >= cl+s && w <= cl+n-2 {
			w1 |= 1 << uint(2*cl-1+w-cl-s)
		}
	}
	return w0, w1
}

// buildQuarter tabulates the placements of rows [r0, r0+nr) of the left
// half, by two walks of the same search: one counting per (rows, columns),
// one filling.
func (p *Plan) buildQuarter(r0, nr int) quarter {
	n, cl := p.N, p.CL
	q := quarter{r0: r0, nr: nr, off: make([]uint32, 1<<(nr+cl)+1)}
	var queens [][2]int
	var walk func(r int, rows, cols, d, a uint64, visit func(idx uint32))
	walk = func(r int, rows, cols, d, a uint64, visit func(idx uint32)) {
		if r == r0+nr {
			visit(uint32(rows<<cl | cols))
			return
		}
		walk(r+1, rows, cols, d, a, visit)
		for c := range cl {
			v, w := c-r+n-1, c+r
			if cols>>c&1 != 0 || d>>v&1 != 0 || a>>w&1 != 0 {
				continue
			}
			queens = append(queens, [2]int{r, c})
			walk(r+1, rows|1<<(r-r0), cols|1<<c, d|1<<v, a|1<<w, visit)
			queens = queens[:len(queens)-1]
		}
	}
	walk(r0, 0, 0, 0, 0, func(idx uint32) { q.off[idx+1]++ })
	for i := 1; i < len(q.off); i++ {
		q.off[i] += q.off[i-1]
	}
	total := q.off[len(q.off)-1]
	q.w0, q.w1 = make([]uint64, total), make([]uint64, total)
	next := slices.Clone(q.off[:len(q.off)-1])
	walk(r0, 0, 0, 0, 0, func(idx uint32) {
		i := next[idx]
		next[idx]++
		q.w0[i], q.w1[i] = p.encode(queens)
	})
	return q
}

// separators lists the placements of the separator columns, in the order
// of their codes.
func (p *Plan) separators() []sep {
	n, cl, s := p.N, p.CL, p.S
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
	return out
}

// sepIndex returns the index of the separator placement with the given
// code.
func (p *Plan) sepIndex(code uint32) int {
	i, ok := slices.BinarySearchFunc(p.seps, code, func(s sep, c uint32) int {
		switch {
		case s.code < c:
			return -1
		case s.code > c:
			return 1
		}
		return 0
	})
	if !ok {
		panic("join: a mirrored separator placement is missing")
	}
	return i
}

// flipRows returns the code of a separator placement mirrored in the
// middle row, flipCols mirrored in the middle column (the separator's
// columns in reverse order).
func (p *Plan) flipRows(code uint32) uint32 {
	var out uint32
	for j := p.S - 1; j >= 0; j-- {
		out = out<<5 | (uint32(p.N-1) - code>>(5*j)&31)
	}
	return out
}

func (p *Plan) flipCols(code uint32) uint32 {
	var out uint32
	for j := range p.S {
		out = out<<5 | code>>(5*j)&31
	}
	return out
}

// revRows mirrors a set of rows in the middle row.
func (p *Plan) revRows(e uint32) uint32 { return bits.Reverse32(e) >> (32 - p.N) }

// image returns the key that a symmetry g (bit 0: mirror in the middle
// row, bit 1: mirror in the middle column) maps (e, code) to.
func (p *Plan) image(e, code uint32, g int) (uint32, uint32) {
	sepRows := p.seps[p.sepIndex(code)].rows
	if g&2 != 0 {
		e = (uint32(1)<<p.N - 1) &^ e &^ sepRows
		code = p.flipCols(code)
	}
	if g&1 != 0 {
		e = p.revRows(e)
		code = p.flipRows(code)
	}
	return e, code
}

// canonicalKeys lists the keys that are the smallest of their images, by
// separator code and then rows, with the number of distinct images.
func (p *Plan) canonicalKeys() []Key {
	var out []Key
	full := uint32(1)<<p.N - 1
	for si, sp := range p.seps {
		free := full &^ sp.rows
		for e := range subsetsOf(free, p.CL) {
			var seen [4][2]uint32
			weight, canon := 0, true
			for g := range 4 {
				ie, ic := p.image(e, sp.code, g)
				if ic < sp.code || ic == sp.code && ie < e {
					canon = false
					break
				}
				if !slices.Contains(seen[:weight], [2]uint32{ie, ic}) {
					seen[weight] = [2]uint32{ie, ic}
					weight++
				}
			}
			if canon {
				out = append(out, Key{E: e, Sep: uint16(si), Weight: uint8(weight)})
			}
		}
	}
	return out
}

// subsetsOf yields the subsets of set with k elements, in increasing order.
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
		// Gosper's hack over the positions 0..n−1, mapped onto set's bits.
		if k == 0 {
			yield(0)
			return
		}
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
