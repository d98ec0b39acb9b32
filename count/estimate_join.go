package count

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/nqueens/nqueens/internal/join"
	"github.com/nqueens/nqueens/internal/sample"
	"golang.org/x/sync/errgroup"
)

// joinProbes and joinProbeTime bound the probes of the join's estimate:
// each counts a key in full.
const (
	joinProbes      = 200
	joinProbeTime   = 2 * time.Second
	rankedProbeTime = time.Minute
)

// estimateJoin is EstimateTree over the keys of the join scheme s, which
// make up units units: each probe counts a group of keys with the same
// rows picked at random, as a count does (it builds their left half once;
// odd N, where a group holds about 5 keys: one key a probe put N = 19 at
// 16 s on one worker, against 10).
func estimateJoin(ctx context.Context, s *joinScheme, keys []join.Key, units, probes int, seed uint64, limit time.Duration) (Estimate, error) {
	e := Estimate{N: s.n, Engine: EngineJoin, Units: units}
	if len(keys) == 0 {
		return e, nil
	}
	var groups []int // the first key of each group, and len(keys)
	for i := range keys {
		if i == 0 || keys[i].E != keys[i-1].E {
			groups = append(groups, i)
		}
	}
	groups = append(groups, len(keys))
	// A probe is a run of joinRun groups from a random one, as a count
	// meets them: the next rows set mostly shares its bottom quarter's
	// rows and finds their placements in the caches (one group a probe put
	// N = 19 at 1.38 times the CPU time of a count on one worker). Every
	// group is in as many runs, so the mean is unbiased.
	n := len(groups) - 1
	run := min(joinRun, n)
	rng := rand.New(rand.NewPCG(seed, uint64(s.n)))
	picks := make([][]join.Key, min(probes, joinProbes))
	for i := range picks {
		g := rng.IntN(n)
		if g+run <= n {
			picks[i] = keys[groups[g]:groups[g+run]]
		} else {
			// Wrapped around: the last groups and the first ones.
			picks[i] = append(slices.Clone(keys[groups[g]:]), keys[:groups[g+run-n]]...)
		}
	}
	return probeJoin(ctx, s, e, picks, float64(n)/float64(run), limit)
}

// joinRun is the rows sets of a probe of the join.
const joinRun = 8

// estimateRanked is EstimateUnits over the units indices of the ranked
// layout of s: each probe counts the keys of a rows set drawn uniformly
// from those of the units (a rank of one of them). Three rows sets in
// four have no key of their own (an image of theirs has); they are drawn
// and skipped, and the share of the others scales the mean.
func estimateRanked(ctx context.Context, s *joinScheme, indices []int, probes int, seed uint64, limit time.Duration) (Estimate, error) {
	e := Estimate{N: s.n, Engine: EngineJoin, Units: len(indices)}
	per, sets := s.layout.PerUnit()
	var ranked []int
	for _, i := range indices {
		if i < s.layout.Units() {
			ranked = append(ranked, i)
		}
	}
	if len(ranked) == 0 {
		return e, nil
	}
	rng := rand.New(rand.NewPCG(seed, uint64(s.n)))
	picks := make([][]join.Key, 0, min(probes, joinProbes))
	draws, hits := 0, 0
	for len(picks) < cap(picks) && draws < 1000*cap(picks) {
		u := ranked[rng.IntN(len(ranked))]
		r := uint64(u)*per + rng.Uint64N(per)
		if r >= sets {
			continue // past the last unit's end: no rows set
		}
		draws++
		if keys := s.layout.SampleKeys(r); len(keys) > 0 {
			hits++
			picks = append(picks, keys)
		}
	}
	if hits == 0 {
		return e, nil
	}
	// The rows sets of the units: whole units, and the last may be short.
	total := float64(len(ranked)) * float64(per)
	if slices.Contains(ranked, s.layout.Units()-1) {
		total -= float64(uint64(s.layout.Units())*per - sets)
	}
	return probeJoin(ctx, s, e, picks, total*float64(hits)/float64(draws), limit)
}

// probeJoin counts and times the key groups picks, each standing for
// scale groups, on every core, each with a worker of its own, so that they
// take about the share of a count they measure; it fills e's estimates
// and the memory they took.
func probeJoin(ctx context.Context, s *joinScheme, e Estimate, picks [][]join.Key, scale float64, limit time.Duration) (Estimate, error) {
	var stop, late atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	defer time.AfterFunc(limit, func() { late.Store(true); stop.Store(true) }).Stop()
	minProbes, probeTime := 10, joinProbeTime
	if s.layout.Ranked() {
		// Each takes a second to minutes, and their spread is wide: a
		// minute of probes where the limit allows.
		minProbes, probeTime = 4, min(rankedProbeTime, limit/4)
	}
	build, err := s.buildTime(&stop)
	if err != nil {
		return Estimate{}, err
	}
	if build < 0 {
		return Estimate{}, ctx.Err()
	}
	type probe struct {
		done                  bool
		total, pairs, seconds float64
	}
	results := make([]probe, len(picks))
	var next atomic.Int64
	var peak atomic.Int64
	var g errgroup.Group
	for range max(1, min(runtime.GOMAXPROCS(0), len(picks))) {
		g.Go(func() error {
			// Each probe's time is its thread's CPU time: what one worker
			// of a count spends, however busy the machine.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			w, err := s.worker(&stop)
			if err != nil || w == nil {
				return err
			}
			defer s.putWorker(w)
			defer func() { notePeak(&peak, w.Bytes()) }()
			// One group untimed first: the worker's buffers grow on the
			// first keys.
			if !s.layout.Ranked() {
				if _, _, ok := w.CountKeys(picks[0], &stop); !ok {
					return nil
				}
			}
			t0 := time.Now()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(picks) || i >= minProbes && time.Since(t0) > probeTime {
					return nil
				}
				k0 := threadCPU()
				total, pairs, ok := w.CountKeys(picks[i], &stop)
				if err := w.Err(); err != nil {
					return err
				}
				if !ok {
					return nil
				}
				results[i] = probe{true, float64(total), float64(pairs), (threadCPU() - k0).Seconds()}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return Estimate{}, err
	}
	if err := ctx.Err(); err != nil {
		return Estimate{}, err
	}
	e.WorkerBytes = peak.Load()
	s.memoryOf(&e)
	var totalMean, pairsMean, secondsMean sample.Mean
	for _, r := range results {
		if r.done {
			totalMean.Add(scale * r.total)
			pairsMean.Add(scale * r.pairs)
			secondsMean.Add(scale * r.seconds)
		}
	}
	e.Probes = totalMean.Len()
	if e.Probes == 0 && late.Load() {
		// Each probe would have taken longer than limit.
		e.Seconds, e.LowerBound = scale*limit.Seconds()+build, true
		return e, nil
	}
	if e.Probes == 0 {
		return Estimate{}, fmt.Errorf("no probe of the join of N = %d finished", s.n)
	}
	e.Total, e.TotalErr = totalMean.Result()
	e.Nodes, e.NodesErr = pairsMean.Result()
	e.Seconds, e.SecondsErr = secondsMean.Result()
	e.Seconds += build
	// Probes cut short are left out, and the long ones are those: a
	// lower bound.
	e.LowerBound = late.Load()
	return e, nil
}

// memoryOf sets e's tables' sizes.
func (s *joinScheme) memoryOf(e *Estimate) {
	e.TableBytes = s.tableBytes()
	s.mu.Lock()
	defer s.mu.Unlock()
	e.TablesNeed = s.tablesNeed
	if s.tables != nil {
		e.TablesNeed = s.tables.Bytes()
	}
}

// notePeak raises peak to b.
func notePeak(peak *atomic.Int64, b int64) {
	for {
		if p := peak.Load(); b <= p || peak.CompareAndSwap(p, b) {
			return
		}
	}
}

// buildTime builds the tables if they are to be built (their time is part
// of a count's) and returns the CPU time of the process it took, which
// builds them on every core; −1 if stop ended it.
func (s *joinScheme) buildTime(stop *atomic.Bool) (float64, error) {
	start := processCPU()
	w, err := s.worker(stop)
	if err != nil {
		return 0, err
	}
	if w == nil {
		return -1, nil
	}
	s.putWorker(w)
	return (processCPU() - start).Seconds(), nil
}
