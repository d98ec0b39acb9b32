package variant

import (
	"math/bits"
	"sync/atomic"
)

// geom is a variant as the search sees it: rows ≤ cols (a board with more
// rows than columns is searched transposed, which maps queens' and knights'
// attacks to themselves), k pieces, at most one a row.
type geom struct {
	rows, cols, k int
	torus, super  bool
	full          uint64 // the columns of a row
}

func newGeom(s Spec) geom {
	s = s.Normal()
	r, c := s.Rows, s.Cols
	if r > c {
		r, c = c, r
	}
	return geom{rows: r, cols: c, k: s.Queens, torus: s.Torus, super: s.Piece == Superqueen, full: ^uint64(0) >> uint(64-c)}
}

// shl moves a set of columns d to the right: off the board, or round to
// the left edge on a torus.
func (g *geom) shl(x uint64, d int) uint64 {
	if g.torus {
		d %= g.cols
		if d == 0 {
			return x
		}
		return (x<<uint(d) | x>>uint(g.cols-d)) & g.full
	}
	if d >= 64 {
		return 0
	}
	return x << uint(d) & g.full
}

// shr moves a set of columns d to the left.
func (g *geom) shr(x uint64, d int) uint64 {
	if g.torus {
		return g.shl(x, g.cols-d%g.cols)
	}
	if d >= 64 {
		return 0
	}
	return x >> uint(d)
}

// node is the state of the search before it decides row: the columns
// taken, the squares of row attacked along ↘ (ld) and ↙ (rd) diagonals,
// the pieces of the two rows above (p1, p2: one bit or none, for the
// knight moves), those of rows 0 and 1 (q: on a torus the last two rows
// are a knight's move from them) and the pieces placed so far.
type node struct {
	cols, ld, rd, p1, p2 uint64
	q                    [2]uint64
	row, placed          int
}

// knight returns the squares that the knight's moves of p1, one row away,
// and p2, two rows away, attack.
func (g *geom) knight(p1, p2 uint64) uint64 {
	return g.shl(p1, 2) | g.shr(p1, 2) | g.shl(p2, 1) | g.shr(p2, 1)
}

// wrapKnight returns the squares of row t that the pieces of rows 0 and 1
// attack round a torus's edge: row t is a knight's row from row t+1−N (one
// row on, round the edge) and t+2−N (two rows on). Rows 0 and 1 not yet
// decided hold no piece in n.q.
func (g *geom) wrapKnight(n *node, t int) uint64 {
	var a uint64
	if r := t + 1 - g.rows; r >= 0 && r < t && r < 2 {
		a |= g.knight(n.q[r], 0)
	}
	if r := t + 2 - g.rows; r >= 0 && r < t && r < 2 {
		a |= g.knight(0, n.q[r])
	}
	return a
}

// free returns the squares of n.row where a piece may stand.
func (g *geom) free(n *node) uint64 {
	a := n.cols | n.ld | n.rd
	if g.super {
		a |= g.knight(n.p1, n.p2)
		if g.torus {
			a |= g.wrapKnight(n, n.row)
		}
	}
	return g.full &^ a
}

// child returns the node after row n.row takes the piece bit (0: none).
func (g *geom) child(n *node, bit uint64) node {
	c := node{cols: n.cols | bit, ld: g.shl(n.ld|bit, 1), rd: g.shr(n.rd|bit, 1), p1: bit, p2: n.p1, q: n.q, row: n.row + 1, placed: n.placed}
	if n.row < 2 {
		c.q[n.row] = bit
	}
	if bit != 0 {
		c.placed++
	}
	return c
}

// canSkip reports whether n.row may stay empty: the rows below it still
// have room for the pieces not placed.
func (g *geom) canSkip(n *node) bool { return g.rows-n.row-1 >= g.k-n.placed }

// last counts the ways to place one more piece from n on: the free squares
// of n.row and of every row below, as no other piece is to come. Cost
// O(rows).
func (g *geom) last(n *node) uint64 {
	var sum int
	for d := 0; n.row+d < g.rows; d++ {
		sum += bits.OnesCount64(g.lastFree(n, d))
	}
	return uint64(sum)
}

// lastFree returns the squares of row n.row+d where the last piece may
// stand, no other piece coming between.
func (g *geom) lastFree(n *node, d int) uint64 {
	a := n.cols | g.shl(n.ld, d) | g.shr(n.rd, d)
	if g.super {
		switch d {
		case 0:
			a |= g.knight(n.p1, n.p2)
		case 1:
			a |= g.knight(0, n.p1)
		}
		if g.torus {
			a |= g.wrapKnight(n, n.row+d)
		}
	}
	return g.full &^ a
}

// stopEvery is how many nodes pass between two looks at the stop flag; a
// power of two.
const stopEvery = 1 << 14

// level is the search's state at one row of its explicit stack.
type level struct {
	cols, ld, rd, p1, p2 uint64
	avail                uint64 // columns of the row still to try
	q                    [2]uint64
	placed               int
	skip                 bool // the child with the row empty is still to try
}

// search counts the completions of n to k pieces and the nodes spent
// (pieces placed, or rows left empty, before the last piece, which is
// counted in closed form by last). It gives up, returning ok = false, once
// stop is set; stop may be nil. It runs the rule of child, free and
// canSkip with the masks kept in a stack of levels and the common cases
// (no wrap, no knight) written out, as the function calls cost more than
// the work. Cost: proportional to the nodes, no allocation.
func (g *geom) search(root node, stop *atomic.Bool) (sols, nodes uint64, ok bool) {
	switch {
	case root.placed == g.k:
		return 1, 0, true
	case root.placed == g.k-1:
		return g.last(&root), 0, true
	case g.rows-root.row < g.k-root.placed:
		return 0, 0, true
	}
	full, k, rows := g.full, g.k, g.rows
	top := uint(g.cols - 1)
	torus, super, fullRows := g.torus, g.super, g.k == g.rows
	var st [MaxSide + 1]level
	st[0] = level{cols: root.cols, ld: root.ld, rd: root.rd, p1: root.p1, p2: root.p2, q: root.q, placed: root.placed,
		avail: g.free(&root), skip: g.canSkip(&root)}
	row0 := root.row
	for d := 0; d >= 0; {
		f := &st[d]
		var bit uint64
		switch {
		case f.avail != 0:
			bit = f.avail & -f.avail
			f.avail ^= bit
		case f.skip:
			f.skip = false
		default:
			d--
			continue
		}
		nodes++
		if nodes&(stopEvery-1) == 0 && stop != nil && stop.Load() {
			return 0, nodes, false
		}
		row := row0 + d + 1 // the child's row
		c := &st[d+1]
		ld, rd := f.ld|bit, f.rd|bit
		if torus {
			c.ld = (ld<<1 | ld>>top) & full
			c.rd = rd>>1 | (rd&1)<<top
		} else {
			c.ld = ld << 1 & full
			c.rd = rd >> 1
		}
		c.cols, c.p1, c.p2, c.q, c.placed = f.cols|bit, bit, f.p1, f.q, f.placed
		if bit != 0 {
			c.placed++
		}
		a := c.cols | c.ld | c.rd
		if super {
			if row-1 < 2 {
				c.q[row-1] = bit
			}
			p2 := f.p1
			if torus {
				a |= (bit<<2|bit>>(top-1)|bit>>2|bit<<(top-1)|p2<<1|p2>>top|p2>>1|p2<<top)&full | g.wrapKnight(&node{q: c.q}, row)
			} else {
				a |= (bit<<2 | bit>>2 | p2<<1 | p2>>1) & full
			}
		}
		if c.placed == k-1 {
			if fullRows {
				sols += uint64(bits.OnesCount64(full &^ a))
			} else {
				n := node{cols: c.cols, ld: c.ld, rd: c.rd, p1: c.p1, p2: c.p2, q: c.q, row: row, placed: c.placed}
				sols += g.last(&n)
			}
			continue
		}
		c.avail = full &^ a
		c.skip = rows-row-1 >= k-c.placed
		d++
	}
	return sols, nodes, true
}

// probe walks one random path down the search tree of root, choosing each
// child with pick(children), and returns Knuth's estimates of the nodes
// and the completions of root: the product of the branching factors met.
func (g *geom) probe(root node, pick func(int) int) (nodes, sols float64) {
	n := root
	w := 1.0
	for {
		switch {
		case n.placed == g.k:
			return nodes, w
		case n.placed == g.k-1:
			return nodes, w * float64(g.last(&n))
		case g.rows-n.row < g.k-n.placed:
			return nodes, 0
		}
		avail := g.free(&n)
		k := bits.OnesCount64(avail)
		skip := g.canSkip(&n)
		choices := k
		if skip {
			choices++
		}
		if choices == 0 {
			return nodes, 0
		}
		w *= float64(choices)
		nodes += w
		i := pick(choices)
		var bit uint64
		if i < k {
			for ; i > 0; i-- {
				avail &= avail - 1
			}
			bit = avail & -avail
		}
		n = g.child(&n, bit)
	}
}

// start returns the node that the decisions of prefix lead to: prefix[r] is
// the column of row r's piece, or -1 for none. It returns false when the
// prefix breaks the rules.
func (g *geom) start(prefix []int8) (node, bool) {
	n := node{}
	for _, c := range prefix {
		var bit uint64
		if c >= 0 {
			bit = 1 << uint(c)
			if g.free(&n)&bit == 0 || n.placed == g.k {
				return n, false
			}
		} else if !g.canSkip(&n) {
			return n, false
		}
		n = g.child(&n, bit)
	}
	return n, true
}
