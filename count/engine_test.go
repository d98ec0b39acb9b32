package count

import (
	"context"
	"fmt"
	"testing"

	"github.com/nqueens/nqueens/internal/kernel"
)

// TestEngineLoopsAgree counts every unit of every N ≤ 14, whole and split,
// with the engine as Count runs it (the assembly loop on amd64) and with
// the Go loops alone: the same completions and the same nodes. The split
// units are those of SplitFrom and up, built here for small N.
func TestEngineLoopsAgree(t *testing.T) {
	maxN := 14
	if testing.Short() {
		maxN = 11
	}
	for n := 1; n <= maxN; n++ {
		for _, split := range []bool{false, true} {
			for i, s := range buildUnits(n, split) {
				b, _ := s.board(n)
				sols, nodes, ok := kernel.Count(&b, nil)
				rs, rn := kernel.CountReference(&b)
				if !ok || sols != rs || nodes != rn {
					t.Fatalf("N=%d split=%v unit %d %+v: engine %d completions %d nodes, Go loops %d %d", n, split, i, s, sols, nodes, rs, rn)
				}
			}
		}
	}
}

// TestEngineAgainstReference counts N = 17 (in CI) and, with
// NQUEENS_LONG=1, N = 18 and 19 on all cores against the published table.
// N = 20 was counted once by hand; docs/engine.md has the run.
func TestEngineAgainstReference(t *testing.T) {
	if testing.Short() {
		t.Skip("N = 17 takes seconds")
	}
	ref := referenceCounts(t)
	ns := []int{17}
	if longTests() {
		ns = append(ns, 18, 19)
	}
	for _, n := range ns {
		t.Run(fmt.Sprintf("N=%d", n), func(t *testing.T) {
			r, err := Count(context.Background(), n, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if want := ref[n]; r.Total != want[0] || r.Unique != want[1] {
				t.Errorf("N=%d: total %s unique %s, want %s %s", n, r.Total, r.Unique, want[0], want[1])
			}
		})
	}
}
