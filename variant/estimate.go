package variant

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/nqueens/nqueens/internal/sample"
)

// Estimate is the outcome of [EstimateTree]: Knuth's random-probe
// estimates of the search's nodes and of the total, each with its standard
// error.
type Estimate struct {
	Spec     Spec
	Probes   int
	Units    int
	Nodes    float64
	NodesErr float64
	Total    float64
	TotalErr float64
}

// EstimateTree runs probes random probes (Knuth, Math. Comp. 29, 1975)
// down the units of s's search: each picks a unit uniformly and walks one
// random path, and the product of the branching factors met is an unbiased
// estimate of the nodes and the placements. The same seed gives the same
// estimate. Cost O(probes · rows), after the unit table.
func EstimateTree(ctx context.Context, s Spec, probes int, seed uint64) (Estimate, error) {
	if err := s.Validate(); err != nil {
		return Estimate{}, err
	}
	if probes < 2 {
		return Estimate{}, fmt.Errorf("need at least 2 probes, got %d", probes)
	}
	s = s.Normal()
	e := Estimate{Spec: s, Probes: probes}
	if s.NoneFit() != "" {
		return e, nil
	}
	g := newGeom(s)
	u := unitsOf(s)
	e.Units = len(u)
	if len(u) == 0 {
		return e, nil
	}
	rng := rand.New(rand.NewPCG(seed, uint64(s.Rows)<<8|uint64(s.Cols)))
	pick := func(k int) int { return rng.IntN(k) }
	scale := float64(len(u))
	var nodesMean, totalMean sample.Mean
	for i := range probes {
		if i%1024 == 0 && ctx.Err() != nil {
			return Estimate{}, ctx.Err()
		}
		un := u[rng.IntN(len(u))]
		n, ok := g.start(un.prefix)
		if !ok {
			return Estimate{}, fmt.Errorf("a unit of %v has an invalid prefix", s)
		}
		nodes, sols := g.probe(n, pick)
		nodesMean.Add(scale * nodes)
		totalMean.Add(scale * float64(un.weight) * sols)
	}
	e.Nodes, e.NodesErr = nodesMean.Result()
	e.Total, e.TotalErr = totalMean.Result()
	return e, nil
}

// Rate is a measured speed of the variant search on one worker.
type Rate struct {
	Spec        Spec // the variant counted to measure it
	NodesPerSec float64
	Elapsed     time.Duration
}

// rateNodes is about how many nodes MeasureRate's count takes: a tenth of
// a second or so.
const rateNodes = 2e7

// MeasureRate counts, on one worker, the largest board of s's kind (same
// piece, torus or not, the same number of columns more than rows, and the
// same number of rows without a piece) that Knuth's probes put at no more
// than about 2·10⁷ nodes, and returns its node rate: the speed at which
// the count of s itself will run.
func MeasureRate(ctx context.Context, s Spec) (Rate, error) {
	if err := s.Validate(); err != nil {
		return Rate{}, err
	}
	s = s.Normal()
	m := s
	for m.Rows > 1 {
		e, err := EstimateTree(ctx, m, 500, 1)
		if err != nil {
			return Rate{}, err
		}
		if e.Nodes <= rateNodes {
			break
		}
		m.Rows--
		m.Cols--
		if m.Queens > 1 {
			m.Queens--
		}
		if m.Cols < 1 || (m.Torus && m.Cols != m.Rows) {
			break
		}
	}
	r, err := Count(ctx, m, Options{Workers: 1})
	if err != nil {
		return Rate{}, err
	}
	secs := max(r.Elapsed.Seconds(), 1e-9)
	return Rate{Spec: m, NodesPerSec: max(r.Nodes.Float64(), 1) / secs, Elapsed: r.Elapsed}, nil
}
