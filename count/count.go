package count

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/kernel"
	"golang.org/x/sync/errgroup"
)

// MaxN is the largest board the engine accepts.
const MaxN = kernel.MaxN

// EngineVersion names the unit scheme and search engine. It changes whenever
// unit numbering or per-unit results could change, so that checkpoints and
// ledgers from another version are refused.
const EngineVersion = "3"

// collectEvery is how often [Count] gathers finished units from its workers.
const collectEvery = 50 * time.Millisecond

// UnitResult is what one unit contributes. Every field is already multiplied
// by the size of the constellation's orbit, so results of different units
// simply add up.
type UnitResult struct {
	Index  int    `json:"index"`
	Total  uint64 `json:"total"`  // solutions with a constellation in the orbit
	Rot180 uint64 `json:"rot180"` // of those, how many a half turn maps to themselves
	Rot90  uint64 `json:"rot90"`  // of those, how many a quarter turn maps to themselves
	Nodes  uint64 `json:"nodes"`  // search nodes spent (not weighted)
}

// Result is an exact count.
type Result struct {
	N       int
	Total   Uint128 // all solutions, OEIS A000170
	Unique  Uint128 // classes under the 8 symmetries, OEIS A002562
	Rot180  Uint128 // solutions a half turn maps to themselves
	Rot90   Uint128 // solutions a quarter turn maps to themselves
	Nodes   Uint128 // search nodes over all units
	Units   int     // units in the scheme for N
	Workers int
	Elapsed time.Duration
}

// Progress is reported while [Count] runs.
type Progress struct {
	UnitsDone, Units int     // finished units (resumed ones included) of all
	Resumed          int     // units taken from Options.Done
	Nodes            Uint128 // nodes of the units finished in this run
	Elapsed          time.Duration
}

// Options tune [Count]. The zero value uses every core and reports nothing.
type Options struct {
	// Workers is the number of goroutines searching; 0 means GOMAXPROCS.
	Workers int
	// Done holds results of units finished earlier (from a checkpoint);
	// they are added to the result and not searched again.
	Done []UnitResult
	// OnUnit, if set, receives each unit as it finishes, from one
	// goroutine at a time; a checkpoint writer records them.
	OnUnit func(UnitResult)
	// Progress, if set, is called from one goroutine about every
	// ProgressEvery (default 250 ms) and once at the end.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Fingerprint identifies N, the unit scheme and the engine version. Units,
// checkpoints and ledgers with the same fingerprint are interchangeable.
// Cost O(units).
func Fingerprint(n int) string {
	h := sha256.New()
	var buf [16]byte
	scheme := "border-constellations-d4-lexmin"
	if n >= 1 && n <= MaxN {
		for _, u := range units(n) {
			buf[0], buf[1], buf[2], buf[3] = byte(u.Top), byte(u.Bottom), byte(u.Left), byte(u.Right)
			h.Write(buf[:4])
			if u.Row >= 0 {
				buf[0], buf[1] = byte(u.Row), byte(u.Col)
				h.Write(buf[:2])
			}
		}
		if split(n) {
			scheme += "-split"
		}
	}
	binary.LittleEndian.PutUint64(buf[:8], uint64(n))
	h.Write(buf[:8])
	return fmt.Sprintf("nqueens-count engine=%s n=%d scheme=%s units=%d table=%s",
		EngineVersion, n, scheme, Units(n), hex.EncodeToString(h.Sum(nil)[:6]))
}

// CountUnit searches one unit: all completions of the unit's constellation
// (with its split queen, if N's units are split), weighted by the size of
// its orbit under the 8 symmetries, and, in the constellation's first unit,
// the completions a half or quarter turn maps to themselves when that
// rotation fixes the constellation. It returns ctx's error, and no partial
// count, if ctx ends first (the search notices within a few milliseconds).
// Cost: the unit's share of the search, no allocation.
func CountUnit(ctx context.Context, n, index int) (UnitResult, error) {
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	r, ok, err := countUnit(n, index, &stop)
	if err != nil {
		return UnitResult{}, err
	}
	if !ok {
		return UnitResult{}, ctx.Err()
	}
	return r, nil
}

func countUnit(n, index int, stop *atomic.Bool) (UnitResult, bool, error) {
	s, err := Unit(n, index)
	if err != nil {
		return UnitResult{}, false, err
	}
	return countSpec(n, index, s, stop)
}

// countSpec searches unit s of n, numbered index.
func countSpec(n, index int, s UnitSpec, stop *atomic.Bool) (UnitResult, bool, error) {
	size, _ := s.orbit(n)
	w := uint64(size)
	b, placed := s.board(n)
	sols, nodes, ok := kernel.Count(&b, stop)
	if !ok {
		return UnitResult{}, false, nil
	}
	res := UnitResult{Index: index, Nodes: placed + nodes}
	var fit bool
	if res.Total, fit = mul64(sols, w); !fit {
		return UnitResult{}, false, fmt.Errorf("unit %d of N = %d: %w", index, n, ErrOverflow)
	}
	if s.first && s.fixedBy(n, board.Rotate180) {
		c := startBoard(n, s.Constellation)
		res.Rot180 = w * countSymmetric(&c, board.Rotate180)
		if s.fixedBy(n, board.Rotate90) {
			res.Rot90 = w * countSymmetric(&c, board.Rotate90)
		}
	}
	return res, true, nil
}

// Tally adds up unit results, refusing duplicates, unknown units and
// overflow. The zero value is not usable; call [NewTally].
type Tally struct {
	n                           int
	seen                        []bool
	done                        int
	total, rot180, rot90, nodes Uint128
}

// NewTally starts an empty tally for N. Cost O(units).
func NewTally(n int) (*Tally, error) {
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("N = %d is outside 1..%d", n, MaxN)
	}
	return &Tally{n: n, seen: make([]bool, Units(n))}, nil
}

// Add records one unit. Cost O(1).
func (t *Tally) Add(u UnitResult) error {
	if u.Index < 0 || u.Index >= len(t.seen) {
		return fmt.Errorf("unit %d is outside 0..%d for N = %d", u.Index, len(t.seen)-1, t.n)
	}
	if t.seen[u.Index] {
		return fmt.Errorf("unit %d counted twice", u.Index)
	}
	total, ok1 := t.total.Add(U128(u.Total))
	rot180, ok2 := t.rot180.Add(U128(u.Rot180))
	rot90, ok3 := t.rot90.Add(U128(u.Rot90))
	nodes, ok4 := t.nodes.Add(U128(u.Nodes))
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return ErrOverflow
	}
	t.total, t.rot180, t.rot90, t.nodes = total, rot180, rot90, nodes
	t.seen[u.Index] = true
	t.done++
	return nil
}

// Has reports whether unit index is recorded.
func (t *Tally) Has(index int) bool { return index >= 0 && index < len(t.seen) && t.seen[index] }

// Done returns the number of units recorded.
func (t *Tally) Done() int { return t.done }

// Result returns the count once every unit is recorded.
//
// Unique comes from Burnside's lemma: the number of classes is the mean over
// the 8 symmetries of the number of solutions each fixes. No solution with
// N > 1 is fixed by a reflection (see the package doc), the quarter turns
// fix Rot90 each and the half turn Rot180, so Unique = (Total + Rot180 +
// 2·Rot90)/8. For N = 1 the lone queen is fixed by all 8, and Unique = 1.
func (t *Tally) Result() (Result, error) {
	if t.done != len(t.seen) {
		return Result{}, fmt.Errorf("only %d of %d units are counted", t.done, len(t.seen))
	}
	r := Result{N: t.n, Total: t.total, Rot180: t.rot180, Rot90: t.rot90, Nodes: t.nodes, Units: len(t.seen)}
	if t.n == 1 {
		r.Unique = r.Total
		return r, nil
	}
	sum, ok1 := t.total.Add(t.rot180)
	sum, ok2 := sum.Add(t.rot90)
	sum, ok3 := sum.Add(t.rot90)
	if !ok1 || !ok2 || !ok3 {
		return Result{}, ErrOverflow
	}
	u, exact := sum.div8()
	if !exact {
		return Result{}, fmt.Errorf("internal error: Burnside sum %s for N = %d is not a multiple of 8", sum, t.n)
	}
	r.Unique = u
	return r, nil
}

// Combine adds the results of every unit of N into the count; the cluster
// runner calls it on a ledger. Cost O(units).
func Combine(n int, results []UnitResult) (Result, error) {
	t, err := NewTally(n)
	if err != nil {
		return Result{}, err
	}
	for _, u := range results {
		if err := t.Add(u); err != nil {
			return Result{}, err
		}
	}
	return t.Result()
}

// Count counts the solutions of the N-Queens problem and their classes
// under the symmetries of the square, exactly, for 1 ≤ N ≤ [MaxN], on
// Options.Workers goroutines. Units already in Options.Done are not searched.
//
// If ctx ends first, Count stops every worker within a few milliseconds and
// returns ctx's error together with a Result holding the units finished so
// far (Options.OnUnit has seen each of them). Cost: about 0.9 s for N = 16
// on one core of a 2020s server, ×6.5 per step of N; memory O(units).
func Count(ctx context.Context, n int, opts Options) (Result, error) {
	// A context that has already ended starts nothing: the stop flag below
	// is set from another goroutine and could lose the race to a small count.
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	start := time.Now()
	t, err := NewTally(n)
	if err != nil {
		return Result{}, err
	}
	for _, u := range opts.Done {
		if err := t.Add(u); err != nil {
			return Result{}, fmt.Errorf("resumed units: %w", err)
		}
	}
	resumed := t.Done()
	todo := make([]int, 0, Units(n)-resumed)
	for i := range Units(n) {
		if !t.Has(i) {
			todo = append(todo, i)
		}
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(todo)))

	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	// Workers leave finished units in pending and the loop below collects
	// them every collectEvery: a channel send per unit would wake the
	// collector each time, and those wake-ups cost several percent of a
	// one-worker count.
	var (
		mu      sync.Mutex
		pending []UnitResult
	)
	var next atomic.Int64
	var g errgroup.Group
	for range workers {
		g.Go(func() error {
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(todo) {
					return nil
				}
				r, ok, err := countUnit(n, todo[i], &stop)
				if err != nil {
					stop.Store(true)
					return err
				}
				if !ok {
					return nil
				}
				mu.Lock()
				pending = append(pending, r)
				mu.Unlock()
			}
			return nil
		})
	}
	// workErr is written before done is closed.
	var workErr error
	done := make(chan struct{})
	go func() { workErr = g.Wait(); close(done) }()

	every := opts.ProgressEvery
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	tick := time.NewTicker(min(every, collectEvery))
	defer tick.Stop()
	var runNodes Uint128
	lastReport := start
	report := func() {
		lastReport = time.Now()
		if opts.Progress != nil {
			opts.Progress(Progress{UnitsDone: t.Done(), Units: Units(n), Resumed: resumed, Nodes: runNodes, Elapsed: time.Since(start)})
		}
	}
	var addErr error
	var batch []UnitResult
	collect := func() {
		mu.Lock()
		batch, pending = pending, batch[:0]
		mu.Unlock()
		for _, r := range batch {
			if addErr != nil {
				break
			}
			if addErr = t.Add(r); addErr != nil {
				stop.Store(true)
				break
			}
			runNodes, _ = runNodes.Add(U128(r.Nodes))
			if opts.OnUnit != nil {
				opts.OnUnit(r)
			}
		}
	}
loop:
	for {
		select {
		case <-done:
			collect()
			break loop
		case now := <-tick.C:
			collect()
			if now.Sub(lastReport) >= every {
				report()
			}
		}
	}
	report()
	elapsed := time.Since(start)
	if workErr != nil {
		return Result{}, workErr
	}
	if addErr != nil {
		return Result{}, addErr
	}
	if t.Done() < Units(n) {
		partial := Result{N: n, Total: t.total, Rot180: t.rot180, Rot90: t.rot90, Nodes: t.nodes,
			Units: Units(n), Workers: workers, Elapsed: elapsed}
		err := ctx.Err()
		if err == nil {
			err = errors.New("count stopped early")
		}
		return partial, fmt.Errorf("count of N = %d stopped after %d of %d units: %w", n, t.Done(), Units(n), err)
	}
	r, err := t.Result()
	if err != nil {
		return Result{}, err
	}
	r.Workers, r.Elapsed = workers, elapsed
	return r, nil
}
