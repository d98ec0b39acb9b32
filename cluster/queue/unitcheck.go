package queue

import (
	"context"

	"github.com/nqueens/nqueens/count"
)

// checker checks votes against their units' estimates on the
// coordinator's own cores (CoordinatorOptions.UnitProbes): Knuth's random
// probes down each unit's search tree, from a seed the workers cannot
// know, and the bounds of count.UnitEstimate.Allows.
type checker = pool[estimateCheck, estimateCheck]

// estimateCheck is a vote for block k, and, once checked, the first of
// its units that lies outside its estimate (doubt), if any.
type estimateCheck struct {
	k     int
	v     vote
	doubt error
}

func startChecker(ctx context.Context, run Run, probes, workers int, seed uint64) *checker {
	return startPool(ctx, workers, func(ctx context.Context, j estimateCheck) estimateCheck {
		for _, u := range j.v.Units {
			if ctx.Err() != nil {
				break
			}
			e, err := count.EstimateUnit(run.N, u.Index, probes, seed)
			if err == nil {
				err = e.Allows(u)
			}
			if err != nil {
				j.doubt = err
				break
			}
		}
		return j
	})
}

// estimated takes a vote back from its estimate check into the book: one
// outside its estimate is counted again before its block is decided.
func (c *coordinator) estimated(r estimateCheck) {
	c.checking[r.k]--
	if !c.book.counts(r.v.by()) {
		c.dirty = true // its voter was banned during the check: its copy is spent
		return
	}
	if r.doubt != nil {
		c.book.doubt(r.k, r.v, r.doubt)
	}
	c.book.add(r.k, r.v)
}
