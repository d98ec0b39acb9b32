package kernel

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

// batchCap is the number of nodes a level's buffer holds; a power of two.
const batchCap = 256

// level holds nodes that all have the same number k of rows left, so that
// the scan of their rows takes k steps for each: the search runs level by
// level over batches, with no branch that depends on a node's rows.
type level struct {
	occ, d, a, rem [batchCap]uint64
	// avail and row: the squares of the row each node branches on (none
	// for a dead end) and that row.
	avail, row [batchCap]uint64
	active     [batchCap]uint16 // nodes with children still to put out
	m          int
}

// batchSearch is one unit's search in progress: a buffer per number of
// rows left, the sums so far, and the functions that do the per-batch work.
type batchSearch struct {
	nm1         uint64
	rank        [64]uint64
	lv          [33]*level
	sols, nodes uint64
	checked     uint64
	stop        *atomic.Bool
	stopped     bool
	ops         *batchOps
}

// batchOps is the work done on a whole batch, in Go (goOps) or in vector
// instructions and assembly (vectorOps, batch_amd64.go).
type batchOps struct {
	// choose is chooseBatch followed by firstChildren, or a faster
	// equivalent: for the m nodes of L, with k rows left each, it finds
	// the row to branch on and its squares, puts the child of the lowest
	// square into C (which has room for m+7 more), leaves the other squares
	// in avail, and returns the number of children.
	choose func(L, C *level, m int, nm1 uint64, k int, rank *[64]uint64) uint64
	// last3 is last3Batch or an equivalent.
	last3 func(L *level, m int, nm1 uint64) uint64
	// emit is emitRound or an equivalent.
	emit func(L, C *level, n int, nm1 uint64) int
}

// goOps is the batch search in Go: the fallback where the CPU has no AVX2,
// and the reference the tests hold the vector code to.
var goOps = batchOps{chooseGo, last3Batch, emitRound}

// searches keeps the batch searches, about 400 kB each, for the next
// unit: one per search running at once, never given back, as a unit often
// takes less time than clearing a new one (a sync.Pool loses them at every
// garbage collection).
var searches struct {
	sync.Mutex
	free []*batchSearch
}

func getSearch() *batchSearch {
	searches.Lock()
	defer searches.Unlock()
	if n := len(searches.free); n > 0 {
		s := searches.free[n-1]
		searches.free = searches.free[:n-1]
		return s
	}
	return new(batchSearch)
}

func putSearch(s *batchSearch) {
	searches.Lock()
	searches.free = append(searches.free, s)
	searches.Unlock()
}

// countBatchGo is the batch search (countBatch, batch_amd64.go) with the
// batch work done in Go: node for node count32's search, run level by
// level.
func countBatchGo(b *Board, stop *atomic.Bool) (sols, nodes uint64, ok bool) {
	return countBatchWith(b, stop, &goOps)
}

func countBatchWith(b *Board, stop *atomic.Bool, ops *batchOps) (sols, nodes uint64, ok bool) {
	if bits.OnesCount64(b.Rows) <= 3 {
		return countSmall(b), 0, true
	}
	s := getSearch()
	defer putSearch(s)
	s.nm1, s.rank, s.stop, s.ops = uint64(b.N-1), ranks(b.N), stop, ops
	s.sols, s.nodes, s.checked, s.stopped = 0, 0, 0, false
	k := bits.OnesCount64(b.Rows)
	for i := 3; i <= k; i++ {
		if s.lv[i] == nil {
			s.lv[i] = new(level)
		}
		s.lv[i].m = 0
	}
	// The root branches without the dead-end tests, as count32 does.
	top := s.lv[k]
	occ := b.Cols | ^uint64(0)<<uint(b.N)
	row, avail := firstRow(occ, bits.RotateLeft64(b.Diag, 1-b.N), b.Anti, b.Rows, &s.rank)
	top.occ[0], top.d[0], top.a[0], top.rem[0] = occ, b.Diag, b.Anti, b.Rows
	top.avail[0], top.row[0] = avail, uint64(row)
	s.nodes = uint64(bits.OnesCount64(avail))
	s.spread(k, 1)
	for i := k - 1; i >= 3 && !s.stopped; i-- {
		if s.lv[i].m > 0 {
			s.process(i)
		}
	}
	return s.sols, s.nodes, !s.stopped
}

// process searches the m nodes buffered with k rows left.
func (s *batchSearch) process(k int) {
	L := s.lv[k]
	m := L.m
	L.m = 0
	if s.stopped {
		return
	}
	if s.nodes-s.checked >= stopEvery {
		s.checked = s.nodes
		if s.stop != nil && s.stop.Load() {
			s.stopped = true
			return
		}
	}
	if k == 3 {
		s.sols += s.ops.last3(L, m, s.nm1)
		return
	}
	C := s.lv[k-1]
	if C.m+m+7 > batchCap {
		s.process(k - 1)
	}
	s.nodes += s.ops.choose(L, C, m, s.nm1, k, &s.rank)
	s.spread(k, m)
}

// spread puts the children of the m nodes of level k, whose rows and
// squares are chosen, into level k−1.
func (s *batchSearch) spread(k, m int) {
	L := s.lv[k]
	// Children go out in rounds, one per node with squares left, so that
	// no branch depends on how many a node has.
	C := s.lv[k-1]
	for n := activate(L, m); n > 0; {
		if C.m+n > batchCap {
			s.process(k - 1)
		}
		n = s.ops.emit(L, C, n, s.nm1)
	}
}

// emitRound puts the lowest square of each of the first n active nodes of
// L as a child into C, and returns how many of them have squares left
// (moved to the front of active).
func emitRound(L, C *level, n int, nm1 uint64) int {
	j := C.m
	left := 0
	for t := range n {
		i := L.active[t&(batchCap-1)] & (batchCap - 1)
		avail := L.avail[i]
		bit := avail & -avail
		row := L.row[i] & 63
		jj := j & (batchCap - 1)
		C.occ[jj] = L.occ[i] | bit
		C.d[jj] = L.d[i] | bit<<((nm1-row)&63)
		C.a[jj] = L.a[i] | bit<<row
		C.rem[jj] = L.rem[i] &^ (1 << row)
		j++
		avail &= avail - 1
		L.avail[i] = avail
		L.active[left&(batchCap-1)] = i
		left += int(b2u(avail != 0))
	}
	C.m = j
	return left
}

// chooseGo is the chooser in Go.
func chooseGo(L, C *level, m int, nm1 uint64, _ int, rank *[64]uint64) uint64 {
	children := chooseBatch(L, m, nm1, rank)
	firstChildren(L, C, m, nm1)
	return children
}

// firstChildren puts the child of the lowest square of each of the m nodes
// of L into C.
func firstChildren(L, C *level, m int, nm1 uint64) {
	emitRound(L, C, activate(L, m), nm1)
}

// activate lists the nodes among the first m of L that have squares left
// at the front of L.active, and returns how many there are.
func activate(L *level, m int) int {
	n := 0
	for i := range m {
		L.active[n&(batchCap-1)] = uint16(i)
		n += int(b2u(L.avail[i] != 0))
	}
	return n
}

// chooseBatch finds for each of the m nodes of L its row with the fewest
// free squares, and those squares, or none when a row has no free square
// or a free column no row can take; it returns the number of squares.
func chooseBatch(L *level, m int, nm1 uint64, rank *[64]uint64) (children uint64) {
	for i := range m {
		occ, d, a := L.occ[i], L.d[i], L.a[i]
		key := uint64(noKey)
		var cover uint64
		for x := L.rem[i]; x != 0; x &= x - 1 {
			r := uint64(bits.TrailingZeros64(x))
			f := ^(occ | d>>((nm1-r)&63) | a>>r)
			cover |= f
			key = bmin(key, uint64(bits.OnesCount64(f))<<keyShift|rank[r])
		}
		row := key & (1<<rankShift - 1)
		avail := ^(occ | d>>((nm1-row)&63) | a>>row)
		live := b2u(key >= 1<<keyShift) & b2u(cover == ^occ)
		avail &= -live
		L.avail[i], L.row[i] = avail, row
		children += uint64(bits.OnesCount64(avail))
	}
	return children
}

// last3Batch counts the completions of the m nodes of L, each with three
// rows left.
func last3Batch(L *level, m int, nm1 uint64) (sols uint64) {
	for i := range m {
		occ, d, a, rem := L.occ[i], L.d[i], L.a[i], L.rem[i]
		x := rem & (rem - 1)
		y := x & (x - 1)
		r1 := uint64(bits.TrailingZeros64(rem))
		r2 := uint64(bits.TrailingZeros64(x))
		r3 := uint64(bits.TrailingZeros64(y))
		A := ^(occ | d>>((nm1-r1)&63) | a>>r1)
		B := ^(occ | d>>((nm1-r2)&63) | a>>r2)
		C := ^(occ | d>>((nm1-r3)&63) | a>>r3)
		sols += last3(A, B, C, ^occ, r1, r2, r3)
	}
	return sols
}
