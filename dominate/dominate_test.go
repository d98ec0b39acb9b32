package dominate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/oeis"
)

// terms returns the row named what of the one table of published terms,
// package internal/oeis (see its oeis.tsv for the sources).
func terms(t *testing.T, what string) (id string, from int, vals []uint64) {
	t.Helper()
	row, ok := oeis.Published(what)
	if !ok {
		t.Fatalf("no %s row", what)
	}
	return row.ID, row.From, row.Values
}

// TestOEIS checks the domination numbers (A075458, A075324) and the number
// of minimum sets (A002564, A002568) for N = 1 … 12 (10 under -short).
func TestOEIS(t *testing.T) {
	max := 12
	if testing.Short() {
		max = 10
	}
	for _, independent := range []bool{false, true} {
		name := map[bool]string{false: "dominate", true: "independent"}[independent]
		idMin, from, mins := terms(t, name)
		idCount, _, counts := terms(t, name+"-count")
		for n := from; n <= max; n++ {
			r, err := Solve(context.Background(), n, Options{Independent: independent, Count: true})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Exact || uint64(r.Minimum) != mins[n-from] || r.Count != counts[n-from] || len(r.Queens) != r.Minimum {
				t.Errorf("N = %d, independent %v: minimum %d (exact %v), %d sets; %s(%d) = %d, %s(%d) = %d",
					n, independent, r.Minimum, r.Exact, r.Count, idMin, n, mins[n-from], idCount, n, counts[n-from])
			}
			if err := Check(n, r.Queens, independent); err != nil {
				t.Errorf("N = %d: %v", n, err)
			}
		}
	}
}

// bruteMinimum tries every set of k squares for k = 1, 2, … and returns
// the first k for which some set dominates (with independent, some set of
// pairwise non-attacking queens), and how many sets of that size do.
func bruteMinimum(n int, independent bool) (int, uint64) {
	for k := 1; ; k++ {
		var found uint64
		set := make([]board.Square, k)
		var rec func(i, from int)
		rec = func(i, from int) {
			if i == k {
				if Check(n, set, independent) == nil {
					found++
				}
				return
			}
			for v := from; v < n*n; v++ {
				set[i] = board.Square{Row: v / n, Col: v % n}
				rec(i+1, v+1)
			}
		}
		rec(0, 0)
		if found > 0 {
			return k, found
		}
	}
}

// TestBrute holds Solve against bruteMinimum for N ≤ 6.
func TestBrute(t *testing.T) {
	for n := 1; n <= 6; n++ {
		for _, independent := range []bool{false, true} {
			k, c := bruteMinimum(n, independent)
			r, err := Solve(context.Background(), n, Options{Independent: independent, Count: true})
			if err != nil || r.Minimum != k || r.Count != c {
				t.Errorf("N = %d, independent %v: %d, %d sets (%v); brute force %d, %d", n, independent, r.Minimum, r.Count, err, k, c)
			}
		}
	}
}

// TestHeuristic checks the sets found past ExactReach: valid, no smaller
// than the lower bound, and the same on every run.
func TestHeuristic(t *testing.T) {
	for _, n := range []int{ExactReach + 1, 20} {
		for _, independent := range []bool{false, true} {
			o := Options{Independent: independent, Steps: 2000}
			r, err := Solve(context.Background(), n, o)
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(n, r.Queens, independent); err != nil || r.Minimum < r.LowerBound || r.Minimum != len(r.Queens) {
				t.Errorf("N = %d: %d queens, bound %d: %v", n, r.Minimum, r.LowerBound, err)
			}
			again, _ := Solve(context.Background(), n, o)
			if fmt.Sprint(again.Queens) != fmt.Sprint(r.Queens) {
				t.Errorf("N = %d: two runs differ", n)
			}
		}
	}
	if _, err := Solve(context.Background(), ExactReach+1, Options{Count: true}); err == nil {
		t.Error("a count past exact reach did not fail")
	}
	for _, n := range []int{0, MaxN + 1} {
		if _, err := Solve(context.Background(), n, Options{}); err == nil {
			t.Errorf("N = %d did not fail", n)
		}
	}
}

// TestCheck checks the verdicts of Check.
func TestCheck(t *testing.T) {
	sq := func(r, c int) board.Square { return board.Square{Row: r, Col: c} }
	cases := []struct {
		n           int
		q           []board.Square
		independent bool
		ok          bool
	}{
		{4, []board.Square{sq(0, 0), sq(2, 2)}, false, true},
		{4, []board.Square{sq(0, 0), sq(3, 3)}, false, false},
		{4, []board.Square{sq(0, 0), sq(2, 2)}, true, false},
		{3, []board.Square{sq(1, 1)}, true, true},
		{3, []board.Square{sq(1, 1), sq(1, 1)}, false, false},
		{3, []board.Square{sq(1, 3)}, false, false},
	}
	for _, c := range cases {
		if err := Check(c.n, c.q, c.independent); (err == nil) != c.ok {
			t.Errorf("%d %v %v: %v", c.n, c.q, c.independent, err)
		}
	}
}

func ExampleSolve() {
	r, err := Solve(context.Background(), 8, Options{Count: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Minimum, r.Exact, r.Count)
	// Output: 5 true 4860
}

// TestSameArrangement checks that the arrangement shown does not depend on
// how many workers search or which finishes first (docs show one).
func TestSameArrangement(t *testing.T) {
	for n := 4; n <= 9; n++ {
		for _, independent := range []bool{false, true} {
			one, err := Solve(context.Background(), n, Options{Independent: independent, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			for range 5 {
				many, err := Solve(context.Background(), n, Options{Independent: independent, Workers: 7})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(one.Queens, many.Queens) {
					t.Fatalf("N = %d, independent %v: 1 worker shows %v, 7 workers %v", n, independent, one.Queens, many.Queens)
				}
			}
		}
	}
}

// TestPublished: the terms of the table for a result, and a result that
// differs from them is an error naming the term, never a result.
func TestPublished(t *testing.T) {
	ref := Published(8, false)
	if ref == nil || ref.Minimum == nil || *ref.Minimum != 5 || ref.Count == nil || *ref.Count != 4860 {
		t.Fatalf("N = 8: %+v", ref)
	}
	if ref := Published(40, false); ref != nil {
		t.Errorf("N = 40 has no published term: %+v", ref)
	}
	if ref := Published(20, false); ref == nil || ref.Minimum == nil || *ref.Minimum != 11 || ref.Count != nil {
		t.Errorf("N = 20: the minimum is published, the count not: %+v", ref)
	}
	r := Result{N: 8, Minimum: 5, Exact: true, Count: 4860, Counted: true}
	if m := r.Matches(); m == nil || !*m || r.checkPublished() != nil {
		t.Errorf("the right numbers: matches %v, %v", m, r.checkPublished())
	}
	r.Count = 4861
	want := "N = 8: the count 4861 does not match the published term 4860 (OEIS A002564 a(8)); the result is wrong, and was not printed"
	var me *MismatchError
	if err := r.checkPublished(); !errors.As(err, &me) || err.Error() != want {
		t.Errorf("a count 1 too high: %v", err)
	}
	r = Result{N: 8, Independent: true, Minimum: 6, Exact: true}
	if err := r.checkPublished(); err == nil || !strings.Contains(err.Error(), "the minimum 6 does not match the published term 5 (OEIS A075324 a(8))") {
		t.Errorf("an independent minimum 1 too high: %v", err)
	}
	if m := (Result{N: 30, Minimum: 16}).Matches(); m != nil {
		t.Errorf("nothing proved, nothing published: matches %v", *m)
	}
}
