package count

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/join"
	"github.com/nqueens/nqueens/internal/kernel"
	"github.com/nqueens/nqueens/internal/sample"
)

// Estimate is the outcome of [EstimateTree]: estimates of the engine's work
// and of Q(N), each with its standard error (the sample standard deviation
// of the probes divided by √probes).
type Estimate struct {
	N int
	// Engine is the engine whose work the probes measured, the one that
	// counts N ([Engine]).
	Engine   string
	Probes   int
	Units    int
	Nodes    float64 // expected search nodes (the join: pairs of halves compared) of a full count
	NodesErr float64
	Total    float64 // expected number of solutions
	TotalErr float64
	// Seconds is the expected time of a full count on one worker where
	// the probes measured it (the join times the keys it counts), with its
	// standard error; 0 where the time follows from a node rate (the tree
	// search, see [MeasureRate]).
	Seconds    float64
	SecondsErr float64
	// The join's memory: the most one worker's lists and halves took in
	// the probes, the quarter tables its workers share (0 where they would
	// pass half of [Memory] and each worker builds lists per rows set),
	// and what those tables take or would take (0 if not known).
	WorkerBytes, TableBytes, TablesNeed int64
	// LowerBound is set when no probe of the join finished within its
	// limit: Seconds is then what the count would take at least, and the
	// other estimates are 0.
	LowerBound bool
}

// EstimateTree runs probes random probes (Knuth, Math. Comp. 29, 1975) over
// the units of N: each probe picks a unit uniformly and walks one random
// path down its search tree. The results are unbiased: their mean over all
// possible probes is exactly the engine's node count and Q(N). Pass the same
// seed to get the same estimate. Cost O(probes · N²).
//
// For N counted by the join ([JoinFrom] to [JoinTo]) a probe counts the
// keys of one set of rows of the left half exactly, as a count does, and
// times them, so the estimates of nodes, solutions and seconds are
// unbiased too (the seconds up to the caches: a key met at random finds
// less of its data in them than the count's next key: N = 18 comes out
// about 15% long, N = 19 to 21 within 3%); it takes at most joinProbes probes or joinProbeTime,
// and builds the quarter tables first (their time is part of Seconds).
func EstimateTree(ctx context.Context, n, probes int, seed uint64) (Estimate, error) {
	return EstimateTreeWithin(ctx, n, probes, seed, JoinProbeLimit)
}

// JoinProbeLimit is how long the join's probes of [EstimateTree] and
// [EstimateUnits] may take: from N = 26 or so a probe (a rows set counted
// in full) takes longer, and the estimate is then a lower bound
// (Estimate.LowerBound), enough to say that a count takes long.
const JoinProbeLimit = 5 * time.Second

// EstimateTreeWithin is [EstimateTree] whose join probes may take limit
// (wall time): those unfinished then are left out, and if none finished
// the estimate is the lower bound that each would have taken limit.
func EstimateTreeWithin(ctx context.Context, n, probes int, seed uint64, limit time.Duration) (Estimate, error) {
	if err := checkEstimate(n, probes); err != nil {
		return Estimate{}, err
	}
	if usesJoin(n) {
		s := schemeOf(n).(*joinScheme)
		if s.layout.Ranked() {
			all := make([]int, s.len())
			for i := range all {
				all[i] = i
			}
			return estimateRanked(ctx, s, all, probes, seed, limit)
		}
		return estimateJoin(ctx, s, s.layout.Keys(), s.len(), probes, seed, limit)
	}
	return estimateOver(ctx, n, units(n), probes, seed)
}

// EstimateUnits is [EstimateTree] over the given units of N only, such as
// those a resumed count has left to do. Cost O(len(indices) + probes · N²).
func EstimateUnits(ctx context.Context, n int, indices []int, probes int, seed uint64) (Estimate, error) {
	return EstimateUnitsWithin(ctx, n, indices, probes, seed, JoinProbeLimit)
}

// EstimateUnitsWithin is [EstimateUnits] whose join probes may take limit,
// as [EstimateTreeWithin]'s.
func EstimateUnitsWithin(ctx context.Context, n int, indices []int, probes int, seed uint64, limit time.Duration) (Estimate, error) {
	if err := checkEstimate(n, probes); err != nil {
		return Estimate{}, err
	}
	if usesJoin(n) {
		s := schemeOf(n).(*joinScheme)
		var keys []join.Key
		for _, i := range indices {
			if i < 0 || i >= s.len() {
				return Estimate{}, fmt.Errorf("unit %d is outside 0..%d for N = %d", i, s.len()-1, n)
			}
			if s.layout.Ranked() {
				continue
			}
			if i < s.layout.Units() {
				keys = append(keys, s.layout.UnitKeys(i)...)
			}
		}
		if s.layout.Ranked() {
			return estimateRanked(ctx, s, indices, probes, seed, limit)
		}
		return estimateJoin(ctx, s, keys, len(indices), probes, seed, limit)
	}
	all := units(n)
	u := make([]UnitSpec, 0, len(indices))
	for _, i := range indices {
		if i < 0 || i >= len(all) {
			return Estimate{}, fmt.Errorf("unit %d is outside 0..%d for N = %d", i, len(all)-1, n)
		}
		u = append(u, all[i])
	}
	return estimateOver(ctx, n, u, probes, seed)
}

// checkEstimate checks the arguments of EstimateTree and EstimateUnits.
func checkEstimate(n, probes int) error {
	if n < 1 || n > MaxN {
		return errSize(n)
	}
	if probes < 2 {
		return fmt.Errorf("need at least 2 probes, got %d", probes)
	}
	return nil
}

// estimateOver is [EstimateTree] over the unit list u of n.
func estimateOver(ctx context.Context, n int, u []UnitSpec, probes int, seed uint64) (Estimate, error) {
	e := Estimate{N: n, Engine: EngineTree, Probes: probes, Units: len(u)}
	if len(u) == 0 {
		return e, nil
	}
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	pick := func(k int) int { return rng.IntN(k) }
	var nodesMean, totalMean sample.Mean
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
		nodesMean.Add(scale * nodes)
		totalMean.Add(scale * float64(w) * sols)
	}
	e.Nodes, e.NodesErr = nodesMean.Result()
	e.Total, e.TotalErr = totalMean.Result()
	return e, nil
}

// Rate is a measured speed of the tree search on one core.
type Rate struct {
	N           int     // board counted to measure it
	Engine      string  // the engine measured: always EngineTree
	Nodes       uint64  // search nodes counted
	NodesPerSec float64 // search nodes per second on one worker
	Elapsed     time.Duration
}

// MeasureRate counts N by the tree search on one worker (whatever engine
// Count takes for N) and returns its node rate, for the tree's estimates
// (the join times its own probes, Estimate.Seconds). N = 15 takes about
// 0.1 s. The rate per node grows slowly with N (more rows to compare at
// each node), so times predicted from a small N are on the low side.
func MeasureRate(ctx context.Context, n int) (Rate, error) {
	if n < 1 || n > MaxN {
		return Rate{}, errSize(n)
	}
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	start := time.Now()
	var nodes uint64
	for i, s := range units(n) {
		r, ok, err := countSpec(n, i, s, &stop)
		if err != nil {
			return Rate{}, err
		}
		if !ok {
			return Rate{}, ctx.Err()
		}
		nodes += r.Nodes
	}
	el := time.Since(start)
	return Rate{N: n, Engine: EngineTree, Nodes: nodes, NodesPerSec: float64(nodes) / max(el.Seconds(), 1e-9), Elapsed: el}, nil
}

// spreadProbes and spreadSigmas set [CheckSpread]: 100000 probes estimate
// the total of N = 28 within about 5% (one standard error), so a total
// more than ten standard errors off is not a count of this problem.
const (
	spreadProbes = 100_000
	spreadSigmas = 10
)

// SpreadError reports a total too far from the random-probe estimate to be
// a count of N.
type SpreadError struct {
	N                  int
	Total              Uint128
	Estimate, StdError float64
	Probes             int
}

func (e *SpreadError) Error() string { return e.Localize(i18n.For(i18n.English)) }

// Localize is the error in p's language.
func (e *SpreadError) Localize(p *i18n.Printer) string {
	return p.T("count.spread", i18n.Args{"N": e.N, "Total": e.Total.String(),
		"Sigmas": fmt.Sprintf("%.0f", math.Abs(e.Total.Float64()-e.Estimate)/e.StdError), "Estimate": fmt.Sprintf("%.4g", e.Estimate),
		"Err": fmt.Sprintf("%.2g", e.StdError), "Probes": strconv.Itoa(e.Probes)})
}

// CheckSpread checks a total past the published table against Knuth's
// estimate of it (the tree's probes of [EstimateTree], with a random seed the result's makers
// cannot know): a total more than 10 standard errors from the estimate is a
// [*SpreadError]. It catches gross forgeries and faults, not a lie of a few
// percent; for N with a published count it does nothing (the table is
// exact). Cost 100000 probes, about 0.4 s for N = 28 on one core.
func CheckSpread(ctx context.Context, r Result) error {
	if _, _, ok := Known(r.N); ok || r.N < 1 || r.N > MaxN {
		return nil
	}
	var seed [8]byte
	_, _ = crand.Read(seed[:])
	// The tree's probes whatever engine counts N: each walks one path, where
	// one of the join's counts a rows set in full (minutes past N = 26).
	e, err := estimateOver(ctx, r.N, units(r.N), spreadProbes, binary.LittleEndian.Uint64(seed[:]))
	if err != nil {
		return err
	}
	if math.Abs(r.Total.Float64()-e.Total) > spreadSigmas*e.TotalErr {
		return &SpreadError{N: r.N, Total: r.Total, Estimate: e.Total, StdError: e.TotalErr, Probes: e.Probes}
	}
	return nil
}

// UnitEstimate is Knuth's estimate of the search of one unit counted by
// the tree, from random probes down its own tree ([EstimateUnit]): a
// check of a result that does not trust whoever counted it.
type UnitEstimate struct {
	N, Index int
	Probes   int
	Nodes    float64 // expected search nodes of the unit
	Total    float64 // expected total, times its orbit size as a result has it
	Hits     int     // probes that reached a solution
	weight   uint64  // the orbit size
}

// The bounds of [UnitEstimate.Allows]. With 1000 probes, the estimates of
// every unit of the N = 8 to 13 the tree counts (three seeds) and of the
// tree's own units of N = 14 to 17 (two seeds) lay within 0.89 to 1.12 of
// the true nodes and, where 10 probes or more found a solution, within
// 0.37 to 4.1 of the true total; where fewer did, the total was at most
// 6.3 × (hits + 1) / probes × the estimated nodes, times the orbit size
// (TestUnitEstimateAllowsEveryRealUnit logs the scan). The bounds leave a
// margin of 3.5 to 10 beyond that, so that a true result is seldom
// counted again for bad luck; past N = 17 one probe's spread grows (its
// standard deviation is about twice its mean at N = 28, 1.2 times at
// N = 20), which 1000 probes divide by 30.
const (
	UnitProbes        = 1000 // probes per unit the coordinator runs
	unitNodesFactor   = 4    // nodes within this factor of the estimate
	unitTotalFactor   = 16   // the total within this factor of it
	unitHitsForTotal  = 10   // hits it takes to estimate the total
	unitFewHitsFactor = 64   // the total's bound with fewer hits
)

// EstimateUnit runs probes random probes (at least 1) down the search tree
// of unit index of N, from seed, as [EstimateTree] does over all units. It
// is for the N the tree counts: a unit of the join is no tree. Cost
// O(probes · N²): about 4 ms for 1000 probes of a unit of N = 28.
func EstimateUnit(n, index, probes int, seed uint64) (UnitEstimate, error) {
	if n < 1 || n > MaxN {
		return UnitEstimate{}, errSize(n)
	}
	if usesJoin(n) {
		return UnitEstimate{}, fmt.Errorf("N = %d is counted by the join of half boards, whose units have no search tree to probe", n)
	}
	if probes < 1 {
		return UnitEstimate{}, fmt.Errorf("need at least 1 probe, got %d", probes)
	}
	all := units(n)
	if index < 0 || index >= len(all) {
		return UnitEstimate{}, fmt.Errorf("unit %d is outside 0..%d for N = %d", index, len(all)-1, n)
	}
	return estimateSpec(n, index, all[index], probes, seed), nil
}

// estimateSpec is EstimateUnit for the tree's unit s, numbered index.
func estimateSpec(n, index int, s UnitSpec, probes int, seed uint64) UnitEstimate {
	w, _ := s.orbit(n)
	e := UnitEstimate{N: n, Index: index, Probes: probes, weight: uint64(w)}
	rng := rand.New(rand.NewPCG(seed, uint64(n)<<32|uint64(index)))
	pick := func(k int) int { return rng.IntN(k) }
	b, placed := s.board(n)
	for range probes {
		nodes, sols := kernel.Probe(&b, pick)
		e.Nodes += nodes + float64(placed)
		e.Total += sols * float64(w)
		if sols > 0 {
			e.Hits++
		}
	}
	e.Nodes /= float64(probes)
	e.Total /= float64(probes)
	return e
}

// EstimateError reports a unit result far outside what its unit's
// estimate allows: a result to count again before it is trusted.
type EstimateError struct {
	N, Index int
	Reason   string
}

func (e *EstimateError) Error() string {
	return fmt.Sprintf("unit %d of N = %d lies outside its estimate: %s", e.Index, e.N, e.Reason)
}

// Allows reports whether u, a result of e's unit, lies within what the
// estimate allows, or else an [*EstimateError] saying how far off: its
// nodes within a factor 4 of the estimate; a total above 0 if a probe
// found a solution (a proof that there is one); a total within a factor
// 16 of the estimate when 10 probes or more found solutions, and at most
// 64 × (hits + 1) / probes × the estimated nodes, times the orbit size,
// when fewer did. The first two are exact or nearly so (the mean of the
// probes exceeds 4 times the true nodes with probability under 1/4 by
// Markov's inequality, and far less in fact); the others rest on the
// measured spread of the estimates (see the constants' comment). A true
// result may fail by bad luck, rarely: a caller counts it again rather
// than refuse it. Cost O(1).
func (e UnitEstimate) Allows(u UnitResult) error {
	bad := func(format string, args ...any) error {
		return &EstimateError{N: e.N, Index: e.Index, Reason: fmt.Sprintf(format, args...)}
	}
	nodes, total := float64(u.Nodes), float64(u.Total)
	switch {
	case nodes < e.Nodes/unitNodesFactor || nodes > e.Nodes*unitNodesFactor:
		return bad("nodes = %d, but %d random probes estimate %.4g", u.Nodes, e.Probes, e.Nodes)
	case e.Hits > 0 && u.Total == 0:
		return bad("total = 0, but %d of %d random probes found solutions", e.Hits, e.Probes)
	case e.Hits >= unitHitsForTotal && (total < e.Total/unitTotalFactor || total > e.Total*unitTotalFactor):
		return bad("total = %d, but %d random probes estimate %.4g", u.Total, e.Probes, e.Total)
	case e.Hits < unitHitsForTotal && total > unitFewHitsFactor*float64(e.weight)*float64(e.Hits+1)/float64(e.Probes)*e.Nodes:
		return bad("total = %d, but only %d of %d random probes found a solution", u.Total, e.Hits, e.Probes)
	}
	return nil
}
