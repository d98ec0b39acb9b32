package join

import (
	"math"
	"math/bits"
	"sync/atomic"
)

// The sieve. Of the pairs of a key's two lists only a few in ten thousand
// are disjoint, and a pattern bit that many x and many y have rules out
// every pair that shares it. Split both lists on such a bit b: the pairs
// are those of (the xs without b, all ys) and (the xs with b, the ys
// without b), and the quarter or so of pairs that both have b are never
// looked at (the roles of xs and ys are chosen per split: the ys, which
// go into both parts, are the list whose share without b, copied for the
// first part, is the smaller).
// countDisjoint applies this recursively, each time on the bit that a
// sample rates best, the pairs it rules out against the patterns it copies
// ([sieveScore]), to the two sides of each split, until comparing the
// pairs left costs less than splitting them further; there, the leaves,
// the larger side is cut into blocks of 512 and counted with bit-sliced
// tables (see [leaf]). A split is a pass over both sides: the xs
// without the bit are moved to the front in place, and those with it and
// the ys without it are copied onto a stack of buffers (matcher.stack) for
// the first part. At N = 22 the pairs compared fall to about 1/80 of all
// pairs.

// SieveVersion names the way the sieve splits, which decides the pairs
// compared (a unit's result): 2 since the parts split off went on a stack
// and the ys were left whole for the second part, 3 since [sieveScore]
// ranks the bits and the side copied whole is chosen per split.
const SieveVersion = 3

// countDisjoint returns the number of pairs (x, y), x from xs and y from
// ys, with x & y == 0, and the pairs it compared; the patterns have at most
// 63 bits (bit 63 clear). ok is false if stop was set (it looks between
// blocks and splits). Cost: about (pairs compared)/512 times a few vector
// loads, plus a pass over both lists per level of the sieve.
func (mt *matcher) countDisjoint(ops *matchOps, xs, ys []uint64, stop *atomic.Bool) (count, compared uint64, ok bool) {
	if len(xs) == 0 || len(ys) == 0 {
		return 0, 0, true
	}
	j := orAll(xs) & orAll(ys)
	nx, ny := len(xs), len(ys)
	if j == 0 || nx*ny <= brutePairs {
		if j == 0 {
			count = uint64(nx) * uint64(ny)
		} else {
			count = bruteDisjoint(xs, ys)
		}
		return count, uint64(nx) * uint64(ny), true
	}
	mt.stack.reset()
	if bits.OnesCount64(j) <= 32 && nx+ny >= narrowSize {
		// Packed to 32 bits at once, rather than to 64 bits and again
		// to 32 by the first split.
		return narrowSplit(mt, ops, xs, ys, j, sieveOrder{}, stop)
	}
	// Both lists compressed to the bits of j, with room for the planes
	// of a block to read past the end.
	mt.cx = resize(mt.cx, nx+64)
	mt.cy = resize(mt.cy, ny+64)
	ops.compress(mt, mt.cx[:nx], xs, j)
	ops.compress(mt, mt.cy[:ny], ys, j)
	m := uint64(1)<<bits.OnesCount64(j) - 1
	return split(mt, ops, &wide, mt.cx[:nx], mt.cy[:ny], m, m, sieveOrder{}, stop)
}

// orAll returns the OR of xs. Four accumulators, so that the ORs do not
// wait on one another: the loop of one took 3 % of N = 20's CPU profile.
func orAll(xs []uint64) uint64 {
	var a, b, c, d uint64
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q := xs[i : i+4 : i+4]
		a, b, c, d = a|q[0], b|q[1], c|q[2], d|q[3]
	}
	for _, x := range xs[i:] {
		a |= x
	}
	return a | b | c | d
}

// sieveOrder is the bits a part is split on in turn, chosen for the
// largest part above it that was sampled, each with the shares of the
// larger and the smaller side's patterns that have it (in 1/64).
type sieveOrder struct {
	bits   [64]uint8
	px, py [64]uint8
	n, i   int  // bits[i:n] are left
	flip   bool // the sides have changed places since the sample
	ready  bool // chosen for the part it is given to (packed by narrowSplit), not above it
}

// next drops the bits that j, the bits both sides of a part have, lacks,
// and returns the next bit to split on and its shares; ok is false when
// none is left.
func (o *sieveOrder) next(j uint64) (b uint8, px, py float64, ok bool) {
	for o.i < o.n && j>>o.bits[o.i]&1 == 0 {
		o.i++
	}
	if o.i == o.n {
		return 0, 0, 0, false
	}
	px, py = float64(o.px[o.i])/64, float64(o.py[o.i])/64
	if o.flip {
		px, py = py, px
	}
	return o.bits[o.i], px, py, true
}

// chooseSize is the size (both sides) from which a part samples its
// patterns to choose the bits it splits on; smaller parts take the next
// bit of the order chosen above them.
var chooseSize = 8192

// split is countDisjoint of xs and ys (compressed, patterns of w's
// width), whose ORs are ox and oy; order lists the bits to split on if
// the part is too small to choose.
func split[T pattern](mt *matcher, ops *matchOps, w *width[T], xs, ys []T, ox, oy T, order sieveOrder, stop *atomic.Bool) (count, compared uint64, ok bool) {
	if len(xs) < len(ys) {
		xs, ys, ox, oy = ys, xs, oy, ox
		order.flip = !order.flip
	}
	nx, ny := len(xs), len(ys)
	j := ox & oy
	switch {
	case ny == 0:
		return 0, 0, true
	case j == 0:
		return uint64(nx) * uint64(ny), uint64(nx) * uint64(ny), true
	case nx*ny <= brutePairs:
		return bruteDisjoint(xs, ys), uint64(nx) * uint64(ny), true
	}
	if stop != nil && stop.Load() {
		return 0, 0, false
	}
	if nx+ny >= chooseSize && !order.ready {
		chooseOrder(mt, ops, xs, ys, uint64(j), &order)
	}
	order.ready = false
	m := bits.OnesCount64(uint64(j))
	b, px, py, ok := order.next(uint64(j))
	if !ok || !worthSplitting(nx, ny, m, px, py) {
		return leaf(mt, ops, w, xs, ys, j, stop)
	}
	if w.narrow != nil && m <= 32 && nx+ny >= narrowSize {
		// The order is this part's (chosen above, or the part is too
		// small to choose): packing keeps the bits' order, so the packed
		// part would choose the same again.
		order.ready = true
		return w.narrow(mt, ops, xs, ys, j, order, stop)
	}
	if (1-px)*float64(nx) < (1-py)*float64(ny) {
		// The ys go into both parts, whole into the second and their
		// share without the bit copied into the first: they are the
		// list whose copy is the smaller. At N = 27 this compared a
		// tenth fewer pairs than taking the shorter list as the ys (see
		// [sieveScore]).
		xs, ys, ox, oy, px, py = ys, xs, oy, ox, py, px
		order.flip = !order.flip
		nx, ny = ny, nx
	}
	order.i++
	// The xs with the bit go on the stack and those without it stay in
	// place; the ys without it are copied onto the stack for the first
	// part, and the ys are left whole for the second, the last part to
	// need them. Splitting the ys in place too, with a copy back of those
	// with the bit, stored each y twice and more (the passes took 31 % of
	// N = 20's CPU profile, 28 % now).
	mark := mt.stack.mark()
	x1 := w.alloc(&mt.stack, nx)
	n0, ox0, ox1 := w.partition(ops, xs, x1, b)
	x1 = w.trim(&mt.stack, x1, nx-n0)
	y0 := w.alloc(&mt.stack, ny)
	m0, oy0 := w.lacking(ops, y0, ys, b)
	y0 = w.trim(&mt.stack, y0, m0)
	c1, p1, ok := split(mt, ops, w, x1, y0, ox1, oy0, order, stop)
	mt.stack.release(mark)
	if !ok {
		return 0, 0, false
	}
	c0, p0, ok := split(mt, ops, w, xs[:n0], ys, ox0, oy, order, stop)
	return c0 + c1, p0 + p1, ok
}

// The costs the sieve weighs, in ns, measured on the AVX-512 loops: a
// split's pass over a pattern, and its fixed part.
const (
	splitPerPattern = 0.3
	splitFixed      = 50
)

// worthSplitting reports whether a part of nx ≥ ny patterns on m bits is
// worth a split on a bit that the shares px of the xs and py of the ys
// have: whether the blocks of its two parts, (the xs without the bit, all
// ys) and (the xs with it, the ys without), and the pass over both lists
// cost less than the blocks of the whole.
func worthSplitting(nx, ny, m int, px, py float64) bool {
	leaf := func(nx, ny float64) float64 {
		_, perBlock := chunking(m, int(ny))
		return math.Ceil(nx/laneBlock) * perBlock
	}
	x, y := float64(nx), float64(ny)
	split := leaf(x*(1-px), y) + leaf(x*px, y*(1-py)) + splitPerPattern*(x+y) + splitFixed
	return split < leaf(x, y)
}

// chooseOrder sets order to the bits of j by [sieveScore] on a sample of
// xs and ys (64 each, evenly spaced), best first: only the bits that some
// pair of the sample shares.
func chooseOrder[T pattern](mt *matcher, ops *matchOps, xs, ys []T, j uint64, order *sieveOrder) {
	cx := sampleCounts(mt, ops, xs)
	cy := sampleCounts(mt, ops, ys)
	var score [64]float64
	order.n, order.i, order.flip = 0, 0, false
	for x := j; x != 0; x &= x - 1 {
		b := bits.TrailingZeros64(x)
		if cx[b]*cy[b] > 0 {
			score[b] = sieveScore(len(xs), len(ys), float64(cx[b])/64, float64(cy[b])/64)
			order.bits[order.n] = uint8(b)
			order.n++
		}
	}
	o := order.bits[:order.n]
	// Insertion sort, largest score first: at most 63 bits.
	for i := 1; i < len(o); i++ {
		for k := i; k > 0 && score[o[k]] > score[o[k-1]]; k-- {
			o[k], o[k-1] = o[k-1], o[k]
		}
	}
	for i, b := range o {
		order.px[i], order.py[i] = uint8(cx[b]), uint8(cy[b])
	}
}

// sieveScore rates a split of nx and ny patterns on a bit that the shares
// px and py of them have: the pairs it rules out against the patterns it
// copies, both as logarithms, since the parts are split again and again
// (pairs shrink by the factor 1 − px·py a level, and the patterns passed
// over grow by the copy of one list without the bit, the smaller
// (1 − p)·n of the two).
// Ranking by the pairs ruled out alone (px·py) compared a fifth more pairs
// at N = 27, for 1.1 times the time. 0.999 keeps a bit that every sampled
// pattern has finite, and 0.01 is a pass's cost when a split copies next
// to nothing.
func sieveScore(nx, ny int, px, py float64) float64 {
	x, y := float64(nx), float64(ny)
	copied := min((1-px)*x, (1-py)*y) / (x + y)
	return -math.Log1p(-0.999*px*py) / math.Log1p(copied+0.01)
}

// sampleCounts returns, per bit, how many of 64 evenly spaced patterns of
// xs (len(xs) ≥ 64) have it: their bit planes, each counted.
func sampleCounts[T pattern](mt *matcher, ops *matchOps, xs []T) (c [64]int) {
	s := &mt.sample
	for i := range s {
		s[i] = uint64(xs[i*len(xs)/64])
	}
	if mt.has == nil {
		mt.has = make([]blockRow, 64)
	}
	ops.planes(s[:], mt.has, 8)
	for p := range c {
		c[p] = bits.OnesCount64(mt.has[p][0])
	}
	return c
}

// partitionGo moves the patterns of xs without bit b to its front, in
// their order, and copies those with it to ones (room for len(xs) + 8), in
// their order; it returns how many lack it and the ORs of both parts. What
// xs holds past the first is left undefined.
func partitionGo[T pattern](xs, ones []T, b uint8) (n0 int, or0, or1 T) {
	n1 := 0
	ones = ones[:len(xs)]
	for _, x := range xs {
		s := -(x >> b & 1) // all ones if x has the bit
		xs[n0] = x         // n0 ≤ the index read: nothing unread is overwritten
		ones[n1] = x
		n0 += int(1 + s)
		n1 += int(-s)
		or0 |= x &^ s
		or1 |= x & s
	}
	return n0, or0, or1
}

// lackingGo copies the patterns of src without bit b to dst (room for
// len(src) + 8), in their order, and returns how many and their OR.
func lackingGo[T pattern](dst, src []T, b uint8) (n int, or T) {
	dst = dst[:len(src)]
	for _, x := range src {
		s := x >> b & 1
		dst[n] = x
		n += int(1 - s)
		or |= x &^ -s
	}
	return n, or
}

// leaf counts the pairs of xs and ys (nx ≥ ny) on the bits of j: the xs in
// blocks of 512, each with its bit-sliced tables, against which every y
// ANDs one row per chunk of its bits. xs may be followed in memory by any
// 64 patterns (the planes read them).
func leaf[T pattern](mt *matcher, ops *matchOps, w *width[T], xs, ys []T, j T, stop *atomic.Bool) (count, compared uint64, ok bool) {
	m := bits.OnesCount64(uint64(j))
	g, perX := chunking(m, len(ys))
	// The shorter list in blocks instead where its partial last block
	// wastes less: 1 200 xs against 770 ys are 3 blocks against 770 ys,
	// or 2 against 1 200.
	if gy, perY := chunking(m, len(xs)); blocks(len(ys))*perY < blocks(len(xs))*perX {
		xs, ys, g = ys, xs, gy
	}
	for b := 0; b < len(xs); b += laneBlock {
		if b > 0 && stop != nil && stop.Load() {
			return 0, 0, false
		}
		end := min(b+laneBlock, len(xs))
		mt.buildTables(ops, w.block(mt, ops, xs[b:end]), uint64(j), g)
		count += w.count(mt, ops, ys, uint64(j), g)
	}
	return count, uint64(len(xs)) * uint64(len(ys)), true
}

// blocks returns the blocks of n patterns, the last one partial.
func blocks(n int) float64 { return float64((n + laneBlock - 1) / laneBlock) }
