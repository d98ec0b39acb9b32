//go:build !purego

package kernel

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestAssemblyLoopChosen checks Count runs the fastest loop the CPU allows
// (the batch search with vector instructions, else the assembly loop), so
// the kernel tests exercise it.
func TestAssemblyLoopChosen(t *testing.T) {
	want, name := any(count32), "the Go loop"
	switch {
	case hasVector:
		want, name = countBatch, "the batch search"
	case hasPOPCNT:
		want, name = count32Asm, "the assembly loop"
	}
	if reflect.ValueOf(count32Loop).Pointer() != reflect.ValueOf(want).Pointer() {
		t.Errorf("Count does not use %s", name)
	}
}

// TestSlicesResume stops the assembly loop after every few nodes and goes
// on, which must not change the count or the nodes.
func TestSlicesResume(t *testing.T) {
	if !hasPOPCNT {
		t.Skip("no POPCNT")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 100 {
		n := 6 + rng.IntN(9)
		b := randomBoard(rng, n, rng.IntN(4))
		want, wantNodes, _ := count32(&b, nil)
		for _, budget := range []uint64{1, 2, 3, 7} {
			got, nodes, ok := count32Sliced(&b, nil, budget)
			if !ok || got != want || nodes != wantNodes {
				t.Fatalf("N=%d %+v budget %d: %d solutions %d nodes, want %d %d", n, b, budget, got, nodes, want, wantNodes)
			}
		}
	}
}
