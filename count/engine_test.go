package count

import (
	"context"
	"errors"
	"fmt"
	"github.com/nqueens/nqueens/internal/join"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/kernel"
)

// TestEngineLoopsAgree counts every unit of every N ≤ 14, whole and split,
// with the engine as Count runs it (the assembly loop on amd64) and with
// the Go loops alone: the same completions and the same nodes. The split
// units are those of SplitFrom and up, built here for small N.
func TestEngineLoopsAgree(t *testing.T) {
	maxN := 14
	if testing.Short() {
		maxN = 11
	}
	for n := 1; n <= maxN; n++ {
		for _, split := range []bool{false, true} {
			for i, s := range buildUnits(n, split) {
				b, _ := s.board(n)
				sols, nodes, ok := kernel.Count(&b, nil)
				rs, rn := kernel.CountReference(&b)
				if !ok || sols != rs || nodes != rn {
					t.Fatalf("N=%d split=%v unit %d %+v: engine %d completions %d nodes, Go loops %d %d", n, split, i, s, sols, nodes, rs, rn)
				}
			}
		}
	}
}

// TestEngineAgainstReference counts N = 17 (in CI) and, with
// NQUEENS_LONG=1, N = 18 and 19 on all cores against the published table.
// N = 20 was counted once by hand; docs/engine-log.md has the run.
func TestEngineAgainstReference(t *testing.T) {
	if testing.Short() {
		t.Skip("N = 17 takes seconds")
	}
	ref := referenceCounts(t)
	ns := []int{17}
	if longTests() {
		ns = append(ns, 18, 19)
	}
	for _, n := range ns {
		t.Run(fmt.Sprintf("N=%d", n), func(t *testing.T) {
			r, err := Count(context.Background(), n, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if want := ref[n]; r.Total != want[0] || r.Unique != want[1] {
				t.Errorf("N=%d: total %s unique %s, want %s %s", n, r.Total, r.Unique, want[0], want[1])
			}
		})
	}
}

// TestJoinScheme counts N = 4 … 13 (11 with -short) by the join, which
// Count uses only from JoinFrom on, unit by unit through a Tally: the
// published totals and unique counts, and the rotation units agreeing
// with the tree's counts of the solutions a rotation fixes.
func TestJoinScheme(t *testing.T) {
	ref := referenceCounts(t)
	maxN := 13
	if testing.Short() {
		maxN = 11
	}
	for n := 4; n <= maxN; n++ {
		s := newJoinScheme(n)
		tl := newTallyWith(n, s)
		for i := range s.len() {
			u, ok, err := s.count(i, nil)
			if !ok || err != nil {
				t.Fatalf("N=%d unit %d: %v", n, i, err)
			}
			if err := tl.Add(u); err != nil {
				t.Fatalf("N=%d: %v", n, err)
			}
		}
		r, err := tl.Result()
		if err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		tree, err := Count(context.Background(), n, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := ref[n]; r.Total != want[0] || r.Unique != want[1] || r.Rot180 != tree.Rot180 || r.Rot90 != tree.Rot90 {
			t.Errorf("N=%d: join %+v, want %s %s and the tree's rotations %s %s", n, r, want[0], want[1], tree.Rot180, tree.Rot90)
		}
	}
}

// TestRotationUnits holds rotationUnits, which builds only the
// constellations a half turn can fix, to the representatives of
// buildUnits that a half turn fixes, in the same order: they number the
// rotation units of the join.
func TestRotationUnits(t *testing.T) {
	maxN := JoinTo
	if testing.Short() {
		maxN = 16
	}
	for n := 1; n <= maxN; n++ {
		var want []UnitSpec
		for _, s := range buildUnits(n, false) {
			if s.fixedBy(n, board.Rotate180) {
				want = append(want, s)
			}
		}
		if got := rotationUnits(n); !slices.Equal(got, want) {
			t.Errorf("N=%d: rotationUnits gives %d units %v, want %d %v", n, len(got), got, len(want), want)
		}
	}
}

// TestJoinChecks feeds the tally of a join N results no correct unit
// gives.
func TestJoinChecks(t *testing.T) {
	const n = 14
	s := schemeOf(n).(*joinScheme)
	good, ok, err := s.count(0, nil)
	if !ok || err != nil {
		t.Fatal(err)
	}
	rot := s.layout.Units()
	goodRot, _, _ := s.count(rot, nil)
	odd := -1
	for u, g := range s.gcd {
		if g > 1 {
			odd = u
			break
		}
	}
	oddGood, _, _ := s.count(odd, nil)
	tests := []struct {
		name string
		u    UnitResult
		want string
	}{
		{"rotation in a join unit", UnitResult{Index: 0, Total: good.Total, Rot180: 4}, "counts no rotations"},
		{"total off its weights", UnitResult{Index: odd, Total: oddGood.Total + 1}, "not a multiple"},
		{"total in a rotation unit", UnitResult{Index: rot, Total: 8, Rot180: goodRot.Rot180}, "only the solutions a rotation fixes"},
		{"quarter above half turn", UnitResult{Index: rot, Rot180: 0, Rot90: 8}, "rot90"},
	}
	for _, tt := range tests {
		err := Check(n, tt.u)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
	if err := Check(n, good); err != nil {
		t.Errorf("a correct unit: %v", err)
	}
	if f := Fingerprint(n); !strings.Contains(f, "scheme=half-join-s0-k1") {
		t.Errorf("fingerprint %q does not name the join", f)
	}
	if _, err := Unit(n, 0); err == nil {
		t.Error("Unit of a join N: no error")
	}
}

// TestJoinMemory counts N = 14 to 16 (17 outside -short) where the
// system has 1 MB free, so that the quarter tables never fit and every
// worker builds the quarter placements of each rows set: the published
// counts, and each worker within the memory allowed. Within 64 kB, less
// than N = 16's lists and halves take, the count fails and says so.
func TestJoinMemory(t *testing.T) {
	old := memoryLimit
	memoryLimit = func() int64 { return 1 << 10 }
	defer func() { memoryLimit = old }()
	ref := referenceCounts(t)
	maxN := 17
	if testing.Short() {
		maxN = 16
	}
	for n := JoinFrom; n <= maxN; n++ {
		schemes.Delete(n)
		r, err := Count(context.Background(), n, Options{Workers: 2})
		s := schemeOf(n).(*joinScheme)
		if err != nil || r.Total != ref[n][0] || r.Unique != ref[n][1] {
			t.Errorf("N=%d in 1 kB: %v, %v; want %s", n, r.Total, err, ref[n][0])
		}
		if !s.lists || s.tables != nil {
			t.Errorf("N=%d in 1 kB: the quarter tables were built", n)
		}
		for _, w := range s.workers {
			if w.Bytes() > Memory() || w.Bytes() == 0 {
				t.Errorf("N=%d: a worker took %d bytes, allowed %d", n, w.Bytes(), Memory())
			}
		}
		schemes.Delete(n)
	}
	SetMemory(64 << 10)
	defer SetMemory(0)
	_, err := Count(context.Background(), 16, Options{Workers: 1})
	// Its lists pass their share, or the worker the whole.
	var me *MemoryError
	var le *join.MemoryError
	switch {
	case errors.As(err, &le):
		if le.N != 16 || !le.List || le.Need <= le.Limit || !strings.Contains(err.Error(), "the join of N = 16 needs") {
			t.Fatalf("count of N = 16 in 64 kB: %v", err)
		}
	case !errors.As(err, &me) || me.N != 16 || me.Used <= me.Limit || !strings.Contains(err.Error(), "the join of N = 16 took"):
		t.Fatalf("count of N = 16 in 64 kB: %v", err)
	}
	schemes.Delete(16)
}

// TestJoinResume resumes a count of a join N (14) from half of its units,
// the join units and the rotation units alike: the same result, and only
// the other half searched.
func TestJoinResume(t *testing.T) {
	const n = 14
	var all []UnitResult
	full, err := Count(context.Background(), n, Options{Workers: 2, OnUnit: func(u UnitResult) { all = append(all, u) }})
	if err != nil {
		t.Fatal(err)
	}
	var half []UnitResult
	for _, u := range all {
		if u.Index%2 == 0 {
			half = append(half, u)
		}
	}
	searched := 0
	r, err := Count(context.Background(), n, Options{Resume: half, OnUnit: func(UnitResult) { searched++ }})
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != full.Total || r.Unique != full.Unique || r.Rot180 != full.Rot180 || r.Nodes != full.Nodes {
		t.Errorf("resumed %+v, uninterrupted %+v", r, full)
	}
	if searched != Units(n)-len(half) {
		t.Errorf("resumed run searched %d units, want %d", searched, Units(n)-len(half))
	}
}

// TestUnitSeconds: the time of a count by the join that UnitSeconds
// spreads over the units is its table's, measured or estimated, with a
// unit of N = 27 about 19 minutes of one core and of N = 28 about 5 hours
// (the 10-fold growth a step it once had put N = 27's at 4 hours); past
// the table it grows by the last step's factor,
// and it grows with N from N = 4 to JoinTo (-short leaves out N = 20 to
// 23, whose units take seconds to list).
func TestUnitSeconds(t *testing.T) {
	// The units of N = 20 to 23 are listed keys: seconds to make.
	skip := func(n int) bool { return testing.Short() && n >= 20 && n <= 23 }
	for n := JoinFrom; n < len(joinSeconds); n++ {
		if skip(n) {
			continue
		}
		if got := UnitSeconds(n) * float64(Units(n)); math.Abs(got-joinSeconds[n]) > 1e-9*joinSeconds[n] {
			t.Errorf("N=%d: %g s in all, want %g", n, got, joinSeconds[n])
		}
	}
	last := len(joinSeconds) - 1
	for n := last + 1; n <= JoinTo; n++ {
		want := joinSeconds[last] * math.Pow(joinSeconds[last]/joinSeconds[last-1], float64(n-last))
		if got := UnitSeconds(n) * float64(Units(n)); math.Abs(got-want) > 1e-9*want {
			t.Errorf("N=%d: %g s in all, want %g", n, got, want)
		}
	}
	if u := UnitSeconds(27); u < 900 || u > 1800 {
		t.Errorf("a unit of N = 27: %g s, want about 19 minutes", u)
	}
	if u := UnitSeconds(28); u < 3*3600 || u > 7*3600 {
		t.Errorf("a unit of N = 28: %g s, want about 5 hours", u)
	}
	for n := 5; n <= JoinTo; n++ {
		if skip(n) || skip(n-1) {
			continue
		}
		if UnitSeconds(n)*float64(Units(n)) <= UnitSeconds(n-1)*float64(Units(n-1)) {
			t.Errorf("a count of N = %d takes no longer than of N = %d", n, n-1)
		}
	}
}
