package complete

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"

	"github.com/nqueens/nqueens/board"
)

// ErrNoCompletion says that the exact search tried every possibility: the
// partial board has no completion.
var ErrNoCompletion = errors.New("no completion exists")

// TooLargeError says that a board is beyond the exact search, which could
// prove that no completion exists or count them.
type TooLargeError struct {
	N          int
	LocalTried bool // the local search ran and found nothing
}

func (e *TooLargeError) Error() string {
	if e.LocalTried {
		return fmt.Sprintf("local search found no completion of the %d×%d board, and the exact search, which could prove that none exists, supports n ≤ %d", e.N, e.N, ExactLimit)
	}
	return e.Unwrap().Error()
}

// Unwrap is the size out of the exact search's range, a *[board.SizeError].
func (e *TooLargeError) Unwrap() error {
	return &board.SizeError{Op: "the exact search", N: e.N, Max: ExactLimit}
}

// MaxLocalN is the largest board the local search takes on. Its memory
// and time grow with n, about 27 bytes and 0.6 µs of CPU a row (10^7 rows:
// 270 MB and 6 s); a larger board is refused at once rather than left to
// run for minutes in gigabytes.
const MaxLocalN = 10_000_000

// CheckLocalN says why the local search refuses an n×n board (a
// *[board.SizeError]), or nil.
func CheckLocalN(n int) error {
	if n > MaxLocalN {
		return &board.SizeError{Op: "completion by local search", N: n, Max: MaxLocalN,
			Why: "its memory and time grow with n: 10^7 rows take about 270 MB and 6 s"}
	}
	return nil
}

// Options tunes the searches.
type Options struct {
	// Seed drives the local search used above ExactLimit; the same seed
	// gives the same completion.
	Seed uint64
	// Progress, if set, is called by the exact search about every 16 K
	// nodes with the nodes visited so far (see [EstimateSearch] for how
	// many to expect), on the searching goroutine.
	Progress func(nodes uint64)
}

// Validate checks a partial board before any search, with
// [board.Partial.Check]: a non-empty board, every blocked square on it, no
// two queens attacking each other and no queen on a blocked square (both a
// *[board.Problem] naming the squares). Cost O(n + b) for b blocked squares.
func Validate(p board.Partial) error { return p.Check() }

func toProblem(p board.Partial) problem {
	q := problem{n: len(p.Queens), queens: p.Queens, blocked: make([][2]int, len(p.Blocked))}
	for i, sq := range p.Blocked {
		q.blocked[i] = [2]int{sq.Row, sq.Col}
	}
	return q
}

// Complete returns one completion of p: a full solution that keeps every
// queen of p and uses no blocked square. For n ≤ [ExactLimit] it runs the
// exact search and returns [ErrNoCompletion] when there is none, which is
// then a proof; the search is exponential in the worst case (n-Queens
// Completion is NP-complete) but takes well under a second at the hard
// point of 21×21 boards. Larger boards, up to [MaxLocalN], get a local
// search with the pre-placed queens fixed, expected O(n + b) with few queens
// placed; if it fails the error is a *[TooLargeError]. Input errors come from [Validate].
func Complete(ctx context.Context, p board.Partial, opts Options) (board.Placement, error) {
	if err := Validate(p); err != nil {
		return nil, err
	}
	q := toProblem(p)
	if q.n > ExactLimit {
		if err := CheckLocalN(q.n); err != nil {
			return nil, err
		}
		cols, ok, err := localSearch(ctx, q.n, q.queens, q.blocked, opts.Seed)
		switch {
		case err != nil:
			return nil, err
		case !ok:
			return nil, &TooLargeError{N: q.n, LocalTried: true}
		}
		return cols, nil
	}
	e := newExact(ctx, q.n, q.queens, q.blocked)
	e.progress = opts.Progress
	var out board.Placement
	e.search(func() bool { out = e.columns(); return false })
	switch {
	case out != nil:
		return out, nil
	case e.err != nil:
		return nil, e.err
	}
	return nil, ErrNoCompletion
}

// All yields every completion of p (n ≤ [ExactLimit]), each a new
// Placement, in the order the search finds them; stopping the loop stops
// the search. An input error, a board that is too large or the end of ctx
// is yielded once, with a nil placement, as the last pair. Cost: as
// [Complete], for each completion found.
func All(ctx context.Context, p board.Partial, opts Options) iter.Seq2[board.Placement, error] {
	return func(yield func(board.Placement, error) bool) {
		if err := Validate(p); err != nil {
			yield(nil, err)
			return
		}
		q := toProblem(p)
		if q.n > ExactLimit {
			yield(nil, &TooLargeError{N: q.n})
			return
		}
		e := newExact(ctx, q.n, q.queens, q.blocked)
		e.progress = opts.Progress
		if !e.search(func() bool { return yield(e.columns(), nil) }) && e.err != nil {
			yield(nil, e.err)
		}
	}
}

// Count returns the exact number of completions of p (n ≤ [ExactLimit]),
// without storing them; a count beyond 2^64-1 is an error rather than a
// wrapped number. Cost: as [All].
func Count(ctx context.Context, p board.Partial, opts Options) (uint64, error) {
	if err := Validate(p); err != nil {
		return 0, err
	}
	q := toProblem(p)
	if q.n > ExactLimit {
		return 0, &TooLargeError{N: q.n}
	}
	e := newExact(ctx, q.n, q.queens, q.blocked)
	e.progress = opts.Progress
	var count uint64
	overflow := false
	e.search(func() bool {
		if count == math.MaxUint64 {
			overflow = true
			return false
		}
		count++
		return true
	})
	switch {
	case overflow:
		return 0, errors.New("the number of completions exceeds 2^64-1")
	case e.err != nil:
		return 0, e.err
	}
	return count, nil
}

// ExcludedDiagonals returns an empty n×n board with k distinct whole
// diagonals blocked (every square on them), drawn from the 4n-2 diagonals
// of both directions; the draw depends only on (n, k, seed). With k near
// [HardDiagonals](n) about half these boards have a completion, and they
// are the hardest for complete search. Cost O(n^2).
func ExcludedDiagonals(n, k int, seed uint64) (board.Partial, error) {
	if err := board.CheckSize(n, "excluded diagonals", MaxExcludedDiagonalsN); err != nil {
		return board.Partial{}, err
	}
	if k < 0 || k > 4*n-2 {
		return board.Partial{}, fmt.Errorf("%d diagonals asked for, but the %d×%d board has %d", k, n, n, 4*n-2)
	}
	q := excludedDiagonals(n, k, seed)
	p := board.Partial{Queens: board.New(n), Blocked: make([]board.Square, len(q.blocked))}
	for i, sq := range q.blocked {
		p.Blocked[i] = board.Square{Row: sq[0], Col: sq[1]}
	}
	return p, nil
}

// MaxExcludedDiagonalsN is the largest board [ExcludedDiagonals] makes: it
// marks the n² squares, 16 MB at this size, and the exact search stops at
// [ExactLimit] long before.
const MaxExcludedDiagonalsN = 1 << 12

// HardDiagonals is the number of blocked diagonals at the hard point of the
// excluded-diagonals family, 0.9n rounded: measured over n = 14..21, about
// half the boards there have a completion and search time peaks.
func HardDiagonals(n int) int { return (9*n + 5) / 10 }
