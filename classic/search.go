package classic

import (
	"context"
	"iter"
	"time"

	"github.com/nqueens/nqueens/board"
)

// checkEvery is how many placements or candidates go by between two looks at
// the context: often enough to stop within a millisecond, rarely enough to
// cost nothing.
const checkEvery = 1 << 12

// search is the bookkeeping every backtracking strategy shares: counters by
// the package's conventions, the visit callback, the optional trace and
// cancellation. A strategy calls place after putting a queen down, reject
// for an attacked square, remove after taking a queen off, and solution
// when every row holds a queen; it stops as soon as stop is set.
type search struct {
	ctx   context.Context
	c     Counters
	visit func(board.Placement) bool
	emit  func(Event) bool // nil unless traced
	view  board.Columns    // the queens on the board, read for events
	stop  bool
	err   error
}

func (s *search) place(row, col int) bool {
	if s.stop {
		return false
	}
	s.c.Placed++
	s.c.Tries++
	s.c.Nodes++
	if s.c.Placed%checkEvery == 0 {
		if err := s.ctx.Err(); err != nil {
			s.err, s.stop = err, true
			return false
		}
	}
	return s.emit == nil || s.event(Event{Kind: Place, Row: row, Col: col})
}

func (s *search) reject(row, col int) {
	if s.stop {
		return
	}
	s.c.Rejected++
	s.c.Tries++
	if s.emit != nil {
		by, how := attacker(s.view, row, col)
		s.event(Event{Kind: Reject, Row: row, Col: col, By: by, Attack: how})
	}
}

// rejectMany counts k rejected tries at once, for a search that skips
// attacked squares without looking at them (bitmask) and is not traced.
func (s *search) rejectMany(k int) {
	if !s.stop {
		s.c.Rejected += uint64(k)
		s.c.Tries += uint64(k)
	}
}

func (s *search) remove(row, col int) {
	if s.stop {
		return
	}
	s.c.Backtracks++
	if s.emit != nil {
		s.event(Event{Kind: Remove, Row: row, Col: col})
	}
}

// solution counts p and hands it to visit and the trace.
func (s *search) solution(p board.Placement) {
	if s.stop {
		return
	}
	s.c.Solutions++
	if s.visit != nil && !s.visit(p) {
		s.stop = true
		return
	}
	if s.emit != nil {
		s.event(Event{Kind: Solution, Row: board.Empty, Col: board.Empty})
	}
}

func (s *search) event(e Event) bool {
	e.Step = s.c.Tries + s.c.Backtracks + s.c.Solutions
	e.Queens = board.Collect(s.view)
	e.Counters = s.c
	if err := s.ctx.Err(); err != nil {
		s.err, s.stop = err, true
	} else if !s.emit(e) {
		s.stop = true
	}
	return !s.stop
}

// backtracker is implemented by the backtracking strategies: run searches
// the n×n board, reporting to s, and sets s.view before the first event.
type backtracker interface {
	Strategy
	run(s *search, n int)
}

// solveWith runs a backtracking strategy for Solve.
func solveWith(ctx context.Context, b backtracker, n int, visit func(board.Placement) bool) (Counters, error) {
	if err := checkN(b, n, MaxN); err != nil {
		return Counters{}, err
	}
	if err := ctx.Err(); err != nil {
		return Counters{}, err
	}
	start := time.Now()
	s := &search{ctx: ctx, visit: visit, c: Counters{Nodes: 1}}
	b.run(s, n)
	s.c.Elapsed = time.Since(start)
	return s.c, s.err
}

// traceWith runs a backtracking strategy for Trace.
func traceWith(ctx context.Context, b backtracker, n int) iter.Seq2[Event, error] {
	return traced(ctx, b, n, func(emit func(Event) bool) error {
		s := &search{ctx: ctx, emit: emit, c: Counters{Nodes: 1}}
		b.run(s, n)
		return s.err
	})
}

// traced is a trace of strategy s as board's convention has it: a size out
// of range, or a context ended before the search starts, is the only pair;
// the error run returns (the end of ctx) is the last one.
func traced(ctx context.Context, s Strategy, n int, run func(emit func(Event) bool) error) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		err := checkN(s, n, MaxN)
		if err == nil {
			err = ctx.Err()
		}
		if err == nil {
			err = run(func(e Event) bool { return yield(e, nil) })
		}
		if err != nil {
			yield(Event{}, err)
		}
	}
}
