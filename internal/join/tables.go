package join

import (
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Tables are the quarter tables of a layout: every placement of queens on
// the left half's rows [0, TR) and on its rows [TR, N), by rows and
// columns. They are read-only once made and shared by the workers.
type Tables struct {
	*Layout
	top, bot quarter
}

// quarter is the table of the placements of rows [r0, r0+nr) of the left
// half (columns [0, CL)), any number of queens: those with the rows R
// (relative to r0) and the columns C are entries off[i] … off[i+1]−1 for
// i = R<<CL | C. w0 holds what the other quarter and the separator must
// avoid, w1 the half's crossing pattern (see [Layout.contrib]).
type quarter struct {
	r0, nr int
	off    []uint32
	w0, w1 []uint64
}

// ErrStopped is returned when the stop flag ends a build.
var ErrStopped = errors.New("stopped")

// MemoryError reports tables larger than the memory allowed.
type MemoryError struct {
	N           int
	Need, Limit int64
	List        bool // the quarter placements of one column set of a rows set, not the tables
}

func (e *MemoryError) Error() string {
	if e.List {
		return fmt.Sprintf("the join of N = %d needs %s for the quarter placements of one column set of a rows set, more than the %s its worker allows them (a quarter of --memory)",
			e.N, FormatBytes(e.Need), FormatBytes(e.Limit))
	}
	return fmt.Sprintf("the join of N = %d needs %s for its quarter tables, more than the %s available",
		e.N, FormatBytes(e.Need), FormatBytes(e.Limit))
}

// FormatBytes writes a size in kB below a megabyte, MB below a
// gigabyte, else in GB.
func FormatBytes(b int64) string {
	if b < 1e6 {
		return fmt.Sprintf("%.1f kB", float64(b)/1e3)
	}
	if b < 1e9 {
		return fmt.Sprintf("%.1f MB", float64(b)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(b)/1e9)
}

// NewTables builds the quarter tables of l, refusing with a *MemoryError
// when they would take more than limit bytes (no limit if limit ≤ 0).
// It walks each quarter's placements twice (counting, then filling), in
// pieces on every core, and looks at stop every 2^16 placements; for even
// N the bottom quarter is the top one mirrored instead. Cost: about 10 ns
// per placement walked (half of them for even N), 16 bytes each plus
// 4·2^(rows+CL) bytes of index (N = 18: 2·10⁶ placements, 32 MB; ×8 per
// two steps of N).
func NewTables(l *Layout, limit int64, stop *atomic.Bool) (*Tables, error) {
	return newTables(l, limit, stop, true)
}

// newTables is NewTables, which mirrors the top quarter for even N only
// if mirror is set (the tests compare it with the bottom quarter walked).
func newTables(l *Layout, limit int64, stop *atomic.Bool, mirror bool) (*Tables, error) {
	t := &Tables{Layout: l}
	t.top = quarter{r0: 0, nr: l.TR}
	t.bot = quarter{r0: l.TR, nr: l.N - l.TR}
	// Even N (no separator): the mirror in the middle row maps the top
	// quarter onto the bottom one, which is copied rather than walked.
	mirror = mirror && l.S == 0 && 2*l.TR == l.N
	// The larger quarter first (odd N: the bottom one has a row more).
	pieces := l.pieces(&t.top)
	if !mirror {
		pieces = append(l.pieces(&t.bot), pieces...)
	}
	for _, q := range []*quarter{&t.top, &t.bot} {
		q.off = make([]uint32, 1<<(q.nr+l.CL)+1)
	}
	if !inParallel(len(pieces), func(i int) bool { return l.walk(pieces[i], stop, nil) }) {
		return nil, ErrStopped
	}
	if mirror {
		for i, c := range t.top.off[1:] {
			t.bot.off[t.mirrorIndex(uint32(i))+1] = c
		}
	}
	var need int64
	var frees []func()
	for _, q := range []*quarter{&t.top, &t.bot} {
		for i := 1; i < len(q.off); i++ {
			q.off[i] += q.off[i-1]
		}
		need += int64(len(q.off))*4 + int64(q.off[len(q.off)-1])*16
	}
	if limit > 0 && need > limit {
		return nil, &MemoryError{N: l.N, Need: need, Limit: limit}
	}
	nexts := map[*quarter][]uint32{}
	for _, q := range []*quarter{&t.top, &t.bot} {
		n := int(q.off[len(q.off)-1])
		words, free := newWords(2 * n)
		frees = append(frees, free)
		q.w0, q.w1 = words[:n:n], words[n:]
		nexts[q] = slices.Clone(q.off[:len(q.off)-1])
	}
	// Largest first, so that no core is left with a large piece at the end.
	slices.SortStableFunc(pieces, func(a, b *piece) int { return b.size - a.size })
	ok := inParallel(len(pieces), func(i int) bool { return l.walk(pieces[i], stop, nexts[pieces[i].q]) })
	if ok && mirror {
		ok = t.mirrorTop(stop)
	}
	freeAll := func(fs []func()) {
		for _, f := range fs {
			f()
		}
	}
	if !ok {
		freeAll(frees)
		return nil, ErrStopped
	}
	// The words are the tables' alone: they go when the tables do.
	runtime.AddCleanup(t, freeAll, frees)
	return t, nil
}

// A piece of a quarter is the placements whose first pin rows are empty
// or not as the bits of pattern say: pieces of one quarter write disjoint
// entries of its tables (their indexes differ in those rows' bits), so
// that they can be walked at once, on every core. With a goroutine per
// quarter, N = 19's tables took 1.4 times as long on two cores: its
// bottom quarter has a row more than its top, and more placements, so the
// top's core sat idle.
type piece struct {
	q       *quarter
	pin     int
	pattern uint64
	size    int // placements, once counted
}

// pinRows is how many rows of a quarter the pieces pin: 2^pinRows pieces,
// enough to keep 8 cores busy (on 2 cores, 4 or 8 pieces a quarter take
// the same time).
const pinRows = 3

// pieces returns the pieces of q.
func (l *Layout) pieces(q *quarter) []*piece {
	pin := max(0, min(pinRows, q.nr-1)) // the last row is walked in place, never pinned
	out := make([]*piece, 0, 1<<pin)
	for p := range uint64(1) << pin {
		out = append(out, &piece{q: q, pin: pin, pattern: p})
	}
	return out
}

// inParallel runs f(0) … f(n−1) on every core, in order of i as cores
// come free, and reports whether every call returned true.
func inParallel(n int, f func(i int) bool) bool {
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				if !f(int(i)) {
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return !failed.Load()
}

// mirrorIndex returns the bottom quarter's index of the mirror image of
// the top quarter's placements of index i (even N): the mirror in the
// middle row takes row r to N−1−r, so the rows' bits reverse and the
// columns stay.
func (t *Tables) mirrorIndex(i uint32) uint32 {
	cl, nr := uint(t.CL), t.top.nr
	return bits.Reverse32(i>>cl)>>(32-nr)<<cl | i&(1<<cl-1)
}

// mirrorTop fills the bottom quarter with the top one's placements
// mirrored in the middle row (even N, where TR = CL = N/2 and no
// separator): a queen at (r, c) goes to (N−1−r, c), whose diagonal c−r′
// is the queen's anti-diagonal c+r less N−1 and whose anti-diagonal is its
// diagonal plus N−1. In the words of [Layout.contrib] the two fields of
// CL−1 bits of w0 and of 2CL−1 bits of w1 change places. A pass over
// memory instead of a walk: N = 18's tables in 13 ms instead of 18 on
// two cores. It returns false if stop was set.
func (t *Tables) mirrorTop(stop *atomic.Bool) bool {
	top, bot := &t.top, &t.bot
	f0, f1 := uint(t.CL-1), uint(2*t.CL-1)
	const chunks = 64
	n := len(top.off) - 1
	return inParallel(chunks, func(k int) bool {
		if stop != nil && stop.Load() {
			return false
		}
		for i := k * n / chunks; i < (k+1)*n/chunks; i++ {
			lo, hi := top.off[i], top.off[i+1]
			j := bot.off[t.mirrorIndex(uint32(i))]
			for x := lo; x < hi; x++ {
				w0, w1 := top.w0[x], top.w1[x]
				bot.w0[j] = w0>>f0 | (w0&(1<<f0-1))<<f0
				bot.w1[j] = w1>>f1 | (w1&(1<<f1-1))<<f1
				j++
			}
		}
		return true
	})
}

// Bytes returns the memory the tables hold.
func (t *Tables) Bytes() int64 {
	q := func(q *quarter) int64 { return int64(len(q.off))*4 + int64(len(q.w0))*16 }
	return q(&t.top) + q(&t.bot)
}

// contrib returns what a queen at (r, c) of the left half adds to the
// words of a quarter placement:
//
//   - w0: bits 0 … CL−2 the diagonals c − r = v for v in [1−TR, CL−1−TR]
//     and bits CL−1 … 2CL−3 the anti-diagonals c + r = w for w in [TR,
//     CL+TR−2] (those the two quarters of a half share); then, from bit
//     2CL−2, N bits per separator column: the rows where the queen attacks
//     it along a diagonal;
//   - w1: the pattern, bits 0 … 2CL−2 the diagonals v in [1−CL, CL−1] and
//     bits 2CL−1 … 4CL−3 the anti-diagonals w in [CL+S, CL+N−2] (those that
//     also cross the other half).
func (l *Layout) contrib(r, c int) (w0, w1 uint64) {
	n, cl, tr, s := l.N, l.CL, l.TR, l.S
	if v := c - r; v >= 1-tr && v <= cl-1-tr {
		w0 |= 1 << uint(v-(1-tr))
	}
	if w := c + r; w >= tr && w <= cl+tr-2 {
		w0 |= 1 << uint(cl-1+w-tr)
	}
	for j := range s {
		dist := cl + j - c
		for _, rr := range [2]int{r - dist, r + dist} {
			if rr >= 0 && rr < n {
				w0 |= 1 << uint(2*cl-2+j*n+rr)
			}
		}
	}
	if v := c - r; v >= 1-cl && v <= cl-1 {
		w1 |= 1 << uint(v+cl-1)
	}
	if w := c + r; w >= cl+s && w <= cl+n-2 {
		w1 |= 1 << uint(2*cl-1+w-cl-s)
	}
	return w0, w1
}

// walker enumerates the placements of one piece of a quarter, row by row:
// each row empty or with a queen on a free column (the first pin rows only
// as the piece's pattern says). dm and am are the columns of the current
// row that the queens above attack along the two diagonals (they move one
// column per row).
type walker struct {
	r1, cl       int
	full         uint64
	cw0, cw1     [32][32]uint64 // what a queen at (row, column) adds to w0, w1
	pin          int
	pattern      uint64
	stop         *atomic.Bool
	budget, size int // placements until stop is looked at again; placements met
	stopped      bool
	q            *quarter
	next         []uint32 // nil while counting; then where each index's next placement goes
}

// put counts a placement (next is nil) or writes it to the table. A
// method rather than a function value: it is inlined, and a call per
// placement took a tenth of the walk.
func (k *walker) put(idx uint32, w0, w1 uint64) {
	if k.next == nil {
		k.q.off[idx+1]++
		return
	}
	i := k.next[idx]
	k.next[idx]++
	k.q.w0[i], k.q.w1[i] = w0, w1
}

func (k *walker) walk(r, row int, rows, cols, dm, am, w0, w1 uint64) {
	if r == k.r1 {
		// Only for a quarter of no rows: the last row ends below.
		k.put(uint32(rows<<uint(k.cl)|cols), w0, w1)
		return
	}
	if k.stopped {
		return
	}
	free := k.full &^ (cols | dm | am)
	if r == k.r1-1 {
		// The last row in place: most placements end here, and a call
		// per placement took a third of the walk.
		k.size += 1 + bits.OnesCount64(free)
		k.budget -= 1 + bits.OnesCount64(free)
		if k.budget <= 0 {
			k.budget = 1 << 16
			k.stopped = k.stop != nil && k.stop.Load()
		}
		k.put(uint32(rows<<uint(k.cl)|cols), w0, w1)
		rows |= 1 << row
		for ; free != 0; free &= free - 1 {
			b := free & -free
			c := bits.TrailingZeros64(b)
			k.put(uint32(rows<<uint(k.cl)|cols|b), w0|k.cw0[r][c], w1|k.cw1[r][c])
		}
		return
	}
	// A pinned row is empty, or has a queen, as the pattern says.
	pinned, queen := row < k.pin, k.pattern>>row&1 != 0
	if !pinned || !queen {
		k.walk(r+1, row+1, rows, cols, dm<<1, am>>1, w0, w1)
	}
	if pinned && !queen {
		return
	}
	for ; free != 0; free &= free - 1 {
		b := free & -free
		c := bits.TrailingZeros64(b)
		k.walk(r+1, row+1, rows|1<<row, cols|b, (dm|b)<<1, (am|b)>>1, w0|k.cw0[r][c], w1|k.cw1[r][c])
	}
}

// walk enumerates the placements of p, each with its index (rows relative
// to the quarter's first, then columns) and words: with next nil it counts
// them in the quarter's off[index+1] and their number in p.size, else it
// writes them to its w0 and w1 at next[index] and moves that on. It
// returns false if stop was set.
func (l *Layout) walk(p *piece, stop *atomic.Bool, next []uint32) bool {
	if stop != nil && stop.Load() {
		return false
	}
	q := p.q
	k := &walker{r1: q.r0 + q.nr, cl: l.CL, full: 1<<l.CL - 1, pin: p.pin, pattern: p.pattern, stop: stop, budget: 1 << 16, q: q, next: next}
	for r := q.r0; r < q.r0+q.nr; r++ {
		copy(k.cw0[r][:], l.cw0[r][:])
		copy(k.cw1[r][:], l.cw1[r][:])
	}
	k.walk(q.r0, 0, 0, 0, 0, 0, 0, 0)
	if next == nil {
		p.size = k.size
	}
	return !k.stopped
}
