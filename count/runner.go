package count

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/nqueens/nqueens/internal/faults"
	"github.com/nqueens/nqueens/internal/runner"
)

// defaultHandEvery is how often [RunUnits] hands finished units over by
// default.
const defaultHandEvery = runner.DefaultEvery

// Batch is a group of finished units handed over by [RunUnits].
type Batch struct {
	Units []UnitResult
	// Seconds is the time the workers spent on these units, summed (CPU
	// seconds, not wall time).
	Seconds float64
}

// RunOptions tune [RunUnits].
type RunOptions struct {
	// Workers is the number of goroutines searching; 0 means GOMAXPROCS.
	Workers int
	// Every is how often finished units are handed to Take (default 50 ms).
	Every time.Duration
	// Take receives the finished units, from one goroutine at a time,
	// about every Every, also with an empty batch when nothing finished (so
	// that it can report progress). The batch is reused after Take returns.
	// An error from Take stops the run and is returned by RunUnits.
	Take func(Batch) error
}

// RunUnits searches the units of N listed in todo on o.Workers goroutines
// and hands every result to o.Take. It is the one parallel runner behind
// [Count] and the cluster's shards (the loop itself is internal/runner's,
// shared with package variant). It returns nil once every unit of todo
// has been handed over; if ctx ends first, the workers stop within a few
// milliseconds, the units finished by then are handed over, and ctx's error
// is returned. Cost: the units' searches; memory O(workers + units in a
// batch).
func RunUnits(ctx context.Context, n int, todo []int, o RunOptions) error {
	if n < 1 || n > MaxN {
		return errSize(n)
	}
	search := func(i int, stop *atomic.Bool) (UnitResult, bool, error) {
		if faults.WaitUnit(ctx, n, i) != nil {
			return UnitResult{}, false, nil // held by a test until the run ended
		}
		return countUnit(n, i, stop)
	}
	ro := runner.Options[UnitResult]{Workers: o.Workers, Every: o.Every}
	if o.Take != nil {
		ro.Take = func(b runner.Batch[UnitResult]) error { return o.Take(Batch(b)) }
	}
	return runner.Run(ctx, todo, search, ro)
}

// workersFor returns the goroutines a run of units uses when requested
// are asked for (0: GOMAXPROCS): never more than there are units, at least 1.
func workersFor(requested, units int) int { return runner.Workers(requested, units) }

// todoUnits returns the units of N that t lacks, in order.
func todoUnits(t *Tally) []int {
	todo := make([]int, 0, len(t.seen)-t.done)
	for i, seen := range t.seen {
		if !seen {
			todo = append(todo, i)
		}
	}
	return todo
}
