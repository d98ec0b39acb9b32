package variant

import (
	"math/bits"
	"sync"
)

// unit is one work unit: the completions of a prefix of decisions, the
// first rows' pieces (prefix[r] the column of row r's piece, -1 for none),
// times weight.
//
// Symmetry. Each unit's prefix starts with j empty rows and a piece in row
// j, the first piece of every placement it stands for. On a torus the
// columns can be turned round (column c to c + t mod N): this maps
// placements to placements, and no turn t ≠ 0 fixes one (it moves the
// first piece), so each placement is one of exactly N with the same shape,
// one of which has its first piece in column 0: units put it there and
// weigh N. Elsewhere the left-right mirror does the same with 2: the first
// piece stands in the left half (weight 2) or on the middle column of an
// odd board (weight 1, the mirror of such a placement has its first piece
// there too).
type unit struct {
	prefix []int8
	weight uint64
}

// unitsWanted is how many units a count is cut into at least, where the
// board allows: enough for every core to stay busy to the end.
const unitsWanted = 1024

// unitTable caches the units per normal Spec.
var unitTable sync.Map // Spec → []unit

// units returns the units of g's variant in order: by the number of
// leading empty rows, then the first piece's column, then the decisions of
// the next rows (a piece's column, or none last), cut as deep as it takes
// to have unitsWanted units. Cost O(units · rows) on first use.
func unitsOf(s Spec) []unit {
	s = s.Normal()
	if v, ok := unitTable.Load(s); ok {
		return v.([]unit)
	}
	g := newGeom(s)
	var u []unit
	for depth := 1; ; depth++ {
		u = g.buildUnits(depth)
		if len(u) >= unitsWanted || depth >= g.rows {
			break
		}
	}
	v, _ := unitTable.LoadOrStore(s, u)
	return v.([]unit)
}

// buildUnits lists the units whose prefixes reach depth rows past the
// first piece (or fewer, where the board or the pieces end).
func (g *geom) buildUnits(depth int) []unit {
	var out []unit
	firstCols := (g.cols + 1) / 2
	if g.torus {
		firstCols = 1
	}
	for j := 0; j <= g.rows-g.k; j++ {
		for c0 := range firstCols {
			w := uint64(2)
			switch {
			case g.torus:
				w = uint64(g.cols)
			case c0 == g.cols-1-c0:
				w = 1
			}
			prefix := make([]int8, j+1)
			for r := range j {
				prefix[r] = -1
			}
			prefix[j] = int8(c0)
			n, ok := g.start(prefix)
			if !ok {
				continue
			}
			g.extend(&out, prefix, n, depth-1, w)
		}
	}
	return out
}

// extend adds the units that continue prefix (which leads to n) by up to
// depth more decisions.
func (g *geom) extend(out *[]unit, prefix []int8, n node, depth int, w uint64) {
	if depth == 0 || n.row == g.rows || n.placed == g.k {
		*out = append(*out, unit{prefix: append([]int8(nil), prefix...), weight: w})
		return
	}
	for a := g.free(&n); a != 0; a &= a - 1 {
		bit := a & -a
		c := bits.TrailingZeros64(bit)
		g.extend(out, append(prefix, int8(c)), g.child(&n, bit), depth-1, w)
	}
	if g.canSkip(&n) {
		g.extend(out, append(prefix, -1), g.child(&n, 0), depth-1, w)
	}
}
