package variant

import (
	"context"
	"fmt"
	"iter"

	"github.com/nqueens/nqueens/board"
)

// Class is one class of placements under the board's symmetries: its
// first placement in the order of [Solutions], and how many placements it
// holds.
type Class struct {
	Placement board.Placement
	Size      int
}

// Orbit returns the distinct images of p, a placement of s, under the
// board's symmetries, p first: the group under which [Result.Unique]
// counts classes (the 8 symmetries of the square, the torus included, or
// the 4 of a rectangle; see [Spec.Symmetries]). Cost O(rows) per image.
func Orbit(s Spec, p board.Placement) ([]board.Placement, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	s = s.Normal()
	if len(p) != s.Rows {
		return nil, fmt.Errorf("the board has %d rows, not %d", len(p), s.Rows)
	}
	out := make([]board.Placement, 0, s.Symmetries())
	for _, sym := range board.Symmetries {
		if !sym.OnRect(s.Rows, s.Cols) {
			continue
		}
		q, err := sym.ApplyRect(p, s.Cols)
		if err != nil {
			return nil, err
		}
		dup := false
		for _, o := range out {
			dup = dup || o.Equal(q)
		}
		if !dup {
			out = append(out, q)
		}
	}
	return out, nil
}

// before reports whether p comes before q in the order of [Solutions]:
// by the first row where they differ, an empty row after every column.
func before(p, q board.Placement) bool {
	for i := range p {
		if p[i] != q[i] {
			return p[i] != board.Empty && (q[i] == board.Empty || p[i] < q[i])
		}
	}
	return false
}

// Unique enumerates one placement of s for each class under the board's
// symmetries, the first of its orbit in the order of [Solutions], with
// the size of its orbit, in that order: as many as [Result.Unique] counts,
// of sizes adding up to its Total. The error of the last pair, if any,
// says why the sequence stopped early, as for Solutions. Cost: the search
// of Solutions, and O(rows) per symmetry per placement.
func Unique(ctx context.Context, s Spec) iter.Seq2[Class, error] {
	return func(yield func(Class, error) bool) {
		for p, err := range Solutions(ctx, s) {
			if err != nil {
				yield(Class{}, err)
				return
			}
			orbit, err := Orbit(s, p)
			if err != nil {
				yield(Class{}, err)
				return
			}
			first := true
			for _, q := range orbit[1:] {
				first = first && !before(q, p)
			}
			if first && !yield(Class{Placement: p, Size: len(orbit)}, nil) {
				return
			}
		}
	}
}
