package queue

import (
	"context"
	"sync"
)

// pool runs jobs on the coordinator's own cores, a few goroutines taking
// the oldest job first, and hands each result to the coordinator's loop
// on results: recounts of blocks (recount.go) and the estimate checks of
// votes (unitcheck.go).
type pool[J, R any] struct {
	do      func(context.Context, J) R
	results chan R

	mu      sync.Mutex
	queue   []J
	running int
	wake    chan struct{}
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// startPool starts workers goroutines that run do on each job added. A
// result is dropped when ctx ends before the loop takes it.
func startPool[J, R any](ctx context.Context, workers int, do func(context.Context, J) R) *pool[J, R] {
	ctx, cancel := context.WithCancel(ctx)
	p := &pool[J, R]{do: do, results: make(chan R), wake: make(chan struct{}, workers), cancel: cancel}
	for range workers {
		p.wg.Go(func() { p.work(ctx) })
	}
	return p
}

func (p *pool[J, R]) add(j J) {
	p.mu.Lock()
	p.queue = append(p.queue, j)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// pending returns the jobs waiting or running.
func (p *pool[J, R]) pending() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue) + p.running
}

func (p *pool[J, R]) stop() {
	p.cancel()
	p.wg.Wait()
}

func (p *pool[J, R]) work(ctx context.Context) {
	for {
		p.mu.Lock()
		if len(p.queue) == 0 {
			p.mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-p.wake:
				continue
			}
		}
		j := p.queue[0]
		p.queue = p.queue[1:]
		p.running++
		p.mu.Unlock()

		r := p.do(ctx, j)
		select {
		case p.results <- r:
		case <-ctx.Done():
		}
		p.mu.Lock()
		p.running--
		p.mu.Unlock()
		if ctx.Err() != nil {
			return
		}
	}
}
