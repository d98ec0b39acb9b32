package join

import (
	"math/bits"
	"slices"
	"sync/atomic"
)

// halfPart is the most patterns a half is built with at once below N =
// [BigPartFrom]: a larger half is joined in parts of whole top column sets
// (cells), and the pairs of parts are counted one by one, so that a
// worker's halves stay within a few hundred megabytes at any N (each
// pattern costs about 60 bytes across the halves, the sieve's copies and
// its scratch). The parts depend on N alone, never on the memory at hand:
// a unit's pairs compared are the same on every machine.
const halfPart = 1 << 22

// From N = BigPartFrom a key's halves hold tens of millions of patterns,
// and each pair of parts is sieved from scratch: the smaller the parts, the
// fewer splits pay and the more pairs are compared. Parts of bigPart
// patterns took 1.36 to 1.46 times less CPU than parts of halfPart at N =
// 26 and 27 (sampled rows sets, the same totals; parts of 2^24 only 1.03 to
// 1.08 less again, for twice the memory), for a worker's peak of about
// 550 MB instead of 330. At N = 25 and below the halves are rarely larger
// than halfPart: the parts, and so the pairs, stay as they were.
const (
	BigPartFrom = 26
	bigPart     = 1 << 23
)

// PartOf returns the most patterns a half of N is built with at once (see
// [halfPart]).
func PartOf(n int) int {
	if n >= BigPartFrom {
		return bigPart
	}
	return halfPart
}

// placementBytes is what a quarter placement takes in a list: its two
// words.
const placementBytes = 16

// rowsOf returns the view of the table of q on the rows set r (relative
// to the quarter's first row).
func (t *Tables) rowsOf(q *quarter, r uint32) rowList {
	i := r << uint(t.CL)
	return rowList{off: q.off[i : i+1<<uint(t.CL)+1], w0: q.w0, w1: q.w1}
}

// qlist is a list worker's placements of one quarter on one rows set:
// counted whole, held a window of column sets at a time. A half joins top
// placements of the column set C with bottom ones of the other columns,
// so a window of top column sets [P·2^s, (P+1)·2^s) (the sets whose high
// columns are P) needs the bottom window of the complements, again such a
// range: the two lists of a half are cut into windows of the same node of
// the trie of column sets, as large as the memory allows (N = 30 has lists
// of 2 GB, whose column sets take at most about 1 MB each).
type qlist struct {
	rows    uint32
	counted bool
	// full[C] … full[C+1]−1 would be the indexes of the placements of the
	// column set C in the whole list.
	full []uint32
	// win holds the placements of the column sets [lo, hi) (none if hi =
	// 0): win.off[C] = full[C] − full[lo] for C in [lo, hi], 0 elsewhere.
	win    rowList
	lo, hi uint32
}

// count sets q to the rows set rows of the quarter of rows [r0, r0+nr) of
// the left half, counting its placements by column set (one walk, nothing
// stored). It returns false if stop was set during the walk.
func (l *Layout) count(q *qlist, r0, nr int, rows uint32, stop *atomic.Bool) bool {
	if q.counted && q.rows == rows {
		return true
	}
	q.counted, q.lo, q.hi = false, 0, 0
	if cap(q.full) < 1<<l.CL+1 {
		q.full = make([]uint32, 1<<l.CL+1)
	}
	q.full = q.full[:1<<l.CL+1]
	clear(q.full)
	b := listWalker{l: l, r0: r0, last: r0 + nr, rows: rows, cnt: q.full, stop: stop}
	b.walk(r0, 0, 0, 0, 0, 0)
	if b.stopped {
		return false
	}
	for i := 1; i < len(q.full); i++ {
		q.full[i] += q.full[i-1]
	}
	q.rows, q.counted = rows, true
	return true
}

// need returns the memory of q's window [lo, hi).
func (q *qlist) need(lo, hi uint32) int64 {
	return int64(q.full[hi]-q.full[lo]) * placementBytes
}

// fill builds q's window of the column sets [lo, hi) (lo a multiple of
// hi − lo, a power of two) after [Layout.count], reusing q's memory: one
// walk that places queens on the columns of lo among the high columns it
// fixes, and on the low columns freely, and keeps the placements that
// use all of lo's (about the cost of those placements: a row where the
// columns left to fill outnumber the rows left ends the path).
func (l *Layout) fill(q *qlist, r0, nr int, lo, hi uint32, stop *atomic.Bool) bool {
	if q.hi == hi && q.lo == lo {
		return true
	}
	q.lo, q.hi = 0, 0
	size := 1<<l.CL + 1
	off := q.win.off
	if cap(off) < size {
		off = make([]uint32, size)
	}
	off = off[:size]
	clear(off)
	for c := lo; c <= hi; c++ {
		off[c] = q.full[c] - q.full[lo]
	}
	n := int(off[hi])
	if cap(q.win.w0) < n {
		q.win.w0, q.win.w1 = make([]uint64, n), make([]uint64, n)
	}
	next := q.win.next
	if cap(next) < size-1 {
		next = make([]uint32, size-1)
	}
	next = next[:size-1]
	copy(next, off)
	fixed := (uint64(1)<<l.CL - 1) &^ (uint64(hi-lo) - 1)
	b := listWalker{l: l, r0: r0, last: r0 + nr, rows: q.rows, next: next, w0: q.win.w0[:n], w1: q.win.w1[:n],
		fixed: fixed, fix: uint64(lo), stop: stop}
	b.walk(r0, 0, 0, 0, 0, 0)
	q.win = rowList{off: off, w0: b.w0, w1: b.w1, next: next}
	if b.stopped {
		return false
	}
	q.lo, q.hi = lo, hi
	return true
}

// listWalker walks the placements of a quarter's list: a queen in each
// row of rows, on a column that no queen above attacks, and on the
// columns of fixed only those of fix.
type listWalker struct {
	l          *Layout
	r0, last   int
	rows       uint32
	cnt        []uint32 // counting: the placements of column set C add to cnt[C+1]
	next       []uint32 // filling: where the next placement of column set C goes
	w0, w1     []uint64
	fixed, fix uint64
	stop       *atomic.Bool
	steps      int
	stopped    bool
}

func (b *listWalker) walk(r int, cols, dm, am, w0, w1 uint64) {
	for r < b.last && b.rows>>(r-b.r0)&1 == 0 {
		r++
		dm, am = dm<<1, am>>1
	}
	if b.fix != 0 && bits.OnesCount64(b.fix&^cols) > bits.OnesCount32(b.rows>>(r-b.r0)) {
		return // fix's columns left outnumber the rows left
	}
	if r == b.last {
		if b.steps++; b.steps&(1<<16-1) == 0 && b.stop != nil && b.stop.Load() {
			b.stopped = true
		}
		if b.next == nil {
			b.cnt[cols+1]++
			return
		}
		i := b.next[cols]
		b.next[cols]++
		b.w0[i], b.w1[i] = w0, w1
		return
	}
	if b.stopped {
		return
	}
	free := (uint64(1)<<b.l.CL - 1) &^ (cols | dm | am) &^ (b.fixed &^ b.fix)
	for ; free != 0; free &= free - 1 {
		c := bits.TrailingZeros64(free)
		bit := uint64(1) << c
		cw0, cw1 := b.l.cw0[r][c], b.l.cw1[r][c]
		b.walk(r+1, cols|bit, (dm|bit)<<1, (am|bit)>>1, w0|cw0, w1|cw1)
	}
}

// drop lets the window's placements go, for a smaller buffer.
func (q *qlist) drop() {
	q.win.w0, q.win.w1, q.lo, q.hi = nil, nil, 0, 0
}

// bytes returns the memory of the list.
func (q *qlist) bytes() int64 {
	r := &q.win
	return int64(cap(q.full)+cap(r.off)+cap(r.next))*4 + int64(cap(r.w0)+cap(r.w1))*8
}

// window makes the lists of side s (0: the left half, 1: the right one)
// hold the top column set of cell c (its index among the sets of k
// columns) and the bottom ones it joins: the largest node of the trie of
// column sets holding it whose two lists fit in half the worker's limit.
// It returns the lists and the first cell past the window; ok is false if
// stop was set or the cell's lists alone pass the limit (w.err says so).
func (w *Worker) window(s, k, c int, stop *atomic.Bool) (top, bot rowList, end int, ok bool) {
	l := w.l
	cells := l.subsets[k]
	if w.t != nil {
		return w.tlist[2*s], w.tlist[2*s+1], len(cells), true
	}
	qt, qb := &w.q[2*s], &w.q[2*s+1]
	full := uint32(1)<<l.CL - 1
	c1 := cells[c]
	budget := w.limit / 2
	var need int64
	sh := l.CL
	if w.winShift > 0 {
		sh = min(sh, w.winShift-1)
	}
	for ; sh >= 0; sh-- {
		lo, hi := c1>>sh<<sh, (c1>>sh+1)<<sh
		blo := (full ^ c1) >> sh << sh
		bhi := blo + 1<<sh
		if need = qt.need(lo, hi) + qb.need(blo, bhi); budget > 0 && need > budget {
			continue
		}
		if budget > 0 {
			// Buffers kept from other windows may not add up past it.
			nt, nb := int(qt.full[hi]-qt.full[lo]), int(qb.full[bhi]-qb.full[blo])
			if int64(max(cap(qt.win.w0), nt)+max(cap(qb.win.w0), nb))*placementBytes > budget {
				qt.drop()
				qb.drop()
			}
		}
		if !l.fill(qt, 0, l.TR, lo, hi, stop) || !l.fill(qb, l.TR, l.N-l.TR, blo, bhi, stop) {
			return rowList{}, rowList{}, 0, false
		}
		end, _ = slices.BinarySearch(cells, hi)
		if sh < l.CL {
			w.windows++
		}
		w.notePeak()
		return qt.win, qb.win, end, true
	}
	w.err = &MemoryError{N: l.N, Need: need, Limit: budget, List: true}
	return rowList{}, rowList{}, 0, false
}
