package count

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/nqueens/nqueens/internal/kernel"
)

// Estimate is the outcome of [EstimateTree]: Knuth's random-probe estimates
// of the engine's work and of Q(N), each with its standard error (the sample
// standard deviation of the probes divided by √probes).
type Estimate struct {
	N        int
	Probes   int
	Units    int
	Nodes    float64 // expected search nodes of a full count
	NodesErr float64
	Total    float64 // expected number of solutions
	TotalErr float64
}

// EstimateTree runs probes random probes (Knuth, Math. Comp. 29, 1975) over
// the units of N: each probe picks a unit uniformly and walks one random
// path down its search tree. The results are unbiased: their mean over all
// possible probes is exactly the engine's node count and Q(N). Pass the same
// seed to get the same estimate. Cost O(probes · N²).
func EstimateTree(ctx context.Context, n, probes int, seed uint64) (Estimate, error) {
	if n < 1 || n > MaxN {
		return Estimate{}, errSize(n)
	}
	if probes < 2 {
		return Estimate{}, fmt.Errorf("need at least 2 probes, got %d", probes)
	}
	return estimateOver(ctx, n, units(n), probes, seed)
}

// estimateOver is [EstimateTree] over the unit list u of n.
func estimateOver(ctx context.Context, n int, u []UnitSpec, probes int, seed uint64) (Estimate, error) {
	e := Estimate{N: n, Probes: probes, Units: len(u)}
	if len(u) == 0 {
		return e, nil
	}
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	pick := func(k int) int { return rng.IntN(k) }
	var sn, sn2, st, st2 float64
	scale := float64(len(u))
	for i := range probes {
		if i%1024 == 0 && ctx.Err() != nil {
			return Estimate{}, ctx.Err()
		}
		s := u[rng.IntN(len(u))]
		w, _ := s.orbit(n)
		b, placed := s.board(n)
		nodes, sols := kernel.Probe(&b, pick)
		nodes += float64(placed)
		x, y := scale*nodes, scale*float64(w)*sols
		sn, sn2, st, st2 = sn+x, sn2+x*x, st+y, st2+y*y
	}
	p := float64(probes)
	e.Nodes, e.Total = sn/p, st/p
	e.NodesErr = math.Sqrt(max(0, sn2/p-e.Nodes*e.Nodes) / (p - 1))
	e.TotalErr = math.Sqrt(max(0, st2/p-e.Total*e.Total) / (p - 1))
	return e, nil
}

// Rate is a measured speed of the engine on one core.
type Rate struct {
	N           int     // board counted to measure it
	NodesPerSec float64 // search nodes per second on one worker
	Elapsed     time.Duration
}

// MeasureRate counts N on one worker and returns the node rate. N = 15 takes
// about 0.2 s. The rate per node grows slowly with N (more rows to compare
// at each node), so times predicted from a small N are on the low side.
func MeasureRate(ctx context.Context, n int) (Rate, error) {
	r, err := Count(ctx, n, Options{Workers: 1})
	if err != nil {
		return Rate{}, err
	}
	secs := r.Elapsed.Seconds()
	if secs <= 0 {
		secs = 1e-9
	}
	return Rate{N: n, NodesPerSec: r.Nodes.Float64() / secs, Elapsed: r.Elapsed}, nil
}
