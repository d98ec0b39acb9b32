package variant

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/faults"
	"github.com/nqueens/nqueens/internal/runner"
)

// Uint128 is the exact count type, shared with package count.
type Uint128 = count.Uint128

// Fixed is the number of placements one symmetry maps to themselves.
type Fixed struct {
	Symmetry string  `json:"symmetry"`
	Count    Uint128 `json:"count"`
}

// Result is an exact count of a variant.
type Result struct {
	Spec Spec // normal: Cols and Queens filled in
	// Total counts every placement of Spec.Queens pieces, no two
	// attacking.
	Total Uint128
	// Unique counts their classes under the board's symmetries (8 for a
	// square, the torus included, whose translations are not merged; 4
	// for a rectangle): by Burnside's lemma the mean of Fixed.
	Unique Uint128
	// Fixed holds, for each symmetry of the board, identity first, the
	// placements it maps to themselves.
	Fixed   []Fixed
	Nodes   Uint128 // search nodes, the symmetric searches included
	Units   int
	Workers int
	Elapsed time.Duration
	// Note says why the count is 0 without a search (too many pieces for
	// the board), or is empty.
	Note string
}

// Progress is reported while [Count] runs.
type Progress struct {
	UnitsDone, Units int
	Nodes            Uint128 // of the finished units
	Elapsed          time.Duration
}

// Options tune [Count]. The zero value uses every core and reports nothing.
type Options struct {
	// Workers is the number of goroutines searching; 0 means GOMAXPROCS.
	Workers int
	// Progress, if set, is called from one goroutine about every
	// ProgressEvery (default 250 ms) and once at the end.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// unitResult is what one unit contributes: its completions times its
// weight, and the nodes spent.
type unitResult struct {
	Index        int
	Total, Nodes uint64
}

// Units returns the number of work units of s's count. Cost O(units · rows)
// on first use per variant.
func Units(s Spec) (int, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	if s.NoneFit() != "" {
		return 0, nil
	}
	return len(unitsOf(s)), nil
}

// countUnit searches unit index of s.
func countUnit(s Spec, g *geom, index int, stop *atomic.Bool) (unitResult, bool, error) {
	u := unitsOf(s)[index]
	n, ok := g.start(u.prefix)
	if !ok {
		return unitResult{}, false, fmt.Errorf("unit %d of %v has an invalid prefix", index, s)
	}
	sols, nodes, ok := g.search(n, stop)
	if !ok {
		return unitResult{}, false, nil
	}
	hi, lo := bits.Mul64(sols, u.weight)
	if hi != 0 {
		return unitResult{}, false, fmt.Errorf("unit %d of %v: its count times its weight passes 64 bits: %w", index, s, count.ErrOverflow)
	}
	return unitResult{Index: index, Total: faults.Corrupt(lo), Nodes: nodes}, true, nil
}

// Count counts the placements of s.Queens pieces of s, no two attacking,
// and their classes under the board's symmetries, exactly, on
// Options.Workers goroutines. More pieces than the board's shorter side
// gives 0 with [Result.Note] saying why; an undefined or out-of-range
// variant is an error wrapping [ErrSpec]. A count that differs from its
// published term ([Spec.Reference]) is a [*MismatchError], never a result.
//
// The search fills the rows top down with bit masks (diagonals shifted a
// column per row, rotated on a torus; the knight's squares from the pieces
// of the two rows above; rows left empty while enough remain for the
// pieces to come; the last piece counted in closed form), cut into units by
// the decisions of the first rows; see the package doc for the symmetry
// that each unit's weight stands for, and for the unique count.
//
// If ctx ends first, Count stops within a few milliseconds and returns an
// error wrapping ctx's. Cost: the search; memory O(units).
func Count(ctx context.Context, s Spec, o Options) (Result, error) {
	if err := s.Validate(); err != nil {
		return Result{}, err
	}
	s = s.Normal()
	start := time.Now()
	res := Result{Spec: s}
	if note := s.NoneFit(); note != "" {
		res.Note = note
		if err := res.checkPublished(); err != nil {
			return Result{}, err
		}
		return res, nil
	}
	g := newGeom(s)
	u := unitsOf(s)
	res.Units = len(u)
	todo := make([]int, len(u))
	for i := range todo {
		todo[i] = i
	}
	res.Workers = runner.Workers(o.Workers, len(todo))
	every := o.ProgressEvery
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	var total, nodes Uint128
	done := 0
	reported := start
	report := func() {
		reported = time.Now()
		if o.Progress != nil {
			o.Progress(Progress{UnitsDone: done, Units: len(u), Nodes: nodes, Elapsed: time.Since(start)})
		}
	}
	take := func(b runner.Batch[unitResult]) error {
		for _, r := range b.Units {
			var ok1, ok2 bool
			total, ok1 = total.Add(count.U128(r.Total))
			nodes, ok2 = nodes.Add(count.U128(r.Nodes))
			if !ok1 || !ok2 {
				return fmt.Errorf("the sums of %v pass 128 bits: %w", s, count.ErrOverflow)
			}
			done++
		}
		if time.Since(reported) >= every {
			report()
		}
		return nil
	}
	search := func(i int, stop *atomic.Bool) (unitResult, bool, error) { return countUnit(s, &g, i, stop) }
	err := runner.Run(ctx, todo, search, runner.Options[unitResult]{Workers: o.Workers, Every: min(every, runner.DefaultEvery), Take: take})
	report()
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return Result{}, i18n.Stopped(i18n.NewError("count.variant.stopped", i18n.Args{"Variant": s, "Done": done, "Units": len(u)}), err)
		}
		return Result{}, err
	}
	res.Total = total
	if err := res.unique(ctx, &g, &nodes); err != nil {
		return Result{}, err
	}
	res.Nodes = nodes
	res.Elapsed = time.Since(start)
	if err := res.checkPublished(); err != nil {
		return Result{}, err
	}
	return res, nil
}

// unique fills in Fixed and Unique by Burnside's lemma: the number of
// classes is the mean over the symmetries of the placements each maps to
// themselves. The identity fixes Total; the others are counted by
// fixedSearch. The sum must divide exactly; a remainder is a fault, and an
// error, never a rounded number.
func (res *Result) unique(ctx context.Context, g *geom, nodes *Uint128) error {
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	syms := g.symmetries()
	sum := res.Total
	res.Fixed = []Fixed{{Symmetry: syms[0].Name, Count: res.Total}}
	for _, sym := range syms[1:] {
		n, spent, ok := g.countFixed(sym, &stop)
		if !ok {
			return fmt.Errorf("count of %v stopped in the search for placements %s fixes: %w", res.Spec, sym.Name, ctx.Err())
		}
		res.Fixed = append(res.Fixed, Fixed{Symmetry: sym.Name, Count: count.U128(n)})
		*nodes, _ = nodes.Add(count.U128(spent))
		var ok1 bool
		if sum, ok1 = sum.Add(count.U128(n)); !ok1 {
			return fmt.Errorf("the Burnside sum of %v passes 128 bits: %w", res.Spec, count.ErrOverflow)
		}
	}
	q, r := divSmall(sum, uint64(len(syms)))
	if r != 0 {
		return fmt.Errorf("%v: the placements fixed by the %d symmetries add up to %s, not a multiple of %d; the count is wrong and was not printed",
			res.Spec, len(syms), sum, len(syms))
	}
	res.Unique = q
	return nil
}

// divSmall returns u / d and the remainder.
func divSmall(u Uint128, d uint64) (Uint128, uint64) {
	hi, r := bits.Div64(0, u.Hi, d)
	lo, r := bits.Div64(r, u.Lo, d)
	return Uint128{Hi: hi, Lo: lo}, r
}
