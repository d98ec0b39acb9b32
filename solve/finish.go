package solve

import (
	"math/bits"
	"slices"
)

// The search behind [List]: prefixes (the columns of the first rows) in
// lexicographic order by plain row-by-row backtracking ([walker]), and the
// last rows of each prefix by a faster search that fills rows in any order
// and sorts what it finds ([finisher]).
//
// Row by row, the search visits about 1.1·10⁹ nodes at n = 16. Branching
// instead on the empty row with the fewest free squares, and giving up on a
// node where a free column has no free square left in any empty row (the
// rule of the exact counter, internal/kernel), visits about 3·10⁸, but finds
// the solutions out of order. So the finisher takes the last finishRows
// rows of a prefix, packs each completion it finds into a key whose order
// is the lexicographic order of those rows, and sorts the keys: a few dozen
// per prefix at n = 16, sorted in a few hundred nanoseconds.

// finishRows is how many rows the finisher fills: 5 bits per column (n ≤
// 32) times 12 rows fit a 64-bit key, and 4 bits (n ≤ 16) fit 6 bytes.
const finishRows = 12

// maxFinishN is the largest n the finisher takes: its masks are single
// words holding both diagonal families (see finisher). Larger boards are
// walked row by row to the end.
const maxFinishN = 32

// finishUpTo is maxFinishN, lowered by tests to hold the walk to the end
// against the finisher on small boards.
var finishUpTo = maxFinishN

// keyBits is the width of a column in a key of an n×n board.
func keyBits(n int) int {
	if n <= 16 {
		return 4
	}
	return 5
}

// finisher completes prefixes of an n×n board, n ≤ maxFinishN, and holds
// the keys of the completions it found.
//
// A partial board is kept as in the exact counter: occ holds the occupied
// columns and every bit from n up; a queen (r, c) sets bit (c − r) mod 64
// of diag and bit c + r of anti, so that the squares the queens attack in
// row r are rotl(diag, r) | rotr(anti, r), one rotation each. For n ≤ 32
// no diagonal that leaves the board lands on bits 0 … n−1 mod 64.
type finisher struct {
	n int
	// rank orders rows with as few free squares: the most central, then
	// the lowest, first (as in the exact counter, where it cuts the nodes
	// by an eighth at N = 16).
	rank  [64]uint64
	shift [64]uint8  // where row r's column sits in a key
	ban   [64]uint64 // squares barred from each row (the --unique border rule)
	keys  []uint64
	spare []uint64 // sortByFirstRows' other buffer
	mask  uint64   // of a column in a key
}

func newFinisher(n int) *finisher {
	f := &finisher{n: n, mask: 1<<keyBits(n) - 1}
	for r := range n {
		f.rank[r] = uint64(max(2*r-(n-1), n-1-2*r))<<6 | uint64(r)
		if n-1-r < finishRows {
			f.shift[r] = uint8(keyBits(n) * (n - 1 - r))
		}
	}
	return f
}

// free returns the squares of row r that no queen attacks. The barred
// squares (ban) are left out only where the search branches: they prune,
// and the listing checks every solution it keeps anyway, so the scans of
// every empty row at every node need not load them.
func (f *finisher) free(occ, diag, anti uint64, r int) uint64 {
	return ^(occ | bits.RotateLeft64(diag, r) | bits.RotateLeft64(anti, -r))
}

// finish appends to f.keys the key of every completion of the board (occ,
// diag, anti) whose empty rows are rem (at most finishRows of them), and
// sorts the keys. The key of a completion holds the column of each row r of
// rem at bit shift[r], rows higher up more significant, so that sorted
// keys are completions in lexicographic order.
func (f *finisher) finish(occ, diag, anti, rem uint64) {
	f.keys = f.keys[:0]
	if bits.OnesCount64(rem) <= 3 {
		f.small(occ, diag, anti, rem, 0)
	} else {
		f.search(occ, diag, anti, rem)
	}
	if len(f.keys) <= 24 || bits.OnesCount64(rem) < 2 {
		insertionSort(f.keys)
	} else {
		f.sortByFirstRows(bits.TrailingZeros64(rem))
	}
}

// sortByFirstRows sorts f.keys by the columns of rows r and r+1, the
// most significant in a key (a counting sort), then each run of keys with
// the same two columns, a few at n = 16, by insertion: about half the time
// of one comparison sort of the whole.
func (f *finisher) sortByFirstRows(r int) {
	s := f.shift[(r+1)&63]
	mask := f.mask<<keyBits(f.n) | f.mask
	var start [1<<10 + 1]int
	buckets := int(mask) + 1
	for _, k := range f.keys {
		start[k>>s&mask+1]++
	}
	for c := 1; c <= buckets; c++ {
		start[c] += start[c-1]
	}
	f.spare = slices.Grow(f.spare[:0], len(f.keys))[:len(f.keys)]
	var next [1 << 10]int
	copy(next[:], start[:buckets])
	for _, k := range f.keys {
		c := k >> s & mask
		f.spare[next[c]] = k
		next[c]++
	}
	f.keys, f.spare = f.spare, f.keys
	for c := range buckets {
		if run := f.keys[start[c]:start[c+1]]; len(run) <= 32 {
			insertionSort(run)
		} else {
			slices.Sort(run)
		}
	}
}

type finishFrame struct {
	occ, diag, anti, rem, avail, key uint64
	row                              int
}

// search is the finisher's loop: depth first, always on the empty row with
// the fewest free squares, a dead end as soon as a row has no free square
// or a free column no row can take, the last three rows by last3.
func (f *finisher) search(occ, diag, anti, rem uint64) {
	rank, shift := &f.rank, &f.shift
	best := uint64(1 << 62)
	for x := rem; x != 0; x &= x - 1 {
		r := bits.TrailingZeros64(x) & 63
		best = bmin(best, uint64(bits.OnesCount64(f.free(occ, diag, anti, r)))<<12|rank[r])
	}
	row := int(best & 63)
	avail := f.free(occ, diag, anti, row) &^ f.ban[row&63]
	rem &^= 1 << uint(row)
	var key uint64
	// Each level fills a row and leaves at least three: fewer than
	// finishRows levels.
	var stack [finishRows]finishFrame
	d := 0
	for {
		if avail == 0 {
			if d == 0 {
				return
			}
			d--
			s := &stack[d]
			occ, diag, anti, rem, avail, row, key = s.occ, s.diag, s.anti, s.rem, s.avail, s.row, s.key
			continue
		}
		bit := avail & -avail
		avail ^= bit
		no := occ | bit
		nd := diag | bits.RotateLeft64(bit, -row)
		na := anti | bits.RotateLeft64(bit, row)
		x := rem & (rem - 1)
		if y := x & (x - 1); y&(y-1) == 0 {
			// Three rows r1 < r2 < r3 left.
			r1 := bits.TrailingZeros64(rem) & 63
			r2 := bits.TrailingZeros64(x) & 63
			r3 := bits.TrailingZeros64(y) & 63
			k := key | uint64(bits.TrailingZeros64(bit))<<shift[row&63]
			f.last3(f.free(no, nd, na, r1), f.free(no, nd, na, r2), f.free(no, nd, na, r3), k, r1, r2, r3)
			continue
		}
		best := uint64(1 << 62)
		var cover uint64
		for x := rem; x != 0; x &= x - 1 {
			r := bits.TrailingZeros64(x) & 63
			a := f.free(no, nd, na, r)
			cover |= a
			best = bmin(best, uint64(bits.OnesCount64(a))<<12|rank[r])
		}
		// A row with no free square, or a free column that no row can
		// take, is a dead end.
		if best < 1<<12 || cover|no != ^uint64(0) {
			continue
		}
		s := &stack[d]
		s.occ, s.diag, s.anti, s.rem, s.avail, s.row, s.key = occ, diag, anti, rem, avail, row, key
		d++
		key |= uint64(bits.TrailingZeros64(bit)) << shift[row&63]
		row = int(best & 63)
		occ, diag, anti, rem = no, nd, na, rem&^(1<<uint(row))
		avail = f.free(occ, diag, anti, row) &^ f.ban[row&63]
	}
}

// last3 appends the completions of three empty rows r1 < r2 < r3 whose
// free squares are A, B and C.
func (f *finisher) last3(A, B, C, key uint64, r1, r2, r3 int) {
	d12, d13, d23 := uint(r2-r1), uint(r3-r1), uint(r3-r2)
	s1, s2, s3 := f.shift[r1], f.shift[r2], f.shift[r3]
	for ; A != 0; A &= A - 1 {
		u := A & -A
		bb := B &^ (u | u<<d12 | u>>d12)
		cc := C &^ (u | u<<d13 | u>>d13)
		k := key | uint64(bits.TrailingZeros64(u))<<s1
		for ; bb != 0; bb &= bb - 1 {
			v := bb & -bb
			if w := cc &^ (v | v<<d23 | v>>d23); w != 0 {
				f.keys = append(f.keys, k|uint64(bits.TrailingZeros64(v))<<s2|uint64(bits.TrailingZeros64(w))<<s3)
			}
		}
	}
}

// small finishes three empty rows or fewer row by row.
func (f *finisher) small(occ, diag, anti, rem, key uint64) {
	if rem == 0 {
		f.keys = append(f.keys, key)
		return
	}
	r := bits.TrailingZeros64(rem) & 63
	for a := f.free(occ, diag, anti, r) &^ f.ban[r]; a != 0; a &= a - 1 {
		bit := a & -a
		f.small(occ|bit, diag|bits.RotateLeft64(bit, -r), anti|bits.RotateLeft64(bit, r), rem&^(1<<uint(r)),
			key|uint64(bits.TrailingZeros64(bit))<<f.shift[r])
	}
}

// decode writes the columns a key holds into cols[from:].
func (f *finisher) decode(key uint64, cols []uint8, from int) {
	for r := from; r < f.n; r++ {
		cols[r] = uint8(key >> f.shift[r&63] & f.mask)
	}
}

// bmin is min(a, b) for a, b < 2⁶³ without a branch, which the search
// would mispredict.
func bmin(a, b uint64) uint64 {
	t := b - a
	return a + t&uint64(int64(t)>>63)
}

func insertionSort(a []uint64) {
	for i := 1; i < len(a); i++ {
		v, j := a[i], i
		for ; j > 0 && a[j-1] > v; j-- {
			a[j] = a[j-1]
		}
		a[j] = v
	}
}

// mirrorBase returns the key that holds n−1 in every row from … n−1: less
// the key of a completion of those rows, it is the key of the completion's
// mirror image (column c becomes n−1−c), as no column borrows.
func (f *finisher) mirrorBase(from int) uint64 {
	var all uint64
	for r := from; r < f.n; r++ {
		all |= uint64(f.n-1) << f.shift[r&63]
	}
	return all
}

// sameRows returns how many rows from `from` on two keys share: the
// completions they stand for differ first in the row after those.
func (f *finisher) sameRows(a, b uint64, from int) int {
	if a == b {
		return f.n - from
	}
	top := int(f.shift[from&63]) + keyBits(f.n) // bits the keys use
	return (bits.LeadingZeros64(a^b) - (64 - top)) / keyBits(f.n)
}
