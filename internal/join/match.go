package join

import (
	"math/bits"
)

// laneBlock is the number of patterns one block of the matcher holds: one
// bit of each in a 512-bit row.
const laneBlock = 512

// blockRow is one row of a block's tables: a bit per pattern.
type blockRow [laneBlock / 64]uint64

// The sizes the assembly takes from go_asm.h.
const (
	blockBytes = laneBlock / 8          // bytes of a blockRow
	groupBytes = 64 * 8                 // bytes of 64 patterns, a word of every plane
	chunkRows  = 1 << maxChunk          // rows set aside for a chunk's table, whatever its width
	chunkBytes = chunkRows * blockBytes // where chunk c's table starts: c·chunkBytes
	maxChunks  = 8                      // the most chunks a y's rows come from
)

// matcher counts the disjoint pairs of two lists of patterns. Its buffers
// are reused from one key to the next; one matcher per goroutine.
type matcher struct {
	cx, cy []uint64               // the two lists compressed to the bits both can have, partitioned in place by the sieve
	wblk   [laneBlock + 64]uint64 // a narrow leaf's block, widened, and what its planes read past it
	stack  patternStack           // the sieve's parts that are not in place
	tab    []blockRow             // the tables of a block
	has    []blockRow             // per bit, the patterns of the block that have it
	ext    [8][256]uint64         // pext in Go, for the mask extJ
	extJ   uint64
	extOK  bool
	// A block's valid patterns and a sample's patterns (buildTables,
	// sampleCounts): kept here, as locals they were allocated on the
	// heap each time (about 4 % of N = 24's CPU profile).
	valid  blockRow
	sample [64]uint64
}

// patternStack hands out buffers of patterns that are given back in the
// reverse order, as the sieve's recursion does: a split takes two, and
// gives them back when its first part is counted. Every buffer has 64
// patterns of its array past its end within its capacity, which the
// planes of a block may read.
type patternStack struct {
	buf []uint64
	top int
}

// stackMark is where a patternStack stood: its array and top.
type stackMark struct {
	buf []uint64
	top int
}

// reset gives back every buffer.
func (s *patternStack) reset() { s.top = 0 }

// mark returns where s stands, for release.
func (s *patternStack) mark() stackMark { return stackMark{s.buf, s.top} }

// alloc returns a buffer of n patterns, its contents undefined. When the
// array is full it takes a larger one; the buffers handed out before stay
// in the old one, which they keep alive.
func (s *patternStack) alloc(n int) []uint64 {
	if s.top+n+64 > len(s.buf) {
		s.buf = make([]uint64, max(2*len(s.buf), n+64, 1<<16))
		s.top = 0
	}
	b := s.buf[s.top : s.top+n : s.top+n+64]
	s.top += n
	return b
}

// trim shortens b, the last buffer handed out, to n patterns, and gives
// back the rest; 64 patterns past its end stay within its capacity.
func (s *patternStack) trim(b []uint64, n int) []uint64 {
	s.top -= len(b) - n
	return b[: n : n+64]
}

// release gives back every buffer handed out since m. If the array was
// replaced since, none of the new one's buffers is in use any more.
func (s *patternStack) release(m stackMark) {
	if len(m.buf) == len(s.buf) && (len(s.buf) == 0 || &m.buf[0] == &s.buf[0]) {
		s.top = m.top
	} else {
		s.top = 0
	}
}

// bytes returns the size of its array.
func (s *patternStack) bytes() int64 { return int64(cap(s.buf)) * 8 }

// brutePairs is the number of pairs below which the matcher compares each
// pair: building a block's tables costs more than that.
const brutePairs = 4096

// resize returns s with length n, its contents undefined: the sieve
// overwrites what it reads, and the patterns past a list's end that a
// block's planes read are left out of its rows.
func resize(s []uint64, n int) []uint64 {
	if cap(s) < n {
		s = make([]uint64, n, n+n/4)
	}
	return s[:n]
}

// bruteDisjoint compares every pair.
func bruteDisjoint[T pattern](xs, ys []T) uint64 {
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
// for 45 bits (the second-level cache). The kernels take at most maxChunks.
const maxChunk = 9

// chunking cuts m bits (1 to 64) into chunks for blocks met by items
// patterns each, and returns the cost of a block (ns): fewer, wider chunks
// save a row per pattern but cost 2^w rows of table per chunk and block.
// The costs are those of the AVX-512 loops (a block's planes about 300 ns,
// a row built 0.8 ns; a y 0.5 ns and 0.3 ns per row it ANDs). The sieve
// asks it three times per split it weighs (3 % of N = 20's time when each
// call divided for every width): each candidate's fixed and per-item cost
// is made once per m, in chunkLines.
func chunking(m, items int) (g chunks, cost float64) {
	for _, c := range chunkLines[m] {
		if v := c.fixed + float64(items)*c.slope; g.k == 0 || v < cost {
			g, cost = c.g, v
		}
	}
	return g, cost
}

// chunkLine is one way to chunk a block for [chunking]: a width w of at
// most maxChunk bits whose k chunks the kernels take, and the block's cost
// as fixed + items·slope.
type chunkLine struct {
	g            chunks
	fixed, slope float64
}

// chunkLines[m] are the ways to chunk m bits, by increasing w.
var chunkLines = func() (lines [65][]chunkLine) {
	for m := 1; m <= 64; m++ {
		for w := 1; w <= maxChunk; w++ {
			k := (m + w - 1) / w
			if k > maxChunks {
				continue
			}
			lines[m] = append(lines[m], chunkLine{chunks{k, (m + k - 1) / k}, 300 + 0.8*float64(k<<w), 0.5 + 0.3*float64(k)})
		}
	}
	return lines
}()

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

// buildTables fills mt.tab for the block blk, on the bits of j: with the
// patterns' bits that j selects numbered 0, 1, … in order, row v of chunk
// c (row c<<w | v) has the bit of every pattern x of blk whose bits c·w …
// c·w+w−1 miss v, and no bit past the block's patterns. blk may be
// followed in memory by any patterns up to a multiple of 64 (the planes
// read them; the rows leave them out).
func (mt *matcher) buildTables(ops *matchOps, blk []uint64, j uint64, g chunks) {
	if mt.tab == nil {
		// Each chunk's table at a fixed place, so that the counts find
		// it by a constant offset.
		mt.tab = make([]blockRow, maxChunks*chunkRows)
	}
	if mt.has == nil {
		mt.has = make([]blockRow, 64)
	}
	// In the matcher, not on the stack: the ops are function values, so
	// a local passed to them would be allocated per block.
	valid := &mt.valid
	*valid = blockRow{}
	for i := range len(blk) / 64 {
		valid[i] = ^uint64(0)
	}
	if r := len(blk) % 64; r != 0 {
		valid[len(blk)/64] = 1<<r - 1
	}
	groups := (len(blk) + 63) / 64
	ops.planes(blk[:groups*64], mt.has, (bits.Len64(j)+7)/8)
	// The planes of j's bits, in order, moved down (i ≤ p).
	i := 0
	for x := j; x != 0; x &= x - 1 {
		if p := bits.TrailingZeros64(x); p != i {
			mt.has[i] = mt.has[p]
		}
		i++
	}
	// The last chunk may be narrower: its missing bits no pattern has.
	for ; i < g.k*g.w; i++ {
		mt.has[i] = blockRow{}
	}
	ops.rows(mt.has, mt.tab, valid, g.k, g.w)
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
		t := tab[c*chunkRows : c*chunkRows+1<<w]
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

// countBlockGo counts, for each y of ys, the patterns of the block whose
// tables are mt.tab that share no bit with y on the bits of j: the AND of
// the rows of y's chunks (bits c·w … c·w+w−1 of y's bits that j selects,
// row v of chunk c) has a bit for each pattern that passes every chunk.
func countBlockGo[T pattern](mt *matcher, ys []T, j uint64, g chunks) uint64 {
	mt.extract(j)
	mask := uint64(1)<<g.w - 1
	var total uint64
	for _, y := range ys {
		y := mt.pext(uint64(y))
		acc := mt.tab[y&mask]
		for c := 1; c < g.k; c++ {
			r := &mt.tab[c*chunkRows+int(y>>(c*g.w)&mask)]
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
