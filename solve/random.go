package solve

import (
	"context"
	"math/bits"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/faults"
	"github.com/nqueens/nqueens/internal/repair"
)

// RandomOptions tunes [Random].
type RandomOptions struct {
	// Seed selects the solution: the same (n, Seed) gives the same board on
	// every machine, different seeds almost always give different boards.
	Seed uint64
	// Progress, if set, is called with 0 rows once the set-up (a shuffle
	// of the columns, seconds for 10^8) is over, then about every 1% of the
	// work with the rows placed so far and n; it runs on the caller's
	// goroutine.
	Progress func(done, total int)
}

// RandomMemory is the memory in bytes that [Random] holds for an n×n
// board: the placement it returns, 4 bytes a queen, and one bit for each
// of the 4n diagonals. The shuffle's counts and the repair's list of
// attacked rows add a few megabytes at most.
func RandomMemory(n int) int64 { return 4*int64(n) + 2*8*((2*int64(n)-1+63)/64) }

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
// *[NoSolutionError]. Cancelling ctx stops it with ctx.Err() within
// about 2^16 rows of work, set-up included.
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
			return s.Cols, nil
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
	// windowDraws is how many draws a row makes from the window before it
	// draws from all the remaining columns, and drawsPerColumn how many
	// more, for each remaining column, before the greedy phase gives up
	// and leaves the rest to the repair.
	windowDraws    = 4 * window
	drawsPerColumn = 8
	// minCheckRows is the rows placed between two looks at the context,
	// and the fewest between two progress reports (otherwise every 1% of
	// the rows).
	minCheckRows = 1 << 16
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
// new random numbers from the same stream, until it succeeds. The board,
// its diagonals and the random stream are the repair's.
type search struct {
	*repair.Board
	progress func(done, total int)
	touched  uint64 // sum of preloaded words, so that the loads stay
}

func newSearch(n int, opts RandomOptions) *search {
	return &search{Board: repair.NewBoard(n, opts.Seed), progress: opts.Progress}
}

// attempt builds one board and repairs it; false means it got stuck and
// should be called again.
func (s *search) attempt(ctx context.Context) (bool, error) {
	n, p := s.N, s.Cols
	if err := s.shuffle(ctx); err != nil {
		return false, err
	}
	if s.progress != nil {
		s.progress(0, n) // the set-up is over
	}
	s.Diag.Reset()
	s.Anti.Reset()
	diag, anti := s.Diag.Bits, s.Anti.Bits
	greedyEnd := n - min(tailRows, n/4)
	step := max(greedyEnd/100, minCheckRows)
	next, nextCheck := step, minCheckRows
	report := 0
	// Preload the diagonal bits of the first window's columns, as the loop
	// does for each column that enters the window later.
	s.preload(0, window)
	// Greedy phase: row i takes the column p[j] of a random j in the window
	// [i, i+window) once the square (i, p[j]) has both diagonals free. A
	// column that waits long enough, or a nearly full board, may find no
	// free square in the window: then the row draws from all remaining
	// columns, and if that fails too the greedy phase ends early.
	for i := 0; i < greedyEnd; i++ {
		if i == nextCheck {
			nextCheck += minCheckRows
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		if i == next {
			next += step
			// A test may hold the search at a report (fault injection).
			if err := faults.WaitUnit(ctx, n, report); err != nil {
				return false, err
			}
			report++
			if s.progress != nil {
				s.progress(i, n)
			}
		}
		if i%preloadRows == 0 {
			s.preload(i+window, i+window+preloadRows)
		}
		w := uint64(min(window, n-i))
		for tries := 0; ; tries++ {
			if tries == windowDraws {
				w = uint64(n - i)
			}
			if tries == windowDraws+drawsPerColumn*(n-i) {
				greedyEnd = i
				break
			}
			j := i + int(s.RNG.Below(w))
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
	suspects := make([]int, 0, 4*(n-greedyEnd))
	for i := greedyEnd; i < n; i++ {
		collisions += s.Put(i)
		suspects = append(suspects, i)
	}
	if s.progress != nil {
		s.progress(greedyEnd, n)
	}
	// Only the tail rows can be attacked: the greedy rows attack no other
	// greedy row.
	ok, err := s.Repair(ctx, suspects, collisions)
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
	n, p := s.N, s.Cols
	to = min(to, n)
	last := 2*n - 2
	sum := uint64(0)
	for k := from; k < to; k++ {
		c := int(p[k])
		r := max(k-window, 0)
		d := r - c + n - 1
		a := r + c
		sum += s.Diag.Bits[d>>6] + s.Diag.Bits[min(d+window, last)>>6] +
			s.Anti.Bits[a>>6] + s.Anti.Bits[min(a+window, last)>>6]
	}
	s.touched += sum
}

// shuffle fills p with a uniformly random permutation. Fisher-Yates on a
// large array misses the cache at every step, so large boards are shuffled
// in two passes instead (Rao and Sandelius): each column goes to a random
// block, written block by block in order, then each block, which fits the
// cache, is shuffled on its own. Cost O(n); ctx is looked at every block's
// worth of columns in each pass, as 10^8 columns take about a second.
func (s *search) shuffle(ctx context.Context) error {
	n, p := s.N, s.Cols
	logK := bits.Len(uint(n / shuffleBlock))
	if logK < 2 {
		for i := range p {
			p[i] = int32(i)
		}
		s.RNG.Shuffle(p)
		return nil
	}
	k := 1 << logK
	pos := make([]int, k+1)
	start := s.RNG
	for from := 0; from < n; from += shuffleBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		for range min(shuffleBlock, n-from) {
			pos[s.RNG.Next()>>(64-logK)+1]++
		}
	}
	for b := range k {
		pos[b+1] += pos[b]
	}
	ends := append([]int(nil), pos[1:]...)
	// The scatter below writes all over p from its first columns, so the
	// system would map every page of p in one go, which takes seconds for
	// 10^8 columns and more: map them first, looking at ctx in between.
	const page = 1024 // int32s in a 4 KB page
	for from := 0; from < n; from += shuffleBlock * 4 {
		if err := ctx.Err(); err != nil {
			return err
		}
		for i := from; i < min(from+shuffleBlock*4, n); i += page {
			p[i] = 0
		}
	}
	s.RNG = start // the same draws again, now placing each column
	for from := 0; from < n; from += shuffleBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		for c := from; c < min(from+shuffleBlock, n); c++ {
			b := s.RNG.Next() >> (64 - logK)
			p[pos[b]] = int32(c)
			pos[b]++
		}
	}
	from := 0
	for _, to := range ends {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.RNG.Shuffle(p[from:to])
		from = to
	}
	return nil
}
