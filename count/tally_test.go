package count

import (
	"errors"
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

func TestCheckAcceptsEveryRealUnit(t *testing.T) {
	for n := 1; n <= 11; n++ {
		for _, u := range testkit.AllUnits(t, n, Units, CountUnit) {
			if err := Check(n, u); err != nil {
				t.Fatalf("N=%d: %v", n, err)
			}
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
