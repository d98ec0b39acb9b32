package join

import "sync/atomic"

// matchOps are the inner loops, in Go or in vector instructions. Each
// implementation is listed once (goOps here, the others beside their
// assembly), and the tests run every one this CPU has against goOps.
type matchOps struct {
	name      string
	join      func(out []uint64, out0 *[]uint64, t0, t1 []uint64, inner, sm uint64, b0, b1 []uint64) []uint64
	filter    func(dst, src, w0 []uint64, sm uint64) []uint64
	reverse   func(xs []uint64, shift int)
	partition func(xs, scratch []uint64, b uint8) (n0 int, or0, or1 uint64)
	compress  func(mt *matcher, dst, src []uint64, j uint64)
	planes    func(pats []uint64, has []blockRow, nbytes int)
	rows      func(has, tab []blockRow, valid *blockRow, k, w int)
	count     func(mt *matcher, ys []uint64, j uint64, g chunks) uint64
}

var goOps = matchOps{"go", joinCellGo, filterGo, reverseGo, partitionGo, compressGo, planesGo, rowsGo, countBlockGo}

// allOps lists the implementations this CPU runs, goOps first.
var allOps = []*matchOps{&goOps}

// ops is the fastest of allOps.
var ops = &goOps

// Worker counts the units of a layout from its tables. Its buffers grow to
// the longest half met and are kept; one Worker per goroutine.
type Worker struct {
	t           *Tables
	ops         *matchOps
	left, left0 []uint64
	xs, ys      []uint64
	mt          matcher
}

// NewWorker returns a worker for the units of t.
func NewWorker(t *Tables) *Worker { return &Worker{t: t, ops: ops} }

// CountUnit counts the keys of unit u: the sum of their solutions times
// their weights, and the pairs of half placements compared. It gives up,
// returning ok = false, once stop is set (it looks between blocks of 512
// pairs' rows). Cost: about pairs/500 vector steps plus the placements of
// the halves, and memory for the longest half.
func (w *Worker) CountUnit(u int, stop *atomic.Bool) (total, pairs uint64, ok bool) {
	return w.CountKeys(w.t.UnitKeys(u), stop)
}

// CountKeys is CountUnit for any keys of the layout, sorted by rows.
func (w *Worker) CountKeys(keys []Key, stop *atomic.Bool) (total, pairs uint64, ok bool) {
	t := w.t
	full := uint32(1)<<t.N - 1
	for i := 0; i < len(keys); {
		e := keys[i].E
		j := i + 1
		for j < len(keys) && keys[j].E == e {
			j++
		}
		// The left half of e once, for every separator placement of its
		// keys.
		shared := t.S > 0 && j-i > 1
		if shared {
			w.left0 = w.left0[:0]
			w.left = t.half(w.ops, w.left[:0], &w.left0, e, 0)
		}
		for _, k := range keys[i:j] {
			sp := &t.seps[k.Sep]
			if shared {
				w.xs = w.ops.filter(w.xs[:0], w.left, w.left0, sp.mask)
			} else {
				w.xs = t.half(w.ops, w.xs[:0], nil, e, sp.mask)
			}
			if len(w.xs) == 0 {
				continue
			}
			// The right half, mirrored into the left: its rows, the
			// mirrored separator, and the pattern reversed (the mirror
			// maps the crossing diagonals of one half onto the other's in
			// reverse order).
			f := full &^ e &^ sp.rows
			w.ys = t.half(w.ops, w.ys[:0], nil, f, t.seps[sp.mirror].mask)
			if len(w.ys) == 0 {
				continue
			}
			w.ops.reverse(w.ys, 64-t.M)
			c, compared, ok := w.mt.countDisjoint(w.ops, w.xs, w.ys, stop)
			if !ok {
				return 0, 0, false
			}
			total += uint64(k.Weight) * c
			pairs += compared
		}
		i = j
	}
	return total, pairs, true
}
