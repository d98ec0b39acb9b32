package solve

// One solution per class for [List] with Unique: the canonical solution of
// a class is the lexicographically smallest of its orbit under the 8
// symmetries of the square ([board.Canonical]). Rather than build 8 images
// of every solution, the listing bars, before the search, the squares no
// canonical solution can use, and checks the solutions left by comparing
// each image with the solution a row at a time, built on the fly and
// mostly dismissed at its first row.
//
// Which squares: the first entry of an image is the column of row 0 (the
// identity), its mirror n−1−p[0], the column of the last row p[n−1] or its
// mirror (the half turn and the top-bottom mirror), or the row of the queen
// in column 0 or n−1, or their mirrors (the quarter turns and the
// transposes). So a canonical solution with p[0] = c0 has c0 ≤ n−1−c0, and
// every queen on the border stands at least c0 squares from the corners:
// rows closer than c0 to the top or bottom have no queen in the first or
// last column, and the last row has none closer than c0 to a side.

// uniqueFirst reports whether a canonical solution can start in column c0:
// no further right than its mirror image.
func uniqueFirst(n, c0 int) bool { return 2*c0 <= n-1 }

// borderBans fills ban with the squares, as column bits, that no canonical
// solution whose row 0 holds column c0 may take in each row.
func borderBans(ban *[64]uint64, n, c0 int) {
	*ban = [64]uint64{}
	edges := uint64(1) | 1<<uint(n-1)
	for r := 1; r < n; r++ {
		if min(r, n-1-r) < c0 {
			ban[r] |= edges
		}
	}
	for c := range n {
		if min(c, n-1-c) < c0 {
			ban[n-1] |= 1 << uint(c)
		}
	}
}

// canonicalOrbit reports whether the solution p (0-based columns) is the
// smallest board of its orbit, and if so the orbit's size, 8 over the
// number of symmetries that leave p as it is. inv receives p's inverse
// (the row of each column). Cost O(n), and usually far less for a solution
// that is not canonical.
func canonicalOrbit(p, inv []uint8) (bool, int) {
	n := len(p)
	m := uint8(n - 1)
	for r, c := range p {
		inv[c] = uint8(r)
	}
	fixed := 1 // the identity
	// Each image q, row i, as in board.Symmetry.Map.
	for s := range 7 {
		cmp := 0
		for i := 0; i < n && cmp == 0; i++ {
			var q uint8
			switch s {
			case 0: // mirror-cols
				q = m - p[i]
			case 1: // mirror-rows
				q = p[n-1-i]
			case 2: // rot180
				q = m - p[n-1-i]
			case 3: // transpose
				q = inv[i]
			case 4: // rot90: (r, c) → (c, n-1-r)
				q = m - inv[i]
			case 5: // rot270: (r, c) → (n-1-c, r)
				q = inv[n-1-i]
			default: // anti-transpose: (r, c) → (n-1-c, n-1-r)
				q = m - inv[n-1-i]
			}
			switch {
			case q < p[i]:
				return false, 0
			case q > p[i]:
				cmp = 1
			}
		}
		if cmp == 0 {
			fixed++
		}
	}
	return true, 8 / fixed
}
