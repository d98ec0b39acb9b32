package solve

import (
	"errors"
	"fmt"
	"math/big"
	"testing"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/reference"
)

// slowAll is the obviously correct enumeration: every permutation in
// lexicographic order, kept when no two queens share a diagonal.
func slowAll(n int) []board.Placement {
	var out []board.Placement
	p := make(board.Placement, n)
	used := make([]bool, n)
	var rec func(row int)
	rec = func(row int) {
		if row == n {
			for i := range n {
				for j := range i {
					if d := int(p[i] - p[j]); d == i-j || d == j-i {
						return
					}
				}
			}
			out = append(out, p.Clone())
			return
		}
		for c := range n {
			if !used[c] {
				used[c] = true
				p[row] = int32(c)
				rec(row + 1)
				used[c] = false
			}
		}
	}
	rec(0)
	return out
}

func TestAllMatchesSlowEnumeration(t *testing.T) {
	for n := 1; n <= 8; n++ {
		want := slowAll(n)
		got := collectAll(t, n)
		if len(got) != len(want) {
			t.Fatalf("n=%d: %d solutions, want %d", n, len(got), len(want))
		}
		for i := range got {
			if !got[i].Equal(want[i]) {
				t.Fatalf("n=%d: solution %d is %v, want %v (order must be lexicographic)", n, i, got[i], want[i])
			}
		}
	}
}

// Properties of the symmetry classes, against OEIS A000170 and A002562:
// every image of a solution is a solution, orbit sizes are 1, 2, 4 or 8, the
// canonical boards number A002562 and their orbits add up to A000170.
func TestClassesMatchReference(t *testing.T) {
	ref, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	maxN := 12
	if testing.Short() {
		maxN = 10
	}
	for n := 1; n <= maxN; n++ {
		var total, unique, orbitSum int64
		for _, p := range collectAll(t, n) {
			total++
			if err := board.Verify(p); err != nil {
				t.Fatalf("n=%d: All yielded %v: %v", n, p, err)
			}
			if n <= 8 {
				for _, s := range board.Symmetries {
					q, err := s.Apply(p)
					if err != nil {
						t.Fatal(err)
					}
					if err := board.Verify(q); err != nil {
						t.Fatalf("n=%d: %v of %v is not a solution: %v", n, s, p, err)
					}
				}
			}
		}
		var prev board.Placement
		for c, err := range Unique(n) {
			if err != nil {
				t.Fatal(err)
			}
			p, size := c.Canonical, c.Size
			unique++
			orbitSum += int64(size)
			switch size {
			case 1, 2, 4, 8:
			default:
				t.Fatalf("n=%d: orbit size %d", n, size)
			}
			if prev != nil && !prev.Less(p) {
				t.Fatalf("n=%d: Unique out of order: %v then %v", n, prev, p)
			}
			prev = p
		}
		r := ref[n]
		if r.Total.Cmp(big.NewInt(total)) != 0 || r.Unique.Cmp(big.NewInt(unique)) != 0 {
			t.Fatalf("n=%d: total %d unique %d, reference %v %v", n, total, unique, r.Total, r.Unique)
		}
		if orbitSum != total {
			t.Fatalf("n=%d: orbit sizes add up to %d, want %d", n, orbitSum, total)
		}
	}
}

func TestAllStopsEarlyAndHugeN(t *testing.T) {
	k := 0
	for p, err := range All(28) {
		if err == nil {
			err = board.Verify(p)
		}
		if err != nil {
			t.Fatal(err)
		}
		if k++; k == 3 {
			break
		}
	}
	if k != 3 {
		t.Fatalf("got %d solutions of n=28", k)
	}
	for _, n := range []int{0, 65} {
		var errs []error
		for p, err := range All(n) {
			if p != nil {
				t.Fatalf("All(%d) yielded %v", n, p)
			}
			errs = append(errs, err)
		}
		var se *board.SizeError
		if len(errs) != 1 || !errors.As(errs[0], &se) || se.N != n {
			t.Fatalf("All(%d) gave %v, want one *board.SizeError", n, errs)
		}
		for c, err := range Unique(n) {
			if !errors.As(err, &se) {
				t.Fatalf("Unique(%d) gave %v, %v", n, c, err)
			}
		}
	}
	if CheckEnumerateN(65) == nil || CheckEnumerateN(0) == nil || CheckEnumerateN(64) != nil {
		t.Fatal("CheckEnumerateN bounds")
	}
}

// collectAll is every solution of All(n), which must not fail.
func collectAll(t *testing.T, n int) []board.Placement {
	t.Helper()
	var out []board.Placement
	for p, err := range All(n) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func ExampleUnique() {
	for c, err := range Unique(6) {
		fmt.Println(c.Canonical, c.Size, err)
	}
	for c := range Unique(8) {
		fmt.Println(c.Canonical, c.Size)
		break
	}
	// Output:
	// 2 4 6 1 3 5 4 <nil>
	// 1 5 8 6 3 7 2 4 8
}
