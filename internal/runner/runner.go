// Package runner runs numbered work units on several goroutines and hands
// their results over in batches: the one parallel loop behind the exact
// counter (package count) and the variants' counter (package variant).
package runner

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

// DefaultEvery is how often [Run] hands finished units over by default:
// often enough for progress lines, rarely enough that the hand-over costs
// nothing next to the search.
const DefaultEvery = 50 * time.Millisecond

// Batch is a group of finished units handed over by [Run].
type Batch[R any] struct {
	Units []R
	// Seconds is the time the workers spent on these units, summed (CPU
	// seconds, not wall time).
	Seconds float64
}

// Options tune [Run].
type Options[R any] struct {
	// Workers is the number of goroutines searching; 0 means GOMAXPROCS.
	Workers int
	// Every is how often finished units are handed to Take (default
	// [DefaultEvery]).
	Every time.Duration
	// Take receives the finished units, from one goroutine at a time,
	// about every Every, also with an empty batch when nothing finished (so
	// that it can report progress). The batch is reused after Take returns.
	// An error from Take stops the run and is returned by Run.
	Take func(Batch[R]) error
}

// Search searches the unit numbered index. It returns ok = false, and no
// result, when it gave up because stop was set.
type Search[R any] func(index int, stop *atomic.Bool) (r R, ok bool, err error)

// Run searches the units listed in todo on o.Workers goroutines and hands
// every result to o.Take. It returns nil once every unit of todo has been
// handed over; if ctx ends first, the workers stop as soon as search sees
// the stop flag, the units finished by then are handed over, and ctx's
// error is returned. An error from search stops the run and is returned.
// Cost: the units' searches; memory O(workers + units in a batch).
func Run[R any](ctx context.Context, todo []int, search Search[R], o Options[R]) error {
	// A context that has already ended starts nothing: the stop flag below
	// is set from another goroutine and could lose the race to a small run.
	if err := ctx.Err(); err != nil {
		return err
	}
	workers := Workers(o.Workers, len(todo))
	every := o.Every
	if every <= 0 {
		every = DefaultEvery
	}

	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	// Workers leave finished units in pending and the loop below takes
	// them every tick: a channel send per unit would wake the collector each
	// time, and those wake-ups cost several percent of a one-worker count.
	var (
		mu      sync.Mutex
		pending Batch[R]
	)
	var next atomic.Int64
	var g errgroup.Group
	for range workers {
		g.Go(func() error {
			// ctx.Err as well as the flag: on js/wasm no goroutine is
			// preempted, so the flag's setter and the collector run only
			// when this loop blocks, which a context may arrange in its Err
			// (the web package's does in the browser).
			for !stop.Load() && ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(todo) {
					return nil
				}
				t0 := time.Now()
				r, ok, err := search(todo[i], &stop)
				if err != nil {
					stop.Store(true)
					return err
				}
				if !ok {
					return nil
				}
				secs := time.Since(t0).Seconds()
				mu.Lock()
				pending.Units = append(pending.Units, r)
				pending.Seconds += secs
				mu.Unlock()
			}
			return nil
		})
	}
	// workErr is written before finished is closed.
	var workErr error
	finished := make(chan struct{})
	go func() { workErr = g.Wait(); close(finished) }()

	tick := time.NewTicker(every)
	defer tick.Stop()
	var batch Batch[R]
	handed := 0
	var takeErr error
	hand := func() {
		mu.Lock()
		batch, pending = pending, Batch[R]{Units: batch.Units[:0]}
		mu.Unlock()
		if takeErr != nil {
			return
		}
		handed += len(batch.Units)
		if o.Take != nil {
			if takeErr = o.Take(batch); takeErr != nil {
				stop.Store(true)
			}
		}
	}
	for done := false; !done; {
		select {
		case <-finished:
			done = true
		case <-tick.C:
		}
		hand()
	}
	switch {
	case workErr != nil:
		return workErr
	case takeErr != nil:
		return takeErr
	case handed < len(todo):
		if err := ctx.Err(); err != nil {
			return err
		}
		return errors.New("stopped early")
	}
	return nil
}

// Workers returns the goroutines a run of units uses when requested are
// asked for (0: GOMAXPROCS): never more than there are units, at least 1.
func Workers(requested, units int) int {
	if requested <= 0 {
		requested = runtime.GOMAXPROCS(0)
	}
	return max(1, min(requested, units))
}
