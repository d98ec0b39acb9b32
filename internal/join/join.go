package join

import "math/bits"

// matchOps are the matcher's inner loops, in Go or in vector instructions.
type matchOps struct {
	name       string
	compress   func(mt *matcher, dst, src []uint64, j uint64)
	offsets    func(mt *matcher, dst []uint32, ys []uint64, j uint64, g chunks)
	planes     func(pats []uint64, has []blockRow, nbytes int)
	rows       func(has, tab []blockRow, valid *blockRow, k, w int)
	countBlock func(tab []blockRow, offs []uint32, k int) uint64
}

var goOps = matchOps{"go", compressGo, offsetsGo, planesGo, rowsGo, countBlockGo}

// ops is what this machine runs.
var ops = goOps

// Worker counts keys of a plan. Its buffers grow to the longest half met
// and are kept; one Worker per goroutine.
type Worker struct {
	p      *Plan
	xs, ys []uint64
	mt     matcher
}

// NewWorker returns a worker for the keys of p.
func NewWorker(p *Plan) *Worker { return &Worker{p: p} }

// Count returns the number of solutions of the key k's board (not weighted)
// and the pairs of half placements it compared. Cost about pairs/500
// vector steps plus the placements of both halves.
func (w *Worker) Count(k Key) (solutions, pairs uint64) {
	p := w.p
	sp := p.seps[k.Sep]
	w.xs = p.half(w.xs[:0], k.E, sp.mask)
	if len(w.xs) == 0 {
		return 0, 0
	}
	// The right half, mirrored into the left: its rows, the mirrored
	// separator, and the pattern reversed (a mirror maps the crossing
	// diagonals of one half onto the other's in reverse order).
	f := (uint32(1)<<p.N - 1) &^ k.E &^ sp.rows
	mirror := p.seps[p.sepIndex(p.flipCols(sp.code))]
	w.ys = p.half(w.ys[:0], f, mirror.mask)
	shift := 64 - p.M
	for i, y := range w.ys {
		w.ys[i] = bits.Reverse64(y) >> shift
	}
	pairs = uint64(len(w.xs)) * uint64(len(w.ys))
	return w.mt.countDisjoint(w.xs, w.ys), pairs
}
