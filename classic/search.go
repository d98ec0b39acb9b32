package classic

import (
	"context"
	"iter"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
)

// checkEvery is how many placements or candidates go by between two looks at
// the context: often enough to stop within a millisecond, rarely enough to
// cost nothing.
const checkEvery = 1 << 12

// search is the bookkeeping every backtracking strategy shares: counters by
// the package's conventions, the visit callback, cancellation, and, when
// traced, the events. A strategy counts its own work with the methods
// below, and in the traced mode describes each step with emit.
type search struct {
	ctx   context.Context
	n     int
	c     Counters
	visit func(board.Placement) bool
	stop  bool
	err   error

	// Traced mode only.
	// open, for a search started from a partial board, holds the columns
	// each row offers: only its given queen's, none blocked (nil: all).
	open   []uint64
	emit   func(Event) bool
	step   uint64
	view   board.Columns // the queens on the board, read for events
	lesson *lesson       // the strategy's pseudocode and sentences
	p      *i18n.Printer // the language of the sentences (i18n.FromContext)
	f      field         // the board, as the sentences see it
	last   EventKind     // the kind of the event before
}

// opens reports whether row offers col to the search (traced mode).
func (s *search) opens(row, col int) bool { return s.open == nil || s.open[row]>>col&1 == 1 }

// placed counts a queen put on the board and reports whether to go on.
func (s *search) placed() bool {
	s.c.Placed++
	s.c.Tries++
	s.c.Nodes++
	if s.c.Placed%checkEvery == 0 {
		if err := s.ctx.Err(); err != nil {
			s.err, s.stop = err, true
		}
	}
	return !s.stop
}

// rejected counts a try whose square is attacked.
func (s *search) rejected() {
	s.c.Rejected++
	s.c.Tries++
}

// solved counts the solution p and hands it to visit.
func (s *search) solved(p board.Placement) {
	s.c.Solutions++
	if s.visit != nil && !s.visit(p) {
		s.stop = true
	}
}

// event completes e (step, board, counters, pseudocode line and sentence)
// and hands it to the consumer; false when the search must stop.
func (s *search) event(e Event) bool {
	if s.stop {
		return false
	}
	s.step++
	e.Step = s.step
	e.Queens = board.Collect(s.view)
	e.Counters = s.c
	e.Line = s.lesson.line(e.Kind)
	e.Text = s.lesson.say(s.p, &e, s.f, s.last)
	s.last = e.Kind
	if err := s.ctx.Err(); err != nil {
		s.err, s.stop = err, true
	} else if !s.emit(e) {
		s.stop = true
	}
	return !s.stop
}

// backtracking is a backtracking strategy, a [Completer]: its search in
// two modes, quiet (for Solve) and traced (s.emit set; it sets s.view
// before the first event), and the lesson its events are told by. Its
// Solve, Trace and TraceFrom are every backtracking strategy's, by the
// same bookkeeping (search).
type backtracking struct {
	name          string
	quiet, traced func(s *search)
	teach         *lesson
}

func (b backtracking) Name() string        { return b.name }
func (b backtracking) Description() string { return description(b.name) }
func (b backtracking) lesson() *lesson     { return b.teach }

// Solve costs what the strategy's search says.
func (b backtracking) Solve(ctx context.Context, n int, visit func(board.Placement) bool) (Counters, error) {
	if err := checkN(b, n, MaxN); err != nil {
		return Counters{}, err
	}
	if err := ctx.Err(); err != nil {
		return Counters{}, err
	}
	start := time.Now()
	s := &search{ctx: ctx, n: n, visit: visit}
	b.quiet(s)
	s.c.Elapsed = time.Since(start)
	return s.c, s.err
}

// Trace is the search's events, then a final Done event when the search ran
// to its end.
func (b backtracking) Trace(ctx context.Context, n int) iter.Seq2[Event, error] {
	return traceOpen(ctx, b, n, nil)
}

// TraceFrom is Trace where p's queens and blocked squares, checked, become
// the columns each row offers.
func (b backtracking) TraceFrom(ctx context.Context, p board.Partial) iter.Seq2[Event, error] {
	n := len(p.Queens)
	if err := checkN(b, n, MaxN); err != nil {
		return func(yield func(Event, error) bool) { yield(Event{}, err) }
	}
	if err := p.Check(); err != nil {
		return func(yield func(Event, error) bool) { yield(Event{}, &StartError{err}) }
	}
	open := make([]uint64, n)
	for r, c := range p.Queens {
		open[r] = ^uint64(0) >> (64 - n)
		if c != board.Empty {
			open[r] = 1 << c
		}
	}
	for _, sq := range p.Blocked {
		open[sq.Row] &^= 1 << sq.Col
	}
	if p.Queens.Queens() == 0 && len(p.Blocked) == 0 {
		open = nil // the plain search, sentences included
	}
	return traceOpen(ctx, b, n, open)
}

func traceOpen(ctx context.Context, b backtracking, n int, open []uint64) iter.Seq2[Event, error] {
	return runTrace(ctx, b, n, func(emit func(Event) bool) error {
		s := &search{ctx: ctx, n: n, open: open, emit: emit, lesson: b.teach, p: i18n.Ctx(ctx), f: newField(n, open)}
		b.traced(s)
		if !s.stop {
			s.event(Event{Kind: Done, Row: board.Empty, Col: board.Empty})
		}
		return s.err
	})
}

// runTrace is a trace of strategy s as board's convention has it: a size out
// of range, or a context ended before the search starts, is the only pair;
// the error run returns (the end of ctx) is the last one.
func runTrace(ctx context.Context, s Strategy, n int, run func(emit func(Event) bool) error) iter.Seq2[Event, error] {
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
