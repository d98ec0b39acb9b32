package kernel

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// TestBatchAgainstLoop runs the batch search, with the scan in Go and in
// the vector instructions where the CPU has them, on boards big enough to
// fill and flush the level buffers many times: the same completions and
// nodes as count32, node for node.
func TestBatchAgainstLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	boards := 40
	if testing.Short() {
		boards = 10
	}
	for range boards {
		n := 11 + rng.IntN(5)
		b := randomBoard(rng, n, rng.IntN(4))
		want, wantNodes, _ := count32(&b, nil)
		for _, k := range append([]kern{{"countBatchGo", countBatchGo, 32}}, extraKernels...) {
			got, nodes, ok := k.f(&b, nil)
			if !ok || got != want || nodes != wantNodes {
				t.Fatalf("N=%d %+v: %s finds %d completions in %d nodes, count32 %d in %d", n, b, k.name, got, nodes, want, wantNodes)
			}
		}
	}
}

// TestBatchStop sets stop in the middle of a batch search: it must end
// with ok = false, and a search started afterwards on the same (reused)
// buffers must count exactly.
func TestBatchStop(t *testing.T) {
	b := Board{N: 14, Rows: 1<<14 - 1}
	for _, f := range []func(*Board, *atomic.Bool) (uint64, uint64, bool){countBatch, countBatchGo} {
		var stop atomic.Bool
		go stop.Store(true)
		for {
			if _, _, ok := f(&b, &stop); !ok {
				break
			}
		}
		if sols, _, ok := f(&b, nil); !ok || sols != 365596 {
			t.Fatalf("after a stop: %d completions, ok %v; want 365596", sols, ok)
		}
	}
}
