package queue

import (
	"context"
	"math/rand/v2"
	"slices"

	"github.com/nqueens/nqueens/count"
)

// recounter counts blocks again on the coordinator's own cores, for spot
// checks and to settle disagreements: one block at a time per worker,
// oldest request first.
type recounter = pool[int, recount]

// recount is the coordinator's own count of block k.
type recount struct {
	k     int
	units []count.UnitResult
	// plain is the unit of the block that the independent plain search
	// counted again too and found the same (see plainCheck), −1 for none.
	plain int
	err   error
}

func startRecounter(ctx context.Context, run Run, workers int) *recounter {
	return startPool(ctx, workers, func(ctx context.Context, k int) recount {
		units, err := countBlock(ctx, run, run.block(k))
		r := recount{k: k, units: units, plain: -1, err: err}
		if err == nil && plainAffordable(run.N) {
			r.plain, r.err = plainCheck(ctx, run.N, units, rand.IntN)
		}
		return r
	})
}

// countBlock counts the units of b on one core, with the runner every
// count uses, and returns them in order.
func countBlock(ctx context.Context, run Run, b Block) ([]count.UnitResult, error) {
	todo := make([]int, 0, b.Len())
	for u := b.First; u <= b.Last; u++ {
		todo = append(todo, u)
	}
	var out []count.UnitResult
	err := count.RunUnits(ctx, run.N, todo, count.RunOptions{Workers: 1, Take: func(batch count.Batch) error {
		out = append(out, batch.Units...)
		return nil
	}})
	slices.SortFunc(out, func(a, b count.UnitResult) int { return a.Index - b.Index })
	return out, err
}

// Past the published counts, the coordinator's own count of a block is
// the truth its workers are judged by, yet it comes from the same engine
// as theirs: a bug of the engine would pass every vote and recount. So
// there one unit of each block it counts again, drawn at random, is
// counted a third time by count.RecountUnit, a backtracking search on
// bit sets that shares no code with the engines; a difference stops the
// run. It finds every solution one by one, some hundred times the join's
// time, so only one unit per block, and only where a mean unit takes at
// most plainLimit seconds by its estimate ([count.RecountSeconds]): up to
// N = 24, none from N = 25 on, where a unit takes it hours to months
// (Backing says so).
const plainLimit = 3600

// pastTable reports whether N has no published count; a variable, so that
// tests can take a small N past the table.
var pastTable = func(n int) bool {
	_, _, known := count.Known(n)
	return !known
}

// plainAffordable reports whether the coordinator's recounts of N's
// blocks include the plain search's check of a unit.
func plainAffordable(n int) bool { return pastTable(n) && count.RecountSeconds(n) <= plainLimit }

// plainCheck recounts units[pick(len(units))], the coordinator's count of
// a unit, by the plain search, and returns its index, or a
// *count.RecountError if the two differ.
func plainCheck(ctx context.Context, n int, units []count.UnitResult, pick func(int) int) (int, error) {
	if len(units) == 0 {
		return -1, nil
	}
	u := units[pick(len(units))]
	re, err := count.RecountUnit(ctx, n, u.Index)
	if err != nil {
		return -1, err
	}
	if err := count.CheckRecount(n, u, re); err != nil {
		return -1, err
	}
	return u.Index, nil
}
