package board

import (
	"errors"
	"testing"

	"github.com/nqueens/nqueens/internal/reference"
)

// TestSymmetriesOfSolutions: every image of a solution is a solution, orbits
// have 1, 2, 4 or 8 boards, canonical boards number A002562 and orbits sum
// to A000170, for n ≤ 12 (n ≤ 9 in -short).
func TestSymmetriesOfSolutions(t *testing.T) {
	top := 12
	if testing.Short() {
		top = 9
	}
	for n := 1; n <= top; n++ {
		ref, ok, err := reference.Get(n)
		if err != nil || !ok {
			t.Fatalf("reference for n = %d: %v", n, err)
		}
		all := solutions(n)
		canonical, sum := 0, 0
		for _, p := range all {
			for _, s := range Symmetries {
				q, err := s.Apply(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := Verify(q); err != nil {
					t.Fatalf("%v of %v = %v: %v", s, p, q, err)
				}
			}
			orbit, err := Orbit(p)
			if err != nil {
				t.Fatal(err)
			}
			if k := len(orbit); k != 1 && k != 2 && k != 4 && k != 8 {
				t.Fatalf("orbit of %v has %d boards", p, k)
			}
			c, size, err := Canonical(p)
			if err != nil || size != len(orbit) {
				t.Fatalf("Canonical(%v) = %v, %d, %v", p, c, size, err)
			}
			if yes, _ := IsCanonical(p); yes {
				canonical++
				sum += size
			}
		}
		if int64(len(all)) != ref.Total.Int64() || int64(canonical) != ref.Unique.Int64() || int64(sum) != ref.Total.Int64() {
			t.Errorf("n = %d: %d solutions, %d canonical, orbits sum to %d; want %v and %v", n, len(all), canonical, sum, ref.Total, ref.Unique)
		}
	}
}

func TestSymmetryGroup(t *testing.T) {
	const n = 7
	for _, s := range Symmetries {
		name, err := ParseSymmetry(s.String())
		if err != nil || name != s {
			t.Errorf("ParseSymmetry(%q) = %v, %v", s.String(), name, err)
		}
		// Each symmetry permutes the squares.
		seen := map[[2]int]bool{}
		for r := range n {
			for c := range n {
				r2, c2 := s.Map(n, r, c)
				if r2 < 0 || r2 >= n || c2 < 0 || c2 >= n || seen[[2]int{r2, c2}] {
					t.Fatalf("%v is not a permutation of the squares", s)
				}
				seen[[2]int{r2, c2}] = true
			}
		}
	}
	// Four quarter turns are the identity; rot90 then rot270 too.
	p := FromOneBased(3, 6, 2, 7, 1, 4, 0)
	q := p
	for range 4 {
		q, _ = Rotate90.Apply(q)
	}
	r, _ := Rotate90.Apply(p)
	r, _ = Rotate270.Apply(r)
	if !q.Equal(p) || !r.Equal(p) {
		t.Errorf("rotations do not compose: %v, %v, want %v", q, r, p)
	}
	if _, err := ParseSymmetry("rot45"); err == nil {
		t.Error("ParseSymmetry accepted rot45")
	}
	if _, err := Transpose.Apply(FromOneBased(1, 1)); !errors.Is(err, ErrSharedColumn) {
		t.Errorf("transposing two queens in one column: %v", err)
	}
}
