package dominate

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/runner"
)

// MaxN is the largest board Solve takes.
const MaxN = 64

// ExactReach is the largest board whose minimum Solve proves by exhaustive
// search (and whose minimum sets it can count): N = 12 takes seconds on
// two cores, and every step of N multiplies the work by ten or more.
const ExactReach = 13

// Options tune [Solve].
type Options struct {
	// Independent asks for queens that also do not attack each other.
	Independent bool
	// Count asks for the number of minimum sets (exact boards only).
	Count bool
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// Steps bounds the local search on boards past ExactReach: the moves
	// it makes looking for a set one queen smaller (default DefaultSteps).
	Steps int
}

// DefaultSteps is the local search's default number of moves per size
// tried: about a second at N = 64.
const DefaultSteps = 20000

// Result is what [Solve] found.
type Result struct {
	N           int
	Independent bool
	// Minimum is the domination number when Exact; otherwise the size of
	// the smallest set found.
	Minimum int
	// Queens is one set of Minimum queens that dominates the board,
	// checked square by square.
	Queens []board.Square
	// Exact reports that Minimum is proved: no smaller set dominates (an
	// exhaustive search found none of Minimum − 1 queens, or Minimum meets
	// LowerBound).
	Exact bool
	// LowerBound is ⌈(N − 1)/2⌉, below which no set dominates the board
	// (Raghavan and Venketesan 1987, Weakley 1995).
	LowerBound int
	// Count is the number of minimum sets, all placements counted (as
	// OEIS A002564 and A002568 count them), when Counted.
	Count   uint64
	Counted bool
	Nodes   uint64
	Elapsed time.Duration
}

// LowerBound returns ⌈(N − 1)/2⌉: no fewer queens dominate an N × N board.
func LowerBound(n int) int { return n / 2 }

// Solve finds the fewest queens that occupy or attack every square of an
// N × N board (OEIS A075458; with Options.Independent, queens that also do
// not attack each other, A075324), with one such set and, with
// Options.Count, how many there are (A002564, A002568).
//
// Up to [ExactReach] the minimum is proved by exhaustive search: for the
// plain problem, no set of one queen fewer dominates (and then no smaller
// one does either, as adding queens keeps a set dominating); for
// independent queens, which a smaller set does not bound, the plain minimum
// is proved first and every size from it up to the answer is searched in
// full. Past ExactReach, Solve runs a greedy choice and a local search of
// Options.Steps moves per size and returns the smallest set found with Exact false,
// unless it meets [LowerBound]; asking for a count there is an error. A
// proved minimum or a count that differs from its published term
// ([Published]) is a [*MismatchError], never a result.
//
// The search branches on the undominated square with the fewest squares
// that could dominate it, one branch per such square with the earlier ones
// forbidden (so every set is met once), and prunes when the k squares that
// dominate most together cannot cover what is left. Cost: exponential in
// N; seconds at N = 12 on two cores.
func Solve(ctx context.Context, n int, o Options) (Result, error) {
	if err := board.CheckSize(n, "dominate", MaxN); err != nil {
		return Result{}, err
	}
	start := time.Now()
	res := Result{N: n, Independent: o.Independent, LowerBound: LowerBound(n)}
	if n > ExactReach {
		if o.Count {
			return Result{}, fmt.Errorf("counting the minimum sets is within reach up to N = %d, not N = %d", ExactReach, n)
		}
		err := res.heuristic(ctx, o)
		res.Elapsed = time.Since(start)
		if err != nil {
			return res, err
		}
		if err := res.checkPublished(); err != nil { // a minimum proved by the lower bound
			return Result{}, err
		}
		return res, nil
	}
	plain := newProblem(n, false)
	k, first, err := minimum(ctx, plain, max(1, res.LowerBound-1), o.Workers, &res.Nodes)
	if err != nil {
		return Result{}, err
	}
	p := plain
	if o.Independent {
		p = newProblem(n, true)
		if k, first, err = minimum(ctx, p, k, o.Workers, &res.Nodes); err != nil {
			return Result{}, err
		}
	}
	res.Minimum, res.Exact = k, true
	res.Queens = squares(n, first)
	if err := check(n, res.Queens, o.Independent); err != nil {
		return Result{}, err
	}
	if o.Count {
		r, err := run(ctx, p, k, true, o.Workers)
		res.Nodes += r.nodes
		if err != nil {
			return Result{}, err
		}
		res.Count, res.Counted = r.found, true
	}
	res.Elapsed = time.Since(start)
	if err := res.checkPublished(); err != nil {
		return Result{}, err
	}
	return res, nil
}

// minimum returns the smallest k ≥ from for which p has a dominating set,
// and one such set, searching every k before it in full.
func minimum(ctx context.Context, p *problem, from, workers int, nodes *uint64) (int, []int, error) {
	for k := from; k <= p.cells; k++ {
		r, err := run(ctx, p, k, false, workers)
		*nodes += r.nodes
		if err != nil {
			return 0, nil, err
		}
		if r.found > 0 {
			return k, r.first, nil
		}
	}
	return 0, nil, errors.New("no set of queens dominates the board") // unreachable: all squares do
}

// outcome sums the units of one run.
type outcome struct {
	unit   int // the unit searched, for one result
	found  uint64
	first  []int
	nodes  uint64
	broken bool
}

// errFound stops a run that looks for one set once one is found.
var errFound = errors.New("found")

// run searches for dominating sets of k queens on p (counting them all, or
// stopping at the first), cut into units two queens deep and run in
// parallel.
func run(ctx context.Context, p *problem, k int, count bool, workers int) (outcome, error) {
	var units []unitState
	root := &searcher{p: p, collect: &units, cut: min(2, k), cov: make([]int, 0, k)}
	root.search(p.all, set{}, k)
	var out outcome
	search := func(i int, stop *atomic.Bool) (outcome, bool, error) {
		u := units[i]
		s := &searcher{p: p, count: count, stop: stop, queens: append([]int(nil), u.queens...), cov: make([]int, 0, k)}
		s.search(u.u, u.forbidden, u.k)
		if s.halted {
			return outcome{}, false, nil
		}
		return outcome{unit: i, found: s.found, first: s.first, nodes: s.nodes, broken: s.broken}, true, nil
	}
	// The set shown is the first unit's that has one, whichever worker
	// finishes first, so that every run prints the same arrangement; a
	// search for one set stops once every unit before that one is done.
	done, firstUnit, below := make([]bool, len(units)), len(units), 0
	take := func(b runner.Batch[outcome]) error {
		for _, r := range b.Units {
			out.found += r.found
			out.nodes += r.nodes
			out.broken = out.broken || r.broken
			done[r.unit] = true
			if r.first != nil && r.unit < firstUnit {
				out.first, firstUnit = r.first, r.unit
			}
		}
		for below < firstUnit && done[below] {
			below++
		}
		if !count && out.found > 0 && below == firstUnit {
			return errFound
		}
		return nil
	}
	todo := make([]int, len(units))
	for i := range todo {
		todo[i] = i
	}
	err := runner.Run(ctx, todo, search, runner.Options[outcome]{Workers: workers, Take: take})
	if errors.Is(err, errFound) {
		err = nil
	}
	if err != nil {
		return out, err
	}
	if out.broken {
		return out, fmt.Errorf("the search at N = %d found a set of fewer than %d queens that dominates the board, which the search before had ruled out; the count is wrong and was not printed", p.n, k)
	}
	return out, nil
}

// squares converts square numbers to rows and columns.
func squares(n int, v []int) []board.Square {
	out := make([]board.Square, len(v))
	for i, x := range v {
		out[i] = board.Square{Row: x / n, Col: x % n}
	}
	return out
}

// check verifies a set square by square: every square of the board is a
// queen's or on a queen's line, and with independent no two queens share a
// line. It is the word of this package on any set it returns.
func check(n int, queens []board.Square, independent bool) error {
	return Check(n, queens, independent)
}

// Check reports whether queens dominate the N × N board (every square
// holds a queen or is on a queen's row, column or diagonal) and, with
// independent, attack no other queen; the error names the first square
// left undominated or the attacking pair. Cost O(N² · queens).
func Check(n int, queens []board.Square, independent bool) error {
	for i, q := range queens {
		if q.Row < 0 || q.Row >= n || q.Col < 0 || q.Col >= n {
			return fmt.Errorf("queen %v is off the %d × %d board", q, n, n)
		}
		for _, p := range queens[:i] {
			if p == q {
				return fmt.Errorf("two queens on %v", q)
			}
			if independent && board.Attacks(p, q) || independent && p.Row == q.Row {
				return fmt.Errorf("queens %v and %v attack each other", p, q)
			}
		}
	}
	for r := range n {
		for c := range n {
			s := board.Square{Row: r, Col: c}
			ok := false
			for _, q := range queens {
				if q == s || q.Row == r || board.Attacks(q, s) {
					ok = true
					break
				}
			}
			if !ok {
				return fmt.Errorf("square %v is neither occupied nor attacked", s)
			}
		}
	}
	return nil
}
