// Package faults injects faults for tests: a unit of work held until the
// test lets it go, and a worker that returns wrong results. A test in
// process sets a hold with [HoldUnit]; a test build of the command (build
// tag nqueens_faults, see faults_on.go) reads its faults from the
// environment. In every other build nothing sets them, and a runner pays
// one atomic load per unit for [WaitUnit].
//
// The package imports nothing from the project, so that every layer may
// call it.
package faults

import (
	"context"
	"sync"
	"sync/atomic"
)

// AnyN is the n of a hold that applies to every board size.
const AnyN = -1

// Hold is a unit that runs of units wait on before counting it: a test
// holds work at a point it chooses, instead of guessing how long the work
// takes.
type Hold struct {
	n, unit  int
	reached  chan struct{}
	released chan struct{}
	reach    sync.Once
	release  sync.Once
}

var held atomic.Pointer[Hold]

// HoldUnit holds unit k of N (of every N with [AnyN]): from now on, each
// run that comes to that unit waits, before counting it, until
// [Hold.Release] or the end of the run's context. It replaces any hold set
// before. Tests that hold units must not run in parallel with other tests
// that count the same N.
func HoldUnit(n, k int) *Hold {
	h := &Hold{n: n, unit: k, reached: make(chan struct{}), released: make(chan struct{})}
	held.Store(h)
	return h
}

// Reached is closed when a run first comes to the held unit.
func (h *Hold) Reached() <-chan struct{} { return h.reached }

// Release lets every run waiting on the held unit go on, and removes the
// hold. It may be called more than once.
func (h *Hold) Release() {
	h.release.Do(func() {
		held.CompareAndSwap(h, nil)
		close(h.released)
	})
}

// WaitUnit is called by a runner before it counts unit index of N. It
// returns nil at once unless that unit is held; then it returns nil when
// the hold is released, or ctx's error if ctx ends first.
func WaitUnit(ctx context.Context, n, index int) error {
	h := held.Load()
	if h == nil || h.unit != index || (h.n != AnyN && h.n != n) {
		return nil
	}
	h.reach.Do(func() { close(h.reached) })
	select {
	case <-h.released:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// addTotal is what a rogue worker adds to every non-zero unit total; set
// only in test builds.
var addTotal uint64

// Corrupt returns a unit's total as a rogue worker would report it, in a
// way that passes the checks of a single result: a non-zero total plus a
// multiple of 8 (every orbit size divides 8). Outside test builds it
// returns total unchanged.
func Corrupt(total uint64) uint64 {
	if addTotal != 0 && total != 0 {
		return total + addTotal
	}
	return total
}
