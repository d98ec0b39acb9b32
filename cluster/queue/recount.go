package queue

import (
	"context"
	"slices"
	"sync"

	"github.com/nqueens/nqueens/count"
)

// recounter counts blocks again on the coordinator's own cores, for spot
// checks and to settle disagreements. Blocks are counted one at a time per
// worker, oldest request first.
type recounter struct {
	run     Run
	results chan recount

	mu      sync.Mutex
	queue   []int
	running int
	wake    chan struct{}
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// recount is the coordinator's own count of block k.
type recount struct {
	k     int
	units []count.UnitResult
	err   error
}

func startRecounter(ctx context.Context, run Run, workers int) *recounter {
	ctx, cancel := context.WithCancel(ctx)
	r := &recounter{run: run, results: make(chan recount), wake: make(chan struct{}, workers), cancel: cancel}
	for range workers {
		r.wg.Go(func() { r.work(ctx) })
	}
	return r
}

func (r *recounter) add(k int) {
	r.mu.Lock()
	r.queue = append(r.queue, k)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// pending returns the blocks waiting for or under a recount.
func (r *recounter) pending() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.queue) + r.running
}

func (r *recounter) idle() bool { return r.pending() == 0 }

func (r *recounter) stop() {
	r.cancel()
	r.wg.Wait()
}

func (r *recounter) work(ctx context.Context) {
	for {
		r.mu.Lock()
		if len(r.queue) == 0 {
			r.mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-r.wake:
				continue
			}
		}
		k := r.queue[0]
		r.queue = r.queue[1:]
		r.running++
		r.mu.Unlock()

		res := recount{k: k}
		res.units, res.err = r.count(ctx, r.run.block(k))
		select {
		case r.results <- res:
		case <-ctx.Done():
		}
		r.mu.Lock()
		r.running--
		r.mu.Unlock()
		if ctx.Err() != nil {
			return
		}
	}
}

// count counts the units of b on one core, with the runner every count
// uses, and returns them in order.
func (r *recounter) count(ctx context.Context, b Block) ([]count.UnitResult, error) {
	todo := make([]int, 0, b.Len())
	for u := b.First; u <= b.Last; u++ {
		todo = append(todo, u)
	}
	var out []count.UnitResult
	err := count.RunUnits(ctx, r.run.N, todo, count.RunOptions{Workers: 1, Take: func(batch count.Batch) error {
		out = append(out, batch.Units...)
		return nil
	}})
	slices.SortFunc(out, func(a, b count.UnitResult) int { return a.Index - b.Index })
	return out, err
}
