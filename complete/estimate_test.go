package complete

import (
	"context"
	"math"
	"testing"

	"github.com/nqueens/nqueens/board"
)

// TestEstimateSearch: Knuth's estimate is unbiased, so over many probes it
// comes within a few standard errors of the nodes and completions that the
// search itself visits and finds.
func TestEstimateSearch(t *testing.T) {
	boards := []board.Partial{
		{Queens: board.New(8)},
		{Queens: board.New(11)},
		{Queens: []int32{-1, -1, 3, -1, -1, -1, -1, -1, -1, -1, -1, -1}, Blocked: []board.Square{{Row: 0, Col: 0}, {Row: 5, Col: 7}}},
	}
	for _, p := range boards {
		q := toProblem(p)
		e := newExact(context.Background(), q.n, q.queens, q.blocked)
		var completions float64
		e.search(func() bool { completions++; return true })
		est, err := EstimateSearch(context.Background(), p, 20000, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			what            string
			got, err, truth float64
		}{
			{"nodes", est.Nodes, est.NodesErr, float64(e.nodes)},
			{"completions", est.Completions, est.CompletionsErr, completions},
		} {
			if math.Abs(c.got-c.truth) > 5*c.err+1e-9 || c.err > c.truth/4+1e-9 {
				t.Errorf("n = %d: %s ≈ %.4g ± %.2g, the search finds %g", q.n, c.what, c.got, c.err, c.truth)
			}
		}
	}
	// A board with one way to go is estimated exactly.
	sol := board.Placement{1, 3, 0, 2}
	p := board.Partial{Queens: append(board.Placement{-1}, sol[1:]...)}
	if est, err := EstimateSearch(context.Background(), p, 3, 1); err != nil || est.Completions != 1 || est.Nodes != 1 || est.NodesErr != 0 {
		t.Errorf("forced board: %+v, %v", est, err)
	}
	if _, err := EstimateSearch(context.Background(), board.Partial{Queens: board.New(65)}, 10, 1); err == nil {
		t.Error("65×65: no error")
	}
}

// TestCountProgress: the exact search reports its nodes as it goes.
func TestCountProgress(t *testing.T) {
	var calls []uint64
	k, err := Count(context.Background(), board.Partial{Queens: board.New(12)}, Options{Progress: func(nodes uint64) { calls = append(calls, nodes) }})
	if err != nil || k != 14200 {
		t.Fatalf("%d, %v", k, err)
	}
	if len(calls) == 0 {
		t.Fatal("no progress reported")
	}
	for i, c := range calls {
		if c != uint64(i+1)*checkEvery {
			t.Fatalf("report %d: %d nodes, want %d", i, c, (i+1)*checkEvery)
		}
	}
}
