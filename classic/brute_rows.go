package classic

import (
	"context"
	"iter"
	"math/big"

	"github.com/nqueens/nqueens/board"
)

// bruteRows puts one queen in each row, every way: n^n candidates
// (16,777,216 for n = 8), each checked whole.
type bruteRows struct{}

func (bruteRows) Name() string { return "brute-rows" }
func (bruteRows) Description() string {
	return "one queen a row in every column, n^n candidates, each checked whole"
}

// Candidates is n^n.
func (bruteRows) Candidates(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(int64(n)), big.NewInt(int64(n)), nil)
}

// Solve counts through the columns like an odometer in base n, the last row
// turning fastest. Cost O(n) per candidate, n^n candidates.
func (b bruteRows) Solve(ctx context.Context, n int, visit func(board.Placement) bool) (Counters, error) {
	return solveCandidates(ctx, b, n, visit, b.run)
}

// TraceCandidates shows every candidate Solve tests, in its order.
func (b bruteRows) TraceCandidates(ctx context.Context, n int) iter.Seq2[Event, error] {
	return traceCandidates(ctx, b, n, b.run)
}

func (bruteRows) run(t *candidates, n int) {
	p := make(board.Placement, n) // all queens in column 0
	for t.test(p, noTwoAttack(p)) {
		r := n - 1
		for r >= 0 && int(p[r]) == n-1 {
			p[r] = 0
			r--
		}
		if r < 0 {
			break
		}
		p[r]++
	}
}
