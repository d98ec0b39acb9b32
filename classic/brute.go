package classic

import (
	"context"
	"time"

	"github.com/nqueens/nqueens/board"
)

// candidates is the bookkeeping of the brute-force strategies: each whole
// board generated is one node and one try, rejected unless it is a solution.
// The uint64 counters cannot overflow in practice (2^64 candidates take
// thousands of years); the closed forms, which pass 2^64 from n = 14 for
// C(n², n) and n = 17 for n^n, are big.Int.
type candidates struct {
	ctx   context.Context
	c     Counters
	visit func(board.Placement) bool
	err   error
	start time.Time
	emit  func(Event) bool // nil unless traced (TraceCandidates)
	pick  []int            // brute-combinations' squares, row·n + col, for events
}

func newCandidates(ctx context.Context, visit func(board.Placement) bool) *candidates {
	return &candidates{ctx: ctx, visit: visit, start: time.Now()}
}

// test counts one candidate p and reports whether to go on.
func (t *candidates) test(p board.Placement, solution bool) bool {
	t.c.Nodes++
	t.c.Tries++
	if !solution {
		t.c.Rejected++
	} else {
		t.c.Solutions++
		if t.visit != nil && !t.visit(p) {
			return false
		}
	}
	if t.emit != nil {
		if t.err = t.ctx.Err(); t.err != nil {
			return false
		}
		return t.emit(t.event(p, solution))
	}
	if t.c.Nodes%checkEvery == 0 {
		if t.err = t.ctx.Err(); t.err != nil {
			return false
		}
	}
	return true
}

// solveCandidates runs a brute-force strategy for Solve: run tests every
// candidate through t.
func solveCandidates(ctx context.Context, s Strategy, n int, visit func(board.Placement) bool, run func(t *candidates, n int)) (Counters, error) {
	if err := checkN(s, n, MaxN); err != nil {
		return Counters{}, err
	}
	t := newCandidates(ctx, visit)
	if t.err = ctx.Err(); t.err == nil {
		run(t, n)
	}
	return t.done()
}

func (t *candidates) done() (Counters, error) {
	t.c.Elapsed = time.Since(t.start)
	return t.c, t.err
}

// noTwoAttack is the articles' whole-board check: every pair of queens,
// compared on columns and diagonals (|Δrow| == |Δcol|). It is O(n²) where
// board.Verify is O(n), but it allocates nothing and usually fails on the
// first pairs, which is what makes brute force bearable at all.
func noTwoAttack(p board.Placement) bool {
	for i := range p {
		for j := i + 1; j < len(p); j++ {
			if d := p[j] - p[i]; d == 0 || int(d) == j-i || int(-d) == j-i {
				return false
			}
		}
	}
	return true
}
