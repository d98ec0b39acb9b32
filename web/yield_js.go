//go:build js && wasm

package web

import (
	"context"
	"sync"
	"time"
)

// In the browser (nqueens site) the server runs in a Web Worker, on one
// thread that Go shares with the browser's event loop: no goroutine is ever
// preempted, and the browser runs (delivering a cancelled or a new request,
// firing Go's timers) only while every goroutine is blocked. A search that
// never blocks would keep the worker deaf until it ended: Cancel would not
// cancel and no progress would be seen. Every long loop of the libraries
// asks its context's Err every few thousand nodes (count's runner once a
// work unit), so the context they are given lets the browser run there.

// turnEvery is the longest a goroutine computes before the browser gets a
// turn; a turn costs a millisecond or a few (the browser's shortest timer).
const turnEvery = 50 * time.Millisecond

var turns struct {
	sync.Mutex
	last    time.Time
	pending chan struct{} // closed when the turn in progress ends; nil if none
}

// yielding returns ctx, whose Err gives the browser a turn when the last one
// is turnEvery old: it sleeps a millisecond, and while every goroutine
// computing waits for that turn, Go returns to the browser.
func yielding(ctx context.Context) context.Context { return yieldingContext{ctx} }

type yieldingContext struct{ context.Context }

func (c yieldingContext) Err() error {
	browserTurn()
	return c.Context.Err()
}

// browserTurn waits for the browser's turn in progress, or starts one if
// the last is turnEvery old. Goroutines that ask during a turn wait for the
// same one, so that all of them are blocked at once.
func browserTurn() {
	turns.Lock()
	wait := turns.pending
	if wait == nil {
		if time.Since(turns.last) < turnEvery {
			turns.Unlock()
			return
		}
		done := make(chan struct{})
		turns.pending, wait = done, done
		time.AfterFunc(time.Millisecond, func() {
			turns.Lock()
			turns.pending, turns.last = nil, time.Now()
			turns.Unlock()
			close(done)
		})
	}
	turns.Unlock()
	<-wait
}
