package runner

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// gate is a search whose unit i finishes (with result i) once its channel
// is closed, or gives up when the run's stop flag is set: the test, not
// the machine, decides when each unit ends.
type gate []chan struct{}

func newGate(units int) gate {
	g := make(gate, units)
	for i := range g {
		g[i] = make(chan struct{})
	}
	return g
}

func (g gate) search(i int, stop *atomic.Bool) (int, bool, error) {
	for {
		select {
		case <-g[i]:
			return i, true, nil
		case <-time.After(time.Millisecond): // on the fake clock: look at the flag
			if stop.Load() {
				return 0, false, nil
			}
		}
	}
}

// takes records the batches a run hands over.
type takes struct {
	mu      sync.Mutex
	batches [][]int
	err     error // returned by Take
}

func (tk *takes) take(b Batch[int]) error {
	tk.mu.Lock()
	defer tk.mu.Unlock()
	tk.batches = append(tk.batches, slices.Clone(b.Units))
	return tk.err
}

// got returns the batches so far.
func (tk *takes) got() [][]int {
	tk.mu.Lock()
	defer tk.mu.Unlock()
	return slices.Clone(tk.batches)
}

func (tk *takes) handed() []int {
	var all []int
	for _, b := range tk.got() {
		all = append(all, b...)
	}
	slices.Sort(all)
	return all
}

// TestHandOver checks, on synctest's fake clock, that finished units are
// handed over at the next tick and not before, that a tick with nothing
// finished hands an empty batch over, and that every unit is handed over
// once by the end.
func TestHandOver(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const every = time.Second
		g := newGate(6)
		tk := &takes{}
		done := make(chan error)
		go func() {
			done <- Run(context.Background(), []int{0, 1, 2, 3, 4, 5}, g.search, Options[int]{Workers: 2, Every: every, Take: tk.take})
		}()
		time.Sleep(every) // on the fake clock, as every wait here
		synctest.Wait()
		if b := tk.got(); len(b) != 1 || len(b[0]) != 0 {
			t.Fatalf("after the first tick with nothing finished: %v, want one empty batch", b)
		}
		close(g[0])
		close(g[1])
		time.Sleep(every / 2)
		synctest.Wait()
		if b := tk.got(); len(b) != 1 {
			t.Fatalf("units handed over between ticks: %v", b)
		}
		time.Sleep(every / 2)
		synctest.Wait()
		if b := tk.got(); len(b) != 2 || !slices.Equal(tk.handed(), []int{0, 1}) {
			t.Fatalf("after the second tick: %v, want units 0 and 1", b)
		}
		for _, c := range g[2:] {
			close(c)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if got := tk.handed(); !slices.Equal(got, []int{0, 1, 2, 3, 4, 5}) {
			t.Fatalf("handed over %v, want every unit once", got)
		}
	})
}

// TestStop checks that a run whose context ends hands over the units
// finished by then, and only those, and returns the context's error; and
// that an error from Take stops the run and is returned.
func TestStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(6)
		tk := &takes{}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() {
			done <- Run(ctx, []int{0, 1, 2, 3, 4, 5}, g.search, Options[int]{Workers: 2, Take: tk.take})
		}()
		close(g[0])
		close(g[1])
		synctest.Wait() // units 2 and 3 are being searched
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled run: %v", err)
		}
		if got := tk.handed(); !slices.Equal(got, []int{0, 1}) {
			t.Fatalf("cancelled run handed over %v, want 0 and 1", got)
		}

		g = newGate(6)
		tk = &takes{err: errors.New("the disk is full")}
		go func() {
			done <- Run(context.Background(), []int{0, 1, 2, 3, 4, 5}, g.search, Options[int]{Workers: 2, Take: tk.take})
		}()
		close(g[0])
		if err := <-done; err != tk.err {
			t.Fatalf("run whose Take fails: %v, want %v", err, tk.err)
		}
	})
}
