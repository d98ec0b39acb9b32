package board

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/i18n"
)

// Symmetry is one of the 8 symmetries of the square (the dihedral group D4).
type Symmetry uint8

const (
	Identity      Symmetry = iota
	Rotate90               // quarter turn clockwise: (r, c) → (c, n-1-r)
	Rotate180              // half turn: (r, c) → (n-1-r, n-1-c)
	Rotate270              // quarter turn anticlockwise: (r, c) → (n-1-c, r)
	MirrorCols             // left-right mirror: (r, c) → (r, n-1-c)
	MirrorRows             // top-bottom mirror: (r, c) → (n-1-r, c)
	Transpose              // main diagonal: (r, c) → (c, r)
	AntiTranspose          // anti-diagonal: (r, c) → (n-1-c, n-1-r)
)

// Symmetries lists all 8 elements of D4, identity first.
var Symmetries = [8]Symmetry{Identity, Rotate90, Rotate180, Rotate270, MirrorCols, MirrorRows, Transpose, AntiTranspose}

var symNames = [8]string{"identity", "rot90", "rot180", "rot270", "mirror-cols", "mirror-rows", "transpose", "anti-transpose"}

func (s Symmetry) String() string {
	if int(s) < len(symNames) {
		return symNames[s]
	}
	return fmt.Sprintf("Symmetry(%d)", s)
}

// ParseSymmetry accepts the names printed by String.
func ParseSymmetry(name string) (Symmetry, error) {
	for i, s := range symNames {
		if s == name {
			return Symmetry(i), nil
		}
	}
	return 0, errT("board.symmetry.unknown", i18n.Args{"Name": strconv.Quote(name), "Names": strings.Join(symNames[:], ", ")})
}

// Map sends square (r, c) of an n×n board to its image under s.
func (s Symmetry) Map(n, r, c int) (int, int) { return s.MapRect(n, n, r, c) }

// ErrSharedColumn is returned when a symmetry that swaps rows and columns is
// applied to a board with two queens in one column: the image would have two
// queens in one row, which a Placement cannot hold.
var ErrSharedColumn error = i18n.NewError("board.symmetry.sharedcolumn", nil)

// Apply returns the image of p under s. Rows map to rows for the identity and
// the mirrors; the other five need at most one queen per column. Cost O(n).
func (s Symmetry) Apply(p Placement) (Placement, error) { return s.ApplyRect(p, len(p)) }

// Orbit returns the distinct images of p under D4, in the order of
// [Symmetries], starting with p itself. For a solution its length is 1, 2, 4
// or 8. Cost O(n) per image.
func Orbit(p Placement) ([]Placement, error) {
	out := make([]Placement, 0, 8)
	for _, s := range Symmetries {
		q, err := s.Apply(p)
		if err != nil {
			return nil, err
		}
		dup := false
		for _, o := range out {
			if o.Equal(q) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, q)
		}
	}
	return out, nil
}

// Canonical returns the lexicographically smallest board of p's orbit and
// the orbit's size; one canonical board stands for each class counted by
// OEIS A002562.
func Canonical(p Placement) (Placement, int, error) {
	orbit, err := Orbit(p)
	if err != nil {
		return nil, 0, err
	}
	best := orbit[0]
	for _, q := range orbit[1:] {
		if q.Less(best) {
			best = q
		}
	}
	return best, len(orbit), nil
}

// IsCanonical reports whether p is the smallest board of its orbit.
func IsCanonical(p Placement) (bool, error) {
	c, _, err := Canonical(p)
	if err != nil {
		return false, err
	}
	return c.Equal(p), nil
}
