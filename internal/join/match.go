package join

import (
	"math/bits"
	"sync/atomic"
)

// laneBlock is the number of patterns one block of the matcher holds: one
// bit of each in a 512-bit row.
const laneBlock = 512

// blockRow is one row of a block's tables: a bit per pattern.
type blockRow [laneBlock / 64]uint64

// matcher counts the disjoint pairs of two lists of patterns. Its buffers
// are reused from one key to the next; one matcher per goroutine.
type matcher struct {
	xs             []uint64             // the longer list (the blocks), compressed to the bits both lists can have
	sx, sy         []uint64             // the lists sorted by their cut values
	vals           []uint8              // the cut values of a list
	xStart, yStart [1<<maxCut + 1]int32 // where each cut value starts in sx and sy
	offs           []uint32             // per y, the byte offsets of its k rows in a block's tables
	tab            []blockRow           // the tables of a block
	has            []blockRow           // per bit, the patterns of the block that have it
	ext            [8][256]uint64       // pext in Go, for the mask extJ
	extJ           uint64
	extOK          bool
}

// brutePairs is the number of pairs below which the matcher compares each
// pair: building a block's tables costs more than that.
const brutePairs = 4096

// countDisjoint returns the number of pairs (x, y), x from xs and y from ys,
// with x & y == 0; the patterns have at most 63 bits (bit 63 clear). Cost: |xs|·|ys|/512 times a few vector loads, plus the
// tables of ⌈|xs|/512⌉ blocks (the longer list becomes the blocks).
func (mt *matcher) countDisjoint(ops *matchOps, xs, ys []uint64, stop *atomic.Bool) (uint64, bool) {
	if len(xs) == 0 || len(ys) == 0 {
		return 0, true
	}
	if len(xs) < len(ys) {
		xs, ys = ys, xs
	}
	var ox, oy uint64
	for _, x := range xs {
		ox |= x
	}
	for _, y := range ys {
		oy |= y
	}
	j := ox & oy
	if j == 0 {
		return uint64(len(xs)) * uint64(len(ys)), true
	}
	if len(xs)*len(ys) <= brutePairs {
		return bruteDisjoint(xs, ys), true
	}
	m := bits.OnesCount64(j)
	g := chunking(m, len(ys))
	// The sieve: both lists sorted by a few dense bits (the cut), so that
	// the ys with cut value v visit only the blocks holding some x whose
	// cut value u misses v.
	c := cutBits(len(xs))
	cut := mt.chooseCut(xs, ys, j, c)
	xs = mt.sortByCut(ops, &mt.sx, &mt.xStart, xs, cut, c)
	ys = mt.sortByCut(ops, &mt.sy, &mt.yStart, ys, cut, c)
	// The blocks are followed by zero patterns up to a multiple of 64,
	// for the planes.
	nx := len(xs)
	mt.xs = growZero(mt.xs, (nx+63)&^63)
	mt.offs = growU32(mt.offs, len(ys)*g.k)
	ops.compress(mt, mt.xs[:nx], xs, j)
	ops.offsets(mt, mt.offs, ys, j, g)
	mt.xs = mt.xs[:nx]
	var total uint64
	for b := 0; b < len(mt.xs); b += laneBlock {
		if b > 0 && stop != nil && stop.Load() {
			return 0, false
		}
		end := min(b+laneBlock, len(mt.xs))
		// The cut values present in the block, and the ys they can meet.
		var present uint64
		for u := range 1 << c {
			if int(mt.xStart[u]) < end && int(mt.xStart[u+1]) > b {
				present |= 1 << u
			}
		}
		mt.buildTables(ops, mt.xs[b:end], g)
		for v := range 1 << c {
			lo, hi := int(mt.yStart[v]), int(mt.yStart[v+1])
			if lo == hi || present&disjointFrom[c][v] == 0 {
				continue
			}
			total += ops.count(mt.tab, mt.offs[lo*g.k:hi*g.k], g.k)
		}
	}
	return total, true
}

// maxCut is the most cut bits the sieve takes: 64 groups of ys.
const maxCut = 6

// disjointFrom[c][v] has bit u set for every c-bit value u with u & v == 0.
var disjointFrom = func() (t [maxCut + 1][1 << maxCut]uint64) {
	for c := range maxCut + 1 {
		for v := range 1 << c {
			for u := range 1 << c {
				if u&v == 0 {
					t[c][v] |= 1 << u
				}
			}
		}
	}
	return t
}()

// cutBits is how many bits the sieve cuts on for nx patterns in blocks: none
// for a single block; then about one more per doubling of the blocks.
func cutBits(nx int) int {
	blocks := (nx + laneBlock - 1) / laneBlock
	if blocks <= 1 {
		return 0
	}
	return min(maxCut, bits.Len(uint(blocks)))
}

// chooseCut returns the mask of the c bits of j that the most pairs of
// patterns both have, judged on up to 64 of each list.
func (mt *matcher) chooseCut(xs, ys []uint64, j uint64, c int) uint64 {
	var taken uint64
	if c == 0 {
		return 0
	}
	var nx, ny [64]int
	for _, x := range xs[:min(len(xs), 64)] {
		for x &= j; x != 0; x &= x - 1 {
			nx[bits.TrailingZeros64(x)]++
		}
	}
	for _, y := range ys[:min(len(ys), 64)] {
		for y &= j; y != 0; y &= y - 1 {
			ny[bits.TrailingZeros64(y)]++
		}
	}
	for range c {
		best, score := -1, -1
		for x := j &^ taken; x != 0; x &= x - 1 {
			p := bits.TrailingZeros64(x)
			if sc := nx[p] * ny[p]; sc > score {
				best, score = p, sc
			}
		}
		if best < 0 {
			break
		}
		taken |= 1 << best
	}
	return taken
}

// sortByCut sorts src by the value of its bits cut into *dst (counting
// sort) and sets start[u] … start[u+1] to the range of value u; it returns
// the sorted patterns.
func (mt *matcher) sortByCut(ops *matchOps, dst *[]uint64, start *[1<<maxCut + 1]int32, src []uint64, cut uint64, c int) []uint64 {
	*start = [1<<maxCut + 1]int32{}
	if c == 0 {
		for u := 1; u <= 1<<maxCut; u++ {
			start[u] = int32(len(src))
		}
		return src
	}
	if cap(mt.vals) < len(src) {
		mt.vals = make([]uint8, len(src), len(src)+len(src)/4)
	}
	vals := mt.vals[:len(src)]
	ops.cutVals(vals, src, cut)
	var cnt [1 << maxCut]int32
	for _, u := range vals {
		cnt[u&(1<<maxCut-1)]++
	}
	for u := range 1 << maxCut {
		start[u+1] = start[u] + cnt[u]
	}
	if cap(*dst) < len(src) {
		*dst = make([]uint64, len(src), len(src)+len(src)/4)
	}
	out := (*dst)[:len(src)]
	next := [1 << maxCut]int32(start[:1<<maxCut])
	for i, x := range src {
		u := vals[i] & (1<<maxCut - 1)
		out[next[u]] = x
		next[u]++
	}
	return out
}

// cutValuesGo sets dst[i] to the bits of src[i] that mask selects, packed.
func cutValuesGo(dst []uint8, src []uint64, mask uint64) {
	dst = dst[:len(src)]
	for i, x := range src {
		var u uint8
		k := 0
		for m := mask; m != 0; m &= m - 1 {
			u |= uint8(x>>bits.TrailingZeros64(m)&1) << k
			k++
		}
		dst[i] = u
	}
}

// growZero returns s with length n, zero from its old length on.
func growZero(s []uint64, n int) []uint64 {
	if cap(s) < n {
		s = make([]uint64, n, n+n/4)
	}
	s = s[:n]
	clear(s)
	return s
}

// growU32 returns s with length n.
func growU32(s []uint32, n int) []uint32 {
	if cap(s) < n {
		s = make([]uint32, n, n+n/4)
	}
	return s[:n]
}

// offsetsGo sets dst to, for each y of ys compressed by j, the byte
// offsets in a block's tables of the k rows that y selects: row
// c<<w | (y>>(c·w) & (2^w − 1)).
func offsetsGo(mt *matcher, dst []uint32, ys []uint64, j uint64, g chunks) {
	mt.extract(j)
	mask := uint64(1)<<g.w - 1
	i := 0
	for _, y := range ys {
		y = mt.pext(y)
		for c := range g.k {
			dst[i] = uint32(c<<g.w|int(y>>(c*g.w)&mask)) * uint32(laneBlock/8)
			i++
		}
	}
}

// bruteDisjoint compares every pair.
func bruteDisjoint(xs, ys []uint64) uint64 {
	var n uint64
	for _, y := range ys {
		for _, x := range xs {
			n += b2i(x&y == 0)
		}
	}
	return n
}

// chunks is how a block's patterns of m bits are cut into k chunks of w
// bits (the last one may be narrower), each chunk with a table of 2^w rows.
type chunks struct{ k, w int }

// maxChunk is the widest chunk: 512 rows, a block's tables at most 5·32 kB
// for 45 bits (the second-level cache). The kernels take at most 9 chunks.
const maxChunk = 9

// chunking cuts m bits into chunks for blocks met by items patterns each:
// fewer, wider chunks save a row per pattern but cost 2^w rows of table
// per chunk and block. The costs are those of BenchmarkCountBlock (AVX-512,
// per block: about 0.6 ns per pattern and 0.15 ns per row it ANDs, 0.3 ns
// per table row built).
func chunking(m, items int) chunks {
	best, cost := chunks{}, 0.0
	for w := 1; w <= maxChunk; w++ {
		k := (m + w - 1) / w
		if k > 9 {
			continue
		}
		c := float64(items)*(0.6+0.15*float64(k)) + 0.3*float64(k<<w)
		if best.k == 0 || c < cost {
			best, cost = chunks{k, (m + k - 1) / k}, c
		}
	}
	return best
}

// compressGo sets dst[i] to the bits of src[i] that j selects, packed to
// the low end (a parallel bit extract).
func compressGo(mt *matcher, dst, src []uint64, j uint64) {
	mt.extract(j)
	for i, x := range src {
		dst[i] = mt.pext(x)
	}
}

// extract prepares pext for the mask j: a table per byte of a pattern,
// where its bits go.
func (mt *matcher) extract(j uint64) {
	if mt.extJ == j && mt.extOK {
		return
	}
	mt.extJ, mt.extOK = j, true
	shift := 0
	for b := range 8 {
		mb := j >> (8 * b) & 0xff
		t := &mt.ext[b]
		t[0] = 0
		// Each value is the one without its lowest bit plus where that
		// bit goes.
		for v := 1; v < 256; v++ {
			low := v & -v
			var o uint64
			if mb&uint64(low) != 0 {
				o = 1 << (shift + bits.OnesCount64(mb&uint64(low-1)))
			}
			t[v] = t[v&(v-1)] | o
		}
		shift += bits.OnesCount64(mb)
	}
}

func (mt *matcher) pext(x uint64) uint64 {
	e := &mt.ext
	return e[0][x&0xff] | e[1][x>>8&0xff] | e[2][x>>16&0xff] | e[3][x>>24&0xff] |
		e[4][x>>32&0xff] | e[5][x>>40&0xff] | e[6][x>>48&0xff] | e[7][x>>56]
}

// buildTables fills mt.tab for the block blk: row v of chunk c (row
// c<<w | v) has the bit of every pattern x of blk with x>>(c·w) & v == 0,
// and no bit past the block's patterns. blk is followed in memory by zero
// patterns up to a multiple of 64 (compress leaves them).
func (mt *matcher) buildTables(ops *matchOps, blk []uint64, g chunks) {
	rows := g.k << g.w
	if cap(mt.tab) < rows {
		mt.tab = make([]blockRow, rows)
	}
	mt.tab = mt.tab[:rows]
	if mt.has == nil {
		mt.has = make([]blockRow, 64)
	}
	var valid blockRow
	for i := range len(blk) / 64 {
		valid[i] = ^uint64(0)
	}
	if r := len(blk) % 64; r != 0 {
		valid[len(blk)/64] = 1<<r - 1
	}
	groups := (len(blk) + 63) / 64
	ops.planes(blk[:groups*64:groups*64], mt.has, (g.k*g.w+7)/8)
	ops.rows(mt.has, mt.tab, &valid, g.k, g.w)
}

// planesGo sets has[p] word g to bit p of the patterns 64g … 64g+63 of
// pats, for p < 8·nbytes.
func planesGo(pats []uint64, has []blockRow, nbytes int) {
	for p := range 8 * nbytes {
		for g := range len(pats) / 64 {
			has[p][g] = 0
		}
	}
	for i, x := range pats {
		bit := uint64(1) << (i & 63)
		for ; x != 0; x &= x - 1 {
			if p := bits.TrailingZeros64(x); p < 8*nbytes {
				has[p][i>>6] |= bit
			}
		}
	}
}

// rowsGo builds the k tables of 2^w rows of tab from the planes: row 0 is
// valid, and rows 2^j … 2^(j+1)−1 are rows 0 … 2^j−1 without the patterns
// that have bit c·w+j.
func rowsGo(has, tab []blockRow, valid *blockRow, k, w int) {
	for c := range k {
		t := tab[c<<w : (c+1)<<w]
		t[0] = *valid
		for j := range w {
			h := &has[c*w+j]
			for u := range 1 << j {
				for i := range t[u] {
					t[1<<j+u][i] = t[u][i] &^ h[i]
				}
			}
		}
	}
}

// countBlockGo counts, for each y, the patterns of the block whose tables
// are tab that share no bit with y: the AND of the k rows whose offsets
// offs holds for y has a bit for each pattern that passes every chunk.
func countBlockGo(tab []blockRow, offs []uint32, k int) uint64 {
	var total uint64
	for ; len(offs) >= k; offs = offs[k:] {
		acc := tab[offs[0]/(laneBlock/8)]
		for _, o := range offs[1:k] {
			r := &tab[o/(laneBlock/8)]
			for i := range acc {
				acc[i] &= r[i]
			}
		}
		for _, a := range acc {
			total += uint64(bits.OnesCount64(a))
		}
	}
	return total
}
