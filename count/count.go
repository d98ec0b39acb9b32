package count

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/faults"
	"github.com/nqueens/nqueens/internal/kernel"
)

// MaxN is the largest board the engine accepts: the kernel keeps a board's
// rows, columns and diagonals in 64-bit words.
const MaxN = 64

// The kernel must take every board Count accepts.
var _ [kernel.MaxN - MaxN]struct{}

// EngineVersion names the unit scheme and search engine. It changes whenever
// unit numbering or per-unit results could change, so that checkpoints and
// ledgers from another version are refused.
const EngineVersion = "6"

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
	Resumed          int     // units taken from Options.Resume or the checkpoint
	Nodes            Uint128 // nodes of the units finished in this run
	Elapsed          time.Duration
}

// Options tune [Count]. The zero value uses every core and reports nothing.
type Options struct {
	// Workers is the number of goroutines searching; 0 means GOMAXPROCS.
	Workers int
	// Resume holds results of units finished earlier; they are added to
	// the result and not searched again.
	Resume []UnitResult
	// Checkpoint, if set, is resumed from and kept current: Count saves
	// the finished units to it every Checkpoint.Every and when it stops.
	// A failed save stops the count with the error, unless SaveFailed is
	// set and returns nil.
	Checkpoint *CheckpointFile
	SaveFailed func(error) error
	// OnUnit, if set, receives each unit as it finishes, from one
	// goroutine at a time.
	OnUnit func(UnitResult)
	// Progress, if set, is called from one goroutine about every
	// ProgressEvery (default 250 ms) and once at the end.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Fingerprint identifies N, the unit scheme and the engine version. Units,
// checkpoints and ledgers with the same fingerprint are interchangeable.
// Cost O(units) at N's first call in a process, O(1) after it: a ledger
// seals every record with it.
func Fingerprint(n int) string {
	if f, ok := fingerprints.Load(n); ok {
		return f.(string)
	}
	f := fingerprint(n)
	fingerprints.Store(n, f)
	return f
}

// fingerprints keeps [Fingerprint]'s answers, by N.
var fingerprints sync.Map

func fingerprint(n int) string {
	h := sha256.New()
	var buf [8]byte
	name := "border-constellations-d4-lexmin"
	if n >= 1 && n <= MaxN {
		s := schemeOf(n)
		s.table(h)
		name = s.name()
	}
	binary.LittleEndian.PutUint64(buf[:], uint64(n))
	h.Write(buf[:])
	return fmt.Sprintf("nqueens-count engine=%s n=%d scheme=%s units=%d table=%s",
		EngineVersion, n, name, Units(n), hex.EncodeToString(h.Sum(nil)[:6]))
}

// CountUnit searches one unit. For N counted by the tree search: all
// completions of the unit's constellation (with its split queen, if N's
// units are split), weighted by the size of its orbit under the 8
// symmetries, and, in the constellation's first unit, the completions a
// half or quarter turn maps to themselves when that rotation fixes the
// constellation. For N counted by the join ([JoinFrom] to [JoinTo]): the
// solutions of the unit's keys, weighted, or, in the last units, those a
// rotation fixes. It returns ctx's error, and no partial count, if ctx
// ends first (the search notices within a few milliseconds). Cost: the
// unit's share of the search; the first unit of a join N in a process also
// builds its quarter tables (see [JoinMemory]).
func CountUnit(ctx context.Context, n, index int) (UnitResult, error) {
	// An ended context searches nothing: the stop flag is set from another
	// goroutine, and a small unit could finish first.
	if err := ctx.Err(); err != nil {
		return UnitResult{}, err
	}
	if err := faults.WaitUnit(ctx, n, index); err != nil {
		return UnitResult{}, err
	}
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
	if n < 1 || n > MaxN {
		return UnitResult{}, false, errSize(n)
	}
	s := schemeOf(n)
	if index < 0 || index >= s.len() {
		return UnitResult{}, false, fmt.Errorf("unit %d is outside 0..%d for N = %d", index, s.len()-1, n)
	}
	return s.count(index, stop)
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
		return UnitResult{}, false, fmt.Errorf("unit %d of N = %d: its solutions times its orbit size pass 64 bits: %w", index, n, ErrOverflow)
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

// Count counts the solutions of the N-Queens problem and their classes
// under the symmetries of the square, exactly, for 1 ≤ N ≤ [MaxN], on
// Options.Workers goroutines. Units in Options.Resume or the checkpoint are
// not searched again. The result is checked as [Tally.Result] describes.
//
// If ctx ends first, Count stops every worker within a few milliseconds,
// saves the checkpoint, and returns an error wrapping ctx's together with a
// Result holding the sums of the units finished so far (Options.OnUnit has
// seen each of them). Cost on one core of a 2020s server with AVX-512:
// about 0.1 s for N = 16, 2 s for N = 18, 10 s for N = 19, growing about
// tenfold per N (the join, N = JoinFrom to JoinTo), and about 0.3 s for
// N = 16 ×7 per N for the tree search; memory O(units) plus, for the join,
// its quarter tables (30 MB for N = 18 to 7 GB for N = 23) and the halves
// of one key per worker, or about 400 kB per worker for the tree.
func Count(ctx context.Context, n int, opts Options) (Result, error) {
	t, err := NewTally(n)
	if err != nil {
		return Result{}, err
	}
	if err := resume(t, opts); err != nil {
		return Result{}, err
	}
	todo := todoUnits(t)
	workers := workersFor(opts.Workers, len(todo))
	now := time.Now()
	c := &counter{opts: opts, t: t, start: now, reported: now, resumed: t.Done(), every: opts.ProgressEvery}
	if c.every <= 0 {
		c.every = defaultProgressEvery
	}
	runErr := RunUnits(ctx, n, todo, RunOptions{Workers: workers, Every: min(c.every, defaultHandEvery), Take: c.take})
	c.report()
	saveErr := c.save(true)
	elapsed := time.Since(c.start)
	if runErr == nil && saveErr != nil {
		runErr = saveErr
	}
	if runErr != nil {
		partial := t.partial()
		partial.Workers, partial.Elapsed = workers, elapsed
		if ctx.Err() == nil || !errors.Is(runErr, ctx.Err()) {
			return partial, runErr
		}
		var err error = i18n.Stopped(i18n.NewError("count.stopped", i18n.Args{"N": n, "Done": t.Done(), "Units": t.Units()}), runErr)
		if saveErr != nil {
			err = fmt.Errorf("%w, and the checkpoint could not be saved: %v", err, saveErr)
		}
		return partial, err
	}
	r, err := t.Result()
	if err != nil {
		return Result{}, err
	}
	r.Workers, r.Elapsed = workers, elapsed
	return r, nil
}

// defaultProgressEvery is how often Count reports progress by default.
const defaultProgressEvery = 250 * time.Millisecond

// resume adds the units finished earlier, from the checkpoint or from
// Options.Resume, to t.
func resume(t *Tally, opts Options) error {
	units := opts.Resume
	if ck := opts.Checkpoint; ck != nil {
		if len(units) > 0 {
			return errors.New("resume from the checkpoint or from Options.Resume, not both")
		}
		if ck.N() != t.n {
			return fmt.Errorf("checkpoint %s is for N = %d, not N = %d", ck.Path(), ck.N(), t.n)
		}
		units = ck.Units()
	}
	for _, u := range units {
		if err := t.Add(u); err != nil {
			return fmt.Errorf("resumed units: %w", err)
		}
	}
	return nil
}

// counter takes the units a count's runner hands over: it adds them to the
// tally and the checkpoint, and reports progress.
type counter struct {
	opts     Options
	t        *Tally
	start    time.Time
	resumed  int
	nodes    Uint128 // of the units counted in this run
	every    time.Duration
	reported time.Time
}

func (c *counter) take(b Batch) error {
	for _, r := range b.Units {
		if err := c.t.Add(r); err != nil {
			return err
		}
		c.nodes, _ = c.nodes.Add(U128(r.Nodes))
		if c.opts.Checkpoint != nil {
			c.opts.Checkpoint.add(r)
		}
		if c.opts.OnUnit != nil {
			c.opts.OnUnit(r)
		}
	}
	if err := c.save(false); err != nil {
		return err
	}
	if time.Since(c.reported) >= c.every {
		c.report()
	}
	return nil
}

func (c *counter) report() {
	c.reported = time.Now()
	if c.opts.Progress != nil {
		c.opts.Progress(Progress{UnitsDone: c.t.Done(), Units: c.t.Units(), Resumed: c.resumed, Nodes: c.nodes, Elapsed: time.Since(c.start)})
	}
}

// save saves the checkpoint, if any, when due (or now, with force); a
// failure goes through Options.SaveFailed.
func (c *counter) save(force bool) error {
	ck := c.opts.Checkpoint
	if ck == nil {
		return nil
	}
	err := ck.save(force)
	if err != nil && c.opts.SaveFailed != nil {
		err = c.opts.SaveFailed(err)
	}
	return err
}
