package count

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testkit"
)

// TestCheckSpread checks that a forged total past the published table is
// refused by the estimate's spread (the forged N = 28 total was
// 7023016), that a plausible one passes, and that N with a published
// count is left to the table.
func TestCheckSpread(t *testing.T) {
	if testing.Short() {
		t.Skip("probes N = 28 twice (about a second)")
	}
	var se *SpreadError
	if err := CheckSpread(context.Background(), Result{N: 28, Total: U128(7023016)}); !errors.As(err, &se) {
		t.Errorf("forged total: %v, want a SpreadError", err)
	}
	// docs/cluster.md's estimate of N = 28: 2.491e18 ± 1%.
	if err := CheckSpread(context.Background(), Result{N: 28, Total: Uint128{Lo: 2_491_000_000_000_000_000}}); err != nil {
		t.Errorf("plausible total: %v", err)
	}
	if err := CheckSpread(context.Background(), Result{N: 14, Total: U128(1)}); err != nil {
		t.Errorf("N = 14 is the table's: %v", err)
	}
}

// TestUnitEstimateAllowsEveryRealUnit: the estimate of every unit of the
// N the tree counts, up to 13, allows its true result, with three seeds
// (one, and up to 12, under -short); and so does that of every unit of the
// tree's own search of N = 14 to 17 (which the join counts), with two. It
// logs how close the bounds came: the figures behind them (estimate.go).
func TestUnitEstimateAllowsEveryRealUnit(t *testing.T) {
	maxN, seeds, tree := 13, 3, []int{14, 15, 16, 17}
	if testing.Short() {
		maxN, seeds, tree = 12, 1, nil
	}
	if raceOn {
		// One goroutine's arithmetic, which the race detector slows tenfold
		// (108 s) and has nothing to watch in: one seed, and the tree's
		// N = 14 and 15 there (the run without it checks them all).
		seeds, tree = 1, tree[:2]
	}
	type scan struct{ nodesLo, nodesHi, totalLo, totalHi, fewHits float64 }
	check := func(n, i int, s UnitSpec, u UnitResult, seed uint64, sc *scan) {
		t.Helper()
		e := estimateSpec(n, i, s, UnitProbes, seed)
		if err := e.Allows(u); err != nil {
			t.Fatalf("seed %d: the true result %+v: %v", seed, u, err)
		}
		if u.Nodes > 0 {
			r := e.Nodes / float64(u.Nodes)
			sc.nodesLo, sc.nodesHi = min(sc.nodesLo, r), max(sc.nodesHi, r)
		}
		switch {
		case u.Total == 0:
		case e.Hits >= unitHitsForTotal:
			r := e.Total / float64(u.Total)
			sc.totalLo, sc.totalHi = min(sc.totalLo, r), max(sc.totalHi, r)
		case e.Nodes > 0:
			sc.fewHits = max(sc.fewHits, float64(u.Total)/float64(e.weight)/(float64(e.Hits+1)/float64(e.Probes)*e.Nodes))
		}
	}
	for n := 1; n <= maxN; n++ {
		all := testkit.AllUnits(t, n, Units, CountUnit)
		for seed := range uint64(seeds) {
			sc := scan{nodesLo: 1, nodesHi: 1, totalLo: 1, totalHi: 1}
			for i, s := range units(n) {
				check(n, i, s, all[i], seed, &sc)
			}
			t.Logf("N = %d, seed %d: estimate/true nodes %.3f to %.3f, total %.3f to %.3f; few hits: total at most %.2f of the bound's base", n, seed, sc.nodesLo, sc.nodesHi, sc.totalLo, sc.totalHi, sc.fewHits)
		}
	}
	for _, n := range tree {
		specs := units(n)
		all := make([]UnitResult, len(specs))
		for i, s := range specs {
			all[i], _, _ = countSpec(n, i, s, nil)
		}
		for seed := range uint64(2) {
			sc := scan{nodesLo: 1, nodesHi: 1, totalLo: 1, totalHi: 1}
			for i, s := range specs {
				check(n, i, s, all[i], seed, &sc)
			}
			t.Logf("the tree's N = %d, seed %d: estimate/true nodes %.3f to %.3f, total %.3f to %.3f; few hits: total at most %.2f of the bound's base", n, seed, sc.nodesLo, sc.nodesHi, sc.totalLo, sc.totalHi, sc.fewHits)
		}
	}
}

// TestUnitEstimateCatchesForgedResults: results a worker makes up without
// counting are outside their unit's estimate.
func TestUnitEstimateCatchesForgedResults(t *testing.T) {
	const n = 12
	all := testkit.AllUnits(t, n, Units, CountUnit)
	est := func(i int) UnitEstimate {
		e, err := EstimateUnit(n, i, UnitProbes, 7)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	// find returns a unit whose estimate matches pred.
	find := func(pred func(UnitEstimate, UnitResult) bool) (UnitEstimate, UnitResult) {
		for i := range all {
			if e := est(i); pred(e, all[i]) {
				return e, all[i]
			}
		}
		t.Fatal("no unit matches")
		return UnitEstimate{}, UnitResult{}
	}
	rich, richU := find(func(e UnitEstimate, u UnitResult) bool { return e.Hits >= unitHitsForTotal })
	barren, barrenU := find(func(e UnitEstimate, u UnitResult) bool { return u.Total == 0 && e.Nodes > 100 })
	for _, tc := range []struct {
		name string
		e    UnitEstimate
		u    UnitResult
		want string
	}{
		{"nothing counted", rich, UnitResult{Index: richU.Index}, "nodes = 0"},
		{"no solutions, true nodes", rich, UnitResult{Index: richU.Index, Nodes: richU.Nodes}, "found solutions"},
		{"ten times the nodes", rich, UnitResult{Index: richU.Index, Total: richU.Total, Nodes: 10 * richU.Nodes}, "nodes ="},
		{"a tenth of the nodes", rich, UnitResult{Index: richU.Index, Total: richU.Total, Nodes: richU.Nodes / 10}, "nodes ="},
		{"a hundred times the total", rich, UnitResult{Index: richU.Index, Total: 100 * richU.Total, Nodes: richU.Nodes}, "total ="},
		{"a fiftieth of the total", rich, UnitResult{Index: richU.Index, Total: richU.Total / 50 / 8 * 8, Nodes: richU.Nodes}, "total ="},
		{"solutions where probes found none", barren, UnitResult{Index: barrenU.Index, Total: 8 * barrenU.Nodes / 8, Nodes: barrenU.Nodes}, "random probes found a solution"},
	} {
		err := tc.e.Allows(tc.u)
		var ee *EstimateError
		if !errors.As(err, &ee) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %+v: %v, want an EstimateError saying %q", tc.name, tc.u, err, tc.want)
		}
	}
	if _, err := EstimateUnit(14, 0, UnitProbes, 1); err == nil || !strings.Contains(err.Error(), "join") {
		t.Errorf("a unit of the join: %v", err)
	}
}
