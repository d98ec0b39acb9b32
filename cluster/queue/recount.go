package queue

import (
	"context"
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
	err   error
}

func startRecounter(ctx context.Context, run Run, workers int) *recounter {
	return startPool(ctx, workers, func(ctx context.Context, k int) recount {
		units, err := countBlock(ctx, run, run.block(k))
		return recount{k: k, units: units, err: err}
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
