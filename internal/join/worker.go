package join

import (
	"math/bits"
	"sync/atomic"
)

// matchOps are the inner loops, in Go or in vector instructions. Each
// implementation is listed once (goOps here, the others beside their
// assembly), and the tests run every one this CPU has against goOps.
type matchOps struct {
	name      string
	join      func(out []uint64, out0 *[]uint64, t0, t1 []uint64, inner, sm uint64, b0, b1 []uint64) []uint64
	filter    func(dst, src, w0 []uint64, sm uint64) []uint64
	reverse   func(xs []uint64, shift int)
	partition func(xs, ones []uint64, b uint8) (n0 int, or0, or1 uint64)
	lacking   func(dst, src []uint64, b uint8) (n int, or uint64)
	compress  func(mt *matcher, dst, src []uint64, j uint64)
	// The narrow sieve's (see narrow.go).
	partition32 func(xs, ones []uint32, b uint8) (n0 int, or0, or1 uint32)
	lacking32   func(dst, src []uint32, b uint8) (n int, or uint32)
	compress32  func(mt *matcher, dst []uint32, src []uint64, j uint64)
	widen       func(dst []uint64, src []uint32) // dst has room for a vector past len(src), src too
	planes      func(pats []uint64, has []blockRow, nbytes int)
	rows        func(has, tab []blockRow, valid *blockRow, k, w int)
	count       func(mt *matcher, ys []uint64, j uint64, g chunks) uint64
	count32     func(mt *matcher, ys []uint32, j uint64, g chunks) uint64 // the narrow sieve's leaves
}

var goOps = matchOps{"go", joinCellGo, filterGo, reverseGo, partitionGo[uint64], lackingGo[uint64], compressGo,
	partitionGo[uint32], lackingGo[uint32], compress32Go, widenGo, planesGo, rowsGo, countBlockGo[uint64], countBlockGo[uint32]}

// allOps lists the implementations this CPU runs, goOps first.
var allOps = []*matchOps{&goOps}

// ops is the fastest of allOps.
var ops = &goOps

// Worker counts the units of a layout, from its [Tables] or, where those
// would not fit, from lists of the quarter placements on each rows set
// that a key needs, built as it needs them. Its buffers grow to the
// longest half part met and are kept; one Worker per goroutine.
type Worker struct {
	l           *Layout
	t           *Tables // nil: the lists are built per rows set
	ops         *matchOps
	part        int // PartOf(N), or less in tests
	winShift    int // tests: windows of at most 2^(winShift−1) column sets; 0: as the limit allows
	left, left0 []uint64
	xs, ys      []uint64
	mt          matcher
	// The left half's top and bottom quarter placements and the right
	// half's (mirrored into the left) on the rows of the key at hand: views
	// of the tables, or lists of their own (list workers).
	tlist   [4]rowList
	q       [4]qlist
	windows int // the windows that held part of a side's lists
	peak    int64
	// limit is the memory the lists may take (SetLimit); err why the last
	// count gave up, if not for stop.
	limit int64
	err   error
}

// SetLimit sets the memory the worker's quarter lists may take together;
// a count that would pass it gives up, and Err says why. No limit if
// bytes ≤ 0.
func (w *Worker) SetLimit(bytes int64) { w.limit = bytes }

// Err returns why the last count gave up other than for stop: a
// *MemoryError if a quarter list would pass the limit; nil otherwise.
func (w *Worker) Err() error { return w.err }

// NewWorker returns a worker for the units of t.
func NewWorker(t *Tables) *Worker {
	return &Worker{l: t.Layout, t: t, ops: ops, part: PartOf(t.Layout.N)}
}

// NewListWorker returns a worker for the units of l that needs no
// [Tables]: it builds the quarter placements of each rows set a key
// needs, as it needs them (see [Worker.Bytes] for its memory).
func NewListWorker(l *Layout) *Worker { return &Worker{l: l, ops: ops, part: PartOf(l.N)} }

// Windows returns how many times the worker held its quarter lists of a
// half in part, a window of column sets (see [Worker.window]), because
// they would pass a quarter of its limit whole.
func (w *Worker) Windows() int { return w.windows }

// Bytes returns the most memory the worker's lists and buffers have held
// (its tables aside).
func (w *Worker) Bytes() int64 { return w.peak }

func (w *Worker) notePeak() {
	b := int64(cap(w.left)+cap(w.left0)+cap(w.xs)+cap(w.ys)+cap(w.mt.cx)+cap(w.mt.cy))*8 + w.mt.stack.bytes()
	for i := range w.q {
		b += w.q[i].bytes()
	}
	w.peak = max(w.peak, b)
}

// side sets side s (0: the left half, 1: the right one, mirrored into
// the left) to the half with a queen in each row of e: the views of the
// tables, or its two quarter lists counted by column set (filled by
// [Worker.window]). It returns false if stop was set.
func (w *Worker) side(s int, e uint32, stop *atomic.Bool) bool {
	l := w.l
	low := uint32(1)<<l.TR - 1
	if w.t != nil {
		w.tlist[2*s], w.tlist[2*s+1] = w.t.rowsOf(&w.t.top, e&low), w.t.rowsOf(&w.t.bot, e>>l.TR)
		return true
	}
	return l.count(&w.q[2*s], 0, l.TR, e&low, stop) && l.count(&w.q[2*s+1], l.TR, l.N-l.TR, e>>l.TR, stop)
}

// sizes returns the placements of side s's quarters by column set (the
// off of its lists, whole), for [Layout.halfFits].
func (w *Worker) sizes(s int) (top, bot rowList) {
	if w.t != nil {
		return w.tlist[2*s], w.tlist[2*s+1]
	}
	return rowList{off: w.q[2*s].full}, rowList{off: w.q[2*s+1].full}
}

// CountUnit counts the keys of unit u: the sum of their solutions times
// their weights, and the pairs of half placements compared. It gives up,
// returning ok = false, once stop is set (it looks between blocks of 512
// pairs' rows). Cost: about pairs/500 vector steps plus the placements of
// the halves, and memory for the longest half part.
func (w *Worker) CountUnit(u int, stop *atomic.Bool) (total, pairs uint64, ok bool) {
	return w.CountKeys(w.l.UnitKeys(u), stop)
}

// CountKeys is CountUnit for any keys of the layout, sorted by rows.
func (w *Worker) CountKeys(keys []Key, stop *atomic.Bool) (total, pairs uint64, ok bool) {
	l := w.l
	w.err = nil
	full := uint32(1)<<l.N - 1
	low := uint32(1)<<l.TR - 1
	for i := 0; i < len(keys); {
		e := keys[i].E
		j := i + 1
		for j < len(keys) && keys[j].E == e {
			j++
		}
		if !w.side(0, e, stop) {
			return 0, 0, false
		}
		k1 := bits.OnesCount32(e & low)
		cells := len(l.subsets[k1])
		// The left half of e once, for every separator placement of its
		// keys, if it is one part and its lists one window.
		ltop, lbot := w.sizes(0)
		shared := l.S > 0 && j-i > 1 && l.halfFits(ltop, lbot, k1, w.part)
		if shared {
			top, bot, end, ok := w.window(0, k1, 0, stop)
			if !ok {
				return 0, 0, false
			}
			if shared = end == cells; shared {
				w.left0 = w.left0[:0]
				w.left = l.half(w.ops, w.left[:0], &w.left0, top, bot, k1, [2]int{0, cells}, 0)
			}
		}
		for _, k := range keys[i:j] {
			sp := &l.seps[k.Sep]
			f := full &^ e &^ sp.rows
			if !w.side(1, f, stop) {
				return 0, 0, false
			}
			k2 := bits.OnesCount32(f & low)
			for c := 0; c < cells; {
				if shared {
					w.xs = w.ops.filter(w.xs[:0], w.left, w.left0, sp.mask)
					c = cells
				} else if w.xs, c, ok = w.halfPart(w.xs[:0], 0, k1, c, sp.mask, stop); !ok {
					return 0, 0, false
				}
				if len(w.xs) == 0 {
					continue
				}
				// The right half, mirrored into the left: its rows, the
				// mirrored separator, and the pattern reversed (the mirror
				// maps the crossing diagonals of one half onto the other's
				// in reverse order).
				for d := 0; d < len(l.subsets[k2]); {
					if w.ys, d, ok = w.halfPart(w.ys[:0], 1, k2, d, l.seps[sp.mirror].mask, stop); !ok {
						return 0, 0, false
					}
					if len(w.ys) == 0 {
						continue
					}
					w.ops.reverse(w.ys, 64-l.M)
					n, compared, ok := w.mt.countDisjoint(w.ops, w.xs, w.ys, stop)
					if !ok {
						return 0, 0, false
					}
					total += uint64(k.Weight) * n
					pairs += compared
					w.notePeak()
				}
			}
		}
		i = j
	}
	return total, pairs, true
}

// halfPart appends to out the half of side s (see [Worker.side]) on the
// cells from c on (see [Layout.half]) until it holds w.part patterns or
// more, and returns the first cell not joined: the same patterns whatever
// windows the lists are held in. ok is false if stop was set or a window
// passed the limit.
func (w *Worker) halfPart(out []uint64, s, k, c int, sm uint64, stop *atomic.Bool) (_ []uint64, next int, ok bool) {
	cells := len(w.l.subsets[k])
	top, bot := w.sizes(s)
	whole := c == 0 && w.l.halfFits(top, bot, k, w.part)
	for c < cells && len(out) < w.part {
		top, bot, end, ok := w.window(s, k, c, stop)
		if !ok {
			return out, c, false
		}
		if whole && end == cells {
			// Most halves are one part: joined at once (the same patterns
			// in the same order as cell by cell).
			return w.l.half(w.ops, out, nil, top, bot, k, [2]int{0, cells}, sm), cells, true
		}
		for ; c < end && len(out) < w.part; c++ {
			out = w.l.half(w.ops, out, nil, top, bot, k, [2]int{c, c + 1}, sm)
		}
	}
	return out, c, true
}

// halfFits reports whether the pairs of quarter placements that the
// half of top and bot joins, at least its length, are at most limit.
func (l *Layout) halfFits(top, bot rowList, k, limit int) bool {
	full := uint32(1)<<l.CL - 1
	n := 0
	for _, c1 := range l.subsets[k] {
		n += int(top.off[c1+1]-top.off[c1]) * int(bot.off[full^c1+1]-bot.off[full^c1])
		if n > limit {
			return false
		}
	}
	return true
}
