package solve

import (
	"math/bits"
	"sync/atomic"
)

// worker searches the parts of a listing one after another.
type worker struct {
	l     *listing
	fin   *finisher // nil past maxFinishN: walked to the end
	ban   [64]uint64
	cols  []uint8 // the board being built, 0-based columns
	inv   []uint8
	lines *lineMaker
	c     *chunk
	p     *part
	done  bool // the listing stopped
	// same is how many first rows of w.cols are as they were at the last
	// emit within this finisher call (0 if not known).
	same int
}

func newWorker(l *listing) *worker {
	w := &worker{l: l, cols: make([]uint8, l.n), inv: make([]uint8, l.n)}
	if l.n <= finishUpTo {
		w.fin = newFinisher(l.n)
	}
	if l.kind == kindLines {
		w.lines = newLineMaker(l.table)
	}
	return w
}

// part lists the solutions under prefix i into p's queue, closing it at
// the end.
func (w *worker) part(i int, p *part) {
	l := w.l
	prefix := l.prefixes[i]
	defer close(p.chunks)
	w.p, w.c = p, w.l.newChunk(firstChunk)
	copy(w.cols, prefix)
	if l.unique {
		borderBans(&w.ban, l.n, int(prefix[0]))
		if w.fin != nil {
			w.fin.ban = w.ban
		}
	}
	depth := len(prefix)
	switch {
	case w.fin == nil:
		w.same = 0
		walk(l.n, w.cols, &w.ban, depth, l.n, &l.stop, w.emit)
	case l.mirror != nil:
		w.finishMirrored(i)
	case depth >= l.sub:
		w.finish(depth)
	default:
		walk(l.n, w.cols, &w.ban, depth, l.sub, &l.stop, func() bool { return w.finish(l.sub) })
	}
	if !w.done && w.c.count > 0 {
		w.send()
	}
	if !w.done {
		l.recycle(w.c)
	}
	w.c = nil
}

// finish lists the completions of w.cols[:from] in order, as the finisher
// finds and sorts them.
func (w *worker) finish(from int) bool {
	n := w.l.n
	occ := ^uint64(0) << uint(n)
	var diag, anti uint64
	for r, c := range w.cols[:from] {
		bit := uint64(1) << c
		occ |= bit
		diag |= bits.RotateLeft64(bit, -r)
		anti |= bits.RotateLeft64(bit, r)
	}
	rem := (uint64(1)<<uint(n) - 1) &^ (uint64(1)<<uint(from) - 1)
	w.fin.finish(occ, diag, anti, rem)
	return w.emitKeys(w.fin.keys, 0, from)
}

// emitKeys emits the completions of w.cols[:from] whose keys, in order,
// are keys[i] or, with base > 0, base−keys[i] for i from last to first
// (the mirror images of the kept keys of a part, see mirror.go).
// Consecutive keys share their first rows, which are neither decoded nor
// made into text again.
func (w *worker) emitKeys(keys []uint64, base uint64, from int) bool {
	f := w.fin
	prev := uint64(0)
	for i := range keys {
		key := keys[i]
		if base > 0 {
			key = base - keys[len(keys)-1-i]
		}
		// The first key's rows before from may differ from the last
		// line's (another prefix); later keys share them and more.
		d, same := from, 0
		if i > 0 {
			d = from + f.sameRows(key, prev, from)
			same = d
		}
		if w.l.unique {
			same = 0 // the last key may not have been emitted (not canonical)
		}
		prev = key
		f.decode(key, w.cols, d)
		w.same = same
		if !w.emit() {
			return false
		}
	}
	return !w.done
}

// emit adds the solution in w.cols to the chunk being filled, and sends the
// chunk once it is full. It returns false when the listing has stopped.
func (w *worker) emit() bool {
	orbit := 0
	if w.l.unique {
		var ok bool
		if ok, orbit = canonicalOrbit(w.cols, w.inv); !ok {
			return true
		}
	}
	c := w.c
	switch w.l.kind {
	case kindLines:
		c.buf = w.lines.appendLine(c.buf, w.cols, orbit, w.same)
	case kindBoards:
		c.buf = w.l.table.appendBoard(c.buf, w.cols)
		c.ends = append(c.ends, uint32(len(c.buf)))
	default:
		c.buf = append(c.buf, w.cols...)
	}
	if w.l.unique {
		c.orbits = append(c.orbits, uint8(orbit))
	}
	c.count++
	if len(c.buf) >= c.limit {
		w.send()
	}
	return !w.done
}

// send queues the chunk being filled and starts another, larger one.
func (w *worker) send() {
	c := w.c
	next := min(4*c.limit, chunkSize) // c is the consumer's once sent
	select {
	case w.p.chunks <- c:
		w.c = w.l.newChunk(next)
	case <-w.l.done:
		w.done = true
	}
}

func (l *listing) newChunk(limit int) *chunk {
	c := l.pool.Get().(*chunk)
	c.limit = limit
	return c
}

// recycle empties a chunk for another part.
func (l *listing) recycle(c *chunk) {
	c.buf, c.ends, c.orbits, c.count = c.buf[:0], c.ends[:0], c.orbits[:0], 0
	l.pool.Put(c)
}

// walk visits, in lexicographic order, every placement of rows from … to−1
// that extends cols[:from] with no two queens attacking each other and no
// square of ban taken, leaving it in cols[:to]. It returns false, early, when
// visit does or stop (if not nil) is set. Any n ≤ 64: the diagonals are
// masks shifted a row at a time.
func walk(n int, cols []uint8, ban *[64]uint64, from, to int, stop *atomic.Bool, visit func() bool) bool {
	if from >= to {
		return visit()
	}
	full := ^uint64(0) >> uint(64-n)
	var colm, ldm, rdm, avail [65]uint64
	for r, c := range cols[:from] {
		bit := uint64(1) << c
		colm[from] |= bit
		ldm[from] |= bit << uint(from-r)
		rdm[from] |= bit >> uint(from-r)
	}
	row := from
	avail[row] = full &^ (colm[row] | ldm[row] | rdm[row] | ban[row&63])
	nodes := 0
	for row >= from {
		a := avail[row]
		if a == 0 {
			row--
			continue
		}
		if nodes++; nodes%stopEvery == 0 && stop != nil && stop.Load() {
			return false
		}
		bit := a & -a
		avail[row] = a ^ bit
		cols[row] = uint8(bits.TrailingZeros64(bit))
		if row == to-1 {
			if !visit() {
				return false
			}
			continue
		}
		colm[row+1] = colm[row] | bit
		ldm[row+1] = (ldm[row] | bit) << 1
		rdm[row+1] = (rdm[row] | bit) >> 1
		row++
		avail[row] = full &^ (colm[row] | ldm[row] | rdm[row] | ban[row&63])
	}
	return true
}
