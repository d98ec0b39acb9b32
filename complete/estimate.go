package complete

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/nqueens/nqueens/board"
)

// Estimate is Knuth's estimate (Math. Comp. 1975) of the exact search of a
// partial board: each probe follows one random path down the search tree,
// and the product of the branching met along it is an unbiased estimate of
// the nodes and of the completions. The fields are the means over the
// probes and their standard errors.
type Estimate struct {
	Probes                      int
	Nodes, NodesErr             float64
	Completions, CompletionsErr float64
}

// EstimateSearch estimates the exact search of p (n ≤ [ExactLimit]) with
// probes random paths drawn from seed: the nodes [Count] and [All] visit,
// and the completions they find. Input errors are as for [Validate]; a
// larger board is a *[TooLargeError]. Cost O(probes·n²); ctx is looked at
// between probes.
func EstimateSearch(ctx context.Context, p board.Partial, probes int, seed uint64) (Estimate, error) {
	if probes < 1 {
		return Estimate{}, errors.New("an estimate needs at least one probe")
	}
	if err := Validate(p); err != nil {
		return Estimate{}, err
	}
	q := toProblem(p)
	if q.n > ExactLimit {
		return Estimate{}, &TooLargeError{N: q.n}
	}
	root := newExact(ctx, q.n, q.queens, q.blocked)
	rng := rand.New(rand.NewPCG(seed, uint64(q.n)))
	var nodes, nodes2, found, found2 float64
	for range probes {
		if err := ctx.Err(); err != nil {
			return Estimate{}, err
		}
		e := *root
		weight, n, k := 1.0, 0.0, 0.0
		for {
			if e.rows == 0 {
				k = weight
				break
			}
			n += weight
			b, ok := e.choose()
			if !ok {
				break
			}
			w := bits.OnesCount64(b.squares)
			m := b.squares
			for range rng.IntN(w) {
				m &= m - 1
			}
			e.put(b.square(bits.TrailingZeros64(m)))
			weight *= float64(w)
		}
		nodes, nodes2 = nodes+n, nodes2+n*n
		found, found2 = found+k, found2+k*k
	}
	mean := func(sum, sum2 float64) (float64, float64) {
		m := sum / float64(probes)
		if probes < 2 {
			return m, math.Inf(1)
		}
		v := (sum2/float64(probes) - m*m) * float64(probes) / float64(probes-1)
		return m, math.Sqrt(max(v, 0) / float64(probes))
	}
	est := Estimate{Probes: probes}
	est.Nodes, est.NodesErr = mean(nodes, nodes2)
	est.Completions, est.CompletionsErr = mean(found, found2)
	return est, nil
}

// Forecast is what the exact search of a partial board will cost: Knuth's
// estimate of its size, and its speed measured over its first moments.
type Forecast struct {
	Estimate
	NodesPerSec float64 // measured; 0 when the estimate was small enough not to
	Seconds     float64 // Nodes / NodesPerSec (the time measured when the search ended within it); 0 when not measured
}

// quickNodes is the estimated size under which [Plan] does not measure
// the speed: such a search takes well under a second.
const quickNodes = 1e7

// Plan forecasts the exact search of p (n ≤ [ExactLimit]): an estimate
// with 4000 probes and, for a search estimated at over 10^7 nodes, its
// speed measured by running it for up to measure (the estimate alone takes
// milliseconds). Errors are those of [EstimateSearch] and ctx's.
func Plan(ctx context.Context, p board.Partial, measure time.Duration) (Forecast, error) {
	est, err := EstimateSearch(ctx, p, 4000, 1)
	f := Forecast{Estimate: est}
	if err != nil || est.Nodes < quickNodes {
		return f, err
	}
	var nodes uint64
	start := time.Now()
	run, cancel := context.WithTimeout(ctx, measure)
	defer cancel()
	_, err = Count(run, p, Options{Progress: func(k uint64) { nodes = k }})
	elapsed := max(time.Since(start).Seconds(), 1e-9)
	if ctx.Err() != nil {
		return f, ctx.Err()
	}
	f.NodesPerSec = float64(max(nodes, 1)) / elapsed
	f.Seconds = f.Nodes / f.NodesPerSec
	if err == nil {
		f.Seconds = elapsed // done already, within the measure
	}
	return f, nil
}
