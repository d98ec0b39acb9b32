package solve

import (
	"context"
	"math/bits"
	"unsafe"

	"github.com/nqueens/nqueens/board"
)

// RandomOptions tunes [Random].
type RandomOptions struct {
	// Seed selects the solution: the same (n, Seed) gives the same board on
	// every machine, different seeds almost always give different boards.
	Seed uint64
	// Progress, if set, is called about every 1% of the work with the rows
	// placed so far and n; it runs on the caller's goroutine.
	Progress func(done, total int)
}

// Random returns a solution of the n×n board found by local search in the
// manner of Sosic and Gu's QS4. The columns are shuffled into a random
// permutation; row by row, each row then takes a column from a short window
// of the remaining ones whose two diagonals are still free, except the last
// few rows, which take what remains; finally the few queens that attack one
// another are repaired by random swaps that lower the number of collisions,
// priced in O(1) by the diagonal occupancy.
//
// Expected cost O(n) time. Memory is the 4-byte-a-queen placement it returns
// plus one bit for each of the 4n diagonals, under 5 bytes a queen, so
// 10^8 queens take about 450 MB. Random does not verify its result (a
// caller that prints it should, with [board.Verify]). n = 2 and 3 give
// *[NoSolutionError]. Cancelling ctx stops it with ctx.Err().
func Random(ctx context.Context, n int, opts RandomOptions) (board.Placement, error) {
	if err := board.CheckSize(n, "solve", board.MaxN); err != nil {
		return nil, err
	}
	switch {
	case n == 2 || n == 3:
		return nil, &NoSolutionError{N: n}
	case n == 1:
		return board.Placement{0}, nil
	}
	s := newSearch(n, opts)
	for {
		ok, err := s.attempt(ctx)
		if err != nil {
			return nil, err
		}
		if ok {
			return s.p, nil
		}
	}
}

const (
	// window is how many of the remaining columns a row draws from. The
	// columns are in random order, so the window is a random sample; being
	// contiguous, it stays in cache, and so do the diagonal bits of every
	// column in it, which are loaded once when the column enters.
	window = 128
	// tailRows is how many final rows take the remaining columns without
	// looking at diagonals: finding them free columns would cost many draws,
	// while repairing their few collisions costs little.
	tailRows = 64
	// stuckDraws is how many swaps in a row may fail to lower the collisions
	// before the search starts over from a new random board. For large n an
	// improving swap comes about once in 20 draws, so only a true local
	// minimum (common for n < 20) gets there; a row of a small board has only
	// n-1 swaps to try, so there 32n draws are enough.
	stuckDraws = 4096
	// shuffleBlock is the size of the blocks the shuffle works in: 256 K
	// columns, 1 MB, about an L2 cache; fewer, larger blocks also mean fewer
	// write streams in the first pass (measured: 0.6 s for 10^8 columns
	// against 1.7 s with 64 K blocks).
	shuffleBlock = 1 << 18
	// preloadRows is how many columns entering the window are preloaded at
	// once.
	preloadRows = 32
)

// search is one run of the local search; attempt may be repeated, drawing
// new random numbers from the same stream, until it succeeds.
type search struct {
	n          int
	p          board.Placement
	diag, anti occupancy // ↘ diagonals indexed row-col+n-1, ↙ ones row+col
	rng        rng
	progress   func(done, total int)
	touched    uint64 // sum of preloaded words, so that the loads stay
}

func newSearch(n int, opts RandomOptions) *search {
	s := &search{
		n:        n,
		p:        make(board.Placement, n),
		diag:     newOccupancy(2*n - 1),
		anti:     newOccupancy(2*n - 1),
		rng:      newRNG(opts.Seed),
		progress: opts.Progress,
	}
	adviseHuge(unsafe.Pointer(unsafe.SliceData(s.p)), uintptr(n)*4)
	return s
}

// attempt builds one board and repairs it; false means it got stuck and
// should be called again.
func (s *search) attempt(ctx context.Context) (bool, error) {
	n, p := s.n, s.p
	if err := s.shuffle(ctx); err != nil {
		return false, err
	}
	s.diag.reset()
	s.anti.reset()
	diag, anti := s.diag.bits, s.anti.bits
	greedyEnd := n - min(tailRows, n/4)
	step := max(greedyEnd/100, 1<<16)
	next := step
	// Preload the diagonal bits of the first window's columns, as the loop
	// does for each column that enters the window later.
	s.preload(0, window)
	// Greedy phase: row i takes the column p[j] of a random j in the window
	// [i, i+window) once the square (i, p[j]) has both diagonals free. A
	// column that waits long enough, or a nearly full board, may find no
	// free square in the window: then the row draws from all remaining
	// columns, and if that fails too the greedy phase ends early.
	for i := 0; i < greedyEnd; i++ {
		if i == next {
			next += step
			if err := ctx.Err(); err != nil {
				return false, err
			}
			if s.progress != nil {
				s.progress(i, n)
			}
		}
		if i%preloadRows == 0 {
			s.preload(i+window, i+window+preloadRows)
		}
		w := uint64(min(window, n-i))
		for tries := 0; ; tries++ {
			if tries == 4*window {
				w = uint64(n - i)
			}
			if tries == 4*window+8*(n-i) {
				greedyEnd = i
				break
			}
			j := i + int(s.rng.below(w))
			c := int(p[j])
			d, a := i-c+n-1, i+c
			if diag[d>>6]&(1<<(d&63)) == 0 && anti[a>>6]&(1<<(a&63)) == 0 {
				p[i], p[j] = p[j], p[i]
				diag[d>>6] |= 1 << (d & 63)
				anti[a>>6] |= 1 << (a & 63)
				break
			}
		}
	}
	// The tail rows keep the columns the shuffle left there.
	collisions := 0
	for i := greedyEnd; i < n; i++ {
		c := int(p[i])
		if s.diag.add(i - c + n - 1) {
			collisions++
		}
		if s.anti.add(i + c) {
			collisions++
		}
	}
	if s.progress != nil {
		s.progress(greedyEnd, n)
	}
	ok, err := s.repair(ctx, greedyEnd, collisions)
	if ok && s.progress != nil {
		s.progress(n, n)
	}
	return ok, err
}

// preload loads the words holding the diagonal bits that the columns at
// positions [from, to) of p will be tested against when they are in the
// window, about rows [k-window, k) for position k, so that each column's cache
// misses happen once, early, and overlap with those of its neighbours: the
// loop is kept tight so that many loads are in flight at once.
func (s *search) preload(from, to int) {
	n, p := s.n, s.p
	to = min(to, n)
	last := 2*n - 2
	sum := uint64(0)
	for k := from; k < to; k++ {
		c := int(p[k])
		r := max(k-window, 0)
		d := r - c + n - 1
		a := r + c
		sum += s.diag.bits[d>>6] + s.diag.bits[min(d+window, last)>>6] +
			s.anti.bits[a>>6] + s.anti.bits[min(a+window, last)>>6]
	}
	s.touched += sum
}

// repair swaps attacked queens with random others while that lowers the
// collision count (queens beyond the first on a diagonal). Only rows in
// suspects can be attacked: the greedy rows attack no other greedy row, and
// every row whose queen moves joins the list.
func (s *search) repair(ctx context.Context, greedyEnd, collisions int) (bool, error) {
	n := s.n
	suspects := make([]int, 0, 4*(n-greedyEnd))
	for i := greedyEnd; i < n; i++ {
		suspects = append(suspects, i)
	}
	failed := 0
	for collisions > 0 {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		progressed := false
		for _, i := range suspects {
			if !s.attacked(i) {
				continue
			}
			for {
				j := int(s.rng.below(uint64(n)))
				if j != i {
					if d := s.swap(i, j); d < 0 {
						collisions += d
						suspects = append(suspects, j)
						progressed = true
						failed = 0
						break
					}
					s.swap(i, j) // undo
				}
				failed++
				if failed == min(stuckDraws, 32*n) {
					return false, nil
				}
			}
			if collisions == 0 {
				break
			}
		}
		if !progressed {
			// Unreachable while the invariant holds; a restart keeps Random
			// correct even so.
			return false, nil
		}
		// Drop rows that are no longer attacked, so the list stays short.
		k := 0
		for _, i := range suspects {
			if s.attacked(i) {
				suspects[k] = i
				k++
			}
		}
		suspects = suspects[:k]
	}
	return true, nil
}

func (s *search) attacked(i int) bool {
	c := int(s.p[i])
	return s.diag.crowded(i-c+s.n-1) || s.anti.crowded(i+c)
}

// swap exchanges the columns of rows i and j and returns the change in the
// number of collisions. Moving the queens one at a time keeps the sum right
// even when the two share a diagonal.
func (s *search) swap(i, j int) int {
	n, p := s.n, s.p
	ci, cj := int(p[i]), int(p[j])
	d := 0
	for _, c := range [...]bool{
		s.diag.remove(i - ci + n - 1), s.diag.remove(j - cj + n - 1),
		s.anti.remove(i + ci), s.anti.remove(j + cj),
	} {
		if c {
			d--
		}
	}
	for _, c := range [...]bool{
		s.diag.add(i - cj + n - 1), s.diag.add(j - ci + n - 1),
		s.anti.add(i + cj), s.anti.add(j + ci),
	} {
		if c {
			d++
		}
	}
	p[i], p[j] = int32(cj), int32(ci)
	return d
}

// shuffle fills p with a uniformly random permutation. Fisher-Yates on a
// large array misses the cache at every step, so large boards are shuffled
// in two passes instead (Rao and Sandelius): each column goes to a random
// block, written block by block in order, then each block, which fits the
// cache, is shuffled on its own. Cost O(n); ctx is looked at between
// blocks, as 10^8 columns take about a second.
func (s *search) shuffle(ctx context.Context) error {
	n, p := s.n, s.p
	logK := bits.Len(uint(n / shuffleBlock))
	if logK < 2 {
		for i := range p {
			p[i] = int32(i)
		}
		s.rng.shuffle(p)
		return nil
	}
	k := 1 << logK
	pos := make([]int, k+1)
	start := s.rng
	for range n {
		pos[s.rng.next()>>(64-logK)+1]++
	}
	for b := range k {
		pos[b+1] += pos[b]
	}
	ends := append([]int(nil), pos[1:]...)
	s.rng = start // the same draws again, now placing each column
	for c := range n {
		b := s.rng.next() >> (64 - logK)
		p[pos[b]] = int32(c)
		pos[b]++
	}
	from := 0
	for _, to := range ends {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.rng.shuffle(p[from:to])
		from = to
	}
	return nil
}

// occupancy counts the queens on each diagonal of one direction: a bit
// says whether there is any, and the excess over one is kept apart. Only the
// tail rows and the repair make diagonals with more than one queen, a few
// dozen on a large board, so there the excess lives in a map, and the bits,
// 50 MB for 10^8 queens, mostly stay in cache. Small boards, where the
// repair does most of the work, count the excess in an array instead.
type occupancy struct {
	bits  []uint64
	dense []uint16    // excess per diagonal, when n ≤ denseLimit
	extra map[int]int // excess per diagonal, otherwise
}

// denseLimit is the largest n whose excess counts are kept in an array: a
// count never exceeds n, so uint16 holds it.
const denseLimit = 1<<16 - 1

func newOccupancy(size int) occupancy {
	o := occupancy{bits: make([]uint64, (size+63)/64)}
	if size <= 2*denseLimit {
		o.dense = make([]uint16, size)
	} else {
		o.extra = map[int]int{}
	}
	adviseHuge(unsafe.Pointer(unsafe.SliceData(o.bits)), uintptr(len(o.bits))*8)
	return o
}

func (o *occupancy) reset() {
	clear(o.bits)
	clear(o.dense)
	clear(o.extra)
}

func (o *occupancy) excess(d int) int {
	if o.dense != nil {
		return int(o.dense[d])
	}
	return o.extra[d]
}

// crowded reports whether diagonal d holds more than one queen.
func (o *occupancy) crowded(d int) bool { return o.excess(d) > 0 }

// add puts a queen on diagonal d and reports whether it collides there.
func (o *occupancy) add(d int) bool {
	w, b := d>>6, uint64(1)<<(d&63)
	switch {
	case o.bits[w]&b == 0:
		o.bits[w] |= b
		return false
	case o.dense != nil:
		o.dense[d]++
	default:
		o.extra[d]++
	}
	return true
}

// remove takes a queen off diagonal d and reports whether it was colliding.
func (o *occupancy) remove(d int) bool {
	switch k := o.excess(d); {
	case k == 0:
		o.bits[d>>6] &^= 1 << (d & 63)
		return false
	case o.dense != nil:
		o.dense[d]--
	case k == 1:
		delete(o.extra, d)
	default:
		o.extra[d] = k - 1
	}
	return true
}

// rng is wyrand (Wang Yi's generator): one 64-bit multiply a draw, good
// enough statistics for a shuffle, and the same stream on every machine.
type rng struct{ state uint64 }

func newRNG(seed uint64) rng {
	r := rng{seed ^ 0x9e3779b97f4a7c15}
	r.next() // mix the seed so that nearby seeds start far apart
	return r
}

func (r *rng) next() uint64 {
	r.state += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(r.state, r.state^0xe7037ed1a0b428db)
	return hi ^ lo
}

// below returns a number in [0, m) by Lemire's multiply-shift; the bias,
// under m/2^64, is far below anything a solution could show.
func (r *rng) below(m uint64) uint64 {
	hi, _ := bits.Mul64(r.next(), m)
	return hi
}

// shuffle is Fisher-Yates.
func (r *rng) shuffle(p []int32) {
	for i := len(p) - 1; i > 0; i-- {
		j := r.below(uint64(i + 1))
		p[i], p[j] = p[j], p[i]
	}
}
