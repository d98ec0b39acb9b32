package solve

import (
	"context"
	"math/big"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nqueens/nqueens/internal/reference"
)

// The ordered listing. The search is cut into parts, the prefixes of the
// first rows in lexicographic order (their solutions follow one another in
// the listing, unlike the exact counter's units, which are reduced by
// symmetry). Workers take the parts in order and send what each part finds
// through the part's own queue of chunks; the consumer reads the parts'
// queues in order, so it sees the solutions in order while the workers run
// ahead. Memory stays bounded: a part's queue holds at most partQueue
// chunks (its worker waits when it is full) and at most window parts are
// handed out beyond the one being read.

const (
	// chunkSize is the most a chunk holds before it is sent: large writes,
	// few hand-overs.
	chunkSize = 256 << 10
	// firstChunk is what a part's first chunk holds before it is sent (its
	// first solution), so that a reader (| head, --limit) sees the first
	// solutions at once, even where they are sparse; later chunks grow
	// fourfold up to chunkSize.
	firstChunk = 1
	// partQueue is how many chunks a part may have waiting (3 MB): a
	// worker whose part outgrows its queue waits while the consumer is
	// still on an earlier part. list 16 on two workers took 2.05 s with
	// 4 (1.44 times one worker), 1.84 s with 8, 1.62 s with 12, 1.58 s
	// with 16; memory grows by at most (window+1) parts' queues (list 18:
	// 54 MB with 4, 92 MB with 16; the bound is 100 MB).
	partQueue = 12
	// windowPerWorker times the workers is how many parts may be handed out
	// beyond the one being read.
	windowPerWorker = 4
	// partBytes is about how much text a part should make: parts much
	// larger than a chunk queue would make their workers wait for the
	// consumer.
	partBytes = 128 << 10
	// minParts per worker balances the load at the end of a listing.
	minParts = 64
	// maxParts bounds the list of parts (about 6 bytes each): from N = 19
	// on, parts make more text than their queues hold, and workers ahead
	// of the consumer wait for it more often.
	maxParts = 1 << 16
	// stopEvery is how many prefixes a worker walks between looks at the
	// stop flag.
	stopEvery = 1 << 12
	// progressEvery is the gap between two progress reports.
	progressEvery = 100 * time.Millisecond
)

// chunk is a piece of a part's output.
type chunk struct {
	buf    []byte
	count  int      // solutions in buf
	ends   []uint32 // kindBoards: where each solution's text ends in buf
	orbits []uint8  // with Unique: each solution's class size
	limit  int      // send the chunk once buf holds this much
}

// part is one prefix's slot in the order: its chunks, in order, closed
// when the part is done.
type part struct {
	chunks chan *chunk
}

// listing is one run of the ordered search.
type listing struct {
	n       int
	unique  bool
	kind    chunkKind
	table   *rowTable
	workers int
	limit   uint64
	report  func(ListProgress)

	depth    int       // rows fixed by a part's prefix
	sub      int       // rows walked before the finisher takes the rest
	prefixes [][]uint8 // the parts, in order

	// mirror, when not nil, keeps the completions of the parts of the
	// left half (first column < n/2) for the parts of the right half, their
	// mirror images: part i and part len−1−i (see mirror.go).
	mirror []mirrored
	budget atomic.Int64 // bytes the mirror may still keep

	stop     atomic.Bool
	done     chan struct{}
	stopOnce sync.Once
	mu       sync.Mutex
	next     int // the next part to hand out
	parts    chan *part
	pool     sync.Pool
}

func newListing(n int, opts ListOptions, kind chunkKind, t *rowTable) *listing {
	w := opts.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	// Each worker may hold a few chunks ahead of the consumer; more workers
	// than cores only take memory.
	w = min(w, 4*runtime.GOMAXPROCS(0))
	l := &listing{n: n, unique: opts.Unique, kind: kind, table: t, workers: w, limit: opts.Limit,
		report: opts.Progress, done: make(chan struct{})}
	l.pool.New = func() any { return &chunk{buf: make([]byte, 0, chunkSize+chunkSize/8)} }
	l.sub = n
	if n <= finishUpTo {
		l.sub = max(0, n-finishRows)
	}
	l.depth, l.prefixes = l.split()
	l.parts = make(chan *part, windowPerWorker*w)
	l.keepMirror()
	return l
}

// split chooses the depth of the parts' prefixes and lists them: the
// shallowest depth with enough parts for the workers and small enough
// parts for the queues, at most n−1 rows. With Unique, prefixes that
// cannot start a canonical solution are left out.
func (l *listing) split() (int, [][]uint8) {
	want := minParts * l.workers
	if row, ok, err := reference.Get(l.n); ok && err == nil {
		// The text the listing will make over what a part should make.
		total := row.Total
		if l.unique {
			total = row.Unique
		}
		perSolution := int64(4 * l.n)
		if l.kind == kindBoards {
			perSolution = int64(4*l.n*l.n + 20)
		}
		parts := new(big.Int).Mul(total, big.NewInt(perSolution))
		parts.Quo(parts, big.NewInt(partBytes))
		want = max(want, int(min(parts.Int64(), maxParts)))
	}
	depth := 1
	for depth < l.n-1 && l.countPrefixes(depth, want) < want {
		depth++
	}
	var out [][]uint8
	cols := make([]uint8, l.n)
	var ban [64]uint64
	for c0 := range l.n {
		if l.unique && !uniqueFirst(l.n, c0) {
			continue
		}
		if l.unique {
			borderBans(&ban, l.n, c0)
		}
		cols[0] = uint8(c0)
		walk(l.n, cols, &ban, 1, depth, nil, func() bool {
			out = append(out, append([]uint8(nil), cols[:depth]...))
			return true
		})
	}
	return depth, out
}

// countPrefixes counts the prefixes of depth rows, up to at most.
func (l *listing) countPrefixes(depth, most int) int {
	k := 0
	cols := make([]uint8, l.n)
	var ban [64]uint64
	walk(l.n, cols, &ban, 0, depth, nil, func() bool {
		k++
		return k < most
	})
	return k
}

// halt stops the workers (once).
func (l *listing) halt() {
	l.stopOnce.Do(func() {
		l.stop.Store(true)
		close(l.done)
	})
}

// take hands out the next part, or nil when none is left or the listing
// stopped. Parts enter l.parts in the order they are handed out.
func (l *listing) take() (int, *part) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.next >= len(l.prefixes) {
		if l.next == len(l.prefixes) {
			close(l.parts)
			l.next++
		}
		return 0, nil
	}
	p := &part{chunks: make(chan *chunk, partQueue)}
	select {
	case l.parts <- p:
	case <-l.done:
		return 0, nil
	}
	i := l.next
	l.next++
	return i, p
}

// run starts the workers and hands consume every chunk in order; take is
// how many of the chunk's solutions to use (fewer than c.count when the
// limit falls inside it). It returns when every part was consumed, the
// limit was reached, consume failed or ctx ended, with the workers gone.
func (l *listing) run(ctx context.Context, consume func(c *chunk, take int) error) (ListResult, error) {
	var wg sync.WaitGroup
	for range l.workers {
		wg.Go(func() {
			w := newWorker(l)
			for {
				i, p := l.take()
				if p == nil {
					return
				}
				w.part(i, p)
			}
		})
	}
	unwatch := context.AfterFunc(ctx, l.halt)
	res, err := l.consume(ctx, consume)
	unwatch()
	l.halt()
	// Workers waiting to send see l.done; drain nothing, just wait.
	wg.Wait()
	if err == nil {
		err = ctx.Err()
	}
	return res, err
}

func (l *listing) consume(ctx context.Context, consume func(c *chunk, take int) error) (ListResult, error) {
	var res ListResult
	start := time.Now()
	var last time.Time // the first chunk is reported at once
	done := 0
	progress := func() {
		if l.report != nil {
			l.report(ListProgress{Solutions: res.Solutions, PartsDone: done, Parts: len(l.prefixes), Elapsed: time.Since(start)})
		}
	}
	defer progress()
	for {
		var p *part
		select {
		case p = <-l.parts:
		case <-l.done: // ctx ended: parts and chunks may never come
			return res, ctx.Err()
		}
		if p == nil {
			return res, nil // every part was handed out and read
		}
		for {
			var c *chunk
			select {
			case c = <-p.chunks:
			case <-l.done:
				return res, ctx.Err()
			}
			if c == nil {
				break // the part is done
			}
			take := c.count
			if l.limit > 0 && res.Solutions+uint64(take) > l.limit {
				take = int(l.limit - res.Solutions)
			}
			err := consume(c, take)
			res.Solutions += uint64(take)
			l.recycle(c)
			if err != nil {
				return res, err
			}
			if l.limit > 0 && res.Solutions >= l.limit {
				return res, nil
			}
			if l.report != nil && time.Since(last) >= progressEvery {
				last = time.Now()
				progress()
			}
		}
		done++
	}
}
