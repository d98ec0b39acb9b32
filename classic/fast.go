package classic

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens/count"
)

// The project's counting engine, as the last step of the story. It counts
// without listing solutions, on every core, so its Solve never calls visit;
// its nodes are those of its own search (constellations, fewest-free-row
// branching), not comparable with the backtracking conventions.
func init() {
	Register(CountOnly("fast", "the project's counting engine (package count): counts only, on every core",
		count.MaxN, countFast))
}

func countFast(ctx context.Context, n int) (Counters, error) {
	r, err := count.Count(ctx, n, count.Options{})
	c := Counters{Solutions: r.Total.Lo, Nodes: r.Nodes.Lo}
	if r.Total.Hi != 0 || r.Nodes.Hi != 0 {
		return Counters{}, fmt.Errorf("fast: the counts for n = %d pass 2^64, beyond the classic counters (use nqueens count)", n)
	}
	return c, err
}
