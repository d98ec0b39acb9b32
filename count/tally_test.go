package count

import (
	"errors"
	"math/bits"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/testkit"
)

// firstUnit returns the index of the first unit of n whose spec and
// result match pred.
func firstUnit(t *testing.T, n int, us []UnitResult, pred func(UnitSpec, UnitResult) bool) int {
	t.Helper()
	for i, s := range units(n) {
		if pred(s, us[i]) {
			return i
		}
	}
	t.Fatalf("N=%d: no unit matches", n)
	return -1
}

// TestTallyRefusesForgedResults edits one unit result the way a flipped bit
// or a forger would, and checks that no total comes out. Each of these
// edits gave a wrong total with no error before results were checked.
func TestTallyRefusesForgedResults(t *testing.T) {
	const n = 12
	plain := func(s UnitSpec, _ UnitResult) bool {
		w, _ := s.orbit(n)
		return w == 8
	}
	// Units with solutions that a half turn (and not a quarter turn) fixes,
	// and room for 4 more of them.
	fixed180 := func(s UnitSpec, u UnitResult) bool {
		return s.first && !s.fixedBy(n, board.Rotate90) && u.Rot180 > 0 && u.Rot180+4 <= u.Total
	}
	fixed90 := func(s UnitSpec, u UnitResult) bool { return s.first && s.fixedBy(n, board.Rotate90) }
	for _, tc := range []struct {
		name string
		unit func(UnitSpec, UnitResult) bool
		edit func(*UnitResult)
		want string
	}{
		{"rot90 on an asymmetric constellation", plain, func(u *UnitResult) { u.Rot90 = 8 }, "a quarter turn does not fix"},
		{"rot180 on an asymmetric constellation", plain, func(u *UnitResult) { u.Rot180 = 8 }, "a half turn does not fix"},
		{"total off the orbit size", plain, func(u *UnitResult) { u.Total += 4 }, "not a multiple of 8"},
		{"total raised by a whole orbit", plain, func(u *UnitResult) { u.Total += 8 }, "does not match the published count"},
		{"rot90 on a half-turn constellation", fixed180, func(u *UnitResult) { u.Rot90 = 4 }, "a quarter turn does not fix"},
		{"rot180 above the total", fixed180, func(u *UnitResult) { u.Rot180 = u.Total + 4*(1+u.Total%4) }, "exceeds total"},
		{"rot90 above rot180", fixed90, func(u *UnitResult) { u.Rot90 = u.Rot180 + 2 }, "exceeds rot180"},
		{"Burnside sum off by 4", fixed180, func(u *UnitResult) { u.Rot180 += 4 }, "Burnside"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			us := testkit.AllUnits(t, n, Units, CountUnit)
			i := firstUnit(t, n, us, tc.unit)
			tc.edit(&us[i])
			_, err := combine(n, us)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("unit %d edited to %+v: err = %v, want one saying %q", i, us[i], err, tc.want)
			}
			var ie *ImplausibleError
			if errors.As(err, &ie) && !contains(ie.Units, i) {
				t.Errorf("the error names units %v, not the edited unit %d", ie.Units, i)
			}
		})
	}
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// TestCheckAcceptsEveryRealUnit: every result of a correct search passes
// Check, nodes and all: the engine's units of N = 1 to 15 (the tree to 13,
// the join from 14; 17 and 18 without -short), and the tree's units,
// whole and split, of the N the join counts (the tree's bounds on larger
// trees).
func TestCheckAcceptsEveryRealUnit(t *testing.T) {
	ns := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	tree := []int{14, 15}
	if !testing.Short() {
		ns, tree = append(ns, 16, 17, 18), append(tree, 16)
	}
	for _, n := range ns {
		for _, u := range testkit.AllUnits(t, n, Units, CountUnit) {
			if err := Check(n, u); err != nil {
				t.Fatalf("N=%d: %v", n, err)
			}
		}
	}
	for _, n := range append(tree, 12, 13) {
		for _, split := range []bool{false, true} {
			for i, s := range buildUnits(n, split) {
				u, _, err := countSpec(n, i, s, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := check(n, s, u); err != nil {
					t.Fatalf("the tree's unit %d of N = %d (split %v): %v", i, n, split, err)
				}
			}
		}
	}
}

// TestCheckRefusesNodesThatCannotHoldTheTotal: a unit result whose nodes
// are too few for its total (or, where no search runs, any nodes) is
// refused, for the tree and the join, while its true result passes.
func TestCheckRefusesNodesThatCannotHoldTheTotal(t *testing.T) {
	// rows returns the rows spec's queens leave empty, and its orbit size.
	rows := func(n int, s UnitSpec) (e, w uint64) {
		b, _ := s.board(n)
		size, _ := s.orbit(n)
		return uint64(bits.OnesCount64(b.Rows)), uint64(size)
	}
	// unitOf returns the first unit of specs whose true result matches
	// pred, with that result.
	unitOf := func(n int, specs []UnitSpec, pred func(UnitSpec, UnitResult) bool) (UnitSpec, UnitResult) {
		for i, s := range specs {
			u, _, _ := countSpec(n, i, s, nil)
			if pred(s, u) {
				return s, u
			}
		}
		t.Fatalf("N = %d: no unit matches", n)
		return UnitSpec{}, UnitResult{}
	}
	tree12, tree12u := unitOf(12, units(12), func(_ UnitSpec, u UnitResult) bool { return u.Total > 0 })
	e12, w12 := rows(12, tree12)
	small, smallU := unitOf(6, units(6), func(s UnitSpec, u UnitResult) bool { e, _ := rows(6, s); return e <= 3 && u.Total > 0 })
	_, ws := rows(6, small)
	split, splitU := unitOf(12, buildUnits(12, true), func(s UnitSpec, u UnitResult) bool { return s.Row >= 0 && u.Total > 0 })
	tests := []struct {
		name string
		n    int
		spec UnitSpec
		u    UnitResult
		want string
	}{
		{"solutions without nodes", 12, tree12, UnitResult{Index: tree12u.Index, Total: tree12u.Total}, "a solution lies"},
		{"a solution shallower than the rows left", 12, tree12, UnitResult{Index: tree12u.Index, Total: w12, Nodes: e12 - 4}, "a solution lies"},
		{"more solutions than the last level holds", 12, tree12,
			UnitResult{Index: tree12u.Index, Total: tree12u.Total + 6*w12*tree12u.Nodes, Nodes: tree12u.Nodes}, "exceeds what nodes"},
		{"nodes where no search runs", 6, small, UnitResult{Index: smallU.Index, Total: smallU.Total, Nodes: 1}, "counted without a search"},
		{"more than the last rows hold", 6, small, UnitResult{Index: smallU.Index, Total: 7 * ws}, "hold at most"},
		{"a split unit without its queen's node", 12, split, UnitResult{Index: splitU.Index, Total: 0}, "its split queen is a node"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := check(tt.n, tt.spec, tt.u)
			var ie *ImplausibleError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%+v: %v, want an ImplausibleError saying %q", tt.u, err, tt.want)
			}
		})
	}
	for _, c := range []struct {
		n    int
		spec UnitSpec
		u    UnitResult
	}{{12, tree12, tree12u}, {6, small, smallU}, {12, split, splitU}} {
		if err := check(c.n, c.spec, c.u); err != nil {
			t.Errorf("the true result %+v: %v", c.u, err)
		}
	}

	// The join: a total above one solution per pair of halves times the
	// largest weight, nodes in a rotation unit.
	const n = 14
	js := schemeOf(n).(*joinScheme)
	all := testkit.AllUnits(t, n, Units, CountUnit)
	k := 0
	for all[k].Total == 0 {
		k++
	}
	rot := js.layout.Units()
	for _, tc := range []struct {
		name string
		u    UnitResult
		want string
	}{
		{"join: solutions without pairs", UnitResult{Index: k, Total: all[k].Total}, "exceeds what nodes"},
		{"join: more than the pairs allow", UnitResult{Index: k, Total: all[k].Total, Nodes: all[k].Total/uint64(js.maxW[k]) - 1}, "exceeds what nodes"},
		{"join: nodes in a rotation unit", UnitResult{Index: rot, Rot180: all[rot].Rot180, Rot90: all[rot].Rot90, Nodes: 10}, "report no nodes"},
	} {
		if err := Check(n, tc.u); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %+v: %v, want an error saying %q", tc.name, tc.u, err, tc.want)
		}
	}
}

func TestMismatchError(t *testing.T) {
	e := &MismatchError{N: 16, Total: U128(14772520), Unique: U128(1846955), WantTotal: U128(14772512), WantUnique: U128(1846955)}
	want := "N = 16: the total 14772520 does not match the published count 14772512 (OEIS A000170); the result is wrong, and was not printed"
	if e.Error() != want {
		t.Errorf("got %q\nwant %q", e.Error(), want)
	}
}

// combine adds the results of every unit of N into the count.
func combine(n int, results []UnitResult) (Result, error) {
	t, err := NewTally(n)
	if err != nil {
		return Result{}, err
	}
	for _, u := range results {
		if err := t.Add(u); err != nil {
			return Result{}, err
		}
	}
	return t.Result()
}
