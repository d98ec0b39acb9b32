package count

import (
	"context"
	"fmt"
	"github.com/nqueens/nqueens/i18n"
	"math"

	"github.com/nqueens/nqueens/internal/recount"
)

// RecountUnit counts unit index of N again by package internal/recount, a
// backtracking search that shares no code with the join or the tree
// search: each key of a join unit searched column by column on bit sets,
// the column with the fewest free rows first (or the constellation of a
// tree or rotation unit by the plain search), weighted by the images the
// recount works out itself. Its Total, Rot180 and Rot90 must equal
// [CountUnit]'s ([SameCount]); its Nodes are the recount's own (queens
// placed). It returns ctx's error if ctx ends first (within a millisecond
// or so).
//
// Cost: every solution of the unit is found one by one, about 0.4 µs each
// on one core of the shared project machine ([RecountSeconds] estimates
// a unit), growing about tenfold per N.
func RecountUnit(ctx context.Context, n, index int) (UnitResult, error) {
	return recountUnit(ctx, n, index, recount.CountKeys)
}

// recountUnit is RecountUnit with the keys of a join unit counted by
// countKeys (recount.CountKeysPlain in the tests).
func recountUnit(ctx context.Context, n, index int, countKeys func(context.Context, []recount.Weighted) (uint64, uint64, error)) (UnitResult, error) {
	if n < 1 || n > MaxN {
		return UnitResult{}, fmt.Errorf("N = %d is outside 1 … %d", n, MaxN)
	}
	if index < 0 || index >= Units(n) {
		return UnitResult{}, fmt.Errorf("unit %d of N = %d: N has units 0 … %d", index, n, Units(n)-1)
	}
	switch s := schemeOf(n).(type) {
	case *joinScheme:
		if index >= s.layout.Units() {
			return recountRotations(ctx, n, index, s.rot[index-s.layout.Units()])
		}
		keys := s.layout.UnitKeys(index)
		ws := make([]recount.Weighted, len(keys))
		for i, k := range keys {
			ws[i] = recount.Weighted{Key: recount.Key{N: n, Left: k.E, Sep: s.layout.SepRows(int(k.Sep))}, Weight: int(k.Weight)}
		}
		total, nodes, err := countKeys(ctx, ws)
		if err != nil {
			return UnitResult{}, fmt.Errorf("unit %d of N = %d: %w", index, n, err)
		}
		return UnitResult{Index: index, Total: total, Nodes: nodes}, nil
	case *treeScheme:
		return recountSpec(ctx, n, index, s.specs[index])
	}
	return UnitResult{}, fmt.Errorf("N = %d: no recount for its scheme", n)
}

// recountSecondsPerSolution is about how long the recount takes per
// solution of a unit (weighted as the units count them) on one core of
// the project machine, for units of a mean unit's size: measured on
// sampled units of N = 20 to 23, 2026-12-06 at load 12 to 26, 0.2 to
// 0.4 µs (docs/cluster.md, "A second engine past the table"). Units
// with few solutions cost more per solution, most of it searching keys
// with none: 2 µs at N = 22, 12 µs in a unit of N = 24 with 1.8·10⁷
// solutions (216 s).
const recountSecondsPerSolution = 0.35e-6

// RecountSeconds returns about how long [RecountUnit] takes on one core
// for a mean unit of N: its share of Q(N) (the published count, or past
// it Q(27) times 10.5 per N, the last step's growth) times the time per
// solution: about 4 minutes at N = 22, 20 minutes at 24, 3 hours at 25,
// 5 months at 28.
// A unit can take ten times the mean, or nothing. 0 outside 1 … MaxN.
func RecountSeconds(n int) float64 {
	units := Units(n)
	if units == 0 {
		return 0
	}
	last := n
	for last > 1 {
		if _, _, ok := Known(last); ok {
			break
		}
		last--
	}
	q, _, _ := Known(last)
	f := q.Float64() * math.Pow(10.5, float64(n-last))
	return f * recountSecondsPerSolution / float64(units)
}

// recountSpec recounts a unit of the tree search.
func recountSpec(ctx context.Context, n, index int, s UnitSpec) (UnitResult, error) {
	b := recount.Border(s.Constellation)
	sols, nodes, err := b.Count(ctx, n, s.Row, s.Col)
	if err != nil {
		return UnitResult{}, fmt.Errorf("unit %d of N = %d: %w", index, n, err)
	}
	r := UnitResult{Index: index, Nodes: nodes}
	var fit bool
	if r.Total, fit = mul64(sols, uint64(b.Orbit(n))); !fit {
		return UnitResult{}, fmt.Errorf("unit %d of N = %d: %w", index, n, ErrOverflow)
	}
	if s.first {
		rot, err := recountRotations(ctx, n, index, s)
		if err != nil {
			return UnitResult{}, err
		}
		r.Rot180, r.Rot90, r.Nodes = rot.Rot180, rot.Rot90, r.Nodes+rot.Nodes
	}
	return r, nil
}

// recountRotations recounts the solutions of s's constellation that a
// half or a quarter turn maps to themselves, weighted by its orbit.
func recountRotations(ctx context.Context, n, index int, s UnitSpec) (UnitResult, error) {
	b := recount.Border(s.Constellation)
	r180, r90, nodes, err := b.Rotations(ctx, n)
	if err != nil {
		return UnitResult{}, fmt.Errorf("unit %d of N = %d: %w", index, n, err)
	}
	w := uint64(b.Orbit(n))
	rot180, fit180 := mul64(r180, w)
	rot90, fit90 := mul64(r90, w)
	if !fit180 || !fit90 {
		return UnitResult{}, fmt.Errorf("unit %d of N = %d: %w", index, n, ErrOverflow)
	}
	return UnitResult{Index: index, Rot180: rot180, Rot90: rot90, Nodes: nodes}, nil
}

// RecountError reports a unit whose engine's count and recount differ:
// one of the two programs (or the machine) is wrong.
type RecountError struct {
	N, Unit         int
	Engine, Recount UnitResult
}

func (e *RecountError) Error() string { return e.Localize(i18n.For(i18n.English)) }

// Localize is the error in p's language; the counts are plain digits.
func (e *RecountError) Localize(p *i18n.Printer) string {
	d := func(v any) string { return fmt.Sprintf("%d", v) }
	return p.T("count.recount.differs", i18n.Args{"Unit": d(e.Unit), "N": d(e.N),
		"Total": d(e.Engine.Total), "Rot180": d(e.Engine.Rot180), "Rot90": d(e.Engine.Rot90),
		"RTotal": d(e.Recount.Total), "RRot180": d(e.Recount.Rot180), "RRot90": d(e.Recount.Rot90)})
}

// CheckRecount returns a [*RecountError] unless recount, the result of
// [RecountUnit], counts what engine, the result of [CountUnit] for the
// same unit of N, does (see [SameCount]).
func CheckRecount(n int, engine, recount UnitResult) error {
	if SameCount(engine, recount) {
		return nil
	}
	return &RecountError{N: n, Unit: engine.Index, Engine: engine, Recount: recount}
}

// SameCount reports whether two results of one unit count the same
// solutions: the same Index, Total, Rot180 and Rot90, whatever their
// Nodes (each engine counts its own steps).
func SameCount(a, b UnitResult) bool {
	return a.Index == b.Index && a.Total == b.Total && a.Rot180 == b.Rot180 && a.Rot90 == b.Rot90
}
