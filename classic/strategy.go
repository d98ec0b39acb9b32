package classic

import (
	"context"
	"fmt"
	"iter"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
)

// MaxN is the largest board the classic strategies accept. The bitmask
// search keeps a row in a uint64; the others would take longer than anyone
// waits long before this size, but they stay cancellable.
const MaxN = 64

// Strategy is one method of finding every solution of the n-queens problem.
type Strategy interface {
	// Name is the short name used on the command line, e.g. "stack".
	Name() string
	// Description is one line saying what the method does.
	Description() string
	// Solve runs the whole search for the n×n board and calls visit (if not
	// nil) with each solution, stopping early when visit returns false.
	// The placement passed to visit is the strategy's own buffer, valid
	// only during the call: Clone it to keep it. Solve returns the counters
	// of the work done, with ctx.Err() if ctx was cancelled first, or a
	// *[SizeError] if n is out of range. Cost: see the strategy.
	Solve(ctx context.Context, n int, visit func(board.Placement) bool) (Counters, error)
}

// TraceOf returns how to watch s's search: step by step for a backtracking
// strategy ([Tracer]), candidate by candidate for a brute-force one
// ([CandidateTracer]); false for a strategy that only counts.
func TraceOf(s Strategy) (func(ctx context.Context, n int) iter.Seq2[Event, error], bool) {
	switch t := s.(type) {
	case Tracer:
		return t.Trace, true
	case CandidateTracer:
		return t.TraceCandidates, true
	}
	return nil, false
}

// Tracer is a Strategy whose search can be watched step by step.
type Tracer interface {
	Strategy
	// Trace returns the search as a sequence of events. Each iteration runs
	// a fresh search; it ends when the search does or when the loop stops.
	// As every fallible enumeration of nqueens (see package board), it is
	// an iter.Seq2 whose last pair may carry an error: a *[SizeError] for
	// an n out of range, or ctx.Err() when ctx ends the search. Cost: that
	// of Solve plus O(n) per event for its snapshot of the board.
	Trace(ctx context.Context, n int) iter.Seq2[Event, error]
}

// Completer is a [Tracer] whose search can start from a partial board: the
// same search, where a row holding one of the board's queens offers only
// that column and a blocked square is never tried. Every backtracking
// strategy is one. The search still fills the rows top down and checks
// each try as it always does, so a given queen is tried (and may be
// rejected) when its row comes; its solutions are the board's completions,
// in the order the plain search finds them.
type Completer interface {
	Tracer
	// TraceFrom is Trace on the board p (of len(p.Queens) rows): a
	// *[SizeError] for a size out of range, a *[StartError] for queens that
	// attack each other or stand on a blocked square, or a blocked square
	// off the board. Cost: that of Trace, on the squares p leaves open.
	TraceFrom(ctx context.Context, p board.Partial) iter.Seq2[Event, error]
}

// StartError is a partial board a search cannot start from, as
// [board.Partial.Check] finds it.
type StartError struct{ Err error }

func (e *StartError) Error() string { return "the starting board: " + e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// Estimator is a Strategy whose work is known in closed form before it runs:
// the brute-force methods test a fixed number of candidates.
type Estimator interface {
	Strategy
	// Candidates is the exact number of candidate boards Solve tests for n,
	// which Counters.Nodes reaches when the search completes. Cost O(n)
	// big-number multiplications.
	Candidates(n int) *big.Int
	// Formula is Candidates as people write it: "n!".
	Formula() string
}

// Counters is the work a strategy did. Every count is exact. See the package
// comment for the conventions.
type Counters struct {
	Nodes      uint64        `json:"nodes"`      // queens placed on a partial board (backtracking), or candidates generated (brute force)
	Tries      uint64        `json:"tries"`      // squares tested (placed + rejected) or candidates tested
	Reads      uint64        `json:"reads"`      // elementary reads of the strategy's check: cells, array elements, flags or words
	Placed     uint64        `json:"placed"`     // queens placed on a partial board
	Rejected   uint64        `json:"rejected"`   // tries whose square was attacked, or candidates that are not solutions
	Backtracks uint64        `json:"backtracks"` // queens removed to try the next column
	Solutions  uint64        `json:"solutions"`  // solutions found
	Elapsed    time.Duration `json:"elapsed_ns,omitempty"`
}

// String is a one-line summary with thousands separators (no time).
func (c Counters) String() string {
	return fmt.Sprintf("nodes %s, tries %s, reads %s, placed %s, rejected %s, backtracks %s, solutions %s",
		Group(c.Nodes), Group(c.Tries), Group(c.Reads), Group(c.Placed), Group(c.Rejected), Group(c.Backtracks), Group(c.Solutions))
}

// Group writes v with a comma every three digits: 4,426,165,368.
func Group(v uint64) string { return GroupDigits(strconv.FormatUint(v, 10)) }

// GroupDigits puts a comma every three digits into a string of decimal
// digits, counted from the right: "4426165368" becomes "4,426,165,368".
// It is the one grouping of the Go code (Group and the command's big
// numbers use it).
func GroupDigits(s string) string {
	var b strings.Builder
	for i, d := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}

// SizeError is [board.SizeError], the error of every package for a board
// size out of range; a strategy's Op is its name. The alias lets callers of
// a strategy name the error where they name the strategy.
type SizeError = board.SizeError

func checkN(s interface{ Name() string }, n, max int) error { return board.CheckSize(n, s.Name(), max) }

// registry holds the strategies in the order the articles present them.
var registry = struct {
	sync.Mutex
	list []Strategy
}{list: []Strategy{
	bruteCombinations, bruteRows, permutations,
	backtrack2D, backtrackArray, backtrackFlags, backtrackFlagsIterative,
	stack, bitmask,
}}

// Register adds a strategy after the built-in ones. It panics if the name is
// empty or taken: registering is done once, from init or main.
func Register(s Strategy) {
	registry.Lock()
	defer registry.Unlock()
	if s.Name() == "" {
		panic("classic: Register with an empty name")
	}
	for _, t := range registry.list {
		if t.Name() == s.Name() {
			panic("classic: strategy " + s.Name() + " registered twice")
		}
	}
	registry.list = append(registry.list, s)
}

// All returns every registered strategy, brute force first.
func All() []Strategy {
	registry.Lock()
	defer registry.Unlock()
	return slices.Clone(registry.list)
}

// Names returns the names of All, in order.
func Names() []string {
	var names []string
	for _, s := range All() {
		names = append(names, s.Name())
	}
	return names
}

// Lookup finds a strategy by name; the error (an *i18n.Error) lists the
// known names.
func Lookup(name string) (Strategy, error) {
	for _, s := range All() {
		if s.Name() == name {
			return s, nil
		}
	}
	return nil, i18n.NewError("error.algo.unknown", i18n.Args{"Name": strconv.Quote(name), "Names": strings.Join(Names(), ", ")})
}

// Enumerates reports whether s produces placements; a [CountOnly] strategy
// only counts them and never calls visit.
func Enumerates(s Strategy) bool {
	_, countOnly := s.(counter)
	return !countOnly
}

// CountOnly wraps a counting engine as a Strategy that accepts n in 1..max.
// count returns at least Solutions; Elapsed is measured here. Its Solve
// never calls visit.
func CountOnly(name, description string, max int, count func(ctx context.Context, n int) (Counters, error)) Strategy {
	return counter{name: name, description: description, max: max, count: count}
}

type counter struct {
	name, description string
	max               int
	count             func(ctx context.Context, n int) (Counters, error)
}

func (c counter) Name() string        { return c.name }
func (c counter) Description() string { return c.description }

func (c counter) Solve(ctx context.Context, n int, _ func(board.Placement) bool) (Counters, error) {
	if err := checkN(c, n, c.max); err != nil {
		return Counters{}, err
	}
	if err := ctx.Err(); err != nil {
		return Counters{}, err
	}
	start := time.Now()
	r, err := c.count(ctx, n)
	r.Elapsed = time.Since(start)
	return r, err
}
