package join

import (
	"math/bits"
	"sync/atomic"
)

// halfPart is the most patterns a half is built with at once: a larger
// half is joined in parts of whole top column sets (cells), and the pairs
// of parts are counted one by one, so that a worker's lists stay within
// a few hundred megabytes at any N (each pattern costs about 60 bytes
// across the lists, the sieve's copies and its scratch). The parts depend
// on N alone, never on the memory at hand: a unit's pairs compared are
// the same on every machine.
const halfPart = 1 << 22

// rowsOf returns the view of the table of q on the rows set r (relative
// to the quarter's first row).
func (t *Tables) rowsOf(q *quarter, r uint32) rowList {
	i := r << uint(t.CL)
	return rowList{off: q.off[i : i+1<<uint(t.CL)+1], w0: q.w0, w1: q.w1}
}

// buildList sets *dst to the placements of the quarter of rows [r0,
// r0+nr) of the left half with a queen in each row of rows (relative to
// r0) and none in the others, by column set, reusing dst's memory. Two
// walks, counting then filling, over only those placements: about the
// cost of the placements themselves, a small part of the half joined from
// them.
// It returns false, and builds nothing, if stop is set during the walk or
// the list would take more than limit bytes (no limit if limit ≤ 0); need
// is then its size, if known.
func (l *Layout) buildList(dst *rowList, r0, nr int, rows uint32, stop *atomic.Bool, limit int64) (ok bool, need int64) {
	off := dst.off
	if cap(off) < 1<<l.CL+1 {
		off = make([]uint32, 1<<l.CL+1)
	}
	off = off[:1<<l.CL+1]
	clear(off)
	dst.off = off
	b := listWalker{l: l, r0: r0, last: r0 + nr, rows: rows, off: off, stop: stop}
	b.walk(r0, 0, 0, 0, 0, 0)
	if b.stopped {
		return false, 0
	}
	for i := 1; i < len(off); i++ {
		off[i] += off[i-1]
	}
	n := int(off[len(off)-1])
	if need := int64(n)*16 + int64(len(off))*8; limit > 0 && need > limit {
		return false, need
	}
	if cap(dst.w0) < n {
		dst.w0, dst.w1 = make([]uint64, n), make([]uint64, n)
	}
	b.w0, b.w1 = dst.w0[:n], dst.w1[:n]
	b.next = append(dst.next[:0], off[:len(off)-1]...)
	b.walk(r0, 0, 0, 0, 0, 0)
	dst.w0, dst.w1, dst.next = b.w0, b.w1, b.next
	return !b.stopped, 0
}

// listWalker walks the placements of buildList: a queen in each row of
// rows, on a column that no queen above attacks.
type listWalker struct {
	l        *Layout
	r0, last int
	rows     uint32
	off      []uint32
	next     []uint32 // nil while counting
	w0, w1   []uint64
	stop     *atomic.Bool
	steps    int
	stopped  bool
}

func (b *listWalker) walk(r int, cols, dm, am, w0, w1 uint64) {
	for r < b.last && b.rows>>(r-b.r0)&1 == 0 {
		r++
		dm, am = dm<<1, am>>1
	}
	if r == b.last {
		if b.steps++; b.steps&(1<<16-1) == 0 && b.stop != nil && b.stop.Load() {
			b.stopped = true
		}
		if b.next == nil {
			b.off[cols+1]++
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
	free := (uint64(1)<<b.l.CL - 1) &^ (cols | dm | am)
	for ; free != 0; free &= free - 1 {
		c := bits.TrailingZeros64(free)
		bit := uint64(1) << c
		cw0, cw1 := b.l.cw0[r][c], b.l.cw1[r][c]
		b.walk(r+1, cols|bit, (dm|bit)<<1, (am|bit)>>1, w0|cw0, w1|cw1)
	}
}

// bytes returns the memory of the list.
func (r *rowList) bytes() int64 {
	return int64(cap(r.off))*4 + int64(cap(r.next))*4 + int64(cap(r.w0)+cap(r.w1))*8
}
