package kernel

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/nqueens/nqueens/solve"
)

// TestBatchAgainstLoop runs the batch search, with the scan in Go and in
// the vector instructions where the CPU has them, on boards big enough to
// fill and flush the level buffers many times (N = 11 to 14: up to 10⁶
// nodes): the same completions and nodes as count32, node for node.
func TestBatchAgainstLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	boards := 30
	if testing.Short() {
		boards = 10
	}
	for range boards {
		n := 11 + rng.IntN(4)
		b := randomBoard(rng, n, rng.IntN(4))
		want, wantNodes, _ := count32(&b, nil)
		for _, k := range runnable() {
			if k.maxN < n {
				continue
			}
			got, nodes, ok := k.count(&b, nil)
			if !ok || got != want || nodes != wantNodes {
				t.Fatalf("N=%d %+v: %s finds %d completions in %d nodes, count32 %d in %d", n, b, k.name, got, nodes, want, wantNodes)
			}
		}
	}
}

// TestBatchStop sets stop in the middle of a batch search (and of the
// other loops): it must end with ok = false, and a search started
// afterwards on the same (reused) buffers must count exactly.
func TestBatchStop(t *testing.T) {
	b := Board{N: 14, Rows: 1<<14 - 1}
	for _, k := range runnable() {
		var stop atomic.Bool
		go stop.Store(true)
		for {
			if _, _, ok := k.count(&b, &stop); !ok {
				break
			}
		}
		if sols, _, ok := k.count(&b, nil); !ok || sols != 365596 {
			t.Fatalf("%s after a stop: %d completions, ok %v; want 365596", k.name, sols, ok)
		}
	}
}

// TestBatchLastRows runs the batch search on boards of N = 29 to 32 whose
// empty rows include the highest ones: the vector scan takes a row's index
// from its bit converted to a float, and bit 31 is a negative number there.
func TestBatchLastRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{29, 30, 31, 32} {
		for range 20 {
			b := Board{N: n}
			sol, err := solve.Construct(n)
			if err != nil {
				t.Fatal(err)
			}
			empty := map[int]bool{n - 1: true, n - 2: true}
			for len(empty) < 4+rng.IntN(3) {
				empty[rng.IntN(n)] = true
			}
			for r := range n {
				if empty[r] {
					b.Rows |= 1 << uint(r)
				} else {
					b.Place(r, sol.Col(r))
				}
			}
			checkKernels(t, &b, brute(&b))
		}
	}
}
